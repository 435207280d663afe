# Labels and legends of the access diagrams (explorer, `warpdrill calc`).
diagram-address = address
diagram-bytes-used = bytes (█ used)
diagram-lanes = lanes
diagram-used = used
diagram-sectors = { $n ->
    [one] { $n } sector
   *[other] { $n } sectors
}
diagram-lines = { $n ->
    [one] { $n } line
   *[other] { $n } lines
}
diagram-wavefronts = { $vendor ->
    [amd] { $n ->
        [one] { $n } LDS pass
       *[other] { $n } LDS passes
    }
   *[other] { $n ->
        [one] { $n } wavefront
       *[other] { $n } wavefronts
    }
}
diagram-gap = gap of { $bytes } ({ $units } not fetched)
diagram-phase = phase: lanes { $first }-{ $last } → { $wavefronts }
diagram-banks-legend = (cell = lane reading a word; + = more lanes share that word; rows = { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
})
