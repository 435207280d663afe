//! All file input and output of a lab session in one place: where a student's results live,
//! appending one record (written and flushed to disk before the call returns, under a lock on the
//! file), reading a file, and keeping a damaged file aside before it is replaced (through the
//! crate's [`crate::store`] helpers).

use super::LabError;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// The results file of `student` for a lab: `DIR/<lab>-v<version>-<student>.jsonl`.
pub fn results_path(dir: &Path, lab_id: &str, version: u32, student: &str) -> PathBuf {
    dir.join(format!("{lab_id}-v{version}-{student}.jsonl"))
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> LabError + '_ {
    move |source| LabError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The largest lab, roster or results file read: far beyond any class (an attempt is a few hundred
/// bytes), small enough that a wrong file never fills memory.
pub const MAX_FILE: u64 = 64 << 20;

/// Reads a file (empty text when it does not exist); a file over [`MAX_FILE`] is refused.
pub fn read(path: &Path) -> Result<String, LabError> {
    if let Ok(meta) = std::fs::metadata(path)
        && meta.len() > MAX_FILE
    {
        return Err(io(path)(std::io::Error::other(format!(
            "{} bytes is more than a lab file can be ({} MB at most)",
            meta.len(),
            MAX_FILE >> 20
        ))));
    }
    match crate::store::read_regular(path, crate::store::MAX_LOG_FILE) {
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(io(path)(e)),
    }
}

/// Moves a damaged file aside to `<name>.damaged-<time>` (never over an earlier one) and returns that
/// path.
pub fn keep_aside(path: &Path, now: u64) -> Result<PathBuf, LabError> {
    crate::store::keep_aside(path, now).map_err(io(path))
}

/// Replaces a file's contents atomically (a temporary file beside it, flushed, then renamed).
pub fn replace(path: &Path, text: &str) -> Result<(), LabError> {
    crate::store::write_atomic(path, text.as_bytes()).map_err(io(path))
}

/// A results file open for appending.
#[derive(Debug)]
pub struct Appender {
    path: PathBuf,
    file: File,
    /// A failed append left part of a line that could not be cut off.
    torn: bool,
}

/// Holds `<results>.lock` beside a student's results file for as long as the returned file is
/// open: one tutor per student's file, even while the results file itself is moved aside and
/// rewritten (a damaged file is repaired before its appender opens).
pub fn lock_results(path: &Path) -> Result<std::fs::File, LabError> {
    let mut name = path.as_os_str().to_os_string();
    name.push(".lock");
    let lock = Path::new(&name);
    if let Some(dir) = lock.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    open_locked(
        lock,
        path,
        OpenOptions::new().create(true).truncate(false).write(true),
    )
}

/// Opens `file` with `options` and takes its lock; another warpdrill holding it is refused in the
/// words of the results file `results`. A file system that cannot lock (some network shares) is
/// used without the lock.
fn open_locked(
    file: &Path,
    results: &Path,
    options: &OpenOptions,
) -> Result<std::fs::File, LabError> {
    crate::store::refuse_link(file).map_err(io(file))?;
    let opened = options.open(file).map_err(io(file))?;
    if let Err(std::fs::TryLockError::WouldBlock) = opened.try_lock() {
        return Err(LabError::Closed(format!(
            "{}: another warpdrill has this lab open for this student; close it first",
            results.display()
        )));
    }
    Ok(opened)
}

impl Appender {
    /// Opens (creating the folder and the file when needed).
    pub fn open(path: &Path) -> Result<Appender, LabError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        // One tutor per student's file: a second one would interleave its records with the first's.
        let file = open_locked(path, path, OpenOptions::new().create(true).append(true))?;
        Ok(Appender {
            path: path.to_path_buf(),
            file,
            torn: false,
        })
    }

    /// Appends one line and waits until it is on disk. A full disk cuts the file back to the last
    /// whole line; where it cannot, the next line starts on a fresh line of its own (the reader
    /// reports the torn piece and keeps every whole record).
    pub fn append(&mut self, line: &str) -> Result<(), LabError> {
        let path = self.path.clone();
        let mut bytes = Vec::with_capacity(line.len() + 2);
        if self.torn {
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match crate::store::append_whole(&mut self.file, &bytes) {
            Ok(()) => {
                self.torn = false;
                Ok(())
            }
            Err(failed) => {
                self.torn |= failed.torn;
                Err(io(&path)(failed.error))
            }
        }
    }

    /// Where it writes.
    pub fn path(&self) -> &Path {
        &self.path
    }
}
