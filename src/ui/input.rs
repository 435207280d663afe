//! Typed answers: a one-line text input with a cursor, editing keys and a history of past entries
//! ([`LineInput`], for numbers and short text), and a multi-line box that wraps at words
//! ([`TextBox`], for explanations; built on `ratatui-textarea`).

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Paragraph, Widget, Wrap};
use ratatui_textarea::{CursorMove, TextArea, WrapMode};

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

/// Characters of one paste that are kept; the rest is dropped.
pub const MAX_PASTE: usize = 4096;

/// The part of a paste that is inserted: its first [`MAX_PASTE`] characters, a `\r\n` or `\r`
/// read as `\n`, other control characters (a tab, an escape) as spaces, and every line break too
/// unless `lines` (a multi-line box).
fn pasted(text: &str, lines: bool) -> String {
    text.replace("\r\n", "\n")
        .chars()
        .take(MAX_PASTE)
        .map(|c| match c {
            '\n' | '\r' if lines => '\n',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

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

    /// Inserts pasted text at the cursor as one edit: line breaks become spaces, at most
    /// [`MAX_PASTE`] characters are taken, and the line stays within [`MAX_LINE`]. Nothing is
    /// submitted, whatever the paste holds.
    pub fn paste(&mut self, text: &str) {
        let room = MAX_LINE.saturating_sub(self.text.chars().count());
        let piece: String = pasted(text, false).chars().take(room).collect();
        let at = self.byte_index(self.cursor);
        self.text.insert_str(at, &piece);
        self.cursor += piece.chars().count();
        self.browsing = None;
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

/// A multi-line answer box: the text wraps at words, the cursor moves across rows and lines, and a
/// new line is Ctrl-J or Alt-Enter (Shift-Enter where the terminal tells it apart) — a plain
/// Enter is left to the screen, which submits.
///
/// Keys: characters, Backspace, Delete, ←→↑↓ (↑↓ by wrapped rows), Home/End (the line),
/// Ctrl-Home/Ctrl-End (the text), Ctrl-←/→ and Alt-b/f (a word), Ctrl-W (the word before),
/// Ctrl-U (the line before the cursor), Ctrl-K (the line after it), Ctrl-A (the line's start),
/// Ctrl-Z undo.
#[derive(Debug, Clone)]
pub struct TextBox {
    area: TextArea<'static>,
}

impl Default for TextBox {
    fn default() -> Self {
        Self::from_lines(Vec::new())
    }
}

impl TextBox {
    fn from_lines(lines: Vec<String>) -> Self {
        let mut area = TextArea::new(lines);
        area.set_wrap_mode(WrapMode::WordOrGlyph);
        // The row the cursor is on is not underlined: the cursor's own cell is marked.
        area.set_cursor_line_style(Style::default());
        TextBox { area }
    }

    /// The text, its lines joined by `\n`.
    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    /// Whether nothing is typed.
    pub fn is_empty(&self) -> bool {
        self.area.is_empty()
    }

    /// Replaces the text (lines split at `\n`), cursor at the end.
    pub fn set(&mut self, text: &str) {
        *self = Self::from_lines(text.split('\n').map(str::to_string).collect());
        self.area.move_cursor(CursorMove::Bottom);
        self.area.move_cursor(CursorMove::End);
    }

    /// Empties the box.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// The cursor: line and character within it, from 0.
    pub fn cursor(&self) -> (usize, usize) {
        let cursor = self.area.cursor();
        (cursor.0, cursor.1)
    }

    /// Whether `key` asks for a new line (Ctrl-J, Alt-Enter, Shift-Enter).
    pub fn is_newline(key: &KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('j') => ctrl,
            KeyCode::Enter => key
                .modifiers
                .intersects(KeyModifiers::ALT | KeyModifiers::SHIFT),
            _ => false,
        }
    }

    fn chars(&self) -> usize {
        self.area
            .lines()
            .iter()
            .map(|l| l.chars().count() + 1)
            .sum()
    }

    /// Inserts pasted text at the cursor as one edit (Ctrl-Z takes it back whole): its line breaks
    /// stay, at most [`MAX_PASTE`] characters are taken, and the box stays within [`MAX_LINE`].
    pub fn paste(&mut self, text: &str) {
        let room = MAX_LINE.saturating_sub(self.chars());
        let piece: String = pasted(text, true).chars().take(room).collect();
        if !piece.is_empty() {
            self.area.insert_str(piece);
        }
    }

    /// Applies an editing key; returns whether it was one. A plain Enter is not (the screen
    /// submits on it).
    pub fn edit(&mut self, key: &KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        let area = &mut self.area;
        if Self::is_newline(key) {
            if self.chars() < MAX_LINE {
                self.area.insert_newline();
            }
            return true;
        }
        match key.code {
            KeyCode::Char('u') if ctrl => {
                area.delete_line_by_head();
            }
            KeyCode::Char('k') if ctrl => {
                area.delete_line_by_end();
            }
            KeyCode::Char('w') if ctrl => {
                area.delete_word();
            }
            KeyCode::Char('a') if ctrl => area.move_cursor(CursorMove::Head),
            KeyCode::Char('z') if ctrl => {
                area.undo();
            }
            KeyCode::Char('b') if alt => area.move_cursor(CursorMove::WordBack),
            KeyCode::Char('f') if alt => area.move_cursor(CursorMove::WordForward),
            KeyCode::Char(c) if !ctrl && !alt => {
                if self.chars() < MAX_LINE {
                    self.area.insert_char(c);
                }
            }
            KeyCode::Backspace if alt || ctrl => {
                area.delete_word();
            }
            KeyCode::Backspace => {
                area.delete_char();
            }
            KeyCode::Delete => {
                area.delete_next_char();
            }
            KeyCode::Left if ctrl || alt => area.move_cursor(CursorMove::WordBack),
            KeyCode::Right if ctrl || alt => area.move_cursor(CursorMove::WordForward),
            KeyCode::Left => area.move_cursor(CursorMove::Back),
            KeyCode::Right => area.move_cursor(CursorMove::Forward),
            KeyCode::Up => area.move_cursor(CursorMove::Up),
            KeyCode::Down => area.move_cursor(CursorMove::Down),
            KeyCode::Home if ctrl => area.move_cursor(CursorMove::Top),
            KeyCode::End if ctrl => {
                area.move_cursor(CursorMove::Bottom);
                area.move_cursor(CursorMove::End);
            }
            KeyCode::Home => area.move_cursor(CursorMove::Head),
            KeyCode::End => area.move_cursor(CursorMove::End),
            _ => return false,
        }
        true
    }

    /// Rows the text takes wrapped at `width` columns (one at least; a row more for the cursor
    /// when the last row is full).
    pub fn rows(&self, width: u16) -> u16 {
        let lines: Vec<ratatui::text::Line> = self
            .area
            .lines()
            .iter()
            .map(|l| ratatui::text::Line::raw(format!("{l} ")))
            .collect();
        super::scroll::rows(&lines, width).max(1)
    }

    /// Draws the box in `area`: with the cursor (reversed) while `typing`, else the text alone in
    /// `style`. The rows around the cursor are shown when the text is taller.
    pub fn render(&self, typing: bool, style: Style, area: Rect, buf: &mut Buffer) {
        if typing {
            // The box records the width drawn, so that ↑↓ move by the rows shown.
            (&self.area).render(area, buf);
        } else {
            Paragraph::new(self.text())
                .style(style)
                .wrap(Wrap { trim: false })
                .render(area, buf);
        }
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

    fn boxed(text: &str) -> TextBox {
        let mut text_box = TextBox::default();
        for c in text.chars() {
            text_box.edit(&key(KeyCode::Char(c)));
        }
        text_box
    }

    fn draw(text_box: &TextBox, width: u16, height: u16) -> Vec<String> {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        text_box.render(true, Style::default(), area, &mut buf);
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn the_box_takes_lines_and_enter_is_left_to_the_screen() {
        let mut text_box = boxed("more sectors");
        assert!(!text_box.edit(&key(KeyCode::Enter)), "Enter submits");
        assert!(text_box.edit(&ctrl('j')));
        for c in "more time".chars() {
            text_box.edit(&key(KeyCode::Char(c)));
        }
        text_box.edit(&KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT));
        text_box.edit(&key(KeyCode::Char('!')));
        assert_eq!(text_box.text(), "more sectors\nmore time\n!");
        assert_eq!(text_box.cursor(), (2, 1));
        text_box.edit(&key(KeyCode::Backspace));
        text_box.edit(&key(KeyCode::Backspace));
        assert_eq!(text_box.text(), "more sectors\nmore time");
        text_box.clear();
        assert!(text_box.is_empty());
        assert_eq!(text_box.text(), "");
    }

    #[test]
    fn the_cursor_moves_across_lines_and_words() {
        let mut text_box = TextBox::default();
        text_box.set("one two\nthree");
        assert_eq!(text_box.cursor(), (1, 5), "set puts the cursor at the end");
        text_box.edit(&key(KeyCode::Up));
        assert_eq!(text_box.cursor().0, 0);
        text_box.edit(&key(KeyCode::Home));
        text_box.edit(&KeyEvent::new(KeyCode::Right, KeyModifiers::CONTROL));
        assert_eq!(text_box.cursor(), (0, 4));
        text_box.edit(&ctrl('k'));
        assert_eq!(text_box.text(), "one \nthree");
        text_box.edit(&ctrl('u'));
        assert_eq!(text_box.text(), "\nthree");
        text_box.edit(&key(KeyCode::Delete));
        assert_eq!(
            text_box.text(),
            "three",
            "Delete at a line's end joins the lines"
        );
        text_box.edit(&KeyEvent::new(KeyCode::End, KeyModifiers::CONTROL));
        text_box.edit(&ctrl('w'));
        assert_eq!(text_box.text(), "");
        text_box.edit(&ctrl('z'));
        assert_eq!(text_box.text(), "three", "Ctrl-Z undoes");
    }

    #[test]
    fn long_text_wraps_at_words_and_the_cursor_row_stays_in_view() {
        let text_box = boxed("each lane reads its own sector so the warp needs thirty two");
        let rows = draw(&text_box, 20, 4);
        assert_eq!(
            rows,
            [
                "each lane reads its",
                "own sector so the",
                "warp needs thirty",
                "two"
            ]
        );
        assert_eq!(text_box.rows(20), 4);
        let rows = draw(&text_box, 20, 2);
        assert_eq!(
            rows,
            ["warp needs thirty", "two"],
            "the cursor's row stays in view"
        );
        // ↑ moves one wrapped row, not a whole line.
        let mut text_box = text_box;
        text_box.edit(&key(KeyCode::Up));
        let (line, at) = text_box.cursor();
        assert_eq!(line, 0);
        assert!((38..55).contains(&at), "{at}");
    }

    #[test]
    fn the_box_holds_at_most_max_line_characters() {
        let mut text_box = TextBox::default();
        text_box.set(&"a".repeat(MAX_LINE));
        text_box.edit(&key(KeyCode::Char('b')));
        text_box.edit(&ctrl('j'));
        assert_eq!(text_box.text().chars().count(), MAX_LINE);
    }
}
