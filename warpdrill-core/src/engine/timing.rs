//! How long a kernel launch takes: a timing model over what the analyser counts (engine notes §7–§8).
//!
//! Every resource a launch uses gives a time of its own, a *term*: the DRAM bytes over the DRAM's
//! achieved bandwidth, the blocks over the rate the GPU starts them, the waves of resident blocks
//! times how long one block lives (its round trips to memory and its barrier phases), the L1's
//! lines and wavefronts, L2's sectors, the barriers, the instructions issued. The predicted time is
//! the launch overhead plus the terms combined as
//!
//! ```text
//! t = T_launch + (Σ tᵢ^p)^(1/p)        p = OVERLAP_EXPONENT = 4
//! ```
//!
//! a smooth maximum: one term that dominates gives the time alone, and two terms close to each other
//! give somewhat more than either (the resources overlap, not perfectly: near the knee queues form).
//! The *limiter* is the largest term. Worked example, the 256-thread copy of 2²⁵ floats on the H200:
//! 131 072 blocks start at 0.6035 ns each → 79.1 µs; 993 blocks per SM in waves of 8, each block
//! living 60 + 965 + 284 = 1309 cycles → 124.1 waves × 1309 / 1.98 GHz = 82.1 µs; 268 MB of DRAM
//! traffic at 3.96 TB/s → 67.8 µs; L2 31.6 µs; (79.1⁴ + 82.1⁴ + 67.8⁴ + 31.6⁴ + …)^¼ = 101.6 µs,
//! + 7.1 µs launch = 108.7 µs (measured 104.0 µs).
//!
//! The H200's constants come from the reference measurements (`h200_perf.csv`, `h200_sweeps.csv`,
//! the seven rows of `timing/h200_timing_calibration.csv`) and from micro-benchmarks
//! (`tools/h200_micro.cu`) that time none of the 29 reference kernels; each constant says which.
//! Other GPUs scale the H200's efficiencies to their datasheet figures and are marked not calibrated.

use super::occupancy::{KernelConfig, occupancy};
use super::{Arch, Result};
use serde::Serialize;

/// The terms combine as a p-norm with this p: calibrated on the seven calibration kernels together
/// (p = 3 puts the 256-thread copy 11 % high, p = 6 puts the strided read 8 % low; 4 fits all seven
/// within 5 %).
pub const OVERLAP_EXPONENT: f64 = 4.0;

/// A GPU's figures for the timing model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Gpu {
    /// `--gpu` key (`h200`).
    pub key: &'static str,
    /// Its name.
    pub name: &'static str,
    /// The architecture whose occupancy rule applies (`sm_90`).
    pub arch: &'static str,
    /// Whether its constants were measured on the GPU itself (only the H200's were).
    pub calibrated: bool,
    /// Multiprocessors.
    pub sms: u32,
    /// SM clock under load, Hz.
    pub clock_hz: f64,
    /// DRAM peak from the datasheet, bytes/s (the naive roofline's bandwidth).
    pub dram_peak_bps: f64,
    /// Achieved DRAM read bandwidth, bytes/s, with enough bytes in flight.
    pub dram_read_bps: f64,
    /// Achieved DRAM write bandwidth, bytes/s.
    pub dram_write_bps: f64,
    /// Achieved bandwidth of an equal mix of reads and writes (a copy), bytes read and written per s.
    pub dram_copy_bps: f64,
    /// L2 capacity, bytes.
    pub l2_bytes: f64,
    /// L2 bandwidth for whole sectors, bytes/s.
    pub l2_bps: f64,
    /// Sectors written in part (fewer than 32 bytes) that L2 accepts per second.
    pub partial_sectors_per_s: f64,
    /// Latency of a load that hits L1, cycles.
    pub l1_cycles: f64,
    /// Latency of a load that hits L2, cycles.
    pub l2_cycles: f64,
    /// Round trip of a load served by DRAM while the memory system streams, cycles.
    pub dram_cycles: f64,
    /// Seconds the GPU takes to start one more block (all SMs together).
    pub block_dispatch_s: f64,
    /// Seconds a launch costs beyond its blocks (CUDA events around an empty kernel).
    pub launch_s: f64,
    /// Cycles a block lives beyond its memory round trips and barriers.
    pub block_cycles: f64,
    /// Cycles one barrier phase adds to a block's life.
    pub barrier_cycles: f64,
    /// Cycles of an SM per block-barrier when the SM's blocks all pass barriers (throughput).
    pub barrier_sm_cycles: f64,
    /// Warp instructions an SM issues per cycle (its four schedulers).
    pub issue_per_cycle: f64,
    /// Instructions one 32-bit integer division or remainder by a variable takes.
    pub division_instructions: f64,
}

/// The NVIDIA H200 (SXM, 141 GB HBM3e), calibrated.
pub const H200: Gpu = Gpu {
    key: "h200",
    name: "NVIDIA H200",
    arch: "sm_90",
    calibrated: true,
    // 132 SMs and the 1.98 GHz SM clock under load: the driver (h200_perf.csv's header).
    sms: 132,
    clock_hz: 1.98e9,
    // 4.8 TB/s: NVIDIA's datasheet.
    dram_peak_bps: 4.8e12,
    // 4.59 TB/s: h200_perf.csv, 4-byte loads at stride 8 (every sector used, 4594 GB/s of sectors);
    // stride 4 gives 4580, 16-byte loads 4574.
    dram_read_bps: 4.59e12,
    // 4.26 TB/s: tools/h200_micro.cu, float4 grid-stride writes of 1 GiB (1056 blocks).
    dram_write_bps: 4.26e12,
    // 3.96 TB/s: tools/h200_micro.cu, float4 grid-stride copy of 1 GiB (read + write counted);
    // PyTorch's device copy (engine.md §8) reaches 4.3 with larger transfers.
    dram_copy_bps: 3.96e12,
    // 60 MB: the driver.
    l2_bytes: 60e6,
    // 8.5 TB/s: tools/h200_micro.cu, float4 reads of a 16 MiB buffer 64 times over.
    l2_bps: 8.5e12,
    // 72.5 G/s: the naive transpose (calibration row: 67 M stored sectors, each 4 of 32 bytes, in
    // 0.955 ms after the launch); tools/h200_micro.cu's lone 4-byte stores at stride 8 give 66 G/s.
    partial_sectors_per_s: 72.5e9,
    // 39 and 284 cycles: h200_perf.csv's pointer chase in 8 KB and in 2–16 MB.
    l1_cycles: 39.0,
    l2_cycles: 284.0,
    // 965 cycles: the grid-stride copy with one load in flight at 528 blocks (calibration row, 1986
    // dependent rounds in 1.0 ms); a lone pointer chase in 2 GB takes 669 (h200_perf.csv): under a
    // stream the requests queue.
    dram_cycles: 965.0,
    // 0.6035 ns: tools/h200_micro.cu, empty kernels of 2¹⁷–2¹⁹ blocks of 64–1024 threads (the same
    // for every block size: 540 672 blocks of 64 or 256 threads both take 0.333 ms); the 64-thread
    // copy (calibration row) is this rate, 0.3226 ms.
    block_dispatch_s: 0.6035e-9,
    // 7.1 µs: tools/h200_micro.cu, the intercept of the empty kernels' time against their blocks
    // (one empty block: 7.8 µs).
    launch_s: 7.1e-6,
    // 60 cycles: the 256-thread copy (calibration row) with the other constants fixed.
    block_cycles: 60.0,
    // 59 cycles: tools/h200_micro.cu, a loop of shared store, __syncthreads, shared load and add in
    // one 256-thread block per SM.
    barrier_cycles: 59.0,
    // 23.1 cycles: the same loop with 8 blocks per SM, 185 cycles per turn shared by 8.
    barrier_sm_cycles: 23.1,
    // 4 schedulers per SM, one warp instruction each per cycle: NVIDIA's Hopper whitepaper.
    issue_per_cycle: 4.0,
    // About 20 instructions (I2F, MUFU.RCP, F2I, IMAD.HI, fix-ups) in sm_90 code for `%` or `/` by
    // a variable; a power of two is one shift or mask.
    division_instructions: 20.0,
};

/// A GPU scaled from the H200: the same cycle counts, its own SMs, clock and memory.
const fn scaled(
    key: &'static str,
    name: &'static str,
    arch: &'static str,
    sms: u32,
    clock_hz: f64,
    dram_peak_bps: f64,
    l2_bytes: f64,
) -> Gpu {
    let dram = dram_peak_bps / H200.dram_peak_bps;
    let clock = clock_hz / H200.clock_hz;
    let size = sms as f64 / H200.sms as f64;
    Gpu {
        key,
        name,
        arch,
        calibrated: false,
        sms,
        clock_hz,
        dram_peak_bps,
        dram_read_bps: H200.dram_read_bps * dram,
        dram_write_bps: H200.dram_write_bps * dram,
        dram_copy_bps: H200.dram_copy_bps * dram,
        l2_bytes,
        l2_bps: H200.l2_bps * clock * size,
        partial_sectors_per_s: H200.partial_sectors_per_s * clock * size,
        block_dispatch_s: H200.block_dispatch_s / clock,
        ..H200
    }
}

/// The GPUs `--gpu` knows: the H200 (calibrated), and from datasheet figures H100 SXM (132 SMs,
/// 1.98 GHz, 3.35 TB/s, 50 MB L2), A100 SXM (108 SMs, 1.41 GHz, 2.04 TB/s, 40 MB) and L4 (58 SMs,
/// 2.04 GHz, 300 GB/s, 48 MB).
pub const GPUS: [Gpu; 4] = [
    H200,
    scaled(
        "h100",
        "NVIDIA H100 SXM",
        "sm_90",
        132,
        1.98e9,
        3.35e12,
        50e6,
    ),
    scaled(
        "a100",
        "NVIDIA A100 SXM",
        "sm_80",
        108,
        1.41e9,
        2.039e12,
        40e6,
    ),
    scaled("l4", "NVIDIA L4", "sm_89", 58, 2.04e9, 0.3e12, 48e6),
];

impl Gpu {
    /// The GPU named `key` (`h200`, `h100`, `a100`, `l4`; case and `-`/space ignored).
    pub fn parse(key: &str) -> Option<&'static Gpu> {
        let k: String = key
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        let k = k.strip_prefix("nvidia").unwrap_or(&k);
        let k = k.strip_suffix("sxm").unwrap_or(k);
        GPUS.iter().find(|g| g.key == k)
    }
}

/// Traffic of the arrays a launch reads or writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Traffic {
    /// Bytes of 64-byte granules the blocks touch, summed over blocks.
    pub touched_bytes: f64,
    /// Bytes of the arrays' extents in granules.
    pub footprint_bytes: f64,
}

/// What a launch does, as the analyser counts it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Work {
    /// Blocks in the grid.
    pub blocks: u64,
    /// Threads per block.
    pub threads_per_block: u32,
    /// Shared memory per block, bytes.
    pub shared_bytes: u32,
    /// Registers per thread (0: not limiting).
    pub regs_per_thread: u32,
    /// Global-load round trips a block waits through (its slowest warp).
    pub rounds_per_block: f64,
    /// Barriers a block passes.
    pub barriers_per_block: f64,
    /// Shared wavefronts beyond one per instruction along a block's slowest warp.
    pub conflicts_per_block: f64,
    /// Global load instructions (warp level).
    pub global_loads: f64,
    /// 128-byte lines of every global instruction, summed.
    pub global_lines: f64,
    /// Shared wavefronts, loads and stores.
    pub shared_wavefronts: f64,
    /// Sectors the global loads touch, per instruction, summed (L1 traffic).
    pub load_sectors: f64,
    /// Sectors the global loads bring into L1 (distinct per block).
    pub l2_load_sectors: f64,
    /// Sectors the global stores write.
    pub store_sectors: f64,
    /// Of those, written in part.
    pub partial_store_sectors: f64,
    /// Warp instructions issued.
    pub warp_instructions: f64,
    /// Of those, integer divisions and remainders by a variable.
    pub warp_divisions: f64,
    /// Bytes the threads ask for, loads and stores.
    pub requested_bytes: f64,
    /// Arrays read.
    pub read: Traffic,
    /// Arrays written.
    pub write: Traffic,
}

/// The resource a term measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limiter {
    /// DRAM bandwidth.
    Dram,
    /// Memory latency: too few bytes in flight (Little's law).
    Latency,
    /// The rate blocks start.
    Dispatch,
    /// L1 and shared memory's data path.
    L1,
    /// L2 bandwidth.
    L2,
    /// Barriers.
    Barriers,
    /// Instruction issue.
    Issue,
}

impl Limiter {
    /// Its key in JSON and the locale files (`dram`, `latency`, …).
    pub fn key(self) -> &'static str {
        match self {
            Limiter::Dram => "dram",
            Limiter::Latency => "latency",
            Limiter::Dispatch => "dispatch",
            Limiter::L1 => "l1",
            Limiter::L2 => "l2",
            Limiter::Barriers => "barriers",
            Limiter::Issue => "issue",
        }
    }
}

/// DRAM: bytes from and to DRAM over the achieved bandwidth.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DramTerm {
    /// Milliseconds.
    pub ms: f64,
    /// Bytes read from DRAM.
    pub read_bytes: f64,
    /// Bytes written to DRAM.
    pub write_bytes: f64,
    /// The bandwidth this mix of reads and writes achieves, GB/s.
    pub achieved_gbps: f64,
    /// The datasheet peak, GB/s.
    pub peak_gbps: f64,
}

/// Latency: waves of resident blocks, each living through its round trips and phases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatencyTerm {
    /// Milliseconds.
    pub ms: f64,
    /// Blocks resident on an SM at once (the occupancy rule, or fewer when the grid is small).
    pub resident_blocks_per_sm: u32,
    /// Warps resident on an SM.
    pub resident_warps_per_sm: u32,
    /// Global-load round trips a block waits through.
    pub round_trips_per_block: f64,
    /// Loads each warp has in flight per round trip.
    pub loads_in_flight_per_warp: f64,
    /// Bytes in flight per SM during a round trip (Little's law: this over the latency is the
    /// bandwidth the SM can draw).
    pub bytes_in_flight_per_sm: f64,
    /// Average latency of one round trip, cycles (L1, L2 and DRAM hits weighted).
    pub round_trip_cycles: f64,
    /// Barrier phases per block.
    pub barrier_phases: f64,
    /// How long a block lives, cycles.
    pub block_cycles: f64,
    /// Waves of resident blocks per SM.
    pub waves: f64,
}

/// A term with its milliseconds and the count behind it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CountTerm {
    /// Milliseconds.
    pub ms: f64,
    /// What is counted (blocks, lines + wavefronts, sectors, barriers, instructions).
    pub count: f64,
}

/// Every term.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Terms {
    /// DRAM bandwidth.
    pub dram: DramTerm,
    /// Latency and occupancy.
    pub latency: LatencyTerm,
    /// Blocks started (count: blocks).
    pub dispatch: CountTerm,
    /// L1/shared data path (count: lines + wavefronts).
    pub l1: CountTerm,
    /// L2 (count: sectors, loads and stores).
    pub l2: CountTerm,
    /// Barriers (count: block-barriers).
    pub barriers: CountTerm,
    /// Instruction issue (count: warp instructions).
    pub issue: CountTerm,
    /// Launch overhead, added to the combination, milliseconds.
    pub launch_ms: f64,
}

impl Terms {
    /// Each combined term with its resource, in a fixed order.
    pub fn list(&self) -> [(Limiter, f64); 7] {
        [
            (Limiter::Dram, self.dram.ms),
            (Limiter::Latency, self.latency.ms),
            (Limiter::Dispatch, self.dispatch.ms),
            (Limiter::L1, self.l1.ms),
            (Limiter::L2, self.l2.ms),
            (Limiter::Barriers, self.barriers.ms),
            (Limiter::Issue, self.issue.ms),
        ]
    }
}

/// Two simpler estimates, to show why each misleads.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Baselines {
    /// The naive roofline: the bytes the threads ask for at the datasheet's peak bandwidth.
    pub roofline_ms: f64,
    /// The bytes L1 moves (sectors × 32, loads and stores) at the measured copy bandwidth.
    pub copy_bandwidth_ms: f64,
}

/// A predicted time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prediction {
    /// The GPU (`h200`).
    pub gpu: &'static str,
    /// Whether that GPU's constants were measured on it.
    pub calibrated: bool,
    /// Predicted milliseconds.
    pub ms: f64,
    /// The largest term.
    pub limiter: Limiter,
    /// Every term.
    pub terms: Terms,
    /// The two baselines.
    pub baselines: Baselines,
}

/// DRAM seconds for `read` and `write` bytes: `(R + W) · ((1−f)/P_r + f/P_w + 4f(1−f)·Δ)` with `f`
/// the written share and `Δ = 1/P_copy − (1/P_r + 1/P_w)/2` the cost of turning the bus around
/// between reads and writes. Worked: 134 MB read and 134 MB written on the H200 → f = ½, 268 MB at
/// 3.96 TB/s = 67.8 µs.
pub fn dram_seconds(gpu: &Gpu, read: f64, write: f64) -> f64 {
    let total = read + write;
    if total <= 0.0 {
        return 0.0;
    }
    let f = write / total;
    let turn = 1.0 / gpu.dram_copy_bps - (1.0 / gpu.dram_read_bps + 1.0 / gpu.dram_write_bps) / 2.0;
    total * ((1.0 - f) / gpu.dram_read_bps + f / gpu.dram_write_bps + 4.0 * f * (1.0 - f) * turn)
}

/// DRAM bytes of arrays with `t` traffic when the launch's arrays take `all_footprint` bytes: each
/// granule once if everything fits in L2; beyond that, each re-touch misses in the share of the
/// footprint that L2 cannot hold. Worked: the naive matmul's B (16.8 MB, touched 2.1 GB over its
/// blocks) in 60 MB of L2 → 16.8 MB; a 200 MB array touched twice → 200 + 200 × 0.7 = 340 MB.
pub fn dram_bytes(gpu: &Gpu, t: Traffic, all_footprint: f64) -> f64 {
    let once = t.footprint_bytes.min(t.touched_bytes);
    let again = (t.touched_bytes - once).max(0.0);
    let miss = if all_footprint > 0.0 {
        (1.0 - gpu.l2_bytes / all_footprint).clamp(0.0, 1.0)
    } else {
        0.0
    };
    once + again * miss
}

/// Predicts the launch's time on `gpu`.
///
/// The latency term: an SM holds `b = min(occupancy blocks, blocks per SM)` blocks; each lives
/// `block_cycles + rounds × λ + (λ_L2 if it stores) + barriers × barrier_cycles + 2 × conflict
/// wavefronts` cycles, `λ` the round trip weighted by where the loads hit (the L1 misses per load from
/// the distinct sectors each block brings in, the DRAM share of those from the DRAM bytes); the SM runs
/// `ceil(blocks / SMs) / b` waves of them. Worked: the grid-stride copy, 528 blocks of 256 threads
/// with 1986 rounds → 4 blocks per SM, one wave of 60 + 1986 × 965 + 284 cycles = 0.968 ms.
///
/// Errors when the block cannot run on the GPU (too many threads, too much shared memory).
pub fn predict(gpu: &Gpu, w: &Work) -> Result<Prediction> {
    let arch = Arch::parse(gpu.arch)?;
    let mut config = KernelConfig::new(w.threads_per_block.max(1), w.regs_per_thread);
    config.static_smem = w.shared_bytes;
    let occ = occupancy(arch, &config)?;
    let clock = gpu.clock_hz;
    let sms = f64::from(gpu.sms);
    let blocks = w.blocks.max(1) as f64;
    let per_sm = (blocks / sms).ceil();
    let resident = f64::from(occ.active_blocks_per_sm.max(1))
        .min(per_sm)
        .max(1.0);
    let waves = per_sm / resident;

    // DRAM.
    let footprint = w.read.footprint_bytes + w.write.footprint_bytes;
    let read = dram_bytes(gpu, w.read, footprint);
    let write = dram_bytes(gpu, w.write, footprint);
    let dram_s = dram_seconds(gpu, read, write);

    // Latency.
    // A warp's round trip ends with its last sector: a load is an L1 hit only when all its sectors
    // are, so the miss share is counted per load (one sector from L2 per load = every load misses).
    let l1_hit = if w.global_loads > 0.0 {
        (1.0 - w.l2_load_sectors / w.global_loads).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let from_dram = if w.l2_load_sectors > 0.0 {
        (read / (w.l2_load_sectors * 32.0)).clamp(0.0, 1.0)
    } else {
        1.0
    };
    let round_trip = l1_hit * gpu.l1_cycles
        + (1.0 - l1_hit) * ((1.0 - from_dram) * gpu.l2_cycles + from_dram * gpu.dram_cycles);
    let stores = if w.store_sectors > 0.0 {
        gpu.l2_cycles
    } else {
        0.0
    };
    let life = gpu.block_cycles
        + w.rounds_per_block * round_trip
        + stores
        + w.barriers_per_block * gpu.barrier_cycles
        + 2.0 * w.conflicts_per_block;
    let latency_s = waves * life / clock;
    let warps_per_block = f64::from(w.threads_per_block.max(1).div_ceil(32));
    let warp_rounds = blocks * warps_per_block * w.rounds_per_block.max(1.0);
    let loads_in_flight = w.global_loads / warp_rounds;
    let bytes_per_load = if w.global_loads > 0.0 {
        w.load_sectors * 32.0 / w.global_loads
    } else {
        0.0
    };
    let resident_warps = resident * warps_per_block;

    let dispatch_s = blocks * gpu.block_dispatch_s;
    let l1_count = w.global_lines + w.shared_wavefronts;
    let l1_s = l1_count / (sms * clock);
    let full = (w.l2_load_sectors + w.store_sectors - w.partial_store_sectors).max(0.0);
    let l2_s = full * 32.0 / gpu.l2_bps + w.partial_store_sectors / gpu.partial_sectors_per_s;
    let barrier_count = blocks * w.barriers_per_block;
    let barriers_s = barrier_count * gpu.barrier_sm_cycles / (sms * clock);
    let issued = w.warp_instructions + w.warp_divisions * (gpu.division_instructions - 1.0);
    let issue_s = issued / (gpu.issue_per_cycle * sms * clock);

    let ms = |s: f64| s * 1e3;
    let terms = Terms {
        dram: DramTerm {
            ms: ms(dram_s),
            read_bytes: read,
            write_bytes: write,
            achieved_gbps: if dram_s > 0.0 {
                (read + write) / dram_s / 1e9
            } else {
                0.0
            },
            peak_gbps: gpu.dram_peak_bps / 1e9,
        },
        latency: LatencyTerm {
            ms: ms(latency_s),
            resident_blocks_per_sm: resident as u32,
            resident_warps_per_sm: resident_warps as u32,
            round_trips_per_block: w.rounds_per_block,
            loads_in_flight_per_warp: loads_in_flight,
            bytes_in_flight_per_sm: resident_warps * loads_in_flight * bytes_per_load,
            round_trip_cycles: round_trip,
            barrier_phases: w.barriers_per_block,
            block_cycles: life,
            waves,
        },
        dispatch: CountTerm {
            ms: ms(dispatch_s),
            count: blocks,
        },
        l1: CountTerm {
            ms: ms(l1_s),
            count: l1_count,
        },
        l2: CountTerm {
            ms: ms(l2_s),
            count: w.l2_load_sectors + w.store_sectors,
        },
        barriers: CountTerm {
            ms: ms(barriers_s),
            count: barrier_count,
        },
        issue: CountTerm {
            ms: ms(issue_s),
            count: issued,
        },
        launch_ms: ms(gpu.launch_s),
    };
    let list = terms.list();
    let p = OVERLAP_EXPONENT;
    let combined: f64 = list
        .iter()
        .map(|(_, t)| t.powf(p))
        .sum::<f64>()
        .powf(1.0 / p);
    let limiter = list
        .iter()
        .copied()
        .fold(
            (Limiter::Dram, -1.0),
            |best, t| if t.1 > best.1 { t } else { best },
        )
        .0;
    let fetched = (w.load_sectors + w.store_sectors) * 32.0;
    Ok(Prediction {
        gpu: gpu.key,
        calibrated: gpu.calibrated,
        ms: terms.launch_ms + combined,
        limiter,
        terms,
        baselines: Baselines {
            roofline_ms: ms(w.requested_bytes / gpu.dram_peak_bps),
            copy_bandwidth_ms: ms(fetched / gpu.dram_copy_bps),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of `n` 4-byte elements in blocks of `block` threads, `k` loads in flight per round.
    fn copy(n: f64, block: u32, grid: u64, rounds: f64) -> Work {
        let bytes = n * 4.0;
        let sectors = bytes / 32.0;
        Work {
            blocks: grid,
            threads_per_block: block,
            rounds_per_block: rounds,
            global_loads: n / 32.0,
            global_lines: 2.0 * n / 32.0,
            load_sectors: sectors,
            l2_load_sectors: sectors,
            store_sectors: sectors,
            warp_instructions: 4.0 * n / 32.0,
            requested_bytes: 2.0 * bytes,
            read: Traffic {
                touched_bytes: bytes,
                footprint_bytes: bytes,
            },
            write: Traffic {
                touched_bytes: bytes,
                footprint_bytes: bytes,
            },
            ..Work::default()
        }
    }

    #[test]
    fn the_worked_copy_is_near_its_measurement() {
        let w = copy(33554432.0, 256, 131072, 1.0);
        let p = predict(&H200, &w).unwrap();
        assert!((p.ms / 0.104 - 1.0).abs() < 0.05, "{p:?}");
        let p = predict(&H200, &copy(33554432.0, 64, 524288, 1.0)).unwrap();
        assert_eq!(p.limiter, Limiter::Dispatch);
        assert!((p.ms / 0.32256 - 1.0).abs() < 0.05, "{}", p.ms);
    }

    #[test]
    fn time_never_falls_when_bytes_grow() {
        let base = copy(33554432.0, 256, 131072, 1.0);
        let mut last = 0.0;
        for k in 1..=32 {
            let mut w = base;
            let f = f64::from(k);
            w.read.touched_bytes *= f;
            w.read.footprint_bytes *= f;
            w.load_sectors *= f;
            w.l2_load_sectors *= f;
            let t = predict(&H200, &w).unwrap().ms;
            assert!(t >= last, "{k}: {t} < {last}");
            last = t;
        }
    }

    #[test]
    fn more_loads_in_flight_never_slow_a_copy() {
        // 2^28 floats over 2112 blocks: 496 rounds with one load in flight, 124 with four.
        for grid in [528u64, 1056, 2112, 4224] {
            let n = 268435456.0;
            let rounds = n / (grid as f64 * 256.0);
            let mut last = f64::INFINITY;
            for k in [1.0, 2.0, 4.0, 8.0] {
                let t = predict(&H200, &copy(n, 256, grid, rounds / k)).unwrap().ms;
                assert!(t <= last, "grid {grid}, {k} in flight: {t} > {last}");
                last = t;
            }
        }
    }

    #[test]
    fn a_bigger_gpu_memory_is_faster_when_bandwidth_bound() {
        let mut w = copy(268435456.0, 256, 1048576, 1.0);
        w.read.touched_bytes *= 8.0;
        w.read.footprint_bytes *= 8.0;
        let [h200, h100, a100, l4] = GPUS.map(|g| predict(&g, &w).unwrap().ms);
        assert!(
            h200 < h100 && h100 < a100 && a100 < l4,
            "{h200} {h100} {a100} {l4}"
        );
        assert!(!predict(&GPUS[1], &w).unwrap().calibrated);
    }

    #[test]
    fn dram_granules_fit_in_l2_or_miss() {
        let t = Traffic {
            touched_bytes: 400e6,
            footprint_bytes: 200e6,
        };
        assert!((dram_bytes(&H200, t, 200e6) - 340e6).abs() < 1.0);
        let small = Traffic {
            touched_bytes: 2.1e9,
            footprint_bytes: 16.8e6,
        };
        assert_eq!(dram_bytes(&H200, small, 50e6), 16.8e6);
    }

    #[test]
    fn gpus_parse_by_key_and_name() {
        assert_eq!(Gpu::parse("H200").unwrap().key, "h200");
        assert_eq!(Gpu::parse("NVIDIA H100 SXM").unwrap().key, "h100");
        assert_eq!(Gpu::parse("a100").unwrap().key, "a100");
        assert!(Gpu::parse("mi300").is_none());
    }
}
