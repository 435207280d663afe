//! Classic cases from the notes, one keystroke away, and the picker that lists them.

use super::{Lanes, Shape, Space, State};
use crate::engine::{Arch, Op};
use crate::i18n::Lang;
use crate::t;
use crate::ui::diagram::{fit_words, pad_right};
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

impl Preset {
    /// The preset called `name` (its English name, as the explorer remembers it).
    pub fn named(name: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == name)
    }

    /// Its name in `lang`.
    pub fn name_in(&self, lang: Lang) -> String {
        match self.name {
            "sequential floats" => t!(lang, "explorer-preset-sequential"),
            "stride 2" => t!(lang, "explorer-preset-stride2"),
            "stride 32" => t!(lang, "explorer-preset-stride32"),
            "stride 1024" => t!(lang, "explorer-preset-stride1024"),
            "misaligned by one" => t!(lang, "explorer-preset-misaligned"),
            "AoS, 12-byte struct" => t!(lang, "explorer-preset-aos12"),
            "AoS, 24-byte struct" => t!(lang, "explorer-preset-aos24"),
            "SoA" => t!(lang, "explorer-preset-soa"),
            "column walk, pitch 4096" => t!(lang, "explorer-preset-column"),
            "half warp" => t!(lang, "explorer-preset-half-warp"),
            "transpose column, tile[32][32]" => t!(lang, "explorer-preset-transpose"),
            "padded tile[32][33]" => t!(lang, "explorer-preset-padded"),
            "shared stride 2" => t!(lang, "explorer-preset-shared-stride2"),
            "broadcast" => t!(lang, "explorer-preset-broadcast"),
            "8-byte doubles" => t!(lang, "explorer-preset-doubles"),
            "double tile[32][32] column" => t!(lang, "explorer-preset-double-tile"),
            "AMD wave64 contiguous" => t!(lang, "explorer-preset-amd-contiguous"),
            "AMD wave64 stride 64" => t!(lang, "explorer-preset-amd-stride64"),
            "8-byte store, one address" => t!(lang, "explorer-preset-store-broadcast"),
            "store tile[32][32] column" => t!(lang, "explorer-preset-store-column"),
            other => other.to_string(),
        }
    }

    /// What it shows, in `lang`.
    pub fn what_in(&self, lang: Lang) -> String {
        match self.name {
            "sequential floats" => t!(lang, "explorer-preset-sequential-what"),
            "stride 2" => t!(lang, "explorer-preset-stride2-what"),
            "stride 32" => t!(lang, "explorer-preset-stride32-what"),
            "stride 1024" => t!(lang, "explorer-preset-stride1024-what"),
            "misaligned by one" => t!(lang, "explorer-preset-misaligned-what"),
            "AoS, 12-byte struct" => t!(lang, "explorer-preset-aos12-what"),
            "AoS, 24-byte struct" => t!(lang, "explorer-preset-aos24-what"),
            "SoA" => t!(lang, "explorer-preset-soa-what"),
            "column walk, pitch 4096" => t!(lang, "explorer-preset-column-what"),
            "half warp" => t!(lang, "explorer-preset-half-warp-what"),
            "transpose column, tile[32][32]" => t!(lang, "explorer-preset-transpose-what"),
            "padded tile[32][33]" => t!(lang, "explorer-preset-padded-what"),
            "shared stride 2" => t!(lang, "explorer-preset-shared-stride2-what"),
            "broadcast" => t!(lang, "explorer-preset-broadcast-what"),
            "8-byte doubles" => t!(lang, "explorer-preset-doubles-what"),
            "double tile[32][32] column" => t!(lang, "explorer-preset-double-tile-what"),
            "AMD wave64 contiguous" => t!(lang, "explorer-preset-amd-contiguous-what"),
            "AMD wave64 stride 64" => t!(lang, "explorer-preset-amd-stride64-what"),
            "8-byte store, one address" => t!(lang, "explorer-preset-store-broadcast-what"),
            "store tile[32][32] column" => t!(lang, "explorer-preset-store-column-what"),
            _ => self.what.to_string(),
        }
    }
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
        what: "one array per field: 4 sectors",
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
        what: "all lanes, one word: 1 wavefront",
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
        name: "8-byte store, one address",
        what: "store: 2 wavefronts (the load: 1)",
        apply: |s| {
            s.set_affine(Space::Shared, 8, 0, 0);
            s.op = Op::Store;
        },
    },
    Preset {
        name: "store tile[32][32] column",
        what: "transpose write: 32 wavefronts",
        apply: |s| {
            s.set_affine(Space::Shared, 4, 32, 0);
            s.op = Op::Store;
        },
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

/// Columns of a preset's name in the picker.
const NAME_WIDTH: usize = 32;

pub(super) fn presets_popup(
    selected: usize,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) {
    let rect = centered(area, 72, PRESETS.len() as u16 + 2);
    let inner = popup(rect, &t!(lang, "explorer-presets-title"), theme, buf);
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
                        "{} {}",
                        if i == selected { "▸" } else { " " },
                        pad_right(&fit_words(&preset.name_in(lang), NAME_WIDTH), NAME_WIDTH)
                    ),
                    style,
                ),
                Span::styled(
                    // What is left of the row after the name, cut with an ellipsis, never mid-word
                    // (nor through a wide character).
                    fit_words(
                        &preset.what_in(lang),
                        usize::from(inner.width).saturating_sub(NAME_WIDTH + 2),
                    ),
                    if i == selected { style } else { theme.dim() },
                ),
            ])
        })
        .collect();
    Paragraph::new(lines).render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_description_fits_the_picker_at_80_columns() {
        // The picker is 72 columns wide at 80×24: 2 for its border, 2 for the marker and space,
        // NAME_WIDTH for the name.
        let room = 72 - 2 - 2 - NAME_WIDTH;
        for preset in PRESETS {
            assert!(preset.name.chars().count() <= NAME_WIDTH, "{}", preset.name);
            assert!(
                preset.what.chars().count() <= room,
                "`{}` is {} characters; {room} fit",
                preset.what,
                preset.what.chars().count()
            );
        }
    }

    #[test]
    fn long_descriptions_are_cut_at_a_word_with_an_ellipsis() {
        assert_eq!(
            crate::ui::ellipsis_words("lanes 4 KB apart: gaps", 15),
            "lanes 4 KB…"
        );
        assert_eq!(crate::ui::ellipsis_words("short", 15), "short");
        assert_eq!(crate::ui::ellipsis_words("unbreakable", 5), "unbr…");
    }
}
