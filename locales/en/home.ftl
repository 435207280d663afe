# Home.
home-key-language = language
home-tagline = GPU memory performance, seen and computed.
home-resume = Resume: { $title } ({ $level })
home-ladder = Ladder — exercises L1 to L5
home-review = Review ({ $due } due) — flashcards, spaced repetition
home-stats = Statistics — retention, forecast, heatmap
home-explorer = Explorer — warp → sectors, lanes → banks, live
home-calculators = Calculators — occupancy, tiling, roofline
home-analyse = Analyse a kernel — per-line sectors and bank conflicts
home-search = Search — exercises, cards, topics
home-language = Language: { $name }
home-locked = locked
home-counts = { $exercises } exercises · { $cards } cards · { $topics } topics
home-start-title = Getting started
home-start-exercise = Open the Ladder and start at L1. In an exercise, type your answer and press Enter; Ctrl-T gives a hint, Ctrl-R draws new numbers, Ctrl-E shows the worked explanation.
home-start-keys = Press / anywhere to search, ? for the keys of any screen.
