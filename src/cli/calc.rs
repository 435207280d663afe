//! `warpdrill calc …`: the engine's answers as readable text (or JSON).

use super::{
    AccessArgs, GranularityArg, OccupancyArgs, PatternArgs, RooflineArgs, TilingArgs, Walk, json,
    parse_mask,
};
use crate::engine::{
    self, AccessShape, Arch, Carveout, Granularity, KernelConfig, Limiter, Pattern, TilingInput,
    WarpAccess, full_mask,
};
use crate::{explain, format};
use std::fmt::Write as _;

/// A calculator's answer: text to print, or the reason it could not be computed.
pub type Answer = Result<String, String>;

impl PatternArgs {
    /// The architecture and warp access these flags describe.
    pub fn to_access(&self) -> Result<(&'static Arch, WarpAccess), String> {
        let arch = Arch::parse(&self.arch).map_err(|e| e.to_string())?;
        Ok((arch, self.shape()?.access(arch.warp_size)))
    }

    /// The access shape these flags describe (the mask read, the architecture not yet applied).
    pub fn shape(&self) -> Result<AccessShape, String> {
        Ok(AccessShape {
            elem_bytes: self.elem,
            stride: self.stride,
            offset: self.offset,
            base: self.base,
            struct_size: self.struct_size,
            field_offset: self.field_offset,
            pitch: self.pitch,
            column: self.walk == Walk::Column,
            offsets: self.offsets.clone(),
            mask: self.mask.as_deref().map(parse_mask).transpose()?,
        })
    }
}

/// Describes an access in words: `32 lanes × 4 B, stride 2, offset 1`.
pub fn describe_access(access: &WarpAccess) -> String {
    let lanes = (access.active_mask & full_mask(access.warp_size)).count_ones();
    let who = if lanes == access.warp_size {
        format::count(lanes, "lane")
    } else {
        format!(
            "{lanes} of {} lanes (mask {:#x})",
            access.warp_size,
            access.active_mask & full_mask(access.warp_size)
        )
    };
    let how = match &access.pattern {
        Pattern::Affine {
            stride_elems,
            offset_elems,
            base_bytes,
        } => {
            let mut s = format!("stride {stride_elems}, offset {offset_elems}");
            if *base_bytes != 0 {
                let _ = write!(s, ", base {base_bytes} B");
            }
            s
        }
        Pattern::StructField {
            struct_bytes,
            field_offset,
            ..
        } => format!("field at byte {field_offset} of a {struct_bytes}-byte struct (AoS)"),
        Pattern::TwoD {
            pitch_bytes,
            column,
            ..
        } => format!(
            "{} walk, pitch {pitch_bytes} B",
            if *column { "column" } else { "row" }
        ),
        Pattern::Explicit { .. } => "explicit offsets".to_string(),
    };
    format!("{who} × {} B, {how}", access.elem_bytes)
}

/// `calc coalescing`.
pub fn coalescing(args: &AccessArgs) -> Answer {
    let (arch, access) = args.pattern.to_access()?;
    let granularity = match args.pattern.granularity {
        Some(GranularityArg::Sector) => Granularity::Sector,
        Some(GranularityArg::Line) => Granularity::Line,
        None => arch.granularity,
    };
    let c = engine::coalesce(&access, granularity).map_err(|e| e.to_string())?;
    if args.json {
        return Ok(json::coalescing(arch, &c, true).to_string());
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Global load on {}: {}",
        arch.label(),
        describe_access(&access)
    );
    let _ = writeln!(
        out,
        "  sectors {} · lines {} · requests {} · {} ({} B)",
        c.sectors,
        c.lines,
        c.requests,
        format::count(c.transactions(), "transaction"),
        if granularity == Granularity::Sector {
            32
        } else {
            128
        }
    );
    let _ = writeln!(
        out,
        "  bytes requested {} / fetched {} · efficiency {} · waste {}",
        c.bytes_requested,
        c.bytes_fetched,
        format::percent(c.efficiency),
        format::percent(c.waste())
    );
    let _ = writeln!(out, "  why: {}", explain::coalescing(&access, &c));
    let _ = writeln!(out);
    out.push_str(&crate::ui::diagram::segments_text(&c));
    Ok(out)
}

/// `calc banks`.
pub fn banks(args: &AccessArgs) -> Answer {
    let (arch, access) = args.pattern.to_access()?;
    if args.pattern.granularity.is_some() {
        return Err("--granularity applies to `calc coalescing` only".into());
    }
    let b = engine::bank_conflicts(&access, arch).map_err(|e| e.to_string())?;
    if args.json {
        return Ok(json::banks(arch, &b, true).to_string());
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Shared-memory load on {}: {}",
        arch.label(),
        describe_access(&access)
    );
    let _ = writeln!(
        out,
        "  wavefronts {} · ideal {} · conflict degree {}-way · bank conflicts {}",
        b.wavefronts,
        b.ideal_wavefronts,
        format::trim_float(b.conflict_degree, 2),
        b.bank_conflicts
    );
    let _ = writeln!(out, "  why: {}", explain::banks(&access, &b));
    let _ = writeln!(out);
    out.push_str(&crate::ui::diagram::banks_text(&b));
    Ok(out)
}

/// `calc occupancy`.
pub fn occupancy(args: &OccupancyArgs) -> Answer {
    let as_json = args.json;
    let args = &args.kernel;
    let arch = Arch::parse(&args.arch).map_err(|e| e.to_string())?;
    if arch.amd.is_some() {
        let w = engine::amd_waves(arch, args.regs).map_err(|e| e.to_string())?;
        if as_json {
            return Ok(json::amd_waves(arch, &w).to_string());
        }
        return Ok(format!(
            "Waves on {}: {} VGPRs per lane (allocated {})\n  waves per SIMD {} / {} · waves per CU {} · occupancy {}\n",
            arch.label(),
            args.regs,
            w.vgprs_allocated,
            w.waves_per_simd,
            w.max_waves_per_simd,
            w.waves_per_cu,
            format::percent(w.occupancy)
        ));
    }
    let config = KernelConfig {
        block_size: args.block_size,
        regs_per_thread: args.regs,
        static_smem: args.static_smem,
        dynamic_smem: args.smem,
        carveout: Carveout::from_pct(args.carveout).map_err(|e| e.to_string())?,
    };
    let o = engine::occupancy(arch, &config).map_err(|e| e.to_string())?;
    if as_json {
        return Ok(json::occupancy(arch, &o).to_string());
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Occupancy on {}: {} threads/block, {} registers/thread, {} shared memory/block, carveout {}",
        arch.label(),
        config.block_size,
        config.regs_per_thread,
        format::bytes(u64::from(config.static_smem) + u64::from(config.dynamic_smem)),
        match config.carveout {
            Carveout::Default => "default".to_string(),
            Carveout::Percent(p) => format!("{p}%"),
        }
    );
    let _ = writeln!(
        out,
        "  active blocks per SM {} · active warps {} / {} · occupancy {}",
        o.active_blocks_per_sm,
        o.active_warps_per_sm,
        o.max_warps_per_sm,
        format::percent(o.occupancy)
    );
    let _ = writeln!(out, "  limited by: {}", o.limited_by.describe());
    let _ = writeln!(out, "  blocks per SM allowed by each limit:");
    for limiter in Limiter::ALL {
        let mark = if o.limited_by.contains(limiter) {
            "  ← limiter"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "    {:<14} {:>4}{mark}",
            limiter.label(),
            o.limits.get(limiter)
        );
    }
    if arch.nvidia.is_some_and(|l| l.barrier_limit) {
        let _ = writeln!(
            out,
            "    {:<14}    —  (9.0+: not binding with one barrier per block)",
            "barriers"
        );
    }
    let _ = writeln!(
        out,
        "  allocated per block: {} registers ({} per warp × {} warps), {} shared memory (incl. reserved); SM carveout {}",
        o.regs_per_block,
        o.regs_per_warp,
        o.warps_per_block,
        format::bytes(u64::from(o.smem_per_block)),
        format::bytes(u64::from(o.carveout_bytes))
    );
    let _ = writeln!(
        out,
        "  textbook bound (floor(65536 / r) threads, ignores allocation granularity): {} threads → {} warp-rounded = {}",
        o.textbook.threads,
        o.textbook.warp_rounded_threads,
        format::percent(o.textbook.occupancy)
    );
    let _ = writeln!(
        out,
        "  hardware (what the SM actually runs): {}",
        format::percent(o.occupancy)
    );
    Ok(out)
}

/// `calc tiling`.
pub fn tiling(args: &TilingArgs) -> Answer {
    let arch = Arch::parse(&args.arch).map_err(|e| e.to_string())?;
    let input = TilingInput {
        n: args.n,
        tile: args.tile,
        elem_bytes: args.elem,
    };
    let t = engine::tiling(&input, Some(arch), args.regs).map_err(|e| e.to_string())?;
    if args.json {
        return Ok(json::tiling(&t).to_string());
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Tiled matrix multiply: N = {}, tile {}×{}, {}-byte elements, on {}",
        args.n,
        args.tile,
        args.tile,
        args.elem,
        arch.label()
    );
    let _ = writeln!(
        out,
        "  global reads naive {} · tiled {} · reduction factor {}×",
        t.naive_reads,
        t.tiled_reads,
        format::trim_float(t.reduction_factor, 2)
    );
    let _ = writeln!(
        out,
        "  shared memory per block {} (2 tiles × {}² × {} B)",
        format::bytes(t.smem_bytes_per_block),
        args.tile,
        args.elem
    );
    if let Some(blocks) = t.smem_blocks_per_sm {
        let _ = writeln!(out, "  blocks per SM by shared memory alone: {blocks}");
    }
    match &t.occupancy {
        Some(o) => {
            let _ = writeln!(
                out,
                "  full occupancy rule ({} threads/block, {} registers): {}, {} (limited by {})",
                args.tile * args.tile,
                args.regs,
                format::count(o.active_blocks_per_sm, "block"),
                format::percent(o.occupancy),
                o.limited_by.describe()
            );
        }
        None if arch.nvidia.is_some() => {
            let _ = writeln!(
                out,
                "  a {}×{} block exceeds 1024 threads: no occupancy",
                args.tile, args.tile
            );
        }
        None => {}
    }
    let _ = writeln!(
        out,
        "  arithmetic intensity {} → {} FLOP/B (reuse multiplies intensity by the tile size)",
        format::trim_float(t.naive_intensity, 3),
        format::trim_float(t.tiled_intensity, 3)
    );
    Ok(out)
}

/// `calc roofline`.
pub fn roofline(args: &RooflineArgs) -> Answer {
    let r = engine::roofline(args.peak_flops, args.bandwidth, args.intensity)
        .map_err(|e| e.to_string())?;
    if args.json {
        return Ok(json::roofline(&r).to_string());
    }
    Ok(format!(
        "Roofline: peak {}FLOP/s, bandwidth {}B/s, intensity {} FLOP/B\n  ridge {} FLOP/B · attainable {}FLOP/s ({} of peak) · {}-bound\n",
        format::si(args.peak_flops),
        format::si(args.bandwidth),
        format::trim_float(args.intensity, 3),
        format::trim_float(r.ridge_intensity, 2),
        format::si(r.attainable_flops),
        format::percent(r.fraction_of_peak),
        r.bound.key()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{CalcCommand, Cli, Command};
    use clap::Parser;

    fn run(args: &[&str]) -> Answer {
        let cli =
            Cli::try_parse_from(std::iter::once("warpdrill").chain(args.iter().copied())).unwrap();
        match cli.command {
            Some(Command::Calc(CalcCommand::Coalescing(a))) => coalescing(&a),
            Some(Command::Calc(CalcCommand::Banks(a))) => banks(&a),
            Some(Command::Calc(CalcCommand::Occupancy(a))) => occupancy(&a),
            Some(Command::Calc(CalcCommand::Tiling(a))) => tiling(&a),
            Some(Command::Calc(CalcCommand::Roofline(a))) => roofline(&a),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn coalescing_text_shows_numbers_and_picture() {
        let out = run(&[
            "calc",
            "coalescing",
            "--elem",
            "4",
            "--stride",
            "1",
            "--offset",
            "1",
        ])
        .unwrap();
        assert!(out.contains("sectors 5"), "{out}");
        assert!(out.contains("efficiency 80%"), "{out}");
        assert!(out.contains("0-6"), "{out}");
        let strided = run(&["calc", "coalescing", "--stride", "1024"]).unwrap();
        assert!(strided.contains("gap of"), "{strided}");
        let negative = run(&["calc", "coalescing", "--stride", "-1", "--offset", "31"]).unwrap();
        assert!(negative.contains("sectors 4"), "{negative}");
    }

    #[test]
    fn banks_text_shows_the_grid() {
        let out = run(&["calc", "banks", "--stride", "32"]).unwrap();
        assert!(out.contains("wavefronts 32"), "{out}");
        assert!(out.contains("32-way"), "{out}");
        assert!(out.contains("w32"), "{out}");
        let json: serde_json::Value =
            serde_json::from_str(&run(&["calc", "banks", "--stride", "33", "--json"]).unwrap())
                .unwrap();
        assert_eq!(json["wavefronts"], 1);
    }

    #[test]
    fn occupancy_text_names_the_limiter_and_the_textbook_bound() {
        let out = run(&["calc", "occupancy", "--block-size", "256", "--regs", "48"]).unwrap();
        assert!(out.contains("occupancy 62.5%"), "{out}");
        assert!(out.contains("registers         5  ← limiter"), "{out}");
        assert!(out.contains("65.6%"), "{out}");
        let err = run(&["calc", "occupancy", "--regs", "300"]).unwrap_err();
        assert!(err.contains("registers per thread"), "{err}");
    }

    #[test]
    fn tiling_and_roofline_text() {
        let out = run(&["calc", "tiling", "--n", "1024", "--tile", "16"]).unwrap();
        assert!(out.contains("reduction factor 16×"), "{out}");
        assert!(out.contains("0.25 → 4 FLOP/B"), "{out}");
        let r = run(&["calc", "roofline", "--intensity", "0.25"]).unwrap();
        assert!(r.contains("memory-bound"), "{r}");
    }

    #[test]
    fn bad_flags_are_explained() {
        assert!(
            run(&["calc", "coalescing", "--elem", "3"])
                .unwrap_err()
                .contains("element size")
        );
        assert!(
            run(&["calc", "coalescing", "--arch", "sm_99"])
                .unwrap_err()
                .contains("unknown architecture")
        );
        assert!(
            run(&["calc", "coalescing", "--mask", "0"])
                .unwrap_err()
                .contains("active lanes")
        );
    }
}
