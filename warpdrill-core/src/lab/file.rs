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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepSpec {
    /// This exercise, for everyone (each student with their own numbers):
    /// `Exercise("l2-stride-sectors")`, or `Exercise("l2-stride-sectors", points: 20)`.
    Exercise {
        /// Exercise id.
        id: String,
        /// What a right first answer is worth (the lab's `points` scaled to it); none: the lab's.
        points: Option<u32>,
    },
    /// This kernel puzzle, for everyone: `Puzzle("transpose")`, or `Puzzle("transpose", points:
    /// 20)`. The student writes the kernel in their own editor and hands the file in; it is right
    /// when it is correct on every size and meets every target (`warpdrill puzzle check`).
    Puzzle {
        /// Puzzle id (`warpdrill puzzle list`).
        id: String,
        /// What a right first answer is worth (as for `Exercise`).
        points: Option<u32>,
    },
    /// `count` exercises of `topic` at `level`, chosen per student.
    Draw {
        /// How many exercises this draw gives.
        count: usize,
        /// Topic id.
        topic: String,
        /// Level of the ladder.
        level: Level,
        /// What each of them is worth (as for `Exercise`).
        points: Option<u32>,
    },
}

impl StepSpec {
    /// How many steps of a student's lab this entry gives.
    pub fn count(&self) -> usize {
        match self {
            StepSpec::Exercise { .. } | StepSpec::Puzzle { .. } => 1,
            StepSpec::Draw { count, .. } => *count,
        }
    }

    /// The points written on this entry.
    pub fn points(&self) -> Option<u32> {
        match self {
            StepSpec::Exercise { points, .. }
            | StepSpec::Puzzle { points, .. }
            | StepSpec::Draw { points, .. } => *points,
        }
    }
}

impl<'de> Deserialize<'de> for StepSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
        const EXPECTED: &str = "`Exercise(\"id\")`, `Exercise(\"id\", points: 20)`, \
                                `Puzzle(\"id\")` or `Draw(count: 2, topic: \"banks\", level: L3)`";
        #[derive(Deserialize)]
        enum Tag {
            Exercise,
            Puzzle,
            Draw,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct DrawFields {
            count: usize,
            topic: String,
            level: Level,
            #[serde(default)]
            points: Option<u32>,
        }
        /// The arguments of `Exercise(…)` or, when `puzzle`, of `Puzzle(…)`.
        struct IdArgs {
            puzzle: bool,
        }
        impl<'de> Visitor<'de> for IdArgs {
            type Value = StepSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                if self.puzzle {
                    f.write_str("`Puzzle(\"id\")` or `Puzzle(\"id\", points: 20)`")
                } else {
                    f.write_str("`Exercise(\"id\")` or `Exercise(\"id\", points: 20)`")
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StepSpec, A::Error> {
                let id: String = seq
                    .next_element()?
                    .ok_or_else(|| serde::de::Error::invalid_length(0, &self))?;
                let points: Option<u32> = seq.next_element()?;
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(serde::de::Error::invalid_length(3, &self));
                }
                Ok(if self.puzzle {
                    StepSpec::Puzzle { id, points }
                } else {
                    StepSpec::Exercise { id, points }
                })
            }
        }
        struct DrawArgs;
        impl<'de> Visitor<'de> for DrawArgs {
            type Value = StepSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`Draw(count: 2, topic: \"banks\", level: L3)`")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<StepSpec, A::Error> {
                let fields =
                    DrawFields::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(StepSpec::Draw {
                    count: fields.count,
                    topic: fields.topic,
                    level: fields.level,
                    points: fields.points,
                })
            }
        }
        struct Step;
        impl<'de> Visitor<'de> for Step {
            type Value = StepSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(EXPECTED)
            }
            fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<StepSpec, A::Error> {
                match data.variant::<Tag>()? {
                    (Tag::Exercise, variant) => variant.tuple_variant(2, IdArgs { puzzle: false }),
                    (Tag::Puzzle, variant) => variant.tuple_variant(2, IdArgs { puzzle: true }),
                    (Tag::Draw, variant) => {
                        variant.struct_variant(&["count", "topic", "level", "points"], DrawArgs)
                    }
                }
            }
        }
        deserializer.deserialize_enum("StepSpec", &["Exercise", "Puzzle", "Draw"], Step)
    }
}

/// A moment written in the lab file as RFC 3339 with its offset (`2026-12-03T10:00:00+09:00`,
/// `…Z` for UTC), so the lab means the same moment on every machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moment {
    /// As written.
    pub text: String,
    /// Unix seconds.
    pub at: u64,
}

impl<'de> Deserialize<'de> for Moment {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let parsed = chrono::DateTime::parse_from_rfc3339(text.trim()).map_err(|_| {
            serde::de::Error::custom(format!(
                "`{text}` is not a date and time with its offset, e.g. \"2026-12-03T10:00:00+01:00\" or \"2026-12-03T09:00:00Z\""
            ))
        })?;
        let at = u64::try_from(parsed.timestamp())
            .map_err(|_| serde::de::Error::custom(format!("`{text}` is before 1970")))?;
        Ok(Moment { text, at })
    }
}

/// What happens after a student's deadline (the time limit, or `due`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum Late {
    /// At the deadline the lab is handed in; later answers do not count.
    #[default]
    Refuse,
    /// Answers are still taken until `closes` (if set); a right answer loses `percent` of its
    /// points for every `per_minutes` (started) past the deadline, never below 0.
    Deduct {
        /// Percent of the points lost per period.
        percent: u32,
        /// Minutes in a period.
        per_minutes: u32,
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
    /// Mixed into every student's seeds and into the results chain. A student pack (`lab publish`)
    /// has none: each student's ticket carries what their own lab needs.
    #[serde(default)]
    pub secret: Option<String>,
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
    /// No answers before this moment.
    #[serde(default)]
    pub opens: Option<Moment>,
    /// The deadline for everyone (each student's extra minutes added), if earlier than the time
    /// limit's end.
    #[serde(default)]
    pub due: Option<Moment>,
    /// No answers after this moment (extra minutes added): every lab still open is handed in.
    #[serde(default)]
    pub closes: Option<Moment>,
    /// What answers after the deadline get.
    #[serde(default)]
    pub late: Late,
}

/// Minutes as seconds.
fn minutes(n: u32) -> u64 {
    60 * u64::from(n)
}

impl Lab {
    /// Attempts allowed per step (exam mode: one).
    pub fn attempts(&self) -> u32 {
        if self.feedback == FeedbackMode::AtEnd {
            return 1;
        }
        self.max_attempts.unwrap_or(self.points.len() as u32).max(1)
    }

    /// The most the lab's `points` give (a right first answer, unless the list rises).
    fn schedule_max(&self) -> u32 {
        self.points.iter().copied().max().unwrap_or(0)
    }

    /// The entry of `steps` that gives step `index` (0-based) of a student's lab.
    pub fn spec_of(&self, index: usize) -> Option<&StepSpec> {
        let mut first = 0;
        self.steps.iter().find(|spec| {
            first += spec.count();
            index < first
        })
    }

    /// The most points step `index` (0-based) can give: its own `points`, else the lab's.
    pub fn item_max(&self, index: usize) -> u32 {
        self.spec_of(index)
            .and_then(StepSpec::points)
            .unwrap_or_else(|| self.schedule_max())
    }

    /// What step `index` is worth when it carries its own weight, unlike the lab's `points`.
    pub fn weight(&self, index: usize) -> Option<u32> {
        let max = self.item_max(index);
        (max != self.schedule_max()).then_some(max)
    }

    /// Points for a right answer to step `index` (0-based) at attempt `n` (1-based) after `hints`
    /// hints, `late` seconds past the deadline (0: in time). The lab's `points` are scaled to the
    /// step's own (`[10, 7, 5]` on a 20-point step: 20, 14, 10), rounded half up; each hint then
    /// costs what `hints: Cost(n)` says, and lateness what `late` says.
    pub fn points_for(&self, index: usize, n: u32, hints: u32, late: u64) -> u32 {
        let at = (n.max(1) - 1) as usize;
        let base = self
            .points
            .get(at)
            .or(self.points.last())
            .copied()
            .unwrap_or(0);
        let top = self.schedule_max();
        let max = self.item_max(index);
        let scaled = if top == 0 || max == top {
            base
        } else {
            u32::try_from(
                (u64::from(base) * u64::from(max) * 2 + u64::from(top)) / (2 * u64::from(top)),
            )
            .unwrap_or(u32::MAX)
        };
        let after_hints = match self.hints {
            Hints::Cost(cost) => scaled.saturating_sub(cost.saturating_mul(hints)),
            _ => scaled,
        };
        self.late_points(after_hints, late)
    }

    /// `points` earned `late` seconds past the deadline, by the lab's late policy.
    pub fn late_points(&self, points: u32, late: u64) -> u32 {
        match self.late {
            _ if late == 0 => points,
            Late::Refuse => 0,
            Late::Deduct {
                percent,
                per_minutes,
            } => {
                let periods = late.div_ceil(minutes(per_minutes.max(1)));
                let lost = periods.saturating_mul(u64::from(percent)).min(100);
                u32::try_from(u64::from(points) * (100 - lost) / 100).unwrap_or(0)
            }
        }
    }

    /// The most points a lab gives.
    pub fn max_points(&self) -> u32 {
        (0..self.item_count()).map(|i| self.item_max(i)).sum()
    }

    /// Number of items (a draw of 2 counts 2).
    pub fn item_count(&self) -> usize {
        self.steps.iter().map(StepSpec::count).sum()
    }

    /// A student's deadline (Unix seconds): the end of the time limit from `started`, or `due`,
    /// whichever comes first, each with the student's extra minutes; none without either.
    pub fn deadline(&self, started: Option<u64>, extra_minutes: u32) -> Option<u64> {
        let limit = self
            .time_limit
            .zip(started)
            .map(|(limit, started)| started + minutes(limit.saturating_add(extra_minutes)));
        let due = self.due.as_ref().map(|due| due.at + minutes(extra_minutes));
        match (limit, due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When a student's lab stops taking answers and is handed in: the deadline when late answers
    /// are refused, else `closes` (with the student's extra minutes); none: never.
    pub fn closing(&self, started: Option<u64>, extra_minutes: u32) -> Option<u64> {
        let closes = self.closes.as_ref().map(|c| c.at + minutes(extra_minutes));
        let deadline = match self.late {
            Late::Refuse => self.deadline(started, extra_minutes),
            Late::Deduct { .. } => None,
        };
        match (deadline, closes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Seconds past the deadline at `at` (0: in time).
    pub fn lateness(&self, started: Option<u64>, extra_minutes: u32, at: u64) -> u64 {
        self.deadline(started, extra_minutes)
            .map_or(0, |deadline| at.saturating_sub(deadline))
    }

    /// The secret, or why there is none: a student pack has none, so nothing that needs it (keys,
    /// join codes, reports, serving) can run on it.
    pub fn secret(&self) -> Result<&str, LabError> {
        self.secret.as_deref().ok_or_else(|| {
            LabError::Closed(format!(
                "`{}` is a student pack (it has no secret): answer keys, join codes, reports and \
                 serving need the instructor's lab file; a student starts it with \
                 `warpdrill lab start PACK --student ID --ticket TICKET`",
                self.id
            ))
        })
    }

    /// Whether this is a student pack (no secret).
    pub fn is_pack(&self) -> bool {
        self.secret.is_none()
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
        let lab: Lab = options
            .from_str(&named_points(text))
            .map_err(|e| LabError::Syntax {
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
        if lab.secret.as_ref().is_some_and(|s| s.chars().count() < 8) {
            return Err(at("secret")
                .error("the secret needs at least 8 characters (a long random phrase is best)"));
        }
        if lab.steps.is_empty() {
            return Err(at("steps").error("a lab needs at least one step"));
        }
        for spec in &lab.steps {
            if let Some(points) = spec.points()
                && points > 10_000
            {
                return Err(
                    at(&format!("points: {points}")).error("a step is worth 10000 points at most")
                );
            }
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
        if let Late::Deduct {
            percent,
            per_minutes,
        } = lab.late
        {
            if !(1..=100).contains(&percent) {
                return Err(at("percent").error("`percent` is 1 to 100 (of the step's points)"));
            }
            if per_minutes == 0 {
                return Err(at("per_minutes").error("`per_minutes` must be at least 1"));
            }
            if lab.time_limit.is_none() && lab.due.is_none() {
                return Err(at("late").error(
                    "a late policy needs a deadline: give `time_limit` (minutes) or `due`",
                ));
            }
        }
        if let (Some(opens), Some(closes)) = (&lab.opens, &lab.closes)
            && closes.at <= opens.at
        {
            return Err(at("closes").error(&format!(
                "the lab closes ({}) before it opens ({})",
                closes.text, opens.text
            )));
        }
        if let (Some(opens), Some(due)) = (&lab.opens, &lab.due)
            && due.at <= opens.at
        {
            return Err(at("due").error(&format!(
                "the lab is due ({}) before it opens ({})",
                due.text, opens.text
            )));
        }
        Ok(lab)
    }
}

/// `Exercise("id", points: 20)` as the parser reads it: `points:` inside an `Exercise(…)` or a
/// `Puzzle(…)` becomes spaces (the second, positional, value), so every line and column stays
/// where it was written.
fn named_points(text: &str) -> String {
    let comments = comment_spans(text);
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let outside = |at: usize| !comments.iter().any(|(from, to)| (*from..*to).contains(&at));
    let skip_space = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let tags = text
        .match_indices("Exercise")
        .chain(text.match_indices("Puzzle"));
    for (at, tag) in tags {
        if !outside(at)
            || (at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_'))
        {
            continue;
        }
        let mut i = skip_space(at + tag.len());
        if bytes.get(i) != Some(&b'(') {
            continue;
        }
        i = skip_space(i + 1);
        if bytes.get(i) != Some(&b'"') {
            continue;
        }
        // The id's string, escapes skipped.
        i += 1;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        i = skip_space(i + 1);
        if bytes.get(i) != Some(&b',') {
            continue;
        }
        let name = skip_space(i + 1);
        if !text[name..].starts_with("points") {
            continue;
        }
        let colon = skip_space(name + "points".len());
        if bytes.get(colon) == Some(&b':') {
            out[name..=colon].fill(b' ');
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
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
pub(crate) fn comment_spans(text: &str) -> Vec<(usize, usize)> {
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
        assert_eq!(lab.points_for(0, 1, 0, 0), 10);
        assert_eq!(lab.points_for(0, 2, 1, 0), 5);
        assert_eq!(lab.points_for(0, 9, 9, 0), 0);
        assert_eq!(lab.max_points(), 30);
        assert!(!lab.is_pack());
        assert_eq!(lab.late, Late::Refuse);
    }

    #[test]
    fn a_step_of_its_own_weight_scales_the_points_per_attempt() {
        let text = GOOD.replace(
            r#"Exercise("l1-sector-size")"#,
            r#"Exercise("l1-sector-size", points: 20)"#,
        );
        let lab = Lab::parse("demo.ron", &text).unwrap();
        assert_eq!(
            lab.steps[0],
            StepSpec::Exercise {
                id: "l1-sector-size".into(),
                points: Some(20)
            }
        );
        let firsts: Vec<u32> = (1..=3).map(|n| lab.points_for(0, n, 0, 0)).collect();
        assert_eq!(firsts, [20, 14, 10], "[10, 7, 5] scaled to 20");
        assert_eq!(lab.points_for(0, 1, 1, 0), 18, "a hint costs its 2 points");
        assert_eq!(
            lab.points_for(1, 1, 0, 0),
            10,
            "the draw keeps the lab's points"
        );
        assert_eq!(lab.max_points(), 40);
        // The positional form, and a draw's own points.
        let text = GOOD
            .replace(
                r#"Exercise("l1-sector-size")"#,
                r#"Exercise("l1-sector-size", 4)"#,
            )
            .replace("level: L2)", "level: L2, points: 5)");
        let lab = Lab::parse("demo.ron", &text).unwrap();
        assert_eq!(
            (lab.item_max(0), lab.item_max(1), lab.item_max(2)),
            (4, 5, 5)
        );
        assert_eq!(
            lab.points_for(0, 2, 0, 0),
            3,
            "7 of 10 on 4 points: 2.8 rounds to 3"
        );
        // A mistake after the named points is still placed where it was written.
        let bad = GOOD.replace(
            r#"Exercise("l1-sector-size"), Draw"#,
            r#"Exercise("l1-sector-size", points: 20), Drw"#,
        );
        let err = Lab::parse("demo.ron", &bad).unwrap_err().to_string();
        assert!(err.starts_with("demo.ron:6:"), "{err}");
        let text = GOOD.replace(
            r#"Exercise("l1-sector-size")"#,
            r#"Exercise("l1-sector-size", weight: 20)"#,
        );
        assert!(Lab::parse("demo.ron", &text).is_err());
    }

    #[test]
    fn a_puzzle_step_reads_with_its_own_points_and_counts_one_step() {
        let text = GOOD.replace(
            r#"Exercise("l1-sector-size"), Draw"#,
            r#"Puzzle("transpose", points: 20), Puzzle("reduce"), Draw"#,
        );
        let lab = Lab::parse("demo.ron", &text).unwrap();
        assert_eq!(
            lab.steps[0],
            StepSpec::Puzzle {
                id: "transpose".into(),
                points: Some(20)
            }
        );
        assert_eq!(lab.steps[1].points(), None);
        assert_eq!(lab.item_count(), 4);
        assert_eq!(lab.max_points(), 20 + 10 + 10 + 10);
        let bad = GOOD.replace(
            r#"Exercise("l1-sector-size")"#,
            r#"Puzzle("transpose", weight: 3)"#,
        );
        assert!(Lab::parse("demo.ron", &bad).is_err());
    }

    #[test]
    fn late_answers_lose_points_by_the_policy_until_the_lab_closes() {
        let text = GOOD.replace(
            "time_limit: 30,",
            r#"time_limit: 30, late: Deduct(percent: 10, per_minutes: 5),
               opens: "2026-12-03T10:00:00+01:00", closes: "2026-12-03T11:00:00Z","#,
        );
        let lab = Lab::parse("demo.ron", &text).unwrap();
        let opens = lab.opens.as_ref().unwrap().at;
        assert_eq!(opens, 1_796_288_400, "10:00 at +01:00 is 09:00 UTC");
        let closes = lab.closes.as_ref().unwrap().at;
        assert_eq!(closes - opens, 7200);
        let start = opens + 60;
        assert_eq!(lab.deadline(Some(start), 0), Some(start + 1800));
        assert_eq!(lab.deadline(Some(start), 15), Some(start + 2700));
        assert_eq!(
            lab.closing(Some(start), 0),
            Some(closes),
            "late answers until it closes"
        );
        assert_eq!(lab.closing(Some(start), 10), Some(closes + 600));
        assert_eq!(lab.lateness(Some(start), 0, start + 1800), 0);
        assert_eq!(lab.late_points(10, 1), 9, "a started period loses 10 %");
        assert_eq!(lab.late_points(10, 300), 9);
        assert_eq!(lab.late_points(10, 301), 8);
        assert_eq!(lab.late_points(10, 5 * 60 * 10), 0, "never below 0");
        // Refused: the deadline closes the lab.
        let refuse = Lab::parse("demo.ron", GOOD).unwrap();
        assert_eq!(refuse.closing(Some(100), 0), Some(100 + 1800));
        assert_eq!(refuse.late_points(10, 1), 0);
        // `due` before the limit's end is the deadline.
        let due = GOOD.replace(
            "time_limit: 30,",
            r#"time_limit: 30, due: "1970-01-01T00:20:00Z","#,
        );
        let lab = Lab::parse("demo.ron", &due).unwrap();
        assert_eq!(lab.deadline(Some(0), 0), Some(1200));
        assert_eq!(lab.deadline(Some(0), 5), Some(1500));
    }

    #[test]
    fn times_and_late_policies_that_cannot_work_are_refused_where_written() {
        for (replace, expect) in [
            (r#"opens: "tomorrow at ten","#, "not a date and time"),
            (r#"opens: "2026-12-03T10:00:00","#, "not a date and time"),
            (
                r#"opens: "2026-12-03T10:00:00Z", closes: "2026-12-03T09:00:00Z","#,
                "closes",
            ),
            ("late: Deduct(percent: 0, per_minutes: 5),", "1 to 100"),
            ("late: Deduct(percent: 10, per_minutes: 0),", "at least 1"),
        ] {
            let text = GOOD.replace("hints: Cost(2),", &format!("hints: Cost(2), {replace}"));
            let err = Lab::parse("demo.ron", &text).unwrap_err().to_string();
            assert!(err.starts_with("demo.ron:"), "{err}");
            assert!(err.contains(expect), "{replace}: {err}");
        }
        let no_deadline = GOOD.replace(
            "time_limit: 30,",
            "late: Deduct(percent: 10, per_minutes: 5),",
        );
        let err = Lab::parse("demo.ron", &no_deadline)
            .unwrap_err()
            .to_string();
        assert!(err.contains("needs a deadline"), "{err}");
    }

    #[test]
    fn a_lab_without_its_secret_is_a_student_pack() {
        let pack = GOOD.replace("secret: \"correct horse battery\",", "");
        let lab = Lab::parse("pack.ron", &pack).unwrap();
        assert!(lab.is_pack());
        let err = lab.secret().unwrap_err().to_string();
        assert!(err.contains("student pack"), "{err}");
    }

    #[test]
    fn mistakes_name_file_line_and_column() {
        let bad = GOOD.replace("version: 1", "verson: 1");
        let err = Lab::parse("demo.ron", &bad).unwrap_err().to_string();
        assert!(err.starts_with("demo.ron:4:"), "{err}");
        let short = GOOD.replace("correct horse battery", "xy");
        let err = Lab::parse("demo.ron", &short).unwrap_err().to_string();
        assert!(err.starts_with("demo.ron:5:3: "), "{err}");
        let err = Lab::parse("demo.ron", "Lab(").unwrap_err().to_string();
        assert!(err.starts_with("demo.ron:1:"), "{err}");
    }
}
