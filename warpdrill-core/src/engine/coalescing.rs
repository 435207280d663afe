//! Global-memory coalescing (engine notes §1 and §2b): how one warp load or store becomes sectors
//! and lines. Stores count exactly as loads.

use super::access::{LaneAddresses, LaneArray, LinearLanes, Op, WarpAccess};
use super::arch::Granularity;
use super::error::{EngineError, Result};
use serde::Serialize;

/// One memory segment (sector or line) that the load fetches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// Byte address of the segment's first byte (a multiple of its size).
    pub address: i64,
    /// Lanes that read at least one byte of it, ascending.
    pub lanes: Vec<u32>,
    /// Distinct bytes of it that some lane asked for; the rest is fetched and wasted.
    pub bytes_used: u32,
    /// Which bytes were asked for: bit `i` = byte `address + i` (up to 128 bytes).
    #[serde(skip)]
    pub byte_mask: u128,
}

/// The cost of one warp's global load or store.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coalescing {
    /// A load or a store: sectors are counted the same way for both (32 lanes storing consecutive
    /// floats touch 4 sectors, as loading them does).
    pub op: Op,
    /// Unit the totals below are counted in.
    pub granularity: Granularity,
    /// Bytes per unit: 32 (sector) or 128 (line).
    pub segment_bytes: u32,
    /// Lanes that load.
    pub active_lanes: u32,
    /// Distinct 32-byte sectors touched (what Pascal, sm_60, and later fetch).
    pub sectors: u32,
    /// Distinct 128-byte lines touched (what Fermi/Kepler L1 fetched).
    pub lines: u32,
    /// Requests: one per load instruction with an active lane.
    pub requests: u32,
    /// `active lanes × element size`.
    pub bytes_requested: u64,
    /// `segments × segment size`.
    pub bytes_fetched: u64,
    /// `bytes_requested / bytes_fetched`, capped at 1 when lanes share bytes (a broadcast wastes nothing).
    pub efficiency: f64,
    /// The segments fetched, in address order.
    pub segments: Vec<Segment>,
    /// For each lane, the index in `segments` of the first segment it reads (`None` if inactive).
    pub lane_segment: Vec<Option<usize>>,
}

impl Coalescing {
    /// Segments fetched in the chosen unit (sectors or lines).
    pub fn transactions(&self) -> u32 {
        self.segments.len() as u32
    }

    /// `1 − efficiency`: the share of fetched bytes nobody asked for.
    pub fn waste(&self) -> f64 {
        1.0 - self.efficiency
    }
}

/// Analyses a warp access (a load or a store: counted alike) with the given fetch unit.
///
/// Sectors = distinct 32-byte aligned sectors that `[a_t, a_t + E)` of the active lanes touch; lines the
/// same with 128 bytes; a store touches the sectors a load of the same addresses would. Worked numbers (4-byte floats, full warp): stride 1 → 4 sectors, 100 %;
/// offset 1 → 5 sectors; stride 32 → 32 sectors, 12.5 %.
///
/// ```
/// use warpdrill_core::engine::{coalesce, Granularity, WarpAccess};
/// let c = coalesce(&WarpAccess::affine(4, 1, 1), Granularity::Sector).unwrap();
/// assert_eq!(c.sectors, 5);
/// ```
pub fn coalesce(access: &WarpAccess, granularity: Granularity) -> Result<Coalescing> {
    coalesce_lanes(&access.resolve()?, granularity)
}

/// [`coalesce`] on already-resolved lane addresses.
pub fn coalesce_lanes(lanes: &LaneAddresses, granularity: Granularity) -> Result<Coalescing> {
    let elem = i64::from(lanes.elem_bytes);
    let active_lanes = lanes.active_lanes() as u32;
    if active_lanes == 0 {
        return Err(EngineError::range(
            "active lanes",
            "none",
            "at least one lane",
        ));
    }
    let unit = granularity.bytes();
    // (segment address, lane, byte mask within the segment); an element spans at most 2 segments.
    let mut touches: Vec<(i64, u32, u128)> = Vec::with_capacity(lanes.addresses.len() * 2);
    for (lane, address) in lanes.active() {
        let last = address
            .checked_add(elem - 1)
            .ok_or_else(|| EngineError::Overflow {
                what: format!("the last byte lane {lane} reads"),
            })?;
        let mut segment = address.div_euclid(unit);
        while segment <= last.div_euclid(unit) {
            let start = segment * unit;
            let from = (address.max(start) - start) as u32;
            let to = (last.min(start.saturating_add(unit - 1)) - start) as u32;
            let width = to - from + 1;
            let mask = if width >= 128 {
                u128::MAX
            } else {
                ((1u128 << width) - 1) << from
            };
            touches.push((start, lane as u32, mask));
            segment += 1;
        }
    }
    // Sectors and lines as the counting path finds them (without a list of every sector).
    let (sectors, lines) = match LaneArray::from_addresses(lanes) {
        Some(array) => {
            let last_byte = elem - 1;
            ordered_counts(&array, last_byte).unwrap_or_else(|| sorted_counts(&array, last_byte))
        }
        None => {
            let mut sector_ids: Vec<i64> = Vec::with_capacity(lanes.addresses.len() * 2);
            for (_, address) in lanes.active() {
                sector_ids.extend(address.div_euclid(32)..=(address + (elem - 1)).div_euclid(32));
            }
            sector_ids.sort_unstable();
            sector_ids.dedup();
            let mut line_ids: Vec<i64> = sector_ids.iter().map(|s| s.div_euclid(4)).collect();
            line_ids.dedup();
            (sector_ids.len() as u32, line_ids.len() as u32)
        }
    };

    // Lanes reading rising addresses already come in (segment, lane) order.
    if !touches.is_sorted_by_key(|&(start, lane, _)| (start, lane)) {
        touches.sort_unstable_by_key(|&(start, lane, _)| (start, lane));
    }
    let mut segments: Vec<Segment> = Vec::new();
    let mut masks: Vec<u128> = Vec::new();
    let mut lane_segment = vec![None; lanes.addresses.len()];
    for (start, lane, mask) in touches {
        if segments.last().map(|s| s.address) != Some(start) {
            segments.push(Segment {
                address: start,
                lanes: Vec::new(),
                bytes_used: 0,
                byte_mask: 0,
            });
            masks.push(0);
        }
        let index = segments.len() - 1;
        let segment = &mut segments[index];
        if segment.lanes.last() != Some(&lane) {
            segment.lanes.push(lane);
        }
        masks[index] |= mask;
        let slot = &mut lane_segment[lane as usize];
        if slot.is_none() {
            *slot = Some(index);
        }
    }
    for (segment, mask) in segments.iter_mut().zip(masks) {
        segment.bytes_used = mask.count_ones();
        segment.byte_mask = mask;
    }
    let bytes_requested = u64::from(active_lanes) * lanes.elem_bytes as u64;
    let bytes_fetched = segments.len() as u64 * unit as u64;
    Ok(Coalescing {
        op: lanes.op,
        granularity,
        segment_bytes: unit as u32,
        active_lanes,
        sectors,
        lines,
        requests: 1,
        bytes_requested,
        bytes_fetched,
        efficiency: (bytes_requested as f64 / bytes_fetched as f64).min(1.0),
        segments,
        lane_segment,
    })
}

/// The counts of one warp's global load or store without the segment list: what sweeps, batches
/// and the numbers line need. Equal, field for field, to the same fields of [`Coalescing`]
/// (4-byte floats at stride 2: 8 sectors whether loaded or stored).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CoalescingCounts {
    /// A load or a store (counted alike).
    pub op: Op,
    /// Unit `transactions`, `bytes_fetched` and `efficiency` are counted in.
    pub granularity: Granularity,
    /// Bytes per unit: 32 (sector) or 128 (line).
    pub segment_bytes: u32,
    /// Lanes that load.
    pub active_lanes: u32,
    /// Distinct 32-byte sectors touched.
    pub sectors: u32,
    /// Distinct 128-byte lines touched.
    pub lines: u32,
    /// Requests: one per load instruction with an active lane.
    pub requests: u32,
    /// `active lanes × element size`.
    pub bytes_requested: u64,
    /// `transactions × segment size`.
    pub bytes_fetched: u64,
    /// `bytes_requested / bytes_fetched`, capped at 1.
    pub efficiency: f64,
}

impl CoalescingCounts {
    /// Segments fetched in the chosen unit: `sectors` or `lines`.
    pub fn transactions(&self) -> u32 {
        match self.granularity {
            Granularity::Sector => self.sectors,
            Granularity::Line => self.lines,
        }
    }

    /// `1 − efficiency`.
    pub fn waste(&self) -> f64 {
        1.0 - self.efficiency
    }
}

impl Coalescing {
    /// The counts of this analysis (what [`coalesce_counts`] computes without building segments).
    pub fn counts(&self) -> CoalescingCounts {
        CoalescingCounts {
            op: self.op,
            granularity: self.granularity,
            segment_bytes: self.segment_bytes,
            active_lanes: self.active_lanes,
            sectors: self.sectors,
            lines: self.lines,
            requests: self.requests,
            bytes_requested: self.bytes_requested,
            bytes_fetched: self.bytes_fetched,
            efficiency: self.efficiency,
        }
    }
}

/// Counts sectors, lines, requests and bytes of a warp load or store without building the segment
/// list: no allocation, the same numbers as [`coalesce`] (stores count as loads).
///
/// Sectors = distinct `⌊a / 32⌋` over the bytes `[a_t, a_t + E)` of the active lanes; lines = distinct
/// `⌊sector / 4⌋`. Lanes' sectors usually arrive in order (any stride of one sign), so they are counted
/// in one pass; only scattered patterns are sorted, in place on the stack. Worked number: 4-byte
/// elements at stride 2 → lanes read bytes 0, 8, …, 248 → sectors 0–7 = 8 sectors, 2 lines, 50 %.
///
/// ```
/// use warpdrill_core::engine::{coalesce_counts, Granularity, WarpAccess};
/// let c = coalesce_counts(&WarpAccess::affine(4, 2, 0), Granularity::Sector).unwrap();
/// assert_eq!((c.sectors, c.lines, c.efficiency), (8, 2, 0.5));
/// ```
pub fn coalesce_counts(access: &WarpAccess, granularity: Granularity) -> Result<CoalescingCounts> {
    if let Some(lanes) = access.linear()? {
        let counts = linear_counts(&lanes);
        return Ok(finish(
            lanes.op,
            granularity,
            lanes.active.count_ones(),
            lanes.elem_bytes,
            counts,
        ));
    }
    // Borrowed where it was built: the array is not copied.
    match access.resolve_array() {
        Ok(ref lanes) => count_lanes(lanes, granularity),
        Err(e) => Err(e),
    }
}

/// [`coalesce_counts`] on lanes already resolved: the counting the kernel analyser uses for every
/// global access it executes, loads and stores alike. 32 lanes at byte stride 4 from 0 → 4
/// sectors.
///
/// ```
/// use warpdrill_core::engine::{Granularity, LaneArray, Op, coalescing::count_lanes};
/// let lanes: [i64; 32] = std::array::from_fn(|t| 4 * t as i64);
/// let store = LaneArray::from_warp32(&lanes, u32::MAX, 4, Op::Store);
/// assert_eq!(count_lanes(&store, Granularity::Sector).unwrap().sectors, 4);
/// ```
pub fn count_lanes(lanes: &LaneArray, granularity: Granularity) -> Result<CoalescingCounts> {
    // A hand-made array may hold anything: the passes below assume what `resolve_array` checks.
    if !super::access::ELEM_SIZES.contains(&lanes.elem_bytes) || lanes.warp_size > 64 {
        return Err(EngineError::range(
            "element size",
            format!("{} bytes", lanes.elem_bytes),
            "one of 1, 2, 4, 8, 16 bytes",
        ));
    }
    let active_lanes = lanes.active_lanes();
    if active_lanes == 0 {
        return Err(EngineError::range(
            "active lanes",
            "none",
            "at least one lane",
        ));
    }
    let last_byte = i64::from(lanes.elem_bytes) - 1;
    let counts = bitmap_counts(lanes, last_byte)
        .or_else(|| ordered_counts(lanes, last_byte))
        .unwrap_or_else(|| sorted_counts(lanes, last_byte));
    Ok(finish(
        lanes.op,
        granularity,
        active_lanes,
        lanes.elem_bytes,
        counts,
    ))
}

/// The counts of `active_lanes` lanes of `elem_bytes` that touch `sectors` sectors and `lines`
/// lines.
fn finish(
    op: Op,
    granularity: Granularity,
    active_lanes: u32,
    elem_bytes: u32,
    (sectors, lines): (u32, u32),
) -> CoalescingCounts {
    let unit = granularity.bytes() as u32;
    let transactions = match granularity {
        Granularity::Sector => sectors,
        Granularity::Line => lines,
    };
    let bytes_requested = u64::from(active_lanes) * u64::from(elem_bytes);
    let bytes_fetched = u64::from(transactions) * u64::from(unit);
    CoalescingCounts {
        op,
        granularity,
        segment_bytes: unit,
        active_lanes,
        sectors,
        lines,
        requests: 1,
        bytes_requested,
        bytes_fetched,
        efficiency: (bytes_requested as f64 / bytes_fetched as f64).min(1.0),
    }
}

/// Sectors and lines of a linear warp, without listing its lanes. A negative step reads the same
/// bytes as the positive one walked from the highest lane down, so the walk is turned to rise
/// first. When the lanes are all active and the gaps between their elements (`step − E` bytes)
/// are shorter than a sector, no sector between the first byte and the last is skipped: the
/// count is `⌊end / 32⌋ − ⌊start / 32⌋ + 1` at once (lines the same, as a line is longer), which
/// is every unit stride and, for 4-byte elements, every stride up to 8. Otherwise each lane adds
/// the sectors (lines) past the last one of the lane before.
fn linear_counts(lanes: &LinearLanes) -> (u32, u32) {
    let last_byte = i64::from(lanes.elem_bytes) - 1;
    // Bit k: lane `lowest + k` loads; `span` is the highest such k.
    let mut walk = lanes.active >> lanes.lowest();
    let span = 63 - walk.leading_zeros();
    let mut first = lanes.first;
    // Wrapping sums with the step's magnitude are exact: every address they reach fits in i64.
    let step = lanes.step.unsigned_abs();
    if lanes.step < 0 {
        first = first.wrapping_sub_unsigned(step.wrapping_mul(u64::from(span)));
        walk = walk.reverse_bits() >> (63 - span);
    }
    if walk & walk.wrapping_add(1) == 0 && step < u64::from(lanes.elem_bytes) + 32 {
        let end = first
            .wrapping_add_unsigned(step.wrapping_mul(u64::from(span)))
            .wrapping_add(last_byte);
        let count = |shift: u32| ((end >> shift) - (first >> shift) + 1) as u32;
        return (count(5), count(7));
    }
    // The lowest lane's own sectors (lines), then what each next lane adds.
    let mut previous_end = first.wrapping_add(last_byte);
    let (mut sectors, mut lines) = (
        (previous_end >> 5) - (first >> 5) + 1,
        (previous_end >> 7) - (first >> 7) + 1,
    );
    let mut remaining = walk & (walk - 1);
    while remaining != 0 {
        let k = remaining.trailing_zeros();
        remaining &= remaining - 1;
        let start = first.wrapping_add_unsigned(step.wrapping_mul(u64::from(k)));
        let end = start.wrapping_add(last_byte);
        // `>> 5` is ⌊a / 32⌋, `>> 7` ⌊a / 128⌋; what lies past the previous lane's last sector.
        sectors += (end >> 5) - ((start >> 5) - 1).max(previous_end >> 5);
        lines += (end >> 7) - ((start >> 7) - 1).max(previous_end >> 7);
        previous_end = end;
    }
    (sectors as u32, lines as u32)
}

/// Sectors within this many of the lowest one are counted in a bitmap (32 KB of addresses).
const BITMAP_SECTORS: i64 = 1024;

/// Sectors and lines of lanes in any order whose bytes lie within [`BITMAP_SECTORS`] sectors: one
/// bit per sector from a line boundary below the lowest byte, set for each lane's first and last
/// sector (an element of at most 16 bytes spans at most 2), then counted; a line is a group of
/// four bits. `None` for lanes spread wider.
fn bitmap_counts(lanes: &LaneArray, last_byte: i64) -> Option<(u32, u32)> {
    // First a guess in one pass: the 64 sectors (2 KB) from 32 below the lowest lane's line, in a
    // register. Most scattered warps stay that close; a lane outside sets a high bit of `outside`.
    let lowest = lanes.addresses[lanes.active.trailing_zeros() as usize] >> 5;
    let guess = (lowest & !3) - 32;
    let (mut bits, mut outside) = (0u64, 0u64);
    let mut remaining = lanes.active;
    while remaining != 0 {
        let address = lanes.addresses[remaining.trailing_zeros() as usize];
        remaining &= remaining - 1;
        let first = (address >> 5).wrapping_sub(guess) as u64;
        let last = (address.saturating_add(last_byte) >> 5).wrapping_sub(guess) as u64;
        outside |= first | last;
        bits |= 1 << (first & 63) | 1 << (last & 63);
    }
    if outside < 64 {
        return Some(count_bits(&[bits]));
    }
    // Then the exact reach, and a bitmap in memory.
    let (mut low, mut high) = (i64::MAX, i64::MIN);
    let mut remaining = lanes.active;
    while remaining != 0 {
        let address = lanes.addresses[remaining.trailing_zeros() as usize];
        remaining &= remaining - 1;
        low = low.min(address >> 5);
        high = high.max(address.saturating_add(last_byte) >> 5);
    }
    // A line boundary, so no line straddles two words of the bitmap.
    let base = low & !3;
    if high.checked_sub(base)? >= BITMAP_SECTORS {
        return None;
    }
    let mut bits = [0u64; BITMAP_SECTORS as usize / 64];
    let mut remaining = lanes.active;
    while remaining != 0 {
        let address = lanes.addresses[remaining.trailing_zeros() as usize];
        remaining &= remaining - 1;
        for sector in [address >> 5, address.saturating_add(last_byte) >> 5] {
            let bit = (sector - base) as usize;
            bits[bit / 64] |= 1 << (bit % 64);
        }
    }
    Some(count_bits(&bits[..=((high - base) / 64) as usize]))
}

/// Sectors and lines in a bitmap of sectors that starts at a line boundary.
fn count_bits(words: &[u64]) -> (u32, u32) {
    let sectors = words.iter().map(|w| w.count_ones()).sum();
    // Bit 4j of `w | w >> 1 | w >> 2 | w >> 3` is set when any sector of line j is.
    let lines = words
        .iter()
        .map(|w| ((w | w >> 1 | w >> 2 | w >> 3) & 0x1111_1111_1111_1111).count_ones())
        .sum();
    (sectors, lines)
}

/// Sectors and lines in one pass when the lanes' addresses never fall from lane to lane (any
/// stride ≥ 0) or never rise (any stride ≤ 0): each lane's sectors `[⌊a / 32⌋, ⌊(a + E − 1) / 32⌋]`
/// then overlap only the lanes' just before, so the distinct ones are those past the previous
/// lane's last (rising) or before its first (falling); lines the same with 128 bytes. No branch
/// per lane: the order is checked along the way, and `None` (the caller sorts) if it turns.
fn ordered_counts(lanes: &LaneArray, last_byte: i64) -> Option<(u32, u32)> {
    let mut remaining = lanes.active;
    if remaining == 0 {
        return Some((0, 0));
    }
    let first_lane = remaining.trailing_zeros() as usize;
    remaining &= remaining - 1;
    let start = lanes.addresses[first_lane];
    // `resolve_array` checked that the last byte is addressable; `>> 5` is ⌊a / 32⌋, `>> 7` ⌊a / 128⌋.
    let end = start.saturating_add(last_byte);
    let (mut sectors, mut lines) = ((end >> 5) - (start >> 5) + 1, (end >> 7) - (start >> 7) + 1);
    let (mut falling_sectors, mut falling_lines) = (sectors, lines);
    // The previous lane's first and last byte.
    let (mut previous_start, mut previous_end) = (start, end);
    let (mut rising, mut falling) = (true, true);
    while remaining != 0 {
        let lane = remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        let start = lanes.addresses[lane];
        let end = start.saturating_add(last_byte);
        rising &= start >= previous_start;
        falling &= start <= previous_start;
        // Rising: what lies past the previous lane's last sector (line). Out of order the sums
        // mean nothing (and may wrap); they are read only in order, where they are exact.
        let new = |shift: u32| (end >> shift) - ((start >> shift) - 1).max(previous_end >> shift);
        sectors = sectors.wrapping_add(new(5));
        lines = lines.wrapping_add(new(7));
        // Falling: what lies before the previous lane's first sector (line).
        let new = |shift: u32| ((end >> shift) + 1).min(previous_start >> shift) - (start >> shift);
        falling_sectors = falling_sectors.wrapping_add(new(5));
        falling_lines = falling_lines.wrapping_add(new(7));
        previous_start = start;
        previous_end = end;
    }
    if rising {
        Some((sectors as u32, lines as u32))
    } else if falling {
        Some((falling_sectors as u32, falling_lines as u32))
    } else {
        None
    }
}

/// Sectors and lines of scattered lanes: every sector listed on the stack, sorted, the distinct
/// ones counted.
fn sorted_counts(lanes: &LaneArray, last_byte: i64) -> (u32, u32) {
    // Each element of at most 16 bytes spans at most 2 sectors: 128 entries hold a 64-lane warp.
    let mut ids = [0i64; 128];
    let mut n = 0;
    let mut remaining = lanes.active;
    while remaining != 0 {
        let lane = remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        let address = lanes.addresses[lane];
        let first = address >> 5;
        let last = address.saturating_add(last_byte) >> 5;
        ids[n] = first;
        n += 1;
        if last != first {
            ids[n] = last;
            n += 1;
        }
    }
    let ids = &mut ids[..n];
    ids.sort_unstable();
    let mut sectors = 0u32;
    let mut lines = 0u32;
    let mut previous_sector = None;
    let mut previous_line = None;
    for &sector in ids.iter() {
        if previous_sector != Some(sector) {
            sectors += 1;
            previous_sector = Some(sector);
            let line = sector >> 2;
            if previous_line != Some(line) {
                lines += 1;
                previous_line = Some(line);
            }
        }
    }
    (sectors, lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::access::Pattern;

    fn sectors(access: WarpAccess) -> u32 {
        coalesce(&access, Granularity::Sector).unwrap().sectors
    }

    #[test]
    fn worked_facts_of_the_notes() {
        assert_eq!(sectors(WarpAccess::affine(4, 1, 0)), 4);
        assert_eq!(sectors(WarpAccess::affine(4, 1, 1)), 5);
        assert_eq!(sectors(WarpAccess::affine(4, 32, 0)), 32);
        assert_eq!(sectors(WarpAccess::affine(4, 1024, 0)), 32);
        assert_eq!(sectors(WarpAccess::affine(4, -1, 31)), 4);
        assert_eq!(sectors(WarpAccess::affine(4, 1, 0).with_mask(0xffff)), 2);
        assert_eq!(sectors(WarpAccess::affine(4, 1, 0).with_mask(0x1)), 1);
        for (size, expected) in [(12, 12), (24, 24)] {
            let aos = WarpAccess {
                elem_bytes: 4,
                pattern: Pattern::StructField {
                    struct_bytes: size,
                    field_offset: 0,
                    first: 0,
                    base_bytes: 0,
                },
                active_mask: u64::MAX,
                warp_size: 32,
                op: Op::Load,
            };
            assert_eq!(sectors(aos), expected, "{size}-byte struct");
        }
    }

    #[test]
    fn alignment_costs_lines_not_sectors() {
        let access = WarpAccess::explicit(4, (0..32).map(|t| 64 + 4 * t).collect());
        let by_sector = coalesce(&access, Granularity::Sector).unwrap();
        assert_eq!((by_sector.sectors, by_sector.lines), (4, 2));
        let by_line = coalesce(&access, Granularity::Line).unwrap();
        assert_eq!(by_line.transactions(), 2);
        assert_eq!(by_line.bytes_fetched, 256);
        assert!((by_line.efficiency - 0.5).abs() < 1e-12);
    }

    #[test]
    fn efficiency_and_waste() {
        let c = coalesce(&WarpAccess::affine(4, 32, 0), Granularity::Sector).unwrap();
        assert_eq!((c.bytes_requested, c.bytes_fetched), (128, 1024));
        assert!((c.efficiency - 0.125).abs() < 1e-12);
        assert!((c.waste() - 0.875).abs() < 1e-12);
        assert_eq!(c.segments[0].bytes_used, 4);
        let broadcast = coalesce(&WarpAccess::affine(4, 0, 0), Granularity::Sector).unwrap();
        assert_eq!(broadcast.sectors, 1);
        assert_eq!(broadcast.efficiency, 1.0);
    }

    #[test]
    fn lanes_are_mapped_to_their_sector() {
        let c = coalesce(&WarpAccess::affine(4, 1, 1), Granularity::Sector).unwrap();
        assert_eq!(c.lane_segment[0], Some(0));
        assert_eq!(c.lane_segment[7], Some(1));
        assert_eq!(c.segments[0].lanes, (0..7).collect::<Vec<_>>());
        assert_eq!(c.segments[0].bytes_used, 28);
        assert_eq!(c.segments[0].byte_mask, 0xffff_fff0);
        assert_eq!(c.segments[4].lanes, vec![31]);
    }

    #[test]
    fn scattered_lanes_at_the_edges_of_the_bitmap_count_as_the_full_analysis() {
        let span = BITMAP_SECTORS * 32;
        for (base, reach) in [
            (0, span - 32),
            (0, span - 17),
            (0, span - 16),
            (0, span),
            (96, span - 96),
            (100, span - 100),
            (-span, span),
            (i64::MIN, i64::MAX - 15),
        ] {
            for elem in [4u32, 16] {
                let offsets = vec![reach, base, base + 40, reach - 200, base + 7];
                let access = WarpAccess::explicit(elem, offsets).with_mask(0b11111);
                // The first guess covers 64 sectors from 32 below lane 0's line: lanes at its
                // first sector and one past its last must not share a bit.
                let guess = WarpAccess::explicit(
                    elem,
                    vec![base, base.saturating_sub(1024), base.saturating_add(1024)],
                );
                for unit in [Granularity::Sector, Granularity::Line] {
                    assert_eq!(
                        coalesce_counts(&guess, unit),
                        coalesce(&guess, unit).map(|c| c.counts()),
                        "{guess:?}"
                    );
                    assert_eq!(
                        coalesce_counts(&access, unit),
                        coalesce(&access, unit).map(|c| c.counts()),
                        "{access:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn stores_count_sectors_as_loads() {
        for access in [
            WarpAccess::affine(4, 1, 0),
            WarpAccess::affine(4, 1, 1),
            WarpAccess::affine(8, 32, 0),
            WarpAccess::explicit(16, vec![0, 4096, 16, 100]),
        ] {
            let load = coalesce(&access, Granularity::Sector).unwrap();
            let store = coalesce(&access.clone().with_op(Op::Store), Granularity::Sector).unwrap();
            assert_eq!((store.sectors, store.lines), (load.sectors, load.lines));
            assert_eq!(store.op, Op::Store);
            assert_eq!(
                coalesce_counts(&access.with_op(Op::Store), Granularity::Sector),
                Ok(store.counts())
            );
        }
    }

    #[test]
    fn no_active_lane_is_an_error() {
        assert!(
            coalesce(
                &WarpAccess::affine(4, 1, 0).with_mask(0),
                Granularity::Sector
            )
            .is_err()
        );
    }

    #[test]
    fn addresses_at_the_top_of_the_address_space_do_not_overflow() {
        // Found by the explorer's property test: shared memory, a base of i64::MAX − 3 and 4-byte
        // elements make the last segment end past i64::MAX.
        let top = WarpAccess::explicit(4, vec![0]).with_mask(1);
        let top = WarpAccess {
            pattern: crate::engine::Pattern::Affine {
                stride_elems: 0,
                offset_elems: 0,
                base_bytes: i64::MAX - 3,
            },
            ..top
        };
        let c = coalesce(&top, Granularity::Line).expect("the last 4 bytes fit");
        assert_eq!((c.lines, c.sectors), (1, 1));
        let past = WarpAccess {
            pattern: crate::engine::Pattern::Affine {
                stride_elems: 0,
                offset_elems: 0,
                base_bytes: i64::MAX - 2,
            },
            ..top
        };
        assert!(coalesce(&past, Granularity::Sector).is_err());
    }
}
