//! The engine against ground truth: every row of the H200 access sample (Nsight Compute counters) and of
//! the occupancy sample (NVIDIA's calculator, confirmed by the H200 driver) must agree.

use std::path::PathBuf;
use warpdrill::engine::measured::{Fact, h200};
use warpdrill::engine::{
    Arch, Carveout, Granularity, KernelConfig, Op, Pattern, WarpAccess, bank_conflicts, coalesce,
    occupancy,
};

fn reference(name: &str) -> csv::Reader<std::fs::File> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/reference")
        .join(name);
    csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn field<'a>(record: &'a csv::StringRecord, headers: &csv::StringRecord, name: &str) -> &'a str {
    let index = headers
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    record.get(index).unwrap_or("")
}

#[test]
fn h200_access_sample_agrees_row_by_row() {
    let mut reader = reference("h200_access_sample.csv");
    let headers = reader.headers().unwrap().clone();
    let hopper = Arch::parse("sm_90").unwrap();
    let mut checked = (0, 0);
    let mut mismatches = Vec::new();
    for record in reader.records() {
        let record = record.unwrap();
        let get = |name| field(&record, &headers, name);
        let elem: u32 = get("elem_bytes").parse().unwrap();
        let mask = u64::from_str_radix(get("active_mask").trim_start_matches("0x"), 16).unwrap();
        let offsets: Vec<i64> = get("offsets_bytes")
            .split(';')
            .map(|o| o.parse().unwrap())
            .collect();
        let access = WarpAccess::explicit(elem, offsets).with_mask(mask);
        let label = format!(
            "row {} ({} {}B {})",
            get("id"),
            get("space"),
            elem,
            get("label")
        );
        match get("space") {
            "global" => {
                let c = coalesce(&access, Granularity::Sector).unwrap();
                let want: (u32, u32) = (
                    get("sectors").parse().unwrap(),
                    get("requests").parse().unwrap(),
                );
                if (c.sectors, c.requests) != want {
                    mismatches.push(format!(
                        "{label}: sectors/requests {:?}, measured {want:?}",
                        (c.sectors, c.requests)
                    ));
                }
                checked.0 += 1;
            }
            "shared" => {
                let b = bank_conflicts(&access, hopper).unwrap();
                let want: (u32, u32) = (
                    get("wavefronts").parse().unwrap(),
                    get("bank_conflicts").parse().unwrap(),
                );
                if (b.wavefronts, b.bank_conflicts) != want {
                    mismatches.push(format!(
                        "{label}: wavefronts/conflicts {:?}, measured {want:?}",
                        (b.wavefronts, b.bank_conflicts)
                    ));
                }
                checked.1 += 1;
            }
            other => panic!("unknown space {other}"),
        }
    }
    assert!(checked.0 > 0 && checked.1 > 0, "no rows read: {checked:?}");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn occupancy_sample_agrees_row_by_row() {
    let mut reader = reference("occupancy_sample.csv");
    let headers = reader.headers().unwrap().clone();
    let mut mismatches = Vec::new();
    let mut checked = 0;
    for record in reader.records() {
        let record = record.unwrap();
        let get = |name| field(&record, &headers, name);
        let num = |name| -> u32 { get(name).parse().unwrap() };
        let arch = Arch::parse(get("cc")).unwrap();
        let config = KernelConfig {
            block_size: num("block_size"),
            regs_per_thread: num("regs_per_thread"),
            static_smem: num("static_smem"),
            dynamic_smem: num("dynamic_smem"),
            carveout: Carveout::from_pct(get("carveout_pct").parse().unwrap()).unwrap(),
        };
        let o = occupancy(arch, &config).unwrap();
        let want = (
            num("active_blocks_per_sm"),
            num("active_warps_per_sm"),
            num("max_warps_per_sm"),
        );
        let got = (
            o.active_blocks_per_sm,
            o.active_warps_per_sm,
            o.max_warps_per_sm,
        );
        let limiter_ok = o.limited_by.iter().any(|l| l.key() == get("limited_by"));
        if got != want || !limiter_ok {
            mismatches.push(format!(
                "{config:?} on {}: got {got:?} limited by [{}], calculator {want:?} limited by {}",
                arch.key,
                o.limited_by.describe(),
                get("limited_by")
            ));
        }
        checked += 1;
    }
    assert!(checked > 500, "only {checked} rows read");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------------
// Whole kernels (h200_kernels_sample.csv): each warp-level memory instruction with an active lane is
// counted with the single-warp rules, and the kernel's total is their sum. The kernels' sources are in
// ../shared/reference/kernels/; each is written out here as the addresses its warps touch.

/// One warp-level memory instruction: bytes per lane and each lane's byte address (`None` = off).
struct Instruction {
    shared: bool,
    store: bool,
    lanes: [Option<i64>; 32],
}

/// Totals of one kernel, in the CSV's column order.
#[derive(Debug, Default, PartialEq)]
struct Counts {
    global_load_sectors: u64,
    global_load_requests: u64,
    global_store_sectors: u64,
    global_store_requests: u64,
    shared_load_wavefronts: u64,
    shared_load_conflicts: u64,
    shared_store_wavefronts: u64,
    shared_store_conflicts: u64,
}

const FLOAT: i64 = 4;

/// A 4-byte access by every thread of a warp: `address(lane)`, `None` where the lane is off.
fn warp(shared: bool, store: bool, address: impl Fn(i64) -> Option<i64>) -> Instruction {
    Instruction {
        shared,
        store,
        lanes: std::array::from_fn(|lane| address(lane as i64)),
    }
}

/// A small, fast hasher for the shapes (the standard one dominates this test's time otherwise).
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_i64(&mut self, n: i64) {
        self.0 = (self.0 ^ n as u64).wrapping_mul(0x0100_0000_01b3);
    }
}

/// Shared or global, store or load, and the lanes' addresses shifted to start within the first 128
/// bytes.
type Shape = (bool, bool, [Option<i64>; 32]);

/// Sums the engine's counts over a kernel's instructions, stores counted as stores (engine.md §2b). Sectors and
/// banks repeat every 128 bytes, so instructions are analysed once per shape (shifted to start within
/// the first 128 bytes).
#[derive(Default)]
struct Counter {
    counts: Counts,
    seen: std::collections::HashMap<Shape, (u32, u32), std::hash::BuildHasherDefault<Fnv>>,
}

impl Counter {
    fn add(&mut self, instruction: Instruction) {
        let Some(lowest) = instruction.lanes.iter().flatten().min() else {
            return; // predicated off: no request, no wavefront
        };
        let shift = lowest.div_euclid(128) * 128;
        let shape = instruction.lanes.map(|a| a.map(|a| a - shift));
        let shared = instruction.shared;
        let store = instruction.store;
        let (cost, extra) =
            *self
                .seen
                .entry((shared, store, shape))
                .or_insert_with_key(|(_, _, shape)| {
                    let mask = shape
                        .iter()
                        .enumerate()
                        .filter(|(_, a)| a.is_some())
                        .fold(0u64, |mask, (lane, _)| mask | 1 << lane);
                    let offsets = shape.iter().map(|a| a.unwrap_or(0)).collect();
                    let op = if store { Op::Store } else { Op::Load };
                    let access = WarpAccess::explicit(FLOAT as u32, offsets)
                        .with_mask(mask)
                        .with_op(op);
                    if shared {
                        let b = bank_conflicts(&access, Arch::parse("sm_90").unwrap()).unwrap();
                        (b.wavefronts, b.bank_conflicts)
                    } else {
                        let c = coalesce(&access, Granularity::Sector).unwrap();
                        (c.sectors, c.requests)
                    }
                });
        let counts = &mut self.counts;
        let (a, b) = match (shared, instruction.store) {
            (true, false) => (
                &mut counts.shared_load_wavefronts,
                &mut counts.shared_load_conflicts,
            ),
            (true, true) => (
                &mut counts.shared_store_wavefronts,
                &mut counts.shared_store_conflicts,
            ),
            (false, false) => (
                &mut counts.global_load_sectors,
                &mut counts.global_load_requests,
            ),
            (false, true) => (
                &mut counts.global_store_sectors,
                &mut counts.global_store_requests,
            ),
        };
        *a += u64::from(cost);
        *b += u64::from(extra);
    }
}

/// Arrays start 4096-byte aligned, far apart.
const IN: i64 = 1 << 32;
const OUT: i64 = 2 << 32;

/// Counts the instructions of one kernel, warp by warp, in program order within a warp.
fn kernel(name: &str) -> Counts {
    let mut all = Counter::default();
    let global = |store, f: &dyn Fn(i64) -> Option<i64>| warp(false, store, f);
    let shared = |store, f: &dyn Fn(i64) -> Option<i64>| warp(true, store, f);
    match name {
        // grid 256 × block 256, i = block * 256 + thread.
        "k_copy" | "k_stride2" | "k_aos12" => {
            for w in 0..256 * 8 {
                let i = |lane: i64| w * 32 + lane;
                all.add(global(false, &|l| {
                    Some(match name {
                        "k_copy" => IN + i(l) * FLOAT,
                        "k_stride2" => IN + 2 * i(l) * FLOAT,
                        _ => IN + i(l) * 12,
                    })
                }));
                all.add(global(true, &|l| Some(OUT + i(l) * FLOAT)));
            }
        }
        // grid 32×32 × block 32×8; a warp is one threadIdx.y.
        "k_transpose_naive" | "k_transpose_tiled32" => {
            for (bx, by, ty) in (0..32)
                .flat_map(|bx| (0..32).flat_map(move |by| (0..8).map(move |ty| (bx, by, ty))))
            {
                let tiled = name == "k_transpose_tiled32";
                for j in (0..32).step_by(8) {
                    let (x, y) = (|tx| bx * 32 + tx, by * 32 + ty);
                    all.add(global(false, &|tx| {
                        Some(IN + ((y + j) * 1024 + x(tx)) * FLOAT)
                    }));
                    if tiled {
                        all.add(shared(true, &|tx| Some(((ty + j) * 32 + tx) * FLOAT)));
                    } else {
                        all.add(global(true, &|tx| {
                            Some(OUT + (x(tx) * 1024 + y + j) * FLOAT)
                        }));
                    }
                }
                if tiled {
                    for j in (0..32).step_by(8) {
                        let (x, y) = (|tx| by * 32 + tx, bx * 32 + ty);
                        all.add(shared(false, &|tx| Some((tx * 32 + ty + j) * FLOAT)));
                        all.add(global(true, &|tx| {
                            Some(OUT + ((y + j) * 1024 + x(tx)) * FLOAT)
                        }));
                    }
                }
            }
        }
        // grid 16×16 × block 16×16; a warp is two rows of 16 threads.
        "k_matmul_naive" => {
            for (bx, by, w) in
                (0..16).flat_map(|bx| (0..16).flat_map(move |by| (0..8).map(move |w| (bx, by, w))))
            {
                let row = |lane: i64| by * 16 + 2 * w + lane / 16;
                let col = |lane: i64| bx * 16 + lane % 16;
                for k in 0..256 {
                    all.add(global(false, &|l| Some(IN + (row(l) * 256 + k) * FLOAT)));
                    all.add(global(false, &|l| Some(OUT + (k * 256 + col(l)) * FLOAT)));
                }
                all.add(global(true, &|l| {
                    Some(3 * IN + (row(l) * 256 + col(l)) * FLOAT)
                }));
            }
        }
        // grid 256 × block 256; a tree reduction in shared memory.
        "k_reduce_sequential" => {
            for (b, w) in (0..256).flat_map(|b| (0..8).map(move |w| (b, w))) {
                let t = |lane: i64| w * 32 + lane;
                all.add(global(false, &|l| Some(IN + (b * 256 + t(l)) * FLOAT)));
                all.add(shared(true, &|l| Some(t(l) * FLOAT)));
                let mut s = 128;
                while s > 0 {
                    let on = |l: i64| t(l) < s;
                    all.add(shared(false, &|l| on(l).then_some(t(l) * FLOAT)));
                    all.add(shared(false, &|l| on(l).then_some((t(l) + s) * FLOAT)));
                    all.add(shared(true, &|l| on(l).then_some(t(l) * FLOAT)));
                    s >>= 1;
                }
                all.add(shared(false, &|l| (t(l) == 0).then_some(0)));
                all.add(global(true, &|l| (t(l) == 0).then_some(OUT + b * FLOAT)));
            }
        }
        other => panic!("no model of kernel {other}"),
    }
    all.counts
}

#[test]
fn h200_kernels_sample_agrees_kernel_by_kernel() {
    let mut reader = reference("h200_kernels_sample.csv");
    let headers = reader.headers().unwrap().clone();
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for record in reader.records() {
        let record = record.unwrap();
        let get = |name| -> u64 { field(&record, &headers, name).parse().unwrap() };
        let name = field(&record, &headers, "kernel");
        let measured = Counts {
            global_load_sectors: get("global_load_sectors"),
            global_load_requests: get("global_load_requests"),
            global_store_sectors: get("global_store_sectors"),
            global_store_requests: get("global_store_requests"),
            shared_load_wavefronts: get("shared_load_wavefronts"),
            shared_load_conflicts: get("shared_load_conflicts"),
            shared_store_wavefronts: get("shared_store_wavefronts"),
            shared_store_conflicts: get("shared_store_conflicts"),
        };
        let engine = kernel(name);
        if engine != measured {
            mismatches.push(format!(
                "{name}: engine {engine:?}\n  measured {measured:?}"
            ));
        }
        checked += 1;
    }
    assert!(checked >= 7, "only {checked} kernels read");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

// ---------------------------------------------------------------------------------------------------
// What the H200 does in time (h200_perf.csv, h200_sweeps.csv) against the engine's counts and the
// figures it quotes (`engine::measured`).

/// The rows of a file with several sections, each row as its cells.
fn sections(name: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/reference")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("section,") && !l.is_empty())
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn number(cell: &str) -> f64 {
    cell.parse()
        .unwrap_or_else(|e| panic!("{cell:?} is not a number: {e}"))
}

/// Sectors fetched per byte asked for, by the engine, for one warp of a strided or AoS read.
fn sector_overhead(access: &WarpAccess) -> f64 {
    let c = coalesce(access, Granularity::Sector).unwrap();
    c.bytes_fetched as f64 / c.bytes_requested as f64
}

#[test]
fn latency_ladder_figures_are_the_measured_chases() {
    let mut checked = 0;
    for row in sections("h200_perf.csv") {
        let fact = match (row[0].as_str(), row[1].parse::<u64>().ok()) {
            ("shared_chase", _) => Fact::SharedLatency,
            ("global_chase", Some(bytes)) if bytes <= 64 * 1024 => Fact::L1Latency,
            ("global_chase", Some(bytes)) if bytes <= 16 << 20 => Fact::L2Latency,
            ("global_chase", Some(_)) => Fact::DramLatency,
            _ => continue,
        };
        let measured = number(&row[2]);
        let quoted = h200(fact).unwrap();
        // L1 and shared: the smallest working set is the clean number; DRAM is quoted as the middle
        // of its 650–670 cycle range.
        let allowed = match fact {
            Fact::L1Latency => 6.0,
            Fact::DramLatency => 10.0,
            _ => 0.5,
        };
        assert!(
            (quoted - measured).abs() <= allowed,
            "{fact:?}: quoted {quoted}, measured {measured} ({row:?})"
        );
        checked += 1;
    }
    assert_eq!(checked, 7, "latency rows read");
    assert_eq!(h200(Fact::RegisterLatency).unwrap(), 0.0);
    let ladder = [
        Fact::RegisterLatency,
        Fact::SharedLatency,
        Fact::L1Latency,
        Fact::L2Latency,
        Fact::DramLatency,
    ]
    .map(|f| h200(f).unwrap());
    assert!(ladder.windows(2).all(|w| w[0] < w[1]), "{ladder:?}");
}

#[test]
fn measured_bandwidths_agree_with_the_engines_sector_counts() {
    let peak = h200(Fact::PeakBandwidth).unwrap() / 1e9;
    let mut checked = 0;
    for row in sections("h200_perf.csv") {
        let access = match row[0].as_str() {
            "global_stride" => WarpAccess::affine(
                row[1].parse().unwrap(),
                row[2].parse().unwrap(),
                row[3].parse().unwrap(),
            ),
            // One float field of a 24-byte struct: `stride_elems` 6 floats.
            "aos24_field_x" => WarpAccess {
                elem_bytes: 4,
                pattern: Pattern::StructField {
                    struct_bytes: 24,
                    field_offset: 0,
                    first: 0,
                    base_bytes: 0,
                },
                active_mask: u64::MAX,
                warp_size: 32,
                op: Op::Load,
            },
            _ => continue,
        };
        let overhead = sector_overhead(&access);
        let useful = number(&row[6]);
        let label = format!("{row:?}: engine overhead {overhead}");
        if let Some(sectors) = row.get(7).filter(|c| !c.is_empty()) {
            // The file's own sector traffic is useful × the sectors the pattern touches.
            assert!(
                (number(sectors) / useful / overhead - 1.0).abs() < 1e-3,
                "{label}"
            );
        }
        // However the pattern is laid out, sector traffic cannot beat the memory's peak.
        assert!(useful * overhead <= peak, "{label}");
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} rows");
    // The dense sweeps: every stride of 4-, 8- and 16-byte loads and every offset of a float stream.
    for row in sections("h200_sweeps.csv") {
        if row[0] != "stride" && row[0] != "offset" {
            continue;
        }
        let access = WarpAccess::affine(
            row[1].parse().unwrap(),
            row[2].parse().unwrap(),
            row[3].parse().unwrap(),
        );
        let overhead = sector_overhead(&access);
        assert!(
            number(&row[6]) * overhead <= peak,
            "{row:?}: engine overhead {overhead}"
        );
        checked += 1;
    }
    assert!(checked >= 15 + 100, "only {checked} rows");

    // 16-byte loads: one warp's 512 bytes are 16 whole sectors — no overhead, 95 % of peak.
    let vector = WarpAccess::affine(16, 1, 0);
    assert_eq!(coalesce(&vector, Granularity::Sector).unwrap().sectors, 16);
    let measured = h200(Fact::Vector16Bandwidth).unwrap() / 1e9;
    assert_eq!(measured, 4573.8);
    assert!((measured / peak - 0.95).abs() < 0.01);

    // AoS: 24 sectors per warp (6× the bytes) run at the saturated sector rate, which is why the
    // measured penalty is 2.2×, not 6×.
    let aos = h200(Fact::Aos24FieldBandwidth).unwrap();
    let saturated = h200(Fact::SaturatedSectorBandwidth).unwrap();
    assert!((aos * 6.0 / saturated - 1.0).abs() < 0.01, "{aos}");
    let soa = h200(Fact::StrideBandwidth(1)).unwrap();
    assert!((soa / aos - 2.2).abs() < 0.05);

    // Misalignment: by 1 float the engine counts 5 sectors instead of 4 (25 % more bytes), and by 8 or
    // 32 floats (32 and 128 bytes) no more sectors at all; the H200 ran at most 1.3 % slower for any.
    let aligned = coalesce(&WarpAccess::affine(4, 1, 0), Granularity::Sector).unwrap();
    let time = |offset: &str| {
        sections("h200_perf.csv")
            .into_iter()
            .find(|r| r[..4] == ["global_stride", "4", "1", offset])
            .map(|r| number(&r[5]))
            .unwrap()
    };
    for (offset, sectors) in [(1, 5), (8, 4), (32, 4)] {
        let c = coalesce(&WarpAccess::affine(4, 1, offset), Granularity::Sector).unwrap();
        assert_eq!(
            (aligned.sectors, c.sectors),
            (4, sectors),
            "offset {offset}"
        );
        let slower = time(&offset.to_string()) / time("0") - 1.0;
        assert!((0.0..0.015).contains(&slower), "offset {offset}: {slower}");
    }
}

#[test]
fn shared_load_cycles_follow_the_engines_wavefronts() {
    let hopper = Arch::parse("sm_90").unwrap();
    let wavefronts = |elem: u32, stride: i64| {
        bank_conflicts(&WarpAccess::affine(elem, stride, 0), hopper)
            .unwrap()
            .wavefronts
    };
    let mut checked = 0;
    // h200_perf.csv: 4-byte words, the cycles engine::measured quotes per conflict degree.
    for row in sections("h200_perf.csv") {
        if row[0] != "smem_stride" {
            continue;
        }
        let w = wavefronts(4, row[1].parse().unwrap());
        assert_eq!(
            h200(Fact::BankConflictCycles(w)).unwrap(),
            number(&row[2]),
            "{row:?}: {w} wavefronts"
        );
        checked += 1;
    }
    // h200_sweeps.csv: every stride of 4- and 8-byte loads. From 4 wavefronts on, each costs 2 cycles
    // (≈ 2 + 2w); 1 or 2 wavefronts hide in the pipeline. Whatever the element size, the same
    // wavefronts cost the same.
    for row in sections("h200_sweeps.csv") {
        if row[0] != "smem" {
            continue;
        }
        let (elem, stride) = (row[1].parse().unwrap(), row[2].parse().unwrap());
        let w = f64::from(wavefronts(elem, stride));
        let cycles = number(&row[3]);
        if w >= 4.0 {
            assert!(
                (cycles - (2.0 + 2.0 * w)).abs() < 0.2,
                "{row:?}: {w} wavefronts"
            );
        } else {
            assert!(cycles < 10.0, "{row:?}: {w} wavefronts");
        }
        checked += 1;
    }
    assert!(checked > 90, "only {checked} rows");
}

/// One row of a single-warp sample: its label, space, access (a load) and the request line that
/// asks `calc batch` for it.
struct SampleRow {
    label: String,
    shared: bool,
    access: WarpAccess,
    /// `(sectors, requests)` for global rows, `(wavefronts, bank_conflicts)` for shared ones.
    want: (u32, u32),
}

fn sample_rows(name: &str) -> Vec<SampleRow> {
    let mut reader = reference(name);
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            let get = |name| field(&record, &headers, name);
            let elem: u32 = get("elem_bytes").parse().unwrap();
            let mask =
                u64::from_str_radix(get("active_mask").trim_start_matches("0x"), 16).unwrap();
            let offsets: Vec<i64> = get("offsets_bytes")
                .split(';')
                .map(|o| o.parse().unwrap())
                .collect();
            let shared = match get("space") {
                "global" => false,
                "shared" => true,
                other => panic!("unknown space {other}"),
            };
            let (a, b) = if shared {
                ("wavefronts", "bank_conflicts")
            } else {
                ("sectors", "requests")
            };
            SampleRow {
                label: format!(
                    "row {} ({} {}B {})",
                    get("id"),
                    get("space"),
                    elem,
                    get("label")
                ),
                shared,
                access: WarpAccess::explicit(elem, offsets).with_mask(mask),
                want: (get(a).parse().unwrap(), get(b).parse().unwrap()),
            }
        })
        .collect()
}

/// The store sample (h200_store_sample.csv) through the engine with `op: store`: global stores count
/// sectors exactly as loads, shared stores of 1, 2 and 4 bytes as loads, and 8- and 16-byte shared
/// stores never pair-merge (engine.md §2b) — every row, the full analyses and the fast counts.
#[test]
fn h200_store_sample_agrees_row_by_row() {
    use warpdrill::engine::{bank_counts, coalesce_counts};
    let hopper = Arch::parse("sm_90").unwrap();
    let rows = sample_rows("h200_store_sample.csv");
    let mut mismatches = Vec::new();
    let mut wide_shared = 0;
    for row in &rows {
        let store = row.access.clone().with_op(Op::Store);
        let (got, fast) = if row.shared {
            wide_shared += usize::from(store.elem_bytes >= 8);
            let b = bank_conflicts(&store, hopper).unwrap();
            assert!(!b.merged, "{}: a store merged its phases", row.label);
            let k = bank_counts(&store, hopper).unwrap();
            (
                (b.wavefronts, b.bank_conflicts),
                (k.wavefronts, k.bank_conflicts),
            )
        } else {
            let c = coalesce(&store, Granularity::Sector).unwrap();
            let k = coalesce_counts(&store, Granularity::Sector).unwrap();
            ((c.sectors, c.requests), (k.sectors, k.requests))
        };
        if got != row.want || fast != row.want {
            mismatches.push(format!(
                "{}: engine {got:?}, fast {fast:?}, measured {:?}",
                row.label, row.want
            ));
        }
    }
    assert!(
        rows.len() > 100 && wide_shared > 10,
        "{} rows, {wide_shared} 8/16-byte shared",
        rows.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// The same rows asked of `warpdrill calc batch` with `"op":"store"` (and, for the wide shared rows,
/// once more as loads, which pair-merge and so differ where lanes share addresses): every answer
/// echoes its op and gives the measured counts.
#[test]
fn calc_batch_answers_every_row_of_the_store_sample() {
    use std::io::Write;
    let rows = sample_rows("h200_store_sample.csv");
    let mut input = String::new();
    for (id, row) in rows.iter().enumerate() {
        let Pattern::Explicit { offsets_bytes } = &row.access.pattern else {
            unreachable!("sample rows are explicit offsets")
        };
        let request = serde_json::json!({
            "id": id,
            "kind": if row.shared { "banks" } else { "coalescing" },
            "op": "store",
            "elem_bytes": row.access.elem_bytes,
            "offsets_bytes": offsets_bytes,
            "active_mask": format!("{:#x}", row.access.active_mask),
        });
        input.push_str(&request.to_string());
        input.push('\n');
    }
    let mut child = crate::common::warpdrill()
        .args(["calc", "batch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("warpdrill runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let answers: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), rows.len());
    let mut mismatches = Vec::new();
    for (id, (row, answer)) in rows.iter().zip(&answers).enumerate() {
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["op"], "store", "{}: {answer}", row.label);
        let (a, b) = if row.shared {
            ("wavefronts", "bank_conflicts")
        } else {
            ("sectors", "requests")
        };
        let got = (answer[a].as_u64(), answer[b].as_u64());
        let want = (Some(u64::from(row.want.0)), Some(u64::from(row.want.1)));
        if got != want {
            mismatches.push(format!("{}: batch {answer}, measured {want:?}", row.label));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// Every pattern of the reference data (the access and store samples, and the strides and offsets of
/// the measured sweeps) gets the same counts from the fast paths as from the full analyses.
#[test]
fn fast_counts_equal_full_analyses_on_every_reference_pattern() {
    use warpdrill::engine::{bank_counts, coalesce_counts};
    let mut patterns: Vec<WarpAccess> = Vec::new();
    for name in ["h200_access_sample.csv", "h200_store_sample.csv"] {
        let mut reader = reference(name);
        let headers = reader.headers().unwrap().clone();
        for record in reader.records() {
            let record = record.unwrap();
            let get = |name| field(&record, &headers, name);
            let elem: u32 = get("elem_bytes").parse().unwrap();
            let mask =
                u64::from_str_radix(get("active_mask").trim_start_matches("0x"), 16).unwrap();
            let offsets: Vec<i64> = get("offsets_bytes")
                .split(';')
                .map(|o| o.parse().unwrap())
                .collect();
            let access = WarpAccess::explicit(elem, offsets).with_mask(mask);
            patterns.push(access.clone().with_op(Op::Store));
            patterns.push(access);
        }
    }
    for row in sections("h200_sweeps.csv") {
        let cells: Vec<i64> = row.iter().skip(1).map(|c| number(c) as i64).collect();
        match (row[0].as_str(), cells.as_slice()) {
            ("stride" | "offset", [elem, stride, offset, ..]) => {
                patterns.push(WarpAccess::affine(*elem as u32, *stride, *offset));
            }
            ("smem", [elem, stride, ..]) => {
                patterns.push(WarpAccess::affine(*elem as u32, *stride, 0));
            }
            _ => {}
        }
    }
    assert!(
        patterns.len() > 400,
        "only {} patterns read",
        patterns.len()
    );
    let archs = [
        Arch::parse("sm_90").unwrap(),
        Arch::parse("gfx942").unwrap(),
    ];
    for access in &patterns {
        for arch in archs {
            let access = access.clone().with_warp_size(arch.warp_size);
            for unit in [Granularity::Sector, Granularity::Line] {
                assert_eq!(
                    coalesce_counts(&access, unit),
                    coalesce(&access, unit).map(|c| c.counts()),
                    "{access:?}"
                );
            }
            assert_eq!(
                bank_counts(&access, arch),
                bank_conflicts(&access, arch).map(|b| b.counts()),
                "{access:?}"
            );
        }
    }
}
