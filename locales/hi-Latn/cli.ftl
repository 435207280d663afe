# Command line ke apne shabd: calc, check, content check/preview, lab key/start, stats.
# Numbers arguments mein aate hain (pehle se formatted, ya number jahan plural unpe depend karta hai).

## Shared
cli-error = error: { $message }
cli-warning = warning: { $message }
cli-why = kyun: { $why }
cli-none = koi nahi
cli-count-lanes = { $n ->
    [1] { $n } lane
   *[other] { $n } lanes
}
cli-count-transactions = { $n ->
    [1] { $n } transaction
   *[other] { $n } transactions
}
cli-count-blocks = { $n ->
    [1] { $n } block
   *[other] { $n } blocks
}

## calc: access shabdon mein
cli-access = { $who } × { $elem } B, { $how }
cli-access-some-lanes = { $total } mein se { $active } lanes (mask { $mask })
cli-access-affine = stride { $stride }, offset { $offset }
cli-access-affine-base = stride { $stride }, offset { $offset }, base { $base } B
cli-access-struct = { $size }-byte struct ke byte { $field } par field (AoS)
cli-access-row-walk = row ke saath walk, pitch { $pitch } B
cli-access-column-walk = column ke saath walk, pitch { $pitch } B
cli-access-explicit = har lane ka apna offset

## calc coalescing
cli-coalescing-title = { $arch } par global load: { $access }
cli-coalescing-counts = sectors { $sectors } · lines { $lines } · requests { $requests } · { $transactions } ({ $unit } B)
cli-coalescing-bytes = bytes maange { $requested } / laaye gaye { $fetched } · efficiency { $efficiency } · waste { $waste }

## calc banks
cli-banks-title = { $arch } par shared memory load: { $access }
cli-banks-counts = { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
} { $wavefronts } · ideal { $ideal } · conflict degree { $degree }-way · bank conflicts { $conflicts }
cli-banks-granularity = --granularity sirf `calc coalescing` par lagta hai

## calc occupancy
cli-waves-title = { $arch } par waves: har lane ke { $vgprs } VGPRs (allocate hue { $allocated })
cli-waves-counts = har SIMD par waves { $waves } / { $max } · har CU par waves { $cu } · occupancy { $occupancy }
cli-occupancy-title = { $arch } par occupancy: { $threads } threads/block, { $regs } registers/thread, { $smem } shared memory/block, carveout { $carveout }
cli-occupancy-carveout-default = default
cli-occupancy-counts = har SM par active blocks { $blocks } · active warps { $warps } / { $max } · occupancy { $occupancy }
cli-occupancy-limited-by = limit karne wala: { $limiters }
cli-occupancy-limits = har limit kitne blocks per SM allow karti hai:
cli-occupancy-limiter-mark = ← yahi limiter hai
cli-occupancy-barriers = barriers
cli-occupancy-barriers-note = (9.0+: har block mein ek barrier ho to limit nahi karta)
cli-occupancy-allocated = har block ko allocate hua: { $regs } registers ({ $per_warp } har warp × { $warps } warps), { $smem } shared memory (reserved milakar); SM carveout { $carveout }
cli-occupancy-textbook = textbook bound (floor(65536 / r) threads, allocation granularity ko nahi ginta): { $threads } threads → warp tak round karke { $rounded } = { $occupancy }
cli-occupancy-hardware = hardware (SM asal mein kitna chalata hai): { $occupancy }
cli-limiter-warps = warps
cli-limiter-registers = registers
cli-limiter-shared-memory = shared memory
cli-limiter-blocks = blocks

## calc tiling
cli-tiling-title = { $arch } par tiled matrix multiply: N = { $n }, tile { $tile }×{ $tile }, { $elem }-byte elements
cli-tiling-reads = global reads naive { $naive } · tiled { $tiled } · kitne guna kam { $factor }×
cli-tiling-smem = har block ki shared memory { $smem } (2 tiles × { $tile }² × { $elem } B)
cli-tiling-smem-blocks = sirf shared memory ke hisaab se har SM par blocks: { $blocks }
cli-tiling-occupancy = poora occupancy rule ({ $threads } threads/block, { $regs } registers): { $blocks }, { $occupancy } (limit karne wala: { $limiters })
cli-tiling-too-big = { $tile }×{ $tile } block mein 1024 se zyada threads hain: koi occupancy nahi
cli-tiling-intensity = arithmetic intensity { $naive } → { $tiled } FLOP/B (reuse intensity ko tile size se guna kar deta hai)

## calc roofline
cli-roofline-title = Roofline: peak { $peak }FLOP/s, bandwidth { $bandwidth }B/s, intensity { $intensity } FLOP/B
cli-roofline-point = ridge { $ridge } FLOP/B · mil sakta hai { $attainable }FLOP/s (peak ka { $fraction }) · { $bound }
cli-bound-memory = memory-bound
cli-bound-compute = compute-bound

## content check / preview, check
cli-unknown-level = level `{ $level }` pata nahi (L1 … L5 use karo)
cli-content-problems = { $n ->
    [1] 1 content problem
   *[other] { $n } content problems
} — woh items chhod diye gaye (`warpdrill content check` dekho):
cli-content-ok = theek hai
cli-content-problems-found = problems mili
cli-content-summary = { $status }: { $files ->
    [1] 1 file
   *[other] { $files } files
}, { $topics ->
    [1] 1 topic
   *[other] { $topics } topics
}, { $cards ->
    [1] 1 card
   *[other] { $cards } cards
}, { $exercises ->
    [1] 1 exercise
   *[other] { $exercises } exercises
} ({ $levels }), { $lessons ->
    [1] 1 lesson
   *[other] { $lessons } lessons
}; { $problems ->
    [1] 1 problem
   *[other] { $problems } problems
}, { $warnings ->
    [1] 1 warning
   *[other] { $warnings } warnings
}
cli-content-coverage = { $lang } { $status }: topics { $topics }, cards { $cards }, exercises { $exercises }, lessons { $lessons }; kul { $overall }; { $problems ->
    [1] 1 problem
   *[other] { $problems } problems
}
cli-content-kind-topic = topic
cli-content-kind-card = card
cli-content-kind-exercise = exercise
cli-content-kind-lesson = lesson
cli-content-untranslated = { $lang }: { $what } `{ $id }` ka translation nahi hai
cli-content-in-english = { $lang }: { $what } `{ $id }` abhi English mein: { $fields }
cli-preview-items = items: { $items }
cli-preview-part = part { $n }: { $prompt } — jawab: { $answer }
cli-preview-answer = jawab: { $answer }
cli-preview-cannot-generate = generate nahi ho saka: { $error }
cli-check-list-hint = list dekhne ke liye `warpdrill content preview` chalao
cli-check-did-you-mean = kya aapka matlab { $names } tha?
cli-check-no-exercise = exercise `{ $id }` nahi mili — { $hint }
cli-check-cannot-generate = exercise `{ $id }` generate nahi ho sakti: { $error }
cli-check-part-range = exercise `{ $id }` mein { $parts ->
    [1] 1 exact part hai; --part sirf 1 leta hai
   *[other] { $parts } exact parts hain; --part 1 se { $parts } tak leta hai
}
cli-check-ideas-found = Jo ideas mile: { $ideas }
cli-check-ideas-missed = Jo ideas chhoot gaye: { $ideas }
cli-check-model = Model jawab: { $model }
cli-check-why = Kyun: { $why }

## lab key, lab start
cli-lab-step = step { $step } · { $exercise } · seed { $seed }
cli-lab-answer = jawab: { $answer }   (maane jaate hain: { $accepted })
cli-lab-md-step = step
cli-lab-md-exercise = exercise
cli-lab-md-seed = seed
cli-lab-md-prompt = sawaal
cli-lab-md-answer = jawab
cli-lab-need-student = --student ID ya --roster FILE do
cli-lab-saved = Aapke jawab { $path } mein save hain.
cli-lab-receipt = Jama ho gaya. Receipt: { $receipt }

## stats
cli-stats-title = { $today } ka review (din { $hour }:00 baje shuru hota hai) · log { $log }
cli-stats-today = aaj
cli-stats-today-line = { $rated } rate kiye · { $due } due · abhi baaki: { $new } new, { $learning } learning, { $review } review
cli-stats-cards = cards
cli-stats-cards-line = new { $new } · learning { $learning } · review { $review } · relearning { $relearning } · suspended { $suspended }
cli-stats-retention = retention
cli-stats-retention-line = pichhle 30 din { $last30 } (young { $young_n } mein se { $young }, mature { $mature_n } mein se { $mature }) · chahiye { $desired }
cli-stats-forecast = forecast
cli-stats-forecast-line = { $bars } (agle 30 din mein { $due } due)
cli-stats-streak = streak
cli-stats-streak-line = { $days } din lagataar · kul { $total } ratings
cli-stats-mastery = mastery (abhi yaad aane ki average probability):
cli-stats-studied = { $cards } mein se { $studied } padhe
cli-stats-topic-aim = target { $percent }
cli-stats-weeks = pichhle { $weeks } hafte ({ $first } se, har hafte ka ek column):
cli-day-mon = Som
cli-day-tue = Mangal
cli-day-wed = Budh
cli-day-thu = Guru
cli-day-fri = Shukra
cli-day-sat = Shani
cli-day-sun = Ravi
cli-coalescing-title-store = { $arch } par global store: { $access }
cli-banks-title-store = { $arch } par shared memory store: { $access }
cli-occupancy-cannot-launch = { $arch } par launch nahi ho sakta: { $reason } — ek bhi block SM par fit nahi hota, isliye occupancy 0 % nahi hai: launch fail hota hai
cli-occupancy-no-regs-block = block ko { $regs } registers chahiye (per warp allocate, warps 4 ke multiple tak round up), SM ke { $max } se zyada
cli-occupancy-no-smem = block ko { $smem } shared memory chahiye (reserved hissa milakar), jo ek block opt-in karke le sakta hai us { $max } se zyada
cli-occupancy-no-regs-warps = { $per_warp } registers per warp par SM sirf { $held } warps rakh sakta hai (4 register sub-partitions), block ke { $warps } se kam
cli-content-shares = { $seeds } seeds par answer share (har template ka sabse common answer; { $limit } se upar warning hai, fixed facts exempt hain):
cli-content-share-warning = warning
cli-content-share-fixed = fixed fact
cli-stats-calibration = calibration
cli-stats-calibration-fixed = fixed cards
cli-stats-calibration-drill = drill cards
cli-stats-calibration-line = { $kind }: { $n } reviews · anumaanit recall { $predicted } · asli { $actual } · log loss { $log_loss } · RMSE { $rmse }
cli-stats-calibration-none = { $kind }: abhi tak ek din ya zyada ke gap wala koi review nahi
cli-stats-calibration-bin = anumaan { $from }–{ $to }%: ausat { $predicted } · yaad rahe { $actual } ({ $n })
cli-content-puzzles = Kernel puzzles: { $puzzles } check hue (har reference apna puzzle solve karta hai aur apne targets poore karta hai).
