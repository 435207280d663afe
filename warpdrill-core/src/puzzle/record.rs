//! The learner's puzzle progress: which puzzles are solved and the best figures, kept in
//! `puzzles.json` in the data directory (written atomically; a damaged file is kept aside, never
//! overwritten).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file's name in the data directory.
pub const FILE: &str = "puzzles.json";

/// One puzzle's record.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Entry {
    /// Checks run.
    pub checks: u32,
    /// Whether some check solved it.
    pub solved: bool,
    /// The best (lowest) predicted time of a correct check, ms.
    pub best_ms: Option<f64>,
    /// The target figures of that check, by target name.
    pub best_figures: BTreeMap<String, f64>,
    /// The learner's file: where `puzzle start` wrote it or `puzzle check` last read it (the
    /// puzzle screen watches it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
}

/// Every puzzle's record, by id.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// By puzzle id.
    pub puzzles: BTreeMap<String, Entry>,
}

/// What loading found.
#[derive(Debug)]
pub struct Loaded {
    /// The record (empty when there was none or it was damaged).
    pub record: Record,
    /// A damaged file moved aside: where it went and why.
    pub notice: Option<String>,
}

/// The path of the record in `dir`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// Loads the record in `dir`; a damaged file is moved aside (`puzzles.json.damaged-<now>`).
pub fn load(dir: &Path, now: u64) -> Loaded {
    let p = path(dir);
    let text = match crate::store::read_regular_text(&p, 16 << 20) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Loaded {
                record: Record::default(),
                notice: None,
            };
        }
        Err(e) => {
            return Loaded {
                record: Record::default(),
                notice: Some(format!(
                    "{}: cannot read it ({e}); progress not saved",
                    p.display()
                )),
            };
        }
    };
    match serde_json::from_str::<Record>(&text) {
        Ok(record) => Loaded {
            record,
            notice: None,
        },
        Err(e) => {
            let aside = crate::store::keep_aside(&p, now);
            Loaded {
                record: Record::default(),
                notice: Some(match aside {
                    Ok(to) => format!(
                        "{} was damaged ({e}): kept as {}; starting a new record",
                        p.display(),
                        to.display()
                    ),
                    Err(err) => format!(
                        "{} is damaged ({e}) and could not be kept aside: {err}",
                        p.display()
                    ),
                }),
            }
        }
    }
}

impl Record {
    /// Notes one check's outcome.
    pub fn note(&mut self, outcome: &super::check::Outcome) {
        let e = self.puzzles.entry(outcome.puzzle.clone()).or_default();
        e.checks = e.checks.saturating_add(1);
        e.solved |= outcome.solved;
        if outcome.correct
            && let Some(ms) = outcome.predicted_ms
            && e.best_ms.is_none_or(|b| ms < b)
        {
            e.best_ms = Some(ms);
            e.best_figures = outcome
                .targets
                .iter()
                .filter_map(|t| t.figure.map(|f| (t.name.to_string(), f)))
                .collect();
        }
    }

    /// Writes the record to `dir` atomically.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        crate::store::write_atomic(&path(dir), text.as_bytes())
    }

    /// Remembers `file` as `id`'s file, made absolute so that it names the same file from any
    /// working directory.
    pub fn remember_file(&mut self, id: &str, file: &Path) {
        let file = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        self.puzzles.entry(id.to_string()).or_default().file = Some(file);
    }

    /// The file to watch for `id`: the one remembered while it still exists, else `ID.cu` in
    /// `default_dir`.
    pub fn file_of(&self, id: &str, default_dir: Option<&Path>) -> Option<PathBuf> {
        self.puzzles
            .get(id)
            .and_then(|e| e.file.clone())
            .filter(|f| f.is_file())
            .or_else(|| default_dir.map(|d| files_dir(d).join(format!("{id}.cu"))))
    }

    /// Whether `id` is solved.
    pub fn solved(&self, id: &str) -> bool {
        self.puzzles.get(id).is_some_and(|e| e.solved)
    }
}

/// Where `puzzle start` writes the starter files when no folder is given, and where the puzzle
/// screen looks for them: `puzzles/` in the data directory.
pub fn files_dir(data: &Path) -> PathBuf {
    data.join("puzzles")
}

/// Writes `p`'s starter as `dir/ID.cu`; an existing file is kept unless `force`. Returns the path.
pub fn start(p: &super::Puzzle, dir: &Path, force: bool) -> Result<PathBuf, StartError> {
    let path = dir.join(format!("{}.cu", p.id));
    if path.exists() && !force {
        return Err(StartError::Exists(path));
    }
    std::fs::create_dir_all(dir).map_err(|e| StartError::Io(dir.to_path_buf(), e.to_string()))?;
    crate::store::write_atomic(&path, p.starter.as_bytes())
        .map_err(|e| StartError::Io(path.clone(), e.to_string()))?;
    Ok(path)
}

/// Why a starter file was not written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The file is there already.
    #[error("{} exists: add --force to overwrite it", .0.display())]
    Exists(PathBuf),
    /// It could not be written.
    #[error("cannot write {}: {}", .0.display(), .1)]
    Io(PathBuf, String),
}
