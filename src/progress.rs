//! The learner's progress, saved in the data directory as readable RON, written atomically; a damaged
//! file is moved aside, never overwritten.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Past attempts kept per exercise (for the input line's history).
pub const HISTORY: usize = 20;

/// Progress on one exercise.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExerciseProgress {
    /// Answers submitted (unusable input is not counted).
    pub attempts: u32,
    /// Solved at least once.
    pub solved: bool,
    /// Answered right only after the answer had been shown: seen, not yet solved on new numbers.
    pub seen: bool,
    /// Hints revealed, in total.
    pub hints_used: u32,
    /// Seed of the variant last shown.
    pub last_seed: u64,
    /// Seconds spent on it.
    pub seconds: u64,
    /// When it was last worked on (Unix seconds).
    pub last_seen: u64,
    /// Past answers, oldest first.
    pub history: Vec<String>,
}

impl ExerciseProgress {
    /// `new`, `attempted` or `solved`.
    pub fn status(&self) -> Status {
        if self.solved {
            Status::Solved
        } else if self.seen {
            Status::Seen
        } else if self.attempts > 0 {
            Status::Attempted
        } else {
            Status::New
        }
    }
}

/// Where a learner stands on an exercise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Never answered.
    New,
    /// Answered, not yet solved.
    Attempted,
    /// Answered right only after the answer was shown; solved once answered right on new numbers.
    Seen,
    /// Solved.
    Solved,
}

/// Everything saved.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// Format version.
    pub version: u32,
    /// Per exercise id.
    pub exercises: BTreeMap<String, ExerciseProgress>,
    /// The exercise to resume.
    pub last_exercise: Option<String>,
    /// The learner asked to open every level.
    pub unlock_all: bool,
}

impl Progress {
    /// Progress of one exercise (default if untouched).
    pub fn of(&self, id: &str) -> ExerciseProgress {
        self.exercises.get(id).cloned().unwrap_or_default()
    }

    /// Mutable progress of one exercise.
    pub fn entry(&mut self, id: &str) -> &mut ExerciseProgress {
        self.exercises.entry(id.to_string()).or_default()
    }
}

/// Why progress could not be saved.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The directory or file could not be written.
    #[error("cannot save progress to {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Serialization failed (should not happen).
    #[error("cannot encode progress: {0}")]
    Encode(String),
}

/// The progress file in a data directory.
#[derive(Debug, Clone)]
pub struct Store {
    path: PathBuf,
}

/// What opening the store found.
#[derive(Debug)]
pub struct Opened {
    /// The store.
    pub store: Store,
    /// The progress (empty if none or damaged).
    pub progress: Progress,
    /// A message for the learner (a damaged file was moved aside).
    pub notice: Option<String>,
}

/// The data directory: `--data-dir`, else `$WARPDRILL_DATA`, else the platform data directory.
pub fn data_dir(flag: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = flag {
        return Some(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("WARPDRILL_DATA").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "warpdrill").map(|dirs| dirs.data_dir().to_path_buf())
}

impl Store {
    /// Opens (does not create) `dir/progress.ron`. A file that cannot be read as progress is renamed to
    /// `progress.ron.damaged-<time>` and reported; the learner starts with empty progress.
    pub fn open(dir: &Path, now: u64) -> Opened {
        let store = Store {
            path: dir.join("progress.ron"),
        };
        let text = match std::fs::read_to_string(&store.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Opened {
                    store,
                    progress: Progress::default(),
                    notice: None,
                };
            }
            Err(e) => {
                return Opened {
                    notice: Some(format!(
                        "Could not read {} ({e}); progress will not be loaded this time.",
                        store.path.display()
                    )),
                    store,
                    progress: Progress::default(),
                };
            }
        };
        match ron::from_str::<Progress>(&text) {
            Ok(progress) => Opened {
                store,
                progress,
                notice: None,
            },
            Err(e) => {
                let aside = store
                    .path
                    .with_file_name(format!("progress.ron.damaged-{now}"));
                let notice = match std::fs::rename(&store.path, &aside) {
                    Ok(()) => format!(
                        "Your progress file was damaged ({e}). It was kept as {} and you start fresh; \
                         fix it and move it back to progress.ron to recover it.",
                        aside.display()
                    ),
                    Err(rename) => format!(
                        "Your progress file {} is damaged ({e}) and could not be moved aside ({rename}); \
                         it will not be overwritten until you move it.",
                        store.path.display()
                    ),
                };
                let keep_away = aside.exists();
                Opened {
                    store: if keep_away {
                        store
                    } else {
                        Store {
                            path: PathBuf::new(),
                        }
                    },
                    progress: Progress::default(),
                    notice: Some(notice),
                }
            }
        }
    }

    /// The progress file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes progress atomically: a temporary file in the same directory, flushed, then renamed.
    pub fn save(&self, progress: &Progress) -> Result<(), StoreError> {
        if self.path.as_os_str().is_empty() {
            return Ok(());
        }
        let io = |source| StoreError::Io {
            path: self.path.display().to_string(),
            source,
        };
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(io)?;
        let text = ron::ser::to_string_pretty(progress, ron::ser::PrettyConfig::default())
            .map_err(|e| StoreError::Encode(e.to_string()))?;
        let temp = dir.join(format!(".progress.ron.{}.tmp", std::process::id()));
        {
            use std::io::Write;
            let mut file = std::fs::File::create(&temp).map_err(io)?;
            file.write_all(text.as_bytes()).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        std::fs::rename(&temp, &self.path).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("warpdrill-progress-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn saves_and_loads_round_trip() {
        let dir = temp_dir("round");
        let opened = Store::open(&dir, 1);
        assert!(opened.notice.is_none());
        let mut progress = opened.progress;
        progress.entry("l1-sector-size").attempts = 2;
        progress.entry("l1-sector-size").solved = true;
        progress.last_exercise = Some("l1-sector-size".into());
        opened.store.save(&progress).unwrap();
        let text = std::fs::read_to_string(dir.join("progress.ron")).unwrap();
        assert!(text.contains("l1-sector-size"), "readable: {text}");
        assert_eq!(Store::open(&dir, 2).progress, progress);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_damaged_file_is_moved_aside_not_overwritten() {
        let dir = temp_dir("damaged");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("progress.ron"),
            "(exercises: {\"x\": (attempts: \"lots\"",
        )
        .unwrap();
        let opened = Store::open(&dir, 1234);
        let notice = opened.notice.expect("told about it");
        assert!(notice.contains("progress.ron.damaged-1234"), "{notice}");
        assert_eq!(
            std::fs::read_to_string(dir.join("progress.ron.damaged-1234")).unwrap(),
            "(exercises: {\"x\": (attempts: \"lots\""
        );
        assert_eq!(opened.progress, Progress::default());
        opened.store.save(&opened.progress).unwrap();
        assert!(dir.join("progress.ron.damaged-1234").exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn data_dir_prefers_the_flag() {
        assert_eq!(data_dir(Some(Path::new("/x"))), Some(PathBuf::from("/x")));
    }
}
