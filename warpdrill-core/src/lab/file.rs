//! The lab file: what an instructor writes (RON), read with `file:line:column` messages.
//!
//! ```ron
//! Lab(
//!   id: "coalescing-and-banks", title: "Coalescing and banks", version: 1,
//!   secret: "a long random phrase",
//!   steps: [Exercise("l2-stride-sectors"), Draw(count: 2, topic: "banks", level: L3)],
//!   points: [10, 7, 5], order: Locked, hints: Cost(2), show_me: false,
//!   feedback: Immediate, time_limit: 45,
//! )
//! ```

use super::LabError;
use crate::content::schema::Level;
use crate::content::validate::position;
use serde::Deserialize;
use std::path::Path;

/// One entry of the lab's `steps`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum StepSpec {
    /// This exercise, for everyone (each student with their own numbers).
    Exercise(String),
    /// `count` exercises of `topic` at `level`, chosen per student.
    Draw {
        /// How many exercises this draw gives.
        count: usize,
        /// Topic id.
        topic: String,
        /// Level of the ladder.
        level: Level,
    },
}

/// Whether steps must be done in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum Order {
    /// A step opens when the previous one is solved or out of attempts; earlier steps then freeze.
    #[default]
    Locked,
    /// Any step, any time.
    Free,
}

/// What hints cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum Hints {
    /// Hints are free.
    #[default]
    Allowed,
    /// Each hint taken costs this many points of the step (never below 0).
    Cost(u32),
    /// No hints in this lab.
    Off,
}

/// When the learner learns right or wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum FeedbackMode {
    /// After every answer.
    #[default]
    Immediate,
    /// Exam mode: one answer per step, graded when the lab is submitted.
    AtEnd,
}

/// A lab session, as written by the instructor.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lab {
    /// Stable id (lowercase letters, digits, `-`, `_`).
    pub id: String,
    /// Shown in the header.
    pub title: String,
    /// Bump it when the steps change: seeds and results depend on it.
    pub version: u32,
    /// Mixed into every student's seeds and into the results chain.
    pub secret: String,
    /// The steps, in order.
    pub steps: Vec<StepSpec>,
    /// Points for a right answer at the first, second, … attempt (the last repeats).
    pub points: Vec<u32>,
    /// Attempts per step (default: one per entry of `points`).
    #[serde(default)]
    pub max_attempts: Option<u32>,
    /// Locked or free order.
    #[serde(default)]
    pub order: Order,
    /// Hints allowed, at a cost, or off.
    #[serde(default)]
    pub hints: Hints,
    /// Whether "show me" (the explorer or calculator on the exercise's numbers) is allowed.
    #[serde(default)]
    pub show_me: bool,
    /// Immediate feedback or exam mode.
    #[serde(default)]
    pub feedback: FeedbackMode,
    /// Minutes from the first start (none: no limit).
    #[serde(default)]
    pub time_limit: Option<u32>,
}

impl Lab {
    /// Attempts allowed per step (exam mode: one).
    pub fn attempts(&self) -> u32 {
        if self.feedback == FeedbackMode::AtEnd {
            return 1;
        }
        self.max_attempts.unwrap_or(self.points.len() as u32).max(1)
    }

    /// Points for a right answer at attempt `n` (1-based) after `hints` hints.
    pub fn points_for(&self, n: u32, hints: u32) -> u32 {
        let index = (n.max(1) - 1) as usize;
        let base = self
            .points
            .get(index)
            .or(self.points.last())
            .copied()
            .unwrap_or(0);
        match self.hints {
            Hints::Cost(cost) => base.saturating_sub(cost.saturating_mul(hints)),
            _ => base,
        }
    }

    /// The most points a step can give.
    pub fn step_max(&self) -> u32 {
        self.points.iter().copied().max().unwrap_or(0)
    }

    /// Number of items (a draw of 2 counts 2).
    pub fn item_count(&self) -> usize {
        self.steps
            .iter()
            .map(|s| match s {
                StepSpec::Exercise(_) => 1,
                StepSpec::Draw { count, .. } => *count,
            })
            .sum()
    }

    /// Reads and checks a lab file.
    pub fn load(path: &Path) -> Result<Lab, LabError> {
        let text = super::store::read(path)?;
        Lab::parse(&path.display().to_string(), &text)
    }

    /// Parses a lab from its text; `file` names it in messages.
    pub fn parse(file: &str, text: &str) -> Result<Lab, LabError> {
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let lab: Lab = options.from_str(text).map_err(|e| LabError::Syntax {
            file: file.to_string(),
            line: e.span.start.line.max(1),
            column: e.span.start.col.max(1),
            message: e.code.to_string(),
        })?;
        let at = |needle: &str| locate(file, text, needle);
        let valid_id = |id: &str| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        };
        if !valid_id(&lab.id) {
            return Err(at("id").error(
                "the lab id uses lowercase letters, digits, `-` and `_` (it names results files)",
            ));
        }
        if lab.secret.chars().count() < 8 {
            return Err(at("secret")
                .error("the secret needs at least 8 characters (a long random phrase is best)"));
        }
        if lab.steps.is_empty() {
            return Err(at("steps").error("a lab needs at least one step"));
        }
        for spec in &lab.steps {
            if let StepSpec::Draw {
                count: 0, topic, ..
            } = spec
            {
                return Err(
                    at(&format!("\"{topic}\"")).error("a draw of 0 exercises gives nothing")
                );
            }
        }
        if lab.points.is_empty() {
            return Err(at("points").error("`points` needs at least one entry, e.g. [10, 7, 5]"));
        }
        if lab.max_attempts == Some(0) {
            return Err(at("max_attempts").error("`max_attempts` must be at least 1"));
        }
        if lab.time_limit == Some(0) {
            return Err(at("time_limit").error("a time limit of 0 minutes leaves no time"));
        }
        Ok(lab)
    }
}

/// A place in a lab file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl Place {
    /// An error at this place.
    pub fn error(self, message: &str) -> LabError {
        LabError::Invalid {
            file: self.file,
            line: self.line,
            column: self.column,
            message: message.to_string(),
        }
    }
}

/// Where `needle` first appears in `text` outside comments (the start of the file when it does
/// not), so a comment that mentions a step is never pointed at instead of the step.
pub fn locate(file: &str, text: &str, needle: &str) -> Place {
    let comments = comment_spans(text);
    let at = text
        .match_indices(needle)
        .map(|(at, _)| at)
        .find(|at| !comments.iter().any(|(from, to)| (*from..*to).contains(at)))
        .unwrap_or(0);
    let (line, column) = position(text, at);
    Place {
        file: file.to_string(),
        line,
        column,
    }
}

/// The byte ranges of RON comments (`// …` to the end of the line, `/* … */`), strings skipped.
fn comment_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    let mut string = false;
    while i < bytes.len() {
        match (string, bytes[i], bytes.get(i + 1)) {
            (true, b'\\', _) => i += 1,
            (true, b'"', _) => string = false,
            (false, b'"', _) => string = true,
            (false, b'/', Some(b'/')) => {
                let end = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                spans.push((i, end));
                i = end;
            }
            (false, b'/', Some(b'*')) => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
                spans.push((i, end));
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_never_in_a_comment() {
        let text = "// step \"banks\" is hard\nLab(\n  /* \"banks\" */ steps: [\"banks\"],\n)";
        let place = locate("l.ron", text, "\"banks\"");
        assert_eq!((place.line, place.column), (3, 25), "{place:?}");
    }

    const GOOD: &str = r#"Lab(
  id: "demo",
  title: "Demo",
  version: 1,
  secret: "correct horse battery",
  steps: [Exercise("l1-sector-size"), Draw(count: 2, topic: "banks", level: L2)],
  points: [10, 7, 5],
  hints: Cost(2),
  time_limit: 30,
)"#;

    #[test]
    fn a_lab_file_reads_with_its_defaults() {
        let lab = Lab::parse("demo.ron", GOOD).unwrap();
        assert_eq!(lab.item_count(), 3);
        assert_eq!(lab.attempts(), 3);
        assert_eq!(lab.order, Order::Locked);
        assert_eq!(lab.time_limit, Some(30));
        assert_eq!(lab.points_for(1, 0), 10);
        assert_eq!(lab.points_for(2, 1), 5);
        assert_eq!(lab.points_for(9, 9), 0);
    }

    #[test]
    fn mistakes_name_file_line_and_column() {
        let bad = GOOD.replace("version: 1", "verson: 1");
        let err = Lab::parse("demo.ron", &bad).unwrap_err().to_string();
        assert!(err.starts_with("demo.ron:4:"), "{err}");
        let short = GOOD.replace("correct horse battery", "x");
        let err = Lab::parse("demo.ron", &short).unwrap_err().to_string();
        assert!(err.starts_with("demo.ron:5:3: "), "{err}");
        let err = Lab::parse("demo.ron", "Lab(").unwrap_err().to_string();
        assert!(err.starts_with("demo.ron:1:"), "{err}");
    }
}
