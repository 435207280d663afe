//! Grading a response against a variant's answer key, with feedback that uses the variant's numbers.

use super::answer::{InputError, parse_number};
use super::variant::{AnswerKey, Variant, format_with_unit, letter};
use crate::content::schema::Tolerance;
use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;

/// What the learner gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Response<'a> {
    /// Typed text (works for every kind: a number, a letter, names in order, an explanation).
    Text(&'a str),
    /// An option picked with the keys.
    Choice(usize),
    /// Items arranged with the keys (item indices, first to last).
    Order(&'a [usize]),
}

/// How the response fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Right.
    Correct,
    /// Wrong: the feedback says what was expected and why.
    Wrong,
    /// Not an answer (empty, unreadable, wrong unit): nothing is recorded.
    Unusable,
}

/// Feedback for the learner.
#[derive(Debug, Clone, PartialEq)]
pub struct Feedback {
    /// The verdict.
    pub outcome: Outcome,
    /// One line: `Correct — 5 sectors.` / `Not quite: …`.
    pub headline: String,
    /// The worked reason, with this variant's numbers (empty for unusable input).
    pub why: String,
    /// The answer as shown.
    pub expected: String,
    /// For explanations: which ideas were found and missed, and the model answer.
    pub model: Option<String>,
}

impl Feedback {
    fn unusable(message: String, expected: String) -> Self {
        Feedback {
            outcome: Outcome::Unusable,
            headline: message,
            why: String::new(),
            expected,
            model: None,
        }
    }
}

fn normalize(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '.' || c == '[' || c == ']' {
                c
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `typed` names `name` closely enough (case, spacing and small slips forgiven).
pub fn fuzzy_names(typed: &str, name: &str, threshold: i64) -> bool {
    let (t, n) = (normalize(typed), normalize(name));
    if t.is_empty() || n.is_empty() {
        return false;
    }
    if t == n {
        return true;
    }
    let matcher = SkimMatcherV2::default();
    let long_enough = t.chars().count() * 10 >= n.chars().count() * 6;
    let typed_in_name = long_enough
        && matcher
            .fuzzy_match(&n, &t)
            .is_some_and(|score| score >= threshold);
    let name_in_typed = t.chars().count() <= n.chars().count() * 3
        && matcher
            .fuzzy_match(&t, &n)
            .is_some_and(|score| score >= threshold);
    typed_in_name || name_in_typed
}

/// Grades `response` against `variant`.
pub fn grade(variant: &Variant, response: Response<'_>) -> Feedback {
    let expected = variant.key.display();
    let wrong = |headline: String| Feedback {
        outcome: Outcome::Wrong,
        headline,
        why: variant.explanation.clone(),
        expected: expected.clone(),
        model: None,
    };
    let right = |headline: String| Feedback {
        outcome: Outcome::Correct,
        headline,
        why: variant.explanation.clone(),
        expected: expected.clone(),
        model: None,
    };
    if let Response::Text(text) = response {
        let length = text.chars().count();
        let limit = if matches!(variant.key, AnswerKey::Explain { .. }) {
            4000
        } else {
            super::answer::MAX_INPUT
        };
        if text.trim().is_empty() {
            return Feedback::unusable(InputError::Empty.to_string(), expected);
        }
        if length > limit {
            return Feedback::unusable(
                format!("that is {length} characters — an answer here is at most {limit}"),
                expected,
            );
        }
    }
    match &variant.key {
        AnswerKey::Number {
            value,
            unit,
            tolerance,
            kilo,
        } => {
            let Response::Text(text) = response else {
                return Feedback::unusable("type a number".into(), expected);
            };
            let given = match parse_number(text, unit, *kilo) {
                Ok(given) => given,
                Err(e) => return Feedback::unusable(e.to_string(), expected),
            };
            let error = (given - value).abs();
            let ok = match tolerance {
                // Relative, so that "exact" stays exact for answers far below 1 (0.3 ns, 0.5 %).
                Tolerance::Exact => error <= 1e-9 * value.abs(),
                Tolerance::Abs(limit) => error <= *limit + 1e-12,
                Tolerance::Rel(fraction) => error <= fraction * value.abs() + 1e-12,
            };
            if ok {
                return right(format!("Correct — {expected}."));
            }
            let mut headline = format!(
                "Not quite: you answered {}; for these numbers the answer is {expected}.",
                format_with_unit(given, unit, *kilo)
            );
            if *value != 0.0 && error / value.abs() <= 0.1 {
                headline.push_str(" You are close — check the rounding and the last step.");
            } else if *value != 0.0 && given != 0.0 {
                let ratio = given / value;
                let exactly = |factor: f64| {
                    (ratio - factor).abs() < 1e-6 || (ratio - 1.0 / factor).abs() < 1e-6
                };
                // The right number in the wrong unit scale (KB for B, ms for µs): within 2 %, since
                // the typed number is usually rounded.
                let scaled = |factor: f64| {
                    (ratio / factor - 1.0).abs() < 0.02 || (ratio * factor - 1.0).abs() < 0.02
                };
                if let Some(factor) = [2.0, 4.0, 8.0, 32.0].into_iter().find(|&f| exactly(f)) {
                    headline.push_str(&format!(
                        " Yours is off by exactly {factor}× — did a unit or a size slip?"
                    ));
                } else if let Some(factor) = [1000.0, 1024.0, 1e6, 1_048_576.0, 1e9]
                    .into_iter()
                    .find(|&f| scaled(f))
                {
                    headline.push_str(&format!(
                        " Yours is {factor}× off — the right digits in the wrong unit?"
                    ));
                }
            }
            wrong(headline)
        }
        AnswerKey::Choice { options, correct } => {
            let picked = match response {
                Response::Choice(index) => Some(index),
                Response::Text(text) => pick_option(text, options),
                Response::Order(_) => None,
            };
            let Some(picked) = picked.filter(|&i| i < options.len()) else {
                return Feedback::unusable(
                    format!(
                        "pick one of {} — type its letter or its words",
                        (0..options.len())
                            .map(|i| letter(i).to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    expected,
                );
            };
            if correct.contains(&picked) {
                right(format!(
                    "Correct — {}) {}.",
                    letter(picked),
                    options[picked]
                ))
            } else {
                wrong(format!(
                    "Not quite: you picked {}) {}; for these numbers the answer is {expected}.",
                    letter(picked),
                    options[picked]
                ))
            }
        }
        AnswerKey::Ordering {
            items,
            aliases,
            correct,
            ..
        } => {
            let order: Vec<usize> = match response {
                Response::Order(order) => order.to_vec(),
                Response::Text(text) => match read_order(text, items, aliases) {
                    Ok(order) => order,
                    Err(message) => return Feedback::unusable(message, expected),
                },
                Response::Choice(_) => {
                    return Feedback::unusable("arrange the items in order".into(), expected);
                }
            };
            if order.len() != items.len() {
                return Feedback::unusable(
                    format!("put all {} items in order", items.len()),
                    expected,
                );
            }
            if &order == correct {
                right(format!("Correct — {expected}."))
            } else {
                let first_wrong = order
                    .iter()
                    .zip(correct)
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                wrong(format!(
                    "Not quite: position {} should be {}, not {}. The order is {expected}.",
                    first_wrong + 1,
                    items[correct[first_wrong]],
                    items[order[first_wrong]]
                ))
            }
        }
        AnswerKey::Text {
            accepted,
            threshold,
        } => {
            let Response::Text(text) = response else {
                return Feedback::unusable("type the word or phrase".into(), expected);
            };
            if accepted
                .iter()
                .any(|name| fuzzy_names(text, name, *threshold))
            {
                right(format!("Correct — {expected}."))
            } else {
                wrong(format!(
                    "Not quite: you wrote “{}”; the answer is {expected}.",
                    text.trim()
                ))
            }
        }
        AnswerKey::Explain {
            ideas,
            model,
            required,
        } => {
            let Response::Text(text) = response else {
                return Feedback::unusable("write a short explanation".into(), expected);
            };
            let typed = normalize(text);
            let (found, missed): (Vec<_>, Vec<_>) = ideas.iter().partition(|idea| {
                idea.any_of
                    .iter()
                    .any(|word| typed.contains(&normalize(word)))
            });
            let names = |list: &[&crate::content::schema::Idea]| {
                list.iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            let summary = if missed.is_empty() {
                format!("You covered every idea: {}.", names(&found))
            } else if found.is_empty() {
                format!("Missing: {}.", names(&missed))
            } else {
                format!(
                    "You covered: {}. Missing: {}.",
                    names(&found),
                    names(&missed)
                )
            };
            let outcome = if found.len() >= *required {
                Outcome::Correct
            } else {
                Outcome::Wrong
            };
            Feedback {
                outcome,
                headline: format!(
                    "{} {summary} Compare with the model answer and mark whether you had it.",
                    if outcome == Outcome::Correct {
                        "Good —"
                    } else {
                        "Not yet —"
                    }
                ),
                why: variant.explanation.clone(),
                expected: expected.clone(),
                model: Some(model.clone()),
            }
        }
    }
}

/// Reads a choice: a letter (`b`, `B)`, `(b)`), a number (`2`), or the option's words.
fn pick_option(text: &str, options: &[String]) -> Option<usize> {
    let t = text
        .trim()
        .trim_matches(|c: char| c == '(' || c == ')' || c == '.' || c == ':')
        .trim();
    let lower = t.to_lowercase();
    if lower.chars().count() == 1 {
        let c = lower.chars().next()?;
        if c.is_ascii_lowercase() {
            return Some((c as u8 - b'a') as usize);
        }
        if let Some(d) = c.to_digit(10) {
            return (d as usize).checked_sub(1);
        }
    }
    if let Some(exact) = options.iter().position(|o| normalize(o) == normalize(t)) {
        return Some(exact);
    }
    let matcher = SkimMatcherV2::default();
    let mut scored: Vec<(i64, usize)> = options
        .iter()
        .enumerate()
        .filter_map(|(i, o)| {
            matcher
                .fuzzy_match(&normalize(o), &normalize(t))
                .map(|s| (s, i))
        })
        .collect();
    scored.sort_unstable_by(|a, b| b.cmp(a));
    match scored.as_slice() {
        [(best, i)] if *best >= 40 => Some(*i),
        [(best, i), (second, _), ..] if *best >= 40 && best > second => Some(*i),
        _ => None,
    }
}

/// Reads an ordering typed as names: `regs, smem, L2, DRAM` or `L1 < L2 < DRAM`.
fn read_order(text: &str, items: &[String], aliases: &[Vec<String>]) -> Result<Vec<usize>, String> {
    // Arrows, `<`, `>`, `;` or new lines separate items when present (item names may hold commas);
    // otherwise commas do.
    let strong = ['<', '>', '→', ';', '\n'];
    let pieces: Vec<&str> = if text.contains(strong) || text.contains("->") {
        text.split(strong).flat_map(|p| p.split("->")).collect()
    } else {
        text.split(',').collect()
    };
    let parts: Vec<&str> = pieces
        .into_iter()
        .flat_map(|p| p.split(" then "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() != items.len() {
        return Err(format!(
            "name all {} items in order, separated by commas (e.g. {})",
            items.len(),
            items.join(", ")
        ));
    }
    let mut order = Vec::new();
    for part in parts {
        let exact = (0..items.len()).find(|&i| {
            normalize(&items[i]) == normalize(part)
                || aliases[i].iter().any(|a| normalize(a) == normalize(part))
        });
        let found = exact.or_else(|| {
            (0..items.len()).find(|&i| {
                !order.contains(&i)
                    && (fuzzy_names(part, &items[i], 40)
                        || aliases[i].iter().any(|a| fuzzy_names(part, a, 40)))
            })
        });
        match found {
            Some(i) if !order.contains(&i) => order.push(i),
            Some(i) => return Err(format!("“{}” appears twice", items[i])),
            None => {
                return Err(format!("“{part}” is not one of: {}", items.join(", ")));
            }
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzzy_names_forgive_small_slips_only() {
        assert!(fuzzy_names("Coalescing", "coalescing", 60));
        assert!(fuzzy_names("memory coalescing", "coalescing", 60));
        assert!(fuzzy_names("coalesing", "coalescing", 60));
        assert!(!fuzzy_names("c", "coalescing", 60));
        assert!(!fuzzy_names("bank conflict", "coalescing", 60));
        assert!(fuzzy_names("registrs", "registers", 40));
    }

    #[test]
    fn options_by_letter_number_or_words() {
        let options = vec!["memory-bound".to_string(), "compute-bound".to_string()];
        assert_eq!(pick_option("b", &options), Some(1));
        assert_eq!(pick_option("(A)", &options), Some(0));
        assert_eq!(pick_option("2", &options), Some(1));
        assert_eq!(pick_option("compute bound", &options), Some(1));
        assert_eq!(pick_option("memory", &options), Some(0));
        assert_eq!(pick_option("zzz", &options), None);
    }

    #[test]
    fn orders_from_loose_names() {
        let items: Vec<String> = ["registers", "shared memory", "L2 cache", "DRAM (HBM)"]
            .map(String::from)
            .to_vec();
        let aliases = vec![
            vec!["regs".into()],
            vec!["smem".into()],
            vec!["L2".into()],
            vec!["dram".into(), "hbm".into()],
        ];
        assert_eq!(
            read_order("regs, smem, L2, DRAM", &items, &aliases),
            Ok(vec![0, 1, 2, 3])
        );
        assert_eq!(
            read_order("HBM > L2 > shared memory > registers", &items, &aliases),
            Ok(vec![3, 2, 1, 0])
        );
        assert!(read_order("regs, smem", &items, &aliases).is_err());
        assert!(read_order("regs, regs, L2, DRAM", &items, &aliases).is_err());
    }
}
