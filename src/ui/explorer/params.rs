//! The explorer's parameters: the address shape, the active lanes, and the panel's rows — what each
//! shows, what ← → does to it and what typing a value into it means.

use super::sweep::SweepRow;
use super::{Space, State};
use crate::engine::{self, Arch, ELEM_SIZES, Granularity, full_mask};
use crate::i18n::Lang;
use crate::t;
use crate::ui::fields::parse_int;

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
    fn name(self, lang: Lang) -> String {
        match self {
            Shape::Affine => t!(lang, "explorer-shape-affine"),
            Shape::Struct => t!(lang, "explorer-shape-struct"),
            Shape::Row => t!(lang, "explorer-shape-row"),
            Shape::Column => t!(lang, "explorer-shape-column"),
            Shape::Offsets => t!(lang, "explorer-shape-offsets"),
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

    fn describe(self, warp: u32, lang: Lang) -> String {
        let count = self.mask(warp).count_ones().to_string();
        match self {
            Lanes::All => t!(lang, "explorer-lanes-all", count = count),
            Lanes::Half => t!(lang, "explorer-lanes-half", count = count),
            Lanes::Odd => t!(lang, "explorer-lanes-odd", count = count),
            Lanes::First(_) => t!(lang, "explorer-lanes-first", count = count),
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

/// Rows of the parameter panel, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Row {
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
    /// The sweep panel's rows (while it is shown).
    Sweep(SweepRow),
}

impl State {
    /// The rows of the panel for the current shape and space.
    pub(super) fn rows(&self) -> Vec<Row> {
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
        if self.sweep.is_some() {
            rows.extend([SweepRow::Param, SweepRow::Range, SweepRow::Figure].map(Row::Sweep));
        }
        rows
    }

    /// Keeps the field inside its struct: the struct holds at least one element, and the field
    /// starts between byte 0 and the last element-sized slot.
    fn fit_field(&mut self) {
        let elem = i64::from(self.elem);
        self.struct_size = self.struct_size.max(elem);
        self.field_offset = self.field_offset.clamp(0, self.struct_size - elem);
    }

    pub(super) fn adjust(&mut self, row: Row, step: i64) {
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
                self.fit_field();
            }
            Row::Shape => self.shape = self.shape.next(step),
            Row::Stride => self.stride = self.stride.saturating_add(step),
            Row::Offset => self.offset = self.offset.saturating_add(step),
            Row::StructSize => {
                self.struct_size = self.struct_size.saturating_add(4 * step);
                self.fit_field();
            }
            Row::FieldOffset => {
                self.field_offset = self
                    .field_offset
                    .saturating_add(i64::from(self.elem).saturating_mul(step));
                self.fit_field();
            }
            Row::Pitch => self.pitch = self.pitch.saturating_add(128 * step).max(0),
            Row::Base => self.base = self.base.saturating_add(4 * step),
            Row::Offsets => {
                let shift = i64::from(self.elem).saturating_mul(step);
                for offset in &mut self.offsets {
                    *offset = offset.saturating_add(shift);
                }
            }
            Row::Lanes => self.lanes = self.lanes.next(step, self.arch.warp_size),
            Row::Unit => self.lines = !self.lines,
            Row::Sweep(row) => self.adjust_sweep(row, step),
        }
    }

    pub(super) fn set(&mut self, row: Row, text: &str, lang: Lang) -> Result<(), String> {
        self.preset_name = None;
        match row {
            Row::Arch => {
                self.arch = Arch::parse(text).map_err(|e| e.to_string())?;
            }
            Row::Space => {
                self.space = match text.trim().to_lowercase().as_str() {
                    "global" | "g" => Space::Global,
                    "shared" | "s" | "smem" => Space::Shared,
                    other => {
                        return Err(t!(lang, "explorer-error-space", text = other.to_string()));
                    }
                }
            }
            Row::Elem => {
                let elem = parse_int(text)?;
                match u32::try_from(elem).ok().filter(|e| ELEM_SIZES.contains(e)) {
                    Some(e) => {
                        self.elem = e;
                        self.fit_field();
                    }
                    None => {
                        return Err(t!(lang, "explorer-error-elem", elem = elem.to_string()));
                    }
                }
            }
            Row::Shape => {
                self.shape = match text.trim().to_lowercase().as_str() {
                    "affine" | "a" => Shape::Affine,
                    "aos" | "struct" => Shape::Struct,
                    "row" => Shape::Row,
                    "column" | "col" => Shape::Column,
                    other => {
                        return Err(t!(lang, "explorer-error-shape", text = other.to_string()));
                    }
                }
            }
            Row::Stride => self.stride = parse_int(text)?,
            Row::Offset => self.offset = parse_int(text)?,
            Row::StructSize => {
                let size = parse_int(text)?;
                if size < i64::from(self.elem) {
                    return Err(t!(
                        lang,
                        "explorer-error-struct",
                        elem = self.elem.to_string()
                    ));
                }
                self.struct_size = size;
                self.fit_field();
            }
            Row::FieldOffset => {
                let offset = parse_int(text)?;
                if offset < 0 || offset.saturating_add(i64::from(self.elem)) > self.struct_size {
                    return Err(t!(
                        lang,
                        "explorer-error-field",
                        max = (self.struct_size - i64::from(self.elem)).to_string()
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
                    return Err(t!(
                        lang,
                        "explorer-error-offsets",
                        warp = self.arch.warp_size.to_string()
                    ));
                }
                self.offsets = offsets;
            }
            Row::Lanes => {
                let mask = engine::parse_mask(text)?;
                if mask & full_mask(self.arch.warp_size) == 0 {
                    return Err(t!(lang, "explorer-error-lanes"));
                }
                self.lanes = Lanes::Custom(mask);
            }
            Row::Unit => self.lines = text.trim().starts_with('l'),
            Row::Sweep(row) => self.set_sweep(row, text, lang)?,
        }
        Ok(())
    }

    pub(super) fn row_text(&self, row: Row, lang: Lang) -> (String, String) {
        let bytes = |n: i64| t!(lang, "explorer-value-bytes", n = n.to_string());
        let elems = |n: i64| t!(lang, "explorer-value-elems", n = n.to_string());
        match row {
            Row::Arch => (t!(lang, "explorer-row-arch"), self.arch.key.to_string()),
            Row::Space => (
                t!(lang, "explorer-row-space"),
                if self.space == Space::Global {
                    t!(lang, "explorer-space-global")
                } else {
                    t!(lang, "explorer-space-shared")
                },
            ),
            Row::Elem => (t!(lang, "explorer-row-elem"), bytes(i64::from(self.elem))),
            Row::Shape => (t!(lang, "explorer-row-pattern"), self.shape.name(lang)),
            Row::Stride => (t!(lang, "explorer-row-stride"), elems(self.stride)),
            Row::Offset => (
                match self.shape {
                    Shape::Struct => t!(lang, "explorer-row-first"),
                    Shape::Row | Shape::Column => t!(lang, "explorer-row-column"),
                    Shape::Affine | Shape::Offsets => t!(lang, "explorer-row-offset"),
                },
                elems(self.offset),
            ),
            Row::StructSize => (t!(lang, "explorer-row-struct"), bytes(self.struct_size)),
            Row::FieldOffset => (t!(lang, "explorer-row-field"), bytes(self.field_offset)),
            Row::Pitch => (t!(lang, "explorer-row-pitch"), bytes(self.pitch)),
            Row::Base => (t!(lang, "explorer-row-base"), bytes(self.base)),
            Row::Offsets => (
                t!(lang, "explorer-row-offsets"),
                crate::ui::ellipsis(
                    &self
                        .offsets
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(","),
                    13,
                ),
            ),
            Row::Lanes => (
                t!(lang, "explorer-row-lanes"),
                self.lanes.describe(self.arch.warp_size, lang),
            ),
            Row::Unit => (
                t!(lang, "explorer-row-count"),
                if self.granularity() == Granularity::Line {
                    t!(lang, "explorer-unit-lines")
                } else {
                    t!(lang, "explorer-unit-sectors")
                },
            ),
            Row::Sweep(row) => self.sweep_row_text(row, lang),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::explorer::PRESETS;

    #[test]
    fn a_wider_element_grows_the_struct_so_the_field_stays_inside() {
        // The AoS preset (12-byte struct), element size raised to 16 B, then → on "field at":
        // the struct must grow to hold a 16-byte field, and the field stays at byte 0.
        let mut state = State::default();
        let aos = PRESETS
            .iter()
            .find(|p| p.name.contains("12-byte"))
            .expect("the AoS preset");
        (aos.apply)(&mut state);
        assert_eq!(state.struct_size, 12);
        for _ in 0..2 {
            state.adjust(Row::Elem, 1);
        }
        assert_eq!(state.elem, 16);
        assert_eq!(state.struct_size, 16);
        state.adjust(Row::FieldOffset, 1);
        assert_eq!(state.field_offset, 0);
        state.adjust(Row::StructSize, 4);
        state.adjust(Row::FieldOffset, 1);
        assert_eq!((state.struct_size, state.field_offset), (32, 16));
        state.adjust(Row::StructSize, -100);
        assert_eq!((state.struct_size, state.field_offset), (16, 0));
    }

    #[test]
    fn the_store_toggle_counts_stores_and_is_saved() {
        let mut state = State::default();
        state.key(ratatui::crossterm::event::KeyEvent::from(
            ratatui::crossterm::event::KeyCode::Char('t'),
        ));
        assert_eq!(state.op, engine::Op::Store);
        state.space = Space::Shared;
        state.elem = 8;
        state.stride = 0;
        let b = engine::bank_conflicts(&state.access(), state.arch).unwrap();
        assert_eq!(b.wavefronts, 2);
        let saved = state.settings();
        assert_eq!(saved.op, "store");
        assert_eq!(State::from_settings(&saved).op, engine::Op::Store);
        // Files saved before stores have no op: a load.
        let old = crate::progress::ExplorerSettings {
            op: String::new(),
            ..saved
        };
        assert_eq!(State::from_settings(&old).op, engine::Op::Load);
        state.toggle_op();
        assert_eq!(
            engine::bank_conflicts(&state.access(), state.arch)
                .unwrap()
                .wavefronts,
            1
        );
    }

    #[test]
    fn extreme_steps_saturate() {
        let mut state = State {
            pitch: i64::MAX - 10,
            struct_size: i64::MAX - 1,
            ..State::default()
        };
        state.adjust(Row::Pitch, 1);
        assert_eq!(state.pitch, i64::MAX);
        state.adjust(Row::StructSize, 1);
        state.adjust(Row::FieldOffset, 1);
        assert!(state.field_offset <= state.struct_size - i64::from(state.elem));
    }
}
