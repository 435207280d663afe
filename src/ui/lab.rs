//! Lab mode: the overview of the lab's steps, one step (the exercise screen with the lab's rules),
//! the end screen with score and receipt, and the header drawn above every screen during a lab.
//!
//! ```text
//!  Coalescing and banks · alice · step 2/5 · 10/50 pts · 41:07 left      ← header
//! ┌ Lab steps ───────────────────────────────────────────────────────────┐
//! │  1  Sectors of a strided load      L2  solved · 10 pts · 1 attempt   │
//! │▸ 2  Misaligned by one              L2  open · 0 of 3 attempts        │
//! │  3  Bank conflicts of a stride     L2  locked                        │
//! └──────────────────────────────────────────────────────────────────────┘
//! ```

use super::exercise::{self, State as ExerciseState};
use super::input::TextBox;
use super::words::{columns, cut, fit};
use super::{Action, Component, Ctx, KeyHint, Theme, block};
use crate::content::schema::ExerciseTemplate;
use crate::i18n::Lang;
use crate::lab::session::max_points;
use crate::lab::{FeedbackMode, Hints, LabSession};
use crate::ladder::{Attempt, Feedback, Input, Outcome, Reply, Rules, Variant, VariantError};
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// `41:07` or `1:02:03`.
pub fn clock(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

fn exam_hidden(session: &LabSession) -> bool {
    session.lab.feedback == FeedbackMode::AtEnd && session.tally.submitted.is_none()
}

/// The header line: lab title, student, step i/n, points (or answers, in exam mode), time left.
/// The title is shortened to fit `width` columns.
pub fn header(ctx: &Ctx, session: &LabSession, shown: Option<usize>, width: u16) -> Line<'static> {
    let theme = ctx.theme;
    let lang = ctx.lang;
    let n = session.items.len();
    let step = shown
        .or_else(|| session.tally.current(&session.lab))
        .map_or(n, |i| i + 1);
    let mut parts = vec![
        String::new(),
        session.student.student.clone(),
        t!(lang, "lab-header-step", step = step, n = n),
    ];
    if exam_hidden(session) {
        let answered = session
            .tally
            .steps
            .iter()
            .filter(|s| s.attempts > 0)
            .count();
        parts.push(t!(lang, "lab-header-answered", answered = answered, n = n));
    } else {
        parts.push(t!(
            lang,
            "lab-header-points",
            points = session.tally.total(),
            max = max_points(&session.lab)
        ));
    }
    let mut tail = None;
    if session.tally.submitted.is_some() {
        tail = Some((
            format!(" · {}", t!(lang, "lab-header-handed-in")),
            theme.good(),
        ));
    } else if let Some(left) = session.time_left(ctx.now) {
        let style = if left == 0 {
            theme.bad()
        } else if left < 300 {
            theme.warn()
        } else {
            theme.dim()
        };
        let text = if left == 0 {
            format!(" · {}", t!(lang, "lab-header-time-up"))
        } else {
            format!(
                " · {}",
                t!(lang, "lab-header-time-left", time = clock(left))
            )
        };
        tail = Some((text, style));
    }
    let used = columns(&parts.join(" · ")) + 1 + tail.as_ref().map_or(0, |(t, _)| columns(t));
    let room = usize::from(width).saturating_sub(used).max(6);
    parts[0] = cut(&session.lab.title, room);
    let mut spans = vec![Span::styled(
        format!(" {}", parts.join(" · ")),
        theme.title(),
    )];
    if let Some((text, style)) = tail {
        spans.push(Span::styled(text, style));
    }
    Line::from(spans)
}

/// How a step stands, in a few words.
/// `Some(true)` solved, `Some(false)` not, `None` still open (or hidden until hand-in); the last
/// field says the step is locked.
fn standing(lang: Lang, session: &LabSession, index: usize) -> (String, Option<bool>, bool) {
    let lab = &session.lab;
    let tally = &session.tally;
    let step = &tally.steps[index];
    let attempts = t!(lang, "lab-attempts", n = step.attempts);
    if exam_hidden(session) {
        return if step.attempts > 0 {
            (t!(lang, "lab-standing-answered"), None, false)
        } else if tally.visible(lab, index) {
            (t!(lang, "lab-standing-open"), None, false)
        } else {
            (t!(lang, "lab-standing-locked"), None, true)
        };
    }
    if step.solved {
        (
            t!(
                lang,
                "lab-standing-solved",
                points = step.points,
                attempts = attempts
            ),
            Some(true),
            false,
        )
    } else if tally.done(lab, index) {
        (
            t!(lang, "lab-standing-not-solved", attempts = attempts),
            Some(false),
            false,
        )
    } else if tally.submitted.is_some() {
        (t!(lang, "lab-standing-not-answered"), Some(false), false)
    } else if tally.visible(lab, index) {
        (
            worth(
                lang,
                lab.weight(index),
                t!(
                    lang,
                    "lab-standing-open-attempts",
                    used = step.attempts,
                    allowed = lab.attempts()
                ),
            ),
            None,
            false,
        )
    } else {
        (
            worth(lang, lab.weight(index), t!(lang, "lab-standing-locked")),
            None,
            true,
        )
    }
}

/// A step's standing with what it is worth, when it carries a weight of its own.
pub(crate) fn worth(lang: Lang, weight: Option<u32>, standing: String) -> String {
    match weight {
        Some(points) => t!(
            lang,
            "lab-standing-worth",
            standing = standing,
            points = points
        ),
        None => standing,
    }
}

/// The lab overview: every step with how it stands; the base of the screen stack in lab mode.
#[derive(Debug, Clone, Default)]
pub struct Overview {
    /// Highlighted step.
    pub selected: usize,
    /// `s` was pressed once: a second `s` hands the lab in.
    pub confirm: bool,
}

impl Overview {
    /// On the first step not yet done.
    pub fn new(session: &LabSession) -> Self {
        Overview {
            selected: session.tally.current(&session.lab).unwrap_or(0),
            confirm: false,
        }
    }
}

impl Component for Overview {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        let session = ctx.lab?;
        let confirm = std::mem::take(&mut self.confirm);
        let n = session.items.len();
        // The hand-in question: `s` hands in, any other key (Esc too) only cancels it.
        if confirm && key.code != KeyCode::Char('s') {
            return None;
        }
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(n.saturating_sub(1))
            }
            KeyCode::Enter | KeyCode::Right | KeyCode::Char('l') => {
                return Some(Action::LabOpen(self.selected));
            }
            KeyCode::Char('s') if session.tally.submitted.is_none() => {
                if confirm {
                    return Some(Action::LabSubmit);
                }
                self.confirm = true;
            }
            KeyCode::Char('s') => return Some(Action::LabSubmit),
            KeyCode::Char('u') => return Some(Action::UnlockAll),
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let Some(session) = ctx.lab else {
            return;
        };
        let theme = ctx.theme;
        let lang = ctx.lang;
        let outer = block(&t!(lang, "lab-steps-title"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        let width = usize::from(inner.width);
        let status_width = (0..session.items.len())
            .map(|i| columns(&standing(lang, session, i).0))
            .max()
            .unwrap_or(0);
        let mut lines = Vec::new();
        for (i, item) in session.items.iter().enumerate() {
            let (title, level) = crate::lab::task::heading(ctx.content, item);
            let (text, right, locked) = standing(lang, session, i);
            let style = match right {
                Some(true) => theme.good(),
                Some(false) => theme.bad(),
                None if locked => theme.dim(),
                None => theme.key(),
            };
            let mark = if i == self.selected { "▸" } else { " " };
            let head = format!("{mark}{:>2}  ", item.step);
            let room = width.saturating_sub(columns(&head) + status_width + 6);
            let name = fit(&title, room);
            let mut line = Line::from(vec![
                Span::raw(head),
                Span::raw(name),
                Span::styled(format!(" {level:<3} "), theme.dim()),
                Span::styled(text, style),
            ]);
            if i == self.selected {
                line = line.style(theme.selected());
            }
            lines.push(line);
        }
        lines.push(Line::from(""));
        let lab = &session.lab;
        let hints = match lab.hints {
            Hints::Allowed => t!(lang, "lab-rules-hints-free"),
            Hints::Cost(n) => t!(lang, "lab-rules-hint-cost", n = n),
            Hints::Off => t!(lang, "lab-rules-no-hints"),
        };
        let points: Vec<String> = lab.points.iter().map(ToString::to_string).collect();
        let order = match lab.order {
            crate::lab::Order::Locked => t!(lang, "lab-rules-in-order"),
            crate::lab::Order::Free => t!(lang, "lab-rules-any-order"),
        };
        let mut rules = t!(
            lang,
            "lab-rules",
            points = points.join("/"),
            attempts = lab.attempts(),
            hints = hints,
            order = order
        );
        if lab.feedback == FeedbackMode::AtEnd {
            rules = format!("{rules} · {}", t!(lang, "lab-rules-exam"));
        }
        if (0..lab.item_count()).any(|i| lab.weight(i).is_some()) {
            rules = format!("{rules} · {}", t!(lang, "lab-rules-weighted"));
        }
        lines.push(Line::styled(rules, theme.dim()));
        if let Some(receipt) = &session.receipt {
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{} ", t!(lang, "lab-handed-in-receipt")),
                    theme.good(),
                ),
                Span::styled(receipt.clone(), theme.title()),
            ]));
        } else if self.confirm {
            lines.push(Line::styled(t!(lang, "lab-confirm-hand-in"), theme.warn()));
        } else if let Some(closed) = session.closed_in(lang, ctx.now) {
            lines.push(Line::styled(closed, theme.warn()));
        } else if session.tally.current(lab).is_none() {
            lines.push(Line::styled(t!(lang, "lab-all-done"), theme.key()));
        }
        let room = crate::ui::wrap_room(&lines, inner);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(room, buf);
    }

    /// While the hand-in question is asked, every key answers it (Esc and `q` cancel it rather
    /// than quit).
    fn captures(&self, _key: &KeyEvent) -> bool {
        self.confirm
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        vec![
            KeyHint::new("↑↓/jk", t!(lang, "lab-key-move")),
            KeyHint::new("Enter", t!(lang, "lab-key-open-step")),
            KeyHint::new("s", t!(lang, "lab-key-hand-in")),
            KeyHint::new("?", t!(lang, "lab-key-help")),
            KeyHint::new("q", t!(lang, "lab-key-quit-saved")),
        ]
    }
}

/// One step of the lab: the exercise screen, with the lab's rules about attempts, hints, "show me"
/// and feedback.
#[derive(Debug, Clone)]
pub struct Step {
    /// Step index (0-based).
    pub index: usize,
    /// The exercise shown.
    pub exercise: ExerciseState,
    /// In exam mode: answered (the answer is kept until the lab is handed in).
    pub answered: bool,
    /// A message about the last key (a closed feature, a refused answer).
    pub message: Option<String>,
    /// The lab allows hints.
    pub hints: bool,
    /// The lab allows "show me".
    pub show_me: bool,
}

impl Step {
    /// Step `index` of `session`, showing `variant` of `template`.
    pub fn new(
        session: &LabSession,
        index: usize,
        template: &ExerciseTemplate,
        variant: Result<Variant, VariantError>,
        now: u64,
    ) -> Self {
        let lab = &session.lab;
        let tally = &session.tally.steps[index];
        let done = session.tally.done(lab, index) || session.tally.submitted.is_some();
        let answered = tally.attempts > 0 && lab.feedback == FeedbackMode::AtEnd;
        let rules = Rules::lab(lab.attempts(), lab.feedback != FeedbackMode::AtEnd);
        let attempt = Attempt::resumed(rules, tally.attempts, tally.hints, done);
        let mut exercise =
            ExerciseState::with_attempt(template, variant, Vec::new(), now, attempt).in_lab();
        if let Some((answer, _)) = tally.answers.last()
            && (done || answered)
        {
            exercise.show_given(answer);
        }
        // Solved (or out of attempts) steps show their answer; in exam mode a typed answer stays
        // on screen, without saying right or wrong.
        if (done && !exam_hidden(session)) || (answered && exercise.typing()) {
            exercise.lock();
        }
        Step {
            index,
            exercise,
            answered,
            message: None,
            hints: lab.hints != Hints::Off,
            show_me: lab.show_me,
        }
    }

    fn done(&self, session: &LabSession) -> bool {
        session.tally.done(&session.lab, self.index) || session.tally.submitted.is_some()
    }

    fn next(&mut self, lang: Lang, session: &LabSession, by: isize) -> Option<Action> {
        let target = self.index.checked_add_signed(by)?;
        if target >= session.items.len() {
            return Some(Action::Home);
        }
        if session.tally.visible(&session.lab, target) {
            Some(Action::LabOpen(target))
        } else {
            self.message = Some(t!(lang, "lab-step-opens-later", step = target + 1));
            None
        }
    }

    fn submit(&mut self, lang: Lang, session: &LabSession, now: u64) -> Option<Action> {
        if let Some(closed) = session.closed_in(lang, now) {
            self.message = Some(closed);
            return None;
        }
        let lab = &session.lab;
        // Graded in the session's language; an explanation's exact parts are asked first.
        let Reply::Recorded(record) = self.exercise.submit_answer(lang) else {
            return None;
        };
        if lab.feedback == FeedbackMode::AtEnd {
            self.answered = true;
            if self.exercise.typing() {
                self.exercise.lock();
            }
            self.message = Some(t!(lang, "lab-answer-recorded"));
        } else if self.exercise.attempt().withheld() {
            let left = self.exercise.attempt().left().unwrap_or(0);
            let hints = session.tally.steps[self.index].hints;
            let verdict = t!(
                lang,
                "lab-not-right",
                left = left,
                points = session.points_now(self.index, record.attempts + 1, hints, now)
            );
            // The misconception the answer embodies comes first; the answer stays held back.
            let mistake = self
                .exercise
                .attempt()
                .feedback()
                .and_then(|f| f.mistake.clone());
            let headline = match &mistake {
                Some(line) => format!("{line} {verdict}"),
                None => verdict,
            };
            self.exercise.set_note(Some(Feedback {
                outcome: Outcome::Wrong,
                held: headline.clone(),
                headline,
                why: t!(lang, "lab-not-right-why"),
                expected: String::new(),
                ideas_found: Vec::new(),
                ideas_missed: Vec::new(),
                model: None,
                mistake,
            }));
        }
        let spent = self.exercise.book_time(now);
        Some(Action::LabAttempt {
            step: self.index,
            record,
            since: now.saturating_sub(spent),
        })
    }

    /// The status line: attempts and points, or how the step ended, or the last message.
    fn status(&self, ctx: &Ctx, session: &LabSession) -> Line<'static> {
        status_line(
            ctx,
            session,
            self.index,
            self.answered,
            self.message.as_deref(),
        )
    }
}

/// A lab step's status line: attempts and points, or how the step ended, or the last message.
fn status_line(
    ctx: &Ctx,
    session: &LabSession,
    index: usize,
    answered: bool,
    message: Option<&str>,
) -> Line<'static> {
    let theme = ctx.theme;
    let lang = ctx.lang;
    if let Some(message) = message {
        return Line::styled(message.to_string(), theme.warn());
    }
    let lab = &session.lab;
    let tally = &session.tally.steps[index];
    let n = session.items.len();
    let step = index + 1;
    let done = session.tally.done(lab, index) || session.tally.submitted.is_some();
    let text = if exam_hidden(session) {
        if answered {
            t!(lang, "lab-status-answered", step = step, n = n)
        } else {
            t!(
                lang,
                "lab-status-exam",
                step = step,
                n = n,
                points = session.points_now(index, 1, tally.hints, ctx.now)
            )
        }
    } else if tally.solved {
        t!(
            lang,
            "lab-status-solved",
            step = step,
            n = n,
            points = tally.points
        )
    } else if done {
        t!(lang, "lab-status-not-solved", step = step, n = n)
    } else {
        let hints = match lab.hints {
            Hints::Allowed => t!(lang, "lab-rules-hints-free"),
            Hints::Cost(c) => t!(lang, "lab-status-hint-cost", n = c),
            Hints::Off => t!(lang, "lab-rules-no-hints"),
        };
        t!(
            lang,
            "lab-status-open",
            step = step,
            n = n,
            attempt = tally.attempts + 1,
            allowed = lab.attempts(),
            points = session.points_now(index, tally.attempts + 1, tally.hints, ctx.now),
            hints = hints
        )
    };
    Line::styled(text, theme.dim())
}

impl Component for Step {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        let session = ctx.lab?;
        let lang = ctx.lang;
        self.message = None;
        let done = self.done(session);
        let open = !done && !self.answered;
        let typing = self.exercise.typing();
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        // Time is up or the lab is handed in: nothing is typed any more, and `g` goes to the
        // overview (to hand in), as the message says.
        if session.closed(ctx.now).is_some() && key.code == KeyCode::Char('g') && !ctrl {
            return Some(Action::Home);
        }
        let command = |c: char| match key.code {
            KeyCode::Char(k) if k == c => ctrl || !typing,
            _ => false,
        };
        if command('r') {
            self.message = Some(t!(lang, "lab-no-new-numbers"));
            return None;
        }
        if command('t') {
            if session.lab.hints == Hints::Off {
                self.message = Some(t!(lang, "lab-hints-off"));
            } else if !open {
                self.message = Some(t!(lang, "lab-hints-step-done"));
            } else {
                match self.exercise.apply(Input::Hint, lang) {
                    Reply::Hint => return Some(Action::LabHint(self.index)),
                    _ => self.message = Some(t!(lang, "lab-no-more-hints")),
                }
            }
            return None;
        }
        if command('e') {
            if done && !exam_hidden(session) {
                self.exercise.toggle_explanation(lang);
            } else {
                self.message = Some(t!(lang, "lab-explanation-later"));
            }
            return None;
        }
        if command('o') {
            if !session.lab.show_me {
                self.message = Some(t!(lang, "lab-show-me-off"));
                return None;
            }
            return self
                .exercise
                .variant()
                .ok()
                .and_then(|v| v.show_me.clone())
                .map(Action::ShowMe);
        }
        match key.code {
            // Ctrl-N while typing, n and p otherwise (a lab never asks for a mark).
            KeyCode::Char('n') if ctrl || !typing => return self.next(lang, session, 1),
            KeyCode::Char('p') if !typing && !ctrl => return self.next(lang, session, -1),
            KeyCode::Enter if !open => return self.next(lang, session, 1),
            // Ctrl-J or Alt-Enter: a new line in an explanation.
            KeyCode::Enter if !(self.exercise.explains() && TextBox::is_newline(&key)) => {
                return self.submit(lang, session, ctx.now);
            }
            _ => {}
        }
        // PgUp/PgDn and Tab scroll the step's panes; once it is done, the arrows too.
        let scrolling = matches!(key.code, KeyCode::PageUp | KeyCode::PageDown | KeyCode::Tab)
            || (!open
                && matches!(
                    key.code,
                    KeyCode::Up
                        | KeyCode::Down
                        | KeyCode::Char('j')
                        | KeyCode::Char('k')
                        | KeyCode::Home
                        | KeyCode::End
                ));
        let simply = command('y');
        if open || simply || scrolling {
            // Typing, choosing, arranging, "explain simply": the exercise screen's own keys, which
            // change only the screen.
            let _ = self.exercise.handle(key, ctx);
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let [body, status] = area.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(1),
        ]));
        exercise::render(ctx, &self.exercise, body, buf);
        if let Some(session) = ctx.lab {
            self.status(ctx, session).render(status, buf);
        }
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        let typing = self.exercise.typing();
        let finished = self.exercise.finished() || self.answered;
        let mut keys = Vec::new();
        if finished {
            keys.push(KeyHint::new("Enter", t!(lang, "lab-key-next-step")));
            if self.exercise.finished() && !self.answered {
                keys.push(KeyHint::new("e", t!(lang, "lab-key-explain")));
            }
        } else {
            keys.push(KeyHint::new("Enter", t!(lang, "lab-key-submit")));
            if self.hints {
                keys.push(KeyHint::new(
                    if typing { "^T" } else { "t" },
                    exercise::hint_label(&self.exercise, lang),
                ));
            }
        }
        if self.show_me {
            keys.push(KeyHint::new(
                if typing { "^O" } else { "o" },
                t!(lang, "lab-key-show-me"),
            ));
        }
        if typing && self.exercise.explains() {
            keys.insert(1, KeyHint::new("^J", t!(lang, "exercise-key-new-line")));
        }
        if self.exercise.overflowing() {
            keys.insert(1, crate::ui::scroll::key_hint(lang));
            if self.exercise.both_overflowing() {
                keys.insert(2, KeyHint::new("Tab", t!(lang, "exercise-key-pane")));
            }
        }
        keys.extend([
            KeyHint::new(if typing { "^N" } else { "n/p" }, t!(lang, "lab-key-steps")),
            KeyHint::new("g", t!(lang, "lab-key-overview")),
            KeyHint::new("Esc", t!(lang, "lab-key-back")),
        ]);
        keys.push(KeyHint::new(
            if typing { "F1" } else { "?" },
            t!(lang, "lab-key-help"),
        ));
        keys
    }

    fn captures(&self, key: &KeyEvent) -> bool {
        self.exercise.captures(key)
    }

    fn handle_paste(&mut self, text: &str, ctx: &Ctx) -> Option<Action> {
        let session = ctx.lab?;
        if !self.done(session) && !self.answered {
            self.exercise.paste(text);
        }
        None
    }
}

/// A step of the lab that is a kernel puzzle: the puzzle screen (the file watched and checked on
/// every save, not counted), with the lab's rules: Enter hands in the file as it is now (one
/// attempt), hints are the lab's, and the reference opens when the step is done.
#[derive(Debug, Clone)]
pub struct PuzzleStep {
    /// Step index (0-based).
    pub index: usize,
    /// The puzzle screen.
    pub puzzle: super::puzzle::State,
    /// Enter was pressed while the file was being checked: hand it in when the check ends.
    hand_in: bool,
    /// A message about the last key.
    message: Option<String>,
    /// When the step was opened (Unix seconds), for the time booked with an attempt.
    since: u64,
}

impl PuzzleStep {
    /// Step `index` of `session`: puzzle `state`, its file written by the app.
    pub fn new(session: &LabSession, index: usize, state: super::puzzle::State, now: u64) -> Self {
        let mut step = PuzzleStep {
            index,
            puzzle: state,
            hand_in: false,
            message: None,
            since: now,
        };
        step.sync(session);
        step
    }

    /// Shows the hints the lab booked, and the reference once the step is done (and feedback is
    /// not withheld).
    pub fn sync(&mut self, session: &LabSession) {
        let tally = &session.tally.steps[self.index];
        let reveal = self.done(session) && !exam_hidden(session);
        self.puzzle.set_lab(tally.hints as usize, reveal);
    }

    fn done(&self, session: &LabSession) -> bool {
        session.tally.done(&session.lab, self.index) || session.tally.submitted.is_some()
    }

    /// The hand-in of the file just checked.
    fn attempt(&mut self, now: u64) -> Action {
        self.hand_in = false;
        self.message = None;
        let since = std::mem::replace(&mut self.since, now);
        Action::LabKernel {
            step: self.index,
            source: self.puzzle.source().to_string(),
            since,
        }
    }

    /// Looks at the file; when a check asked for by Enter ends, returns the hand-in.
    pub fn tick(&mut self, lang: Lang, now: u64) -> Option<Action> {
        self.puzzle.poll(false);
        if !self.hand_in || self.puzzle.checking() {
            return None;
        }
        match self.puzzle.current() {
            Some(Ok(_)) => Some(self.attempt(now)),
            Some(Err(message)) => {
                self.hand_in = false;
                self.message = Some(t!(
                    lang,
                    "lab-kernel-not-handed-in",
                    message = message.clone()
                ));
                None
            }
            // The file changed while it was checked: check it again, then hand it in.
            None => {
                self.puzzle.poll(true);
                None
            }
        }
    }

    fn next(&mut self, lang: Lang, session: &LabSession, by: isize) -> Option<Action> {
        let target = self.index.checked_add_signed(by)?;
        if target >= session.items.len() {
            return Some(Action::Home);
        }
        if session.tally.visible(&session.lab, target) {
            Some(Action::LabOpen(target))
        } else {
            self.message = Some(t!(lang, "lab-step-opens-later", step = target + 1));
            None
        }
    }
}

impl Component for PuzzleStep {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        let session = ctx.lab?;
        let lang = ctx.lang;
        self.message = None;
        let done = self.done(session);
        match key.code {
            KeyCode::Char('g') if session.closed(ctx.now).is_some() => Some(Action::Home),
            KeyCode::Enter | KeyCode::Char('n') if done => self.next(lang, session, 1),
            KeyCode::Char('n') => self.next(lang, session, 1),
            KeyCode::Char('p') => self.next(lang, session, -1),
            KeyCode::Enter => {
                if let Some(closed) = session.closed_in(lang, ctx.now) {
                    self.message = Some(closed);
                    return None;
                }
                if self.puzzle.path().is_none_or(|p| !p.exists()) {
                    self.message = Some(t!(lang, "lab-kernel-no-file"));
                    return None;
                }
                if matches!(self.puzzle.current(), Some(Ok(_))) {
                    return Some(self.attempt(ctx.now));
                }
                self.hand_in = true;
                self.message = Some(t!(lang, "lab-kernel-checking"));
                if !self.puzzle.checking() {
                    self.puzzle.poll(true);
                }
                None
            }
            KeyCode::Char('t') | KeyCode::Char('h') => {
                let taken = session.tally.steps[self.index].hints as usize;
                if session.lab.hints == Hints::Off {
                    self.message = Some(t!(lang, "lab-hints-off"));
                } else if done {
                    self.message = Some(t!(lang, "lab-hints-step-done"));
                } else if taken >= self.puzzle.puzzle().hints.len() {
                    self.message = Some(t!(lang, "lab-no-more-hints"));
                } else {
                    return Some(Action::LabHint(self.index));
                }
                None
            }
            // Writing the starter, checking now, the analyser's screen and scrolling are the
            // puzzle screen's own.
            _ => self.puzzle.handle_key(key, ctx),
        }
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let [body, status] = area.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(1),
        ]));
        self.puzzle.render(ctx, body, buf);
        if let Some(session) = ctx.lab {
            let answered = session.tally.steps[self.index].attempts > 0
                && session.lab.feedback == FeedbackMode::AtEnd;
            status_line(ctx, session, self.index, answered, self.message.as_deref())
                .render(status, buf);
        }
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        vec![
            KeyHint::new("Enter", t!(lang, "lab-key-hand-in-file")),
            KeyHint::new("c", t!(lang, "lab-key-try")),
            KeyHint::new("s", t!(lang, "puzzle-key-start")),
            KeyHint::new("t", t!(lang, "puzzle-key-hint")),
            KeyHint::new("a", t!(lang, "puzzle-key-analyse")),
            KeyHint::new("n/p", t!(lang, "lab-key-steps")),
            KeyHint::new("g", t!(lang, "lab-key-overview")),
            KeyHint::new("Esc", t!(lang, "lab-key-back")),
            KeyHint::new("?", t!(lang, "lab-key-help")),
        ]
    }
}

/// After handing in: the score, every step, and the receipt to paste into the course page.
#[derive(Debug, Clone, Default)]
pub struct End {}

impl Component for End {
    fn handle_key(&mut self, key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        match key.code {
            KeyCode::Enter => Some(Action::Home),
            _ => None,
        }
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let Some(session) = ctx.lab else {
            return;
        };
        let theme: Theme = ctx.theme;
        let lang = ctx.lang;
        let outer = block(&t!(lang, "lab-end-title"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        let total = session.tally.total();
        let max = max_points(&session.lab);
        let percent = if max == 0 {
            0.0
        } else {
            f64::from(total) * 100.0 / f64::from(max)
        };
        let mut lines = vec![
            Line::from(vec![
                Span::styled(format!("{} ", t!(lang, "lab-end-score")), theme.title()),
                Span::styled(
                    t!(
                        lang,
                        "lab-end-points",
                        points = total,
                        max = max,
                        percent = format!("{percent:.0}")
                    ),
                    theme.good(),
                ),
            ]),
            Line::from(""),
        ];
        for (i, item) in session.items.iter().enumerate() {
            let (title, _) = crate::lab::task::heading(ctx.content, item);
            let (text, right, _) = standing(lang, session, i);
            let style = if right == Some(true) {
                theme.good()
            } else {
                theme.bad()
            };
            let room = usize::from(inner.width).saturating_sub(columns(&text) + 6);
            lines.push(Line::from(vec![
                Span::raw(format!("{:>2}  {} ", item.step, fit(&title, room))),
                Span::styled(text, style),
            ]));
        }
        lines.push(Line::from(""));
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", t!(lang, "lab-end-receipt")), theme.title()),
            Span::styled(
                session.receipt.clone().unwrap_or_default(),
                theme.emphasis(),
            ),
        ]));
        lines.push(Line::styled(t!(lang, "lab-end-paste"), theme.dim()));
        let room = crate::ui::wrap_room(&lines, inner);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(room, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        vec![
            KeyHint::new("Enter", t!(lang, "lab-key-overview")),
            KeyHint::new("q", t!(lang, "lab-key-quit")),
            KeyHint::new("?", t!(lang, "lab-key-help")),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::lab::{Entry, Lab, plan};
    use crate::progress::Progress;

    const LAB: &str = r#"Lab(id: "t", title: "T", version: 1, secret: "a test secret",
        steps: [Exercise("l2-stride-sectors"), Exercise("l2-bank-stride")], points: [10],
        hints: Off)"#;

    fn session(content: &Content) -> LabSession {
        let lab = Lab::parse("t.ron", LAB).unwrap();
        let student = Entry {
            student: "amy".into(),
            ..Entry::default()
        };
        let items = plan(&lab, content, &student, "t.ron", LAB).unwrap();
        LabSession::in_memory(lab, student, items, 100)
    }

    fn ctx<'a>(content: &'a Content, progress: &'a Progress, lab: &'a LabSession) -> Ctx<'a> {
        static CLOCK: std::sync::LazyLock<crate::clock::FakeClock> =
            std::sync::LazyLock::new(|| crate::clock::FakeClock::at_secs(100));
        Ctx {
            clock: &*CLOCK,
            content,
            progress,
            notices: &[],
            theme: Theme::new(false),
            lang: crate::i18n::Lang::En,
            now: 100,
            lab: Some(lab),
            review: None,
        }
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn the_overview_hands_in_on_the_second_s_only() {
        let content = Content::builtin();
        let progress = Progress::default();
        let lab = session(&content);
        let ctx = ctx(&content, &progress, &lab);
        let mut overview = Overview::new(&lab);
        assert_eq!(overview.handle_key(key(KeyCode::Char('s')), &ctx), None);
        assert!(overview.confirm);
        assert_eq!(
            overview.handle_key(key(KeyCode::Char('s')), &ctx),
            Some(Action::LabSubmit)
        );
        overview.handle_key(key(KeyCode::Char('s')), &ctx);
        assert_eq!(overview.handle_key(key(KeyCode::Esc), &ctx), None);
        assert!(!overview.confirm, "any other key cancels");
        assert_eq!(
            overview.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::LabOpen(0))
        );
    }

    #[test]
    fn a_step_refuses_new_numbers_and_hints_that_are_off() {
        let content = Content::builtin();
        let progress = Progress::default();
        let lab = session(&content);
        let ctx = ctx(&content, &progress, &lab);
        let template = content.exercise("l2-stride-sectors").unwrap();
        let variant = crate::ladder::generate(template, lab.items[0].seed);
        let mut step = Step::new(&lab, 0, template, variant, 100);
        let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        assert_eq!(step.handle_key(ctrl('r'), &ctx), None);
        assert!(
            step.message
                .as_deref()
                .unwrap()
                .contains("New numbers are closed")
        );
        assert_eq!(step.handle_key(ctrl('t'), &ctx), None);
        assert_eq!(step.message.as_deref(), Some("Hints are off in this lab."));
        assert_eq!(step.exercise.attempt().hints(), 0);
        assert_eq!(step.handle_key(ctrl('e'), &ctx), None);
        assert!(
            !step.exercise.explanation_shown(),
            "not before the step is done"
        );
        // Typing, then a submission: an attempt for the app to record.
        step.handle_key(key(KeyCode::Char('1')), &ctx);
        match step.handle_key(key(KeyCode::Enter), &ctx) {
            Some(Action::LabAttempt {
                step: 0, record, ..
            }) => assert_eq!(record.shown, "1"),
            other => panic!("expected an attempt, got {other:?}"),
        }
    }

    const ONE_TRY: &str = r#"Lab(id: "k", title: "K", version: 1, secret: "a test secret",
        steps: [Exercise("l2-stride-sectors"), Exercise("l3-stride-model-vs-h200")],
        points: [10], max_attempts: 1, order: Free)"#;

    fn one_try(content: &Content) -> LabSession {
        let lab = Lab::parse("k.ron", ONE_TRY).unwrap();
        let student = Entry {
            student: "min".into(),
            ..Entry::default()
        };
        let items = plan(&lab, content, &student, "k.ron", ONE_TRY).unwrap();
        LabSession::in_memory(lab, student, items, 100)
    }

    fn is_hangul(text: &str) -> bool {
        text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
    }

    #[test]
    fn a_korean_lab_says_wrong_in_korean() {
        let content = Content::builtin();
        let progress = Progress::default();
        let lab = one_try(&content);
        let mut ctx = ctx(&content, &progress, &lab);
        ctx.lang = crate::i18n::Lang::Ko;
        let template = content.exercise("l2-stride-sectors").unwrap();
        let variant = crate::ladder::generate(template, lab.items[0].seed);
        let mut step = Step::new(&lab, 0, template, variant, 100);
        for c in "99999".chars() {
            step.handle_key(key(KeyCode::Char(c)), &ctx);
        }
        match step.handle_key(key(KeyCode::Enter), &ctx) {
            Some(Action::LabAttempt { record, .. }) => {
                assert_eq!(record.outcome, Outcome::Wrong);
                assert!(record.last, "one try: the step is over");
            }
            other => panic!("expected an attempt, got {other:?}"),
        }
        let feedback = step.exercise.feedback().expect("the verdict is shown");
        assert!(is_hangul(&feedback.headline), "{}", feedback.headline);
        assert!(!step.exercise.typing(), "no second answer");
    }

    #[test]
    fn a_lab_step_asks_an_explanations_exact_parts_first() {
        let content = Content::builtin();
        let progress = Progress::default();
        let lab = one_try(&content);
        let ctx = ctx(&content, &progress, &lab);
        let template = content.exercise("l3-stride-model-vs-h200").unwrap();
        let variant = crate::ladder::generate(template, lab.items[1].seed).unwrap();
        let parts = variant.key.parts().to_vec();
        assert!(!parts.is_empty(), "the exercise has exact parts");
        let mut step = Step::new(&lab, 1, template, Ok(variant.clone()), 100);
        let mut typed_parts = Vec::new();
        for part in &parts {
            let typed = part.key.typed();
            for c in typed.chars() {
                step.handle_key(key(KeyCode::Char(c)), &ctx);
            }
            assert_eq!(
                step.handle_key(key(KeyCode::Enter), &ctx),
                None,
                "a part is graded on the screen, not recorded"
            );
            typed_parts.push(typed);
        }
        assert_eq!(step.exercise.attempt().part(), parts.len());
        assert!(step.exercise.attempt().parts_right().iter().all(|&r| r));
        for c in "coalesced sectors".chars() {
            step.handle_key(key(KeyCode::Char(c)), &ctx);
        }
        match step.handle_key(key(KeyCode::Enter), &ctx) {
            Some(Action::LabAttempt { record, .. }) => match record.given {
                crate::ladder::Given::Explained { parts, text } => {
                    assert_eq!(parts, typed_parts);
                    assert_eq!(text, "coalesced sectors");
                }
                other => panic!("the record keeps the parts: {other:?}"),
            },
            other => panic!("expected an attempt, got {other:?}"),
        }
    }
}
