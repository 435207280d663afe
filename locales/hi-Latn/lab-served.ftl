# Server se chalne wale lab ka tutor (src/ui/lab_served.rs, `warpdrill lab join`).

served-connecting = Lab server se connect ho raha hai…
served-graded-by-server = Har answer aapke instructor ka server grade karta hai, aur time bhi wahi rakhta hai.
served-offline = Lab server se connection nahi hai ({ $error }). Jo aapne type kiya woh safe hai: server jawab dete hi aakhri request dobara bheji jaayegi.
served-handed-in = Hand in ho gaya.
served-recorded = Answer server par record ho gaya; sahi ya galat lab hand in hone ke baad dikhega.
served-time-up = Time khatam: server lab hand in kar raha hai.
served-time-up-handed-in = Time khatam tha: server ne lab hand in kar diya. Receipt:
served-step-title = Step { $step }: { $title }
served-answered = Aapka answer: { $answer }
served-answer-prompt = Answer:
served-keys-overview = ↑↓ move · Enter step kholo · s hand in · r refresh · q quit (sab kuch server par hai)
served-keys-handed-in = ↑↓ move · Enter step padho · r refresh · q quit (hand in ho gaya: sab kuch server par hai)
served-keys-done = Enter ya Esc: steps par wapas · Ctrl-C quit
served-keys-step = answer type karo, Enter bhejo · Ctrl-T hint · Esc steps · Ctrl-C quit

## Instructor ka dashboard (src/ui/lab_dashboard.rs, terminal mein `warpdrill lab serve`).
dashboard-students = { $n ->
    [1] { $n } student
   *[other] { $n } students
}
dashboard-students-title = Students
dashboard-steps-title = Steps: class kaisa kar rahi hai
dashboard-handed-in-time-up = hand in ho gaya (time khatam)
dashboard-not-joined = abhi join nahi kiya
dashboard-all-done = saare steps ho gaye
dashboard-percent = jinhone answer diya ({ $n }) unmein { $percent }% sahi
dashboard-no-answers = abhi koi answer nahi
dashboard-wrong = aam galat answers: { $answers }
dashboard-mistakes = galat samajh: { $names }
dashboard-no-step = { $student } ka koi khula step nahi hai jise re-roll karein.
dashboard-extra-time = { $student } ko { $minutes } minute aur mile.
dashboard-rerolled = { $student } ke step { $step } ko naye numbers mile, aur woh step shuru se hoga.
dashboard-timed-out = Time khatam; hand in hua: { $students }.
dashboard-confirm-quit = Serve karna band karein? Dobara q dabao (students ka kaam saved hai; same --db se phir shuru kar sakte ho).
dashboard-keys = ↑↓ student · + paanch minute aur · r unke step ke naye numbers · q serve band karo
served-kernel-wrote = Starter { $path } mein likh diya: apne editor mein edit karo, save karo, phir hand in ke liye Enter dabao.
served-kernel-too-long = Kernel file { $max } characters se lambi hai; bheji nahi gayi.
served-kernel-file = File: { $path } — edit aur save karo, phir Enter se hand in (ek attempt). `warpdrill puzzle check { $id } { $path }` pehle yahin check karta hai, bina count kiye.
served-kernel-checking = Server tumhara kernel check kar raha hai…
served-keys-kernel = Enter file hand in · Ctrl-T hint · Esc steps · Ctrl-C quit
