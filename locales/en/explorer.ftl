# The explorer: parameters, presets, diagrams, numbers and the sweep panel.
explorer-key-stride = stride ±
explorer-key-offset = offset ±
explorer-key-elem = elem
explorer-key-space = global/shared
explorer-key-arch = arch
explorer-key-presets = presets
explorer-key-sweep = sweep
explorer-key-field = field, value
explorer-key-type = type a value
explorer-key-back = back
explorer-parameters = Parameters
explorer-parameters-compact = Parameters (↑↓ choose)
explorer-warp-sectors = Warp → sectors
explorer-warp-lines = Warp → lines
explorer-numbers = Numbers
explorer-numbers-preset = Numbers · preset: { $name }
explorer-sectors = sectors { $n }
explorer-requests = requests { $n }
explorer-efficiency = efficiency { $percent }
explorer-lines = lines { $n }
explorer-bytes = bytes requested { $requested } / fetched { $fetched } ({ $wasted } wasted)
explorer-why = why: { $why }
explorer-wavefronts = { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
} { $n }
explorer-ideal = ideal { $n }
explorer-conflict-degree = conflict degree { $degree }-way
explorer-bank-conflicts = bank conflicts { $n }
explorer-diagram = Diagram
explorer-cannot-draw = These inputs cannot be drawn:
# Parameter rows: labels (short: the panel is 24 columns inside) and values.
explorer-row-arch = arch
explorer-row-space = space
explorer-row-elem = elem
explorer-row-pattern = pattern
explorer-row-stride = stride
explorer-row-first = first
explorer-row-column = column
explorer-row-offset = offset
explorer-row-struct = struct
explorer-row-field = field at
explorer-row-pitch = pitch
explorer-row-base = base
explorer-row-offsets = offsets
explorer-row-lanes = lanes
explorer-row-count = count
explorer-row-sweep = sweep
explorer-row-range = range
explorer-row-figure = figure
explorer-value-bytes = { $n } B
explorer-value-elems = { $n } elem
explorer-space-global = global
explorer-space-shared = shared
explorer-shape-affine = affine
explorer-shape-struct = AoS field
explorer-shape-row = 2D row walk
explorer-shape-column = 2D column walk
explorer-shape-offsets = explicit
explorer-lanes-all = all ({ $count })
explorer-lanes-half = first half ({ $count })
explorer-lanes-odd = odd ({ $count })
explorer-lanes-first = first { $count }
explorer-unit-lines = 128 B lines
explorer-unit-sectors = 32 B sectors
explorer-error-space = `{ $text }`: type global or shared
explorer-error-elem = element size must be 1, 2, 4, 8 or 16 bytes, got { $elem }
explorer-error-shape = `{ $text }`: type affine, aos, row or column
explorer-error-struct = a struct must hold its { $elem }-byte field
explorer-error-field = field offset must be 0 to { $max }
explorer-error-offsets = type 1 to { $warp } byte offsets, comma-separated, lane 0 first
explorer-error-lanes = at least one lane must be active
# The global diagram.
explorer-lane = lane
explorer-more-sectors = { $n ->
    [one] … { $n } more sector not shown (enlarge the window)
   *[other] … { $n } more sectors not shown (enlarge the window)
}
explorer-more-lines = { $n ->
    [one] … { $n } more line not shown (enlarge the window)
   *[other] … { $n } more lines not shown (enlarge the window)
}
# The bank diagram.
explorer-banks-title = Lanes → 32 banks
explorer-share-word = lanes { $lanes } share word { $word }
explorer-broadcast = broadcast: { $words }
explorer-serialized = serialized: bank { $bank } delivers { $words } words one after another — lanes { $lanes }
explorer-banks-legend = ● word · ◆ shared (broadcast) · ✗ waits { $vendor ->
    [amd] an LDS pass
   *[other] a wavefront
}
explorer-banks-legend-digits = lane numbers read downwards (tens over units) · underlined: shared (broadcast) · ✗ waits { $vendor ->
    [amd] an LDS pass
   *[other] a wavefront
}
explorer-phase = phase lanes { $first }-{ $last } → { $vendor ->
    [amd] { $n ->
        [one] { $n } LDS pass
       *[other] { $n } LDS passes
    }
   *[other] { $n ->
        [one] { $n } wavefront
       *[other] { $n } wavefronts
    }
}
explorer-phase-merged = phase lanes { $first }-{ $last } → { $vendor ->
    [amd] { $n ->
        [one] { $n } LDS pass
       *[other] { $n } LDS passes
    }
   *[other] { $n ->
        [one] { $n } wavefront
       *[other] { $n } wavefronts
    }
} (pairs merged)
explorer-more-rows = { $n ->
    [one] … { $n } more { $vendor ->
        [amd] LDS pass
       *[other] wavefront
    } row
   *[other] … { $n } more { $vendor ->
        [amd] LDS pass
       *[other] wavefront
    } rows
}
# The presets.
explorer-presets-title = Presets (Enter apply, Esc close)
explorer-preset-sequential = sequential floats
explorer-preset-sequential-what = stride 1: 4 sectors, 100 %
explorer-preset-stride2 = stride 2
explorer-preset-stride2-what = half of every sector wasted
explorer-preset-stride32 = stride 32
explorer-preset-stride32-what = one sector per lane, 12.5 %
explorer-preset-stride1024 = stride 1024
explorer-preset-stride1024-what = lanes 4 KB apart: gaps
explorer-preset-misaligned = misaligned by one
explorer-preset-misaligned-what = 5 sectors instead of 4
explorer-preset-aos12 = AoS, 12-byte struct
explorer-preset-aos12-what = float3 field: 12 sectors
explorer-preset-aos24 = AoS, 24-byte struct
explorer-preset-aos24-what = 24 sectors for 128 useful bytes
explorer-preset-soa = SoA
explorer-preset-soa-what = one array per field: 4 sectors
explorer-preset-column = column walk, pitch 4096
explorer-preset-column-what = row-major matrix, down a column
explorer-preset-half-warp = half warp
explorer-preset-half-warp-what = lanes 16-31 inactive: 2 sectors
explorer-preset-transpose = transpose column, tile[32][32]
explorer-preset-transpose-what = shared: 32-way conflict
explorer-preset-padded = padded tile[32][33]
explorer-preset-padded-what = shared: conflict-free
explorer-preset-shared-stride2 = shared stride 2
explorer-preset-shared-stride2-what = 2-way conflict
explorer-preset-broadcast = broadcast
explorer-preset-broadcast-what = all lanes, one word: 1 wavefront
explorer-preset-doubles = 8-byte doubles
explorer-preset-doubles-what = shared: two half-warp phases
explorer-preset-double-tile = double tile[32][32] column
explorer-preset-double-tile-what = shared: 32 wavefronts; [32][33] → 2
explorer-preset-amd-contiguous = AMD wave64 contiguous
explorer-preset-amd-contiguous-what = gfx942: 64 lanes, 2 lines
explorer-preset-amd-stride64 = AMD wave64 stride 64
explorer-preset-amd-stride64-what = gfx942: 64 transactions
# The sweep panel.
explorer-figure-sectors = sectors/request
explorer-figure-lines = lines/request
explorer-figure-efficiency = efficiency %
explorer-figure-wavefronts = { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
}
explorer-error-sweep-param = `{ $text }`: type stride, offset, elem, struct_size, lanes or pitch
explorer-error-sweep-applies = { $param } does not apply to this pattern
explorer-error-sweep-points = the panel draws at most { $max } points; use a step (`0..65536:16`) or `warpdrill calc sweep`
explorer-error-figure-global = type sectors or efficiency
explorer-error-figure-shared = shared memory plots wavefronts
explorer-sweep-now = { " · " }now { $x } → { $y }
explorer-sweep-title = Sweep: { $figure } vs { $param }{ $now }
explorer-sweep-title-long = Sweep: { $figure } against { $param }{ $now }
explorer-sweep-model = model
explorer-sweep-model-long = model: { $figure }
explorer-sweep-measured = • H200, scaled at { $param } { $at }
explorer-sweep-measured-long = • H200 { $unit }, scaled to the model at { $param } { $at }
explorer-measured-time-per-byte = time per useful byte (1 / useful GB/s)
explorer-measured-bandwidth = useful GB/s
explorer-measured-cycles = cycles per load
explorer-sweep-measured-sm90-only = H200 measurements are drawn on sm_90 only (a: arch)
explorer-sweep-now-point = now
explorer-key-op = ld/st
explorer-op-load = load
explorer-op-store = store
explorer-preset-store-broadcast = 8-byte store, one address
explorer-preset-store-broadcast-what = store: 2 wavefronts (the load: 1)
explorer-preset-store-column = store tile[32][32] column
explorer-preset-store-column-what = transpose write: 32 wavefronts
