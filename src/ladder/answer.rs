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
    #[error("`{0}` is not a number — try something like {1}")]
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
}

/// What the question asks for, in words, with an example input.
pub fn unit_hint(unit: &Unit) -> (String, &'static str) {
    match unit {
        Unit::None => ("a plain number".into(), "`42`"),
        Unit::Count(word) => (word.clone(), "`40` or `40 warps`"),
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

/// Reads a number in the answer's unit and converts it to the unit's base (bytes, seconds, a 0–1
/// fraction for percentages, FLOP/s …). `kilo` is what `KB` means in this exercise (1000 or 1024).
pub fn parse_number(input: &str, unit: &Unit, kilo: u32) -> Result<f64, InputError> {
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
            .replace('−', "-"),
    );
    let body = normalized.trim_start_matches(['~', '≈', '=']).trim();
    let (number, rest) =
        leading_number(body).ok_or_else(|| InputError::NotANumber(text.to_string(), example))?;
    let rest = rest.trim();
    // A fraction: `31/32`, `1/8`.
    let (value, rest) = match rest
        .strip_prefix('/')
        .map(str::trim_start)
        .and_then(leading_number)
    {
        Some((denominator, after)) => (number / denominator, after.trim()),
        None => (number, rest),
    };
    if !value.is_finite() {
        return Err(InputError::TooLarge(text.to_string()));
    }
    let unit_text = rest.trim_end_matches(['.', '!']).trim().to_lowercase();
    let scale = unit_scale(&unit_text, unit, value, kilo).ok_or_else(|| InputError::WrongUnit {
        number: crate::ladder::variant::plain(value),
        unit: rest.to_string(),
        expected: unit_hint(unit).0,
    })?;
    let result = value * scale;
    if !result.is_finite() || result.abs() > 1e30 {
        return Err(InputError::TooLarge(text.to_string()));
    }
    Ok(result)
}

/// Removes thousands separators: `1,280` → `1280` (a comma followed by exactly three digits).
fn strip_thousands(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == ',' && i > 0 && chars[i - 1].is_ascii_digit() {
            let digits = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if digits == 3 {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// A leading decimal number (sign, digits, point, exponent) and the rest.
fn leading_number(text: &str) -> Option<(f64, &str)> {
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
    if end < bytes.len() && (bytes[end] == b'e' || bytes[end] == b'E') {
        let mut exp = end + 1;
        if exp < bytes.len() && (bytes[exp] == b'-' || bytes[exp] == b'+') {
            exp += 1;
        }
        if exp < bytes.len() && bytes[exp].is_ascii_digit() {
            while exp < bytes.len() && bytes[exp].is_ascii_digit() {
                exp += 1;
            }
            end = exp;
        }
    }
    text[..end].parse::<f64>().ok().map(|n| (n, &text[end..]))
}

fn si_prefix(prefix: &str, kilo: f64) -> Option<f64> {
    Some(match prefix {
        "" => 1.0,
        "k" => kilo,
        "m" => kilo * kilo,
        "g" => kilo * kilo * kilo,
        "t" => kilo.powi(4),
        "p" => kilo.powi(5),
        _ => return None,
    })
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
        Unit::Cycles => matches!(u, "" | "cycle" | "cycles" | "clk" | "clocks").then_some(1.0),
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
            let stem = u
                .strip_suffix("flop/s")
                .or_else(|| u.strip_suffix("flops/s"))
                .or_else(|| u.strip_suffix("flops"))
                .or_else(|| u.strip_suffix("flop"))
                .unwrap_or(u);
            si_prefix(stem, 1000.0)
        }
        Unit::BytesPerSecond => {
            let stem = u
                .strip_suffix("b/s")
                .or_else(|| u.strip_suffix("bps"))
                .or_else(|| u.strip_suffix("bytes/s"))
                .unwrap_or(u);
            si_prefix(stem, 1000.0)
        }
        Unit::Factor => matches!(u, "" | "x" | "times" | "fold").then_some(1.0),
        Unit::None => si_prefix(u, 1000.0),
        Unit::Count(word) => {
            if u.is_empty() || unit_matches(u, word) {
                Some(1.0)
            } else {
                None
            }
        }
    }
}

/// Whether a typed unit word names the expected count (`warp`, `warps`, `Warps`).
fn unit_matches(typed: &str, word: &str) -> bool {
    let expected: String = word
        .to_lowercase()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let singular = expected.strip_suffix('s').unwrap_or(&expected);
    typed == expected || typed == singular || typed.strip_suffix('s') == Some(singular)
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
}
