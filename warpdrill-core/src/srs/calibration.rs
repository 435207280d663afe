//! Calibration: how well the recall FSRS predicted matched what the learner actually recalled,
//! separately for fixed cards and for drill cards.
//!
//! FSRS models a card as one fixed piece of knowledge. A drill card draws new numbers each time, so
//! it may be harder (or easier) than its memory model assumes; comparing the recall predicted at
//! each review with the answer given shows whether the model stays calibrated on such cards.
//!
//! A review counts when the card had a memory model before it and at least a day had passed (as
//! the FSRS optimizer counts them). Its predicted recall is the probability of recall from the
//! memory before the review after the calendar days elapsed, by the scheduler in use now; it was
//! recalled if rated Hard, Good or Easy. Reviews are put in ten bins of predicted recall (0–10 %, …,
//! 90–100 %); each bin has its mean prediction and its actual recall. Log loss is the mean of
//! −ln p for a recall and −ln(1 − p) for a lapse (lower is better); RMSE is the root of the mean
//! squared gap between predicted and actual recall over the bins, each weighted by its reviews.

use super::deck::Deck;
use super::log::Kind;
use super::schedule::{Memory, Scheduler};
use serde::Serialize;
use std::collections::HashMap;

/// Bins of predicted recall.
pub const BINS: usize = 10;

/// One bin of predicted recall.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    /// Lowest predicted recall in the bin (0.9 for 90–100 %).
    pub from: f64,
    /// Highest (exclusive, but 1.0 for the last bin).
    pub to: f64,
    /// Reviews in it.
    pub reviews: u32,
    /// Mean predicted recall.
    pub predicted: f64,
    /// Share of them recalled.
    pub actual: f64,
}

/// Calibration of one kind of card.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Group {
    /// Reviews counted.
    pub reviews: u32,
    /// Mean predicted recall; none without reviews.
    pub predicted: Option<f64>,
    /// Share recalled; none without reviews.
    pub actual: Option<f64>,
    /// Mean log loss; none without reviews.
    pub log_loss: Option<f64>,
    /// Binned RMSE (0.03 = 3 points of recall); none without reviews.
    pub rmse: Option<f64>,
    /// The bins that hold reviews, lowest prediction first.
    pub bins: Vec<Bin>,
}

/// Calibration of fixed cards and of drill cards.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Calibration {
    /// Cards with one fixed front and back.
    pub fixed: Group,
    /// Drill cards: new numbers at every review.
    pub drill: Group,
}

/// Sums for one group while counting.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    n: u32,
    predicted: f64,
    recalled: u32,
    log_loss: f64,
    bins: [(u32, f64, u32); BINS],
}

impl Sums {
    fn add(&mut self, p: f64, recalled: bool) {
        let p = p.clamp(0.0, 1.0);
        self.n += 1;
        self.predicted += p;
        self.recalled += u32::from(recalled);
        let q = p.clamp(1e-6, 1.0 - 1e-6);
        self.log_loss -= if recalled { q.ln() } else { (1.0 - q).ln() };
        let bin = ((p * BINS as f64) as usize).min(BINS - 1);
        let slot = &mut self.bins[bin];
        slot.0 += 1;
        slot.1 += p;
        slot.2 += u32::from(recalled);
    }

    fn group(&self) -> Group {
        if self.n == 0 {
            return Group::default();
        }
        let n = f64::from(self.n);
        let mut squared = 0.0;
        let mut bins = Vec::new();
        for (i, &(count, predicted, recalled)) in self.bins.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let c = f64::from(count);
            let predicted = predicted / c;
            let actual = f64::from(recalled) / c;
            squared += c * (predicted - actual).powi(2);
            bins.push(Bin {
                from: i as f64 / BINS as f64,
                to: (i + 1) as f64 / BINS as f64,
                reviews: count,
                predicted,
                actual,
            });
        }
        Group {
            reviews: self.n,
            predicted: Some(self.predicted / n),
            actual: Some(f64::from(self.recalled) / n),
            log_loss: Some(self.log_loss / n),
            rmse: Some((squared / n).sqrt()),
            bins,
        }
    }
}

/// The calibration of `deck`'s log under the scheduler in use.
pub fn compute(deck: &Deck) -> Calibration {
    compute_with(deck, deck.scheduler())
}

/// The calibration of `deck`'s log under `scheduler`.
pub fn compute_with(deck: &Deck, scheduler: &dyn Scheduler) -> Calibration {
    let mut memory: HashMap<(&str, u32), Memory> = HashMap::new();
    let mut fixed = Sums::default();
    let mut drill = Sums::default();
    for (record, undone) in deck.records() {
        if undone || record.kind != Kind::Rate {
            continue;
        }
        let key = (record.card.as_str(), record.rev);
        let before = memory.get(&key).copied();
        if let (Some(stability), Some(difficulty)) = (record.stability, record.difficulty) {
            memory.insert(
                key,
                Memory {
                    stability,
                    difficulty,
                },
            );
        }
        let (Some(before), Some(rating), Some(elapsed)) =
            (before, record.rating, record.elapsed_days)
        else {
            continue;
        };
        if elapsed == 0 {
            continue;
        }
        let p = scheduler.retrievability(before, f64::from(elapsed));
        if !p.is_finite() {
            continue;
        }
        let is_drill = record.seed.is_some()
            || deck
                .card(&record.card)
                .and_then(|i| deck.cards().get(i))
                .is_some_and(|c| c.drill.is_some());
        let sums = if is_drill { &mut drill } else { &mut fixed };
        sums.add(p, rating > 1);
    }
    Calibration {
        fixed: fixed.group(),
        drill: drill.group(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_of_a_known_set() {
        let mut sums = Sums::default();
        // Ten reviews predicted at 0.95: nine recalled. Ten at 0.55: five recalled.
        for i in 0..10 {
            sums.add(0.95, i < 9);
            sums.add(0.55, i < 5);
        }
        let group = sums.group();
        assert_eq!(group.reviews, 20);
        assert_eq!(group.bins.len(), 2);
        assert_eq!(group.bins[0].reviews, 10);
        assert!((group.bins[0].actual - 0.5).abs() < 1e-12);
        assert!((group.bins[1].predicted - 0.95).abs() < 1e-12);
        // Gaps 0.05 in both bins: RMSE 0.05.
        assert!((group.rmse.unwrap() - 0.05).abs() < 1e-9, "{group:?}");
        let expected =
            -(9.0 * 0.95f64.ln() + 0.05f64.ln() + 5.0 * 0.55f64.ln() + 5.0 * 0.45f64.ln()) / 20.0;
        assert!((group.log_loss.unwrap() - expected).abs() < 1e-9);
        assert_eq!(Sums::default().group(), Group::default());
    }

    /// A simulated learner over 120 days: fixed cards are recalled exactly as FSRS predicts, drill
    /// cards (new numbers each time) only three quarters as often. Calibration must show the fixed
    /// cards calibrated and the drill cards recalled less than predicted.
    #[test]
    fn a_simulated_learner_shows_drill_cards_miscalibrated_and_fixed_ones_not() {
        use crate::srs::clock::{DAY_MS, FakeClock};
        use crate::srs::config::Settings;
        use crate::srs::deck::DeckCard;
        use crate::srs::log::DrillAnswer;
        use crate::srs::schedule::{FsrsScheduler, Rating, splitmix};
        use std::sync::Arc;

        let cards: Vec<DeckCard> = (0..80)
            .map(|i| DeckCard {
                id: format!("c{i}"),
                topic: format!("t{}", i % 4),
                rev: 0,
                drill: (i % 2 == 1).then(|| format!("ex{i}")),
                skill: None,
            })
            .collect();
        // 05:00 UTC on a day; the fake clock is at UTC, days turn at 4 am.
        let start = 1_764_565_200_000;
        let clock = Arc::new(FakeClock::new(start, 0));
        let mut deck = Deck::with_records(
            cards,
            vec![],
            Settings::default(),
            Box::new(FsrsScheduler::new(&[]).unwrap()),
            clock.clone(),
        );
        let mut seed = 11u64;
        let mut draw = || {
            seed = splitmix(seed);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for day in 0..120 {
            clock.set(start + day * DAY_MS);
            let mut guard = 0;
            while let Some(i) = deck.next_card() {
                guard += 1;
                assert!(guard < 1000, "a day of review ends");
                let is_drill = deck.cards()[i].drill.is_some();
                let p = match (deck.retrievability(i), deck.elapsed_days(i)) {
                    (Some(r), days) if days > 0 => r,
                    _ => 0.9,
                };
                let p = if is_drill { p * 0.75 } else { p };
                let rating = if draw() < p {
                    Rating::Good
                } else {
                    Rating::Again
                };
                let answer = DrillAnswer {
                    seed: 1,
                    answer: String::new(),
                    correct: rating == Rating::Good,
                    hints: 0,
                };
                deck.rate(i, rating, 1000, is_drill.then_some(&answer))
                    .unwrap();
                clock.advance(11 * 60_000);
            }
        }
        let calibration = compute(&deck);
        let (fixed, drill) = (&calibration.fixed, &calibration.drill);
        assert!(
            fixed.reviews > 100 && drill.reviews > 300,
            "{calibration:?}"
        );
        let gap = |g: &Group| g.predicted.unwrap() - g.actual.unwrap();
        assert!(gap(fixed).abs() < 0.06, "fixed: {fixed:?}");
        assert!(gap(drill) > 0.12, "drill: {drill:?}");
        assert!(fixed.rmse.unwrap() < 0.06, "fixed: {fixed:?}");
        assert!(drill.rmse.unwrap() > fixed.rmse.unwrap() + 0.05);
        assert!(drill.log_loss.unwrap() > fixed.log_loss.unwrap());
        let counted: u32 = drill.bins.iter().map(|b| b.reviews).sum();
        assert_eq!(counted, drill.reviews);
    }
}
