//! A one-line text input with a cursor, editing keys and a history of past entries.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// An editable line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    /// Cursor position in characters.
    cursor: usize,
    history: Vec<String>,
    /// Position while browsing history (`None` = editing a fresh line).
    browsing: Option<usize>,
    draft: String,
}

/// Longest line accepted; a longer paste is cut here (the grader then says it is too long).
pub const MAX_LINE: usize = 10_000;

impl LineInput {
    /// An empty line with a history of past entries (oldest first).
    pub fn with_history(history: Vec<String>) -> Self {
        LineInput {
            history,
            ..Self::default()
        }
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor position in characters.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Replaces the text, cursor at the end.
    pub fn set(&mut self, text: &str) {
        self.text = text.to_string();
        self.cursor = self.text.chars().count();
    }

    /// Clears the line (history stays).
    pub fn clear(&mut self) {
        self.set("");
        self.browsing = None;
    }

    /// Adds an entry to the history.
    pub fn remember(&mut self, entry: &str) {
        if !entry.trim().is_empty() && self.history.last().map(String::as_str) != Some(entry) {
            self.history.push(entry.to_string());
        }
        self.browsing = None;
    }

    fn byte_index(&self, chars: usize) -> usize {
        self.text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Inserts a character at the cursor.
    pub fn insert(&mut self, c: char) {
        if self.text.chars().count() >= MAX_LINE {
            return;
        }
        let at = self.byte_index(self.cursor);
        self.text.insert(at, c);
        self.cursor += 1;
    }

    /// Applies an editing key; returns whether it was one.
    pub fn edit(&mut self, key: &KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let len = self.text.chars().count();
        match key.code {
            KeyCode::Char('u') if ctrl => {
                let at = self.byte_index(self.cursor);
                self.text.replace_range(..at, "");
                self.cursor = 0;
            }
            KeyCode::Char('w') if ctrl => {
                let chars: Vec<char> = self.text.chars().collect();
                let mut start = self.cursor;
                while start > 0 && chars[start - 1].is_whitespace() {
                    start -= 1;
                }
                while start > 0 && !chars[start - 1].is_whitespace() {
                    start -= 1;
                }
                let (from, to) = (self.byte_index(start), self.byte_index(self.cursor));
                self.text.replace_range(from..to, "");
                self.cursor = start;
            }
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char(c) if !ctrl && !key.modifiers.contains(KeyModifiers::ALT) => {
                self.insert(c)
            }
            KeyCode::Backspace if self.cursor > 0 => {
                let at = self.byte_index(self.cursor - 1);
                self.text.remove(at);
                self.cursor -= 1;
            }
            KeyCode::Delete if self.cursor < len => {
                let at = self.byte_index(self.cursor);
                self.text.remove(at);
            }
            KeyCode::Backspace | KeyCode::Delete => {}
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(len),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = len,
            KeyCode::Up => self.history_step(-1),
            KeyCode::Down => self.history_step(1),
            _ => return false,
        }
        true
    }

    fn history_step(&mut self, step: isize) {
        if self.history.is_empty() {
            return;
        }
        let next = match (self.browsing, step) {
            (None, -1) => {
                self.draft = self.text.clone();
                Some(self.history.len() - 1)
            }
            (None, _) => None,
            (Some(0), -1) => Some(0),
            (Some(i), -1) => Some(i - 1),
            (Some(i), _) if i + 1 < self.history.len() => Some(i + 1),
            (Some(_), _) => None,
        };
        self.browsing = next;
        let text = match next {
            Some(i) => self.history[i].clone(),
            None => std::mem::take(&mut self.draft),
        };
        self.set(&text);
    }

    /// The visible part of the line in `width` terminal columns (a Korean syllable takes two, and
    /// is never cut in half), and the cursor's position within it in characters. The cursor's own
    /// cell always fits.
    pub fn window(&self, width: usize) -> (String, usize) {
        let width = width.max(1);
        let chars: Vec<char> = self.text.chars().collect();
        let columns = |c: char| crate::ui::text_width(c.encode_utf8(&mut [0u8; 4]));
        let mut start = self.cursor.min(chars.len());
        let mut used = 0;
        while start > 0 && used + columns(chars[start - 1]) < width {
            used += columns(chars[start - 1]);
            start -= 1;
        }
        let mut visible = String::new();
        let mut shown = 0;
        for &c in &chars[start..] {
            shown += columns(c);
            if shown > width {
                break;
            }
            visible.push(c);
        }
        (visible, self.cursor.min(chars.len()) - start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn ctrl(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    #[test]
    fn editing_with_a_cursor() {
        let mut line = LineInput::default();
        for c in "62.5%".chars() {
            line.edit(&key(KeyCode::Char(c)));
        }
        line.edit(&key(KeyCode::Left));
        line.edit(&key(KeyCode::Backspace));
        assert_eq!(line.text(), "62.%");
        line.edit(&key(KeyCode::Char('5')));
        line.edit(&key(KeyCode::Home));
        line.edit(&key(KeyCode::Delete));
        assert_eq!(line.text(), "2.5%");
        line.edit(&key(KeyCode::End));
        line.edit(&ctrl('w'));
        assert_eq!(line.text(), "");
        line.set("8.39 µs");
        line.edit(&key(KeyCode::Backspace));
        assert_eq!(line.text(), "8.39 µ");
    }

    #[test]
    fn history_browses_past_answers_and_returns_to_the_draft() {
        let mut line = LineInput::with_history(vec!["4".into(), "5 sectors".into()]);
        line.set("dr");
        line.edit(&key(KeyCode::Up));
        assert_eq!(line.text(), "5 sectors");
        line.edit(&key(KeyCode::Up));
        line.edit(&key(KeyCode::Up));
        assert_eq!(line.text(), "4");
        line.edit(&key(KeyCode::Down));
        line.edit(&key(KeyCode::Down));
        assert_eq!(line.text(), "dr");
    }

    #[test]
    fn window_follows_the_cursor() {
        let mut line = LineInput::default();
        line.set("abcdefghij");
        assert_eq!(line.window(5), ("ghij".to_string(), 4));
        line.edit(&key(KeyCode::Home));
        assert_eq!(line.window(5), ("abcde".to_string(), 0));
    }

    #[test]
    fn the_window_counts_columns_and_never_halves_a_wide_character() {
        let mut line = LineInput::default();
        line.set("32 바이트");
        // 3 columns of `32 `, 6 of `바이트`, one for the cursor: 10 columns.
        assert_eq!(line.window(10), ("32 바이트".to_string(), 6));
        let (visible, cursor) = line.window(6);
        assert_eq!((visible.as_str(), cursor), ("이트", 2));
        line.edit(&key(KeyCode::Home));
        assert_eq!(line.window(6), ("32 바".to_string(), 0));
        assert_eq!(line.window(5), ("32 바".to_string(), 0));
        assert_eq!(line.window(4), ("32 ".to_string(), 0));
    }
}
