# Feedback on answers.
grade-too-long = { $length }자다 — 여기서 답은 최대 { $limit }자다
grade-type-number = 숫자를 입력하자
grade-right = 정답 — { $expected }.
grade-right-within = 정답 — { $expected } ({ $allowed } 이내의 답은 인정된다).
grade-right-rounded = 정답 — { $expected } (입력: { $given }. 숫자는 마지막 자리의 절반 단위 안쪽 값을 위아래 모두 뜻하므로, 올림이든 내림이든 반올림한 답은 인정된다).
grade-wrong-number = 아쉽다 — 입력한 답: { $given }. { $fixed ->
    [yes] 답은
   *[no] 이 숫자들에서 답은
} { $expected }.
grade-close = 거의 맞았다 — 반올림과 마지막 단계를 확인하자.
grade-close-within = 거의 맞았다 — { $allowed } 이내의 답은 인정된다. 반올림과 마지막 단계를 확인하자.
grade-unit-off = 정확히 { $factor }배 차이 난다 — 숫자는 맞고 단위가 틀린 것 아닐까?
grade-factor-large = 정확히 { $factor }배 크다 — { $factor }라는 배수를 빠뜨렸거나 두 번 센 것 아닐까?
grade-factor-small = 정확히 { $factor }배 작다 — { $factor }라는 배수를 빠뜨렸거나 두 번 센 것 아닐까?
grade-pick-one = { $letters } 중 하나를 고르자 — 글자나 그 선택지의 말을 입력한다
grade-or = { $first } 또는 { $second }
grade-wrong-choice = 아쉽다 — 고른 답: { $picked }. { $fixed ->
    [yes] 답은
   *[no] 이 숫자들에서 답은
} { $expected }.
grade-arrange = 항목을 순서대로 놓자
grade-all-items = 항목 { $n }개를 모두 순서대로 놓자
grade-wrong-order = 아쉽다 — { $position }번째 자리: { $given } 말고 { $right }. 순서: { $expected }.
grade-type-word = 단어나 구절을 입력하자
grade-wrong-text = 아쉽다: “{ $typed }”라고 썼다. 답은 { $expected }.
grade-write-explanation = 짧게 설명을 써 보자
grade-ideas-all = 모든 아이디어가 있다: { $found }.
grade-ideas-none = 모범 답안의 아이디어가 보이지 않는다. 빠진 것: { $missed }.
grade-ideas-some = 있는 것: { $found }. 빠진 것: { $missed }.
grade-compare-enough = 모범 답안과 비교해 보자 — { $summary } 맞췄는지 표시하자.
grade-compare-none = 모범 답안과 비교해 보자 — { $summary } 모범 답안을 읽고 자기 말로 다시 써 보자.
grade-compare-some = 모범 답안과 비교해 보자 — { $summary } 맞췄는지 표시하자. 키워드는 뜻을 짐작하게 할 뿐이다.
grade-within-points = ±{ $points } 퍼센트포인트
grade-within = ±{ $limit }
grade-within-percent = { $percent } %
grade-name-all = 항목 { $n }개를 모두 순서대로 쉼표로 구분해 적자 (예: { $example })
grade-twice = 두 번 나온 항목: “{ $item }”
grade-not-an-item = 목록에 없는 항목: “{ $item }” — 다음 중에서 고르자: { $items }
grade-empty = 먼저 답을 입력하자
grade-input-too-long = { $length }자다 — 여기서 답은 숫자이고 최대 { $limit }자다
grade-not-a-number = 숫자로 읽지 못한 입력: `{ $text }` — 예: { $example }
grade-too-large = 답이 되기에는 너무 큰 값: `{ $text }`
grade-wrong-unit = 읽은 숫자: { $number }, 모르는 단위: `{ $unit }` — 답의 단위: { $expected }
grade-which-unit = { $number } 뭐? — 단위가 무엇인가? 답의 단위: { $expected }. 예: { $example }
grade-bits = 소문자 b는 bit다: `{ $unit }`. 이 답은 byte 단위다 — `B`로 쓰자 (`2 KB`, `32 B`)
grade-two-answers = `{ $text }`에는 서로 다른 답이 두 개 있다 — 하나만 입력하자
grade-negated = 답이 아닌 것을 말하는 입력: `{ $text }` — 답이 무엇인지 입력하자
grade-unit-plain = 단위 없는 숫자
grade-unit-percent = 퍼센트나 분수
grade-unit-bytes = 바이트 (B, KB, KiB, MB)
grade-unit-seconds = 시간 (s, ms, µs, ns)
grade-unit-cycles = cycle
grade-unit-flop-per-byte = byte당 FLOP
grade-unit-flop-per-second = FLOP/s (GFLOP/s, TFLOP/s)
grade-unit-bytes-per-second = 초당 바이트 (GB/s, TB/s)
grade-unit-factor = 배수
grade-mistake = { $name }: { $feedback }
grade-wrong-number-held = 아쉽다 — 입력한 답: { $given }.
grade-wrong-choice-held = 아쉽다 — 고른 답 { $picked }: 답이 아니다.
grade-wrong-order-held = 아쉽다 — { $position }번째 자리: { $given } 아님.
grade-wrong-text-held = 아쉽다: “{ $typed }”라고 썼지만 답이 아니다.
grade-explain-held = 아쉽다: 설명에 모범 답안의 아이디어가 하나 빠져 있다.
