# 복습 화면 (src/ui/review.rs)과 그 화면에 보이는 스케줄러의 말 (src/srs).

## 아래 줄(footer)의 동작 이름. 키 이름은 그대로 둔다.
review-key-show-answer = 답 보기
review-key-undo = 되돌리기
review-key-suspend = 보류
review-key-bury = 미루기
review-key-back = 뒤로
review-key-rate = 평가
review-key-good = 좋음
review-key-check = 확인
review-key-hint = 힌트
review-key-accept = 제안 수락
review-key-choose = 평가 선택

## 네 가지 평가.
review-rating-again = 다시
review-rating-hard = 어려움
review-rating-good = 좋음
review-rating-easy = 쉬움

## 버튼에 쓰는 다음 복습까지의 간격: 짧게.
review-interval-minutes = { $n }분
review-interval-hours = { $n }시간
review-interval-days = { $n }일
review-interval-months = { $n }개월
review-interval-years = { $n }년

review-title = 복습 · { $topic }
review-title-plain = 복습
review-title-done = 완료
review-counts = 새 카드 { $new } · 학습 중 { $learning } · 복습 { $due }
review-unavailable = 복습을 할 수 없습니다: 복습 기록(log)을 열지 못했습니다.
review-show-answer = Space나 Enter를 누르면 답이 보입니다.
review-hint = 힌트: { $hint }
review-proposed = 제안: { $rating } — Enter로 수락, 1-4로 선택

## 세션이 끝났을 때.
review-done = 오늘은 여기까지입니다.
review-summary = 카드 { $n }장 복습 · 다시 { $again } · 시간 { $time }
review-next-due = 다음 카드: { $when }
review-when-minutes = { $n }분 후
review-when-hours = { $n }시간 후
review-when-tomorrow = 내일
review-when-days = { $n }일 후
review-when-new-cards = 새 카드를 추가하면
review-done-keys = u는 마지막 평가를 취소하고, q는 뒤로 갑니다.
review-no-more-hints = 힌트를 모두 보았습니다: 답을 입력하고 Enter를 누르세요.
review-no-hints = 이 드릴에는 힌트가 없습니다: 답을 입력하고 Enter를 누르세요.
review-suspended = 보류했습니다: 보류를 풀 때까지 복습에 나오지 않습니다 (u로 되돌립니다).
review-buried = 내일까지 미뤘습니다 (u로 되돌립니다).
review-undone-rating = 마지막 평가를 취소했습니다.
review-undone-suspend = 보류를 취소했습니다: 카드가 다시 복습에 들어갑니다.
review-undone-bury = 미루기를 취소했습니다: 카드가 다시 복습에 들어갑니다.
review-undone-earlier = 이전 세션의 변경을 취소했습니다.
review-put-aside = 제쳐 둔 카드: 보류 { $suspended } · 미룸 { $buried }
review-new-limit = 오늘의 새 카드 한도 { $limit }장을 다 썼습니다. 새 카드 { $n }장이 기다리고 있습니다. 오늘 더 배우려면 `{ $command }`로 시작하세요.
