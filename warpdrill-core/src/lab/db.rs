//! The served lab's database: one SQLite file (WAL) on the instructor's machine holding every event
//! of the class in an append-only table. Each event is committed (and synced) before the call
//! returns, so an answer a student was told about is on disk; triggers refuse any update or delete,
//! so the history can only grow.

use super::LabError;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;

/// What happened, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The student opened the lab (first time or again).
    Start,
    /// An answer was graded.
    Attempt,
    /// A hint was taken.
    Hint,
    /// The lab was handed in (by the student, or by the server's clock at time-up).
    Submit,
    /// The instructor gave extra minutes (`value`).
    ExtraTime,
    /// The instructor gave a step new numbers.
    Reroll,
    /// The instructor regraded a step for the whole class (`note`: `drop`, `credit` or `accept`,
    /// with the accepted `answer`); student `*`.
    Regrade,
}

impl Kind {
    /// The stored word.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Start => "start",
            Kind::Attempt => "attempt",
            Kind::Hint => "hint",
            Kind::Submit => "submit",
            Kind::ExtraTime => "extra_time",
            Kind::Reroll => "reroll",
            Kind::Regrade => "regrade",
        }
    }

    fn from_word(word: &str) -> Option<Kind> {
        [
            Kind::Start,
            Kind::Attempt,
            Kind::Hint,
            Kind::Submit,
            Kind::ExtraTime,
            Kind::Reroll,
            Kind::Regrade,
        ]
        .into_iter()
        .find(|k| k.word() == word)
    }
}

/// One stored event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// 1, 2, 3 … in the order committed.
    pub id: i64,
    /// Unix seconds, by the server's clock.
    pub at: u64,
    /// Student id.
    pub student: String,
    /// What happened.
    pub kind: Kind,
    /// Step number (1-based) of an attempt, hint or re-roll.
    pub step: Option<usize>,
    /// Exercise id answered.
    pub exercise: Option<String>,
    /// Variant seed answered.
    pub seed: Option<u64>,
    /// The answer as typed.
    pub answer: Option<String>,
    /// `correct`, `wrong` or `unusable`, as graded by the server.
    pub outcome: Option<String>,
    /// Seconds on the step (attempts) or minutes given (extra time).
    pub value: u64,
    /// A note (`time up` on an automatic hand-in).
    pub note: Option<String>,
}

impl Row {
    /// An event of `kind` for `student` at `at`, with nothing else set.
    pub fn new(student: &str, kind: Kind, at: u64) -> Row {
        Row {
            id: 0,
            at,
            student: student.to_string(),
            kind,
            step: None,
            exercise: None,
            seed: None,
            answer: None,
            outcome: None,
            value: 0,
            note: None,
        }
    }
}

/// The class's database.
#[derive(Debug)]
pub struct Db {
    conn: Connection,
    path: String,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  student TEXT NOT NULL,
  kind TEXT NOT NULL,
  step INTEGER,
  exercise TEXT,
  seed TEXT,
  answer TEXT,
  outcome TEXT,
  value INTEGER NOT NULL DEFAULT 0,
  note TEXT
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
";

impl Db {
    /// Opens (creating when absent) the database of lab `lab` version `version`. A database of
    /// another lab or version is refused, so one file never mixes two classes' results.
    pub fn open(path: &Path, lab: &str, version: u32) -> Result<Db, LabError> {
        let name = path.display().to_string();
        let conn = Connection::open(path).map_err(|e| sql(&name, e))?;
        let db = Db { conn, path: name };
        db.conn
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| db.err(e))?;
        // FULL: a commit is synced before it returns, WAL or not.
        db.conn
            .pragma_update(None, "synchronous", "FULL")
            .map_err(|e| db.err(e))?;
        db.conn
            .busy_timeout(std::time::Duration::from_secs(5))
            .map_err(|e| db.err(e))?;
        db.conn.execute_batch(SCHEMA).map_err(|e| db.err(e))?;
        let stamp = format!("{lab} v{version}");
        let stored: Option<String> = db
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'lab'", [], |r| r.get(0))
            .optional()
            .map_err(|e| db.err(e))?;
        match stored {
            Some(stored) if stored != stamp => {
                return Err(LabError::Closed(format!(
                    "{}: this database holds lab {stored}, not {stamp}; give another --db",
                    db.path
                )));
            }
            Some(_) => {}
            None => {
                db.conn
                    .execute(
                        "INSERT INTO meta (key, value) VALUES ('lab', ?1)",
                        params![stamp],
                    )
                    .map_err(|e| db.err(e))?;
            }
        }
        Ok(db)
    }

    /// Opens an existing database to read it (reports), whatever lab it holds; returns the lab it
    /// holds as `id v<version>`.
    pub fn open_read(path: &Path) -> Result<(Db, String), LabError> {
        let name = path.display().to_string();
        if !path.is_file() {
            return Err(LabError::Io {
                path: name,
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such database"),
            });
        }
        let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| sql(&name, e))?;
        let db = Db { conn, path: name };
        let stamp: String = db
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'lab'", [], |r| r.get(0))
            .map_err(|e| db.err(e))?;
        Ok((db, stamp))
    }

    fn err(&self, e: rusqlite::Error) -> LabError {
        sql(&self.path, e)
    }

    /// Records where the roster the lab is served with is, so that `lab report --db` finds it
    /// without being told.
    pub fn set_roster(&self, roster: &Path) -> Result<(), LabError> {
        let path = std::fs::canonicalize(roster).unwrap_or_else(|_| roster.to_path_buf());
        self.conn
            .execute(
                "INSERT INTO meta (key, value) VALUES ('roster', ?1) \
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [path.display().to_string()],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// The roster the lab was last served with, if the server recorded it.
    pub fn roster(&self) -> Option<std::path::PathBuf> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = 'roster'", [], |r| {
                r.get::<_, String>(0)
            })
            .ok()
            .map(std::path::PathBuf::from)
    }

    /// Commits one event; returns its id. Once this returns, the event is on disk.
    pub fn append(&self, row: &Row) -> Result<i64, LabError> {
        self.conn
            .execute(
                "INSERT INTO events (at, student, kind, step, exercise, seed, answer, outcome, value, note)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    i64::try_from(row.at).unwrap_or(i64::MAX),
                    row.student,
                    row.kind.word(),
                    row.step.map(|s| i64::try_from(s).unwrap_or(i64::MAX)),
                    row.exercise,
                    row.seed.map(|s| s.to_string()),
                    row.answer,
                    row.outcome,
                    i64::try_from(row.value).unwrap_or(i64::MAX),
                    row.note,
                ],
            )
            .map_err(|e| self.err(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The id of the newest event (0 when there is none).
    pub fn last_id(&self) -> Result<i64, LabError> {
        self.conn
            .query_row("SELECT COALESCE(MAX(id), 0) FROM events", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    /// Every event, in the order committed. Rows this version cannot read are skipped and counted.
    pub fn events(&self) -> Result<(Vec<Row>, usize), LabError> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT id, at, student, kind, step, exercise, seed, answer, outcome, value, note
                 FROM events ORDER BY id",
            )
            .map_err(|e| self.err(e))?;
        let mut rows = Vec::new();
        let mut skipped = 0;
        let mapped = statement
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, Option<String>>(7)?,
                    r.get::<_, Option<String>>(8)?,
                    r.get::<_, i64>(9)?,
                    r.get::<_, Option<String>>(10)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        for row in mapped {
            let Ok((id, at, student, kind, step, exercise, seed, answer, outcome, value, note)) =
                row
            else {
                skipped += 1;
                continue;
            };
            let Some(kind) = Kind::from_word(&kind) else {
                skipped += 1;
                continue;
            };
            rows.push(Row {
                id,
                at: u64::try_from(at).unwrap_or(0),
                student,
                kind,
                step: step.and_then(|s| usize::try_from(s).ok()),
                exercise,
                seed: seed.and_then(|s| s.parse().ok()),
                answer,
                outcome,
                value: u64::try_from(value).unwrap_or(0),
                note,
            });
        }
        Ok((rows, skipped))
    }
}

fn sql(path: &str, e: rusqlite::Error) -> LabError {
    LabError::Io {
        path: path.to_string(),
        source: std::io::Error::other(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_kept_in_order_and_cannot_be_changed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("class.db");
        let db = Db::open(&path, "lab", 1).unwrap();
        let mut row = Row::new("amy", Kind::Attempt, 100);
        row.step = Some(2);
        row.seed = Some(u64::MAX);
        row.answer = Some("5 sectors".into());
        db.append(&Row::new("amy", Kind::Start, 99)).unwrap();
        db.append(&row).unwrap();
        drop(db);
        let db = Db::open(&path, "lab", 1).unwrap();
        let (rows, skipped) = db.events().unwrap();
        assert_eq!(skipped, 0);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].seed, Some(u64::MAX), "a seed keeps all 64 bits");
        assert_eq!(rows[1].answer.as_deref(), Some("5 sectors"));
        assert!(db.conn.execute("DELETE FROM events", []).is_err());
        assert!(
            db.conn
                .execute("UPDATE events SET answer = 'x'", [])
                .is_err()
        );
        assert_eq!(db.events().unwrap().0.len(), 2);
        let other = Db::open(&path, "lab", 2).unwrap_err().to_string();
        assert!(other.contains("holds lab lab v1"), "{other}");
    }
}
