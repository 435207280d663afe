//! Answer keys: what a variant accepts, built from the template's answer and the variant's values.

use super::variant::{Context, VariantError, format_with_unit_in, letter, pick, plain};
use crate::content::schema::{AnswerSpec, Idea, Tolerance, Unit};
use rand_chacha::ChaCha8Rng;

/// The answer of one variant, ready to grade.
#[derive(Debug, Clone, PartialEq)]
pub enum AnswerKey {
    /// A number in the unit's base.
    Number {
        /// The answer.
        value: f64,
        /// The unit.
        unit: Unit,
        /// Allowed error.
        tolerance: Tolerance,
        /// What `KB` means.
        kilo: u32,
    },
    /// One of several options.
    Choice {
        /// Rendered options.
        options: Vec<String>,
        /// Indices of the correct ones.
        correct: Vec<usize>,
        /// In a translation: the options in English, in the same order, whose words a learner may
        /// type as well (empty otherwise).
        also: Vec<String>,
    },
    /// An order.
    Ordering {
        /// Rendered items, in template order.
        items: Vec<String>,
        /// Other names per item.
        aliases: Vec<Vec<String>>,
        /// The order items are first shown in (shuffled by the seed).
        shown: Vec<usize>,
        /// The correct order (item indices).
        correct: Vec<usize>,
        /// What the order is by.
        by: Option<String>,
    },
    /// A short text.
    Text {
        /// Accepted answers.
        accepted: Vec<String>,
        /// Fuzzy score needed.
        threshold: i64,
    },
    /// A free explanation.
    Explain {
        /// Ideas looked for.
        ideas: Vec<Idea>,
        /// Rendered model answer.
        model: String,
        /// Ideas needed.
        required: usize,
        /// Exact parts asked before the explanation.
        checks: Vec<Part>,
    },
}

/// An exact part of an explanation exercise: its rendered question and its key (a number or a
/// choice).
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The question.
    pub prompt: String,
    /// Its answer.
    pub key: AnswerKey,
    /// For a choice: the check's index of the option shown at each position (as
    /// `Variant::option_order`); empty for a number.
    pub option_order: Vec<usize>,
}

impl AnswerKey {
    /// The answer as shown to the learner: `5 sectors`, `62.5%`, `memory-bound`, `registers → L2 → DRAM`.
    pub fn display(&self) -> String {
        self.display_in(crate::i18n::Lang::En)
    }

    /// [`AnswerKey::display`] with numbers as `lang` says them (`섹터 5개` in Korean).
    pub fn display_in(&self, lang: crate::i18n::Lang) -> String {
        match self {
            AnswerKey::Number {
                value, unit, kilo, ..
            } => format_with_unit_in(*value, unit, *kilo, lang),
            AnswerKey::Choice {
                options, correct, ..
            } => correct
                .iter()
                .map(|&i| format!("{}) {}", letter(i), options[i]))
                .collect::<Vec<_>>()
                .join(" or "),
            AnswerKey::Ordering { items, correct, .. } => correct
                .iter()
                .map(|&i| items[i].as_str())
                .collect::<Vec<_>>()
                .join(" → "),
            AnswerKey::Text { accepted, .. } => accepted.first().cloned().unwrap_or_default(),
            AnswerKey::Explain { model, .. } => model.clone(),
        }
    }

    /// What a learner who knows the answer would type (the inverse of grading: it grades correct).
    pub fn typed(&self) -> String {
        match self {
            AnswerKey::Number {
                value,
                unit: Unit::Bytes,
                ..
            } => format!("{} B", plain(*value)),
            AnswerKey::Number { .. } => self.display(),
            AnswerKey::Choice { correct, .. } => correct
                .first()
                .map(|&i| letter(i).to_string())
                .unwrap_or_default(),
            AnswerKey::Ordering { items, correct, .. } => correct
                .iter()
                .map(|&i| items[i].as_str())
                .collect::<Vec<_>>()
                .join(" → "),
            AnswerKey::Text { accepted, .. } => accepted.first().cloned().unwrap_or_default(),
            AnswerKey::Explain { model, .. } => model.clone(),
        }
    }

    /// The numeric answer, where there is one.
    pub fn value(&self) -> Option<f64> {
        match self {
            AnswerKey::Number { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The exact parts asked before an explanation (none for other kinds).
    pub fn parts(&self) -> &[Part] {
        match self {
            AnswerKey::Explain { checks, .. } => checks,
            _ => &[],
        }
    }

    /// `number`, `choice`, `ordering`, `text` or `explain`.
    pub fn kind(&self) -> &'static str {
        match self {
            AnswerKey::Number { .. } => "number",
            AnswerKey::Choice { .. } => "choice",
            AnswerKey::Ordering { .. } => "ordering",
            AnswerKey::Text { .. } => "text",
            AnswerKey::Explain { .. } => "explain",
        }
    }
}

pub(super) fn answer_key(
    spec: &AnswerSpec,
    ctx: &Context<'_>,
    rng: &mut ChaCha8Rng,
) -> Result<(AnswerKey, Option<Vec<usize>>), VariantError> {
    match spec {
        AnswerSpec::Number {
            value,
            unit,
            tolerance,
            kilo,
        } => {
            let value = ctx.eval(value, "answer")?;
            let tolerance = tolerance.unwrap_or(match unit {
                Unit::Percent => Tolerance::Abs(0.001),
                _ if value.fract() == 0.0 => Tolerance::Exact,
                _ => Tolerance::Rel(0.01),
            });
            let kilo = kilo.unwrap_or(1024);
            if kilo != 1000 && kilo != 1024 {
                return Err(VariantError::Template {
                    place: "answer".into(),
                    message: format!("kilo must be 1000 or 1024, got {kilo}"),
                });
            }
            Ok((
                AnswerKey::Number {
                    value,
                    unit: unit.clone(),
                    tolerance,
                    kilo,
                },
                None,
            ))
        }
        AnswerSpec::Choice {
            options, shuffle, ..
        } => {
            let mut rendered = Vec::new();
            let mut right = Vec::new();
            let mut english = Vec::new();
            for (i, option) in options.iter().enumerate() {
                let place = format!("option {}", letter(i));
                rendered.push(ctx.render(&option.text, &place)?);
                if let Some(text) = &option.also {
                    english.push(ctx.render(text, &place)?);
                }
                right.push(ctx.eval(&option.correct, &place)? != 0.0);
            }
            if !right.contains(&true) {
                return Err(VariantError::Template {
                    place: "answer".into(),
                    message: "no option is correct for these parameters".into(),
                });
            }
            let order = if shuffled(*shuffle, ctx.prompt_letters) {
                option_order(&right, ctx.seed, rng)
            } else {
                (0..options.len()).collect()
            };
            let also = if english.len() == rendered.len() {
                order.iter().map(|&i| english[i].clone()).collect()
            } else {
                Vec::new()
            };
            let correct = (0..order.len())
                .filter(|&shown| right[order[shown]])
                .collect();
            Ok((
                AnswerKey::Choice {
                    options: order.iter().map(|&i| rendered[i].clone()).collect(),
                    correct,
                    also,
                },
                Some(order),
            ))
        }
        AnswerSpec::Ordering {
            items,
            descending,
            by,
        } => {
            let mut rendered = Vec::new();
            let mut keys = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let place = format!("item {}", i + 1);
                rendered.push(ctx.render(&item.text, &place)?);
                keys.push(ctx.eval(&item.key, &place)?);
            }
            let mut correct: Vec<usize> = (0..items.len()).collect();
            correct.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
            if *descending {
                correct.reverse();
            }
            if correct.windows(2).any(|w| keys[w[0]] == keys[w[1]]) {
                return Err(VariantError::Template {
                    place: "answer".into(),
                    message: "two items have the same key, so the order is ambiguous".into(),
                });
            }
            let mut shown: Vec<usize> = (0..items.len()).collect();
            for i in (1..shown.len()).rev() {
                let j = pick(rng, i + 1);
                shown.swap(i, j);
            }
            if shown == correct && shown.len() > 1 {
                shown.rotate_left(1);
            }
            let mut aliases = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let mut names = item.aliases.clone();
                if let Some(english) = &item.also {
                    names.push(ctx.render(english, &format!("item {}", i + 1))?);
                }
                aliases.push(names);
            }
            Ok((
                AnswerKey::Ordering {
                    items: rendered,
                    aliases,
                    shown,
                    correct,
                    by: by.clone(),
                },
                None,
            ))
        }
        AnswerSpec::Text {
            accepted,
            threshold,
        } => Ok((
            AnswerKey::Text {
                accepted: accepted.clone(),
                threshold: threshold.unwrap_or(60),
            },
            None,
        )),
        AnswerSpec::Explain {
            ideas,
            model,
            required,
            checks,
        } => {
            let mut parts = Vec::new();
            for (i, check) in checks.iter().enumerate() {
                let place = format!("check {}", i + 1);
                if !matches!(
                    check.answer,
                    AnswerSpec::Number { .. } | AnswerSpec::Choice { .. }
                ) {
                    return Err(VariantError::Template {
                        place,
                        message: "a check's answer is a Number(…) or a Choice(…)".into(),
                    });
                }
                let (key, order) = answer_key(&check.answer, ctx, rng)?;
                parts.push(Part {
                    prompt: ctx.render(&check.prompt, &place)?,
                    key,
                    option_order: order.unwrap_or_default(),
                });
            }
            Ok((
                AnswerKey::Explain {
                    ideas: ideas.clone(),
                    model: ctx.render(model, "model answer")?,
                    required: required.unwrap_or(ideas.len()).min(ideas.len()),
                    checks: parts,
                },
                None,
            ))
        }
    }
}

/// Whether a choice's options are shown in an order drawn from the seed: as the template says, and
/// by default unless its prompt names the options by letter (`(a) … (b) …`), which a new order
/// would contradict.
fn shuffled(shuffle: Option<bool>, prompt_letters: bool) -> bool {
    shuffle.unwrap_or(!prompt_letters)
}

/// Whether a prompt names choice options by letter: `(a)` and `(b)` both appear.
pub(super) fn names_letters(prompt: &str) -> bool {
    prompt.contains("(a)") && prompt.contains("(b)")
}

/// The order options are shown in, as template indices (shown position → option): the first
/// right option goes to position `slot mod n` — so over any `n` consecutive slots it takes every
/// letter once, and a learner cannot learn a letter — and the others follow in an order drawn
/// from `rng`.
///
/// With 4 options, the right one second in the template and `slot = 6`, it is shown third (`c`).
pub(super) fn option_order(right: &[bool], slot: u64, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let n = right.len();
    let Some(first_right) = right.iter().position(|&r| r) else {
        return (0..n).collect();
    };
    let mut others: Vec<usize> = (0..n).filter(|&i| i != first_right).collect();
    for i in (1..others.len()).rev() {
        let j = pick(rng, i + 1);
        others.swap(i, j);
    }
    let at = (slot % n as u64) as usize;
    others.insert(at, first_right);
    others
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn the_right_option_takes_every_letter_in_turn() {
        let right = [false, true, false, false];
        let mut seen = [0usize; 4];
        for slot in 0..40u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(slot);
            let order = option_order(&right, slot, &mut rng);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, vec![0, 1, 2, 3], "a permutation: {order:?}");
            let shown = order.iter().position(|&i| i == 1).unwrap();
            assert_eq!(shown, (slot % 4) as usize);
            seen[shown] += 1;
        }
        assert_eq!(seen, [10, 10, 10, 10]);
    }

    #[test]
    fn the_same_slot_and_seed_give_the_same_order() {
        let right = [true, false, false];
        let a = option_order(&right, 7, &mut ChaCha8Rng::seed_from_u64(3));
        let b = option_order(&right, 7, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(a, b);
        assert_eq!(a[1], 0);
    }

    #[test]
    fn options_named_by_letter_keep_their_order() {
        assert!(names_letters(
            "You can: (a) coalesce, (b) reuse, or (c) compute."
        ));
        assert!(!names_letters("Which memory (shared or global)?"));
        assert!(!shuffled(None, true));
        assert!(shuffled(None, false));
        assert!(!shuffled(Some(false), false));
        assert!(shuffled(Some(true), true));
    }
}
