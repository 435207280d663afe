# The engine's one-line "why" sentences (explorer, `warpdrill calc`).
explain-units = { $n ->
    [one] { $n } { $unit }
   *[other] { $n } { $unit }s
}
explain-distinct-units = { $n ->
    [one] { $n } distinct { $unit }
   *[other] { $n } distinct { $unit }s
}
explain-useful-elements = { $n ->
    [one] { $count } useful element
   *[other] { $count } useful elements
}
explain-wavefronts = { $vendor ->
    [amd] { $n ->
        [one] { $n } LDS pass
       *[other] { $n } LDS passes
    }
   *[other] { $n ->
        [one] { $n } wavefront
       *[other] { $n } wavefronts
    }
}
explain-one-lane = one active lane reads one { $elem }-byte element: a whole { $size }-byte { $unit } is fetched for it
explain-stride-zero = stride 0: every lane reads the same { $elem }-byte element, so one { $unit } serves the whole warp (broadcast)
explain-coalesced = lanes read neighbouring { $elem }-byte elements: { $requested } useful bytes fill { $units } exactly — perfectly coalesced
explain-broadcast = every lane reads the same { $elem }-byte element, so one { $unit } serves the whole warp (broadcast)
explain-holes = only { $active } of { $warp } lanes are active and they are not neighbours: the bytes between them are fetched but unused ({ $used } of { $fetched } B)
explain-far-apart = lanes are { $gap } B apart (≥ { $size } B), so every active lane needs its own { $unit }: { $units } fetch { $fetched } B for { $requested } useful bytes
explain-straddles = contiguous, but the span does not start on a { $size }-byte boundary: it straddles { $units } instead of { $minimum }
explain-contiguous = contiguous: { $requested } useful bytes need at least { $units }, and the lanes touch no more; the last is only partly used ({ $used } of { $fetched } fetched bytes are used)
explain-gap = lanes are { $gap } B apart: each { $size }-byte { $unit } holds only { $elements }, so { $useful } of every { $size } bytes fetched are used
explain-explicit = the active lanes touch { $units }: { $used } of { $fetched } fetched bytes are used
explain-phases = { $elem }-byte loads are served in { $phases } phases of { $lanes } lanes
explain-phases-plain = { $phases };{ " " }
explain-phases-merged = { $phases } (lane pairs share addresses, so phases merge);{ " " }
explain-banks-broadcast = lanes that read the same word share it (broadcast), and no bank serves two different words
explain-banks-distinct = every bank serves at most one distinct word per phase
explain-no-conflict = { $phases }{ $why } → no conflict, { $wavefronts }
explain-stride-gcd = stride { $stride } words: gcd({ $stride }, 32) = { $degree }, so every bank used serves { $degree } distinct words → { $degree }-way conflict
explain-worst-bank = { $phases }bank { $bank } must deliver { $words } distinct words one after another → { $wavefronts } { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
} instead of { $ideal } ({ $degree }-way)
explain-phases-store = { $elem }-byte stores are served in { $phases } phases of { $lanes } lanes
explain-phases-store-plain = { $phases } (stores never merge phases);{ " " }
