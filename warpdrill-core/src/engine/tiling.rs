//! Tiled matrix multiply (engine notes §4): global reads naive vs tiled, shared-memory footprint.

use super::arch::Arch;
use super::error::{EngineError, Result};
use super::occupancy::{Carveout, KernelConfig, Occupancy, occupancy, shared_memory_blocks};
use serde::Serialize;

/// A square tiled matrix multiply `C = A × B` of `n × n` matrices with `tile × tile` tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TilingInput {
    /// Matrix size N.
    pub n: u64,
    /// Tile size T (the block is T × T threads).
    pub tile: u64,
    /// Bytes per element.
    pub elem_bytes: u32,
}

/// What tiling buys.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tiling {
    /// `N² × 2N` element reads without tiling.
    pub naive_reads: u64,
    /// `(N/T)² blocks × (N/T) steps × 2T²` element reads with tiling (N/T rounded up).
    pub tiled_reads: u64,
    /// `naive / tiled` (= T when T divides N).
    pub reduction_factor: f64,
    /// `2 × T² × E`: one tile of A and one of B.
    pub smem_bytes_per_block: u64,
    /// Tiles per dimension, `ceil(N / T)`.
    pub tiles_per_dim: u64,
    /// FLOPs of the multiply, `2N³`.
    pub flops: u64,
    /// FLOP per byte read from global memory without tiling (`1 / E`: 0.25 for floats).
    pub naive_intensity: f64,
    /// FLOP per byte with tiling (`T / E`).
    pub tiled_intensity: f64,
    /// Resident blocks per SM by the full occupancy rule of §3 (block of `T²` threads, the footprint
    /// as shared memory): 0 when `T² > 1024` (with an architecture).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks_per_sm: Option<u32>,
    /// Blocks per SM by shared memory alone, `floor(smem per SM / footprint)` (with an architecture).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smem_blocks_per_sm: Option<u32>,
    /// The full occupancy of the T × T-thread block (with an architecture and T² ≤ 1024).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occupancy: Option<Occupancy>,
}

/// Computes the tiling figures; with an architecture, also blocks per SM and occupancy by the full rule
/// (block of `T²` threads, `regs_per_thread` registers — 0 = not limiting — and the footprint as
/// static shared memory), and blocks per SM by shared memory alone.
///
/// Worked number: N = 1024, T = 16, floats → reads drop 16×, 2 KB of shared memory per block,
/// intensity 0.25 → 4 FLOP/B.
pub fn tiling(input: &TilingInput, arch: Option<&Arch>, regs_per_thread: u32) -> Result<Tiling> {
    let TilingInput {
        n,
        tile,
        elem_bytes,
    } = *input;
    if !(1..=1 << 20).contains(&n) {
        return Err(EngineError::range("matrix size N", n, "1 to 1048576"));
    }
    if tile == 0 || tile > n {
        return Err(EngineError::range(
            "tile size",
            tile,
            format!("1 to N ({n})"),
        ));
    }
    if !super::access::ELEM_SIZES.contains(&elem_bytes) {
        return Err(EngineError::range(
            "element size",
            elem_bytes,
            "one of 1, 2, 4, 8, 16 bytes",
        ));
    }
    let overflow = || EngineError::Overflow {
        what: "the read count".into(),
    };
    let naive_reads = n
        .checked_mul(n)
        .and_then(|x| x.checked_mul(2 * n))
        .ok_or_else(overflow)?;
    let tiles = n.div_ceil(tile);
    let tiled_reads = tiles
        .checked_pow(3)
        .and_then(|x| x.checked_mul(2 * tile * tile))
        .ok_or_else(overflow)?;
    let smem = 2 * tile * tile * u64::from(elem_bytes);
    let flops = 2 * n * n * n;
    let e = f64::from(elem_bytes);
    let (blocks_per_sm, smem_blocks_per_sm, occupancy) =
        match arch.and_then(|a| a.nvidia.map(|l| (a, l))) {
            Some((arch, limits)) => {
                let by_smem = shared_memory_blocks(&limits, smem, Carveout::Default);
                let threads = tile * tile;
                let occ = if threads <= u64::from(limits.max_threads_per_block)
                    && smem <= u64::from(u32::MAX)
                {
                    let mut config = KernelConfig::new(threads as u32, regs_per_thread);
                    config.static_smem = smem as u32;
                    Some(occupancy(arch, &config)?)
                } else {
                    None
                };
                (
                    Some(occ.map_or(0, |o| o.active_blocks_per_sm)),
                    Some(by_smem),
                    occ,
                )
            }
            None => (None, None, None),
        };
    Ok(Tiling {
        naive_reads,
        tiled_reads,
        reduction_factor: naive_reads as f64 / tiled_reads as f64,
        smem_bytes_per_block: smem,
        tiles_per_dim: tiles,
        flops,
        naive_intensity: flops as f64 / (naive_reads as f64 * e),
        tiled_intensity: flops as f64 / (tiled_reads as f64 * e),
        blocks_per_sm,
        smem_blocks_per_sm,
        occupancy,
    })
}

/// Traffic (elements read) of an `M × N × K` multiply with `bm × bn` block tiles:
/// `M·N·K·(1/bn + 1/bm)`; the reduction factor against naive `2MNK` is `2·bm·bn / (bm + bn)`.
pub fn rectangular_traffic(m: u64, n: u64, k: u64, bm: u64, bn: u64) -> Result<(f64, f64)> {
    if bm == 0 || bn == 0 {
        return Err(EngineError::range(
            "block tile",
            format!("{bm}×{bn}"),
            "at least 1×1",
        ));
    }
    let mnk = m as f64 * n as f64 * k as f64;
    let traffic = mnk * (1.0 / bn as f64 + 1.0 / bm as f64);
    let factor = 2.0 * bm as f64 * bn as f64 / (bm + bn) as f64;
    Ok((traffic, factor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_16_of_1024_floats() {
        let t = tiling(
            &TilingInput {
                n: 1024,
                tile: 16,
                elem_bytes: 4,
            },
            Some(Arch::default_arch()),
            32,
        )
        .unwrap();
        assert_eq!(t.naive_reads, 2 * 1024u64.pow(3));
        assert_eq!(t.tiled_reads, 2 * 1024u64.pow(3) / 16);
        assert_eq!(t.reduction_factor, 16.0);
        assert_eq!(t.smem_bytes_per_block, 2048);
        assert_eq!(t.naive_intensity, 0.25);
        assert_eq!(t.tiled_intensity, 4.0);
        // 2 KB of tiles + the 1 KB per-block reserve = 3 KB; 228 KB / 3 KB = 76 blocks.
        assert_eq!(t.smem_blocks_per_sm, Some(76));
        assert_eq!(
            t.blocks_per_sm,
            Some(8),
            "256-thread blocks: the warp limit binds"
        );
        assert_eq!(t.occupancy.unwrap().active_blocks_per_sm, 8);
        let wide = TilingInput {
            n: 1024,
            tile: 64,
            elem_bytes: 4,
        };
        let t = tiling(&wide, Some(Arch::default_arch()), 0).unwrap();
        assert_eq!(
            t.blocks_per_sm,
            Some(0),
            "a 64×64-thread block cannot launch"
        );
    }

    #[test]
    fn rectangular_tiles() {
        let (traffic, factor) = rectangular_traffic(1024, 1024, 1024, 128, 64).unwrap();
        assert_eq!(factor, 2.0 * 128.0 * 64.0 / 192.0);
        assert!((traffic - 1024f64.powi(3) * (1.0 / 64.0 + 1.0 / 128.0)).abs() < 1.0);
    }

    #[test]
    fn bad_sizes_are_named() {
        let input = TilingInput {
            n: 64,
            tile: 0,
            elem_bytes: 4,
        };
        assert!(
            tiling(&input, None, 0)
                .unwrap_err()
                .to_string()
                .contains("tile size")
        );
    }
}
