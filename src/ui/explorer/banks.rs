//! Shared memory: lanes → 32 banks, one row per wavefront, conflicts and broadcasts named.

use crate::engine::{Arch, BankAnalysis, banks::BANKS};
use crate::format;
use crate::i18n::Lang;
use crate::t;
use crate::ui::diagram::{bank_grid, pad_right, worst_bank};
use crate::ui::{Theme, block};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// 32 bank columns per phase; row r holds the r-th distinct word each bank must deliver, showing the lane
/// that reads it. Rows after the first are serialized (marked ✗ and in the conflict colour); words several
/// lanes share are broadcasts (listed below the grid).
pub fn bank_diagram(
    b: &BankAnalysis,
    theme: Theme,
    lang: Lang,
    arch: &Arch,
    area: Rect,
    buf: &mut Buffer,
) {
    let title = crate::ui::arch_title(&t!(lang, "explorer-banks-title"), arch, area.width);
    let outer = block(&title, theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    let width = inner.width as usize;
    let label = 5usize;
    let cell = if width >= label + 3 * BANKS as usize {
        3
    } else if width >= label + 2 * BANKS as usize {
        2
    } else {
        1
    };
    let mut lines = Vec::new();
    // One-character columns need two header rows: tens, then units.
    let header: Vec<String> = if cell == 1 {
        vec![
            (0..BANKS)
                .map(|b| char::from(b'0' + (b / 10) as u8))
                .collect(),
            (0..BANKS)
                .map(|b| char::from(b'0' + (b % 10) as u8))
                .collect(),
        ]
    } else {
        vec![
            (0..BANKS)
                .map(|bank| format!("{bank:>w$}", w = cell))
                .collect(),
        ]
    };
    // The text under the grid is laid out first, so the grid gets the rows that are left.
    let mut trailing: Vec<Line> = Vec::new();
    let broadcasts: Vec<String> = b
        .phases
        .iter()
        .flat_map(|p| p.banks.iter().flatten())
        .filter(|w| w.lanes.len() > 1)
        .take(3)
        .map(|w| {
            t!(
                lang,
                "explorer-share-word",
                lanes = format::lane_ranges(&w.lanes),
                word = w.word.to_string()
            )
        })
        .collect();
    if !broadcasts.is_empty() {
        trailing.push(Line::styled(
            t!(lang, "explorer-broadcast", words = broadcasts.join("; ")),
            theme.good(),
        ));
    }
    if let Some((bank, words, lanes)) = worst_bank(b) {
        trailing.push(Line::styled(
            t!(
                lang,
                "explorer-serialized",
                bank = bank.to_string(),
                words = words.to_string(),
                lanes = crate::ui::ellipsis(&lanes, 60)
            ),
            theme.bad(),
        ));
    }
    if cell == 1 {
        trailing.push(Line::styled(t!(lang, "explorer-banks-legend"), theme.dim()));
    }
    let reserved = crate::ui::wrapped_height(&trailing, inner.width) as usize;
    let budget = (inner.height as usize).saturating_sub(reserved + header.len() * b.phases.len());
    // Each phase also has its title line (when there are several) and may need a "… more" line.
    let titled = b.phases.len() > 1 || b.phase_lanes < 32;
    let per_phase = (budget / b.phases.len().max(1))
        .saturating_sub(usize::from(titled))
        .max(1);
    for (phase, grid) in b.phases.iter().zip(bank_grid(b)) {
        if b.phases.len() > 1 || b.phase_lanes < 32 {
            lines.push(Line::styled(
                {
                    let first = phase.first_lane.to_string();
                    let last = (phase.first_lane + phase.lanes.saturating_sub(1)).to_string();
                    if b.merged {
                        t!(
                            lang,
                            "explorer-phase-merged",
                            first = first,
                            last = last,
                            n = phase.wavefronts
                        )
                    } else {
                        t!(
                            lang,
                            "explorer-phase",
                            first = first,
                            last = last,
                            n = phase.wavefronts
                        )
                    }
                },
                theme.dim(),
            ));
        }
        for (i, row) in header.iter().enumerate() {
            let name = if i == 0 { "bank" } else { "" };
            lines.push(Line::from(vec![
                Span::styled(pad_right(name, label), theme.dim()),
                Span::styled(row.clone(), theme.dim()),
            ]));
        }
        let rows = grid.rows.len();
        // Show every row that fits; otherwise keep one line to say how many are hidden.
        let shown = if rows <= per_phase {
            rows
        } else {
            per_phase.saturating_sub(1).max(1)
        };
        for (row, cells) in grid.rows.iter().take(shown).enumerate() {
            let serialized = row > 0;
            let mut spans = vec![Span::styled(
                format!(
                    "{:<label$}",
                    if serialized {
                        format!("w{}✗", row + 1)
                    } else {
                        format!("w{}", row + 1)
                    }
                ),
                if serialized { theme.bad() } else { theme.dim() },
            )];
            for cell_of_bank in cells {
                let span = match cell_of_bank {
                    Some(word) => {
                        let text = match cell {
                            1 if word.serialized => "✗".to_string(),
                            1 if word.shared => "◆".to_string(),
                            1 => "●".to_string(),
                            2 => format!("{:>2}", word.lane),
                            _ if word.shared => format!("{:>2}+", word.lane),
                            _ => format!("{:>3}", word.lane),
                        };
                        let style = if word.serialized {
                            theme.bad()
                        } else if word.shared {
                            theme
                                .good()
                                .add_modifier(ratatui::style::Modifier::UNDERLINED)
                        } else {
                            theme.series(word.lane as usize / 8)
                        };
                        Span::styled(text, style)
                    }
                    None => Span::styled(format!("{:>w$}", "·", w = cell), theme.dim()),
                };
                spans.push(span);
            }
            lines.push(Line::from(spans));
        }
        if rows > shown {
            lines.push(Line::styled(
                format!(
                    "     {}",
                    t!(lang, "explorer-more-rows", n = (rows - shown) as u64)
                ),
                theme.bad(),
            ));
        }
    }
    lines.extend(trailing);
    let room = crate::ui::wrap_room(&lines, inner);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(room, buf);
}
