# Kernel analyser: built-in examples ki list aur ek analysed kernel.
analyze-examples-title = Kernel analyse karo — built-in examples
analyze-examples-intro = Har kernel apne poore launch pe chalta hai, har warp, bina GPU ke: har line ke sectors aur bank conflicts.
analyze-examples-launch = grid { $grid } block { $block }
# Footer aur help: keys kya karti hain.
analyze-key-move = move karo
analyze-key-analyse = analyse karo
analyze-key-page = page
analyze-key-line = line
analyze-key-explorer = explorer
analyze-key-iteration = iteration
analyze-key-warp = warp
analyze-key-block = block
analyze-key-next-prev = agla/pichhla access
analyze-key-access = line ka access
# Upar: kernel aur uske totals (ld/st: loads/stores, req: requests, sec: sectors,
# wf: wavefronts, confl: bank conflicts).
analyze-kernel-title = kernel { $kernel } · grid { $grid } · block { $block } · { $file }
analyze-totals = totals
analyze-if-merged = merge karke
analyze-totals-global-load = global ld { $requests } req { $sectors } sec
analyze-totals-global-store = st { $requests } req { $sectors } sec
analyze-totals-shared-load = shared ld { $wavefronts } wf { $conflicts } confl
analyze-totals-shared-store = st { $wavefronts } wf { $conflicts } confl
analyze-totals-none = koi memory access nahi chalta
# Source aur uska heat column.
analyze-source-title = Source · heat: waste hue sectors + extra wavefronts
# Selected line ka access.
analyze-line-title = Line { $line } · { $text }
analyze-line = Line { $line }
analyze-no-access = Is line pe koi memory access nahi hai — n / N se agle ya pichhle pe jao.
analyze-access-head = { $space } · har lane ke { $bytes } B
analyze-access-of = line pe { $count } mein se access { $n } (Tab)
analyze-never-runs = kisi active lane ke saath kabhi nahi chalta
analyze-as-written = jaisa likha hai
analyze-merged-with-first = apne group ke pehle access ke saath count hota hai
analyze-why = kyun: { $why }
analyze-where = block ({ $x },{ $y },{ $z }) / { $blocks } · warp { $warp } / { $warps }
analyze-warp-never-runs = { $place } · yeh warp isse kabhi nahi chalata (w/b: doosre warps)
analyze-run = { $lanes ->
    [1] { $place } · run { $run } / { $total } · { $lanes } lane active
   *[other] { $place } · run { $run } / { $total } · { $lanes } lanes active
}
analyze-run-load = { $lanes ->
    [1] { $place } · run { $run } / { $total } (load) · { $lanes } lane active
   *[other] { $place } · run { $run } / { $total } (load) · { $lanes } lanes active
}
analyze-run-store = { $lanes ->
    [1] { $place } · run { $run } / { $total } (store) · { $lanes } lane active
   *[other] { $place } · run { $run } / { $total } (store) · { $lanes } lanes active
}
analyze-trace-error = { $place }: { $error }
# Warp ka diagram.
analyze-warp-diagram = Warp diagram
analyze-warp-sectors = Warp → sectors
analyze-move-to-access = Aisi line pe jao jiska access yeh warp chalata hai.
