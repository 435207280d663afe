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

/// The message ids each folder of `locales/` defines, sorted (listed when the crate is built).
const MESSAGE_IDS: &[(&str, &[&str])] = include!(concat!(env!("OUT_DIR"), "/message_ids.rs"));

/// Whether `lang`'s own Fluent files define message `id` (without falling back to English).
pub fn has_message(lang: Lang, id: &str) -> bool {
    MESSAGE_IDS
        .iter()
        .find(|(code, _)| *code == lang.code())
        .is_some_and(|(_, ids)| ids.binary_search(&id).is_ok())
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

/// Declares [`Lang`] and everything that tells one language from another, from one line per
/// language: variant, tag (also the folder of its Fluent files and content translations), Fluent
/// identifier, name in itself, name in English, the POSIX locale languages that choose it, and
/// the other spellings `--lang` accepts. A new language is one more line here, its `locales/<tag>/`
/// folder and its content translations.
macro_rules! languages {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $code:literal, $native:literal, $english:literal,
            locales [$($locale:literal),*], aliases [$($alias:literal),*];
    )+) => {
        /// A language of the tutor.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub enum Lang {
            $($(#[$doc])* $variant,)+
        }

        impl Lang {
            /// Every language, English first.
            pub const ALL: [Lang; [$(stringify!($variant)),+].len()] = [$(Lang::$variant),+];

            /// The language's tag: `en`, `hi-Latn`, `ko` (also the folder name of its translations).
            pub fn code(self) -> &'static str {
                match self {
                    $(Lang::$variant => $code,)+
                }
            }

            /// The Fluent language identifier.
            pub fn langid(self) -> &'static LanguageIdentifier {
                match self {
                    $(Lang::$variant => {
                        static ID: LanguageIdentifier = langid!($code);
                        &ID
                    })+
                }
            }

            /// The language's name in itself, as a setting lists it.
            pub fn native_name(self) -> &'static str {
                match self {
                    $(Lang::$variant => $native,)+
                }
            }

            /// The language's name in English.
            pub fn english_name(self) -> &'static str {
                match self {
                    $(Lang::$variant => $english,)+
                }
            }

            /// The language of a POSIX locale's language part (`ko`, `hi`, `c`), if it is one of ours.
            fn of_locale_language(language: &str) -> Option<Lang> {
                match language {
                    $($($locale)|* => Some(Lang::$variant),)+
                    _ => None,
                }
            }

            /// The language of a lower-case tag or other spelling (`hi-latn`, `korean`).
            fn of_spelling(spelling: &str) -> Option<Lang> {
                $(
                    if spelling == $code.to_ascii_lowercase()
                        $(|| spelling == $alias)*
                    {
                        return Some(Lang::$variant);
                    }
                )+
                None
            }
        }
    };
}

languages! {
    /// English.
    #[default]
    En = "en", "English", "English", locales ["en", "c", "posix"], aliases ["english"];
    /// Hinglish: Hindi in Latin script.
    HiLatn = "hi-Latn", "Hinglish", "Hinglish", locales ["hi"], aliases ["hi", "hinglish", "hi-in"];
    /// Korean.
    Ko = "ko", "한국어", "Korean", locales ["ko"], aliases ["ko-kr", "korean", "한국어"];
}

impl Lang {
    /// The next language, for a setting that cycles.
    pub fn next(self) -> Lang {
        let at = Lang::ALL.iter().position(|&l| l == self).unwrap_or(0);
        Lang::ALL[(at + 1) % Lang::ALL.len()]
    }

    /// Every language as `en (English), hi-Latn (Hinglish) and ko (Korean)`.
    pub fn listed() -> String {
        let names: Vec<String> = Lang::ALL
            .iter()
            .map(|l| format!("{} ({})", l.code(), l.english_name()))
            .collect();
        match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
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
        Lang::of_locale_language(language)
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
#[error("unknown language `{0}`: warpdrill speaks {langs}", langs = Lang::listed())]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;

    /// Reads a tag or another spelling, in any case, `_` for `-`: `en`, `hi-Latn` (also `hi`,
    /// `hinglish`), `ko` (also `ko-KR`, `korean`); `en-…` is English.
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        let t = s.trim().to_ascii_lowercase().replace('_', "-");
        Lang::of_spelling(&t)
            .or_else(|| t.starts_with("en-").then_some(Lang::En))
            .ok_or_else(|| UnknownLang(s.trim().to_string()))
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
