//! Checking templates the way a learner would meet them: every parameter combination (or many
//! seeds) drawn and built, so a mistake is reported to the author, never shown to a learner.

use super::variant::{self, ParamValue, VariantError, param_len, param_value};
use crate::content::schema::ExerciseTemplate;
use crate::content::{self, Content, DirError, SourceFile};
use std::collections::BTreeMap;
use std::path::Path;

/// Templates with at most this many parameter combinations are checked for every one; others for
/// 300 seeds.
const EXHAUSTIVE_LIMIT: usize = 1024;

/// The built-in content with every template's variants checked.
pub fn builtin() -> Content {
    Content::builtin_checked(Some(check_variants))
}

/// The built-in content plus `dir`, with every template's variants checked.
pub fn with_dir(dir: Option<&Path>) -> Result<Content, DirError> {
    Content::with_dir_checked(dir, Some(check_variants))
}

/// Parses and validates `sources`, with every template's variants checked.
pub fn load(sources: Vec<SourceFile>, known_topics: &[content::schema::Topic]) -> Content {
    content::load_checked(sources, known_topics, Some(check_variants))
}

/// Generates the variants of every parameter combination (or many seeds when there are too many);
/// returns the first failure with a text to locate it by.
pub fn check_variants(exercise: &ExerciseTemplate) -> Option<(Option<String>, String)> {
    let sizes: Vec<usize> = exercise.params.values().map(param_len).collect();
    if let Some((name, _)) = exercise.params.iter().find(|(_, p)| param_len(p) == 0) {
        return Some((
            Some(format!("\"{name}\"")),
            format!(
                "parameter `{name}` has no values (empty list, or a range with max < min or step ≤ 0)"
            ),
        ));
    }
    let total = sizes.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
    let report = |e: VariantError, params: &BTreeMap<String, ParamValue>| {
        let described = params
            .iter()
            .map(|(k, v)| match v {
                ParamValue::Number(n) => format!("{k}={}", variant::plain(*n)),
                ParamValue::Text(t) => format!("{k}={t}"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let when = if described.is_empty() {
            String::new()
        } else {
            format!(" (with {described})")
        };
        Some((needle_of(&e), format!("{e}{when}")))
    };
    match total {
        Some(total) if total <= EXHAUSTIVE_LIMIT => {
            for combination in 0..total {
                let mut rest = combination;
                let params: BTreeMap<String, ParamValue> = exercise
                    .params
                    .iter()
                    .zip(&sizes)
                    .map(|((name, param), &n)| {
                        let index = rest % n;
                        rest /= n;
                        (name.clone(), param_value(param, index))
                    })
                    .collect();
                if let Err(e) = variant::build(exercise, combination as u64, params.clone()) {
                    return report(e, &params);
                }
            }
        }
        _ => {
            for seed in 0..300u64 {
                let params = match variant::draw(exercise, seed) {
                    Ok(params) => params,
                    Err(e) => return report(e, &BTreeMap::new()),
                };
                if let Err(e) = variant::build(exercise, seed, params.clone()) {
                    return report(e, &params);
                }
            }
        }
    }
    None
}

/// Text near the problem, to point the diagnostic at it.
fn needle_of(error: &VariantError) -> Option<String> {
    let place = match error {
        VariantError::Param { name, .. } => return Some(format!("\"{name}\"")),
        VariantError::Expr { place, .. }
        | VariantError::Engine { place, .. }
        | VariantError::Template { place, .. } => place,
    };
    if let Some(start) = place.find("placeholder {") {
        return Some(place[start + "placeholder ".len()..].to_string());
    }
    if let Some(name) = place
        .strip_prefix("value `")
        .and_then(|p| p.strip_suffix('`'))
    {
        return Some(format!("\"{name}\""));
    }
    for (prefix, needle) in [
        ("prompt", "prompt"),
        ("hint", "hints"),
        ("explanation", "explanation"),
        ("model", "model"),
        ("option", "options"),
        ("item", "items"),
        ("answer", "answer"),
    ] {
        if place.starts_with(prefix) {
            return Some(needle.to_string());
        }
    }
    None
}

// ---- The template linter ----

/// How serious a finding of the template linter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Wrong for a learner: fails `content check`.
    Error,
    /// Probably unintended: listed, does not fail.
    Warning,
}

/// One thing the linter found in a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// Text near the problem in the file, to locate it by.
    pub needle: Option<String>,
    /// What is wrong, with an example variant, and what to do.
    pub message: String,
}

/// A finding located at `file:line:column`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Located {
    /// Error or warning.
    pub severity: Severity,
    /// Where, and the message.
    #[serde(flatten)]
    pub diagnostic: content::Diagnostic,
}

/// Templates with at most this many combinations are linted on every one; others on 300 seeds.
const LINT_SEEDS: u64 = 300;

/// A choice option right in more than this share of the variants is reported: most variants
/// (half) for three or more options, three quarters for two.
fn majority(options: usize) -> f64 {
    if options <= 2 { 0.75 } else { 0.5 }
}

/// The variants a learner can meet: every combination when there are few, else 300 seeds.
fn sample(template: &ExerciseTemplate) -> Vec<variant::Variant> {
    let sizes: Vec<usize> = template.params.values().map(param_len).collect();
    if sizes.contains(&0) {
        return Vec::new();
    }
    let total = sizes.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
    match total {
        Some(total) if total <= EXHAUSTIVE_LIMIT => (0..total)
            .filter_map(|combination| {
                let mut rest = combination;
                let params: BTreeMap<String, ParamValue> = template
                    .params
                    .iter()
                    .zip(&sizes)
                    .map(|((name, param), &n)| {
                        let index = rest % n;
                        rest /= n;
                        (name.clone(), param_value(param, index))
                    })
                    .collect();
                variant::build(template, combination as u64, params).ok()
            })
            .collect(),
        _ => (0..LINT_SEEDS)
            .filter_map(|seed| variant::generate(template, seed).ok())
            .collect(),
    }
}

/// What a variant's answer is, for comparing variants (none for explanations and names); a
/// choice by the template's options that are right, whatever letters they are shown at.
fn signature(v: &variant::Variant) -> Option<String> {
    match &v.key {
        variant::AnswerKey::Number { value, .. } => Some(format!("{value:.9e}")),
        variant::AnswerKey::Choice { correct, .. } => {
            let mut right: Vec<usize> = correct
                .iter()
                .map(|&i| v.option_order.get(i).copied().unwrap_or(i))
                .collect();
            right.sort_unstable();
            Some(format!("{right:?}"))
        }
        variant::AnswerKey::Ordering { correct, .. } => Some(format!("{correct:?}")),
        variant::AnswerKey::Text { .. } | variant::AnswerKey::Explain { .. } => None,
    }
}

fn described(params: &BTreeMap<String, ParamValue>) -> String {
    params
        .iter()
        .map(|(k, v)| match v {
            ParamValue::Number(n) => format!("{k}={}", variant::plain(*n)),
            ParamValue::Text(t) => format!("{k}={t}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Lints one template: samples its variants and reports choices with several or all options right
/// (unless `ties: true`), one option right in most variants, a parameter that never changes the
/// answer, an answer that is the same in every variant, prompts that read oddly for a variant, and
/// numbers typed into the title, prompt, hints or explanation that are one variant's value.
pub fn lint(template: &ExerciseTemplate) -> Vec<Finding> {
    let variants = sample(template);
    let mut findings = Vec::new();
    if variants.is_empty() {
        return findings;
    }
    let has_params = template.params.values().any(|p| param_len(p) > 1);
    lint_choices(template, &variants, has_params, &mut findings);
    if has_params {
        lint_answers_vary(template, &variants, &mut findings);
        lint_stated_numbers(template, &variants, &mut findings);
    }
    if let Some(share) = answer_share(template)
        && share.warns()
    {
        findings.push(Finding {
            severity: Severity::Warning,
            needle: Some(if share.kind == "choice" { "options" } else { "answer" }.into()),
            message: format!(
                "the most common answer, {}, is right in {} of {} seeds ({}): a learner who always gives it is mostly right — widen the parameters' ranges or choices so that answers vary",
                share.answer,
                share.count,
                share.seeds,
                crate::format::percent(share.share())
            ),
        });
    }
    lint_odd_text(&variants, &mut findings);
    lint_first_hint(&variants, &mut findings);
    lint_mistakes(template, &variants, &mut findings);
    findings
}

/// Seeds the answer share is measured on.
pub const SHARE_SEEDS: u64 = 40;

/// Above this share of [`SHARE_SEEDS`] the most common answer is a warning.
pub const SHARE_LIMIT: f64 = 0.5;

/// How often a template's most common answer comes up: over [`SHARE_SEEDS`] seeds, the option
/// letter most often right (a choice, in the order the variants show their options), or the value
/// (a number) or order most often asked for.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AnswerShare {
    /// The template.
    pub exercise: String,
    /// `choice`, `number` or `ordering`.
    pub kind: &'static str,
    /// The most common answer, as shown (`b`, `5 sectors`).
    pub answer: String,
    /// In how many seeds it is the answer.
    pub count: usize,
    /// Seeds drawn.
    pub seeds: usize,
    /// A fixed fact (no parameters): its answer need not vary, and is never warned about.
    pub exempt: bool,
}

impl AnswerShare {
    /// `count / seeds`: 0.25 when a 4-option choice is right at each letter equally often.
    pub fn share(&self) -> f64 {
        self.count as f64 / self.seeds.max(1) as f64
    }

    /// Whether the share is over [`SHARE_LIMIT`] in a template that has parameters.
    pub fn warns(&self) -> bool {
        !self.exempt && self.share() > SHARE_LIMIT + 1e-12
    }
}

/// The share of `template`'s most common answer over [`SHARE_SEEDS`] seeds; `None` for answers
/// that are names or explanations, or when no variant can be drawn. A choice counts every right
/// option of a variant (ties count for each).
pub fn answer_share(template: &ExerciseTemplate) -> Option<AnswerShare> {
    let variants: Vec<variant::Variant> = (0..SHARE_SEEDS)
        .filter_map(|seed| variant::generate(template, seed).ok())
        .collect();
    let first = variants.first()?;
    let mut counts: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for v in &variants {
        match &v.key {
            variant::AnswerKey::Choice { correct, .. } => {
                for &i in correct {
                    let letter = variant::letter(i).to_string();
                    counts.entry(letter.clone()).or_insert((0, letter)).0 += 1;
                }
            }
            key => {
                let signature = signature(v)?;
                counts.entry(signature).or_insert((0, key.display())).0 += 1;
            }
        }
    }
    let (count, answer) = counts
        .into_values()
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)))?;
    Some(AnswerShare {
        exercise: template.id.clone(),
        kind: first.key.kind(),
        answer,
        count,
        seeds: variants.len(),
        exempt: !template.params.values().any(|p| param_len(p) > 1),
    })
}

/// Seeds a declared mistake is compared with the answer on.
const MISTAKE_SEEDS: u64 = 40;

/// A declared mistake whose value equals the answer (within the answer's tolerance) would call a
/// right answer a misconception — or rather never be heard, since right comes first: reported
/// with the first variant where it happens, over the sampled variants and 40 seeds.
fn lint_mistakes(
    template: &ExerciseTemplate,
    variants: &[variant::Variant],
    findings: &mut Vec<Finding>,
) {
    if template.mistakes.is_empty() {
        return;
    }
    let seeded: Vec<variant::Variant> = (0..MISTAKE_SEEDS)
        .filter_map(|seed| variant::generate(template, seed).ok())
        .collect();
    for (i, mistake) in template.mistakes.iter().enumerate() {
        let same = variants.iter().chain(&seeded).find(|v| {
            let Some(target) = v
                .mistakes
                .iter()
                .filter(|m| m.name.is_some())
                .nth(i)
                .and_then(|m| match m.answer {
                    variant::MistakenAnswer::Number(value) => Some(value),
                    variant::MistakenAnswer::Option(_) => None,
                })
            else {
                return false;
            };
            let keys = std::iter::once(&v.key).chain(v.key.parts().iter().map(|p| &p.key));
            keys.into_iter().any(|key| {
                let variant::AnswerKey::Number {
                    value, tolerance, ..
                } = key
                else {
                    return false;
                };
                let error = (target - value).abs();
                match tolerance {
                    crate::content::schema::Tolerance::Exact => error <= 1e-9 * value.abs(),
                    crate::content::schema::Tolerance::Abs(limit) => error <= *limit + 1e-12,
                    crate::content::schema::Tolerance::Rel(fraction) => {
                        error <= fraction * value.abs() + 1e-12
                    }
                }
            })
        });
        if let Some(v) = same {
            findings.push(Finding {
                severity: Severity::Warning,
                needle: Some(format!("\"{}\"", mistake.name)),
                message: format!(
                    "mistake `{}` equals the answer in some variants (seed {}: {}): a right answer there cannot show it — make its value differ from the answer for every draw",
                    mistake.name,
                    v.seed,
                    described(&v.params)
                ),
            });
        }
    }
}

/// Whether `text` holds `number` as a number of its own (not inside a longer one).
fn states_number(text: &str, number: &str) -> bool {
    text.match_indices(number).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + number.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit() || c == '.')
            && !after.is_some_and(|c| {
                c.is_ascii_digit()
                    || c == '.'
                        && text[at + number.len() + 1..].starts_with(|d: char| d.is_ascii_digit())
            })
    })
}

/// The first hint should nudge, not compute: it may not state a numeric answer in most variants.
fn lint_first_hint(variants: &[variant::Variant], findings: &mut Vec<Finding>) {
    let giving = variants
        .iter()
        .filter(|v| {
            let (Some(value), Some(first)) = (v.key.value(), v.hints.first()) else {
                return false;
            };
            let shown = variant::plain(value);
            // Small whole numbers (1, 4, 32) appear in hints for other reasons.
            (value.fract() != 0.0 || value.abs() > 64.0) && states_number(first, &shown)
        })
        .count();
    if giving * 2 > variants.len() {
        findings.push(Finding {
            severity: Severity::Warning,
            needle: Some("hints".into()),
            message: format!(
                "hint 1 states the answer in {giving} of {} variants: let the first hint point the way and a later one do the arithmetic",
                variants.len()
            ),
        });
    }
}

fn lint_choices(
    template: &ExerciseTemplate,
    variants: &[variant::Variant],
    has_params: bool,
    findings: &mut Vec<Finding>,
) {
    let crate::content::schema::AnswerSpec::Choice { options, ties, .. } = &template.answer else {
        return;
    };
    let count = options.len();
    let all = variants
        .iter()
        .filter(|v| matches!(&v.key, variant::AnswerKey::Choice { correct, .. } if count > 1 && correct.len() == count))
        .collect::<Vec<_>>();
    if let Some(first) = all.first() {
        findings.push(Finding {
            severity: Severity::Error,
            needle: Some("options".into()),
            message: format!(
                "every option is right in {} of {} variants (e.g. {}): the question has no wrong answer there — change the options or the parameters",
                all.len(),
                variants.len(),
                described(&first.params)
            ),
        });
    }
    if !ties {
        let several = variants
            .iter()
            .filter(|v| matches!(&v.key, variant::AnswerKey::Choice { correct, .. } if correct.len() > 1 && correct.len() < count))
            .collect::<Vec<_>>();
        if let Some(first) = several.first() {
            findings.push(Finding {
                severity: Severity::Error,
                needle: Some("options".into()),
                message: format!(
                    "several options are right in {} of {} variants (e.g. {}) — make one right, or write `ties: true` if ties are intended",
                    several.len(),
                    variants.len(),
                    described(&first.params)
                ),
            });
        }
    }
    if has_params && variants.len() > 1 {
        for index in 0..count {
            // By the option as written (the order shown changes with the seed): an option whose
            // words are mostly right is mostly right whatever letter it has.
            let right = variants
                .iter()
                .filter(|v| matches!(&v.key, variant::AnswerKey::Choice { correct, .. }
                    if correct.iter().any(|&shown| v.option_order.get(shown).copied().unwrap_or(shown) == index)))
                .count();
            let share = right as f64 / variants.len() as f64;
            if share > majority(count) && right < variants.len() {
                findings.push(Finding {
                    severity: Severity::Warning,
                    needle: Some("options".into()),
                    message: format!(
                        "option {} (as written) is right in {right} of {} variants: always picking it is mostly right — balance the parameters",
                        variant::letter(index),
                        variants.len()
                    ),
                });
            }
        }
    }
}

fn lint_answers_vary(
    template: &ExerciseTemplate,
    variants: &[variant::Variant],
    findings: &mut Vec<Finding>,
) {
    let signatures: Vec<Option<String>> = variants.iter().map(signature).collect();
    if signatures.iter().any(Option::is_none) {
        return;
    }
    let distinct: std::collections::BTreeSet<&Option<String>> = signatures.iter().collect();
    if distinct.len() == 1 {
        findings.push(Finding {
            severity: Severity::Warning,
            needle: Some("answer".into()),
            message: format!(
                "the answer is {} in every variant: the parameters change nothing a learner must work out",
                variants[0].key.display()
            ),
        });
        return;
    }
    // Each parameter, changed alone from up to 40 variants, must change the answer somewhere.
    let step = (variants.len() / 40).max(1);
    for (name, param) in &template.params {
        let n = param_len(param);
        if n < 2 {
            continue;
        }
        let alternatives: Vec<ParamValue> = (0..n)
            .step_by((n / 12).max(1))
            .map(|i| param_value(param, i))
            .collect();
        let changes = variants.iter().step_by(step).any(|base| {
            let Some(before) = signature(base) else {
                return true;
            };
            alternatives.iter().any(|value| {
                let mut params = base.params.clone();
                params.insert(name.clone(), value.clone());
                variant::build(template, base.seed, params)
                    .ok()
                    .and_then(|v| signature(&v))
                    .is_some_and(|after| after != before)
            })
        });
        if !changes {
            findings.push(Finding {
                severity: Severity::Warning,
                needle: Some(format!("\"{name}\"")),
                message: format!(
                    "parameter `{name}` never changes the answer: drop it, or make the question depend on it"
                ),
            });
        }
    }
}

/// Phrases that read oddly when a placeholder gives this number (`starts at element 0`).
fn odd_phrase(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    for pair in words.windows(2) {
        let (a, b) = (pair[0], pair[1].trim_end_matches([',', '.', ';', ':', ')']));
        let a_clean = a.trim_start_matches('(');
        if matches!(a_clean, "element" | "offset" | "by" | "misaligned") && b == "0" {
            return Some(format!("{a} {b}"));
        }
        if a_clean == "1"
            && matches!(
                b,
                "blocks"
                    | "warps"
                    | "sectors"
                    | "bytes"
                    | "lanes"
                    | "elements"
                    | "tiles"
                    | "waves"
                    | "threads"
                    | "registers"
                    | "instructions"
                    | "wavefronts"
            )
        {
            return Some(format!("{a} {b}"));
        }
    }
    None
}

fn lint_odd_text(variants: &[variant::Variant], findings: &mut Vec<Finding>) {
    for v in variants {
        if let Some(phrase) = odd_phrase(&v.prompt) {
            findings.push(Finding {
                severity: Severity::Warning,
                needle: Some("prompt".into()),
                message: format!(
                    "the prompt reads “…{phrase}…” for {} — leave that value out of the parameters or word the prompt for it",
                    described(&v.params)
                ),
            });
            return;
        }
    }
}

/// A number typed into the text (outside placeholders): `62.5 %`, `1664`, `0.25`.
#[derive(Debug, Clone)]
struct Literal {
    text: String,
    value: f64,
    decimals: usize,
    percent: bool,
}

fn literals(text: &str) -> Vec<Literal> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let starts = depth == 0
            && c.is_ascii_digit()
            && (i == 0
                || !(chars[i - 1].1.is_alphanumeric()
                    || chars[i - 1].1 == '_'
                    || chars[i - 1].1 == '.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && (chars[j].1.is_ascii_digit() || chars[j].1 == '.') {
            j += 1;
        }
        let end = chars.get(j).map_or(text.len(), |c| c.0);
        let number = text[at..end].trim_end_matches('.');
        let after = &text[at + number.len()..];
        let followed_by_word = after.starts_with(|c: char| c.is_alphabetic() || c == '_');
        let percent = after.starts_with('%') || after.starts_with(" %");
        if let Ok(value) = number.parse::<f64>()
            && !followed_by_word
        {
            let shown = if percent {
                let gap = if after.starts_with(' ') { " " } else { "" };
                format!("{number}{gap}%")
            } else {
                number.to_string()
            };
            out.push(Literal {
                text: shown,
                value,
                decimals: number.find('.').map_or(0, |d| number.len() - d - 1),
                percent,
            });
        }
        i = j;
    }
    out
}

/// Whether a literal is a number of its own worth comparing with the variants: a percentage or a
/// decimal (whole numbers are too often sizes such as 32 or 128 that every variant shares).
fn notable(literal: &Literal) -> bool {
    literal.percent || literal.decimals > 0
}

fn lint_stated_numbers(
    template: &ExerciseTemplate,
    variants: &[variant::Variant],
    findings: &mut Vec<Finding>,
) {
    let mut places: Vec<(&str, &str)> = vec![
        ("title", template.title.as_str()),
        ("prompt", template.prompt.as_str()),
        ("explanation", template.explanation.as_str()),
    ];
    for hint in &template.hints {
        places.push(("hint", hint.as_str()));
    }
    if let crate::content::schema::AnswerSpec::Explain { model, .. } = &template.answer {
        places.push(("model answer", model.as_str()));
    }
    let mut reported = std::collections::BTreeSet::new();
    for (place, text) in places {
        for literal in literals(text).into_iter().filter(notable) {
            if !reported.insert(literal.text.clone()) {
                continue;
            }
            let scale = 10f64.powi(literal.decimals as i32);
            let matches = |value: f64| {
                let shown = if literal.percent {
                    value * 100.0
                } else {
                    value
                };
                ((shown * scale).round() - literal.value * scale).abs() < 0.5
            };
            // Computed values only (a parameter may be quoted as a fixed example), and for a
            // percentage only values that are fractions.
            let names: std::collections::BTreeSet<&String> = template
                .values
                .iter()
                .map(|(name, _)| name)
                .filter(|name| {
                    !literal.percent
                        || variants
                            .iter()
                            .all(|v| v.numbers.get(*name).is_none_or(|x| (0.0..=1.0).contains(x)))
                })
                .collect();
            for name in names {
                let (agree, differ): (Vec<&variant::Variant>, Vec<&variant::Variant>) = variants
                    .iter()
                    .filter(|v| v.numbers.contains_key(name))
                    .partition(|v| matches(v.numbers[name]));
                if !agree.is_empty() && !differ.is_empty() {
                    let other = differ[0];
                    let value = other.numbers[name];
                    let shown = if literal.percent {
                        crate::format::percent(value)
                    } else {
                        variant::plain(value)
                    };
                    findings.push(Finding {
                        severity: Severity::Error,
                        needle: Some(literal.text.clone()),
                        message: format!(
                            "the {place} states {} — the value `{name}` of {} of {} variants, but {shown} for {}: write it as a placeholder {{{name}}}",
                            literal.text,
                            agree.len(),
                            variants.len(),
                            described(&other.params)
                        ),
                    });
                    break;
                }
            }
        }
    }
}

/// The answer share ([`answer_share`]) of every exercise of `content` defined in `sources`, in the
/// content's order (by level, then as written).
pub fn shares_in_sources(sources: &[SourceFile], content: &Content) -> Vec<AnswerShare> {
    // The ids each exercise file writes, read once (a search of every file per exercise would be
    // quadratic in a large file).
    let written: Vec<Placed> = sources
        .iter()
        .filter(|s| s.kind == content::FileKind::Exercises)
        .map(|s| Placed::new(&s.text))
        .collect();
    content
        .exercises
        .iter()
        .filter(|exercise| {
            written
                .iter()
                .any(|p| p.ids.contains_key(exercise.id.as_str()))
        })
        .filter_map(answer_share)
        .collect()
}

/// Lints every exercise of `content` found in `sources`, each finding placed at `file:line:column`
/// (at its needle after the exercise's id, or at the id).
pub fn lint_sources(sources: &[SourceFile], content: &Content) -> Vec<Located> {
    locate(sources, content, lint)
}

/// An exercise's `skill` that no card names: a wrong answer would have no card of that skill to
/// bring forward. `cards` are every card the exercise can reach (the folder's and the built-in
/// ones).
pub fn skill_finding(
    exercise: &ExerciseTemplate,
    cards: &[content::schema::Card],
) -> Option<Finding> {
    let skill = exercise.skill.as_deref()?;
    if cards.iter().any(|c| c.skill.as_deref() == Some(skill)) {
        return None;
    }
    Some(Finding {
        severity: Severity::Error,
        needle: Some("skill".to_string()),
        message: format!(
            "skill `{skill}` is named by no card; give `skill: \"{skill}\"` to the cards that practise it, or leave the skill out"
        ),
    })
}

/// [`skill_finding`] for every exercise of `content` found in `sources`, placed as
/// [`lint_sources`] places findings; `cards` are the cards the exercises can reach.
pub fn skill_sources(
    sources: &[SourceFile],
    content: &Content,
    cards: &[content::schema::Card],
) -> Vec<Located> {
    locate(sources, content, |e| {
        skill_finding(e, cards).into_iter().collect()
    })
}

/// Where each item id is written in one file (`id: "…"`, the first time), and where its lines
/// start: built in one pass, so that placing the findings of every exercise of a large file stays
/// linear in its length.
struct Placed<'a> {
    text: &'a str,
    ids: std::collections::HashMap<&'a str, usize>,
    line_starts: Vec<usize>,
}

impl<'a> Placed<'a> {
    fn new(text: &'a str) -> Placed<'a> {
        let mut ids = std::collections::HashMap::new();
        let bytes = text.as_bytes();
        for (at, _) in text.match_indices("id") {
            let word_start =
                at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
            if !word_start {
                continue;
            }
            let rest = &text[at + 2..];
            let after_colon = rest.trim_start();
            let Some(after_colon) = after_colon.strip_prefix(':') else {
                continue;
            };
            let quoted = after_colon.trim_start();
            let Some(inner) = quoted.strip_prefix('"') else {
                continue;
            };
            let Some(close) = inner.find('"') else {
                continue;
            };
            let quote_at = text.len() - quoted.len();
            ids.entry(&inner[..close]).or_insert(quote_at);
        }
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Placed {
            text,
            ids,
            line_starts,
        }
    }

    /// Line and column (1-based, columns in characters) of byte `at`.
    fn position(&self, at: usize) -> (usize, usize) {
        let at = at.min(self.text.len());
        let line = self.line_starts.partition_point(|&start| start <= at);
        let start = self.line_starts[line - 1];
        (line, self.text[start..at].chars().count() + 1)
    }
}

/// `findings` of every exercise of `content` found in `sources`, each placed at
/// `file:line:column` (at its needle after the exercise's id, or at the id).
fn locate(
    sources: &[SourceFile],
    content: &Content,
    findings: impl Fn(&ExerciseTemplate) -> Vec<Finding>,
) -> Vec<Located> {
    let mut out = Vec::new();
    for source in sources
        .iter()
        .filter(|s| s.kind == content::FileKind::Exercises)
    {
        let placed = Placed::new(&source.text);
        for exercise in &content.exercises {
            let Some(&at) = placed.ids.get(exercise.id.as_str()) else {
                continue;
            };
            let quoted = exercise.id.len() + 2;
            let end = source.text[at + quoted..]
                .find("\n    (\n      id:")
                .map_or(source.text.len(), |e| at + quoted + e);
            place(source, &placed, exercise, at, end, &findings, &mut out);
        }
    }
    // Faded examples of lessons, in their lesson files (an id there is unique, the exercise
    // runs to the file's end at most).
    for source in sources
        .iter()
        .filter(|s| s.kind == content::FileKind::Lesson)
    {
        let placed = Placed::new(&source.text);
        let faded = content
            .lessons
            .iter()
            .flat_map(|l| l.steps.iter().filter_map(|s| s.exercise.as_ref()));
        for exercise in faded {
            if let Some(at) = source.text.find(&format!("\"{}\"", exercise.id)) {
                place(
                    source,
                    &placed,
                    exercise,
                    at,
                    source.text.len(),
                    &findings,
                    &mut out,
                );
            }
        }
    }
    out
}

/// `findings` of `exercise`, written in `source` from byte `at` to `end`, each placed at its needle
/// (or at the id).
fn place(
    source: &SourceFile,
    placed: &Placed,
    exercise: &ExerciseTemplate,
    at: usize,
    end: usize,
    findings: &impl Fn(&ExerciseTemplate) -> Vec<Finding>,
    out: &mut Vec<Located>,
) {
    for finding in findings(exercise) {
        let place = finding
            .needle
            .as_deref()
            .and_then(|n| source.text[at..end].find(n).map(|i| at + i))
            .unwrap_or(at);
        let (line, column) = placed.position(place);
        out.push(Located {
            severity: finding.severity,
            diagnostic: content::Diagnostic {
                file: source.path.clone(),
                line,
                column,
                message: format!("exercise `{}`: {}", exercise.id, finding.message),
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_positions_are_placed_as_a_search_from_the_start_places_them() {
        let text = "Exercises(\n  exercises: [\n    (\n      id: \"a-1\",\n      title: \"valid: \\\"x\\\"\",\n    ),\n    (id:\"b\", title: \"héllo\"),\n  ],\n)\n";
        let placed = Placed::new(text);
        assert_eq!(placed.ids.len(), 2, "{:?}", placed.ids);
        for id in ["a-1", "b"] {
            let at = placed.ids[id];
            assert_eq!(&text[at..at + id.len() + 2], format!("\"{id}\""));
        }
        for at in 0..=text.len() {
            if text.is_char_boundary(at) {
                assert_eq!(
                    placed.position(at),
                    content::validate::position(text, at),
                    "{at}"
                );
            }
        }
    }

    #[test]
    fn a_skill_no_card_names_is_refused() {
        let content = Content::builtin();
        let exercise = content.exercise("l2-stride-sectors").expect("built in");
        assert_eq!(exercise.skill.as_deref(), Some("stride-sectors"));
        assert_eq!(skill_finding(exercise, &content.cards), None);
        let mut renamed = exercise.clone();
        renamed.skill = Some("stride-sektors".into());
        let finding = skill_finding(&renamed, &content.cards).expect("refused");
        assert_eq!(finding.severity, Severity::Error);
        assert!(
            finding
                .message
                .contains("`stride-sektors` is named by no card")
        );
        renamed.skill = None;
        assert_eq!(
            skill_finding(&renamed, &[]),
            None,
            "no skill, nothing to check"
        );
        // Every built-in skill is named by a card.
        for exercise in &content.exercises {
            assert_eq!(
                skill_finding(exercise, &content.cards),
                None,
                "{}",
                exercise.id
            );
        }
    }
}
