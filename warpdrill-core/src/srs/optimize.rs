//! Fitting the FSRS parameters to the learner's own log, and keeping them only when they predict that
//! log better than the parameters in use.

use super::SrsError;
use super::deck::Deck;
use super::log::Kind;
use fsrs::{ComputeParametersInput, FSRS, FSRSItem, FSRSReview};
use std::collections::HashMap;

/// Reviews the log must hold (as training items) before fitting is worth it.
pub const MIN_REVIEWS: usize = 400;

/// The outcome of fitting.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// Training items (reviews with a day or more of history).
    pub reviews: usize,
    /// Parameters in use.
    pub current: Vec<f32>,
    /// Parameters fitted to the log.
    pub fitted: Vec<f32>,
    /// Log loss of the current parameters on the log (lower predicts better).
    pub current_log_loss: f32,
    /// Log loss of the fitted parameters.
    pub fitted_log_loss: f32,
    /// Binned RMSE of the current parameters.
    pub current_rmse: f32,
    /// Binned RMSE of the fitted parameters.
    pub fitted_rmse: f32,
}

/// A difference in log loss smaller than this fraction (0.05 %) is no difference: it would print as
/// 0.0 % better or worse.
pub const SAME_WITHIN: f64 = 0.0005;

/// How the fitted parameters compare with those in use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// They predict the log better by this fraction (at least [`SAME_WITHIN`]).
    Better(f64),
    /// They predict it as well, within [`SAME_WITHIN`].
    Same,
    /// They predict it worse by this fraction (at least [`SAME_WITHIN`]).
    Worse(f64),
}

impl Fit {
    /// Whether the fitted parameters predict the log better (lower log loss, by at least
    /// [`SAME_WITHIN`]): only then are they worth saving.
    pub fn better(&self) -> bool {
        matches!(self.verdict(), Verdict::Better(_))
    }

    /// Better, the same, or worse.
    pub fn verdict(&self) -> Verdict {
        let improvement = self.improvement();
        if !improvement.is_finite() || improvement.abs() < SAME_WITHIN {
            Verdict::Same
        } else if improvement > 0.0 {
            Verdict::Better(improvement)
        } else {
            Verdict::Worse(-improvement)
        }
    }

    /// How much lower the fitted log loss is, as a fraction of the current (0.06 = 6 % better).
    pub fn improvement(&self) -> f64 {
        if self.current_log_loss > 0.0 {
            f64::from((self.current_log_loss - self.fitted_log_loss) / self.current_log_loss)
        } else {
            0.0
        }
    }
}

/// The log as FSRS training items: per card, each rating with the calendar days since the one
/// before; every rating given a day or more after the previous one is an item, with the card's
/// history before it (same-day ratings are history only, as FSRS predicts recall across days). Returns the items
/// and the card number of each.
pub fn training_items(deck: &Deck) -> (Vec<FSRSItem>, Vec<i64>) {
    let mut histories: HashMap<(&str, u32), Vec<(i64, u32)>> = HashMap::new();
    let mut order: Vec<(&str, u32)> = Vec::new();
    for (record, undone) in deck.records() {
        if undone || record.kind != Kind::Rate {
            continue;
        }
        let Some(rating) = record.rating.filter(|r| (1..=4).contains(r)) else {
            continue;
        };
        let key = (record.card.as_str(), record.rev);
        let history = histories.entry(key).or_insert_with(|| {
            order.push(key);
            Vec::new()
        });
        history.push((deck.day_of(record.time), u32::from(rating)));
    }
    let mut items = Vec::new();
    let mut card_ids = Vec::new();
    for (number, key) in order.iter().enumerate() {
        let Some(history) = histories.get(key) else {
            continue;
        };
        let mut reviews = Vec::with_capacity(history.len());
        let mut last_day = history.first().map_or(0, |h| h.0);
        for &(day, rating) in history {
            reviews.push(FSRSReview {
                rating,
                delta_t: u32::try_from(day - last_day).unwrap_or(0),
            });
            let long_term = day > last_day;
            last_day = day;
            if long_term {
                items.push(FSRSItem {
                    reviews: reviews.clone(),
                });
                card_ids.push(number as i64);
            }
        }
    }
    (items, card_ids)
}

/// Fits parameters to `deck`'s log and measures both sets on it. `relearning_steps` is how many
/// relearning steps the learner uses.
pub fn fit(deck: &Deck, current: &[f32], relearning_steps: usize) -> Result<Fit, SrsError> {
    let (items, card_ids) = training_items(deck);
    if items.len() < MIN_REVIEWS {
        return Err(SrsError::NotEnoughReviews {
            have: items.len(),
            need: MIN_REVIEWS,
        });
    }
    let reviews = items.len();
    let fsrs_error = |e: fsrs::FSRSError| SrsError::Fsrs(e.to_string());
    let input = ComputeParametersInput {
        train_set: items.clone(),
        card_ids: Some(card_ids),
        enable_short_term: true,
        num_relearning_steps: Some(relearning_steps),
        ..ComputeParametersInput::default()
    };
    let fitted = std::panic::catch_unwind(|| fsrs::compute_parameters(input))
        .map_err(|_| SrsError::Fsrs("the optimizer stopped on this log".into()))?
        .map_err(|e| SrsError::Fsrs(format!("fitting: {e}")))?;
    let current_model = FSRS::new(current).map_err(fsrs_error)?;
    let fitted_model = FSRS::new(&fitted).map_err(fsrs_error)?;
    let current_eval = current_model
        .evaluate(items.clone(), |_| true)
        .map_err(|e| SrsError::Fsrs(format!("evaluating: {e}")))?;
    let fitted_eval = fitted_model.evaluate(items, |_| true).map_err(fsrs_error)?;
    let current = if current.is_empty() {
        fsrs::DEFAULT_PARAMETERS.to_vec()
    } else {
        current.to_vec()
    };
    Ok(Fit {
        reviews,
        current,
        fitted,
        current_log_loss: current_eval.log_loss,
        fitted_log_loss: fitted_eval.log_loss,
        current_rmse: current_eval.rmse_bins,
        fitted_rmse: fitted_eval.rmse_bins,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::srs::clock::{DAY_MS, FakeClock};
    use crate::srs::config::Settings;
    use crate::srs::deck::DeckCard;
    use crate::srs::schedule::{FsrsScheduler, Rating, splitmix};
    use std::sync::Arc;

    /// A learner who recalls with the probability FSRS predicts, a bit worse on hard cards.
    fn simulated(cards: usize, days: i64) -> Deck {
        let clock = Arc::new(FakeClock::new(1_764_590_400_000, 0));
        let deck_cards = (0..cards)
            .map(|i| DeckCard {
                id: format!("c{i}"),
                topic: format!("t{}", i % 5),
                rev: 0,
                drill: None,
                skill: None,
            })
            .collect();
        let mut deck = Deck::with_records(
            deck_cards,
            vec![],
            Settings {
                new_per_day: 15,
                ..Settings::default()
            },
            Box::new(FsrsScheduler::new(&[]).unwrap()),
            clock.clone(),
        );
        let mut draw = 1u64;
        for _ in 0..days {
            let mut shown = 0;
            while let Some(i) = deck.next_card() {
                draw = splitmix(draw);
                let r = deck.retrievability(i).unwrap_or(0.5) * if i % 3 == 0 { 0.8 } else { 1.0 };
                let roll = (draw >> 11) as f64 / (1u64 << 53) as f64;
                let rating = if roll > r {
                    Rating::Again
                } else if roll > r * 0.8 {
                    Rating::Hard
                } else {
                    Rating::Good
                };
                deck.rate(i, rating, 3000, None).unwrap();
                clock.advance(30_000);
                shown += 1;
                if shown > 200 {
                    break;
                }
            }
            clock.advance(DAY_MS);
        }
        deck
    }

    #[test]
    fn too_few_reviews_are_refused_with_the_numbers() {
        let deck = simulated(10, 3);
        match fit(&deck, &[], 1) {
            Err(SrsError::NotEnoughReviews { have, need }) => {
                assert!(have < need);
                assert_eq!(need, MIN_REVIEWS);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn fitting_a_long_log_gives_usable_parameters() {
        let deck = simulated(150, 60);
        let fit = fit(&deck, &[], 1).unwrap();
        assert!(fit.reviews >= MIN_REVIEWS, "{}", fit.reviews);
        assert_eq!(fit.fitted.len(), 21);
        assert!(fit.fitted_log_loss.is_finite() && fit.current_log_loss.is_finite());
        assert!(FsrsScheduler::new(&fit.fitted).is_ok());
    }
}
