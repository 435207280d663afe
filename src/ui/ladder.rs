//! The ladder: levels L1–L5 on the left, the chosen level's exercises on the right, each marked new,
//! attempted or solved, with its topic and tries.

use super::{Action, Component, Ctx};
use super::{Theme, bar, block};
use crate::content::schema::Level;
use crate::ladder::unlock::UNLOCK_AFTER;
use crate::progress::Status;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Keys shown in the footer.
pub const KEYS: &[(&str, &str)] = &[
    ("↑↓/jk", "exercise"),
    ("←→/hl", "level"),
    ("Enter", "open"),
    ("u", "unlock all"),
    ("?", "help"),
    ("q", "back"),
];

/// The ladder's state.
#[derive(Debug, Clone)]
pub struct State {
    /// Level shown.
    pub level: Level,
    /// Selected exercise within the level.
    pub selected: usize,
}

impl State {
    /// Showing `level`.
    pub fn new(level: Level) -> Self {
        State { level, selected: 0 }
    }
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        let in_level = ctx.content.level(self.level).count();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(in_level.saturating_sub(1))
            }
            KeyCode::Left | KeyCode::Char('h') => {
                self.level = Level::ALL[self.level.index().saturating_sub(1)];
                self.selected = 0;
            }
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Tab => {
                self.level = Level::ALL[(self.level.index() + 1).min(Level::ALL.len() - 1)];
                self.selected = 0;
            }
            KeyCode::Char(c @ '1'..='5') => {
                self.level = Level::ALL[c as usize - '1' as usize];
                self.selected = 0;
            }
            KeyCode::Char('u') => return Some(Action::UnlockAll),
            KeyCode::Enter | KeyCode::Char(' ') if ctx.level_open(self.level) => {
                return ctx
                    .content
                    .level(self.level)
                    .nth(self.selected)
                    .map(|e| Action::OpenExercise(e.id.clone()));
            }
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        KEYS.to_vec()
    }
}

/// Draws the ladder.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let [left, right] = area.layout(&Layout::horizontal([
        Constraint::Length(26),
        Constraint::Fill(1),
    ]));
    let levels = block("Levels", theme);
    let inner = levels.inner(left);
    levels.render(left, buf);
    let mut lines = Vec::new();
    for level in Level::ALL {
        let (solved, total) = ctx.level_counts(level);
        let open = ctx.level_open(level);
        let style = if level == state.level {
            theme.selected()
        } else if open {
            theme.text()
        } else {
            theme.dim()
        };
        lines.push(Line::styled(
            format!(
                "{} {}{}",
                level.key(),
                level.name(),
                if open { "" } else { " (locked)" }
            ),
            style,
        ));
        lines.push(Line::from(vec![
            Span::styled(format!("   {}", bar(solved, total, 10)), theme.warn()),
            Span::raw(format!(" {solved}/{total}")),
        ]));
    }
    Paragraph::new(lines).render(inner, buf);

    let title = format!(
        "{} {} — {}",
        state.level.key(),
        state.level.name(),
        describe(state.level)
    );
    let list = block(&title, theme);
    let inner = list.inner(right);
    list.render(right, buf);
    if !ctx.level_open(state.level) {
        let previous = Level::ALL[state.level.index() - 1];
        let (solved, total) = ctx.level_counts(previous);
        let need = UNLOCK_AFTER.min(total);
        let text = vec![
            Line::styled("Locked", theme.warn()),
            Line::from(format!(
                "Solve {need} exercises of {} to open this level ({solved} solved so far).",
                previous.key()
            )),
            Line::from(""),
            Line::from(vec![
                Span::raw("Press "),
                Span::styled("u", theme.key()),
                Span::raw(" to unlock every level now."),
            ]),
        ];
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
        return;
    }
    let exercises: Vec<_> = ctx.content.level(state.level).collect();
    let visible = inner.height as usize;
    let first = state.selected.saturating_sub(visible.saturating_sub(1));
    let title_width = (inner.width as usize).saturating_sub(22).max(10);
    let mut lines = Vec::new();
    for (i, exercise) in exercises.iter().enumerate().skip(first).take(visible) {
        let progress = ctx.progress.of(&exercise.id);
        let (mark, mark_style) = match progress.status() {
            Status::Solved => ("✓", theme.good()),
            Status::Attempted => ("•", theme.warn()),
            Status::Seen => ("◦", theme.warn()),
            Status::New => (" ", theme.text()),
        };
        let tries = match progress.attempts {
            0 => "new".to_string(),
            1 => "1 try".to_string(),
            n => format!("{n} tries"),
        };
        let title = super::ellipsis(&exercise.title, title_width);
        let row_style = if i == state.selected {
            theme.selected()
        } else {
            theme.text()
        };
        let pointer = if i == state.selected { "▸" } else { " " };
        lines.push(Line::from(vec![
            Span::styled(pointer, row_style),
            Span::styled(
                format!("{mark} "),
                if i == state.selected {
                    row_style
                } else {
                    mark_style
                },
            ),
            Span::styled(format!("{title:<title_width$}"), row_style),
            Span::styled(
                format!(" {:<10}", exercise.topic),
                if i == state.selected {
                    row_style
                } else {
                    theme.dim()
                },
            ),
            Span::styled(
                format!("{tries:>8}"),
                if i == state.selected {
                    row_style
                } else {
                    theme.dim()
                },
            ),
        ]));
    }
    if exercises.is_empty() {
        lines.push(Line::styled("No exercises at this level.", theme.dim()));
    }
    Paragraph::new(lines).render(inner, buf);
}

/// What each level asks of the learner.
pub fn describe(level: Level) -> &'static str {
    match level {
        Level::L1 => "name and place things",
        Level::L2 => "plug numbers into a rule",
        Level::L3 => "compare options, say why",
        Level::L4 => "combine rules into a design",
        Level::L5 => "estimate, invent, defend",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::progress::Progress;
    use crate::ui::ctx::{key, test_ctx};

    #[test]
    fn enter_opens_the_selected_exercise_of_an_open_level_only() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let l1: Vec<String> = content.level(Level::L1).map(|e| e.id.clone()).collect();
        let mut ladder = State::new(Level::L1);
        ladder.handle_key(key(KeyCode::Down), &ctx);
        assert_eq!(
            ladder.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::OpenExercise(l1[1].clone()))
        );
        for _ in 0..100 {
            ladder.handle_key(key(KeyCode::Char('j')), &ctx);
        }
        assert_eq!(ladder.selected, l1.len() - 1, "stops at the last exercise");
        ladder.handle_key(key(KeyCode::Right), &ctx);
        assert_eq!((ladder.level, ladder.selected), (Level::L2, 0));
        assert_eq!(
            ladder.handle_key(key(KeyCode::Enter), &ctx),
            None,
            "L2 is locked for a new learner"
        );
        assert_eq!(
            ladder.handle_key(key(KeyCode::Char('u')), &ctx),
            Some(Action::UnlockAll)
        );
    }

    #[test]
    fn levels_are_chosen_by_arrows_and_digits_within_l1_to_l5() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let mut ladder = State::new(Level::L1);
        ladder.handle_key(key(KeyCode::Left), &ctx);
        assert_eq!(ladder.level, Level::L1);
        ladder.handle_key(key(KeyCode::Char('5')), &ctx);
        assert_eq!(ladder.level, Level::L5);
        ladder.handle_key(key(KeyCode::Tab), &ctx);
        assert_eq!(ladder.level, Level::L5);
        ladder.handle_key(key(KeyCode::Char('h')), &ctx);
        assert_eq!(ladder.level, Level::L4);
    }
}
