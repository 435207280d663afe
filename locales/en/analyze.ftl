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
