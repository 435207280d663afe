//! Numbers as learners spell them, rewritten as digits before an answer is read: English words
//! (`thirty-two`, `one hundred twenty-eight`), Hinglish (`battis`, `ek sau atthais`), Korean native
//! (`서른두 개`, `네 번`) and Sino-Korean numerals (`삼십이`, `백이십팔`), words for powers of ten
//! (`4.8 billion`, `2 lakh`, `4.8조`, `480만`) and scientific notation written out (`4.8 × 10^12`).
//!
//! Every table is one list of `(word, value)`; the rules that keep other words from being misread
//! are here too: a Hinglish number that is also an English word (`do`, `teen`, `bees`) counts only
//! before a unit or at the end of the answer, a lone Sino-Korean digit (`이`, `사`, which are also a
//! particle and a word) only before a unit or counter, and a Korean form that only stands before a
//! counter (`두`, `네`, which is also "yes") only there.

/// English number words and their values (`hundred` and the powers of ten multiply).
const ENGLISH: &[(&str, u64)] = &[
    ("zero", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fourty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];

/// Hinglish number words (Hindi in Latin script, in the spellings people type).
const HINGLISH: &[(&str, u64)] = &[
    ("shunya", 0),
    ("sifar", 0),
    ("ek", 1),
    ("do", 2),
    ("teen", 3),
    ("tin", 3),
    ("chaar", 4),
    ("char", 4),
    ("paanch", 5),
    ("panch", 5),
    ("paanc", 5),
    ("chhe", 6),
    ("chhah", 6),
    ("chhai", 6),
    ("che", 6),
    ("saat", 7),
    ("aath", 8),
    ("aat", 8),
    ("nau", 9),
    ("das", 10),
    ("gyaarah", 11),
    ("gyarah", 11),
    ("baarah", 12),
    ("barah", 12),
    ("terah", 13),
    ("chaudah", 14),
    ("pandrah", 15),
    ("solah", 16),
    ("satrah", 17),
    ("athaarah", 18),
    ("atharah", 18),
    ("unnees", 19),
    ("unnis", 19),
    ("bees", 20),
    ("bis", 20),
    ("ikkees", 21),
    ("ikkis", 21),
    ("baaees", 22),
    ("bais", 22),
    ("teis", 23),
    ("tees", 30),
    ("chaubees", 24),
    ("chaubis", 24),
    ("pachchees", 25),
    ("pachis", 25),
    ("chhabbees", 26),
    ("chabbis", 26),
    ("sattaees", 27),
    ("sattais", 27),
    ("atthaees", 28),
    ("atthais", 28),
    ("untees", 29),
    ("untis", 29),
    ("tis", 30),
    ("iktees", 31),
    ("ikattis", 31),
    ("battees", 32),
    ("battis", 32),
    ("taintees", 33),
    ("taintis", 33),
    ("chauntees", 34),
    ("chautis", 34),
    ("paintees", 35),
    ("paintis", 35),
    ("chhattees", 36),
    ("chattis", 36),
    ("saintees", 37),
    ("saintis", 37),
    ("artees", 38),
    ("artis", 38),
    ("untaalees", 39),
    ("untalis", 39),
    ("chaalees", 40),
    ("chalis", 40),
    ("adtalis", 48),
    ("artalis", 48),
    ("pachaas", 50),
    ("pachas", 50),
    ("chhappan", 56),
    ("saath", 60),
    ("chaunsath", 64),
    ("chausath", 64),
    ("sattar", 70),
    ("assi", 80),
    ("nabbe", 90),
    ("chhiyaanve", 96),
    ("chhiyanve", 96),
];

/// Words that are numbers in Hinglish and words in English: read only before a unit or at the end.
const AMBIGUOUS: &[&str] = &[
    "do", "teen", "tin", "char", "che", "das", "bees", "bis", "tees", "tis", "aat", "saath", "nau",
    "sau",
];

/// Words that multiply what stands before them, and by how much: `hundred`, `thousand`, `lakh`…
const SCALES: &[(&str, u32)] = &[
    ("hundred", 2),
    ("sau", 2),
    ("thousand", 3),
    ("hazaar", 3),
    ("hazar", 3),
    ("lakh", 5),
    ("lac", 5),
    ("million", 6),
    ("crore", 7),
    ("billion", 9),
    ("arab", 9),
    ("trillion", 12),
];

/// Korean native numerals: units (1–9) in both forms (alone and before a counter) and tens.
const NATIVE_UNITS: &[(&str, &str, u64)] = &[
    ("하나", "한", 1),
    ("둘", "두", 2),
    ("셋", "세", 3),
    ("넷", "네", 4),
    ("다섯", "다섯", 5),
    ("여섯", "여섯", 6),
    ("일곱", "일곱", 7),
    ("여덟", "여덟", 8),
    ("아홉", "아홉", 9),
];

/// Korean native tens (`스물` is `스무` before a counter).
const NATIVE_TENS: &[(&str, u64)] = &[
    ("열", 10),
    ("스물", 20),
    ("스무", 20),
    ("서른", 30),
    ("마흔", 40),
    ("쉰", 50),
    ("예순", 60),
    ("일흔", 70),
    ("여든", 80),
    ("아흔", 90),
];

/// Sino-Korean digits and the places they multiply.
const SINO_DIGITS: &[(char, u64)] = &[
    ('영', 0),
    ('공', 0),
    ('일', 1),
    ('이', 2),
    ('삼', 3),
    ('사', 4),
    ('오', 5),
    ('육', 6),
    ('칠', 7),
    ('팔', 8),
    ('구', 9),
];
const SINO_PLACES: &[(char, u64)] = &[('십', 10), ('백', 100), ('천', 1000)];

/// Korean words for powers of ten after a number: `480만`, `4.8조`.
const KOREAN_SCALES: &[(char, u32)] = &[('만', 4), ('억', 8), ('조', 12)];

/// Korean counters a number stands before (`두 개`, `네 번`; `번` also numbers a thing: `4번`).
pub const COUNTERS: &[&str] = &["개", "번"];

/// Words a spelled number may stand before and still count as a number in an ambiguous spelling:
/// units and counted things (`do warps`, `이 바이트`), Hinglish copulas (`teen hai`).
const UNIT_WORDS: &[&str] = &[
    "sector",
    "sectors",
    "warp",
    "warps",
    "block",
    "blocks",
    "bank",
    "banks",
    "byte",
    "bytes",
    "b",
    "kb",
    "mb",
    "thread",
    "threads",
    "lane",
    "lanes",
    "register",
    "registers",
    "reg",
    "regs",
    "wavefront",
    "wavefronts",
    "wave",
    "waves",
    "way",
    "ways",
    "load",
    "loads",
    "cycle",
    "cycles",
    "conflict",
    "conflicts",
    "transaction",
    "transactions",
    "line",
    "lines",
    "read",
    "reads",
    "request",
    "requests",
    "instruction",
    "instructions",
    "times",
    "x",
    "guna",
    "%",
    "percent",
    "tile",
    "tiles",
    "hai",
    "hain",
    "hoga",
    "honge",
    "ctas",
    "cta",
    "vgprs",
    "per",
    "us",
    "ns",
    "ms",
    "s",
];

/// Whether `word` (lower case) is a unit, counter or context word after which a number in an
/// ambiguous spelling is read.
fn unit_after(word: Option<&str>) -> bool {
    let Some(word) = word else {
        return true;
    };
    let word = word.trim_matches(|c: char| c == '.' || c == ',' || c == '!' || c == ')');
    if word.is_empty() {
        return true;
    }
    if word.starts_with('(') || word.starts_with('/') {
        return true;
    }
    let stem = word.split(['/', '-']).next().unwrap_or(word);
    UNIT_WORDS.contains(&stem)
        || COUNTERS.iter().any(|c| word.starts_with(c))
        || crate::units::english_unit_word(word) != word
}

/// `text` with spelled-out numbers, words for powers of ten and written-out scientific notation
/// as digits: `thirty-two sectors` → `32 sectors`, `4.8 billion` → `4.8e9`, `서른두 개` → `32 개`,
/// `4.8 × 10^12 B/s` → `4.8e12 B/s`. What is not a number comes back as it was.
pub fn digits(text: &str) -> String {
    let text = times_ten(text);
    let text = korean_scales(&text);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    // Once a number is written in digits, words after it are its context (`4 bytes per char`,
    // `32 sectors, one per lane`), not another number.
    let mut seen_digits = false;
    while i < tokens.len() {
        if seen_digits {
            out.push(tokens[i].to_string());
            i += 1;
            continue;
        }
        // A number in digits followed by a word for a power of ten: `4.8 billion`, `2 lakh`.
        if let Some(power) = tokens.get(i + 1).and_then(|w| scale_of(&w.to_lowercase()))
            && is_decimal(tokens[i])
        {
            out.push(format!("{}e{power}", tokens[i]));
            i += 2;
            seen_digits = true;
            continue;
        }
        if let Some((value, taken)) = latin_run(&tokens[i..]) {
            out.push(value);
            i += taken;
            seen_digits = true;
            continue;
        }
        if let Some((value, rest, taken)) = korean_number(&tokens[i..]) {
            out.push(format!("{value}{rest}"));
            i += taken;
            seen_digits = true;
            continue;
        }
        seen_digits = tokens[i].chars().any(|c| c.is_ascii_digit());
        out.push(tokens[i].to_string());
        i += 1;
    }
    out.join(" ")
}

/// Whether `word` is a plain decimal number (`4.8`, `480`).
fn is_decimal(word: &str) -> bool {
    !word.is_empty()
        && word.chars().any(|c| c.is_ascii_digit())
        && word.chars().all(|c| c.is_ascii_digit() || c == '.')
        && word.matches('.').count() <= 1
}

fn scale_of(word: &str) -> Option<u32> {
    SCALES.iter().find(|(w, _)| *w == word).map(|(_, p)| *p)
}

/// `4.8 × 10^12`, `4.8x10^12`, `4.8 * 10**12`, `4.8·10¹²` → `4.8e12`.
fn times_ten(text: &str) -> String {
    let superscript = |c: char| "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|s| s == c);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let at_number_end = i > 0 && chars[i - 1].is_ascii_digit();
        if at_number_end {
            let mut j = i;
            while j < chars.len() && chars[j] == ' ' {
                j += 1;
            }
            let sign = chars.get(j).copied();
            if matches!(sign, Some('x' | 'X' | '×' | '*' | '·')) {
                let mut k = j + 1;
                while k < chars.len() && chars[k] == ' ' {
                    k += 1;
                }
                if chars.get(k) == Some(&'1') && chars.get(k + 1) == Some(&'0') {
                    let mut m = k + 2;
                    let caret = if chars.get(m) == Some(&'^') {
                        m += 1;
                        true
                    } else if chars.get(m) == Some(&'*') && chars.get(m + 1) == Some(&'*') {
                        m += 2;
                        true
                    } else {
                        false
                    };
                    let mut exponent = String::new();
                    if caret {
                        if matches!(chars.get(m), Some('-' | '−')) {
                            exponent.push('-');
                            m += 1;
                        }
                        while m < chars.len() && chars[m].is_ascii_digit() {
                            exponent.push(chars[m]);
                            m += 1;
                        }
                    } else {
                        if chars.get(m) == Some(&'⁻') {
                            exponent.push('-');
                            m += 1;
                        }
                        while let Some(d) = chars.get(m).and_then(|&c| superscript(c)) {
                            exponent.push(char::from(b'0' + d as u8));
                            m += 1;
                        }
                    }
                    if exponent.chars().any(|c| c.is_ascii_digit()) {
                        out.push('e');
                        out.push_str(&exponent);
                        i = m;
                        continue;
                    }
                }
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// `480만` → `480e4`, `4.8조` → `4.8e12`, `1억` → `1e8` (the rest of the word kept: `4.8조B/s`).
fn korean_scales(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let power = KOREAN_SCALES.iter().find(|(k, _)| *k == c).map(|(_, p)| *p);
        let after_digit = i > 0 && chars[i - 1].is_ascii_digit()
            || i > 1 && chars[i - 1] == ' ' && chars[i - 2].is_ascii_digit();
        match power {
            Some(power) if after_digit => {
                if out.ends_with(' ') {
                    out.pop();
                }
                out.push_str(&format!("e{power}"));
            }
            _ => out.push(c),
        }
    }
    out
}

/// A run of English or Hinglish number words at the start of `tokens` (hyphens split words:
/// `thirty-two`), as digits, with how many tokens it took.
fn latin_run(tokens: &[&str]) -> Option<(String, usize)> {
    let mut total: u64 = 0;
    let mut current: u64 = 0;
    let mut taken = 0;
    let mut words = 0;
    let mut last_ambiguous = false;
    let mut any = false;
    'tokens: for (t, token) in tokens.iter().enumerate() {
        let lower = token.to_lowercase();
        // A token may end in punctuation the parser reads (`thirty-two.`), not in other text.
        let clean = lower.trim_end_matches(['.', ',', '!']);
        let parts: Vec<&str> = clean.split('-').collect();
        if parts.iter().any(|p| p.is_empty()) {
            break;
        }
        let mut values = Vec::new();
        for part in &parts {
            if *part == "and" && any && parts.len() == 1 {
                values.push(None);
                continue;
            }
            match word_value(part) {
                Some(v) => values.push(Some(v)),
                None => break 'tokens,
            }
        }
        for (p, value) in values.into_iter().enumerate() {
            match value {
                None => {}
                Some(Word::Number(n)) => {
                    current += n;
                    any = true;
                    words += 1;
                    last_ambiguous = AMBIGUOUS.contains(&parts[p]);
                }
                Some(Word::Scale(power)) => {
                    if !any && current == 0 {
                        break 'tokens;
                    }
                    let factor = 10u64.pow(power);
                    if power == 2 {
                        current = current.max(1) * factor;
                    } else {
                        total += current.max(1) * factor;
                        current = 0;
                    }
                    any = true;
                    words += 1;
                    last_ambiguous = AMBIGUOUS.contains(&parts[p]);
                }
            }
        }
        taken = t + 1;
    }
    if !any || taken == 0 {
        return None;
    }
    // `and` cannot end a run.
    while taken > 0 && tokens[taken - 1].eq_ignore_ascii_case("and") {
        taken -= 1;
    }
    let next = tokens.get(taken).map(|w| w.to_lowercase());
    if words == 1 && last_ambiguous && !unit_after(next.as_deref()) {
        return None;
    }
    let trailing = tokens[taken - 1]
        .chars()
        .rev()
        .take_while(|c| matches!(c, '.' | ',' | '!'))
        .collect::<String>();
    Some((format!("{}{trailing}", total + current), taken))
}

enum Word {
    Number(u64),
    Scale(u32),
}

fn word_value(word: &str) -> Option<Word> {
    if let Some(power) = scale_of(word) {
        return Some(Word::Scale(power));
    }
    ENGLISH
        .iter()
        .chain(HINGLISH)
        .find(|(w, _)| *w == word)
        .map(|(_, v)| Word::Number(*v))
}

/// A Korean number at the start of `tokens`: a native (`서른둘`, `두 개`) or Sino-Korean numeral
/// (`삼십이`), the counter or unit attached to it kept (`두개` → `2`, `개`), with the tokens taken.
fn korean_number(tokens: &[&str]) -> Option<(u64, String, usize)> {
    let token = tokens.first()?;
    if !token.chars().next().is_some_and(crate::units::is_hangul) {
        return None;
    }
    let next = tokens.get(1).copied();
    let next_is_unit = next.is_some_and(|n| unit_after(Some(&n.to_lowercase())));
    // Split the token into a numeral and what is attached after it (a counter, a unit, a
    // particle): try the longest numeral first.
    let chars: Vec<char> = token.chars().collect();
    for end in (1..=chars.len()).rev() {
        let stem: String = chars[..end].iter().collect();
        let rest: String = chars[end..].iter().collect();
        let Some((value, kind)) = native(&stem).or_else(|| sino(&stem)) else {
            continue;
        };
        let attached_counter = !rest.is_empty()
            && (COUNTERS.iter().any(|c| rest.starts_with(c))
                || crate::units::english_unit_word(&rest) != rest);
        let ending = rest.is_empty() || is_ending(&rest);
        let before_unit = attached_counter || (ending && next_is_unit);
        let ok = match kind {
            // `하나`, `둘`, `서른둘`, `삼십이`: numbers on their own.
            Kind::Alone => attached_counter || ending,
            // `두`, `네`, `서른두`, and a lone Sino digit (`이`, `사`): only before a counter or unit.
            Kind::BeforeCounter => before_unit,
        };
        if !ok {
            return None;
        }
        let rest = if ending { String::new() } else { rest };
        return Some((value, rest, 1));
    }
    None
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A numeral that stands alone.
    Alone,
    /// A numeral read only before a counter or a unit.
    BeforeCounter,
}

/// Korean endings after a number said alone (`셋이요`, `하나입니다`).
fn is_ending(rest: &str) -> bool {
    matches!(
        rest,
        "입니다"
            | "이에요"
            | "예요"
            | "이요"
            | "요"
            | "이다"
            | "이"
            | "가"
            | "은"
            | "는"
            | "을"
            | "를"
    )
}

/// A native Korean numeral (1–99): `서른둘` (alone), `서른두` (before a counter).
fn native(stem: &str) -> Option<(u64, Kind)> {
    let (tens, rest) = NATIVE_TENS
        .iter()
        .filter_map(|(w, v)| stem.strip_prefix(w).map(|r| (*v, r)))
        .max_by_key(|(_, r)| std::cmp::Reverse(r.len()))
        .unwrap_or((0, stem));
    if rest.is_empty() {
        if tens == 0 {
            return None;
        }
        let kind = if stem == "스무" {
            Kind::BeforeCounter
        } else {
            Kind::Alone
        };
        return Some((tens, kind));
    }
    NATIVE_UNITS.iter().find_map(|(alone, before, v)| {
        if rest == *alone {
            Some((tens + v, Kind::Alone))
        } else if rest == *before {
            Some((tens + v, Kind::BeforeCounter))
        } else {
            None
        }
    })
}

/// A Sino-Korean numeral: `삼십이` (32), `백이십팔` (128), `이천사십팔` (2048). A single digit
/// syllable (`이`, `사`) is read only before a counter or a unit.
fn sino(stem: &str) -> Option<(u64, Kind)> {
    let digit = |c: char| SINO_DIGITS.iter().find(|(d, _)| *d == c).map(|(_, v)| *v);
    let place = |c: char| SINO_PLACES.iter().find(|(p, _)| *p == c).map(|(_, v)| *v);
    let chars: Vec<char> = stem.chars().collect();
    if chars.is_empty() {
        return None;
    }
    let mut total = 0;
    let mut pending: Option<u64> = None;
    let mut last_place = u64::MAX;
    for &c in &chars {
        if let Some(d) = digit(c) {
            if pending.is_some() {
                return None;
            }
            pending = Some(d);
        } else if let Some(p) = place(c) {
            if p >= last_place {
                return None;
            }
            last_place = p;
            total += pending.take().unwrap_or(1) * p;
        } else {
            return None;
        }
    }
    total += pending.unwrap_or(0);
    let kind = if chars.len() == 1 && digit(chars[0]).is_some() {
        Kind::BeforeCounter
    } else {
        Kind::Alone
    };
    Some((total, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_words() {
        let cases = [
            ("thirty-two", "32"),
            ("thirty two sectors", "32 sectors"),
            ("one hundred twenty-eight", "128"),
            ("one hundred and twenty-eight threads", "128 threads"),
            ("Sixteen warps", "16 warps"),
            ("zero", "0"),
            ("two thousand forty-eight B", "2048 B"),
            ("four.", "4."),
            ("bank twenty-eight", "bank 28"),
        ];
        for (typed, want) in cases {
            assert_eq!(digits(typed), want, "{typed}");
        }
    }

    #[test]
    fn hinglish_words() {
        let cases = [
            ("battis", "32"),
            ("battis sectors", "32 sectors"),
            ("do warps", "2 warps"),
            ("chaar hai", "4 hai"),
            ("ek sau atthais", "128"),
            ("do hazaar adtalis", "2048"),
            ("solah guna", "16 guna"),
            ("2 lakh", "2e5"),
            ("3 crore", "3e7"),
        ];
        for (typed, want) in cases {
            assert_eq!(digits(typed), want, "{typed}");
        }
    }

    #[test]
    fn hinglish_words_that_are_english_words_stay_words() {
        for typed in [
            "I do not know",
            "do the math",
            "teen spirit",
            "the bees are here",
        ] {
            assert_eq!(digits(typed), typed);
        }
    }

    #[test]
    fn korean_native_and_sino_numerals() {
        let cases = [
            ("하나", "1"),
            ("둘", "2"),
            ("셋이요", "3"),
            ("두 개", "2 개"),
            ("두개", "2개"),
            ("네 번", "4 번"),
            ("서른두 개", "32 개"),
            ("서른둘", "32"),
            ("섹터 서른두 개", "섹터 32 개"),
            ("열여섯 배", "16 배"),
            ("삼십이", "32"),
            ("백이십팔 바이트", "128 바이트"),
            ("이천사십팔", "2048"),
            ("이 바이트", "2 바이트"),
            ("사번", "4번"),
            ("480만", "480e4"),
            ("4.8조 B/s", "4.8e12 B/s"),
            ("1억", "1e8"),
        ];
        for (typed, want) in cases {
            assert_eq!(digits(typed), want, "{typed}");
        }
    }

    #[test]
    fn korean_words_that_are_not_numbers_stay() {
        for typed in [
            "이 값",
            "이",
            "네",
            "네, 맞아요",
            "두",
            "사이클",
            "구조",
            "공유 메모리",
            "일",
        ] {
            assert_eq!(digits(typed), typed, "{typed}");
        }
    }

    #[test]
    fn powers_of_ten() {
        let cases = [
            ("4.8 billion", "4.8e9"),
            ("1.07 billion", "1.07e9"),
            ("3 thousand", "3e3"),
            ("2.5 million", "2.5e6"),
            ("4.8 × 10^12", "4.8e12"),
            ("4.8x10^12 B/s", "4.8e12 B/s"),
            ("4.8 * 10**12", "4.8e12"),
            ("4.8·10¹²", "4.8e12"),
            ("8.39 × 10^-6 s", "8.39e-6 s"),
        ];
        for (typed, want) in cases {
            assert_eq!(digits(typed), want, "{typed}");
        }
        assert_eq!(digits("16x16"), "16x16", "a tile is not a power");
        assert_eq!(digits("4 bytes per char"), "4 bytes per char");
        assert_eq!(
            digits("32 sectors, one per lane"),
            "32 sectors, one per lane"
        );
        assert_eq!(digits("4.8 billion per second"), "4.8e9 per second");
        assert_eq!(digits("16 x 32"), "16 x 32");
    }
}
