//! The explorer: edit an access pattern and watch the memory system answer on every keystroke —
//! warp lanes → sectors for global memory, lanes → 32 banks for shared memory — with the numbers.
//!
//! ```text
//! ┌ Parameters ───────────┐┌ Warp → sectors · sm_90 ──────────────────────────┐
//! │▸arch     sm_90        ││lane  A A A A A A A A B B B B …                    │
//! │ space    global       ││      0       8       16      24                   │
//! │ elem     4 B          ││A 0x0      ████████████████ lanes 0-7   32/32 B    │
//! │ …                     ││B 0x20     ████████████████ lanes 8-15  32/32 B    │
//! └───────────────────────┘└───────────────────────────────────────────────────┘
//! ┌ Numbers ─────────────────────────────────────────────────────────────────────┐
//! │sectors 4 · requests 1 · bytes requested 128 / fetched 128 · efficiency 100%   │
//! │why: lanes read neighbouring 4-byte elements …                                 │
//! └──────────────────────────────────────────────────────────────────────────────┘
//! ```

pub use super::action::Space;
use super::fields::{self, Panel, PanelEvent};
use super::{Action, Component, Ctx, ExplorerSetup, KeyHint, Theme, block};
use crate::engine::{
    self, AccessShape, Arch, BankAnalysis, Coalescing, Granularity, Op, WarpAccess, banks::BANKS,
    full_mask,
};
use crate::i18n::Lang;
use crate::progress::ExplorerSettings;
use crate::{explain, format, t};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

mod banks;
mod global;
mod params;
mod presets;
mod sweep;

pub use banks::bank_diagram;
pub use global::global_diagram;
use params::Row;
pub use params::{Lanes, Shape};
use presets::presets_popup;
pub use presets::{PRESETS, Preset};
use sweep::render_sweep;
pub use sweep::{Figure, MAX_PANEL_POINTS, SweepCurves, SweepPanel};

/// The footer's keys with their words in `lang`. `t` (load/store) comes before presets and arch:
/// at 80 columns the footer ends after presets.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("s/S", t!(lang, "explorer-key-stride")),
        KeyHint::new("o/O", t!(lang, "explorer-key-offset")),
        KeyHint::new("e", t!(lang, "explorer-key-elem")),
        KeyHint::new("m", t!(lang, "explorer-key-space")),
        KeyHint::new("t", t!(lang, "explorer-key-op")),
        KeyHint::new("p", t!(lang, "explorer-key-presets")),
        KeyHint::new("a", t!(lang, "explorer-key-arch")),
        KeyHint::new("w", t!(lang, "explorer-key-sweep")),
        KeyHint::new("↑↓ ←→", t!(lang, "explorer-key-field")),
        KeyHint::new("Enter", t!(lang, "explorer-key-type")),
        KeyHint::new("q", t!(lang, "explorer-key-back")),
    ]
}

/// The explorer's parameters, and the sweep curves they give.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Architecture.
    arch: &'static Arch,
    /// Memory space.
    space: Space,
    /// A load or a store (`t` toggles): 8- and 16-byte shared stores never pair-merge, so one
    /// `double` stored by every lane is 2 wavefronts where the load is 1.
    op: Op,
    /// Bytes per lane.
    elem: u32,
    /// Address shape.
    shape: Shape,
    /// Stride in elements (affine).
    stride: i64,
    /// Offset in elements (or first struct / column).
    offset: i64,
    /// Struct size in bytes (AoS).
    struct_size: i64,
    /// Field offset in bytes (AoS).
    field_offset: i64,
    /// Row pitch in bytes (2D).
    pitch: i64,
    /// Base address in bytes (alignment).
    base: i64,
    /// Byte offset per lane, lane 0 first (explicit offsets).
    offsets: Vec<i64>,
    /// Active lanes.
    lanes: Lanes,
    /// Count in 128-byte lines instead of the architecture's unit.
    lines: bool,
    /// The parameter panel.
    panel: Panel,
    /// The preset picker, open with its selection.
    presets: Option<usize>,
    /// Name of the preset last applied.
    preset_name: Option<&'static str>,
    /// The sweep panel, when shown (`w`).
    sweep: Option<SweepPanel>,
    /// The sweep's curves and what they were counted from: brought up to date after every key
    /// (only when what they depend on changed), read by drawing. `None` while the panel is hidden.
    curves: Option<sweep::Curves>,
}

impl Default for State {
    fn default() -> Self {
        State {
            arch: Arch::default_arch(),
            space: Space::Global,
            op: Op::Load,
            elem: 4,
            shape: Shape::Affine,
            stride: 1,
            offset: 0,
            struct_size: 12,
            field_offset: 0,
            pitch: 4096,
            base: 0,
            offsets: (0..32).map(|lane| lane * 4).collect(),
            lanes: Lanes::All,
            lines: false,
            panel: Panel::default(),
            presets: None,
            preset_name: None,
            sweep: None,
            curves: None,
        }
    }
}

/// The active lanes a mask stands for in a warp of `warp` lanes (no lane: every lane).
fn lanes_of(mask: u64, warp: u32) -> Lanes {
    let all = full_mask(warp);
    let mask = mask & all;
    if mask == all || mask == 0 {
        Lanes::All
    } else if mask.trailing_ones() == mask.count_ones() {
        Lanes::First(mask.count_ones())
    } else {
        Lanes::Custom(mask)
    }
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.key_in(key, ctx.lang);
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(self, ctx.theme, ctx.lang, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        keys(lang)
    }

    /// While a value is typed or the preset picker is open, every key is the explorer's.
    fn captures(&self, _key: &KeyEvent) -> bool {
        self.typing() || self.presets.is_some()
    }
}

impl State {
    /// The parameters to save, to reopen the explorer where the learner left it.
    pub fn settings(&self) -> ExplorerSettings {
        ExplorerSettings {
            arch: self.arch.key.to_string(),
            space: match self.space {
                Space::Global => "global",
                Space::Shared => "shared",
            }
            .to_string(),
            op: self.op.key().to_string(),
            elem: self.elem,
            shape: match self.shape {
                Shape::Affine => "affine",
                Shape::Struct => "struct",
                Shape::Row => "row",
                Shape::Column => "column",
                Shape::Offsets => "offsets",
            }
            .to_string(),
            stride: self.stride,
            offset: self.offset,
            struct_size: self.struct_size,
            field_offset: self.field_offset,
            pitch: self.pitch,
            base: self.base,
            offsets: self.offsets.clone(),
            mask: self.lanes.mask(self.arch.warp_size),
            lines: self.lines,
        }
    }

    /// The explorer as saved; what a saved file does not say (or says wrongly) stays at the default.
    pub fn from_settings(saved: &ExplorerSettings) -> State {
        let arch = Arch::parse(&saved.arch).unwrap_or(Arch::default_arch());
        let shape = match saved.shape.as_str() {
            "struct" => Shape::Struct,
            "row" => Shape::Row,
            "column" => Shape::Column,
            "offsets" if !saved.offsets.is_empty() => Shape::Offsets,
            _ => Shape::Affine,
        };
        let defaults = State::default();
        let elem = if crate::engine::ELEM_SIZES.contains(&saved.elem) {
            saved.elem
        } else {
            defaults.elem
        };
        let mut state = State {
            arch,
            space: if saved.space == "shared" {
                Space::Shared
            } else {
                Space::Global
            },
            op: Op::parse(&saved.op).unwrap_or_default(),
            elem,
            shape,
            stride: saved.stride,
            offset: saved.offset,
            struct_size: saved.struct_size.max(i64::from(elem)),
            field_offset: saved.field_offset,
            pitch: saved.pitch,
            base: saved.base,
            offsets: if saved.offsets.is_empty() {
                defaults.offsets.clone()
            } else {
                saved.offsets.clone()
            },
            lanes: lanes_of(saved.mask, arch.warp_size),
            lines: saved.lines,
            ..defaults
        };
        state.field_offset = state
            .field_offset
            .clamp(0, state.struct_size - i64::from(state.elem));
        state
    }

    /// The explorer on a pattern described by the command line, an exercise or a test.
    pub fn from_setup(setup: &ExplorerSetup) -> State {
        let arch = setup.arch;
        let shape = &setup.shape;
        let mut state = State {
            arch,
            space: setup.space,
            op: setup.op,
            elem: shape.elem_bytes,
            stride: shape.stride,
            offset: shape.offset,
            base: shape.base,
            lines: setup.lines,
            ..State::default()
        };
        state.lanes = lanes_of(
            shape.mask.unwrap_or(full_mask(arch.warp_size)),
            arch.warp_size,
        );
        if let Some(offsets) = &shape.offsets {
            state.shape = Shape::Offsets;
            state.offsets = offsets.clone();
        } else if let Some(size) = shape.struct_size {
            state.shape = Shape::Struct;
            state.struct_size = size;
            state.field_offset = shape.field_offset;
        } else if let Some(pitch) = shape.pitch {
            state.shape = if shape.column {
                Shape::Column
            } else {
                Shape::Row
            };
            state.pitch = pitch;
        }
        state
    }

    fn set_affine(&mut self, space: Space, elem: u32, stride: i64, offset: i64) {
        let panel = std::mem::take(&mut self.panel);
        let sweep = self.sweep;
        *self = State {
            space,
            elem,
            stride,
            offset,
            panel,
            sweep,
            ..State::default()
        };
    }

    fn set_struct(&mut self, size: i64) {
        self.set_affine(Space::Global, 4, 1, 0);
        self.shape = Shape::Struct;
        self.struct_size = size;
        self.field_offset = 0;
    }

    /// The architecture counted on.
    pub fn arch(&self) -> &'static Arch {
        self.arch
    }

    /// Global or shared memory.
    pub fn space(&self) -> Space {
        self.space
    }

    /// A load or a store.
    pub fn op(&self) -> Op {
        self.op
    }

    /// Bytes each lane reads or writes.
    pub fn elem_bytes(&self) -> u32 {
        self.elem
    }

    /// The stride between neighbouring lanes, in elements (the affine pattern's).
    pub fn stride(&self) -> i64 {
        self.stride
    }

    /// The first lane's offset, in elements (or the first struct, or column).
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The sweep panel, when shown (`w`).
    pub fn sweep(&self) -> Option<SweepPanel> {
        self.sweep
    }

    /// Whether the preset picker is open.
    pub fn presets_open(&self) -> bool {
        self.presets.is_some()
    }

    /// The access these parameters describe.
    pub fn access(&self) -> WarpAccess {
        AccessShape {
            elem_bytes: self.elem,
            stride: self.stride,
            offset: self.offset,
            base: self.base,
            struct_size: (self.shape == Shape::Struct).then_some(self.struct_size),
            field_offset: self.field_offset,
            pitch: matches!(self.shape, Shape::Row | Shape::Column).then_some(self.pitch),
            column: self.shape == Shape::Column,
            offsets: (self.shape == Shape::Offsets).then(|| self.offsets.clone()),
            mask: Some(self.lanes.mask(self.arch.warp_size)),
        }
        .access_as(self.arch.warp_size, self.op)
    }

    /// Turns a load into a store and back (`t`).
    fn toggle_op(&mut self) {
        self.preset_name = None;
        self.op = match self.op {
            Op::Load => Op::Store,
            Op::Store => Op::Load,
        };
    }

    /// The fetch unit counted.
    pub fn granularity(&self) -> Granularity {
        if self.lines {
            Granularity::Line
        } else {
            self.arch.granularity
        }
    }

    /// Whether keys go to a value being typed.
    pub fn typing(&self) -> bool {
        self.panel.typing()
    }

    /// Handles a key (messages in English).
    pub fn key(&mut self, key: KeyEvent) {
        self.key_in(key, Lang::En);
    }

    /// Handles a key; a refused typed value is explained in `lang`. The sweep's curves are counted
    /// again here when the key changed what they show, so drawing only reads them.
    pub fn key_in(&mut self, key: KeyEvent, lang: Lang) {
        self.apply_key(key, lang);
        self.update_sweep();
    }

    /// What a key does to the parameters, the panel and the picker.
    fn apply_key(&mut self, key: KeyEvent, lang: Lang) {
        if let Some(selected) = self.presets {
            match key.code {
                KeyCode::Up | KeyCode::Char('k') => self.presets = Some(selected.saturating_sub(1)),
                KeyCode::Down | KeyCode::Char('j') => {
                    self.presets = Some((selected + 1).min(PRESETS.len() - 1))
                }
                KeyCode::Enter => {
                    (PRESETS[selected].apply)(self);
                    self.preset_name = Some(PRESETS[selected].name);
                    self.presets = None;
                }
                KeyCode::Char('p' | 'q') | KeyCode::Esc | KeyCode::Backspace => self.presets = None,
                _ => {}
            }
            return;
        }
        let rows = self.rows();
        if !self.typing() {
            let shortcut = match key.code {
                KeyCode::Char('s') => Some((Row::Stride, 1)),
                KeyCode::Char('S') => Some((Row::Stride, -1)),
                KeyCode::Char('o') => Some((Row::Offset, 1)),
                KeyCode::Char('O') => Some((Row::Offset, -1)),
                KeyCode::Char('e') => Some((Row::Elem, 1)),
                KeyCode::Char('m') => Some((Row::Space, 1)),
                KeyCode::Char('a') => Some((Row::Arch, 1)),
                KeyCode::Char('t') => {
                    self.toggle_op();
                    return;
                }
                KeyCode::Char('p') => {
                    self.presets = Some(0);
                    return;
                }
                KeyCode::Char('w') => {
                    self.toggle_sweep();
                    return;
                }
                _ => None,
            };
            if let Some((row, step)) = shortcut {
                if row == Row::Stride && self.shape != Shape::Affine {
                    self.shape = Shape::Affine;
                }
                self.adjust(row, step);
                return;
            }
        }
        let selected = self.panel.selected.min(rows.len().saturating_sub(1));
        self.panel.selected = selected;
        match self.panel.key(key, rows.len()) {
            PanelEvent::Adjust(step) => self.adjust(rows[selected], step),
            PanelEvent::Submit(text) => {
                self.panel.error = self.set(rows[selected], &text, lang).err();
            }
            PanelEvent::Handled | PanelEvent::Ignored => {}
        }
    }
}

/// Draws the explorer.
pub fn render(state: &State, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
    let texts: Vec<(String, String)> = state
        .rows()
        .into_iter()
        .map(|r| state.row_text(r, lang))
        .collect();
    let rows: Vec<(&str, String)> = texts
        .iter()
        .map(|(label, value)| (label.as_str(), value.clone()))
        .collect();
    let mut panel = state.panel.clone();
    panel.selected = panel.selected.min(rows.len().saturating_sub(1));

    // Ask the engine first: the numbers decide how tall their box is.
    let access = state.access();
    let analysis = match state.space {
        Space::Global => Analysis::Global(engine::coalesce(&access, state.granularity())),
        Space::Shared => Analysis::Shared(engine::bank_conflicts(&access, state.arch)),
    };
    let numbers = number_lines(&analysis, &access, theme, lang);

    // Wide windows: parameters in a column beside the diagram; narrow ones: a strip above it.
    let wide = area.width >= 26 + 2 + 5 + BANKS as u16 + 2;
    // Rows as the paragraph wraps them, measured in terminal columns (Korean takes two a syllable).
    let room = super::wrap_room(&numbers, Rect::new(0, 0, area.width.saturating_sub(2), 1));
    let wrapped = Paragraph::new(numbers.clone())
        .wrap(Wrap { trim: false })
        .line_count(room.width);
    let numbers_height = (u16::try_from(wrapped).unwrap_or(u16::MAX).saturating_add(2)).clamp(4, 8);
    let (diagram_area, numbers_area) = if wide {
        let [top, numbers_area] = area.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(numbers_height),
        ]));
        let [panel_area, diagram_area] = top.layout(&Layout::horizontal([
            Constraint::Length(26),
            Constraint::Fill(1),
        ]));
        let title = t!(lang, "explorer-parameters");
        fields::render(&title, &rows, &panel, theme, panel_area, buf);
        (diagram_area, numbers_area)
    } else {
        let [strip, diagram_area, numbers_area] = area.layout(&Layout::vertical([
            Constraint::Length(4),
            Constraint::Fill(1),
            Constraint::Length(numbers_height),
        ]));
        let title = t!(lang, "explorer-parameters-compact");
        fields::render_compact(&title, &rows, &panel, theme, strip, buf);
        (diagram_area, numbers_area)
    };

    // The sweep panel shares the diagram's place: below it when there is room, instead of it
    // otherwise.
    let diagram_area = match state.sweep_curves() {
        Some(curves) if diagram_area.height >= 30 => {
            let [diagram, chart] = diagram_area.layout(&Layout::vertical([
                Constraint::Fill(1),
                Constraint::Percentage(50),
            ]));
            render_sweep(state, curves, theme, lang, chart, buf);
            diagram
        }
        Some(curves) => {
            render_sweep(state, curves, theme, lang, diagram_area, buf);
            Rect::default()
        }
        None => diagram_area,
    };
    match &analysis {
        _ if diagram_area.is_empty() => {}
        Analysis::Global(Ok(c)) => {
            let prefix = match c.granularity {
                Granularity::Sector => t!(lang, "explorer-warp-sectors"),
                Granularity::Line => t!(lang, "explorer-warp-lines"),
            };
            let title = super::arch_title(&prefix, state.arch, diagram_area.width);
            global_diagram(c, theme, lang, &title, diagram_area, buf);
        }
        Analysis::Shared(Ok(b)) => bank_diagram(b, theme, lang, state.arch, diagram_area, buf),
        Analysis::Global(Err(e)) | Analysis::Shared(Err(e)) => {
            error_box(&e.to_string(), theme, lang, diagram_area, buf)
        }
    }
    let title = match state.preset_name.and_then(Preset::named) {
        Some(preset) => t!(lang, "explorer-numbers-preset", name = preset.name_in(lang)),
        None => t!(lang, "explorer-numbers"),
    };
    let outer = block(&title, theme);
    let inner = outer.inner(numbers_area);
    outer.render(numbers_area, buf);
    super::render_wrapped(numbers, false, inner, buf);

    if let Some(selected) = state.presets {
        presets_popup(selected, theme, lang, area, buf);
    }
}

/// The engine's answer for the pattern shown.
enum Analysis {
    Global(engine::Result<Coalescing>),
    Shared(engine::Result<BankAnalysis>),
}

/// The numbers beside the pictures, as plain text a screen reader or a script can find.
fn number_lines(
    analysis: &Analysis,
    access: &WarpAccess,
    theme: Theme,
    lang: Lang,
) -> Vec<Line<'static>> {
    let op = match access.op {
        Op::Load => t!(lang, "explorer-op-load"),
        Op::Store => t!(lang, "explorer-op-store"),
    };
    let op = Span::styled(format!("{op} · "), theme.dim());
    match analysis {
        Analysis::Global(Ok(c)) => vec![
            Line::from(vec![
                op,
                Span::styled(
                    t!(lang, "explorer-sectors", n = c.sectors.to_string()),
                    theme.title(),
                ),
                Span::raw(format!(
                    " · {} · ",
                    t!(lang, "explorer-requests", n = c.requests.to_string())
                )),
                Span::styled(
                    t!(
                        lang,
                        "explorer-efficiency",
                        percent = format::percent(c.efficiency)
                    ),
                    if c.efficiency >= 0.999 {
                        theme.good()
                    } else {
                        theme.bad()
                    },
                ),
                Span::raw(format!(
                    " · {}",
                    t!(lang, "explorer-lines", n = c.lines.to_string())
                )),
            ]),
            Line::from(t!(
                lang,
                "explorer-bytes",
                requested = c.bytes_requested.to_string(),
                fetched = c.bytes_fetched.to_string(),
                wasted = c
                    .bytes_fetched
                    .saturating_sub(c.bytes_requested)
                    .to_string()
            )),
            Line::from(t!(
                lang,
                "explorer-why",
                why = explain::coalescing_in(lang, access, c)
            )),
        ],
        Analysis::Shared(Ok(b)) => vec![
            Line::from(vec![
                op,
                Span::styled(
                    t!(
                        lang,
                        "explorer-wavefronts",
                        n = b.wavefronts.to_string(),
                        vendor = b.vendor.key()
                    ),
                    theme.title(),
                ),
                Span::raw(format!(
                    " · {} · ",
                    t!(lang, "explorer-ideal", n = b.ideal_wavefronts.to_string())
                )),
                Span::styled(
                    t!(
                        lang,
                        "explorer-conflict-degree",
                        degree = format::trim_float(b.conflict_degree, 2)
                    ),
                    if b.bank_conflicts == 0 {
                        theme.good()
                    } else {
                        theme.bad()
                    },
                ),
                Span::raw(format!(
                    " · {}",
                    t!(
                        lang,
                        "explorer-bank-conflicts",
                        n = b.bank_conflicts.to_string()
                    )
                )),
            ]),
            Line::from(t!(
                lang,
                "explorer-why",
                why = explain::banks_in(lang, access, b)
            )),
        ],
        Analysis::Global(Err(e)) | Analysis::Shared(Err(e)) => {
            vec![Line::styled(e.to_string(), theme.bad())]
        }
    }
}

fn error_box(message: &str, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
    let outer = block(&t!(lang, "explorer-diagram"), theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    super::render_wrapped(
        vec![
            Line::styled(t!(lang, "explorer-cannot-draw"), theme.bad()),
            Line::from(message.to_string()),
        ],
        false,
        inner,
        buf,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyCode;

    fn drawn(state: &State, width: u16, height: u16) -> Buffer {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        render(state, Theme::new(true), Lang::En, area, &mut buf);
        buf
    }

    #[test]
    fn drawing_twice_gives_the_same_frame_and_changes_nothing() {
        let mut state = State::default();
        state.key(KeyEvent::from(KeyCode::Char('w')));
        state.key(KeyEvent::from(KeyCode::Char('s')));
        let before = state.clone();
        let (settings, curves) = (state.settings(), state.sweep_curves().cloned());
        // Tall enough for the sweep below the diagram, and short enough for it instead of it.
        for (width, height) in [(200, 60), (80, 24)] {
            let first = drawn(&state, width, height);
            assert_eq!(first, drawn(&state, width, height), "{width}×{height}");
        }
        assert_eq!(state, before);
        assert_eq!(state.settings(), settings);
        assert_eq!(state.sweep_curves().cloned(), curves);
        assert!(curves.is_some());
    }

    #[test]
    fn a_stride_change_reaches_the_curves_before_the_next_frame() {
        let mut state = State::default();
        state.key(KeyEvent::from(KeyCode::Char('w')));
        let at_one = drawn(&state, 80, 24);
        assert_eq!(state.sweep_curves().unwrap().current, Some((1.0, 4.0)));
        state.key(KeyEvent::from(KeyCode::Char('s')));
        assert_eq!(state.sweep_curves().unwrap().current, Some((2.0, 8.0)));
        let at_two = drawn(&state, 80, 24);
        assert_ne!(at_one, at_two, "the sweep panel redraws");
        let title = |buf: &Buffer| {
            (0..buf.area.height)
                .map(|y| {
                    (0..buf.area.width)
                        .map(|x| buf[(x, y)].symbol())
                        .collect::<String>()
                })
                .find(|row| row.contains("Sweep"))
                .unwrap_or_default()
        };
        assert!(title(&at_two).contains("now 2"), "{}", title(&at_two));
        state.key(KeyEvent::from(KeyCode::Char('S')));
        assert_eq!(drawn(&state, 80, 24), at_one, "back to stride 1");
    }
}
