# 실습 모드 (src/ui/lab.rs)와 화면에 보이는 실습의 메시지 (src/lab).

## 아래 줄(footer)의 동작 이름.
lab-key-move = 이동
lab-key-open-step = 단계 열기
lab-key-hand-in = 최종 제출
lab-key-help = 도움말
lab-key-quit-saved = 종료 (작업은 저장됨)
lab-key-quit = 종료
lab-key-next-step = 다음 단계
lab-key-explain = 풀이
lab-key-submit = 제출
lab-key-show-me = show me
lab-key-steps = 단계
lab-key-overview = 개요
lab-key-back = 뒤로

## 실습 중 모든 화면 위의 머리줄.
lab-header-step = { $step }/{ $n }단계
lab-header-answered = { $answered }/{ $n } 답함
lab-header-points = { $points }/{ $max }점
lab-header-handed-in = 제출 완료
lab-header-time-up = 시간 종료
lab-header-late = 기한 지남: 감점 · 마감까지 { $time }
lab-header-time-left = { $time } 남음

## 단계의 상태 (개요와 마지막 화면).
lab-attempts = { $n }번 시도
lab-standing-answered = 답함
lab-standing-open = 열림
lab-standing-locked = 잠김
lab-standing-solved = 맞음 · { $points }점 · { $attempts }
lab-standing-not-solved = 못 풂 · 0점 · { $attempts }
lab-standing-not-answered = 답 없음 · 0점
lab-standing-open-attempts = 열림 · { $allowed }번 중 { $used }번 시도
lab-standing-worth = { $standing } · 배점 { $points }점

## 개요.
lab-steps-title = 실습 단계
lab-rules = 시도별 점수: { $points } · 단계마다 { $attempts }번 시도 · { $hints } · { $order }
lab-rules-weighted = 배점이 표시된 단계는 이 점수를 그 배점에 맞춰 환산
lab-rules-hints-free = 힌트 무료
lab-rules-hint-cost = 힌트마다 { $n }점 감점
lab-rules-no-hints = 힌트 없음
lab-rules-in-order = 단계는 차례로 열림
lab-rules-any-order = 단계 순서 자유
lab-rules-exam = 시험: 결과는 제출할 때 공개
lab-handed-in-receipt = 제출 완료. 영수증(receipt):
lab-confirm-hand-in = 실습을 제출할까요? 제출하려면 s를 한 번 더 누르고, 다른 키를 누르면 취소됩니다.
lab-all-done = 모든 단계를 마쳤습니다: s를 눌러 제출하고 영수증(receipt)을 받으세요.
lab-closed-handed-in = 이미 제출한 실습입니다.
lab-closed-time-up = 시간이 끝나 더 이상 답을 받지 않습니다. 제출: g, 그다음 s.
lab-closed-not-open = 이 랩은 { $opens }에 열립니다. 그때부터 답을 받습니다.

## 한 단계.
lab-step-opens-later = { $step }단계는 이 단계를 마치면 열립니다.
lab-answer-recorded = 답을 기록했습니다. 맞았는지는 제출할 때 알려 줍니다.
lab-not-right = 틀렸습니다. { $left }번 더 시도할 수 있고, 최대 { $points }점입니다.
lab-not-right-why = 문제의 숫자를 다시 차근차근 따져 보세요.
lab-no-new-numbers = 실습에서는 새 숫자를 뽑을 수 없습니다.
lab-hints-off = 이 실습에서는 힌트를 쓸 수 없습니다.
lab-hints-step-done = 이 단계는 끝났습니다. 힌트는 열린 단계에서만 씁니다.
lab-explanation-later = 풀이 설명은 이 단계를 마치면 열립니다.
lab-show-me-off = 이 실습에서는 show me를 쓸 수 없습니다.
lab-status-answered = { $step }/{ $n }단계 · 답함
lab-status-exam = { $step }/{ $n }단계 · 답은 한 번 · 맞으면 { $points }점
lab-status-solved = { $step }/{ $n }단계 · 맞음 · { $points }점 · Enter: 다음 단계
lab-status-not-solved = { $step }/{ $n }단계 · 못 풂 · 0점 · Enter: 다음 단계
lab-status-hint-cost = 힌트 −{ $n }점
lab-status-open = { $step }/{ $n }단계 · 시도 { $attempt }/{ $allowed } · 맞으면 { $points }점 · { $hints }

## 제출한 뒤.
lab-end-title = 제출 완료
lab-end-score = 점수
lab-end-points = { $points }/{ $max }점 ({ $percent }%)
lab-end-receipt = 영수증
lab-end-paste = 영수증을 수업 페이지에 붙여 넣으세요. 결과 파일과 이번 제출을 이어 줍니다.
lab-no-more-hints = 이 단계의 힌트는 모두 보았습니다.
lab-kernel-empty = 커널 파일이 비어 있습니다. 커널을 작성하고 저장한 뒤 제출하세요.
lab-puzzle-reference-later = 참고 해답은 이 단계가 끝나면 열립니다.
lab-kernel-not-handed-in = 제출되지 않았습니다(시도로 세지 않음): { $message }
lab-kernel-no-file = 아직 커널 파일이 없습니다. s로 시작 파일을 만들고, 편집기에서 고쳐 저장한 뒤 Enter를 누르세요.
lab-kernel-checking = 파일을 검사하는 중… 검사가 끝나면 제출됩니다.
lab-key-hand-in-file = 파일 제출
lab-key-try = 지금 검사(시도로 세지 않음)
lab-kernel-solved = 풀었습니다: 결과가 맞고 모든 목표를 달성했습니다. { $points }점.
lab-kernel-not-solved = 제출했지만 아직 풀지 못했습니다. 검사 결과는 화면에 있습니다. 남은 시도 { $left }번.
