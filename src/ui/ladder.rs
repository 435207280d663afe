//! The ladder: levels L1–L5 on the left with the chosen level's topics (mastered, open or locked),
//! the chosen level's exercises on the right, each marked new, attempted or solved, with its topic
//! and tries; a legend for the marks and the way to practise what was missed.
//!
//! ```text
//! ┌ Levels ────────────────┐┌ L2 Application — plug numbers into a rule ─────────┐
//! │L1 Recognition          ││▸✓ Sectors of a strided load      coalescing  1 try│
//! │   ██████░░░░ 3/12      ││   Misaligned by one              coalescing    new│
//! │L2 Application          ││   Bank of a stride               banks      locked│
//! │ …                      ││ …                                                  │
//! │                        ││Opens once L1 · banks is mastered: 1/2 solved.      │
//! │Topics at L2            ││Press p to practise what you missed (2).            │
//! │coalescing 1/6 open     ││✓ solved · ◦ saw the answer · • tried, not solved   │
//! │banks      0/2 locked   │└────────────────────────────────────────────────────┘
//! └────────────────────────┘
//! ```

use super::{Action, Component, Ctx, KeyHint};
use super::{Theme, bar, block, keyed_line, pad, pad_left};
use crate::content::schema::Level;
use crate::i18n::Lang;
use crate::ladder::mastery::{Board, RECALL_AT_LEAST};
use crate::ladder::unlock;
use crate::progress::Status;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Keys shown in the footer (every one fits in 80 columns; `p`, practise what you missed, is
/// offered on the line that says how many wait).
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
    /// Why the exercise Enter was pressed on is locked (until the next key).
    notice: Option<String>,
}

impl State {
    /// Showing `level`.
    pub fn new(level: Level) -> Self {
        State {
            level,
            selected: 0,
            notice: None,
        }
    }
}

/// Why the exercises of `topic` at `level` are locked, and what opens them (none: they are open).
pub fn locked_why(board: &Board, topic: &str, level: Level, lang: Lang) -> Option<String> {
    if board.open(topic, level) {
        return None;
    }
    let below = board.opener(topic, level)?;
    let tally = board.tally(topic, below);
    match board.recall(topic) {
        Some(recall) if tally.solved >= tally.need() => Some(t!(
            lang,
            "ladder-opens-after-review",
            below = below.key(),
            topic = topic,
            recall = (recall * 100.0).round() as i64,
            needed = (RECALL_AT_LEAST * 100.0).round() as i64
        )),
        _ => Some(t!(
            lang,
            "ladder-opens-after",
            below = below.key(),
            topic = topic,
            solved = tally.solved,
            need = tally.need()
        )),
    }
}

/// The line that offers "Practise what you missed", or says there is nothing to practise.
pub fn practise_line(ctx: &Ctx, theme: Theme) -> Line<'static> {
    let missed = crate::ladder::practice::queue(ctx.content, ctx.progress).len();
    if missed == 0 {
        Line::styled(t!(ctx.lang, "ladder-practise-none"), theme.dim())
    } else {
        keyed_line(
            &t!(
                ctx.lang,
                "ladder-practise",
                key = super::KEY_MARK,
                n = missed
            ),
            "p",
            theme,
        )
    }
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.notice = None;
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
            KeyCode::Char('p') => return Some(Action::OpenPractice),
            // Mastery ends in writing kernels: L5 leads to the kernel puzzles.
            KeyCode::Char('z') if self.level == Level::L5 => return Some(Action::OpenPuzzles),
            KeyCode::Char('L') => {
                let exercise = ctx.content.level(self.level).nth(self.selected)?;
                return ctx
                    .content
                    .lesson_of(&exercise.topic)
                    .map(|l| Action::OpenLesson(l.id.clone()));
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let exercise = ctx.content.level(self.level).nth(self.selected)?;
                let board = ctx.board();
                if unlock::exercise_open(&board, exercise) {
                    return Some(Action::OpenExercise(exercise.id.clone()));
                }
                self.notice = locked_why(&board, &exercise.topic, exercise.level, ctx.lang);
            }
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        let mut keys = keys(lang);
        if self.level == Level::L5 {
            keys.insert(3, KeyHint::new("z", t!(lang, "ladder-key-puzzles")));
        }
        keys
    }
}

/// Draws the ladder.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let lang = ctx.lang;
    let board = ctx.board();
    let [left, right] = area.layout(&Layout::horizontal([
        Constraint::Length(26),
        Constraint::Fill(1),
    ]));
    let levels = block(&t!(lang, "ladder-levels"), theme);
    let inner = levels.inner(left);
    levels.render(left, buf);
    let topics: Vec<&str> = board.topics_at(state.level).collect();
    // Two rows a level while the topics still fit below them, else one.
    let compact = (inner.height as usize) < 2 * Level::ALL.len() + 2 + topics.len();
    let mut lines = Vec::new();
    for level in Level::ALL {
        let (solved, total) = ctx.level_counts(level);
        let open = board.level_open(level);
        let style = if level == state.level {
            theme.selected()
        } else if open {
            theme.text()
        } else {
            theme.dim()
        };
        let name = format!(
            "{} {}{}",
            level.key(),
            level_name(level, lang),
            if open {
                String::new()
            } else {
                format!(" {}", t!(lang, "ladder-locked-mark"))
            }
        );
        if compact {
            lines.push(Line::from(vec![
                Span::styled(pad(&super::ellipsis(&name, 17), 18), style),
                Span::raw(format!("{solved}/{total}")),
            ]));
        } else {
            lines.push(Line::styled(name, style));
            lines.push(Line::from(vec![
                Span::styled(format!("   {}", bar(solved, total, 10)), theme.warn()),
                Span::raw(format!(" {solved}/{total}")),
            ]));
        }
    }
    if !topics.is_empty() {
        lines.push(Line::from(""));
        lines.push(Line::styled(
            t!(lang, "ladder-topics-at", level = state.level.key()),
            theme.title(),
        ));
    }
    for topic in &topics {
        let tally = board.tally(topic, state.level);
        let (word, style) = if board.mastered(topic, state.level) {
            (t!(lang, "ladder-topic-mastered"), theme.good())
        } else if !board.open(topic, state.level) {
            (t!(lang, "ladder-topic-locked"), theme.dim())
        } else if tally.solved >= tally.need() {
            (t!(lang, "ladder-topic-review"), theme.warn())
        } else {
            (t!(lang, "ladder-topic-open"), theme.text())
        };
        lines.push(Line::from(vec![
            Span::styled(pad(&super::ellipsis(topic, 10), 11), style),
            Span::raw(pad(&format!("{}/{}", tally.solved, tally.total), 6)),
            Span::styled(word, style),
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
    // The bottom rows: why the selected exercise is locked, practice, the legend.
    let level_open = board.level_open(state.level);
    let selected = ctx
        .content
        .level(state.level)
        .nth(state.selected)
        .filter(|_| level_open);
    let why = state
        .notice
        .clone()
        .or_else(|| selected.and_then(|e| locked_why(&board, &e.topic, e.level, lang)));
    let mut bottom = Vec::new();
    if let Some(why) = why {
        bottom.push(Line::styled(why, theme.warn()));
    }
    // The selected exercise's topic has a lesson not read yet: teach before testing.
    let unread = ctx
        .content
        .level(state.level)
        .nth(state.selected)
        .and_then(|e| ctx.content.lesson_of(&e.topic))
        .filter(|l| !ctx.progress.lesson_read(&l.id));
    if let Some(lesson) = unread {
        let topic = ctx
            .content
            .topic(&lesson.topic)
            .map_or(lesson.topic.clone(), |t| t.name.clone());
        bottom.push(keyed_line(
            &t!(lang, "lesson-offer", topic = topic, key = super::KEY_MARK),
            "L",
            theme,
        ));
    }
    bottom.push(practise_line(ctx, theme));
    bottom.push(Line::styled(t!(lang, "ladder-legend"), theme.dim()));
    let bottom_rows = super::wrap_room(&bottom, inner);
    let bottom_height = Paragraph::new(bottom.clone())
        .wrap(Wrap { trim: false })
        .line_count(bottom_rows.width)
        .min(inner.height as usize / 2) as u16;
    let [list_area, bottom_area] = inner.layout(&Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(bottom_height),
    ]));
    let bottom_room = super::wrap_room(&bottom, bottom_area);
    Paragraph::new(bottom)
        .wrap(Wrap { trim: false })
        .render(bottom_room, buf);
    if !level_open {
        let mut text = vec![Line::styled(t!(lang, "ladder-locked"), theme.warn())];
        for topic in &topics {
            if let Some(why) = locked_why(&board, topic, state.level, lang) {
                text.push(Line::from(why));
            }
        }
        text.push(Line::from(""));
        text.push(keyed_line(
            &t!(lang, "ladder-unlock-hint", key = super::KEY_MARK),
            "u",
            theme,
        ));
        let room = super::wrap_room(&text, list_area);
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .render(room, buf);
        return;
    }
    let exercises: Vec<_> = ctx.content.level(state.level).collect();
    let visible = list_area.height as usize;
    let first = state.selected.saturating_sub(visible.saturating_sub(1));
    let title_width = (list_area.width as usize).saturating_sub(22).max(10);
    let mut lines = Vec::new();
    for (i, exercise) in exercises.iter().enumerate().skip(first).take(visible) {
        let progress = ctx.progress.of(&exercise.id);
        let open = unlock::exercise_open(&board, exercise);
        let (mark, mark_style) = match progress.status() {
            Status::Solved => ("✓", theme.good()),
            Status::Attempted => ("•", theme.warn()),
            Status::Seen => ("◦", theme.warn()),
            Status::New => (" ", theme.text()),
        };
        let tries = match progress.attempts {
            _ if !open => t!(lang, "ladder-topic-locked"),
            0 => t!(lang, "ladder-new"),
            n => t!(lang, "ladder-tries", n = n),
        };
        let title = super::ellipsis(&exercise.title, title_width);
        let row_style = if i == state.selected {
            theme.selected()
        } else if open {
            theme.text()
        } else {
            theme.dim()
        };
        let side_style = if i == state.selected {
            row_style
        } else {
            theme.dim()
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
            Span::styled(format!(" {:<10}", exercise.topic), side_style),
            Span::styled(pad_left(&tries, 8), side_style),
        ]));
    }
    if exercises.is_empty() {
        lines.push(Line::styled(t!(lang, "ladder-empty"), theme.dim()));
    }
    Paragraph::new(lines).render(list_area, buf);
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
