//! The roster: the class list, with re-rolls and extra time per student, as a small CSV file that
//! the instructor may also edit by hand.
//!
//! ```text
//! student,extra_minutes,rerolls
//! alice,0,
//! bob,15,2 2 5
//! ```
//!
//! `rerolls` lists step numbers, once per re-roll: bob's step 2 was re-rolled twice, step 5 once.

use super::LabError;
use std::path::Path;

/// Whether a student id is usable: 1–64 letters, digits, `.`, `-`, `_` or `@`.
pub fn valid_student(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '@'))
}

/// The rule [`valid_student`] checks, for messages.
pub const STUDENT_RULE: &str =
    "a student id is 1–64 letters, digits, `.`, `-`, `_` or `@` (no spaces or commas)";

/// One student on the roster.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    /// Student id.
    pub student: String,
    /// Minutes added to the lab's time limit.
    pub extra_minutes: u32,
    /// Step numbers (1-based), once per re-roll.
    pub rerolls: Vec<usize>,
}

impl Entry {
    /// How often step `step` (1-based) was re-rolled.
    pub fn rolls(&self, step: usize) -> u32 {
        self.rerolls.iter().filter(|&&s| s == step).count() as u32
    }
}

/// The class list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Roster {
    /// Students, in file order.
    pub entries: Vec<Entry>,
}

const HEADER: &str = "student,extra_minutes,rerolls";

impl Roster {
    /// The entry of a student (a default one when absent).
    pub fn of(&self, student: &str) -> Entry {
        self.entries
            .iter()
            .find(|e| e.student == student)
            .cloned()
            .unwrap_or_else(|| Entry {
                student: student.to_string(),
                ..Entry::default()
            })
    }

    /// The entry of a student, added when absent.
    pub fn entry(&mut self, student: &str) -> &mut Entry {
        let index = match self.entries.iter().position(|e| e.student == student) {
            Some(index) => index,
            None => {
                self.entries.push(Entry {
                    student: student.to_string(),
                    ..Entry::default()
                });
                self.entries.len() - 1
            }
        };
        &mut self.entries[index]
    }

    /// Parses a roster; `file` names it in messages. A header line is optional.
    pub fn parse(file: &str, text: &str) -> Result<Roster, LabError> {
        let mut roster = Roster::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || (n == 0 && line.starts_with("student")) {
                continue;
            }
            let invalid = |column: usize, message: String| LabError::Invalid {
                file: file.to_string(),
                line: n + 1,
                column,
                message,
            };
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let student = fields[0];
            if !valid_student(student) {
                return Err(invalid(1, STUDENT_RULE.to_string()));
            }
            if roster.entries.iter().any(|e| e.student == student) {
                return Err(invalid(1, format!("`{student}` is listed twice")));
            }
            let column_of =
                |index: usize| fields[..index].iter().map(|f| f.len() + 1).sum::<usize>() + 1;
            let extra_minutes = match fields.get(1).filter(|f| !f.is_empty()) {
                Some(text) => text.parse().map_err(|_| {
                    invalid(
                        column_of(1),
                        format!("extra minutes `{text}` is not a whole number"),
                    )
                })?,
                None => 0,
            };
            let mut rerolls = Vec::new();
            if let Some(text) = fields.get(2) {
                for word in text.split_whitespace() {
                    match word.parse::<usize>() {
                        Ok(step) if step > 0 => rerolls.push(step),
                        _ => {
                            return Err(invalid(
                                column_of(2),
                                format!("re-roll `{word}` is not a step number (1, 2, …)"),
                            ));
                        }
                    }
                }
            }
            roster.entries.push(Entry {
                student: student.to_string(),
                extra_minutes,
                rerolls,
            });
        }
        Ok(roster)
    }

    /// Reads a roster file.
    pub fn load(path: &Path) -> Result<Roster, LabError> {
        if !path.is_file() {
            return Err(LabError::Io {
                path: path.display().to_string(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such roster file"),
            });
        }
        let text = super::store::read(path)?;
        Roster::parse(&path.display().to_string(), &text)
    }

    /// The roster as CSV text.
    pub fn to_csv(&self) -> String {
        let mut text = format!("{HEADER}\n");
        for entry in &self.entries {
            let rerolls: Vec<String> = entry.rerolls.iter().map(ToString::to_string).collect();
            text.push_str(&format!(
                "{},{},{}\n",
                entry.student,
                entry.extra_minutes,
                rerolls.join(" ")
            ));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roster_reads_and_writes_back() {
        let text = "student,extra_minutes,rerolls\nalice,0,\nbob,15,2 2 5\n";
        let roster = Roster::parse("r.csv", text).unwrap();
        assert_eq!(roster.of("bob").rolls(2), 2);
        assert_eq!(roster.of("bob").extra_minutes, 15);
        assert_eq!(roster.of("carol").rolls(1), 0);
        assert_eq!(roster.to_csv(), text);
    }

    #[test]
    fn roster_mistakes_are_located() {
        let err = Roster::parse("r.csv", "student\nalice,x,\n")
            .unwrap_err()
            .to_string();
        assert_eq!(err, "r.csv:2:7: extra minutes `x` is not a whole number");
        let err = Roster::parse("r.csv", "a b,0,\n").unwrap_err().to_string();
        assert!(err.starts_with("r.csv:1:1: a student id"), "{err}");
    }
}
