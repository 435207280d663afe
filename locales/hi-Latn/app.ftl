# The application: global keys, help, notices and messages in the footer.
app-key-search = exercises, cards, topics search karo
app-key-help = yeh help
app-key-home = home
app-key-back = peeche (pehli screen se quit)
app-key-quit = abhi quit karo
app-key-lab-overview = lab ka overview
app-help-title = Help
app-help-here = Is screen par
app-help-everywhere = Har jagah
app-help-or = { $first } ya { $second }
app-help-close = help band karo
app-too-small-title = Terminal bahut chhota hai
app-too-small-size = { $width }×{ $height } — warpdrill ko kam se kam { $min_width }×{ $min_height } chahiye.
app-too-small-quit = Window bada karo; q se quit.
app-content-problems = { $files } mein { $count ->
    [1] 1 content problem
   *[other] { $count } content problems
} — woh items chhod diye gaye. Pehla: { $first }. Sab dekhne ke liye `warpdrill content check` chalao.
app-save-failed = Progress { $path } mein save nahi ho paya ({ $error }) — jab tak agla save successful nahi hota, progress memory mein hi rehta hai.
app-save-failed-encode = Progress likha nahi ja saka ({ $error }) — jab tak agla save successful nahi hota, progress memory mein hi rehta hai.
app-saved-again = Progress phir se save ho gaya.
app-unsaved-footer = ⚠ progress save nahi hua (wajah Home pe)
app-answer-not-recorded = Aapka answer record nahi hua: { $error }
app-hint-not-recorded = Hint record nahi hua: { $error }
app-lab-not-submitted = Lab submit nahi hua: { $error }
app-lab-time-up-handed-in = Time khatam: lab hand in ho gaya.
app-review-no-data-dir = Review available nahi hai: review log ke liye koi data directory nahi hai (--data-dir use karo).
app-not-saved = Save nahi hua: { $error }
app-lab-step-closed = Step { $step } tab khulega jab usse pehle ke steps ho jayenge.
app-lab-missing-exercise = Exercise `{ $id }` content mein nahi hai.
app-review-log-not-updated = { $error } — review log update nahi hua.
app-lab-no-search = Lab ke dauran search band hai.
app-lab-no-ladder = Lab ke dauran ladder band hai.
app-lab-no-unlock = Unlock band hai: steps lab ke order mein khulte hain.
app-lab-only-steps = Lab ke dauran sirf lab ke steps khule hain.
app-lab-no-topics = Lab ke dauran topics aur cards band hain.
app-lab-no-show-me = Is lab mein show me off hai.
app-lab-no-language = Language lab shuru hone se pehle set hoti hai (--lang).
app-settings-not-saved = Language { $path } mein save nahi ho payi ({ $error }); quit karne tak hi chalegi.
app-settings-damaged = { $path } padha nahi ja saka ({ $problem }); use { $aside } ke naam se rakh diya hai aur language uske bina chuni gayi.
app-settings-unreadable = { $path } padha nahi ja saka ({ $problem }); language uske bina chuni gayi.
app-no-data-dir = Koi data directory nahi mili: progress save nahi hoga (--data-dir use karo).
app-review-read-only = Is baar review ratings save nahi hongi (progress wala note dekho).
app-review-unavailable = Review available nahi hai: { $message }.
app-no-signals = Yahan signals handle nahi ho sakte ({ $error }): terminal saaf rakhne ke liye q ya Ctrl-C se quit karo.
# The search palette.
app-search-key-filter = filter
app-search-title = Search
app-search-results = { $n ->
    [0] { $n } results
    [1] { $n } result
   *[other] { $n } results
}
app-search-kind-locked = locked
app-search-kind-exercise = exercise
app-search-kind-card = card
app-search-kind-topic = topic
app-search-nothing = Kuch match nahi hua. Kam letters try karo.
app-search-locked = { $level } · { $topic } locked hai. { $why } Ya ladder par u dabao.
app-topic-opened = { $what } khul { $n ->
    [1] gaya
   *[other] gaye
}.
app-practise-none = Practise ke liye kuch nahi: koi exercise galat jawab ke baad baaki nahi hai.
app-practise-start = Galtiyon ki practice: { $n } exercises, har baar naye numbers.
app-practise-left = Abhi { $n } practise karne baaki.
app-practise-done = Sab ho gaya: jo exercises galat hue the, sab solve ho gaye.
app-review-locked = { $dir } par ek aur warpdrill khula hai aur uska lock usi ke paas hai: yahan di gayi ratings save nahi hongi. Unhe save karne ke liye doosra band karo aur phir se shuru karo.
