//! What the access diagrams show, as plain data: the explorer draws it into a buffer with colours,
//! `warpdrill calc` prints it as text. One model, so the two pictures never disagree.
//!
//! ```text
//!   sector        address  bytes (█ used)    lanes                used
//!   A                 0x0  ████████████████  0-7                  32/32 B
//!   ⋮                      gap of 96 B (3 sectors not fetched)
//!   B                0x80  ██··██··██··██··  8-11                 16/32 B
//! ```

use crate::engine::{BankAnalysis, Coalescing, Granularity};
use crate::format;
use crate::i18n::Lang;
use crate::t;
pub use crate::text::{columns as width, cut as fit, pad as pad_right, pad_left};
use std::fmt::Write as _;

/// Cells of a segment's byte bar.
pub const SEGMENT_CELLS: usize = 16;

/// Marks of segments, in order: 62 letters and digits, then Greek letters — enough for every segment a
/// 64-lane warp can touch — then `+`.
const MARKS: &str =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789αβγδεζηθικλμνξπρστυφχψω";

/// The mark of the n-th segment: `A`–`Z`, `a`–`z`, `0`–`9`, `α`–`ω`, then `+`.
pub fn segment_mark(n: usize) -> char {
    MARKS.chars().nth(n).unwrap_or('+')
}

/// One fetched segment as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentRow {
    /// Position among the fetched segments.
    pub index: usize,
    /// Its mark (the letter its lanes carry).
    pub mark: char,
    /// Byte address of its first byte.
    pub address: i64,
    /// Per cell of the bar (each `bytes / 16` bytes): whether some lane asked for a byte of it.
    pub cells: [bool; SEGMENT_CELLS],
    /// The lanes that read it, as ranges (`0-7, 9`).
    pub lanes: String,
    /// Bytes some lane asked for.
    pub bytes_used: u32,
    /// Bytes fetched.
    pub bytes: u32,
}

/// A line of the segment list: a segment, or the gap of unfetched memory before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SegmentLine {
    /// Memory between two fetched segments that nobody reads.
    Gap {
        /// Bytes skipped.
        bytes: u64,
        /// Whole segments skipped, with the unit: `3 sectors`.
        units: String,
    },
    /// A fetched segment.
    Segment(SegmentRow),
}

/// The segment list of a coalescing analysis, gaps included.
pub fn segment_lines(c: &Coalescing) -> Vec<SegmentLine> {
    let size = i64::from(c.segment_bytes.max(1));
    let per_cell = (c.segment_bytes as usize / SEGMENT_CELLS).max(1);
    let mut lines = Vec::with_capacity(c.segments.len());
    let mut previous: Option<i64> = None;
    for (index, segment) in c.segments.iter().enumerate() {
        let gap = previous.map_or(0, |prev| {
            segment.address.saturating_sub(prev).saturating_sub(size)
        });
        if gap > 0 {
            let units = gap / size;
            let unit = c.granularity.plural();
            let unit = if units == 1 {
                unit.strip_suffix('s').unwrap_or(unit)
            } else {
                unit
            };
            lines.push(SegmentLine::Gap {
                bytes: gap.unsigned_abs(),
                units: format!("{units} {unit}"),
            });
        }
        previous = Some(segment.address);
        let mut cells = [false; SEGMENT_CELLS];
        for (i, cell) in cells.iter_mut().enumerate() {
            let first = i * per_cell;
            *cell = (first..first + per_cell)
                .any(|byte| byte < 128 && segment.byte_mask >> byte & 1 == 1);
        }
        lines.push(SegmentLine::Segment(SegmentRow {
            index,
            mark: segment_mark(index),
            address: segment.address,
            cells,
            lanes: format::lane_ranges(&segment.lanes),
            bytes_used: segment.bytes_used,
            bytes: c.segment_bytes,
        }));
    }
    lines
}

/// [`fit`], cut at a word boundary where there is one (mid-word only when a single word is longer
/// than the room).
pub fn fit_words(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    let room = fit(text, columns);
    let room = room.strip_suffix('…').unwrap_or(&room);
    let cut = match room.rfind(' ') {
        Some(at) if at > 0 => room[..at].trim_end_matches([',', ';', ':', ' ']),
        _ => room,
    };
    format!("{cut}…")
}

/// The segment list as text, one line per segment or gap (what `calc coalescing` prints), in
/// English.
pub fn segments_text(c: &Coalescing) -> String {
    segments_text_in(Lang::En, c)
}

/// The segment list as text in `lang`, columns aligned by terminal width.
pub fn segments_text_in(lang: Lang, c: &Coalescing) -> String {
    let unit = c.granularity.plural();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  {} {}  {}  {} {}",
        pad_right(unit.strip_suffix('s').unwrap_or(unit), 8),
        pad_left(&t!(lang, "diagram-address"), 12),
        pad_right(&t!(lang, "diagram-bytes-used"), 16),
        pad_right(&t!(lang, "diagram-lanes"), 20),
        t!(lang, "diagram-used"),
    );
    for line in segment_lines(c) {
        match line {
            SegmentLine::Gap { bytes, .. } => {
                let _ = writeln!(out, "  {:<8} {:>12}  {}", "⋮", "", gap_text(lang, bytes, c));
            }
            SegmentLine::Segment(row) => {
                let bar: String = row
                    .cells
                    .iter()
                    .map(|&used| if used { '█' } else { '·' })
                    .collect();
                let _ = writeln!(
                    out,
                    "  {:<8} {:>12}  {bar}  {:<20} {}/{} B",
                    row.mark,
                    format::address(row.address),
                    row.lanes,
                    row.bytes_used,
                    row.bytes
                );
            }
        }
    }
    out
}

/// The line for `bytes` of memory nobody reads between two segments: `gap of 96 B (3 sectors not
/// fetched)`.
pub fn gap_text(lang: Lang, bytes: u64, c: &Coalescing) -> String {
    let segments = bytes / u64::from(c.segment_bytes.max(1));
    let units = match c.granularity {
        Granularity::Sector => t!(lang, "diagram-sectors", n = segments),
        Granularity::Line => t!(lang, "diagram-lines", n = segments),
    };
    t!(
        lang,
        "diagram-gap",
        bytes = format::bytes(bytes),
        units = units
    )
}

/// One word a bank delivers in one wavefront, as drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BankCell {
    /// The first lane that reads it.
    pub lane: u32,
    /// Several lanes read it (a broadcast).
    pub shared: bool,
    /// It waits for an earlier wavefront (a conflict).
    pub serialized: bool,
}

/// One phase of a shared-memory load as a grid: a row per wavefront, a column per bank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseGrid {
    /// First lane of the phase.
    pub first_lane: u32,
    /// Lanes in the phase.
    pub lanes: u32,
    /// `rows[w][bank]`: the word `bank` delivers in wavefront `w + 1`, if any.
    pub rows: Vec<Vec<Option<BankCell>>>,
}

/// The grid of every phase.
pub fn bank_grid(b: &BankAnalysis) -> Vec<PhaseGrid> {
    b.phases
        .iter()
        .map(|phase| PhaseGrid {
            first_lane: phase.first_lane,
            lanes: phase.lanes,
            rows: (0..phase.wavefronts as usize)
                .map(|row| {
                    phase
                        .banks
                        .iter()
                        .map(|words| {
                            words.get(row).and_then(|word| {
                                Some(BankCell {
                                    lane: *word.lanes.first()?,
                                    shared: word.lanes.len() > 1,
                                    serialized: row > 0,
                                })
                            })
                        })
                        .collect()
                })
                .collect(),
        })
        .collect()
}

/// The bank that serializes most (first phase, lowest bank on a tie): `(bank, words it delivers one
/// after another, the lanes that read them)`; `None` without a conflict.
pub fn worst_bank(b: &BankAnalysis) -> Option<(usize, usize, String)> {
    b.phases
        .iter()
        .flat_map(|p| p.banks.iter().enumerate())
        .filter(|(_, words)| words.len() > 1)
        .min_by_key(|(bank, words)| (std::cmp::Reverse(words.len()), *bank))
        .map(|(bank, words)| {
            let mut lanes: Vec<u32> = words.iter().flat_map(|w| w.lanes.clone()).collect();
            lanes.sort_unstable();
            (bank, words.len(), format::lane_ranges(&lanes))
        })
}

/// The bank grid as text (what `calc banks` prints), in English: lane numbers in bank columns, `+`
/// where several lanes share the word.
pub fn banks_text(b: &BankAnalysis) -> String {
    banks_text_in(Lang::En, b)
}

/// The bank grid as text in `lang`.
pub fn banks_text_in(lang: Lang, b: &BankAnalysis) -> String {
    let mut out = String::new();
    let banks = b.phases.first().map_or(32, |p| p.banks.len());
    let header: String = (0..banks).map(|bank| format!("{bank:>3}")).collect();
    let titled = b.phases.len() > 1 || b.phase_lanes < 32;
    // w1, w2… (wavefronts) on NVIDIA; p1, p2… (LDS passes) on AMD.
    let row_mark = if b.vendor == crate::engine::Vendor::Amd {
        'p'
    } else {
        'w'
    };
    for grid in bank_grid(b) {
        if titled {
            let _ = writeln!(
                out,
                "  {}",
                t!(
                    lang,
                    "diagram-phase",
                    first = grid.first_lane.to_string(),
                    last = (grid.first_lane + grid.lanes.saturating_sub(1)).to_string(),
                    wavefronts = t!(
                        lang,
                        "diagram-wavefronts",
                        n = grid.rows.len() as u64,
                        vendor = b.vendor.key()
                    )
                )
            );
        }
        let _ = writeln!(out, "  bank{header}");
        for (row, cells) in grid.rows.iter().enumerate() {
            let cells: String = cells
                .iter()
                .map(|cell| match cell {
                    Some(cell) if cell.shared => format!("{:>2}+", cell.lane),
                    Some(cell) => format!("{:>3}", cell.lane),
                    None => "  ·".to_string(),
                })
                .collect();
            let _ = writeln!(out, "  {row_mark}{:<3}{cells}", row + 1);
        }
    }
    let _ = writeln!(
        out,
        "  {}",
        t!(lang, "diagram-banks-legend", vendor = b.vendor.key())
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Arch, Granularity, WarpAccess, bank_conflicts, coalesce};

    #[test]
    fn a_stride_two_sector_shows_every_other_pair_of_cells_used() {
        // 4-byte elements, stride 2: a sector holds lanes t, t+1, …, 4 of them, bytes 0-3, 8-11, ….
        let c = coalesce(&WarpAccess::affine(4, 2, 0), Granularity::Sector).unwrap();
        let lines = segment_lines(&c);
        assert_eq!(lines.len(), 8);
        let SegmentLine::Segment(row) = &lines[1] else {
            panic!("{lines:?}")
        };
        assert_eq!((row.mark, row.address, row.bytes_used), ('B', 0x20, 16));
        assert_eq!(row.lanes, "4-7");
        let bar: String = row
            .cells
            .iter()
            .map(|&u| if u { '█' } else { '·' })
            .collect();
        assert_eq!(bar, "██··██··██··██··");
        assert!(segments_text(&c).contains("B                0x20  ██··██··██··██··  4-7"));
    }

    #[test]
    fn far_segments_are_separated_by_a_gap() {
        // Stride 64 elements of 4 B: lanes 256 B apart, one sector each, 7 sectors skipped between.
        let c = coalesce(&WarpAccess::affine(4, 64, 0), Granularity::Sector).unwrap();
        let lines = segment_lines(&c);
        assert_eq!(
            lines[1],
            SegmentLine::Gap {
                bytes: 224,
                units: "7 sectors".into()
            }
        );
    }

    #[test]
    fn every_segment_of_a_wave64_has_its_own_mark() {
        let marks: Vec<char> = (0..64).map(segment_mark).collect();
        let mut unique = marks.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 64, "{marks:?}");
        assert!(!marks.contains(&'+'));
    }

    #[test]
    fn the_worst_bank_names_the_lanes_that_use_it() {
        // Shared stride 2 (4-byte words): lanes t and t+16 meet in bank 2t mod 32.
        let b = bank_conflicts(&WarpAccess::affine(4, 2, 0), Arch::default_arch()).unwrap();
        assert_eq!(worst_bank(&b), Some((0, 2, "0, 16".to_string())));
        let grid = bank_grid(&b);
        assert_eq!(grid[0].rows.len(), 2);
        assert_eq!(
            grid[0].rows[1][0],
            Some(BankCell {
                lane: 16,
                shared: false,
                serialized: true
            })
        );
        assert!(
            banks_text(&b).contains("w2   16  · 17"),
            "{}",
            banks_text(&b)
        );
    }
}
