//! Scheduling: FSRS (through the `fsrs` crate) behind the small [`Scheduler`] trait, and the learning
//! steps FSRS leaves to the application, done as Anki does them.
//!
//! A new card walks the learning steps (default 1 min, 10 min) on the same day: Again goes back to
//! the first step, Hard repeats the current one (the first: halfway to the second), Good moves on, and
//! Good on the last step or Easy anywhere graduates it to review with the interval FSRS gives. A review
//! card forgotten (Again) walks the relearning steps (default 10 min) and returns to review. Review
//! intervals are fuzzed by a few percent, seeded by the card, so that cards learned together drift
//! apart, and so that tests are deterministic.

use super::SrsError;
use super::config::Settings;
use crate::i18n::Lang;
use crate::t;
use serde::{Deserialize, Serialize};

/// The learner's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rating {
    /// Forgot.
    Again = 1,
    /// Recalled with difficulty.
    Hard = 2,
    /// Recalled.
    Good = 3,
    /// Recalled effortlessly.
    Easy = 4,
}

impl Rating {
    /// Again, Hard, Good, Easy.
    pub const ALL: [Rating; 4] = [Rating::Again, Rating::Hard, Rating::Good, Rating::Easy];

    /// 1 … 4.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The rating of button `n` (1 … 4).
    pub fn from_number(n: u8) -> Option<Rating> {
        Rating::ALL.get(usize::from(n).wrapping_sub(1)).copied()
    }

    /// `Again`, `Hard`, `Good`, `Easy`.
    pub fn name(self) -> &'static str {
        match self {
            Rating::Again => "Again",
            Rating::Hard => "Hard",
            Rating::Good => "Good",
            Rating::Easy => "Easy",
        }
    }

    /// The rating's name on a button in `lang`: `Again`, `Hard`, `Good`, `Easy` in English (the same
    /// as [`Rating::name`]); 다시, 어려움, 좋음, 쉬움 in Korean.
    pub fn label(self, lang: Lang) -> String {
        match self {
            Rating::Again => t!(lang, "review-rating-again"),
            Rating::Hard => t!(lang, "review-rating-hard"),
            Rating::Good => t!(lang, "review-rating-good"),
            Rating::Easy => t!(lang, "review-rating-easy"),
        }
    }

    fn index(self) -> usize {
        self as usize - 1
    }
}

/// Where a card is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Never rated.
    New,
    /// Walking the learning steps.
    Learning,
    /// Scheduled in days.
    Review,
    /// Forgotten, walking the relearning steps.
    Relearning,
}

impl Phase {
    /// `new`, `learning`, `review`, `relearning`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::New => "new",
            Phase::Learning => "learning",
            Phase::Review => "review",
            Phase::Relearning => "relearning",
        }
    }

    /// The FSRS optimizer's state number: 0 new, 1 learning, 2 review, 3 relearning.
    pub fn number(self) -> u8 {
        match self {
            Phase::New => 0,
            Phase::Learning => 1,
            Phase::Review => 2,
            Phase::Relearning => 3,
        }
    }
}

/// FSRS's memory model of one card.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// Days until recall probability falls to 90 %.
    pub stability: f32,
    /// 1 (easy) … 10 (hard).
    pub difficulty: f32,
}

/// Everything the scheduler knows about one card, derived from the log.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CardState {
    /// New, learning, review or relearning.
    pub phase: Phase,
    /// Index of the current (re)learning step.
    pub step: u8,
    /// Memory model (none before the first rating).
    pub memory: Option<Memory>,
    /// For learning and relearning: when it is due (UTC ms).
    pub due_ms: i64,
    /// For review: the day it is due (see [`super::clock::DayRule`]).
    pub due_day: i64,
    /// The last interval in days (0 while learning).
    pub interval_days: u32,
    /// When it was last rated (UTC ms).
    pub last_review_ms: Option<i64>,
    /// Ratings so far.
    pub reps: u32,
    /// Times forgotten after graduating.
    pub lapses: u32,
    /// Kept out of review until unsuspended.
    pub suspended: bool,
    /// Kept out of review through this day.
    pub buried_through: Option<i64>,
    /// Brought forward by a wrong ladder answer (new cards come first).
    pub first: bool,
}

impl CardState {
    /// A card never seen.
    pub const NEW: CardState = CardState {
        phase: Phase::New,
        step: 0,
        memory: None,
        due_ms: 0,
        due_day: 0,
        interval_days: 0,
        last_review_ms: None,
        reps: 0,
        lapses: 0,
        suspended: false,
        buried_through: None,
        first: false,
    };
}

impl Default for CardState {
    fn default() -> Self {
        CardState::NEW
    }
}

/// One possible outcome from FSRS: the memory after a rating and the interval it supports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Next {
    /// The memory after the rating.
    pub memory: Memory,
    /// Days until recall probability falls to the desired retention.
    pub interval_days: f32,
}

/// The memory model the scheduler needs. [`FsrsScheduler`] is the real one.
pub trait Scheduler: Send + Sync {
    /// The memory and interval after each rating (Again, Hard, Good, Easy), from `memory` (none for a
    /// new card) after `elapsed_days` calendar days, for an interval at which the probability of
    /// recall has fallen to `desired_retention`.
    fn next_states(
        &self,
        memory: Option<Memory>,
        elapsed_days: u32,
        desired_retention: f32,
    ) -> Result<[Next; 4], SrsError>;
    /// Probability of recall `elapsed_days` after the last review.
    fn retrievability(&self, memory: Memory, elapsed_days: f64) -> f64;
}

/// FSRS-6 with given parameters.
#[derive(Debug, Clone)]
pub struct FsrsScheduler {
    model: fsrs::FSRS,
    parameters: Vec<f32>,
}

impl FsrsScheduler {
    /// FSRS with `parameters` (empty: the defaults, fitted to many learners).
    pub fn new(parameters: &[f32]) -> Result<FsrsScheduler, SrsError> {
        let model = fsrs::FSRS::new(parameters).map_err(|e| SrsError::Fsrs(e.to_string()))?;
        let parameters = if parameters.is_empty() {
            fsrs::DEFAULT_PARAMETERS.to_vec()
        } else {
            fsrs::check_and_fill_parameters(parameters)
                .map_err(|e| SrsError::Fsrs(e.to_string()))?
        };
        Ok(FsrsScheduler { model, parameters })
    }

    /// The parameters in use (21 numbers).
    pub fn parameters(&self) -> &[f32] {
        &self.parameters
    }

    fn decay(&self) -> f32 {
        self.parameters
            .get(20)
            .copied()
            .unwrap_or(fsrs::FSRS6_DEFAULT_DECAY)
    }
}

impl Scheduler for FsrsScheduler {
    fn next_states(
        &self,
        memory: Option<Memory>,
        elapsed_days: u32,
        desired_retention: f32,
    ) -> Result<[Next; 4], SrsError> {
        let memory = memory.map(|m| fsrs::MemoryState {
            stability: m.stability,
            difficulty: m.difficulty,
        });
        let next = self
            .model
            .next_states(memory, desired_retention, elapsed_days)
            .map_err(|e| SrsError::Fsrs(e.to_string()))?;
        let one = |state: fsrs::ItemState| Next {
            memory: Memory {
                stability: state.memory.stability,
                difficulty: state.memory.difficulty,
            },
            interval_days: state.interval,
        };
        Ok([
            one(next.again),
            one(next.hard),
            one(next.good),
            one(next.easy),
        ])
    }

    fn retrievability(&self, memory: Memory, elapsed_days: f64) -> f64 {
        if memory.stability <= 0.0 {
            return 0.0;
        }
        let r = fsrs::current_retrievability(
            fsrs::MemoryState {
                stability: memory.stability,
                difficulty: memory.difficulty,
            },
            elapsed_days.max(0.0) as f32,
            self.decay(),
        );
        f64::from(r).clamp(0.0, 1.0)
    }
}

/// The longest interval given, in days (100 years).
pub const MAX_INTERVAL_DAYS: u32 = 36_500;

/// What is needed to answer one card.
#[derive(Debug, Clone, Copy)]
pub struct Moment {
    /// Now (UTC ms).
    pub now_ms: i64,
    /// Today's day number.
    pub today: i64,
    /// Calendar days since the last rating (0 for a new card).
    pub elapsed_days: u32,
    /// Seed of this card's fuzz.
    pub fuzz_seed: u64,
    /// The probability of recall the next interval aims at (the card's topic's, or the deck's).
    pub desired_retention: f32,
}

/// The state after rating `state` with `rating`; review intervals are spread over the days of their
/// fuzz range by `load` when it is given ([`balanced`]).
pub fn answer(
    state: &CardState,
    rating: Rating,
    at: Moment,
    settings: &Settings,
    scheduler: &dyn Scheduler,
    load: Option<&Load>,
) -> Result<CardState, SrsError> {
    let elapsed = if state.phase == Phase::New {
        0
    } else {
        at.elapsed_days
    };
    let next = scheduler.next_states(state.memory, elapsed, at.desired_retention)?;
    let mut after = *state;
    after.memory = Some(next[rating.index()].memory);
    after.last_review_ms = Some(at.now_ms);
    after.reps = state.reps.saturating_add(1);
    after.first = false;
    after.buried_through = None;
    let learning = |after: &mut CardState, phase: Phase, step: usize, delay_secs: i64| {
        after.phase = phase;
        after.step = u8::try_from(step).unwrap_or(u8::MAX);
        after.due_ms = at.now_ms + delay_secs * 1000;
        after.due_day = 0;
        after.interval_days = 0;
    };
    let review = |after: &mut CardState, days: u32| {
        after.phase = Phase::Review;
        after.step = 0;
        after.interval_days = days;
        after.due_day = at.today + i64::from(days);
        after.due_ms = 0;
    };
    let intervals = review_intervals(&next, state, at, load);
    match state.phase {
        Phase::New | Phase::Learning | Phase::Relearning => {
            let (steps, phase) = if state.phase == Phase::Relearning {
                (&settings.relearning_steps, Phase::Relearning)
            } else {
                (&settings.learning_steps, Phase::Learning)
            };
            let step = if state.phase == Phase::New {
                0
            } else {
                usize::from(state.step).min(steps.len().saturating_sub(1))
            };
            match (rating, steps.first()) {
                (Rating::Again, Some(&first)) => learning(&mut after, phase, 0, first),
                (Rating::Hard, Some(&first)) => {
                    let delay = if step == 0 {
                        match steps.get(1) {
                            Some(second) => (first + second) / 2,
                            None => (first * 3 / 2).min(first + 86_400),
                        }
                    } else {
                        steps[step]
                    };
                    learning(&mut after, phase, step, delay);
                }
                (Rating::Good, Some(_)) if step + 1 < steps.len() => {
                    learning(&mut after, phase, step + 1, steps[step + 1]);
                }
                _ => review(&mut after, intervals[rating.index()]),
            }
        }
        Phase::Review => {
            if rating == Rating::Again {
                after.lapses = state.lapses.saturating_add(1);
                match settings.relearning_steps.first() {
                    Some(&first) => learning(&mut after, Phase::Relearning, 0, first),
                    None => review(&mut after, intervals[0]),
                }
            } else {
                review(&mut after, intervals[rating.index()]);
            }
        }
    }
    Ok(after)
}

/// Whole-day intervals for each rating, at least a day, each fuzzed, ordered as Anki orders them:
/// Hard < Good < Easy for a review card, and Easy at least a day past Good when a learning or
/// relearning card graduates.
fn review_intervals(
    next: &[Next; 4],
    state: &CardState,
    at: Moment,
    load: Option<&Load>,
) -> [u32; 4] {
    let days = |n: &Next| -> f64 {
        let days = f64::from(n.interval_days);
        if days.is_finite() {
            days.clamp(1.0, f64::from(MAX_INTERVAL_DAYS))
        } else {
            1.0
        }
    };
    let mut out = [0u32; 4];
    for (i, n) in next.iter().enumerate() {
        let seed = at.fuzz_seed.wrapping_add(i as u64);
        out[i] = match load {
            Some(load) => balanced(days(n), seed, state.interval_days, at.today, load),
            None => fuzz(days(n), seed, state.interval_days),
        };
    }
    if state.phase == Phase::Review {
        out[1] = out[1].max(1);
        out[2] = out[2].max(out[1] + 1);
        out[3] = out[3].max(out[2] + 1);
    } else {
        out[3] = out[3].max(out[2] + 1);
    }
    out.map(|d| d.min(MAX_INTERVAL_DAYS))
}

/// Anki's fuzz of an interval of `raw` days (as FSRS gives it, before rounding): none under 2.5 days,
/// then ±15 % up to a week, ±10 % to 20 days and ±5 % beyond, plus a day either way; the draw comes
/// from `seed`. As in Anki, an interval FSRS makes longer than the last one (`last_interval`) stays
/// longer after the fuzz and the rounding: at least `last_interval + 1`.
pub fn fuzz(raw: f64, seed: u64, last_interval: u32) -> u32 {
    let (low, high) = fuzz_range(raw, last_interval);
    let unit = unit(seed);
    ((unit * f64::from(high - low + 1) + f64::from(low)).floor() as u32).min(high)
}

/// The days [`fuzz`] draws from: `(low, high)`, the same day twice when there is no fuzz.
pub fn fuzz_range(raw: f64, last_interval: u32) -> (u32, u32) {
    let days = raw.round();
    let longer = raw > f64::from(last_interval);
    let floor = if longer {
        f64::from(last_interval) + 1.0
    } else {
        0.0
    };
    if days < 2.5 {
        let day = days.max(floor).min(f64::from(MAX_INTERVAL_DAYS)) as u32;
        return (day, day);
    }
    let delta = 1.0
        + 0.15 * (days.min(7.0) - 2.5).max(0.0)
        + 0.10 * (days.min(20.0) - 7.0).max(0.0)
        + 0.05 * (days - 20.0).max(0.0);
    let low = (days - delta).round().max(2.0).max(floor);
    let high = (days + delta).round().max(low);
    (low as u32, high as u32)
}

/// A number in [0, 1) drawn from `seed`.
fn unit(seed: u64) -> f64 {
    (splitmix(seed) >> 11) as f64 / (1u64 << 53) as f64
}

/// Intervals longer than this are not balanced (as in Anki): that far out, a day either way
/// hardly changes a day's load, and the due counts are not known yet.
pub const MAX_BALANCED_DAYS: u32 = 90;

/// What the load balancer knows of the days ahead: how many review cards are due on each, and how
/// much of a normal day's load each weekday takes ("easy days").
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// The day `due[0]` counts.
    first_day: i64,
    /// Review cards due on each day from `first_day`.
    due: Vec<u32>,
    /// Monday first: 1 a normal day, 0.5 half the load, 0 none while another day can take it.
    share: [f32; 7],
}

impl Load {
    /// The load of the days from `first_day` on, with `due[k]` cards due on day `first_day + k`.
    pub fn new(first_day: i64, due: Vec<u32>, share: [f32; 7]) -> Load {
        Load {
            first_day,
            due,
            share,
        }
    }

    /// Review cards due on `day`.
    pub fn due_on(&self, day: i64) -> u32 {
        usize::try_from(day - self.first_day)
            .ok()
            .and_then(|k| self.due.get(k))
            .copied()
            .unwrap_or(0)
    }

    /// The share of a normal day's load that `day` takes.
    pub fn share(&self, day: i64) -> f32 {
        self.share[weekday(day)]
    }
}

/// The weekday of a day number, Monday 0 … Sunday 6 (day 0, 1 January 1970, was a Thursday).
pub fn weekday(day: i64) -> usize {
    (day + 3).rem_euclid(7) as usize
}

/// The load balancer, as Anki's: an interval of `raw` days, whose fuzz range is [`fuzz_range`],
/// falls on one of those days drawn by weight — 1 for a day with no review due, else 1/n² for a
/// day with n due, times 1/interval (nearer days a little likelier), times the day's share of
/// load ([`Load::share`]). Days of share 0 are left out unless every day of the range is one.
/// Without a range (under 2.5 days) or beyond [`MAX_BALANCED_DAYS`] it is [`fuzz`].
pub fn balanced(raw: f64, seed: u64, last_interval: u32, today: i64, load: &Load) -> u32 {
    let (low, high) = fuzz_range(raw, last_interval);
    if low == high || high > MAX_BALANCED_DAYS {
        return fuzz(raw, seed, last_interval);
    }
    let weight = |days: u32, easy: bool| -> f64 {
        let day = today + i64::from(days);
        let n = f64::from(load.due_on(day));
        let base = if n == 0.0 { 1.0 } else { 1.0 / (n * n) };
        let share = if easy {
            f64::from(load.share(day))
        } else {
            1.0
        };
        base / f64::from(days.max(1)) * share
    };
    let easy = (low..=high).any(|d| weight(d, true) > 0.0);
    let total: f64 = (low..=high).map(|d| weight(d, easy)).sum();
    let mut left = unit(seed) * total;
    for days in low..=high {
        left -= weight(days, easy);
        if left < 0.0 {
            return days;
        }
    }
    // Rounding: the last day with any weight.
    (low..=high)
        .rev()
        .find(|&d| weight(d, easy) > 0.0)
        .unwrap_or(high)
}

/// A well-mixed 64-bit hash step.
pub fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a of a text (stable across runs and platforms).
pub fn hash_text(text: &str) -> u64 {
    hash_bytes(text.as_bytes())
}

/// FNV-1a of bytes (stable across runs and platforms).
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// An interval as a button shows it: `1m`, `10m`, `2h`, `3d`, `1.5mo`, `2.1y`.
pub fn interval_label(from_ms: i64, to_ms: i64) -> String {
    interval_text(Lang::En, from_ms, to_ms)
}

/// A number of days as a button shows it: `3d`, `1.5mo`, `2.1y`.
pub fn days_label(days: u32) -> String {
    days_text(Lang::En, days)
}

/// [`interval_label`] in `lang`: `10m`, `3d` in English; `10분`, `3일` in Korean.
pub fn interval_text(lang: Lang, from_ms: i64, to_ms: i64) -> String {
    let secs = ((to_ms - from_ms) / 1000).max(0);
    if secs < 3600 {
        let n = (secs as f64 / 60.0).round().max(1.0);
        t!(lang, "review-interval-minutes", n = n)
    } else if secs < 86_400 {
        let n = crate::format::trim_float(secs as f64 / 3600.0, 1);
        t!(lang, "review-interval-hours", n = n)
    } else {
        days_text(lang, ((secs as f64) / 86_400.0).round() as u32)
    }
}

/// [`days_label`] in `lang`: `3d`, `1.5mo`, `2.1y` in English; `3일`, `1.5개월`, `2.1년` in Korean.
pub fn days_text(lang: Lang, days: u32) -> String {
    let d = f64::from(days);
    if days < 30 {
        t!(lang, "review-interval-days", n = days)
    } else if days < 365 {
        let n = crate::format::trim_float(d / 30.4, 1);
        t!(lang, "review-interval-months", n = n)
    } else {
        let n = crate::format::trim_float(d / 365.0, 1);
        t!(lang, "review-interval-years", n = n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(now_ms: i64, today: i64, elapsed_days: u32) -> Moment {
        Moment {
            now_ms,
            today,
            elapsed_days,
            fuzz_seed: 7,
            desired_retention: 0.9,
        }
    }

    fn fsrs() -> FsrsScheduler {
        FsrsScheduler::new(&[]).unwrap()
    }

    #[test]
    fn a_new_card_walks_the_learning_steps() {
        let s = Settings::default();
        let f = fsrs();
        let again = answer(&CardState::NEW, Rating::Again, at(0, 0, 0), &s, &f, None).unwrap();
        assert_eq!(
            (again.phase, again.step, again.due_ms),
            (Phase::Learning, 0, 60_000)
        );
        let hard = answer(&CardState::NEW, Rating::Hard, at(0, 0, 0), &s, &f, None).unwrap();
        assert_eq!((hard.phase, hard.due_ms), (Phase::Learning, 330_000));
        let good = answer(&CardState::NEW, Rating::Good, at(0, 0, 0), &s, &f, None).unwrap();
        assert_eq!(
            (good.phase, good.step, good.due_ms),
            (Phase::Learning, 1, 600_000)
        );
        let graduated = answer(&good, Rating::Good, at(600_000, 0, 0), &s, &f, None).unwrap();
        assert_eq!(graduated.phase, Phase::Review);
        assert!(graduated.interval_days >= 1);
        assert_eq!(graduated.due_day, i64::from(graduated.interval_days));
        let easy = answer(&CardState::NEW, Rating::Easy, at(0, 0, 0), &s, &f, None).unwrap();
        assert_eq!(easy.phase, Phase::Review);
        assert!(easy.interval_days > graduated.interval_days);
    }

    #[test]
    fn without_steps_a_new_card_graduates_at_once() {
        let s = Settings {
            learning_steps: vec![],
            ..Settings::default()
        };
        let good = answer(
            &CardState::NEW,
            Rating::Good,
            at(0, 0, 0),
            &s,
            &fsrs(),
            None,
        )
        .unwrap();
        assert_eq!(good.phase, Phase::Review);
    }

    #[test]
    fn review_intervals_are_ordered_and_fuzz_is_bounded() {
        let s = Settings::default();
        let f = fsrs();
        let mut state = answer(&CardState::NEW, Rating::Easy, at(0, 0, 0), &s, &f, None).unwrap();
        state.interval_days = 30;
        let day = 30;
        let outcomes: Vec<_> = Rating::ALL
            .iter()
            .map(|&r| answer(&state, r, at(day * 86_400_000, day, 30), &s, &f, None).unwrap())
            .collect();
        assert_eq!(outcomes[0].phase, Phase::Relearning);
        assert_eq!(outcomes[0].lapses, 1);
        assert!(outcomes[1].interval_days < outcomes[2].interval_days);
        assert!(outcomes[2].interval_days < outcomes[3].interval_days);
        for seed in 0..200 {
            let d = fuzz(100.0, seed, 50);
            assert!((93..=107).contains(&d), "{d}");
        }
        assert_eq!(fuzz(2.0, 3, 1), 2);
    }

    #[test]
    fn easy_is_a_day_past_good_when_a_learning_or_relearning_card_graduates() {
        // A scheduler whose Good and Easy intervals round to the same day, as FSRS's do for a card
        // whose stability is about a day.
        struct Close;
        impl Scheduler for Close {
            fn next_states(
                &self,
                _: Option<Memory>,
                _: u32,
                _: f32,
            ) -> Result<[Next; 4], SrsError> {
                let next = |interval_days| Next {
                    memory: Memory {
                        stability: 1.0,
                        difficulty: 5.0,
                    },
                    interval_days,
                };
                Ok([next(0.2), next(0.6), next(1.1), next(1.3)])
            }
            fn retrievability(&self, _: Memory, _: f64) -> f64 {
                0.9
            }
        }
        let s = Settings::default();
        let learning = CardState {
            phase: Phase::Learning,
            step: 1,
            memory: Some(Memory {
                stability: 1.0,
                difficulty: 5.0,
            }),
            due_ms: 0,
            ..CardState::NEW
        };
        let relearning = CardState {
            phase: Phase::Relearning,
            step: 0,
            lapses: 1,
            ..learning
        };
        for card in [learning, relearning] {
            let good = answer(&card, Rating::Good, at(0, 0, 0), &s, &Close, None).unwrap();
            let easy = answer(&card, Rating::Easy, at(0, 0, 0), &s, &Close, None).unwrap();
            assert_eq!(good.phase, Phase::Review, "{card:?}");
            assert!(
                easy.interval_days > good.interval_days,
                "{:?}: Good {} Easy {}",
                card.phase,
                good.interval_days,
                easy.interval_days
            );
        }
    }

    #[test]
    fn fuzz_never_shortens_an_interval_fsrs_lengthens() {
        // A same-day review: FSRS lengthens a 10-day interval a little (10.3 days); no draw may give
        // 10 days or fewer.
        for last in [3u32, 10, 25, 100] {
            for seed in 0..500 {
                let raw = f64::from(last) + 0.3;
                let d = fuzz(raw, seed, last);
                assert!(d > last, "last {last}, raw {raw}, seed {seed}: {d}");
            }
        }
        // FSRS shortening it is left to the fuzz.
        assert!((0..200).any(|seed| fuzz(9.6, seed, 10) < 10));
    }

    #[test]
    fn the_load_balancer_prefers_the_emptier_days_of_the_fuzz_range() {
        // 20 days: the range is 17..=23 (±3). Day 21 has nothing due, the others 30 each.
        let today = 1000;
        let mut due = vec![30u32; 40];
        due[21] = 0;
        let load = Load::new(today, due, [1.0; 7]);
        assert_eq!(fuzz_range(20.0, 10), (17, 23));
        let picks: Vec<u32> = (0..1000)
            .map(|seed| balanced(20.0, seed, 10, today, &load))
            .collect();
        let empty = picks.iter().filter(|&&d| d == 21).count();
        assert!(empty > 990, "{empty} of 1000 on the empty day");
        assert!(picks.iter().all(|d| (17..=23).contains(d)));
        // With every day alike it is the fuzz's spread, nearer days a little likelier.
        let flat = Load::new(today, vec![10; 40], [1.0; 7]);
        let mut seen = [0; 7];
        for seed in 0..7000 {
            seen[(balanced(20.0, seed, 10, today, &flat) - 17) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
        assert!(seen[0] > seen[6], "{seen:?}");
        // No range (under 2.5 days) or beyond 90 days: the fuzz alone.
        assert_eq!(balanced(2.0, 5, 1, today, &load), fuzz(2.0, 5, 1));
        assert_eq!(balanced(200.0, 5, 100, today, &load), fuzz(200.0, 5, 100));
    }

    #[test]
    fn an_easy_day_takes_its_share_and_a_day_off_none() {
        // The range 17..=23 covers each weekday once.
        let today = 1000;
        let shares = [1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0];
        let load = Load::new(today, vec![5; 40], shares);
        let mut on = [0usize; 7];
        for seed in 0..7000 {
            let days = balanced(20.0, seed, 10, today, &load);
            on[weekday(today + i64::from(days))] += 1;
        }
        assert_eq!(on[6], 0, "nothing lands on Sunday: {on:?}");
        let normal = on[..5].iter().sum::<usize>() as f64 / 5.0;
        let saturday = on[5] as f64;
        assert!(
            saturday > normal * 0.3 && saturday < normal * 0.7,
            "Saturday takes about half a normal day's share: {on:?}"
        );
        // 1 Jan 1970 was a Thursday; 1 Dec 2025 a Monday.
        assert_eq!(weekday(0), 3);
        assert_eq!(weekday(20423), 0);
    }

    #[test]
    fn a_lower_desired_retention_gives_longer_intervals() {
        let s = Settings::default();
        let f = fsrs();
        let review = answer(&CardState::NEW, Rating::Easy, at(0, 0, 0), &s, &f, None).unwrap();
        let at_r = |r: f32| Moment {
            desired_retention: r,
            fuzz_seed: 1,
            ..at(30 * 86_400_000, 30, 30)
        };
        let low = answer(&review, Rating::Good, at_r(0.80), &s, &f, None).unwrap();
        let high = answer(&review, Rating::Good, at_r(0.95), &s, &f, None).unwrap();
        assert!(
            low.interval_days > high.interval_days * 2,
            "{} at 80 % against {} at 95 %",
            low.interval_days,
            high.interval_days
        );
        // The memory is the same: retention sets the interval, not what was learnt.
        assert_eq!(low.memory, high.memory);
    }

    #[test]
    fn labels() {
        assert_eq!(interval_label(0, 60_000), "1m");
        assert_eq!(interval_label(0, 600_000), "10m");
        assert_eq!(interval_label(0, 3 * 86_400_000), "3d");
        assert_eq!(days_label(45), "1.5mo");
        assert_eq!(days_label(800), "2.2y");
        assert_eq!(interval_text(Lang::Ko, 0, 600_000), "10분");
        assert_eq!(interval_text(Lang::Ko, 0, 2 * 3_600_000), "2시간");
        assert_eq!(days_text(Lang::Ko, 3), "3일");
        assert_eq!(days_text(Lang::Ko, 61), "2개월");
        assert_eq!(days_text(Lang::Ko, 800), "2.2년");
        assert_eq!(Rating::Hard.label(Lang::En), Rating::Hard.name());
        assert_eq!(Rating::Again.label(Lang::Ko), "다시");
        assert_eq!(Rating::from_number(3), Some(Rating::Good));
        assert_eq!(Rating::from_number(0), None);
        assert_eq!(Rating::from_number(5), None);
    }
}
