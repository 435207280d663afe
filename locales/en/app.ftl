# The application: global keys, help, notices and messages in the footer.
app-key-search = search exercises, cards, topics
app-key-help = this help
app-key-home = home
app-key-back = back (quit from the first screen)
app-key-quit = quit now
app-key-lab-overview = the lab's overview
app-help-title = Help
app-help-here = On this screen
app-help-everywhere = Everywhere
app-help-or = { $first } or { $second }
app-help-close = close help
app-too-small-title = Terminal too small
app-too-small-size = { $width }×{ $height } — warpdrill needs at least { $min_width }×{ $min_height }.
app-too-small-quit = Enlarge the window; q quits.
app-content-problems = { $count ->
    [one] 1 content problem
   *[other] { $count } content problems
} in { $files } — those items were skipped. First: { $first }. Run `warpdrill content check` for all of them.
app-save-failed = Progress could not be saved to { $path } ({ $error }) — it stays in memory until the next save succeeds.
app-save-failed-encode = Progress could not be written out ({ $error }) — it stays in memory until the next save succeeds.
app-saved-again = Progress is saved again.
app-unsaved-footer = ⚠ progress not saved (Home says why)
app-answer-not-recorded = Your answer was not recorded: { $error }
app-hint-not-recorded = The hint was not recorded: { $error }
app-lab-not-submitted = The lab was not handed in: { $error }
app-lab-time-up-handed-in = Time is up: the lab was handed in.
app-review-no-data-dir = Review is not available: no data directory for the review log (use --data-dir).
app-not-saved = Not saved: { $error }
app-lab-step-closed = Step { $step } opens when the steps before it are done.
app-lab-missing-exercise = Exercise `{ $id }` is not in the content.
app-review-log-not-updated = { $error } — the review log was not updated.
app-lab-no-search = Search is closed during the lab.
app-lab-no-ladder = The ladder is closed during the lab.
app-lab-no-unlock = Unlocking is closed: steps open in the lab's order.
app-lab-only-steps = Only the lab's steps are open during the lab.
app-lab-no-topics = Topics and cards are closed during the lab.
app-lab-no-show-me = Show me is off in this lab.
app-lab-no-language = The language is set before the lab starts (--lang).
app-settings-not-saved = The language could not be saved in { $path } ({ $error }); it applies until you quit.
app-settings-damaged = { $path } could not be read ({ $problem }); it was kept as { $aside } and the language is chosen without it.
app-settings-unreadable = { $path } could not be read ({ $problem }); the language is chosen without it.
app-no-data-dir = No data directory could be found: progress will not be saved (use --data-dir).
app-review-read-only = Review ratings will not be saved this time (see the note on progress).
app-review-unavailable = Review is not available: { $message }.
app-no-signals = Signals cannot be handled here ({ $error }): quit with q or Ctrl-C to keep the terminal tidy.
# The search palette.
app-search-key-filter = filter
app-search-title = Search
app-search-results = { $n ->
    [one] { $n } result
   *[other] { $n } results
}
app-search-kind-locked = locked
app-search-kind-exercise = exercise
app-search-kind-card = card
app-search-kind-topic = topic
app-search-nothing = Nothing matches. Try fewer letters.
app-search-locked = { $level } · { $topic } is locked. { $why } Or press u on the ladder.
app-topic-opened = { $what } { $n ->
    [one] is
   *[other] are
} open.
app-practise-none = Nothing to practise: no exercise is waiting after a wrong answer.
app-practise-start = Practise what you missed: { $n } to go, each on new numbers.
app-practise-left = { $n } left to practise.
app-practise-done = All practised: every exercise you missed is solved now.
app-review-locked = Another warpdrill is open on { $dir } and holds its lock: ratings made here are not saved. Close the other one and start again to save them.
