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
use super::fields::{self, Panel, PanelEvent, parse_int};
use super::{Action, Component, Ctx, ExplorerSetup, Theme, block, centered, popup};
use crate::engine::{
    self, AccessShape, Arch, BankAnalysis, Coalescing, ELEM_SIZES, Granularity, WarpAccess,
    banks::BANKS, full_mask,
};
use crate::{explain, format};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Keys shown in the footer.
pub const KEYS: &[(&str, &str)] = &[
    ("s/S", "stride ±"),
    ("o/O", "offset ±"),
    ("e", "elem"),
    ("m", "global/shared"),
    ("a", "arch"),
    ("p", "presets"),
    ("↑↓ ←→", "field, value"),
    ("Enter", "type a value"),
    ("q", "back"),
];

/// How the lanes' addresses are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Lane t reads element `offset + t × stride`.
    Affine,
    /// Lane t reads a field of struct `offset + t`.
    Struct,
    /// Lane t reads `(0, offset + t)` of a row-major 2D array.
    Row,
    /// Lane t reads `(t, offset)` of a row-major 2D array.
    Column,
    /// Lane t reads the byte offset typed for it.
    Offsets,
}

impl Shape {
    fn name(self) -> &'static str {
        match self {
            Shape::Affine => "affine",
            Shape::Struct => "AoS field",
            Shape::Row => "2D row walk",
            Shape::Column => "2D column walk",
            Shape::Offsets => "explicit offsets",
        }
    }

    fn next(self, step: i64) -> Shape {
        const ALL: [Shape; 5] = [
            Shape::Affine,
            Shape::Struct,
            Shape::Row,
            Shape::Column,
            Shape::Offsets,
        ];
        let at = ALL.iter().position(|s| *s == self).unwrap_or(0) as i64;
        ALL[(at + step).rem_euclid(ALL.len() as i64) as usize]
    }
}

/// Which lanes are active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lanes {
    /// Every lane.
    All,
    /// The first half.
    Half,
    /// Odd lanes.
    Odd,
    /// The first N lanes.
    First(u32),
    /// A mask typed in.
    Custom(u64),
}

impl Lanes {
    /// The mask for a warp of `warp` lanes.
    pub fn mask(self, warp: u32) -> u64 {
        let all = full_mask(warp);
        match self {
            Lanes::All => all,
            Lanes::Half => full_mask(warp / 2),
            Lanes::Odd => 0xaaaa_aaaa_aaaa_aaaa & all,
            Lanes::First(n) => full_mask(n.min(warp)),
            Lanes::Custom(mask) => mask & all,
        }
    }

    fn describe(self, warp: u32) -> String {
        let count = self.mask(warp).count_ones();
        match self {
            Lanes::All => format!("all ({count})"),
            Lanes::Half => format!("first half ({count})"),
            Lanes::Odd => format!("odd ({count})"),
            Lanes::First(_) => format!("first {count}"),
            Lanes::Custom(mask) => format!("{:#x} ({count})", mask & full_mask(warp)),
        }
    }

    fn next(self, step: i64, warp: u32) -> Lanes {
        let order = [
            Lanes::All,
            Lanes::Half,
            Lanes::Odd,
            Lanes::First(1),
            Lanes::First(8),
        ];
        let at = order
            .iter()
            .position(|l| *l == self)
            .map_or(0, |i| i as i64);
        let _ = warp;
        order[(at + step).rem_euclid(order.len() as i64) as usize]
    }
}

/// The explorer's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Architecture.
    pub arch: &'static Arch,
    /// Memory space.
    pub space: Space,
    /// Bytes per lane.
    pub elem: u32,
    /// Address shape.
    pub shape: Shape,
    /// Stride in elements (affine).
    pub stride: i64,
    /// Offset in elements (or first struct / column).
    pub offset: i64,
    /// Struct size in bytes (AoS).
    pub struct_size: i64,
    /// Field offset in bytes (AoS).
    pub field_offset: i64,
    /// Row pitch in bytes (2D).
    pub pitch: i64,
    /// Base address in bytes (alignment).
    pub base: i64,
    /// Byte offset per lane, lane 0 first (explicit offsets).
    pub offsets: Vec<i64>,
    /// Active lanes.
    pub lanes: Lanes,
    /// Count in 128-byte lines instead of the architecture's unit.
    pub lines: bool,
    /// The parameter panel.
    pub panel: Panel,
    /// The preset picker, open with its selection.
    pub presets: Option<usize>,
    /// Name of the preset last applied.
    pub preset_name: Option<&'static str>,
}

impl Default for State {
    fn default() -> Self {
        State {
            arch: Arch::default_arch(),
            space: Space::Global,
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
        }
    }
}

/// A classic case from the notes.
pub struct Preset {
    /// Its name.
    pub name: &'static str,
    /// What it shows.
    pub what: &'static str,
    apply: fn(&mut State),
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

/// Rows of the parameter panel, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Row {
    Arch,
    Space,
    Elem,
    Shape,
    Stride,
    Offset,
    StructSize,
    FieldOffset,
    Pitch,
    Base,
    Offsets,
    Lanes,
    Unit,
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        self.key(key);
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(self, ctx.theme, area, buf);
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        KEYS.to_vec()
    }

    /// While a value is typed or the preset picker is open, every key is the explorer's.
    fn captures(&self, _key: &KeyEvent) -> bool {
        self.typing() || self.presets.is_some()
    }
}

impl State {
    /// The explorer preloaded with an access.
    pub fn from_access(arch: &'static Arch, space: Space, access: &WarpAccess) -> State {
        State::from_setup(&ExplorerSetup::new(arch, space, access))
    }

    /// The explorer on a pattern described by the command line, an exercise or a test.
    pub fn from_setup(setup: &ExplorerSetup) -> State {
        let arch = setup.arch;
        let shape = &setup.shape;
        let mut state = State {
            arch,
            space: setup.space,
            elem: shape.elem_bytes,
            stride: shape.stride,
            offset: shape.offset,
            base: shape.base,
            lines: setup.lines,
            ..State::default()
        };
        let warp = full_mask(arch.warp_size);
        let mask = shape.mask.unwrap_or(warp) & warp;
        state.lanes = if mask == warp {
            Lanes::All
        } else if mask.trailing_ones() == mask.count_ones() {
            Lanes::First(mask.count_ones())
        } else {
            Lanes::Custom(mask)
        };
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
        *self = State {
            space,
            elem,
            stride,
            offset,
            panel,
            ..State::default()
        };
    }

    fn set_struct(&mut self, size: i64) {
        self.set_affine(Space::Global, 4, 1, 0);
        self.shape = Shape::Struct;
        self.struct_size = size;
        self.field_offset = 0;
    }

    fn rows(&self) -> Vec<Row> {
        let mut rows = vec![Row::Arch, Row::Space, Row::Elem, Row::Shape];
        match self.shape {
            Shape::Affine => rows.extend([Row::Stride, Row::Offset]),
            Shape::Struct => rows.extend([Row::StructSize, Row::FieldOffset, Row::Offset]),
            Shape::Row | Shape::Column => rows.extend([Row::Pitch, Row::Offset]),
            Shape::Offsets => rows.push(Row::Offsets),
        }
        rows.extend([Row::Base, Row::Lanes]);
        if self.space == Space::Global {
            rows.push(Row::Unit);
        }
        rows
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
        .access(self.arch.warp_size)
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

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent) {
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
                KeyCode::Char('p') => {
                    self.presets = Some(0);
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
                self.panel.error = self.set(rows[selected], &text).err();
            }
            PanelEvent::Handled | PanelEvent::Ignored => {}
        }
    }

    fn adjust(&mut self, row: Row, step: i64) {
        self.preset_name = None;
        self.panel.error = None;
        match row {
            Row::Arch => {
                let index = engine::ARCHS
                    .iter()
                    .position(|a| a.key == self.arch.key)
                    .unwrap_or(0) as i64;
                self.arch =
                    &engine::ARCHS[(index + step).rem_euclid(engine::ARCHS.len() as i64) as usize];
            }
            Row::Space => {
                self.space = if self.space == Space::Global {
                    Space::Shared
                } else {
                    Space::Global
                };
            }
            Row::Elem => {
                let at = ELEM_SIZES.iter().position(|e| *e == self.elem).unwrap_or(2) as i64;
                self.elem = ELEM_SIZES[(at + step).rem_euclid(ELEM_SIZES.len() as i64) as usize];
                self.field_offset = self
                    .field_offset
                    .min(self.struct_size - i64::from(self.elem))
                    .max(0);
            }
            Row::Shape => self.shape = self.shape.next(step),
            Row::Stride => self.stride = self.stride.saturating_add(step),
            Row::Offset => self.offset = self.offset.saturating_add(step),
            Row::StructSize => {
                self.struct_size = (self.struct_size + 4 * step).max(i64::from(self.elem));
                self.field_offset = self
                    .field_offset
                    .min(self.struct_size - i64::from(self.elem));
            }
            Row::FieldOffset => {
                self.field_offset = (self.field_offset + i64::from(self.elem) * step)
                    .clamp(0, self.struct_size - i64::from(self.elem));
            }
            Row::Pitch => self.pitch = (self.pitch + 128 * step).max(0),
            Row::Base => self.base = self.base.saturating_add(4 * step),
            Row::Offsets => {
                let shift = i64::from(self.elem).saturating_mul(step);
                for offset in &mut self.offsets {
                    *offset = offset.saturating_add(shift);
                }
            }
            Row::Lanes => self.lanes = self.lanes.next(step, self.arch.warp_size),
            Row::Unit => self.lines = !self.lines,
        }
    }

    fn set(&mut self, row: Row, text: &str) -> Result<(), String> {
        self.preset_name = None;
        match row {
            Row::Arch => {
                self.arch = Arch::parse(text).map_err(|e| e.to_string())?;
            }
            Row::Space => {
                self.space = match text.trim().to_lowercase().as_str() {
                    "global" | "g" => Space::Global,
                    "shared" | "s" | "smem" => Space::Shared,
                    other => return Err(format!("`{other}`: type global or shared")),
                }
            }
            Row::Elem => {
                let elem = parse_int(text)?;
                match u32::try_from(elem).ok().filter(|e| ELEM_SIZES.contains(e)) {
                    Some(e) => self.elem = e,
                    None => {
                        return Err(format!(
                            "element size must be 1, 2, 4, 8 or 16 bytes, got {elem}"
                        ));
                    }
                }
            }
            Row::Shape => {
                self.shape = match text.trim().to_lowercase().as_str() {
                    "affine" | "a" => Shape::Affine,
                    "aos" | "struct" => Shape::Struct,
                    "row" => Shape::Row,
                    "column" | "col" => Shape::Column,
                    other => return Err(format!("`{other}`: type affine, aos, row or column")),
                }
            }
            Row::Stride => self.stride = parse_int(text)?,
            Row::Offset => self.offset = parse_int(text)?,
            Row::StructSize => {
                let size = parse_int(text)?;
                if size < i64::from(self.elem) {
                    return Err(format!("a struct must hold its {}-byte field", self.elem));
                }
                self.struct_size = size;
                self.field_offset = self.field_offset.min(size - i64::from(self.elem));
            }
            Row::FieldOffset => {
                let offset = parse_int(text)?;
                if offset < 0 || offset + i64::from(self.elem) > self.struct_size {
                    return Err(format!(
                        "field offset must be 0 to {}",
                        self.struct_size - i64::from(self.elem)
                    ));
                }
                self.field_offset = offset;
            }
            Row::Pitch => self.pitch = parse_int(text)?,
            Row::Base => self.base = parse_int(text)?,
            Row::Offsets => {
                let offsets = text
                    .split(',')
                    .filter(|part| !part.trim().is_empty())
                    .map(parse_int)
                    .collect::<Result<Vec<_>, _>>()?;
                if offsets.is_empty() || offsets.len() > self.arch.warp_size as usize {
                    return Err(format!(
                        "type 1 to {} byte offsets, comma-separated, lane 0 first",
                        self.arch.warp_size
                    ));
                }
                self.offsets = offsets;
            }
            Row::Lanes => {
                let mask = engine::parse_mask(text)?;
                if mask & full_mask(self.arch.warp_size) == 0 {
                    return Err("at least one lane must be active".into());
                }
                self.lanes = Lanes::Custom(mask);
            }
            Row::Unit => self.lines = text.trim().starts_with('l'),
        }
        Ok(())
    }

    fn row_text(&self, row: Row) -> (&'static str, String) {
        match row {
            Row::Arch => ("arch", self.arch.key.to_string()),
            Row::Space => (
                "space",
                if self.space == Space::Global {
                    "global"
                } else {
                    "shared"
                }
                .to_string(),
            ),
            Row::Elem => ("elem", format!("{} B", self.elem)),
            Row::Shape => ("pattern", self.shape.name().to_string()),
            Row::Stride => ("stride", format!("{} elem", self.stride)),
            Row::Offset => (
                match self.shape {
                    Shape::Struct => "first",
                    Shape::Row | Shape::Column => "column",
                    Shape::Affine | Shape::Offsets => "offset",
                },
                format!("{} elem", self.offset),
            ),
            Row::StructSize => ("struct", format!("{} B", self.struct_size)),
            Row::FieldOffset => ("field at", format!("{} B", self.field_offset)),
            Row::Pitch => ("pitch", format!("{} B", self.pitch)),
            Row::Base => ("base", format!("{} B", self.base)),
            Row::Offsets => (
                "offsets",
                self.offsets
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            Row::Lanes => ("lanes", self.lanes.describe(self.arch.warp_size)),
            Row::Unit => (
                "count",
                if self.granularity() == Granularity::Line {
                    "128 B lines"
                } else {
                    "32 B sectors"
                }
                .to_string(),
            ),
        }
    }
}

/// Marker letter of the n-th segment: A–Z, a–z, 0–9, then `+`.
fn segment_letter(n: usize) -> char {
    const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    LETTERS.get(n).map_or('+', |b| *b as char)
}

/// Draws the explorer.
pub fn render(state: &State, theme: Theme, area: Rect, buf: &mut Buffer) {
    let rows: Vec<(&str, String)> = state
        .rows()
        .into_iter()
        .map(|r| state.row_text(r))
        .collect();
    let mut panel = state.panel.clone();
    panel.selected = panel.selected.min(rows.len().saturating_sub(1));

    // Ask the engine first: the numbers decide how tall their box is.
    let access = state.access();
    let analysis = match state.space {
        Space::Global => Analysis::Global(engine::coalesce(&access, state.granularity())),
        Space::Shared => Analysis::Shared(engine::bank_conflicts(&access, state.arch)),
    };
    let numbers = number_lines(&analysis, &access, theme);

    // Wide windows: parameters in a column beside the diagram; narrow ones: a strip above it.
    let wide = area.width >= 26 + 2 + 5 + BANKS as u16 + 2;
    let numbers_height =
        (super::wrapped_height(&numbers, area.width.saturating_sub(2)) + 2).clamp(4, 8);
    let (diagram_area, numbers_area) = if wide {
        let [top, numbers_area] = area.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(numbers_height),
        ]));
        let [panel_area, diagram_area] = top.layout(&Layout::horizontal([
            Constraint::Length(26),
            Constraint::Fill(1),
        ]));
        fields::render("Parameters", &rows, &panel, theme, panel_area, buf);
        (diagram_area, numbers_area)
    } else {
        let [strip, diagram_area, numbers_area] = area.layout(&Layout::vertical([
            Constraint::Length(4),
            Constraint::Fill(1),
            Constraint::Length(numbers_height),
        ]));
        fields::render_compact("Parameters (↑↓ choose)", &rows, &panel, theme, strip, buf);
        (diagram_area, numbers_area)
    };

    match &analysis {
        Analysis::Global(Ok(c)) => {
            let title = super::arch_title(
                &format!("Warp → {}", c.granularity.plural()),
                state.arch,
                diagram_area.width,
            );
            global_diagram(c, theme, &title, diagram_area, buf);
        }
        Analysis::Shared(Ok(b)) => bank_diagram(b, theme, state.arch, diagram_area, buf),
        Analysis::Global(Err(e)) | Analysis::Shared(Err(e)) => {
            error_box(&e.to_string(), theme, diagram_area, buf)
        }
    }
    let title = match state.preset_name {
        Some(name) => format!("Numbers · preset: {name}"),
        None => "Numbers".to_string(),
    };
    let outer = block(&title, theme);
    let inner = outer.inner(numbers_area);
    outer.render(numbers_area, buf);
    Paragraph::new(numbers)
        .wrap(Wrap { trim: false })
        .render(inner, buf);

    if let Some(selected) = state.presets {
        presets_popup(selected, theme, area, buf);
    }
}

/// The engine's answer for the pattern shown.
enum Analysis {
    Global(engine::Result<Coalescing>),
    Shared(engine::Result<BankAnalysis>),
}

/// The numbers beside the pictures, as plain text a screen reader or a script can find.
fn number_lines(analysis: &Analysis, access: &WarpAccess, theme: Theme) -> Vec<Line<'static>> {
    match analysis {
        Analysis::Global(Ok(c)) => vec![
            Line::from(vec![
                Span::styled(format!("sectors {}", c.sectors), theme.title()),
                Span::raw(format!(" · requests {} · ", c.requests)),
                Span::styled(
                    format!("efficiency {}", format::percent(c.efficiency)),
                    if c.efficiency >= 0.999 {
                        theme.good()
                    } else {
                        theme.bad()
                    },
                ),
                Span::raw(format!(" · lines {}", c.lines)),
            ]),
            Line::from(format!(
                "bytes requested {} / fetched {} ({} wasted)",
                c.bytes_requested,
                c.bytes_fetched,
                c.bytes_fetched.saturating_sub(c.bytes_requested)
            )),
            Line::from(format!("why: {}", explain::coalescing(access, c))),
        ],
        Analysis::Shared(Ok(b)) => vec![
            Line::from(vec![
                Span::styled(format!("wavefronts {}", b.wavefronts), theme.title()),
                Span::raw(format!(" · ideal {} · ", b.ideal_wavefronts)),
                Span::styled(
                    format!(
                        "conflict degree {}-way",
                        format::trim_float(b.conflict_degree, 2)
                    ),
                    if b.bank_conflicts == 0 {
                        theme.good()
                    } else {
                        theme.bad()
                    },
                ),
                Span::raw(format!(" · bank conflicts {}", b.bank_conflicts)),
            ]),
            Line::from(format!("why: {}", explain::banks(access, b))),
        ],
        Analysis::Global(Err(e)) | Analysis::Shared(Err(e)) => {
            vec![Line::styled(e.to_string(), theme.bad())]
        }
    }
}

fn error_box(message: &str, theme: Theme, area: Rect, buf: &mut Buffer) {
    let outer = block("Diagram", theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    Paragraph::new(vec![
        Line::styled("These inputs cannot be drawn:", theme.bad()),
        Line::from(message.to_string()),
    ])
    .wrap(Wrap { trim: false })
    .render(inner, buf);
}

fn presets_popup(selected: usize, theme: Theme, area: Rect, buf: &mut Buffer) {
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
            super::ellipsis(&lanes, 12),
            segment.bytes_used,
            c.segment_bytes
        )));
        lines.push(Line::from(spans));
    }
    Paragraph::new(lines).render(inner, buf);
}

/// 32 bank columns per phase; row r holds the r-th distinct word each bank must deliver, showing the lane
/// that reads it. Rows after the first are serialized (marked ✗ and in the conflict colour); words several
/// lanes share are broadcasts (listed below the grid).
pub fn bank_diagram(b: &BankAnalysis, theme: Theme, arch: &Arch, area: Rect, buf: &mut Buffer) {
    let title = super::arch_title("Lanes → 32 banks", arch, area.width);
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
            format!(
                "lanes {} share word {}",
                format::lane_ranges(&w.lanes),
                w.word
            )
        })
        .collect();
    if !broadcasts.is_empty() {
        trailing.push(Line::styled(
            format!("broadcast: {}", broadcasts.join("; ")),
            theme.good(),
        ));
    }
    if let Some((phase, bank, words)) = b
        .phases
        .iter()
        .flat_map(|p| {
            p.banks
                .iter()
                .enumerate()
                .map(move |(bank, words)| (p, bank, words))
        })
        .filter(|(_, _, words)| words.len() > 1)
        .min_by_key(|(phase, bank, words)| {
            (std::cmp::Reverse(words.len()), phase.first_lane, *bank)
        })
    {
        let lanes: Vec<String> = words
            .iter()
            .map(|w| format::lane_ranges(&w.lanes))
            .collect();
        trailing.push(Line::styled(
            format!(
                "serialized: bank {bank} (lanes {}-{}) delivers {} words one after another — lanes {}",
                phase.first_lane,
                phase.first_lane + phase.lanes - 1,
                words.len(),
                super::ellipsis(&lanes.join(", "), 60)
            ),
            theme.bad(),
        ));
    }
    if cell == 1 {
        trailing.push(Line::styled(
            "● word · ◆ shared (broadcast) · ✗ waits a wavefront",
            theme.dim(),
        ));
    }
    let reserved = super::wrapped_height(&trailing, inner.width) as usize;
    let budget = (inner.height as usize).saturating_sub(reserved + header.len() * b.phases.len());
    // Each phase also has its title line (when there are several) and may need a "… more" line.
    let titled = b.phases.len() > 1 || b.phase_lanes < 32;
    let per_phase = (budget / b.phases.len().max(1))
        .saturating_sub(usize::from(titled))
        .max(1);
    for phase in &b.phases {
        if b.phases.len() > 1 || b.phase_lanes < 32 {
            lines.push(Line::styled(
                format!(
                    "phase lanes {}-{} → {} wavefront(s){}",
                    phase.first_lane,
                    phase.first_lane + phase.lanes - 1,
                    phase.wavefronts,
                    if b.merged { " (pairs merged)" } else { "" }
                ),
                theme.dim(),
            ));
        }
        for (i, row) in header.iter().enumerate() {
            let name = if i == 0 { "bank" } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{name:<label$}"), theme.dim()),
                Span::styled(row.clone(), theme.dim()),
            ]));
        }
        let rows = phase.wavefronts as usize;
        // Show every row that fits; otherwise keep one line to say how many are hidden.
        let shown = if rows <= per_phase {
            rows
        } else {
            per_phase.saturating_sub(1).max(1)
        };
        for row in 0..shown {
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
            for words in &phase.banks {
                let span = match words.get(row) {
                    Some(word) => {
                        let shared = word.lanes.len() > 1;
                        let text = match cell {
                            1 => {
                                if serialized {
                                    "✗".to_string()
                                } else if shared {
                                    "◆".to_string()
                                } else {
                                    "●".to_string()
                                }
                            }
                            2 => format!("{:>2}", word.lanes[0]),
                            _ if shared => format!("{:>2}+", word.lanes[0]),
                            _ => format!("{:>3}", word.lanes[0]),
                        };
                        let style = if serialized {
                            theme.bad()
                        } else if shared {
                            theme
                                .good()
                                .add_modifier(ratatui::style::Modifier::UNDERLINED)
                        } else {
                            theme.series(word.lanes[0] as usize / 8)
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
                format!("     … {} more wavefront rows", rows - shown),
                theme.bad(),
            ));
        }
    }
    lines.extend(trailing);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}
