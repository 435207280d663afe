//! Global memory: warp lanes → fetched sectors (or lines), with the bytes each one uses.

use crate::engine::Coalescing;
use crate::engine::Granularity;
use crate::format;
use crate::i18n::Lang;
use crate::t;
use crate::ui::diagram::{SegmentLine, gap_text, pad_right, segment_lines, segment_mark};
use crate::ui::{Theme, block};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// Lanes in a row, each marked with the letter (and colour) of the segment it reads; below, one row per
/// segment with its address, bytes used (█) against fetched (·), and its lanes; far segments are
/// separated by a gap line instead of empty cells.
pub fn global_diagram(
    c: &Coalescing,
    theme: Theme,
    lang: Lang,
    title: &str,
    area: Rect,
    buf: &mut Buffer,
) {
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
    // The lane row's label: 6 columns, so the lanes start where the tick labels below them do.
    let lane_label = pad_right(&t!(lang, "explorer-lane"), 6);
    for (row, lanes) in c.lane_segment.chunks(per_row).enumerate() {
        let first = row * per_row;
        let mut lane_spans = vec![Span::styled(
            if row == 0 {
                lane_label.clone()
            } else {
                "      ".to_string()
            },
            theme.dim(),
        )];
        let mut tick_line = String::from("      ");
        for (i, segment) in lanes.iter().enumerate() {
            let (symbol, style) = match segment {
                Some(s) => (segment_mark(*s).to_string(), theme.series(*s)),
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
    let mut rows_left = (inner.height as usize).saturating_sub(lines.len());
    let entries = segment_lines(c);
    let count = c.segments.len();
    let mut gap_before: Option<Line> = None;
    for entry in entries {
        let row = match entry {
            SegmentLine::Gap { bytes, .. } => {
                gap_before = Some(Line::styled(
                    format!("  ⋮ {}", gap_text(lang, bytes, c)),
                    theme.dim(),
                ));
                continue;
            }
            SegmentLine::Segment(row) => row,
        };
        let need = 1 + usize::from(gap_before.is_some());
        let last = row.index + 1 == count;
        if need > rows_left || (!last && need + 1 > rows_left) {
            let more = (count - row.index) as u64;
            let text = match c.granularity {
                Granularity::Sector => t!(lang, "explorer-more-sectors", n = more),
                Granularity::Line => t!(lang, "explorer-more-lines", n = more),
            };
            lines.push(Line::styled(text, theme.dim()));
            break;
        }
        rows_left -= need;
        lines.extend(gap_before.take());
        let style = theme.series(row.index);
        let mut spans = vec![
            Span::styled(format!("{} ", row.mark), style),
            Span::raw(format!("{:>9} ", format::address(row.address))),
        ];
        spans.extend(row.cells.iter().map(|&used| {
            if used {
                Span::styled("█", style)
            } else {
                Span::styled("·", theme.dim())
            }
        }));
        spans.push(Span::raw(format!(
            " {:<12} {}/{} B",
            crate::ui::ellipsis(&row.lanes, 12),
            row.bytes_used,
            row.bytes
        )));
        lines.push(Line::from(spans));
    }
    Paragraph::new(lines).render(inner, buf);
}
