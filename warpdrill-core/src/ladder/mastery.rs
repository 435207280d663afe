//! Per-topic mastery: how far a learner has come in each topic, level by level, from the ladder's
//! results and the recall of the topic's flashcards.
//!
//! For one topic at one level (a *topic-level*, `L2 · coalescing`), with `total` exercises of that
//! topic at that level, of which `solved` are solved:
//!
//! ```text
//! need     = min(MASTER_AFTER, total)                    (2, or all of them if fewer)
//! mastered = total > 0  and  solved >= need  and  (recall is none  or  recall >= RECALL_AT_LEAST)
//! ```
//!
//! where `recall` is the mean FSRS retrievability of the topic's flashcards that have been reviewed
//! at least once ([`crate::srs::Deck::recall_by_topic`]); a topic whose cards were never reviewed
//! (or a learner without a review deck) is judged by the ladder alone. Worked number: L1 ·
//! coalescing has 3 exercises, so `need = 2`; with 2 solved and the coalescing cards at a mean
//! recall of 0.82 it is mastered; at 0.55 (cards long overdue) it is not, until they are reviewed.
//!
//! A topic's *mastery figure* is `levels mastered / levels with exercises` (`coalescing 1/5`),
//! with the per-level [`Tally`] behind it.
//!
//! Mastery opens the ladder ([`Board::open`]): a topic's lowest level with exercises is open from
//! the start; each higher level of the topic opens once the topic's nearest level below that has
//! exercises is mastered. A topic-level that has opened stays open (the app remembers it in
//! [`Progress::opened`]), so fading recall never locks what a learner already reached; and
//! [`Progress::unlock_all`] opens everything.

use crate::content::Content;
use crate::content::schema::Level;
use crate::progress::{Progress, Status};
use std::collections::{BTreeMap, BTreeSet};

/// Exercises of a topic-level to solve for mastery (all of them, if it has fewer).
pub const MASTER_AFTER: usize = 2;

/// The lowest mean recall of a topic's reviewed cards at which its levels count as mastered.
pub const RECALL_AT_LEAST: f64 = 0.7;

/// Mean recall of each topic's reviewed cards, by topic id (absent: never reviewed).
pub type Recall = BTreeMap<String, f64>;

/// The ladder results of one topic at one level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Exercises of the topic at the level.
    pub total: usize,
    /// Solved at least once.
    pub solved: usize,
    /// Answered right only after the answer was shown, not solved yet (the ladder's `◦`).
    pub seen: usize,
    /// Answered, neither solved nor seen (the ladder's `•`).
    pub wrong: usize,
}

impl Tally {
    /// Solved exercises mastery asks for: [`MASTER_AFTER`], or all of them if there are fewer.
    pub fn need(&self) -> usize {
        MASTER_AFTER.min(self.total)
    }

    /// Counts one exercise's standing.
    fn add(&mut self, status: Status) {
        self.total += 1;
        match status {
            Status::Solved => self.solved += 1,
            Status::Seen => self.seen += 1,
            Status::Attempted => self.wrong += 1,
            Status::New => {}
        }
    }
}

/// Whether a topic-level with these results is mastered: it has exercises, at least
/// [`Tally::need`] of them are solved, and the topic's `recall` (when its cards were reviewed) is
/// at least [`RECALL_AT_LEAST`].
pub fn mastered(tally: &Tally, recall: Option<f64>) -> bool {
    tally.total > 0 && tally.solved >= tally.need() && recall.is_none_or(|r| r >= RECALL_AT_LEAST)
}

/// Every topic-level's results, the topics' recall, and what is open: built once per frame or key
/// from the content, the progress and the review deck's recall.
#[derive(Debug, Clone, Default)]
pub struct Board {
    topics: Vec<String>,
    tallies: BTreeMap<(String, Level), Tally>,
    recall: Recall,
    unlock_all: bool,
    opened: BTreeMap<String, BTreeSet<Level>>,
}

impl Board {
    /// The board of `content` for a learner at `progress`, the topics' card recall `recall`.
    pub fn new(content: &Content, progress: &Progress, recall: Recall) -> Board {
        let mut topics: Vec<String> = content.topics.iter().map(|t| t.id.clone()).collect();
        let mut tallies: BTreeMap<(String, Level), Tally> = BTreeMap::new();
        for exercise in &content.exercises {
            if !topics.contains(&exercise.topic) {
                topics.push(exercise.topic.clone());
            }
            tallies
                .entry((exercise.topic.clone(), exercise.level))
                .or_default()
                .add(progress.of(&exercise.id).status());
        }
        Board {
            topics,
            tallies,
            recall,
            unlock_all: progress.unlock_all,
            opened: progress.opened.clone(),
        }
    }

    /// Topic ids in content order.
    pub fn topics(&self) -> &[String] {
        &self.topics
    }

    /// Topics with exercises at `level`, in content order.
    pub fn topics_at(&self, level: Level) -> impl Iterator<Item = &str> {
        self.topics
            .iter()
            .map(String::as_str)
            .filter(move |t| self.tally(t, level).total > 0)
    }

    /// The results of `topic` at `level` (all zero when it has no exercises there).
    pub fn tally(&self, topic: &str, level: Level) -> Tally {
        self.tallies
            .get(&(topic.to_string(), level))
            .copied()
            .unwrap_or_default()
    }

    /// Mean recall of the topic's reviewed cards (none: never reviewed).
    pub fn recall(&self, topic: &str) -> Option<f64> {
        self.recall.get(topic).copied()
    }

    /// Whether `topic` is mastered at `level` ([`mastered`]).
    pub fn mastered(&self, topic: &str, level: Level) -> bool {
        mastered(&self.tally(topic, level), self.recall(topic))
    }

    /// The level whose mastery opens `topic` at `level`: the topic's nearest lower level with
    /// exercises (none: `level` is the topic's lowest, open from the start).
    pub fn opener(&self, topic: &str, level: Level) -> Option<Level> {
        Level::ALL[..level.index()]
            .iter()
            .rev()
            .copied()
            .find(|below| self.tally(topic, *below).total > 0)
    }

    /// Whether the exercises of `topic` at `level` are open: everything is after "unlock all"; a
    /// topic-level that opened once stays open; else its [`Board::opener`] must be mastered.
    pub fn open(&self, topic: &str, level: Level) -> bool {
        self.unlock_all
            || self.opened.get(topic).is_some_and(|l| l.contains(&level))
            || self
                .opener(topic, level)
                .is_none_or(|below| self.mastered(topic, below))
    }

    /// Whether any topic of `level` is open (a level without exercises is open when the level
    /// below it is).
    pub fn level_open(&self, level: Level) -> bool {
        if self.unlock_all || level == Level::L1 {
            return true;
        }
        let mut topics = self.topics_at(level).peekable();
        if topics.peek().is_none() {
            return self.level_open(Level::ALL[level.index() - 1]);
        }
        topics.any(|t| self.open(t, level))
    }

    /// The topic-levels with exercises that are open now.
    pub fn open_cells(&self) -> BTreeSet<(String, Level)> {
        self.tallies
            .keys()
            .filter(|(topic, level)| self.open(topic, *level))
            .cloned()
            .collect()
    }

    /// A topic's mastery figure: `(levels mastered, levels with exercises)`.
    pub fn figure(&self, topic: &str) -> (usize, usize) {
        Level::ALL
            .into_iter()
            .filter(|l| self.tally(topic, *l).total > 0)
            .fold((0, 0), |(mastered, levels), l| {
                (mastered + usize::from(self.mastered(topic, l)), levels + 1)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(total: usize, solved: usize) -> Tally {
        Tally {
            total,
            solved,
            ..Tally::default()
        }
    }

    #[test]
    fn mastery_needs_two_solved_or_all_and_recall_not_below_the_threshold() {
        assert!(!mastered(&tally(0, 0), None), "nothing to master");
        assert!(!mastered(&tally(3, 1), None));
        assert!(mastered(&tally(3, 2), None));
        assert!(mastered(&tally(1, 1), None), "all of one");
        assert!(mastered(&tally(3, 2), Some(0.82)));
        assert!(mastered(&tally(3, 2), Some(RECALL_AT_LEAST)));
        assert!(!mastered(&tally(3, 2), Some(0.55)), "cards long overdue");
        assert!(
            !mastered(&tally(3, 1), Some(1.0)),
            "recall alone is not enough"
        );
        assert_eq!(tally(7, 0).need(), 2);
        assert_eq!(tally(1, 0).need(), 1);
    }

    fn solve(progress: &mut Progress, content: &Content, topic: &str, level: Level, n: usize) {
        for e in content.level(level).filter(|e| e.topic == topic).take(n) {
            progress.entry(&e.id).solved = true;
        }
    }

    #[test]
    fn a_topic_level_opens_when_the_topics_level_below_is_mastered() {
        let content = Content::builtin();
        let mut progress = Progress::default();
        let board = Board::new(&content, &progress, Recall::new());
        assert!(board.open("coalescing", Level::L1));
        assert!(!board.open("coalescing", Level::L2));
        assert_eq!(board.opener("coalescing", Level::L2), Some(Level::L1));
        // Tiling has no L1 exercises: L2 is its first rung, open from the start.
        assert_eq!(board.opener("tiling", Level::L2), None);
        assert!(board.open("tiling", Level::L2));
        // Solving other topics' L1 exercises opens nothing for coalescing.
        solve(&mut progress, &content, "banks", Level::L1, 3);
        solve(&mut progress, &content, "hierarchy", Level::L1, 3);
        let board = Board::new(&content, &progress, Recall::new());
        assert!(!board.open("coalescing", Level::L2));
        assert!(board.open("banks", Level::L2));
        solve(&mut progress, &content, "coalescing", Level::L1, 1);
        let board = Board::new(&content, &progress, Recall::new());
        assert!(!board.open("coalescing", Level::L2), "1 of 2");
        solve(&mut progress, &content, "coalescing", Level::L1, 2);
        let board = Board::new(&content, &progress, Recall::new());
        assert!(board.open("coalescing", Level::L2));
        assert!(!board.open("coalescing", Level::L3));
        assert_eq!(board.figure("coalescing"), (1, 5));
        // Forgotten cards hold the next level back...
        let faded = Recall::from([("coalescing".to_string(), 0.4)]);
        let board = Board::new(&content, &progress, faded.clone());
        assert!(!board.mastered("coalescing", Level::L1));
        assert!(!board.open("coalescing", Level::L2));
        // ...but never close a level that has opened.
        progress
            .opened
            .entry("coalescing".into())
            .or_default()
            .insert(Level::L2);
        let board = Board::new(&content, &progress, faded);
        assert!(board.open("coalescing", Level::L2));
        progress.unlock_all = true;
        let board = Board::new(&content, &progress, Recall::new());
        assert!(board.open("coalescing", Level::L5));
    }

    #[test]
    fn tallies_count_solved_seen_and_wrong() {
        let content = Content::builtin();
        let mut progress = Progress::default();
        let ids: Vec<String> = content
            .level(Level::L1)
            .filter(|e| e.topic == "coalescing")
            .map(|e| e.id.clone())
            .collect();
        progress.entry(&ids[0]).solved = true;
        progress.entry(&ids[1]).seen = true;
        progress.entry(&ids[1]).attempts = 2;
        progress.entry(&ids[2]).attempts = 1;
        let board = Board::new(&content, &progress, Recall::new());
        assert_eq!(
            board.tally("coalescing", Level::L1),
            Tally {
                total: 3,
                solved: 1,
                seen: 1,
                wrong: 1
            }
        );
        assert_eq!(board.tally("coalescing", Level::L1).need(), 2);
        assert_eq!(board.tally("nothing", Level::L1), Tally::default());
    }
}
