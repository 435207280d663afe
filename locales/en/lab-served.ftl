# The tutor of a served lab (src/ui/lab_served.rs, `warpdrill lab join`).

served-connecting = Connecting to the lab server…
served-graded-by-server = Your instructor's server grades every answer and keeps the time.
served-offline = Not connected to the lab server ({ $error }). Nothing you typed is lost: the last request is sent again as soon as the server answers.
served-handed-in = Handed in.
served-recorded = Answer recorded on the server; right or wrong shows once the lab is handed in.
served-time-up = Time is up: the server hands the lab in.
served-time-up-handed-in = Time was up: the server handed the lab in. Receipt:
served-step-title = Step { $step }: { $title }
served-answered = You answered: { $answer }
served-answer-prompt = Answer:
served-keys-overview = ↑↓ move · Enter open step · s hand in · r refresh · q quit (everything is on the server)
served-keys-handed-in = ↑↓ move · Enter read a step · r refresh · q quit (handed in: everything is on the server)
served-keys-done = Enter or Esc: back to the steps · Ctrl-C quit
served-keys-step = type the answer, Enter send · Ctrl-T hint · Esc steps · Ctrl-C quit

## The instructor's dashboard (src/ui/lab_dashboard.rs, `warpdrill lab serve` in a terminal).
dashboard-students = { $n ->
    [one] { $n } student
   *[other] { $n } students
}
dashboard-students-title = Students
dashboard-steps-title = Steps: how the class is doing
dashboard-handed-in-time-up = handed in (time up)
dashboard-not-joined = not joined yet
dashboard-all-done = all steps done
dashboard-percent = { $percent }% correct of { $n } who answered
dashboard-no-answers = no answers yet
dashboard-wrong = common wrong answers: { $answers }
dashboard-mistakes = misconceptions: { $names }
dashboard-no-step = { $student } has no open step to re-roll.
dashboard-extra-time = { $student } has { $minutes } more minutes.
dashboard-rerolled = { $student }'s step { $step } has new numbers and starts over.
dashboard-timed-out = Time is up; handed in: { $students }.
dashboard-confirm-quit = Stop serving? Press q again (students' work is saved; start again with the same --db).
dashboard-keys = ↑↓ student · + five more minutes · r new numbers for their step · q stop serving
served-kernel-wrote = Wrote the starter to { $path }: edit it in your editor, save, then press Enter to hand it in.
served-kernel-too-long = The kernel file is longer than { $max } characters; it is not sent.
served-kernel-file = File: { $path } — edit and save it, then Enter hands it in (one attempt). `warpdrill puzzle check { $id } { $path }` checks it here first, without counting.
served-kernel-checking = The server is checking your kernel…
served-keys-kernel = Enter hand in the file · Ctrl-T hint · Esc steps · Ctrl-C quit
