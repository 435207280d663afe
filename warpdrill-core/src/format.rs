//! Number formatting shared by the command line and the screens.

/// `text` safe to print on a terminal: control characters (except newline and tab) and the
/// invisible bidirectional overrides and zero-width characters are shown as `\u{1b}`-style escapes,
/// so text from a content file cannot move the cursor, set the window title or switch on mouse
/// tracking.
///
/// ```
/// assert_eq!(warpdrill_core::format::printable("a\x1b]0;pwned\x07b\n"), "a\\u{1b}]0;pwned\\u{7}b\n");
/// ```
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    fn unsafe_char(c: char) -> bool {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(
                c,
                '\u{202a}'..='\u{202e}'
                    | '\u{2066}'..='\u{2069}'
                    | '\u{200b}'..='\u{200f}'
                    | '\u{2060}'..='\u{2064}'
                    | '\u{061c}'
                    | '\u{feff}'
            )
    }
    if !text.contains(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `0.625` → `62.5%`, one decimal at most; whole percentages lose the decimal (`100%`).
pub fn percent(fraction: f64) -> String {
    let p = fraction * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("{}%", p.round())
    } else {
        format!("{p:.1}%")
    }
}

/// A byte count in the unit a learner reads: `512 B`, `2 KB`, `1.5 KB`, `228 KB`, `4 MB` (binary KB/MB).
pub fn bytes(count: u64) -> String {
    const KIB: f64 = 1024.0;
    let n = count as f64;
    let (value, unit) = if count < 1024 {
        return format!("{count} B");
    } else if n < KIB * KIB {
        (n / KIB, "KB")
    } else if n < KIB * KIB * KIB {
        (n / (KIB * KIB), "MB")
    } else {
        (n / (KIB * KIB * KIB), "GB")
    };
    format!("{} {unit}", trim_float(value, 2))
}

/// A number with at most `decimals` decimals and no trailing zeros: `2.50` → `2.5`, `4.00` → `4`.
/// Beyond 1e15 it switches to `1.2e21` rather than printing every digit.
pub fn trim_float(value: f64, decimals: usize) -> String {
    if !value.is_finite() || value.abs() >= 1e15 {
        return scientific(value);
    }
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A large number with SI prefix: `1.07e12` → `1.07 T`.
pub fn si(value: f64) -> String {
    let abs = value.abs();
    if !value.is_finite() || abs >= 1e18 || (abs > 0.0 && abs < 1e-3) {
        // Beyond the prefixes: `1.2e21`, never hundreds of digits or a silent 0.
        return format!("{} ", scientific(value));
    }
    let (scaled, prefix) = match abs {
        a if a >= 1e15 => (value / 1e15, "P"),
        a if a >= 1e12 => (value / 1e12, "T"),
        a if a >= 1e9 => (value / 1e9, "G"),
        a if a >= 1e6 => (value / 1e6, "M"),
        a if a >= 1e3 => (value / 1e3, "k"),
        _ => (value, ""),
    };
    format!(
        "{} {prefix}",
        trim_float(scaled, 3 - digits_before_point(scaled).min(3))
    )
}

/// `1.2e21`, `5e-7`: three significant digits at most.
pub fn scientific(value: f64) -> String {
    let text = format!("{value:.2e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) if mantissa.contains('.') => format!(
            "{}e{exponent}",
            mantissa.trim_end_matches('0').trim_end_matches('.')
        ),
        _ => text,
    }
}

fn digits_before_point(value: f64) -> usize {
    let mut digits = 1;
    let mut v = value.abs();
    // Infinity stays infinite when divided: stop there.
    while v >= 10.0 && v.is_finite() {
        v /= 10.0;
        digits += 1;
    }
    digits
}

/// Seconds in a readable unit: `8.39 µs`, `300 ns`, `1.2 ms`.
pub fn seconds(value: f64) -> String {
    let abs = value.abs();
    let (scaled, unit) = if abs >= 1.0 {
        (value, "s")
    } else if abs >= 1e-3 {
        (value * 1e3, "ms")
    } else if abs >= 1e-6 {
        (value * 1e6, "µs")
    } else {
        (value * 1e9, "ns")
    };
    format!("{} {unit}", trim_float(scaled, 2))
}

/// A lane set as ranges: `[0,1,2,3,7]` → `0-3, 7`.
pub fn lane_ranges(lanes: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut iter = lanes.iter().copied().peekable();
    while let Some(start) = iter.next() {
        let mut end = start;
        while iter.peek() == Some(&(end + 1)) {
            end = iter.next().unwrap_or(end);
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_numbers() {
        assert_eq!(percent(0.625), "62.5%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.65625), "65.6%");
        assert_eq!(percent(31.0 / 32.0), "96.9%");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(2048), "2 KB");
        assert_eq!(bytes(228 * 1024), "228 KB");
        assert_eq!(bytes(1536), "1.5 KB");
        assert_eq!(si(1.2e12), "1.2 T");
        assert_eq!(si(67e12), "67 T");
        assert_eq!(si(1e308), "1e308 ");
        assert_eq!(si(1.25e21), "1.25e21 ");
        assert_eq!(si(5e-7), "5e-7 ");
        assert_eq!(si(0.0), "0 ");
        assert_eq!(trim_float(1e308, 3), "1e308");
        assert_eq!(trim_float(123.456, 1), "123.5");
        assert_eq!(seconds(8.388608e-6), "8.39 µs");
        assert_eq!(seconds(300e-9), "300 ns");
        assert_eq!(lane_ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3, 7, 9-10");
    }
}

/// A count with its noun in agreement: `count(1, "sector")` = `1 sector`, `count(4, "sector")` =
/// `4 sectors`. Nouns ending in `s`, `x` or `ch` take `es`.
pub fn count(n: impl Into<i128>, noun: &str) -> String {
    let n = n.into();
    if n == 1 || n == -1 {
        format!("{n} {noun}")
    } else if noun.ends_with('s') || noun.ends_with('x') || noun.ends_with("ch") {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// A byte address in hex, negative ones with a sign: `0x80`, `-0x80` (never a two's-complement
/// `0xffffffffffffff80`).
pub fn address(value: i64) -> String {
    if value < 0 {
        format!("-{:#x}", value.unsigned_abs())
    } else {
        format!("{value:#x}")
    }
}

#[cfg(test)]
mod count_tests {
    use super::*;

    #[test]
    fn nouns_agree_with_their_count() {
        assert_eq!(count(1u32, "sector"), "1 sector");
        assert_eq!(count(0u32, "wavefront"), "0 wavefronts");
        assert_eq!(count(32u32, "lane"), "32 lanes");
        assert_eq!(count(2u32, "pass"), "2 passes");
    }

    #[test]
    fn negative_addresses_keep_their_sign() {
        assert_eq!(address(0x80), "0x80");
        assert_eq!(address(-0x80), "-0x80");
        assert_eq!(address(i64::MIN), "-0x8000000000000000");
    }
}
