# The kernel analyser: the list of built-in examples and one analysed kernel.
analyze-examples-title = Analyse a kernel — built-in examples
analyze-examples-intro = Each kernel runs over its whole launch, every warp, no GPU: per line, sectors and bank conflicts.
analyze-examples-launch = grid { $grid } block { $block }
# Footer and help: what the keys do.
analyze-key-move = move
analyze-key-analyse = analyse
analyze-key-page = page
analyze-key-line = line
analyze-key-explorer = explorer
analyze-key-iteration = iteration
analyze-key-warp = warp
analyze-key-block = block
analyze-key-time = time
analyze-time-title = Predicted time: each term, the largest first
analyze-key-next-prev = next/prev access
analyze-key-access = access on the line
# The head: the kernel and its totals (ld/st: loads/stores, req: requests, sec: sectors,
# wf: wavefronts, confl: bank conflicts).
analyze-kernel-title = kernel { $kernel } · grid { $grid } · block { $block } · { $file }
analyze-totals = totals
analyze-if-merged = if merged
analyze-totals-global-load = global ld { $requests } req { $sectors } sec
analyze-totals-global-store = st { $requests } req { $sectors } sec
analyze-totals-shared-load = shared ld { $wavefronts } wf { $conflicts } confl
analyze-totals-shared-store = st { $wavefronts } wf { $conflicts } confl
analyze-totals-none = no memory access runs
analyze-totals-atomics = { $n ->
    [one] { $n } atomic counted apart (not in these figures)
   *[other] { $n } atomics counted apart (not in these figures)
}
# The source with its heat column.
analyze-source-title = Source · heat: wasted sectors + extra wavefronts
# The selected line's access.
analyze-line-title = Line { $line } · { $text }
analyze-line = Line { $line }
analyze-no-access = No memory access on this line — n / N jump to the next or previous one.
analyze-access-head = { $space } · { $bytes } B per lane
analyze-access-of = access { $n } of { $count } on the line (Tab)
analyze-never-runs = never runs with an active lane
analyze-as-written = as written
analyze-merged-with-first = counted with the first access of its group
analyze-why = why: { $why }
analyze-where = block ({ $x },{ $y },{ $z }) of { $blocks } · warp { $warp } of { $warps }
analyze-warp-never-runs = { $place } · this warp never runs it (w/b: other warps)
analyze-run = { $lanes ->
    [one] { $place } · run { $run } of { $total } · { $lanes } lane active
   *[other] { $place } · run { $run } of { $total } · { $lanes } lanes active
}
analyze-run-load = { $lanes ->
    [one] { $place } · run { $run } of { $total } (load) · { $lanes } lane active
   *[other] { $place } · run { $run } of { $total } (load) · { $lanes } lanes active
}
analyze-run-store = { $lanes ->
    [one] { $place } · run { $run } of { $total } (store) · { $lanes } lane active
   *[other] { $place } · run { $run } of { $total } (store) · { $lanes } lanes active
}
analyze-trace-error = { $place }: { $error }
# The warp's diagram.
analyze-warp-diagram = Warp diagram
analyze-warp-sectors = Warp → sectors
analyze-move-to-access = Move to a line with an access that this warp runs.
# Why an access costs what it costs ($sectors, $used, $ways: figures already written out).
analyze-why-coalesced = { $sectors } sectors per request, { $used } % of fetched bytes used: coalesced
analyze-why-scattered = { $sectors } sectors per request where a full warp needs { $ideal }: { $used } % of fetched bytes used — neighbouring lanes are not { $op ->
    [store] writing
    [both] reading and writing
   *[load] reading
} neighbouring addresses
analyze-why-no-conflicts = no bank conflicts: one wavefront per phase
analyze-why-conflicts = { $ways }-way bank conflict on average: lanes of one phase hit different words of the same bank
# Which merge the "if merged" figures assume ($members: the accesses in backquotes; $op: LDG/STG.64, …).
analyze-merge-group = assumes the compiler merges { $members } into one { $bytes }-byte access ({ $op }) per thread
analyze-merge-unrolled = assumes the compiler unrolls the loop and merges { $access } of neighbouring iterations into { $bytes }-byte accesses ({ $op })
analyze-merge-and = { $first } and { $last }
analyze-merge-list-separator = {" and "}
# The text report (`warpdrill analyze … --text`).
analyze-text-head = kernel { $kernel }  grid { $grid }  block { $block }
analyze-text-line = line
analyze-text-figures = instructions · requests/sectors · wavefronts
analyze-text-source = source
analyze-text-merged = if merged: { $figures }
analyze-text-merged-none = if merged: none (counted on the first)
analyze-text-totals = totals
analyze-text-merged-totals = totals if the compiler merges neighbouring accesses of one thread (the hardware then counts the wider access)
analyze-text-global-loads = global loads
analyze-text-global-stores = global stores
analyze-text-shared-loads = shared loads
analyze-text-shared-stores = shared stores
analyze-text-divergence = divergence
analyze-text-divergence-figures = { $partial } of { $all } warp instructions issued with threads idle ({ $percent } %); { $threads } threads active per instruction on average
analyze-text-divergent-line = line { $line }: { $partial } of its { $all } with threads idle
analyze-text-global-figures = { $requests ->
    [one] { $requests } request
   *[other] { $requests } requests
}, { $sectors ->
    [one] { $sectors } sector
   *[other] { $sectors } sectors
} ({ $per } per request)
analyze-text-shared-figures = { $instructions ->
    [one] { $instructions } instruction
   *[other] { $instructions } instructions
}, { $wavefronts ->
    [one] { $wavefronts } wavefront
   *[other] { $wavefronts } wavefronts
}, { $conflicts ->
    [one] { $conflicts } bank conflict
   *[other] { $conflicts } bank conflicts
}
analyze-text-no-waste = no wasted sectors and no bank conflicts
analyze-text-costliest = costliest accesses
analyze-text-wasted-sectors = { $n ->
    [one] { $n } wasted sector
   *[other] { $n } wasted sectors
}
analyze-text-extra-wavefronts = { $n ->
    [one] { $n } extra wavefront
   *[other] { $n } extra wavefronts
}

## An analysis running in the background
analyze-pending-title = Analysing { $file }
analyze-pending = analysing… (Esc cancels)
analyze-pending-time = { $seconds } s so far — the simulation stops by itself when it runs out of budget.
analyze-key-cancel = cancel
analyze-cannot = Cannot analyse { $file }: { $message }
analyze-text-reused = no load: reuses line { $from }'s value
analyze-text-forwarded = no load: line { $from }'s store forwarded
analyze-text-assumed = assumed (--assume): these figures hold for this data:
analyze-assume-uniform = values uniform in [{ $lo }, { $hi })
analyze-assume-constant = { $value } in every element
analyze-assume-file = the { $n ->
        [one] value
       *[other] { $n } values
    } of { $file }, repeated
analyze-heat-reused = reused
analyze-totals-assumed = assumed data (--assume): { $arrays }
analyze-totals-divergence = divergent { $percent } %
analyze-line-divergence = divergence: { $partial } of the line's { $all } warp instructions issued with threads idle
analyze-text-as-written = as written: { $figures }
analyze-text-written-totals = as written, without the merges nvcc makes (its shared accesses of known alignment: neighbours in one statement, steps through a loop it unrolls):
analyze-compiled = nvcc merges

## Atomics, as Nsight Compute counts them
analyze-text-atomics = atomics (Nsight Compute counts them apart from loads and stores, as op_atom, op_red and shared op_atom):
analyze-text-atomic-global = { $instruction } · { $requests } requests · { $sectors } sectors ({ $per } per request) · { $form }
analyze-text-atomic-shared = ATOMS · { $instructions } instructions · { $wavefronts } wavefronts ({ $per } per instruction) · { $form }
analyze-text-atomic-uncounted = { $n } executions not counted: the address depends on data (give --assume)
analyze-text-atomic-retried = { $n } executions not counted: lanes on one address retry the compare-and-swap loop as often as timing makes them
analyze-text-atomic-unfollowed = not counted: its target is not an element of an array the analyser follows
analyze-text-atomic-totals = atomics: ATOMG { $atom_requests } requests, { $atom_sectors } sectors · REDG { $red_requests } requests, { $red_sectors } sectors · ATOMS { $shared_instructions } instructions, { $shared_wavefronts } wavefronts
analyze-atomic-form-combined = one lane for the warp (the address is the same for every thread: nvcc combines the lanes)
analyze-atomic-form-increment = lanes on one address count once (ATOMS.POPC.INC)
analyze-atomic-form-swap-loop = a load, then a compare-and-swap loop (sm_90 has no shared float add); the load is in the shared loads
analyze-atomic-form-rounds = lanes on one address are served one after another
analyze-totals-atomics-global = atomics { $requests } req / { $sectors } sectors
analyze-totals-atomics-shared = shared atomics { $instructions } instr / { $wavefronts } wavefronts
