//! A student's standing in a lab — which steps are open, attempts, hints, points — built from the
//! records one at a time ([`Tally`]), and the running session that writes each record as it happens
//! ([`LabSession`]). The tutor and the report use the same rules.

use super::LabError;
use super::file::{Lab, Order};
use super::plan::Item;
use super::results::{self, Event, Given, Record};
use super::roster::Entry;
use super::seed;
use super::store::{self, Appender};
use crate::ladder::Outcome;
use std::path::{Path, PathBuf};

/// One step's standing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepTally {
    /// Answers graded.
    pub attempts: u32,
    /// Answered right.
    pub solved: bool,
    /// Hints taken.
    pub hints: u32,
    /// Points earned.
    pub points: u32,
    /// Seconds spent (booked at each attempt).
    pub seconds: u64,
    /// Answers given with their outcomes, in order.
    pub answers: Vec<(String, Outcome)>,
}

/// Why an event does not count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// No such step.
    NoSuchStep,
    /// Locked order: an earlier step is still open.
    NotOpen,
    /// Solved, or out of attempts.
    Done,
    /// The lab was handed in.
    Submitted,
}

impl Refused {
    /// In the learner's words.
    pub fn message(self) -> &'static str {
        match self {
            Refused::NoSuchStep => "there is no such step",
            Refused::NotOpen => "this step opens when the steps before it are done",
            Refused::Done => "this step is done (solved or out of attempts)",
            Refused::Submitted => "the lab was handed in",
        }
    }
}

/// Every step's standing, and when the lab was started and handed in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// One per step, in order.
    pub steps: Vec<StepTally>,
    /// First start (Unix seconds).
    pub started: Option<u64>,
    /// Hand-in time.
    pub submitted: Option<u64>,
}

impl Tally {
    /// A fresh tally of `steps` steps.
    pub fn new(steps: usize) -> Tally {
        Tally {
            steps: vec![StepTally::default(); steps],
            ..Tally::default()
        }
    }

    /// Whether step `index` (0-based) is solved or out of attempts.
    pub fn done(&self, lab: &Lab, index: usize) -> bool {
        self.steps
            .get(index)
            .is_none_or(|s| s.solved || s.attempts >= lab.attempts())
    }

    /// Whether step `index` takes answers now.
    pub fn check_open(&self, lab: &Lab, index: usize) -> Result<(), Refused> {
        if self.submitted.is_some() {
            return Err(Refused::Submitted);
        }
        if index >= self.steps.len() {
            return Err(Refused::NoSuchStep);
        }
        if self.done(lab, index) {
            return Err(Refused::Done);
        }
        if lab.order == Order::Locked && !(0..index).all(|i| self.done(lab, i)) {
            return Err(Refused::NotOpen);
        }
        Ok(())
    }

    /// Whether the student may look at step `index` (open, or done: done steps can be read).
    pub fn visible(&self, lab: &Lab, index: usize) -> bool {
        index < self.steps.len()
            && (lab.order == Order::Free || (0..index).all(|i| self.done(lab, i)))
    }

    /// The first step not yet done.
    pub fn current(&self, lab: &Lab) -> Option<usize> {
        (0..self.steps.len()).find(|&i| !self.done(lab, i))
    }

    /// Books an attempt, `late` seconds past the student's deadline (0: in time).
    pub fn attempt(
        &mut self,
        lab: &Lab,
        index: usize,
        answer: &str,
        outcome: Outcome,
        seconds: u64,
        late: u64,
    ) -> Result<(), Refused> {
        self.check_open(lab, index)?;
        let step = &mut self.steps[index];
        step.attempts += 1;
        step.seconds = step.seconds.saturating_add(seconds);
        step.answers.push((answer.to_string(), outcome));
        if outcome == Outcome::Correct {
            step.solved = true;
            step.points = lab.points_for(index, step.attempts, step.hints, late);
        }
        Ok(())
    }

    /// Books a hint.
    pub fn hint(&mut self, lab: &Lab, index: usize) -> Result<(), Refused> {
        if lab.hints == super::file::Hints::Off {
            return Err(Refused::Done);
        }
        self.check_open(lab, index)?;
        self.steps[index].hints += 1;
        Ok(())
    }

    /// Points earned.
    pub fn total(&self) -> u32 {
        self.steps.iter().map(|s| s.points).sum()
    }
}

/// The most points a lab gives.
pub fn max_points(lab: &Lab) -> u32 {
    lab.max_points()
}

/// A lab being worked on: the student's steps, their standing, and the results file each event is
/// appended to before it counts.
#[derive(Debug)]
pub struct LabSession {
    /// The lab.
    pub lab: Lab,
    /// The student, with extra time and re-rolls.
    pub student: Entry,
    /// The student's steps.
    pub items: Vec<Item>,
    /// Their standing.
    pub tally: Tally,
    /// The receipt, once handed in.
    pub receipt: Option<String>,
    /// Where the results go (`None`: kept in memory only).
    pub results: Option<PathBuf>,
    /// The key the student's records are sealed with (from the lab secret, or the student's ticket).
    key: String,
    /// The lock beside the results file, held while the session is open.
    _lock: Option<std::fs::File>,
    appender: Option<Appender>,
    prev: String,
    seq: u64,
}

impl LabSession {
    /// A session whose records are not written anywhere (tests, previews).
    pub fn in_memory(lab: Lab, student: Entry, items: Vec<Item>, now: u64) -> LabSession {
        let key = seed::chain_key(&lab, &student.student);
        let mut session = LabSession::blank(lab, student, items, key);
        session.tally.started = Some(now);
        session
    }

    fn blank(lab: Lab, student: Entry, items: Vec<Item>, key: String) -> LabSession {
        let prev = seed::genesis(&key, &lab, &student.student);
        LabSession {
            key,
            _lock: None,
            tally: Tally::new(items.len()),
            lab,
            student,
            items,
            receipt: None,
            results: None,
            appender: None,
            prev,
            seq: 0,
        }
    }

    /// Opens the session on the student's results file in `dir`: what is there is read back (so the
    /// student continues where they were) and a start record is added. A damaged file is moved aside
    /// and its readable start kept; the returned notices say so.
    pub fn start(
        lab: Lab,
        student: Entry,
        items: Vec<Item>,
        dir: &Path,
        now: u64,
    ) -> Result<(LabSession, Vec<String>), LabError> {
        let key = seed::chain_key(&lab, &student.student);
        LabSession::start_keyed(lab, student, items, key, dir, now)
    }

    /// [`LabSession::start`] with the student's chain key as given (a student pack's ticket).
    pub fn start_keyed(
        lab: Lab,
        student: Entry,
        items: Vec<Item>,
        key: String,
        dir: &Path,
        now: u64,
    ) -> Result<(LabSession, Vec<String>), LabError> {
        let path = store::results_path(dir, &lab.id, lab.version, &student.student);
        // The lock comes first: a second tutor is refused before it reads, repairs or appends.
        let lock = store::lock_results(&path)?;
        let text = store::read(&path)?;
        let parsed = results::parse(&text);
        let mut session = LabSession::blank(lab, student, items, key);
        session._lock = Some(lock);
        let mut notices = Vec::new();
        // Keep the records up to the first one that does not follow from the ones before.
        let mut good = Vec::new();
        for (_, record) in &parsed.records {
            if !session.follows(record) {
                break;
            }
            session.replay(record);
            good.push(record.clone());
        }
        let whole = good.len() == parsed.records.len() && parsed.damage.is_empty();
        let mut note = None;
        if !whole {
            let aside = store::keep_aside(&path, now)?;
            let kept: String = good.iter().map(|r| format!("{}\n", r.to_line())).collect();
            store::replace(&path, &kept)?;
            notices.push(format!(
                "Your results file was damaged; it was moved to {} and its first {} kept. \
                 Tell your instructor.",
                aside.display(),
                crate::format::count(good.len() as u64, "record")
            ));
            note = Some(format!(
                "repaired: {} of {} readable kept, {}; the damaged file is {}",
                good.len(),
                crate::format::count(parsed.records.len() as u64, "record"),
                crate::format::count(parsed.damage.len() as u64, "damaged line"),
                aside.display()
            ));
        }
        session.appender = Some(Appender::open(&path)?);
        session.results = Some(path);
        if session.tally.submitted.is_none() || note.is_some() {
            let mut record = Record::new(&session.lab, &session.student.student, Event::Start, now);
            record.note = note;
            session.write(record)?;
        }
        Ok((session, notices))
    }

    /// Whether `record` verifies and links after the last record booked.
    fn follows(&self, record: &Record) -> bool {
        record.lab == self.lab.id
            && record.version == self.lab.version
            && record.student == self.student.student
            && record.prev == self.prev
            && record.seq == self.seq
            && record.hash == record.expected_hash(&self.key)
    }

    /// Applies a record read back from the file.
    fn replay(&mut self, record: &Record) {
        self.apply(record);
        self.prev = record.hash.clone();
        self.seq = record.seq + 1;
    }

    /// Books a record into the tally. An answer or hint to the numbers a step had before a
    /// re-roll stays in the file and no longer counts: the step starts over.
    fn apply(&mut self, record: &Record) {
        let index = record.step.map(|s| s.saturating_sub(1));
        let current = |index: usize| {
            self.items
                .get(index)
                .is_some_and(|item| record.seed.is_none_or(|seed| seed == item.seed))
        };
        if matches!(record.event, Event::Attempt | Event::Hint) && !index.is_some_and(current) {
            return;
        }
        match record.event {
            Event::Start => {
                self.tally.started.get_or_insert(record.at);
            }
            Event::Attempt => {
                if let (Some(index), Some(outcome)) = (index, record.outcome()) {
                    let answer = record.answer.clone().unwrap_or_default();
                    let late = self.lab.lateness(
                        self.tally.started,
                        self.student.extra_minutes,
                        record.at,
                    );
                    let _ = self.tally.attempt(
                        &self.lab,
                        index,
                        &answer,
                        outcome,
                        record.seconds,
                        late,
                    );
                }
            }
            Event::Hint => {
                if let Some(index) = index {
                    let _ = self.tally.hint(&self.lab, index);
                }
            }
            Event::Submit => {
                self.tally.submitted = Some(record.at);
                self.receipt = Some(seed::receipt(
                    &self.key,
                    &self.student.student,
                    &record.hash,
                ));
            }
        }
    }

    /// Seals a record after the last one, writes it (to disk, flushed), then books it.
    fn write(&mut self, mut record: Record) -> Result<(), LabError> {
        record.seal(&self.key, self.seq, &self.prev);
        if let Some(appender) = &mut self.appender {
            appender.append(&record.to_line())?;
        }
        self.replay(&record);
        Ok(())
    }

    /// When time runs out (Unix seconds): the time limit's end or `due`, if the lab has either.
    pub fn deadline(&self) -> Option<u64> {
        self.lab
            .deadline(self.tally.started, self.student.extra_minutes)
    }

    /// When answers stop being taken: the deadline, or `closes` when late answers are taken.
    pub fn closing(&self) -> Option<u64> {
        self.lab
            .closing(self.tally.started, self.student.extra_minutes)
    }

    /// What a right answer to step `index` at attempt `n` after `hints` hints gives if answered
    /// at `now` (the step's weight, hint costs and the late policy applied).
    pub fn points_now(&self, index: usize, n: u32, hints: u32, now: u64) -> u32 {
        let late = self
            .lab
            .lateness(self.tally.started, self.student.extra_minutes, now);
        self.lab.points_for(index, n, hints, late)
    }

    /// Seconds left before the deadline, if there is one.
    pub fn time_left(&self, now: u64) -> Option<u64> {
        self.deadline().map(|d| d.saturating_sub(now))
    }

    /// Whether the lab takes no more answers by time (the deadline, or `closes` when late answers
    /// are taken), or has not opened yet.
    pub fn time_up(&self, now: u64) -> bool {
        self.closing().is_some_and(|d| now >= d)
    }

    /// Whether answers are still taken at all.
    pub fn closed(&self, now: u64) -> Option<&'static str> {
        if self.tally.submitted.is_some() {
            Some("The lab was handed in.")
        } else if self.lab.opens.as_ref().is_some_and(|o| now < o.at) {
            Some("The lab has not opened yet.")
        } else if self.time_up(now) {
            Some("Time is up: answers are closed. Hand in: g, then s.")
        } else {
            None
        }
    }

    /// [`LabSession::closed`] in `lang`, for the screen.
    pub fn closed_in(&self, lang: crate::i18n::Lang, now: u64) -> Option<String> {
        if self.tally.submitted.is_some() {
            Some(crate::t!(lang, "lab-closed-handed-in"))
        } else if let Some(opens) = self.lab.opens.as_ref().filter(|o| now < o.at) {
            Some(crate::t!(
                lang,
                "lab-closed-not-open",
                opens = crate::text::iso_time(opens.at)
            ))
        } else if self.time_up(now) {
            Some(crate::t!(lang, "lab-closed-time-up"))
        } else {
            None
        }
    }

    fn refuse(&self, index: usize, now: u64) -> Result<(), LabError> {
        if let Some(message) = self.closed(now) {
            return Err(LabError::Closed(message.to_string()));
        }
        self.tally
            .check_open(&self.lab, index)
            .map_err(|r| LabError::Closed(format!("Not counted: {}.", r.message())))
    }

    /// Records a graded answer to step `index` (0-based).
    pub fn attempt(
        &mut self,
        index: usize,
        answer: &str,
        given: Given,
        outcome: Outcome,
        seconds: u64,
        now: u64,
    ) -> Result<(), LabError> {
        self.refuse(index, now)?;
        let item = &self.items[index];
        let mut record = Record::new(&self.lab, &self.student.student, Event::Attempt, now);
        record.step = Some(item.step);
        record.exercise = Some(item.exercise.clone());
        record.seed = Some(item.seed);
        record.answer = Some(answer.to_string());
        record.given = Some(given);
        record.outcome = Some(results::outcome_word(outcome).to_string());
        record.hints = self.tally.steps[index].hints;
        record.seconds = seconds;
        self.write(record)
    }

    /// Records a kernel handed in for puzzle step `index` (0-based), graded as `verdict`
    /// ([`super::task::grade_kernel`]); a kernel that is not an answer is refused, not counted.
    pub fn kernel(
        &mut self,
        index: usize,
        source: &str,
        verdict: &super::task::Verdict,
        seconds: u64,
        now: u64,
    ) -> Result<(), LabError> {
        if verdict.outcome == Outcome::Unusable {
            return Err(LabError::Closed(verdict.headline.clone()));
        }
        self.refuse(index, now)?;
        let item = &self.items[index];
        let mut record = Record::new(&self.lab, &self.student.student, Event::Attempt, now);
        record.step = Some(item.step);
        record.exercise = Some(item.exercise.clone());
        record.seed = Some(item.seed);
        // The kernel is kept once, as the answer (the report checks it again from there).
        record.answer = Some(source.to_string());
        record.outcome = Some(results::outcome_word(verdict.outcome).to_string());
        record.hints = self.tally.steps[index].hints;
        record.seconds = seconds;
        record.note = verdict.note.clone();
        self.write(record)
    }

    /// Records a hint taken on step `index` (0-based).
    pub fn hint(&mut self, index: usize, now: u64) -> Result<(), LabError> {
        if self.lab.hints == super::file::Hints::Off {
            return Err(LabError::Closed("Hints are off in this lab.".into()));
        }
        self.refuse(index, now)?;
        let item = &self.items[index];
        let mut record = Record::new(&self.lab, &self.student.student, Event::Hint, now);
        record.step = Some(item.step);
        record.exercise = Some(item.exercise.clone());
        record.seed = Some(item.seed);
        record.hints = self.tally.steps[index].hints + 1;
        self.write(record)
    }

    /// Hands the lab in when its time is up at `now` (the deadline, or `closes` with a late
    /// policy), as of that moment, with the note `time up`; returns whether it did.
    pub fn expire(&mut self, now: u64) -> Result<bool, LabError> {
        if self.tally.submitted.is_some() {
            return Ok(false);
        }
        let Some(closing) = self.closing().filter(|&c| now >= c) else {
            return Ok(false);
        };
        let mut record = Record::new(&self.lab, &self.student.student, Event::Submit, closing);
        record.note = Some("time up".into());
        self.write(record)?;
        Ok(true)
    }

    /// Hands the lab in; returns the receipt.
    pub fn submit(&mut self, now: u64) -> Result<String, LabError> {
        if let Some(receipt) = &self.receipt {
            return Ok(receipt.clone());
        }
        let record = Record::new(&self.lab, &self.student.student, Event::Submit, now);
        self.write(record)?;
        Ok(self.receipt.clone().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab(order: &str) -> Lab {
        Lab::parse(
            "t.ron",
            &format!(
                r#"Lab(id: "t", title: "T", version: 1, secret: "a test secret",
                   steps: [Exercise("a"), Exercise("b"), Exercise("c")], points: [10, 5],
                   hints: Cost(3), order: {order})"#
            ),
        )
        .unwrap()
    }

    #[test]
    fn locked_order_opens_steps_one_by_one_and_freezes_done_ones() {
        let lab = lab("Locked");
        let mut tally = Tally::new(3);
        assert_eq!(tally.check_open(&lab, 1), Err(Refused::NotOpen));
        tally.hint(&lab, 0).unwrap();
        tally.attempt(&lab, 0, "x", Outcome::Wrong, 5, 0).unwrap();
        tally.attempt(&lab, 0, "y", Outcome::Correct, 5, 0).unwrap();
        assert_eq!(
            tally.steps[0].points, 2,
            "5 for the second attempt, less 3 for the hint"
        );
        assert_eq!(
            tally.attempt(&lab, 0, "y", Outcome::Correct, 5, 0),
            Err(Refused::Done)
        );
        // Out of attempts also opens the next step.
        tally.attempt(&lab, 1, "x", Outcome::Wrong, 5, 0).unwrap();
        tally.attempt(&lab, 1, "x", Outcome::Wrong, 5, 0).unwrap();
        assert!(tally.done(&lab, 1));
        assert_eq!(tally.current(&lab), Some(2));
        assert!(tally.check_open(&lab, 2).is_ok());
        assert_eq!(tally.total(), 2);
    }

    #[test]
    fn free_order_opens_every_step_and_hand_in_closes_them() {
        let lab = lab("Free");
        let mut tally = Tally::new(3);
        tally.attempt(&lab, 2, "z", Outcome::Correct, 1, 0).unwrap();
        assert_eq!(tally.steps[2].points, 10);
        tally.submitted = Some(1);
        assert_eq!(tally.check_open(&lab, 0), Err(Refused::Submitted));
    }
}
