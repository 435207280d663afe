//! Occupancy (engine notes §3): how many blocks of a kernel an SM holds at once, computed exactly as
//! NVIDIA's occupancy calculator and the driver do; and AMD waves per SIMD (§6).

use super::arch::{AmdLimits, Arch, NvidiaLimits};
use super::error::{EngineError, Result};
use serde::{Serialize, Serializer};

/// The shared-memory carveout preference of a kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Carveout {
    /// The driver's default: the maximum carveout.
    Default,
    /// A percentage (0–100) of the maximum, rounded up to a supported size.
    Percent(u8),
}

impl Carveout {
    /// From the calculator's convention: `-1` = default, else a percentage.
    pub fn from_pct(pct: i64) -> Result<Self> {
        match pct {
            -1 => Ok(Carveout::Default),
            0..=100 => Ok(Carveout::Percent(pct as u8)),
            other => Err(EngineError::range(
                "carveout",
                format!("{other}%"),
                "-1 (default) or 0 to 100 %",
            )),
        }
    }
}

/// A kernel launch configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct KernelConfig {
    /// Threads per block, 1–1024.
    pub block_size: u32,
    /// Registers per thread, 0–255 (0 = not limiting).
    pub regs_per_thread: u32,
    /// Static shared memory per block, bytes.
    pub static_smem: u32,
    /// Dynamic shared memory per block, bytes.
    pub dynamic_smem: u32,
    /// Carveout preference.
    pub carveout: Carveout,
}

impl KernelConfig {
    /// A block of `block_size` threads using `regs_per_thread` registers, no shared memory.
    pub fn new(block_size: u32, regs_per_thread: u32) -> Self {
        KernelConfig {
            block_size,
            regs_per_thread,
            static_smem: 0,
            dynamic_smem: 0,
            carveout: Carveout::Default,
        }
    }
}

/// One of the limits on resident blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limiter {
    /// Resident warps per SM.
    Warps,
    /// Register file.
    Registers,
    /// Shared memory (carveout).
    SharedMemory,
    /// Resident blocks per SM.
    Blocks,
}

impl Limiter {
    /// All four, in report order.
    pub const ALL: [Limiter; 4] = [
        Limiter::Warps,
        Limiter::Registers,
        Limiter::SharedMemory,
        Limiter::Blocks,
    ];

    /// The name used in JSON and reports (`shared_memory`).
    pub fn key(self) -> &'static str {
        match self {
            Limiter::Warps => "warps",
            Limiter::Registers => "registers",
            Limiter::SharedMemory => "shared_memory",
            Limiter::Blocks => "blocks",
        }
    }

    /// The name a learner reads (`shared memory`).
    pub fn label(self) -> &'static str {
        match self {
            Limiter::Warps => "warps",
            Limiter::Registers => "registers",
            Limiter::SharedMemory => "shared memory",
            Limiter::Blocks => "blocks",
        }
    }
}

/// The set of limiters that bind (several can tie). Copyable: no allocation per evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limiters(u8);

impl Limiters {
    fn insert(&mut self, limiter: Limiter) {
        self.0 |= 1 << limiter as u8;
    }

    /// Whether `limiter` binds.
    pub fn contains(self, limiter: Limiter) -> bool {
        self.0 & (1 << limiter as u8) != 0
    }

    /// The binding limiters in report order.
    pub fn iter(self) -> impl Iterator<Item = Limiter> {
        Limiter::ALL.into_iter().filter(move |l| self.contains(*l))
    }

    /// `registers, shared memory`.
    pub fn describe(self) -> String {
        self.iter()
            .map(Limiter::label)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Serialize for Limiters {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(Limiter::key))
    }
}

/// Blocks per SM allowed by each limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// `floor(max_warps / warps_per_block)`.
    pub warps: u32,
    /// From the register file (the block limit when registers are 0 = unlimited).
    pub registers: u32,
    /// From the carveout.
    pub shared_memory: u32,
    /// The architecture's maximum resident blocks.
    pub blocks: u32,
}

impl Limits {
    /// The limit for one limiter.
    pub fn get(&self, limiter: Limiter) -> u32 {
        match limiter {
            Limiter::Warps => self.warps,
            Limiter::Registers => self.registers,
            Limiter::SharedMemory => self.shared_memory,
            Limiter::Blocks => self.blocks,
        }
    }
}

/// The textbook bound `floor(65536 / r)` threads, which ignores allocation granularity: shown beside the
/// hardware answer, never graded as what the SM runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TextbookBound {
    /// `min(floor(regs_per_SM / r), max threads)` (1365 at 48 registers).
    pub threads: u32,
    /// Rounded down to whole warps (1344 at 48 registers).
    pub warp_rounded_threads: u32,
    /// `warp_rounded_threads / max threads` (65.6 % at 48 registers on 9.0).
    pub occupancy: f64,
}

/// Occupancy of one configuration on one architecture.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Occupancy {
    /// Resident blocks per SM: the minimum of the limits.
    pub active_blocks_per_sm: u32,
    /// `active_blocks × warps per block`.
    pub active_warps_per_sm: u32,
    /// The architecture's maximum resident warps.
    pub max_warps_per_sm: u32,
    /// `active_warps / max_warps`, 0–1.
    pub occupancy: f64,
    /// Which limits bind.
    pub limited_by: Limiters,
    /// Blocks per SM each limit allows.
    pub limits: Limits,
    /// Warps in one block: `ceil(B / 32)`.
    pub warps_per_block: u32,
    /// Registers allocated per warp: `ceil(r × 32 / 256) × 256`.
    pub regs_per_warp: u32,
    /// Registers allocated per block (its warps × per warp).
    pub regs_per_block: u32,
    /// Shared memory allocated per block: static + dynamic + reserved, rounded to the allocation unit.
    pub smem_per_block: u32,
    /// The SM's shared memory after the carveout preference (and any raise to fit one block).
    pub carveout_bytes: u32,
    /// The textbook register bound, for comparison.
    pub textbook: TextbookBound,
}

fn div_ceil(a: u64, b: u64) -> u64 {
    a.div_ceil(b)
}

/// Occupancy on an NVIDIA architecture, exactly as NVIDIA's calculator computes it.
///
/// Worked number: 256 threads × 48 registers on `sm_90` → registers allow 40 warps = 5 blocks,
/// occupancy 62.5 %, limited by registers (the textbook `65536 / 48` would say 65.6 %).
///
/// ```
/// use warpdrill_core::engine::{occupancy, Arch, KernelConfig};
/// let o = occupancy(Arch::default_arch(), &KernelConfig::new(256, 48)).unwrap();
/// assert_eq!(o.active_blocks_per_sm, 5);
/// assert_eq!(o.occupancy, 0.625);
/// ```
pub fn occupancy(arch: &Arch, config: &KernelConfig) -> Result<Occupancy> {
    let Some(limits) = arch.nvidia.as_ref() else {
        return Err(EngineError::Unsupported {
            what: "NVIDIA occupancy",
            arch: arch.key,
            hint: if arch.amd.is_some() {
                "AMD occupancy is counted in waves per SIMD from VGPRs (see amd_waves)"
            } else {
                "choose sm_70 or later for occupancy"
            },
        });
    };
    nvidia_occupancy(limits, config)
}

/// Blocks per SM that shared memory alone allows for `smem_bytes` per block (static + dynamic), by
/// the same rule as [`occupancy`]: the 1 KB per-block reserve on sm_80+ and the allocation unit
/// included, the carveout as given. `0` when one block needs more than a block may have.
///
/// On sm_90, 2 KB per block: (2048 + 1024) rounded to 8 × 128 B … = 3 KB, 228 KB / 3 KB = 76 blocks.
pub fn shared_memory_blocks(limits: &NvidiaLimits, smem_bytes: u64, carveout: Carveout) -> u32 {
    let Ok(static_smem) = u32::try_from(smem_bytes) else {
        return 0;
    };
    let mut config = KernelConfig::new(32, 0);
    config.static_smem = static_smem;
    config.carveout = carveout;
    nvidia_occupancy(limits, &config).map_or(0, |o| o.limits.shared_memory)
}

/// Warps of `regs_per_warp` registers one SM holds: each of its register sub-partitions holds whole
/// warps. `floor((65 536 / 4) / regs_per_warp) × 4`: at 48 registers a thread (1536 a warp) →
/// 10 × 4 = 40 warps.
pub fn register_warps(limits: &NvidiaLimits, regs_per_warp: u32) -> u32 {
    let partitions = limits.reg_sub_partitions.max(1);
    (limits.regs_per_sm / partitions)
        .checked_div(regs_per_warp)
        .map_or(0, |w| w * partitions)
}

/// The registers the hardware checks one block for: its warps rounded up to a multiple of 4, times
/// the registers of a warp (a block of 9 warps at 5632 a warp → 12 × 5632 = 67 584 > 65 536: refused).
fn block_register_check(warps_per_block: u32, regs_per_warp: u32) -> u64 {
    u64::from(warps_per_block.div_ceil(4) * 4) * u64::from(regs_per_warp)
}

/// Why not one block fits on an SM, when none does (an occupancy's limits at 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "refused_by")]
pub enum LaunchRefusal {
    /// The register file's sub-partitions hold `held` warps at these registers; a block has
    /// `needed`.
    RegisterWarps {
        /// Warps one SM holds at the block's registers per warp.
        held: u32,
        /// Warps in one block.
        needed: u32,
    },
    /// The block fails the hardware's register check: `needed` registers (warps rounded up to 4)
    /// against the SM's `available`.
    RegisterFile {
        /// Registers the check counts for one block.
        needed: u64,
        /// Registers of an SM.
        available: u32,
    },
    /// The block asks for more shared memory (with the reserved part) than a block may opt in to.
    SharedMemory {
        /// Bytes per block, allocated.
        needed: u32,
        /// The most a block may use.
        limit: u32,
    },
}

/// Every reason why no block of `o` fits on an SM of `limits` (empty when one does).
pub fn launch_refusals(limits: &NvidiaLimits, o: &Occupancy) -> Vec<LaunchRefusal> {
    let mut refusals = Vec::new();
    if o.active_blocks_per_sm > 0 {
        return refusals;
    }
    if o.limits.registers == 0 && o.regs_per_warp > 0 {
        let held = register_warps(limits, o.regs_per_warp);
        let needed = block_register_check(o.warps_per_block, o.regs_per_warp);
        refusals.push(if needed > u64::from(limits.regs_per_sm) {
            LaunchRefusal::RegisterFile {
                needed,
                available: limits.regs_per_sm,
            }
        } else {
            LaunchRefusal::RegisterWarps {
                held,
                needed: o.warps_per_block,
            }
        });
    }
    if o.limits.shared_memory == 0 {
        refusals.push(LaunchRefusal::SharedMemory {
            needed: o.smem_per_block,
            limit: limits.smem_optin_per_block + limits.smem_reserved_per_block,
        });
    }
    refusals
}

/// The block sizes `arch` can launch, in the words of its refusal (`1 to 1024 threads`).
pub(crate) fn block_sizes_allowed(arch: &NvidiaLimits) -> String {
    format!("1 to {} threads", arch.max_threads_per_block)
}

/// The registers per thread `arch` allows, in the words of its refusal.
pub(crate) fn registers_allowed(arch: &NvidiaLimits) -> String {
    format!("0 to {} (0 = not limiting)", arch.max_regs_per_thread)
}

/// The shared memory per block the calculator takes, in the words of its refusal.
pub(crate) const SHARED_MEMORY_ALLOWED: &str = "0 to 1 GiB";

/// [`occupancy`] given the figures directly (the what-if plots call this thousands of times).
pub fn nvidia_occupancy(arch: &NvidiaLimits, config: &KernelConfig) -> Result<Occupancy> {
    let b = config.block_size;
    if b == 0 || b > arch.max_threads_per_block {
        return Err(EngineError::range(
            "block size",
            b,
            block_sizes_allowed(arch),
        ));
    }
    let r = config.regs_per_thread;
    if r > arch.max_regs_per_thread {
        return Err(EngineError::range(
            "registers per thread",
            r,
            registers_allowed(arch),
        ));
    }
    const SMEM_CEILING: u64 = 1 << 30;
    let requested_smem = u64::from(config.static_smem) + u64::from(config.dynamic_smem);
    if requested_smem > SMEM_CEILING {
        return Err(EngineError::range(
            "shared memory per block",
            requested_smem,
            SHARED_MEMORY_ALLOWED,
        ));
    }

    let max_warps = arch.max_warps_per_sm();
    let warps_per_block = b.div_ceil(32);

    // 1. Warps.
    let warp_limit = max_warps / warps_per_block;

    // 2. Blocks.
    let block_limit = arch.max_blocks_per_sm;

    // 3. Registers.
    let regs_per_warp = (div_ceil(u64::from(r) * 32, u64::from(arch.reg_alloc_unit))
        * u64::from(arch.reg_alloc_unit)) as u32;
    let (register_limit, regs_per_block) = if r == 0 {
        (block_limit, 0)
    } else {
        let warps = register_warps(arch, regs_per_warp);
        let block_needs = block_register_check(warps_per_block, regs_per_warp);
        let limit = if block_needs > 65536 {
            0
        } else {
            warps / warps_per_block
        };
        (limit, warps_per_block.saturating_mul(regs_per_warp))
    };

    // 4. Shared memory.
    let unit = u64::from(arch.smem_alloc_unit);
    let reserved = u64::from(arch.smem_reserved_per_block);
    let smem_per_block = div_ceil(requested_smem + reserved, unit) * unit;
    let per_block_limit = if requested_smem > u64::from(arch.smem_default_per_block) {
        u64::from(arch.smem_optin_per_block)
    } else {
        u64::from(arch.smem_default_per_block)
    } + reserved;
    let sizes = arch.carveout_kb;
    let max_kb = u64::from(*sizes.last().unwrap_or(&0));
    let preferred = match config.carveout {
        Carveout::Default => max_kb * 1024,
        Carveout::Percent(p) => {
            let wanted = div_ceil(u64::from(p) * max_kb * 1024, 100);
            supported_at_least(sizes, wanted).unwrap_or(max_kb * 1024)
        }
    };
    let carveout = if smem_per_block > preferred {
        supported_at_least(sizes, smem_per_block).unwrap_or(max_kb * 1024)
    } else {
        preferred
    };
    let smem_limit = if smem_per_block > per_block_limit {
        0
    } else {
        carveout
            .checked_div(smem_per_block)
            .map_or(block_limit, |blocks| blocks.min(u64::from(u32::MAX)) as u32)
    };

    let all = Limits {
        warps: warp_limit,
        registers: register_limit,
        shared_memory: smem_limit,
        blocks: block_limit,
    };
    let active_blocks = warp_limit
        .min(register_limit)
        .min(smem_limit)
        .min(block_limit);
    let mut limited_by = Limiters::default();
    for limiter in Limiter::ALL {
        let binds = all.get(limiter) == active_blocks;
        let counts = match limiter {
            Limiter::Registers => r != 0,
            Limiter::SharedMemory => smem_per_block > 0 || smem_limit == 0,
            _ => true,
        };
        if binds && counts {
            limited_by.insert(limiter);
        }
    }
    let active_warps = active_blocks * warps_per_block;

    let max_threads = arch.max_threads_per_sm;
    let textbook_threads = arch
        .regs_per_sm
        .checked_div(r)
        .map_or(max_threads, |threads| threads.min(max_threads));
    let warp_rounded = textbook_threads / 32 * 32;
    Ok(Occupancy {
        active_blocks_per_sm: active_blocks,
        active_warps_per_sm: active_warps,
        max_warps_per_sm: max_warps,
        occupancy: f64::from(active_warps) / f64::from(max_warps),
        limited_by,
        limits: all,
        warps_per_block,
        regs_per_warp: if r == 0 { 0 } else { regs_per_warp },
        regs_per_block,
        smem_per_block: smem_per_block as u32,
        carveout_bytes: carveout as u32,
        textbook: TextbookBound {
            threads: textbook_threads,
            warp_rounded_threads: warp_rounded,
            occupancy: f64::from(warp_rounded) / f64::from(max_threads),
        },
    })
}

/// [`nvidia_occupancy`] for many configurations on one architecture: what depends only on the
/// architecture and the register count (registers per warp, warps per SM from the register file, the
/// textbook bound, the carveout of each preference) is worked out once, so one evaluation is a few
/// table reads, one division by the block's warps and one by its shared memory. Every answer, error
/// included, equals [`nvidia_occupancy`]'s.
///
/// Worked number (sm_90): 48 registers → `⌈48 × 32 / 256⌉ × 256 = 1536` per warp →
/// `⌊16384 / 1536⌋ × 4 = 40` warps per SM, stored once; a 256-thread block (8 warps) then reads
/// `⌊40 / 8⌋ = 5` blocks.
///
/// ```
/// use warpdrill_core::engine::{Arch, KernelConfig, OccupancyCalculator};
/// let calc = OccupancyCalculator::new(&Arch::default_arch().nvidia.unwrap());
/// assert_eq!(calc.evaluate(&KernelConfig::new(256, 48)).unwrap().active_blocks_per_sm, 5);
/// ```
#[derive(Debug, Clone)]
pub struct OccupancyCalculator {
    limits: NvidiaLimits,
    max_warps: u32,
    /// Registers allocated per warp, by registers per thread.
    regs_per_warp: [u32; 256],
    /// Warps per SM the register file holds, by registers per thread.
    register_warps: [u32; 256],
    /// Textbook threads `min(regs_per_SM / r, max threads)`, by registers per thread.
    textbook_threads: [u32; 256],
    /// `active warps / max warps`, by active warps.
    occupancy_of: [f64; 65],
    /// Textbook occupancy by warp-rounded threads / 32.
    textbook_occupancy_of: [f64; 65],
    /// The preferred carveout in bytes, by percentage (index 101: the default).
    preferred_carveout: [u64; 102],
    /// `log2` of the shared-memory allocation unit.
    smem_unit_shift: u32,
    /// The allocation unit − 1.
    smem_unit_mask: u64,
    /// Largest shared memory per block without and with opt-in, plus the reserve.
    default_limit: u64,
    /// See `default_limit`.
    optin_limit: u64,
    /// `max_threads_per_block` when the tables hold, else 0.
    tabled_threads_per_block: u32,
    /// `max_regs_per_thread + 1` when the tables hold, else 0.
    tabled_regs_bound: u32,
    /// `⌈2^32 / k⌉` by shared memory per block in allocation units `k` (1 … the largest carveout's
    /// units): blocks by shared memory `⌊c / k⌋ = (c × this) >> 32` for a carveout of `c` units,
    /// exact as `c × k` stays far below `2^32`. Longer blocks fit no block.
    smem_reciprocal: Vec<u64>,
    /// Blocks per SM by shared memory under the default (largest) carveout, by the block's
    /// allocation units (0 units: the block limit).
    default_smem_limits: Vec<u16>,
    /// Blocks per SM allowed by the warps, by the registers, and by both and the block limit
    /// together, by `w × 256 + r` (warps per block `w` = 1–32, registers per thread `r`): both
    /// divisions, the 65 536-register block check and two minimums done once. Neighbouring
    /// register counts sit side by side, as a sweep over them reads them.
    warp_and_register_limits: Box<[[u16; 4]; 256 * 64]>,
    /// Requests of shared memory below this (static + dynamic bytes) fit a block under the default
    /// carveout: the larger of the default and opt-in limits, + 1, when those and the reserve are
    /// whole allocation units (every preset), else 0 (the general path decides).
    default_request_bound: u64,
}

impl OccupancyCalculator {
    /// Works out the tables for one architecture.
    pub fn new(limits: &NvidiaLimits) -> Self {
        let max_warps = limits.max_warps_per_sm();
        // The tables hold for figures of the size real GPUs have (every preset); others (a
        // hand-made `NvidiaLimits` with a 4 GB register unit) go to `nvidia_occupancy` each time,
        // so no table overflows or grows without bound.
        let carveout_max_kb = limits.carveout_kb.last().copied().unwrap_or(0);
        let tabled = limits.max_regs_per_thread <= 255
            && max_warps <= 64
            && limits.max_threads_per_block <= 1024
            && (1..=8192).contains(&limits.reg_alloc_unit)
            && limits.reg_sub_partitions > 0
            && limits.regs_per_sm <= 1 << 16
            && limits.max_blocks_per_sm <= 1024
            && limits.smem_alloc_unit.is_power_of_two()
            && limits.smem_reserved_per_block <= 1 << 20
            && carveout_max_kb <= 1 << 14;
        let mut calc = OccupancyCalculator {
            limits: *limits,
            max_warps,
            regs_per_warp: [0; 256],
            register_warps: [0; 256],
            textbook_threads: [0; 256],
            occupancy_of: [0.0; 65],
            textbook_occupancy_of: [0.0; 65],
            preferred_carveout: [0; 102],
            smem_unit_shift: limits.smem_alloc_unit.trailing_zeros(),
            smem_unit_mask: u64::from(limits.smem_alloc_unit.wrapping_sub(1)),
            default_limit: u64::from(limits.smem_default_per_block)
                + u64::from(limits.smem_reserved_per_block),
            optin_limit: u64::from(limits.smem_optin_per_block)
                + u64::from(limits.smem_reserved_per_block),
            tabled_threads_per_block: if tabled {
                limits.max_threads_per_block
            } else {
                0
            },
            tabled_regs_bound: if tabled {
                limits.max_regs_per_thread + 1
            } else {
                0
            },
            smem_reciprocal: Vec::new(),
            default_smem_limits: Vec::new(),
            warp_and_register_limits: Box::new([[0; 4]; 256 * 64]),
            default_request_bound: 0,
        };
        if !tabled {
            return calc;
        }
        let unit = u64::from(limits.reg_alloc_unit);
        let per_partition = limits.regs_per_sm / limits.reg_sub_partitions;
        for r in 0..256u32 {
            let per_warp = (div_ceil(u64::from(r) * 32, unit) * unit) as u32;
            calc.regs_per_warp[r as usize] = per_warp;
            calc.register_warps[r as usize] = per_partition
                .checked_div(per_warp)
                .map_or(0, |w| w * limits.reg_sub_partitions);
            calc.textbook_threads[r as usize] = limits
                .regs_per_sm
                .checked_div(r)
                .map_or(limits.max_threads_per_sm, |t| {
                    t.min(limits.max_threads_per_sm)
                });
        }
        for warps in 0..=64u32 {
            calc.occupancy_of[warps as usize] = f64::from(warps) / f64::from(max_warps);
            calc.textbook_occupancy_of[warps as usize] =
                f64::from(warps * 32) / f64::from(limits.max_threads_per_sm);
        }
        let sizes = limits.carveout_kb;
        let max_bytes = u64::from(*sizes.last().unwrap_or(&0)) * 1024;
        for p in 0..=100u64 {
            let wanted = div_ceil(p * max_bytes, 100);
            calc.preferred_carveout[p as usize] =
                supported_at_least(sizes, wanted).unwrap_or(max_bytes);
        }
        calc.preferred_carveout[101] = max_bytes;
        for r in 0..256u32 {
            for w in 1..33u32 {
                let warp_limit = max_warps / w;
                let register_limit = if r == 0 {
                    limits.max_blocks_per_sm
                } else if w.div_ceil(4) * 4 * calc.regs_per_warp[r as usize] > 65536 {
                    0
                } else {
                    calc.register_warps[r as usize] / w
                };
                let both = warp_limit.min(register_limit).min(limits.max_blocks_per_sm);
                calc.warp_and_register_limits[(w * 256 + r) as usize] =
                    [warp_limit, register_limit, both, 0]
                        .map(|l| u16::try_from(l).unwrap_or(u16::MAX));
            }
        }
        let max_units = max_bytes >> calc.smem_unit_shift;
        calc.default_smem_limits = (0..=max_units)
            .map(|k| {
                let blocks = (max_units)
                    .checked_div(k)
                    .unwrap_or(u64::from(limits.max_blocks_per_sm));
                u16::try_from(blocks).unwrap_or(u16::MAX)
            })
            .collect();
        calc.smem_reciprocal = (0..=max_units)
            .map(|k| if k == 0 { 0 } else { (1u64 << 32).div_ceil(k) })
            .collect();
        // With whole units, `⌈(request + reserve) / unit⌉ × unit` stays within a limit + reserve
        // exactly when the request stays within the limit (the default limit for requests up to
        // it, the opt-in limit above).
        let unit = limits.smem_alloc_unit;
        if [
            limits.smem_default_per_block,
            limits.smem_optin_per_block,
            limits.smem_reserved_per_block,
        ]
        .iter()
        .all(|bytes| bytes % unit == 0)
        {
            calc.default_request_bound = u64::from(
                limits
                    .smem_default_per_block
                    .max(limits.smem_optin_per_block),
            ) + 1;
        }
        calc
    }

    /// The calculator of `limits`: built once per preset and kept (a screen asks on every frame),
    /// built afresh for figures that are not a preset's.
    pub fn shared(limits: &NvidiaLimits) -> std::borrow::Cow<'static, OccupancyCalculator> {
        static PRESETS: std::sync::OnceLock<Vec<OccupancyCalculator>> = std::sync::OnceLock::new();
        let presets = PRESETS.get_or_init(|| {
            super::arch::ARCHS
                .iter()
                .filter_map(|arch| arch.nvidia.as_ref())
                .map(OccupancyCalculator::new)
                .collect()
        });
        match presets.iter().find(|calc| calc.limits == *limits) {
            Some(calc) => std::borrow::Cow::Borrowed(calc),
            None => std::borrow::Cow::Owned(OccupancyCalculator::new(limits)),
        }
    }

    /// The architecture's figures.
    pub fn limits(&self) -> &NvidiaLimits {
        &self.limits
    }

    /// The occupancy of `config`: equal to `nvidia_occupancy(limits, config)`.
    #[inline]
    pub fn evaluate(&self, config: &KernelConfig) -> Result<Occupancy> {
        let arch = &self.limits;
        let b = config.block_size;
        let r = config.regs_per_thread;
        let requested_smem = u64::from(config.static_smem) + u64::from(config.dynamic_smem);
        // One unsigned comparison each: `b − 1 < max` holds for 1 ≤ b ≤ max, and both bounds are
        // 0 when the tables do not hold (every configuration then goes to `nvidia_occupancy`).
        if b.wrapping_sub(1) >= self.tabled_threads_per_block
            || r >= self.tabled_regs_bound
            || requested_smem > 1 << 30
        {
            return nvidia_occupancy(arch, config);
        }
        let max_warps = self.max_warps;
        // 1 ≤ b ≤ 1024 here: no overflow.
        let warps_per_block = (b + 31) >> 5;
        let block_limit = arch.max_blocks_per_sm;
        // `r` ≤ 255 and `warps_per_block` ≤ 32 here (checked above): the masks only tell the
        // compiler so, and the table reads need no bounds check.
        let r_index = (r & 255) as usize;
        let [warp_limit, register_limit, warp_register_block_limit, _] = self
            .warp_and_register_limits[(warps_per_block & 63) as usize * 256 + r_index]
            .map(u32::from);
        let regs_per_warp = self.regs_per_warp[r_index];
        let regs_per_block = if r == 0 {
            0
        } else {
            warps_per_block * regs_per_warp
        };

        let reserved = u64::from(arch.smem_reserved_per_block);
        let shift = self.smem_unit_shift;
        let unit_mask = self.smem_unit_mask;
        let smem_per_block = (requested_smem + reserved + unit_mask) & !unit_mask;
        let max_bytes = self.preferred_carveout[101];
        let (carveout, smem_limit) = match config.carveout {
            // The default carveout is the maximum, so no block raises it: blocks by shared memory
            // are read from the table by the block's units (past its end no block fits).
            Carveout::Default if requested_smem < self.default_request_bound => {
                let units = ((requested_smem + reserved + unit_mask) >> shift) as usize;
                let blocks = self
                    .default_smem_limits
                    .get(units)
                    .map_or(0, |b| u32::from(*b));
                (max_bytes, blocks)
            }
            _ => {
                let per_block_limit = if requested_smem > u64::from(arch.smem_default_per_block) {
                    self.optin_limit
                } else {
                    self.default_limit
                };
                let preferred = match config.carveout {
                    Carveout::Default => max_bytes,
                    Carveout::Percent(p) => self.preferred_carveout[usize::from(p.min(100))],
                };
                let carveout = if smem_per_block > preferred {
                    supported_at_least(arch.carveout_kb, smem_per_block).unwrap_or(max_bytes)
                } else {
                    preferred
                };
                // Carveouts are whole kilobytes and blocks whole units: both counted in units
                // exactly.
                let smem_limit = if smem_per_block > per_block_limit {
                    0
                } else if smem_per_block == 0 {
                    block_limit
                } else {
                    let units = smem_per_block >> shift;
                    match self.smem_reciprocal.get(units as usize) {
                        Some(reciprocal) => (((carveout >> shift) * reciprocal) >> 32) as u32,
                        None => (carveout / smem_per_block) as u32,
                    }
                };
                (carveout, smem_limit)
            }
        };

        let active_blocks = warp_register_block_limit.min(smem_limit);
        let mut limited_by = Limiters::default();
        if warp_limit == active_blocks {
            limited_by.insert(Limiter::Warps);
        }
        if register_limit == active_blocks && r != 0 {
            limited_by.insert(Limiter::Registers);
        }
        if smem_limit == active_blocks && (smem_per_block > 0 || smem_limit == 0) {
            limited_by.insert(Limiter::SharedMemory);
        }
        if block_limit == active_blocks {
            limited_by.insert(Limiter::Blocks);
        }
        let active_warps = active_blocks * warps_per_block;
        let textbook_threads = self.textbook_threads[r as usize];
        let warp_rounded = textbook_threads / 32 * 32;
        Ok(Occupancy {
            active_blocks_per_sm: active_blocks,
            active_warps_per_sm: active_warps,
            max_warps_per_sm: max_warps,
            occupancy: self.occupancy_of[(active_warps as usize).min(64)],
            limited_by,
            limits: Limits {
                warps: warp_limit,
                registers: register_limit,
                shared_memory: smem_limit,
                blocks: block_limit,
            },
            warps_per_block,
            regs_per_warp: if r == 0 { 0 } else { regs_per_warp },
            regs_per_block,
            smem_per_block: smem_per_block as u32,
            carveout_bytes: carveout as u32,
            textbook: TextbookBound {
                threads: textbook_threads,
                warp_rounded_threads: warp_rounded,
                occupancy: self.textbook_occupancy_of[(warp_rounded as usize / 32).min(64)],
            },
        })
    }
}

/// The smallest supported carveout (sizes in KB) of at least `bytes`.
fn supported_at_least(sizes_kb: &[u32], bytes: u64) -> Option<u64> {
    sizes_kb
        .iter()
        .map(|kb| u64::from(*kb) * 1024)
        .find(|size| *size >= bytes)
}

/// AMD waves per SIMD limited by VGPRs (engine notes §6).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AmdWaves {
    /// VGPRs allocated per lane: rounded up to the granule.
    pub vgprs_allocated: u32,
    /// `min(max(total / allocated, 1), max_waves)`.
    pub waves_per_simd: u32,
    /// The target's maximum.
    pub max_waves_per_simd: u32,
    /// Waves per compute unit (4 SIMDs).
    pub waves_per_cu: u32,
    /// `waves / max`, 0–1.
    pub occupancy: f64,
}

/// Waves per SIMD for a kernel using `vgprs` VGPRs per lane.
///
/// Worked number: 128 VGPRs on `gfx942` (512 VGPRs, granule 8, max 8) → 4 waves per SIMD, 50 %.
pub fn amd_waves(arch: &Arch, vgprs: u32) -> Result<AmdWaves> {
    let Some(AmdLimits {
        max_waves_per_simd,
        vgpr_granule,
        vgprs: total,
        simds_per_cu,
        ..
    }) = arch.amd
    else {
        return Err(EngineError::Unsupported {
            what: "AMD waves per SIMD",
            arch: arch.key,
            hint: "choose gfx908, gfx90a, gfx942, rdna2 or rdna3",
        });
    };
    if vgprs == 0 || vgprs > total {
        return Err(EngineError::range(
            "VGPRs per lane",
            vgprs,
            format!("1 to {total}"),
        ));
    }
    let allocated = vgprs.div_ceil(vgpr_granule) * vgpr_granule;
    let waves = (total / allocated).max(1).min(max_waves_per_simd);
    Ok(AmdWaves {
        vgprs_allocated: allocated,
        waves_per_simd: waves,
        max_waves_per_simd,
        waves_per_cu: waves * simds_per_cu,
        occupancy: f64::from(waves) / f64::from(max_waves_per_simd),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hopper(config: KernelConfig) -> Occupancy {
        occupancy(Arch::default_arch(), &config).unwrap()
    }

    #[test]
    fn forty_eight_registers_at_256_threads() {
        let o = hopper(KernelConfig::new(256, 48));
        assert_eq!(o.active_blocks_per_sm, 5);
        assert_eq!(o.active_warps_per_sm, 40);
        assert_eq!(o.occupancy, 0.625);
        assert!(o.limited_by.contains(Limiter::Registers));
        assert_eq!(o.regs_per_warp, 1536);
        assert_eq!(o.textbook.threads, 1365);
        assert_eq!(o.textbook.warp_rounded_threads, 1344);
        assert!((o.textbook.occupancy - 0.65625).abs() < 1e-12);
    }

    #[test]
    fn unlimited_registers_and_full_occupancy() {
        let o = hopper(KernelConfig::new(256, 0));
        assert_eq!(o.active_blocks_per_sm, 8);
        assert_eq!(o.occupancy, 1.0);
        assert_eq!(
            o.limited_by.iter().collect::<Vec<_>>(),
            vec![Limiter::Warps]
        );
        let small = hopper(KernelConfig::new(32, 32));
        assert_eq!(small.active_blocks_per_sm, 32);
        assert!(small.limited_by.contains(Limiter::Blocks));
    }

    #[test]
    fn shared_memory_with_reserve_and_carveout() {
        let mut config = KernelConfig::new(128, 32);
        config.dynamic_smem = 48 * 1024;
        let o = hopper(config);
        // 48 KB + 1 KB reserved = 49 KB per block; 228 KB / 49 KB = 4 blocks.
        assert_eq!(o.smem_per_block, 49 * 1024);
        assert_eq!(o.active_blocks_per_sm, 4);
        assert!(o.limited_by.contains(Limiter::SharedMemory));
        config.carveout = Carveout::Percent(0);
        let raised = hopper(config);
        assert_eq!(raised.carveout_bytes, 64 * 1024);
        assert_eq!(raised.active_blocks_per_sm, 1);
        config.dynamic_smem = 300 * 1024;
        assert_eq!(hopper(config).active_blocks_per_sm, 0);
    }

    #[test]
    fn out_of_range_inputs_are_named() {
        for (block, regs, name) in [
            (0, 32, "block size"),
            (1025, 32, "block size"),
            (256, 300, "registers"),
        ] {
            let err = occupancy(Arch::default_arch(), &KernelConfig::new(block, regs)).unwrap_err();
            assert!(err.to_string().contains(name), "{err}");
        }
        assert!(Carveout::from_pct(101).is_err());
        assert!(occupancy(Arch::parse("kepler").unwrap(), &KernelConfig::new(256, 32)).is_err());
    }

    #[test]
    fn the_calculator_equals_the_rule_even_on_outlandish_figures() {
        static HUGE: [u32; 2] = [64, u32::MAX];
        let mut limits = Arch::default_arch().nvidia.unwrap();
        limits.reg_alloc_unit = u32::MAX;
        limits.carveout_kb = &HUGE;
        let calc = OccupancyCalculator::new(&limits);
        for config in [KernelConfig::new(256, 48), KernelConfig::new(1024, 255)] {
            assert_eq!(calc.evaluate(&config), nvidia_occupancy(&limits, &config));
        }
        let calc = OccupancyCalculator::new(&Arch::default_arch().nvidia.unwrap());
        assert_eq!(
            calc.evaluate(&KernelConfig::new(256, 48))
                .unwrap()
                .occupancy,
            0.625
        );
        assert!(calc.evaluate(&KernelConfig::new(0, 48)).is_err());
        assert!(calc.evaluate(&KernelConfig::new(256, 256)).is_err());
    }

    #[test]
    fn amd_waves_from_vgprs() {
        let mi300 = Arch::parse("gfx942").unwrap();
        let w = amd_waves(mi300, 128).unwrap();
        assert_eq!((w.vgprs_allocated, w.waves_per_simd), (128, 4));
        assert_eq!(amd_waves(mi300, 20).unwrap().waves_per_simd, 8);
        let rdna3 = Arch::parse("rdna3").unwrap();
        assert_eq!(amd_waves(rdna3, 100).unwrap().vgprs_allocated, 120);
        assert_eq!(amd_waves(rdna3, 100).unwrap().waves_per_simd, 12);
    }

    #[test]
    fn a_launch_no_sm_holds_says_which_limit_refuses_it() {
        let arch = Arch::default_arch();
        let limits = arch.nvidia.unwrap();
        assert_eq!(register_warps(&limits, 1536), 40, "48 registers a thread");
        let fits = occupancy(arch, &KernelConfig::new(256, 48)).unwrap();
        assert!(launch_refusals(&limits, &fits).is_empty());
        // 9 warps of 5632 registers: 12 × 5632 = 67 584 for the hardware's check.
        let regs = occupancy(arch, &KernelConfig::new(257, 169)).unwrap();
        assert_eq!(
            launch_refusals(&limits, &regs),
            vec![LaunchRefusal::RegisterFile {
                needed: 67_584,
                available: 65_536
            }]
        );
        let mut big = KernelConfig::new(32, 0);
        big.dynamic_smem = 300 * 1024;
        let smem = occupancy(arch, &big).unwrap();
        assert!(matches!(
            launch_refusals(&limits, &smem)[..],
            [LaunchRefusal::SharedMemory { limit, .. }] if limit == 228 * 1024
        ));
    }
}
