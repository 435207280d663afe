# Access diagrams ke labels aur legends (explorer, `warpdrill calc`).
diagram-address = address
diagram-bytes-used = bytes (█ used)
diagram-lanes = lanes
diagram-used = used
diagram-sectors = { $n ->
    [1] { $n } sector
   *[other] { $n } sectors
}
diagram-lines = { $n ->
    [1] { $n } line
   *[other] { $n } lines
}
diagram-wavefronts = { $vendor ->
    [amd] { $n ->
        [1] { $n } LDS pass
       *[other] { $n } LDS passes
    }
   *[other] { $n ->
        [1] { $n } wavefront
       *[other] { $n } wavefronts
    }
}
diagram-gap = { $bytes } ka gap ({ $units } fetch nahi hue)
diagram-phase = phase: lanes { $first }-{ $last } → { $wavefronts }
diagram-banks-legend = (cell = word padhne wali lane; + = kai lanes woh word share karti hain; rows = { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
})
