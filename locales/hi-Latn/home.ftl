# Home.
home-key-language = bhasha
home-tagline = GPU memory performance, dekho aur calculate karo.
home-resume = Wahin se shuru: { $title } ({ $level })
home-ladder = Ladder — exercises L1 se L5 tak
home-review = Review ({ $due } due) — flashcards, spaced repetition
home-stats = Statistics — retention, forecast, heatmap
home-explorer = Explorer — warp → sectors, lanes → banks, live
home-calculators = Calculators — occupancy, tiling, roofline
home-analyse = Kernel analyse karo — har line ke sectors aur bank conflicts
home-search = Search — exercises, cards, topics
home-language = Bhasha (language): { $name }
home-locked = locked
home-counts = { $exercises } exercises · { $cards } cards · { $topics } topics
home-start-title = Shuruaat kaise karein
home-start-exercise = Ladder kholo aur L1 se shuru karo. Exercise mein apna answer type karke Enter dabao; Ctrl-T se hint milta hai, Ctrl-R naye numbers deta hai, Ctrl-E worked explanation dikhata hai.
home-start-keys = Kahin bhi / dabao search ke liye, ? se kisi bhi screen ki keys dekho.
