//! The languages warpdrill speaks, and how the one to use is chosen.
//!
//! English (`en`), Hinglish (`hi-Latn`: Hindi written in Latin script, with the English technical
//! terms) and Korean (`ko`). The choice is, in order: the `--lang` flag, `WARPDRILL_LANG`, the
//! locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use fluent_templates::{LanguageIdentifier, Loader, langid};

fluent_templates::static_loader! {
    // Every `locales/<lang>/*.ftl` file, embedded in the binary. Missing messages fall back to English.
    static LOCALES = {
        locales: "../locales",
        fallback_language: "en",
        // No Unicode isolation marks around arguments: a terminal would draw them as odd glyphs.
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

static EN: LanguageIdentifier = langid!("en");
static HI_LATN: LanguageIdentifier = langid!("hi-Latn");
static KO: LanguageIdentifier = langid!("ko");

/// The UI text of message `id` in `lang` (Fluent, `locales/<lang>/*.ftl`), falling back to English,
/// and to the id itself if no bundle has it (a test checks that every id used exists in all three).
pub fn tr(lang: Lang, id: &str) -> String {
    LOCALES
        .try_lookup(lang.langid(), id)
        .unwrap_or_else(|| id.to_string())
}

/// [`tr`] with arguments: `tr_args(lang, "count-sectors", &[("n", 3.into())])`. Numbers passed as
/// numbers get the language's plural rules.
pub fn tr_args(lang: Lang, id: &str, args: &[(&'static str, FluentValue<'_>)]) -> String {
    let map: HashMap<Cow<'static, str>, FluentValue<'_>> = args
        .iter()
        .map(|(k, v)| (Cow::Borrowed(*k), v.clone()))
        .collect();
    LOCALES
        .try_lookup_with_args(lang.langid(), id, &map)
        .unwrap_or_else(|| id.to_string())
}

/// Whether `lang`'s own bundle has message `id` (without falling back to English). A message
/// that needs arguments is there too, although formatting it without them reports errors.
pub fn has_message(lang: Lang, id: &str) -> bool {
    // (The loader's error type is not exported: its variant is told by name.)
    match LOCALES.lookup_single_language::<&str>(lang.langid(), id, None) {
        Ok(_) => true,
        Err(e) => format!("{e:?}").starts_with("FluentError"),
    }
}

/// A UI text: `t!(lang, "id")` or `t!(lang, "id", n = 3, name = "x")`.
#[macro_export]
macro_rules! t {
    ($lang:expr, $id:literal) => {
        $crate::i18n::tr($lang, $id)
    };
    ($lang:expr, $id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::tr_args(
            $lang,
            $id,
            &[$((stringify!($name), $crate::i18n::FluentValue::from($value))),+],
        )
    };
}

#[doc(hidden)]
pub use fluent_templates::fluent_bundle::FluentValue;

/// A language of the tutor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Hinglish: Hindi in Latin script.
    HiLatn,
    /// Korean.
    Ko,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::HiLatn, Lang::Ko];

    /// The language's tag: `en`, `hi-Latn`, `ko` (also the folder name of its translations).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::HiLatn => "hi-Latn",
            Lang::Ko => "ko",
        }
    }

    /// The Fluent language identifier.
    pub fn langid(self) -> &'static LanguageIdentifier {
        match self {
            Lang::En => &EN,
            Lang::HiLatn => &HI_LATN,
            Lang::Ko => &KO,
        }
    }

    /// The language's name in itself, as a setting lists it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::HiLatn => "Hinglish",
            Lang::Ko => "한국어",
        }
    }

    /// The next language, for a setting that cycles.
    pub fn next(self) -> Lang {
        match self {
            Lang::En => Lang::HiLatn,
            Lang::HiLatn => Lang::Ko,
            Lang::Ko => Lang::En,
        }
    }

    /// The language of a POSIX locale value (`ko_KR.UTF-8`, `hi_IN`, `C`), if it is one of ours.
    /// `C` and `POSIX` are English.
    pub fn from_locale(value: &str) -> Option<Lang> {
        let value = value.trim();
        if value.is_empty() {
            return None;
        }
        let base = value
            .split(['.', '@'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let language = base.split(['_', '-']).next().unwrap_or_default();
        match language {
            "ko" => Some(Lang::Ko),
            "hi" => Some(Lang::HiLatn),
            "en" | "c" | "posix" => Some(Lang::En),
            _ => None,
        }
    }

    /// Chooses the language: `flag`, else `WARPDRILL_LANG`, else the first set locale variable of
    /// `LC_ALL`, `LC_MESSAGES`, `LANG` (as POSIX reads them: the first non-empty one decides),
    /// else English. `env` looks a variable up (the process environment in the program, a map in
    /// tests). An unknown `WARPDRILL_LANG` is an error, so a typo is not silently English.
    pub fn choose(
        flag: Option<Lang>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Lang, UnknownLang> {
        if let Some(lang) = flag {
            return Ok(lang);
        }
        if let Some(value) = env("WARPDRILL_LANG").filter(|v| !v.trim().is_empty()) {
            return value.parse();
        }
        for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Some(value) = env(var).filter(|v| !v.trim().is_empty()) {
                return Ok(Lang::from_locale(&value).unwrap_or(Lang::En));
            }
        }
        Ok(Lang::En)
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language tag warpdrill does not speak.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown language `{0}`: warpdrill speaks en (English), hi-Latn (Hinglish) and ko (Korean)"
)]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;

    /// Reads `en`, `hi-Latn` (also `hi`, `hinglish`, `hi_Latn`), `ko` (also `ko-KR`, `korean`),
    /// in any case.
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        let t = s.trim().to_ascii_lowercase().replace('_', "-");
        match t.as_str() {
            "en" | "english" => Ok(Lang::En),
            "hi-latn" | "hi" | "hinglish" | "hi-in" => Ok(Lang::HiLatn),
            "ko" | "ko-kr" | "korean" | "한국어" => Ok(Lang::Ko),
            _ if t.starts_with("en-") => Ok(Lang::En),
            _ => Err(UnknownLang(s.trim().to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn the_flag_wins_then_the_variable_then_the_locale() {
        let all = env(&[
            ("WARPDRILL_LANG", "ko"),
            ("LC_ALL", "hi_IN.UTF-8"),
            ("LANG", "en_US.UTF-8"),
        ]);
        assert_eq!(Lang::choose(Some(Lang::En), &all), Ok(Lang::En));
        assert_eq!(Lang::choose(None, &all), Ok(Lang::Ko));
        let locale = env(&[("LC_ALL", "hi_IN.UTF-8"), ("LANG", "ko_KR.UTF-8")]);
        assert_eq!(Lang::choose(None, &locale), Ok(Lang::HiLatn));
        let messages = env(&[("LC_MESSAGES", "ko_KR.UTF-8"), ("LANG", "en_GB")]);
        assert_eq!(Lang::choose(None, &messages), Ok(Lang::Ko));
        assert_eq!(Lang::choose(None, env(&[])), Ok(Lang::En));
    }

    #[test]
    fn the_first_set_locale_variable_decides_even_when_it_is_not_ours() {
        let e = env(&[("LC_ALL", "de_DE.UTF-8"), ("LANG", "ko_KR.UTF-8")]);
        assert_eq!(Lang::choose(None, e), Ok(Lang::En));
        let empty = env(&[("LC_ALL", ""), ("LANG", "ko_KR.UTF-8")]);
        assert_eq!(Lang::choose(None, empty), Ok(Lang::Ko));
    }

    #[test]
    fn an_unknown_variable_is_an_error_not_english() {
        let e = env(&[("WARPDRILL_LANG", "klingon")]);
        assert!(Lang::choose(None, e).is_err());
    }

    #[test]
    fn plurals_follow_each_language() {
        assert_eq!(crate::t!(Lang::En, "count-sectors", n = 1), "1 sector");
        assert_eq!(crate::t!(Lang::En, "count-sectors", n = 4), "4 sectors");
        assert_eq!(crate::t!(Lang::Ko, "count-sectors", n = 1), "sector 1개");
        assert_eq!(crate::t!(Lang::Ko, "count-sectors", n = 4), "sector 4개");
        // Hinglish counts in English nouns, so English's plural: Hindi's rule would make 0 singular.
        for (n, said) in [(0, "0 sectors"), (1, "1 sector"), (2, "2 sectors")] {
            assert_eq!(crate::t!(Lang::HiLatn, "count-sectors", n = n), said);
        }
        assert_eq!(
            crate::t!(Lang::HiLatn, "cli-content-problems", n = 0)
                .split(" —")
                .next(),
            Some("0 content problems")
        );
    }

    #[test]
    fn a_missing_message_falls_back_to_english_then_to_its_id() {
        assert_eq!(tr(Lang::Ko, "no-such-message"), "no-such-message");
        assert!(has_message(Lang::Ko, "lang-setting"));
        assert!(!has_message(Lang::Ko, "no-such-message"));
        assert!(
            has_message(Lang::Ko, "lang-switched"),
            "a message with a variable is there"
        );
    }

    #[test]
    fn tags_read_back() {
        for lang in Lang::ALL {
            assert_eq!(lang.code().parse::<Lang>(), Ok(lang));
        }
        assert_eq!("KO_kr".parse::<Lang>(), Ok(Lang::Ko));
        assert_eq!("hi_Latn".parse::<Lang>(), Ok(Lang::HiLatn));
        assert!("fr".parse::<Lang>().is_err());
    }
}
