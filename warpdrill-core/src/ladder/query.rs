//! The engine queries of a template: each `values` entry asks the engine one number (sectors,
//! wavefronts, occupancy, …) for the variant's parameters, and says what "show me" opens.

use super::expr::Vars;
use super::variant::{Context, ShowMe, VariantError};
use crate::content::schema::{
    AmdField, ArchField, BankField, CoalescingField, OccupancyField, Query, RooflineField,
    TilingField,
};
use crate::engine::{
    self, AccessShape, Arch, Carveout, EngineError, Granularity, KernelConfig, Limiter,
    TilingInput, full_mask,
};
use std::collections::BTreeMap;

fn arch_arg(
    arg: Option<&String>,
    texts: &BTreeMap<String, String>,
    place: &str,
) -> Result<&'static Arch, VariantError> {
    let Some(name) = arg else {
        return Ok(Arch::default_arch());
    };
    let name = texts.get(name).unwrap_or(name);
    Arch::parse(name).map_err(|source| VariantError::Engine {
        place: place.to_string(),
        source,
    })
}

pub(super) fn int(value: f64, name: &str, place: &str) -> Result<i64, VariantError> {
    if value.fract() != 0.0 || value.abs() > 9.0e15 {
        return Err(VariantError::Template {
            place: place.to_string(),
            message: format!("{name} must be a whole number, got {value}"),
        });
    }
    Ok(value as i64)
}

pub(super) fn uint(value: f64, name: &str, place: &str) -> Result<u32, VariantError> {
    let v = int(value, name, place)?;
    u32::try_from(v).map_err(|_| VariantError::Template {
        place: place.to_string(),
        message: format!("{name} must be between 0 and {}, got {v}", u32::MAX),
    })
}

pub(super) fn evaluate(
    query: &Query,
    numbers: &Vars,
    texts: &BTreeMap<String, String>,
    place: &str,
) -> Result<(f64, Option<ShowMe>), VariantError> {
    let ctx = Context {
        numbers,
        texts,
        seed: 0,
        prompt_letters: false,
    };
    let num = |text: &str| ctx.eval(text, place);
    let opt = |text: &Option<String>, default: f64| text.as_deref().map_or(Ok(default), num);
    let optional_int = |text: &Option<String>, name: &str| -> Result<Option<i64>, VariantError> {
        text.as_deref()
            .map(|t| int(num(t)?, name, place))
            .transpose()
    };
    let engine_err = |source: EngineError| VariantError::Engine {
        place: place.to_string(),
        source,
    };
    match query {
        Query::Expr(text) => Ok((num(text)?, None)),
        Query::Coalescing {
            arch,
            elem,
            stride,
            offset,
            base,
            lanes,
            struct_size,
            field_offset,
            pitch,
            column,
            lines,
            op,
            field,
        } => {
            let arch = arch_arg(arch.as_ref(), texts, place)?;
            let lanes = uint(opt(lanes, f64::from(arch.warp_size))?, "lanes", place)?;
            let access = AccessShape {
                elem_bytes: uint(num(elem)?, "elem", place)?,
                stride: int(opt(stride, 1.0)?, "stride", place)?,
                offset: int(opt(offset, 0.0)?, "offset", place)?,
                base: int(opt(base, 0.0)?, "base", place)?,
                struct_size: optional_int(struct_size, "struct_size")?,
                field_offset: int(opt(field_offset, 0.0)?, "field_offset", place)?,
                pitch: optional_int(pitch, "pitch")?,
                column: *column,
                offsets: None,
                mask: Some(full_mask(lanes.min(64))),
            }
            .access(arch.warp_size)
            .with_op(op.op());
            let granularity = if *lines {
                Granularity::Line
            } else {
                arch.granularity
            };
            let c = engine::coalesce(&access, granularity).map_err(engine_err)?;
            let value = match field {
                CoalescingField::Sectors => f64::from(c.sectors),
                CoalescingField::Lines => f64::from(c.lines),
                CoalescingField::Transactions => f64::from(c.transactions()),
                CoalescingField::Requests => f64::from(c.requests),
                CoalescingField::BytesRequested => c.bytes_requested as f64,
                CoalescingField::BytesFetched => c.bytes_fetched as f64,
                CoalescingField::Efficiency => c.efficiency,
                CoalescingField::Waste => c.waste(),
            };
            Ok((value, Some(ShowMe::Global { arch, access })))
        }
        Query::Banks {
            arch,
            elem,
            stride,
            offset,
            lanes,
            op,
            field,
        } => {
            let arch = arch_arg(arch.as_ref(), texts, place)?;
            let lanes = uint(opt(lanes, f64::from(arch.warp_size))?, "lanes", place)?;
            let access = AccessShape {
                elem_bytes: uint(num(elem)?, "elem", place)?,
                stride: int(num(stride)?, "stride", place)?,
                offset: int(opt(offset, 0.0)?, "offset", place)?,
                mask: Some(full_mask(lanes.min(64))),
                ..AccessShape::default()
            }
            .access(arch.warp_size)
            .with_op(op.op());
            let b = engine::bank_conflicts(&access, arch).map_err(engine_err)?;
            let value = match field {
                BankField::Wavefronts => f64::from(b.wavefronts),
                BankField::IdealWavefronts => f64::from(b.ideal_wavefronts),
                BankField::BankConflicts => f64::from(b.bank_conflicts),
                BankField::ConflictDegree => b.conflict_degree,
                BankField::BankOfLane(lane) => {
                    match b.bank_of_lane.get(*lane as usize).copied().flatten() {
                        Some(bank) => f64::from(bank),
                        None => {
                            return Err(VariantError::Template {
                                place: place.to_string(),
                                message: format!("lane {lane} is not active"),
                            });
                        }
                    }
                }
            };
            Ok((value, Some(ShowMe::Shared { arch, access })))
        }
        Query::Occupancy {
            arch,
            block_size,
            regs,
            smem,
            static_smem,
            carveout,
            field,
        } => {
            let arch = arch_arg(arch.as_ref(), texts, place)?;
            let config = KernelConfig {
                block_size: uint(num(block_size)?, "block_size", place)?,
                regs_per_thread: uint(num(regs)?, "regs", place)?,
                static_smem: uint(opt(static_smem, 0.0)?, "static_smem", place)?,
                dynamic_smem: uint(opt(smem, 0.0)?, "smem", place)?,
                carveout: Carveout::from_pct(int(opt(carveout, -1.0)?, "carveout", place)?)
                    .map_err(engine_err)?,
            };
            let o = engine::occupancy(arch, &config).map_err(engine_err)?;
            let flag = |limiter| {
                if o.limited_by.contains(limiter) {
                    1.0
                } else {
                    0.0
                }
            };
            let value = match field {
                OccupancyField::ActiveBlocks => f64::from(o.active_blocks_per_sm),
                OccupancyField::ActiveWarps => f64::from(o.active_warps_per_sm),
                OccupancyField::MaxWarps => f64::from(o.max_warps_per_sm),
                OccupancyField::Occupancy => o.occupancy,
                OccupancyField::WarpLimit => f64::from(o.limits.warps),
                OccupancyField::RegisterLimit => f64::from(o.limits.registers),
                OccupancyField::SharedMemoryLimit => f64::from(o.limits.shared_memory),
                OccupancyField::BlockLimit => f64::from(o.limits.blocks),
                OccupancyField::RegsPerWarp => f64::from(o.regs_per_warp),
                OccupancyField::RegsPerBlock => f64::from(o.regs_per_block),
                OccupancyField::SmemPerBlock => f64::from(o.smem_per_block),
                OccupancyField::CarveoutBytes => f64::from(o.carveout_bytes),
                OccupancyField::TextbookThreads => f64::from(o.textbook.threads),
                OccupancyField::TextbookWarpRoundedThreads => {
                    f64::from(o.textbook.warp_rounded_threads)
                }
                OccupancyField::TextbookOccupancy => o.textbook.occupancy,
                OccupancyField::LimitedByWarps => flag(Limiter::Warps),
                OccupancyField::LimitedByRegisters => flag(Limiter::Registers),
                OccupancyField::LimitedBySharedMemory => flag(Limiter::SharedMemory),
                OccupancyField::LimitedByBlocks => flag(Limiter::Blocks),
            };
            Ok((value, Some(ShowMe::Occupancy { arch, config })))
        }
        Query::AmdWaves { arch, vgprs, field } => {
            let arch = arch_arg(Some(arch), texts, place)?;
            let w =
                engine::amd_waves(arch, uint(num(vgprs)?, "vgprs", place)?).map_err(engine_err)?;
            let value = match field {
                AmdField::WavesPerSimd => f64::from(w.waves_per_simd),
                AmdField::VgprsAllocated => f64::from(w.vgprs_allocated),
                AmdField::WavesPerCu => f64::from(w.waves_per_cu),
                AmdField::Occupancy => w.occupancy,
            };
            Ok((value, None))
        }
        Query::Tiling {
            n,
            tile,
            elem,
            arch,
            field,
        } => {
            let arch_preset = arch_arg(arch.as_ref(), texts, place)?;
            let input = TilingInput {
                n: u64::from(uint(num(n)?, "n", place)?),
                tile: u64::from(uint(num(tile)?, "tile", place)?),
                elem_bytes: uint(num(elem)?, "elem", place)?,
            };
            let t = engine::tiling(&input, Some(arch_preset), 0).map_err(engine_err)?;
            let value = match field {
                TilingField::NaiveReads => t.naive_reads as f64,
                TilingField::TiledReads => t.tiled_reads as f64,
                TilingField::ReductionFactor => t.reduction_factor,
                TilingField::SmemBytesPerBlock => t.smem_bytes_per_block as f64,
                TilingField::BlocksPerSm | TilingField::SmemBlocksPerSm => {
                    let blocks = if *field == TilingField::BlocksPerSm {
                        t.blocks_per_sm
                    } else {
                        t.smem_blocks_per_sm
                    };
                    match blocks {
                        Some(blocks) => f64::from(blocks),
                        None => {
                            return Err(VariantError::Template {
                                place: place.to_string(),
                                message: format!(
                                    "{field:?} needs an NVIDIA architecture, not {}",
                                    arch_preset.key
                                ),
                            });
                        }
                    }
                }
                TilingField::NaiveIntensity => t.naive_intensity,
                TilingField::TiledIntensity => t.tiled_intensity,
            };
            Ok((
                value,
                Some(ShowMe::Tiling {
                    arch: arch_preset,
                    input,
                }),
            ))
        }
        Query::Roofline {
            peak_flops,
            bandwidth,
            intensity,
            field,
        } => {
            let (p, b, i) = (num(peak_flops)?, num(bandwidth)?, num(intensity)?);
            let r = engine::roofline(p, b, i).map_err(engine_err)?;
            let value = match field {
                RooflineField::Ridge => r.ridge_intensity,
                RooflineField::Attainable => r.attainable_flops,
                RooflineField::MemoryBound => {
                    if r.bound == engine::Bound::Memory {
                        1.0
                    } else {
                        0.0
                    }
                }
                RooflineField::FractionOfPeak => r.fraction_of_peak,
            };
            Ok((
                value,
                Some(ShowMe::Roofline {
                    peak_flops: p,
                    bandwidth: b,
                    intensity: i,
                }),
            ))
        }
        Query::Measured(fact) => Ok((engine::measured::h200(*fact).map_err(engine_err)?, None)),
        Query::Arch { arch, field } => {
            let arch = arch_arg(Some(arch), texts, place)?;
            let limits = arch.nvidia;
            let need = || VariantError::Template {
                place: place.to_string(),
                message: format!("{} has no occupancy figures", arch.key),
            };
            let value = match field {
                ArchField::WarpSize => f64::from(arch.warp_size),
                ArchField::SharedBanks => f64::from(engine::banks::BANKS),
                ArchField::MaxWarps => f64::from(limits.ok_or_else(need)?.max_warps_per_sm()),
                ArchField::MaxThreads => f64::from(limits.ok_or_else(need)?.max_threads_per_sm),
                ArchField::MaxBlocks => f64::from(limits.ok_or_else(need)?.max_blocks_per_sm),
                ArchField::RegsPerSm => f64::from(limits.ok_or_else(need)?.regs_per_sm),
                ArchField::SmemPerSm => f64::from(limits.ok_or_else(need)?.smem_per_sm_max),
            };
            Ok((value, None))
        }
    }
}
