# Explorer: parameters, presets, diagrams, numbers aur sweep panel.
explorer-key-stride = stride ±
explorer-key-offset = offset ±
explorer-key-elem = elem
explorer-key-space = global/shared
explorer-key-arch = arch
explorer-key-presets = presets
explorer-key-sweep = sweep
explorer-key-field = field, value
explorer-key-type = value type karo
explorer-key-back = wapas
explorer-parameters = Parameters
explorer-parameters-compact = Parameters (↑↓ chuno)
explorer-warp-sectors = Warp → sectors
explorer-warp-lines = Warp → lines
explorer-numbers = Numbers
explorer-numbers-preset = Numbers · preset: { $name }
explorer-sectors = sectors { $n }
explorer-requests = requests { $n }
explorer-efficiency = efficiency { $percent }
explorer-lines = lines { $n }
explorer-bytes = bytes maange { $requested } / fetch hue { $fetched } ({ $wasted } waste)
explorer-why = kyun: { $why }
explorer-wavefronts = { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
} { $n }
explorer-ideal = ideal { $n }
explorer-conflict-degree = conflict degree { $degree }-way
explorer-bank-conflicts = bank conflicts { $n }
explorer-diagram = Diagram
explorer-cannot-draw = In inputs ka diagram nahi ban sakta:
# Parameter rows: labels (chhote: panel andar se 24 columns ka hai) aur values.
explorer-row-arch = arch
explorer-row-space = memory
explorer-row-elem = elem
explorer-row-pattern = pattern
explorer-row-stride = stride
explorer-row-first = pehla
explorer-row-column = column
explorer-row-offset = offset
explorer-row-struct = struct
explorer-row-field = field at
explorer-row-pitch = pitch
explorer-row-base = base
explorer-row-offsets = offsets
explorer-row-lanes = lanes
explorer-row-count = unit
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
explorer-lanes-all = sab ({ $count })
explorer-lanes-half = pehla half ({ $count })
explorer-lanes-odd = odd ({ $count })
explorer-lanes-first = pehli { $count }
explorer-unit-lines = 128 B lines
explorer-unit-sectors = 32 B sectors
explorer-error-space = `{ $text }`: global ya shared type karo
explorer-error-elem = element size 1, 2, 4, 8 ya 16 bytes hona chahiye, { $elem } mila
explorer-error-shape = `{ $text }`: affine, aos, row ya column type karo
explorer-error-struct = struct mein uska { $elem }-byte field aana chahiye
explorer-error-field = field offset 0 se { $max } tak hona chahiye
explorer-error-offsets = 1 se { $warp } byte offsets type karo, comma se alag, lane 0 pehle
explorer-error-lanes = kam se kam ek lane active honi chahiye
# Global diagram.
explorer-lane = lane
explorer-more-sectors = { $n ->
    [1] … { $n } aur sector nahi dikha (window badi karo)
   *[other] … { $n } aur sectors nahi dikhe (window badi karo)
}
explorer-more-lines = { $n ->
    [1] … { $n } aur line nahi dikhi (window badi karo)
   *[other] … { $n } aur lines nahi dikhi (window badi karo)
}
# Bank diagram.
explorer-banks-title = Lanes → 32 banks
explorer-share-word = lanes { $lanes } word { $word } share karti hain
explorer-broadcast = broadcast: { $words }
explorer-serialized = serialized: bank { $bank } ko { $words } words ek ke baad ek dene padte hain — lanes { $lanes }
explorer-banks-legend = ● word · ◆ shared (broadcast) · ✗ ek { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} wait karta hai
explorer-banks-legend-digits = lane numbers upar se neeche padho (tens ke neeche units) · underline: shared (broadcast) · ✗ ek { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} wait karta hai
explorer-phase = phase lanes { $first }-{ $last } → { $vendor ->
    [amd] { $n ->
        [1] { $n } LDS pass
       *[other] { $n } LDS passes
    }
   *[other] { $n ->
        [1] { $n } wavefront
       *[other] { $n } wavefronts
    }
}
explorer-phase-merged = phase lanes { $first }-{ $last } → { $vendor ->
    [amd] { $n ->
        [1] { $n } LDS pass
       *[other] { $n } LDS passes
    }
   *[other] { $n ->
        [1] { $n } wavefront
       *[other] { $n } wavefronts
    }
} (pairs merge hue)
explorer-more-rows = { $n ->
    [1] … { $n } aur { $vendor ->
        [amd] LDS pass
       *[other] wavefront
    } row
   *[other] … { $n } aur { $vendor ->
        [amd] LDS pass
       *[other] wavefront
    } rows
}
# Presets.
explorer-presets-title = Presets (Enter lagao, Esc band karo)
explorer-preset-sequential = sequential floats
explorer-preset-sequential-what = stride 1: 4 sectors, 100 %
explorer-preset-stride2 = stride 2
explorer-preset-stride2-what = har sector ka aadha waste
explorer-preset-stride32 = stride 32
explorer-preset-stride32-what = har lane ka ek sector, 12.5 %
explorer-preset-stride1024 = stride 1024
explorer-preset-stride1024-what = lanes 4 KB door: gaps
explorer-preset-misaligned = ek se misaligned
explorer-preset-misaligned-what = 4 ki jagah 5 sectors
explorer-preset-aos12 = AoS, 12-byte struct
explorer-preset-aos12-what = float3 field: 12 sectors
explorer-preset-aos24 = AoS, 24-byte struct
explorer-preset-aos24-what = 128 useful bytes ke liye 24 sectors
explorer-preset-soa = SoA
explorer-preset-soa-what = har field ka ek array: 4 sectors
explorer-preset-column = column walk, pitch 4096
explorer-preset-column-what = row-major matrix, column ke neeche
explorer-preset-half-warp = aadha warp
explorer-preset-half-warp-what = lanes 16-31 inactive: 2 sectors
explorer-preset-transpose = transpose column, tile[32][32]
explorer-preset-transpose-what = shared: 32-way conflict
explorer-preset-padded = padded tile[32][33]
explorer-preset-padded-what = shared: conflict-free
explorer-preset-shared-stride2 = shared stride 2
explorer-preset-shared-stride2-what = 2-way conflict
explorer-preset-broadcast = broadcast
explorer-preset-broadcast-what = sab lanes, ek word: 1 wavefront
explorer-preset-doubles = 8-byte doubles
explorer-preset-doubles-what = shared: do half-warp phases
explorer-preset-double-tile = double tile[32][32] column
explorer-preset-double-tile-what = shared: 32 wavefronts; [32][33] → 2
explorer-preset-amd-contiguous = AMD wave64 contiguous
explorer-preset-amd-contiguous-what = gfx942: 64 lanes, 2 lines
explorer-preset-amd-stride64 = AMD wave64 stride 64
explorer-preset-amd-stride64-what = gfx942: 64 transactions
# Sweep panel.
explorer-figure-sectors = sectors/request
explorer-figure-lines = lines/request
explorer-figure-efficiency = efficiency %
explorer-figure-wavefronts = { $vendor ->
    [amd] LDS passes
   *[other] wavefronts
}
explorer-error-sweep-param = `{ $text }`: stride, offset, elem, struct_size, lanes ya pitch type karo
explorer-error-sweep-applies = { $param } is pattern par apply nahi hota
explorer-error-sweep-points = panel zyada se zyada { $max } points draw karta hai; step use karo (`0..65536:16`) ya `warpdrill calc sweep`
explorer-error-figure-global = sectors ya efficiency type karo
explorer-error-figure-shared = shared memory wavefronts plot karti hai
explorer-sweep-now = { " · " }abhi { $x } → { $y }
explorer-sweep-title = Sweep: { $figure } vs { $param }{ $now }
explorer-sweep-title-long = Sweep: { $param } ke against { $figure }{ $now }
explorer-sweep-model = model
explorer-sweep-model-long = model: { $figure }
explorer-sweep-measured = • H200, { $param } { $at } par scaled
explorer-sweep-measured-long = • H200 { $unit }, { $param } { $at } par model se scaled
explorer-measured-time-per-byte = har useful byte ka time (1 / useful GB/s)
explorer-measured-bandwidth = useful GB/s
explorer-measured-cycles = har load ke cycles
explorer-sweep-measured-sm90-only = H200 ke measurements sirf sm_90 par dikhte hain (a: arch)
explorer-sweep-now-point = abhi
explorer-key-op = ld/st
explorer-op-load = load
explorer-op-store = store
explorer-preset-store-broadcast = 8-byte store, ek address
explorer-preset-store-broadcast-what = store: 2 wavefronts (load: 1)
explorer-preset-store-column = store tile[32][32] column
explorer-preset-store-column-what = transpose write: 32 wavefronts
