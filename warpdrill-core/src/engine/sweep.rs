//! Sweeps: one figure of an access or a kernel against one parameter, the others held as set — the
//! curves behind `calc sweep`, the explorer's sweep panel and the occupancy heat map.
//!
//! A sweep point is the shape with one parameter replaced ([`AccessParam::set`],
//! [`OccupancyParam::set`]), counted by the fast paths ([`coalesce_counts`], [`bank_counts`],
//! [`OccupancyCalculator`]), so a 256-point curve costs tens of microseconds.

use super::access::{ELEM_SIZES, Op, full_mask};
use super::banks::{BankCounts, bank_counts};
use super::coalescing::{CoalescingCounts, coalesce_counts};
use super::error::{EngineError, Result};
use super::occupancy::{Carveout, KernelConfig};
use super::shape::AccessShape;
use super::{Arch, Granularity};

/// A parameter of an access pattern that a sweep varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccessParam {
    /// Elements between neighbouring lanes (affine patterns).
    Stride,
    /// Element lane 0 reads (affine), first struct (AoS) or first column (2D).
    Offset,
    /// Bytes per lane: only 1, 2, 4, 8 and 16 are kept from a range.
    Elem,
    /// Bytes per struct (makes the pattern an array of structs).
    StructSize,
    /// The first N lanes active.
    Lanes,
    /// Bytes per row of a 2D array (a column walk unless the shape already walks a row).
    Pitch,
}

impl AccessParam {
    /// Every parameter, in the order the explorer cycles them.
    pub const ALL: [AccessParam; 6] = [
        AccessParam::Stride,
        AccessParam::Offset,
        AccessParam::Elem,
        AccessParam::StructSize,
        AccessParam::Lanes,
        AccessParam::Pitch,
    ];

    /// The name on the command line and in rows (`struct_size`).
    pub fn key(self) -> &'static str {
        match self {
            AccessParam::Stride => "stride",
            AccessParam::Offset => "offset",
            AccessParam::Elem => "elem",
            AccessParam::StructSize => "struct_size",
            AccessParam::Lanes => "lanes",
            AccessParam::Pitch => "pitch",
        }
    }

    /// The name a learner reads, with its unit (`struct size (B)`).
    pub fn label(self) -> &'static str {
        match self {
            AccessParam::Stride => "stride (elements)",
            AccessParam::Offset => "offset (elements)",
            AccessParam::Elem => "element size (B)",
            AccessParam::StructSize => "struct size (B)",
            AccessParam::Lanes => "active lanes",
            AccessParam::Pitch => "2D pitch (B)",
        }
    }

    /// Reads a key (`stride`, `struct_size`, `struct-size`, `lanes`, …).
    pub fn parse(text: &str) -> Option<AccessParam> {
        let t = text.trim().to_ascii_lowercase().replace('-', "_");
        AccessParam::ALL
            .into_iter()
            .find(|p| p.key() == t)
            .or(match t.as_str() {
                "struct" => Some(AccessParam::StructSize),
                "elem_bytes" | "element" => Some(AccessParam::Elem),
                "mask" | "active_lanes" => Some(AccessParam::Lanes),
                _ => None,
            })
    }

    /// Whether varying this parameter changes `shape`: explicit offsets keep only the element size
    /// and the lanes; the stride belongs to affine patterns; a struct size does not apply to a 2D
    /// walk, nor a pitch to an array of structs.
    pub fn applies_to(self, shape: &AccessShape) -> bool {
        let explicit = shape.offsets.is_some();
        let structs = shape.struct_size.is_some();
        let two_d = shape.pitch.is_some();
        match self {
            AccessParam::Stride => !explicit && !structs && !two_d,
            AccessParam::Offset => !explicit,
            AccessParam::StructSize => !explicit && !two_d,
            AccessParam::Pitch => !explicit && !structs,
            AccessParam::Elem | AccessParam::Lanes => true,
        }
    }

    /// The default range of a sweep: stride 1–256, offset 0–63, every element size, struct sizes
    /// 4–128 B, lanes 1 to the warp, pitch 4–1024 B by 4.
    pub fn default_range(self, warp_size: u32) -> SweepRange {
        match self {
            AccessParam::Stride => SweepRange::new(1, 256, 1),
            AccessParam::Offset => SweepRange::new(0, 63, 1),
            AccessParam::Elem => SweepRange::new(1, 16, 1),
            AccessParam::StructSize => SweepRange::new(4, 128, 4),
            AccessParam::Lanes => SweepRange::new(1, i64::from(warp_size), 1),
            AccessParam::Pitch => SweepRange::new(4, 1024, 4),
        }
    }

    /// The value of this parameter in `shape` (the number of active lanes for [`AccessParam::Lanes`]).
    pub fn current(self, shape: &AccessShape, warp_size: u32) -> i64 {
        match self {
            AccessParam::Stride => shape.stride,
            AccessParam::Offset => shape.offset,
            AccessParam::Elem => i64::from(shape.elem_bytes),
            AccessParam::StructSize => shape.struct_size.unwrap_or(0),
            AccessParam::Lanes => {
                i64::from((shape.mask.unwrap_or(u64::MAX) & full_mask(warp_size)).count_ones())
            }
            AccessParam::Pitch => shape.pitch.unwrap_or(0),
        }
    }

    /// `shape` with this parameter set to `value`. Errors for a value the parameter cannot take (an
    /// element size that does not fit in 32 bits, a lane count outside 0–64); the engine checks the
    /// rest when the access is counted.
    ///
    /// Setting a pitch on a shape that was not 2D makes it a column walk; setting the lanes to N
    /// activates lanes 0 … N − 1, refused past the `warp_size` lanes of the warp (in the words
    /// `--mask firstN` is refused with).
    pub fn set(self, shape: &mut AccessShape, value: i64, warp_size: u32) -> Result<()> {
        match self {
            AccessParam::Stride => shape.stride = value,
            AccessParam::Offset => shape.offset = value,
            AccessParam::Elem => {
                shape.elem_bytes = u32::try_from(value).map_err(|_| {
                    EngineError::range("element size", value, "one of 1, 2, 4, 8, 16 bytes")
                })?;
            }
            AccessParam::StructSize => shape.struct_size = Some(value),
            AccessParam::Lanes => match u32::try_from(value) {
                Ok(lanes) if lanes <= 64 => {
                    shape.mask = Some(
                        super::parse_mask_for(&format!("first{lanes}"), warp_size)
                            .map_err(EngineError::Mask)?,
                    );
                }
                _ => return Err(EngineError::range("active lanes", value, "0 to 64")),
            },
            AccessParam::Pitch => {
                if shape.pitch.is_none() {
                    shape.column = true;
                }
                shape.pitch = Some(value);
            }
        }
        Ok(())
    }

    /// The values of `range` this parameter takes: all of them, except that an element-size range
    /// keeps only 1, 2, 4, 8 and 16.
    pub fn values(self, range: SweepRange) -> impl Iterator<Item = i64> {
        range.values().filter(move |v| {
            self != AccessParam::Elem || ELEM_SIZES.iter().any(|e| i64::from(*e) == *v)
        })
    }
}

/// An inclusive range of sweep values with a step: `1..256`, `0..1024:128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepRange {
    /// First value.
    pub start: i64,
    /// Last value (reached when `end − start` is a multiple of the step).
    pub end: i64,
    /// Distance between values, at least 1.
    pub step: i64,
}

/// Most points one sweep range may have (a grid of two is at most its square).
pub const MAX_SWEEP_POINTS: u64 = 1 << 20;

impl SweepRange {
    /// `start..=end` by `step` (a step below 1 is taken as 1; an end below the start as the start).
    pub const fn new(start: i64, end: i64, step: i64) -> SweepRange {
        SweepRange {
            start,
            end: if end < start { start } else { end },
            step: if step < 1 { 1 } else { step },
        }
    }

    /// Reads `a..b`, `a..=b`, `a..b:step` or a single value `a`. Errors name what is wrong: a
    /// reversed range, a step below 1, more than [`MAX_SWEEP_POINTS`] points.
    pub fn parse(text: &str) -> std::result::Result<SweepRange, String> {
        let text = text.trim();
        let number = |s: &str| {
            s.trim()
                .replace('_', "")
                .parse::<i64>()
                .map_err(|_| format!("`{}` is not a whole number", s.trim()))
        };
        let (span, step) = match text.split_once(':') {
            Some((span, step)) => (span, number(step)?),
            None => (text, 1),
        };
        let (start, end) = match span.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.trim_start_matches('='))?),
            None => {
                let v = number(span)?;
                (v, v)
            }
        };
        if end < start {
            return Err(format!("the range `{text}` ends before it starts"));
        }
        if step < 1 {
            return Err(format!("the step of `{text}` must be at least 1"));
        }
        let range = SweepRange { start, end, step };
        if range.len() > MAX_SWEEP_POINTS {
            return Err(format!(
                "`{text}` has {} points; at most {MAX_SWEEP_POINTS} are swept",
                range.len()
            ));
        }
        Ok(range)
    }

    /// Number of values: `⌊(end − start) / step⌋ + 1` (`1..256` → 256; `0..1024:128` → 9).
    pub fn len(&self) -> u64 {
        let span = i128::from(self.end) - i128::from(self.start);
        let points = span.max(0) / i128::from(self.step.max(1)) + 1;
        u64::try_from(points).unwrap_or(u64::MAX)
    }

    /// Never empty: a range holds at least its start.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The values, ascending; stops before passing `end` or overflowing.
    pub fn values(self) -> impl Iterator<Item = i64> {
        let SweepRange { start, end, step } = self;
        std::iter::successors(Some(start), move |v| {
            v.checked_add(step).filter(|next| *next <= end)
        })
    }
}

impl std::fmt::Display for SweepRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.start, self.end)?;
        if self.step != 1 {
            write!(f, ":{}", self.step)?;
        }
        Ok(())
    }
}

/// The counts of a global load or store (`op`: counted alike) at each value: `(value, counts or
/// why not)`.
///
/// Worked numbers (4-byte floats): stride 1 → 4 sectors, stride 2 → 8, 4 → 16, 8 → 32 and every
/// stride from 8 on → 32 sectors per request.
pub fn coalescing_sweep(
    shape: &AccessShape,
    warp_size: u32,
    granularity: Granularity,
    op: Op,
    param: AccessParam,
    range: SweepRange,
) -> Vec<(i64, Result<CoalescingCounts>)> {
    let mut shape = shape.clone();
    param
        .values(range)
        .map(|value| {
            let counts = param
                .set(&mut shape, value, warp_size)
                .and_then(|()| coalesce_counts(&shape.access_as(warp_size, op), granularity));
            (value, counts)
        })
        .collect()
}

/// The counts of a shared-memory load or store (`op`) at each value.
///
/// Worked numbers (4-byte words, loads and stores alike): wavefronts = `gcd(stride, 32)`: stride
/// 1 → 1, 2 → 2, 32 → 32, 33 → 1. 8-byte elements at stride 0: 1 wavefront loaded, 2 stored
/// (stores never pair-merge).
pub fn banks_sweep(
    shape: &AccessShape,
    arch: &Arch,
    op: Op,
    param: AccessParam,
    range: SweepRange,
) -> Vec<(i64, Result<BankCounts>)> {
    let mut shape = shape.clone();
    param
        .values(range)
        .map(|value| {
            let counts = param
                .set(&mut shape, value, arch.warp_size)
                .and_then(|()| bank_counts(&shape.access_as(arch.warp_size, op), arch));
            (value, counts)
        })
        .collect()
}

/// A parameter of a kernel configuration that an occupancy sweep varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OccupancyParam {
    /// Threads per block.
    BlockSize,
    /// Registers per thread.
    Registers,
    /// Dynamic shared memory per block, bytes.
    DynamicSmem,
    /// Static shared memory per block, bytes.
    StaticSmem,
    /// Carveout preference: −1 = default, else 0–100 %.
    Carveout,
}

impl OccupancyParam {
    /// Every parameter.
    pub const ALL: [OccupancyParam; 5] = [
        OccupancyParam::BlockSize,
        OccupancyParam::Registers,
        OccupancyParam::DynamicSmem,
        OccupancyParam::StaticSmem,
        OccupancyParam::Carveout,
    ];

    /// The name on the command line (`block_size`, `regs`, `smem`, `static_smem`, `carveout`).
    pub fn key(self) -> &'static str {
        match self {
            OccupancyParam::BlockSize => "block_size",
            OccupancyParam::Registers => "regs",
            OccupancyParam::DynamicSmem => "smem",
            OccupancyParam::StaticSmem => "static_smem",
            OccupancyParam::Carveout => "carveout",
        }
    }

    /// Reads a key (`block_size`, `block-size`, `block`, `regs`, `registers`, `smem`, …).
    pub fn parse(text: &str) -> Option<OccupancyParam> {
        let t = text.trim().to_ascii_lowercase().replace('-', "_");
        OccupancyParam::ALL
            .into_iter()
            .find(|p| p.key() == t)
            .or(match t.as_str() {
                "block" | "threads" => Some(OccupancyParam::BlockSize),
                "registers" => Some(OccupancyParam::Registers),
                "dynamic_smem" => Some(OccupancyParam::DynamicSmem),
                _ => None,
            })
    }

    /// `config` with this parameter set to `value`; a value no launch on `arch` can have (a
    /// negative count, one past `u32`, a carveout outside −1…100) is an error naming it with the
    /// values `arch` allows, in the words the calculator refuses them with.
    pub fn set(self, config: &mut KernelConfig, value: i64, arch: &Arch) -> Result<()> {
        use super::occupancy::{SHARED_MEMORY_ALLOWED, block_sizes_allowed, registers_allowed};
        let nvidia = arch.nvidia.as_ref();
        let unsigned = |name: &'static str| {
            u32::try_from(value).map_err(|_| {
                let allowed = match (self, nvidia) {
                    (OccupancyParam::BlockSize, Some(l)) => block_sizes_allowed(l),
                    (OccupancyParam::Registers, Some(l)) => registers_allowed(l),
                    (OccupancyParam::BlockSize, None) => "1 or more threads".to_string(),
                    (OccupancyParam::Registers, None) => "0 or more".to_string(),
                    _ => SHARED_MEMORY_ALLOWED.to_string(),
                };
                EngineError::range(name, value, allowed)
            })
        };
        match self {
            OccupancyParam::BlockSize => config.block_size = unsigned("block size")?,
            OccupancyParam::Registers => config.regs_per_thread = unsigned("registers per thread")?,
            OccupancyParam::DynamicSmem => config.dynamic_smem = unsigned("dynamic shared memory")?,
            OccupancyParam::StaticSmem => config.static_smem = unsigned("static shared memory")?,
            OccupancyParam::Carveout => config.carveout = Carveout::from_pct(value)?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_and_count() {
        assert_eq!(SweepRange::parse("1..256"), Ok(SweepRange::new(1, 256, 1)));
        assert_eq!(SweepRange::parse("1..=8").map(|r| r.len()), Ok(8));
        assert_eq!(SweepRange::parse("0..1024:128").map(|r| r.len()), Ok(9));
        assert_eq!(SweepRange::parse("-4..4").map(|r| r.len()), Ok(9));
        assert_eq!(SweepRange::parse("7").map(|r| r.len()), Ok(1));
        assert!(SweepRange::parse("9..1").is_err());
        assert!(SweepRange::parse("1..9:0").is_err());
        assert!(SweepRange::parse("0..99999999999").is_err());
        assert!(SweepRange::parse("a..b").is_err());
        let top = SweepRange::new(i64::MAX - 2, i64::MAX, 2);
        assert_eq!(
            top.values().collect::<Vec<_>>(),
            vec![i64::MAX - 2, i64::MAX]
        );
        assert_eq!(
            AccessParam::Elem
                .values(SweepRange::new(1, 16, 1))
                .collect::<Vec<_>>(),
            vec![1, 2, 4, 8, 16]
        );
    }

    #[test]
    fn a_stride_sweep_counts_sectors_and_wavefronts() {
        let shape = AccessShape::default();
        let sectors: Vec<u32> = coalescing_sweep(
            &shape,
            32,
            Granularity::Sector,
            Op::Load,
            AccessParam::Stride,
            SweepRange::new(1, 9, 1),
        )
        .into_iter()
        .map(|(_, c)| c.unwrap().sectors)
        .collect();
        assert_eq!(sectors, vec![4, 8, 12, 16, 20, 24, 28, 32, 32]);
        let wavefronts: Vec<u32> = banks_sweep(
            &shape,
            Arch::default_arch(),
            Op::Load,
            AccessParam::Stride,
            SweepRange::new(31, 34, 1),
        )
        .into_iter()
        .map(|(_, b)| b.unwrap().wavefronts)
        .collect();
        assert_eq!(wavefronts, vec![1, 32, 1, 2]);
        // 8-byte doubles at strides 0 and 1: the store's phases never merge.
        let doubles = AccessShape {
            elem_bytes: 8,
            ..AccessShape::default()
        };
        for (op, expected) in [(Op::Load, vec![1, 2]), (Op::Store, vec![2, 2])] {
            let wavefronts: Vec<u32> = banks_sweep(
                &doubles,
                Arch::default_arch(),
                op,
                AccessParam::Stride,
                SweepRange::new(0, 1, 1),
            )
            .into_iter()
            .map(|(_, b)| b.unwrap().wavefronts)
            .collect();
            assert_eq!(wavefronts, expected, "{op:?}");
        }
    }

    #[test]
    fn lanes_and_pitch_reshape_the_access() {
        let mut shape = AccessShape::default();
        AccessParam::Lanes.set(&mut shape, 33, 64).unwrap();
        assert_eq!(shape.mask, Some(0x1_ffff_ffff));
        assert!(AccessParam::Lanes.set(&mut shape, 33, 32).is_err());
        AccessParam::Lanes.set(&mut shape, 16, 32).unwrap();
        assert_eq!(shape.mask, Some(0xffff));
        assert!(AccessParam::Lanes.set(&mut shape, 65, 64).is_err());
        AccessParam::Pitch.set(&mut shape, 132, 32).unwrap();
        assert!(shape.column && shape.pitch == Some(132));
        assert!(!AccessParam::Stride.applies_to(&shape));
        assert!(AccessParam::Elem.set(&mut shape, -1, 32).is_err());
        let mut config = KernelConfig::new(256, 32);
        let sm90 = Arch::parse("sm_90").unwrap();
        assert!(
            OccupancyParam::Carveout
                .set(&mut config, 101, sm90)
                .is_err()
        );
        assert!(
            OccupancyParam::BlockSize
                .set(&mut config, -1, sm90)
                .is_err()
        );
        assert_eq!(
            OccupancyParam::Registers
                .set(&mut config, -5, sm90)
                .unwrap_err()
                .to_string(),
            "registers per thread must be 0 to 255 (0 = not limiting), got -5"
        );
        OccupancyParam::Registers
            .set(&mut config, 48, sm90)
            .unwrap();
        assert_eq!(config.regs_per_thread, 48);
    }
}
