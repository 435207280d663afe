# The review session (src/ui/review.rs) and the words of the scheduler it shows (src/srs).

## Footer words; the keys themselves stay as they are.
review-key-show-answer = show answer
review-key-undo = undo
review-key-suspend = suspend
review-key-bury = bury
review-key-back = back
review-key-rate = rate
review-key-good = good
review-key-check = check
review-key-hint = hint
review-key-accept = accept rating
review-key-choose = choose rating

## The four ratings, as the buttons and the proposal name them.
review-rating-again = Again
review-rating-hard = Hard
review-rating-good = Good
review-rating-easy = Easy

## When a card would come back, on its button: short.
review-interval-minutes = { $n }m
review-interval-hours = { $n }h
review-interval-days = { $n }d
review-interval-months = { $n }mo
review-interval-years = { $n }y

review-title = Review · { $topic }
review-title-plain = Review
review-title-done = done
review-counts = new { $new } · learning { $learning } · due { $due }
review-unavailable = Review is not available: the review log could not be opened.
review-show-answer = Space or Enter shows the answer.
review-hint = hint: { $hint }
review-proposed = Proposed: { $rating } — Enter accepts, 1-4 choose

## The end of a session.
review-done = Done for now.
review-summary = Reviewed { $n ->
    [one] { $n } card
   *[other] { $n } cards
} · again { $again } · time { $time }
review-next-due = Next card due { $when }.
review-when-minutes = in { $n } min
review-when-hours = in { $n } h
review-when-tomorrow = tomorrow
review-when-days = in { $n } days
review-when-new-cards = when you add new cards
review-done-keys = u takes back the last rating; q goes back.
review-no-more-hints = Every hint is already shown: type your answer and press Enter.
review-no-hints = This drill has no hints: type your answer and press Enter.
review-suspended = Suspended: it stays out of review until you unsuspend it (u takes it back).
review-buried = Buried until tomorrow (u takes it back).
review-undone-rating = The last rating is taken back.
review-undone-suspend = The suspension is taken back: the card is in review again.
review-undone-bury = The burial is taken back: the card is in review again.
review-undone-earlier = A change from an earlier session is taken back.
review-put-aside = Put aside: suspended { $suspended } · buried { $buried }
review-new-limit = Today's limit of { $limit } new cards is used; { $n ->
    [one] { $n } new card waits
   *[other] { $n } new cards wait
}. To learn more today, start `{ $command }`.
