# The exercise screen.
exercise-key-submit = submit
exercise-key-new-numbers = new numbers
exercise-key-explain = explain
exercise-key-had-it = I had it
exercise-key-missed-it = I missed it
exercise-key-next = next
exercise-key-move-item = move item
exercise-key-choose = choose
exercise-key-show-me = show me
exercise-key-simply = simply
exercise-key-next-previous = next/previous
exercise-key-past-answers = past answers
exercise-fixed-fact = This question is a fixed fact: it has no numbers to change. { $key } moves to the next exercise.
exercise-show-me-later = Show me opens after your first answer: on these numbers it would show the answer. Try one (a guess is fine), or take a hint.
exercise-cannot-mark-had = No idea of the model answer was found in yours, so it cannot be marked as had: press n, then try again in your own words.
exercise-status-solved = solved
exercise-status-seen = seen
exercise-status-attempted = attempted
exercise-status-new = new
exercise-broken = This exercise cannot be shown.
exercise-broken-check = Run `warpdrill content check` to find the mistake in its template.
exercise-part = part { $n }
exercise-part-exact = Part { $n } of { $total } (exact): { $prompt }
exercise-part-explain = Part { $total } of { $total }: the explanation, in your own words.
exercise-arrange = Arrange ({ $by }): J/K or Shift+↑↓ move the highlighted item.
exercise-arrange-default = first to last
exercise-hint = Hint { $n }:
exercise-hints-available = { $n ->
    [one] { $n } hint available.
   *[other] { $n } hints available.
}
exercise-model-answer = Model answer:
exercise-mark-ask = Did your answer hold these ideas? y = I had it, n = I missed it
exercise-mark-none = None of its ideas was found in yours: n = I missed it, then try again in your own words
exercise-why = Why:
exercise-seen-reroll = Right after the answer was shown, so it counts as seen: { $key } draws new numbers to solve it.
exercise-seen-later = Right after the answer was shown, so it counts as seen: answer it again on a later visit to solve it.
exercise-why-reroll = Now that you know why, { $key } draws new numbers to try the idea again.
exercise-why-next = Now that you know why, { $key } moves to the next exercise.
exercise-worked = Worked explanation:
exercise-worked-later = The worked explanation opens after your first answer — try one (a guess is fine), or take a hint.
exercise-your-answer = Your answer
exercise-answer = Answer
exercise-feedback = Feedback
exercise-key-show-answer = show answer
exercise-no-more-hints = Every hint is already shown: try again, or press s (Ctrl-S while typing) to see the answer.
exercise-held-hint = Try again on the same numbers — hint { $n } is shown above. { $tries ->
    [one] One more wrong answer shows the answer;
   *[other] { $tries } more wrong answers show the answer;
} { $key } shows it now.
exercise-held-no-hints = Try again on the same numbers — every hint is already shown. { $tries ->
    [one] One more wrong answer shows the answer;
   *[other] { $tries } more wrong answers show the answer;
} { $key } shows it now.
exercise-answer-shown = The answer: { $answer } (shown on request: a right answer now counts as seen).
exercise-key-previous = previous
exercise-key-new-line = new line
exercise-key-pane = question/feedback
exercise-key-hint-count = hint { $next }/{ $total }
exercise-key-hint-none = no hints left
exercise-no-hints = This exercise has no hints: try an answer, or press s (Ctrl-S while typing) to see it.
exercise-new-line-note = Enter submits · Ctrl-J or Alt-Enter: new line
