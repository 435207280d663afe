//! Review: the cards due, one at a time. Space or Enter shows the back; 1–4 rate it (each button says
//! when the card would come back); `u` undoes, `s` suspends, `b` buries. A drill card draws new
//! numbers: the learner types the answer, the engine grades it, and a rating is proposed.
//!
//! ```text
//! ┌ Review · Shared-memory banks ──────────────── new 12 · learning 1 · due 3 ┐
//! │What is the conflict degree of a 4-byte load at stride `s` words?         │
//! │────────────────────────────────────────────────────────────────────────── │
//! │`gcd(s, 32)`: stride 2 → 2-way, …                                          │
//! │                                                                           │
//! │1 Again · 1m   2 Hard · 6m   3 Good · 10m   4 Easy · 3d                    │
//! └───────────────────────────────────────────────────────────────────────────┘
//! ```

use super::input::LineInput;
use super::scroll::{self, Scroll};
use super::{Action, Component, Ctx, KeyHint, Theme, block, rich};
use crate::content::Content;
use crate::i18n::Lang;
use crate::ladder::{Attempt, Input, Outcome, Reply, Response, Rules, Variant};
use crate::srs::deck::Preview;
use crate::srs::log::DrillAnswer;
use crate::srs::{Deck, Phase, Rating, drill};
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Keys shown in the footer before the answer is shown.
pub fn keys_front(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("Space/Enter", t!(lang, "review-key-show-answer")),
        KeyHint::new("u", t!(lang, "review-key-undo")),
        KeyHint::new("s", t!(lang, "review-key-suspend")),
        KeyHint::new("b", t!(lang, "review-key-bury")),
        KeyHint::new("q", t!(lang, "review-key-back")),
    ]
}

/// Keys shown in the footer once the answer is shown.
pub fn keys_back(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("1-4", t!(lang, "review-key-rate")),
        KeyHint::new("Space", t!(lang, "review-key-good")),
        KeyHint::new("u", t!(lang, "review-key-undo")),
        KeyHint::new("s", t!(lang, "review-key-suspend")),
        KeyHint::new("b", t!(lang, "review-key-bury")),
        KeyHint::new("q", t!(lang, "review-key-back")),
    ]
}

/// Keys shown while a drill answer is typed.
pub fn keys_drill(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("Enter", t!(lang, "review-key-check")),
        KeyHint::new("^T", t!(lang, "review-key-hint")),
        KeyHint::new("Esc", t!(lang, "review-key-back")),
    ]
}

/// Keys shown after a drill answer was graded.
pub fn keys_graded(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("Enter/Space", t!(lang, "review-key-accept")),
        KeyHint::new("1-4", t!(lang, "review-key-choose")),
        KeyHint::new("u", t!(lang, "review-key-undo")),
        KeyHint::new("q", t!(lang, "review-key-back")),
    ]
}

/// Keys shown when nothing is left.
pub fn keys_done(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("u", t!(lang, "review-key-undo")),
        KeyHint::new("q", t!(lang, "review-key-back")),
    ]
}

/// A drill card being answered.
#[derive(Debug, Clone)]
pub struct Drill {
    /// The variant drawn for this review.
    pub variant: Variant,
    /// The answer being typed.
    pub input: LineInput,
    /// The answer: one try, graded and explained (hints, feedback, the reveal).
    pub attempt: Attempt,
    /// The answer as checked.
    pub answer: String,
    /// The rating proposed from the grade, hints and time.
    pub proposed: Option<Rating>,
}

impl Drill {
    /// Whether the answer has been checked (the card's back is shown).
    pub fn checked(&self) -> bool {
        !self.attempt.open()
    }
}

/// A change the learner made in this session, as undo takes it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Rated, taking this many milliseconds.
    Rated(Rating, u64),
    /// Suspended.
    Suspended,
    /// Buried until tomorrow.
    Buried,
}

/// The review session's state.
#[derive(Debug, Clone)]
pub struct State {
    /// The card shown (index in the deck); `None` when the session is done.
    card: Option<usize>,
    /// The back is shown.
    revealed: bool,
    /// When the card was shown (UTC ms).
    shown_ms: i64,
    /// The drill, for a drill card.
    drill: Option<Drill>,
    /// Cards rated in this session.
    reviewed: u32,
    /// Of those, rated Again.
    again: u32,
    /// Milliseconds spent on rated cards.
    spent_ms: u64,
    /// This session's changes, oldest first (undo takes the last back).
    changes: Vec<Change>,
    /// Cards suspended in this session (and not taken back).
    suspended: u32,
    /// Cards buried in this session (and not taken back).
    buried: u32,
    /// What loading the review found (a damaged or cut-off log, why nothing is saved): shown until
    /// the first change is saved.
    notices: Vec<String>,
    /// A message (a rating that could not be saved, a drill that could not be drawn).
    message: Option<String>,
    /// Feedback on the last change (a card suspended, buried, a rating taken back).
    feedback: Option<String>,
    /// How far the card is scrolled.
    scroll: Scroll,
}

impl State {
    /// A session on `deck`'s next card.
    pub fn start(deck: &Deck, content: &Content) -> State {
        let mut state = State {
            card: None,
            revealed: false,
            shown_ms: 0,
            drill: None,
            reviewed: 0,
            again: 0,
            spent_ms: 0,
            changes: Vec::new(),
            suspended: 0,
            buried: 0,
            notices: deck.notices().to_vec(),
            message: None,
            feedback: None,
            scroll: Scroll::default(),
        };
        state.show(deck.next_card(), deck, content);
        state
    }

    /// Shows `card` (front first), drawing a drill variant if it is a drill card.
    fn show(&mut self, card: Option<usize>, deck: &Deck, content: &Content) {
        let now = deck.clock().now_ms();
        self.card = card;
        self.revealed = false;
        self.scroll.reset();
        self.shown_ms = now;
        self.drill = None;
        let Some(deck_card) = card.and_then(|i| deck.cards().get(i)) else {
            return;
        };
        if let Some(exercise) = deck_card.drill.as_deref() {
            let drawn = content
                .exercise(exercise)
                .ok_or_else(|| format!("drill `{exercise}` is not an exercise"))
                .and_then(|template| {
                    drill::draw(&deck_card.id, template, drill::seed_for(&deck_card.id, now))
                        .map_err(|e| e.to_string())
                });
            match drawn {
                Ok(variant) => {
                    self.drill = Some(Drill {
                        variant,
                        input: LineInput::default(),
                        attempt: Attempt::new(Rules::DRILL),
                        answer: String::new(),
                        proposed: None,
                    })
                }
                Err(message) => self.message = Some(message),
            }
        }
    }

    /// After a change was saved: counts it, says what it did (a suspension or burial), and shows
    /// the next card.
    pub fn changed(&mut self, change: Change, deck: &Deck, content: &Content, lang: Lang) {
        match change {
            Change::Rated(rating, duration_ms) => {
                self.reviewed += 1;
                if rating == Rating::Again {
                    self.again += 1;
                }
                self.spent_ms = self.spent_ms.saturating_add(duration_ms);
                self.feedback = None;
            }
            Change::Suspended => {
                self.suspended += 1;
                self.feedback = Some(t!(lang, "review-suspended"));
            }
            Change::Buried => {
                self.buried += 1;
                self.feedback = Some(t!(lang, "review-buried"));
            }
        }
        self.changes.push(change);
        self.notices.clear();
        self.message = None;
        self.show(deck.next_card(), deck, content);
    }

    /// A change asked for could not be carried out (a rating not saved, nothing to undo): `message`
    /// says why, above the card.
    pub fn failed(&mut self, message: String) {
        self.message = Some(message);
    }

    /// After an undo: the last change of this session (a rating, a suspension, a burial) no longer
    /// counts, and `card` is shown again.
    pub fn undone(&mut self, card: Option<usize>, deck: &Deck, content: &Content, lang: Lang) {
        let feedback = match self.changes.pop() {
            Some(Change::Rated(rating, duration_ms)) => {
                self.reviewed = self.reviewed.saturating_sub(1);
                if rating == Rating::Again {
                    self.again = self.again.saturating_sub(1);
                }
                self.spent_ms = self.spent_ms.saturating_sub(duration_ms);
                t!(lang, "review-undone-rating")
            }
            Some(Change::Suspended) => {
                self.suspended = self.suspended.saturating_sub(1);
                t!(lang, "review-undone-suspend")
            }
            Some(Change::Buried) => {
                self.buried = self.buried.saturating_sub(1);
                t!(lang, "review-undone-bury")
            }
            // A change of an earlier session.
            None => t!(lang, "review-undone-earlier"),
        };
        self.notices.clear();
        self.message = None;
        self.show(card.or_else(|| deck.next_card()), deck, content);
        self.feedback = Some(feedback);
    }

    /// Ends the session early: the summary is shown (Esc or q on it goes back).
    pub fn finish(&mut self) {
        self.card = None;
        self.drill = None;
        self.revealed = false;
        self.message = None;
        self.feedback = None;
    }

    /// Ratings made in this session and not taken back.
    pub fn reviewed(&self) -> u32 {
        self.reviewed
    }

    /// The notice and feedback lines shown above the card.
    pub fn feedback(&self) -> Option<&str> {
        self.feedback.as_deref()
    }

    /// The card shown (its index in the deck); `None` once the session is done.
    pub fn card(&self) -> Option<usize> {
        self.card
    }

    /// Whether the back of the card is shown.
    pub fn revealed(&self) -> bool {
        self.revealed
    }

    /// The drill, for a drill card.
    pub fn drill(&self) -> Option<&Drill> {
        self.drill.as_ref()
    }

    /// Pasted text into the drill answer being typed, if one is; never checks it.
    pub fn paste(&mut self, text: &str) {
        if let Some(drill) = self.drill.as_mut().filter(|d| !d.checked()) {
            drill.input.paste(text);
        }
    }

    /// Whether a drill answer is being typed.
    pub fn typing(&self) -> bool {
        self.drill.as_ref().is_some_and(|d| !d.checked())
    }

    fn rate(&self, card: usize, rating: Rating, now_ms: i64) -> Action {
        let drill = self.drill.as_ref().and_then(|d| {
            d.attempt
                .feedback()
                .filter(|_| d.checked())
                .map(|f| DrillAnswer {
                    seed: d.variant.seed,
                    answer: d.answer.clone(),
                    correct: f.outcome == Outcome::Correct,
                    hints: d.attempt.hints(),
                })
        });
        Action::Rate {
            card,
            rating,
            duration_ms: u64::try_from(now_ms - self.shown_ms).unwrap_or(0),
            drill,
        }
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent, deck: Option<&Deck>, lang: Lang) -> Option<Action> {
        let deck = deck?;
        let now = deck.clock().now_ms();
        let Some(card) = self.card else {
            return matches!(key.code, KeyCode::Char('u')).then_some(Action::UndoReview);
        };
        if self.ends_to_summary(&key) {
            self.finish();
            return None;
        }
        if let Some(drill) = self.drill.as_mut()
            && !drill.checked()
        {
            let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
            // While typing only PgUp/PgDn scroll: the arrows are the answer's.
            if self.scroll.key(&key, false) {
                return None;
            }
            match key.code {
                KeyCode::Enter => {
                    let answer = drill.input.text().to_string();
                    let input = Input::Answer(Response::Text(&answer));
                    if drill.attempt.apply(&drill.variant, input, lang) == Reply::Unusable {
                        self.message = drill.attempt.feedback().map(|f| f.headline.clone());
                        return None;
                    }
                    let spent = u64::try_from(now - self.shown_ms).unwrap_or(0);
                    drill.proposed = drill.attempt.feedback().and_then(|f| {
                        drill::proposed_rating(
                            f.outcome,
                            drill.attempt.hints(),
                            spent,
                            deck.settings(),
                        )
                    });
                    drill.answer = answer;
                    self.revealed = true;
                    self.message = None;
                    self.scroll.reset();
                }
                KeyCode::Char('t') if ctrl => {
                    self.message = match drill.attempt.apply(&drill.variant, Input::Hint, lang) {
                        Reply::Hint => None,
                        _ if drill.variant.hints.is_empty() => Some(t!(lang, "review-no-hints")),
                        _ => Some(t!(lang, "review-no-more-hints")),
                    };
                }
                _ => {
                    drill.input.edit(&key);
                }
            }
            return None;
        }
        // The arrows move nothing else here: they scroll, as PgUp/PgDn do.
        if self.scroll.key(&key, true) {
            return None;
        }
        match key.code {
            KeyCode::Char(' ') | KeyCode::Enter if !self.revealed => {
                self.revealed = true;
                self.scroll.reset();
            }
            KeyCode::Char(' ') | KeyCode::Enter => {
                let rating = self
                    .drill
                    .as_ref()
                    .and_then(|d| d.proposed)
                    .unwrap_or(Rating::Good);
                return Some(self.rate(card, rating, now));
            }
            KeyCode::Char(c @ '1'..='4') if self.revealed => {
                let rating = Rating::from_number(c as u8 - b'0')?;
                return Some(self.rate(card, rating, now));
            }
            KeyCode::Char('u') => return Some(Action::UndoReview),
            KeyCode::Char('s') => return Some(Action::SuspendCard(card)),
            KeyCode::Char('b') => return Some(Action::BuryCard(card)),
            _ => {}
        }
        None
    }
}

fn in_minutes(lang: Lang, minutes: i64) -> String {
    if minutes < 60 {
        t!(lang, "review-when-minutes", n = minutes.max(1))
    } else {
        t!(lang, "review-when-hours", n = minutes / 60)
    }
}

/// When the next card comes due, for the end of a session.
fn next_due(lang: Lang, deck: &Deck) -> String {
    let now = deck.clock().now_ms();
    let today = deck.today();
    let mut learning: Option<i64> = None;
    let mut review: Option<i64> = None;
    for i in 0..deck.cards().len() {
        let Some(state) = deck.state(i) else { continue };
        if state.suspended {
            continue;
        }
        match state.phase {
            Phase::Learning | Phase::Relearning => {
                learning = Some(learning.map_or(state.due_ms, |d| d.min(state.due_ms)))
            }
            Phase::Review => review = Some(review.map_or(state.due_day, |d| d.min(state.due_day))),
            Phase::New => {}
        }
    }
    match (learning, review) {
        (Some(due), _) if deck.day_of(due) <= today => {
            in_minutes(lang, (due - now).div_euclid(60_000).max(1))
        }
        (_, Some(day)) if day <= today + 1 => t!(lang, "review-when-tomorrow"),
        (_, Some(day)) => t!(lang, "review-when-days", n = day - today),
        (Some(_), None) => t!(lang, "review-when-tomorrow"),
        (None, None) => t!(lang, "review-when-new-cards"),
    }
}

/// The four rating buttons, `1 Again · 1m   2 Hard · 6m …`, in the widest form that fits `width`
/// columns (gaps and separators shrink first, so every rating key stays on screen).
fn buttons(
    lang: Lang,
    previews: &[Preview; 4],
    theme: Theme,
    proposed: Option<Rating>,
    width: u16,
) -> Line<'static> {
    let forms = [("  ", " · "), (" ", " · "), (" ", " ")];
    let mut line = Line::default();
    for (gap, separator) in forms {
        let mut spans = Vec::new();
        for (i, preview) in previews.iter().enumerate() {
            if i > 0 {
                spans.push(Span::raw(gap));
            }
            let chosen = proposed == Some(preview.rating);
            spans.push(Span::styled(
                format!("{}", preview.rating.number()),
                theme.key(),
            ));
            spans.push(Span::styled(
                format!(
                    " {}{separator}{}",
                    preview.rating.label(lang),
                    preview.label_in(lang)
                ),
                if chosen {
                    theme.selected()
                } else {
                    theme.text()
                },
            ));
        }
        line = Line::from(spans);
        if line.width() <= usize::from(width) {
            break;
        }
    }
    line
}

/// Draws the review session.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme = ctx.theme;
    let lang = ctx.lang;
    let Some(deck) = ctx.review else {
        let outer = block(&t!(lang, "review-title-plain"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        crate::ui::render_wrapped(t!(lang, "review-unavailable"), true, inner, buf);
        return;
    };
    let counts = deck.counts();
    let topic = state
        .card
        .and_then(|i| deck.cards().get(i))
        .map(|c| {
            ctx.content
                .topic(&c.topic)
                .map_or(c.topic.clone(), |t| t.name.clone())
        })
        .unwrap_or_else(|| t!(lang, "review-title-done"));
    let outer = block(&t!(lang, "review-title", topic = topic), theme).title_top(
        Line::styled(
            format!(
                " {} ",
                t!(
                    lang,
                    "review-counts",
                    new = counts.new,
                    learning = counts.learning,
                    due = counts.review
                )
            ),
            theme.dim(),
        )
        .right_aligned(),
    );
    let inner = outer.inner(area);
    outer.render(area, buf);
    let mut lines: Vec<Line> = Vec::new();
    for notice in &state.notices {
        lines.push(Line::styled(
            crate::format::printable(notice).into_owned(),
            theme.warn(),
        ));
    }
    if let Some(message) = &state.message {
        lines.push(Line::styled(message.clone(), theme.warn()));
    }
    if let Some(feedback) = &state.feedback {
        lines.push(Line::styled(feedback.clone(), theme.dim()));
    }
    let Some(i) = state.card else {
        let again = if state.reviewed > 0 {
            crate::format::percent(f64::from(state.again) / f64::from(state.reviewed))
        } else {
            "—".to_string()
        };
        let secs = state.spent_ms / 1000;
        lines.push(Line::styled(t!(lang, "review-done"), theme.good()));
        lines.push(Line::from(""));
        lines.push(Line::from(t!(
            lang,
            "review-summary",
            n = state.reviewed,
            again = again,
            time = format!("{}:{:02}", secs / 60, secs % 60)
        )));
        if state.suspended + state.buried > 0 {
            lines.push(Line::from(t!(
                lang,
                "review-put-aside",
                suspended = state.suspended,
                buried = state.buried
            )));
        }
        lines.push(Line::from(t!(
            lang,
            "review-next-due",
            when = next_due(lang, deck)
        )));
        let held = deck.new_held_back();
        if held > 0 {
            let command = match deck.topic_filter() {
                Some(topic) => format!("warpdrill review --topic {topic} --new 10"),
                None => "warpdrill review --new 10".to_string(),
            };
            lines.push(Line::from(""));
            lines.push(Line::from(t!(
                lang,
                "review-new-limit",
                limit = deck.settings().new_per_day,
                n = held,
                command = command
            )));
        }
        lines.push(Line::from(""));
        lines.push(Line::styled(t!(lang, "review-done-keys"), theme.dim()));
        let room = crate::ui::wrap_room(&lines, inner);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(room, buf);
        return;
    };
    let Some(card) = deck
        .cards()
        .get(i)
        .and_then(|c| ctx.content.cards.iter().find(|card| card.id == c.id))
    else {
        return;
    };
    let rule = || Line::styled("─".repeat(usize::from(inner.width)), theme.border());
    lines.push(rich(&card.front, theme));
    if let Some(drill) = &state.drill {
        lines.push(Line::from(""));
        lines.push(Line::from(drill.variant.prompt.clone()));
        for hint in drill
            .variant
            .hints
            .iter()
            .take(drill.attempt.hints() as usize)
        {
            lines.push(Line::styled(
                t!(lang, "review-hint", hint = hint.as_str()),
                theme.dim(),
            ));
        }
        let width = usize::from(inner.width).saturating_sub(3);
        let (visible, _) = drill.input.window(width);
        let typed = if drill.checked() {
            drill.answer.clone()
        } else {
            format!("{visible}▏")
        };
        lines.push(Line::from(vec![
            Span::styled("> ", theme.key()),
            Span::raw(typed),
        ]));
        if let Some(feedback) = drill.attempt.feedback().filter(|_| drill.checked()) {
            let style = if feedback.outcome == Outcome::Correct {
                theme.good()
            } else {
                theme.bad()
            };
            lines.push(Line::styled(feedback.headline.clone(), style));
            lines.push(rule());
            lines.push(Line::from(feedback.why.clone()));
            lines.push(rich(&card.back, theme));
        }
    } else if state.revealed {
        lines.push(rule());
        lines.push(rich(&card.back, theme));
    } else {
        lines.push(Line::from(""));
        lines.push(Line::styled(t!(lang, "review-show-answer"), theme.dim()));
    }
    let footer_rows = if state.revealed { 2 } else { 0 };
    let body = Rect {
        height: inner.height.saturating_sub(footer_rows),
        ..inner
    };
    let room = crate::ui::wrap_room(&lines, body);
    crate::ui::fit_rules(&mut lines, room.width);
    scroll::render(lines, None, &state.scroll, theme, lang, body, buf);
    if state.revealed
        && let Ok(previews) = deck.preview(i)
    {
        let proposed = state.drill.as_ref().and_then(|d| d.proposed);
        let row = Rect {
            y: inner.y + inner.height.saturating_sub(1),
            height: 1,
            ..inner
        };
        if let Some(rating) = proposed {
            let label = Rect {
                y: row.y.saturating_sub(1),
                ..row
            };
            Line::styled(
                t!(lang, "review-proposed", rating = rating.label(lang)),
                theme.dim(),
            )
            .render(label, buf);
        }
        buttons(lang, &previews, theme, proposed, row.width).render(row, buf);
    }
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.key(key, ctx.review, ctx.lang)
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        let mut keys = self.keys_now(lang);
        if self.scroll.overflowing() {
            keys.insert(1.min(keys.len()), scroll::key_hint(lang));
        }
        keys
    }

    fn captures(&self, key: &KeyEvent) -> bool {
        (self.typing() && matches!(key.code, KeyCode::Char(_))) || self.ends_to_summary(key)
    }

    fn handle_paste(&mut self, text: &str, _ctx: &Ctx) -> Option<Action> {
        self.paste(text);
        None
    }
}

impl State {
    /// Whether `key` (Esc, or q while no answer is typed) ends a session that rated cards with its
    /// summary rather than leaving it.
    fn ends_to_summary(&self, key: &KeyEvent) -> bool {
        self.card.is_some()
            && !self.changes.is_empty()
            && !key.modifiers.contains(KeyModifiers::CONTROL)
            && match key.code {
                KeyCode::Esc => true,
                KeyCode::Char('q') => !self.typing(),
                _ => false,
            }
    }

    /// The keys of the state shown, before the scrolling key.
    fn keys_now(&self, lang: Lang) -> Vec<KeyHint> {
        if self.card.is_none() {
            keys_done(lang)
        } else if let Some(drill) = self.drill.as_ref().filter(|_| self.typing()) {
            let mut keys = keys_drill(lang);
            // The hint key says which hint comes next, or that none is left.
            let total = drill.variant.hints.len();
            let shown = (drill.attempt.hints() as usize).min(total);
            if total == 0 {
                keys.retain(|k| k.key != "^T");
            } else if let Some(hint) = keys.iter_mut().find(|k| k.key == "^T") {
                hint.action = if shown < total {
                    t!(
                        lang,
                        "exercise-key-hint-count",
                        next = shown + 1,
                        total = total
                    )
                } else {
                    t!(lang, "exercise-key-hint-none")
                }
                .into();
            }
            keys
        } else if self.drill.is_some() {
            keys_graded(lang)
        } else if self.revealed {
            keys_back(lang)
        } else {
            keys_front(lang)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use crate::srs::clock::FakeClock;
    use crate::srs::config::Settings;
    use crate::srs::deck::DeckCard;
    use crate::srs::{FsrsScheduler, Rating};
    use crate::ui::ctx::{key, review_ctx};
    use std::sync::Arc;

    fn deck(content: &Content, only: &[&str]) -> Deck {
        let cards = content
            .cards
            .iter()
            .filter(|c| only.contains(&c.id.as_str()))
            .map(DeckCard::from)
            .collect();
        Deck::with_records(
            cards,
            Vec::new(),
            Settings::default(),
            Box::new(FsrsScheduler::new(&[]).unwrap()),
            Arc::new(FakeClock::new(1_800_000_000_000, 0)),
        )
    }

    #[test]
    fn a_plain_card_is_revealed_then_rated() {
        let content = Content::builtin();
        let progress = Progress::default();
        let deck = deck(&content, &["bank-gcd"]);
        let ctx = review_ctx(&content, &progress, &deck);
        let mut state = State::start(&deck, &content);
        assert_eq!(state.card, Some(0));
        assert_eq!(state.handle_key(key(KeyCode::Char('2')), &ctx), None);
        assert_eq!(state.handle_key(key(KeyCode::Char(' ')), &ctx), None);
        assert!(state.revealed);
        assert_eq!(
            state.handle_key(key(KeyCode::Char('2')), &ctx),
            Some(Action::Rate {
                card: 0,
                rating: Rating::Hard,
                duration_ms: 0,
                drill: None
            })
        );
        assert!(matches!(
            state.handle_key(key(KeyCode::Char(' ')), &ctx),
            Some(Action::Rate {
                rating: Rating::Good,
                ..
            })
        ));
        assert_eq!(
            state.handle_key(key(KeyCode::Char('s')), &ctx),
            Some(Action::SuspendCard(0))
        );
        assert_eq!(
            state.handle_key(key(KeyCode::Char('u')), &ctx),
            Some(Action::UndoReview)
        );
        assert!(!state.captures(&key(KeyCode::Char('q'))));
    }

    #[test]
    fn a_drill_takes_typing_and_proposes_from_the_grade() {
        let content = Content::builtin();
        let progress = Progress::default();
        let deck = deck(&content, &["drill-conflict-degree"]);
        let ctx = review_ctx(&content, &progress, &deck);
        let mut state = State::start(&deck, &content);
        assert!(state.typing());
        assert!(state.captures(&key(KeyCode::Char('q'))));
        assert!(!state.captures(&key(KeyCode::Esc)));
        state.handle_key(key(KeyCode::Enter), &ctx);
        assert!(state.typing(), "an empty answer is not graded");
        assert!(state.message.is_some());
        let wrong = state
            .drill
            .as_ref()
            .and_then(|d| d.variant.key.value())
            .map(|v| v + 1.0)
            .unwrap();
        for c in format!("{wrong}").chars() {
            state.handle_key(key(KeyCode::Char(c)), &ctx);
        }
        state.handle_key(key(KeyCode::Enter), &ctx);
        assert!(!state.typing() && state.revealed);
        let drill = state.drill.as_ref().unwrap();
        assert_eq!(drill.proposed, Some(Rating::Again));
        match state.handle_key(key(KeyCode::Enter), &ctx) {
            Some(Action::Rate {
                rating: Rating::Again,
                drill: Some(answer),
                ..
            }) => {
                assert!(!answer.correct);
                assert_eq!(answer.answer, format!("{wrong}"));
            }
            other => panic!("{other:?}"),
        }
    }
}
