//! What a review log replays to, whatever content is loaded: the state of every card the log names
//! (by id and revision), the records undo can still take back, and the recent ratings that count
//! toward today's limits.
//!
//! The deck applies every record through [`Replay::apply`], when it loads the log and when the
//! learner rates a card, so there is one rule for what a record does. A [`Snapshot`] of a replay is
//! kept beside the log ([`super::store`]), so that opening the deck replays only what was added
//! since.

use super::log::{Kind, Record};
use super::schedule::{CardState, Phase};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How many records a snapshot keeps for undo (the most recent); undo in a later session goes back
/// this far.
pub const UNDO_KEPT: usize = 256;

/// How long before the newest record a snapshot keeps ratings for the daily limits: two days, more
/// than any day is long in any time zone.
pub const RATES_KEPT_MS: i64 = 2 * 24 * 3_600_000;

/// One card the log names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    /// The card's id.
    pub id: String,
    /// Its revision (records of another revision are another slot).
    pub rev: u32,
    /// Its state after the records so far.
    pub state: CardState,
}

/// A record undo can take back.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Undoable {
    /// The record's time (an undo record names it).
    time: i64,
    /// The slot it changed.
    slot: usize,
    /// The slot's state before it.
    before: CardState,
    /// A rating: the card's phase before it.
    rated: Option<Phase>,
}

/// A rating, for the daily limits: when, and the card's phase before it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rated {
    /// When (UTC ms).
    pub time: i64,
    /// The phase before (new cards and review cards count toward their limits).
    pub before: Phase,
}

/// What applying one record did, for the deck to follow.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Applied {
    /// The slot whose state changed.
    pub slot: Option<usize>,
    /// A rating that now counts toward its day's limit.
    pub rated: Option<Rated>,
    /// A rating that no longer does (it was undone).
    pub unrated: Option<Rated>,
}

/// The states a log replays to.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    slots: Vec<Slot>,
    /// Slots by card id, one per revision.
    index: HashMap<String, Vec<usize>>,
    undo: Vec<Undoable>,
    /// Ratings not undone, oldest first (in a replay from a snapshot, only the recent ones).
    rates: Vec<Rated>,
    /// Records applied (torn-line markers aside).
    records: usize,
    /// The newest record's time.
    newest: Option<i64>,
}

impl Replay {
    /// The slot of card `id` at revision `rev`, if the log or the deck has named it.
    pub fn find(&self, id: &str, rev: u32) -> Option<usize> {
        self.index
            .get(id)?
            .iter()
            .copied()
            .find(|&s| self.slots[s].rev == rev)
    }

    /// The slot of card `id` at revision `rev`, made (new) if there is none yet.
    pub fn slot(&mut self, id: &str, rev: u32) -> usize {
        if let Some(slot) = self.find(id, rev) {
            return slot;
        }
        let slot = self.slots.len();
        self.slots.push(Slot {
            id: id.to_string(),
            rev,
            state: CardState::NEW,
        });
        self.index.entry(id.to_string()).or_default().push(slot);
        slot
    }

    /// The card of a slot: its id and revision.
    pub fn card_of(&self, slot: usize) -> (&str, u32) {
        let slot = &self.slots[slot];
        (&slot.id, slot.rev)
    }

    /// The state of a slot.
    pub fn state(&self, slot: usize) -> &CardState {
        &self.slots[slot].state
    }

    /// The ratings not undone (all of them in a full replay; the last [`RATES_KEPT_MS`] before
    /// the snapshot's newest record, and every one after it, in a replay from a snapshot).
    pub fn rates(&self) -> &[Rated] {
        &self.rates
    }

    /// Records applied so far.
    pub fn records(&self) -> usize {
        self.records
    }

    /// The newest record's time.
    pub fn newest(&self) -> Option<i64> {
        self.newest
    }

    /// The record undo would take back next: its slot and its time.
    pub fn undo_top(&self) -> Option<(usize, i64)> {
        self.undo.last().map(|u| (u.slot, u.time))
    }

    /// Applies one record.
    pub fn apply(&mut self, record: &Record) -> Applied {
        let mut applied = Applied::default();
        if record.kind == Kind::Torn {
            return applied;
        }
        self.records += 1;
        self.newest = Some(self.newest.map_or(record.time, |t| t.max(record.time)));
        match record.kind {
            Kind::Torn => {}
            Kind::Undo => {
                if let Some(top) = self
                    .undo
                    .last()
                    .copied()
                    .filter(|u| Some(u.time) == record.undoes)
                {
                    self.undo.pop();
                    self.slots[top.slot].state = top.before;
                    applied.slot = Some(top.slot);
                    if let Some(before) = top.rated {
                        let rated = Rated {
                            time: top.time,
                            before,
                        };
                        if let Some(at) = self.rates.iter().rposition(|r| *r == rated) {
                            self.rates.remove(at);
                        }
                        applied.unrated = Some(rated);
                    }
                }
            }
            kind => {
                let slot = self.slot(&record.card, record.rev);
                let before = self.slots[slot].state;
                self.slots[slot].state = record.apply(&before);
                applied.slot = Some(slot);
                let rated = record
                    .before
                    .filter(|_| kind == Kind::Rate)
                    .map(|before| Rated {
                        time: record.time,
                        before,
                    });
                if kind.undoable() {
                    self.undo.push(Undoable {
                        time: record.time,
                        slot,
                        before,
                        rated: rated.map(|r| r.before),
                    });
                }
                if let Some(rated) = rated {
                    self.rates.push(rated);
                    applied.rated = Some(rated);
                }
            }
        }
        applied
    }

    /// What a snapshot keeps of this replay: every slot that is not a new card untouched, the last
    /// [`UNDO_KEPT`] undoable records, and the ratings of the last [`RATES_KEPT_MS`].
    pub fn snapshot(&self) -> Snapshot {
        let undo_from = self.undo.len().saturating_sub(UNDO_KEPT);
        let undo = &self.undo[undo_from..];
        let mut keep = vec![false; self.slots.len()];
        for (slot, keep) in self.slots.iter().zip(keep.iter_mut()) {
            *keep = slot.state != CardState::NEW;
        }
        for u in undo {
            keep[u.slot] = true;
        }
        let mut renumber = vec![usize::MAX; self.slots.len()];
        let mut cards = Vec::new();
        for (i, slot) in self.slots.iter().enumerate() {
            if keep[i] {
                renumber[i] = cards.len();
                cards.push(slot.clone());
            }
        }
        let since = self.newest.map_or(i64::MIN, |t| t - RATES_KEPT_MS);
        Snapshot {
            records: self.records,
            newest: self.newest,
            cards,
            undo: undo
                .iter()
                .map(|u| SavedUndo {
                    time: u.time,
                    card: renumber[u.slot],
                    before: u.before,
                    rated: u.rated,
                })
                .collect(),
            rates: self
                .rates
                .iter()
                .filter(|r| r.time >= since)
                .copied()
                .collect(),
        }
    }

    /// The replay a snapshot holds; `None` if it does not hold together (a slot out of range, a
    /// card named twice).
    pub fn from_snapshot(snapshot: Snapshot) -> Option<Replay> {
        let mut index: HashMap<String, Vec<usize>> = HashMap::with_capacity(snapshot.cards.len());
        for (i, slot) in snapshot.cards.iter().enumerate() {
            let revs = index.entry(slot.id.clone()).or_default();
            if revs.iter().any(|&s| snapshot.cards[s].rev == slot.rev) {
                return None;
            }
            revs.push(i);
        }
        let undo = snapshot
            .undo
            .iter()
            .map(|u| {
                (u.card < snapshot.cards.len()).then_some(Undoable {
                    time: u.time,
                    slot: u.card,
                    before: u.before,
                    rated: u.rated,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Replay {
            slots: snapshot.cards,
            index,
            undo,
            rates: snapshot.rates,
            records: snapshot.records,
            newest: snapshot.newest,
        })
    }
}

/// A record undo can take back, as a snapshot keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedUndo {
    time: i64,
    /// Index into the snapshot's cards.
    card: usize,
    before: CardState,
    rated: Option<Phase>,
}

/// What a snapshot file holds of a replay ([`Replay::snapshot`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// Records applied.
    pub records: usize,
    /// The newest record's time.
    pub newest: Option<i64>,
    /// Every card with a state.
    pub cards: Vec<Slot>,
    undo: Vec<SavedUndo>,
    rates: Vec<Rated>,
}

/// Which records of `records` (in log order) were undone: the same stack rule as
/// [`Replay::apply`].
pub fn undone_flags<'a>(records: impl Iterator<Item = &'a Record>) -> Vec<bool> {
    let mut flags = Vec::new();
    let mut stack: Vec<(usize, i64)> = Vec::new();
    for (i, record) in records.enumerate() {
        flags.push(false);
        match record.kind {
            Kind::Torn => {}
            Kind::Undo => {
                if let Some(&(at, time)) = stack.last()
                    && Some(time) == record.undoes
                {
                    stack.pop();
                    flags[at] = true;
                }
            }
            kind if kind.undoable() => stack.push((i, record.time)),
            _ => {}
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::srs::schedule::{Memory, Rating};

    fn rate(time: i64, card: &str, before: Phase, after_phase: Phase, stability: f32) -> Record {
        let before_state = CardState {
            phase: before,
            ..CardState::NEW
        };
        let after = CardState {
            phase: after_phase,
            interval_days: 3,
            due_day: 10,
            memory: Some(Memory {
                stability,
                difficulty: 5.0,
            }),
            last_review_ms: Some(time),
            reps: 1,
            ..CardState::NEW
        };
        Record::rate(
            time,
            card,
            0,
            Rating::Good,
            &before_state,
            &after,
            0,
            1000,
            None,
        )
    }

    fn undo(time: i64, undoes: i64, card: &str) -> Record {
        Record {
            undoes: Some(undoes),
            ..Record::about(time, card, 0, Kind::Undo)
        }
    }

    fn history() -> Vec<Record> {
        let day = 86_400_000;
        vec![
            rate(day, "a", Phase::New, Phase::Review, 3.0),
            rate(2 * day, "b", Phase::New, Phase::Learning, 1.0),
            Record::about(3 * day, "a", 0, Kind::Suspend),
            undo(3 * day + 5, 3 * day, "a"),
            rate(10 * day, "a", Phase::Review, Phase::Review, 9.0),
            Record::about(10 * day + 1, "c", 1, Kind::Bury),
            rate(10 * day + 2, "b", Phase::Learning, Phase::Review, 2.0),
            undo(10 * day + 3, 10 * day + 2, "b"),
        ]
    }

    fn replay(records: &[Record]) -> Replay {
        let mut replay = Replay::default();
        for r in records {
            replay.apply(r);
        }
        replay
    }

    #[test]
    fn a_replay_resumed_from_its_snapshot_ends_where_the_whole_replay_ends() {
        let all = history();
        for cut in 0..=all.len() {
            let whole = replay(&all);
            let mut resumed = Replay::from_snapshot(replay(&all[..cut]).snapshot())
                .expect("a snapshot holds together");
            for r in &all[cut..] {
                resumed.apply(r);
            }
            for slot in &whole.slots {
                let at = resumed.find(&slot.id, slot.rev);
                let state = at.map_or(CardState::NEW, |s| *resumed.state(s));
                assert_eq!(state, slot.state, "{} after a snapshot at {cut}", slot.id);
            }
            assert_eq!(resumed.records(), whole.records());
            assert_eq!(resumed.newest(), whole.newest());
            assert_eq!(
                resumed.undo_top().map(|(_, t)| t),
                whole.undo_top().map(|(_, t)| t)
            );
            // The recent ratings agree (a full replay keeps older ones too).
            let since = whole.newest().unwrap() - RATES_KEPT_MS;
            let recent = |r: &Replay| -> Vec<Rated> {
                r.rates()
                    .iter()
                    .filter(|x| x.time >= since)
                    .copied()
                    .collect()
            };
            assert_eq!(recent(&resumed), recent(&whole), "at {cut}");
        }
    }

    #[test]
    fn undo_reaches_back_into_the_snapshot() {
        let all = history();
        // Snapshot after the rating of b at day 10; the undo record comes after it.
        let mut resumed = Replay::from_snapshot(replay(&all[..7]).snapshot()).unwrap();
        let b = resumed.find("b", 0).unwrap();
        assert_eq!(resumed.state(b).phase, Phase::Review);
        let applied = resumed.apply(&all[7]);
        assert_eq!(applied.slot, Some(b));
        assert_eq!(resumed.state(b).phase, Phase::Learning);
        assert_eq!(applied.unrated.map(|r| r.time), Some(all[6].time));
    }

    #[test]
    fn undone_records_are_flagged_by_the_same_rule() {
        let all = history();
        let flags = undone_flags(all.iter());
        assert_eq!(
            flags,
            vec![false, false, true, false, false, false, true, false]
        );
    }

    #[test]
    fn a_snapshot_naming_a_card_twice_or_a_missing_slot_is_refused() {
        let mut snapshot = replay(&history()).snapshot();
        let first = snapshot.cards[0].clone();
        snapshot.cards.push(first);
        assert!(Replay::from_snapshot(snapshot).is_none());
        let mut snapshot = replay(&history()).snapshot();
        snapshot.undo[0].card = 99;
        assert!(Replay::from_snapshot(snapshot).is_none());
    }
}
