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
served-keys-step = answer type karo, Enter bhejo · Ctrl-T hint · Esc steps · Ctrl-C quit
