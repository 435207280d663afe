# The ladder, topics and search.
ladder-key-exercise = exercise
ladder-key-level = level
ladder-key-unlock = unlock all
ladder-levels = Levels
ladder-locked-mark = (locked)
ladder-locked = Locked
ladder-locked-why = Solve { $need } { $need ->
    [one] exercise
   *[other] exercises
} of { $level } to open this level ({ $solved } solved so far).
ladder-unlock-hint = Press { $key } to unlock every level now.
ladder-new = new
ladder-tries = { $n ->
    [one] { $n } try
   *[other] { $n } tries
}
ladder-empty = No exercises at this level.
ladder-level-l1 = Recognition
ladder-level-l2 = Application
ladder-level-l3 = Analysis
ladder-level-l4 = Synthesis
ladder-level-l5 = Mastery
ladder-describe-l1 = name and place things
ladder-describe-l2 = plug numbers into a rule
ladder-describe-l3 = compare options, say why
ladder-describe-l4 = combine rules into a design
ladder-describe-l5 = estimate, invent, defend
ladder-topic-exercise = exercise
ladder-topic-card = card
