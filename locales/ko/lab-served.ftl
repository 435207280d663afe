# 서버에서 진행하는 실습의 튜터 (src/ui/lab_served.rs, `warpdrill lab join`).

served-connecting = 실습 서버에 연결하는 중…
served-graded-by-server = 모든 답은 강사의 서버가 채점하고, 시간도 서버가 잽니다.
served-offline = 실습 서버에 연결되지 않았습니다 ({ $error }). 입력한 내용은 그대로 있으며, 서버가 응답하면 마지막 요청을 다시 보냅니다.
served-handed-in = 제출했습니다.
served-recorded = 답이 서버에 기록되었습니다. 정답 여부는 실습을 제출한 뒤에 보입니다.
served-time-up = 시간이 끝났습니다. 서버가 실습을 제출합니다.
served-time-up-handed-in = 시간이 끝나 서버가 실습을 제출했습니다. 영수증:
served-step-title = { $step }단계: { $title }
served-answered = 입력한 답: { $answer }
served-answer-prompt = 답:
served-keys-overview = ↑↓ 이동 · Enter 단계 열기 · s 제출 · r 새로 고침 · q 종료 (모든 기록은 서버에 있음)
served-keys-handed-in = ↑↓ 이동 · Enter 단계 보기 · r 새로 고침 · q 종료 (제출됨: 모든 기록은 서버에 있음)
served-keys-done = Enter 또는 Esc: 단계 목록으로 · Ctrl-C 종료
served-keys-step = 답을 입력하고 Enter로 보내기 · Ctrl-T 힌트 · Esc 단계 목록 · Ctrl-C 종료

## 강사용 대시보드 (src/ui/lab_dashboard.rs, 터미널에서 `warpdrill lab serve`).
dashboard-students = 학생 { $n }명
dashboard-students-title = 학생
dashboard-steps-title = 단계별 진행 상황
dashboard-handed-in-time-up = 제출됨 (시간 종료)
dashboard-not-joined = 아직 접속하지 않음
dashboard-all-done = 모든 단계 완료
dashboard-percent = 답한 { $n }명 중 { $percent }% 정답
dashboard-no-answers = 아직 답이 없음
dashboard-wrong = 자주 나온 오답: { $answers }
dashboard-mistakes = 오개념: { $names }
dashboard-no-step = { $student } 학생에게는 새 숫자를 줄 열린 단계가 없습니다.
dashboard-extra-time = { $student } 학생에게 { $minutes }분을 더 주었습니다.
dashboard-rerolled = { $student } 학생의 { $step }단계에 새 숫자를 주었고, 그 단계는 처음부터 다시 시작합니다.
dashboard-timed-out = 시간이 끝나 제출됨: { $students }.
dashboard-confirm-quit = 서버를 멈출까요? q를 한 번 더 누르세요 (학생들의 기록은 저장되어 있고, 같은 --db로 다시 시작할 수 있습니다).
dashboard-keys = ↑↓ 학생 선택 · + 5분 더 · r 현재 단계에 새 숫자 · q 서버 멈추기
served-kernel-wrote = 시작 파일을 { $path }에 만들었습니다. 편집기에서 고쳐 저장한 뒤 Enter로 제출하세요.
served-kernel-too-long = 커널 파일이 { $max }자보다 길어 보내지 않았습니다.
served-kernel-file = 파일: { $path } — 고쳐 저장한 뒤 Enter로 제출합니다(시도 1번). `warpdrill puzzle check { $id } { $path }`로 먼저 여기서 검사할 수 있습니다(시도로 세지 않음).
served-kernel-checking = 서버가 커널을 검사하는 중…
served-keys-kernel = Enter 파일 제출 · Ctrl-T 힌트 · Esc 단계 목록 · Ctrl-C 종료
