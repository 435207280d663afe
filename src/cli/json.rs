//! The JSON shape of every calculator answer, shared by `calc --json` and `calc batch`.

use crate::engine::{AmdWaves, Arch, BankAnalysis, Coalescing, Occupancy, Roofline, Tiling};
use serde_json::{Value, json};

/// `sectors`, `lines`, `requests`, `bytes_requested`, `bytes_fetched`, `efficiency`, the `op`
/// (`load` or `store`: the same sectors), plus the fetch unit and, with `detail`, the segments and lane → segment map.
pub fn coalescing(arch: &Arch, c: &Coalescing, detail: bool) -> Value {
    let mut value = json!({
        "kind": "coalescing",
        "op": c.op,
        "arch": arch.key,
        "granularity": c.granularity,
        "active_lanes": c.active_lanes,
        "sectors": c.sectors,
        "lines": c.lines,
        "transactions": c.transactions(),
        "requests": c.requests,
        "bytes_requested": c.bytes_requested,
        "bytes_fetched": c.bytes_fetched,
        "efficiency": c.efficiency,
    });
    if detail {
        value["segments"] = json!(c.segments);
        value["lane_segment"] = json!(c.lane_segment);
    }
    value
}

/// `wavefronts`, `ideal_wavefronts`, `bank_conflicts`, `conflict_degree`, `bank_of_lane`, the `op`
/// (8- and 16-byte stores never pair-merge: `pair_merge` is then false), plus, with
/// `detail`, the phases and the words each bank delivers.
pub fn banks(arch: &Arch, b: &BankAnalysis, detail: bool) -> Value {
    let mut value = json!({
        "kind": "banks",
        "op": b.op,
        "arch": arch.key,
        "wavefronts": b.wavefronts,
        "ideal_wavefronts": b.ideal_wavefronts,
        "bank_conflicts": b.bank_conflicts,
        "conflict_degree": b.conflict_degree,
        "bank_of_lane": b.bank_of_lane,
        "phase_lanes": b.phase_lanes,
        "pair_merge": b.merged,
        "broadcast": b.broadcast,
    });
    if detail {
        value["phases"] = json!(b.phases);
    }
    value
}

/// `active_blocks_per_sm`, `active_warps_per_sm`, `max_warps_per_sm`, `occupancy`, `limited_by`,
/// `limits`, the allocations and the textbook bound.
pub fn occupancy(arch: &Arch, o: &Occupancy) -> Value {
    json!({
        "kind": "occupancy",
        "arch": arch.key,
        "active_blocks_per_sm": o.active_blocks_per_sm,
        // False when not one block fits on an SM: the launch fails (not an occupancy of 0), and
        // `cannot_launch` says why (in English, as every JSON text is).
        "launchable": o.active_blocks_per_sm > 0,
        "cannot_launch": super::calc::cannot_launch(arch, o, crate::i18n::Lang::En),
        "active_warps_per_sm": o.active_warps_per_sm,
        "max_warps_per_sm": o.max_warps_per_sm,
        "occupancy": o.occupancy,
        "limited_by": o.limited_by,
        "limits": o.limits,
        "warps_per_block": o.warps_per_block,
        "regs_per_warp": o.regs_per_warp,
        "regs_per_block": o.regs_per_block,
        "smem_per_block": o.smem_per_block,
        "carveout_bytes": o.carveout_bytes,
        "textbook": o.textbook,
    })
}

/// AMD waves per SIMD.
pub fn amd_waves(arch: &Arch, w: &AmdWaves) -> Value {
    json!({
        "kind": "occupancy",
        "arch": arch.key,
        "vgprs_allocated": w.vgprs_allocated,
        "waves_per_simd": w.waves_per_simd,
        "max_waves_per_simd": w.max_waves_per_simd,
        "waves_per_cu": w.waves_per_cu,
        "occupancy": w.occupancy,
    })
}

/// `naive_reads`, `tiled_reads`, `reduction_factor`, `smem_bytes_per_block` (+ `blocks_per_sm` by the
/// full occupancy rule and `smem_blocks_per_sm` by shared memory alone, with an architecture).
pub fn tiling(t: &Tiling) -> Value {
    let mut value = json!({
        "kind": "tiling",
        "naive_reads": t.naive_reads,
        "tiled_reads": t.tiled_reads,
        "reduction_factor": t.reduction_factor,
        "smem_bytes_per_block": t.smem_bytes_per_block,
        "tiles_per_dim": t.tiles_per_dim,
        "flops": t.flops,
        "naive_intensity": t.naive_intensity,
        "tiled_intensity": t.tiled_intensity,
    });
    if let Some(blocks) = t.blocks_per_sm {
        value["blocks_per_sm"] = json!(blocks);
    }
    if let Some(blocks) = t.smem_blocks_per_sm {
        value["smem_blocks_per_sm"] = json!(blocks);
    }
    if let Some(o) = &t.occupancy {
        value["occupancy"] = json!(o.occupancy);
        value["active_blocks_per_sm"] = json!(o.active_blocks_per_sm);
    }
    value
}

/// `ridge_intensity`, `attainable_flops`, `bound`.
pub fn roofline(r: &Roofline) -> Value {
    json!({
        "kind": "roofline",
        "ridge_intensity": r.ridge_intensity,
        "attainable_flops": r.attainable_flops,
        "bound": r.bound,
        "fraction_of_peak": r.fraction_of_peak,
    })
}
