//! `warpdrill calc …`: the engine's answers as readable text (or JSON).

use super::output::pad_right;
use super::{
    AccessArgs, GranularityArg, OccupancyArgs, PatternArgs, RooflineArgs, TilingArgs, Walk, json,
    parse_mask,
};
use crate::engine::{
    self, AccessShape, Arch, Carveout, Granularity, KernelConfig, Limiter, Op, Pattern,
    TilingInput, WarpAccess,
};
use crate::i18n::Lang;
use crate::{explain, format, t};
use std::fmt::Write as _;

/// A calculator's answer: text to print, or the reason it could not be computed.
pub type Answer = Result<String, String>;

impl PatternArgs {
    /// The architecture and warp access these flags describe.
    pub fn to_access(&self) -> Result<(&'static Arch, WarpAccess), String> {
        let arch = Arch::parse(&self.arch).map_err(|e| e.to_string())?;
        let mut shape = self.shape()?;
        // One reading of `--mask` for every command: lanes this warp does not have are refused.
        if let Some(text) = &self.mask {
            shape.mask = Some(crate::engine::parse_mask_for(text, arch.warp_size)?);
        }
        Ok((arch, shape.access_as(arch.warp_size, self.op())))
    }

    /// A load, or a store with `--store`.
    pub fn op(&self) -> Op {
        if self.store { Op::Store } else { Op::Load }
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
    describe_access_in(access, Lang::En)
}

/// [`describe_access`] in `lang`.
pub fn describe_access_in(access: &WarpAccess, lang: Lang) -> String {
    let mask = access.active_lane_mask();
    let lanes = mask.count_ones();
    let who = if lanes == access.warp_size {
        t!(lang, "cli-count-lanes", n = lanes)
    } else {
        t!(
            lang,
            "cli-access-some-lanes",
            active = lanes.to_string(),
            total = access.warp_size.to_string(),
            mask = format!("{mask:#x}")
        )
    };
    let how = match &access.pattern {
        Pattern::Affine {
            stride_elems,
            offset_elems,
            base_bytes,
        } => {
            if *base_bytes != 0 {
                t!(
                    lang,
                    "cli-access-affine-base",
                    stride = stride_elems.to_string(),
                    offset = offset_elems.to_string(),
                    base = base_bytes.to_string()
                )
            } else {
                t!(
                    lang,
                    "cli-access-affine",
                    stride = stride_elems.to_string(),
                    offset = offset_elems.to_string()
                )
            }
        }
        Pattern::StructField {
            struct_bytes,
            field_offset,
            ..
        } => t!(
            lang,
            "cli-access-struct",
            field = field_offset.to_string(),
            size = struct_bytes.to_string()
        ),
        Pattern::TwoD {
            pitch_bytes,
            column: true,
            ..
        } => t!(
            lang,
            "cli-access-column-walk",
            pitch = pitch_bytes.to_string()
        ),
        Pattern::TwoD { pitch_bytes, .. } => {
            t!(lang, "cli-access-row-walk", pitch = pitch_bytes.to_string())
        }
        Pattern::Explicit { .. } => t!(lang, "cli-access-explicit"),
    };
    t!(
        lang,
        "cli-access",
        who = who,
        elem = access.elem_bytes.to_string(),
        how = how
    )
}

/// `why: …`, the engine's explanation in `lang`.
fn why_line(out: &mut String, lang: Lang, why: String) {
    let _ = writeln!(out, "  {}", t!(lang, "cli-why", why = why));
}

/// `calc coalescing`.
pub fn coalescing(args: &AccessArgs) -> Answer {
    coalescing_in(args, Lang::En)
}

/// `calc coalescing`, its text in `lang` (JSON is the same in every language).
pub fn coalescing_in(args: &AccessArgs, lang: Lang) -> Answer {
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
        "{}",
        match access.op {
            Op::Load => t!(
                lang,
                "cli-coalescing-title",
                arch = arch.label(),
                access = describe_access_in(&access, lang)
            ),
            Op::Store => t!(
                lang,
                "cli-coalescing-title-store",
                arch = arch.label(),
                access = describe_access_in(&access, lang)
            ),
        }
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-coalescing-counts",
            sectors = c.sectors.to_string(),
            lines = c.lines.to_string(),
            requests = c.requests.to_string(),
            transactions = t!(lang, "cli-count-transactions", n = c.transactions()),
            unit = if granularity == Granularity::Sector {
                "32"
            } else {
                "128"
            }
        )
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-coalescing-bytes",
            requested = c.bytes_requested.to_string(),
            fetched = c.bytes_fetched.to_string(),
            efficiency = format::percent(c.efficiency),
            waste = format::percent(c.waste())
        )
    );
    why_line(&mut out, lang, explain::coalescing_in(lang, &access, &c));
    let _ = writeln!(out);
    out.push_str(&crate::ui::diagram::segments_text_in(lang, &c));
    Ok(out)
}

/// `calc banks`.
pub fn banks(args: &AccessArgs) -> Answer {
    banks_in(args, Lang::En)
}

/// `calc banks`, its text in `lang`.
pub fn banks_in(args: &AccessArgs, lang: Lang) -> Answer {
    let (arch, access) = args.pattern.to_access()?;
    if args.pattern.granularity.is_some() {
        return Err(t!(lang, "cli-banks-granularity"));
    }
    let b = engine::bank_conflicts(&access, arch).map_err(|e| e.to_string())?;
    if args.json {
        return Ok(json::banks(arch, &b, true).to_string());
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        match access.op {
            Op::Load => t!(
                lang,
                "cli-banks-title",
                arch = arch.label(),
                access = describe_access_in(&access, lang)
            ),
            Op::Store => t!(
                lang,
                "cli-banks-title-store",
                arch = arch.label(),
                access = describe_access_in(&access, lang)
            ),
        }
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-banks-counts",
            wavefronts = b.wavefronts.to_string(),
            ideal = b.ideal_wavefronts.to_string(),
            degree = format::trim_float(b.conflict_degree, 2),
            conflicts = b.bank_conflicts.to_string(),
            vendor = b.vendor.key()
        )
    );
    why_line(&mut out, lang, explain::banks_in(lang, &access, &b));
    let _ = writeln!(out);
    out.push_str(&crate::ui::diagram::banks_text_in(lang, &b));
    Ok(out)
}

/// A limiter's name in `lang`.
pub fn limiter_label(limiter: Limiter, lang: Lang) -> String {
    match limiter {
        Limiter::Warps => t!(lang, "cli-limiter-warps"),
        Limiter::Registers => t!(lang, "cli-limiter-registers"),
        Limiter::SharedMemory => t!(lang, "cli-limiter-shared-memory"),
        Limiter::Blocks => t!(lang, "cli-limiter-blocks"),
    }
}

/// The binding limiters in `lang`, comma-separated (`warps, registers`).
pub fn limiters_label(limiters: engine::Limiters, lang: Lang) -> String {
    limiters
        .iter()
        .map(|l| limiter_label(l, lang))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `calc occupancy`.
pub fn occupancy(args: &OccupancyArgs) -> Answer {
    occupancy_in(args, Lang::En)
}

/// Why not one block fits on an SM of `arch`, in `lang` (the engine's [`engine::launch_refusals`]
/// worded); `None` when a block fits.
pub fn cannot_launch(arch: &Arch, o: &engine::Occupancy, lang: Lang) -> Option<String> {
    let limits = arch.nvidia.as_ref()?;
    let reasons: Vec<String> = engine::launch_refusals(limits, o)
        .into_iter()
        .map(|refusal| match refusal {
            engine::LaunchRefusal::RegisterWarps { held, needed } => t!(
                lang,
                "cli-occupancy-no-regs-warps",
                held = held.to_string(),
                warps = needed.to_string(),
                per_warp = o.regs_per_warp.to_string()
            ),
            engine::LaunchRefusal::RegisterFile { needed, available } => t!(
                lang,
                "cli-occupancy-no-regs-block",
                regs = needed.to_string(),
                max = available.to_string()
            ),
            engine::LaunchRefusal::SharedMemory { needed, limit } => t!(
                lang,
                "cli-occupancy-no-smem",
                smem = format::bytes(u64::from(needed)),
                max = format::bytes(u64::from(limit))
            ),
        })
        .collect();
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

/// `calc occupancy`, its text in `lang`.
pub fn occupancy_in(args: &OccupancyArgs, lang: Lang) -> Answer {
    let as_json = args.json;
    let args = &args.kernel;
    let arch = Arch::parse(&args.arch).map_err(|e| e.to_string())?;
    if arch.amd.is_some() {
        let w = engine::amd_waves(arch, args.regs).map_err(|e| e.to_string())?;
        if as_json {
            return Ok(json::amd_waves(arch, &w).to_string());
        }
        return Ok(format!(
            "{}\n  {}\n",
            t!(
                lang,
                "cli-waves-title",
                arch = arch.label(),
                vgprs = args.regs.to_string(),
                allocated = w.vgprs_allocated.to_string()
            ),
            t!(
                lang,
                "cli-waves-counts",
                waves = w.waves_per_simd.to_string(),
                max = w.max_waves_per_simd.to_string(),
                cu = w.waves_per_cu.to_string(),
                occupancy = format::percent(w.occupancy)
            )
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
    let cannot_launch = cannot_launch(arch, &o, lang);
    // No block fits on an SM: that is an error to fix, not an occupancy of 0 %.
    if let Some(reason) = cannot_launch {
        return Err(t!(
            lang,
            "cli-occupancy-cannot-launch",
            arch = arch.label(),
            reason = reason
        ));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "cli-occupancy-title",
            arch = arch.label(),
            threads = config.block_size.to_string(),
            regs = config.regs_per_thread.to_string(),
            smem = format::bytes(u64::from(config.static_smem) + u64::from(config.dynamic_smem)),
            carveout = match config.carveout {
                Carveout::Default => t!(lang, "cli-occupancy-carveout-default"),
                Carveout::Percent(p) => format!("{p}%"),
            }
        )
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-occupancy-counts",
            blocks = o.active_blocks_per_sm.to_string(),
            warps = o.active_warps_per_sm.to_string(),
            max = o.max_warps_per_sm.to_string(),
            occupancy = format::percent(o.occupancy)
        )
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-occupancy-limited-by",
            limiters = limiters_label(o.limited_by, lang)
        )
    );
    let _ = writeln!(out, "  {}", t!(lang, "cli-occupancy-limits"));
    for limiter in Limiter::ALL {
        let mark = if o.limited_by.contains(limiter) {
            format!("  {}", t!(lang, "cli-occupancy-limiter-mark"))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "    {} {:>4}{mark}",
            pad_right(&limiter_label(limiter, lang), 14),
            o.limits.get(limiter)
        );
    }
    if arch.nvidia.is_some_and(|l| l.barrier_limit) {
        let _ = writeln!(
            out,
            "    {}    —  {}",
            pad_right(&t!(lang, "cli-occupancy-barriers"), 14),
            t!(lang, "cli-occupancy-barriers-note")
        );
    }
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-occupancy-allocated",
            regs = o.regs_per_block.to_string(),
            per_warp = o.regs_per_warp.to_string(),
            warps = o.warps_per_block.to_string(),
            smem = format::bytes(u64::from(o.smem_per_block)),
            carveout = format::bytes(u64::from(o.carveout_bytes))
        )
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-occupancy-textbook",
            threads = o.textbook.threads.to_string(),
            rounded = o.textbook.warp_rounded_threads.to_string(),
            occupancy = format::percent(o.textbook.occupancy)
        )
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-occupancy-hardware",
            occupancy = format::percent(o.occupancy)
        )
    );
    Ok(out)
}

/// `calc tiling`.
pub fn tiling(args: &TilingArgs) -> Answer {
    tiling_in(args, Lang::En)
}

/// `calc tiling`, its text in `lang`.
pub fn tiling_in(args: &TilingArgs, lang: Lang) -> Answer {
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
        "{}",
        t!(
            lang,
            "cli-tiling-title",
            n = args.n.to_string(),
            tile = args.tile.to_string(),
            elem = args.elem.to_string(),
            arch = arch.label()
        )
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-tiling-reads",
            naive = t.naive_reads.to_string(),
            tiled = t.tiled_reads.to_string(),
            factor = format::trim_float(t.reduction_factor, 2)
        )
    );
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-tiling-smem",
            smem = format::bytes(t.smem_bytes_per_block),
            tile = args.tile.to_string(),
            elem = args.elem.to_string()
        )
    );
    if let Some(blocks) = t.smem_blocks_per_sm {
        let _ = writeln!(
            out,
            "  {}",
            t!(lang, "cli-tiling-smem-blocks", blocks = blocks.to_string())
        );
    }
    match &t.occupancy {
        Some(o) => {
            let _ = writeln!(
                out,
                "  {}",
                t!(
                    lang,
                    "cli-tiling-occupancy",
                    threads = (args.tile * args.tile).to_string(),
                    regs = args.regs.to_string(),
                    blocks = t!(lang, "cli-count-blocks", n = o.active_blocks_per_sm),
                    occupancy = format::percent(o.occupancy),
                    limiters = limiters_label(o.limited_by, lang)
                )
            );
        }
        None if arch.nvidia.is_some() => {
            let _ = writeln!(
                out,
                "  {}",
                t!(lang, "cli-tiling-too-big", tile = args.tile.to_string())
            );
        }
        None => {}
    }
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-tiling-intensity",
            naive = format::trim_float(t.naive_intensity, 3),
            tiled = format::trim_float(t.tiled_intensity, 3)
        )
    );
    Ok(out)
}

/// `calc roofline`.
pub fn roofline(args: &RooflineArgs) -> Answer {
    roofline_in(args, Lang::En)
}

/// `calc roofline`, its text in `lang`.
pub fn roofline_in(args: &RooflineArgs, lang: Lang) -> Answer {
    let r = engine::roofline(args.peak_flops, args.bandwidth, args.intensity)
        .map_err(|e| e.to_string())?;
    if args.json {
        return Ok(json::roofline(&r).to_string());
    }
    Ok(format!(
        "{}\n  {}\n",
        t!(
            lang,
            "cli-roofline-title",
            peak = format::si(args.peak_flops),
            bandwidth = format::si(args.bandwidth),
            intensity = format::trim_float(args.intensity, 3)
        ),
        t!(
            lang,
            "cli-roofline-point",
            ridge = format::trim_float(r.ridge_intensity, 2),
            attainable = format::si(r.attainable_flops),
            fraction = format::percent(r.fraction_of_peak),
            bound = match r.bound {
                engine::Bound::Memory => t!(lang, "cli-bound-memory"),
                engine::Bound::Compute => t!(lang, "cli-bound-compute"),
            }
        )
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
