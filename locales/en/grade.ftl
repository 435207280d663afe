# Feedback on answers.
grade-too-long = that is { $length } characters — an answer here is at most { $limit }
grade-type-number = type a number
grade-right = Correct — { $expected }.
grade-right-within = Correct — { $expected } (answers { $allowed } are accepted).
grade-right-rounded = Correct — { $expected } (you typed { $given }: a number stands for every value within half a step of its last digit, up or down, so the answer rounded either way is accepted).
grade-wrong-number = Not quite: you answered { $given }; { $fixed ->
    [yes] the answer is
   *[no] for these numbers the answer is
} { $expected }.
grade-close = You are close — check the rounding and the last step.
grade-close-within = You are close — answers { $allowed } are accepted; check the rounding and the last step.
grade-unit-off = Yours is { $factor }× off — the right digits in the wrong unit?
grade-factor-large = Yours is exactly { $factor }× too large — a factor of { $factor } left out or counted twice?
grade-factor-small = Yours is exactly { $factor }× too small — a factor of { $factor } left out or counted twice?
grade-pick-one = pick one of { $letters } — type its letter or its words
grade-or = { $first } or { $second }
grade-wrong-choice = Not quite: you picked { $picked }; { $fixed ->
    [yes] the answer is
   *[no] for these numbers the answer is
} { $expected }.
grade-arrange = arrange the items in order
grade-all-items = put all { $n } items in order
grade-wrong-order = Not quite: position { $position } should be { $right }, not { $given }. The order is { $expected }.
grade-type-word = type the word or phrase
grade-wrong-text = Not quite: you wrote “{ $typed }”; the answer is { $expected }.
grade-write-explanation = write a short explanation
grade-ideas-all = Found every idea: { $found }.
grade-ideas-none = No idea of the model answer found. Missing: { $missed }.
grade-ideas-some = Found: { $found }. Missing: { $missed }.
grade-compare-enough = Compare with the model answer — { $summary } Mark whether you had it.
grade-compare-none = Compare with the model answer — { $summary } Read the model answer, then try again in your own words.
grade-compare-some = Compare with the model answer — { $summary } Mark whether you had it; keywords only hint at what you meant.
grade-within-points = within ±{ $points } percentage point
grade-within = within ±{ $limit }
grade-within-percent = within { $percent } %
grade-name-all = name all { $n } items in order, separated by commas (e.g. { $example })
grade-twice = “{ $item }” appears twice
grade-not-an-item = “{ $item }” is not one of: { $items }
grade-empty = type an answer first
grade-input-too-long = that is { $length } characters — an answer here is a number, at most { $limit } characters
grade-not-a-number = couldn't read `{ $text }` as a number — try e.g. { $example }
grade-too-large = `{ $text }` is too large to be an answer
grade-wrong-unit = I read the number { $number }, but not the unit `{ $unit }` — answer in { $expected }
grade-which-unit = { $number } what? — which unit? Answer in { $expected }, e.g. { $example }
grade-bits = `{ $unit }` is bits (lower-case b); this answer is in bytes — write `B` (`2 KB`, `32 B`)
grade-two-answers = `{ $text }` gives two different answers — type one
grade-negated = `{ $text }` says what the answer is not — type what it is
grade-unit-plain = a plain number
grade-unit-percent = percent or a fraction
grade-unit-bytes = bytes (B, KB, KiB, MB)
grade-unit-seconds = time (s, ms, µs, ns)
grade-unit-cycles = cycles
grade-unit-flop-per-byte = FLOP per byte
grade-unit-flop-per-second = FLOP/s (GFLOP/s, TFLOP/s)
grade-unit-bytes-per-second = bytes per second (GB/s, TB/s)
grade-unit-factor = a factor
grade-mistake = { $name }: { $feedback }
grade-wrong-number-held = Not quite: you answered { $given }.
grade-wrong-choice-held = Not quite: { $picked } is not it.
grade-wrong-order-held = Not quite: { $given } does not belong at position { $position }.
grade-wrong-text-held = Not quite: “{ $typed }” is not it.
grade-explain-held = Not quite: your explanation misses an idea of the model answer.
