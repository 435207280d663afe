# Lab mode (src/ui/lab.rs) and the lab's messages that reach the screen (src/lab).

## Footer words.
lab-key-move = move
lab-key-open-step = open step
lab-key-hand-in = hand in
lab-key-help = help
lab-key-quit-saved = quit (work is saved)
lab-key-quit = quit
lab-key-next-step = next step
lab-key-explain = explain
lab-key-submit = submit
lab-key-show-me = show me
lab-key-steps = steps
lab-key-overview = overview
lab-key-back = back

## The header above every screen of a lab.
lab-header-step = step { $step }/{ $n }
lab-header-answered = { $answered }/{ $n } answered
lab-header-points = { $points }/{ $max } pts
lab-header-handed-in = handed in
lab-header-time-up = time is up
lab-header-late = late: fewer points · { $time } to close
lab-header-time-left = { $time } left

## How a step stands, on the overview and the end screen.
lab-attempts = { $n ->
    [one] { $n } attempt
   *[other] { $n } attempts
}
lab-standing-answered = answered
lab-standing-open = open
lab-standing-locked = locked
lab-standing-solved = solved · { $points } pts · { $attempts }
lab-standing-not-solved = not solved · 0 pts · { $attempts }
lab-standing-not-answered = not answered · 0 pts
lab-standing-open-attempts = open · { $used } of { $allowed } attempts
lab-standing-worth = { $standing } · worth { $points } pts

## The overview.
lab-steps-title = Lab steps
lab-rules = Points by attempt: { $points } · { $attempts ->
    [one] { $attempts } attempt
   *[other] { $attempts } attempts
} per step · { $hints } · { $order }
lab-rules-weighted = steps marked “worth” scale these points
lab-rules-hints-free = hints free
lab-rules-hint-cost = each hint costs { $n } pts
lab-rules-no-hints = no hints
lab-rules-in-order = steps open in order
lab-rules-any-order = steps in any order
lab-rules-exam = exam: results when you hand in
lab-handed-in-receipt = Handed in. Receipt:
lab-confirm-hand-in = Hand the lab in? Press s again to hand in; any other key cancels.
lab-all-done = Every step is done: press s to hand the lab in and get your receipt.
lab-closed-handed-in = The lab was handed in.
lab-closed-time-up = Time is up: answers are closed. Hand in: g, then s.
lab-closed-not-open = The lab opens at { $opens }: answers are taken from then.

## One step.
lab-step-opens-later = Step { $step } opens when this one is done.
lab-answer-recorded = Answer recorded; right or wrong shows at hand-in.
lab-not-right = Not right. { $left ->
    [one] { $left } attempt
   *[other] { $left } attempts
} left, for up to { $points } pts.
lab-not-right-why = Work through the numbers in the question again.
lab-no-new-numbers = New numbers are closed in a lab.
lab-hints-off = Hints are off in this lab.
lab-hints-step-done = This step is done; hints are for open steps.
lab-explanation-later = The worked explanation opens when the step is done.
lab-show-me-off = Show me is off in this lab.
lab-status-answered = Step { $step }/{ $n } · answered
lab-status-exam = Step { $step }/{ $n } · one answer · { $points } pts if right
lab-status-solved = Step { $step }/{ $n } · solved · { $points } pts · Enter: next step
lab-status-not-solved = Step { $step }/{ $n } · not solved · 0 pts · Enter: next step
lab-status-hint-cost = hint −{ $n } pts
lab-status-open = Step { $step }/{ $n } · attempt { $attempt } of { $allowed } · { $points } pts if right · { $hints }

## After handing in.
lab-end-title = Handed in
lab-end-score = Score
lab-end-points = { $points }/{ $max } pts ({ $percent }%)
lab-end-receipt = Receipt
lab-end-paste = Paste the receipt into your course page: it ties your results file to this hand-in.
lab-no-more-hints = Every hint of this step is already shown.
lab-kernel-empty = The kernel file is empty: write the kernel, save it, then hand it in.
lab-puzzle-reference-later = The reference solution opens when this step is done.
lab-kernel-not-handed-in = Not handed in, not counted: { $message }
lab-kernel-no-file = No kernel file yet: press s to write the starter, edit it in your editor, save, then press Enter.
lab-kernel-checking = Checking the file… it is handed in when the check ends.
lab-key-hand-in-file = hand in the file
lab-key-try = check now (not counted)
lab-kernel-solved = Solved: correct, and every target met. { $points } points.
lab-kernel-not-solved = Handed in, not solved yet: the check is on the screen. { $left ->
        [one] { $left } attempt left.
       *[other] { $left } attempts left.
    }
