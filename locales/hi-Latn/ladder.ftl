# The ladder, topics and search.
ladder-key-exercise = exercise
ladder-key-level = level
ladder-key-unlock = sab kholo
ladder-levels = Levels
ladder-locked-mark = (locked)
ladder-locked = Locked
ladder-unlock-hint = Sab levels abhi kholne ke liye { $key } dabao.
ladder-new = naya
ladder-tries = { $n ->
    [1] { $n } try
   *[other] { $n } tries
}
ladder-empty = Is level mein koi exercise nahi hai.
ladder-level-l1 = Recognition
ladder-level-l2 = Application
ladder-level-l3 = Analysis
ladder-level-l4 = Synthesis
ladder-level-l5 = Mastery
ladder-describe-l1 = cheezon ko naam do, jagah batao
ladder-describe-l2 = rule mein numbers daalo
ladder-describe-l3 = options compare karo, kyun batao
ladder-describe-l4 = rules jodkar design banao
ladder-describe-l5 = estimate karo, banao, defend karo
ladder-topic-exercise = exercise
ladder-topic-card = card
ladder-topics-at = { $level } ke topics
ladder-topic-mastered = pakka
ladder-topic-open = khula
ladder-topic-locked = locked
ladder-topic-review = revise karo
ladder-opens-after = { $below } · { $topic } pakka hone par khulega: { $need } mein se { $solved } solved.
ladder-opens-after-review = { $below } · { $topic } pakka hone par khulega: uske cards revise karo (recall { $recall }%, { $needed }% chahiye).
ladder-practise = Jo galat hue unhe practise karne ke liye { $key } dabao ({ $n }).
ladder-practise-none = Practise ke liye kuch nahi: koi galat jawab baaki nahi.
ladder-legend = ✓ solved · ◦ answer dekh ke sahi · • try kiya, solve nahi
