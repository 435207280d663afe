//! A pane of wrapped text that scrolls: PgUp/PgDn (and Home/End) move it a page, the rows hidden
//! above and below are marked on its border (`↑ 3 more` / `↓ 12 more · PgDn`), and it never scrolls
//! past its end.
//!
//! ```text
//! ┌ Explanation ───────────────────────────── ↑ 3 more ┐
//! │ … the rows shown …                                  │
//! └───────────────────────────────── ↓ 12 more · PgDn ┘
//! ```
//!
//! Every pane that can overflow (feedback, explanations, lessons, statistics, help) draws through
//! [`render`], so the keys and the markers are the same everywhere.

use super::Theme;
use crate::i18n::Lang;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};

/// How far a pane is scrolled, in rows from its top.
///
/// Drawing records how many rows the pane could scroll (`room`), so that the keys stop at the end
/// even though the owner does not know the pane's width; that record is the only thing drawing
/// writes, and nothing else reads it.
/// (Atomics rather than cells only so that screens stay `Sync`; nothing draws from two threads.)
#[derive(Debug)]
pub struct Scroll {
    offset: u16,
    /// Rows below the top that the last drawing could scroll to ([`NOT_DRAWN`]: not drawn yet).
    room: AtomicU32,
    /// Rows shown by the last drawing (a page).
    page: AtomicU16,
}

/// `room` before the first drawing.
const NOT_DRAWN: u32 = u32::MAX;

impl Default for Scroll {
    fn default() -> Self {
        Scroll::new()
    }
}

impl Clone for Scroll {
    fn clone(&self) -> Self {
        Scroll {
            offset: self.offset,
            room: AtomicU32::new(self.room.load(Ordering::Relaxed)),
            page: AtomicU16::new(self.page.load(Ordering::Relaxed)),
        }
    }
}

/// Two panes are scrolled alike when they start at the same row.
impl PartialEq for Scroll {
    fn eq(&self, other: &Self) -> bool {
        self.offset == other.offset
    }
}

impl Eq for Scroll {}

/// What a drawn pane holds beyond what is shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Overflow {
    /// Rows hidden above.
    pub above: u16,
    /// Rows hidden below.
    pub below: u16,
}

impl Overflow {
    /// Whether anything is hidden.
    pub fn any(self) -> bool {
        self.above > 0 || self.below > 0
    }
}

impl Scroll {
    /// A pane at its top, not drawn yet.
    pub fn new() -> Self {
        Scroll {
            offset: 0,
            room: AtomicU32::new(NOT_DRAWN),
            page: AtomicU16::new(0),
        }
    }

    /// Rows the last drawing could scroll to (`None`: not drawn yet).
    fn room(&self) -> Option<u16> {
        match self.room.load(Ordering::Relaxed) {
            NOT_DRAWN => None,
            room => Some(room as u16),
        }
    }

    /// The first row shown.
    pub fn offset(&self) -> u16 {
        self.offset
    }

    /// Back to the top (new content).
    pub fn reset(&mut self) {
        self.offset = 0;
    }

    /// Moves `rows` down (negative: up), never past the end last drawn.
    pub fn by(&mut self, rows: i32) {
        let moved = (i32::from(self.offset) + rows).clamp(0, i32::from(u16::MAX)) as u16;
        self.offset = match self.room() {
            Some(room) => moved.min(room),
            None => moved,
        };
    }

    /// Scrolls to the end (as far as the last drawing could).
    pub fn to_end(&mut self) {
        self.offset = self.room().unwrap_or(u16::MAX);
    }

    /// PgDn / Space-free page keys: PgUp and PgDn a page, Ctrl-Home / Ctrl-End to either end; with
    /// `arrows`, ↑ and ↓ a row too (panes where the arrows move nothing else). Returns whether the
    /// key was a scrolling key.
    pub fn key(&mut self, key: &KeyEvent, arrows: bool) -> bool {
        let page = i32::from(self.page.load(Ordering::Relaxed).saturating_sub(1).max(1));
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::PageDown => self.by(page),
            KeyCode::PageUp => self.by(-page),
            KeyCode::End if ctrl || arrows => self.to_end(),
            KeyCode::Home if ctrl || arrows => self.reset(),
            KeyCode::Down | KeyCode::Char('j') if arrows => self.by(1),
            KeyCode::Up | KeyCode::Char('k') if arrows => self.by(-1),
            _ => return false,
        }
        true
    }

    /// Whether the last drawing hid rows (the footer then shows the scrolling keys).
    pub fn overflowing(&self) -> bool {
        self.room().is_some_and(|room| room > 0)
    }
}

/// Rows `lines` take when wrapped at `width` columns, as [`Paragraph`] wraps them.
pub fn rows(lines: &[Line<'_>], width: u16) -> u16 {
    let count = Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(width.max(1));
    u16::try_from(count).unwrap_or(u16::MAX)
}

/// Draws `lines` wrapped in `area` inside `block` (when given), from the row `scroll` is at; the
/// rows hidden above and below are marked on the block's top and bottom border (without a block:
/// on the area's last row, which the text then leaves free).
pub fn render(
    lines: Vec<Line<'static>>,
    block: Option<Block<'static>>,
    scroll: &Scroll,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) -> Overflow {
    let inner = block.as_ref().map_or(area, |b| b.inner(area));
    let text_area = super::wrap_room(&lines, inner);
    let total = rows(&lines, text_area.width);
    let mut height = inner.height;
    if block.is_none() && total > height {
        // The marker needs the last row.
        height = height.saturating_sub(1);
    }
    let room = total.saturating_sub(height);
    scroll.room.store(u32::from(room), Ordering::Relaxed);
    scroll.page.store(height, Ordering::Relaxed);
    let offset = scroll.offset.min(room);
    let overflow = Overflow {
        above: offset,
        below: room - offset,
    };
    let below = (overflow.below > 0).then(|| {
        Span::styled(
            format!(
                " {} ",
                t!(lang, "scroll-more-below", rows = overflow.below.to_string())
            ),
            theme.key(),
        )
    });
    let above = (overflow.above > 0).then(|| {
        Span::styled(
            format!(
                " {} ",
                t!(lang, "scroll-more-above", rows = overflow.above.to_string())
            ),
            theme.dim(),
        )
    });
    match block {
        Some(mut block) => {
            if let Some(above) = above {
                block = block.title_top(Line::from(above).right_aligned());
            }
            if let Some(below) = below {
                block = block.title_bottom(Line::from(below).right_aligned());
            }
            block.render(area, buf);
        }
        None => {
            if let Some(marker) = below.or(above) {
                let row = Rect {
                    y: inner.y + inner.height.saturating_sub(1),
                    height: 1.min(inner.height),
                    ..inner
                };
                Line::from(marker).right_aligned().render(row, buf);
            }
        }
    }
    let shown = Rect {
        height: height.min(text_area.height),
        ..text_area
    };
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .scroll((offset, 0))
        .render(shown, buf);
    overflow
}

/// The footer's scrolling key, for a screen whose pane overflows.
pub fn key_hint(lang: Lang) -> super::KeyHint {
    super::KeyHint::new("PgUp/PgDn", t!(lang, "scroll-key"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEvent;

    fn text(rows: usize) -> Vec<Line<'static>> {
        (0..rows).map(|i| Line::from(format!("row {i}"))).collect()
    }

    fn shown(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect()
    }

    #[test]
    fn a_long_pane_marks_what_is_below_and_scrolls_to_its_end_and_no_further() {
        let theme = Theme::new(false);
        let area = Rect::new(0, 0, 30, 6);
        let mut scroll = Scroll::default();
        let mut buf = Buffer::empty(area);
        let block = Block::bordered();
        let overflow = render(
            text(10),
            Some(block.clone()),
            &scroll,
            theme,
            Lang::En,
            area,
            &mut buf,
        );
        assert_eq!(overflow, Overflow { above: 0, below: 6 });
        assert!(shown(&buf)[5].contains("6 more"), "{:?}", shown(&buf));
        for _ in 0..10 {
            scroll.key(&KeyEvent::from(KeyCode::PageDown), false);
        }
        assert_eq!(scroll.offset(), 6, "stops at the end");
        let mut buf = Buffer::empty(area);
        let overflow = render(
            text(10),
            Some(block),
            &scroll,
            theme,
            Lang::En,
            area,
            &mut buf,
        );
        assert_eq!(overflow, Overflow { above: 6, below: 0 });
        assert!(shown(&buf)[4].contains("row 9"), "{:?}", shown(&buf));
        scroll.key(&KeyEvent::from(KeyCode::PageUp), false);
        assert!(scroll.offset() < 6);
    }

    #[test]
    fn text_that_fits_has_no_marker_and_does_not_scroll() {
        let theme = Theme::new(false);
        let area = Rect::new(0, 0, 30, 6);
        let mut scroll = Scroll::default();
        let mut buf = Buffer::empty(area);
        let overflow = render(text(3), None, &scroll, theme, Lang::En, area, &mut buf);
        assert!(!overflow.any());
        assert!(!scroll.key(&KeyEvent::from(KeyCode::Down), false));
        scroll.key(&KeyEvent::from(KeyCode::PageDown), false);
        assert_eq!(scroll.offset(), 0);
        assert!(!scroll.overflowing());
    }
}
