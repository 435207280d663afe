# The exercise screen.
exercise-key-submit = 제출
exercise-key-new-numbers = 새 숫자
exercise-key-explain = 풀이
exercise-key-had-it = 맞췄음
exercise-key-missed-it = 놓쳤음
exercise-key-next = 다음
exercise-key-move-item = 항목 이동
exercise-key-choose = 고르기
exercise-key-show-me = 보여줘
exercise-key-simply = 쉽게
exercise-key-next-previous = 다음/이전
exercise-key-past-answers = 이전 답
exercise-fixed-fact = 이 문제는 정해진 사실이라 바꿀 숫자가 없다. { $key } 키로 다음 문제로 간다.
exercise-show-me-later = show me는 첫 답을 낸 뒤에 열린다: 이 숫자로는 답을 보여 주게 되기 때문이다. 한 번 답해 보거나 (찍어도 된다) 힌트를 보자.
exercise-cannot-mark-had = 모범 답안의 아이디어가 답에서 하나도 보이지 않아 맞췄다고 표시할 수 없다: n을 누르고 자기 말로 다시 써 보자.
exercise-status-solved = 풂
exercise-status-seen = 봄
exercise-status-attempted = 시도함
exercise-status-new = 새 문제
exercise-broken = 이 문제는 보여 줄 수 없다.
exercise-broken-check = 템플릿의 잘못을 찾으려면 `warpdrill content check`를 실행한다.
exercise-part = { $n }부분
exercise-part-exact = { $total }부분 중 { $n }부분 (정확히): { $prompt }
exercise-part-explain = { $total }부분 중 { $total }부분: 자기 말로 하는 설명.
exercise-arrange = 순서 맞추기 ({ $by }): J/K 또는 Shift+↑↓로 강조된 항목을 옮긴다.
exercise-arrange-default = 처음부터 끝까지
exercise-hint = 힌트 { $n }:
exercise-hints-available = 힌트 { $n }개가 있다.
exercise-model-answer = 모범 답안:
exercise-mark-ask = 답에 이 아이디어들이 들어 있었나? y = 맞췄음, n = 놓쳤음
exercise-mark-none = 답에서 아이디어를 하나도 찾지 못했다: n = 놓쳤음, 그다음 자기 말로 다시 써 보자
exercise-why = 이유:
exercise-seen-reroll = 답이 공개된 뒤에 맞혀서 '봄'으로 기록된다: { $key } 키로 새 숫자를 받아 풀면 '풂'이 된다.
exercise-seen-later = 답이 공개된 뒤에 맞혀서 '봄'으로 기록된다: 다음에 다시 와서 답하면 '풂'이 된다.
exercise-why-reroll = 이유를 알았으니 { $key } 키로 새 숫자를 받아 같은 아이디어를 다시 해 보자.
exercise-why-next = 이유를 알았으니 { $key } 키로 다음 문제로 간다.
exercise-worked = 풀이:
exercise-worked-later = 풀이는 첫 답을 낸 뒤에 열린다 — 한 번 답해 보거나 (찍어도 된다) 힌트를 보자.
exercise-your-answer = 내 답
exercise-answer = 답
exercise-feedback = 피드백
exercise-key-show-answer = 답 보기
exercise-no-more-hints = 힌트를 모두 봤다: 다시 풀어 보거나, s(입력 중에는 Ctrl-S)를 눌러 답을 보자.
exercise-held-hint = 같은 숫자로 다시 풀어 보자 — 위에 힌트 { $n }번이 있다. { $tries ->
    [one] 한 번 더 틀리면 답이 나온다.
   *[other] { $tries }번 더 틀리면 답이 나온다.
} { $key } 키로 지금 볼 수 있다.
exercise-held-no-hints = 같은 숫자로 다시 풀어 보자 — 힌트는 모두 봤다. { $tries ->
    [one] 한 번 더 틀리면 답이 나온다.
   *[other] { $tries }번 더 틀리면 답이 나온다.
} { $key } 키로 지금 볼 수 있다.
exercise-answer-shown = 답: { $answer } (요청해서 봤다: 이제 맞히면 "본 문제"로 센다).
exercise-key-previous = 이전
exercise-key-new-line = 줄바꿈
exercise-key-pane = 문제/피드백
exercise-key-hint-count = 힌트 { $next }/{ $total }
exercise-key-hint-none = 남은 힌트 없음
exercise-no-hints = 이 문제에는 힌트가 없다: 답을 내 보거나, s(입력 중에는 Ctrl-S)를 눌러 답을 보자.
exercise-new-line-note = Enter는 제출 · Ctrl-J 또는 Alt-Enter는 줄바꿈
