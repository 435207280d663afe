//! The ladder: levels L1–L5 on the left, the chosen level's exercises on the right, each marked new,
//! attempted or solved, with its topic and tries.

use super::{Action, Component, Ctx, KeyHint};
use super::{Theme, bar, block, keyed_line, pad, pad_left};
use crate::content::schema::Level;
use crate::i18n::Lang;
use crate::ladder::unlock::UNLOCK_AFTER;
use crate::progress::Status;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Keys shown in the footer.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("↑↓/jk", t!(lang, "ladder-key-exercise")),
        KeyHint::new("←→/hl", t!(lang, "ladder-key-level")),
        KeyHint::new("Enter", t!(lang, "common-key-open")),
        KeyHint::new("u", t!(lang, "ladder-key-unlock")),
        KeyHint::new("?", t!(lang, "common-key-help")),
        KeyHint::new("q", t!(lang, "common-key-back")),
    ]
}

/// The ladder's state.
#[derive(Debug, Clone)]
pub struct State {
    /// Level shown.
    level: Level,
    /// Selected exercise within the level.
    selected: usize,
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

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        keys(lang)
    }
}

/// Draws the ladder.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let lang = ctx.lang;
    let [left, right] = area.layout(&Layout::horizontal([
        Constraint::Length(26),
        Constraint::Fill(1),
    ]));
    let levels = block(&t!(lang, "ladder-levels"), theme);
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
                level_name(level, lang),
                if open {
                    String::new()
                } else {
                    format!(" {}", t!(lang, "ladder-locked-mark"))
                }
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
        level_name(state.level, lang),
        describe(state.level, lang)
    );
    let list = block(&title, theme);
    let inner = list.inner(right);
    list.render(right, buf);
    if !ctx.level_open(state.level) {
        let previous = Level::ALL[state.level.index() - 1];
        let (solved, total) = ctx.level_counts(previous);
        let need = UNLOCK_AFTER.min(total);
        let text = vec![
            Line::styled(t!(lang, "ladder-locked"), theme.warn()),
            Line::from(t!(
                lang,
                "ladder-locked-why",
                need = need,
                level = previous.key(),
                solved = solved
            )),
            Line::from(""),
            keyed_line(
                &t!(lang, "ladder-unlock-hint", key = super::KEY_MARK),
                "u",
                theme,
            ),
        ];
        let room = super::wrap_room(&text, inner);
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .render(room, buf);
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
            0 => t!(lang, "ladder-new"),
            n => t!(lang, "ladder-tries", n = n),
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
            Span::styled(pad(&title, title_width), row_style),
            Span::styled(
                format!(" {:<10}", exercise.topic),
                if i == state.selected {
                    row_style
                } else {
                    theme.dim()
                },
            ),
            Span::styled(
                pad_left(&tries, 8),
                if i == state.selected {
                    row_style
                } else {
                    theme.dim()
                },
            ),
        ]));
    }
    if exercises.is_empty() {
        lines.push(Line::styled(t!(lang, "ladder-empty"), theme.dim()));
    }
    Paragraph::new(lines).render(inner, buf);
}

/// What each level asks of the learner.
pub fn describe(level: Level, lang: Lang) -> String {
    match level {
        Level::L1 => t!(lang, "ladder-describe-l1"),
        Level::L2 => t!(lang, "ladder-describe-l2"),
        Level::L3 => t!(lang, "ladder-describe-l3"),
        Level::L4 => t!(lang, "ladder-describe-l4"),
        Level::L5 => t!(lang, "ladder-describe-l5"),
    }
}

/// A level's name (`Recognition` …) in `lang`.
pub fn level_name(level: Level, lang: Lang) -> String {
    match level {
        Level::L1 => t!(lang, "ladder-level-l1"),
        Level::L2 => t!(lang, "ladder-level-l2"),
        Level::L3 => t!(lang, "ladder-level-l3"),
        Level::L4 => t!(lang, "ladder-level-l4"),
        Level::L5 => t!(lang, "ladder-level-l5"),
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
