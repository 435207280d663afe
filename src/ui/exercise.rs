//! One exercise: the prompt with this variant's numbers, the answer (typed, picked or arranged),
//! hints one at a time, feedback, the worked explanation, "explain simply", new numbers, next.
//!
//! ```text
//! ┌ L2 · Sectors of a strided load ───────────────── coalescing ┐
//! │ A full warp (32 lanes) reads 4-byte elements …               │
//! │ Hint 1: Neighbouring lanes are 8 bytes apart.                │
//! ├ Answer ──────────────────────────────────────────────────────┤
//! │ > 8 sectors▏                                                 │
//! ├ Feedback ──────────────────────────────────────── ↑ 2 more ┤
//! │ ✓ Correct — 8 sectors.                                       │
//! └───────────────────────────────────────── ↓ 5 more · PgDn ─┘
//! ```
//!
//! An explanation is typed in a box of several rows (Enter submits, Ctrl-J or Alt-Enter starts a
//! new line). The question and the feedback each scroll when they do not fit: PgUp/PgDn scroll
//! the feedback (the question when the feedback fits), Tab switches between them when both
//! overflow, and once answered the arrows scroll too.

use super::input::{LineInput, TextBox};
use super::scroll::{self, Scroll};
use super::{Action, Component, Ctx, KeyHint};
use super::{Theme, block, rich};
use crate::content::schema::{ExerciseTemplate, Level};
use crate::i18n::Lang;
use crate::ladder::attempt::{Offer, Refusal};
use crate::ladder::variant::letter;
use crate::ladder::{
    AnswerKey, Attempt, Feedback, Input, Outcome, Record, Reply, Response, Rules, Status, Variant,
    VariantError,
};
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The exercise screen's state: what the learner has typed, picked or arranged, what is shown,
/// and the [`Attempt`] that grades it.
#[derive(Debug, Clone)]
pub struct State {
    id: String,
    title: String,
    level: Level,
    topic: String,
    /// The variant, or why it could not be made.
    variant: Result<Variant, String>,
    /// The answer so far: its parts, hints, tries, feedback, the reveal.
    attempt: Attempt,
    /// The typed answer (numbers and short text).
    input: LineInput,
    /// The typed explanation (explanation answers).
    editor: TextBox,
    /// How far the question (prompt, options, hints, analogy) is scrolled.
    prompt_scroll: Scroll,
    /// How far the feedback and the worked explanation are scrolled.
    feedback_scroll: Scroll,
    /// PgUp/PgDn scroll the question even though the feedback overflows too (Tab).
    focus_prompt: bool,
    /// Highlighted option (choice answers).
    choice: usize,
    /// Current arrangement (ordering answers): item indices, first to last.
    order: Vec<usize>,
    /// Highlighted position in the arrangement.
    order_cursor: usize,
    /// The host (a lab) takes no more answers here: the last one stays on screen.
    locked: bool,
    /// Feedback the host words itself (a lab's "not right, 2 tries left"), shown instead of the
    /// attempt's while the attempt holds its answer back.
    note: Option<Feedback>,
    /// The worked explanation is shown.
    show_explanation: bool,
    /// The topic's plain-language analogy is shown.
    show_analogy: bool,
    /// When time on this exercise was last booked (Unix seconds).
    clock_start: u64,
    /// Shown inside a lab: no saved status, no "new numbers" or hint-count lines (the lab's own
    /// status line says what is allowed).
    in_lab: bool,
    /// A one-line note for the learner (why a key did nothing).
    notice: Option<String>,
}

impl State {
    /// A fresh screen for `variant` of `template`, answered by the ladder's rules.
    pub fn new(
        template: &ExerciseTemplate,
        variant: Result<Variant, VariantError>,
        history: Vec<String>,
        now: u64,
    ) -> Self {
        let rules = Rules::ladder(template.tries());
        Self::with_attempt(template, variant, history, now, Attempt::new(rules))
    }

    /// A screen for `variant` of `template` whose answers go to `attempt` (a lab step's rules).
    pub fn with_attempt(
        template: &ExerciseTemplate,
        variant: Result<Variant, VariantError>,
        history: Vec<String>,
        now: u64,
        attempt: Attempt,
    ) -> Self {
        let variant = variant.map_err(|e| e.to_string());
        let order = match &variant {
            Ok(Variant {
                key: AnswerKey::Ordering { shown, .. },
                ..
            }) => shown.clone(),
            _ => Vec::new(),
        };
        // Options and items come last in the question: a question too long for its pane shows
        // its end, where they are.
        let mut prompt_scroll = Scroll::default();
        if !order.is_empty()
            || matches!(
                &variant,
                Ok(Variant {
                    key: AnswerKey::Choice { .. },
                    ..
                })
            )
        {
            prompt_scroll.to_end();
        }
        State {
            id: template.id.clone(),
            title: template.title.clone(),
            level: template.level,
            topic: template.topic.clone(),
            variant,
            attempt,
            input: LineInput::with_history(history),
            editor: TextBox::default(),
            prompt_scroll,
            feedback_scroll: Scroll::default(),
            focus_prompt: false,
            choice: 0,
            order,
            order_cursor: 0,
            locked: false,
            note: None,
            show_explanation: false,
            show_analogy: false,
            clock_start: now,
            in_lab: false,
            notice: None,
        }
    }

    /// The exercise id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The variant shown, or why it could not be drawn.
    pub fn variant(&self) -> Result<&Variant, &str> {
        self.variant.as_ref().map_err(String::as_str)
    }

    /// The attempt at it.
    pub fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    /// The answer box (numbers and short text).
    pub fn input(&self) -> &LineInput {
        &self.input
    }

    /// The explanation box (explanation answers).
    pub fn editor(&self) -> &TextBox {
        &self.editor
    }

    /// Whether the answer is an explanation, typed in the box of several rows.
    pub fn explains(&self) -> bool {
        matches!(
            &self.variant,
            Ok(Variant {
                key: AnswerKey::Explain { .. },
                ..
            })
        )
    }

    /// The text typed, from whichever box takes it.
    pub fn typed(&self) -> String {
        if self.explains() {
            self.editor.text()
        } else {
            self.input.text().to_string()
        }
    }

    fn clear_typed(&mut self) {
        self.input.clear();
        self.editor.clear();
    }

    /// Whether the last drawing left rows of the question or of the feedback hidden.
    pub fn overflowing(&self) -> bool {
        self.prompt_scroll.overflowing() || self.feedback_scroll.overflowing()
    }

    /// Whether both the question and the feedback hid rows (Tab switches which one scrolls).
    pub fn both_overflowing(&self) -> bool {
        self.prompt_scroll.overflowing() && self.feedback_scroll.overflowing()
    }

    /// The pane PgUp/PgDn scroll: the feedback when it overflows (unless Tab chose the
    /// question), else the question.
    fn scrolled(&mut self) -> &mut Scroll {
        let feedback = self.feedback_scroll.overflowing();
        if feedback && !(self.focus_prompt && self.prompt_scroll.overflowing()) {
            &mut self.feedback_scroll
        } else {
            &mut self.prompt_scroll
        }
    }

    /// The current arrangement of an ordering answer (item indices, first to last).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The option highlighted (choice answers).
    pub fn choice(&self) -> usize {
        self.choice
    }

    /// Whether the worked explanation is shown.
    pub fn explanation_shown(&self) -> bool {
        self.show_explanation
    }

    /// Marks the screen as shown inside a lab (its status line is the lab's).
    pub fn in_lab(mut self) -> Self {
        self.in_lab = true;
        self
    }

    /// Shows `answer` as the answer last given (a lab step reopened), picking its option again
    /// for a choice.
    pub fn show_given(&mut self, answer: &str) {
        if self.explains() {
            self.editor.set(answer);
        } else {
            self.input.set(answer);
        }
        // A choice was recorded as `b) …`: show it picked again.
        if let Some((letter, _)) = answer.split_once(") ")
            && let [byte @ b'a'..=b'z'] = letter.as_bytes()
        {
            self.choice = usize::from(byte - b'a');
        }
    }

    /// Shows or hides the worked explanation; shown after an answer, it reveals the answer.
    pub fn toggle_explanation(&mut self, lang: Lang) {
        self.show_explanation = !self.show_explanation;
        self.feedback_scroll.reset();
        if self.show_explanation {
            self.apply(Input::Explanation, lang);
        }
    }

    /// Takes no more answers: the last one stays on screen.
    pub fn lock(&mut self) {
        self.locked = true;
    }

    /// Feedback worded by the host, shown in the feedback box (`None` clears it).
    pub fn set_note(&mut self, note: Option<Feedback>) {
        self.note = note;
        self.feedback_scroll.reset();
    }

    /// The time spent since it was last booked; booking starts again at `now`.
    pub fn book_time(&mut self, now: u64) -> u64 {
        now.saturating_sub(std::mem::replace(&mut self.clock_start, now))
    }

    /// No more answers are taken: solved, out of tries, or locked by the host.
    pub fn finished(&self) -> bool {
        self.locked || self.attempt.status() == Status::Finished
    }

    /// An explanation waits for the learner's mark.
    pub fn awaiting_mark(&self) -> bool {
        !self.locked && self.attempt.status() == Status::AwaitingMark
    }

    /// The feedback shown: the host's note, or the attempt's.
    pub fn feedback(&self) -> Option<&Feedback> {
        self.note.as_ref().or_else(|| self.attempt.feedback())
    }

    /// Pasted text into the answer, when it is typed and still open (into the explanation box with
    /// its line breaks, else into the line with them as spaces); never submits.
    pub fn paste(&mut self, text: &str) {
        if !self.typing() {
            return;
        }
        if self.explains() {
            self.editor.paste(text);
        } else {
            self.input.paste(text);
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
        ) && !self.finished()
            && !self.awaiting_mark()
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

/// Keys shown in the footer (most important first) with what they do in `lang`; they depend on
/// the answer kind and state.
pub fn keys(state: &State, lang: Lang) -> Vec<KeyHint> {
    let show_me = state.variant.as_ref().is_ok_and(|v| v.show_me.is_some());
    let submit = || t!(lang, "exercise-key-submit");
    let hint = || hint_label(state, lang);
    let new_numbers = || t!(lang, "exercise-key-new-numbers");
    let explain = || t!(lang, "exercise-key-explain");
    let back = || t!(lang, "common-key-back");
    let missed_it = || t!(lang, "exercise-key-missed-it");
    // "Show answer" while the answer is still to be found on these numbers.
    let show_answer = state.attempt.rules().show_answer
        && !state.finished()
        && !state.awaiting_mark()
        && !state.attempt.revealed();
    // A fixed fact has no numbers to draw again, and a lab never draws new ones: do not offer it.
    let redraw = has_numbers(state) && !state.in_lab;
    let mut keys = if state.typing() {
        let mut keys = vec![KeyHint::new("Enter", submit())];
        if state.explains() {
            keys.push(KeyHint::new("^J", t!(lang, "exercise-key-new-line")));
        }
        keys.extend([
            KeyHint::new("^T", hint()),
            KeyHint::new("^R", new_numbers()),
            KeyHint::new("^E", explain()),
            KeyHint::new("Esc", back()),
        ]);
        keys
    } else if state.awaiting_mark() {
        if state.attempt.can_mark_had_it() {
            vec![
                KeyHint::new("y", t!(lang, "exercise-key-had-it")),
                KeyHint::new("n", missed_it()),
                KeyHint::new("e", explain()),
                KeyHint::new("q", back()),
            ]
        } else {
            vec![
                KeyHint::new("n", missed_it()),
                KeyHint::new("e", explain()),
                KeyHint::new("q", back()),
            ]
        }
    } else if state.finished() {
        vec![
            KeyHint::new("Enter/n", t!(lang, "exercise-key-next")),
            KeyHint::new("r", new_numbers()),
            KeyHint::new("e", explain()),
            KeyHint::new("q", back()),
        ]
    } else if matches!(
        &state.variant,
        Ok(Variant {
            key: AnswerKey::Ordering { .. },
            ..
        })
    ) {
        vec![
            KeyHint::new("↑↓", t!(lang, "common-key-select")),
            KeyHint::new("J/K", t!(lang, "exercise-key-move-item")),
            KeyHint::new("Enter", submit()),
            KeyHint::new("t", hint()),
            KeyHint::new("r", new_numbers()),
            KeyHint::new("q", back()),
        ]
    } else {
        vec![
            KeyHint::new("↑↓/a-d", t!(lang, "exercise-key-choose")),
            KeyHint::new("Enter", submit()),
            KeyHint::new("t", hint()),
            KeyHint::new("r", new_numbers()),
            KeyHint::new("e", explain()),
            KeyHint::new("q", back()),
        ]
    };
    if !redraw {
        keys.retain(|hint| !matches!(hint.key.as_ref(), "r" | "^R"));
    }
    if !state.variant.as_ref().is_ok_and(|v| !v.hints.is_empty()) {
        keys.retain(|hint| !matches!(hint.key.as_ref(), "t" | "^T"));
    }
    if state.overflowing() {
        // Right after the keys that answer (or move on): a pane hides rows.
        let at = keys
            .iter()
            .position(|k| k.key != "y" && k.key != "n" && k.key != "Enter" && k.key != "^J")
            .unwrap_or(keys.len())
            .max(1);
        keys.insert(at, scroll::key_hint(lang));
        if state.both_overflowing() {
            keys.insert(at + 1, KeyHint::new("Tab", t!(lang, "exercise-key-pane")));
        }
    }
    let typing = state.typing();
    if show_answer {
        // After "back": the keys that answer come first.
        let at = keys
            .iter()
            .position(|k| matches!(k.key.as_ref(), "Esc" | "q"))
            .map_or(keys.len(), |i| i + 1);
        let key = if typing { "^S" } else { "s" };
        keys.insert(at, KeyHint::new(key, t!(lang, "exercise-key-show-answer")));
    }
    if show_me {
        let key = if typing { "^O" } else { "o" };
        keys.push(KeyHint::new(key, t!(lang, "exercise-key-show-me")));
    }
    if typing {
        keys.push(KeyHint::new("^Y", t!(lang, "exercise-key-simply")));
    } else if !state.awaiting_mark() {
        keys.push(KeyHint::new("y", t!(lang, "exercise-key-simply")));
    }
    if typing {
        keys.push(KeyHint::new("^N", t!(lang, "exercise-key-next")));
    } else if !state.awaiting_mark() && !state.finished() {
        keys.push(KeyHint::new("n/p", t!(lang, "exercise-key-next-previous")));
    } else if state.finished() {
        keys.push(KeyHint::new("p", t!(lang, "exercise-key-previous")));
    }
    if typing && !state.explains() {
        keys.push(KeyHint::new("↑↓", t!(lang, "exercise-key-past-answers")));
    }
    if typing {
        keys.push(KeyHint::new("F1", t!(lang, "common-key-help")));
    } else {
        keys.push(KeyHint::new("?", t!(lang, "common-key-help")));
    }
    keys
}

/// What the hint key does: the next hint of how many (`hint 1/2`), or that none is left.
pub fn hint_label(state: &State, lang: Lang) -> String {
    let total = state.variant.as_ref().map_or(0, |v| v.hints.len());
    let shown = (state.attempt.hints() as usize).min(total);
    if shown < total {
        t!(
            lang,
            "exercise-key-hint-count",
            next = shown + 1,
            total = total
        )
    } else {
        t!(lang, "exercise-key-hint-none")
    }
}

/// Whether the variant has numbers drawn from the seed (a fixed-fact question has none).
fn has_numbers(state: &State) -> bool {
    state.variant.as_ref().is_ok_and(|v| !v.params.is_empty())
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
    ShowAnswer,
    /// A scrolling key for the pane PgUp/PgDn move (arrows too, where `true`).
    Scroll(KeyEvent, bool),
    /// Tab: PgUp/PgDn scroll the other pane.
    Pane,
}

fn command(state: &State, key: KeyEvent) -> Option<Command> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::PageDown | KeyCode::PageUp => return Some(Command::Scroll(key, false)),
        KeyCode::Tab => return Some(Command::Pane),
        _ => {}
    }
    if ctrl {
        return match key.code {
            KeyCode::Char('n') => Some(Command::Next(1)),
            KeyCode::Char('t') => Some(Command::Hint),
            KeyCode::Char('r') => Some(Command::Reroll),
            KeyCode::Char('e') => Some(Command::Explanation),
            KeyCode::Char('y') => Some(Command::Simply),
            KeyCode::Char('o') => Some(Command::ShowMe),
            KeyCode::Char('s') => Some(Command::ShowAnswer),
            _ if state.typing() => Some(Command::Edit(key)),
            _ => None,
        };
    }
    if state.typing() {
        return Some(match key.code {
            KeyCode::Enter if state.explains() && TextBox::is_newline(&key) => Command::Edit(key),
            KeyCode::Enter => Command::Submit,
            _ => Command::Edit(key),
        });
    }
    // Once answered, the arrows move nothing else: they scroll.
    let scrolling = matches!(
        key.code,
        KeyCode::Up
            | KeyCode::Down
            | KeyCode::Char('j')
            | KeyCode::Char('k')
            | KeyCode::Home
            | KeyCode::End
    );
    if scrolling && (state.finished() || state.awaiting_mark()) {
        return Some(Command::Scroll(key, true));
    }
    if state.awaiting_mark() {
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
        KeyCode::Char('s') => Some(Command::ShowAnswer),
        KeyCode::Char('n') | KeyCode::Enter if state.finished() => Some(Command::Next(1)),
        KeyCode::Char('n') => Some(Command::Next(1)),
        KeyCode::Char('p') => Some(Command::Next(-1)),
        KeyCode::Enter => Some(Command::Submit),
        KeyCode::Char('K') => Some(Command::MoveItem(-1)),
        KeyCode::Char('J') => Some(Command::MoveItem(1)),
        KeyCode::Up if shift => Some(Command::MoveItem(-1)),
        KeyCode::Down if shift => Some(Command::MoveItem(1)),
        KeyCode::Up | KeyCode::Char('k') => Some(Command::Select(-1)),
        KeyCode::Down | KeyCode::Char('j') => Some(Command::Select(1)),
        KeyCode::Char(c @ '1'..='9') => Some(Command::Pick(c as usize - '1' as usize)),
        KeyCode::Char(c @ 'a'..='d')
            if matches!(
                &state.variant,
                Ok(Variant {
                    key: AnswerKey::Choice { .. },
                    ..
                })
            ) && !state.finished() =>
        {
            Some(Command::Pick(c as usize - 'a' as usize))
        }
        _ => None,
    }
}

impl State {
    /// Handles a key: changes this screen and returns what the app must do (record an attempt, a
    /// hint, open another exercise or the explorer).
    pub fn handle(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        let id = self.id.clone();
        let command = command(self, key)?;
        match command {
            Command::Scroll(key, arrows) => {
                self.scrolled().key(&key, arrows);
                return None;
            }
            Command::Pane => {
                self.focus_prompt = !self.focus_prompt;
                return None;
            }
            Command::Edit(_) | Command::Select(_) | Command::Pick(_) | Command::MoveItem(_) => {}
            // Anything else changes what the feedback says: it is read from its top.
            _ => self.feedback_scroll.reset(),
        }
        self.notice = None;
        match command {
            Command::Scroll(..) | Command::Pane => None,
            Command::Edit(key) => {
                if self.explains() {
                    self.editor.edit(&key);
                } else {
                    self.input.edit(&key);
                }
                None
            }
            Command::Submit => self.submit(ctx.now, ctx.lang),
            Command::Hint => match self.apply(Input::Hint, ctx.lang) {
                Reply::Hint => {
                    // The new hint is the question pane's last line: show it.
                    self.prompt_scroll.to_end();
                    Some(Action::HintShown(id))
                }
                Reply::Ignored(Some(Refusal::NoMoreHints)) => {
                    let none = self.variant.as_ref().is_ok_and(|v| v.hints.is_empty());
                    self.notice = Some(if none {
                        t!(ctx.lang, "exercise-no-hints")
                    } else {
                        t!(ctx.lang, "exercise-no-more-hints")
                    });
                    None
                }
                _ => None,
            },
            Command::ShowAnswer => {
                if self.apply(Input::ShowAnswer, ctx.lang) == Reply::AnswerShown {
                    self.show_explanation = true;
                }
                None
            }
            Command::Reroll if !has_numbers(self) => {
                let key = if self.typing() { "Ctrl-N" } else { "n" };
                self.notice = Some(t!(ctx.lang, "exercise-fixed-fact", key = key));
                None
            }
            Command::Reroll => Some(Action::Reroll(id)),
            Command::Explanation => {
                self.toggle_explanation(ctx.lang);
                None
            }
            Command::Simply => {
                self.show_analogy = !self.show_analogy;
                None
            }
            Command::Next(by) => Some(Action::Step { id, by }),
            Command::Select(delta) => {
                match &self.variant {
                    Ok(Variant {
                        key: AnswerKey::Choice { options, .. },
                        ..
                    }) => self.choice = step(self.choice, delta, options.len()),
                    Ok(Variant {
                        key: AnswerKey::Ordering { items, .. },
                        ..
                    }) => self.order_cursor = step(self.order_cursor, delta, items.len()),
                    _ => {}
                }
                None
            }
            Command::Pick(index) => {
                if let Ok(Variant {
                    key: AnswerKey::Choice { options, .. },
                    ..
                }) = &self.variant
                    && index < options.len()
                {
                    self.choice = index;
                }
                None
            }
            Command::MoveItem(delta) => {
                let to = step(self.order_cursor, delta, self.order.len());
                if to != self.order_cursor {
                    self.order.swap(self.order_cursor, to);
                    self.order_cursor = to;
                }
                None
            }
            Command::ShowMe if self.attempt.attempts() == 0 && !self.finished() => {
                if self.variant.as_ref().is_ok_and(|v| v.show_me.is_some()) {
                    self.notice = Some(t!(ctx.lang, "exercise-show-me-later"));
                }
                None
            }
            Command::ShowMe => self
                .variant
                .as_ref()
                .ok()
                .and_then(|v| v.show_me.clone())
                .map(Action::ShowMe),
            Command::Mark(had_it) => match self.apply(Input::Mark(had_it), ctx.lang) {
                Reply::Ignored(Some(Refusal::CannotMarkHadIt)) => {
                    self.notice = Some(t!(ctx.lang, "exercise-cannot-mark-had"));
                    None
                }
                Reply::Recorded(record) => {
                    if !had_it {
                        self.clear_typed();
                    }
                    Some(self.recorded(record, ctx.now))
                }
                _ => None,
            },
        }
    }

    /// Applies an input to the attempt at the variant shown (nothing without a variant).
    pub fn apply(&mut self, input: Input<'_>, lang: Lang) -> Reply {
        match &self.variant {
            Ok(variant) => self.attempt.apply(variant, input, lang),
            Err(_) => Reply::Ignored(None),
        }
    }

    /// The action that records `record`; time is booked from here on.
    fn recorded(&mut self, record: Record, now: u64) -> Action {
        let since = std::mem::replace(&mut self.clock_start, now);
        Action::Attempt {
            id: self.id.clone(),
            record,
            since,
        }
    }

    /// Submits the answer on screen — the typed text, the option picked or the arrangement — to
    /// the attempt. What it replied is returned for a host (a lab) to record its own way.
    pub fn submit_answer(&mut self, lang: Lang) -> Reply {
        let Ok(variant) = &self.variant else {
            return Reply::Ignored(None);
        };
        let answer = self.typed();
        let response = match &variant.key {
            _ if self.attempt.part() < variant.key.parts().len() => Response::Text(&answer),
            AnswerKey::Choice { .. } => Response::Choice(self.choice),
            AnswerKey::Ordering { .. } => Response::Order(&self.order),
            _ => Response::Text(&answer),
        };
        self.note = None;
        let reply = self.attempt.apply(variant, Input::Answer(response), lang);
        match &reply {
            Reply::Part => {
                self.input.remember(&answer);
                self.clear_typed();
            }
            Reply::Recorded(record) => {
                self.input.remember(&answer);
                if record.outcome != Outcome::Correct
                    && self.attempt.rules().verdicts
                    && self.typing()
                {
                    self.clear_typed();
                }
            }
            _ => {}
        }
        reply
    }

    fn submit(&mut self, now: u64, lang: Lang) -> Option<Action> {
        match self.submit_answer(lang) {
            Reply::Recorded(record) => Some(self.recorded(record, now)),
            _ => None,
        }
    }
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.handle(key, ctx)
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        keys(self, lang)
    }

    /// While typing, keys are text — except Esc (back) and `?` where it cannot be part of the
    /// answer (help).
    fn captures(&self, key: &KeyEvent) -> bool {
        self.typing()
            && match key.code {
                KeyCode::Esc => false,
                KeyCode::Char('?') => question_mark_is_text(self),
                _ => true,
            }
    }

    fn handle_paste(&mut self, text: &str, _ctx: &Ctx) -> Option<Action> {
        self.paste(text);
        None
    }
}

fn step(at: usize, delta: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    at.saturating_add_signed(delta).min(len - 1)
}

/// Draws the exercise screen.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let lang = ctx.lang;
    let progress = ctx.progress.of(&state.id);
    let status = if progress.solved {
        t!(lang, "exercise-status-solved")
    } else if progress.seen {
        t!(lang, "exercise-status-seen")
    } else if progress.attempts > 0 {
        t!(lang, "exercise-status-attempted")
    } else {
        t!(lang, "exercise-status-new")
    };
    let title = super::marked_title(
        ctx,
        crate::content::i18n::ItemKind::Exercise,
        &state.id,
        format!("{} · {}", state.level.key(), state.title),
    );
    let corner = if state.in_lab {
        format!(" {} ", state.topic)
    } else {
        format!(" {} · {status} ", state.topic)
    };
    let outer = block(&title, theme).title_top(Line::styled(corner, theme.dim()).right_aligned());
    let inner = outer.inner(area);
    outer.render(area, buf);
    let variant = match &state.variant {
        Ok(variant) => variant,
        Err(message) => {
            let lines = vec![
                Line::styled(t!(lang, "exercise-broken"), theme.bad()),
                Line::from(message.clone()),
                Line::from(t!(lang, "exercise-broken-check")),
            ];
            let room = super::wrap_room(&lines, inner);
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .render(room, buf);
            return;
        }
    };

    // The question, the options or items, hints, analogy.
    let mut top: Vec<Line> = variant.prompt.split('\n').map(|p| rich(p, theme)).collect();
    match &variant.key {
        AnswerKey::Choice {
            options, correct, ..
        } => {
            top.push(Line::from(""));
            for (i, option) in options.iter().enumerate() {
                let selected = i == state.choice;
                let mark = if state.finished() && correct.contains(&i) {
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
        AnswerKey::Explain { checks, .. } if !checks.is_empty() => {
            // Parts answered are summed up in one line; the part asked is shown in full.
            let total = checks.len() + 1;
            top.push(Line::from(""));
            if state.attempt.part() > 0 {
                let done = (0..state.attempt.part().min(checks.len()))
                    .map(|i| {
                        let mark = if state.attempt.parts_right().get(i) == Some(&true) {
                            "✓"
                        } else {
                            "✗"
                        };
                        format!("{} {mark}", t!(lang, "exercise-part", n = i + 1))
                    })
                    .collect::<Vec<_>>()
                    .join(" · ");
                top.push(Line::styled(done, theme.dim()));
            }
            match checks.get(state.attempt.part()) {
                Some(part) => {
                    top.push(Line::styled(
                        format!(
                            "▸ {}",
                            t!(
                                lang,
                                "exercise-part-exact",
                                n = state.attempt.part() + 1,
                                total = total,
                                prompt = part.prompt.clone()
                            )
                        ),
                        theme.title(),
                    ));
                    if let AnswerKey::Choice { options, .. } = &part.key {
                        for (j, option) in options.iter().enumerate() {
                            top.push(rich(&format!("    {}) {option}", letter(j)), theme));
                        }
                    }
                }
                None => top.push(Line::styled(
                    format!("▸ {}", t!(lang, "exercise-part-explain", total = total)),
                    theme.title(),
                )),
            }
        }
        AnswerKey::Ordering { items, by, .. } => {
            top.push(Line::styled(
                t!(
                    lang,
                    "exercise-arrange",
                    by = by
                        .clone()
                        .unwrap_or_else(|| t!(lang, "exercise-arrange-default"))
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
    for (i, hint) in variant
        .hints
        .iter()
        .take(state.attempt.hints() as usize)
        .enumerate()
    {
        let mut line = rich(hint, theme);
        line.spans.insert(
            0,
            Span::styled(
                format!("{} ", t!(lang, "exercise-hint", n = i + 1)),
                theme.warn(),
            ),
        );
        top.push(line);
    }
    if state.attempt.hints() == 0
        && !state.in_lab
        && !state.finished()
        && !variant.hints.is_empty()
        && state.feedback().is_none()
    {
        top.push(Line::styled(
            t!(lang, "exercise-hints-available", n = variant.hints.len()),
            theme.dim(),
        ));
    }
    if state.show_analogy
        && let Some(topic) = ctx.content.topic(&state.topic)
    {
        top.push(Line::from(vec![
            Span::styled(format!("{} ", t!(lang, "common-simply")), theme.title()),
            Span::raw(topic.analogy.clone()),
        ]));
    }

    // Feedback and explanation.
    let mut bottom: Vec<Line> = Vec::new();
    if let Some(notice) = &state.notice {
        bottom.push(Line::styled(notice.clone(), theme.warn()));
    }
    if let Some(feedback) = state.feedback() {
        let (mark, style) = match feedback.outcome {
            Outcome::Correct => ("✓ ", theme.good()),
            Outcome::Wrong => ("✗ ", theme.bad()),
            Outcome::Unusable => ("? ", theme.warn()),
            Outcome::Compare => ("◇ ", theme.title()),
        };
        // Feedback quotes options and answers that carry `code` marks: draw them as code, in the
        // outcome's colour elsewhere.
        let mut headline = rich(&feedback.headline, theme);
        for span in &mut headline.spans {
            if span.style == Style::default() {
                span.style = style;
            }
        }
        headline.spans.insert(0, Span::styled(mark, style));
        bottom.push(headline);
        // A wrong answer with its answer held back: what to do next.
        if let Some(offer) = state.attempt.offer().filter(|_| !state.in_lab) {
            let show = if state.typing() { "Ctrl-S" } else { "s" };
            let tries = state.attempt.tries_before_reveal();
            bottom.push(Line::styled(
                match offer {
                    Offer::Hint(n) => {
                        t!(lang, "exercise-held-hint", n = n, tries = tries, key = show)
                    }
                    Offer::NoMoreHints | Offer::AskHint => {
                        t!(lang, "exercise-held-no-hints", tries = tries, key = show)
                    }
                },
                theme.warn(),
            ));
        }
        if let Some(model) = &feedback.model {
            let mut line = rich(model, theme);
            line.spans.insert(
                0,
                Span::styled(
                    format!("{} ", t!(lang, "exercise-model-answer")),
                    theme.title(),
                ),
            );
            bottom.push(line);
            if state.awaiting_mark() {
                bottom.push(Line::styled(
                    if state.attempt.can_mark_had_it() {
                        t!(lang, "exercise-mark-ask")
                    } else {
                        t!(lang, "exercise-mark-none")
                    },
                    theme.key(),
                ));
            }
        } else if feedback.outcome == Outcome::Wrong
            && !state.show_explanation
            && !feedback.why.is_empty()
        {
            bottom.push(rich(
                &format!("{} {}", t!(lang, "exercise-why"), feedback.why),
                theme,
            ));
        }
        if feedback.outcome == Outcome::Correct
            && state.attempt.revealed()
            && !progress.solved
            && !state.in_lab
        {
            let reroll = if state.typing() { "Ctrl-R" } else { "r" };
            bottom.push(Line::styled(
                if has_numbers(state) {
                    t!(lang, "exercise-seen-reroll", key = reroll)
                } else {
                    t!(lang, "exercise-seen-later")
                },
                theme.dim(),
            ));
        }
        if feedback.outcome == Outcome::Wrong
            && feedback.model.is_none()
            && !feedback.why.is_empty()
            && !state.in_lab
        {
            let reroll = if state.typing() { "Ctrl-R" } else { "r" };
            bottom.push(Line::styled(
                if has_numbers(state) {
                    t!(lang, "exercise-why-reroll", key = reroll)
                } else {
                    t!(
                        lang,
                        "exercise-why-next",
                        key = if state.typing() { "Ctrl-N" } else { "n" }
                    )
                },
                theme.dim(),
            ));
        }
    }
    if state.attempt.answer_shown()
        && !state
            .feedback()
            .is_some_and(|f| f.outcome == Outcome::Wrong && !f.expected.is_empty())
    {
        bottom.push(rich(
            &t!(
                lang,
                "exercise-answer-shown",
                answer = variant.key.display_in(lang)
            ),
            theme,
        ));
    }
    if state.show_explanation {
        if state.attempt.attempts() > 0
            || state.finished()
            || progress.attempts > 0
            || state.attempt.answer_shown()
        {
            bottom.push(rich(
                &format!("{} {}", t!(lang, "exercise-worked"), variant.explanation),
                theme,
            ));
        } else {
            bottom.push(Line::styled(t!(lang, "exercise-worked-later"), theme.dim()));
        }
    }

    let typed = matches!(
        variant.key,
        AnswerKey::Number { .. } | AnswerKey::Text { .. } | AnswerKey::Explain { .. }
    );
    let explains = state.explains();
    // An explanation's box grows with the text, from two rows to five (its own rows scroll
    // around the cursor beyond that).
    let input_height = if !typed {
        0
    } else if explains {
        let rows = state.editor.rows(inner.width.saturating_sub(2));
        let least = if state.typing() { 2 } else { 1 };
        rows.clamp(least, 5) + 2
    } else {
        3
    };
    let available = inner.height.saturating_sub(input_height);
    // The question sits on top with the answer right below it; feedback follows. The question
    // keeps four rows at least when the feedback is long; either scrolls when it does not fit.
    let needed = scroll::rows(&top, super::wrap_room(&top, inner).width);
    let bottom_height = if bottom.is_empty() {
        0
    } else {
        let width = super::wrap_room(&bottom, inner).width.saturating_sub(2);
        (scroll::rows(&bottom, width) + 2)
            .min(available.saturating_sub(needed.min(4)).max(available / 2))
    };
    let top_height = needed.min(available.saturating_sub(bottom_height));
    let [top_area, input_area, bottom_area, _] = inner.layout(&Layout::vertical([
        Constraint::Length(top_height),
        Constraint::Length(input_height),
        Constraint::Length(bottom_height),
        Constraint::Fill(1),
    ]));
    scroll::render(top, None, &state.prompt_scroll, theme, lang, top_area, buf);

    if typed {
        let label = if state.finished() {
            t!(lang, "exercise-your-answer")
        } else {
            t!(lang, "exercise-answer")
        };
        let mut input_block = block(&label, theme);
        if explains && state.typing() {
            input_block = input_block.title_bottom(
                Line::styled(
                    format!(" {} ", t!(lang, "exercise-new-line-note")),
                    theme.dim(),
                )
                .right_aligned(),
            );
        }
        let field = input_block.inner(input_area);
        input_block.render(input_area, buf);
        if explains {
            state.editor.render(state.typing(), theme.dim(), field, buf);
        } else {
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
    }
    if bottom.is_empty() {
        // Nothing below: nothing hidden there either.
        scroll::measure(&state.feedback_scroll, 0, 0);
    } else {
        scroll::render(
            bottom,
            Some(block(&t!(lang, "exercise-feedback"), theme)),
            &state.feedback_scroll,
            theme,
            lang,
            bottom_area,
            buf,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::progress::Progress;
    use crate::ui::ctx::{key, test_ctx};

    fn open(content: &Content, id: &str) -> State {
        let template = content.exercise(id).expect("a built-in exercise");
        State::new(
            template,
            crate::ladder::generate(template, 3),
            Vec::new(),
            100,
        )
    }

    fn type_in(state: &mut State, text: &str, ctx: &Ctx) {
        for c in text.chars() {
            assert_eq!(state.handle_key(key(KeyCode::Char(c)), ctx), None);
        }
    }

    fn ctrl(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)
    }

    #[test]
    fn answers_become_attempts_and_nonsense_does_not() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let mut exercise = open(&content, "l1-sector-size");
        type_in(&mut exercise, "lots", &ctx);
        assert_eq!(exercise.handle_key(key(KeyCode::Enter), &ctx), None);
        assert_eq!(
            exercise.attempt.attempts(),
            0,
            "an unusable answer is no attempt"
        );
        assert_eq!(
            exercise.input.text(),
            "lots",
            "and the text stays to be fixed"
        );
        exercise.input.clear();
        type_in(&mut exercise, "64 B", &ctx);
        match exercise.handle_key(key(KeyCode::Enter), &ctx) {
            Some(Action::Attempt { id, record, since }) => {
                assert_eq!((id.as_str(), since), ("l1-sector-size", 100));
                assert_eq!(record.shown, "64 B");
                assert_eq!(record.outcome, Outcome::Wrong);
                assert!(!record.revealed);
            }
            other => panic!("expected an attempt, got {other:?}"),
        }
        assert_eq!(
            exercise.clock_start, ctx.now,
            "time is booked from the attempt on"
        );
        assert_eq!(exercise.input.text(), "", "a wrong answer clears the box");
        type_in(&mut exercise, "32 bytes", &ctx);
        assert!(matches!(
            exercise.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::Attempt { record, .. }) if record.outcome == Outcome::Correct
        ));
        assert!(exercise.finished() && !exercise.typing());
        assert_eq!(
            exercise.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::Step {
                id: "l1-sector-size".into(),
                by: 1
            }),
            "Enter after solving moves on"
        );
    }

    #[test]
    fn hints_come_one_at_a_time_and_stop_at_the_last() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let mut exercise = open(&content, "l1-sector-size");
        let hints = exercise.variant().map_or(0, |v| v.hints.len());
        assert!(hints >= 2);
        for shown in 1..=hints {
            assert_eq!(
                exercise.handle_key(ctrl('t'), &ctx),
                Some(Action::HintShown("l1-sector-size".into()))
            );
            assert_eq!(exercise.attempt.hints() as usize, shown);
        }
        assert_eq!(exercise.handle_key(ctrl('t'), &ctx), None);
        // A fixed fact has no numbers to change: new numbers say so instead of re-rolling.
        assert_eq!(exercise.handle_key(ctrl('r'), &ctx), None);
        assert!(exercise.notice.is_some());
        let mut numbers = open(&content, "l2-stride-sectors");
        assert_eq!(
            numbers.handle_key(ctrl('r'), &ctx),
            Some(Action::Reroll("l2-stride-sectors".into()))
        );
        assert_eq!(
            exercise.handle_key(ctrl('n'), &ctx),
            Some(Action::Step {
                id: "l1-sector-size".into(),
                by: 1
            }),
            "Ctrl-N moves on while typing"
        );
        assert_eq!(
            exercise.handle_key(key(KeyCode::PageUp), &ctx),
            None,
            "PgUp scrolls"
        );
    }

    #[test]
    fn while_typing_esc_and_help_stay_global_but_letters_are_text() {
        let content = Content::builtin();
        let mut exercise = open(&content, "l1-sector-size");
        assert!(!exercise.captures(&key(KeyCode::Esc)));
        assert!(!exercise.captures(&key(KeyCode::Char('?'))));
        assert!(exercise.captures(&key(KeyCode::Char('q'))));
        assert!(exercise.captures(&key(KeyCode::Char('/'))));
        exercise.lock();
        assert!(
            !exercise.captures(&key(KeyCode::Char('q'))),
            "q goes back once solved"
        );
    }

    #[test]
    fn show_me_hands_the_variants_numbers_to_the_app() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let mut exercise = open(&content, "l2-stride-sectors");
        let expected = exercise
            .variant
            .as_ref()
            .ok()
            .and_then(|v| v.show_me.clone());
        assert!(expected.is_some());
        // Before a first answer the diagram would give the answer away.
        assert_eq!(exercise.handle_key(ctrl('o'), &ctx), None);
        assert!(exercise.notice.is_some());
        type_in(&mut exercise, "1", &ctx);
        exercise.handle_key(key(KeyCode::Enter), &ctx);
        assert_eq!(
            exercise.handle_key(ctrl('o'), &ctx),
            expected.map(Action::ShowMe)
        );
    }

    #[test]
    fn choices_move_within_the_options() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let mut exercise = open(&content, "l3-limiter");
        let options = match &exercise.variant {
            Ok(Variant {
                key: AnswerKey::Choice { options, .. },
                ..
            }) => options.len(),
            other => panic!("l3-limiter is a choice: {other:?}"),
        };
        for _ in 0..20 {
            exercise.handle_key(key(KeyCode::Down), &ctx);
        }
        assert_eq!(exercise.choice, options - 1);
        exercise.handle_key(key(KeyCode::Char('1')), &ctx);
        assert_eq!(exercise.choice, 0);
        exercise.handle_key(key(KeyCode::Char('9')), &ctx);
        assert_eq!(exercise.choice, 0, "a digit past the options is ignored");
        assert!(matches!(
            exercise.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::Attempt { .. })
        ));
    }

    #[test]
    fn new_numbers_are_offered_only_where_there_are_numbers() {
        let content = Content::builtin();
        let fixed = open(&content, "l1-sector-size");
        let new_numbers = t!(Lang::En, "exercise-key-new-numbers");
        assert!(
            !keys(&fixed, Lang::En)
                .iter()
                .any(|k| k.action == new_numbers)
        );
        let drawn = open(&content, "l2-stride-sectors");
        assert!(keys(&drawn, Lang::En).contains(&KeyHint::new("^R", new_numbers)));
    }
}
