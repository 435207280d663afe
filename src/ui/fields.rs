//! A panel of named parameters: one is selected, ←→ adjust it, Enter types a value.

use super::input::LineInput;
use super::{Theme, block};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The panel's state: which row is selected, and a value being typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Panel {
    /// Selected row.
    pub selected: usize,
    /// A value being typed into the selected row.
    pub editing: Option<LineInput>,
    /// Why the last typed value was refused.
    pub error: Option<String>,
}

/// What a key did to the panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PanelEvent {
    /// Nothing for the owner to do.
    Handled,
    /// Adjust the selected row by this many steps.
    Adjust(i64),
    /// Apply this typed text to the selected row.
    Submit(String),
    /// Not a panel key.
    Ignored,
}

impl Panel {
    /// Handles a key for a panel of `rows` rows.
    pub fn key(&mut self, key: KeyEvent, rows: usize) -> PanelEvent {
        if let Some(input) = &mut self.editing {
            return match key.code {
                KeyCode::Enter => {
                    let text = input.text().to_string();
                    self.editing = None;
                    PanelEvent::Submit(text)
                }
                KeyCode::Esc => {
                    self.editing = None;
                    PanelEvent::Handled
                }
                _ => {
                    input.edit(&key);
                    PanelEvent::Handled
                }
            };
        }
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                self.selected = self.selected.saturating_sub(1);
                PanelEvent::Handled
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(rows.saturating_sub(1));
                PanelEvent::Handled
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('-') => PanelEvent::Adjust(-1),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('+') => PanelEvent::Adjust(1),
            KeyCode::Enter => {
                self.editing = Some(LineInput::default());
                self.error = None;
                PanelEvent::Handled
            }
            _ => PanelEvent::Ignored,
        }
    }

    /// What row `row` shows: its value, or the text being typed into it.
    fn shown(&self, row: usize, value: &str) -> String {
        match &self.editing {
            Some(input) if row == self.selected => format!("{}▏", input.text()),
            _ => value.to_string(),
        }
    }

    /// Pasted text into the value being typed, if one is (never entered by the paste).
    pub fn paste(&mut self, text: &str) {
        if let Some(input) = &mut self.editing {
            input.paste(text);
        }
    }

    /// Whether a value is being typed (keys go to the input).
    pub fn typing(&self) -> bool {
        self.editing.is_some()
    }
}

/// Parses a typed integer (`1,024`, `-3`, `0x40`, `48k` = 49152).
pub fn parse_int(text: &str) -> Result<i64, String> {
    crate::units::parse_int(text)
        .or_else(|e| {
            crate::units::parse_bytes(text)
                .ok()
                .and_then(|bytes| i64::try_from(bytes).ok())
                .ok_or(e)
        })
        .map_err(|e| e.to_string())
}

/// A typed size in bytes (`2048`, `24K`, `48 KB`, `0x6000`): the same rule as the command line's.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    crate::units::parse_bytes(text).map_err(|e| e.to_string())
}

/// Draws the panel: `label  value` rows, the selected one highlighted, the typed value in place.
pub fn render(
    title: &str,
    rows: &[(&str, String)],
    panel: &Panel,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let outer = block(title, theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    // Terminal columns, not characters: a Hangul label takes two columns a syllable.
    let label_width = rows
        .iter()
        .map(|(l, _)| super::text_width(l))
        .max()
        .unwrap_or(0)
        + 1;
    let mut lines = Vec::new();
    for (i, (label, value)) in rows.iter().enumerate() {
        let selected = i == panel.selected;
        let value = panel.shown(i, value);
        let style = if selected {
            theme.selected()
        } else {
            theme.text()
        };
        lines.push(Line::from(vec![
            Span::styled(if selected { "▸" } else { " " }, style),
            Span::styled(
                super::pad(label, label_width),
                if selected { style } else { theme.dim() },
            ),
            Span::styled(value, style),
        ]));
    }
    if let Some(error) = &panel.error {
        lines.push(Line::styled(error.clone(), theme.bad()));
    }
    let room = super::wrap_room(&lines, inner);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(room, buf);
}

/// Draws the panel compactly for narrow windows: `label value · label value …`, wrapped.
pub fn render_compact(
    title: &str,
    rows: &[(&str, String)],
    panel: &Panel,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let outer = block(title, theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    compact(rows, panel, theme).render(inner, buf);
}

/// Rows [`render_compact`] needs to show every row and the error in `width` columns, borders
/// included.
pub fn compact_height(rows: &[(&str, String)], panel: &Panel, theme: Theme, width: u16) -> u16 {
    let lines = compact(rows, panel, theme).line_count(width.saturating_sub(2));
    u16::try_from(lines).unwrap_or(u16::MAX).saturating_add(2)
}

/// The compact panel's text, wrapped.
fn compact(rows: &[(&str, String)], panel: &Panel, theme: Theme) -> Paragraph<'static> {
    let mut spans = Vec::new();
    for (i, (label, value)) in rows.iter().enumerate() {
        let selected = i == panel.selected;
        let value = panel.shown(i, value);
        if i > 0 {
            spans.push(Span::styled(" · ", theme.dim()));
        }
        let style = if selected {
            theme.selected()
        } else {
            theme.text()
        };
        spans.push(Span::styled(
            format!("{label} "),
            if selected { style } else { theme.dim() },
        ));
        spans.push(Span::styled(value, style));
    }
    let mut lines = vec![Line::from(spans)];
    if let Some(error) = &panel.error {
        lines.push(Line::styled(error.clone(), theme.bad()));
    }
    Paragraph::new(lines).wrap(Wrap { trim: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_integers() {
        assert_eq!(parse_int("1,024"), Ok(1024));
        assert_eq!(parse_int("-3"), Ok(-3));
        assert_eq!(parse_int("0x40"), Ok(64));
        assert_eq!(parse_int("48k"), Ok(49152));
        assert_eq!(parse_int("48 KB"), Ok(49152));
        assert!(parse_int("abc").is_err());
        assert!(parse_int("99999999999999999999").is_err());
    }

    #[test]
    fn the_compact_panel_is_as_tall_as_its_wrapped_rows_and_error() {
        let theme = Theme::new(false);
        let rows = [("N", "1024".to_string()), ("tile", "16×16".to_string())];
        let mut panel = Panel::default();
        // "N 1024 · tile 16×16" is 19 columns: one line inside the borders.
        assert_eq!(compact_height(&rows, &panel, theme, 30), 3);
        // 12 columns inside: wrapped at a space onto two lines.
        assert_eq!(compact_height(&rows, &panel, theme, 14), 4);
        panel.error = Some("tile must be 1 to N".into());
        assert_eq!(compact_height(&rows, &panel, theme, 30), 4);
    }
}

/// Parses a typed real number with an optional SI suffix (`67e12`, `67T`, `4.8 T`, `0.25`).
pub fn parse_si(text: &str) -> Result<f64, String> {
    use crate::units::{Quantity, parse_positive};
    [Quantity::FlopRate, Quantity::ByteRate, Quantity::Intensity]
        .into_iter()
        .find_map(|kind| parse_positive(text, kind).ok())
        .ok_or_else(|| {
            format!(
                "`{}`: not a positive number (e.g. 67T, 4.8 TB/s, 0.25)",
                text.trim()
            )
        })
}

#[cfg(test)]
mod si_tests {
    use super::parse_si;

    #[test]
    fn typed_reals_with_prefixes() {
        assert_eq!(parse_si("67T"), Ok(67e12));
        assert_eq!(parse_si("4.8 TB/s"), Ok(4.8e12));
        assert_eq!(parse_si("67 TFLOP/s"), Ok(67e12));
        assert_eq!(parse_si("0.25"), Ok(0.25));
        assert_eq!(parse_si("1e9"), Ok(1e9));
        assert!(parse_si("-1").is_err());
        assert!(parse_si("x").is_err());
    }
}
