//! Global memory: warp lanes → fetched sectors (or lines), with the bytes each one uses.

use crate::engine::Coalescing;
use crate::format;
use crate::ui::{Theme, block};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// Marker letter of the n-th segment: A–Z, a–z, 0–9, then `+`.
pub(super) fn segment_letter(n: usize) -> char {
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    LETTERS.get(n).map_or('+', |b| *b as char)
}

/// Lanes in a row, each marked with the letter (and colour) of the segment it reads; below, one row per
/// segment with its address, bytes used (█) against fetched (·), and its lanes; far segments are
/// separated by a gap line instead of empty cells.
pub fn global_diagram(c: &Coalescing, theme: Theme, title: &str, area: Rect, buf: &mut Buffer) {
    let outer = block(title, theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    let warp = c.lane_segment.len();
    let width = inner.width as usize;
    let cell = if width >= 6 + warp * 2 { 2 } else { 1 };
    // A warp wider than the pane (wave64 in a narrow window) wraps into rows of 32 lanes.
    let per_row = if width >= 6 + warp * cell {
        warp
    } else {
        32.min(warp)
    };
    let mut lines = Vec::new();
    for (row, lanes) in c.lane_segment.chunks(per_row).enumerate() {
        let first = row * per_row;
        let mut lane_spans = vec![Span::styled(
            if row == 0 { "lane  " } else { "      " },
            theme.dim(),
        )];
        let mut tick_line = String::from("      ");
        for (i, segment) in lanes.iter().enumerate() {
            let (symbol, style) = match segment {
                Some(s) => (segment_letter(*s).to_string(), theme.series(*s)),
                None => ("·".to_string(), theme.dim()),
            };
            lane_spans.push(Span::styled(format!("{symbol:<cell$}"), style));
            if i % 8 == 0 {
                let label = (first + i).to_string();
                tick_line.push_str(&format!("{label:<w$}", w = cell * 8));
            }
        }
        lines.push(Line::from(lane_spans));
        lines.push(Line::styled(tick_line.trim_end().to_string(), theme.dim()));
    }
    let bar_cells = 16usize;
    let segment_bytes = c.segment_bytes as usize;
    let per_cell = segment_bytes / bar_cells;
    let mut rows_left = (inner.height as usize).saturating_sub(lines.len());
    let mut previous: Option<i64> = None;
    let count = c.segments.len();
    for (index, segment) in c.segments.iter().enumerate() {
        let gap = previous.map_or(0, |prev| {
            segment.address - prev - i64::from(c.segment_bytes)
        });
        let need = if gap > 0 { 2 } else { 1 };
        let last = index + 1 == count;
        if need > rows_left || (!last && need + 1 > rows_left) {
            lines.push(Line::styled(
                format!(
                    "… {} more {} not shown (enlarge the window)",
                    count - index,
                    c.granularity.plural()
                ),
                theme.dim(),
            ));
            break;
        }
        rows_left -= need;
        if gap > 0 {
            lines.push(Line::styled(
                {
                    let units = gap / i64::from(c.segment_bytes);
                    let unit = c.granularity.plural();
                    let unit = if units == 1 {
                        &unit[..unit.len() - 1]
                    } else {
                        unit
                    };
                    format!(
                        "  ⋮ gap of {} ({units} {unit} not fetched)",
                        format::bytes(gap as u64)
                    )
                },
                theme.dim(),
            ));
        }
        previous = Some(segment.address);
        let style = theme.series(index);
        let mut spans = vec![
            Span::styled(format!("{} ", segment_letter(index)), style),
            Span::raw(format!("{:>9} ", format!("{:#x}", segment.address))),
        ];
        for cell_index in 0..bar_cells {
            let bits = ((1u128 << per_cell) - 1) << (cell_index * per_cell);
            let used = segment.byte_mask & bits != 0;
            spans.push(if used {
                Span::styled("█", style)
            } else {
                Span::styled("·", theme.dim())
            });
        }
        let lanes = format::lane_ranges(&segment.lanes);
        spans.push(Span::raw(format!(
            " {:<12} {}/{} B",
            crate::ui::ellipsis(&lanes, 12),
            segment.bytes_used,
            c.segment_bytes
        )));
        lines.push(Line::from(spans));
    }
    Paragraph::new(lines).render(inner, buf);
}
