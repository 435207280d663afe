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
served-keys-step = type the answer, Enter send · Ctrl-T hint · Esc steps · Ctrl-C quit
