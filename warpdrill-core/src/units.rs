//! Reading the numbers learners and scripts type: one parser for command-line flags, the explorer's
//! and calculators' fields, and batch requests, so `--smem 24K` means what typing `24K` into the
//! occupancy calculator means.
//!
//! - Whole numbers: `1024`, `-3`, `0x6000`, `-0x80`, `1,024`, `2 048`, `1_000`.
//! - Sizes in bytes take binary prefixes, as CUDA's do: `24K` = `24 KB` = `24 KiB` = 24 576;
//!   `2M` = 2 MiB. A bare `b` means bits and is refused (`32 b` is 4 bytes — say `4 B`).
//! - Rates and other reals take SI prefixes: `67T` = `67 TFLOP/s` = `67e12`; `4.8 TB/s` = `4.8e12`;
//!   `500 G`, `1.5k`; units after the number are read and checked against the kind of value.

use thiserror::Error;

/// Unit and counted-thing words in Korean and Hinglish, with the English word the parsers read:
/// `128 바이트` is `128 B`, `8.39 마이크로초` is `8.39 us`, `16배` is `16x`, `4 섹터` is `4 sectors`.
/// One table for every parser (answers, command-line values, calculator fields).
pub const LOCAL_UNIT_WORDS: &[(&str, &str)] = &[
    ("바이트", "B"),
    ("킬로바이트", "KB"),
    ("키비바이트", "KiB"),
    ("메가바이트", "MB"),
    ("기가바이트", "GB"),
    ("테라바이트", "TB"),
    ("퍼센트", "%"),
    ("프로", "%"),
    ("초", "s"),
    ("밀리초", "ms"),
    ("마이크로초", "us"),
    ("나노초", "ns"),
    ("사이클", "cycles"),
    ("클럭", "cycles"),
    ("클록", "cycles"),
    ("배", "x"),
    ("섹터", "sectors"),
    ("워프", "warps"),
    ("웨이브프론트", "wavefronts"),
    ("웨이브", "waves"),
    ("뱅크", "banks"),
    ("레지스터", "registers"),
    ("블록", "blocks"),
    ("블럭", "blocks"),
    ("스레드", "threads"),
    ("쓰레드", "threads"),
    ("레인", "lanes"),
    ("트랜잭션", "transactions"),
    ("라인", "lines"),
    ("요청", "requests"),
    ("명령어", "instructions"),
    ("명령", "instructions"),
    ("로드", "loads"),
    ("충돌", "conflicts"),
    ("뱅크충돌", "conflicts"),
    ("읽기", "reads"),
    ("guna", "x"),
    ("gunaa", "x"),
    ("pratishat", "%"),
    ("pratishet", "%"),
];

/// The Korean counter word (`4개`, `4 개`): a count of anything.
pub const COUNTER: &str = "개";

/// Endings Korean attaches to a word (particles, the copula), removed to find the unit word:
/// `개입니다` → `개`, `섹터요` → `섹터`.
const KOREAN_ENDINGS: [&str; 16] = [
    "입니다",
    "이에요",
    "이예요",
    "예요",
    "이요",
    "이다",
    "이고",
    "요",
    "이",
    "가",
    "은",
    "는",
    "을",
    "를",
    "의",
    "쯤",
];

/// Whether `c` is a Hangul syllable or letter.
pub fn is_hangul(c: char) -> bool {
    matches!(c, '\u{ac00}'..='\u{d7a3}' | '\u{1100}'..='\u{11ff}' | '\u{3130}'..='\u{318f}')
}

/// The English unit word for one local word (`마이크로초` → `us`), the word itself when it is not
/// a local unit word. Korean endings are removed first (`바이트입니다` → `B`); the counter `개`
/// stays `개`.
pub fn english_unit_word(word: &str) -> String {
    let lookup = |w: &str| {
        if w == COUNTER {
            return Some(COUNTER.to_string());
        }
        let lower = w.to_lowercase();
        LOCAL_UNIT_WORDS
            .iter()
            .find(|(local, _)| *local == lower)
            .map(|(_, english)| (*english).to_string())
    };
    if let Some(found) = lookup(word) {
        return found;
    }
    if word.chars().any(is_hangul) {
        for ending in KOREAN_ENDINGS {
            if let Some(stem) = word.strip_suffix(ending)
                && !stem.is_empty()
            {
                if let Some(found) = lookup(stem) {
                    return found;
                }
                if !stem.chars().any(is_hangul) {
                    return stem.to_string();
                }
            }
        }
    }
    word.to_string()
}

/// A unit written in Korean or Hinglish, in the English words the parsers read: `마이크로초` →
/// `us`, `개 섹터` → `sectors` (the counter before a counted word is dropped), `킬로바이트` → `KB`.
/// English text comes back unchanged.
pub fn english_units(text: &str) -> String {
    let words: Vec<String> = text.split_whitespace().map(english_unit_word).collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        let counted_next = words
            .get(i + 1)
            .is_some_and(|next| next != COUNTER && !next.chars().any(|c| c.is_ascii_digit()));
        if word == COUNTER && counted_next && i == 0 {
            continue;
        }
        out.push(word);
    }
    out.join(" ")
}

/// Why a typed value was refused, in words to show the learner.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`{text}`: {why}")]
pub struct ValueError {
    /// What was typed.
    pub text: String,
    /// What is wrong and what would be right.
    pub why: String,
}

fn refuse(text: &str, why: impl Into<String>) -> ValueError {
    ValueError {
        text: text.trim().to_string(),
        why: why.into(),
    }
}

/// The text without digit group separators (`,`, `_`, and spaces between digits).
fn ungrouped(text: &str) -> String {
    let chars: Vec<char> = text.trim().chars().collect();
    let mut out = String::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_digits = |c: char| {
            i > 0
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit())
                && (c == ' ' || c == ',' || c == '_' || c == '\u{202f}' || c == '\u{a0}')
        };
        if between_digits(c) {
            continue;
        }
        out.push(c);
    }
    out
}

/// A whole number: decimal or hex (`0x…`), negative allowed, digits grouped with `,` `_` or spaces.
pub fn parse_int(text: &str) -> Result<i64, ValueError> {
    let t = ungrouped(text).to_lowercase();
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, t.trim_start_matches('+')),
    };
    let magnitude = if let Some(hex) = body.strip_prefix("0x") {
        u64::from_str_radix(hex, 16).ok()
    } else {
        body.parse::<u64>().ok()
    }
    .ok_or_else(|| refuse(text, "not a whole number (e.g. 32, -4, 0x80, 1,024)"))?;
    let value = if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    };
    value.ok_or_else(|| refuse(text, "too large for a 64-bit number"))
}

/// A size in bytes, with binary prefixes (`K`/`KB`/`KiB` = 1024, `M`… = 1024², `G`… = 1024³).
pub fn parse_bytes(text: &str) -> Result<u64, ValueError> {
    let t = ungrouped(text);
    let trimmed = t.trim();
    let split = trimmed
        .find(|c: char| c.is_alphabetic() && !trimmed.starts_with("0x"))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let unit = english_units(unit);
    let scale: u64 = match unit.trim() {
        "" | "B" | "bytes" | "byte" => 1,
        "K" | "k" | "KB" | "kB" | "KiB" | "kiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        "b" | "Kb" | "kb" | "Mb" | "bit" | "bits" => {
            return Err(refuse(
                text,
                "that reads as bits; sizes here are in bytes (write B, KB, MB)",
            ));
        }
        other => {
            return Err(refuse(
                text,
                format!("`{other}` is not a size unit (use B, K/KB/KiB, M/MB, G/GB)"),
            ));
        }
    };
    let number = number.trim();
    if let Ok(whole) = parse_int(number) {
        let whole = u64::try_from(whole).map_err(|_| refuse(text, "a size cannot be negative"))?;
        return whole
            .checked_mul(scale)
            .ok_or_else(|| refuse(text, "too large"));
    }
    let real: f64 = number
        .parse()
        .map_err(|_| refuse(text, "not a size (e.g. 2048, 24K, 48 KB, 0x6000)"))?;
    let bytes = real * scale as f64;
    if !bytes.is_finite() || bytes < 0.0 || bytes > u64::MAX as f64 {
        return Err(refuse(text, "not a size a block can have"));
    }
    if bytes.fract() != 0.0 {
        return Err(refuse(text, "not a whole number of bytes"));
    }
    Ok(bytes as u64)
}

/// What a real number measures, for the units it may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// FLOP per second.
    FlopRate,
    /// Bytes per second.
    ByteRate,
    /// FLOP per byte.
    Intensity,
    /// A plain number.
    Plain,
}

impl Quantity {
    fn units(self) -> &'static [&'static str] {
        match self {
            Quantity::FlopRate => &["FLOP/s", "FLOPS", "flop/s", "flops", "FLOP/S", "/s"],
            Quantity::ByteRate => &["B/s", "bytes/s", "byte/s", "Bps", "/s"],
            Quantity::Intensity => &["FLOP/B", "flop/B", "FLOP/byte", "flop/byte"],
            Quantity::Plain => &[],
        }
    }
}

/// A positive real number with an SI prefix and the units of `kind` (`67T`, `67 TFLOP/s`,
/// `4.8 TB/s`, `1.5e12`, `0.25 FLOP/B`).
pub fn parse_positive(text: &str, kind: Quantity) -> Result<f64, ValueError> {
    let t = ungrouped(text);
    let mut rest = t.trim();
    for unit in kind.units() {
        if let Some(stripped) = rest.strip_suffix(unit) {
            rest = stripped.trim_end();
            break;
        }
    }
    let (digits, scale) = match rest.chars().last() {
        Some('k' | 'K') => (&rest[..rest.len() - 1], 1e3),
        Some('M') => (&rest[..rest.len() - 1], 1e6),
        Some('G') => (&rest[..rest.len() - 1], 1e9),
        Some('T') => (&rest[..rest.len() - 1], 1e12),
        Some('P') => (&rest[..rest.len() - 1], 1e15),
        _ => (rest, 1.0),
    };
    let example = match kind {
        Quantity::FlopRate => "e.g. 67T, 67 TFLOP/s, 6.7e13",
        Quantity::ByteRate => "e.g. 4.8T, 4.8 TB/s, 4.8e12",
        Quantity::Intensity => "e.g. 0.25, 4 FLOP/B",
        Quantity::Plain => "e.g. 0.25, 1.5k",
    };
    let value = digits
        .trim()
        .parse::<f64>()
        .map_err(|_| refuse(text, format!("not a number ({example})")))?
        * scale;
    if value.is_nan() {
        return Err(refuse(text, format!("not a number ({example})")));
    }
    if !value.is_finite() {
        return Err(refuse(text, format!("too large ({example})")));
    }
    if value <= 0.0 {
        return Err(refuse(text, format!("must be greater than 0 ({example})")));
    }
    Ok(value)
}

/// A clap value parser for bytes that fit in `u32` (shared memory per block).
pub fn bytes_arg(text: &str) -> Result<u32, String> {
    let bytes = parse_bytes(text).map_err(|e| e.to_string())?;
    u32::try_from(bytes).map_err(|_| format!("`{}`: more than 4 GiB", text.trim()))
}

/// A clap value parser for FLOP/s.
pub fn flop_rate_arg(text: &str) -> Result<f64, String> {
    parse_positive(text, Quantity::FlopRate).map_err(|e| e.to_string())
}

/// A clap value parser for bytes/s.
pub fn byte_rate_arg(text: &str) -> Result<f64, String> {
    parse_positive(text, Quantity::ByteRate).map_err(|e| e.to_string())
}

/// A clap value parser for FLOP/B.
pub fn intensity_arg(text: &str) -> Result<f64, String> {
    parse_positive(text, Quantity::Intensity).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_in_every_spelling() {
        assert_eq!(parse_int("1024"), Ok(1024));
        assert_eq!(parse_int("-3"), Ok(-3));
        assert_eq!(parse_int("0x80"), Ok(128));
        assert_eq!(parse_int("-0x80"), Ok(-128));
        assert_eq!(parse_int("1,024"), Ok(1024));
        assert_eq!(parse_int("2 048"), Ok(2048));
        assert_eq!(parse_int("-9223372036854775808"), Ok(i64::MIN));
        assert!(parse_int("9223372036854775808").is_err());
        assert!(parse_int("1.5").is_err());
        assert!(parse_int("").is_err());
    }

    #[test]
    fn sizes_take_binary_prefixes_and_refuse_bits() {
        assert_eq!(parse_bytes("24K"), Ok(24 * 1024));
        assert_eq!(parse_bytes("24 KB"), Ok(24 * 1024));
        assert_eq!(parse_bytes("24KiB"), Ok(24 * 1024));
        assert_eq!(parse_bytes("1.5K"), Ok(1536));
        assert_eq!(parse_bytes("2M"), Ok(2 << 20));
        assert_eq!(parse_bytes("0x6000"), Ok(0x6000));
        assert_eq!(parse_bytes("49,152"), Ok(49152));
        assert_eq!(parse_bytes("48 KB"), Ok(49152));
        assert!(parse_bytes("32 b").is_err());
        assert!(parse_bytes("2 Kb").is_err());
        assert!(parse_bytes("-1").is_err());
        assert!(parse_bytes("1.3").is_err());
        assert!(parse_bytes("3 apples").is_err());
    }

    #[test]
    fn korean_unit_words_read_as_english_ones() {
        assert_eq!(parse_bytes("24킬로바이트"), Ok(24 * 1024));
        assert_eq!(parse_bytes("128 바이트"), Ok(128));
        assert_eq!(english_units("마이크로초"), "us");
        assert_eq!(english_units("개 섹터"), "sectors");
        assert_eq!(english_units("개입니다"), "개");
        assert_eq!(english_units("바이트요"), "B");
        assert_eq!(english_units("warps per SM"), "warps per SM");
    }

    #[test]
    fn rates_take_si_prefixes_and_their_units() {
        assert_eq!(parse_positive("67T", Quantity::FlopRate), Ok(67e12));
        assert_eq!(parse_positive("67 TFLOP/s", Quantity::FlopRate), Ok(67e12));
        assert_eq!(parse_positive("4.8 TB/s", Quantity::ByteRate), Ok(4.8e12));
        assert_eq!(parse_positive("4.8T", Quantity::ByteRate), Ok(4.8e12));
        assert_eq!(parse_positive("0.25", Quantity::Intensity), Ok(0.25));
        assert_eq!(parse_positive("4 FLOP/B", Quantity::Intensity), Ok(4.0));
        assert!(parse_positive("-1", Quantity::Intensity).is_err());
        assert!(parse_positive("1e400", Quantity::FlopRate).is_err());
        assert!(parse_positive("NaN", Quantity::FlopRate).is_err());
        assert!(
            parse_positive("4.8 TB/s", Quantity::FlopRate).is_err(),
            "a byte rate is no FLOP rate"
        );
    }
}
