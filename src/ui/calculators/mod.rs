//! Calculators: occupancy (with three what-if plots as Nsight Compute draws them), tiling, roofline
//! (log-log chart with the ridge and labelled kernel points). Every number comes from the engine.
//!
//! Each calculator is a module owning its inputs, the rows of its panel (an enum, so that a row
//! keeps its meaning when rows are added or reordered) and its drawing; this module switches
//! between them and lays out what they share.
//!
//! ```text
//!  1 Occupancy   2 Tiling   3 Roofline                       ← Tab/1-3
//! ┌ Kernel ──────────────────────────────────────────────────┐ ← the inputs (beside the results
//! │▸arch sm_90 · block size 256 threads · registers …        │   from 90 columns on)
//! └──────────────────────────────────────────────────────────┘
//! ┌ Occupancy · sm_90 (Hopper: H100, H200) ──────────────────┐ ← the engine's answer
//! └──────────────────────────────────────────────────────────┘
//!   what the calculator draws below: plots, a table, a chart
//! ```

mod occupancy;
mod roofline;
mod tiling;

pub use super::action::Tab;
use super::fields::{self, Panel};
use super::{Action, Component, Ctx, KeyHint, Theme, block};
use crate::engine::{ARCHS, Arch, Carveout, KernelConfig, TilingInput};
use crate::i18n::Lang;
use crate::ladder::ShowMe;
use crate::progress::CalculatorSettings;
pub use occupancy::OccupancyInputs;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
pub use roofline::RooflineInputs;
pub use tiling::TilingInputs;

/// The footer's keys with their words in `lang`.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("Tab/1-3", crate::t!(lang, "calc-key-calculator")),
        KeyHint::new("↑↓", crate::t!(lang, "calc-key-field")),
        KeyHint::new("←→", crate::t!(lang, "calc-key-value")),
        KeyHint::new("Enter", crate::t!(lang, "calc-key-type")),
        KeyHint::new("q", crate::t!(lang, "calc-key-back")),
        KeyHint::new("m", crate::t!(lang, "calc-key-heat-map")),
        KeyHint::new("a/d", crate::t!(lang, "calc-key-kernel")),
        KeyHint::new("?", crate::t!(lang, "calc-key-help")),
    ]
}

impl Tab {
    /// Parses `occupancy`, `tiling`, `roofline`.
    pub fn parse(text: &str) -> Option<Tab> {
        match text.trim().to_lowercase().as_str() {
            "occupancy" | "occ" => Some(Tab::Occupancy),
            "tiling" | "tile" => Some(Tab::Tiling),
            "roofline" | "roof" => Some(Tab::Roofline),
            _ => None,
        }
    }
}

/// The calculators' state.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// The calculator shown.
    tab: Tab,
    /// Occupancy.
    occupancy: OccupancyInputs,
    /// Tiling.
    tiling: TilingInputs,
    /// Roofline.
    roofline: RooflineInputs,
}

impl State {
    /// Defaults: 256 threads × 32 registers on sm_90; N = 1024 with 16×16 float tiles; an H200-like
    /// roofline with the naive and tiled matrix multiply.
    pub fn new(tab: Tab) -> Self {
        State {
            tab,
            occupancy: OccupancyInputs {
                arch: Arch::default_arch(),
                config: KernelConfig::new(256, 32),
                panel: Panel::default(),
                heat_map: false,
            },
            tiling: TilingInputs {
                arch: Arch::default_arch(),
                input: TilingInput {
                    n: 1024,
                    tile: 16,
                    elem_bytes: 4,
                },
                regs: 32,
                panel: Panel::default(),
            },
            roofline: RooflineInputs {
                peak_flops: 67e12,
                bandwidth: 4.8e12,
                points: vec![
                    ("naive matmul".into(), 0.25),
                    ("tiled 16×16".into(), 4.0),
                    ("your kernel".into(), 20.0),
                ],
                panel: Panel::default(),
            },
        }
    }

    /// The calculator shown.
    pub fn tab(&self) -> Tab {
        self.tab
    }

    /// The occupancy calculator's inputs.
    pub fn occupancy(&self) -> &OccupancyInputs {
        &self.occupancy
    }

    /// The tiling calculator's inputs.
    pub fn tiling(&self) -> &TilingInputs {
        &self.tiling
    }

    /// The roofline's inputs.
    pub fn roofline(&self) -> &RooflineInputs {
        &self.roofline
    }

    /// The inputs to save, to reopen the calculators where the learner left them.
    pub fn settings(&self) -> CalculatorSettings {
        let config = &self.occupancy.config;
        CalculatorSettings {
            tab: match self.tab {
                Tab::Occupancy => "occupancy",
                Tab::Tiling => "tiling",
                Tab::Roofline => "roofline",
            }
            .to_string(),
            occupancy_arch: self.occupancy.arch.key.to_string(),
            block_size: config.block_size,
            regs: config.regs_per_thread,
            static_smem: config.static_smem,
            dynamic_smem: config.dynamic_smem,
            carveout: match config.carveout {
                Carveout::Default => -1,
                Carveout::Percent(p) => i64::from(p),
            },
            tiling_arch: self.tiling.arch.key.to_string(),
            n: self.tiling.input.n,
            tile: self.tiling.input.tile,
            elem: self.tiling.input.elem_bytes,
            tiling_regs: self.tiling.regs,
            peak_flops: self.roofline.peak_flops,
            bandwidth: self.roofline.bandwidth,
            points: self.roofline.points.clone(),
        }
    }

    /// The calculators as saved. Each calculator whose saved inputs the engine would refuse (a file
    /// edited by hand, another version) opens on its defaults instead.
    pub fn from_settings(saved: &CalculatorSettings) -> State {
        let tab = Tab::parse(&saved.tab).unwrap_or_default();
        let mut state = State::new(tab);
        let occupancy_arch = Arch::parse(&saved.occupancy_arch).unwrap_or(Arch::default_arch());
        if let Ok(carveout) = Carveout::from_pct(saved.carveout) {
            let config = KernelConfig {
                block_size: saved.block_size,
                regs_per_thread: saved.regs,
                static_smem: saved.static_smem,
                dynamic_smem: saved.dynamic_smem,
                carveout,
            };
            if crate::engine::occupancy(occupancy_arch, &config).is_ok() {
                state.occupancy.arch = occupancy_arch;
                state.occupancy.config = config;
            }
        }
        let tiling_arch = Arch::parse(&saved.tiling_arch).unwrap_or(Arch::default_arch());
        let input = TilingInput {
            n: saved.n,
            tile: saved.tile,
            elem_bytes: saved.elem,
        };
        if tiling_arch.nvidia.is_some()
            && saved.tiling_regs <= 255
            && crate::engine::tiling(&input, Some(tiling_arch), saved.tiling_regs).is_ok()
        {
            state.tiling.arch = tiling_arch;
            state.tiling.input = input;
            state.tiling.regs = saved.tiling_regs;
        }
        let positive = |v: f64| v.is_finite() && v > 0.0;
        let points_fit = !saved.points.is_empty()
            && saved.points.len() <= 8
            && saved
                .points
                .iter()
                .all(|(name, intensity)| positive(*intensity) && name.chars().count() <= 40);
        if positive(saved.peak_flops) && positive(saved.bandwidth) && points_fit {
            state.roofline.peak_flops = saved.peak_flops;
            state.roofline.bandwidth = saved.bandwidth;
            state.roofline.points = saved.points.clone();
        }
        state
    }

    /// The calculator an exercise's "show me" asks for, on its numbers (`None` for an access
    /// pattern: that is the explorer's).
    pub fn from_show_me(target: &ShowMe) -> Option<State> {
        Some(match target {
            ShowMe::Global { .. } | ShowMe::Shared { .. } => return None,
            ShowMe::Occupancy { arch, config } => {
                let mut state = State::new(Tab::Occupancy);
                state.occupancy.arch = arch;
                state.occupancy.config = *config;
                state
            }
            ShowMe::Tiling { arch, input } => {
                let mut state = State::new(Tab::Tiling);
                if arch.nvidia.is_some() {
                    state.tiling.arch = arch;
                }
                state.tiling.input = *input;
                state
            }
            ShowMe::Roofline {
                peak_flops,
                bandwidth,
                intensity,
            } => {
                let mut state = State::new(Tab::Roofline);
                state.roofline.peak_flops = *peak_flops;
                state.roofline.bandwidth = *bandwidth;
                if let Some(last) = state.roofline.points.last_mut() {
                    *last = ("this exercise".to_string(), *intensity);
                }
                state
            }
        })
    }

    /// Pasted text into the value being typed in the calculator shown, if one is.
    pub fn paste(&mut self, text: &str) {
        match self.tab {
            Tab::Occupancy => self.occupancy.panel.paste(text),
            Tab::Tiling => self.tiling.panel.paste(text),
            Tab::Roofline => self.roofline.panel.paste(text),
        }
    }

    /// Whether keys go to a value being typed.
    pub fn typing(&self) -> bool {
        match self.tab {
            Tab::Occupancy => self.occupancy.panel.typing(),
            Tab::Tiling => self.tiling.panel.typing(),
            Tab::Roofline => self.roofline.panel.typing(),
        }
    }

    /// Handles a key (messages in English).
    pub fn key(&mut self, key: KeyEvent) {
        self.key_in(key, Lang::En);
    }

    /// Handles a key: Tab, BackTab and 1-3 switch calculators (unless a value is being typed);
    /// every other key goes to the calculator shown, which explains a refused value in `lang`.
    pub fn key_in(&mut self, key: KeyEvent, lang: Lang) {
        if !self.typing() {
            let tab = match key.code {
                KeyCode::Tab => Some(match self.tab {
                    Tab::Occupancy => Tab::Tiling,
                    Tab::Tiling => Tab::Roofline,
                    Tab::Roofline => Tab::Occupancy,
                }),
                KeyCode::BackTab => Some(match self.tab {
                    Tab::Occupancy => Tab::Roofline,
                    Tab::Tiling => Tab::Occupancy,
                    Tab::Roofline => Tab::Tiling,
                }),
                KeyCode::Char('1') => Some(Tab::Occupancy),
                KeyCode::Char('2') => Some(Tab::Tiling),
                KeyCode::Char('3') => Some(Tab::Roofline),
                _ => None,
            };
            if let Some(tab) = tab {
                self.tab = tab;
                return;
            }
        }
        match self.tab {
            Tab::Occupancy => self.occupancy.key(key, lang),
            Tab::Tiling => self.tiling.key(key, lang),
            Tab::Roofline => self.roofline.key(key, lang),
        }
    }
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.key_in(key, ctx.lang);
        None
    }

    fn handle_paste(&mut self, text: &str, _ctx: &Ctx) -> Option<Action> {
        self.paste(text);
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(self, ctx.theme, ctx.lang, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        keys(lang)
    }

    fn captures(&self, _key: &KeyEvent) -> bool {
        self.typing()
    }
}

/// Draws the calculators.
pub fn render(state: &State, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
    let [tabs, body] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
    ]));
    let names = [
        (Tab::Occupancy, crate::t!(lang, "calc-tab-occupancy")),
        (Tab::Tiling, crate::t!(lang, "calc-tab-tiling")),
        (Tab::Roofline, crate::t!(lang, "calc-tab-roofline")),
    ];
    let mut spans = Vec::new();
    for (tab, name) in names {
        let style = if tab == state.tab {
            theme.selected()
        } else {
            theme.dim()
        };
        spans.push(Span::styled(format!(" {name} "), style));
        spans.push(Span::raw(" "));
    }
    Line::from(spans).render(tabs, buf);
    match state.tab {
        Tab::Occupancy => occupancy::render(&state.occupancy, theme, lang, body, buf),
        Tab::Tiling => tiling::render(&state.tiling, theme, lang, body, buf),
        Tab::Roofline => roofline::render(&state.roofline, theme, lang, body, buf),
    }
}

/// The item `step` places after (or before, when negative) position `at` of `items`, wrapping
/// around; `None` for no items.
fn cycle<T: Copy>(items: &[T], at: usize, step: i64) -> Option<T> {
    let len = i64::try_from(items.len()).ok().filter(|&len| len > 0)?;
    let at = i64::try_from(at).unwrap_or(0);
    // `rem_euclid` of a positive length lies in 0..len.
    let index = usize::try_from(at.wrapping_add(step).rem_euclid(len)).ok()?;
    items.get(index).copied()
}

/// The NVIDIA architecture `step` places after (or before) `arch`, wrapping around.
fn next_nvidia(arch: &'static Arch, step: i64) -> &'static Arch {
    let nvidia: Vec<&'static Arch> = ARCHS.iter().filter(|a| a.nvidia.is_some()).collect();
    let at = nvidia.iter().position(|a| a.key == arch.key).unwrap_or(0);
    cycle(&nvidia, at, step).unwrap_or(arch)
}

/// A typed architecture that has NVIDIA occupancy figures.
fn nvidia_arch(text: &str, lang: Lang) -> Result<&'static Arch, String> {
    let arch = Arch::parse(text).map_err(|e| e.to_string())?;
    if arch.nvidia.is_none() {
        return Err(crate::t!(lang, "calc-error-not-nvidia", arch = arch.key));
    }
    Ok(arch)
}

/// `value` moved into `min..=max` (callers pass constants with `min ≤ max`; a reversed pair gives
/// `min`).
fn clamp_u32(value: i64, min: u32, max: u32) -> u32 {
    let clamped = value.min(i64::from(max)).max(i64::from(min));
    u32::try_from(clamped).unwrap_or(min)
}

/// A typed whole number checked against `min..=max` (both within `u32`); `name` is the
/// quantity's name in the learner's language, `lang` that language.
fn in_range(value: i64, min: i64, max: i64, name: &str, lang: Lang) -> Result<u32, String> {
    match u32::try_from(value) {
        Ok(v) if (min..=max).contains(&value) => Ok(v),
        _ => Err(crate::t!(
            lang,
            "calc-error-range",
            name = name.to_string(),
            min = min.to_string(),
            max = max.to_string(),
            value = value.to_string()
        )),
    }
}

/// Windows at least this wide put the inputs beside the results; narrower ones put them above.
const WIDE: u16 = 90;

/// Width of the results box `frame` will lay out in `area`.
fn results_width(area: Rect) -> u16 {
    if area.width >= WIDE {
        area.width.saturating_sub(30)
    } else {
        area.width
    }
}

/// Height of the strip of inputs above a narrow calculator: 4 rows (two lines of values), or as many
/// as the values and the last error need, up to half of `area`.
fn strip_height(rows: &[(&str, String)], panel: &Panel, theme: Theme, area: Rect) -> u16 {
    fields::compact_height(rows, panel, theme, area.width)
        .min(area.height / 2)
        .max(4)
}

/// Lays out a calculator: on wide windows the input panel sits beside the results (`wide_height` rows
/// tall); on narrow ones it becomes a strip above results sized to `lines`. Draws the panel and the
/// results; returns the area left below them.
#[allow(clippy::too_many_arguments)]
fn frame(
    (title, rows, panel): (&str, &[(&str, String)], &Panel),
    results_title: &str,
    lines: Vec<Line<'static>>,
    wide_height: u16,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) -> Rect {
    let (results, rest) = if area.width >= WIDE {
        let [top, rest] = area.layout(&Layout::vertical([
            Constraint::Length(wide_height),
            Constraint::Fill(1),
        ]));
        let [panel_area, results] = top.layout(&Layout::horizontal([
            Constraint::Length(30),
            Constraint::Fill(1),
        ]));
        fields::render(title, rows, panel, theme, panel_area, buf);
        (results, rest)
    } else {
        // Rows as the paragraph wraps them, in terminal columns (Korean takes two a syllable).
        let wrapped = Paragraph::new(lines.clone())
            .wrap(Wrap { trim: false })
            .line_count(area.width.saturating_sub(2));
        let height = u16::try_from(wrapped).unwrap_or(u16::MAX).saturating_add(2);
        let [strip, results, rest] = area.layout(&Layout::vertical([
            Constraint::Length(strip_height(rows, panel, theme, area)),
            Constraint::Length(height),
            Constraint::Fill(1),
        ]));
        fields::render_compact(title, rows, panel, theme, strip, buf);
        (results, rest)
    };
    let outer = block(results_title, theme);
    let inner = outer.inner(results);
    outer.render(results, buf);
    let room = crate::ui::wrap_room(&lines, inner);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(room, buf);
    rest
}

/// What the unit tests of the calculators share: keys and the screen as text.
#[cfg(test)]
mod testing {
    use super::{Lang, State, Theme, render};
    use ratatui::buffer::Buffer;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::layout::Rect;

    /// Presses `code` (no modifiers).
    pub fn press(state: &mut State, code: KeyCode) {
        state.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    /// Presses Enter, types `text`, presses Enter.
    pub fn type_value(state: &mut State, text: &str) {
        press(state, KeyCode::Enter);
        for c in text.chars() {
            press(state, KeyCode::Char(c));
        }
        press(state, KeyCode::Enter);
    }

    /// The calculators drawn at `width` × `height`, one string per row.
    pub fn screen(state: &State, width: u16, height: u16) -> String {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        render(state, Theme::new(false), Lang::En, area, &mut buf);
        buf.content
            .chunks(usize::from(width))
            .map(|row| row.iter().map(|c| c.symbol()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::testing::press;
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    #[test]
    fn tab_and_digits_switch_calculators() {
        let mut state = State::new(Tab::Occupancy);
        press(&mut state, KeyCode::Tab);
        assert_eq!(state.tab, Tab::Tiling);
        press(&mut state, KeyCode::Tab);
        assert_eq!(state.tab, Tab::Roofline);
        press(&mut state, KeyCode::Tab);
        assert_eq!(state.tab, Tab::Occupancy);
        press(&mut state, KeyCode::BackTab);
        assert_eq!(state.tab, Tab::Roofline);
        press(&mut state, KeyCode::BackTab);
        assert_eq!(state.tab, Tab::Tiling);
        for (digit, tab) in [
            ('3', Tab::Roofline),
            ('1', Tab::Occupancy),
            ('2', Tab::Tiling),
        ] {
            press(&mut state, KeyCode::Char(digit));
            assert_eq!(state.tab, tab);
        }
    }

    #[test]
    fn while_typing_digits_and_tab_are_text() {
        let mut state = State::new(Tab::Occupancy);
        press(&mut state, KeyCode::Down);
        press(&mut state, KeyCode::Enter);
        assert!(state.typing());
        press(&mut state, KeyCode::Char('3'));
        press(&mut state, KeyCode::Tab);
        assert_eq!(state.tab, Tab::Occupancy);
        press(&mut state, KeyCode::Char('2'));
        press(&mut state, KeyCode::Enter);
        assert!(!state.typing());
        assert_eq!(state.occupancy.config.block_size, 32);
    }

    #[test]
    fn each_tab_keeps_its_own_inputs() {
        let mut state = State::new(Tab::Occupancy);
        press(&mut state, KeyCode::Down);
        press(&mut state, KeyCode::Right);
        press(&mut state, KeyCode::Char('2'));
        press(&mut state, KeyCode::Right);
        press(&mut state, KeyCode::Char('1'));
        assert_eq!(state.occupancy.config.block_size, 288);
        assert_eq!(state.occupancy.panel.selected, 1);
        assert_eq!(state.tiling.input.n, 2048);
        assert_eq!(state.tiling.panel.selected, 0);
    }

    #[test]
    fn stepping_through_nvidia_architectures_wraps_and_skips_amd() {
        let sm_90 = Arch::default_arch();
        assert_eq!(next_nvidia(sm_90, 1).key, "sm_100");
        assert_eq!(next_nvidia(sm_90, -1).key, "sm_89");
        let first = Arch::parse("sm_70").unwrap();
        let last = next_nvidia(first, -1);
        assert_eq!(last.key, "sm_120");
        assert_eq!(next_nvidia(last, 1).key, "sm_70");
        // From an AMD architecture: the first NVIDIA one is the starting point.
        let amd = Arch::parse("gfx942").unwrap();
        assert_eq!(next_nvidia(amd, 1).key, "sm_75");
        assert!(nvidia_arch("gfx942", Lang::En).is_err());
        assert!(nvidia_arch("", Lang::En).is_err());
        assert_eq!(nvidia_arch("sm_80", Lang::En).map(|a| a.key), Ok("sm_80"));
    }

    #[test]
    fn cycling_and_clamping_stay_in_bounds() {
        assert_eq!(cycle(&[1, 2, 4], 2, 1), Some(1));
        assert_eq!(cycle(&[1, 2, 4], 0, -1), Some(4));
        assert!(cycle(&[1, 2, 4], usize::MAX, i64::MAX).is_some());
        assert!(cycle(&[1, 2, 4], 0, i64::MIN).is_some());
        assert_eq!(cycle::<u8>(&[], 0, 1), None);
        assert_eq!(clamp_u32(-5, 0, 255), 0);
        assert_eq!(clamp_u32(i64::MAX, 0, 255), 255);
        assert_eq!(clamp_u32(7, 9, 3), 9);
        assert!(in_range(-1, 0, 255, "x", Lang::En).is_err());
        assert!(in_range(i64::MAX, 0, i64::MAX, "x", Lang::En).is_err());
        assert_eq!(in_range(255, 0, 255, "x", Lang::En), Ok(255));
    }

    #[test]
    fn shift_is_passed_on() {
        let mut state = State::new(Tab::Occupancy);
        state.key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
        state.key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
        state.key(KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT));
        assert_eq!(state.occupancy.config.regs_per_thread, 40);
    }
}
