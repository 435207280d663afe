//! Files in the data directory that must survive a crash, a full disk and a second warpdrill: an
//! advisory lock on the directory, atomic writes, damaged files kept aside under names that never
//! collide, and the clean-up of temporary files that an interrupted write left behind.
//!
//! Progress uses these today; any later file of the data directory (a review log, lab results) takes
//! the same [`DirLock`] and writes with [`write_atomic`].

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The most bytes read from a file the learner's tools keep (progress, settings, configuration).
pub const MAX_SMALL_FILE: u64 = 16 * 1024 * 1024;
/// The most bytes read from a log that grows with use (the review log, lab results, an import).
pub const MAX_LOG_FILE: u64 = 512 * 1024 * 1024;

/// The bytes of `path`, which must be a regular file (a symbolic link to one is fine) of at most
/// `limit` bytes: a FIFO, a device or a directory is refused before it is opened, so nothing
/// blocks or floods memory. A missing file is `NotFound`, as `std::fs::read` says it.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_regular_from(path, 0, limit).map(|(_, bytes)| bytes)
}

/// [`read_regular`] from byte `from` on: the file's whole length and the bytes after `from` (none
/// if the file is shorter). `limit` bounds the file's whole length.
pub fn read_regular_from(path: &Path, from: u64, limit: u64) -> io::Result<(u64, Vec<u8>)> {
    use std::io::{Read, Seek, SeekFrom};
    let not_regular = || {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a directory, FIFO, socket or device)",
        )
    };
    let too_big = |size: u64| {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "the file is {:.1} MB, more than the {} MB read",
                size as f64 / (1024.0 * 1024.0),
                limit / (1024 * 1024)
            ),
        )
    };
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(not_regular());
    }
    if metadata.len() > limit {
        return Err(too_big(metadata.len()));
    }
    let mut file = File::open(path)?;
    // Checked again on the opened file: the path may have changed since.
    let opened = file.metadata()?;
    if !opened.is_file() {
        return Err(not_regular());
    }
    let from = from.min(opened.len());
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    file.take((limit + 1).saturating_sub(from))
        .read_to_end(&mut bytes)?;
    let total = from + bytes.len() as u64;
    if total > limit {
        return Err(too_big(total));
    }
    Ok((total, bytes))
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_text(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_regular(path, limit)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))
}

/// A file records are appended to, one line each: what [`append_whole`] needs of it.
pub trait AppendLog: Write {
    /// The file's length now, in bytes.
    fn length(&self) -> io::Result<u64>;
    /// Cuts the file back to `len` bytes.
    fn cut_to(&mut self, len: u64) -> io::Result<()>;
    /// Waits until what was written is on the disk.
    fn flush_to_disk(&mut self) -> io::Result<()>;
}

impl AppendLog for File {
    fn length(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }

    fn cut_to(&mut self, len: u64) -> io::Result<()> {
        self.set_len(len)
    }

    fn flush_to_disk(&mut self) -> io::Result<()> {
        self.sync_data()
    }
}

/// How an append that failed left its log.
#[derive(Debug)]
pub struct AppendFailed {
    /// Why it failed (a full disk, most often).
    pub error: io::Error,
    /// The part written could not be cut off: the log ends in part of a record, so the next
    /// append must start on a fresh line (and may mark the torn tail).
    pub torn: bool,
    /// Bytes of that part, as far as the file's length tells (0 when it was cut off).
    pub torn_bytes: u64,
}

/// Appends `bytes` (whole records, each ending in a line break) and flushes them to the disk, or, if
/// that fails part-way — a full disk — cuts the file back to the last whole record, so the next
/// append is never glued onto half a record. Where even the cut fails, the error says the log is
/// torn.
pub fn append_whole(log: &mut impl AppendLog, bytes: &[u8]) -> Result<(), AppendFailed> {
    let before = log.length().map_err(|error| AppendFailed {
        error,
        torn: false,
        torn_bytes: 0,
    })?;
    let written = log.write_all(bytes).and_then(|()| log.flush_to_disk());
    match written {
        Ok(()) => Ok(()),
        Err(error) => {
            let torn = log
                .cut_to(before)
                .and_then(|()| log.flush_to_disk())
                .is_err();
            let torn_bytes = if torn {
                log.length().map_or(0, |now| now.saturating_sub(before))
            } else {
                0
            };
            Err(AppendFailed {
                error,
                torn,
                torn_bytes,
            })
        }
    }
}

/// The lock file's name inside the data directory.
pub const LOCK_FILE: &str = "warpdrill.lock";

/// An exclusive advisory lock on a data directory, held until dropped (or the process ends, however
/// it ends: the operating system releases it).
#[derive(Debug)]
pub struct DirLock {
    _file: File,
    dir: PathBuf,
}

impl DirLock {
    /// The locked directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// What trying to lock a data directory found.
#[derive(Debug)]
pub enum Lock {
    /// This process holds the lock.
    Held(DirLock),
    /// Another process holds it: another warpdrill is open on this directory.
    Busy,
    /// The file system cannot lock files (some network file systems): writing is possible, but
    /// nothing keeps a second process out.
    Unsupported(io::Error),
}

/// Creates `dir` if needed and tries to take its lock without waiting.
pub fn lock(dir: &Path) -> io::Result<Lock> {
    std::fs::create_dir_all(dir)?;
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(LOCK_FILE))?;
    match file.try_lock() {
        Ok(()) => Ok(Lock::Held(DirLock {
            _file: file,
            dir: dir.to_path_buf(),
        })),
        Err(std::fs::TryLockError::WouldBlock) => Ok(Lock::Busy),
        Err(std::fs::TryLockError::Error(e)) => Ok(Lock::Unsupported(e)),
    }
}

/// The prefix and suffix of the temporary files [`write_atomic`] makes for `name`.
fn temporary_affixes(name: &str) -> (String, &'static str) {
    (format!(".{name}."), ".tmp")
}

/// The one rule for the files warpdrill writes — progress, settings, the review log, lab results,
/// rosters, exported decks: they are regular files. A symbolic link in the place of one (dangling
/// or not) is refused: never written through, never replaced by a regular file. Files warpdrill
/// only reads (content, kernels, imports) are followed, as any tool follows them.
pub fn refuse_link(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(io::Error::other(format!(
            "{} is a symbolic link, and warpdrill writes only regular files: it neither writes \
             through the link nor replaces it — remove the link, or point warpdrill at the \
             directory where the file really is",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file beside it (a name no other write uses),
/// flushed to disk, then renamed over `path`, then the directory flushed. A crash at any point leaves
/// either the old file or the new one, never a mix; the temporary file is removed if the write fails.
///
/// Hold the directory's [`DirLock`] while writing, so that no other process writes the same file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    refuse_link(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (prefix, suffix) = temporary_affixes(&name);
    let temp = dir.join(format!(
        "{prefix}{}-{}{suffix}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written?;
    // The rename is durable once the directory is; not every platform can open one to sync it.
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// Removes the temporary files that interrupted [`write_atomic`]s of `name` left in `dir`; returns
/// how many. Call it only while holding the directory's [`DirLock`]: then no write is in progress.
pub fn remove_temporaries(dir: &Path, name: &str) -> usize {
    let (prefix, suffix) = temporary_affixes(name);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| {
            let file_name = entry.file_name();
            let file_name = file_name.to_string_lossy();
            file_name.starts_with(&prefix)
                && file_name.ends_with(suffix)
                && entry.file_type().is_ok_and(|t| t.is_file())
        })
        .filter(|entry| std::fs::remove_file(entry.path()).is_ok())
        .count()
}

/// Moves a file that cannot be loaded out of the way, to `<name>.damaged-<now>` — or
/// `<name>.damaged-<now>-2`, `-3`, … when that name is taken: an earlier damaged file is never
/// overwritten. Returns the new path.
pub fn keep_aside(path: &Path, now: u64) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for attempt in 1..=1000u32 {
        let aside = if attempt == 1 {
            path.with_file_name(format!("{name}.damaged-{now}"))
        } else {
            path.with_file_name(format!("{name}.damaged-{now}-{attempt}"))
        };
        // A hard link fails if the name is taken, which a rename would silently overwrite.
        match std::fs::hard_link(path, &aside) {
            Ok(()) => {
                std::fs::remove_file(path)?;
                return Ok(aside);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(_) if std::fs::symlink_metadata(&aside).is_err() => {
                // No hard links here (or `path` is a directory): rename to the free name.
                std::fs::rename(path, &aside)?;
                return Ok(aside);
            }
            Err(_) => continue,
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "every name for keeping the damaged file aside is taken",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of its own for one test, removed when the returned guard drops: `name` inside a
    /// fresh temporary folder, created.
    fn temp_dir(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path().join(name);
        std::fs::create_dir_all(&dir).expect("a test folder");
        (root, dir)
    }

    #[test]
    fn a_second_lock_on_the_same_directory_is_busy_until_the_first_is_dropped() {
        let (_dir_guard, dir) = temp_dir("lock");
        let first = lock(&dir).unwrap();
        assert!(matches!(first, Lock::Held(_)));
        assert!(matches!(lock(&dir).unwrap(), Lock::Busy));
        drop(first);
        assert!(matches!(lock(&dir).unwrap(), Lock::Held(_)));
    }

    #[test]
    fn damaged_files_of_the_same_second_keep_distinct_names() {
        let (_dir_guard, dir) = temp_dir("aside");
        let path = dir.join("progress.ron");
        std::fs::write(&path, "first").unwrap();
        let one = keep_aside(&path, 7).unwrap();
        std::fs::write(&path, "second").unwrap();
        let two = keep_aside(&path, 7).unwrap();
        assert_ne!(one, two);
        assert_eq!(std::fs::read_to_string(one).unwrap(), "first");
        assert_eq!(std::fs::read_to_string(two).unwrap(), "second");
        assert!(!path.exists());
    }

    #[test]
    fn atomic_writes_replace_the_file_and_leftovers_are_removed() {
        let (_dir_guard, dir) = temp_dir("atomic");
        let path = dir.join("progress.ron");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        std::fs::write(dir.join(".progress.ron.123-0.tmp"), "interrupted").unwrap();
        std::fs::write(dir.join(".progress.ron.99.tmp"), "older scheme").unwrap();
        std::fs::write(dir.join("notes.tmp"), "not ours").unwrap();
        assert_eq!(remove_temporaries(&dir, "progress.ron"), 2);
        assert!(dir.join("notes.tmp").exists());
        assert!(path.exists());
    }

    /// A log on a disk with `room` bytes left.
    struct SmallDisk {
        bytes: Vec<u8>,
        room: usize,
        cut_fails: bool,
    }

    impl Write for SmallDisk {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let free = self.room.saturating_sub(self.bytes.len());
            if free == 0 {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "no space left"));
            }
            let n = buf.len().min(free);
            self.bytes.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl AppendLog for SmallDisk {
        fn length(&self) -> io::Result<u64> {
            Ok(self.bytes.len() as u64)
        }

        fn cut_to(&mut self, len: u64) -> io::Result<()> {
            if self.cut_fails {
                return Err(io::Error::other("read-only"));
            }
            self.bytes.truncate(len as usize);
            Ok(())
        }

        fn flush_to_disk(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_full_disk_cuts_an_append_back_to_the_last_whole_record() {
        let mut disk = SmallDisk {
            bytes: Vec::new(),
            room: 30,
            cut_fails: false,
        };
        append_whole(&mut disk, b"{\"a\":1}\n").unwrap();
        let failed = append_whole(&mut disk, b"{\"b\":22222222222222222222}\n").unwrap_err();
        assert_eq!(failed.error.kind(), io::ErrorKind::StorageFull);
        assert!(!failed.torn);
        assert_eq!(
            disk.bytes, b"{\"a\":1}\n",
            "half a record is never left behind"
        );
        disk.room = 100;
        append_whole(&mut disk, b"{\"c\":3}\n").unwrap();
        assert_eq!(
            disk.bytes, b"{\"a\":1}\n{\"c\":3}\n",
            "the next record starts on its own line"
        );
        disk.cut_fails = true;
        disk.room = disk.bytes.len() + 3;
        let torn = append_whole(&mut disk, b"{\"d\":4}\n").unwrap_err();
        assert!(torn.torn);
        assert_eq!(torn.torn_bytes, 3);
    }

    #[test]
    fn only_regular_files_of_bounded_size_are_read() {
        let root = tempfile::tempdir().unwrap();
        let fifo = root.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Refused before it is opened: opening a FIFO with no writer would block.
            let e = read_regular(&fifo, MAX_SMALL_FILE).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        }
        let e = read_regular(root.path(), MAX_SMALL_FILE).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "a directory");
        if Path::new("/dev/zero").exists() {
            let e = read_regular(Path::new("/dev/zero"), MAX_SMALL_FILE).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "a device");
        }
        let big = root.path().join("big");
        std::fs::write(&big, vec![b'x'; 2048]).unwrap();
        assert_eq!(
            read_regular(&big, 1024).unwrap_err().kind(),
            io::ErrorKind::FileTooLarge
        );
        assert_eq!(read_regular(&big, 4096).unwrap().len(), 2048);
        let missing = read_regular(&root.path().join("none"), 1024).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
    }
}
