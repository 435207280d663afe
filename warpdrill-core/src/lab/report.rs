//! The report: results files merged into one row per student, every answer graded again from the lab
//! file and the student's own seed (the outcome written in the file is never trusted), and problems
//! flagged rather than dropped: broken chains, edits, other labs or versions, answers to variants the
//! student was not given, and wrong answers equal to another student's right answer.

use super::LabError;
use super::copying;
use super::file::Lab;
use super::plan::{Item, plan, seeds_given};
use super::results::{self, Event, Given, Record};
use super::roster::{Roster, valid_student};
use super::seed;
use super::session::{Tally, max_points};
use crate::content::Content;
use crate::ladder::attempt::grade_given;
use crate::ladder::{AnswerKey, Outcome, generate};
use serde::Serialize;
use std::collections::BTreeMap;

/// A results file as read.
#[derive(Debug, Clone)]
pub struct Input {
    /// Its path, for messages.
    pub path: String,
    /// Its text.
    pub text: String,
}

/// One step of one student.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepRow {
    /// Step number, 1-based.
    pub step: usize,
    /// Exercise id.
    pub exercise: String,
    /// Points (from the answers graded again).
    pub points: u32,
    /// Attempts counted.
    pub attempts: u32,
    /// Hints taken.
    pub hints: u32,
    /// Seconds spent.
    pub seconds: u64,
    /// Answered right.
    pub solved: bool,
}

/// One student.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Student id.
    pub student: String,
    /// Per step.
    pub steps: Vec<StepRow>,
    /// Points earned.
    pub total: u32,
    /// Points possible.
    pub max: u32,
    /// `total / max` in percent, one decimal.
    pub percent: f64,
    /// First start (Unix seconds).
    pub started: Option<u64>,
    /// Hand-in (Unix seconds).
    pub submitted: Option<u64>,
    /// Answers given after the deadline (the time limit or `due`, with the student's extra time):
    /// scored by the late policy, or not counted once the lab closed.
    pub late: u32,
    /// The receipt of the hand-in, as the student should have pasted it.
    pub receipt: Option<String>,
    /// The files merged into this row.
    pub files: Vec<String>,
    /// Everything that needs the instructor's eye.
    pub flags: Vec<String>,
}

/// The report over `inputs`. `file` and `text` are the lab file's (for locating mistakes).
pub fn report(
    lab: &Lab,
    file: &str,
    text: &str,
    content: &Content,
    roster: &Roster,
    inputs: &[Input],
) -> Result<Vec<Row>, LabError> {
    // Files by student (the student named in the records, else in the file name).
    let mut by_student: BTreeMap<String, Vec<(String, results::Parsed)>> = BTreeMap::new();
    for input in inputs {
        let parsed = results::parse(&input.text);
        let student = parsed
            .records
            .first()
            .map(|(_, r)| r.student.clone())
            .unwrap_or_else(|| format!("? {}", input.path));
        let files = by_student.entry(student).or_default();
        if !files.iter().any(|(path, _)| *path == input.path) {
            files.push((input.path.clone(), parsed));
        }
    }
    for entry in &roster.entries {
        by_student.entry(entry.student.clone()).or_default();
    }
    let mut rows = Vec::new();
    let mut numbers: Vec<copying::Given> = Vec::new();
    for (student, files) in by_student {
        let mut flags = Vec::new();
        let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
        if files.is_empty() {
            flags.push("no results file".to_string());
        }
        for (path, parsed) in &files {
            for damage in &parsed.damage {
                flags.push(format!("{path}:{}: {}", damage.line, damage.message));
            }
            if parsed.records.is_empty() {
                flags.push(format!("{path}: no readable records"));
            }
        }
        // The longest file counts; the others must be its beginning (copies, earlier hand-ins).
        let chosen = files
            .iter()
            .max_by_key(|(_, p)| p.records.len())
            .map(|(path, parsed)| (path.clone(), parsed.records.clone()))
            .unwrap_or_default();
        for (path, parsed) in &files {
            let prefix = parsed.records.len() <= chosen.1.len()
                && parsed
                    .records
                    .iter()
                    .zip(&chosen.1)
                    .all(|((_, a), (_, b))| a.hash == b.hash);
            if !prefix {
                flags.push(format!(
                    "{path} and {} hold different results for this student; the longer one counts",
                    chosen.0
                ));
            }
        }
        let (path, records) = chosen;
        if !valid_student(&student) {
            rows.push(empty_row(lab, &student, paths, flags));
            continue;
        }
        let key = seed::chain_key(lab, &student);
        let chain = results::check_chain(&key, lab, &student, &records);
        for problem in &chain.problems {
            flags.push(format!("{path}: {problem}"));
        }
        // Only what verifies and links from the start counts: an edited or removed record can
        // never raise a score.
        if let Some((line, _)) = records.get(chain.trusted) {
            flags.push(format!(
                "{path}: {} from line {line} on not scored (the results do not verify from there)",
                crate::format::count((records.len() - chain.trusted) as u64, "record")
            ));
        }
        let records = &records[..chain.trusted];
        let entry = roster.of(&student);
        let items = plan(lab, content, &entry, file, text)?;
        let mut tally = Tally::new(items.len());
        let mut receipt = None;
        let mut late = 0;
        for (line, record) in records {
            if record.lab != lab.id || record.version != lab.version {
                continue;
            }
            if tally.submitted.is_some() && record.event != Event::Start {
                flags.push(format!("{path}:{line}: a record after the hand-in"));
            }
            match record.event {
                Event::Start => {
                    tally.started.get_or_insert(record.at);
                    if let Some(note) = &record.note {
                        flags.push(format!(
                            "{path}:{line}: the file was repaired on the student's machine ({note})"
                        ));
                    }
                }
                Event::Submit => {
                    if tally.submitted.is_none() {
                        tally.submitted = Some(record.at);
                        receipt = Some(seed::receipt(&key, &student, &record.hash));
                    }
                }
                Event::Hint => {
                    if let Some(index) = step_index(record, &items)
                        && record.seed.is_none_or(|seed| seed == items[index].seed)
                    {
                        let _ = tally.hint(lab, index);
                    }
                }
                Event::Attempt => {
                    let Some(index) = step_index(record, &items) else {
                        flags.push(format!(
                            "{path}:{line}: an answer to a step the lab does not have"
                        ));
                        continue;
                    };
                    let item = &items[index];
                    // Answers to the numbers the step had before a re-roll no longer count.
                    if let Some(seed) = record.seed
                        && seed != item.seed
                        && record.exercise.as_deref() == Some(item.exercise.as_str())
                        && seeds_given(lab, &student, item.step, item.roll).contains(&seed)
                    {
                        continue;
                    }
                    if lab.opens.as_ref().is_some_and(|o| record.at < o.at) {
                        flags.push(format!(
                            "{path}:{line}: step {}: an answer before the lab opens, not counted",
                            item.step
                        ));
                        continue;
                    }
                    if lab
                        .closing(tally.started, entry.extra_minutes)
                        .is_some_and(|c| record.at >= c)
                    {
                        flags.push(format!(
                            "{path}:{line}: step {}: an answer after the lab closed for this student, not counted",
                            item.step
                        ));
                        late += 1;
                        continue;
                    }
                    let past = lab.lateness(tally.started, entry.extra_minutes, record.at);
                    late += u32::from(past > 0);
                    let (outcome, number) = regrade(lab, content, &student, item, record);
                    let outcome = match outcome {
                        Ok(outcome) => outcome,
                        Err(problem) => {
                            flags.push(format!("step {}: {problem}", item.step));
                            Outcome::Wrong
                        }
                    };
                    if let Some(recorded) = record.outcome()
                        && recorded != outcome
                    {
                        let answer = record.answer.as_deref().unwrap_or("");
                        // A kernel is named by its size, not printed whole.
                        let shown = if item.puzzle {
                            format!(
                                "a kernel of {}",
                                crate::format::count(answer.lines().count() as u64, "line")
                            )
                        } else {
                            format!("`{answer}`")
                        };
                        flags.push(format!(
                            "step {}: recorded as {}, grades as {} ({shown})",
                            item.step,
                            results::outcome_word(recorded),
                            results::outcome_word(outcome),
                        ));
                    }
                    let answer = record.answer.clone().unwrap_or_default();
                    match tally.attempt(lab, index, &answer, outcome, record.seconds, past) {
                        Ok(()) => {
                            if let Some(value) = number {
                                numbers.push(copying::Given {
                                    student: student.clone(),
                                    step: item.step,
                                    exercise: item.exercise.clone(),
                                    value,
                                    text: answer,
                                    right: outcome == Outcome::Correct,
                                });
                            }
                        }
                        Err(refused) => flags.push(format!(
                            "step {}: an answer not counted ({})",
                            item.step,
                            refused.message()
                        )),
                    }
                }
            }
        }
        if !records.is_empty() && tally.submitted.is_none() {
            flags.push("not handed in".to_string());
        }
        let total = tally.total();
        let max = max_points(lab);
        rows.push(Row {
            steps: items
                .iter()
                .zip(&tally.steps)
                .map(|(item, s)| StepRow {
                    step: item.step,
                    exercise: item.exercise.clone(),
                    points: s.points,
                    attempts: s.attempts,
                    hints: s.hints,
                    seconds: s.seconds,
                    solved: s.solved,
                })
                .collect(),
            student,
            total,
            max,
            percent: percent(total, max),
            started: tally.started,
            submitted: tally.submitted,
            late,
            receipt,
            files: paths,
            flags,
        });
    }
    // Wrong numbers equal to another student's right ones, when luck cannot explain them.
    let copied = copying::flags(content, &numbers);
    for row in &mut rows {
        if let Some(flags) = copied.get(&row.student) {
            row.flags.extend(flags.iter().cloned());
        }
    }
    Ok(rows)
}

fn percent(total: u32, max: u32) -> f64 {
    if max == 0 {
        0.0
    } else {
        (f64::from(total) * 1000.0 / f64::from(max)).round() / 10.0
    }
}

fn empty_row(lab: &Lab, student: &str, files: Vec<String>, flags: Vec<String>) -> Row {
    Row {
        student: student.to_string(),
        steps: Vec::new(),
        total: 0,
        max: max_points(lab),
        percent: 0.0,
        started: None,
        submitted: None,
        late: 0,
        receipt: None,
        files,
        flags,
    }
}

fn step_index(record: &Record, items: &[Item]) -> Option<usize> {
    let step = record.step?;
    (1..=items.len()).contains(&step).then(|| step - 1)
}

/// Grades an attempt again from the lab and the student's seeds; with the number given (numeric
/// answers), for comparing students.
fn regrade(
    lab: &Lab,
    content: &Content,
    student: &str,
    item: &Item,
    record: &Record,
) -> (Result<Outcome, String>, Option<f64>) {
    let seed = record.seed.unwrap_or(item.seed);
    if record.exercise.as_deref() != Some(item.exercise.as_str())
        || !seeds_given(lab, student, item.step, item.roll).contains(&seed)
    {
        return (
            Err(format!(
                "answers a variant this student was not given ({} seed {seed})",
                record.exercise.as_deref().unwrap_or("?")
            )),
            None,
        );
    }
    if item.puzzle {
        let Some(puzzle) = crate::puzzle::find(&item.exercise, crate::i18n::Lang::En) else {
            return (Err(format!("unknown puzzle `{}`", item.exercise)), None);
        };
        let source = record.answer.as_deref().unwrap_or("");
        let verdict = super::task::grade_kernel(&puzzle, source, crate::i18n::Lang::En);
        return match verdict.outcome {
            Outcome::Unusable => (
                Err(format!(
                    "the kernel handed in cannot be checked: {}",
                    verdict.headline
                )),
                None,
            ),
            outcome => (Ok(outcome), None),
        };
    }
    let Some(template) = content.exercise(&item.exercise) else {
        return (Err(format!("unknown exercise `{}`", item.exercise)), None);
    };
    let variant = match generate(template, seed) {
        Ok(variant) => variant,
        Err(e) => return (Err(format!("cannot be drawn again: {e}")), None),
    };
    let given = record
        .given
        .clone()
        .unwrap_or_else(|| Given::Text(record.answer.clone().unwrap_or_default()))
        .resolved(&variant, record.answer.as_deref());
    let feedback = grade_given(&variant, &given, crate::i18n::Lang::En, false);
    let number = match (&variant.key, &given) {
        (AnswerKey::Number { unit, kilo, .. }, Given::Text(text)) => {
            crate::ladder::answer::parse_number(text, unit, *kilo).ok()
        }
        _ => None,
    };
    match feedback.outcome {
        Outcome::Unusable => (
            Err(format!(
                "the answer `{}` is not an answer",
                record.answer.as_deref().unwrap_or("")
            )),
            None,
        ),
        _ => (Ok(feedback.outcome), number),
    }
}

/// Receipts as students handed them in (from the course page): `student,receipt` lines, a header
/// optional, quotes and case forgiven.
pub fn parse_receipts(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let (student, receipt) = line.split_once(',')?;
            let clean = |s: &str| s.trim().trim_matches('"').trim().to_string();
            let (student, receipt) = (clean(student), clean(receipt).to_uppercase());
            (valid_student(&student) && !receipt.is_empty() && student != "student")
                .then_some((student, receipt))
        })
        .collect()
}

/// Flags rows whose receipt differs from the one the student handed in, rows handed in without a
/// receipt on the course page, and students who handed in a receipt without results that end in a
/// hand-in; returns the receipts of students the report does not know (a typo in an id, a student
/// of another class).
pub fn check_receipts(rows: &mut [Row], handed: &BTreeMap<String, String>) -> Vec<String> {
    for row in rows.iter_mut() {
        let Some(given) = handed.get(&row.student) else {
            if row.receipt.is_some() {
                row.flags
                    .push("handed in, but no receipt was handed in on the course page".to_string());
            }
            continue;
        };
        match &row.receipt {
            Some(receipt) if receipt == given => {}
            Some(receipt) => row.flags.push(format!(
                "the receipt handed in ({given}) does not match this file's ({receipt}): the file changed after hand-in, or is another one"
            )),
            None => row.flags.push(format!(
                "a receipt was handed in ({given}) but this file has no hand-in"
            )),
        }
    }
    handed
        .iter()
        .filter(|(student, _)| !rows.iter().any(|r| &r.student == *student))
        .map(|(student, receipt)| {
            format!(
                "a receipt ({receipt}) for `{student}`, who has no results and is not on the roster"
            )
        })
        .collect()
}
