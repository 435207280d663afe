//! Access patterns: which byte address each lane of a warp reads.

use super::error::{EngineError, Result};
use serde::{Deserialize, Serialize};

/// Element sizes a lane can load, in bytes.
pub const ELEM_SIZES: [u32; 5] = [1, 2, 4, 8, 16];

/// How the lanes' addresses are made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// Lane `t` reads element `offset + t × stride`: byte `base + (offset + t × stride) × elem_bytes`.
    /// Stride and offset are in elements and may be zero or negative.
    Affine {
        /// Elements between neighbouring lanes.
        stride_elems: i64,
        /// Element lane 0 reads.
        offset_elems: i64,
        /// Byte address of element 0.
        base_bytes: i64,
    },
    /// Array of structs: lane `t` reads the field at `field_offset` of struct `first + t`:
    /// byte `base + (first + t) × struct_bytes + field_offset`.
    StructField {
        /// Size of one struct, bytes (12 for `float3`).
        struct_bytes: i64,
        /// Byte offset of the field in the struct.
        field_offset: i64,
        /// Index of the struct lane 0 reads.
        first: i64,
        /// Byte address of struct 0.
        base_bytes: i64,
    },
    /// A row-major 2D array with `pitch_bytes` per row; the warp walks along a row
    /// (lane `t` reads `(row, col + t)`) or down a column (lane `t` reads `(row + t, col)`).
    TwoD {
        /// Bytes from one row to the next.
        pitch_bytes: i64,
        /// Walk along a row (`false`) or down a column (`true`).
        column: bool,
        /// Row of lane 0.
        row: i64,
        /// Column of lane 0, in elements.
        col: i64,
        /// Byte address of element (0, 0).
        base_bytes: i64,
    },
    /// An explicit byte offset per lane, lane 0 first; lanes past the end are inactive.
    Explicit {
        /// Byte offsets.
        offsets_bytes: Vec<i64>,
    },
}

/// Whether the warp's instruction reads memory or writes it (engine notes §2b).
///
/// Global stores count sectors exactly as loads (a full warp storing consecutive floats: 4
/// sectors either way), and shared stores of 1, 2 or 4 bytes take the load's wavefronts. Shared
/// stores of 8 or 16 bytes never pair-merge: their phases are always half-warps (8 B) or
/// quarter-warps (16 B), so every lane storing one 8-byte address costs 2 wavefronts where the
/// load costs 1, and one 16-byte address 4 where the load costs 2. Written `"load"` / `"store"`
/// in JSON; a description without one is a load.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// A load (`ld.global`, `LDS`): the default.
    #[default]
    Load,
    /// A store (`st.global`, `STS`).
    Store,
}

impl Op {
    /// Both, loads first.
    pub const ALL: [Op; 2] = [Op::Load, Op::Store];

    /// The name in JSON and on the command line: `load` or `store`.
    pub fn key(self) -> &'static str {
        match self {
            Op::Load => "load",
            Op::Store => "store",
        }
    }

    /// Reads `load` / `store` (also `ld` / `st`, any case); `None` for anything else.
    pub fn parse(text: &str) -> Option<Op> {
        match text.trim().to_ascii_lowercase().as_str() {
            "load" | "ld" | "read" => Some(Op::Load),
            "store" | "st" | "write" => Some(Op::Store),
            _ => None,
        }
    }

    /// Whether 8- and 16-byte shared accesses of this kind may merge neighbouring phases in pairs
    /// (engine notes §2): loads may, stores never do (§2b). A load of one 8-byte address by every
    /// lane is then 1 wavefront; the store of it 2.
    pub fn pair_merges(self) -> bool {
        self == Op::Load
    }
}

/// One warp's load or store: element size, pattern, active lanes and which of the two.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarpAccess {
    /// Bytes each lane loads (or stores): 1, 2, 4, 8 or 16.
    pub elem_bytes: u32,
    /// How addresses are made.
    pub pattern: Pattern,
    /// Lanes that execute the instruction (bit `t` = lane `t`).
    pub active_mask: u64,
    /// Lanes in the warp: 32, or 64 for an AMD wave64.
    pub warp_size: u32,
    /// A load or a store (a load when not given): 8- and 16-byte shared stores never pair-merge,
    /// so 32 lanes storing one `double` take 2 wavefronts where loading it takes 1.
    #[serde(default)]
    pub op: Op,
}

/// Every lane's address, resolved: `None` for an inactive lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LaneAddresses {
    /// Bytes each lane loads.
    pub elem_bytes: u32,
    /// Byte address per lane, lane 0 first.
    pub addresses: Vec<Option<i64>>,
    /// A load or a store: counted alike but for 8- and 16-byte shared stores, which never
    /// pair-merge (one 8-byte address stored by 32 lanes: 2 wavefronts; loaded: 1).
    pub op: Op,
}

impl LaneAddresses {
    /// Number of lanes that load.
    pub fn active_lanes(&self) -> usize {
        self.addresses.iter().filter(|a| a.is_some()).count()
    }

    /// `(lane, address)` of every active lane.
    pub fn active(&self) -> impl Iterator<Item = (usize, i64)> + '_ {
        self.addresses
            .iter()
            .enumerate()
            .filter_map(|(lane, addr)| addr.map(|a| (lane, a)))
    }
}

/// Mask with the first `lanes` lanes active (`full_mask(32)` = `0xffff_ffff`).
pub const fn full_mask(lanes: u32) -> u64 {
    if lanes >= 64 {
        u64::MAX
    } else {
        (1u64 << lanes) - 1
    }
}

impl WarpAccess {
    /// A full warp of 32 lanes reading `elem_bytes` at `stride` elements from element `offset`.
    pub fn affine(elem_bytes: u32, stride_elems: i64, offset_elems: i64) -> Self {
        WarpAccess {
            elem_bytes,
            pattern: Pattern::Affine {
                stride_elems,
                offset_elems,
                base_bytes: 0,
            },
            active_mask: full_mask(32),
            warp_size: 32,
            op: Op::Load,
        }
    }

    /// A full warp of 32 lanes reading the given byte offsets.
    pub fn explicit(elem_bytes: u32, offsets_bytes: Vec<i64>) -> Self {
        WarpAccess {
            elem_bytes,
            pattern: Pattern::Explicit { offsets_bytes },
            active_mask: full_mask(32),
            warp_size: 32,
            op: Op::Load,
        }
    }

    /// The lanes that really take part (bit `t` = lane `t`): the active mask within the warp, and
    /// for explicit offsets only the lanes given one (`--offsets 0,4,8`: `0b111`, 3 lanes).
    pub fn active_lane_mask(&self) -> u64 {
        let mut active = self.active_mask & full_mask(self.warp_size);
        if let Pattern::Explicit { offsets_bytes } = &self.pattern {
            active &= full_mask(offsets_bytes.len().min(64) as u32);
        }
        active
    }

    /// The same access with another active mask.
    pub fn with_mask(mut self, active_mask: u64) -> Self {
        self.active_mask = active_mask;
        self
    }

    /// The same access as a load or a store: `WarpAccess::explicit(8, vec![0; 32])` costs 1
    /// wavefront in shared memory, `.with_op(Op::Store)` 2 (stores never pair-merge).
    pub fn with_op(mut self, op: Op) -> Self {
        self.op = op;
        self
    }

    /// The same access for a warp of another width (only the lanes that exist stay active).
    pub fn with_warp_size(mut self, warp_size: u32) -> Self {
        self.warp_size = warp_size;
        self
    }

    /// Resolves every lane's byte address, checking every input.
    ///
    /// Errors: element size not in 1, 2, 4, 8, 16; warp size not 32 or 64; more explicit offsets than
    /// lanes; a struct smaller than its field; an address that overflows `i64`.
    pub fn resolve(&self) -> Result<LaneAddresses> {
        let lanes = self.resolve_array()?;
        Ok(lanes.to_addresses())
    }

    /// [`WarpAccess::resolve`] into a fixed array on the stack: what the counting fast paths read, so
    /// counting sectors or wavefronts never allocates. Same checks, same errors.
    ///
    /// Affine lane `t`: `base + (offset + t × stride) × E`, each step checked; stride 2, offset 1,
    /// 4-byte elements → lane 3 reads byte `(1 + 3 × 2) × 4 = 28`.
    pub fn resolve_array(&self) -> Result<LaneArray> {
        let active = self.checked_active()?;
        if let Some(linear) = self.linear_form(active) {
            return Ok(linear.to_array());
        }
        let elem = i64::from(self.elem_bytes);
        let mut addresses = [0i64; 64];
        let overflow = |lane: usize| EngineError::Overflow {
            what: format!("lane {lane}"),
        };
        let mut remaining = active;
        if let Pattern::Explicit { offsets_bytes } = &self.pattern {
            // The offsets are the addresses; only the last bytes need checking.
            while remaining != 0 {
                let lane = remaining.trailing_zeros() as usize;
                remaining &= remaining - 1;
                let address = offsets_bytes.get(lane).copied().unwrap_or_default();
                address
                    .checked_add(elem - 1)
                    .ok_or_else(|| overflow(lane))?;
                addresses[lane] = address;
            }
        } else {
            while remaining != 0 {
                let lane = remaining.trailing_zeros() as usize;
                remaining &= remaining - 1;
                addresses[lane] = self
                    .checked_address(lane, elem)
                    .filter(|a| a.checked_add(elem - 1).is_some())
                    .ok_or_else(|| overflow(lane))?;
            }
        }
        Ok(LaneArray {
            elem_bytes: self.elem_bytes,
            warp_size: self.warp_size,
            active,
            addresses,
            op: self.op,
        })
    }

    /// A linear warp (affine, struct-field or 2D, every active lane's address and last byte in
    /// `i64`) described by its first address and step, without listing its lanes: what the
    /// counting passes read first. `None` for explicit offsets or addresses past `i64` (read those
    /// with [`WarpAccess::resolve_array`]). The same checks and errors as `resolve_array`.
    pub fn linear(&self) -> Result<Option<LinearLanes>> {
        Ok(self.linear_form(self.checked_active()?))
    }

    /// [`WarpAccess::linear`] once the inputs are checked.
    fn linear_form(&self, active: u64) -> Option<LinearLanes> {
        if active == 0 || matches!(self.pattern, Pattern::Explicit { .. }) {
            return None;
        }
        let elem = i64::from(self.elem_bytes);
        // The last byte must be addressable too.
        let fits = |lane: usize| {
            self.checked_address(lane, elem)
                .filter(|a| a.checked_add(elem - 1).is_some())
        };
        let lowest = active.trailing_zeros() as usize;
        let highest = 63 - active.leading_zeros() as usize;
        fits(lowest)?;
        fits(highest)?;
        // Affine, AoS and 2D addresses are `A + B × t`, and so is every intermediate of their
        // formula: when the lowest and highest active lanes fit in i64, every lane between fits,
        // and wrapping arithmetic (exact modulo 2^64) gives each one exactly.
        let first = self.wrapping_address(lowest as i64, elem);
        let step = self
            .wrapping_address(lowest as i64 + 1, elem)
            .wrapping_sub(first);
        Some(LinearLanes {
            elem_bytes: self.elem_bytes,
            warp_size: self.warp_size,
            active,
            first,
            step,
            op: self.op,
        })
    }

    /// Checks every input but the addresses; the active lanes, cut to the warp and to an explicit
    /// list's length.
    fn checked_active(&self) -> Result<u64> {
        if !ELEM_SIZES.contains(&self.elem_bytes) {
            return Err(EngineError::range(
                "element size",
                format!("{} bytes", self.elem_bytes),
                "one of 1, 2, 4, 8, 16 bytes",
            ));
        }
        if self.warp_size != 32 && self.warp_size != 64 {
            return Err(EngineError::range(
                "warp size",
                self.warp_size,
                "32 or 64 lanes",
            ));
        }
        let elem = i64::from(self.elem_bytes);
        let lanes = self.warp_size as usize;
        if let Pattern::Explicit { offsets_bytes } = &self.pattern
            && offsets_bytes.len() > lanes
        {
            return Err(EngineError::range(
                "number of lane offsets",
                offsets_bytes.len(),
                format!("at most {lanes} (one per lane)"),
            ));
        }
        // Lanes past the end of an offset list are inactive.
        let active = self.active_lane_mask();
        if let Pattern::StructField {
            struct_bytes,
            field_offset,
            ..
        } = self.pattern
        {
            if struct_bytes < elem {
                return Err(EngineError::range(
                    "struct size",
                    format!("{struct_bytes} bytes"),
                    format!("at least the {elem}-byte field it holds"),
                ));
            }
            if field_offset < 0
                || field_offset
                    .checked_add(elem)
                    .is_none_or(|end| end > struct_bytes)
            {
                return Err(EngineError::range(
                    "field offset",
                    field_offset,
                    format!(
                        "0 to {} so the field fits in the {struct_bytes}-byte struct",
                        struct_bytes - elem
                    ),
                ));
            }
        }
        if let Pattern::TwoD {
            pitch_bytes,
            column: true,
            ..
        } = self.pattern
            && pitch_bytes == 0
        {
            return Err(EngineError::range(
                "row pitch of a column walk",
                "0 bytes",
                "non-zero (with pitch 0 every lane reads the same element: use stride 0 for a broadcast)",
            ));
        }
        Ok(active)
    }

    /// Lane `lane`'s byte address with every step checked; `None` when a step overflows `i64` (or an
    /// explicit list has no offset for the lane).
    fn checked_address(&self, lane: usize, elem: i64) -> Option<i64> {
        let t = lane as i64;
        match &self.pattern {
            Pattern::Affine {
                stride_elems,
                offset_elems,
                base_bytes,
            } => t
                .checked_mul(*stride_elems)
                .and_then(|x| x.checked_add(*offset_elems))
                .and_then(|x| x.checked_mul(elem))
                .and_then(|x| x.checked_add(*base_bytes)),
            Pattern::StructField {
                struct_bytes,
                field_offset,
                first,
                base_bytes,
            } => first
                .checked_add(t)
                .and_then(|x| x.checked_mul(*struct_bytes))
                .and_then(|x| x.checked_add(*field_offset))
                .and_then(|x| x.checked_add(*base_bytes)),
            Pattern::TwoD {
                pitch_bytes,
                column,
                row,
                col,
                base_bytes,
            } => {
                let (r, c) = if *column {
                    (row.checked_add(t), Some(*col))
                } else {
                    (Some(*row), col.checked_add(t))
                };
                r.and_then(|r| r.checked_mul(*pitch_bytes))
                    .zip(c.and_then(|c| c.checked_mul(elem)))
                    .and_then(|(a, b)| a.checked_add(b))
                    .and_then(|x| x.checked_add(*base_bytes))
            }
            Pattern::Explicit { offsets_bytes } => offsets_bytes.get(lane).copied(),
        }
    }

    /// The formula of [`WarpAccess::checked_address`] in wrapping arithmetic (exact modulo 2^64);
    /// 0 for explicit offsets.
    fn wrapping_address(&self, t: i64, elem: i64) -> i64 {
        match &self.pattern {
            Pattern::Affine {
                stride_elems,
                offset_elems,
                base_bytes,
            } => t
                .wrapping_mul(*stride_elems)
                .wrapping_add(*offset_elems)
                .wrapping_mul(elem)
                .wrapping_add(*base_bytes),
            Pattern::StructField {
                struct_bytes,
                field_offset,
                first,
                base_bytes,
            } => first
                .wrapping_add(t)
                .wrapping_mul(*struct_bytes)
                .wrapping_add(*field_offset)
                .wrapping_add(*base_bytes),
            Pattern::TwoD {
                pitch_bytes,
                column,
                row,
                col,
                base_bytes,
            } => {
                let (r, c) = if *column {
                    (row.wrapping_add(t), *col)
                } else {
                    (*row, col.wrapping_add(t))
                };
                r.wrapping_mul(*pitch_bytes)
                    .wrapping_add(c.wrapping_mul(elem))
                    .wrapping_add(*base_bytes)
            }
            Pattern::Explicit { .. } => 0,
        }
    }
}

/// A linear warp: lane `lowest + k` reads from `first + k × step`, where `lowest` is the lowest
/// active lane (exact: every active lane's address and last byte fit in `i64`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearLanes {
    /// Bytes each lane loads.
    pub elem_bytes: u32,
    /// Lanes in the warp (32 or 64).
    pub warp_size: u32,
    /// Lanes that load (bit `t` = lane `t`), at least one.
    pub active: u64,
    /// The address of the lowest active lane.
    pub first: i64,
    /// Bytes from one lane to the next.
    pub step: i64,
    /// A load or a store (8- and 16-byte shared stores never pair-merge: a linear 8-byte store at
    /// step 0 costs 2 wavefronts, the load 1).
    pub op: Op,
}

impl LinearLanes {
    /// The lowest active lane.
    pub fn lowest(&self) -> u32 {
        self.active.trailing_zeros()
    }

    /// The same lanes listed in an array.
    pub fn to_array(&self) -> LaneArray {
        let mut addresses = [0i64; 64];
        let lowest = self.lowest() as usize;
        let highest = 63 - self.active.leading_zeros() as usize;
        let mut address = self.first;
        for slot in &mut addresses[lowest..=highest] {
            *slot = address;
            address = address.wrapping_add(self.step);
        }
        LaneArray {
            elem_bytes: self.elem_bytes,
            warp_size: self.warp_size,
            active: self.active,
            addresses,
            op: self.op,
        }
    }
}

/// Every active lane's byte address in a fixed array (no allocation): the input of the counting
/// fast paths ([`crate::engine::coalescing::coalesce_counts`], [`crate::engine::banks::bank_counts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneArray {
    /// Bytes each lane loads.
    pub elem_bytes: u32,
    /// Lanes in the warp (32 or 64).
    pub warp_size: u32,
    /// Lanes that load (bit `t` = lane `t`), already cut to the warp and to an explicit list's length.
    pub active: u64,
    /// Byte address of lane `t` at index `t`; meaningless where the lane is inactive.
    pub addresses: [i64; 64],
    /// A load or a store: what [`crate::engine::banks::count_lanes`] reads to decide whether 8-
    /// and 16-byte phases may merge (stores never: 32 lanes storing one 8-byte address are 2
    /// wavefronts, loading it 1). Sectors do not depend on it.
    pub op: Op,
}

impl LaneArray {
    /// The lanes of one 32-lane warp given as 32 byte addresses and a mask (bit `t` = lane `t`;
    /// an inactive lane's address is ignored): what the kernel analyser hands the counting
    /// passes. The counts check the element size; lanes storing 8 bytes at address 0 in every
    /// lane count 2 wavefronts as a store, 1 as a load.
    pub fn from_warp32(addresses: &[i64; 32], mask: u32, elem_bytes: u32, op: Op) -> LaneArray {
        let mut all = [0i64; 64];
        all[..32].copy_from_slice(addresses);
        LaneArray {
            elem_bytes,
            warp_size: 32,
            active: u64::from(mask),
            addresses: all,
            op,
        }
    }

    /// Number of lanes that load.
    pub fn active_lanes(&self) -> u32 {
        self.active.count_ones()
    }

    /// The address of `lane`, if it loads.
    pub fn get(&self, lane: usize) -> Option<i64> {
        (lane < 64 && self.active >> lane & 1 == 1).then(|| self.addresses[lane])
    }

    /// The lanes of a [`LaneAddresses`] of at most 64 lanes, an element size of 1, 2, 4, 8 or 16
    /// bytes and last bytes that fit in `i64` (`None` otherwise).
    pub fn from_addresses(lanes: &LaneAddresses) -> Option<LaneArray> {
        if lanes.addresses.len() > 64 || !ELEM_SIZES.contains(&lanes.elem_bytes) {
            return None;
        }
        let last_byte = i64::from(lanes.elem_bytes).checked_sub(1)?;
        let mut array = LaneArray {
            elem_bytes: lanes.elem_bytes,
            warp_size: lanes.addresses.len() as u32,
            active: 0,
            addresses: [0; 64],
            op: lanes.op,
        };
        for (lane, address) in lanes.active() {
            address.checked_add(last_byte)?;
            array.active |= 1 << lane;
            array.addresses[lane] = address;
        }
        Some(array)
    }

    /// The same lanes as a [`LaneAddresses`] (one `Option` per lane of the warp).
    pub fn to_addresses(&self) -> LaneAddresses {
        LaneAddresses {
            elem_bytes: self.elem_bytes,
            addresses: (0..self.warp_size as usize).map(|l| self.get(l)).collect(),
            op: self.op,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_addresses_follow_stride_offset_and_base() {
        let mut access = WarpAccess::affine(4, 2, 1);
        if let Pattern::Affine { base_bytes, .. } = &mut access.pattern {
            *base_bytes = 4096;
        }
        let lanes = access.resolve().unwrap();
        assert_eq!(lanes.addresses[0], Some(4096 + 4));
        assert_eq!(lanes.addresses[31], Some(4096 + (1 + 62) * 4));
    }

    #[test]
    fn negative_strides_are_allowed() {
        let lanes = WarpAccess::affine(4, -1, 31).resolve().unwrap();
        assert_eq!(lanes.addresses[0], Some(124));
        assert_eq!(lanes.addresses[31], Some(0));
    }

    #[test]
    fn struct_field_and_column_walks() {
        let aos = WarpAccess {
            elem_bytes: 4,
            pattern: Pattern::StructField {
                struct_bytes: 12,
                field_offset: 8,
                first: 0,
                base_bytes: 0,
            },
            active_mask: full_mask(32),
            warp_size: 32,
            op: Op::Load,
        };
        assert_eq!(aos.resolve().unwrap().addresses[2], Some(32));
        let column = WarpAccess {
            pattern: Pattern::TwoD {
                pitch_bytes: 4096,
                column: true,
                row: 0,
                col: 3,
                base_bytes: 0,
            },
            ..aos
        };
        assert_eq!(column.resolve().unwrap().addresses[2], Some(2 * 4096 + 12));
    }

    #[test]
    fn bad_inputs_are_named() {
        let err = WarpAccess::affine(3, 1, 0).resolve().unwrap_err();
        assert!(err.to_string().contains("element size"), "{err}");
        let err = WarpAccess::affine(4, i64::MAX / 2, 0)
            .resolve()
            .unwrap_err();
        assert!(matches!(err, EngineError::Overflow { .. }), "{err}");
        let err = WarpAccess::explicit(4, vec![0; 33]).resolve().unwrap_err();
        assert!(err.to_string().contains("lane offsets"), "{err}");
        let column = |pitch_bytes| WarpAccess {
            pattern: Pattern::TwoD {
                pitch_bytes,
                column: true,
                row: 0,
                col: 0,
                base_bytes: 0,
            },
            ..WarpAccess::affine(4, 1, 0)
        };
        let err = column(0).resolve().unwrap_err();
        assert!(err.to_string().contains("row pitch"), "{err}");
        assert!(column(-4096).resolve().is_ok());
        let far_field = WarpAccess {
            pattern: Pattern::StructField {
                struct_bytes: 12,
                field_offset: i64::MAX,
                first: 0,
                base_bytes: 0,
            },
            ..WarpAccess::affine(4, 1, 0)
        };
        let err = far_field.resolve().unwrap_err();
        assert!(err.to_string().contains("field offset"), "{err}");
    }

    #[test]
    fn inactive_lanes_have_no_address() {
        let lanes = WarpAccess::affine(4, 1, 0)
            .with_mask(0x1)
            .resolve()
            .unwrap();
        assert_eq!(lanes.active_lanes(), 1);
        assert_eq!(lanes.addresses[1], None);
    }
}
