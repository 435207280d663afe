//! The learner's progress, saved in the data directory as readable RON, written atomically; a damaged
//! file is moved aside, never overwritten.

use crate::store::{self, DirLock, Lock};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
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
    /// The last graded answer was wrong (or right only after the answer was shown) and no right
    /// answer has come since: the exercise is one to practise again ([`ExerciseProgress::missed`]).
    pub missed: bool,
}

impl ExerciseProgress {
    /// Whether it is one of the exercises "Practise what you missed" brings back: answered wrong
    /// (or right only after the answer was shown) with no right answer since, or answered and
    /// never solved.
    pub fn missed(&self) -> bool {
        self.missed || (self.attempts > 0 && !self.solved)
    }

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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    /// Per topic, the levels that have opened (they stay open even if the topic's recall fades).
    pub opened: BTreeMap<String, std::collections::BTreeSet<crate::content::schema::Level>>,
    /// The explorer's pattern when it was last left, to reopen it there.
    pub explorer: Option<ExplorerSettings>,
    /// The calculators' inputs when they were last left.
    pub calculators: Option<CalculatorSettings>,
    /// Per lesson id.
    pub lessons: BTreeMap<String, LessonProgress>,
}

/// How far a learner got in a lesson.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LessonProgress {
    /// The page last shown (0-based), to reopen the lesson there.
    pub page: usize,
    /// The last page was reached: the lesson counts as read.
    pub read: bool,
    /// Faded examples solved, by exercise id.
    pub solved: Vec<String>,
}

impl Progress {
    /// Whether the lesson `id` was read to its last page.
    pub fn lesson_read(&self, id: &str) -> bool {
        self.lessons.get(id).is_some_and(|l| l.read)
    }
}

/// The explorer's parameters, as saved (architecture by its key, the shape by name).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExplorerSettings {
    /// Architecture key (`sm_90`).
    pub arch: String,
    /// `global` or `shared`.
    pub space: String,
    /// `load` or `store` (empty in files saved before stores: a load).
    pub op: String,
    /// Bytes per lane.
    pub elem: u32,
    /// `affine`, `struct`, `row`, `column` or `offsets`.
    pub shape: String,
    /// Stride in elements.
    pub stride: i64,
    /// Offset in elements (first struct, first column).
    pub offset: i64,
    /// Struct size, bytes.
    pub struct_size: i64,
    /// Field offset, bytes.
    pub field_offset: i64,
    /// Row pitch, bytes.
    pub pitch: i64,
    /// Base address, bytes.
    pub base: i64,
    /// Explicit byte offsets.
    pub offsets: Vec<i64>,
    /// Active lanes.
    pub mask: u64,
    /// Count 128-byte lines.
    pub lines: bool,
}

/// The calculators' inputs, as saved.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CalculatorSettings {
    /// `occupancy`, `tiling` or `roofline`.
    pub tab: String,
    /// Occupancy: architecture key.
    pub occupancy_arch: String,
    /// Threads per block.
    pub block_size: u32,
    /// Registers per thread.
    pub regs: u32,
    /// Static shared memory per block, bytes.
    pub static_smem: u32,
    /// Dynamic shared memory per block, bytes.
    pub dynamic_smem: u32,
    /// Carveout: -1 = default, else a percentage.
    pub carveout: i64,
    /// Tiling: architecture key.
    pub tiling_arch: String,
    /// Matrix size.
    pub n: u64,
    /// Tile size.
    pub tile: u64,
    /// Bytes per element.
    pub elem: u32,
    /// Registers per thread of the tiled kernel.
    pub tiling_regs: u32,
    /// Roofline: peak FLOP/s.
    pub peak_flops: f64,
    /// Peak bytes/s.
    pub bandwidth: f64,
    /// Named kernels and their intensities.
    pub points: Vec<(String, f64)>,
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

/// The format version this build writes. A file of a later version is never saved over.
pub const FORMAT_VERSION: u32 = 1;

/// The progress file's name in the data directory.
pub const FILE_NAME: &str = "progress.ron";

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

/// The progress file in a data directory, and whether this process may write it.
#[derive(Debug, Clone)]
pub struct Store {
    path: PathBuf,
    saving: Saving,
}

/// Whether a store writes.
#[derive(Debug, Clone)]
enum Saving {
    /// It writes, holding the data directory's lock.
    Locked(Arc<DirLock>),
    /// It writes, but the file system cannot lock (the learner was told).
    Unlocked,
    /// It never writes.
    Off,
    /// It never writes: another warpdrill holds the data directory's lock.
    Busy,
}

/// What opening the store found.
#[derive(Debug)]
pub struct Opened {
    /// The store.
    pub store: Store,
    /// The progress (empty if none or damaged).
    pub progress: Progress,
    /// A message for the learner (a damaged file was moved aside, another warpdrill is open, …).
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

/// Why a progress file could not be loaded.
enum LoadError {
    /// It could not be read (permissions, a directory in its place).
    Unreadable(std::io::Error),
    /// It is not UTF-8 or not valid progress.
    Damaged(String),
}

/// What a progress file held.
struct Loaded {
    progress: Progress,
    /// Why saving over it would lose something: fields or a version this build does not know.
    newer: Option<String>,
}

/// Reads and parses `path` (`None`: there is no file).
fn load(path: &Path) -> Result<Option<Loaded>, LoadError> {
    let bytes = match crate::store::read_regular(path, crate::store::MAX_SMALL_FILE) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(LoadError::Unreadable(e)),
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        LoadError::Damaged(format!(
            "not UTF-8 text: invalid byte at offset {}",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let mut deserializer =
        ron::Deserializer::from_str(&text).map_err(|e| LoadError::Damaged(e.to_string()))?;
    let mut unknown = Vec::new();
    let progress: Progress = serde_ignored::deserialize(&mut deserializer, |path| {
        unknown.push(path.to_string());
    })
    .map_err(|e| LoadError::Damaged(deserializer.span_error(e).to_string()))?;
    deserializer
        .end()
        .map_err(|e| LoadError::Damaged(deserializer.span_error(e).to_string()))?;
    let newer = if progress.version > FORMAT_VERSION {
        Some(format!(
            "it was written by a newer warpdrill (format {}, this one knows {FORMAT_VERSION})",
            progress.version
        ))
    } else {
        unknown.first().map(|first| {
            let more = match unknown.len() {
                1 => String::new(),
                n => format!(" and {} more", n - 1),
            };
            format!(
                "it has fields this warpdrill does not know (`{first}`{more}), written by a newer version"
            )
        })
    };
    Ok(Some(Loaded { progress, newer }))
}

impl Store {
    /// A store that never writes (no data directory, or one this process may not write).
    pub fn read_only(path: PathBuf) -> Store {
        Store {
            path,
            saving: Saving::Off,
        }
    }

    /// Opens `dir/progress.ron`, taking the data directory's lock.
    ///
    /// - Another warpdrill holds the lock: progress is loaded but never saved by this process.
    /// - A file that cannot be loaded, for whatever reason, is moved aside to
    ///   `progress.ron.damaged-<time>` (a unique name) and the learner starts fresh; if it cannot be
    ///   moved, saving is off, so it is never overwritten.
    /// - A file written by a newer version (a later format, or fields this build does not know) is
    ///   loaded as far as it is understood and never saved over.
    /// - Temporary files of interrupted saves are removed.
    pub fn open(dir: &Path, now: u64) -> Opened {
        let path = dir.join(FILE_NAME);
        let mut notice = None;
        let saving = match store::lock(dir) {
            Ok(Lock::Held(lock)) => Saving::Locked(Arc::new(lock)),
            Ok(Lock::Unsupported(e)) => {
                notice = Some(format!(
                    "The data directory {} cannot be locked ({e}): progress is saved, but do not \
                     open a second warpdrill on it.",
                    dir.display()
                ));
                Saving::Unlocked
            }
            Ok(Lock::Busy) => {
                let (progress, why) = match load(&path) {
                    Ok(loaded) => (
                        loaded.map(|l| l.progress).unwrap_or_default(),
                        String::new(),
                    ),
                    Err(_) => (
                        Progress::default(),
                        " (and its progress file cannot be read now)".to_string(),
                    ),
                };
                return Opened {
                    notice: Some(format!(
                        "Another warpdrill is open on {}{why}: this one will not save progress. \
                         Close the other one and start again to save your work.",
                        dir.display()
                    )),
                    store: Store {
                        path,
                        saving: Saving::Busy,
                    },
                    progress,
                };
            }
            Err(e) => {
                return Opened {
                    notice: Some(format!(
                        "Cannot use the data directory {} ({e}): progress will not be saved.",
                        dir.display()
                    )),
                    progress: load(&path)
                        .ok()
                        .flatten()
                        .map(|l| l.progress)
                        .unwrap_or_default(),
                    store: Store::read_only(path),
                };
            }
        };
        store::remove_temporaries(dir, FILE_NAME);
        let writable = Store {
            path: path.clone(),
            saving,
        };
        match load(&path) {
            Ok(None) => Opened {
                store: writable,
                progress: Progress::default(),
                notice,
            },
            Ok(Some(Loaded {
                progress,
                newer: None,
            })) => Opened {
                store: writable,
                progress,
                notice,
            },
            Ok(Some(Loaded {
                progress,
                newer: Some(why),
            })) => Opened {
                notice: Some(format!(
                    "Your progress file {}: {why}. It is shown as far as this version understands \
                     it, and it will not be saved over; update warpdrill to keep saving.",
                    path.display()
                )),
                store: Store::read_only(path),
                progress,
            },
            Err(problem) => {
                let why = match problem {
                    LoadError::Unreadable(e) => format!("cannot be read: {e}"),
                    LoadError::Damaged(e) => format!("is damaged: {e}"),
                };
                match store::keep_aside(&path, now) {
                    Ok(aside) => Opened {
                        notice: Some(format!(
                            "Your progress file {why}. It was kept as {} and you start fresh; \
                             fix it and move it back to {FILE_NAME} to recover it.",
                            aside.display()
                        )),
                        store: writable,
                        progress: Progress::default(),
                    },
                    Err(e) => Opened {
                        notice: Some(format!(
                            "Your progress file {} {why}, and it could not be moved aside ({e}); \
                             progress will not be saved, so it is not overwritten.",
                            path.display()
                        )),
                        store: Store::read_only(path),
                        progress: Progress::default(),
                    },
                }
            }
        }
    }

    /// The progress file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The data directory's lock, while this store holds it: proof for other files of the directory
    /// (a review log, lab results) that they may be written.
    pub fn lock(&self) -> Option<&DirLock> {
        match &self.saving {
            Saving::Locked(lock) => Some(lock),
            Saving::Unlocked | Saving::Off | Saving::Busy => None,
        }
    }

    /// Whether saves write the file (off when another warpdrill holds the data directory, or the file
    /// must not be overwritten).
    pub fn saves(&self) -> bool {
        matches!(self.saving, Saving::Locked(_) | Saving::Unlocked)
    }

    /// Whether saving is off because another warpdrill holds the data directory's lock.
    pub fn busy(&self) -> bool {
        matches!(self.saving, Saving::Busy)
    }

    /// Writes progress atomically ([`store::write_atomic`]); does nothing when saving is off (the
    /// learner was told why when the store was opened).
    pub fn save(&self, progress: &Progress) -> Result<(), StoreError> {
        if !self.saves() {
            return Ok(());
        }
        let io = |source| StoreError::Io {
            path: self.path.display().to_string(),
            source,
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let versioned = Progress {
            version: FORMAT_VERSION,
            ..progress.clone()
        };
        let text = ron::ser::to_string_pretty(&versioned, ron::ser::PrettyConfig::default())
            .map_err(|e| StoreError::Encode(e.to_string()))?;
        store::write_atomic(&self.path, text.as_bytes()).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of its own for one test, removed when the returned guard drops: `name` inside a
    /// fresh temporary folder, not yet created.
    fn temp_dir(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path().join(name);
        (root, dir)
    }

    #[test]
    fn saves_and_loads_round_trip() {
        let (_dir_guard, dir) = temp_dir("round");
        let opened = Store::open(&dir, 1);
        assert!(opened.notice.is_none());
        let mut progress = opened.progress;
        progress.entry("l1-sector-size").attempts = 2;
        progress.entry("l1-sector-size").solved = true;
        progress.last_exercise = Some("l1-sector-size".into());
        opened.store.save(&progress).unwrap();
        let text = std::fs::read_to_string(dir.join("progress.ron")).unwrap();
        assert!(text.contains("l1-sector-size"), "readable: {text}");
        drop(opened.store);
        let reopened = Store::open(&dir, 2);
        assert!(reopened.notice.is_none());
        assert_eq!(
            reopened.progress,
            Progress {
                version: FORMAT_VERSION,
                ..progress
            }
        );
    }

    #[test]
    fn a_damaged_file_is_moved_aside_not_overwritten() {
        let (_dir_guard, dir) = temp_dir("damaged");
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
    }

    #[test]
    fn a_file_that_is_not_utf8_is_kept_aside_and_never_overwritten() {
        let (_dir_guard, dir) = temp_dir("utf8");
        std::fs::create_dir_all(&dir).unwrap();
        let bytes = b"(version: 1, exercises: {\"x\": (attempts: 3)}) \xff\xfe".to_vec();
        std::fs::write(dir.join(FILE_NAME), &bytes).unwrap();
        let opened = Store::open(&dir, 5);
        let notice = opened.notice.expect("told about it");
        assert!(notice.contains("not UTF-8"), "{notice}");
        opened.store.save(&opened.progress).unwrap();
        assert_eq!(
            std::fs::read(dir.join("progress.ron.damaged-5")).unwrap(),
            bytes
        );
    }

    #[test]
    fn a_directory_in_place_of_the_file_is_moved_aside_too() {
        let (_dir_guard, dir) = temp_dir("directory");
        std::fs::create_dir_all(dir.join(FILE_NAME).join("inside")).unwrap();
        let opened = Store::open(&dir, 8);
        let notice = opened.notice.expect("told about it");
        assert!(notice.contains("cannot be read"), "{notice}");
        assert!(dir.join("progress.ron.damaged-8").join("inside").is_dir());
        opened.store.save(&opened.progress).unwrap();
        assert!(dir.join(FILE_NAME).is_file());
    }

    #[test]
    fn damaged_files_in_the_same_second_get_their_own_names() {
        let (_dir_guard, dir) = temp_dir("same-second");
        std::fs::create_dir_all(&dir).unwrap();
        for text in ["first (", "second ("] {
            std::fs::write(dir.join(FILE_NAME), text).unwrap();
            let opened = Store::open(&dir, 9);
            assert!(opened.notice.is_some());
        }
        assert_eq!(
            std::fs::read_to_string(dir.join("progress.ron.damaged-9")).unwrap(),
            "first ("
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("progress.ron.damaged-9-2")).unwrap(),
            "second ("
        );
    }

    #[test]
    fn a_second_store_on_the_same_directory_is_read_only_and_says_so() {
        let (_dir_guard, dir) = temp_dir("second");
        let first = Store::open(&dir, 1);
        assert_eq!(first.store.lock().map(DirLock::dir), Some(dir.as_path()));
        let mut mine = first.progress.clone();
        mine.entry("a").attempts = 1;
        first.store.save(&mine).unwrap();
        let second = Store::open(&dir, 2);
        assert!(!second.store.saves());
        assert!(second.store.lock().is_none());
        let notice = second.notice.expect("told about it");
        assert!(notice.contains("Another warpdrill is open"), "{notice}");
        assert_eq!(
            second.progress.of("a").attempts,
            1,
            "it still shows progress"
        );
        let mut theirs = second.progress.clone();
        theirs.entry("b").attempts = 7;
        second.store.save(&theirs).unwrap();
        assert_eq!(
            Store::read_only(dir.join(FILE_NAME)).path(),
            first.store.path()
        );
        let text = std::fs::read_to_string(dir.join(FILE_NAME)).unwrap();
        assert!(!text.contains("\"b\""), "the second did not write: {text}");
        drop(first);
        assert!(
            Store::open(&dir, 3).store.saves(),
            "free again once the first closes"
        );
    }

    #[test]
    fn a_file_from_a_newer_version_is_not_saved_over() {
        for (name, text, expect) in [
            (
                "newer-field",
                "(version: 1, streak: 12, exercises: {\"x\": (attempts: 2, mood: \"ok\")})",
                "streak",
            ),
            (
                "newer-format",
                "(version: 2, exercises: {\"x\": (attempts: 2)})",
                "format 2",
            ),
        ] {
            let (_dir_guard, dir) = temp_dir(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(FILE_NAME), text).unwrap();
            let opened = Store::open(&dir, 1);
            let notice = opened.notice.expect("told about it");
            assert!(
                notice.contains(expect) && notice.contains("newer"),
                "{notice}"
            );
            assert_eq!(
                opened.progress.of("x").attempts,
                2,
                "what is understood is shown"
            );
            assert!(!opened.store.saves());
            opened.store.save(&Progress::default()).unwrap();
            assert_eq!(std::fs::read_to_string(dir.join(FILE_NAME)).unwrap(), text);
        }
    }

    #[test]
    fn temporary_files_of_interrupted_saves_are_removed_at_start() {
        let (_dir_guard, dir) = temp_dir("temporaries");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(".progress.ron.4242.tmp"), "half a save").unwrap();
        std::fs::write(dir.join(".progress.ron.17-3.tmp"), "half a save").unwrap();
        let opened = Store::open(&dir, 1);
        assert!(opened.notice.is_none());
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn saves_write_the_format_version() {
        let (_dir_guard, dir) = temp_dir("version");
        let opened = Store::open(&dir, 1);
        opened.store.save(&Progress::default()).unwrap();
        let text = std::fs::read_to_string(dir.join(FILE_NAME)).unwrap();
        assert!(text.contains("version: 1"), "{text}");
    }

    #[test]
    fn data_dir_prefers_the_flag() {
        assert_eq!(data_dir(Some(Path::new("/x"))), Some(PathBuf::from("/x")));
    }
}
