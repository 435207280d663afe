//! Exercise variants: a template plus a seed gives parameters, engine-computed values, the rendered
//! prompt, hints and explanation, and the answer key.

use super::expr::{self, ExprError, Vars};
pub use super::key::AnswerKey;
use super::key::answer_key;
use super::query::evaluate;
use crate::content::schema::{ExerciseTemplate, Param, Unit};
use crate::engine::{Arch, EngineError, KernelConfig, TilingInput, WarpAccess};
use crate::format;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use thiserror::Error;

/// Why a variant could not be made: a template mistake, named precisely for the author.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum VariantError {
    /// A parameter with no values or an impossible range.
    #[error("parameter `{name}`: {message}")]
    Param {
        /// Parameter name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// An expression that failed.
    #[error("{place}: {source}")]
    Expr {
        /// Where (`value sectors`, `prompt`).
        place: String,
        /// The failure.
        source: ExprError,
    },
    /// An engine calculation that refused its inputs.
    #[error("{place}: the engine refused these inputs: {source}")]
    Engine {
        /// Where.
        place: String,
        /// The engine's reason.
        source: EngineError,
    },
    /// Anything else about the template.
    #[error("{place}: {message}")]
    Template {
        /// Where.
        place: String,
        /// What is wrong.
        message: String,
    },
}

/// The inputs of the first engine calculation of a variant, for "show me".
#[derive(Debug, Clone, PartialEq)]
pub enum ShowMe {
    /// A global load.
    Global {
        /// Architecture.
        arch: &'static Arch,
        /// The access.
        access: WarpAccess,
    },
    /// A shared-memory load.
    Shared {
        /// Architecture.
        arch: &'static Arch,
        /// The access.
        access: WarpAccess,
    },
    /// An occupancy configuration.
    Occupancy {
        /// Architecture.
        arch: &'static Arch,
        /// The configuration.
        config: KernelConfig,
    },
    /// A tiled multiply.
    Tiling {
        /// Architecture.
        arch: &'static Arch,
        /// The sizes.
        input: TilingInput,
    },
    /// A roofline point.
    Roofline {
        /// Peak FLOP/s.
        peak_flops: f64,
        /// Peak bytes/s.
        bandwidth: f64,
        /// FLOP per byte.
        intensity: f64,
    },
}

/// `a`, `b`, `c` … for option `0`, `1`, `2` …
pub fn letter(index: usize) -> char {
    (b'a' + (index % 26) as u8) as char
}

/// A value in its unit, as a learner reads it.
pub fn format_with_unit(value: f64, unit: &Unit, kilo: u32) -> String {
    format_with_unit_in(value, unit, kilo, crate::i18n::Lang::En)
}

/// [`format_with_unit`] as `lang` says it: Korean counts with a counter after the number
/// (`섹터 32개`, `32 사이클`); symbols (`B`, `%`, `FLOP/s`) are the same in every language.
pub fn format_with_unit_in(value: f64, unit: &Unit, kilo: u32, lang: crate::i18n::Lang) -> String {
    if lang == crate::i18n::Lang::Ko {
        match unit {
            // A translated word (`sector`, `명령어`) takes the Korean order, as the prompt writes
            // it (`sector 4개`); a word left in English (content not translated) keeps the
            // English order (`4 sectors`).
            Unit::Count(word) if !word.also.is_empty() || !word.word.is_ascii() => {
                return format!("{word} {}개", plain(value));
            }
            Unit::Cycles => return format!("{} 사이클", plain(value)),
            _ => {}
        }
    }
    match unit {
        Unit::None => plain(value),
        Unit::Count(word) => format!("{} {}", plain(value), counted(value, &word.word)),
        Unit::Percent => format::percent(value),
        Unit::Bytes => {
            // Bytes are whole: a computed 8459.6 B in flight is 8460 B.
            let value = value.round();
            if kilo == 1000 && value >= 1000.0 {
                format!("{} B ({}B)", plain(value), format::si(value))
            } else if value >= 1024.0 {
                format!("{} B ({})", plain(value), format::bytes(value as u64))
            } else {
                format!("{} B", plain(value))
            }
        }
        Unit::Seconds => format::seconds(value),
        Unit::Cycles => format!("{} cycles", plain(value)),
        Unit::FlopPerByte => format!("{} FLOP/B", plain(value)),
        Unit::FlopPerSecond => format!("{}FLOP/s", format::si(value)),
        Unit::BytesPerSecond => format!("{}B/s", format::si(value)),
        Unit::Factor => format!("{}×", format::trim_float(value, 2)),
    }
}

/// A number without needless decimals or false precision: whole numbers in full (`5`, `8192`),
/// others to three significant digits (`1.5`, `0.333`, `20.4`, `206`, `0.0123`) — a computed
/// ridge of 206.042 FLOP/B is "206", as a person would write it.
pub fn plain(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else if value.abs() >= 1e6 {
        format::scientific(value)
    } else {
        format::trim_float(value, significant_decimals(value, 3))
    }
}

/// The decimals that show `value` to `digits` significant digits (never fewer than none, never
/// more than 9): 206.04 → 0, 20.403 → 1, 4.062 → 2, 0.0123 → 4.
fn significant_decimals(value: f64, digits: i32) -> usize {
    let abs = value.abs();
    if abs == 0.0 || !abs.is_finite() {
        return 0;
    }
    let magnitude = abs.log10().floor() as i32 + 1;
    (digits - magnitude).clamp(0, 9) as usize
}

/// A drawn parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// A number.
    Number(f64),
    /// A word.
    Text(String),
}

/// One exercise with its numbers drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The template's id.
    pub exercise_id: String,
    /// The seed it was drawn from.
    pub seed: u64,
    /// Drawn parameters.
    pub params: BTreeMap<String, ParamValue>,
    /// Numeric parameters and computed values.
    pub numbers: Vars,
    /// Text parameters.
    pub texts: BTreeMap<String, String>,
    /// The first engine calculation, for "show me".
    pub show_me: Option<ShowMe>,
    /// Rendered prompt.
    pub prompt: String,
    /// Rendered hints.
    pub hints: Vec<String>,
    /// Rendered worked explanation.
    pub explanation: String,
    /// The answer.
    pub key: AnswerKey,
    /// The template's misconceptions with this variant's numbers.
    pub mistakes: Vec<Misconception>,
    /// For a choice: the template's index of the option shown at each position (`[2, 0, 1, 3]`
    /// shows the template's third option as `a`); empty for other answers.
    pub option_order: Vec<usize>,
}

/// A misconception of one variant: what answer embodies it and what to say about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Misconception {
    /// Its name (`Textbook occupancy`); `None` for a choice option's own feedback.
    pub name: Option<String>,
    /// The answer that embodies it.
    pub answer: MistakenAnswer,
    /// What to rethink, rendered (it never states the answer).
    pub feedback: String,
}

/// The answer a misconception gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MistakenAnswer {
    /// A number, in the answer's base unit.
    Number(f64),
    /// A choice option (0-based), in the order the variant shows the options.
    Option(usize),
}

fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A uniform index below `n` (rejection sampling on raw 64-bit output: identical on every platform).
pub(super) fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// How many distinct values a parameter can take (0 if none).
pub fn param_len(param: &Param) -> usize {
    match param {
        Param::Choice(values) => values.len(),
        Param::Text(values) => values.len(),
        Param::Range { min, max, step } => {
            if *step <= 0 || max < min {
                0
            } else {
                ((max - min) / step + 1) as usize
            }
        }
    }
}

/// The `index`-th value of a parameter.
pub fn param_value(param: &Param, index: usize) -> ParamValue {
    match param {
        Param::Choice(values) => ParamValue::Number(values[index]),
        Param::Text(values) => ParamValue::Text(values[index].clone()),
        Param::Range { min, step, .. } => ParamValue::Number((min + step * index as i64) as f64),
    }
}

/// Draws the parameters of a template from a seed.
pub fn draw(
    template: &ExerciseTemplate,
    seed: u64,
) -> Result<BTreeMap<String, ParamValue>, VariantError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv1a(&template.id));
    let mut params = BTreeMap::new();
    for (name, param) in &template.params {
        let len = param_len(param);
        if len == 0 {
            return Err(VariantError::Param {
                name: name.clone(),
                message: "has no values (empty list, or a range with max < min or step ≤ 0)".into(),
            });
        }
        params.insert(name.clone(), param_value(param, pick(&mut rng, len)));
    }
    Ok(params)
}

/// Makes the variant of `template` for `seed`.
pub fn generate(template: &ExerciseTemplate, seed: u64) -> Result<Variant, VariantError> {
    let params = draw(template, seed)?;
    build(template, seed, params)
}

/// Makes a variant from given parameters (validation walks every combination with this).
pub fn build(
    template: &ExerciseTemplate,
    seed: u64,
    params: BTreeMap<String, ParamValue>,
) -> Result<Variant, VariantError> {
    let mut numbers = Vars::new();
    let mut texts = BTreeMap::new();
    for (name, value) in &params {
        match value {
            ParamValue::Number(n) => {
                numbers.insert(name.clone(), *n);
            }
            ParamValue::Text(t) => {
                texts.insert(name.clone(), t.clone());
            }
        }
    }
    let drawn = numbers.clone();
    let mut pins = Vars::new();
    let (mut numbers, mut show_me) = compute_values(template, &drawn, &texts, &pins)?;
    // The learner computes from the numbers the prompt shows: a value the prompt rounds
    // ("2 TB/s" for 2004 GB/s) is taken at the rounded number for everything computed from it,
    // so the answer, the hints and the explanation agree with the prompt. Rounding a rounded
    // number changes nothing, so this settles in a pass or two.
    for _ in 0..3 {
        let ctx = Context {
            numbers: &numbers,
            texts: &texts,
            seed: 0,
            prompt_letters: false,
        };
        let shown = shown_values(template, &ctx);
        let mut changed = false;
        for (name, value) in shown {
            let current = numbers.get(&name).copied().unwrap_or(value);
            if (value - current).abs() > 1e-12 * current.abs().max(f64::MIN_POSITIVE)
                && !pins.contains_key(&name)
            {
                pins.insert(name, value);
                changed = true;
            }
        }
        if !changed {
            break;
        }
        (numbers, show_me) = compute_values(template, &drawn, &texts, &pins)?;
    }
    let ctx = Context {
        numbers: &numbers,
        texts: &texts,
        seed: seed.wrapping_add(fnv1a(&template.id)),
        prompt_letters: super::key::names_letters(&template.prompt),
    };
    let prompt = ctx.render(&template.prompt, "prompt")?;
    let hints = template
        .hints
        .iter()
        .enumerate()
        .map(|(i, hint)| ctx.render(hint, &format!("hint {}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let explanation = ctx.render(&template.explanation, "explanation")?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv1a(&template.id) ^ 0x5eed);
    // `order`: for a choice, the option shown at each position (template indices).
    let (key, order) = answer_key(&template.answer, &ctx, &mut rng)?;
    let mut mistakes = Vec::new();
    for (i, mistake) in template.mistakes.iter().enumerate() {
        let place = format!("mistake {} `{}`", i + 1, mistake.name);
        mistakes.push(Misconception {
            name: Some(mistake.name.clone()),
            answer: MistakenAnswer::Number(ctx.eval(&mistake.value, &place)?),
            feedback: ctx.render(&mistake.feedback, &format!("{place} feedback"))?,
        });
    }
    if let crate::content::schema::AnswerSpec::Choice { options, .. } = &template.answer {
        for (i, option) in options.iter().enumerate() {
            if let Some(feedback) = &option.feedback {
                let shown = order
                    .as_ref()
                    .and_then(|order| order.iter().position(|&o| o == i))
                    .unwrap_or(i);
                mistakes.push(Misconception {
                    name: None,
                    answer: MistakenAnswer::Option(shown),
                    feedback: ctx.render(feedback, &format!("option {} feedback", letter(i)))?,
                });
            }
        }
    }
    Ok(Variant {
        exercise_id: template.id.clone(),
        seed,
        params,
        numbers,
        texts,
        show_me,
        prompt,
        hints,
        explanation,
        key,
        mistakes,
        option_order: order.unwrap_or_default(),
    })
}

/// The template's values computed in order from the drawn numbers; a pinned value is taken as
/// pinned (what the prompt shows) once computed. Also the first engine calculation, for "show me".
fn compute_values(
    template: &ExerciseTemplate,
    drawn: &Vars,
    texts: &BTreeMap<String, String>,
    pins: &Vars,
) -> Result<(Vars, Option<ShowMe>), VariantError> {
    let mut numbers = drawn.clone();
    let mut show_me = None;
    for (name, query) in &template.values {
        let place = format!("value `{name}`");
        let (value, shown) = evaluate(query, &numbers, texts, &place)?;
        if show_me.is_none() {
            show_me = shown;
        }
        numbers.insert(name.clone(), pins.get(name).copied().unwrap_or(value));
    }
    Ok((numbers, show_me))
}

/// The computed values the prompt shows, each at the number its first appearance shows: `{ridge|1}`,
/// `{rate|si}` (4.58 TB/s), `{s1 / 1e9|int}` (1664 GB/s) — a bare value name, or one scaled by a
/// number. Drawn parameters are shown as drawn and are not listed.
fn shown_values(template: &ExerciseTemplate, ctx: &Context<'_>) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let mut rest = template.prompt.as_str();
    while let Some(open) = rest.find('{') {
        let brace = &rest[open..];
        if let Some(after) = brace.strip_prefix("{{") {
            rest = after;
            continue;
        }
        let Some(close) = brace.find('}') else { break };
        let inner = &brace[1..close];
        rest = &brace[close + 1..];
        let (expression, style) = match inner.rsplit_once('|') {
            Some((e, s)) => (e.trim(), s.trim()),
            None => (inner.trim(), ""),
        };
        let Some((name, scale)) = scaled_name(expression) else {
            continue;
        };
        // A value's first appearance is the number the learner takes; later ones may show it
        // coarser (`{n}` threads, then `{n / 2048|%}` of 2048) and do not move it.
        if !template.values.iter().any(|(v, _)| v == name) || out.iter().any(|(n, _)| n == name) {
            continue;
        }
        let Ok(text) = ctx.placeholder(inner, "prompt") else {
            continue;
        };
        if let Some(shown) = reread(&text, style) {
            out.push((name.to_string(), shown / scale));
        }
    }
    out
}

/// `ridge` → (ridge, 1); `s1 / 1e9` → (s1, 1e-9); `frac * 100` → (frac, 100).
fn scaled_name(expression: &str) -> Option<(&str, f64)> {
    let is_name = |t: &str| {
        !t.is_empty()
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    };
    if is_name(expression) {
        return Some((expression, 1.0));
    }
    for (op, invert) in [('/', true), ('*', false)] {
        if let Some((left, right)) = expression.split_once(op) {
            let (left, right) = (left.trim(), right.trim());
            if is_name(left) {
                let k: f64 = right.parse().ok()?;
                if k == 0.0 || !k.is_finite() {
                    return None;
                }
                return Some((left, if invert { 1.0 / k } else { k }));
            }
        }
    }
    None
}

/// The number a rendered placeholder shows, in the value's own units: `4.58 T` → 4.58e12,
/// `62.5%` → 0.625, `8.39 µs` → 8.39e-6, `1,664` → 1664. `None` for what shows no number.
fn reread(text: &str, style: &str) -> Option<f64> {
    // A percentage is a ratio the rules give exactly (56.25 % occupancy shown as 56.2%): the
    // display rounds it, the learner does not compute from it.
    if matches!(style, "hex" | "label" | "gpu" | "%") {
        return None;
    }
    let text = text.replace(',', "");
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || (c == '-' && i == 0)
                || ((c == 'e' || c == 'E') && i > 0)
                || ((c == '-' || c == '+') && text[..i].ends_with(['e', 'E'])))
        })
        .map_or(text.len(), |(i, _)| i);
    let number: f64 = text[..end].parse().ok()?;
    let factor = match text[end..].trim() {
        "" | "×" => 1.0,
        "%" => 0.01,
        "P" => 1e15,
        "T" => 1e12,
        "G" => 1e9,
        "M" => 1e6,
        "k" => 1e3,
        "s" => 1.0,
        "ms" => 1e-3,
        "µs" => 1e-6,
        "ns" => 1e-9,
        "B" => 1.0,
        "KB" => 1024.0,
        "MB" => 1024.0 * 1024.0,
        "GB" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some(number * factor)
}

pub(super) struct Context<'a> {
    pub(super) numbers: &'a Vars,
    pub(super) texts: &'a BTreeMap<String, String>,
    /// Where a choice's right option is shown: the seed mixed with the template's id.
    pub(super) seed: u64,
    /// Whether the prompt names choice options by letter (`(a) … (b) …`).
    pub(super) prompt_letters: bool,
}

impl Context<'_> {
    pub(super) fn eval(&self, text: &str, place: &str) -> Result<f64, VariantError> {
        expr::eval(text, self.numbers).map_err(|source| VariantError::Expr {
            place: place.to_string(),
            source,
        })
    }

    /// Replaces `{name}`, `{expression}` and `{expression|format}`; `{{` and `}}` stand for braces.
    pub(super) fn render(&self, template: &str, place: &str) -> Result<String, VariantError> {
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find(['{', '}']) {
            out.push_str(&rest[..open]);
            let brace = &rest[open..];
            if brace.starts_with("{{") || brace.starts_with("}}") {
                out.push_str(&brace[..1]);
                rest = &brace[2..];
                continue;
            }
            if brace.starts_with('}') {
                return Err(VariantError::Template {
                    place: place.to_string(),
                    message: "a `}` without its `{` (write `}}` for a literal brace)".into(),
                });
            }
            let Some(close) = brace.find('}') else {
                return Err(VariantError::Template {
                    place: place.to_string(),
                    message: "a `{` without its `}` (write `{{` for a literal brace)".into(),
                });
            };
            let inner = &brace[1..close];
            let value = self.placeholder(inner, place)?;
            rest = &brace[close + 1..];
            // `{n} sectors`, `{n} warp(s)`: the counted word agrees with the number shown.
            if let Some((word, after)) = count_noun_after(rest) {
                out.push_str(&value);
                out.push(' ');
                out.push_str(&agree(&value, word));
                rest = after;
            } else if let Some((particle, after)) = korean_particle_after(rest, &value) {
                // `{n}를` after a number read with a final consonant is `{n}을` (8: 팔을).
                out.push_str(&value);
                out.push_str(particle);
                rest = after;
            } else {
                out.push_str(&value);
            }
        }
        out.push_str(rest);
        Ok(out)
    }

    fn placeholder(&self, inner: &str, place: &str) -> Result<String, VariantError> {
        let (expression, style) = match inner.rsplit_once('|') {
            Some((e, s)) if !s.contains('|') && !e.ends_with('|') => (e.trim(), s.trim()),
            _ => (inner.trim(), ""),
        };
        if let Some(text) = self.texts.get(expression) {
            return Ok(match style {
                "label" => Arch::parse(text)
                    .map(|a| a.label())
                    .unwrap_or_else(|_| text.clone()),
                "gpu" => Arch::parse(text)
                    .map(|a| a.examples.to_string())
                    .unwrap_or_else(|_| text.clone()),
                _ => text.clone(),
            });
        }
        let value = self.eval(expression, &format!("{place}, placeholder {{{inner}}}"))?;
        Ok(match style {
            "" => plain(value),
            "%" => format::percent(value),
            "bytes" => format::bytes(value.max(0.0) as u64),
            "hex" => format!("{:#x}", value as i64),
            "si" => format::si(value),
            "time" => format::seconds(value),
            "x" => format!("{}×", format::trim_float(value, 2)),
            "int" => format!("{:.0}", value.round()),
            "sep" => thousands(value),
            digits if digits.len() == 1 && digits.as_bytes()[0].is_ascii_digit() => {
                format::trim_float(value, usize::from(digits.as_bytes()[0] - b'0'))
            }
            other => {
                return Err(VariantError::Template {
                    place: place.to_string(),
                    message: format!(
                        "unknown format `|{other}` in {{{inner}}} (use %, bytes, hex, si, time, x, int, sep, label, gpu or 0-9)"
                    ),
                });
            }
        })
    }
}

/// Korean particles whose form depends on the sound before them: (after a final consonant,
/// after a vowel).
const PARTICLES: &[(&str, &str)] = &[
    ("을", "를"),
    ("은", "는"),
    ("이", "가"),
    ("과", "와"),
    ("으로", "로"),
];

/// The final consonant (받침) of how `text` is read aloud at its end, as a jongseong index (0:
/// none, 8: ㄹ, others: another consonant): a Hangul syllable by its own; digits as Sino-Korean
/// numbers (`8` 팔 ㄹ, `16` 육 ㄱ, `10` 십, `100` 백, `1000` 천, `10000` 만); letters by their
/// names (`L` 엘, `M` 엠, `N` 엔, `R` 알); anything else (`%`, `B`, `×`) is read without one.
fn final_consonant(text: &str) -> u32 {
    let text = text.trim_end();
    let Some(last) = text.chars().last() else {
        return 0;
    };
    match last {
        '가'..='힣' => (last as u32 - 0xAC00) % 28,
        '0'..='9' => {
            let digits: String = text
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .filter(char::is_ascii_digit)
                .collect();
            let decimal = text[..text.len() - digits.len()].ends_with('.');
            let zeros = digits.chars().take_while(|&c| c == '0').count();
            // 0 alone, or a 0 ending the decimals: 영.
            if zeros > 0 && (decimal || zeros == digits.len()) {
                return 21;
            }
            if zeros == 0 || decimal {
                return match digits.chars().next() {
                    Some('1' | '7' | '8') => 8,
                    Some('3') => 16,
                    Some('6') => 1,
                    _ => 0,
                };
            }
            match zeros % 4 {
                1 => 17,
                2 => 1,
                3 => 4,
                // 만 (ㄴ), 억 (ㄱ), 조 (none).
                _ => match zeros / 4 {
                    1 => 4,
                    2 => 1,
                    _ => 0,
                },
            }
        }
        'L' | 'l' | 'R' | 'r' => 8,
        'M' | 'm' | 'N' | 'n' => 4,
        _ => 0,
    }
}

/// A Korean particle right after a placeholder (`를`, `은`, `으로` … followed by no more Hangul),
/// in the form the value before it takes, and the text after it.
fn korean_particle_after<'r>(rest: &'r str, value: &str) -> Option<(&'static str, &'r str)> {
    // No form is a prefix of another pair's, and `으로` is tried before `로`.
    for (consonant, vowel) in PARTICLES {
        for written in [*consonant, *vowel] {
            let Some(after) = rest.strip_prefix(written) else {
                continue;
            };
            if after.starts_with(|c: char| ('가'..='힣').contains(&c)) {
                continue;
            }
            let last = final_consonant(value);
            let form = match (*consonant, last) {
                // ㄹ takes 로, not 으로.
                ("으로", 8) => vowel,
                (_, 0) => vowel,
                _ => consonant,
            };
            return Some((form, after));
        }
    }
    None
}

/// English count nouns a number in a template's text is followed by (plural), singular first.
const COUNT_NOUNS: &[(&str, &str)] = &[
    ("sector", "sectors"),
    ("line", "lines"),
    ("block", "blocks"),
    ("warp", "warps"),
    ("wavefront", "wavefronts"),
    ("wave", "waves"),
    ("lane", "lanes"),
    ("thread", "threads"),
    ("cycle", "cycles"),
    ("register", "registers"),
    ("byte", "bytes"),
    ("element", "elements"),
    ("word", "words"),
    ("load", "loads"),
    ("store", "stores"),
    ("read", "reads"),
    ("bank", "banks"),
    ("request", "requests"),
    ("transaction", "transactions"),
    ("tile", "tiles"),
    ("conflict", "conflicts"),
    ("instruction", "instructions"),
    ("pass", "passes"),
    ("step", "steps"),
    ("iteration", "iterations"),
];

/// The count noun right after a placeholder (` sectors`, ` warp(s)`, ` block` — a whole word), and
/// the text after it.
fn count_noun_after(rest: &str) -> Option<(&'static str, &str)> {
    let text = rest.strip_prefix(' ')?;
    let end = text
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (word, after) = text.split_at(end);
    let after = after.strip_prefix("(s)").unwrap_or(after);
    COUNT_NOUNS
        .iter()
        .find(|(one, many)| word == *one || word == *many)
        .map(|(_, many)| (*many, after))
}

/// `many` as it agrees with the number `shown`: singular for exactly 1, plural otherwise.
fn agree(shown: &str, many: &str) -> String {
    let one = COUNT_NOUNS
        .iter()
        .find(|(_, m)| *m == many)
        .map_or(many, |(o, _)| *o);
    if shown.trim() == "1" {
        one.to_string()
    } else {
        many.to_string()
    }
}

/// A counted word as it agrees with `value`: one of a plural English word is singular (`1
/// sector`, `1 wavefront`, `1 read`); other counts and other words stay as written.
fn counted(value: f64, word: &str) -> String {
    let singular = (value - 1.0).abs() < f64::EPSILON;
    match word.strip_suffix('s') {
        Some(stem)
            if singular
                && word.is_ascii()
                && !stem.is_empty()
                && !stem.ends_with(['s', 'u'])
                && !word.contains(|c: char| c.is_ascii_uppercase()) =>
        {
            stem.to_string()
        }
        _ => word.to_string(),
    }
}

/// `1234567` → `1,234,567`.
fn thousands(value: f64) -> String {
    let text = format!("{:.0}", value.round().abs());
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if value < 0.0 { format!("-{out}") } else { out }
}

#[cfg(test)]
mod counted_tests {
    use super::{Context, counted};
    use std::collections::BTreeMap;

    #[test]
    fn a_korean_particle_after_a_number_takes_the_form_its_reading_needs() {
        let mut numbers = BTreeMap::new();
        for (name, value) in [
            ("a", 8.0),
            ("b", 2.0),
            ("c", 16.0),
            ("d", 10.0),
            ("e", 4.0),
            ("z", 0.0),
        ] {
            numbers.insert(name.to_string(), value);
        }
        let texts = BTreeMap::new();
        let ctx = Context {
            numbers: &numbers,
            texts: &texts,
            seed: 0,
            prompt_letters: false,
        };
        let render = |t: &str| ctx.render(t, "test").unwrap();
        assert_eq!(render("t × {a}를 읽는다"), "t × 8을 읽는다");
        assert_eq!(render("t × {b}을 읽는다"), "t × 2를 읽는다");
        assert_eq!(render("{c}는 크다"), "16은 크다");
        assert_eq!(render("{d}가 맞다"), "10이 맞다");
        assert_eq!(render("{e}이 맞다"), "4가 맞다");
        assert_eq!(render("{a}으로 나눈다"), "8로 나눈다", "ㄹ takes 로");
        assert_eq!(render("{d}로 나눈다"), "10으로 나눈다");
        assert_eq!(render("{a}가져온다"), "8가져온다", "a word, not a particle");
        assert_eq!(render("{b}개"), "2개");
        assert_eq!(render("{z}는 없다"), "0은 없다", "0 is read 영");
    }

    #[test]
    fn a_number_in_the_text_and_its_count_noun_agree() {
        let mut numbers = BTreeMap::new();
        numbers.insert("n".to_string(), 1.0);
        numbers.insert("m".to_string(), 4.0);
        let texts = BTreeMap::new();
        let ctx = Context {
            numbers: &numbers,
            texts: &texts,
            seed: 0,
            prompt_letters: false,
        };
        let render = |t: &str| ctx.render(t, "test").unwrap();
        assert_eq!(
            render("holds {n} blocks, {m} blocks"),
            "holds 1 block, 4 blocks"
        );
        assert_eq!(
            render("{n} warp(s) and {m} warp(s)."),
            "1 warp and 4 warps."
        );
        assert_eq!(render("{m} sector, {n} cycles"), "4 sectors, 1 cycle");
        assert_eq!(
            render("{n} blockade"),
            "1 blockade",
            "a longer word is not a count noun"
        );
        assert_eq!(render("{n}-byte sector"), "1-byte sector");
    }

    #[test]
    fn one_of_a_plural_word_is_singular_and_other_counts_keep_it() {
        assert_eq!(counted(1.0, "sectors"), "sector");
        assert_eq!(counted(1.0, "wavefronts"), "wavefront");
        assert_eq!(counted(2.0, "sectors"), "sectors");
        assert_eq!(counted(0.0, "sectors"), "sectors");
        assert_eq!(
            counted(1.0, "VGPRs"),
            "VGPRs",
            "an acronym is left as written"
        );
        assert_eq!(counted(1.0, "섹터"), "섹터");
        assert_eq!(counted(1.0, "bus"), "bus");
    }
}

#[cfg(test)]
mod shown_tests {
    use super::*;
    use crate::content::Content;

    #[test]
    fn a_computed_number_is_shown_to_three_significant_digits_and_bytes_whole() {
        assert_eq!(plain(206.042), "206");
        assert_eq!(plain(89.3333), "89.3");
        assert_eq!(plain(20.403), "20.4");
        assert_eq!(plain(4.0625), "4.06");
        assert_eq!(plain(0.0123456), "0.0123");
        assert_eq!(plain(0.125), "0.125");
        assert_eq!(plain(8192.0), "8192");
        assert_eq!(plain(1.5), "1.5");
        assert_eq!(
            format_with_unit(8459.596, &Unit::Bytes, 1024),
            "8460 B (8.26 KB)"
        );
        assert_eq!(
            format_with_unit(206.042, &Unit::FlopPerByte, 1024),
            "206 FLOP/B"
        );
    }

    #[test]
    fn every_value_the_prompt_shows_rounded_is_the_number_the_answer_is_computed_from() {
        // A prompt saying "2 TB/s" is answered from 2 TB/s, not from the 2004 GB/s behind it.
        let content = Content::builtin();
        let mut checked = 0;
        for template in &content.exercises {
            for seed in 1..=40 {
                let Ok(variant) = generate(template, seed) else {
                    continue;
                };
                let ctx = Context {
                    numbers: &variant.numbers,
                    texts: &variant.texts,
                    seed: 0,
                    prompt_letters: false,
                };
                for (name, shown) in shown_values(template, &ctx) {
                    let used = variant.numbers[&name];
                    assert!(
                        (shown - used).abs() <= 1e-9 * used.abs().max(1e-300),
                        "{} seed {seed}: the prompt shows {name} as {shown}, the answer uses {used}",
                        template.id
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "only {checked} rounded values were shown");
    }

    #[test]
    fn a_rate_shown_rounded_in_the_prompt_carries_into_the_answer() {
        let content = Content::builtin();
        let template = content.exercise("no-such-id").or_else(|| {
            content
                .exercises
                .iter()
                .find(|t| t.prompt.contains("{s1 / 1e9|int}"))
        });
        let template = template.expect("a prompt that shows a measured rate rounded");
        let variant = generate(template, 1).unwrap();
        let s1 = variant.numbers["s1"];
        assert_eq!(
            s1 / 1e9,
            (s1 / 1e9).round(),
            "s1 is taken as the GB/s the prompt shows"
        );
    }

    #[test]
    fn a_korean_count_answer_keeps_the_prompts_term_in_the_korean_order() {
        let content = Content::builtin().in_lang(crate::i18n::Lang::Ko);
        let template = content.exercise("l1-sectors-per-line").unwrap();
        let variant = generate(template, 1).unwrap();
        assert_eq!(
            variant.key.display_in(crate::i18n::Lang::Ko),
            "sector 4개",
            "the prompt says sector; the answer does too"
        );
    }
}
