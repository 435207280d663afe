# The command line's own words: calc, check, content check/preview, lab key/start, stats.
# Numbers arrive as arguments, already formatted (or as numbers where a plural depends on them).

## Shared
cli-error = error: { $message }
cli-warning = warning: { $message }
cli-why = why: { $why }
cli-none = none
cli-count-lanes = { $n ->
    [one] { $n } lane
   *[other] { $n } lanes
}
cli-count-transactions = { $n ->
    [one] { $n } transaction
   *[other] { $n } transactions
}
cli-count-blocks = { $n ->
    [one] { $n } block
   *[other] { $n } blocks
}

## calc: the access in words
cli-access = { $who } × { $elem } B, { $how }
cli-access-some-lanes = { $active } of { $total } lanes (mask { $mask })
cli-access-affine = stride { $stride }, offset { $offset }
cli-access-affine-base = stride { $stride }, offset { $offset }, base { $base } B
cli-access-struct = field at byte { $field } of a { $size }-byte struct (AoS)
cli-access-row-walk = row walk, pitch { $pitch } B
cli-access-column-walk = column walk, pitch { $pitch } B
cli-access-explicit = explicit offsets

## calc coalescing
cli-coalescing-title = Global load on { $arch }: { $access }
cli-coalescing-counts = sectors { $sectors } · lines { $lines } · requests { $requests } · { $transactions } ({ $unit } B)
cli-coalescing-bytes = bytes requested { $requested } / fetched { $fetched } · efficiency { $efficiency } · waste { $waste }

## calc banks
cli-banks-title = Shared-memory load on { $arch }: { $access }
cli-banks-counts = { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
} { $wavefronts } · ideal { $ideal } · conflict degree { $degree }-way · bank conflicts { $conflicts }
cli-banks-granularity = --granularity applies to `calc coalescing` only

## calc occupancy
cli-waves-title = Waves on { $arch }: { $vgprs } VGPRs per lane (allocated { $allocated })
cli-waves-counts = waves per SIMD { $waves } / { $max } · waves per CU { $cu } · occupancy { $occupancy }
cli-occupancy-title = Occupancy on { $arch }: { $threads } threads/block, { $regs } registers/thread, { $smem } shared memory/block, carveout { $carveout }
cli-occupancy-carveout-default = default
cli-occupancy-counts = active blocks per SM { $blocks } · active warps { $warps } / { $max } · occupancy { $occupancy }
cli-occupancy-limited-by = limited by: { $limiters }
cli-occupancy-limits = blocks per SM allowed by each limit:
cli-occupancy-limiter-mark = ← limiter
cli-occupancy-barriers = barriers
cli-occupancy-barriers-note = (9.0+: not binding with one barrier per block)
cli-occupancy-allocated = allocated per block: { $regs } registers ({ $per_warp } per warp × { $warps } warps), { $smem } shared memory (incl. reserved); SM carveout { $carveout }
cli-occupancy-textbook = textbook bound (floor(65536 / r) threads, ignores allocation granularity): { $threads } threads → { $rounded } warp-rounded = { $occupancy }
cli-occupancy-hardware = hardware (what the SM actually runs): { $occupancy }
cli-limiter-warps = warps
cli-limiter-registers = registers
cli-limiter-shared-memory = shared memory
cli-limiter-blocks = blocks

## calc tiling
cli-tiling-title = Tiled matrix multiply: N = { $n }, tile { $tile }×{ $tile }, { $elem }-byte elements, on { $arch }
cli-tiling-reads = global reads naive { $naive } · tiled { $tiled } · reduction factor { $factor }×
cli-tiling-smem = shared memory per block { $smem } (2 tiles × { $tile }² × { $elem } B)
cli-tiling-smem-blocks = blocks per SM by shared memory alone: { $blocks }
cli-tiling-occupancy = full occupancy rule ({ $threads } threads/block, { $regs } registers): { $blocks }, { $occupancy } (limited by { $limiters })
cli-tiling-too-big = a { $tile }×{ $tile } block exceeds 1024 threads: no occupancy
cli-tiling-intensity = arithmetic intensity { $naive } → { $tiled } FLOP/B (reuse multiplies intensity by the tile size)

## calc roofline
cli-roofline-title = Roofline: peak { $peak }FLOP/s, bandwidth { $bandwidth }B/s, intensity { $intensity } FLOP/B
cli-roofline-point = ridge { $ridge } FLOP/B · attainable { $attainable }FLOP/s ({ $fraction } of peak) · { $bound }
cli-bound-memory = memory-bound
cli-bound-compute = compute-bound

## content check / preview, check
cli-unknown-level = unknown level `{ $level }` (use L1 … L5)
cli-content-problems = { $n ->
    [one] 1 content problem
   *[other] { $n } content problems
} — those items were skipped (see `warpdrill content check`):
cli-content-ok = ok
cli-content-problems-found = problems found
cli-content-summary = { $status }: { $files ->
    [one] 1 file
   *[other] { $files } files
}, { $topics ->
    [one] 1 topic
   *[other] { $topics } topics
}, { $cards ->
    [one] 1 card
   *[other] { $cards } cards
}, { $exercises ->
    [one] 1 exercise
   *[other] { $exercises } exercises
} ({ $levels }), { $lessons ->
    [one] 1 lesson
   *[other] { $lessons } lessons
}; { $problems ->
    [one] 1 problem
   *[other] { $problems } problems
}, { $warnings ->
    [one] 1 warning
   *[other] { $warnings } warnings
}
cli-content-coverage = { $lang } { $status }: topics { $topics }, cards { $cards }, exercises { $exercises }, lessons { $lessons }; overall { $overall }; { $problems ->
    [one] 1 problem
   *[other] { $problems } problems
}
cli-content-kind-topic = topic
cli-content-kind-card = card
cli-content-kind-exercise = exercise
cli-content-kind-lesson = lesson
cli-content-untranslated = { $lang }: { $what } `{ $id }` not translated
cli-content-in-english = { $lang }: { $what } `{ $id }` in English: { $fields }
cli-preview-items = items: { $items }
cli-preview-part = part { $n }: { $prompt } — answer: { $answer }
cli-preview-answer = answer: { $answer }
cli-preview-cannot-generate = cannot generate: { $error }
cli-check-list-hint = run `warpdrill content preview` to list them
cli-check-did-you-mean = did you mean { $names }?
cli-check-no-exercise = no exercise `{ $id }` — { $hint }
cli-check-cannot-generate = exercise `{ $id }` cannot be generated: { $error }
cli-check-part-range = exercise `{ $id }` has { $parts ->
    [one] 1 exact part; --part takes 1
   *[other] { $parts } exact parts; --part takes 1 to { $parts }
}
cli-check-ideas-found = Ideas found: { $ideas }
cli-check-ideas-missed = Ideas missed: { $ideas }
cli-check-model = Model answer: { $model }
cli-check-why = Why: { $why }

## lab key, lab start
cli-lab-step = step { $step } · { $exercise } · seed { $seed }
cli-lab-answer = answer: { $answer }   (accepted: { $accepted })
cli-lab-md-step = step
cli-lab-md-exercise = exercise
cli-lab-md-seed = seed
cli-lab-md-prompt = prompt
cli-lab-md-answer = answer
cli-lab-need-student = give --student ID or --roster FILE
cli-lab-saved = Your answers are saved in { $path }.
cli-lab-receipt = Handed in. Receipt: { $receipt }

## stats
cli-stats-title = Review on { $today } (days begin at { $hour }:00) · log { $log }
cli-stats-today = today
cli-stats-today-line = { $rated } rated · { $due } due · left now: { $new } new, { $learning } learning, { $review } review
cli-stats-cards = cards
cli-stats-cards-line = new { $new } · learning { $learning } · review { $review } · relearning { $relearning } · suspended { $suspended }
cli-stats-retention = retention
cli-stats-retention-line = last 30 days { $last30 } (young { $young } of { $young_n }, mature { $mature } of { $mature_n }) · desired { $desired }
cli-stats-forecast = forecast
cli-stats-forecast-line = { $bars } ({ $due } due in the next 30 days)
cli-stats-streak = streak
cli-stats-streak-line = { $days ->
    [one] 1 day
   *[other] { $days } days
} · { $total ->
    [one] 1 rating
   *[other] { $total } ratings
} in all
cli-stats-mastery = mastery (average probability of recall now):
cli-stats-studied = { $studied }/{ $cards } studied
cli-stats-topic-aim = aims at { $percent }
cli-stats-weeks = last { $weeks } weeks (from { $first }, one column a week):
cli-day-mon = Mon
cli-day-tue = Tue
cli-day-wed = Wed
cli-day-thu = Thu
cli-day-fri = Fri
cli-day-sat = Sat
cli-day-sun = Sun
cli-coalescing-title-store = Global store on { $arch }: { $access }
cli-banks-title-store = Shared-memory store on { $arch }: { $access }
cli-occupancy-cannot-launch = cannot launch on { $arch }: { $reason } — no block fits on an SM, so occupancy is not 0 %: the launch fails
cli-occupancy-no-regs-block = a block needs { $regs } registers (allocated per warp, warps rounded up to a multiple of 4), more than the { $max } of an SM
cli-occupancy-no-smem = a block needs { $smem } of shared memory (with the reserved part), more than the { $max } a block may have (opted in, reserved part included)
cli-occupancy-no-regs-warps = at { $per_warp } registers per warp an SM holds { $held } warps (4 register sub-partitions), fewer than the block's { $warps }
cli-content-shares = answer shares over { $seeds } seeds (the most common answer of each template; above { $limit } is a warning, fixed facts exempt):
cli-content-share-warning = warning
cli-content-share-fixed = fixed fact
cli-stats-calibration = calibration
cli-stats-calibration-fixed = fixed cards
cli-stats-calibration-drill = drill cards
cli-stats-calibration-line = { $kind }: { $n } reviews · predicted recall { $predicted } · actual { $actual } · log loss { $log_loss } · RMSE { $rmse }
cli-stats-calibration-none = { $kind }: no reviews a day or more apart yet
cli-stats-calibration-bin = predicted { $from }–{ $to }%: mean { $predicted } · recalled { $actual } ({ $n })
cli-content-puzzles = Kernel puzzles: { $puzzles } checked (each reference solves its puzzle and meets its targets).
