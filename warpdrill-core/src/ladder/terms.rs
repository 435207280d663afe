//! A term answered the way people say it: inside a sentence (`it is shared memory`, Hinglish
//! `memory bound hai`, Korean `공유 메모리입니다`), with its full name or a gloss in brackets
//! (`LDS (local data share)`), or in the learner's language (`레지스터` for registers). The
//! grader reads the forms [`forms`] gives as well as what was typed.

/// Words that only frame an answer, removed from its start: `it is`, `the answer is`, `ye`…
const LEADING: &[&str] = &[
    "the answer is",
    "answer is",
    "answer:",
    "i think it is",
    "i think it's",
    "i think",
    "it is",
    "it's",
    "its",
    "that is",
    "this is",
    "they are",
    "it uses",
    "ye",
    "yeh",
    "ye hai",
    "answer hai",
    "정답은",
    "답은",
    "바로",
];

/// Words that only frame an answer, removed from its end: Hinglish copulas (`coalescing hota
/// hai`, `memory bound hai`).
const TRAILING: &[&str] = &[
    "hota hai",
    "hoti hai",
    "hote hain",
    "hoga",
    "hogi",
    "hai",
    "hain",
    "use hota hai",
    "kehte hain",
    "hai na",
];

/// Korean endings on the last word (`레지스터입니다`, `공유 메모리요`).
const KOREAN_ENDINGS: &[&str] = &[
    "입니다",
    "이에요",
    "예요",
    "이요",
    "이다",
    "요",
    "이",
    "가",
    "을",
    "를",
    "은",
    "는",
    "라고",
];

/// Korean and Hinglish words for the terms the exercises ask about, with the English term
/// (longest first where one contains another).
const TERMS: &[(&str, &str)] = &[
    ("공유 메모리", "shared memory"),
    ("공유메모리", "shared memory"),
    ("셰어드 메모리", "shared memory"),
    ("쉐어드 메모리", "shared memory"),
    ("전역 메모리", "global memory"),
    ("글로벌 메모리", "global memory"),
    ("디바이스 메모리", "device memory"),
    ("로컬 메모리", "local memory"),
    ("지역 메모리", "local memory"),
    ("상수 메모리", "constant memory"),
    ("텍스처 캐시", "texture cache"),
    ("텍스쳐 캐시", "texture cache"),
    ("메모리 바운드", "memory-bound"),
    ("메모리 병목", "memory-bound"),
    ("메모리 한계", "memory-bound"),
    ("컴퓨트 바운드", "compute-bound"),
    ("연산 바운드", "compute-bound"),
    ("계산 바운드", "compute-bound"),
    ("연산 병목", "compute-bound"),
    ("메모리 병합", "coalescing"),
    ("코얼레싱", "coalescing"),
    ("코알레싱", "coalescing"),
    ("뱅크 충돌", "bank conflict"),
    ("브로드캐스트", "broadcast"),
    ("레지스터", "registers"),
    ("캐시", "cache"),
    ("워프", "warps"),
    ("블록", "blocks"),
    ("스레드", "threads"),
];

/// The forms of `typed` to read a term from, the text as typed first: framing words removed
/// (`it is shared memory` → `shared memory`), Korean and Hinglish terms in English (`레지스터` →
/// `registers`), and a bracketed gloss split off (`LDS (local data share)` → `LDS` and `local data
/// share`, returned as [`Forms::outside`] and [`Forms::inside`]).
pub fn forms(typed: &str) -> Forms {
    let (outside, inside) = match (typed.find('('), typed.rfind(')')) {
        (Some(open), Some(close)) if open < close && open > 0 => (
            format!("{} {}", &typed[..open], &typed[close + 1..]),
            Some(typed[open + 1..close].to_string()),
        ),
        _ => (typed.to_string(), None),
    };
    let outside = plain(&outside);
    Forms {
        whole: plain(typed),
        inside: inside
            .map(|i| plain(&i))
            .filter(|i| !i.is_empty() && *i != outside),
        outside,
    }
}

/// The forms of one typed answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forms {
    /// The whole answer, framing removed and terms in English.
    pub whole: String,
    /// Outside a bracketed gloss (the whole answer when there is none).
    pub outside: String,
    /// The bracketed gloss, if any.
    pub inside: Option<String>,
}

/// `text` without framing words, its last word without a Korean ending, and local terms in English.
fn plain(text: &str) -> String {
    let mut words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | '!' | '?' | ',' | '"' | '“' | '”')))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    for word in &mut words {
        if word.chars().any(crate::units::is_hangul) {
            for ending in KOREAN_ENDINGS {
                if let Some(stem) = word.strip_suffix(ending)
                    && !stem.is_empty()
                    && TERMS
                        .iter()
                        .any(|(local, _)| local.ends_with(stem) || local.contains(stem))
                {
                    *word = stem.to_string();
                    break;
                }
            }
        }
    }
    let mut joined = words.join(" ");
    let lower = joined.to_lowercase();
    if let Some(lead) = LEADING
        .iter()
        .filter(|l| lower.starts_with(&format!("{l} ")))
        .max_by_key(|l| l.len())
    {
        joined = joined[lead.len()..].trim().to_string();
    }
    let lower = joined.to_lowercase();
    if let Some(tail) = TRAILING
        .iter()
        .filter(|t| lower.ends_with(&format!(" {t}")))
        .max_by_key(|t| t.len())
    {
        joined = joined[..joined.len() - tail.len()].trim().to_string();
    }
    for (local, english) in TERMS {
        if joined.contains(local) {
            joined = joined.replace(local, english);
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_and_glosses() {
        assert_eq!(forms("it is shared memory").whole, "shared memory");
        assert_eq!(forms("The answer is global memory.").whole, "global memory");
        assert_eq!(forms("memory bound hai").whole, "memory bound");
        assert_eq!(forms("coalescing hota hai").whole, "coalescing");
        let lds = forms("LDS (local data share)");
        assert_eq!(lds.outside, "LDS");
        assert_eq!(lds.inside.as_deref(), Some("local data share"));
        assert_eq!(forms("(b)").inside, None);
    }

    #[test]
    fn korean_terms_in_english() {
        assert_eq!(forms("레지스터").whole, "registers");
        assert_eq!(forms("레지스터입니다").whole, "registers");
        assert_eq!(forms("공유 메모리요").whole, "shared memory");
        assert_eq!(forms("메모리 바운드").whole, "memory-bound");
        assert_eq!(forms("코얼레싱이요").whole, "coalescing");
        assert_eq!(forms("바로 전역 메모리").whole, "global memory");
    }

    #[test]
    fn other_text_is_left_alone() {
        assert_eq!(forms("shared memory").whole, "shared memory");
        assert_eq!(forms("not shared memory").whole, "not shared memory");
        assert_eq!(forms("b").whole, "b");
    }
}
