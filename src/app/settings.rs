//! The tutor's own settings (`settings.ron`, beside `review.ron` in the config directory): the
//! language chosen on Home.
//!
//! ```text
//! (lang: "ko")
//! ```
//!
//! The language a session speaks is, in order: `--lang`, `WARPDRILL_LANG`, this file's, the locale
//! (`LC_ALL`, `LC_MESSAGES`, `LANG`), English.

use crate::i18n::{Lang, UnknownLang};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The settings file's name.
pub const FILE: &str = "settings.ron";

/// What the file holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The language set on Home (its tag: `en`, `hi-Latn`, `ko`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
}

/// What reading the file found.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    /// No file (or no config directory): nothing set.
    Missing,
    /// The file's settings.
    Read(Settings),
    /// The file could not be used; it was moved to `aside` (if it could be) and the defaults apply.
    Damaged {
        /// What is wrong with it.
        problem: String,
        /// Where the damaged file now is.
        aside: Option<PathBuf>,
    },
}

impl Loaded {
    /// The saved language, if one is set and known.
    pub fn lang(&self) -> Option<Lang> {
        match self {
            Loaded::Read(settings) => settings.lang.as_deref()?.parse().ok(),
            _ => None,
        }
    }
}

/// Where the settings live: the directory of `$WARPDRILL_CONFIG` (the review settings file), else
/// the platform config directory (`~/.config/warpdrill/settings.ron` on Linux).
pub fn path() -> Option<PathBuf> {
    let review = crate::srs::config::config_path(None)?;
    Some(review.parent().unwrap_or(Path::new(".")).join(FILE))
}

/// Reads the settings at `path`; a file that cannot be read as settings is kept aside (as
/// `settings.ron.damaged-<now>`) so the next save does not overwrite it, never a crash.
pub fn load(path: &Path, now: u64) -> Loaded {
    let text = match crate::store::read_regular_text(path, crate::store::MAX_SMALL_FILE) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::Missing,
        Err(e) => {
            return Loaded::Damaged {
                problem: e.to_string(),
                aside: None,
            };
        }
    };
    let problem = match options().from_str::<Settings>(&text) {
        Ok(settings) => match settings.lang.as_deref().map(str::parse::<Lang>) {
            Some(Err(e)) => e.to_string(),
            _ => return Loaded::Read(settings),
        },
        Err(e) => format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code),
    };
    Loaded::Damaged {
        problem,
        aside: crate::store::keep_aside(path, now).ok(),
    }
}

/// The language saved at `path`, read without changing anything (a damaged file gives none; the
/// tutor keeps it aside and says so when it starts).
pub fn peek(path: &Path) -> Option<Lang> {
    let text = crate::store::read_regular_text(path, crate::store::MAX_SMALL_FILE).ok()?;
    options()
        .from_str::<Settings>(&text)
        .ok()?
        .lang?
        .parse()
        .ok()
}

/// Saves the language at `path` (atomically; the directory is created if needed), keeping any other
/// setting the file holds.
pub fn save_lang(path: &Path, lang: Lang, now: u64) -> std::io::Result<()> {
    let mut settings = match load(path, now) {
        Loaded::Read(settings) => settings,
        _ => Settings::default(),
    };
    settings.lang = Some(lang.code().to_string());
    let text = options()
        .to_string_pretty(&settings, ron::ser::PrettyConfig::default())
        .map_err(std::io::Error::other)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    crate::store::write_atomic(path, format!("{text}\n").as_bytes())
}

/// How the file is read and written: `(lang: "ko")`, without `Some(…)`.
fn options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// The language to speak: `flag` (`--lang`), else `WARPDRILL_LANG`, else `saved` (the setting),
/// else the locale, else English. `env` looks a variable up.
pub fn choose(
    flag: Option<Lang>,
    saved: Option<Lang>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Lang, UnknownLang> {
    let variable_set = env("WARPDRILL_LANG").is_some_and(|v| !v.trim().is_empty());
    match (flag, saved) {
        (None, Some(saved)) if !variable_set => Ok(saved),
        _ => Lang::choose(flag, env),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    #[test]
    fn the_flag_beats_the_variable_beats_the_setting_beats_the_locale() {
        let ko = Some(Lang::Ko);
        let all = env(&[("WARPDRILL_LANG", "hi-Latn"), ("LANG", "en_US.UTF-8")]);
        assert_eq!(choose(Some(Lang::En), ko, &all), Ok(Lang::En));
        assert_eq!(choose(None, ko, &all), Ok(Lang::HiLatn));
        let locale = env(&[("LANG", "hi_IN.UTF-8")]);
        assert_eq!(choose(None, ko, &locale), Ok(Lang::Ko));
        assert_eq!(choose(None, None, &locale), Ok(Lang::HiLatn));
        assert_eq!(choose(None, None, env(&[])), Ok(Lang::En));
        let empty = env(&[("WARPDRILL_LANG", " ")]);
        assert_eq!(choose(None, ko, empty), Ok(Lang::Ko));
    }

    #[test]
    fn a_saved_language_reads_back_and_a_damaged_file_is_kept_aside() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path();
        let path = dir.join("sub").join(FILE);
        assert_eq!(load(&path, 5), Loaded::Missing);
        save_lang(&path, Lang::Ko, 5).unwrap();
        assert_eq!(load(&path, 5).lang(), Some(Lang::Ko));
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(written.contains("lang: \"ko\""), "{written}");
        std::fs::write(&path, "(lang: \"hi-Latn\")").unwrap();
        assert_eq!(peek(&path), Some(Lang::HiLatn), "written by hand");
        std::fs::write(&path, "(lang: \"klingon\")").unwrap();
        let Loaded::Damaged { problem, aside } = load(&path, 6) else {
            panic!("an unknown language is reported")
        };
        assert!(problem.contains("klingon"), "{problem}");
        let aside = aside.expect("kept aside");
        assert!(aside.exists() && !path.exists());
        std::fs::write(&path, "(lang: ").unwrap();
        assert!(matches!(
            load(&path, 7),
            Loaded::Damaged { aside: Some(_), .. }
        ));
        save_lang(&path, Lang::HiLatn, 8).unwrap();
        assert_eq!(load(&path, 8).lang(), Some(Lang::HiLatn));
    }
}
