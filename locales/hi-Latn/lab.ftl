# Lab mode (src/ui/lab.rs) aur lab ke messages jo screen par aate hain (src/lab).

## Footer ke words.
lab-key-move = move
lab-key-open-step = step kholo
lab-key-hand-in = hand in
lab-key-help = help
lab-key-quit-saved = quit (kaam saved hai)
lab-key-quit = quit
lab-key-next-step = agla step
lab-key-explain = explain
lab-key-submit = submit
lab-key-show-me = show me
lab-key-steps = steps
lab-key-overview = overview
lab-key-back = wapas

## Lab ke har screen ke upar ki line.
lab-header-step = step { $step }/{ $n }
lab-header-answered = { $answered }/{ $n } answered
lab-header-points = { $points }/{ $max } pts
lab-header-handed-in = hand in ho gaya
lab-header-time-up = time khatam
lab-header-late = late: kam points · band hone mein { $time }
lab-header-time-left = { $time } baaki

## Step ka haal (overview aur end screen).
lab-attempts = { $n ->
    [1] { $n } attempt
   *[other] { $n } attempts
}
lab-standing-answered = answered
lab-standing-open = open
lab-standing-locked = locked
lab-standing-solved = solved · { $points } pts · { $attempts }
lab-standing-not-solved = solve nahi hua · 0 pts · { $attempts }
lab-standing-not-answered = answer nahi diya · 0 pts
lab-standing-open-attempts = open · { $allowed } mein se { $used } attempts
lab-standing-worth = { $standing } · { $points } pts ka step

## Overview.
lab-steps-title = Lab ke steps
lab-rules = Har attempt ke points: { $points } · har step mein { $attempts ->
    [1] { $attempts } attempt
   *[other] { $attempts } attempts
} · { $hints } · { $order }
lab-rules-weighted = “pts ka step” wale steps in points ko apne hisaab se scale karte hain
lab-rules-hints-free = hints free
lab-rules-hint-cost = har hint par { $n } pts katenge
lab-rules-no-hints = hints nahi
lab-rules-in-order = steps order mein khulte hain
lab-rules-any-order = steps kisi bhi order mein
lab-rules-exam = exam: result hand in par
lab-handed-in-receipt = Hand in ho gaya. Receipt:
lab-confirm-hand-in = Lab hand in karna hai? Hand in ke liye s phir dabao; koi aur key cancel kar degi.
lab-all-done = Saare steps ho gaye: lab hand in karne aur receipt lene ke liye s dabao.
lab-closed-handed-in = Lab hand in ho chuka hai.
lab-closed-time-up = Time khatam: ab answers band hain. Hand in: g, phir s.
lab-closed-not-open = Lab { $opens } par khulega: answers tab se liye jaayenge.

## Ek step.
lab-step-opens-later = Step { $step } tab khulega jab yeh wala ho jayega.
lab-answer-recorded = Answer record ho gaya; sahi ya galat hand in par dikhega.
lab-not-right = Sahi nahi hai. { $left ->
    [1] { $left } attempt
   *[other] { $left } attempts
} baaki, max { $points } pts ke liye.
lab-not-right-why = Question ke numbers ko phir se step by step dekho.
lab-no-new-numbers = Lab mein naye numbers nahi milte.
lab-hints-off = Is lab mein hints band hain.
lab-hints-step-done = Yeh step ho gaya; hints sirf open steps ke liye hain.
lab-explanation-later = Worked explanation step khatam hone par khulega.
lab-show-me-off = Is lab mein show me band hai.
lab-status-answered = Step { $step }/{ $n } · answered
lab-status-exam = Step { $step }/{ $n } · ek hi answer · sahi ho to { $points } pts
lab-status-solved = Step { $step }/{ $n } · solved · { $points } pts · Enter: agla step
lab-status-not-solved = Step { $step }/{ $n } · solve nahi hua · 0 pts · Enter: agla step
lab-status-hint-cost = hint −{ $n } pts
lab-status-open = Step { $step }/{ $n } · attempt { $attempt }/{ $allowed } · sahi ho to { $points } pts · { $hints }

## Hand in ke baad.
lab-end-title = Hand in ho gaya
lab-end-score = Score
lab-end-points = { $points }/{ $max } pts ({ $percent }%)
lab-end-receipt = Receipt
lab-end-paste = Receipt ko apne course page mein paste karo: yeh tumhari results file ko is hand in se jodti hai.
lab-no-more-hints = Is step ke saare hints dikh chuke hain.
lab-kernel-empty = Kernel file khaali hai: kernel likho, save karo, phir hand in karo.
lab-puzzle-reference-later = Reference solution tab khulega jab yeh step done hoga.
lab-kernel-not-handed-in = Hand in nahi hua, count nahi hua: { $message }
lab-kernel-no-file = Abhi kernel file nahi hai: starter likhne ke liye s dabao, apne editor mein edit karo, save karo, phir Enter dabao.
lab-kernel-checking = File check ho rahi hai… check khatam hote hi hand in ho jayegi.
lab-key-hand-in-file = file hand in karo
lab-key-try = abhi check karo (count nahi hoga)
lab-kernel-solved = Solved: sahi, aur har target met. { $points } points.
lab-kernel-not-solved = Hand in ho gaya, abhi solved nahi: check screen par hai. { $left ->
        [one] { $left } attempt bacha hai.
       *[other] { $left } attempts bache hain.
    }
