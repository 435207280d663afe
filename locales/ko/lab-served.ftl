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
served-keys-step = 답을 입력하고 Enter로 보내기 · Ctrl-T 힌트 · Esc 단계 목록 · Ctrl-C 종료
