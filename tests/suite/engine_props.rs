//! The engine against small brute-force models written here from the engine notes (engine.md), over
//! valid inputs, edge values (0, ±1, `i64::MIN`/`MAX`, huge strides and bases, negative offsets) and
//! arbitrary ones. Every input either gets the model's numbers or an error where the model says the
//! input is invalid or overflows `i64`; none panics.
//!
//! - global loads: distinct 32-byte sectors and 128-byte lines, found by listing every byte each
//!   active lane reads;
//! - shared loads: per phase, the distinct 4-byte words each bank delivers, with the pair merge of
//!   8- and 16-byte loads on NVIDIA and without it on AMD;
//! - occupancy: the largest number of blocks that fits every resource at once, from the table of the
//!   notes (§3), and AMD waves per SIMD (§6).

use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use warpdrill::engine::{
    ARCHS, Arch, Bound, Carveout, Granularity, KernelConfig, Op, Pattern, TilingInput, Vendor,
    WarpAccess, amd_waves, bank_conflicts, coalesce, occupancy, roofline, tiling,
};

// ------------------------------------------------------------------------------------------------
// Strategies

/// Mostly valid element sizes, some invalid edges, a few arbitrary.
fn elem() -> impl Strategy<Value = u32> {
    prop_oneof![
        12 => proptest::sample::select(vec![1u32, 2, 4, 8, 16]),
        1 => proptest::sample::select(vec![0u32, 3, 5, 32, u32::MAX]),
        1 => any::<u32>(),
    ]
}

/// Integers that matter: small ones (negative too), edges, huge values that overflow when
/// multiplied, and arbitrary ones.
fn int() -> impl Strategy<Value = i64> {
    prop_oneof![
        8 => -40i64..=40,
        3 => proptest::sample::select(vec![
            0,
            1,
            -1,
            32,
            -32,
            33,
            1024,
            4096,
            i64::MIN,
            i64::MIN + 1,
            i64::MAX,
            i64::MAX - 1,
            i64::MAX - 100,
            i64::MIN + 100,
            i64::MAX / 2,
            i64::MIN / 2,
            i64::MAX / 16,
            i64::MAX / 64,
            1 << 40,
            -(1 << 40),
            1 << 58,
            -(1 << 58),
        ]),
        2 => -(1i64 << 20)..(1i64 << 20),
        1 => any::<i64>(),
    ]
}

fn mask() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => proptest::sample::select(vec![
            u64::MAX,
            0xffff_ffff,
            0xffff,
            0xffff_0000,
            0x5555_5555_5555_5555,
            0xaaaa_aaaa,
            1,
            1 << 31,
            1 << 63,
            0,
        ]),
        3 => 1u64..=0xffff_ffff,
        3 => any::<u64>(),
    ]
}

fn warp_size() -> impl Strategy<Value = u32> {
    prop_oneof![
        10 => Just(32u32),
        6 => Just(64u32),
        1 => proptest::sample::select(vec![0u32, 1, 16, 48, 128, u32::MAX]),
    ]
}

fn pattern() -> impl Strategy<Value = Pattern> {
    let offset = prop_oneof![4 => 0i64..4096, 1 => int()];
    prop_oneof![
        3 => (int(), int(), int()).prop_map(|(stride_elems, offset_elems, base_bytes)| {
            Pattern::Affine { stride_elems, offset_elems, base_bytes }
        }),
        2 => (
            prop_oneof![4 => (1i64..=64).prop_flat_map(|size| (Just(size), 0..=size)), 1 => (int(), int())],
            int(),
            int(),
        )
            .prop_map(|((struct_bytes, field_offset), first, base_bytes)| Pattern::StructField {
                struct_bytes,
                field_offset,
                first,
                base_bytes,
            }),
        2 => (int(), any::<bool>(), int(), int(), int()).prop_map(
            |(pitch_bytes, column, row, col, base_bytes)| Pattern::TwoD {
                pitch_bytes,
                column,
                row,
                col,
                base_bytes,
            }
        ),
        2 => prop_oneof![
            6 => proptest::collection::vec(offset.clone(), 0..=32),
            3 => proptest::collection::vec(offset.clone(), 33..=64),
            1 => proptest::collection::vec(offset, 65..=70),
        ]
            .prop_map(|offsets_bytes| Pattern::Explicit { offsets_bytes }),
    ]
}

fn access() -> impl Strategy<Value = WarpAccess> {
    (elem(), pattern(), mask(), warp_size(), any::<bool>()).prop_map(
        |(elem_bytes, pattern, active_mask, warp_size, store)| WarpAccess {
            elem_bytes,
            pattern,
            active_mask,
            warp_size,
            op: if store { Op::Store } else { Op::Load },
        },
    )
}

/// The lowest `n` bits set (all 64 for `n` ≥ 64).
fn full(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

fn any_arch() -> impl Strategy<Value = &'static Arch> {
    proptest::sample::select(ARCHS.iter().collect::<Vec<_>>())
}

/// NVIDIA architectures that model occupancy, mostly; the others sometimes (they must refuse).
fn occupancy_arch() -> impl Strategy<Value = &'static Arch> {
    prop_oneof![
        6 => proptest::sample::select(ARCHS.iter().filter(|a| a.nvidia.is_some()).collect::<Vec<_>>()),
        1 => any_arch(),
    ]
}

// ------------------------------------------------------------------------------------------------
// The address model: each active lane's address computed exactly in i128.

/// What the inputs make of one warp.
#[derive(Debug)]
enum Addresses {
    /// An input out of range (element size, warp size, offsets, struct layout): an error.
    Invalid,
    /// Exact addresses per lane (`None` inactive); `steps_fit` says whether every intermediate
    /// product and sum of the pattern's formula fits in `i64` (if not, the engine may refuse it).
    Exact {
        lanes: Vec<Option<i128>>,
        steps_fit: bool,
    },
}

fn fits(x: i128) -> bool {
    i128::from(i64::MIN) <= x && x <= i128::from(i64::MAX)
}

fn model_addresses(access: &WarpAccess) -> Addresses {
    let elem = i128::from(access.elem_bytes);
    if ![1, 2, 4, 8, 16].contains(&access.elem_bytes) {
        return Addresses::Invalid;
    }
    if access.warp_size != 32 && access.warp_size != 64 {
        return Addresses::Invalid;
    }
    let warp = access.warp_size as usize;
    match &access.pattern {
        Pattern::Explicit { offsets_bytes } if offsets_bytes.len() > warp => {
            return Addresses::Invalid;
        }
        Pattern::StructField {
            struct_bytes,
            field_offset,
            ..
        } => {
            let (size, field) = (i128::from(*struct_bytes), i128::from(*field_offset));
            if size < elem || field < 0 || field + elem > size {
                return Addresses::Invalid;
            }
        }
        // A column walk needs rows apart: with pitch 0 every lane would read one element, which is
        // a broadcast (stride 0), so the engine refuses it.
        Pattern::TwoD {
            pitch_bytes: 0,
            column: true,
            ..
        } => return Addresses::Invalid,
        _ => {}
    }
    let steps_fit = std::cell::Cell::new(true);
    let step = |x: i128| {
        steps_fit.set(steps_fit.get() && fits(x));
        x
    };
    let mut lanes = vec![None; warp];
    for (lane, slot) in lanes.iter_mut().enumerate() {
        if access.active_mask >> lane & 1 == 0 {
            continue;
        }
        let t = lane as i128;
        *slot = match &access.pattern {
            Pattern::Affine {
                stride_elems,
                offset_elems,
                base_bytes,
            } => {
                let index = step(step(t * i128::from(*stride_elems)) + i128::from(*offset_elems));
                Some(step(step(index * elem) + i128::from(*base_bytes)))
            }
            Pattern::StructField {
                struct_bytes,
                field_offset,
                first,
                base_bytes,
            } => {
                let start = step(step(i128::from(*first) + t) * i128::from(*struct_bytes));
                Some(step(
                    step(start + i128::from(*field_offset)) + i128::from(*base_bytes),
                ))
            }
            Pattern::TwoD {
                pitch_bytes,
                column,
                row,
                col,
                base_bytes,
            } => {
                let (r, c) = if *column {
                    (step(i128::from(*row) + t), i128::from(*col))
                } else {
                    (i128::from(*row), step(i128::from(*col) + t))
                };
                let sum = step(step(r * i128::from(*pitch_bytes)) + step(c * elem));
                Some(step(sum + i128::from(*base_bytes)))
            }
            Pattern::Explicit { offsets_bytes } => offsets_bytes.get(lane).map(|&o| i128::from(o)),
        };
    }
    Addresses::Exact {
        lanes,
        steps_fit: steps_fit.get(),
    }
}

/// What the engine must do with an access: `Err` where the model says it must fail; `Ok(None)` where it
/// may either fail with an overflow or compute; `Ok(Some(addresses))` where it must compute these.
#[allow(clippy::type_complexity)]
fn expectation(access: &WarpAccess) -> Result<Option<Vec<Option<i64>>>, &'static str> {
    match model_addresses(access) {
        Addresses::Invalid => Err("invalid input"),
        Addresses::Exact { lanes, steps_fit } => {
            let elem = i128::from(access.elem_bytes);
            let exact_fits = lanes
                .iter()
                .flatten()
                .all(|&a| fits(a) && fits(a + elem - 1));
            if !exact_fits {
                return Err("an address overflows i64");
            }
            let lanes: Vec<Option<i64>> = lanes.iter().map(|a| a.map(|a| a as i64)).collect();
            if lanes.iter().all(Option::is_none) {
                return Err("no active lane");
            }
            Ok(steps_fit.then_some(lanes))
        }
    }
}

// ------------------------------------------------------------------------------------------------
// The coalescing model: list the bytes.

#[derive(Debug, PartialEq)]
struct SegmentModel {
    address: i64,
    lanes: Vec<u32>,
    bytes_used: u32,
}

fn segments_model(lanes: &[Option<i64>], elem: u32, unit: i64) -> Vec<SegmentModel> {
    let mut segments: BTreeMap<i64, (BTreeSet<u32>, BTreeSet<i64>)> = BTreeMap::new();
    for (lane, address) in lanes.iter().enumerate() {
        let Some(address) = *address else { continue };
        for byte in address..=address + (i64::from(elem) - 1) {
            let entry = segments.entry(byte.div_euclid(unit)).or_default();
            entry.0.insert(lane as u32);
            entry.1.insert(byte);
        }
    }
    segments
        .into_iter()
        .map(|(segment, (lanes, bytes))| SegmentModel {
            address: segment * unit,
            lanes: lanes.into_iter().collect(),
            bytes_used: bytes.len() as u32,
        })
        .collect()
}

fn check_coalescing(access: &WarpAccess, lanes: &[Option<i64>]) -> Result<(), TestCaseError> {
    let active = lanes.iter().flatten().count() as u64;
    let elem = access.elem_bytes;
    let sectors = segments_model(lanes, elem, 32);
    let lines = segments_model(lanes, elem, 128);
    for (granularity, model) in [(Granularity::Sector, &sectors), (Granularity::Line, &lines)] {
        let c = coalesce(access, granularity)
            .map_err(|e| TestCaseError::fail(format!("{granularity:?}: {e}")))?;
        prop_assert_eq!(c.sectors as usize, sectors.len());
        prop_assert_eq!(c.lines as usize, lines.len());
        prop_assert_eq!(c.active_lanes as u64, active);
        prop_assert_eq!(c.requests, 1);
        let got: Vec<SegmentModel> = c
            .segments
            .iter()
            .map(|s| SegmentModel {
                address: s.address,
                lanes: s.lanes.clone(),
                bytes_used: s.bytes_used,
            })
            .collect();
        prop_assert_eq!(&got, model);
        let unit = granularity.bytes() as u64;
        prop_assert_eq!(c.bytes_requested, active * u64::from(elem));
        prop_assert_eq!(c.bytes_fetched, model.len() as u64 * unit);
        let efficiency = (c.bytes_requested as f64 / c.bytes_fetched as f64).min(1.0);
        prop_assert!((c.efficiency - efficiency).abs() < 1e-12);
        // Each lane appears in every segment its bytes touch, and maps to the first of them.
        let touched: usize = lanes
            .iter()
            .flatten()
            .map(|&a| {
                ((a + (i64::from(elem) - 1)).div_euclid(granularity.bytes())
                    - a.div_euclid(granularity.bytes())
                    + 1) as usize
            })
            .sum();
        let listed: usize = c.segments.iter().map(|s| s.lanes.len()).sum();
        prop_assert_eq!(listed, touched);
        if lanes.iter().flatten().all(|a| a % i64::from(elem) == 0) {
            // Aligned elements never straddle a segment: every active lane is in exactly one.
            prop_assert_eq!(listed as u64, active);
        }
        for (lane, address) in lanes.iter().enumerate() {
            let first = address.map(|a| {
                let start = a.div_euclid(granularity.bytes()) * granularity.bytes();
                model.iter().position(|s| s.address == start).unwrap()
            });
            prop_assert_eq!(c.lane_segment[lane], first, "lane {}", lane);
        }
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------------
// The bank model: distinct words per bank per phase.

#[derive(Debug, PartialEq)]
struct BankModel {
    phase_lanes: u32,
    merged: bool,
    wavefronts: u32,
    ideal: u32,
    broadcast: bool,
    bank_of_lane: Vec<Option<u32>>,
}

/// A load's 8- and 16-byte phases merge in pairs where lanes share addresses; a store's never do.
fn banks_model(lanes: &[Option<i64>], elem: u32, vendor: Vendor, op: Op) -> BankModel {
    let warp = lanes.len();
    // Every active lane reads what lane t^x reads, or lane t^x is inactive.
    let pairs = |x: usize| {
        (0..warp).all(|t| match (lanes[t], lanes[t ^ x]) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        })
    };
    let base = 128 / elem.max(4) as usize;
    let merged = vendor == Vendor::Nvidia && elem >= 8 && op == Op::Load && (pairs(1) || pairs(2));
    let phase = if merged { base * 2 } else { base }.min(warp);
    let (mut wavefronts, mut ideal, mut broadcast) = (0, 0, false);
    for first in (0..warp).step_by(phase) {
        let mut banks: BTreeMap<i64, BTreeSet<i64>> = BTreeMap::new();
        let mut readers: BTreeMap<i64, BTreeSet<usize>> = BTreeMap::new();
        for (lane, address) in lanes.iter().enumerate().skip(first).take(phase) {
            let Some(address) = *address else { continue };
            for byte in address..=address + (i64::from(elem) - 1) {
                let word = byte.div_euclid(4);
                banks.entry(word.rem_euclid(32)).or_default().insert(word);
                readers.entry(word).or_default().insert(lane);
            }
        }
        if banks.is_empty() {
            continue;
        }
        ideal += 1;
        wavefronts += banks.values().map(BTreeSet::len).max().unwrap() as u32;
        broadcast |= readers.values().any(|r| r.len() > 1);
    }
    BankModel {
        phase_lanes: phase as u32,
        merged,
        wavefronts,
        ideal,
        broadcast,
        bank_of_lane: lanes
            .iter()
            .map(|a| a.map(|a| a.div_euclid(4).rem_euclid(32) as u32))
            .collect(),
    }
}

fn check_banks(
    access: &WarpAccess,
    lanes: &[Option<i64>],
    arch: &Arch,
) -> Result<(), TestCaseError> {
    let b = bank_conflicts(access, arch).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let model = banks_model(lanes, access.elem_bytes, arch.vendor, access.op);
    let got = BankModel {
        phase_lanes: b.phase_lanes,
        merged: b.merged,
        wavefronts: b.wavefronts,
        ideal: b.ideal_wavefronts,
        broadcast: b.broadcast,
        bank_of_lane: b.bank_of_lane.clone(),
    };
    prop_assert_eq!(&got, &model, "on {}", arch.key);
    prop_assert_eq!(b.bank_conflicts, model.wavefronts - model.ideal);
    prop_assert!(
        (b.conflict_degree - f64::from(model.wavefronts) / f64::from(model.ideal)).abs() < 1e-12
    );
    Ok(())
}

// ------------------------------------------------------------------------------------------------
// The occupancy model: engine.md §3, the table typed in again.

struct Row {
    key: &'static str,
    max_threads: u64,
    max_blocks: u64,
    optin_kb: u64,
    reserved: u64,
    unit: u64,
    carveouts_kb: &'static [u64],
}

const TABLE: &[Row] = &[
    row("sm_70", 2048, 32, 96, 0, 256, &[0, 8, 16, 32, 64, 96]),
    row("sm_75", 1024, 16, 64, 0, 256, &[32, 64]),
    row(
        "sm_80",
        2048,
        32,
        163,
        1024,
        128,
        &[0, 8, 16, 32, 64, 100, 132, 164],
    ),
    row("sm_86", 1536, 16, 99, 1024, 128, &[0, 8, 16, 32, 64, 100]),
    row("sm_89", 1536, 24, 99, 1024, 128, &[0, 8, 16, 32, 64, 100]),
    row(
        "sm_90",
        2048,
        32,
        227,
        1024,
        128,
        &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228],
    ),
    row(
        "sm_100",
        2048,
        32,
        227,
        1024,
        128,
        &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228],
    ),
    row("sm_120", 1536, 24, 99, 1024, 128, &[0, 8, 16, 32, 64, 100]),
];

const fn row(
    key: &'static str,
    max_threads: u64,
    max_blocks: u64,
    optin_kb: u64,
    reserved: u64,
    unit: u64,
    carveouts_kb: &'static [u64],
) -> Row {
    Row {
        key,
        max_threads,
        max_blocks,
        optin_kb,
        reserved,
        unit,
        carveouts_kb,
    }
}

#[derive(Debug, PartialEq)]
struct OccupancyModel {
    blocks: u64,
    warps: u64,
    occupancy: f64,
    limited_by: Vec<&'static str>,
    smem_per_block: u64,
    carveout: u64,
}

/// The most blocks that fit every resource at once, found by trying every count.
fn occupancy_model(
    row: &Row,
    block: u64,
    regs: u64,
    smem: u64,
    carveout: Option<u64>,
) -> OccupancyModel {
    const KB: u64 = 1024;
    let warps = block.div_ceil(32);
    let max_warps = row.max_threads / 32;
    let per_warp = (regs * 32).div_ceil(256) * 256;
    let register_warps = if regs == 0 {
        u64::MAX
    } else if warps.div_ceil(4) * 4 * per_warp > 65536 {
        0
    } else {
        (65536 / 4 / per_warp) * 4
    };
    let per_block = (smem + row.reserved).div_ceil(row.unit) * row.unit;
    let limit = if smem > 48 * KB {
        row.optin_kb * KB
    } else {
        48 * KB
    } + row.reserved;
    let sizes: Vec<u64> = row.carveouts_kb.iter().map(|kb| kb * KB).collect();
    let max = *sizes.last().unwrap();
    let preferred = match carveout {
        None => max,
        Some(p) => {
            let wanted = (p * max).div_ceil(100);
            sizes.iter().copied().find(|&s| s >= wanted).unwrap()
        }
    };
    let carveout_bytes = if per_block > preferred {
        sizes
            .iter()
            .copied()
            .find(|&s| s >= per_block)
            .unwrap_or(max)
    } else {
        preferred
    };
    let fits: [&dyn Fn(u64) -> bool; 4] = [
        &|n| n * warps <= max_warps,
        &|n| n * warps <= register_warps,
        &|n| per_block <= limit && n * per_block <= carveout_bytes || n == 0,
        &|n| n <= row.max_blocks,
    ];
    let most = |check: &dyn Fn(u64) -> bool| (0..=4096).take_while(|&n| check(n)).last().unwrap();
    let blocks = most(&|n| fits.iter().all(|f| f(n)));
    let names = ["warps", "registers", "shared_memory", "blocks"];
    let limited_by = (0..4)
        .filter(|&i| most(fits[i]) == blocks)
        .map(|i| names[i])
        .collect();
    OccupancyModel {
        blocks,
        warps: blocks * warps,
        occupancy: (blocks * warps) as f64 / max_warps as f64,
        limited_by,
        smem_per_block: per_block,
        carveout: carveout_bytes,
    }
}

fn carveout() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => Just(-1i64),
        6 => 0i64..=100,
        1 => proptest::sample::select(vec![-2i64, 101, 1000, i64::MIN, i64::MAX]),
    ]
}

fn block_size() -> impl Strategy<Value = u32> {
    prop_oneof![
        6 => 1u32..=1024,
        3 => proptest::sample::select(vec![1u32, 32, 33, 64, 96, 128, 256, 512, 768, 1024]),
        1 => proptest::sample::select(vec![0u32, 1025, 4096, u32::MAX]),
    ]
}

fn regs() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => 0u32..=96,
        2 => 0u32..=255,
        3 => proptest::sample::select(vec![0u32, 1, 32, 48, 64, 128, 168, 255]),
        1 => proptest::sample::select(vec![256u32, 1000, u32::MAX]),
    ]
}

fn smem() -> impl Strategy<Value = u32> {
    const KB: u32 = 1024;
    prop_oneof![
        4 => 0u32..=16 * KB,
        2 => 0u32..=240 * KB,
        3 => proptest::sample::select(vec![0, 1, 127, 128, 48 * KB, 48 * KB + 1, 99 * KB, 163 * KB, 227 * KB, 228 * KB]),
        1 => proptest::sample::select(vec![1u32 << 29, 1 << 30, u32::MAX]),
    ]
}

/// A kernel's launch for the occupancy calculator: any block size and register count, shared
/// memory often none, and a carveout preference, sometimes past 100 %.
fn kernel_config() -> impl Strategy<Value = KernelConfig> {
    (
        block_size(),
        regs(),
        prop_oneof![3 => Just(0u32), 3 => smem()],
        smem(),
        prop_oneof![1 => Just(None), 1 => (0u8..=255).prop_map(Some)],
    )
        .prop_map(
            |(block_size, regs_per_thread, static_smem, dynamic_smem, percent)| KernelConfig {
                block_size,
                regs_per_thread,
                static_smem,
                dynamic_smem,
                carveout: percent.map_or(Carveout::Default, Carveout::Percent),
            },
        )
}

// ------------------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Sectors, lines, segments and efficiency equal the byte-listing model; invalid or overflowing
    /// inputs are errors, never panics or wrapped addresses.
    #[test]
    fn coalescing_matches_the_byte_model(access in access()) {
        match expectation(&access) {
            Err(why) => {
                prop_assert!(coalesce(&access, Granularity::Sector).is_err(), "{}", why);
                prop_assert!(coalesce(&access, Granularity::Line).is_err(), "{}", why);
            }
            Ok(Some(lanes)) => check_coalescing(&access, &lanes)?,
            Ok(None) => {
                // An intermediate product overflows though the address fits: an error is allowed.
                if access.resolve().is_ok() {
                    let lanes = access.resolve().unwrap().addresses;
                    check_coalescing(&access, &lanes)?;
                }
            }
        }
    }

    /// Wavefronts, ideal, phases, the pair merge (NVIDIA only) and broadcasts equal the word model, on
    /// every architecture, NVIDIA and AMD.
    #[test]
    fn banks_match_the_word_model(access in access(), arch in any_arch()) {
        match expectation(&access) {
            Err(why) => prop_assert!(bank_conflicts(&access, arch).is_err(), "{}", why),
            Ok(Some(lanes)) => check_banks(&access, &lanes, arch)?,
            Ok(None) => {
                if let Ok(resolved) = access.resolve() {
                    check_banks(&access, &resolved.addresses, arch)?;
                }
            }
        }
    }

    /// Aligned shared loads, the kind real code issues, with the arch's own warp width: mostly small
    /// offsets so that banks, broadcasts and pair merges really occur.
    #[test]
    fn aligned_shared_loads_match_the_word_model(
        elem in proptest::sample::select(vec![1u32, 2, 4, 8, 16]),
        words in proptest::collection::vec(prop_oneof![3 => 0i64..64, 1 => 0i64..4096], 64),
        pair_with in proptest::sample::select(vec![0usize, 1, 2, 3]),
        mask in mask(),
        arch in any_arch(),
    ) {
        let mut offsets: Vec<i64> = words
            .iter()
            .take(arch.warp_size as usize)
            .map(|w| w * i64::from(elem))
            .collect();
        if pair_with > 0 {
            // Make lanes t and t ^ pair_with read the same address (the pair-merge cases).
            for t in 0..offsets.len() {
                offsets[t] = offsets[t & !pair_with];
            }
        }
        let access = WarpAccess::explicit(elem, offsets)
            .with_warp_size(arch.warp_size)
            .with_mask(mask);
        match expectation(&access) {
            Err(_) => prop_assert!(bank_conflicts(&access, arch).is_err()),
            Ok(lanes) => check_banks(&access, &lanes.unwrap(), arch)?,
        }
    }

    /// Resident blocks, warps, the limiters (ties included), shared memory per block and the carveout
    /// equal the model's, on every NVIDIA architecture, with static and dynamic shared memory.
    #[test]
    fn occupancy_matches_the_model(
        arch in occupancy_arch(),
        block in block_size(),
        regs in regs(),
        static_smem in prop_oneof![3 => Just(0u32), 3 => smem()],
        dynamic_smem in smem(),
        carveout_pct in carveout(),
    ) {
        let Ok(carveout) = Carveout::from_pct(carveout_pct) else {
            prop_assert!(carveout_pct != -1 && !(0..=100).contains(&carveout_pct));
            return Ok(());
        };
        prop_assert!(carveout_pct == -1 || (0..=100).contains(&carveout_pct));
        let config = KernelConfig { block_size: block, regs_per_thread: regs, static_smem, dynamic_smem, carveout };
        let result = occupancy(arch, &config);
        let Some(row) = TABLE.iter().find(|r| r.key == arch.key) else {
            prop_assert!(arch.nvidia.is_none() && result.is_err(), "{}", arch.key);
            return Ok(());
        };
        let smem = u64::from(static_smem) + u64::from(dynamic_smem);
        if block == 0 || block > 1024 || regs > 255 || smem > 1 << 30 {
            prop_assert!(result.is_err());
            return Ok(());
        }
        let o = result.map_err(|e| TestCaseError::fail(e.to_string()))?;
        let percent = match carveout {
            Carveout::Default => None,
            Carveout::Percent(p) => Some(u64::from(p)),
        };
        let model = occupancy_model(row, u64::from(block), u64::from(regs), smem, percent);
        let limited_by: Vec<&str> = o.limited_by.iter().map(|l| l.key()).collect();
        let got = OccupancyModel {
            blocks: u64::from(o.active_blocks_per_sm),
            warps: u64::from(o.active_warps_per_sm),
            occupancy: o.occupancy,
            limited_by,
            smem_per_block: u64::from(o.smem_per_block),
            carveout: u64::from(o.carveout_bytes),
        };
        prop_assert_eq!(got, model);
        // Only the total shared memory matters, however it is split between static and dynamic.
        let moved = KernelConfig { static_smem: 0, dynamic_smem: static_smem.saturating_add(dynamic_smem), ..config };
        if u64::from(moved.dynamic_smem) == smem {
            prop_assert_eq!(occupancy(arch, &moved).unwrap().active_blocks_per_sm, o.active_blocks_per_sm);
        }
    }

    /// More registers or more shared memory never raise occupancy.
    #[test]
    fn more_registers_or_shared_memory_never_raise_occupancy(
        arch in proptest::sample::select(ARCHS.iter().filter(|a| a.nvidia.is_some()).collect::<Vec<_>>()),
        block in 1u32..=1024,
        regs in 1u32..255,
        static_smem in 0u32..64 * 1024,
        smem in 0u32..240 * 1024,
        extra in 1u32..64 * 1024,
        carveout_pct in prop_oneof![Just(-1i64), 0i64..=100],
    ) {
        let config = KernelConfig {
            block_size: block,
            regs_per_thread: regs,
            static_smem,
            dynamic_smem: smem,
            carveout: Carveout::from_pct(carveout_pct).unwrap(),
        };
        let base = occupancy(arch, &config).unwrap();
        let more_regs = occupancy(arch, &KernelConfig { regs_per_thread: regs + 1, ..config }).unwrap();
        prop_assert!(more_regs.active_warps_per_sm <= base.active_warps_per_sm);
        let more_smem = occupancy(arch, &KernelConfig { dynamic_smem: smem + extra, ..config }).unwrap();
        prop_assert!(more_smem.active_warps_per_sm <= base.active_warps_per_sm);
    }

    /// AMD waves per SIMD: `min(max(total / round_up(v, granule), 1), max)` from the notes' table (§6).
    #[test]
    fn amd_waves_match_the_table(
        arch in any_arch(),
        vgprs in prop_oneof![4 => 1u32..=1536, 1 => proptest::sample::select(vec![0u32, 1, 512, 513, 1024, 1537, u32::MAX])],
    ) {
        let table: &[(&str, u32, u32, u32)] = &[
            ("gfx908", 10, 4, 256),
            ("gfx90a", 8, 8, 512),
            ("gfx942", 8, 8, 512),
            ("rdna2", 16, 16, 1024),
            ("rdna3", 16, 24, 1536),
        ];
        let result = amd_waves(arch, vgprs);
        match table.iter().find(|(key, ..)| *key == arch.key) {
            None => prop_assert!(result.is_err()),
            Some(&(_, max, granule, total)) => {
                if vgprs == 0 || vgprs > total {
                    prop_assert!(result.is_err());
                } else {
                    let w = result.unwrap();
                    let allocated = vgprs.div_ceil(granule) * granule;
                    prop_assert_eq!(w.vgprs_allocated, allocated);
                    prop_assert_eq!(w.waves_per_simd, (total / allocated).clamp(1, max));
                    prop_assert_eq!(w.waves_per_cu, 4 * w.waves_per_simd);
                }
            }
        }
    }
}

/// Global reads of an N×N matrix multiply, counted element by element: naive (every output reads a row
/// of A and a column of B) and tiled (each T×T block steps along K loading one tile of A and one of B).
fn counted_reads(n: u64, tile: u64) -> (u64, u64) {
    let mut naive = 0;
    for _row in 0..n {
        for _col in 0..n {
            for _k in 0..n {
                naive += 2;
            }
        }
    }
    let mut tiled = 0;
    for _block in 0..(n / tile) * (n / tile) {
        for _step in 0..n / tile {
            tiled += 2 * tile * tile;
        }
    }
    (naive, tiled)
}

fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => 1e-3f64..1e15,
        2 => proptest::sample::select(vec![
            0.0,
            -0.0,
            -1.0,
            1.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            1e-300,
            1e300,
            f64::MAX,
        ]),
        1 => any::<f64>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Reads counted loop by loop (engine.md §4): the factor is the tile size, the footprint 2·T²·E,
    /// and reuse multiplies the intensity by T. Any other input is an error, not a panic.
    #[test]
    fn tiling_matches_counted_reads(
        n in prop_oneof![4 => 1u64..=48, 1 => proptest::sample::select(vec![0u64, 1 << 20, (1 << 20) + 1, u64::MAX])],
        tile in prop_oneof![4 => 1u64..=48, 1 => proptest::sample::select(vec![0u64, 1 << 20, u64::MAX])],
        elem in elem(),
        arch in any_arch(),
    ) {
        let input = TilingInput { n, tile, elem_bytes: elem };
        let result = tiling(&input, Some(arch), 32);
        let valid = (1..=1 << 20).contains(&n) && (1..=n).contains(&tile) && [1, 2, 4, 8, 16].contains(&elem);
        prop_assert_eq!(result.is_ok(), valid, "{:?}", result);
        if !valid || n % tile != 0 || n > 48 {
            return Ok(());
        }
        let t = result.unwrap();
        let (naive, tiled) = counted_reads(n, tile);
        prop_assert_eq!((t.naive_reads, t.tiled_reads), (naive, tiled));
        prop_assert_eq!(t.reduction_factor, tile as f64);
        prop_assert_eq!(t.smem_bytes_per_block, 2 * tile * tile * u64::from(elem));
        prop_assert!((t.naive_intensity - 1.0 / f64::from(elem)).abs() < 1e-12);
        prop_assert!((t.tiled_intensity / t.naive_intensity - tile as f64).abs() < 1e-9);
    }

    /// Ridge `P / β`, attainable `min(P, β·I)`, memory-bound exactly below the ridge (engine.md §5);
    /// zero, negative, infinite or NaN inputs are errors.
    #[test]
    fn roofline_is_the_lower_of_the_two_roofs(peak in float(), bandwidth in float(), intensity in float()) {
        let result = roofline(peak, bandwidth, intensity);
        let valid = [peak, bandwidth, intensity].iter().all(|v| v.is_finite() && *v > 0.0);
        // The ridge and the memory roof must themselves be finite, non-zero numbers, or the
        // answer is "out of scale" rather than inf or 0.
        let in_scale = |x: f64| x.is_finite() && x > 0.0;
        let valid = valid && in_scale(peak / bandwidth) && in_scale(peak.min(bandwidth * intensity));
        prop_assert_eq!(result.is_ok(), valid, "{:?}", result);
        if let Ok(r) = result {
            prop_assert_eq!(r.ridge_intensity, peak / bandwidth);
            prop_assert_eq!(r.attainable_flops, peak.min(bandwidth * intensity));
            let memory = intensity < peak / bandwidth;
            prop_assert_eq!(r.bound == Bound::Memory, memory);
            prop_assert!(r.attainable_flops <= peak);
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Cases the models found, kept as regressions.

/// The last byte of the address space is a valid address: the engine used to overflow computing
/// `address + elem - 1` (and the end of its 128-byte line) and panic.
#[test]
fn the_last_byte_of_the_address_space_is_counted_not_a_panic() {
    let everyone_at_the_top = WarpAccess {
        elem_bytes: 1,
        pattern: Pattern::Affine {
            stride_elems: 0,
            offset_elems: 0,
            base_bytes: i64::MAX,
        },
        active_mask: u64::MAX,
        warp_size: 32,
        op: Op::Load,
    };
    let bottom_and_top = WarpAccess::explicit(1, vec![0, i64::MAX]);
    let top_of_16 = WarpAccess::explicit(16, vec![i64::MAX - 15; 32]);
    for access in [everyone_at_the_top, bottom_and_top, top_of_16] {
        let lanes = match expectation(&access) {
            Ok(Some(lanes)) => lanes,
            other => panic!("the model refuses {access:?}: {other:?}"),
        };
        check_coalescing(&access, &lanes).unwrap();
        check_banks(&access, &lanes, Arch::default_arch()).unwrap();
        check_banks(&access, &lanes, Arch::parse("gfx942").unwrap()).unwrap();
    }
    let c = coalesce(
        &WarpAccess::explicit(1, vec![0, i64::MAX]),
        Granularity::Line,
    )
    .unwrap();
    assert_eq!((c.sectors, c.lines), (2, 2));
    assert_eq!(c.segments[1].address, i64::MAX - 127);
}

/// A field offset near `i64::MAX` is refused as a field that does not fit its struct; checking it used
/// to overflow and panic.
#[test]
fn a_huge_field_offset_is_an_error_not_a_panic() {
    let access = WarpAccess {
        elem_bytes: 1,
        pattern: Pattern::StructField {
            struct_bytes: 1,
            field_offset: i64::MAX,
            first: 0,
            base_bytes: 0,
        },
        active_mask: u64::MAX,
        warp_size: 32,
        op: Op::Load,
    };
    let err = coalesce(&access, Granularity::Sector).unwrap_err();
    assert!(err.to_string().contains("field offset"), "{err}");
}

// ------------------------------------------------------------------------------------------------
// The counting fast paths equal the full analyses.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// `coalesce_counts` gives the counts of `coalesce`, errors included, in both units.
    #[test]
    fn coalescing_counts_equal_the_full_analysis(access in access()) {
        for unit in [Granularity::Sector, Granularity::Line] {
            let fast = warpdrill::engine::coalesce_counts(&access, unit);
            let full = coalesce(&access, unit).map(|c| c.counts());
            prop_assert_eq!(fast, full, "{:?}", unit);
        }
    }

    /// `bank_counts` gives the counts of `bank_conflicts`, errors included, on every architecture.
    #[test]
    fn bank_counts_equal_the_full_analysis(access in access(), arch in any_arch()) {
        let fast = warpdrill::engine::bank_counts(&access, arch);
        let full = bank_conflicts(&access, arch).map(|b| b.counts());
        prop_assert_eq!(fast, full);
    }

    /// Linear warps as the explorer, sweeps and `calc batch` make them — small strides of either
    /// sign, unaligned bases, whole and partial runs of lanes, holes — counted without listing
    /// their lanes, against the full analyses.
    #[test]
    fn linear_counts_equal_the_full_analysis(
        elem in proptest::sample::select(vec![1u32, 2, 4, 8, 16]),
        stride in prop_oneof![4 => -70i64..=70, 1 => proptest::sample::select(vec![128i64, 256, 1024, -4096, 1 << 40])],
        offset in -70i64..=70,
        base in prop_oneof![3 => Just(0i64), 2 => -300i64..300],
        run in (0u32..64, 1u32..=64),
        holes in prop_oneof![3 => Just(0u64), 1 => any::<u64>()],
        arch in any_arch(),
    ) {
        let (start, len) = run;
        let mask = (full(len) << start) & !holes;
        let access = WarpAccess {
            elem_bytes: elem,
            pattern: Pattern::Affine { stride_elems: stride, offset_elems: offset, base_bytes: base },
            active_mask: mask,
            warp_size: arch.warp_size,
            op: Op::Load,
        };
        for unit in [Granularity::Sector, Granularity::Line] {
            let fast = warpdrill::engine::coalesce_counts(&access, unit);
            prop_assert_eq!(fast, coalesce(&access, unit).map(|c| c.counts()), "{:?}", unit);
        }
        let fast = warpdrill::engine::bank_counts(&access, arch);
        prop_assert_eq!(fast, bank_conflicts(&access, arch).map(|b| b.counts()));
    }

    /// Scattered, paired and broadcast shared loads (the cases that are not one ordered pass).
    #[test]
    fn bank_counts_equal_the_full_analysis_on_scattered_words(
        elem in proptest::sample::select(vec![1u32, 2, 4, 8, 16]),
        words in proptest::collection::vec(prop_oneof![3 => 0i64..64, 1 => -4096i64..4096], 64),
        unaligned in 0i64..4,
        pair_with in proptest::sample::select(vec![0usize, 1, 2, 3]),
        mask in mask(),
        arch in any_arch(),
    ) {
        let mut offsets: Vec<i64> = words
            .iter()
            .take(arch.warp_size as usize)
            .map(|w| w * i64::from(elem) + unaligned)
            .collect();
        if pair_with > 0 {
            for t in 0..offsets.len() {
                offsets[t] = offsets[t & !pair_with];
            }
        }
        let access = WarpAccess::explicit(elem, offsets)
            .with_warp_size(arch.warp_size)
            .with_mask(mask);
        let fast = warpdrill::engine::bank_counts(&access, arch);
        prop_assert_eq!(fast, bank_conflicts(&access, arch).map(|b| b.counts()));
        for unit in [Granularity::Sector, Granularity::Line] {
            let fast = warpdrill::engine::coalesce_counts(&access, unit);
            prop_assert_eq!(fast, coalesce(&access, unit).map(|c| c.counts()));
        }
    }

    /// The occupancy calculator's tables give `occupancy`'s answer, errors included, on every
    /// architecture that models occupancy.
    #[test]
    fn occupancy_calculator_equals_occupancy(
        arch in proptest::sample::select(ARCHS.iter().filter(|a| a.nvidia.is_some()).collect::<Vec<_>>()),
        config in kernel_config(),
    ) {
        let limits = arch.nvidia.unwrap();
        let calculator = warpdrill::engine::OccupancyCalculator::new(&limits);
        prop_assert_eq!(calculator.evaluate(&config), occupancy(arch, &config));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The calculator's shortcuts (the default carveout read from a table when the request fits)
    /// assume shared-memory limits in whole allocation units, as every preset has; figures that
    /// are not — or whose opt-in limit is below the default — still get the rule's answer.
    #[test]
    fn occupancy_calculator_equals_occupancy_on_shared_memory_figures_of_any_size(
        default in prop_oneof![Just(48 * 1024u32), 1000u32..100_000],
        optin in prop_oneof![Just(227 * 1024u32), 1000u32..240_000],
        reserved in prop_oneof![Just(1024u32), Just(0u32), 0u32..3000],
        unit in proptest::sample::select(vec![128u32, 256, 1024]),
        config in kernel_config(),
    ) {
        let mut limits = Arch::parse("sm_90").unwrap().nvidia.unwrap();
        limits.smem_default_per_block = default;
        limits.smem_optin_per_block = optin;
        limits.smem_reserved_per_block = reserved;
        limits.smem_alloc_unit = unit;
        let calculator = warpdrill::engine::OccupancyCalculator::new(&limits);
        prop_assert_eq!(
            calculator.evaluate(&config),
            warpdrill::engine::nvidia_occupancy(&limits, &config)
        );
    }
}

/// Every configuration of the side-by-side loop against NVIDIA's header (block sizes 32–1024, 16–255
/// registers, 0–24 KB of dynamic shared memory) gets `occupancy`'s answer from the calculator.
#[test]
fn occupancy_calculator_equals_occupancy_on_the_benchmark_loop() {
    let arch = Arch::parse("sm_90").unwrap();
    let calculator = warpdrill::engine::OccupancyCalculator::new(&arch.nvidia.unwrap());
    for warps in 1..=32u32 {
        for regs in 16..256u32 {
            for smem in 0..7u32 {
                let config = KernelConfig {
                    dynamic_smem: smem * 4096,
                    ..KernelConfig::new(warps * 32, regs)
                };
                assert_eq!(
                    calculator.evaluate(&config),
                    occupancy(arch, &config),
                    "{config:?}"
                );
            }
        }
    }
}

/// 32 lane offsets as the analyser sees them: affine (`base + t × step`, the step any multiple of
/// the element or not, negative too) or random, within ±2^40 bytes.
fn analyser_offsets() -> impl Strategy<Value = [i64; 32]> {
    prop_oneof![
        (-(1i64 << 40)..(1i64 << 40), -4096i64..=4096)
            .prop_map(|(base, step)| std::array::from_fn(|t| base + step * t as i64)),
        (
            -4096i64..4096,
            prop_oneof![Just(0i64), Just(8), Just(16), Just(128), 1i64..=256]
        )
            .prop_map(|(base, step)| std::array::from_fn(|t| base + step * t as i64)),
        proptest::array::uniform32(-2048i64..2048),
        proptest::array::uniform32(-(1i64 << 40)..(1i64 << 40)),
        // Lane pairs (or quads) sharing an address, where an 8- or 16-byte load merges phases.
        (proptest::array::uniform32(0i64..64), 1usize..=2)
            .prop_map(|(words, share)| std::array::from_fn(|t| words[t >> share] * 8)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// The analyser counts each execution through the engine's counting paths: on any warp —
    /// random masks, every element size, affine and random addresses, global and shared, load
    /// and store — its sectors, wavefronts and active phases are the engine's full analyses'.
    #[test]
    fn the_analysers_counts_are_the_engines_full_analyses(
        offsets in analyser_offsets(),
        mask in prop_oneof![Just(u32::MAX), Just(0xffff_u32), Just(0x5555_5555_u32), 1u32..=u32::MAX],
        elem in proptest::sample::select(vec![1u32, 2, 4, 8, 16]),
        shared in any::<bool>(),
        store in any::<bool>(),
    ) {
        use warpdrill::analyze::ast::Space;
        use warpdrill::analyze::Execution;
        let execution = Execution { mask, offsets, store };
        let op = if store { Op::Store } else { Op::Load };
        let access = WarpAccess::explicit(elem, offsets.to_vec())
            .with_mask(u64::from(mask))
            .with_op(op);
        let hopper = Arch::parse("sm_90").unwrap();
        if shared {
            let counts = execution.counts(Space::Shared, elem).unwrap();
            let full = bank_conflicts(&access, hopper).unwrap();
            prop_assert_eq!(
                (counts.wavefronts, counts.ideal),
                (u64::from(full.wavefronts), u64::from(full.ideal_wavefronts))
            );
            prop_assert!(!(store && full.merged));
        } else {
            let counts = execution.counts(Space::Global, elem).unwrap();
            let full = coalesce(&access, Granularity::Sector).unwrap();
            prop_assert_eq!(counts.sectors, u64::from(full.sectors));
        }
    }
}

/// A width the engine refuses is an error from the analyser's counting, never a panic.
#[test]
fn the_analysers_counting_refuses_widths_the_engine_refuses() {
    use warpdrill::analyze::Execution;
    use warpdrill::analyze::ast::Space;
    let execution = Execution {
        mask: u32::MAX,
        offsets: [0; 32],
        store: true,
    };
    for bytes in [0u32, 3, 12, 32, u32::MAX] {
        assert!(execution.counts(Space::Shared, bytes).is_err(), "{bytes}");
        assert!(execution.counts(Space::Global, bytes).is_err(), "{bytes}");
    }
    let none = Execution {
        mask: 0,
        ..execution
    };
    assert!(none.counts(Space::Global, 4).is_err());
    // One 8-byte address stored by every lane: 2 wavefronts over 2 phases; loaded, 1 over 1.
    let stored = execution.counts(Space::Shared, 8).unwrap();
    assert_eq!((stored.wavefronts, stored.ideal), (2, 2));
    let loaded = Execution {
        store: false,
        ..execution
    }
    .counts(Space::Shared, 8)
    .unwrap();
    assert_eq!((loaded.wavefronts, loaded.ideal), (1, 1));
    let stored = execution.counts(Space::Shared, 16).unwrap();
    assert_eq!((stored.wavefronts, stored.ideal), (4, 4));
}
