//! The copy flag: a student's wrong number equal to another student's right number on the same
//! step hints at copying only when such a match is unlikely by luck. The chance that a student's
//! right answer to an exercise is a given number comes from the exercise's own variants (the
//! distribution every student's numbers are drawn from); the chance of a pair's matches is the
//! product over the steps they match on; and a pair is flagged only when, over every ordered pair
//! of the class, a match that strong would happen by luck less than once in a hundred classes.
//!
//! With independent guesses, most single matches on a step whose answers take few values (a sector
//! count of 4 or 8) are luck and are not flagged; several matches on steps whose answers vary are.

use crate::content::Content;
use crate::ladder::generate;
use std::collections::BTreeMap;

/// Variants drawn per exercise to estimate how often each right answer comes up.
pub const SAMPLES: usize = 1000;

/// Flag a pair when the expected number of pairs matching this strongly by luck is below this.
pub const ALPHA: f64 = 0.01;

/// A number a student gave on a step.
#[derive(Debug, Clone, PartialEq)]
pub struct Given {
    /// Student id.
    pub student: String,
    /// Step number, 1-based.
    pub step: usize,
    /// The exercise the step gave this student.
    pub exercise: String,
    /// The number.
    pub value: f64,
    /// As typed.
    pub text: String,
    /// Graded right.
    pub right: bool,
}

/// How often each right answer of an exercise comes up among its variants.
#[derive(Debug, Default)]
pub struct Odds {
    by_exercise: BTreeMap<String, Vec<f64>>,
}

impl Odds {
    /// The chance that a variant of `exercise` has `value` as its answer, add-one smoothed (a
    /// value never drawn still has a chance of 1 in `SAMPLES + 1`).
    pub fn chance(&mut self, content: &Content, exercise: &str, value: f64) -> f64 {
        let answers = self
            .by_exercise
            .entry(exercise.to_string())
            .or_insert_with(|| sample(content, exercise));
        let hits = answers.iter().filter(|&&a| same_number(a, value)).count();
        (hits as f64 + 1.0) / (answers.len() as f64 + 1.0)
    }
}

fn sample(content: &Content, exercise: &str) -> Vec<f64> {
    let Some(template) = content.exercise(exercise) else {
        return Vec::new();
    };
    (0..SAMPLES as u64)
        .filter_map(|i| {
            let seed = seed_for(exercise, i);
            generate(template, seed).ok()?.key.value()
        })
        .collect()
}

/// Sample seeds: fixed, and unrelated to any lab's (so the estimate is the same in every report).
fn seed_for(exercise: &str, i: u64) -> u64 {
    let hash = blake3::hash(format!("copy odds {exercise} {i}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&hash.as_bytes()[..8]);
    u64::from_le_bytes(bytes)
}

/// Whether two answers are the same number.
pub fn same_number(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The flags, by the student whose wrong answers match: one line per pair flagged, naming the
/// other student, the steps and the chance by luck.
pub fn flags(content: &Content, given: &[Given]) -> BTreeMap<String, Vec<String>> {
    let mut odds = Odds::default();
    let mut students: Vec<&str> = given.iter().map(|g| g.student.as_str()).collect();
    students.sort_unstable();
    students.dedup();
    let n = students.len() as f64;
    let pairs = (n * (n - 1.0)).max(1.0);
    // Right numbers by (step, exercise).
    let mut rights: BTreeMap<(usize, &str), Vec<&Given>> = BTreeMap::new();
    for g in given.iter().filter(|g| g.right) {
        rights
            .entry((g.step, g.exercise.as_str()))
            .or_default()
            .push(g);
    }
    // Matches by (copier, source): (step, wrong, right, chance).
    type Match<'a> = (usize, &'a str, &'a str, f64);
    let mut matches: BTreeMap<(&str, &str), BTreeMap<usize, Match>> = BTreeMap::new();
    for wrong in given.iter().filter(|g| !g.right) {
        let Some(others) = rights.get(&(wrong.step, wrong.exercise.as_str())) else {
            continue;
        };
        for right in others {
            if right.student == wrong.student || !same_number(wrong.value, right.value) {
                continue;
            }
            let chance = odds.chance(content, &wrong.exercise, wrong.value);
            matches
                .entry((wrong.student.as_str(), right.student.as_str()))
                .or_default()
                .entry(wrong.step)
                .or_insert((wrong.step, wrong.text.as_str(), right.text.as_str(), chance));
        }
    }
    let mut flags: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for ((copier, source), steps) in matches {
        let chance: f64 = steps.values().map(|m| m.3).product();
        let expected = chance * pairs;
        if expected >= ALPHA {
            continue;
        }
        let listed: Vec<String> = steps
            .values()
            .map(|(step, wrong, right, _)| format!("step {step} `{wrong}` (theirs `{right}`)"))
            .collect();
        flags.entry(copier.to_string()).or_default().push(format!(
            "wrong answers equal to {source}'s right answers: {} — by luck, a class of {} \
             would show a match this strong about once in {}",
            listed.join(", "),
            students.len(),
            one_in(expected)
        ));
    }
    flags
}

/// `1 / expected`, rounded to two significant digits, as a person would say it.
fn one_in(expected: f64) -> String {
    let n = (1.0 / expected.max(1e-300)).min(1e15);
    let digits = n.log10().floor() as i32;
    let scale = 10f64.powi((digits - 1).max(0));
    let rounded = (n / scale).round() * scale;
    let digits: Vec<char> = (rounded as u64).to_string().chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(*c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The sample lab's numeric steps.
    const STEPS: [&str; 4] = [
        "l2-stride-sectors",
        "l2-partial-warp",
        "l2-bank-stride",
        "l2-stride-efficiency",
    ];

    fn right(content: &Content, exercise: &str, seed: u64) -> f64 {
        generate(content.exercise(exercise).unwrap(), seed)
            .unwrap()
            .key
            .value()
            .unwrap()
    }

    /// 40 students guessing from {1, 2, 4 … 32} on every step (as a class that did not work the
    /// lab would): matches by luck are many, flags none.
    #[test]
    fn independent_guesses_are_not_flagged() {
        let content = Content::builtin();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut given = Vec::new();
        for s in 0..40 {
            for (i, exercise) in STEPS.iter().enumerate() {
                let seed: u64 = rng.random();
                let answer = right(&content, exercise, seed);
                for _ in 0..3 {
                    let guess = f64::from(1u32 << rng.random_range(0..6));
                    let ok = same_number(guess, answer);
                    given.push(Given {
                        student: format!("s{s:02}"),
                        step: i + 1,
                        exercise: exercise.to_string(),
                        value: guess,
                        text: guess.to_string(),
                        right: ok,
                    });
                    if ok {
                        break;
                    }
                }
            }
        }
        let wrong_equals_right = given
            .iter()
            .filter(|w| !w.right)
            .filter(|w| {
                given.iter().any(|r| {
                    r.right
                        && r.student != w.student
                        && r.step == w.step
                        && same_number(r.value, w.value)
                })
            })
            .count();
        assert!(
            wrong_equals_right > 20,
            "luck gives many matches: {wrong_equals_right}"
        );
        let flags = flags(&content, &given);
        assert!(flags.is_empty(), "{flags:#?}");
    }

    /// Steps whose answers vary most among the built-in exercises (a match by luck is 3–9 %).
    const VARIED: [&str; 6] = [
        "l1-bank-of-address",
        "l2-transfer-time",
        "l2-ridge",
        "l2-regs-per-warp",
        "l2-reduction-factor",
        "l2-serialized-latency",
    ];

    /// A student who types a classmate's right answers on six varied steps is flagged, naming
    /// them; on the sample lab's four steps, whose answers take few values, the same copying is
    /// what luck gives a class of 40 about once, and is not.
    #[test]
    fn copied_answers_on_several_varied_steps_are_flagged() {
        let content = Content::builtin();
        let (flags, expected) = copy_case(&content, &VARIED);
        assert!(expected < ALPHA, "{expected}");
        let lines = &flags["s01"];
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("s00's right answers"), "{lines:?}");
        assert!(lines[0].contains("once in"), "{lines:?}");
        assert_eq!(flags.len(), 1, "nobody else: {flags:#?}");
        let (flags, expected) = copy_case(&content, &STEPS);
        assert!(expected >= ALPHA, "{expected}");
        assert!(flags.is_empty(), "{flags:#?}");
    }

    /// 40 students answering right, and s01 typing s00's answers first: the flags, and the
    /// expected number of pairs matching that strongly by luck.
    fn copy_case(content: &Content, steps: &[&str]) -> (BTreeMap<String, Vec<String>>, f64) {
        let mut given = Vec::new();
        for s in 0..40u64 {
            for (i, exercise) in steps.iter().enumerate() {
                let value = right(content, exercise, 1000 * s + i as u64);
                given.push(Given {
                    student: format!("s{s:02}"),
                    step: i + 1,
                    exercise: exercise.to_string(),
                    value,
                    text: value.to_string(),
                    right: true,
                });
            }
        }
        // s01 copies s00's answers (wrong for s01's own numbers) before answering right.
        let copied: Vec<Given> = given
            .iter()
            .filter(|g| g.student == "s00")
            .filter(|g| {
                let own = given
                    .iter()
                    .find(|o| o.student == "s01" && o.step == g.step)
                    .unwrap();
                !same_number(own.value, g.value)
            })
            .map(|g| Given {
                student: "s01".into(),
                right: false,
                ..g.clone()
            })
            .collect();
        assert!(
            copied.len() + 1 >= steps.len(),
            "s00 and s01 differ on most steps"
        );
        let expected: f64 = copied
            .iter()
            .map(|g| Odds::default().chance(content, &g.exercise, g.value))
            .product::<f64>()
            * 40.0
            * 39.0;
        given.extend(copied);
        (flags(content, &given), expected)
    }

    #[test]
    fn odds_are_one_in_as_people_say_them() {
        assert_eq!(one_in(1.0 / 2345.0), "2 300");
        assert_eq!(one_in(1.0 / 123_456.0), "120 000");
        assert_eq!(one_in(0.5), "2");
    }
}
