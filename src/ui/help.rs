//! Help (`?` or F1 on every screen): the keys that work here, and the global ones.

use super::Ctx;
use super::{Theme, centered, popup};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Keys shown in the footer while help is open.
pub const KEYS: &[(&str, &str)] = &[("Esc/?/q", "close help")];

/// Draws help: the keys of the screen, then the global keys that work on it (`global`, one entry
/// per key; keys with the same action share a line: `/ or Ctrl-P`).
pub fn render(
    ctx: &Ctx,
    keys: &[(&str, &str)],
    global: &[(&str, &str)],
    area: Rect,
    buf: &mut Buffer,
) {
    let theme: Theme = ctx.theme;
    let mut merged: Vec<(String, &str)> = Vec::new();
    for (key, action) in global {
        match merged.iter_mut().find(|(_, a)| a == action) {
            Some((names, _)) => *names = format!("{names} or {key}"),
            None => merged.push((key.to_string(), action)),
        }
    }
    let rect = centered(area, 64, (keys.len() + merged.len() + 6) as u16);
    let inner = popup(rect, "Help", theme, buf);
    let mut lines = vec![Line::styled("On this screen", theme.title())];
    let row = |key: &str, action: &str| {
        Line::from(vec![
            Span::styled(format!("  {key:<14}"), theme.key()),
            Span::raw(action.to_string()),
        ])
    };
    for (key, action) in keys {
        lines.push(row(key, action));
    }
    lines.push(Line::from(""));
    lines.push(Line::styled("Everywhere", theme.title()));
    for (key, action) in &merged {
        lines.push(row(key, action));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}
