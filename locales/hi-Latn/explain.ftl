# Engine ke result ki one-line "why" sentences (explorer, `warpdrill calc`).
explain-units = { $n ->
    [1] { $n } { $unit }
   *[other] { $n } { $unit }s
}
explain-distinct-units = { $n ->
    [1] { $n } distinct { $unit }
   *[other] { $n } distinct { $unit }s
}
explain-useful-elements = { $n ->
    [1] { $count } useful element
   *[other] { $count } useful elements
}
explain-wavefronts = { $vendor ->
    [amd] { $n ->
        [1] { $n } LDS pass
       *[other] { $n } LDS passes
    }
   *[other] { $n ->
        [1] { $n } wavefront
       *[other] { $n } wavefronts
    }
}
explain-one-lane = sirf ek active lane ek { $elem }-byte element padhti hai: uske liye poora { $size }-byte { $unit } fetch hota hai
explain-stride-zero = stride 0: har lane same { $elem }-byte element padhti hai, isliye ek hi { $unit } poore warp ko serve karta hai (broadcast)
explain-coalesced = lanes padosi { $elem }-byte elements padhti hain: { $requested } useful bytes { $units } ko exactly bhar dete hain — perfectly coalesced
explain-broadcast = har lane same { $elem }-byte element padhti hai, isliye ek hi { $unit } poore warp ko serve karta hai (broadcast)
explain-holes = { $warp } mein se sirf { $active } lanes active hain aur woh padosi nahi hain: beech ke bytes fetch hote hain par use nahi hote ({ $fetched } B mein se { $used } B)
explain-far-apart = lanes { $gap } B door hain (≥ { $size } B), isliye har active lane ko apna { $unit } chahiye: { $units } { $requested } useful bytes ke liye { $fetched } B fetch karte hain
explain-straddles = contiguous hai, par span { $size }-byte boundary par start nahi hota: yeh { $minimum } ki jagah { $units } mein faila hai
explain-contiguous = contiguous: { $requested } useful bytes ko kam se kam { $units } chahiye, aur lanes usse zyada touch nahi karti; aakhri wala sirf thoda use hota hai ({ $fetched } fetched bytes mein se { $used } use hote hain)
explain-gap = lanes { $gap } B door hain: har { $size }-byte { $unit } mein sirf { $elements } aata hai, isliye har { $size } fetched bytes mein se sirf { $useful } use hote hain
explain-explicit = active lanes { $units } touch karti hain: { $fetched } fetched bytes mein se { $used } use hote hain
explain-phases = { $elem }-byte loads { $lanes } lanes ke { $phases } phases mein serve hote hain
explain-phases-plain = { $phases };{ " " }
explain-phases-merged = { $phases } (lane pairs address share karti hain, isliye phases merge ho jaate hain);{ " " }
explain-banks-broadcast = jo lanes same word padhti hain woh use share karti hain (broadcast), aur koi bank do alag words serve nahi karta
explain-banks-distinct = har bank ek phase mein zyada se zyada ek distinct word serve karta hai
explain-no-conflict = { $phases }{ $why } → koi conflict nahi, { $wavefronts }
explain-stride-gcd = stride { $stride } words: gcd({ $stride }, 32) = { $degree }, isliye har used bank { $degree } distinct words serve karta hai → { $degree }-way conflict
explain-worst-bank = { $phases }bank { $bank } ko { $words } distinct words ek ke baad ek dene padte hain → { $ideal } ki jagah { $wavefronts } { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
} ({ $degree }-way)
explain-phases-store = { $elem }-byte stores { $lanes } lanes ke { $phases } phases mein serve hote hain
explain-phases-store-plain = { $phases } (stores mein phases kabhi merge nahi hote);{ " " }
