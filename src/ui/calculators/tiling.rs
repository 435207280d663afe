//! The tiling calculator: a tiled matrix multiply's reuse, shared-memory footprint, occupancy and
//! arithmetic intensity, with the tile sizes compared side by side.

use super::{clamp_u32, cycle, frame, in_range, next_nvidia, nvidia_arch, results_width};
use crate::engine::{self, Arch, ELEM_SIZES, TilingInput};
use crate::format;
use crate::i18n::Lang;
use crate::t;
use crate::ui::diagram::pad_left;
use crate::ui::fields::{Panel, PanelEvent, parse_int};
use crate::ui::{Theme, block};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// Tiling inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct TilingInputs {
    /// Architecture.
    pub arch: &'static Arch,
    /// Sizes.
    pub input: TilingInput,
    /// Registers per thread of the tiled kernel.
    pub regs: u32,
    /// The panel.
    pub panel: Panel,
}

/// Rows of the panel, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Row {
    N,
    Tile,
    Element,
    Arch,
    Registers,
}

impl Row {
    const ALL: [Row; 5] = [Row::N, Row::Tile, Row::Element, Row::Arch, Row::Registers];

    fn label(self, lang: Lang) -> String {
        match self {
            Row::N => "N".to_string(),
            Row::Tile => t!(lang, "calc-tiling-row-tile"),
            Row::Element => t!(lang, "calc-tiling-row-element"),
            Row::Arch => t!(lang, "calc-occ-row-arch"),
            Row::Registers => t!(lang, "calc-occ-row-registers"),
        }
    }
}

/// Largest matrix size N (the engine's bound).
const MAX_N: u64 = 1 << 20;
/// Largest tile ←→ reach: a 64×64 tile is already past 1024 threads.
const STEPPED_TILE_MAX: u64 = 64;

impl TilingInputs {
    /// The row under the cursor (the last one if the cursor is past it).
    fn selected(&self) -> Row {
        *Row::ALL.get(self.panel.selected).unwrap_or(&Row::Registers)
    }

    fn value(&self, row: Row, lang: Lang) -> String {
        match row {
            Row::N => format!("{}", self.input.n),
            Row::Tile => format!("{0}×{0}", self.input.tile),
            Row::Element => format!("{} B", self.input.elem_bytes),
            Row::Arch => self.arch.key.to_string(),
            Row::Registers => t!(lang, "calc-value-per-thread", n = self.regs.to_string()),
        }
    }

    fn rows(&self, lang: Lang) -> Vec<(String, String)> {
        Row::ALL
            .iter()
            .map(|&row| (row.label(lang), self.value(row, lang)))
            .collect()
    }

    /// Handles a key: ↑↓ choose a row, ←→ step its value, Enter types one.
    pub(super) fn key(&mut self, key: KeyEvent, lang: Lang) {
        let row = self.selected();
        match self.panel.key(key, Row::ALL.len()) {
            PanelEvent::Adjust(step) => self.adjust(row, step),
            PanelEvent::Submit(text) => self.panel.error = self.set(row, &text, lang).err(),
            PanelEvent::Handled | PanelEvent::Ignored => {}
        }
    }

    /// Steps `row`: N and the tile double or halve (N stays at least the tile, the tile at most
    /// 64 and N), the element size and the architecture cycle, registers move by one.
    fn adjust(&mut self, row: Row, step: i64) {
        let input = &mut self.input;
        match row {
            Row::N => {
                let n = if step > 0 {
                    input.n.saturating_mul(2)
                } else {
                    input.n / 2
                };
                // A tile typed past MAX_N cannot raise the floor above the ceiling.
                input.n = n.clamp(input.tile.min(MAX_N), MAX_N);
            }
            Row::Tile => {
                let tile = if step > 0 {
                    input.tile.saturating_mul(2)
                } else {
                    input.tile / 2
                };
                // At least 1 even when N is 0 (an exercise's numbers are not checked here).
                input.tile = tile.clamp(1, STEPPED_TILE_MAX.min(input.n).max(1));
            }
            Row::Element => {
                // A size that is not in the list steps from 4 bytes.
                let at = ELEM_SIZES
                    .iter()
                    .position(|&e| e == input.elem_bytes)
                    .unwrap_or(2);
                input.elem_bytes = cycle(&ELEM_SIZES, at, step).unwrap_or(input.elem_bytes);
            }
            Row::Arch => self.arch = next_nvidia(self.arch, step),
            Row::Registers => self.regs = clamp_u32(i64::from(self.regs) + step, 0, 255),
        }
    }

    /// Sets `row` to a typed value; an unusable one leaves it as it was and says why.
    fn set(&mut self, row: Row, text: &str, lang: Lang) -> Result<(), String> {
        let max = i64::try_from(MAX_N).unwrap_or(i64::MAX);
        match row {
            Row::N => self.input.n = u64::from(in_range(parse_int(text)?, 1, max, "N", lang)?),
            Row::Tile => {
                let name = t!(lang, "calc-tiling-row-tile");
                self.input.tile = u64::from(in_range(parse_int(text)?, 1, max, &name, lang)?);
            }
            Row::Element => {
                let name = t!(lang, "calc-name-element-size");
                let e = in_range(parse_int(text)?, 1, 16, &name, lang)?;
                if !ELEM_SIZES.contains(&e) {
                    return Err(t!(lang, "calc-error-element-size"));
                }
                self.input.elem_bytes = e;
            }
            Row::Arch => self.arch = nvidia_arch(text, lang)?,
            Row::Registers => {
                let name = t!(lang, "calc-occ-row-registers");
                self.regs = in_range(parse_int(text)?, 0, 255, &name, lang)?;
            }
        }
        Ok(())
    }
}

/// Draws the tiling calculator: the panel, what the chosen tile buys, and a table of tile sizes.
pub(super) fn render(
    inputs: &TilingInputs,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) {
    let texts = inputs.rows(lang);
    let rows: Vec<(&str, String)> = texts.iter().map(|(l, v)| (l.as_str(), v.clone())).collect();
    let matmul = t!(lang, "calc-tiling-panel");
    let panel = (matmul.as_str(), rows.as_slice(), &inputs.panel);
    let title = crate::ui::arch_title(
        &t!(lang, "calc-tiling-title"),
        inputs.arch,
        results_width(area),
    );
    let lines = match engine::tiling(&inputs.input, Some(inputs.arch), inputs.regs) {
        Ok(t) => {
            let mut lines = vec![
                Line::from(vec![
                    Span::styled(
                        t!(
                            lang,
                            "calc-tiling-factor",
                            factor = format::trim_float(t.reduction_factor, 2)
                        ),
                        theme.title(),
                    ),
                    Span::raw(format!(
                        " · {}",
                        t!(
                            lang,
                            "calc-tiling-reads",
                            naive = format::si(t.naive_reads as f64),
                            tiled = format::si(t.tiled_reads as f64)
                        )
                    )),
                ]),
                Line::from(t!(
                    lang,
                    "calc-tiling-footprint",
                    bytes = format::bytes(t.smem_bytes_per_block),
                    tile = inputs.input.tile.to_string(),
                    elem = inputs.input.elem_bytes.to_string()
                )),
                Line::from(t!(
                    lang,
                    "calc-tiling-smem-blocks",
                    blocks = t.smem_blocks_per_sm.unwrap_or(0).to_string()
                )),
            ];
            match &t.occupancy {
                Some(o) => lines.push(Line::from(t!(
                    lang,
                    "calc-tiling-full-rule",
                    threads = inputs
                        .input
                        .tile
                        .saturating_mul(inputs.input.tile)
                        .to_string(),
                    regs = inputs.regs.to_string(),
                    blocks = o.active_blocks_per_sm.to_string(),
                    percent = format::percent(o.occupancy),
                    limiters = o
                        .limited_by
                        .iter()
                        .map(|l| super::occupancy::limiter_label(l, lang))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
                None => lines.push(Line::styled(
                    t!(
                        lang,
                        "calc-tiling-too-big",
                        tile = inputs.input.tile.to_string()
                    ),
                    theme.bad(),
                )),
            }
            lines.push(Line::from(vec![
                Span::raw(format!("{} ", t!(lang, "calc-tiling-intensity"))),
                Span::styled(
                    format!(
                        "{} → {} FLOP/B",
                        format::trim_float(t.naive_intensity, 3),
                        format::trim_float(t.tiled_intensity, 3)
                    ),
                    theme.good(),
                ),
                Span::raw(format!(" ({})", t!(lang, "calc-tiling-reuse"))),
            ]));
            lines
        }
        Err(e) => vec![Line::styled(e.to_string(), theme.bad())],
    };
    let table_area = frame(panel, &title, lines, 10, theme, area, buf);
    // Compare tile sizes side by side.
    let outer = block(&t!(lang, "calc-tiling-table"), theme);
    let inner = outer.inner(table_area);
    outer.render(table_area, buf);
    let mut lines = vec![Line::styled(
        format!(
            "{} {} {} {} {} {:>7}",
            pad_left(&t!(lang, "calc-tiling-col-tile"), 6),
            pad_left(&t!(lang, "calc-tiling-col-smem"), 10),
            pad_left(&t!(lang, "calc-tiling-col-blocks"), 9),
            pad_left(&t!(lang, "calc-tiling-col-occupancy"), 9),
            pad_left(&t!(lang, "calc-tiling-col-factor"), 7),
            "FLOP/B"
        ),
        theme.dim(),
    )];
    for tile in [4u64, 8, 16, 32, 64] {
        if tile > inputs.input.n {
            continue;
        }
        let input = TilingInput {
            tile,
            ..inputs.input
        };
        if let Ok(t) = engine::tiling(&input, Some(inputs.arch), inputs.regs) {
            let occupancy = t.occupancy.map_or(t!(lang, "calc-tiling-no-launch"), |o| {
                format::percent(o.occupancy)
            });
            let blocks = t
                .occupancy
                .map_or("—".to_string(), |o| o.active_blocks_per_sm.to_string());
            let row = format!(
                "{:>6} {:>10} {:>9} {} {:>6}× {:>7}",
                format!("{tile}×{tile}"),
                format::bytes(t.smem_bytes_per_block),
                blocks,
                pad_left(&occupancy, 9),
                format::trim_float(t.reduction_factor, 2),
                format::trim_float(t.tiled_intensity, 3)
            );
            lines.push(if tile == inputs.input.tile {
                Line::styled(row, theme.selected())
            } else {
                Line::from(row)
            });
        }
    }
    Paragraph::new(lines).render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::super::testing::{press, screen, type_value};
    use super::super::{State, Tab};
    use super::*;
    use ratatui::crossterm::event::KeyCode;

    fn tiling() -> State {
        State::new(Tab::Tiling)
    }

    fn input(state: &State) -> TilingInput {
        state.tiling.input
    }

    /// Selects `row` from the top.
    fn select(state: &mut State, row: Row) {
        for _ in 0..Row::ALL.len() {
            press(state, KeyCode::Up);
        }
        let at = Row::ALL.iter().position(|&r| r == row).unwrap_or(0);
        for _ in 0..at {
            press(state, KeyCode::Down);
        }
        assert_eq!(state.tiling.selected(), row);
    }

    #[test]
    fn hand_derived_numbers_are_on_screen() {
        // N = 1024, 16×16 float tiles: each element loaded once per tile is reused 16 times;
        // 2 tiles × 16² × 4 B = 2 KB; intensity 1/4 FLOP/B naive, 16/4 = 4 FLOP/B tiled.
        let text = screen(&tiling(), 80, 24);
        assert!(text.contains("reduction factor 16×"), "{text}");
        assert!(text.contains("footprint 2 KB per block"), "{text}");
        assert!(text.contains("0.25 → 4 FLOP/B"), "{text}");
        // 256 threads × 32 registers on sm_90: 8 blocks fill the 64 warps.
        assert!(text.contains("8 blocks, 100%"), "{text}");
    }

    #[test]
    fn up_and_down_move_between_rows_and_stop_at_the_ends() {
        let mut state = tiling();
        press(&mut state, KeyCode::Up);
        assert_eq!(state.tiling.selected(), Row::N);
        press(&mut state, KeyCode::Down);
        assert_eq!(state.tiling.selected(), Row::Tile);
        for _ in 0..9 {
            press(&mut state, KeyCode::Down);
        }
        assert_eq!(state.tiling.selected(), Row::Registers);
        assert_eq!(state.tiling.panel.selected, 4);
        press(&mut state, KeyCode::Up);
        assert_eq!(state.tiling.selected(), Row::Arch);
    }

    #[test]
    fn left_and_right_step_the_row_under_the_cursor_within_its_bounds() {
        let mut state = tiling();
        select(&mut state, Row::N);
        press(&mut state, KeyCode::Right);
        assert_eq!(input(&state).n, 2048);
        assert_eq!(input(&state).tile, 16, "only the row selected");
        for _ in 0..30 {
            press(&mut state, KeyCode::Right);
        }
        assert_eq!(input(&state).n, 1 << 20);
        for _ in 0..30 {
            press(&mut state, KeyCode::Left);
        }
        assert_eq!(input(&state).n, 16, "N stays at least the tile");

        select(&mut state, Row::Tile);
        press(&mut state, KeyCode::Right);
        assert_eq!(input(&state).tile, 16, "the tile stays at most N");
        press(&mut state, KeyCode::Left);
        assert_eq!(input(&state).tile, 8);
        for _ in 0..6 {
            press(&mut state, KeyCode::Left);
        }
        assert_eq!(input(&state).tile, 1);
        state.tiling.input.n = 1024;
        for _ in 0..10 {
            press(&mut state, KeyCode::Right);
        }
        assert_eq!(input(&state).tile, 64);
        // 64 × 64 = 4096 threads: more than a block may have.
        assert!(screen(&state, 80, 24).contains("a 64×64-thread block exceeds 1024 threads"));

        select(&mut state, Row::Element);
        let mut sizes = Vec::new();
        for _ in 0..5 {
            press(&mut state, KeyCode::Right);
            sizes.push(input(&state).elem_bytes);
        }
        assert_eq!(sizes, vec![8, 16, 1, 2, 4]);
        press(&mut state, KeyCode::Left);
        assert_eq!(input(&state).elem_bytes, 2);

        select(&mut state, Row::Arch);
        press(&mut state, KeyCode::Left);
        assert_eq!(state.tiling.arch.key, "sm_89");

        select(&mut state, Row::Registers);
        press(&mut state, KeyCode::Right);
        assert_eq!(state.tiling.regs, 33);
        for _ in 0..300 {
            press(&mut state, KeyCode::Right);
        }
        assert_eq!(state.tiling.regs, 255);
    }

    #[test]
    fn a_typed_value_is_set_and_the_numbers_follow() {
        let mut state = tiling();
        select(&mut state, Row::Tile);
        type_value(&mut state, "32");
        assert_eq!(input(&state).tile, 32);
        // 2 × 32² × 4 B = 8 KB; 32 / 4 = 8 FLOP/B.
        let text = screen(&state, 80, 24);
        assert!(text.contains("footprint 8 KB per block"), "{text}");
        assert!(text.contains("0.25 → 8 FLOP/B"), "{text}");
        select(&mut state, Row::N);
        type_value(&mut state, "4096");
        assert_eq!(input(&state).n, 4096);
        select(&mut state, Row::Element);
        type_value(&mut state, "8");
        assert_eq!(input(&state).elem_bytes, 8);
        select(&mut state, Row::Arch);
        type_value(&mut state, "sm_120");
        assert_eq!(state.tiling.arch.key, "sm_120");
        select(&mut state, Row::Registers);
        type_value(&mut state, "64");
        assert_eq!(state.tiling.regs, 64);
        assert_eq!(state.tiling.panel.error, None);
    }

    #[test]
    fn a_bad_value_shows_why_and_keeps_the_old_one() {
        let mut state = tiling();
        select(&mut state, Row::N);
        type_value(&mut state, "0");
        assert_eq!(input(&state).n, 1024);
        let error = "N must be 1 to 1048576, got 0";
        assert_eq!(state.tiling.panel.error.as_deref(), Some(error));
        assert!(screen(&state, 80, 24).contains(error));
        for text in ["-1", "", "999999999999", "1e400", "NaN", &"9".repeat(500)] {
            type_value(&mut state, text);
            assert!(state.tiling.panel.error.is_some(), "{text:?}");
            assert_eq!(input(&state).n, 1024, "{text:?}");
        }
        select(&mut state, Row::Element);
        type_value(&mut state, "3");
        assert_eq!(
            state.tiling.panel.error.as_deref(),
            Some("element size must be 1, 2, 4, 8 or 16 bytes")
        );
        assert_eq!(input(&state).elem_bytes, 4);
        select(&mut state, Row::Arch);
        type_value(&mut state, "gfx90a");
        assert_eq!(state.tiling.arch.key, "sm_90");
        assert!(state.tiling.panel.error.is_some());
        // A tile larger than N is kept, and the engine says why it cannot be drawn.
        select(&mut state, Row::Tile);
        type_value(&mut state, "2048");
        assert_eq!(input(&state).tile, 2048);
        assert!(screen(&state, 80, 24).contains("tile size"));
    }
}
