//! The screens and what they share: every screen is a [`Component`] that turns keys into
//! [`Action`]s and draws itself from a read-only [`Ctx`]; widgets, the input line and the theme.
//! Nothing here sees the app: the app routes keys to the top screen and carries out the actions.

pub mod action;
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
pub mod ladder;
pub mod review;
pub mod search;
pub mod stats;
pub mod theme;
pub mod topic;
pub mod words;

pub use action::{Action, ExplorerSetup, Space, Tab};
pub use ctx::Ctx;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
pub use theme::Theme;

/// Smallest terminal the tutor draws in.
pub const MIN_WIDTH: u16 = 60;
/// Smallest terminal height the tutor draws in.
pub const MIN_HEIGHT: u16 = 20;

/// A screen: it owns its state, turns keys into [`Action`]s and draws itself.
pub trait Component {
    /// Handles a key: changes the screen's own state and returns what it asks of the app.
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action>;
    /// Draws the screen into `area`; drawing never changes state.
    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer);
    /// The keys for the footer and help, most important first.
    fn keys(&self) -> Vec<(&'static str, &'static str)>;
    /// Whether the screen takes `key` before the global keys (`q`, `Esc`, `?`, `/`, `g`) — while
    /// the learner types a value, those are text.
    fn captures(&self, _key: &KeyEvent) -> bool {
        false
    }
}

/// The "terminal too small" message, drawn instead of any screen below [`MIN_WIDTH`]×[`MIN_HEIGHT`].
pub fn too_small(area: Rect, buf: &mut Buffer, theme: Theme) {
    let text = vec![
        Line::styled("Terminal too small", theme.bad()),
        Line::from(format!(
            "{}×{} — warpdrill needs at least {MIN_WIDTH}×{MIN_HEIGHT}.",
            area.width, area.height
        )),
        Line::from("Enlarge the window; q quits."),
    ];
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .render(area, buf);
}

/// The footer: `key action · key action …`, as many as fit in `width` (most important first).
pub fn footer_line(keys: &[(&str, &str)], theme: Theme, width: u16) -> Line<'static> {
    let mut spans = Vec::new();
    let mut used = 0usize;
    for (i, (key, action)) in keys.iter().enumerate() {
        let separator = if i > 0 { 3 } else { 0 };
        let cost = separator + key.chars().count() + 1 + action.chars().count();
        if used + cost > width as usize {
            break;
        }
        used += cost;
        if i > 0 {
            spans.push(Span::styled(" · ", theme.dim()));
        }
        spans.push(Span::styled((*key).to_string(), theme.key()));
        spans.push(Span::raw(format!(" {action}")));
    }
    Line::from(spans)
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
    .find(|title| title.chars().count() <= room)
    .unwrap_or_else(|| prefix.to_string())
}

/// `text` cut to `width` characters, ending in `…` when it was longer.
pub fn ellipsis(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `text` cut to `width` characters at a word boundary, ending in `…` when it was longer (mid-word
/// only when a single word is longer than the room).
pub fn ellipsis_words(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let room: String = text.chars().take(width.saturating_sub(1)).collect();
    let cut = match room.rfind(' ') {
        Some(at) if at > 0 => room[..at].trim_end_matches([',', ';', ':', ' ']),
        _ => room.as_str(),
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

/// Prose with `*emphasis*` and `` `code` `` turned into styled spans.
pub fn rich(text: &str, theme: Theme) -> Line<'static> {
    let mut spans = Vec::new();
    let mut rest = text;
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
                let len = word.chars().count();
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
}
