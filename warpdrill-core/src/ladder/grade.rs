//! Grading a response against a variant's answer key, with feedback that uses the variant's numbers.

use super::answer::{InputError, read_number};
use super::variant::{AnswerKey, MistakenAnswer, Variant, format_with_unit_in, letter};
use crate::content::schema::{Tolerance, Unit};
use crate::i18n::Lang;
use crate::t;
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
    /// An explanation: keywords cannot grade it, so the learner compares it with the model answer
    /// (the feedback lists the ideas found and missed) and marks it.
    Compare,
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
    /// For explanations: the ideas found in the answer.
    pub ideas_found: Vec<String>,
    /// For explanations: the ideas not found.
    pub ideas_missed: Vec<String>,
    /// The misconception the answer embodies, named, with what to rethink (a declared mistake of
    /// the template, or a choice option's own feedback). The headline starts with it.
    pub mistake: Option<String>,
    /// The verdict without the answer: what is said while tries are left (the misconception when
    /// one matched, else that the answer is not right).
    pub held: String,
}

impl Feedback {
    fn unusable(message: String, expected: String) -> Self {
        Feedback {
            outcome: Outcome::Unusable,
            held: message.clone(),
            headline: message,
            why: String::new(),
            expected,
            model: None,
            ideas_found: Vec::new(),
            ideas_missed: Vec::new(),
            mistake: None,
        }
    }

    /// This feedback as shown while the answer is held back: the verdict and the misconception,
    /// without the answer or the worked explanation.
    pub fn withheld(&self) -> Feedback {
        Feedback {
            outcome: self.outcome,
            headline: self.held.clone(),
            why: String::new(),
            expected: String::new(),
            model: None,
            ideas_found: Vec::new(),
            ideas_missed: Vec::new(),
            mistake: self.mistake.clone(),
            held: self.held.clone(),
        }
    }
}

/// Whether `given` counts as `target` under `tolerance` (the rule a right answer is held to).
fn within(tolerance: &Tolerance, given: f64, target: f64) -> bool {
    let error = (given - target).abs();
    match tolerance {
        Tolerance::Exact => error <= 1e-9 * target.abs(),
        Tolerance::Abs(limit) => error <= *limit + 1e-12,
        Tolerance::Rel(fraction) => error <= fraction * target.abs() + 1e-12,
    }
}

/// The rounding rule, the same for every number and in both directions: a number typed to some
/// digit stands for every value within half a step of that digit, so it is right when the answer
/// is — 62.5 % typed as `62%` or as `63%` (step 1 point, the answer 0.5 point away) both count,
/// 62.4 % typed as `63%` does not. The digits typed must say enough: a percentage to a whole
/// point or finer; any other number with at least two significant digits and a step of at most
/// 5 % of the answer (`4.8e12` for 4.83e12, `1.07 billion` for 1 073 741 824 — not `5e12`, nor
/// `1.3e2` for 128). A number typed in full (`128`) has a step of 1, so only the tolerance helps.
pub fn rounded_at_digits(reading: &super::answer::Reading, target: f64, unit: &Unit) -> bool {
    let step = reading.resolution;
    if step <= 0.0 || !step.is_finite() {
        return false;
    }
    let fine_enough = if *unit == Unit::Percent {
        step <= 0.01 + 1e-12
    } else {
        reading.significant >= 2 && step <= 0.05 * target.abs() + 1e-300
    };
    fine_enough && (reading.value - target).abs() <= step / 2.0 * (1.0 + 1e-9) + 1e-15
}

/// The misconception line: its name and what to rethink.
fn mistake_line(name: Option<&str>, feedback: &str, lang: Lang) -> String {
    match name {
        Some(name) => t!(lang, "grade-mistake", name = name, feedback = feedback),
        None => feedback.to_string(),
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

/// Grades `response` against `variant`, with the feedback in English.
pub fn grade(variant: &Variant, response: Response<'_>) -> Feedback {
    grade_in(variant, response, Lang::En)
}

/// Grades `response` against `variant`, with the feedback in `lang`.
pub fn grade_in(variant: &Variant, response: Response<'_>, lang: Lang) -> Feedback {
    let expected = variant.key.display_in(lang);
    // A fixed-fact question has no numbers of its own to speak of.
    let fixed = if variant.params.is_empty() {
        "yes"
    } else {
        "no"
    };
    let wrong = |headline: String, held: String, mistake: Option<String>| Feedback {
        outcome: Outcome::Wrong,
        headline,
        why: variant.explanation.clone(),
        expected: expected.clone(),
        model: None,
        ideas_found: Vec::new(),
        ideas_missed: Vec::new(),
        mistake,
        held,
    };
    let right = |headline: String| Feedback {
        outcome: Outcome::Correct,
        held: headline.clone(),
        headline,
        why: variant.explanation.clone(),
        expected: expected.clone(),
        model: None,
        ideas_found: Vec::new(),
        ideas_missed: Vec::new(),
        mistake: None,
    };
    if let Response::Text(text) = response {
        let length = text.chars().count();
        let limit = if matches!(variant.key, AnswerKey::Explain { .. }) {
            4000
        } else {
            super::answer::MAX_INPUT
        };
        if text.trim().is_empty() {
            return Feedback::unusable(InputError::Empty.message(&Unit::None, lang), expected);
        }
        if length > limit {
            return Feedback::unusable(
                t!(lang, "grade-too-long", length = length, limit = limit),
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
                return Feedback::unusable(t!(lang, "grade-type-number"), expected);
            };
            let reading = match read_number(text, unit, *kilo) {
                Ok(reading) => reading,
                Err(e) => return Feedback::unusable(e.message(unit, lang), expected),
            };
            let given = reading.value;
            let error = (given - value).abs();
            // Relative, so that "exact" stays exact for answers far below 1 (0.3 ns, 0.5 %).
            let ok = within(tolerance, given, *value);
            let allowed = tolerance_words_in(tolerance, unit, *kilo, lang);
            if ok {
                return right(
                    if error > 1e-9 * value.abs().max(1e-300) && !allowed.is_empty() {
                        t!(
                            lang,
                            "grade-right-within",
                            expected = expected.clone(),
                            allowed = allowed
                        )
                    } else {
                        t!(lang, "grade-right", expected = expected.clone())
                    },
                );
            }
            // A number rounded at the last digit typed, up or down (62.5 % as `62%` or `63%`,
            // 4.83e12 as `4.8e12`, 1 073 741 824 as `1.07 billion`): right when the answer is
            // within half a step of that digit.
            if rounded_at_digits(&reading, *value, unit) {
                return right(t!(
                    lang,
                    "grade-right-rounded",
                    expected = expected.clone(),
                    given = format_with_unit_in(given, unit, *kilo, lang)
                ));
            }
            let given_shown = format_with_unit_in(given, unit, *kilo, lang);
            // A declared misconception gives this number (as exactly as a right answer must be):
            // it is named first, and the answer follows only where the answer is shown.
            let rounded_to = |target: f64| rounded_at_digits(&reading, target, unit);
            if let Some(mistake) = variant.mistakes.iter().find(|m| {
                matches!(m.answer, MistakenAnswer::Number(target)
                    if within(tolerance, given, target) || rounded_to(target))
            }) {
                let line = mistake_line(mistake.name.as_deref(), &mistake.feedback, lang);
                let headline = format!(
                    "{line} {}",
                    t!(
                        lang,
                        "grade-wrong-number",
                        given = given_shown,
                        fixed = fixed,
                        expected = expected.clone()
                    )
                );
                return wrong(headline, line.clone(), Some(line));
            }
            let mut held = t!(lang, "grade-wrong-number-held", given = given_shown.clone());
            let mut headline = t!(
                lang,
                "grade-wrong-number",
                given = given_shown,
                fixed = fixed,
                expected = expected.clone()
            );
            if *value != 0.0 && error / value.abs() <= 0.1 {
                held.push(' ');
                held.push_str(&t!(lang, "grade-close"));
                headline.push(' ');
                if allowed.is_empty() {
                    headline.push_str(&t!(lang, "grade-close"));
                } else {
                    headline.push_str(&t!(lang, "grade-close-within", allowed = allowed));
                }
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
                if let Some(factor) = [1000.0, 1024.0, 1e6, 1_048_576.0, 1e9]
                    .into_iter()
                    .find(|&f| scaled(f))
                {
                    headline.push(' ');
                    headline.push_str(&t!(lang, "grade-unit-off", factor = format!("{factor}")));
                } else if let Some(factor) = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0]
                    .into_iter()
                    .find(|&f| exactly(f))
                {
                    let factor = format!("{factor}");
                    headline.push(' ');
                    headline.push_str(&if ratio > 1.0 {
                        t!(lang, "grade-factor-large", factor = factor)
                    } else {
                        t!(lang, "grade-factor-small", factor = factor)
                    });
                }
            }
            wrong(headline, held, None)
        }
        AnswerKey::Choice {
            options,
            correct,
            also,
        } => {
            let picked: Vec<usize> = match response {
                Response::Choice(index) => vec![index],
                // In a translation, the English words of an option name it too.
                Response::Text(text) => {
                    let pick = |typed: &str| {
                        let mut picked = pick_options(typed, options);
                        if picked.is_empty() && also.len() == options.len() {
                            picked = pick_options(typed, also);
                        }
                        picked
                    };
                    let mut picked = pick(text);
                    if picked.is_empty() {
                        picked = pick_in_forms(text, pick);
                    }
                    picked
                }
                Response::Order(_) => Vec::new(),
            };
            if picked.is_empty() || picked.iter().any(|&i| i >= options.len()) {
                return Feedback::unusable(
                    t!(
                        lang,
                        "grade-pick-one",
                        letters = (0..options.len())
                            .map(|i| letter(i).to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    expected,
                );
            }
            let named = picked
                .iter()
                .map(|&i| format!("{}) {}", letter(i), options[i]))
                .reduce(|first, second| t!(lang, "grade-or", first = first, second = second))
                .unwrap_or_default();
            // Several options typed (`a or b`) are right only where each of them is.
            if picked.iter().all(|i| correct.contains(i)) {
                right(t!(lang, "grade-right", expected = named))
            } else {
                let verdict = t!(
                    lang,
                    "grade-wrong-choice",
                    picked = named.clone(),
                    fixed = fixed,
                    expected = expected.clone()
                );
                // The first wrong option picked that carries its own feedback names its mistake.
                let mistake = picked
                    .iter()
                    .filter(|i| !correct.contains(i))
                    .find_map(|&i| {
                        variant
                            .mistakes
                            .iter()
                            .find(|m| matches!(m.answer, MistakenAnswer::Option(o) if o == i))
                    })
                    .map(|m| mistake_line(m.name.as_deref(), &m.feedback, lang));
                match mistake {
                    Some(line) => wrong(format!("{line} {verdict}"), line.clone(), Some(line)),
                    None => wrong(
                        verdict,
                        t!(lang, "grade-wrong-choice-held", picked = named),
                        None,
                    ),
                }
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
                Response::Text(text) => match read_order(text, items, aliases, lang) {
                    Ok(order) => order,
                    Err(message) => return Feedback::unusable(message, expected),
                },
                Response::Choice(_) => {
                    return Feedback::unusable(t!(lang, "grade-arrange"), expected);
                }
            };
            if order.len() != items.len() {
                return Feedback::unusable(t!(lang, "grade-all-items", n = items.len()), expected);
            }
            if &order == correct {
                right(t!(lang, "grade-right", expected = expected.clone()))
            } else {
                let first_wrong = order
                    .iter()
                    .zip(correct)
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                wrong(
                    t!(
                        lang,
                        "grade-wrong-order",
                        position = first_wrong + 1,
                        right = items[correct[first_wrong]].clone(),
                        given = items[order[first_wrong]].clone(),
                        expected = expected.clone()
                    ),
                    t!(
                        lang,
                        "grade-wrong-order-held",
                        position = first_wrong + 1,
                        given = items[order[first_wrong]].clone()
                    ),
                    None,
                )
            }
        }
        AnswerKey::Text {
            accepted,
            threshold,
        } => {
            let Response::Text(text) = response else {
                return Feedback::unusable(t!(lang, "grade-type-word"), expected);
            };
            if names_answer(text, accepted, *threshold)
                || names_in_forms(text, accepted, *threshold)
            {
                right(t!(lang, "grade-right", expected = expected.clone()))
            } else {
                wrong(
                    t!(
                        lang,
                        "grade-wrong-text",
                        typed = text.trim(),
                        expected = expected.clone()
                    ),
                    t!(lang, "grade-wrong-text-held", typed = text.trim()),
                    None,
                )
            }
        }
        AnswerKey::Explain {
            ideas,
            model,
            required,
            ..
        } => {
            let Response::Text(text) = response else {
                return Feedback::unusable(t!(lang, "grade-write-explanation"), expected);
            };
            let (found, missed): (Vec<_>, Vec<_>) =
                ideas.iter().partition(|idea| idea_in(text, idea));
            let names = |list: &[&crate::content::schema::Idea]| {
                list.iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            let summary = if missed.is_empty() {
                t!(lang, "grade-ideas-all", found = names(&found))
            } else if found.is_empty() {
                t!(lang, "grade-ideas-none", missed = names(&missed))
            } else {
                t!(
                    lang,
                    "grade-ideas-some",
                    found = names(&found),
                    missed = names(&missed)
                )
            };
            let enough = found.len() >= *required && !found.is_empty();
            let headline = if enough {
                t!(lang, "grade-compare-enough", summary = summary)
            } else if found.is_empty() {
                t!(lang, "grade-compare-none", summary = summary)
            } else {
                t!(lang, "grade-compare-some", summary = summary)
            };
            Feedback {
                outcome: Outcome::Compare,
                held: t!(lang, "grade-explain-held"),
                headline,
                mistake: None,
                why: variant.explanation.clone(),
                expected: expected.clone(),
                model: Some(model.clone()),
                ideas_found: found.iter().map(|i| i.name.clone()).collect(),
                ideas_missed: missed.iter().map(|i| i.name.clone()).collect(),
            }
        }
    }
}

/// Grades exact part `part` (0-based) of an explanation exercise; `None` if there is no such part.
pub fn grade_part(variant: &Variant, part: usize, response: Response<'_>) -> Option<Feedback> {
    grade_part_in(variant, part, response, Lang::En)
}

/// [`grade_part`] with the feedback in `lang`.
pub fn grade_part_in(
    variant: &Variant,
    part: usize,
    response: Response<'_>,
    lang: Lang,
) -> Option<Feedback> {
    let check = variant.key.parts().get(part)?;
    let mut asked = variant.clone();
    asked.key = check.key.clone();
    asked.prompt = check.prompt.clone();
    // The worked explanation waits for the explanation itself.
    asked.explanation = String::new();
    let mut feedback = grade_in(&asked, response, lang);
    feedback.why = String::new();
    Some(feedback)
}

/// How close a numeric answer must be, in words: `within 2 %`, `within ±0.1 percentage point`.
pub fn tolerance_words(tolerance: &Tolerance, unit: &Unit, kilo: u32) -> String {
    tolerance_words_in(tolerance, unit, kilo, Lang::En)
}

/// [`tolerance_words`] in `lang`.
pub fn tolerance_words_in(tolerance: &Tolerance, unit: &Unit, kilo: u32, lang: Lang) -> String {
    match tolerance {
        Tolerance::Exact => String::new(),
        Tolerance::Abs(limit) if *unit == Unit::Percent => t!(
            lang,
            "grade-within-points",
            points = crate::format::trim_float(limit * 100.0, 3)
        ),
        Tolerance::Abs(limit) => t!(
            lang,
            "grade-within",
            limit = format_with_unit_in(*limit, unit, kilo, lang)
        ),
        Tolerance::Rel(fraction) => t!(
            lang,
            "grade-within-percent",
            percent = crate::format::trim_float(fraction * 100.0, 2)
        ),
    }
}

/// Words a phrase is negated by when they come shortly before it (Hinglish `bina`: without).
const NEGATING: [&str; 15] = [
    "not", "no", "never", "without", "nor", "isn't", "isnt", "doesn't", "doesnt", "don't", "dont",
    "won't", "cannot", "can't", "bina",
];

/// Whether a word that comes shortly after a phrase negates it: Korean puts the negation after the
/// verb (`…되지 않는다`, `안 된다`, `…없다`, `…아니다`, `못 …`), Hinglish after it too (`… nahi
/// hota`).
fn negates_after(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric());
    matches!(word, "안" | "못" | "nahi" | "nahin" | "nahii" | "na")
        || word.contains('않')
        || word.starts_with("아니")
        || word.starts_with("아닌")
        || word.starts_with("못")
        || [
            "없다", "없이", "없는", "없어", "없음", "없고", "없으", "없습",
        ]
        .iter()
        .any(|form| word.starts_with(form))
}

/// Whether an explanation shows `idea`: one of its phrases appears and is not negated (no `not`,
/// `never`, `without` … among the three words before it in the same clause, nor a Korean or
/// Hinglish negation among the two words after it), and none of the idea's contradicting phrases
/// appears. A phrase written in Hangul matches inside a longer word (Korean attaches particles:
/// `섹터가`, `섹터를`).
fn idea_in(text: &str, idea: &crate::content::schema::Idea) -> bool {
    let typed = normalize_keep_apostrophes(text);
    if idea
        .not_with
        .iter()
        .any(|phrase| contains_phrase(&typed, &normalize_keep_apostrophes(phrase)).is_some())
    {
        return false;
    }
    idea.any_of.iter().any(|phrase| {
        let phrase = normalize_keep_apostrophes(phrase);
        let mut from = 0;
        while let Some(at) = contains_phrase(&typed[from..], &phrase).map(|i| i + from) {
            let before = &typed[..at];
            let clause = before
                .rsplit([',', ';', ':', '(', ')', '!', '?'])
                .next()
                .unwrap_or(before);
            let clause = clause.rsplit(". ").next().unwrap_or(clause);
            let negated_before = clause
                .split_whitespace()
                .rev()
                .take(3)
                .any(|w| NEGATING.contains(&w) || w.ends_with("n't"));
            let after = &typed[at + phrase.len()..];
            let after = after
                .split([',', ';', ':', '(', ')', '!', '?'])
                .next()
                .unwrap_or(after);
            let after = after.split(". ").next().unwrap_or(after);
            // The rest of the phrase's own word (`이` of `coalescing이`), then two words.
            let words_after = if after.starts_with(char::is_whitespace) {
                2
            } else {
                3
            };
            let negated_after = after
                .split_whitespace()
                .take(words_after)
                .any(negates_after);
            if !negated_before && !negated_after {
                return true;
            }
            from = at + phrase.len().max(1);
        }
        false
    })
}

/// Lower case, with punctuation kept only where it separates clauses; runs of spaces collapsed.
fn normalize_keep_apostrophes(text: &str) -> String {
    text.to_lowercase()
        .replace(['’', '‘'], "'")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Byte offset of `phrase` in `text` where it starts a word (anywhere, for a phrase in Hangul).
fn contains_phrase(text: &str, phrase: &str) -> Option<usize> {
    if phrase.is_empty() {
        return None;
    }
    let hangul = phrase.starts_with(crate::units::is_hangul);
    text.match_indices(phrase).map(|(i, _)| i).find(|&i| {
        hangul
            || i == 0
            || !text[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric)
            || !phrase.starts_with(char::is_alphanumeric)
    })
}

/// Filler a learner may put around a name (`it is called memory coalescing`, Hinglish `ise
/// coalescing kehte hain`, Korean `바로 coalescing`).
const FILLER: [&str; 24] = [
    "the",
    "a",
    "an",
    "it",
    "is",
    "its",
    "called",
    "this",
    "that",
    "access",
    "accesses",
    "memory",
    "ise",
    "isko",
    "yeh",
    "ye",
    "kehte",
    "hain",
    "hai",
    "ko",
    "바로",
    "그것은",
    "이것은",
    "이건",
];

/// A typed word without the Korean particle or copula attached to it (`병합이요` → `병합`,
/// `coalescing입니다` → `coalescing`); other words unchanged.
fn without_korean_ending(word: &str) -> &str {
    const ENDINGS: [&str; 14] = [
        "입니다",
        "이에요",
        "예요",
        "이요",
        "이다",
        "요",
        "이",
        "가",
        "은",
        "는",
        "을",
        "를",
        "의",
        "라고",
    ];
    for ending in ENDINGS {
        if let Some(stem) = word.strip_suffix(ending)
            && !stem.is_empty()
        {
            return stem;
        }
    }
    word
}

/// Whether two words are forms of one word (`coalesced`, `coalesce`, `coalescing`) or one is a
/// small slip of the other.
fn same_word(typed: &str, name: &str, threshold: i64) -> bool {
    if typed == name {
        return true;
    }
    let common = typed
        .chars()
        .zip(name.chars())
        .take_while(|(a, b)| a == b)
        .count();
    let shorter = typed.chars().count().min(name.chars().count());
    (common >= 5 && common * 10 >= shorter * 8)
        || (shorter >= 5 && fuzzy_names(typed, name, threshold))
}

/// Whether `typed` names one of `accepted`: every word of some accepted name appears (in any of its
/// forms), no word says the opposite (`not`, `non`), and no word names something else (`bank
/// coalescing`).
pub fn names_answer(typed: &str, accepted: &[String], threshold: i64) -> bool {
    let text = normalize(typed).replace('-', " ");
    let words: Vec<&str> = text.split_whitespace().map(without_korean_ending).collect();
    if words.is_empty()
        || words.iter().any(|w| {
            NEGATING.contains(w)
                || negates_after(w)
                || *w == "non"
                || w.starts_with("non")
                    && w.len() > 5
                    && accepted.iter().any(|a| normalize(a).contains(&w[3..]))
                || w.starts_with("un")
                    && accepted
                        .iter()
                        .any(|a| normalize(a).contains(&w[2..]) && w.len() > 4)
        })
    {
        return false;
    }
    let vocabulary: Vec<String> = accepted
        .iter()
        .flat_map(|a| {
            normalize(a)
                .replace('-', " ")
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let known =
        |w: &str| FILLER.contains(&w) || vocabulary.iter().any(|v| same_word(w, v, threshold));
    if !words.iter().all(|w| known(w)) {
        return false;
    }
    accepted.iter().any(|name| {
        normalize(name)
            .replace('-', " ")
            .split_whitespace()
            .filter(|w| !FILLER.contains(w))
            .all(|needed| words.iter().any(|w| same_word(w, needed, threshold)))
    })
}

/// The options named by a term said in a sentence, in another language or with a gloss
/// ([`super::terms::forms`]): the part outside the brackets, unless the gloss names another
/// option; the gloss alone when the outside names none; then the whole answer.
fn pick_in_forms(text: &str, pick: impl Fn(&str) -> Vec<usize>) -> Vec<usize> {
    let forms = super::terms::forms(text);
    if let Some(inside) = &forms.inside {
        let (outside, inside) = (pick(&forms.outside), pick(inside));
        return match (outside.is_empty(), inside.is_empty()) {
            (false, true) => outside,
            (true, false) => inside,
            (false, false) if outside == inside => outside,
            _ => Vec::new(),
        };
    }
    pick(&forms.whole)
}

/// Whether a term said in a sentence, in another language or with a gloss names an accepted
/// answer: the part outside the brackets names it (the gloss explains it, or says what it is
/// not: `coalescing (not bank conflicts)`), the gloss names it when nothing is outside, or the
/// whole answer, framing removed, names it.
fn names_in_forms(text: &str, accepted: &[String], threshold: i64) -> bool {
    let forms = super::terms::forms(text);
    match &forms.inside {
        Some(inside) => {
            names_answer(&forms.outside, accepted, threshold)
                || forms.outside.trim().is_empty() && names_answer(inside, accepted, threshold)
        }
        None => names_answer(&forms.whole, accepted, threshold),
    }
}

/// Reads the options a text names: `b`, `B)`, `(b)`, `2`, the option's words, the shown form
/// `b) shared memory (`__shared__`)`, or several joined by `or` (`a) 128 threads or b) 256 threads`).
/// Empty when nothing (or something contradictory, like `a) <the words of b>`) was named.
fn pick_options(text: &str, options: &[String]) -> Vec<usize> {
    let whole = pick_option(text, options);
    if let Some(one) = whole {
        return vec![one];
    }
    let parts: Vec<&str> = text
        .split(" or ")
        .flat_map(|p| p.split(" OR "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 {
        return Vec::new();
    }
    let mut picked = Vec::new();
    for part in parts {
        match pick_option(part, options) {
            Some(i) if !picked.contains(&i) => picked.push(i),
            Some(_) => {}
            None => return Vec::new(),
        }
    }
    picked
}

/// Reads one choice: a letter (`b`, `B)`, `(b)`), a number (`2`), the option's words, or a letter
/// followed by that option's words (`b) shared memory`).
fn pick_option(text: &str, options: &[String]) -> Option<usize> {
    let trimmed = text.trim();
    // `b) words` / `(b) words` / `b. words`: the letter, checked against the words.
    let unbracketed = trimmed.strip_prefix('(').unwrap_or(trimmed);
    let mut chars = unbracketed.chars();
    if let (Some(first), Some(mark)) = (chars.next(), chars.next())
        && first.is_ascii_alphabetic()
        && matches!(mark, ')' | '.' | ':')
    {
        let index = (first.to_ascii_lowercase() as u8 - b'a') as usize;
        let words = chars.as_str().trim();
        if words.is_empty() {
            return Some(index);
        }
        let option = options.get(index)?;
        return (normalize(option) == normalize(words)
            || pick_words(words, options) == Some(index))
        .then_some(index);
    }
    let t = trimmed
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
    pick_words(t, options)
}

/// The option whose words `t` names.
fn pick_words(t: &str, options: &[String]) -> Option<usize> {
    // `not compute-bound` names no option (unless an option itself says `not`).
    let negated = |text: &str| {
        normalize(text)
            .split_whitespace()
            .any(|w| NEGATING.contains(&w))
    };
    if negated(t) && !options.iter().any(|o| negated(o)) {
        return None;
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
fn read_order(
    text: &str,
    items: &[String],
    aliases: &[Vec<String>],
    lang: Lang,
) -> Result<Vec<usize>, String> {
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
        return Err(t!(
            lang,
            "grade-name-all",
            n = items.len(),
            example = items.join(", ")
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
            Some(i) => return Err(t!(lang, "grade-twice", item = items[i].clone())),
            None => {
                return Err(t!(
                    lang,
                    "grade-not-an-item",
                    item = part,
                    items = items.join(", ")
                ));
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
            read_order("regs, smem, L2, DRAM", &items, &aliases, Lang::En),
            Ok(vec![0, 1, 2, 3])
        );
        assert_eq!(
            read_order(
                "HBM > L2 > shared memory > registers",
                &items,
                &aliases,
                Lang::En
            ),
            Ok(vec![3, 2, 1, 0])
        );
        assert!(read_order("regs, smem", &items, &aliases, Lang::En).is_err());
        assert!(read_order("regs, regs, L2, DRAM", &items, &aliases, Lang::En).is_err());
    }

    #[test]
    fn terms_in_sentences_glosses_and_other_languages() {
        let options: Vec<String> = [
            "registers",
            "shared memory",
            "global memory",
            "local memory",
        ]
        .map(String::from)
        .to_vec();
        let pick = |t: &str| {
            let p = pick_options(t, &options);
            if p.is_empty() {
                pick_in_forms(t, |x| pick_options(x, &options))
            } else {
                p
            }
        };
        assert_eq!(pick("it is shared memory"), vec![1]);
        assert_eq!(pick("레지스터"), vec![0]);
        assert_eq!(pick("공유 메모리입니다"), vec![1]);
        assert_eq!(pick("global memory hai"), vec![2]);
        assert_eq!(pick("smem (shared memory)"), vec![1]);
        assert_eq!(pick("shared memory (not global memory)"), vec![1]);
        assert_eq!(pick("shared memory (global memory)"), Vec::<usize>::new());
        assert_eq!(pick("not shared memory"), Vec::<usize>::new());
        let bound = vec!["memory-bound".to_string(), "compute-bound".to_string()];
        let pick = |t: &str| {
            let p = pick_options(t, &bound);
            if p.is_empty() {
                pick_in_forms(t, |x| pick_options(x, &bound))
            } else {
                p
            }
        };
        assert_eq!(pick("memory bound hai"), vec![0]);
        assert_eq!(pick("메모리 바운드"), vec![0]);
        assert_eq!(pick("it's compute-bound"), vec![1]);

        let accepted: Vec<String> = ["coalescing", "memory coalescing", "coalesced access"]
            .map(String::from)
            .to_vec();
        let names = |t: &str| names_answer(t, &accepted, 60) || names_in_forms(t, &accepted, 60);
        assert!(names("coalescing hota hai"));
        assert!(names("it is memory coalescing"));
        assert!(names("coalescing (merging a warp's accesses)"));
        assert!(names("코얼레싱이요"));
        assert!(names("coalescing (not bank conflicts)"));
        assert!(!names("not coalescing (bank conflicts)"));
        assert!(!names("bank conflicts"));
        let lds: Vec<String> = vec!["LDS".into(), "local data share".into()];
        assert!(
            names_answer("LDS (local data share)", &lds, 60)
                || names_in_forms("LDS (local data share)", &lds, 60)
        );
    }
}
