//! Drill cards: a card that points at an exercise template. Each review draws a fresh variant (the
//! seed goes into the log), the learner types the answer, the ladder's own grader marks it, and a
//! rating is proposed from correctness, hints and time, which the learner may change.

use super::SrsError;
use super::config::Settings;
use super::schedule::{Rating, hash_text, splitmix};
use crate::content::schema::ExerciseTemplate;
use crate::ladder::{self, Outcome, Variant};

/// The variant of `template` shown for a drill card reviewed at `now_ms`: the seed mixes the card's
/// id with the time, so every review brings new numbers and the log can redraw the same ones.
pub fn seed_for(card_id: &str, now_ms: i64) -> u64 {
    splitmix(hash_text(card_id) ^ now_ms as u64) >> 1
}

/// Draws the variant of `template` for `seed`.
pub fn draw(card_id: &str, template: &ExerciseTemplate, seed: u64) -> Result<Variant, SrsError> {
    ladder::generate(template, seed).map_err(|e| SrsError::Drill {
        card: card_id.to_string(),
        message: e.to_string(),
    })
}

/// The rating proposed for a graded answer: wrong → Again; right after a hint or slowly → Hard;
/// right → Good; right fast → Easy. `None` for input that is not an answer (nothing to rate yet)
/// and for an explanation, which the learner marks.
pub fn proposed_rating(
    outcome: Outcome,
    hints_used: u32,
    duration_ms: u64,
    settings: &Settings,
) -> Option<Rating> {
    match outcome {
        // Not an answer, or an explanation the learner compares with the model and rates.
        Outcome::Unusable | Outcome::Compare => None,
        Outcome::Wrong => Some(Rating::Again),
        Outcome::Correct if hints_used > 0 || duration_ms > settings.drill_slow_ms => {
            Some(Rating::Hard)
        }
        Outcome::Correct if duration_ms <= settings.drill_fast_ms => Some(Rating::Easy),
        Outcome::Correct => Some(Rating::Good),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;

    fn template(id: &str) -> ExerciseTemplate {
        Content::builtin()
            .exercise(id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} is built in"))
    }

    #[test]
    fn a_drill_draws_the_ladders_own_variant() {
        // Graded by the same attempt as the ladder (`ladder::attempt`), on the same variant.
        let t = template("l2-stride-sectors");
        for n in 0..20 {
            let seed = seed_for("drill-stride-sectors", 1_000 + n);
            let variant = draw("drill-stride-sectors", &t, seed).unwrap();
            assert_eq!(variant, ladder::generate(&t, seed).unwrap());
        }
    }

    #[test]
    fn seeds_change_with_time_and_redraw_the_same_variant() {
        let t = template("l1-bank-of-address");
        let a = seed_for("drill-bank", 1);
        let b = seed_for("drill-bank", 2);
        assert_ne!(a, b);
        assert_eq!(
            draw("drill-bank", &t, a).unwrap(),
            draw("drill-bank", &t, a).unwrap()
        );
    }

    #[test]
    fn proposed_ratings() {
        let s = Settings::default();
        assert_eq!(
            proposed_rating(Outcome::Wrong, 0, 1000, &s),
            Some(Rating::Again)
        );
        assert_eq!(proposed_rating(Outcome::Unusable, 0, 1000, &s), None);
        assert_eq!(
            proposed_rating(Outcome::Correct, 0, 5_000, &s),
            Some(Rating::Easy)
        );
        assert_eq!(
            proposed_rating(Outcome::Correct, 0, 30_000, &s),
            Some(Rating::Good)
        );
        assert_eq!(
            proposed_rating(Outcome::Correct, 1, 5_000, &s),
            Some(Rating::Hard)
        );
        assert_eq!(
            proposed_rating(Outcome::Correct, 0, 90_000, &s),
            Some(Rating::Hard)
        );
    }
}
