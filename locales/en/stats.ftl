# The statistics screen (src/ui/stats.rs).
stats-key-back = back
stats-key-search = search
stats-key-help = help
stats-title = Statistics · { $date }
# A day: $year, $month, $day are numbers; $mpad and $dpad are "0" before a one-digit month or day
# (for 2026-01-05), empty otherwise.
stats-date = { $year }-{ $mpad }{ $month }-{ $dpad }{ $day }
stats-today = today { $rated } rated · { $due } due · streak { $streak ->
    [one] { $streak } day
   *[other] { $streak } days
} · { $total } in all
stats-cards = new { $new } · learning { $learning } · review { $review } · relearn { $relearning } · suspended { $suspended }
stats-retention = retention, last 30 days { $actual } · desired { $desired }
stats-retention-by-age = young { $young } of { $young_n } · mature { $mature } of { $mature_n }
stats-forecast = due in the next 30 days ({ $n } in all, today first)
stats-heatmap = reviews, last { $n } weeks (one column a week)
stats-weekday-mon = Mon
stats-weekday-tue = Tue
stats-weekday-wed = Wed
stats-weekday-thu = Thu
stats-weekday-fri = Fri
stats-weekday-sat = Sat
stats-weekday-sun = Sun
stats-ladder = ladder
stats-mastery = mastery (average probability of recall now)
stats-topic-studied = { $studied }/{ $cards } studied
stats-topic-aim = aims at { $percent }
