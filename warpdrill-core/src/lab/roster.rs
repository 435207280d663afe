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
    /// The student's name, for gradebook exports (`name` column).
    pub name: String,
    /// Their email (`email` column).
    pub email: String,
    /// Their section (`section` column).
    pub section: String,
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
    /// `#` comment lines, each with the number of students listed before it (a rewrite keeps them
    /// where they were).
    pub comments: Vec<(usize, String)>,
}

/// The columns a roster may have, in the order a rewrite writes them.
const COLUMNS: [&str; 6] = [
    "student",
    "extra_minutes",
    "rerolls",
    "name",
    "email",
    "section",
];

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

    /// Parses a roster; `file` names it in messages. A header line is optional: without one the
    /// columns are `student,extra_minutes,rerolls`; with one (its first field is exactly
    /// `student`) the columns are named, in any order, among `student`, `extra_minutes`,
    /// `rerolls`, `name`, `email` and `section`. Fields may be quoted (`"Lee, Amy"`).
    pub fn parse(file: &str, text: &str) -> Result<Roster, LabError> {
        let mut roster = Roster::default();
        let mut columns: Vec<String> = COLUMNS[..3].iter().map(|c| c.to_string()).collect();
        let mut header_seen = false;
        for (n, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed.starts_with('#') {
                roster
                    .comments
                    .push((roster.entries.len(), trimmed.to_string()));
                continue;
            }
            let invalid = |column: usize, message: String| LabError::Invalid {
                file: file.to_string(),
                line: n + 1,
                column,
                message,
            };
            let fields = split_fields(trimmed);
            if !header_seen && roster.entries.is_empty() && fields[0] == "student" {
                header_seen = true;
                columns = fields.iter().map(|f| f.to_ascii_lowercase()).collect();
                if let Some((i, unknown)) = columns
                    .iter()
                    .enumerate()
                    .find(|(_, c)| !COLUMNS.contains(&c.as_str()))
                {
                    return Err(invalid(
                        column_at(&fields, i),
                        format!(
                            "unknown column `{unknown}` (the columns are {})",
                            COLUMNS.join(", ")
                        ),
                    ));
                }
                continue;
            }
            // A column the header does not name keeps its place of the header-less order
            // (`student,extra_minutes,rerolls`): a header of `student` alone still reads minutes.
            let field = |name: &str| {
                columns
                    .iter()
                    .position(|c| c == name)
                    .or_else(|| {
                        COLUMNS[..3]
                            .iter()
                            .position(|c| *c == name)
                            .filter(|&i| i >= columns.len())
                    })
                    .and_then(|i| fields.get(i).map(|f| (i, f.as_str())))
                    .filter(|(_, f)| !f.is_empty())
            };
            let student = field("student").map_or("", |(_, f)| f);
            if !valid_student(student) {
                return Err(invalid(1, STUDENT_RULE.to_string()));
            }
            if roster.entries.iter().any(|e| e.student == student) {
                return Err(invalid(1, format!("`{student}` is listed twice")));
            }
            let extra_minutes = match field("extra_minutes") {
                Some((i, text)) => text.parse().map_err(|_| {
                    invalid(
                        column_at(&fields, i),
                        format!("extra minutes `{text}` is not a whole number"),
                    )
                })?,
                None => 0,
            };
            let mut rerolls = Vec::new();
            if let Some((i, text)) = field("rerolls") {
                for word in text.split_whitespace() {
                    match word.parse::<usize>() {
                        Ok(step) if step > 0 => rerolls.push(step),
                        _ => {
                            return Err(invalid(
                                column_at(&fields, i),
                                format!("re-roll `{word}` is not a step number (1, 2, …)"),
                            ));
                        }
                    }
                }
            }
            let text_of = |name: &str| field(name).map_or(String::new(), |(_, f)| f.to_string());
            roster.entries.push(Entry {
                student: student.to_string(),
                extra_minutes,
                rerolls,
                name: text_of("name"),
                email: text_of("email"),
                section: text_of("section"),
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

    /// The roster as CSV text, with its header, its comments where they were, and the name, email
    /// and section columns when any student has one.
    pub fn to_csv(&self) -> String {
        let people = self
            .entries
            .iter()
            .any(|e| !e.name.is_empty() || !e.email.is_empty() || !e.section.is_empty());
        let columns = if people { &COLUMNS[..] } else { &COLUMNS[..3] };
        let mut text = crate::text::csv_row(columns);
        let comments_at = |i: usize, text: &mut String| {
            for (_, comment) in self.comments.iter().filter(|(at, _)| *at == i) {
                text.push_str(comment);
                text.push('\n');
            }
        };
        for (i, entry) in self.entries.iter().enumerate() {
            comments_at(i, &mut text);
            let rerolls: Vec<String> = entry.rerolls.iter().map(ToString::to_string).collect();
            let mut fields = vec![
                entry.student.clone(),
                entry.extra_minutes.to_string(),
                rerolls.join(" "),
            ];
            if people {
                fields.extend([
                    entry.name.clone(),
                    entry.email.clone(),
                    entry.section.clone(),
                ]);
            }
            text.push_str(&crate::text::csv_row(&fields));
        }
        for (_, comment) in self
            .comments
            .iter()
            .filter(|(at, _)| *at >= self.entries.len())
        {
            text.push_str(comment);
            text.push('\n');
        }
        text
    }
}

/// The fields of one line: split at commas outside double quotes, each trimmed, quotes removed
/// (`""` inside quotes is one `"`).
fn split_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("a field").push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().expect("a field").push(c),
        }
    }
    fields.iter().map(|f| f.trim().to_string()).collect()
}

/// The 1-based column where field `index` starts (as written without quotes).
fn column_at(fields: &[String], index: usize) -> usize {
    fields[..index.min(fields.len())]
        .iter()
        .map(|f| f.chars().count() + 1)
        .sum::<usize>()
        + 1
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
    fn a_roster_without_header_keeps_a_first_student_named_student_something() {
        let roster = Roster::parse("r.csv", "student-1,0,\nstudent-2,5,\n").unwrap();
        assert_eq!(roster.entries.len(), 2);
        assert_eq!(roster.entries[0].student, "student-1");
    }

    #[test]
    fn comments_and_people_columns_survive_a_rewrite() {
        let text = "# section A\nstudent,extra_minutes,rerolls,name,email,section\namy,0,,\"Lee, Amy\",amy@u.edu,A\n# late joiners\nbo,5,2,Bo,bo@u.edu,B\n";
        let roster = Roster::parse("r.csv", text).unwrap();
        assert_eq!(roster.of("amy").name, "Lee, Amy");
        assert_eq!(roster.of("bo").section, "B");
        let again = roster.to_csv();
        assert!(again.contains("# section A\n"), "{again}");
        assert!(again.contains("# late joiners\nbo,"), "{again}");
        assert_eq!(
            Roster::parse("r.csv", &again).unwrap().entries,
            roster.entries
        );
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
