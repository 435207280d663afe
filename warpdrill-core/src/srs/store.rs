//! The review log on disk: `revlog.jsonl` in the data directory, appended one line per record and
//! flushed to the disk (`fsync`) before the call returns. All of review's file access is here.
//!
//! - A last line cut off by a crash (`kill -9`, power loss) is ignored, reported and kept: before the
//!   next record a newline and a `torn` marker are written after it, so it stays visible in the file
//!   and later loads skip it quietly.
//! - Any other line that is not a record makes the log unreadable: the file is kept aside as
//!   `revlog.jsonl.damaged-<time>` (a name no earlier damaged log has), the learner is told which line
//!   and how to recover, and review starts on a fresh log. If it cannot be moved, nothing is written
//!   this session.
//!
//! - Beside the log, `revlog.snapshot.json` keeps what the log replayed to when it was last opened
//!   ([`super::replay::Snapshot`]), keyed by the log's length and a hash of its last 4 KiB. Opening
//!   reads only what was added since; a snapshot that is missing, unreadable or does not match the
//!   log (edited, cut, replaced, a record older than its newest) is ignored and rebuilt from the
//!   whole log. The log stays the truth: deleting the snapshot loses nothing.
//!
//! Writing — appending, moving a damaged log aside, saving parameters — is for the process that holds
//! the data directory's lock ([`crate::store::lock`]; the tutor holds it through its progress store).
//! Others open the log with [`Access::ReadOnly`].

use super::SrsError;
use super::log::{Kind, Record};
use super::replay::{Replay, Snapshot};
use super::schedule::hash_bytes;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// The log's file name in the data directory.
pub const LOG_FILE: &str = "revlog.jsonl";

/// The snapshot's file name in the data directory.
pub const SNAPSHOT_FILE: &str = "revlog.snapshot.json";

/// The snapshot format this version writes and reads.
const SNAPSHOT_FORMAT: u32 = 1;

/// How many bytes before a snapshot's end of the log its hash covers.
const TAIL_HASHED: u64 = 4096;

/// The snapshot file: the replay and the part of the log it covers.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SnapshotFile {
    format: u32,
    /// The log's bytes the replay covers (a whole number of lines).
    log_bytes: u64,
    /// FNV-1a of the last [`TAIL_HASHED`] of those bytes.
    tail_hash: u64,
    replay: Snapshot,
}

/// The part of the log that the records read so far cover: its first `bytes` bytes, which end
/// with a whole line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covered {
    /// Bytes from the start of the log.
    pub bytes: u64,
    tail_hash: u64,
}

impl Covered {
    /// What the first `len` bytes of the log (held from byte `start` on in `held`) cover.
    fn of(held: &[u8], start: u64, len: u64) -> Covered {
        let end = usize::try_from(len - start)
            .unwrap_or(held.len())
            .min(held.len());
        let from = end.saturating_sub(TAIL_HASHED as usize);
        Covered {
            bytes: len,
            tail_hash: hash_bytes(&held[from..end]),
        }
    }
}

/// Whether this process may change the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// It may: it holds the data directory's lock (or the file system cannot lock).
    Write,
    /// It only reads; the text (if any) says why, for the learner.
    ReadOnly(String),
}

/// The open log.
#[derive(Debug)]
pub struct RevlogFile {
    path: PathBuf,
    file: Option<File>,
    /// Nothing may be written (the file is damaged in place, or could not be read).
    read_only: bool,
    /// Why nothing may be written, for the learner.
    why: String,
    /// Bytes of a cut-off last line still without a newline after it.
    torn_tail: Option<u64>,
}

/// What opening the log found.
#[derive(Debug)]
pub struct LoadedLog {
    /// The log, ready to append to.
    pub log: RevlogFile,
    /// Every record, oldest first.
    pub records: Vec<Record>,
    /// Messages for the learner (a cut-off line, a damaged log moved aside).
    pub notices: Vec<String>,
    /// What the snapshot held, when it matched the log: `records` are then the records after it.
    pub base: Option<Replay>,
    /// The log's bytes the snapshot covered (what [`RevlogFile::older_records`] reads).
    pub base_bytes: u64,
    /// The log's bytes the snapshot and `records` cover together; none when the log could not be
    /// read whole (nothing is snapshotted then).
    pub covered: Option<Covered>,
}

/// A problem with one line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BadLine {
    line: usize,
    message: String,
}

/// What parsing the log found.
#[derive(Debug, Default)]
struct Parsed {
    records: Vec<Record>,
    /// Bytes of a cut-off last line.
    torn_tail: Option<u64>,
    /// The first damaged line.
    damaged: Option<BadLine>,
    /// Lines that repeat an earlier line exactly (counted once).
    duplicates: usize,
}

/// Parses the log's bytes: the records, a torn tail's length, earlier torn lines, and the first
/// damaged line.
#[cfg(test)]
fn parse(bytes: &[u8]) -> (Vec<Record>, Option<u64>, Option<BadLine>) {
    let parsed = parse_all(bytes);
    (parsed.records, parsed.torn_tail, parsed.damaged)
}

/// [`parse`], with the exact repeats of earlier lines counted (and skipped: a line copied twice,
/// by a sync tool or by hand, is one record).
fn parse_all(bytes: &[u8]) -> Parsed {
    use std::collections::HashMap;
    let mut records = Vec::with_capacity(bytes.len() / 200 + 1);
    // Record lines seen, by their record's time: the segments of that time (compared byte for
    // byte). Records rarely share a millisecond, so this costs a lookup of a number per line.
    let mut seen: HashMap<i64, Vec<usize>> = HashMap::with_capacity(bytes.len() / 200 + 1);
    let mut duplicates = 0;
    let mut pending_bad: Option<BadLine> = None;
    let mut damaged = None;
    let mut torn_tail = None;
    let ends_with_newline = bytes.last().is_none_or(|&b| b == b'\n');
    let segments: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let last = segments.len().saturating_sub(1);
    for (i, segment) in segments.iter().enumerate() {
        if segment.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = serde_json::from_slice::<Record>(segment)
            .map_err(|e| e.to_string())
            .and_then(|record| match record.problem() {
                Some(problem) => Err(problem),
                None => Ok(record),
            });
        match parsed {
            Ok(record) => {
                if record.kind == Kind::Torn {
                    // The line before was cut off and has been accounted for.
                    pending_bad = None;
                    continue;
                }
                if let Some(bad) = pending_bad.take() {
                    damaged.get_or_insert(bad);
                }
                // A record line that repeats an earlier one exactly is counted once.
                let same = seen.entry(record.time).or_default();
                if same.iter().any(|&j| segments[j] == *segment) {
                    duplicates += 1;
                    continue;
                }
                same.push(i);
                records.push(record);
            }
            Err(e) => {
                if i == last && !ends_with_newline {
                    torn_tail = Some(segment.len() as u64);
                } else if let Some(bad) = pending_bad.replace(BadLine {
                    line: i + 1,
                    message: e,
                }) {
                    damaged.get_or_insert(bad);
                }
            }
        }
    }
    if let Some(bad) = pending_bad {
        damaged.get_or_insert(bad);
    }
    Parsed {
        records,
        torn_tail,
        damaged,
        duplicates,
    }
}

/// What a matching snapshot resumes: (the first byte held, the log's length, the bytes held from
/// there, the snapshot's replay, the bytes it covers, the lines after it parsed). `None` when
/// there is no snapshot, it cannot be read, or it does not match the log — the whole log is read
/// then.
type Resumed = (u64, u64, Vec<u8>, Option<Replay>, u64, Parsed);

fn resume(dir: &Path, path: &Path) -> Option<Resumed> {
    let text =
        crate::store::read_regular(&dir.join(SNAPSHOT_FILE), crate::store::MAX_LOG_FILE).ok()?;
    let file: SnapshotFile = serde_json::from_slice(&text).ok()?;
    if file.format != SNAPSHOT_FORMAT {
        return None;
    }
    let start = file.log_bytes.saturating_sub(TAIL_HASHED);
    let (total, held) =
        crate::store::read_regular_from(path, start, crate::store::MAX_LOG_FILE).ok()?;
    let head = usize::try_from(file.log_bytes - start).ok()?;
    if total < file.log_bytes || held.len() < head {
        return None;
    }
    let (tail, after) = held.split_at(head);
    if hash_bytes(tail) != file.tail_hash || (file.log_bytes > 0 && tail.last() != Some(&b'\n')) {
        return None;
    }
    let parsed = parse_all(after);
    let newest = file.replay.newest;
    // A damaged or repeated line, or a record older than the snapshot's newest (a line copied
    // in from elsewhere, a clock set back): the whole log is read, as without a snapshot.
    if parsed.damaged.is_some()
        || parsed.duplicates > 0
        || parsed
            .records
            .iter()
            .any(|r| newest.is_some_and(|t| r.time <= t))
    {
        return None;
    }
    let replay = Replay::from_snapshot(file.replay)?;
    Some((start, total, held, Some(replay), file.log_bytes, parsed))
}

impl RevlogFile {
    /// Opens `dir/revlog.jsonl` to write (it is created on the first append); the caller holds the
    /// data directory's lock.
    pub fn open(dir: &Path, now_ms: i64) -> LoadedLog {
        RevlogFile::open_with(dir, now_ms, Access::Write)
    }

    /// Opens `dir/revlog.jsonl` with the given access; `records` are every record of the log.
    pub fn open_with(dir: &Path, now_ms: i64, access: Access) -> LoadedLog {
        RevlogFile::load(dir, now_ms, access, false)
    }

    /// [`RevlogFile::open_with`] from the snapshot beside the log when it matches the log: `base`
    /// is the snapshot's replay and `records` are only the records added after it. Without a
    /// matching snapshot it is [`RevlogFile::open_with`].
    pub fn open_from_snapshot(dir: &Path, now_ms: i64, access: Access) -> LoadedLog {
        RevlogFile::load(dir, now_ms, access, true)
    }

    fn load(dir: &Path, now_ms: i64, access: Access, from_snapshot: bool) -> LoadedLog {
        let path = dir.join(LOG_FILE);
        let mut log = RevlogFile {
            path: path.clone(),
            file: None,
            read_only: access != Access::Write,
            why: match &access {
                Access::ReadOnly(why) if !why.is_empty() => why.clone(),
                _ => "this command only reads it".to_string(),
            },
            torn_tail: None,
        };
        let mut notices = Vec::new();
        if let Access::ReadOnly(why) = &access
            && !why.is_empty()
        {
            notices.push(why.clone());
        }
        let empty = |log, notices| LoadedLog {
            log,
            records: Vec::new(),
            notices,
            base: None,
            base_bytes: 0,
            covered: None,
        };
        let resumed = if from_snapshot {
            resume(dir, &path)
        } else {
            None
        };
        let (held_from, total, bytes, base, base_bytes, parsed) = match resumed {
            Some(resumed) => resumed,
            None => {
                let bytes = match crate::store::read_regular(&path, crate::store::MAX_LOG_FILE) {
                    Ok(bytes) => bytes,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        return LoadedLog {
                            covered: Some(Covered::of(&[], 0, 0)),
                            ..empty(log, notices)
                        };
                    }
                    Err(e) => {
                        log.read_only = true;
                        log.why = format!("it could not be read ({e})");
                        notices.push(format!(
                            "Could not read your review log {} ({e}); nothing will be saved this time.",
                            path.display()
                        ));
                        return empty(log, notices);
                    }
                };
                let parsed = parse_all(&bytes);
                (0, bytes.len() as u64, bytes, None, 0, parsed)
            }
        };
        let Parsed {
            records,
            torn_tail,
            damaged,
            duplicates,
        } = parsed;
        if duplicates > 0 && damaged.is_none() {
            notices.push(format!(
                "Your review log {} repeats {duplicates} line(s) exactly (copied twice, perhaps by \
                 a sync tool); each is counted once.",
                path.display()
            ));
        }
        if let Some(bad) = damaged {
            if log.read_only {
                notices.push(format!(
                    "Your review log {} is damaged (line {}: {}); it was left as it is. Fix that line, \
                     or open the tutor on this data directory alone to have it kept aside.",
                    path.display(),
                    bad.line,
                    bad.message
                ));
                return empty(log, notices);
            }
            let now_secs = u64::try_from(now_ms / 1000).unwrap_or(0);
            let notice = match crate::store::keep_aside(&path, now_secs) {
                Ok(aside) => {
                    // The snapshot was of the log kept aside.
                    let _ = std::fs::remove_file(dir.join(SNAPSHOT_FILE));
                    format!(
                        "Your review log was damaged (line {}: {}). It was kept as {} and review starts \
                         on a fresh log. To recover your history: fix or delete that line, append any \
                         lines of the new {LOG_FILE} to it, and move it back to {}.",
                        bad.line,
                        bad.message,
                        aside.display(),
                        path.display()
                    )
                }
                Err(rename) => {
                    log.read_only = true;
                    log.why = format!("it is damaged and could not be moved aside ({rename})");
                    format!(
                        "Your review log {} is damaged (line {}: {}) and could not be moved aside \
                         ({rename}); nothing is saved until you fix or move it.",
                        path.display(),
                        bad.line,
                        bad.message
                    )
                }
            };
            notices.push(notice);
            return empty(log, notices);
        }
        if let Some(bytes) = torn_tail {
            log.torn_tail = (!log.read_only).then_some(bytes);
            notices.push(format!(
                "The last line of your review log {} ({bytes} bytes) was cut off, probably by a \
                 crash while a rating was saved. It is ignored and kept in the file; every rating \
                 before it is safe.",
                path.display()
            ));
        }
        let whole = total - torn_tail.unwrap_or(0);
        LoadedLog {
            log,
            records,
            notices,
            base,
            base_bytes,
            covered: Some(Covered::of(&bytes, held_from, whole)),
        }
    }

    /// The records of the log's first `bytes` bytes (those a snapshot covered), read again for
    /// the statistics and exports that go through the whole history; none if the log cannot be
    /// read now.
    pub fn older_records(&self, bytes: u64) -> Vec<Record> {
        if bytes == 0 {
            return Vec::new();
        }
        match crate::store::read_regular(&self.path, crate::store::MAX_LOG_FILE) {
            Ok(all) if all.len() as u64 >= bytes => {
                parse_all(&all[..usize::try_from(bytes).unwrap_or(all.len())]).records
            }
            _ => Vec::new(),
        }
    }

    /// Keeps `replay` — what the log's first `covered` bytes replay to — beside the log, for the
    /// next opening. A reader writes nothing; a failure is only a slower next opening.
    pub fn save_snapshot(&self, replay: &Replay, covered: Covered) {
        if self.read_only {
            return;
        }
        let file = SnapshotFile {
            format: SNAPSHOT_FORMAT,
            log_bytes: covered.bytes,
            tail_hash: covered.tail_hash,
            replay: replay.snapshot(),
        };
        let Some(dir) = self.path.parent() else {
            return;
        };
        if let Ok(bytes) = serde_json::to_vec(&file) {
            let _ = crate::store::write_atomic(&dir.join(SNAPSHOT_FILE), &bytes);
        }
    }

    /// The log file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether records can be appended.
    pub fn writable(&self) -> bool {
        !self.read_only
    }

    fn read_only_error(&self) -> SrsError {
        SrsError::ReadOnly {
            path: self.path.display().to_string(),
            why: self.why.clone(),
        }
    }

    /// Appends `records` and flushes them to the disk before returning.
    pub fn append(&mut self, records: &[Record]) -> Result<(), SrsError> {
        if self.read_only {
            return Err(self.read_only_error());
        }
        let io = |action, source| SrsError::Io {
            action,
            path: self.path.display().to_string(),
            source,
        };
        let mut text = String::new();
        if let Some(bytes) = self.torn_tail {
            let time = records.first().map_or(0, |r| r.time);
            text.push('\n');
            text.push_str(
                &Record {
                    time,
                    kind: Kind::Torn,
                    bytes: Some(bytes),
                    ..Record::default()
                }
                .to_line(),
            );
        }
        for record in records {
            text.push_str(&record.to_line());
        }
        if self.file.is_none() {
            let dir = self.path.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(dir).map_err(|e| io("cannot create the folder of", e))?;
            crate::store::refuse_link(&self.path).map_err(|e| io("cannot append to", e))?;
            let existed = self.path.exists();
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)
                .map_err(|e| io("cannot open", e))?;
            if !existed {
                // Make the new file's name durable too.
                if let Ok(dir) = File::open(dir) {
                    let _ = dir.sync_all();
                }
            }
            self.file = Some(file);
        }
        let Some(file) = self.file.as_mut() else {
            return Err(self.read_only_error());
        };
        // A full disk cuts the append back to the last whole record; where it cannot, the next
        // append starts on a fresh line and marks the torn tail.
        if let Err(failed) = crate::store::append_whole(file, text.as_bytes()) {
            if failed.torn {
                self.torn_tail = Some(failed.torn_bytes.max(1));
            }
            return Err(io("cannot append to", failed.error));
        }
        self.torn_tail = None;
        Ok(())
    }
}

/// The parameters file's name in the data directory (written by `warpdrill review optimize`).
pub const PARAMETERS_FILE: &str = "fsrs-parameters.ron";

/// The FSRS parameters fitted to this learner, if saved: `Ok(None)` when there are none yet, `Err`
/// with a message when the file cannot be used (the defaults are used then).
pub fn load_parameters(dir: &Path) -> Result<Option<Vec<f32>>, String> {
    let path = dir.join(PARAMETERS_FILE);
    match crate::store::read_regular_text(&path, crate::store::MAX_SMALL_FILE) {
        Ok(text) => ron::from_str::<Vec<f32>>(&text).map(Some).map_err(|e| {
            format!(
                "{} cannot be read ({e}); the default parameters are used — run `warpdrill review \
                 optimize` to fit new ones",
                path.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!(
            "cannot read {} ({e}); the default parameters are used",
            path.display()
        )),
    }
}

/// Saves fitted parameters atomically ([`crate::store::write_atomic`]); the caller holds the data
/// directory's lock.
pub fn save_parameters(dir: &Path, parameters: &[f32]) -> Result<PathBuf, SrsError> {
    let path = dir.join(PARAMETERS_FILE);
    let io = |action, source| SrsError::Io {
        action,
        path: path.display().to_string(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| io("cannot create the folder of", e))?;
    let text = format!(
        "// FSRS parameters fitted to your review log by `warpdrill review optimize`.\n[{}]\n",
        parameters
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    crate::store::write_atomic(&path, text.as_bytes()).map_err(|e| io("cannot write", e))?;
    Ok(path)
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

    fn record(time: i64) -> Record {
        Record::about(time, "bank-gcd", 0, Kind::Suspend)
    }

    #[test]
    fn records_round_trip() {
        let (_dir_guard, dir) = temp_dir("round");
        let mut opened = RevlogFile::open(&dir, 0);
        opened.log.append(&[record(1), record(2)]).unwrap();
        opened.log.append(&[record(3)]).unwrap();
        let again = RevlogFile::open(&dir, 0);
        assert!(again.notices.is_empty());
        assert_eq!(again.records, vec![record(1), record(2), record(3)]);
    }

    #[test]
    fn a_torn_last_line_is_ignored_reported_and_kept() {
        let (_dir_guard, dir) = temp_dir("torn");
        let path = dir.join(LOG_FILE);
        let whole = record(1).to_line();
        let torn = &record(2).to_line()[..20];
        std::fs::write(&path, format!("{whole}{torn}")).unwrap();
        let mut opened = RevlogFile::open(&dir, 0);
        assert_eq!(opened.records, vec![record(1)]);
        assert_eq!(opened.notices.len(), 1);
        assert!(
            opened.notices[0].contains("cut off"),
            "{:?}",
            opened.notices
        );
        opened.log.append(&[record(3)]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(torn), "the torn bytes are kept: {text}");
        let again = RevlogFile::open(&dir, 0);
        assert!(again.notices.is_empty(), "{:?}", again.notices);
        assert_eq!(again.records, vec![record(1), record(3)]);
    }

    #[test]
    fn a_damaged_log_is_kept_aside_and_the_learner_told_how_to_recover() {
        let (_dir_guard, dir) = temp_dir("damaged");
        let path = dir.join(LOG_FILE);
        let text = format!(
            "{}garbage here\n{}",
            record(1).to_line(),
            record(2).to_line()
        );
        std::fs::write(&path, &text).unwrap();
        let mut opened = RevlogFile::open(&dir, 77_000);
        assert!(opened.records.is_empty());
        let notice = opened.notices.join("\n");
        assert!(notice.contains("line 2"), "{notice}");
        assert!(notice.contains("revlog.jsonl.damaged-77"), "{notice}");
        assert!(notice.contains("move it back"), "{notice}");
        let aside = dir.join("revlog.jsonl.damaged-77");
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
        opened.log.append(&[record(5)]).unwrap();
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
        assert_eq!(RevlogFile::open(&dir, 78_000).records, vec![record(5)]);
        // A second damaged log on the same second gets a name of its own.
        std::fs::write(dir.join(LOG_FILE), "garbage\n{}\n").unwrap();
        let again = RevlogFile::open(&dir, 77_000);
        assert!(
            again.notices[0].contains("revlog.jsonl.damaged-77-2"),
            "{:?}",
            again.notices
        );
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
    }

    #[test]
    fn a_reader_changes_nothing() {
        let (_dir_guard, dir) = temp_dir("reader");
        let path = dir.join(LOG_FILE);
        let torn = format!("{}{{\"ti", record(1).to_line());
        std::fs::write(&path, &torn).unwrap();
        let mut opened = RevlogFile::open_with(&dir, 0, Access::ReadOnly("busy".into()));
        assert_eq!(opened.records, vec![record(1)]);
        assert_eq!(opened.notices[0], "busy");
        match opened.log.append(&[record(2)]) {
            Err(e @ SrsError::ReadOnly { .. }) => {
                let text = e.to_string();
                assert!(text.contains("busy"), "the reason is named: {text}");
                assert!(!text.contains("damaged"), "{text}");
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(&path, "garbage\n").unwrap();
        let damaged = RevlogFile::open_with(&dir, 0, Access::ReadOnly(String::new()));
        assert!(
            damaged.notices[0].contains("left as it is"),
            "{:?}",
            damaged.notices
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "garbage\n");
    }

    #[test]
    fn parameters_round_trip() {
        let (_dir_guard, dir) = temp_dir("params");
        assert_eq!(load_parameters(&dir), Ok(None));
        let params: Vec<f32> = fsrs::DEFAULT_PARAMETERS.to_vec();
        save_parameters(&dir, &params).unwrap();
        assert_eq!(load_parameters(&dir), Ok(Some(params)));
        std::fs::write(dir.join(PARAMETERS_FILE), "[1, oops]").unwrap();
        assert!(
            load_parameters(&dir)
                .unwrap_err()
                .contains("default parameters")
        );
    }

    #[test]
    fn a_misspelt_or_missing_field_makes_a_damaged_line_reported_and_kept() {
        let rating = Record {
            rating: Some(3),
            after: Some(crate::srs::Phase::Learning),
            ..Record::about(5, "bank-gcd", 0, Kind::Rate)
        }
        .to_line();
        assert!(rating.contains("\"card\""), "{rating}");
        for (name, bad) in [
            ("card misspelt", rating.replace("\"card\"", "\"cxrd\"")),
            (
                "rating misspelt",
                rating.replace("\"rating\"", "\"ratinf\""),
            ),
            ("card missing", rating.replace("\"card\":\"bank-gcd\",", "")),
            (
                "rating out of range",
                rating.replace("\"rating\":3", "\"rating\":7"),
            ),
            (
                "undo naming nothing",
                Record::about(6, "bank-gcd", 0, Kind::Undo).to_line(),
            ),
        ] {
            let (_dir_guard, dir) = temp_dir("strict");
            let text = format!("{}{bad}{}", record(1).to_line(), record(9).to_line());
            std::fs::write(dir.join(LOG_FILE), &text).unwrap();
            let opened = RevlogFile::open(&dir, 50_000);
            let notice = opened.notices.join("\n");
            assert!(notice.contains("line 2"), "{name}: {notice}");
            assert!(opened.records.is_empty(), "{name}");
            // Kept, byte for byte.
            let aside = dir.join("revlog.jsonl.damaged-50");
            assert_eq!(std::fs::read_to_string(&aside).unwrap(), text, "{name}");
        }
    }

    #[test]
    fn an_exact_duplicate_line_counts_once() {
        let (_dir_guard, dir) = temp_dir("dup");
        let a = record(1).to_line();
        let b = record(2).to_line();
        std::fs::write(dir.join(LOG_FILE), format!("{a}{b}{a}{b}{b}")).unwrap();
        let opened = RevlogFile::open(&dir, 0);
        assert_eq!(opened.records, vec![record(1), record(2)]);
        assert!(
            opened.notices.iter().any(|n| n.contains("repeats 3")),
            "{:?}",
            opened.notices
        );
    }

    #[test]
    fn parse_tells_torn_from_damaged() {
        let a = record(1).to_line();
        let (records, torn, damaged) = parse(format!("{a}{{\"ti").as_bytes());
        assert_eq!((records.len(), torn, damaged), (1, Some(4), None));
        let (_, torn, damaged) = parse(format!("{a}{{\"ti\n").as_bytes());
        assert_eq!(torn, None);
        assert_eq!(damaged.map(|d| d.line), Some(2));
        let (records, _, damaged) = parse(b"");
        assert!(records.is_empty() && damaged.is_none());
    }
}
