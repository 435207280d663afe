//! The review log's records: one JSON object per line of `revlog.jsonl`.
//!
//! Every record that changes a card carries the card's whole state after it, so a card's state is
//! simply its last record's (undo restores the one before). Replaying therefore never recomputes a
//! schedule, and parameters fitted later do not rewrite history.
//!
//! ```json
//! {"time":1764480000000,"card":"bank-gcd","kind":"rate","rating":3,"before":"review","after":"review",
//!  "elapsed_days":4,"last_interval_days":4,"interval_days":9,"due_day":20431,"stability":9.3,
//!  "difficulty":5.1,"duration_ms":5400}
//! ```

use super::schedule::{CardState, Memory, Phase, Rating};
use serde::{Deserialize, Serialize};

/// What a record does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The learner rated the card.
    #[default]
    Rate,
    /// The most recent rating, suspension or burial (of `card`, made at `undoes`) is taken back.
    Undo,
    /// Kept out of review until unsuspended.
    Suspend,
    /// Back into review.
    Unsuspend,
    /// Kept out of review until tomorrow.
    Bury,
    /// A wrong answer on the ladder made the card due today.
    Lapse,
    /// The line before this one was cut off by a crash while it was written; it is kept, ignored.
    Torn,
}

impl Kind {
    /// Whether undo can take this record back.
    pub fn undoable(self) -> bool {
        matches!(
            self,
            Kind::Rate | Kind::Suspend | Kind::Unsuspend | Kind::Bury
        )
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One line of the log. It is read strictly: a field this version does not know, or one a record of
/// its kind needs missing ([`Record::problem`]), makes the line damaged rather than a record that
/// quietly means something else.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// When (UTC milliseconds since the Unix epoch).
    pub time: i64,
    /// The card's id (empty for a torn-line marker).
    pub card: String,
    /// The card's revision (a card whose `rev` was bumped starts over; older records are kept).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rev: u32,
    /// What it does.
    pub kind: Kind,
    /// 1 Again, 2 Hard, 3 Good, 4 Easy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u8>,
    /// The card's phase before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Phase>,
    /// The card's phase after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Phase>,
    /// Calendar days since the previous rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_days: Option<u32>,
    /// The interval before this rating, in days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_interval_days: Option<u32>,
    /// The interval scheduled, in days (0 for a learning step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_days: Option<u32>,
    /// (Re)learning step index after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u8>,
    /// Due time of a (re)learning step (UTC ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_ms: Option<i64>,
    /// Due day of a review card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_day: Option<i64>,
    /// FSRS stability after, in days.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stability: Option<f32>,
    /// FSRS difficulty after (1–10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<f32>,
    /// Time spent on the card, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Drill cards: the seed of the variant shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Drill cards: what the learner typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Drill cards: whether the engine graded it right.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correct: Option<bool>,
    /// Drill cards: hints revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<u32>,
    /// Undo: the time of the record taken back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<i64>,
    /// Bury: kept out of review through this day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buried_through: Option<i64>,
    /// Lapse: the topic whose exercise was answered wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// Torn marker: how many bytes the cut-off line holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}

/// A drill answer to keep with a rating.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DrillAnswer {
    /// Seed of the variant.
    pub seed: u64,
    /// What was typed.
    pub answer: String,
    /// Graded right.
    pub correct: bool,
    /// Hints revealed.
    pub hints: u32,
}

impl Record {
    /// The record of rating a card from `before` to `after`.
    #[allow(clippy::too_many_arguments)]
    pub fn rate(
        time: i64,
        card: &str,
        rev: u32,
        rating: Rating,
        before: &CardState,
        after: &CardState,
        elapsed_days: u32,
        duration_ms: u64,
        drill: Option<&DrillAnswer>,
    ) -> Record {
        let learning = matches!(after.phase, Phase::Learning | Phase::Relearning);
        Record {
            time,
            card: card.to_string(),
            rev,
            kind: Kind::Rate,
            rating: Some(rating.number()),
            before: Some(before.phase),
            after: Some(after.phase),
            elapsed_days: Some(elapsed_days),
            last_interval_days: Some(before.interval_days),
            interval_days: Some(after.interval_days),
            step: learning.then_some(after.step),
            due_ms: learning.then_some(after.due_ms),
            due_day: (!learning).then_some(after.due_day),
            stability: after.memory.map(|m| m.stability),
            difficulty: after.memory.map(|m| m.difficulty),
            duration_ms: Some(duration_ms),
            seed: drill.map(|d| d.seed),
            answer: drill.map(|d| d.answer.clone()),
            correct: drill.map(|d| d.correct),
            hints: drill.map(|d| d.hints),
            ..Record::default()
        }
    }

    /// A record of `kind` about one card with no other fields.
    pub fn about(time: i64, card: &str, rev: u32, kind: Kind) -> Record {
        Record {
            time,
            card: card.to_string(),
            rev,
            kind,
            ..Record::default()
        }
    }

    /// What makes this record unusable, if anything: a record about a card with no card, a rating
    /// without a rating from 1 to 4 or the phase it leaves the card in, an undo that names nothing,
    /// a burial without its last day.
    pub fn problem(&self) -> Option<String> {
        if self.kind != Kind::Torn && self.card.trim().is_empty() {
            return Some("the record names no card".to_string());
        }
        match self.kind {
            Kind::Rate if self.rating().is_none() => Some(match self.rating {
                Some(n) => format!("rating {n} is not 1 (Again) to 4 (Easy)"),
                None => "a rating without its `rating`".to_string(),
            }),
            Kind::Rate if self.after.is_none() => Some("a rating without `after`".to_string()),
            Kind::Undo if self.undoes.is_none() => Some("an undo without `undoes`".to_string()),
            Kind::Bury if self.buried_through.is_none() => {
                Some("a burial without `buried_through`".to_string())
            }
            _ => None,
        }
    }

    /// The rating, when this is a rating.
    pub fn rating(&self) -> Option<Rating> {
        self.rating.and_then(Rating::from_number)
    }

    /// The card's state after this record, from its state before. Undo and torn markers are handled
    /// by the caller (they do not follow from the previous state).
    pub fn apply(&self, prev: &CardState) -> CardState {
        let mut state = *prev;
        match self.kind {
            Kind::Rate => {
                state.phase = self.after.unwrap_or(prev.phase);
                state.step = self.step.unwrap_or(0);
                state.due_ms = self.due_ms.unwrap_or(0);
                state.due_day = self.due_day.unwrap_or(0);
                state.interval_days = self.interval_days.unwrap_or(0);
                state.memory = match (self.stability, self.difficulty) {
                    (Some(stability), Some(difficulty)) => Some(Memory {
                        stability,
                        difficulty,
                    }),
                    _ => prev.memory,
                };
                state.last_review_ms = Some(self.time);
                state.reps = prev.reps.saturating_add(1);
                if prev.phase == Phase::Review && self.rating() == Some(Rating::Again) {
                    state.lapses = prev.lapses.saturating_add(1);
                }
                state.first = false;
                state.buried_through = None;
            }
            Kind::Suspend => state.suspended = true,
            Kind::Unsuspend => state.suspended = false,
            Kind::Bury => state.buried_through = self.buried_through,
            Kind::Lapse => match state.phase {
                Phase::New => state.first = true,
                Phase::Review => {
                    if let Some(day) = self.due_day {
                        state.due_day = state.due_day.min(day);
                    }
                }
                Phase::Learning | Phase::Relearning => {
                    state.due_ms = state.due_ms.min(self.time);
                }
            },
            Kind::Undo | Kind::Torn => {}
        }
        state
    }

    /// The record as one JSON line, newline included.
    pub fn to_line(&self) -> String {
        // Serializing plain numbers, strings and enums cannot fail; an empty object is the fallback.
        let mut line = serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string());
        line.push('\n');
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::srs::config::Settings;
    use crate::srs::schedule::{FsrsScheduler, Moment, answer};

    #[test]
    fn a_rating_record_replays_to_the_same_state() {
        let settings = Settings::default();
        let fsrs = FsrsScheduler::new(&[]).unwrap();
        let mut state = CardState::NEW;
        let mut now = 1_000_000;
        for (day, rating) in [
            (0, Rating::Good),
            (0, Rating::Good),
            (2, Rating::Good),
            (9, Rating::Again),
            (9, Rating::Hard),
            (10, Rating::Easy),
        ] {
            now += 60_000;
            let at = Moment {
                now_ms: now,
                today: day,
                elapsed_days: 1,
                fuzz_seed: 3,
                desired_retention: 0.9,
            };
            let after = answer(&state, rating, at, &settings, &fsrs, None).unwrap();
            let record = Record::rate(now, "c", 0, rating, &state, &after, 1, 900, None);
            let line = record.to_line();
            let parsed: Record = serde_json::from_str(line.trim_end()).unwrap();
            assert_eq!(parsed, record);
            assert_eq!(parsed.apply(&state), after, "{line}");
            state = after;
        }
        assert_eq!(state.lapses, 1);
    }
}
