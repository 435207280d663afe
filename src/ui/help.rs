//! Help (`?` or F1 on every screen): the keys that work here, and the global ones.

use super::scroll::{self, Scroll};
use super::{Ctx, KeyHint};
use super::{Theme, block, centered, pad, popup};
use crate::i18n::Lang;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// Keys shown in the footer while help is open.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![KeyHint::new("Esc/?/q", t!(lang, "app-help-close"))]
}

/// Draws help: the keys of the screen, then the global keys that work on it (`global`, one entry
/// per key; keys with the same action share a line: `/ or Ctrl-P`), scrolled as `scroll` says
/// when they do not fit.
pub fn render(
    ctx: &Ctx,
    keys: &[KeyHint],
    global: &[KeyHint],
    scroll: &Scroll,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme: Theme = ctx.theme;
    let lang = ctx.lang;
    let mut merged: Vec<(String, &str)> = Vec::new();
    for hint in global {
        let (key, action) = (hint.key.as_ref(), hint.action.as_ref());
        match merged.iter_mut().find(|(_, a)| *a == action) {
            Some((names, _)) => {
                *names = t!(lang, "app-help-or", first = names.clone(), second = key)
            }
            None => merged.push((key.to_string(), action)),
        }
    }
    let rect = centered(area, 64, (keys.len() + merged.len() + 6) as u16);
    let title = t!(lang, "app-help-title");
    popup(rect, &title, theme, buf);
    let mut lines = vec![Line::styled(t!(lang, "app-help-here"), theme.title())];
    // Key names take 14 columns, then what the key does.
    let row = |key: &str, action: &str| {
        Line::from(vec![
            Span::styled(format!("  {}", pad(key, 14)), theme.key()),
            Span::raw(action.to_string()),
        ])
    };
    for hint in keys {
        lines.push(row(&hint.key, &hint.action));
    }
    lines.push(Line::from(""));
    lines.push(Line::styled(t!(lang, "app-help-everywhere"), theme.title()));
    for (key, action) in &merged {
        lines.push(row(key, action));
    }
    // Drawn again over the popup's frame, with the rows hidden marked on it.
    scroll::render(
        lines,
        Some(block(&title, theme)),
        scroll,
        theme,
        lang,
        rect,
        buf,
    );
}
