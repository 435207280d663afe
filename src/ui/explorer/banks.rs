//! Shared memory: lanes → 32 banks, one row per wavefront, conflicts and broadcasts named.

use crate::engine::{Arch, BankAnalysis, banks::BANKS};
use crate::format;
use crate::i18n::Lang;
use crate::t;
use crate::ui::diagram::{BankCell, bank_grid, pad_right, worst_bank};
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
    let vendor = b.vendor.key();
    // Rows are wavefronts (w1, w2…) on NVIDIA, LDS passes (p1, p2…) on AMD, whose "wavefront" is the
    // warp itself.
    let row_mark = if b.vendor == crate::engine::Vendor::Amd {
        'p'
    } else {
        'w'
    };
    let label = 5usize;
    let cell = cell_width(inner.width, label);
    let header = bank_header(cell);
    let mut lines = Vec::new();
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
    // Each phase also has its title line (when there are several) and may need a "… more" line.
    let titled = b.phases.len() > 1 || b.phase_lanes < 32;
    let grids = bank_grid(b);
    let tallest = grids.iter().map(|g| g.rows.len()).max().unwrap_or(0);
    let per_phase = |reserved: usize| {
        let budget =
            (inner.height as usize).saturating_sub(reserved + header.len() * b.phases.len());
        (budget / b.phases.len().max(1))
            .saturating_sub(usize::from(titled))
            .max(1)
    };
    // Two-character cells write lane numbers down two rows (tens, then units) when every grid row
    // fits twice; otherwise they, like one-character cells, show symbols.
    let legend_rows = crate::ui::wrapped_height(
        &[Line::from(t!(
            lang,
            "explorer-banks-legend-digits",
            vendor = vendor
        ))],
        inner.width,
    ) as usize;
    let base = crate::ui::wrapped_height(&trailing, inner.width) as usize;
    let lanes = match cell {
        3 => Lanes::Numbers,
        2 if tallest * 2 <= per_phase(base + legend_rows) => Lanes::Digits,
        _ => Lanes::Symbols,
    };
    match lanes {
        Lanes::Numbers => {}
        Lanes::Digits => trailing.push(Line::styled(
            t!(lang, "explorer-banks-legend-digits", vendor = vendor),
            theme.dim(),
        )),
        Lanes::Symbols => trailing.push(Line::styled(
            t!(lang, "explorer-banks-legend", vendor = vendor),
            theme.dim(),
        )),
    }
    let reserved = crate::ui::wrapped_height(&trailing, inner.width) as usize;
    let per_phase = per_phase(reserved);
    let lines_per_row = if lanes == Lanes::Digits { 2 } else { 1 };
    for (phase, grid) in b.phases.iter().zip(grids) {
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
                            n = phase.wavefronts,
                            vendor = vendor
                        )
                    } else {
                        t!(
                            lang,
                            "explorer-phase",
                            first = first,
                            last = last,
                            n = phase.wavefronts,
                            vendor = vendor
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
        let fit = per_phase / lines_per_row;
        let shown = if rows <= fit {
            rows
        } else {
            (per_phase.saturating_sub(1) / lines_per_row).max(1)
        };
        for (row, cells) in grid.rows.iter().take(shown).enumerate() {
            let serialized = row > 0;
            let name = if serialized {
                format!("{row_mark}{}✗", row + 1)
            } else {
                format!("{row_mark}{}", row + 1)
            };
            let name_style = if serialized { theme.bad() } else { theme.dim() };
            let style_of = |word: &BankCell| {
                if word.serialized {
                    theme.bad()
                } else if word.shared {
                    theme
                        .good()
                        .add_modifier(ratatui::style::Modifier::UNDERLINED)
                } else {
                    theme.series(word.lane as usize / 8)
                }
            };
            for (part, texts) in lane_rows(cells, cell, lanes).into_iter().enumerate() {
                let label_text = if part == 0 { name.as_str() } else { "" };
                let mut spans = vec![Span::styled(pad_right(label_text, label), name_style)];
                for (cell_of_bank, text) in cells.iter().zip(texts) {
                    spans.push(match cell_of_bank {
                        Some(word) => Span::styled(text, style_of(word)),
                        None => Span::styled(text, theme.dim()),
                    });
                }
                lines.push(Line::from(spans));
            }
        }
        if rows > shown {
            lines.push(Line::styled(
                format!(
                    "     {}",
                    t!(
                        lang,
                        "explorer-more-rows",
                        n = (rows - shown) as u64,
                        vendor = vendor
                    )
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

/// How lane numbers are written in the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lanes {
    /// `{lane:>3}` (`16+` when shared): three-character cells.
    Numbers,
    /// Two rows per wavefront, the tens digit above the units digit.
    Digits,
    /// `●`, `◆`, `✗`: no lane numbers.
    Symbols,
}

/// The one layout rule of the bank grid, in display cells: three-character columns (one header row,
/// lane numbers side by side) when 32 of them fit beside the `label`, else two-character columns,
/// else one-character columns (both with a two-row tens/units header).
fn cell_width(inner_width: u16, label: usize) -> usize {
    let width = usize::from(inner_width);
    let banks = BANKS as usize;
    if width >= label + 3 * banks {
        3
    } else if width >= label + 2 * banks {
        2
    } else {
        1
    }
}

/// The header rows over the bank columns: `  0  1 … 31` in three-character cells; otherwise the
/// tens digits, then the units digits, each right-aligned in its cell so no two numbers touch.
fn bank_header(cell: usize) -> Vec<String> {
    if cell >= 3 {
        return vec![(0..BANKS).map(|bank| format!("{bank:>cell$}")).collect()];
    }
    [10, 1]
        .iter()
        .map(|unit| {
            (0..BANKS)
                .map(|bank| format!("{:>cell$}", bank / unit % 10))
                .collect()
        })
        .collect()
}

/// The text of each cell of one wavefront row, per drawn line (two lines when `lanes` is
/// [`Lanes::Digits`]), each cell exactly `cell` columns wide.
fn lane_rows(cells: &[Option<BankCell>], cell: usize, lanes: Lanes) -> Vec<Vec<String>> {
    let one = |f: &dyn Fn(&BankCell) -> String, empty: &str| -> Vec<String> {
        cells
            .iter()
            .map(|c| match c {
                Some(word) => format!("{:>cell$}", f(word)),
                None => format!("{empty:>cell$}"),
            })
            .collect()
    };
    match lanes {
        Lanes::Numbers => vec![one(
            &|w| {
                if w.shared {
                    format!("{}+", w.lane % 100)
                } else {
                    (w.lane % 100).to_string()
                }
            },
            "·",
        )],
        Lanes::Digits => vec![
            one(&|w| (w.lane / 10 % 10).to_string(), "·"),
            one(&|w| (w.lane % 10).to_string(), ""),
        ],
        Lanes::Symbols => vec![one(
            &|w| {
                if w.serialized {
                    "✗".into()
                } else if w.shared {
                    "◆".into()
                } else {
                    "●".into()
                }
            },
            "·",
        )],
    }
}
