//! A student's results: one JSON object per line, one line per event (start, attempt, hint, submit).
//! Each record holds the hash of the one before it (`prev`) and its own `hash`, keyed with the lab
//! secret over the record's text; the receipt is keyed over the last hash. Reading is forgiving: a
//! damaged line is reported and skipped, and everything readable is kept.

use super::file::Lab;
use super::seed;
use crate::ladder::Outcome;
use serde::{Deserialize, Serialize};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Event {
    /// The lab was opened (first time or again).
    Start,
    /// An answer was graded.
    Attempt,
    /// A hint was taken.
    Hint,
    /// The student handed the lab in.
    Submit,
}

pub use crate::ladder::attempt::Given;

/// `correct` or `wrong`.
pub fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Correct => "correct",
        Outcome::Wrong => "wrong",
        Outcome::Unusable => "unusable",
        Outcome::Compare => "compare",
    }
}

/// One line of a results file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Lab id.
    pub lab: String,
    /// Lab version.
    pub version: u32,
    /// Student id.
    pub student: String,
    /// 0, 1, 2 … in the file.
    pub seq: u64,
    /// Unix seconds.
    pub at: u64,
    /// What happened.
    pub event: Event,
    /// Step number (1-based) of an attempt or hint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// Exercise id of the step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exercise: Option<String>,
    /// Seed of the variant answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The answer as the student saw it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// The answer as graded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given: Option<Given>,
    /// `correct` or `wrong`, as graded on the student's machine (a report grades again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Hints taken on this step so far.
    #[serde(default)]
    pub hints: u32,
    /// Seconds on this step since the last attempt (or since it was opened).
    #[serde(default)]
    pub seconds: u64,
    /// What the tutor noted (a start after a damaged file was repaired).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The previous record's hash (the chain's genesis for the first).
    pub prev: String,
    /// This record's hash.
    pub hash: String,
}

impl Record {
    /// A record of `event`, not yet sealed.
    pub fn new(lab: &Lab, student: &str, event: Event, at: u64) -> Record {
        Record {
            lab: lab.id.clone(),
            version: lab.version,
            student: student.to_string(),
            seq: 0,
            at,
            event,
            step: None,
            exercise: None,
            seed: None,
            answer: None,
            given: None,
            outcome: None,
            hints: 0,
            seconds: 0,
            note: None,
            prev: String::new(),
            hash: String::new(),
        }
    }

    /// The hash this record should carry.
    pub fn expected_hash(&self, secret: &str) -> String {
        let mut unsealed = self.clone();
        unsealed.hash.clear();
        seed::record_hash(secret, &unsealed.to_line())
    }

    /// Links the record after `prev` (with sequence number `seq`) and sets its hash.
    pub fn seal(&mut self, secret: &str, seq: u64, prev: &str) {
        self.seq = seq;
        self.prev = prev.to_string();
        self.hash = self.expected_hash(secret);
    }

    /// One JSON line (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The recorded outcome.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.outcome.as_deref() {
            Some("correct") => Some(Outcome::Correct),
            Some("wrong") => Some(Outcome::Wrong),
            _ => None,
        }
    }
}

/// A line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// 1-based line.
    pub line: usize,
    /// Why.
    pub message: String,
}

/// What a results file holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    /// Readable records with their line numbers.
    pub records: Vec<(usize, Record)>,
    /// Lines that are not records.
    pub damage: Vec<Damage>,
}

/// Reads a results file's text; every readable line is kept.
pub fn parse(text: &str) -> Parsed {
    let mut parsed = Parsed::default();
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let last = i + 1 == lines.len();
        match serde_json::from_str::<Record>(line) {
            Ok(record) if !last || complete => parsed.records.push((i + 1, record)),
            Ok(_) => parsed.damage.push(Damage {
                line: i + 1,
                message: "the last line was cut off (no newline)".into(),
            }),
            Err(e) => parsed.damage.push(Damage {
                line: i + 1,
                message: if last && !complete {
                    "the file ends in a cut-off line".to_string()
                } else {
                    format!("not a results record ({e})")
                },
            }),
        }
    }
    parsed
}

/// What checking a student's chain found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chain {
    /// Each problem once, with its line: a changed record, a break (records removed, added or
    /// moved before it: one break however many records follow it), a record of another student, lab
    /// or version.
    pub problems: Vec<String>,
    /// How many records from the start verify and link: only these count for a grade.
    pub trusted: usize,
}

/// Checks a student's records: each hash (keyed with the student's chain `key`), each link to the
/// record before, each sequence number against the one before.
pub fn check_chain(key: &str, lab: &Lab, student: &str, records: &[(usize, Record)]) -> Chain {
    let mut chain = Chain::default();
    let mut prev = seed::genesis(key, lab, student);
    let mut next_seq = 0;
    let mut intact = true;
    for (line, record) in records {
        let mut good = true;
        if record.lab != lab.id || record.version != lab.version {
            chain.problems.push(format!(
                "line {line}: belongs to lab `{}` version {}, not `{}` version {}",
                record.lab, record.version, lab.id, lab.version
            ));
            break;
        }
        if record.student != student {
            chain.problems.push(format!(
                "line {line}: a record of `{}` in `{student}`'s results",
                record.student
            ));
            good = false;
        }
        if record.hash != record.expected_hash(key) {
            chain.problems.push(format!(
                "line {line}: the record was changed after it was written"
            ));
            good = false;
        }
        if record.prev != prev || record.seq != next_seq {
            chain.problems.push(format!(
                "line {line}: the chain breaks here (a record before it was removed, added or moved)"
            ));
            good = false;
        }
        // Resynchronise on this record, so one removal is one break.
        prev = record.hash.clone();
        next_seq = record.seq.saturating_add(1);
        intact &= good;
        if intact {
            chain.trusted += 1;
        }
    }
    chain
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Lab {
        Lab::parse(
            "t.ron",
            r#"Lab(id: "t", title: "T", version: 1, secret: "a test secret",
               steps: [Exercise("l1-sector-size")], points: [10])"#,
        )
        .unwrap()
    }

    fn chain(lab: &Lab, n: usize) -> Vec<(usize, Record)> {
        let key = seed::chain_key(lab, "amy");
        let mut prev = seed::genesis(&key, lab, "amy");
        (0..n)
            .map(|i| {
                let mut r = Record::new(lab, "amy", Event::Hint, 100 + i as u64);
                r.step = Some(1);
                r.seal(&key, i as u64, &prev);
                prev = r.hash.clone();
                (i + 1, r)
            })
            .collect()
    }

    #[test]
    fn a_sealed_chain_verifies_and_edits_break_it() {
        let lab = lab();
        let key = seed::chain_key(&lab, "amy");
        let records = chain(&lab, 12);
        let whole = check_chain(&key, &lab, "amy", &records);
        assert!(whole.problems.is_empty(), "{:?}", whole.problems);
        assert_eq!(whole.trusted, 12);
        let mut edited = records.clone();
        edited[1].1.hints = 5;
        let checked = check_chain(&key, &lab, "amy", &edited);
        assert_eq!(checked.problems.len(), 1, "{:?}", checked.problems);
        assert_eq!(
            checked.trusted, 1,
            "nothing from the changed record on counts"
        );
        // One removed line is one break, not one per record after it.
        let mut removed = records.clone();
        removed.remove(1);
        let checked = check_chain(&key, &lab, "amy", &removed);
        assert_eq!(checked.problems.len(), 1, "{:?}", checked.problems);
        assert!(checked.problems[0].starts_with("line 3: the chain breaks"));
        assert_eq!(checked.trusted, 1);
        // Another student's key does not verify this chain.
        let other = seed::chain_key(&lab, "bo");
        assert_eq!(check_chain(&other, &lab, "amy", &records).trusted, 0);
    }

    #[test]
    fn a_cut_off_file_keeps_every_whole_line() {
        let lab = lab();
        let text: String = chain(&lab, 3)
            .iter()
            .map(|(_, r)| format!("{}\n", r.to_line()))
            .collect();
        let cut = &text[..text.len() - 20];
        let parsed = parse(cut);
        assert_eq!(parsed.records.len(), 2);
        assert_eq!(parsed.damage.len(), 1);
        assert_eq!(parsed.damage[0].line, 3);
    }
}
