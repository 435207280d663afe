//! Reading what learners really type: `62.5%`, `0.625`, `40 warps`, `1,280`, `1.07e9`, `2 KB`,
//! `8.39µs`, `20 FLOP/B`, `31/32`, `16x`.

use crate::content::schema::Unit;
use thiserror::Error;

/// Longest answer read; longer input is refused, not truncated.
pub const MAX_INPUT: usize = 200;

/// Why an input is not a usable answer. Messages say what to type instead.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// Nothing typed.
    #[error("type an answer first")]
    Empty,
    /// A paste far longer than any answer.
    #[error("that is {0} characters — an answer here is a number, at most {MAX_INPUT} characters")]
    TooLong(usize),
    /// No number found.
    #[error("couldn't read `{0}` as a number — try e.g. {1}")]
    NotANumber(String, &'static str),
    /// Infinite or absurdly large.
    #[error("`{0}` is too large to be an answer")]
    TooLarge(String),
    /// A unit that does not fit the question.
    #[error("I read the number {number}, but not the unit `{unit}` — answer in {expected}")]
    WrongUnit {
        /// The number read.
        number: String,
        /// The unit typed.
        unit: String,
        /// What the question wants.
        expected: String,
    },
    /// A bare number where the unit matters: asked, not guessed.
    #[error("{number} what? — which unit? Answer in {expected}, e.g. {example}")]
    WhichUnit {
        /// The number read.
        number: String,
        /// What the question wants.
        expected: String,
        /// An example input.
        example: &'static str,
    },
    /// Bits where the question counts bytes.
    #[error(
        "`{unit}` is bits (lower-case b); this answer is in bytes — write `B` (`2 KB`, `32 B`)"
    )]
    Bits {
        /// The unit typed.
        unit: String,
    },
    /// Two numbers that disagree (`5 (6)`).
    #[error("`{0}` gives two different answers — type one")]
    TwoAnswers(String),
    /// A negated answer (`not 5`).
    #[error("`{0}` says what the answer is not — type what it is")]
    Negated(String),
}

impl InputError {
    /// The message in `lang` (in English, the same as its `Display`); `unit` is the question's, to
    /// name what it asks for in `lang`.
    pub fn message(&self, unit: &Unit, lang: crate::i18n::Lang) -> String {
        use crate::t;
        match self {
            InputError::Empty => t!(lang, "grade-empty"),
            InputError::TooLong(length) => {
                t!(
                    lang,
                    "grade-input-too-long",
                    length = *length,
                    limit = MAX_INPUT
                )
            }
            InputError::NotANumber(text, example) => {
                // A count's example names what it counts: `32` or `32 sectors`.
                let example = match unit {
                    Unit::Count(word) => format!("`32`, `32 {}`", word.word),
                    _ => (*example).to_string(),
                };
                t!(
                    lang,
                    "grade-not-a-number",
                    text = text.clone(),
                    example = example
                )
            }
            InputError::TooLarge(text) => t!(lang, "grade-too-large", text = text.clone()),
            InputError::WrongUnit {
                number,
                unit: typed,
                ..
            } => t!(
                lang,
                "grade-wrong-unit",
                number = number.clone(),
                unit = typed.clone(),
                expected = unit_words(unit, lang)
            ),
            InputError::WhichUnit {
                number, example, ..
            } => t!(
                lang,
                "grade-which-unit",
                number = number.clone(),
                expected = unit_words(unit, lang),
                example = *example
            ),
            InputError::Bits { unit: typed } => t!(lang, "grade-bits", unit = typed.clone()),
            InputError::TwoAnswers(text) => t!(lang, "grade-two-answers", text = text.clone()),
            InputError::Negated(text) => t!(lang, "grade-negated", text = text.clone()),
        }
    }
}

/// What the question asks for, in words, in `lang` (the first half of [`unit_hint`]).
pub fn unit_words(unit: &Unit, lang: crate::i18n::Lang) -> String {
    use crate::t;
    match unit {
        Unit::None => t!(lang, "grade-unit-plain"),
        Unit::Count(word) => word.word.clone(),
        Unit::Percent => t!(lang, "grade-unit-percent"),
        Unit::Bytes => t!(lang, "grade-unit-bytes"),
        Unit::Seconds => t!(lang, "grade-unit-seconds"),
        Unit::Cycles => t!(lang, "grade-unit-cycles"),
        Unit::FlopPerByte => t!(lang, "grade-unit-flop-per-byte"),
        Unit::FlopPerSecond => t!(lang, "grade-unit-flop-per-second"),
        Unit::BytesPerSecond => t!(lang, "grade-unit-bytes-per-second"),
        Unit::Factor => t!(lang, "grade-unit-factor"),
    }
}

/// What the question asks for, in words, with an example input.
pub fn unit_hint(unit: &Unit) -> (String, &'static str) {
    match unit {
        Unit::None => ("a plain number".into(), "`42`"),
        Unit::Count(word) => (word.word.clone(), "`40` or `40 warps`"),
        Unit::Percent => ("percent or a fraction".into(), "`62.5%` or `0.625`"),
        Unit::Bytes => ("bytes (B, KB, KiB, MB)".into(), "`2 KB` or `2048 B`"),
        Unit::Seconds => ("time (s, ms, µs, ns)".into(), "`8.39 us`"),
        Unit::Cycles => ("cycles".into(), "`284 cycles`"),
        Unit::FlopPerByte => ("FLOP per byte".into(), "`20 FLOP/B`"),
        Unit::FlopPerSecond => ("FLOP/s (GFLOP/s, TFLOP/s)".into(), "`67 TFLOP/s`"),
        Unit::BytesPerSecond => ("bytes per second (GB/s, TB/s)".into(), "`4.8 TB/s`"),
        Unit::Factor => ("a factor".into(), "`16x`"),
    }
}

/// A number read from an answer, in the unit's base.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// The value (bytes, seconds, a 0–1 fraction for percentages …).
    pub value: f64,
    /// The step of the last digit typed, in the same base: `67%` → 0.01, `0.625` → 0.001,
    /// `4.8e12` → 1e11 (0 for a fraction such as `31/32`, which is exact).
    pub resolution: f64,
    /// Significant digits typed: `4.8e12` → 2, `62%` → 2, `0.625` → 3.
    pub significant: u32,
}

/// Reads a number in the answer's unit and converts it to the unit's base (bytes, seconds, a 0–1
/// fraction for percentages, FLOP/s …). `kilo` is what `KB` means in this exercise (1000 or 1024).
pub fn parse_number(input: &str, unit: &Unit, kilo: u32) -> Result<f64, InputError> {
    read_number(input, unit, kilo).map(|r| r.value)
}

/// Words that turn an answer into its opposite (English, Hinglish, Korean).
const NEGATIONS: [&str; 15] = [
    "not",
    "no",
    "never",
    "isn't",
    "isnt",
    "without",
    "non",
    "nor",
    "nahi",
    "nahin",
    "nahii",
    "mat",
    "아니",
    "아님",
    "아니다",
];

/// Whether a word negates: one of [`NEGATIONS`], or a Korean negative form (`않다`, `아닌`,
/// `없다`).
fn negating(word: &str) -> bool {
    NEGATIONS.contains(&word)
        || word.starts_with("아니")
        || word.starts_with("아닌")
        || word.contains('않')
        || word.starts_with("없")
}

/// Words that may start the context after a unit (`64 warps per SM`, Hinglish `64 warps har SM
/// mein`, Korean `4개 정도`).
const CONTEXT: [&str; 27] = [
    "hai",
    "hain",
    "hoga",
    "honge",
    "har",
    "prati",
    "mein",
    "me",
    "ka",
    "ki",
    "ke",
    "kul",
    "정도",
    "per",
    "in",
    "each",
    "of",
    "on",
    "for",
    "at",
    "/",
    "total",
    "overall",
    "resident",
    "active",
    "needed",
    "allocated",
];

/// [`parse_number`], also saying how precisely the number was typed.
pub fn read_number(input: &str, unit: &Unit, kilo: u32) -> Result<Reading, InputError> {
    let text = input.trim();
    if text.is_empty() {
        return Err(InputError::Empty);
    }
    let length = text.chars().count();
    if length > MAX_INPUT {
        return Err(InputError::TooLong(length));
    }
    let (_, example) = unit_hint(unit);
    let normalized: String = strip_thousands(
        &text
            .replace(['µ', 'μ'], "u")
            .replace('×', "x")
            .replace(['\u{2009}', '\u{202f}', '\u{a0}'], " ")
            .replace('−', "-")
            .replace('≈', "~"),
    );
    let normalized = match nothing_word(&normalized, unit) {
        Some(Nothing::Number(n)) => n.to_string(),
        Some(Nothing::NotHere) => {
            return Err(InputError::NotANumber(text.to_string(), example));
        }
        None => crate::numwords::digits(&normalized),
    };
    let mut body = normalized.trim_start_matches(['~', '=']).trim();
    // `x3`: a factor written before the number.
    let mut prefixed_factor = false;
    if let Some(after) = body.strip_prefix(['x', 'X'])
        && after.starts_with(|c: char| c.is_ascii_digit())
    {
        body = after;
        prefixed_factor = true;
    }
    // A label before the number: `bank 28`, `T = 9`, `about 5`.
    if !body.starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '-' || c == '+') {
        let start = body
            .char_indices()
            .find(|&(i, c)| {
                c.is_ascii_digit()
                    || (c == '.' || c == '-')
                        && body[i + 1..].starts_with(|d: char| d.is_ascii_digit())
            })
            .map(|(i, _)| i);
        if let Some(start) = start {
            let label = &body[..start];
            let words: Vec<String> = label
                .split(|c: char| !c.is_alphanumeric() && c != '\'')
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            if words.iter().any(|w| negating(w)) {
                return Err(InputError::Negated(text.to_string()));
            }
            let plain_label = label.chars().all(|c| {
                c.is_alphabetic() || c == ' ' || c == '=' || c == ':' || c == '_' || c == '~'
            });
            if plain_label && words.len() <= 3 {
                body = body[start..].trim();
            }
        }
    }
    let (mut number, rest, decimals, mut significant) =
        leading_number(body).ok_or_else(|| InputError::NotANumber(text.to_string(), example))?;
    let mut rest = rest.trim_start();
    let mut resolution = 10f64.powi(-(decimals as i32));
    // A power: `2^11`.
    if let Some(after) = rest.strip_prefix('^').or_else(|| rest.strip_prefix("**"))
        && let Some((exponent, after, _, _)) = leading_number(after.trim_start())
    {
        number = number.powf(exponent);
        resolution = 1.0;
        significant = u32::MAX;
        rest = after.trim_start();
    }
    // A tile written as its two sides: `16×16`, `16x16`, `16 by 16` is 16 (sides that differ
    // are two answers).
    if matches!(unit, Unit::None | Unit::Count(_)) {
        let lower = rest.to_lowercase();
        let side = lower
            .strip_prefix('x')
            .or_else(|| lower.strip_prefix('*'))
            .or_else(|| lower.strip_prefix("by "))
            .map(str::trim_start)
            .and_then(leading_number);
        if let Some((other, after, _, _)) = side {
            if other != number {
                return Err(InputError::TwoAnswers(text.to_string()));
            }
            rest = rest[rest.len() - after.len()..].trim_start();
        }
    }
    // A fraction: `31/32`, `1/8`.
    let (value, rest) = match rest
        .strip_prefix('/')
        .map(str::trim_start)
        .and_then(leading_number)
    {
        Some((denominator, after, _, _)) => {
            resolution = 0.0;
            (number / denominator, after.trim())
        }
        None => (number, rest),
    };
    if !value.is_finite() {
        return Err(InputError::TooLarge(text.to_string()));
    }
    // A restatement in brackets: `48000000 B (48 MB)`, `2048 B (2 KB)`.
    let (rest, restated) = match rest.find('(') {
        Some(open) => {
            let close = rest[open..].find(')').map_or(rest.len(), |c| open + c);
            let inner = rest[open + 1..close].to_string();
            let outside = format!("{} {}", &rest[..open], rest.get(close + 1..).unwrap_or(""));
            (outside, Some(inner))
        }
        None => (rest.to_string(), None),
    };
    let raw_unit = rest.trim().trim_end_matches(['.', '!']).trim();
    if matches!(unit, Unit::Bytes | Unit::BytesPerSecond) && names_bits(raw_unit) {
        return Err(InputError::Bits {
            unit: raw_unit
                .split_whitespace()
                .next()
                .unwrap_or(raw_unit)
                .to_string(),
        });
    }
    // Korean and Hinglish unit words read as the English ones (`바이트` → `B`, `16배` → `16x`);
    // a unit per something with a slash reads as `per` (`16 warps/SM`, `128 regs/thread`).
    let unit_text =
        crate::units::english_units(&per_slash(&raw_unit.replace('-', " "))).to_lowercase();
    let words: Vec<&str> = unit_text.split_whitespace().collect();
    if words.iter().any(|w| negating(w)) {
        return Err(InputError::Negated(text.to_string()));
    }
    let wrong_unit = || InputError::WrongUnit {
        number: crate::ladder::variant::plain(value),
        unit: raw_unit.to_string(),
        expected: unit_hint(unit).0,
    };
    // The longest run of leading words that is a unit; what follows is context (`per SM`), which
    // may not hold another number.
    let mut found = None;
    for taken in (0..=words.len()).rev() {
        let candidate = words[..taken].join(" ");
        let candidate = if prefixed_factor && taken == 0 {
            "x".to_string()
        } else {
            candidate
        };
        if let Some(scale) = unit_scale(&candidate, unit, value, kilo) {
            found = Some((taken, scale));
            break;
        }
    }
    let (taken, scale) = found.ok_or_else(wrong_unit)?;
    // Context after the unit: `per SM`, `in total`, `each` — not another unit (`40 blocks` for
    // warps) and not another number.
    let context = &words[taken..];
    let context_ok = context.first().is_none_or(|first| CONTEXT.contains(first))
        && !context
            .iter()
            .any(|w| w.chars().any(|c| c.is_ascii_digit()));
    if !context_ok {
        return Err(wrong_unit());
    }
    if taken == 0 && !prefixed_factor {
        let ask = match unit {
            Unit::Seconds => value != 0.0,
            Unit::BytesPerSecond | Unit::FlopPerSecond => value.abs() < 1e6 && value != 0.0,
            Unit::Bytes => value.fract() != 0.0 && value.abs() < 1000.0,
            _ => false,
        };
        if ask {
            let (expected, example) = unit_hint(unit);
            return Err(InputError::WhichUnit {
                number: crate::ladder::variant::plain(value),
                expected,
                example,
            });
        }
    }
    let result = value * scale;
    if !result.is_finite() || result.abs() > 1e30 {
        return Err(InputError::TooLarge(text.to_string()));
    }
    if let Some(inner) = restated
        && let Ok(again) = read_number(&inner, unit, kilo)
    {
        let agree = (again.value - result).abs()
            <= 0.03 * result.abs().max(again.value.abs()) + again.resolution / 2.0;
        if !agree {
            return Err(InputError::TwoAnswers(text.to_string()));
        }
    }
    Ok(Reading {
        value: result,
        resolution: resolution * scale.abs(),
        significant,
    })
}

/// Words after a slash that make the unit a rate per thing: `warps/SM` is `warps per SM`.
const PER_THINGS: [&str; 14] = [
    "sm", "sms", "thread", "threads", "block", "blocks", "warp", "warps", "cu", "simd", "lane",
    "cta", "kernel", "launch",
];

/// `warps/SM` → `warps per SM`, `regs/thread` → `regs per thread` (other slashes, as in `B/s` or
/// `FLOP/B`, stay).
fn per_slash(unit: &str) -> String {
    let mut out = String::with_capacity(unit.len() + 8);
    let mut rest = unit;
    while let Some(at) = rest.find('/') {
        let after = &rest[at + 1..];
        let word_end = after
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(after.len());
        let word = after[..word_end].to_lowercase();
        out.push_str(&rest[..at]);
        if PER_THINGS.contains(&word.as_str()) {
            out.push_str(" per ");
        } else {
            out.push('/');
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// What a word for nothing reads as in this question.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Nothing {
    /// The number it means here: `none` is 0; `no conflict` is 0 conflicts, or 1 wavefront.
    Number(u32),
    /// A word about conflicts where the question counts something else: asked about.
    NotHere,
}

/// Whole answers that say "none" (`none`, `zero`, `koi nahi`, `없음`).
const NONE_WORDS: [&str; 16] = [
    "none",
    "zero",
    "nil",
    "nothing",
    "koi nahi",
    "koi nahin",
    "kuch nahi",
    "kuch nahin",
    "ek bhi nahi",
    "shunya",
    "없음",
    "없다",
    "없어요",
    "없습니다",
    "하나도 없음",
    "하나도 없다",
];

/// Whole answers that say "no conflict" (`no bank conflicts`, `conflict-free`, `충돌 없음`).
const NO_CONFLICT: [&str; 22] = [
    "no conflict",
    "no conflicts",
    "no bank conflict",
    "no bank conflicts",
    "conflict free",
    "bank conflict free",
    "conflictless",
    "without conflicts",
    "without a conflict",
    "koi conflict nahi",
    "koi conflict nahin",
    "conflict nahi",
    "conflict nahi hai",
    "koi bank conflict nahi",
    "bank conflict nahi",
    "충돌 없음",
    "충돌 없다",
    "충돌이 없다",
    "충돌이 없음",
    "충돌 없어요",
    "뱅크 충돌 없음",
    "bank conflict 없음",
];

/// Whether the whole answer is a word for nothing, and what it means for `unit`: 0 of anything,
/// and for "no conflict" 0 conflicts or a 1-way access (1 wavefront); any other question is asked
/// again rather than guessed.
fn nothing_word(text: &str, unit: &Unit) -> Option<Nothing> {
    let cleaned: String = text
        .to_lowercase()
        .replace(['-', '.', '!', ','], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let cleaned = cleaned
        .strip_suffix("입니다")
        .or_else(|| cleaned.strip_suffix("이요"))
        .unwrap_or(&cleaned)
        .trim()
        .to_string();
    let cleaned = cleaned
        .strip_prefix("there are ")
        .or_else(|| cleaned.strip_prefix("there is "))
        .unwrap_or(&cleaned)
        .to_string();
    if NONE_WORDS.contains(&cleaned.as_str()) {
        return Some(Nothing::Number(0));
    }
    if NO_CONFLICT.contains(&cleaned.as_str()) {
        let counted = match unit {
            Unit::Count(word) => crate::units::english_units(&word.word).to_lowercase(),
            _ => String::new(),
        };
        return Some(match counted.trim_end_matches('s') {
            "conflict" | "bank conflict" => Nothing::Number(0),
            "wavefront" | "way" | "pass" => Nothing::Number(1),
            _ => Nothing::NotHere,
        });
    }
    None
}

/// Whether a unit names bits (`b`, `Kb`, `Mb`, `Gb/s`, `bits`), not bytes (`B`, `KB`, and the
/// all-lower-case `kb` people type for kilobytes).
fn names_bits(unit: &str) -> bool {
    let Some(first) = unit.split_whitespace().next() else {
        return false;
    };
    let lower = first.to_lowercase();
    if lower.contains("bit") {
        return true;
    }
    let stem = first
        .strip_suffix("/s")
        .or_else(|| first.strip_suffix("ps"))
        .unwrap_or(first);
    match stem.strip_suffix('b') {
        Some("") => true,
        Some(prefix) => prefix.len() == 1 && prefix.chars().all(|c| "KMGTP".contains(c)),
        None => false,
    }
}

/// Removes thousands separators: `1,280` → `1280`, `2 048` → `2048`, `1 048 576` → `1048576` (a comma
/// or space between a group of at most three digits and exactly three digits).
fn strip_thousands(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        if (c == ',' || c == ' ') && i > 0 && chars[i - 1].is_ascii_digit() {
            let group_before = chars[..i]
                .iter()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let in_decimals = i
                .checked_sub(group_before + 1)
                .is_some_and(|j| chars[j] == '.');
            let digits_after = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let ends_group = chars
                .get(i + 1 + digits_after)
                .is_none_or(|a| !a.is_ascii_digit());
            if digits_after == 3 && group_before <= 3 && !in_decimals && ends_group {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// A leading decimal number (sign, digits, point, exponent), the rest, the decimals typed (negative
/// for a power of ten: `4.8e12` has -11) and the significant digits typed.
fn leading_number(text: &str) -> Option<(f64, &str, i64, u32)> {
    let bytes = text.as_bytes();
    let mut end = 0;
    if matches!(bytes.first(), Some(b'-' | b'+')) {
        end += 1;
    }
    let digits_start = end;
    while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b'.') {
        end += 1;
    }
    if !bytes[digits_start..end].iter().any(u8::is_ascii_digit) {
        return None;
    }
    let mantissa = &text[digits_start..end];
    let mut decimals = mantissa.find('.').map_or(0, |dot| mantissa.len() - dot - 1) as i64;
    let significant = mantissa
        .chars()
        .filter(char::is_ascii_digit)
        .skip_while(|&c| c == '0')
        .count()
        .max(1) as u32;
    if end < bytes.len() && (bytes[end] == b'e' || bytes[end] == b'E') {
        let mut exp = end + 1;
        if exp < bytes.len() && (bytes[exp] == b'-' || bytes[exp] == b'+') {
            exp += 1;
        }
        if exp < bytes.len() && bytes[exp].is_ascii_digit() {
            while exp < bytes.len() && bytes[exp].is_ascii_digit() {
                exp += 1;
            }
            if let Ok(power) = text[end + 1..exp].parse::<i64>() {
                decimals -= power;
            }
            end = exp;
        }
    }
    text[..end]
        .parse::<f64>()
        .ok()
        .map(|n| (n, &text[end..], decimals.clamp(-300, 300), significant))
}

fn si_prefix(prefix: &str, kilo: f64) -> Option<f64> {
    Some(match prefix {
        "" => 1.0,
        "k" | "kilo" => kilo,
        "m" | "mega" => kilo * kilo,
        "g" | "giga" => kilo * kilo * kilo,
        "t" | "tera" => kilo.powi(4),
        "p" | "peta" => kilo.powi(5),
        _ => return None,
    })
}

/// The words a count may be typed with: its own and its other language's (singular or plural), the
/// usual synonyms, and the Korean counter `개`.
fn count_words(word: &crate::content::schema::CountWord) -> Vec<String> {
    let mut words = vec![crate::units::COUNTER.to_string(), "번".to_string()];
    for one in word.all() {
        words.extend(one_count_words(one));
        let english = crate::units::english_units(one);
        if english != one {
            words.extend(one_count_words(&english));
        }
    }
    words
}

/// [`count_words`] for one word.
fn one_count_words(word: &str) -> Vec<String> {
    let expected: String = word
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let singular = expected.strip_suffix('s').unwrap_or(&expected).to_string();
    let mut words = vec![expected.clone(), singular.clone()];
    let synonyms: &[&str] = match singular.as_str() {
        "register" | "reg" => &["register", "registers", "reg", "regs"],
        "vgpr" => &["vgpr", "vgprs", "register", "registers", "reg", "regs"],
        "lane" | "thread" => &["lane", "lanes", "thread", "threads"],
        "wavefront" => &[
            "wavefront",
            "wavefronts",
            "way",
            "ways",
            "pass",
            "passes",
            "way conflict",
            "way conflicts",
            "way bank conflict",
            "way bank conflicts",
        ],
        "wave" => &["wave", "waves", "wavefront", "wavefronts", "warp", "warps"],
        "conflict" => &["conflict", "conflicts", "bank conflict", "bank conflicts"],
        "block" => &[
            "block",
            "blocks",
            "cta",
            "ctas",
            "thread block",
            "thread blocks",
        ],
        "instruction" => &["instruction", "instructions", "load", "loads", "instr"],
        _ => &[],
    };
    words.extend(synonyms.iter().map(|s| s.replace(' ', "")));
    words
}

/// The factor that takes `unit_text` to the answer's base unit, or `None` if it does not fit.
fn unit_scale(unit_text: &str, unit: &Unit, value: f64, kilo: u32) -> Option<f64> {
    let compact: String = unit_text.chars().filter(|c| !c.is_whitespace()).collect();
    let u = compact.as_str();
    match unit {
        Unit::Percent => match u {
            "%" | "percent" | "pct" => Some(0.01),
            // A bare number above 1 is a percentage; at most 1 a fraction.
            "" => Some(if value.abs() > 1.0 { 0.01 } else { 1.0 }),
            _ => None,
        },
        Unit::Bytes => {
            let k = f64::from(kilo);
            match u {
                "" | "b" | "byte" | "bytes" => Some(1.0),
                "k" | "kb" | "kbyte" | "kbytes" | "kilobyte" | "kilobytes" => Some(k),
                "kib" => Some(1024.0),
                "mb" | "megabyte" | "megabytes" => Some(k * k),
                "mib" => Some(1024.0 * 1024.0),
                "gb" | "gigabyte" | "gigabytes" => Some(k * k * k),
                "gib" => Some(1024.0 * 1024.0 * 1024.0),
                _ => None,
            }
        }
        Unit::Seconds => match u {
            "" | "s" | "sec" | "secs" | "second" | "seconds" => Some(1.0),
            "ms" | "msec" | "millisecond" | "milliseconds" => Some(1e-3),
            "us" | "usec" | "microsecond" | "microseconds" => Some(1e-6),
            "ns" | "nsec" | "nanosecond" | "nanoseconds" => Some(1e-9),
            _ => None,
        },
        Unit::Cycles => matches!(
            u,
            "" | "cycle" | "cycles" | "cyc" | "clk" | "clks" | "clock" | "clocks" | "clockcycles"
        )
        .then_some(1.0),
        Unit::FlopPerByte => matches!(
            u,
            "" | "flop/b"
                | "flops/b"
                | "flop/byte"
                | "flops/byte"
                | "flopperbyte"
                | "flopsperbyte"
                | "f/b"
        )
        .then_some(1.0),
        Unit::FlopPerSecond => {
            let stem = [
                "flop/s",
                "flops/s",
                "flop/sec",
                "flops/sec",
                "flops",
                "flop",
            ]
            .iter()
            .find_map(|suffix| u.strip_suffix(suffix))
            .unwrap_or(u);
            si_prefix(stem, 1000.0)
        }
        Unit::BytesPerSecond => {
            let stem = [
                "bytes/s",
                "byte/s",
                "bytes/sec",
                "b/sec",
                "b/s",
                "bps",
                "bytespersecond",
            ]
            .iter()
            .find_map(|suffix| u.strip_suffix(suffix))
            .unwrap_or(u);
            si_prefix(stem, 1000.0)
        }
        Unit::Factor => match u {
            "" | "x" | "times" | "fold" | "timesslower" | "timesfaster" | "timesmore" => Some(1.0),
            "%" | "percent" => Some(0.01),
            _ => None,
        },
        Unit::None if u == crate::units::COUNTER || u == "번" => Some(1.0),
        Unit::None => si_prefix(u, 1000.0),
        Unit::Count(word) => {
            (u.is_empty() || count_words(word).iter().any(|w| w == u)).then_some(1.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(input: &str, unit: Unit) -> Result<f64, InputError> {
        parse_number(input, &unit, 1024)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    #[test]
    fn real_learner_inputs() {
        let cases: &[(&str, Unit, f64)] = &[
            ("62.5%", Unit::Percent, 0.625),
            ("0.625", Unit::Percent, 0.625),
            ("62.5 %", Unit::Percent, 0.625),
            ("62.5", Unit::Percent, 0.625),
            ("100%", Unit::Percent, 1.0),
            ("31/32", Unit::Percent, 31.0 / 32.0),
            ("1/8", Unit::None, 0.125),
            ("40 warps", Unit::Count("warps".into()), 40.0),
            ("40 Warp", Unit::Count("warps".into()), 40.0),
            ("40", Unit::Count("warps".into()), 40.0),
            ("1,280", Unit::None, 1280.0),
            ("1,280 threads", Unit::Count("threads".into()), 1280.0),
            ("1.07e9", Unit::None, 1.07e9),
            ("2 KB", Unit::Bytes, 2048.0),
            ("2KB", Unit::Bytes, 2048.0),
            ("2048 B", Unit::Bytes, 2048.0),
            ("2 KiB", Unit::Bytes, 2048.0),
            ("228 kb", Unit::Bytes, 228.0 * 1024.0),
            ("8.39 us", Unit::Seconds, 8.39e-6),
            ("8.39µs", Unit::Seconds, 8.39e-6),
            ("268 µs", Unit::Seconds, 268e-6),
            ("9.6 μs", Unit::Seconds, 9.6e-6),
            ("300 ns", Unit::Seconds, 300e-9),
            ("20 FLOP/B", Unit::FlopPerByte, 20.0),
            ("0.25 flop/byte", Unit::FlopPerByte, 0.25),
            ("67 TFLOP/s", Unit::FlopPerSecond, 67e12),
            ("67 tflops", Unit::FlopPerSecond, 67e12),
            ("4.8 TB/s", Unit::BytesPerSecond, 4.8e12),
            ("1664 GB/s", Unit::BytesPerSecond, 1664e9),
            ("16x", Unit::Factor, 16.0),
            ("6.6×", Unit::Factor, 6.6),
            ("  5 ", Unit::Count("sectors".into()), 5.0),
            ("~4", Unit::None, 4.0),
            ("-1", Unit::None, -1.0),
            ("5.", Unit::None, 5.0),
        ];
        for (input, unit, want) in cases {
            let got = read(input, unit.clone());
            assert!(
                matches!(got, Ok(v) if close(v, *want)),
                "{input:?} as {unit:?} → {got:?}, want {want}"
            );
        }
        assert_eq!(parse_number("2 KB", &Unit::Bytes, 1000), Ok(2000.0));
    }

    #[test]
    fn forms_people_write() {
        let regs = Unit::Count("registers".into());
        let lanes = Unit::Count("lanes".into());
        let wavefronts = Unit::Count("wavefronts".into());
        let warps = Unit::Count("warps".into());
        let cases: &[(&str, &Unit, f64)] = &[
            ("40 regs", &regs, 40.0),
            ("40 registers", &regs, 40.0),
            ("32 threads", &lanes, 32.0),
            ("32-way", &wavefronts, 32.0),
            ("32-way conflict", &wavefronts, 32.0),
            ("64 warps per SM", &warps, 64.0),
            ("17 blocks per SM", &Unit::Count("blocks".into()), 17.0),
            ("bank 28", &Unit::None, 28.0),
            ("T = 9", &Unit::None, 9.0),
            ("2 048", &Unit::None, 2048.0),
            ("1,024", &Unit::None, 1024.0),
            ("1 048 576 B", &Unit::Bytes, 1_048_576.0),
            ("x3", &Unit::Factor, 3.0),
            ("3×", &Unit::Factor, 3.0),
            ("3 times", &Unit::Factor, 3.0),
            ("300%", &Unit::Factor, 3.0),
            ("4 TFLOP/s", &Unit::FlopPerSecond, 4e12),
            ("4 teraflops", &Unit::FlopPerSecond, 4e12),
            ("2^11", &Unit::None, 2048.0),
            ("2^11 threads", &Unit::Count("threads".into()), 2048.0),
            ("48000000 B (48 MB)", &Unit::Bytes, 48e6),
            ("2048 B (2 KB)", &Unit::Bytes, 2048.0),
            ("about 5", &Unit::None, 5.0),
        ];
        for (input, unit, want) in cases {
            let kilo = if input.contains("48 MB") { 1000 } else { 1024 };
            let got = parse_number(input, unit, kilo);
            assert!(
                matches!(got, Ok(v) if close(v, *want)),
                "{input:?} as {unit:?} → {got:?}, want {want}"
            );
        }
    }

    #[test]
    fn ask_instead_of_guessing() {
        assert!(matches!(
            read("5.2", Unit::Seconds),
            Err(InputError::WhichUnit { .. })
        ));
        assert!(matches!(
            read("4.8", Unit::BytesPerSecond),
            Err(InputError::WhichUnit { .. })
        ));
        assert!(matches!(
            read("2 Kb", Unit::Bytes),
            Err(InputError::Bits { .. })
        ));
        assert!(matches!(
            read("32 b", Unit::Bytes),
            Err(InputError::Bits { .. })
        ));
        assert!(matches!(
            read("4.8 Tb/s", Unit::BytesPerSecond),
            Err(InputError::Bits { .. })
        ));
        assert!(matches!(
            read("5 (6)", Unit::None),
            Err(InputError::TwoAnswers(_))
        ));
        assert!(matches!(
            read("not 5", Unit::None),
            Err(InputError::Negated(_))
        ));
        assert!(matches!(
            read("40 blocks", Unit::Count("warps".into())),
            Err(InputError::WrongUnit { .. })
        ));
        let message = read("5.2", Unit::Seconds).unwrap_err().to_string();
        assert!(message.contains("which unit"), "{message}");
    }

    #[test]
    fn resolution_is_the_last_digit_typed() {
        let r = read_number("67%", &Unit::Percent, 1024).unwrap();
        assert!(close(r.resolution, 0.01), "{r:?}");
        let r = read_number("0.67", &Unit::Percent, 1024).unwrap();
        assert!(close(r.resolution, 0.01), "{r:?}");
        let r = read_number("66.7%", &Unit::Percent, 1024).unwrap();
        assert!(close(r.resolution, 0.001), "{r:?}");
    }

    #[test]
    fn nonsense_gets_a_clear_message() {
        assert_eq!(read("", Unit::None), Err(InputError::Empty));
        assert_eq!(read("   ", Unit::None), Err(InputError::Empty));
        assert!(matches!(
            read("abc", Unit::None),
            Err(InputError::NotANumber(..))
        ));
        assert!(matches!(
            read("1e999", Unit::None),
            Err(InputError::TooLarge(_))
        ));
        assert!(matches!(
            read(&"9".repeat(10_000), Unit::None),
            Err(InputError::TooLong(10_000))
        ));
        assert!(matches!(
            read("5 blorbs", Unit::Count("sectors".into())),
            Err(InputError::WrongUnit { .. })
        ));
        assert!(matches!(
            read("2 KB", Unit::Seconds),
            Err(InputError::WrongUnit { .. })
        ));
        assert!(matches!(
            read("62.5%", Unit::Bytes),
            Err(InputError::WrongUnit { .. })
        ));
        let message = read("abc", Unit::Percent).unwrap_err().to_string();
        assert!(message.contains("62.5%"), "{message}");
    }

    #[test]
    fn spelled_numbers_in_every_language() {
        let sectors = Unit::Count("sectors".into());
        let warps = Unit::Count("warps".into());
        let ko_sectors = Unit::Count(crate::content::schema::CountWord {
            word: "섹터".into(),
            also: vec!["sectors".into()],
        });
        let cases: &[(&str, &Unit, f64)] = &[
            ("thirty-two sectors", &sectors, 32.0),
            ("thirty two", &sectors, 32.0),
            ("one hundred twenty-eight", &Unit::None, 128.0),
            ("Four", &sectors, 4.0),
            ("battis sectors", &sectors, 32.0),
            ("battis hain", &sectors, 32.0),
            ("do warps", &warps, 2.0),
            ("ek sau atthais", &Unit::None, 128.0),
            ("서른두 개", &ko_sectors, 32.0),
            ("섹터 서른두 개", &ko_sectors, 32.0),
            ("두 개", &ko_sectors, 2.0),
            ("넷", &ko_sectors, 4.0),
            ("네 번", &Unit::None, 4.0),
            ("4번", &Unit::None, 4.0),
            ("삼십이", &ko_sectors, 32.0),
            ("백이십팔 바이트", &Unit::Bytes, 128.0),
            ("열여섯 배", &Unit::Factor, 16.0),
        ];
        for (input, unit, want) in cases {
            let got = parse_number(input, unit, 1024);
            assert!(
                matches!(got, Ok(v) if close(v, *want)),
                "{input:?} as {unit:?} → {got:?}, want {want}"
            );
        }
    }

    #[test]
    fn spellings_that_are_not_numbers_are_asked_about() {
        let sectors = Unit::Count("sectors".into());
        for input in [
            "I do not know",
            "이",
            "네",
            "이 값",
            "do the math",
            "teen spirit",
        ] {
            let got = parse_number(input, &sectors, 1024);
            assert!(
                matches!(
                    got,
                    Err(InputError::NotANumber(..) | InputError::Negated(_))
                ),
                "{input:?} → {got:?}"
            );
        }
    }

    #[test]
    fn words_for_nothing() {
        let conflicts = Unit::Count("conflicts".into());
        let wavefronts = Unit::Count("wavefronts".into());
        let sectors = Unit::Count("sectors".into());
        let cases: &[(&str, &Unit, f64)] = &[
            ("none", &conflicts, 0.0),
            ("zero", &sectors, 0.0),
            ("koi nahi", &conflicts, 0.0),
            ("없음", &conflicts, 0.0),
            ("no conflict", &conflicts, 0.0),
            ("No bank conflicts.", &conflicts, 0.0),
            ("conflict-free", &conflicts, 0.0),
            ("충돌 없음", &conflicts, 0.0),
            ("koi conflict nahi", &conflicts, 0.0),
            ("no conflict", &wavefronts, 1.0),
            ("conflict-free", &wavefronts, 1.0),
            ("충돌 없음", &wavefronts, 1.0),
        ];
        for (input, unit, want) in cases {
            let got = parse_number(input, unit, 1024);
            assert!(
                matches!(got, Ok(v) if close(v, *want)),
                "{input:?} as {unit:?} → {got:?}, want {want}"
            );
        }
        // "No conflict" says nothing about sectors: asked, not read as 0.
        assert!(matches!(
            parse_number("no conflict", &sectors, 1024),
            Err(InputError::NotANumber(..))
        ));
        // `not 4` and `no 4` stay negations.
        assert!(matches!(
            parse_number("no 4", &sectors, 1024),
            Err(InputError::Negated(_))
        ));
    }

    #[test]
    fn way_conflicts_ordinals_tiles_and_slashes() {
        let wavefronts = Unit::Count("wavefronts".into());
        let warps = Unit::Count("warps".into());
        let cases: &[(&str, &Unit, f64)] = &[
            ("4-way", &wavefronts, 4.0),
            ("4-way bank conflict", &wavefronts, 4.0),
            ("4-way conflicts", &wavefronts, 4.0),
            ("a 4-way bank conflict", &wavefronts, 4.0),
            ("16×16", &Unit::None, 16.0),
            ("16x16", &Unit::None, 16.0),
            ("16 by 16", &Unit::None, 16.0),
            ("T = 16 x 16", &Unit::None, 16.0),
            ("16 warps/SM", &warps, 16.0),
            ("2 blocks/SM", &Unit::Count("blocks".into()), 2.0),
            ("128 regs/thread", &Unit::Count("registers".into()), 128.0),
            ("4.8 TB/s", &Unit::BytesPerSecond, 4.8e12),
        ];
        for (input, unit, want) in cases {
            let got = parse_number(input, unit, 1024);
            assert!(
                matches!(got, Ok(v) if close(v, *want)),
                "{input:?} as {unit:?} → {got:?}, want {want}"
            );
        }
        assert!(matches!(
            parse_number("16x32", &Unit::None, 1024),
            Err(InputError::TwoAnswers(_))
        ));
        assert!(matches!(
            parse_number("16 warps/block", &warps, 1024),
            Ok(v) if close(v, 16.0)
        ));
    }

    #[test]
    fn powers_of_ten_keep_the_digits_typed() {
        let rate = Unit::BytesPerSecond;
        let cases: &[(&str, &Unit, f64, f64, u32)] = &[
            ("4.8e12 B/s", &rate, 4.8e12, 1e11, 2),
            ("4.8 × 10^12 B/s", &rate, 4.8e12, 1e11, 2),
            ("4.8x10^12 B/s", &rate, 4.8e12, 1e11, 2),
            ("4.8 trillion B/s", &rate, 4.8e12, 1e11, 2),
            ("4.8조 B/s", &rate, 4.8e12, 1e11, 2),
            ("1.07 billion", &Unit::None, 1.07e9, 1e7, 3),
            ("1.07e9", &Unit::None, 1.07e9, 1e7, 3),
            ("2 lakh", &Unit::None, 2e5, 1e5, 1),
            ("1.5 crore", &Unit::None, 1.5e7, 1e6, 2),
            ("480만", &Unit::None, 4.8e6, 1e4, 3),
            ("3 thousand", &Unit::None, 3000.0, 1000.0, 1),
            (
                "2.5 million threads",
                &Unit::Count("threads".into()),
                2.5e6,
                1e5,
                2,
            ),
        ];
        for (input, unit, value, step, significant) in cases {
            let got = read_number(input, unit, 1024);
            assert!(
                matches!(got, Ok(r) if close(r.value, *value) && close(r.resolution, *step) && r.significant == *significant),
                "{input:?} as {unit:?} → {got:?}, want {value} step {step}"
            );
        }
    }
}
