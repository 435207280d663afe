//! One warp access from the shape a learner describes: element size, stride, offset, base, struct
//! size and field, 2D pitch and walk, explicit offsets, and the active lanes.
//!
//! The command line (`calc`, `explore`), the ladder's templates and the explorer all describe an
//! access this way; [`AccessShape::access`] is the one place that turns the description into a
//! [`WarpAccess`], and [`parse_mask`] the one place that reads a lane mask.

use super::access::{Op, Pattern, WarpAccess, full_mask};

/// An access pattern as the learner describes it. Which pattern it makes, in order of precedence:
/// explicit `offsets`; an array of structs (`struct_size`); a 2D walk (`pitch`); else affine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessShape {
    /// Bytes each lane loads: 1, 2, 4, 8 or 16.
    pub elem_bytes: u32,
    /// Elements between neighbouring lanes (affine).
    pub stride: i64,
    /// Element lane 0 reads (affine), first struct (AoS) or first column (2D).
    pub offset: i64,
    /// Byte address of element 0.
    pub base: i64,
    /// Array of structs: bytes per struct.
    pub struct_size: Option<i64>,
    /// Array of structs: byte offset of the field read.
    pub field_offset: i64,
    /// 2D row-major array: bytes per row.
    pub pitch: Option<i64>,
    /// 2D: walk down a column instead of along a row.
    pub column: bool,
    /// Explicit byte offset per lane, lane 0 first.
    pub offsets: Option<Vec<i64>>,
    /// Active lanes (bit `t` = lane `t`); `None` = every lane of the warp.
    pub mask: Option<u64>,
}

impl Default for AccessShape {
    /// A full warp reading consecutive 4-byte elements from element 0.
    fn default() -> Self {
        AccessShape {
            elem_bytes: 4,
            stride: 1,
            offset: 0,
            base: 0,
            struct_size: None,
            field_offset: 0,
            pitch: None,
            column: false,
            offsets: None,
            mask: None,
        }
    }
}

impl AccessShape {
    /// The warp load this shape describes for a warp of `warp_size` lanes (lanes past the warp
    /// are dropped from the mask; [`AccessShape::access_as`] for a store). Inputs are checked later, by [`WarpAccess::resolve`].
    ///
    /// `AccessShape { stride: 2, ..Default::default() }.access(32)` is lanes reading bytes 0, 8, 16, …
    pub fn access(&self, warp_size: u32) -> WarpAccess {
        let pattern = if let Some(offsets) = &self.offsets {
            Pattern::Explicit {
                offsets_bytes: offsets.clone(),
            }
        } else if let Some(struct_bytes) = self.struct_size {
            Pattern::StructField {
                struct_bytes,
                field_offset: self.field_offset,
                first: self.offset,
                base_bytes: self.base,
            }
        } else if let Some(pitch_bytes) = self.pitch {
            Pattern::TwoD {
                pitch_bytes,
                column: self.column,
                row: 0,
                col: self.offset,
                base_bytes: self.base,
            }
        } else {
            Pattern::Affine {
                stride_elems: self.stride,
                offset_elems: self.offset,
                base_bytes: self.base,
            }
        };
        let warp = full_mask(warp_size);
        WarpAccess {
            elem_bytes: self.elem_bytes,
            pattern,
            active_mask: self.mask.unwrap_or(warp) & warp,
            warp_size,
            op: Op::Load,
        }
    }

    /// [`AccessShape::access`] as a load or a store: the shape says where the lanes go, `op` what
    /// they do there (8-byte shared stores at stride 0: 2 wavefronts, the load 1).
    pub fn access_as(&self, warp_size: u32, op: Op) -> WarpAccess {
        self.access(warp_size).with_op(op)
    }

    /// The shape of an access (the inverse of [`AccessShape::access`]).
    pub fn of(access: &WarpAccess) -> AccessShape {
        let warp = full_mask(access.warp_size);
        let mask = access.active_mask & warp;
        let mut shape = AccessShape {
            elem_bytes: access.elem_bytes,
            mask: (mask != warp).then_some(mask),
            ..AccessShape::default()
        };
        match &access.pattern {
            Pattern::Affine {
                stride_elems,
                offset_elems,
                base_bytes,
            } => {
                shape.stride = *stride_elems;
                shape.offset = *offset_elems;
                shape.base = *base_bytes;
            }
            Pattern::StructField {
                struct_bytes,
                field_offset,
                first,
                base_bytes,
            } => {
                shape.struct_size = Some(*struct_bytes);
                shape.field_offset = *field_offset;
                shape.offset = *first;
                shape.base = *base_bytes;
            }
            Pattern::TwoD {
                pitch_bytes,
                column,
                col,
                base_bytes,
                ..
            } => {
                shape.pitch = Some(*pitch_bytes);
                shape.column = *column;
                shape.offset = *col;
                shape.base = *base_bytes;
            }
            Pattern::Explicit { offsets_bytes } => shape.offsets = Some(offsets_bytes.clone()),
        }
        shape
    }
}

/// Parses an active-lane mask: `0xffff`, `0b1011`, `65535`, `all`, `half`, `odd`, `even`, `first8`.
pub fn parse_mask(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_lowercase().replace('_', "");
    let bad = || {
        format!(
            "active mask `{text}` is not a mask: use hex (0xffffffff), decimal, or all / half / odd / even / firstN"
        )
    };
    let parsed = if let Some(hex) = t.strip_prefix("0x") {
        u64::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = t.strip_prefix("0b") {
        u64::from_str_radix(bin, 2).ok()
    } else if let Some(n) = t.strip_prefix("first") {
        n.trim_start_matches([':', ' ', '='])
            .parse::<u32>()
            .ok()
            .filter(|n| *n <= 64)
            .map(full_mask)
    } else {
        match t.as_str() {
            "all" | "full" => Some(u64::MAX),
            "half" => Some(0xffff),
            "odd" => Some(0xaaaa_aaaa_aaaa_aaaa),
            "even" => Some(0x5555_5555_5555_5555),
            _ => t.parse::<u64>().ok(),
        }
    };
    parsed.ok_or_else(bad)
}

/// [`parse_mask`] for a warp of `warp_size` lanes, as the command line reads `--mask`: the named
/// patterns (`all`, `half`, `odd`, `even`) are cut to the warp; a number naming a lane the warp
/// does not have, `firstN` past the warp, and a mask of no lane at all are refused.
pub fn parse_mask_for(text: &str, warp_size: u32) -> Result<u64, String> {
    let mask = parse_mask(text)?;
    let warp = full_mask(warp_size);
    let t = text.trim().to_ascii_lowercase();
    let named = matches!(t.as_str(), "all" | "full" | "half" | "odd" | "even");
    if let Some(n) = t.strip_prefix("first")
        && n.trim_start_matches([':', ' ', '='])
            .parse::<u32>()
            .is_ok_and(|n| n > warp_size)
    {
        return Err(format!(
            "active mask `{text}`: a warp has {warp_size} lanes, so at most first{warp_size}"
        ));
    }
    if !named && mask & !warp != 0 {
        return Err(format!(
            "active mask `{text}` names lanes a warp of {warp_size} lanes does not have (at most {warp:#x})"
        ));
    }
    let mask = mask & warp;
    if mask == 0 {
        return Err(format!(
            "active mask `{text}` has no active lanes: at least one lane must be active"
        ));
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_for_a_warp_name_only_its_lanes() {
        assert_eq!(parse_mask_for("0xffffffff", 32), Ok(0xffff_ffff));
        assert_eq!(parse_mask_for("all", 32), Ok(0xffff_ffff));
        assert_eq!(parse_mask_for("odd", 64), Ok(0xaaaa_aaaa_aaaa_aaaa));
        assert_eq!(parse_mask_for("first32", 32), Ok(0xffff_ffff));
        assert_eq!(parse_mask_for("0x1ffffffff", 64), Ok(0x1_ffff_ffff));
        for bad in ["0x0", "0", "first0", "0x1ffffffff", "first33"] {
            let e = parse_mask_for(bad, 32).expect_err(bad);
            assert!(e.contains(bad), "{e}");
        }
    }

    #[test]
    fn masks_in_every_spelling() {
        assert_eq!(parse_mask("0x0000ffff"), Ok(0xffff));
        assert_eq!(parse_mask("0xFFFF_FFFF"), Ok(0xffff_ffff));
        assert_eq!(parse_mask("3"), Ok(3));
        assert_eq!(parse_mask("first8"), Ok(0xff));
        assert_eq!(parse_mask("odd").map(|m| m & 0xf), Ok(0xa));
        assert!(parse_mask("lots").is_err());
        assert!(parse_mask("0xZZ").is_err());
    }

    #[test]
    fn shapes_pick_the_pattern_by_precedence() {
        let aos = AccessShape {
            struct_size: Some(12),
            field_offset: 8,
            pitch: Some(4096),
            ..AccessShape::default()
        };
        assert!(matches!(
            aos.access(32).pattern,
            Pattern::StructField {
                struct_bytes: 12,
                field_offset: 8,
                ..
            }
        ));
        let column = AccessShape {
            pitch: Some(4096),
            column: true,
            ..AccessShape::default()
        };
        assert!(matches!(
            column.access(32).pattern,
            Pattern::TwoD {
                pitch_bytes: 4096,
                column: true,
                ..
            }
        ));
        let explicit = AccessShape {
            offsets: Some(vec![0, 4, 8]),
            struct_size: Some(12),
            ..AccessShape::default()
        };
        assert!(matches!(
            explicit.access(32).pattern,
            Pattern::Explicit { .. }
        ));
    }

    #[test]
    fn masks_are_cut_to_the_warp_and_round_trip() {
        let shape = AccessShape {
            mask: Some(u64::MAX),
            ..AccessShape::default()
        };
        assert_eq!(shape.access(32).active_mask, 0xffff_ffff);
        assert_eq!(AccessShape::of(&shape.access(32)).mask, None);
        let half = AccessShape {
            mask: Some(0xffff),
            stride: 3,
            offset: -2,
            base: 64,
            ..AccessShape::default()
        };
        assert_eq!(AccessShape::of(&half.access(64)), half);
    }
}
