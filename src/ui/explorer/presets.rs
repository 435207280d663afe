//! Classic cases from the notes, one keystroke away, and the picker that lists them.

use super::{Lanes, Shape, Space, State};
use crate::engine::Arch;
use crate::ui::{Theme, centered, popup};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// A classic case from the notes.
pub struct Preset {
    /// Its name.
    pub name: &'static str,
    /// What it shows.
    pub what: &'static str,
    pub(super) apply: fn(&mut State),
}

/// The presets, in the picker's order.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "sequential floats",
        what: "stride 1: 4 sectors, 100 %",
        apply: |s| s.set_affine(Space::Global, 4, 1, 0),
    },
    Preset {
        name: "stride 2",
        what: "half of every sector wasted",
        apply: |s| s.set_affine(Space::Global, 4, 2, 0),
    },
    Preset {
        name: "stride 32",
        what: "one sector per lane, 12.5 %",
        apply: |s| s.set_affine(Space::Global, 4, 32, 0),
    },
    Preset {
        name: "stride 1024",
        what: "lanes 4 KB apart: gaps",
        apply: |s| s.set_affine(Space::Global, 4, 1024, 0),
    },
    Preset {
        name: "misaligned by one",
        what: "5 sectors instead of 4",
        apply: |s| s.set_affine(Space::Global, 4, 1, 1),
    },
    Preset {
        name: "AoS, 12-byte struct",
        what: "float3 field: 12 sectors",
        apply: |s| s.set_struct(12),
    },
    Preset {
        name: "AoS, 24-byte struct",
        what: "24 sectors for 128 useful bytes",
        apply: |s| s.set_struct(24),
    },
    Preset {
        name: "SoA",
        what: "the same field as its own array: 4 sectors",
        apply: |s| s.set_affine(Space::Global, 4, 1, 0),
    },
    Preset {
        name: "column walk, pitch 4096",
        what: "row-major matrix, down a column",
        apply: |s| {
            s.set_affine(Space::Global, 4, 1, 0);
            s.shape = Shape::Column;
            s.pitch = 4096;
        },
    },
    Preset {
        name: "half warp",
        what: "lanes 16-31 inactive: 2 sectors",
        apply: |s| {
            s.set_affine(Space::Global, 4, 1, 0);
            s.lanes = Lanes::Half;
        },
    },
    Preset {
        name: "transpose column, tile[32][32]",
        what: "shared: 32-way conflict",
        apply: |s| s.set_affine(Space::Shared, 4, 32, 0),
    },
    Preset {
        name: "padded tile[32][33]",
        what: "shared: conflict-free",
        apply: |s| s.set_affine(Space::Shared, 4, 33, 0),
    },
    Preset {
        name: "shared stride 2",
        what: "2-way conflict",
        apply: |s| s.set_affine(Space::Shared, 4, 2, 0),
    },
    Preset {
        name: "broadcast",
        what: "every lane reads one word: 1 wavefront",
        apply: |s| s.set_affine(Space::Shared, 4, 0, 0),
    },
    Preset {
        name: "8-byte doubles",
        what: "shared: two half-warp phases",
        apply: |s| s.set_affine(Space::Shared, 8, 1, 0),
    },
    Preset {
        name: "double tile[32][32] column",
        what: "shared: 32 wavefronts; [32][33] → 2",
        apply: |s| s.set_affine(Space::Shared, 8, 32, 0),
    },
    Preset {
        name: "AMD wave64 contiguous",
        what: "gfx942: 64 lanes, 2 lines",
        apply: |s| {
            s.set_affine(Space::Global, 4, 1, 0);
            s.arch = Arch::parse("gfx942").unwrap_or(Arch::default_arch());
        },
    },
    Preset {
        name: "AMD wave64 stride 64",
        what: "gfx942: 64 transactions",
        apply: |s| {
            s.set_affine(Space::Global, 4, 64, 0);
            s.arch = Arch::parse("gfx942").unwrap_or(Arch::default_arch());
        },
    },
];

pub(super) fn presets_popup(selected: usize, theme: Theme, area: Rect, buf: &mut Buffer) {
    let rect = centered(area, 72, PRESETS.len() as u16 + 2);
    let inner = popup(rect, "Presets (Enter apply, Esc close)", theme, buf);
    let rows = inner.height as usize;
    let first = selected.saturating_sub(rows.saturating_sub(1));
    let lines: Vec<Line> = PRESETS
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, preset)| {
            let style = if i == selected {
                theme.selected()
            } else {
                theme.text()
            };
            Line::from(vec![
                Span::styled(
                    format!(
                        "{} {:<32}",
                        if i == selected { "▸" } else { " " },
                        preset.name
                    ),
                    style,
                ),
                Span::styled(
                    preset.what.to_string(),
                    if i == selected { style } else { theme.dim() },
                ),
            ])
        })
        .collect();
    Paragraph::new(lines).render(inner, buf);
}
