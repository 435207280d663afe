//! Figures about the learner's review, computed from the deck and its log: true retention (counted as
//! Anki's "True Retention" table counts it), cards by state, the due forecast, the review heatmap,
//! mastery per topic and the streak.

use super::clock::DayRule;
use super::deck::Deck;
use super::log::Kind;
use super::schedule::Phase;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// An interval of at least this many days makes a card mature (Anki's threshold).
pub const MATURE_DAYS: u32 = 21;
/// Days in the forecast.
pub const FORECAST_DAYS: usize = 30;
/// Days in the heatmap (52 weeks).
pub const HEATMAP_DAYS: usize = 52 * 7;
/// Days counted by true retention.
pub const RETENTION_DAYS: i64 = 30;

/// Reviews passed (Hard, Good, Easy) and failed (Again).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct PassFail {
    /// Recalled.
    pub passed: u32,
    /// Forgotten.
    pub failed: u32,
    /// passed / (passed + failed); none without reviews.
    pub retention: Option<f64>,
}

impl PassFail {
    fn add(&mut self, passed: bool) {
        if passed {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        self.retention = Some(f64::from(self.passed) / f64::from(self.passed + self.failed));
    }
}

/// True retention: review-card answers only (not learning steps), split by the interval before the
/// review: young (under 21 days) and mature.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct TrueRetention {
    /// Interval under 21 days.
    pub young: PassFail,
    /// Interval of 21 days or more.
    pub mature: PassFail,
    /// Both.
    pub total: PassFail,
}

/// Cards by state; suspended cards are counted only as suspended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ByState {
    /// Never rated.
    pub new: usize,
    /// In the learning steps.
    pub learning: usize,
    /// Scheduled in days.
    pub review: usize,
    /// Forgotten, in the relearning steps.
    pub relearning: usize,
    /// Kept out of review.
    pub suspended: usize,
}

/// Review counts per day for the last 52 weeks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Heatmap {
    /// Date of the first count (`2025-01-06`).
    pub first_day: String,
    /// Weekday of the first count (0 Monday … 6 Sunday).
    pub first_weekday: u8,
    /// Ratings per day, oldest first, ending today.
    pub counts: Vec<u32>,
}

/// How well one topic is held.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopicMastery {
    /// Topic id.
    pub topic: String,
    /// Cards of the topic (not suspended).
    pub cards: usize,
    /// Of those, rated at least once.
    pub studied: usize,
    /// Average probability of recall now over the studied cards; none before any.
    pub mastery: Option<f64>,
    /// The topic's own desired retention (`topic_retention` in the settings), if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub desired_retention: Option<f32>,
}

/// Everything `warpdrill stats` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// Today's date (the learner's day).
    pub today: String,
    /// Ratings given today.
    pub reviews_today: u32,
    /// Cards due today: learning cards due before the day ends and review cards due, without the
    /// daily limits.
    pub due_today: usize,
    /// Cards by state.
    pub cards: ByState,
    /// True retention of the last 30 days; none until there are review-card answers.
    pub retention_30d: Option<f64>,
    /// The retention the scheduler aims for.
    pub desired_retention: f32,
    /// The last 30 days, young and mature.
    pub true_retention: TrueRetention,
    /// Cards due on each of the next 30 days (overdue ones today).
    pub forecast: Vec<u32>,
    /// Reviews per day, last 52 weeks.
    pub heatmap: Heatmap,
    /// Per topic, in content order.
    pub topics: Vec<TopicMastery>,
    /// Days in a row with at least one rating, up to today (or yesterday, before today's first).
    pub streak_days: u32,
    /// Ratings in the whole log.
    pub total_reviews: usize,
    /// Predicted against actual recall, for fixed and for drill cards
    /// ([`super::calibration`]).
    pub calibration: super::calibration::Calibration,
}

/// Computes the statistics of `deck` now.
pub fn compute(deck: &Deck) -> Stats {
    let clock = deck.clock();
    let now = clock.now_ms();
    let today = deck.today();
    let end_of_today = deck.settings().day.start_of(clock, today + 1);

    let mut per_day: HashMap<i64, u32> = HashMap::new();
    let mut true_retention = TrueRetention::default();
    let mut total_reviews = 0;
    for (record, undone) in deck.records() {
        if undone || record.kind != Kind::Rate {
            continue;
        }
        total_reviews += 1;
        let day = deck.day_of(record.time);
        *per_day.entry(day).or_default() += 1;
        if record.before == Some(Phase::Review) && day > today - RETENTION_DAYS && day <= today {
            let passed = record.rating.is_some_and(|r| r > 1);
            let mature = record.last_interval_days.unwrap_or(0) >= MATURE_DAYS;
            if mature {
                true_retention.mature.add(passed);
            } else {
                true_retention.young.add(passed);
            }
            true_retention.total.add(passed);
        }
    }

    let mut cards = ByState::default();
    let mut due_today = 0;
    let mut forecast = vec![0u32; FORECAST_DAYS];
    let mut topics: BTreeMap<&str, (usize, usize, f64, usize)> = BTreeMap::new();
    let mut topic_order: Vec<&str> = Vec::new();
    for (i, card) in deck.cards().iter().enumerate() {
        let Some(state) = deck.state(i) else { continue };
        if state.suspended {
            cards.suspended += 1;
            continue;
        }
        let entry = topics.entry(card.topic.as_str()).or_insert_with(|| {
            topic_order.push(card.topic.as_str());
            (0, 0, 0.0, 0)
        });
        entry.0 += 1;
        if state.phase != Phase::New {
            entry.1 += 1;
            if let Some(r) = deck.retrievability(i) {
                entry.2 += r;
                entry.3 += 1;
            }
        }
        // A card buried through today (or later) comes back the day after its burial.
        let back_on = state
            .buried_through
            .filter(|&through| through >= today)
            .map(|through| through + 1);
        let due_day = match state.phase {
            Phase::New => {
                cards.new += 1;
                None
            }
            Phase::Learning | Phase::Relearning => {
                if state.phase == Phase::Learning {
                    cards.learning += 1;
                } else {
                    cards.relearning += 1;
                }
                if state.due_ms < end_of_today && back_on.is_none() {
                    due_today += 1;
                }
                Some(
                    deck.day_of(state.due_ms.max(now))
                        .max(back_on.unwrap_or(i64::MIN)),
                )
            }
            Phase::Review => {
                cards.review += 1;
                if state.due_day <= today && back_on.is_none() {
                    due_today += 1;
                }
                Some(state.due_day.max(back_on.unwrap_or(i64::MIN)))
            }
        };
        if let Some(day) = due_day {
            let offset = (day - today).max(0);
            if let Some(slot) = usize::try_from(offset)
                .ok()
                .and_then(|o| forecast.get_mut(o))
            {
                *slot += 1;
            }
        }
    }

    let first = today - (HEATMAP_DAYS as i64 - 1);
    let counts: Vec<u32> = (first..=today)
        .map(|day| per_day.get(&day).copied().unwrap_or(0))
        .collect();
    // Day 0 (1970-01-01) was a Thursday: weekday 3 counting from Monday.
    let first_weekday = (first + 3).rem_euclid(7) as u8;

    let start = if per_day.contains_key(&today) {
        today
    } else {
        today - 1
    };
    let streak_days = (0..)
        .take_while(|back| per_day.contains_key(&(start - back)))
        .count() as u32;

    Stats {
        today: DayRule::date(today),
        reviews_today: per_day.get(&today).copied().unwrap_or(0),
        due_today,
        cards,
        retention_30d: true_retention.total.retention,
        desired_retention: deck.settings().desired_retention,
        true_retention,
        forecast,
        heatmap: Heatmap {
            first_day: DayRule::date(first),
            first_weekday,
            counts,
        },
        topics: topic_order
            .iter()
            .map(|topic| {
                let (cards, studied, sum, with_r) = topics.get(topic).copied().unwrap_or_default();
                TopicMastery {
                    topic: (*topic).to_string(),
                    cards,
                    studied,
                    mastery: (with_r > 0).then(|| sum / with_r as f64),
                    desired_retention: deck.settings().topic_retention.get(*topic).copied(),
                }
            })
            .collect(),
        streak_days,
        total_reviews,
        calibration: super::calibration::compute(deck),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::srs::clock::{DAY_MS, FakeClock};
    use crate::srs::config::Settings;
    use crate::srs::deck::DeckCard;
    use crate::srs::schedule::{FsrsScheduler, Rating};
    use std::sync::Arc;

    #[test]
    fn figures_from_a_few_days_of_review() {
        let clock = Arc::new(FakeClock::new(1_764_590_400_000, 0));
        let cards = (0..4)
            .map(|i| DeckCard {
                id: format!("c{i}"),
                topic: if i < 2 { "banks" } else { "tiling" }.into(),
                rev: 0,
                drill: None,
                skill: None,
            })
            .collect();
        let mut deck = Deck::with_records(
            cards,
            vec![],
            Settings::default(),
            Box::new(FsrsScheduler::new(&[]).unwrap()),
            clock.clone(),
        );
        let empty = compute(&deck);
        assert_eq!(empty.retention_30d, None);
        assert_eq!(empty.cards.new, 4);
        assert_eq!(empty.forecast.len(), 30);
        assert_eq!(empty.heatmap.counts.len(), HEATMAP_DAYS);
        assert_eq!(empty.streak_days, 0);

        deck.rate(0, Rating::Easy, 1, None).unwrap();
        deck.rate(1, Rating::Again, 1, None).unwrap();
        deck.suspend(3).unwrap();
        clock.advance(DAY_MS);
        deck.rate(2, Rating::Easy, 1, None).unwrap();
        let due = deck.state(0).unwrap().due_day;
        clock.set(deck.settings().day.start_of(deck.clock(), due) + 3_600_000);
        deck.rate(0, Rating::Again, 1, None).unwrap();
        let stats = compute(&deck);
        assert_eq!(stats.reviews_today, 1);
        assert_eq!(stats.true_retention.young.failed, 1);
        assert_eq!(stats.retention_30d, Some(0.0));
        assert_eq!(
            stats.cards,
            ByState {
                new: 0,
                learning: 1,
                review: 1,
                relearning: 1,
                suspended: 1
            }
        );
        assert_eq!(stats.streak_days, 1);
        assert_eq!(stats.total_reviews, 4);
        assert_eq!(stats.forecast.iter().sum::<u32>(), 3);
        assert_eq!(stats.topics[0].topic, "banks");
        assert_eq!(stats.topics[1].cards, 1, "the suspended card is left out");
        assert!(stats.topics[0].mastery.is_some());
        assert_eq!(*stats.heatmap.counts.last().unwrap(), 1);
    }

    #[test]
    fn a_card_buried_today_is_not_due_today_but_tomorrow() {
        let clock = Arc::new(FakeClock::new(1_764_590_400_000, 0));
        let cards = (0..3)
            .map(|i| DeckCard {
                id: format!("c{i}"),
                topic: "banks".into(),
                rev: 0,
                drill: None,
                skill: None,
            })
            .collect();
        let mut deck = Deck::with_records(
            cards,
            vec![],
            Settings::default(),
            Box::new(FsrsScheduler::new(&[]).unwrap()),
            clock.clone(),
        );
        // c0 a review card due today, c1 in learning due in a minute.
        deck.rate(0, Rating::Easy, 1, None).unwrap();
        deck.rate(1, Rating::Again, 1, None).unwrap();
        let due = deck.state(0).unwrap().due_day;
        clock.set(deck.settings().day.start_of(deck.clock(), due) + 3_600_000);
        deck.rate(1, Rating::Again, 1, None).unwrap();
        let before = compute(&deck);
        assert_eq!(before.due_today, 2);
        assert_eq!(before.forecast[0], 2);
        deck.bury(0).unwrap();
        deck.bury(1).unwrap();
        let after = compute(&deck);
        assert_eq!(after.due_today, 0, "{after:?}");
        assert_eq!(after.forecast[0], 0);
        assert_eq!(after.forecast[1], 2, "back tomorrow");
        assert_eq!(deck.counts().review + deck.counts().learning, 0);
    }
}
