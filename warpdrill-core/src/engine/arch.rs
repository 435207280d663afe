//! Architecture presets: the figures of every GPU family the tutor teaches.
//!
//! NVIDIA figures are those of NVIDIA's occupancy calculator (engine notes §3); AMD figures come from
//! LLVM's AMDGPU backend (§6). `kepler` and `pascal` are a *teaching mode*: global loads are counted in
//! 128-byte lines, as the L1-cached loads of Fermi/Kepler/Pascal were.

use super::error::{EngineError, Result};
use serde::Serialize;

/// Who made the GPU: decides the warp name (warp / wavefront) and which occupancy model applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    /// NVIDIA: 32-lane warps.
    Nvidia,
    /// AMD: 64-lane wavefronts on GCN/CDNA, 32-lane on RDNA.
    Amd,
}

impl Vendor {
    /// The name messages select their words by: `nvidia` or `amd` (AMD calls the 64-lane warp a
    /// wavefront, so its LDS serializes in "passes", not "wavefronts").
    pub fn key(self) -> &'static str {
        match self {
            Vendor::Nvidia => "nvidia",
            Vendor::Amd => "amd",
        }
    }
}

/// The unit in which global memory is fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Granularity {
    /// 32-byte sectors (Pascal, sm_60, and later).
    Sector,
    /// 128-byte cache lines (Fermi/Kepler/Pascal L1 teaching mode; AMD cache lines).
    Line,
}

impl Granularity {
    /// Bytes in one unit: 32 for a sector, 128 for a line.
    pub const fn bytes(self) -> i64 {
        match self {
            Granularity::Sector => 32,
            Granularity::Line => 128,
        }
    }

    /// The unit's name, plural, as a learner reads it.
    pub const fn plural(self) -> &'static str {
        match self {
            Granularity::Sector => "sectors",
            Granularity::Line => "lines",
        }
    }
}

/// NVIDIA occupancy figures of one compute capability (engine notes §3 table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NvidiaLimits {
    /// Compute capability as `major * 10 + minor` (90 for 9.0).
    pub cc: u32,
    /// Maximum resident threads per SM (2048 on 9.0).
    pub max_threads_per_sm: u32,
    /// Maximum resident blocks per SM (32 on 9.0).
    pub max_blocks_per_sm: u32,
    /// 32-bit registers per SM (65 536).
    pub regs_per_sm: u32,
    /// Maximum registers per thread (255).
    pub max_regs_per_thread: u32,
    /// Registers are allocated per warp in multiples of this (256).
    pub reg_alloc_unit: u32,
    /// Register file sub-partitions (4): a warp's registers live in one of them.
    pub reg_sub_partitions: u32,
    /// Largest shared-memory carveout per SM, bytes (228 KB on 9.0).
    pub smem_per_sm_max: u32,
    /// Largest shared memory one block may opt in to, bytes (227 KB on 9.0).
    pub smem_optin_per_block: u32,
    /// Shared memory per block without opt-in (48 KB).
    pub smem_default_per_block: u32,
    /// Shared memory the system reserves per block (1 KB from 8.0 on).
    pub smem_reserved_per_block: u32,
    /// Shared memory allocation unit (256 B before 8.0, 128 B from 8.0).
    pub smem_alloc_unit: u32,
    /// Supported carveout sizes in KB, ascending.
    pub carveout_kb: &'static [u32],
    /// Maximum threads per block (1024).
    pub max_threads_per_block: u32,
    /// Whether the barrier limit exists (9.0 and later); one barrier per block never binds.
    pub barrier_limit: bool,
}

impl NvidiaLimits {
    /// Maximum resident warps per SM (`max_threads_per_sm / 32`: 64 on 9.0).
    pub const fn max_warps_per_sm(&self) -> u32 {
        self.max_threads_per_sm / 32
    }
}

/// AMD wave-occupancy figures (engine notes §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AmdLimits {
    /// Maximum waves per SIMD.
    pub max_waves_per_simd: u32,
    /// VGPRs are allocated in multiples of this.
    pub vgpr_granule: u32,
    /// VGPRs per SIMD lane available to waves.
    pub vgprs: u32,
    /// SIMDs per compute unit.
    pub simds_per_cu: u32,
    /// LDS (shared memory) per compute unit, bytes.
    pub lds_bytes_per_cu: u32,
}

/// One architecture preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Arch {
    /// Stable key used on the command line and in content (`sm_90`).
    pub key: &'static str,
    /// Family name (`Hopper`).
    pub family: &'static str,
    /// Example GPUs (`H100, H200`).
    pub examples: &'static str,
    /// Vendor.
    pub vendor: Vendor,
    /// Lanes per warp / wavefront.
    pub warp_size: u32,
    /// Unit of global-memory fetches.
    pub granularity: Granularity,
    /// Occupancy figures, for NVIDIA presets that model occupancy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nvidia: Option<NvidiaLimits>,
    /// Wave-occupancy figures, for AMD presets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amd: Option<AmdLimits>,
    #[serde(skip)]
    aliases: &'static [&'static str],
}

const KB: u32 = 1024;
const CARVEOUT_70: &[u32] = &[0, 8, 16, 32, 64, 96];
const CARVEOUT_75: &[u32] = &[32, 64];
const CARVEOUT_80: &[u32] = &[0, 8, 16, 32, 64, 100, 132, 164];
const CARVEOUT_86: &[u32] = &[0, 8, 16, 32, 64, 100];
const CARVEOUT_90: &[u32] = &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228];

#[allow(clippy::too_many_arguments)]
const fn nv(
    cc: u32,
    max_threads_per_sm: u32,
    max_blocks_per_sm: u32,
    smem_max_kb: u32,
    optin_kb: u32,
    reserved: u32,
    unit: u32,
    carveout_kb: &'static [u32],
) -> Option<NvidiaLimits> {
    Some(NvidiaLimits {
        cc,
        max_threads_per_sm,
        max_blocks_per_sm,
        regs_per_sm: 65536,
        max_regs_per_thread: 255,
        reg_alloc_unit: 256,
        reg_sub_partitions: 4,
        smem_per_sm_max: smem_max_kb * KB,
        smem_optin_per_block: optin_kb * KB,
        smem_default_per_block: 48 * KB,
        smem_reserved_per_block: reserved,
        smem_alloc_unit: unit,
        carveout_kb,
        max_threads_per_block: 1024,
        barrier_limit: cc >= 90,
    })
}

const fn amd(max_waves: u32, granule: u32, vgprs: u32) -> Option<AmdLimits> {
    Some(AmdLimits {
        max_waves_per_simd: max_waves,
        vgpr_granule: granule,
        vgprs,
        simds_per_cu: 4,
        lds_bytes_per_cu: 64 * KB,
    })
}

const fn nvidia_arch(
    key: &'static str,
    family: &'static str,
    examples: &'static str,
    limits: Option<NvidiaLimits>,
    aliases: &'static [&'static str],
) -> Arch {
    Arch {
        key,
        family,
        examples,
        vendor: Vendor::Nvidia,
        warp_size: 32,
        granularity: Granularity::Sector,
        nvidia: limits,
        amd: None,
        aliases,
    }
}

/// Every preset, in the order the explorer cycles through them.
pub const ARCHS: &[Arch] = &[
    nvidia_arch(
        "sm_70",
        "Volta",
        "V100",
        nv(70, 2048, 32, 96, 96, 0, 256, CARVEOUT_70),
        &["sm70", "70", "7.0", "compute70", "volta", "v100", "titanv"],
    ),
    nvidia_arch(
        "sm_75",
        "Turing",
        "T4, RTX 2080",
        nv(75, 1024, 16, 64, 64, 0, 256, CARVEOUT_75),
        &[
            "sm75",
            "75",
            "7.5",
            "turing",
            "t4",
            "rtx2080",
            "rtx2080ti",
            "rtx2070",
        ],
    ),
    nvidia_arch(
        "sm_80",
        "Ampere, data centre",
        "A100",
        nv(80, 2048, 32, 164, 163, KB, 128, CARVEOUT_80),
        &["sm80", "80", "8.0", "a100", "a30"],
    ),
    nvidia_arch(
        "sm_86",
        "Ampere, consumer",
        "RTX 3090, A40",
        nv(86, 1536, 16, 100, 99, KB, 128, CARVEOUT_86),
        &[
            "sm86", "86", "8.6", "rtx3090", "rtx3080", "rtx3070", "a40", "a10", "a6000", "rtxa6000",
        ],
    ),
    nvidia_arch(
        "sm_89",
        "Ada Lovelace",
        "L4, RTX 4090",
        nv(89, 1536, 24, 100, 99, KB, 128, CARVEOUT_86),
        &[
            "sm89",
            "89",
            "8.9",
            "ada",
            "adalovelace",
            "l4",
            "l40",
            "l40s",
            "rtx4090",
            "rtx4080",
            "rtx4070",
        ],
    ),
    nvidia_arch(
        "sm_90",
        "Hopper",
        "H100, H200",
        nv(90, 2048, 32, 228, 227, KB, 128, CARVEOUT_90),
        &[
            "sm90", "sm90a", "90", "9.0", "hopper", "h100", "h200", "gh200", "h800",
        ],
    ),
    nvidia_arch(
        "sm_100",
        "Blackwell, data centre",
        "B200",
        nv(100, 2048, 32, 228, 227, KB, 128, CARVEOUT_90),
        &[
            "sm100",
            "sm100a",
            "100",
            "10.0",
            "blackwell",
            "b200",
            "b100",
            "gb200",
        ],
    ),
    nvidia_arch(
        "sm_120",
        "Blackwell, consumer",
        "RTX 5090",
        nv(120, 1536, 24, 100, 99, KB, 128, CARVEOUT_86),
        &["sm120", "120", "12.0", "rtx5090", "rtx5080", "rtx5070"],
    ),
    Arch {
        key: "kepler",
        family: "Fermi/Kepler, 128-byte lines",
        examples: "GTX 580, K40, K80",
        vendor: Vendor::Nvidia,
        warp_size: 32,
        granularity: Granularity::Line,
        nvidia: None,
        amd: None,
        aliases: &[
            "fermi", "sm35", "sm37", "3.5", "3.7", "sm20", "2.0", "k40", "k80", "gtx580",
        ],
    },
    Arch {
        key: "pascal",
        family: "Pascal, 128-byte lines",
        examples: "P100, GTX 1080",
        vendor: Vendor::Nvidia,
        warp_size: 32,
        granularity: Granularity::Line,
        nvidia: None,
        amd: None,
        aliases: &["sm60", "sm61", "6.0", "6.1", "p100", "gtx1080", "gtx1080ti"],
    },
    Arch {
        key: "gfx908",
        family: "AMD CDNA, wave64",
        examples: "MI100",
        vendor: Vendor::Amd,
        warp_size: 64,
        granularity: Granularity::Line,
        nvidia: None,
        amd: amd(10, 4, 256),
        aliases: &["mi100", "cdna", "cdna1", "gfx9"],
    },
    Arch {
        key: "gfx90a",
        family: "AMD CDNA2, wave64",
        examples: "MI210, MI250X",
        vendor: Vendor::Amd,
        warp_size: 64,
        granularity: Granularity::Line,
        nvidia: None,
        amd: amd(8, 8, 512),
        aliases: &["mi200", "mi210", "mi250", "mi250x", "cdna2"],
    },
    Arch {
        key: "gfx942",
        family: "AMD CDNA3, wave64",
        examples: "MI300X, MI300A",
        vendor: Vendor::Amd,
        warp_size: 64,
        granularity: Granularity::Line,
        nvidia: None,
        amd: amd(8, 8, 512),
        aliases: &["mi300", "mi300x", "mi300a", "mi325x", "cdna3"],
    },
    Arch {
        key: "rdna2",
        family: "AMD RDNA2, wave32",
        examples: "RX 6900 XT",
        vendor: Vendor::Amd,
        warp_size: 32,
        granularity: Granularity::Line,
        nvidia: None,
        amd: amd(16, 16, 1024),
        aliases: &["gfx1030", "rx6900xt", "rx6800xt", "gfx103"],
    },
    Arch {
        key: "rdna3",
        family: "AMD RDNA3 (Navi 31/32), wave32",
        examples: "RX 7900 XTX, RX 7800 XT",
        vendor: Vendor::Amd,
        warp_size: 32,
        granularity: Granularity::Line,
        nvidia: None,
        amd: amd(16, 24, 1536),
        // 1536 VGPRs per SIMD is gfx1100/gfx1101's; Navi 33 (gfx1102) has 1024, so the family
        // name `gfx11` names no preset.
        aliases: &[
            "gfx1100",
            "gfx1101",
            "rx7900xtx",
            "rx7900xt",
            "rx7900",
            "rx7800xt",
            "rx7700xt",
        ],
    },
];

/// The preset used when none is named: Hopper (`sm_90`, H100/H200).
pub const DEFAULT_ARCH: &str = "sm_90";

fn normalize(name: &str) -> String {
    let lower = name.trim().to_ascii_lowercase();
    let stripped = ["nvidia", "geforce", "tesla", "radeon", "instinct", "amd"]
        .iter()
        .fold(lower, |s, word| s.replace(word, ""));
    stripped
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-')
        .collect()
}

impl Arch {
    /// Finds a preset by key (`sm_90`), compute capability (`9.0`), family or GPU name (`H100`,
    /// `RTX 4090`), case and spacing ignored.
    ///
    /// ```
    /// use warpdrill_core::engine::Arch;
    /// assert_eq!(Arch::parse("RTX 4090").unwrap().key, "sm_89");
    /// assert_eq!(Arch::parse("9.0").unwrap().key, "sm_90");
    /// ```
    pub fn parse(name: &str) -> Result<&'static Arch> {
        let wanted = normalize(name);
        if wanted.is_empty() {
            return Err(EngineError::UnknownArch(name.to_string()));
        }
        ARCHS
            .iter()
            .find(|arch| normalize(arch.key) == wanted || arch.aliases.contains(&wanted.as_str()))
            .ok_or_else(|| EngineError::UnknownArch(name.trim().to_string()))
    }

    /// The default preset (`sm_90`).
    pub fn default_arch() -> &'static Arch {
        &ARCHS[5]
    }

    /// The preset after this one in [`ARCHS`], wrapping around (the explorer's `a` key).
    pub fn next(&self) -> &'static Arch {
        let index = ARCHS.iter().position(|a| a.key == self.key).unwrap_or(0);
        &ARCHS[(index + 1) % ARCHS.len()]
    }

    /// Compute capability as text (`9.0`), for NVIDIA presets that model occupancy.
    pub fn compute_capability(&self) -> Option<String> {
        self.nvidia
            .map(|limits| format!("{}.{}", limits.cc / 10, limits.cc % 10))
    }

    /// A one-line label: `sm_90 (Hopper: H100, H200)`.
    pub fn label(&self) -> String {
        format!("{} ({}: {})", self.key, self.family, self.examples)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_by_key_capability_and_gpu_name() {
        for (name, key) in [
            ("sm_70", "sm_70"),
            ("7.0", "sm_70"),
            ("sm_75", "sm_75"),
            ("8.0", "sm_80"),
            ("A100", "sm_80"),
            ("sm_86", "sm_86"),
            ("RTX 4090", "sm_89"),
            ("sm_90", "sm_90"),
            ("H100", "sm_90"),
            ("NVIDIA H200", "sm_90"),
            ("9.0", "sm_90"),
            ("10.0", "sm_100"),
            ("sm_120", "sm_120"),
            ("kepler", "kepler"),
            ("pascal", "pascal"),
            ("gfx90a", "gfx90a"),
            ("MI300X", "gfx942"),
            ("rdna3", "rdna3"),
        ] {
            assert_eq!(Arch::parse(name).map(|a| a.key), Ok(key), "{name}");
        }
        assert!(matches!(
            Arch::parse("sm_99"),
            Err(EngineError::UnknownArch(_))
        ));
        assert!(Arch::parse("").is_err());
    }

    #[test]
    fn table_figures_match_the_notes() {
        let h = Arch::parse("sm_90").unwrap().nvidia.unwrap();
        assert_eq!(h.max_warps_per_sm(), 64);
        assert_eq!(h.smem_per_sm_max, 228 * 1024);
        let t4 = Arch::parse("sm_75").unwrap().nvidia.unwrap();
        assert_eq!((t4.max_warps_per_sm(), t4.max_blocks_per_sm), (32, 16));
        assert_eq!(Arch::parse("gfx942").unwrap().warp_size, 64);
        assert_eq!(Arch::parse("rdna3").unwrap().warp_size, 32);
        assert_eq!(Arch::default_arch().key, DEFAULT_ARCH);
    }

    #[test]
    fn next_cycles_through_every_preset() {
        let mut arch = Arch::default_arch();
        for _ in 0..ARCHS.len() {
            arch = arch.next();
        }
        assert_eq!(arch.key, DEFAULT_ARCH);
    }
}
