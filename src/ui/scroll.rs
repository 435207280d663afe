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
use std::cell::Cell;

/// How far a pane is scrolled, in rows from its top.
///
/// Drawing records how many rows the pane could scroll (`room`), so that the keys stop at the end
/// even though the owner does not know the pane's width; that record is the only thing drawing
/// writes, and nothing else reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scroll {
    offset: u16,
    /// Rows below the top that the last drawing could scroll to (`None`: not drawn yet).
    room: Cell<Option<u16>>,
    /// Rows shown by the last drawing (a page).
    page: Cell<u16>,
}

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
    /// The first row shown (as far as the last drawing could scroll).
    pub fn offset(&self) -> u16 {
        self.room
            .get()
            .map_or(self.offset, |room| self.offset.min(room))
    }

    /// Back to the top (new content).
    pub fn reset(&mut self) {
        self.offset = 0;
    }

    /// Moves `rows` down (negative: up), never past the end last drawn.
    pub fn by(&mut self, rows: i32) {
        let moved = (i32::from(self.offset()) + rows).clamp(0, i32::from(u16::MAX)) as u16;
        self.offset = match self.room.get() {
            Some(room) => moved.min(room),
            None => moved,
        };
    }

    /// Scrolls to the end: the next drawing shows the last rows, however many there are then
    /// (text added at the end since the last drawing is shown too).
    pub fn to_end(&mut self) {
        self.offset = u16::MAX;
    }

    /// PgDn / Space-free page keys: PgUp and PgDn a page, Ctrl-Home / Ctrl-End to either end; with
    /// `arrows`, ↑ and ↓ a row too (panes where the arrows move nothing else). Returns whether the
    /// key was a scrolling key.
    pub fn key(&mut self, key: &KeyEvent, arrows: bool) -> bool {
        let page = i32::from(self.page.get().saturating_sub(1).max(1));
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
        self.room.get().is_some_and(|room| room > 0)
    }
}

/// Rows `lines` take when wrapped at `width` columns, as [`Paragraph`] wraps them.
pub fn rows(lines: &[Line<'_>], width: u16) -> u16 {
    let count = Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(width.max(1));
    u16::try_from(count).unwrap_or(u16::MAX)
}

/// Records that a pane of `total` rows is drawn `height` rows high, and returns what it hides
/// above and below from the row `scroll` is at — for a pane drawn some other way than [`render`]
/// (widgets drawn into a taller buffer). The first row to show is then [`Scroll::offset`].
pub fn measure(scroll: &Scroll, total: u16, height: u16) -> Overflow {
    let room = total.saturating_sub(height);
    scroll.room.set(Some(room));
    scroll.page.set(height);
    let offset = scroll.offset.min(room);
    Overflow {
        above: offset,
        below: room - offset,
    }
}

/// `block` with the rows `overflow` hides marked on its top and bottom border.
pub fn marked(
    block: Block<'static>,
    overflow: Overflow,
    theme: Theme,
    lang: Lang,
) -> Block<'static> {
    let (above, below) = markers(overflow, theme, lang);
    let mut block = block;
    if let Some(above) = above {
        block = block.title_top(Line::from(above).right_aligned());
    }
    if let Some(below) = below {
        block = block.title_bottom(Line::from(below).right_aligned());
    }
    block
}

/// The `↑ N more` and `↓ N more · PgDn` markers, where rows are hidden.
fn markers(
    overflow: Overflow,
    theme: Theme,
    lang: Lang,
) -> (Option<Span<'static>>, Option<Span<'static>>) {
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
    (above, below)
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
    let overflow = measure(scroll, total, height);
    match block {
        Some(block) => marked(block, overflow, theme, lang).render(area, buf),
        None => {
            let (above, below) = markers(overflow, theme, lang);
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
        .scroll((overflow.above, 0))
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

    #[test]
    fn to_end_follows_text_added_since_the_last_drawing_and_pages_back_from_there() {
        let theme = Theme::new(false);
        let area = Rect::new(0, 0, 30, 6);
        let mut scroll = Scroll::default();
        let draw = |rows: usize, scroll: &Scroll| {
            let mut buf = Buffer::empty(area);
            let overflow = render(
                text(rows),
                Some(Block::bordered()),
                scroll,
                theme,
                Lang::En,
                area,
                &mut buf,
            );
            (overflow, shown(&buf))
        };
        draw(10, &scroll);
        scroll.to_end();
        let (overflow, rows) = draw(14, &scroll);
        assert_eq!(
            overflow,
            Overflow {
                above: 10,
                below: 0
            }
        );
        assert!(rows[4].contains("row 13"), "{rows:?}");
        scroll.key(&KeyEvent::from(KeyCode::PageUp), false);
        assert_eq!(scroll.offset(), 7, "a page (less a row) up from the end");
        let mut measured = Scroll::default();
        assert_eq!(
            measure(&measured, 30, 10),
            Overflow {
                above: 0,
                below: 20
            }
        );
        measured.key(&KeyEvent::from(KeyCode::End), true);
        assert_eq!(measured.offset(), 20);
    }
}
