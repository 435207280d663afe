//! One exercise: the prompt with this variant's numbers, the answer (typed, picked or arranged),
//! hints one at a time, feedback, the worked explanation, "explain simply", new numbers, next.
//!
//! ```text
//! ┌ L2 · Sectors of a strided load ───────────────── coalescing ┐
//! │ A full warp (32 lanes) reads 4-byte elements …               │
//! │ Hint 1: Neighbouring lanes are 8 bytes apart.                │
//! ├ Answer ──────────────────────────────────────────────────────┤
//! │ > 8 sectors▏                                                 │
//! ├ Feedback ────────────────────────────────────────────────────┤
//! │ ✓ Correct — 8 sectors.                                       │
//! └──────────────────────────────────────────────────────────────┘
//! ```

use super::{Theme, block, rich, wrapped_height};
use super::{calculators, explorer};
use crate::app::input::LineInput;
use crate::app::{Action, App, Screen};
use crate::content::schema::{ExerciseTemplate, Level};
use crate::ladder::variant::letter;
use crate::ladder::{AnswerKey, Feedback, Outcome, Response, ShowMe, Variant, VariantError};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The exercise screen's state.
#[derive(Debug, Clone)]
pub struct State {
    /// Exercise id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Level.
    pub level: Level,
    /// Topic id.
    pub topic: String,
    /// The variant, or why it could not be made.
    pub variant: Result<Variant, String>,
    /// The typed answer.
    pub input: LineInput,
    /// Highlighted option (choice answers).
    pub choice: usize,
    /// Current arrangement (ordering answers): item indices, first to last.
    pub order: Vec<usize>,
    /// Highlighted position in the arrangement.
    pub order_cursor: usize,
    /// Hints revealed.
    pub hints_shown: usize,
    /// Feedback on the last usable or unusable answer.
    pub feedback: Option<Feedback>,
    /// Solved in this variant: the answer is locked.
    pub solved: bool,
    /// An explanation answer waits for the learner to mark it.
    pub awaiting_mark: bool,
    /// The worked explanation is shown.
    pub show_explanation: bool,
    /// The topic's plain-language analogy is shown.
    pub show_analogy: bool,
    /// When time on this exercise was last booked (Unix seconds).
    pub clock_start: u64,
    /// Answers submitted to this variant.
    pub attempts: u32,
}

impl State {
    /// A fresh screen for `variant` of `template`.
    pub fn new(
        template: &ExerciseTemplate,
        variant: Result<Variant, VariantError>,
        history: Vec<String>,
        now: u64,
    ) -> Self {
        let variant = variant.map_err(|e| e.to_string());
        let order = match &variant {
            Ok(Variant {
                key: AnswerKey::Ordering { shown, .. },
                ..
            }) => shown.clone(),
            _ => Vec::new(),
        };
        State {
            id: template.id.clone(),
            title: template.title.clone(),
            level: template.level,
            topic: template.topic.clone(),
            variant,
            input: LineInput::with_history(history),
            choice: 0,
            order,
            order_cursor: 0,
            hints_shown: 0,
            feedback: None,
            solved: false,
            awaiting_mark: false,
            show_explanation: false,
            show_analogy: false,
            clock_start: now,
            attempts: 0,
        }
    }

    /// Whether the answer is typed (number, text, explanation) and still open: keys go to the input.
    pub fn typing(&self) -> bool {
        matches!(
            &self.variant,
            Ok(Variant {
                key: AnswerKey::Number { .. } | AnswerKey::Text { .. } | AnswerKey::Explain { .. },
                ..
            })
        ) && !self.solved
            && !self.awaiting_mark
    }

    fn hint_count(&self) -> usize {
        self.variant.as_ref().map_or(0, |v| v.hints.len())
    }
}

/// Whether `?` is part of an answer here (short text and explanations), so it does not open help.
pub fn question_mark_is_text(state: &State) -> bool {
    matches!(
        &state.variant,
        Ok(Variant {
            key: AnswerKey::Text { .. } | AnswerKey::Explain { .. },
            ..
        })
    )
}

/// Keys shown in the footer (most important first), which depend on the answer kind and state.
pub fn keys(state: &State) -> Vec<(&'static str, &'static str)> {
    let show_me = state.variant.as_ref().is_ok_and(|v| v.show_me.is_some());
    let mut keys: Vec<(&str, &str)> = if state.typing() {
        vec![
            ("Enter", "submit"),
            ("^T", "hint"),
            ("^R", "new numbers"),
            ("^E", "explain"),
            ("Esc", "back"),
        ]
    } else if state.awaiting_mark {
        vec![
            ("y", "I had it"),
            ("n", "I missed it"),
            ("e", "explain"),
            ("q", "back"),
        ]
    } else if state.solved {
        vec![
            ("Enter/n", "next"),
            ("r", "new numbers"),
            ("e", "explain"),
            ("q", "back"),
        ]
    } else if matches!(
        &state.variant,
        Ok(Variant {
            key: AnswerKey::Ordering { .. },
            ..
        })
    ) {
        vec![
            ("↑↓", "select"),
            ("J/K", "move item"),
            ("Enter", "submit"),
            ("t", "hint"),
            ("r", "new numbers"),
            ("q", "back"),
        ]
    } else {
        vec![
            ("↑↓/1-9", "choose"),
            ("Enter", "submit"),
            ("t", "hint"),
            ("r", "new numbers"),
            ("e", "explain"),
            ("q", "back"),
        ]
    };
    let typing = state.typing();
    if show_me {
        keys.push(if typing {
            ("^O", "show me")
        } else {
            ("o", "show me")
        });
    }
    if typing {
        keys.push(("^Y", "simply"));
    } else if !state.awaiting_mark {
        keys.push(("y", "simply"));
    }
    keys.push(("PgDn/PgUp", "next/previous"));
    if typing {
        keys.push(("↑↓", "past answers"));
        keys.push(("F1", "help"));
    } else {
        keys.push(("?", "help"));
    }
    keys
}

/// What a key asks of the exercise screen.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Command {
    Edit(KeyEvent),
    Submit,
    Hint,
    Reroll,
    Explanation,
    Simply,
    Next(isize),
    Select(isize),
    Pick(usize),
    MoveItem(isize),
    Mark(bool),
    ShowMe,
}

fn command(state: &State, key: KeyEvent) -> Option<Command> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl {
        return match key.code {
            KeyCode::Char('t') => Some(Command::Hint),
            KeyCode::Char('r') => Some(Command::Reroll),
            KeyCode::Char('e') => Some(Command::Explanation),
            KeyCode::Char('y') => Some(Command::Simply),
            KeyCode::Char('o') => Some(Command::ShowMe),
            _ if state.typing() => Some(Command::Edit(key)),
            _ => None,
        };
    }
    match key.code {
        KeyCode::PageDown => return Some(Command::Next(1)),
        KeyCode::PageUp => return Some(Command::Next(-1)),
        _ => {}
    }
    if state.typing() {
        return Some(match key.code {
            KeyCode::Enter => Command::Submit,
            _ => Command::Edit(key),
        });
    }
    if state.awaiting_mark {
        return match key.code {
            KeyCode::Char('y') => Some(Command::Mark(true)),
            KeyCode::Char('n') => Some(Command::Mark(false)),
            KeyCode::Char('e') => Some(Command::Explanation),
            _ => None,
        };
    }
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    match key.code {
        KeyCode::Char('t') => Some(Command::Hint),
        KeyCode::Char('r') => Some(Command::Reroll),
        KeyCode::Char('e') => Some(Command::Explanation),
        KeyCode::Char('y') => Some(Command::Simply),
        KeyCode::Char('o') => Some(Command::ShowMe),
        KeyCode::Char('n') | KeyCode::Enter if state.solved => Some(Command::Next(1)),
        KeyCode::Char('p') if state.solved => Some(Command::Next(-1)),
        KeyCode::Enter => Some(Command::Submit),
        KeyCode::Char('K') => Some(Command::MoveItem(-1)),
        KeyCode::Char('J') => Some(Command::MoveItem(1)),
        KeyCode::Up if shift => Some(Command::MoveItem(-1)),
        KeyCode::Down if shift => Some(Command::MoveItem(1)),
        KeyCode::Up | KeyCode::Char('k') => Some(Command::Select(-1)),
        KeyCode::Down | KeyCode::Char('j') => Some(Command::Select(1)),
        KeyCode::Char(c @ '1'..='9') => Some(Command::Pick(c as usize - '1' as usize)),
        _ => None,
    }
}

fn state_mut(app: &mut App) -> Option<&mut State> {
    match app.stack.last_mut() {
        Some(Screen::Exercise(state)) => Some(state),
        _ => None,
    }
}

/// Handles a key on the exercise screen.
pub fn key(app: &mut App, key: KeyEvent) {
    let Some(Screen::Exercise(state)) = app.stack.last() else {
        return;
    };
    let Some(command) = command(state, key) else {
        return;
    };
    let id = state.id.clone();
    match command {
        Command::Edit(key) => {
            if let Some(state) = state_mut(app) {
                state.input.edit(&key);
            }
        }
        Command::Submit => submit(app),
        Command::Hint => {
            let Some(state) = state_mut(app) else { return };
            if state.hints_shown < state.hint_count() {
                state.hints_shown += 1;
                app.progress.entry(&id).hints_used += 1;
                app.save();
            }
        }
        Command::Reroll => {
            let seed = app.new_seed();
            app.open_exercise(&id, Some(seed));
        }
        Command::Explanation => {
            if let Some(state) = state_mut(app) {
                state.show_explanation = !state.show_explanation;
            }
        }
        Command::Simply => {
            if let Some(state) = state_mut(app) {
                state.show_analogy = !state.show_analogy;
            }
        }
        Command::Next(step) => {
            if let Some(next) = app.neighbour(&id, step) {
                book_time(app);
                app.open_exercise(&next, None);
            }
        }
        Command::Select(delta) => {
            let Some(state) = state_mut(app) else { return };
            match &state.variant {
                Ok(Variant {
                    key: AnswerKey::Choice { options, .. },
                    ..
                }) => state.choice = step(state.choice, delta, options.len()),
                Ok(Variant {
                    key: AnswerKey::Ordering { items, .. },
                    ..
                }) => state.order_cursor = step(state.order_cursor, delta, items.len()),
                _ => {}
            }
        }
        Command::Pick(index) => {
            let Some(state) = state_mut(app) else { return };
            if let Ok(Variant {
                key: AnswerKey::Choice { options, .. },
                ..
            }) = &state.variant
                && index < options.len()
            {
                state.choice = index;
            }
        }
        Command::MoveItem(delta) => {
            let Some(state) = state_mut(app) else { return };
            let len = state.order.len();
            let to = step(state.order_cursor, delta, len);
            if to != state.order_cursor {
                state.order.swap(state.order_cursor, to);
                state.order_cursor = to;
            }
        }
        Command::ShowMe => {
            let Some(Screen::Exercise(state)) = app.stack.last() else {
                return;
            };
            if let Some(action) = state
                .variant
                .as_ref()
                .ok()
                .and_then(|v| v.show_me.as_ref())
                .map(show_me)
            {
                book_time(app);
                app.update(action);
            }
        }
        Command::Mark(had_it) => {
            let Some(state) = state_mut(app) else { return };
            state.awaiting_mark = false;
            state.solved = had_it;
            let answer = state.input.text().to_string();
            let start = state.clock_start;
            let outcome = if had_it {
                Outcome::Correct
            } else {
                Outcome::Wrong
            };
            app.record_attempt(&id, &answer, outcome, start);
            let now = app.now();
            if let Some(state) = state_mut(app) {
                state.clock_start = now;
                if !had_it {
                    state.input.clear();
                }
            }
        }
    }
}

/// The explorer or calculator preloaded with this variant's own inputs.
pub fn show_me(target: &ShowMe) -> Action {
    match target {
        ShowMe::Global { arch, access } => Action::OpenExplorer(Box::new(
            explorer::State::from_access(arch, explorer::Space::Global, access),
        )),
        ShowMe::Shared { arch, access } => Action::OpenExplorer(Box::new(
            explorer::State::from_access(arch, explorer::Space::Shared, access),
        )),
        ShowMe::Occupancy { arch, config } => {
            let mut state = calculators::State::new(calculators::Tab::Occupancy);
            state.occupancy.arch = arch;
            state.occupancy.config = *config;
            Action::OpenCalculators(Box::new(state))
        }
        ShowMe::Tiling { arch, input } => {
            let mut state = calculators::State::new(calculators::Tab::Tiling);
            if arch.nvidia.is_some() {
                state.tiling.arch = arch;
            }
            state.tiling.input = *input;
            Action::OpenCalculators(Box::new(state))
        }
        ShowMe::Roofline {
            peak_flops,
            bandwidth,
            intensity,
        } => {
            let mut state = calculators::State::new(calculators::Tab::Roofline);
            state.roofline.peak_flops = *peak_flops;
            state.roofline.bandwidth = *bandwidth;
            if let Some(last) = state.roofline.points.last_mut() {
                *last = ("this exercise".to_string(), *intensity);
            }
            Action::OpenCalculators(Box::new(state))
        }
    }
}

fn step(at: usize, delta: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    (at as isize + delta).clamp(0, len as isize - 1) as usize
}

fn book_time(app: &mut App) {
    let now = app.now();
    let Some(state) = state_mut(app) else { return };
    let spent = now.saturating_sub(state.clock_start);
    state.clock_start = now;
    let id = state.id.clone();
    app.progress.entry(&id).seconds += spent;
}

fn submit(app: &mut App) {
    let Some(state) = state_mut(app) else { return };
    let Ok(variant) = &state.variant else { return };
    let answer = state.input.text().to_string();
    let feedback = match &variant.key {
        AnswerKey::Choice { .. } => crate::ladder::grade(variant, Response::Choice(state.choice)),
        AnswerKey::Ordering { .. } => crate::ladder::grade(variant, Response::Order(&state.order)),
        _ => crate::ladder::grade(variant, Response::Text(&answer)),
    };
    let explain = matches!(variant.key, AnswerKey::Explain { .. });
    let outcome = feedback.outcome;
    let id = state.id.clone();
    let start = state.clock_start;
    let shown_answer = match &variant.key {
        AnswerKey::Choice { options, .. } => {
            format!("{}) {}", letter(state.choice), options[state.choice])
        }
        AnswerKey::Ordering { items, .. } => state
            .order
            .iter()
            .map(|&i| items[i].as_str())
            .collect::<Vec<_>>()
            .join(" → "),
        _ => answer.clone(),
    };
    state.feedback = Some(feedback);
    if outcome == Outcome::Unusable {
        return;
    }
    state.attempts += 1;
    if explain {
        // The learner compares with the model answer and marks it; that mark is the attempt.
        state.awaiting_mark = true;
        return;
    }
    state.input.remember(&answer);
    if outcome == Outcome::Correct {
        state.solved = true;
    } else {
        state.input.clear();
    }
    app.record_attempt(&id, &shown_answer, outcome, start);
    let now = app.now();
    if let Some(state) = state_mut(app) {
        state.clock_start = now;
    }
}

/// Draws the exercise screen.
pub fn render(app: &App, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = app.theme;
    let progress = app.progress.of(&state.id);
    let status = if progress.solved {
        "solved"
    } else if progress.attempts > 0 {
        "attempted"
    } else {
        "new"
    };
    let title = format!("{} · {}", state.level.key(), state.title);
    let outer = block(&title, theme).title_top(
        Line::styled(format!(" {} · {status} ", state.topic), theme.dim()).right_aligned(),
    );
    let inner = outer.inner(area);
    outer.render(area, buf);
    let variant = match &state.variant {
        Ok(variant) => variant,
        Err(message) => {
            Paragraph::new(vec![
                Line::styled("This exercise cannot be shown.", theme.bad()),
                Line::from(message.clone()),
                Line::from("Run `warpdrill content check` to find the mistake in its template."),
            ])
            .wrap(Wrap { trim: false })
            .render(inner, buf);
            return;
        }
    };
    let width = inner.width;

    // The question, the options or items, hints, analogy.
    let mut top: Vec<Line> = variant.prompt.split('\n').map(|p| rich(p, theme)).collect();
    match &variant.key {
        AnswerKey::Choice { options, correct } => {
            top.push(Line::from(""));
            for (i, option) in options.iter().enumerate() {
                let selected = i == state.choice;
                let mark = if state.solved && correct.contains(&i) {
                    "✓"
                } else if selected {
                    "▸"
                } else {
                    " "
                };
                let mut line = rich(&format!("{mark} {}) {option}", letter(i)), theme);
                if selected {
                    line = line.style(theme.selected());
                }
                top.push(line);
            }
        }
        AnswerKey::Ordering { items, by, .. } => {
            top.push(Line::styled(
                format!(
                    "Arrange ({}): J/K or Shift+↑↓ move the highlighted item.",
                    by.as_deref().unwrap_or("first to last")
                ),
                theme.dim(),
            ));
            for (position, &item) in state.order.iter().enumerate() {
                let selected = position == state.order_cursor;
                let line = Line::from(format!(
                    "{} {}. {}",
                    if selected { "▸" } else { " " },
                    position + 1,
                    items[item]
                ));
                top.push(if selected {
                    line.style(theme.selected())
                } else {
                    line
                });
            }
        }
        _ => {}
    }
    for (i, hint) in variant.hints.iter().take(state.hints_shown).enumerate() {
        let mut line = rich(hint, theme);
        line.spans
            .insert(0, Span::styled(format!("Hint {}: ", i + 1), theme.warn()));
        top.push(line);
    }
    if state.hints_shown == 0
        && !state.solved
        && !variant.hints.is_empty()
        && state.feedback.is_none()
    {
        top.push(Line::styled(
            format!("{} hints available.", variant.hints.len()),
            theme.dim(),
        ));
    }
    if state.show_analogy
        && let Some(topic) = app.content.topic(&state.topic)
    {
        top.push(Line::from(vec![
            Span::styled("Simply: ", theme.title()),
            Span::raw(topic.analogy.clone()),
        ]));
    }

    // Feedback and explanation.
    let mut bottom: Vec<Line> = Vec::new();
    if let Some(feedback) = &state.feedback {
        let (mark, style) = match feedback.outcome {
            Outcome::Correct => ("✓ ", theme.good()),
            Outcome::Wrong => ("✗ ", theme.bad()),
            Outcome::Unusable => ("? ", theme.warn()),
        };
        bottom.push(Line::from(vec![
            Span::styled(mark, style),
            Span::styled(feedback.headline.clone(), style),
        ]));
        if let Some(model) = &feedback.model {
            bottom.push(Line::from(vec![
                Span::styled("Model answer: ", theme.title()),
                Span::raw(model.clone()),
            ]));
            if state.awaiting_mark {
                bottom.push(Line::styled(
                    "Did your answer hold these ideas? y = I had it, n = I missed it",
                    theme.key(),
                ));
            }
        } else if feedback.outcome == Outcome::Wrong && !state.show_explanation {
            bottom.push(rich(&format!("Why: {}", feedback.why), theme));
        }
        if feedback.outcome == Outcome::Wrong && feedback.model.is_none() {
            let reroll = if state.typing() { "Ctrl-R" } else { "r" };
            bottom.push(Line::styled(
                format!("Now that you know why, {reroll} draws new numbers to try the idea again."),
                theme.dim(),
            ));
        }
    }
    if state.show_explanation {
        if state.attempts > 0 || state.solved || progress.attempts > 0 {
            bottom.push(rich(
                &format!("Worked explanation: {}", variant.explanation),
                theme,
            ));
        } else {
            bottom.push(Line::styled(
                "The worked explanation opens after your first answer — try one (a guess is fine), or take a hint.",
                theme.dim(),
            ));
        }
    }

    let typed = matches!(
        variant.key,
        AnswerKey::Number { .. } | AnswerKey::Text { .. } | AnswerKey::Explain { .. }
    );
    let input_height = if typed { 3 } else { 0 };
    let available = inner.height.saturating_sub(input_height);
    let bottom_height = if bottom.is_empty() {
        0
    } else {
        (wrapped_height(&bottom, width.saturating_sub(2)) + 2)
            .min(available.saturating_sub(4).max(available / 2))
    };
    // The question sits on top with the answer right below it; feedback follows.
    let needed = wrapped_height(&top, width);
    let top_height = needed.min(available.saturating_sub(bottom_height));
    let [top_area, input_area, bottom_area, _] = inner.layout(&Layout::vertical([
        Constraint::Length(top_height),
        Constraint::Length(input_height),
        Constraint::Length(bottom_height),
        Constraint::Fill(1),
    ]));
    // Keep the selected option or item visible when the prompt is long.
    let scroll = match &variant.key {
        AnswerKey::Choice { .. } | AnswerKey::Ordering { .. } => {
            needed.saturating_sub(top_area.height)
        }
        _ => 0,
    };
    Paragraph::new(top)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0))
        .render(top_area, buf);

    if typed {
        let label = if state.solved {
            "Your answer"
        } else {
            "Answer"
        };
        let input_block = block(label, theme);
        let field = input_block.inner(input_area);
        input_block.render(input_area, buf);
        let (visible, cursor) = state.input.window(field.width.saturating_sub(2) as usize);
        let mut spans = vec![Span::styled("> ", theme.key())];
        if state.typing() {
            let before: String = visible.chars().take(cursor).collect();
            let at: String = visible
                .chars()
                .nth(cursor)
                .map_or(" ".to_string(), String::from);
            let after: String = visible.chars().skip(cursor + 1).collect();
            spans.push(Span::raw(before));
            spans.push(Span::styled(at, theme.selected()));
            spans.push(Span::raw(after));
        } else {
            spans.push(Span::styled(visible, theme.dim()));
        }
        Paragraph::new(Line::from(spans)).render(field, buf);
    }
    if !bottom.is_empty() {
        let feedback_block = block("Feedback", theme);
        let text_area = feedback_block.inner(bottom_area);
        feedback_block.render(bottom_area, buf);
        Paragraph::new(bottom)
            .wrap(Wrap { trim: false })
            .render(text_area, buf);
    }
}
