# The ladder, topics and search.
ladder-key-exercise = exercise
ladder-key-level = level
ladder-key-unlock = unlock all
ladder-levels = Levels
ladder-locked-mark = (locked)
ladder-locked = Locked
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
ladder-topics-at = Topics at { $level }
ladder-topic-mastered = mastered
ladder-topic-open = open
ladder-topic-locked = locked
ladder-topic-review = review
ladder-opens-after = Opens once { $below } · { $topic } is mastered: { $solved }/{ $need } solved.
ladder-opens-after-review = Opens once { $below } · { $topic } is mastered: review its cards (recall { $recall }%, { $needed }% needed).
ladder-practise = Press { $key } to practise what you missed ({ $n }).
ladder-practise-none = Nothing to practise: no wrong answer is waiting.
ladder-legend = ✓ solved · ◦ saw the answer · • tried, not solved
