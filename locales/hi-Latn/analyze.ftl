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
analyze-key-time = time
analyze-time-title = Predicted time: har term, sabse bada pehle
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
analyze-totals-atomics = { $n } atomics alag gine gaye (in figures mein nahin)
# Source aur uska heat column.
analyze-source-title = Source · heat: waste hue sectors + extra wavefronts
# Selected line ka access.
analyze-line-title = Line { $line } · { $text }
analyze-line = Line { $line }
analyze-no-access = Is line pe koi memory access nahi hai — n / N se agle ya pichhle pe jao.
analyze-access-head = { $space } · har lane ke { $bytes } B
analyze-access-of = line pe access { $n } / { $count } (Tab)
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
# Access ki cost kyun hai ($sectors, $used, $ways: figures pehle se likhe hue).
analyze-why-coalesced = har request pe { $sectors } sectors, fetched bytes ka { $used } % use hua: coalesced
analyze-why-scattered = har request pe { $sectors } sectors, jabki poore warp ko { $ideal } chahiye: fetched bytes ka sirf { $used } % use hua — padosi lanes padosi addresses { $op ->
    [store] mein nahi likh rahi
    [both] nahi padh aur likh rahi
   *[load] nahi padh rahi
}
analyze-why-no-conflicts = koi bank conflict nahi: har phase mein ek wavefront
analyze-why-conflicts = average { $ways }-way bank conflict: ek phase ki lanes same bank ke alag-alag words hit karti hain
# "merge karke" figures kaunsa merge maante hain ($members: backquotes mein accesses; $op: LDG/STG.64, …).
analyze-merge-group = maana hai ki compiler { $members } ko har thread ke ek { $bytes }-byte access ({ $op }) mein merge karta hai
analyze-merge-unrolled = maana hai ki compiler loop unroll karke padosi iterations ke { $access } ko { $bytes }-byte accesses ({ $op }) mein merge karta hai
analyze-merge-and = { $first } aur { $last }
analyze-merge-list-separator = {", "}
# Text report (`warpdrill analyze … --text`).
analyze-text-head = kernel { $kernel }  grid { $grid }  block { $block }
analyze-text-line = line
analyze-text-figures = instructions · requests/sectors · wavefronts
analyze-text-source = source
analyze-text-merged = merge karke: { $figures }
analyze-text-merged-none = merge karke: kuch nahi (group ke pehle access ke saath count hua)
analyze-text-totals = totals
analyze-text-merged-totals = totals agar compiler ek thread ke padosi accesses ko merge kare (tab hardware wider access count karta hai)
analyze-text-global-loads = global loads
analyze-text-global-stores = global stores
analyze-text-shared-loads = shared loads
analyze-text-shared-stores = shared stores
analyze-text-divergence = divergence
analyze-text-divergence-figures = { $all } warp instructions mein se { $partial } idle threads ke saath issue hue ({ $percent } %); average mein har instruction pe { $threads } threads active
analyze-text-divergent-line = line { $line }: uske { $all } mein se { $partial } idle threads ke saath
analyze-text-global-figures = { $requests ->
    [1] { $requests } request
   *[other] { $requests } requests
}, { $sectors ->
    [1] { $sectors } sector
   *[other] { $sectors } sectors
} (har request pe { $per })
analyze-text-shared-figures = { $instructions ->
    [1] { $instructions } instruction
   *[other] { $instructions } instructions
}, { $wavefronts ->
    [1] { $wavefronts } wavefront
   *[other] { $wavefronts } wavefronts
}, { $conflicts ->
    [1] { $conflicts } bank conflict
   *[other] { $conflicts } bank conflicts
}
analyze-text-no-waste = koi sector waste nahi hua aur koi bank conflict nahi
analyze-text-costliest = sabse mehnge accesses
analyze-text-wasted-sectors = { $n ->
    [1] { $n } sector waste hua
   *[other] { $n } sectors waste hue
}
analyze-text-extra-wavefronts = { $n ->
    [1] { $n } extra wavefront
   *[other] { $n } extra wavefronts
}

## An analysis running in the background
analyze-pending-title = { $file } ka analysis chal raha hai
analyze-pending = analyse ho raha hai… (Esc se cancel karein)
analyze-pending-time = abhi tak { $seconds } s — budget khatam hote hi simulation khud ruk jaata hai.
analyze-key-cancel = cancel
analyze-cannot = { $file } ko analyse nahin kar sakte: { $message }
analyze-text-reused = load nahin: line { $from } ki value reuse
analyze-text-forwarded = load nahin: line { $from } ka store forward hua
analyze-text-assumed = maana gaya (--assume): ye figures sirf is data ke liye hain:
analyze-assume-uniform = [{ $lo }, { $hi }) mein uniform values
analyze-assume-constant = har element mein { $value }
analyze-assume-file = { $file } ki { $n ->
        [one] value
       *[other] { $n } values
    }, baar baar
analyze-heat-reused = reuse
analyze-totals-assumed = maana gaya data (--assume): { $arrays }
analyze-totals-divergence = divergent { $percent } %
analyze-line-divergence = divergence: line ke { $all } warp instructions mein se { $partial } idle threads ke saath issue hue
analyze-text-as-written = jaisa likha: { $figures }
analyze-text-written-totals = jaisa likha, nvcc ke merges ke bina (known alignment wale shared accesses: ek statement ke padosi, unroll hue loop ke steps):
analyze-compiled = nvcc merge

## Atomics, as Nsight Compute counts them
analyze-text-atomics = atomics (Nsight Compute inhe loads aur stores se alag ginta hai, op_atom, op_red aur shared op_atom mein):
analyze-text-atomic-global = { $instruction } · { $requests } requests · { $sectors } sectors ({ $per } har request) · { $form }
analyze-text-atomic-shared = ATOMS · { $instructions } instructions · { $wavefronts } wavefronts ({ $per } har instruction) · { $form }
analyze-text-atomic-uncounted = { $n } executions gine nahin gaye: address data par depend karta hai (--assume do)
analyze-text-atomic-retried = { $n } executions gine nahin gaye: ek address wali lanes compare-and-swap loop utni baar dohrati hain jitna timing karaye
analyze-text-atomic-unfollowed = gina nahin gaya: iska target kisi aise array ka element nahin jise analyser follow karta hai
analyze-text-atomic-totals = atomics: ATOMG { $atom_requests } requests, { $atom_sectors } sectors · REDG { $red_requests } requests, { $red_sectors } sectors · ATOMS { $shared_instructions } instructions, { $shared_wavefronts } wavefronts
analyze-atomic-form-combined = warp ke liye ek lane (address har thread ke liye same hai: nvcc lanes ko jod deta hai)
analyze-atomic-form-increment = ek address wali lanes ek hi baar ginti hain (ATOMS.POPC.INC)
analyze-atomic-form-swap-loop = pehle ek load, phir compare-and-swap loop (sm_90 mein shared float add nahin hai); load shared loads mein gina gaya
analyze-atomic-form-rounds = ek address wali lanes ek ke baad ek serve hoti hain
analyze-totals-atomics-global = atomics { $requests } req / { $sectors } sectors
analyze-totals-atomics-shared = shared atomics { $instructions } instr / { $wavefronts } wavefronts
