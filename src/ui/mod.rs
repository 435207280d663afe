//! The screens and what they share: every screen is a [`Component`] that turns keys into
//! [`Action`]s and draws itself from a read-only [`Ctx`]; widgets, the input line and the theme.
//! Nothing here sees the app: the app routes keys to the top screen and carries out the actions.

pub mod action;
pub mod analyze;
pub mod calculators;
pub mod card;
pub mod ctx;
pub mod diagram;
pub mod exercise;
pub mod explorer;
pub mod fields;
pub mod help;
pub mod home;
pub mod input;
pub mod lab;
pub mod lab_dashboard;
pub mod lab_served;
pub mod ladder;
pub mod lesson;
pub mod puzzle;
pub mod review;
pub mod scroll;
pub mod search;
pub mod stats;
pub mod theme;
pub mod topic;
pub mod words;

use crate::i18n::Lang;
use crate::t;
pub use crate::text::{
    columns as text_width, cut as ellipsis, pad, pad_left, take_columns as take_width,
};
pub use action::{Action, ExplorerSetup, Space, Tab};
pub use ctx::Ctx;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
use std::borrow::Cow;
pub use theme::Theme;

/// Smallest terminal the tutor draws in.
pub const MIN_WIDTH: u16 = 60;
/// Smallest terminal height the tutor draws in.
pub const MIN_HEIGHT: u16 = 20;
/// The widest area drawn: a larger terminal is drawn in its top-left corner. The frame's buffers
/// grow with the area (two cells a character), so a 30 000 × 30 000 terminal would need tens of
/// gigabytes; 1000 × 500 takes a few tens of megabytes.
pub const MAX_WIDTH: u16 = 1000;
/// The tallest area drawn (see [`MAX_WIDTH`]).
pub const MAX_HEIGHT: u16 = 500;

/// The area drawn in a terminal of `width` × `height`: all of it, up to [`MAX_WIDTH`] ×
/// [`MAX_HEIGHT`].
pub fn drawn_area(width: u16, height: u16) -> Rect {
    Rect::new(0, 0, width.min(MAX_WIDTH), height.min(MAX_HEIGHT))
}

/// One key of a footer or of help: the key's name (`Enter`, `1-4`; the same in every language) and
/// what it does, in the learner's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyHint {
    /// The key's name, as the keyboard says it.
    pub key: Cow<'static, str>,
    /// What the key does here.
    pub action: Cow<'static, str>,
}

impl KeyHint {
    /// `key` does `action`.
    pub fn new(key: impl Into<Cow<'static, str>>, action: impl Into<Cow<'static, str>>) -> Self {
        KeyHint {
            key: key.into(),
            action: action.into(),
        }
    }
}

/// A screen: it owns its state, turns keys into [`Action`]s and draws itself.
pub trait Component {
    /// Handles a key: changes the screen's own state and returns what it asks of the app.
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action>;
    /// Draws the screen into `area`; drawing never changes state.
    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer);
    /// The keys for the footer and help with what they do in `lang`, most important first. Key
    /// names stay the same in every language.
    fn keys(&self, lang: Lang) -> Vec<KeyHint>;
    /// Whether the screen takes `key` before the global keys (`q`, `Esc`, `?`, `/`, `g`) — while
    /// the learner types a value, those are text.
    fn captures(&self, _key: &KeyEvent) -> bool {
        false
    }
    /// Takes pasted text (bracketed paste): a screen typing into a text input inserts it there as
    /// one edit and never submits; elsewhere a paste is ignored.
    fn handle_paste(&mut self, _text: &str, _ctx: &Ctx) -> Option<Action> {
        None
    }
}

/// The "terminal too small" message, drawn instead of any screen below [`MIN_WIDTH`]×[`MIN_HEIGHT`].
pub fn too_small(area: Rect, buf: &mut Buffer, theme: Theme, lang: Lang) {
    let text = vec![
        Line::styled(t!(lang, "app-too-small-title"), theme.bad()),
        Line::from(t!(
            lang,
            "app-too-small-size",
            width = area.width.to_string(),
            height = area.height.to_string(),
            min_width = MIN_WIDTH.to_string(),
            min_height = MIN_HEIGHT.to_string()
        )),
        Line::from(t!(lang, "app-too-small-quit")),
    ];
    let room = wrap_room(&text, area);
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .render(room, buf);
}

/// The footer: `key action · key action …`, as many as fit in `width` (most important first).
/// Widths are terminal columns: a Korean syllable takes two.
pub fn footer_line(keys: &[KeyHint], theme: Theme, width: u16) -> Line<'static> {
    let mut spans = Vec::new();
    let mut used = 0usize;
    for (i, hint) in keys.iter().enumerate() {
        let (key, action) = (hint.key.as_ref(), hint.action.as_ref());
        let separator = if i > 0 { 3 } else { 0 };
        let cost = separator + text_width(key) + 1 + text_width(action);
        if used + cost > width as usize {
            break;
        }
        used += cost;
        if i > 0 {
            spans.push(Span::styled(" · ", theme.dim()));
        }
        spans.push(Span::styled(key.to_string(), theme.key()));
        spans.push(Span::raw(format!(" {action}")));
    }
    Line::from(spans)
}

/// What a message is given for a key's name, so that [`keyed_line`] can style the key where the
/// language puts it.
pub const KEY_MARK: &str = "\u{1}";

/// A message with a key in it (`Press u to unlock every level now.`), the key styled as a key:
/// `text` is the message given [`KEY_MARK`] for the key's name.
pub fn keyed_line(text: &str, key: &str, theme: Theme) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, part) in text.split(KEY_MARK).enumerate() {
        if i > 0 {
            spans.push(Span::styled(key.to_string(), theme.key()));
        }
        if !part.is_empty() {
            spans.push(Span::raw(part.to_string()));
        }
    }
    Line::from(spans)
}

/// Shortens full-width rules (`───`) to `width`, so a rule drawn for the whole area does not wrap
/// onto a second row when [`wrap_room`] left one column fewer.
pub fn fit_rules(lines: &mut [Line<'_>], width: u16) {
    for line in lines.iter_mut() {
        let rule = !line.spans.is_empty()
            && line
                .spans
                .iter()
                .all(|s| s.content.chars().all(|c| c == '─'));
        if rule && line.width() > usize::from(width) {
            let style = line.spans[0].style;
            *line = Line::styled("─".repeat(usize::from(width)), style);
        }
    }
}

/// Where wrapped `lines` may be drawn in `area`: all of it, or one column less when they hold a
/// double-width character — ratatui's word wrapping can end a row with a double-width character
/// one column past the room it was given, which would cut it against the border.
pub fn wrap_room(lines: &[Line<'_>], area: Rect) -> Rect {
    let wide = lines.iter().flat_map(|line| &line.spans).any(|span| {
        span.content
            .chars()
            .any(|c| text_width(c.encode_utf8(&mut [0; 4])) > 1)
    });
    if wide {
        Rect {
            width: area.width.saturating_sub(1),
            ..area
        }
    } else {
        area
    }
}

/// Draws `text` word-wrapped in [`wrap_room`] of `area` (trimming leading spaces of wrapped rows
/// when `trim`): the one way to draw a wrapped paragraph, so double-width text never runs over a
/// border.
pub fn render_wrapped<'a>(text: impl Into<Text<'a>>, trim: bool, area: Rect, buf: &mut Buffer) {
    let text = text.into();
    let room = wrap_room(&text.lines, area);
    Paragraph::new(text).wrap(Wrap { trim }).render(room, buf);
}

/// `title`, marked ` · English` (in the language spoken) when the item is shown in English because
/// its translation is missing or was refused.
pub fn marked_title(
    ctx: &Ctx,
    kind: crate::content::i18n::ItemKind,
    id: &str,
    title: String,
) -> String {
    if ctx.content.is_english(kind, id) {
        format!("{title} · {}", t!(ctx.lang, "untranslated-mark"))
    } else {
        title
    }
}

/// A bordered block with a title.
pub fn block(title: &str, theme: Theme) -> Block<'static> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.title()))
}

/// `prefix · sm_90 (Hopper: H100, H200)`, shortened to `prefix · sm_90 (Hopper)` or `prefix · sm_90`
/// when a block `width` columns wide cannot hold it.
pub fn arch_title(prefix: &str, arch: &crate::engine::Arch, width: u16) -> String {
    let room = usize::from(width).saturating_sub(4);
    [
        arch.label(),
        format!("{} ({})", arch.key, arch.family),
        arch.key.to_string(),
    ]
    .into_iter()
    .map(|label| format!("{prefix} · {label}"))
    .find(|title| text_width(title) <= room)
    .unwrap_or_else(|| prefix.to_string())
}

/// `text` cut to `width` characters at a word boundary, ending in `…` when it was longer (mid-word
/// only when a single word is longer than the room).
pub fn ellipsis_words(text: &str, width: usize) -> String {
    if text_width(text) <= width {
        return text.to_string();
    }
    let room = take_width(text, width.saturating_sub(1));
    let cut = match room.rfind(' ') {
        Some(at) if at > 0 => room[..at].trim_end_matches([',', ';', ':', ' ']),
        _ => room,
    };
    format!("{cut}…")
}

/// A progress bar of `width` cells: `████░░░░`.
pub fn bar(done: usize, total: usize, width: usize) -> String {
    let filled = (done * width + total / 2)
        .checked_div(total)
        .unwrap_or(0)
        .min(width);
    format!("{}{}", "█".repeat(filled), "░".repeat(width - filled))
}

/// Prose with `*emphasis*` and `` `code` `` turned into styled spans; control characters are shown
/// as `\u{1b}`-style escapes ([`crate::format::printable`]), as on the command line (ratatui would
/// drop them without a trace).
pub fn rich(text: &str, theme: Theme) -> Line<'static> {
    let text = crate::format::printable(text);
    let mut spans = Vec::new();
    let mut rest: &str = &text;
    while let Some(at) = rest.find(['*', '`']) {
        let marker = &rest[at..at + 1];
        if let Some(end) = rest[at + 1..].find(marker).filter(|&end| end > 0) {
            if at > 0 {
                spans.push(Span::raw(rest[..at].to_string()));
            }
            let inner = &rest[at + 1..at + 1 + end];
            let style = if marker == "*" {
                theme.emphasis()
            } else {
                theme.code()
            };
            spans.push(Span::styled(inner.to_string(), style));
            rest = &rest[at + 2 + end..];
        } else {
            spans.push(Span::raw(rest[..=at].to_string()));
            rest = &rest[at + 1..];
        }
    }
    if !rest.is_empty() {
        spans.push(Span::raw(rest.to_string()));
    }
    Line::from(spans)
}

/// A centred rectangle of at most `width` × `height` inside `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Clears `area` and draws a bordered popup there; returns the inner area.
pub fn popup(area: Rect, title: &str, theme: Theme, buf: &mut Buffer) -> Rect {
    Clear.render(area, buf);
    // A double-width character just left of the popup would spill over its border: blank it.
    if area.x > buf.area.x {
        for y in area.top()..area.bottom() {
            if let Some(cell) = buf.cell_mut((area.x - 1, y))
                && text_width(cell.symbol()) > 1
            {
                cell.set_symbol(" ");
            }
        }
    }
    let block = block(title, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// Rows `lines` take when wrapped at `width` columns, word by word as `Paragraph` wraps them (a word
/// longer than a row is broken).
pub fn wrapped_height(lines: &[Line<'_>], width: u16) -> u16 {
    let width = width.max(1) as usize;
    lines
        .iter()
        .map(|line| {
            let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            let mut rows = 1usize;
            let mut used = 0usize;
            for word in text.split(' ') {
                let len = text_width(word);
                if used > 0 && used + 1 + len <= width {
                    used += 1 + len;
                } else if used == 0 && len <= width {
                    used = len;
                } else {
                    if used > 0 {
                        rows += 1;
                    }
                    rows += len.saturating_sub(1) / width;
                    used = len - len.saturating_sub(1) / width * width;
                }
            }
            rows as u16
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rich_text_styles_emphasis_and_code() {
        let theme = Theme::new(false);
        let line = rich("a *b* `c` d*", theme);
        let texts: Vec<&str> = line.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(texts, vec!["a ", "b", " ", "c", " d*"]);
        assert_eq!(line.spans[1].style, theme.emphasis());
    }

    #[test]
    fn bars_round_to_the_nearest_cell() {
        assert_eq!(bar(6, 12, 10), "█████░░░░░");
        assert_eq!(bar(0, 0, 4), "░░░░");
        assert_eq!(bar(12, 12, 4), "████");
    }

    #[test]
    fn a_huge_terminal_is_drawn_in_an_area_of_bounded_size() {
        assert_eq!(
            super::drawn_area(30_000, 30_000),
            Rect::new(0, 0, super::MAX_WIDTH, super::MAX_HEIGHT)
        );
        assert_eq!(super::drawn_area(80, 24), Rect::new(0, 0, 80, 24));
        let cells = usize::from(super::MAX_WIDTH) * usize::from(super::MAX_HEIGHT);
        assert!(cells * std::mem::size_of::<ratatui::buffer::Cell>() < 64 << 20);
    }
}
