//! Review settings: a small RON file in the platform config directory (`review.ron`), overridable by
//! command-line flags.
//!
//! ```ron
//! (
//!   desired_retention: 0.90,
//!   new_per_day: 20,
//!   reviews_per_day: 200,
//!   learning_steps: ["1m", "10m"],
//!   relearning_steps: ["10m"],
//!   day_start_hour: 4,
//!   topic_retention: {"banks": 0.85},
//!   load_balance: true,
//!   easy_days: {"sat": 0.5, "sun": 0.0},
//! )
//! ```

use super::SrsError;
use super::clock::DayRule;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The settings file, as written by the learner. Every field may be left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewConfig {
    /// Probability of recall the scheduler aims for at each review (0.70–0.99).
    pub desired_retention: f32,
    /// New cards introduced per day.
    pub new_per_day: u32,
    /// Review cards shown per day at most.
    pub reviews_per_day: u32,
    /// Delays between the first showings of a new card, same day: `["1m", "10m"]`.
    pub learning_steps: Vec<String>,
    /// Delays after a forgotten review card: `["10m"]`.
    pub relearning_steps: Vec<String>,
    /// Hour of local time at which a new day begins (0–23).
    pub day_start_hour: u8,
    /// A right drill answer within this many seconds proposes Easy.
    pub drill_fast_secs: u32,
    /// A right drill answer after this many seconds proposes Hard.
    pub drill_slow_secs: u32,
    /// Desired retention of the cards of a topic, where it differs from `desired_retention`:
    /// `{"banks": 0.85}`.
    pub topic_retention: BTreeMap<String, f32>,
    /// Spread review intervals over the days of their fuzz range toward the days with the fewest
    /// reviews due, as Anki's load balancer does.
    pub load_balance: bool,
    /// Weekdays that take less than a normal day's load, and how much of it (0.0–1.0):
    /// `{"sat": 0.5, "sun": 0.0}`. Needs `load_balance`.
    pub easy_days: BTreeMap<String, f32>,
}

impl Default for ReviewConfig {
    fn default() -> Self {
        ReviewConfig {
            desired_retention: 0.90,
            new_per_day: 20,
            reviews_per_day: 200,
            learning_steps: vec!["1m".into(), "10m".into()],
            relearning_steps: vec!["10m".into()],
            day_start_hour: 4,
            drill_fast_secs: 15,
            drill_slow_secs: 60,
            topic_retention: BTreeMap::new(),
            load_balance: true,
            easy_days: BTreeMap::new(),
        }
    }
}

/// Values given on the command line, each replacing the file's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    /// `--retention`.
    pub desired_retention: Option<f32>,
    /// `--new-per-day`.
    pub new_per_day: Option<u32>,
    /// `--reviews-per-day`.
    pub reviews_per_day: Option<u32>,
    /// `--learning-steps "1m 10m"`.
    pub learning_steps: Option<Vec<String>>,
    /// `--relearning-steps "10m"`.
    pub relearning_steps: Option<Vec<String>>,
    /// `--day-start`.
    pub day_start_hour: Option<u8>,
}

/// The settings checked and in the units the scheduler uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Desired retention.
    pub desired_retention: f32,
    /// New cards per day.
    pub new_per_day: u32,
    /// Reviews per day.
    pub reviews_per_day: u32,
    /// Learning steps in seconds, each under a day.
    pub learning_steps: Vec<i64>,
    /// Relearning steps in seconds, each under a day.
    pub relearning_steps: Vec<i64>,
    /// When the day turns.
    pub day: DayRule,
    /// Right within this many milliseconds → Easy.
    pub drill_fast_ms: u64,
    /// Right after this many milliseconds → Hard.
    pub drill_slow_ms: u64,
    /// Desired retention per topic, where it differs.
    pub topic_retention: BTreeMap<String, f32>,
    /// Review intervals are load-balanced.
    pub load_balance: bool,
    /// Each weekday's share of a normal day's load, Monday first.
    pub easy_days: [f32; 7],
}

/// The weekdays as `easy_days` names them, Monday first.
pub const WEEKDAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

impl Settings {
    /// The desired retention of a card of `topic`.
    pub fn retention_for(&self, topic: &str) -> f32 {
        self.topic_retention
            .get(topic)
            .copied()
            .unwrap_or(self.desired_retention)
    }
}

impl Default for Settings {
    fn default() -> Self {
        // The defaults are valid by construction; a failure would be caught by the tests.
        ReviewConfig::default()
            .settings()
            .unwrap_or_else(|_| Settings {
                desired_retention: 0.9,
                new_per_day: 20,
                reviews_per_day: 200,
                learning_steps: vec![60, 600],
                relearning_steps: vec![600],
                day: DayRule { start_hour: 4 },
                drill_fast_ms: 15_000,
                drill_slow_ms: 60_000,
                topic_retention: BTreeMap::new(),
                load_balance: true,
                easy_days: [1.0; 7],
            })
    }
}

/// What loading the settings found.
#[derive(Debug, Clone)]
pub struct LoadedConfig {
    /// The settings (defaults where the file is missing or unusable).
    pub config: ReviewConfig,
    /// The file read, if any.
    pub path: Option<PathBuf>,
    /// A message for the learner (the file could not be used).
    pub notice: Option<String>,
}

/// The settings file: `flag`, else `$WARPDRILL_CONFIG`, else `review.ron` in the platform config
/// directory (`~/.config/warpdrill/review.ron` on Linux).
pub fn config_path(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(path) = flag {
        return Some(path.to_path_buf());
    }
    if let Some(path) = std::env::var_os("WARPDRILL_CONFIG").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(path));
    }
    directories::ProjectDirs::from("", "", "warpdrill")
        .map(|dirs| dirs.config_dir().join("review.ron"))
}

impl ReviewConfig {
    /// Reads the settings at `path`; a missing file gives the defaults, an unreadable one the
    /// defaults and a notice.
    pub fn load(path: Option<&Path>) -> LoadedConfig {
        let Some(path) = path else {
            return LoadedConfig {
                config: ReviewConfig::default(),
                path: None,
                notice: None,
            };
        };
        let text = match crate::store::read_regular_text(path, crate::store::MAX_SMALL_FILE) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return LoadedConfig {
                    config: ReviewConfig::default(),
                    path: None,
                    notice: None,
                };
            }
            Err(e) => {
                return LoadedConfig {
                    config: ReviewConfig::default(),
                    path: Some(path.to_path_buf()),
                    notice: Some(format!(
                        "Could not read {} ({e}); the default review settings are used.",
                        path.display()
                    )),
                };
            }
        };
        match ron::from_str::<ReviewConfig>(&text) {
            Ok(config) => LoadedConfig {
                config,
                path: Some(path.to_path_buf()),
                notice: None,
            },
            Err(e) => LoadedConfig {
                config: ReviewConfig::default(),
                path: Some(path.to_path_buf()),
                notice: Some(format!(
                    "{}:{}:{}: {} — the default review settings are used until it is fixed.",
                    path.display(),
                    e.span.start.line,
                    e.span.start.col,
                    e.code
                )),
            },
        }
    }

    /// The file's values with the flags' on top.
    pub fn with(mut self, overrides: &Overrides) -> ReviewConfig {
        if let Some(v) = overrides.desired_retention {
            self.desired_retention = v;
        }
        if let Some(v) = overrides.new_per_day {
            self.new_per_day = v;
        }
        if let Some(v) = overrides.reviews_per_day {
            self.reviews_per_day = v;
        }
        if let Some(v) = &overrides.learning_steps {
            self.learning_steps = v.clone();
        }
        if let Some(v) = &overrides.relearning_steps {
            self.relearning_steps = v.clone();
        }
        if let Some(v) = overrides.day_start_hour {
            self.day_start_hour = v;
        }
        self
    }

    /// Checks every value and converts the steps to seconds.
    pub fn settings(&self) -> Result<Settings, SrsError> {
        if !(0.70..=0.99).contains(&self.desired_retention) {
            return Err(SrsError::Config(format!(
                "desired retention {} is outside 0.70–0.99",
                self.desired_retention
            )));
        }
        if self.day_start_hour > 23 {
            return Err(SrsError::Config(format!(
                "day_start_hour {} is not an hour (0–23)",
                self.day_start_hour
            )));
        }
        for (topic, &retention) in &self.topic_retention {
            if !(0.70..=0.99).contains(&retention) {
                return Err(SrsError::Config(format!(
                    "topic_retention of `{topic}` is {retention}, outside 0.70–0.99"
                )));
            }
        }
        let mut easy_days = [1.0f32; 7];
        for (name, &share) in &self.easy_days {
            let key = name.trim().to_ascii_lowercase();
            let Some(day) = weekday_of(&key) else {
                return Err(SrsError::Config(format!(
                    "easy_days: `{name}` is not a weekday — write mon, tue, wed, thu, fri, sat or sun"
                )));
            };
            if !(0.0..=1.0).contains(&share) {
                return Err(SrsError::Config(format!(
                    "easy_days: `{name}` is {share}; a day's share of the load is 0.0 (none) to 1.0 \
                     (a normal day), e.g. 0.5"
                )));
            }
            easy_days[day] = share;
        }
        if easy_days.iter().all(|&share| share == 0.0) {
            return Err(SrsError::Config(
                "easy_days leaves no day for reviews: give at least one weekday a share above 0"
                    .into(),
            ));
        }
        if self.drill_fast_secs >= self.drill_slow_secs {
            return Err(SrsError::Config(format!(
                "drill_fast_secs ({}) must be below drill_slow_secs ({})",
                self.drill_fast_secs, self.drill_slow_secs
            )));
        }
        Ok(Settings {
            desired_retention: self.desired_retention,
            new_per_day: self.new_per_day,
            reviews_per_day: self.reviews_per_day,
            learning_steps: steps("learning", &self.learning_steps)?,
            relearning_steps: steps("relearning", &self.relearning_steps)?,
            day: DayRule {
                start_hour: self.day_start_hour,
            },
            drill_fast_ms: u64::from(self.drill_fast_secs) * 1000,
            drill_slow_ms: u64::from(self.drill_slow_secs) * 1000,
            topic_retention: self.topic_retention.clone(),
            load_balance: self.load_balance,
            easy_days,
        })
    }
}

/// The weekday (Monday 0) that `key` (lower case) names: `mon` or `monday`.
fn weekday_of(key: &str) -> Option<usize> {
    const LONG: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    (0..7).find(|&d| key == WEEKDAYS[d] || key == LONG[d])
}

fn steps(which: &str, list: &[String]) -> Result<Vec<i64>, SrsError> {
    list.iter()
        .map(|text| {
            let secs = parse_step(text).ok_or_else(|| {
                SrsError::Config(format!(
                    "{which} step `{text}` is not a delay: write it as `30s`, `10m` or `2h`"
                ))
            })?;
            if secs >= 86_400 {
                Err(SrsError::Config(format!(
                    "{which} step `{text}` is a day or more: steps are for the same day, and FSRS \
                     schedules everything from a day on — remove it or make it shorter"
                )))
            } else {
                Ok(secs)
            }
        })
        .collect()
}

/// Reads a delay: `30s`, `10m`, `1.5h`, `2d` (a bare number is minutes, as in Anki). Seconds.
pub fn parse_step(text: &str) -> Option<i64> {
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(at) => t.split_at(at),
        None => (t, "m"),
    };
    let value: f64 = number.trim().parse().ok()?;
    let scale = match unit.trim() {
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        "d" => 86_400.0,
        _ => return None,
    };
    let secs = (value * scale).round();
    (value.is_finite() && value > 0.0 && (1.0..1e9).contains(&secs)).then_some(secs as i64)
}

/// Splits `"1m 10m"` or `"1m,10m"` into steps (`""` is no steps).
pub fn split_steps(text: &str) -> Vec<String> {
    text.split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_anki_s() {
        let s = ReviewConfig::default().settings().unwrap();
        assert_eq!(s.learning_steps, vec![60, 600]);
        assert_eq!(s.relearning_steps, vec![600]);
        assert_eq!(s.day.start_hour, 4);
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn a_step_of_a_day_is_refused_with_a_message() {
        let config = ReviewConfig::default().with(&Overrides {
            learning_steps: Some(split_steps("10m 1d")),
            ..Overrides::default()
        });
        let message = config.settings().unwrap_err().to_string();
        assert!(message.contains("`1d` is a day or more"), "{message}");
        assert!(
            ReviewConfig {
                learning_steps: vec!["25h".into()],
                ..ReviewConfig::default()
            }
            .settings()
            .is_err()
        );
        assert!(
            ReviewConfig {
                learning_steps: vec!["soon".into()],
                ..ReviewConfig::default()
            }
            .settings()
            .is_err()
        );
    }

    #[test]
    fn topic_retention_and_easy_days_are_read_and_checked() {
        let config: ReviewConfig = ron::from_str(
            r#"(topic_retention: {"banks": 0.85}, easy_days: {"sat": 0.5, "Sunday": 0.0})"#,
        )
        .unwrap();
        let s = config.settings().unwrap();
        assert_eq!(s.retention_for("banks"), 0.85);
        assert_eq!(s.retention_for("coalescing"), 0.90);
        assert_eq!(s.easy_days, [1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0]);
        assert!(s.load_balance);
        for (bad, says) in [
            (r#"(topic_retention: {"banks": 0.5})"#, "outside 0.70–0.99"),
            (r#"(easy_days: {"caturday": 0.5})"#, "not a weekday"),
            (r#"(easy_days: {"sat": 2.0})"#, "0.0 (none) to 1.0"),
            (
                r#"(easy_days: {"mon": 0, "tue": 0, "wed": 0, "thu": 0, "fri": 0, "sat": 0, "sun": 0})"#,
                "no day for reviews",
            ),
        ] {
            let config: ReviewConfig = ron::from_str(bad).unwrap();
            let message = config.settings().unwrap_err().to_string();
            assert!(message.contains(says), "{bad}: {message}");
        }
    }

    #[test]
    fn steps_in_every_spelling() {
        assert_eq!(parse_step("30s"), Some(30));
        assert_eq!(parse_step("10"), Some(600));
        assert_eq!(parse_step("1.5h"), Some(5400));
        assert_eq!(parse_step("-1m"), None);
        assert_eq!(split_steps("1m, 10m"), vec!["1m", "10m"]);
        assert!(split_steps("").is_empty());
    }

    #[test]
    fn the_file_is_read_and_a_bad_one_reported() {
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path();
        let path = dir.join("review.ron");
        std::fs::write(&path, "(new_per_day: 5, learning_steps: [\"5m\"])").unwrap();
        let loaded = ReviewConfig::load(Some(&path));
        assert!(loaded.notice.is_none());
        assert_eq!(loaded.config.new_per_day, 5);
        assert_eq!(loaded.config.reviews_per_day, 200);
        std::fs::write(&path, "(new_per_dya: 5)").unwrap();
        let loaded = ReviewConfig::load(Some(&path));
        assert!(loaded.notice.unwrap().contains("review.ron:1:"));
        assert_eq!(loaded.config, ReviewConfig::default());
    }
}
