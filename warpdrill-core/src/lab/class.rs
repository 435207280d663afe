//! The served lab: the class as the instructor's machine holds it. Every student's variants are drawn
//! here, every answer is graded here, attempts and hints are counted here and the time limit runs on
//! this machine's clock; each event is committed to the [`Db`] before the student is told anything.
//! A restart reads the events back and every student continues where they were.
//!
//! Students see only what [`Class`] returns ([`StateView`], [`StepView`], [`AnswerView`]): prompts,
//! options, hints taken and verdicts, never a key, a seed or the lab's secret. The HTTP layer is in
//! the binary; this module has no network and no terminal.

use super::LabError;
use super::db::{Db, Kind, Row};
use super::file::{FeedbackMode, Hints, Lab};
use super::plan::{Item, plan};
use super::roster::{Entry, Roster, valid_student};
use super::seed;
use super::session::Tally;
use super::task::{KERNEL_CHARS, Task};
use crate::clock::Clock;
use crate::content::Content;
use crate::i18n::Lang;
use crate::ladder::variant::letter;
use crate::ladder::{AnswerKey, Outcome, Variant, generate};
use crate::puzzle::Puzzle;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a student's tutor sends with every request.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Request {
    /// Student id.
    pub student: String,
    /// The student's join code.
    pub code: String,
    /// The language to show prompts in (`en`, `ko`, `hi-Latn`).
    #[serde(default)]
    pub lang: String,
    /// Step number (1-based), for a step, an answer or a hint.
    #[serde(default)]
    pub step: Option<usize>,
    /// The answer typed.
    #[serde(default)]
    pub answer: Option<String>,
}

/// How a step stands, as the student may see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Solved.
    Solved,
    /// Out of attempts, or handed in without a right answer.
    NotSolved,
    /// Open: answers taken.
    Open,
    /// Exam mode: answered, verdict at hand-in.
    Answered,
    /// Opens when the steps before it are done.
    Locked,
}

/// One line of the overview.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepSummary {
    /// Step number, 1-based.
    pub step: usize,
    /// The exercise's title.
    pub title: String,
    /// Its level (`L2`).
    pub level: String,
    /// How it stands.
    pub standing: Standing,
    /// Points earned (none while exam results are withheld).
    pub points: Option<u32>,
    /// Answers graded.
    pub attempts: u32,
    /// What the step is worth, when it carries a weight of its own.
    #[serde(default)]
    pub worth: Option<u32>,
}

/// The student's lab as the server holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateView {
    /// The lab's title.
    pub title: String,
    /// The student.
    pub student: String,
    /// Every step.
    pub steps: Vec<StepSummary>,
    /// Points earned (none while exam results are withheld).
    pub points: Option<u32>,
    /// Points possible.
    pub max: u32,
    /// Points for a right answer at the first, second … attempt.
    pub points_per_attempt: Vec<u32>,
    /// Attempts per step.
    pub attempts_allowed: u32,
    /// Hints: `free`, `cost N` or `off`.
    pub hint_cost: Option<u32>,
    /// Hints allowed at all.
    pub hints: bool,
    /// Exam mode (one answer per step, verdicts at hand-in).
    pub exam: bool,
    /// Steps in a fixed order.
    pub locked_order: bool,
    /// Seconds left by the server's clock before answers are no longer taken (none: no limit).
    pub time_left: Option<u64>,
    /// With a late policy, seconds left before answers lose points (none: no late policy).
    #[serde(default)]
    pub late_in: Option<u64>,
    /// Handed in (Unix seconds, server clock).
    pub submitted: Option<u64>,
    /// Handed in by the server at time-up.
    pub timed_out: bool,
    /// The receipt, once handed in.
    pub receipt: Option<String>,
    /// The first step not yet done.
    pub current: Option<usize>,
}

/// One step, opened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepView {
    /// Step number, 1-based.
    pub step: usize,
    /// The exercise's title.
    pub title: String,
    /// The question with the student's numbers.
    pub prompt: String,
    /// Options (`a) …`) or items to order, to show under the prompt.
    pub options: Vec<String>,
    /// What kind of answer: `number`, `choice`, `ordering`, `text`, `explain`.
    pub answer_kind: String,
    /// Hints taken so far, in order.
    pub hints: Vec<String>,
    /// Whether another hint can be taken.
    pub more_hints: bool,
    /// How it stands.
    pub standing: Standing,
    /// Answers graded.
    pub attempts: u32,
    /// The answers given, in order.
    pub answers: Vec<String>,
    /// What the server said about the last answer (with the answer and why, once the step is done
    /// and the lab's feedback shows it).
    pub verdict: Option<String>,
    /// The worked explanation, once the step is done and feedback is shown.
    pub why: Option<String>,
    /// A kernel puzzle step: what the student's tutor needs to write the starter file.
    #[serde(default)]
    pub kernel: Option<KernelStep>,
}

/// A puzzle step's files, for the student's tutor: it writes the starter where the student edits
/// it, and hands in the file's text as the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelStep {
    /// The puzzle's id (`warpdrill puzzle check ID FILE` checks it the same way).
    pub puzzle: String,
    /// The kernel function's name.
    pub kernel: String,
    /// The starter file.
    pub starter: String,
    /// The most characters a handed-in file may have.
    pub max_chars: usize,
}

/// What an answer got.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerView {
    /// `correct`, `wrong`, `recorded` (exam mode) or `unusable` (not counted: say it again).
    pub outcome: String,
    /// What to tell the student.
    pub message: String,
    /// The step, after the answer.
    pub step: StepView,
    /// The lab, after the answer.
    pub state: StateView,
}

/// Why a request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Unknown student or wrong code (HTTP 403).
    Denied(String),
    /// Not taken now: closed, locked, no such step (HTTP 409).
    Closed(String),
    /// The request cannot be read (HTTP 400).
    Bad(String),
    /// The database could not commit (HTTP 503): nothing was counted.
    Storage(String),
}

impl Refusal {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Refusal::Denied(m) | Refusal::Closed(m) | Refusal::Bad(m) | Refusal::Storage(m) => m,
        }
    }
}

/// One student's place in the class.
#[derive(Debug, Clone)]
struct Seat {
    entry: Entry,
    items: Vec<Item>,
    tally: Tally,
    timed_out: bool,
    receipt: Option<String>,
    /// Last answers' verdict text per step, in memory (a restart shows it again from the answers).
    seen: BTreeMap<usize, u64>,
    /// Puzzle steps: what each wrong kernel came to ([`crate::puzzle::check::summary`]), per step.
    kernel_notes: BTreeMap<usize, Vec<String>>,
}

/// The class being served.
pub struct Class {
    lab: Lab,
    file: String,
    text: String,
    contents: Vec<(Lang, Content)>,
    roster: Roster,
    seats: BTreeMap<String, Seat>,
    db: Db,
    clock: Arc<dyn Clock>,
    /// The regrades stored, in order: they apply to every answer, before or after them.
    regrades: Vec<Regrade>,
    /// The newest event this class has booked: a newer one in the database was written by another
    /// process (`lab regrade` while serving) and is read in by [`Class::expire`].
    last_id: i64,
}

/// A change to a step's grading for the whole class, after the class (a mistake in a step found
/// later): stored as an event, applied to every answer given before or after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "op")]
pub enum Regrade {
    /// The step counts for no one: its points leave every total and the points possible.
    Drop {
        /// Step number, 1-based.
        step: usize,
    },
    /// Everyone gets the step's full points.
    Credit {
        /// Step number, 1-based.
        step: usize,
    },
    /// This answer is right too: an attempt that gave it scores as a right answer at that
    /// attempt (attempts after it no longer count).
    Accept {
        /// Step number, 1-based.
        step: usize,
        /// The answer, as a student would type it.
        answer: String,
    },
}

impl Regrade {
    /// The step it changes.
    pub fn step(&self) -> usize {
        match self {
            Regrade::Drop { step } | Regrade::Credit { step } | Regrade::Accept { step, .. } => {
                *step
            }
        }
    }

    fn word(&self) -> &'static str {
        match self {
            Regrade::Drop { .. } => "drop",
            Regrade::Credit { .. } => "credit",
            Regrade::Accept { .. } => "accept",
        }
    }

    fn of_row(row: &Row) -> Option<Regrade> {
        let step = row.step?;
        match row.note.as_deref()? {
            "drop" => Some(Regrade::Drop { step }),
            "credit" => Some(Regrade::Credit { step }),
            "accept" => Some(Regrade::Accept {
                step,
                answer: row.answer.clone()?,
            }),
            _ => None,
        }
    }

    /// In the instructor's words.
    pub fn describe(&self) -> String {
        match self {
            Regrade::Drop { step } => format!("step {step} dropped (counts for no one)"),
            Regrade::Credit { step } => format!("step {step}: full points for everyone"),
            Regrade::Accept { step, answer } => format!("step {step}: `{answer}` accepted"),
        }
    }
}

/// Whether answer `given` is the answer `accepted`: the same text (case and spaces aside), or the
/// same number with the same unit words.
fn same_answer(given: &str, accepted: &str) -> bool {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let (given, accepted) = (norm(given), norm(accepted));
    if given == accepted {
        return true;
    }
    let split = |s: &str| {
        let end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == 'e'))
            .unwrap_or(s.len());
        let (number, rest) = s.split_at(end);
        number
            .parse::<f64>()
            .ok()
            .map(|n| (n, rest.trim().to_string()))
    };
    match (split(&given), split(&accepted)) {
        (Some((a, unit_a)), Some((b, unit_b))) => {
            (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
                && (unit_a == unit_b || unit_a.is_empty() || unit_b.is_empty())
        }
        _ => false,
    }
}

/// One student's total before and after a regrade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// Student id.
    pub student: String,
    /// Points before.
    pub before: u32,
    /// Points after.
    pub after: u32,
    /// Points possible before.
    pub max_before: u32,
    /// Points possible after.
    pub max_after: u32,
}

impl std::fmt::Debug for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Class")
            .field("lab", &self.lab.id)
            .field("students", &self.seats.len())
            .finish()
    }
}

fn outcome_word(outcome: Outcome) -> &'static str {
    super::results::outcome_word(outcome)
}

impl Class {
    /// Opens the class: every student of `roster` gets their steps, and the events already in `db`
    /// are read back. `file` and `text` are the lab file's (for locating mistakes).
    #[allow(clippy::too_many_arguments)]
    pub fn open(
        lab: Lab,
        file: &str,
        text: &str,
        content: &Content,
        roster: Roster,
        db: Db,
        clock: Arc<dyn Clock>,
    ) -> Result<Class, LabError> {
        if roster.entries.is_empty() {
            return Err(LabError::Closed(
                "the roster lists no students; add them with `warpdrill lab roster FILE --add ID`"
                    .into(),
            ));
        }
        let contents = Lang::ALL
            .iter()
            .map(|&lang| {
                (
                    lang,
                    if lang == Lang::En {
                        content.clone()
                    } else {
                        content.in_lang(lang)
                    },
                )
            })
            .collect();
        let mut class = Class {
            lab,
            file: file.to_string(),
            text: text.to_string(),
            contents,
            roster,
            seats: BTreeMap::new(),
            db,
            clock,
            regrades: Vec::new(),
            last_id: 0,
        };
        class.rebuild()?;
        Ok(class)
    }

    /// Every student's standing, from the roster and every stored event (regrades first, since
    /// they apply to the answers before them too).
    fn rebuild(&mut self) -> Result<(), LabError> {
        self.rebuild_with(&[])
    }

    /// [`Class::rebuild`] as if `extra` regrades were stored after the stored ones (a dry run).
    fn rebuild_with(&mut self, extra: &[Regrade]) -> Result<(), LabError> {
        self.seats.clear();
        for entry in self.roster.entries.clone() {
            let seat = self.seat(entry)?;
            self.seats.insert(seat.entry.student.clone(), seat);
        }
        let (rows, _skipped) = self.db.events()?;
        self.regrades = rows
            .iter()
            .filter(|r| r.kind == Kind::Regrade)
            .filter_map(Regrade::of_row)
            .chain(extra.iter().cloned())
            .collect();
        for row in rows.iter().filter(|r| r.kind != Kind::Regrade) {
            self.replay(row)?;
        }
        self.last_id = rows.last().map_or(0, |r| r.id);
        Ok(())
    }

    fn seat(&self, entry: Entry) -> Result<Seat, LabError> {
        let items = plan(
            &self.lab,
            self.content(Lang::En),
            &entry,
            &self.file,
            &self.text,
        )?;
        Ok(Seat {
            tally: Tally::new(items.len()),
            items,
            entry,
            timed_out: false,
            receipt: None,
            seen: BTreeMap::new(),
            kernel_notes: BTreeMap::new(),
        })
    }

    /// The lab served.
    pub fn lab(&self) -> &Lab {
        &self.lab
    }

    /// The students, in roster order.
    pub fn students(&self) -> Vec<String> {
        self.roster
            .entries
            .iter()
            .map(|e| e.student.clone())
            .collect()
    }

    fn content(&self, lang: Lang) -> &Content {
        self.contents
            .iter()
            .find(|(l, _)| *l == lang)
            .or(self.contents.first())
            .map(|(_, c)| c)
            .expect("the class holds English content")
    }

    /// Books an event read back from the database (or just committed).
    fn replay(&mut self, row: &Row) -> Result<(), LabError> {
        let lab = self.lab.clone();
        let Some(seat) = self.seats.get_mut(&row.student) else {
            return Ok(());
        };
        let index = row.step.map(|s| s.saturating_sub(1));
        match row.kind {
            Kind::Start => {
                seat.tally.started.get_or_insert(row.at);
            }
            Kind::Attempt => {
                let mut outcome = match row.outcome.as_deref() {
                    Some("correct") => Outcome::Correct,
                    Some("wrong") => Outcome::Wrong,
                    _ => return Ok(()),
                };
                if let Some(index) = index {
                    let answer = row.answer.clone().unwrap_or_default();
                    let accepted = self.regrades.iter().any(|r| match r {
                        Regrade::Accept {
                            step,
                            answer: right,
                        } => *step == index + 1 && same_answer(&answer, right),
                        _ => false,
                    });
                    if accepted {
                        outcome = Outcome::Correct;
                    }
                    let late = lab.lateness(seat.tally.started, seat.entry.extra_minutes, row.at);
                    let booked = seat
                        .tally
                        .attempt(&lab, index, &answer, outcome, row.value, late);
                    if booked.is_ok()
                        && outcome == Outcome::Wrong
                        && let Some(note) = &row.note
                    {
                        seat.kernel_notes
                            .entry(index)
                            .or_default()
                            .push(note.clone());
                    }
                    seat.seen.insert(index, row.at);
                }
            }
            Kind::Hint => {
                if let Some(index) = index {
                    let _ = seat.tally.hint(&lab, index);
                }
            }
            Kind::Submit => {
                if seat.tally.submitted.is_none() {
                    seat.tally.submitted = Some(row.at);
                    seat.timed_out = row.note.as_deref() == Some("time up");
                    seat.receipt = Some(seed::receipt(
                        &seed::chain_key(&lab, &row.student),
                        &row.student,
                        &format!("served {}", row.id),
                    ));
                }
            }
            Kind::ExtraTime => {
                seat.entry.extra_minutes = seat
                    .entry
                    .extra_minutes
                    .saturating_add(u32::try_from(row.value).unwrap_or(u32::MAX));
            }
            Kind::Regrade => {}
            Kind::Reroll => {
                if let Some(step) = row.step
                    && step >= 1
                    && step <= seat.items.len()
                {
                    let mut entry = seat.entry.clone();
                    entry.rerolls.push(step);
                    let fresh = self.seat(entry)?;
                    let seat = self.seats.get_mut(&row.student).expect("seat exists");
                    seat.entry = fresh.entry;
                    seat.items = fresh.items;
                    // New numbers: the step starts over.
                    if let Some(step) = seat.tally.steps.get_mut(step - 1) {
                        *step = Default::default();
                    }
                    seat.kernel_notes.remove(&(step - 1));
                }
            }
        }
        Ok(())
    }

    /// Commits `row`, then books it. Nothing is booked when the commit fails.
    fn commit(&mut self, row: Row) -> Result<(), Refusal> {
        let id = self
            .db
            .append(&row)
            .map_err(|e| Refusal::Storage(format!("not saved, try again: {e}")))?;
        let mut row = row;
        row.id = id;
        if id == self.last_id + 1 {
            self.last_id = id;
            self.replay(&row)
                .map_err(|e| Refusal::Storage(e.to_string()))
        } else {
            // Another process wrote in between (a regrade): read everything back.
            self.rebuild().map_err(|e| Refusal::Storage(e.to_string()))
        }
    }

    fn now(&self) -> u64 {
        self.clock.now_secs()
    }

    fn closing(&self, seat: &Seat) -> Option<u64> {
        self.lab
            .closing(seat.tally.started, seat.entry.extra_minutes)
    }

    fn deadline(&self, seat: &Seat) -> Option<u64> {
        self.lab
            .deadline(seat.tally.started, seat.entry.extra_minutes)
    }

    /// Hands in, by the server's clock, every lab whose time is up (the deadline, or `closes`
    /// when late answers are taken); returns who was handed in. At `closes`, a student who never
    /// joined is handed in too, with nothing.
    pub fn expire(&mut self) -> Result<Vec<String>, LabError> {
        if self.db.last_id()? != self.last_id {
            self.rebuild()?;
        }
        let now = self.now();
        let due: Vec<(String, u64)> = self
            .seats
            .iter()
            .filter(|(_, s)| s.tally.submitted.is_none())
            .filter_map(|(id, s)| {
                let closing = self.lab.closing(s.tally.started, s.entry.extra_minutes)?;
                (now >= closing).then(|| (id.clone(), closing))
            })
            .collect();
        let mut handed = Vec::new();
        for (student, deadline) in due {
            let mut row = Row::new(&student, Kind::Submit, deadline);
            row.note = Some("time up".into());
            self.commit(row)
                .map_err(|r| LabError::Closed(r.message().to_string()))?;
            handed.push(student);
        }
        Ok(handed)
    }

    /// The join code of a student: 10 letters and digits from the lab's secret.
    pub fn code(&self, student: &str) -> String {
        seed::join_code(&self.lab, student)
    }

    /// Whether `request` comes from a student on the roster with their own join code.
    fn knows(&self, request: &Request) -> bool {
        let student = request.student.trim();
        let code: String = request
            .code
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let expected: String = self.code(student).chars().filter(|&c| c != '-').collect();
        valid_student(student)
            && self.seats.contains_key(student)
            && constant_eq(code.as_bytes(), expected.as_bytes())
    }

    fn admit(&mut self, request: &Request) -> Result<String, Refusal> {
        let student = request.student.trim();
        if !self.knows(request) {
            return Err(Refusal::Denied(
                "unknown student or wrong join code (ask your instructor for yours)".into(),
            ));
        }
        if let Some(opens) = self.lab.opens.as_ref().filter(|o| self.now() < o.at) {
            return Err(Refusal::Closed(format!(
                "the lab opens at {} (server time); join again then",
                crate::text::iso_time(opens.at)
            )));
        }
        // Time-up is applied before anything else, so a late answer is never taken.
        self.expire().map_err(|e| Refusal::Storage(e.to_string()))?;
        Ok(student.to_string())
    }

    /// `POST /join`: the student's lab (a start event is stored on the first join and on each
    /// rejoin).
    pub fn join(&mut self, request: &Request) -> Result<StateView, Refusal> {
        let student = self.admit(request)?;
        let now = self.now();
        if self.seats[&student].tally.submitted.is_none() {
            self.commit(Row::new(&student, Kind::Start, now))?;
        }
        Ok(self.state(&student))
    }

    /// `POST /state`: the student's lab, as it stands.
    pub fn status(&mut self, request: &Request) -> Result<StateView, Refusal> {
        let student = self.admit(request)?;
        Ok(self.state(&student))
    }

    fn index_of(&self, student: &str, request: &Request) -> Result<usize, Refusal> {
        let seat = &self.seats[student];
        match request.step {
            Some(step) if (1..=seat.items.len()).contains(&step) => Ok(step - 1),
            _ => Err(Refusal::Bad(format!(
                "no such step (this lab has steps 1 to {})",
                seat.items.len()
            ))),
        }
    }

    fn task(&self, seat: &Seat, index: usize, lang: Lang) -> Result<Task, Refusal> {
        Task::of(self.content(lang), &seat.items[index], lang).map_err(|e| {
            Refusal::Closed(format!(
                "step {}: {e}; tell your instructor",
                seat.items[index].step
            ))
        })
    }

    /// The kernel a request needs checked, with its puzzle: the one an `/answer` hands in
    /// (`answering`), else the step's last one, which `/step` shows the verdict of. Checking a
    /// kernel takes seconds, so the HTTP layer checks it
    /// ([`crate::puzzle::check::check_cached`]) before taking the class's lock, and the call then
    /// finds the outcome made. None for a step that is not a puzzle or a request not admitted.
    pub fn kernel_to_check(&self, request: &Request, answering: bool) -> Option<(Puzzle, String)> {
        if !self.knows(request) {
            return None;
        }
        let seat = self.seats.get(request.student.trim())?;
        let index = request.step?.checked_sub(1)?;
        let item = seat.items.get(index).filter(|i| i.puzzle)?;
        let source = if answering {
            seat.tally.check_open(&self.lab, index).ok()?;
            request.answer.clone()?
        } else {
            seat.tally.steps.get(index)?.answers.last()?.0.clone()
        };
        if source.chars().count() > KERNEL_CHARS {
            return None;
        }
        let puzzle = crate::puzzle::find(&item.exercise, lang_of(request))?;
        Some((puzzle, source))
    }

    fn variant(&self, seat: &Seat, index: usize, lang: Lang) -> Result<Variant, Refusal> {
        let item = &seat.items[index];
        let template = self
            .content(lang)
            .exercise(&item.exercise)
            .ok_or_else(|| Refusal::Closed(format!("unknown exercise `{}`", item.exercise)))?;
        generate(template, item.seed).map_err(|e| {
            Refusal::Closed(format!(
                "step {} cannot be drawn ({e}); tell your instructor",
                item.step
            ))
        })
    }

    /// `POST /step`: one step, to read (open or done).
    pub fn step(&mut self, request: &Request) -> Result<StepView, Refusal> {
        let student = self.admit(request)?;
        let index = self.index_of(&student, request)?;
        let seat = &self.seats[&student];
        if !seat.tally.visible(&self.lab, index) {
            return Err(Refusal::Closed(
                "this step opens when the steps before it are done".into(),
            ));
        }
        let now = self.now();
        let lang = lang_of(request);
        let view = self.step_view(&student, index, lang)?;
        if let Some(seat) = self.seats.get_mut(&student) {
            seat.seen.entry(index).or_insert(now);
        }
        Ok(view)
    }

    fn exam_hidden(&self, seat: &Seat) -> bool {
        self.lab.feedback == FeedbackMode::AtEnd && seat.tally.submitted.is_none()
    }

    fn standing(&self, seat: &Seat, index: usize) -> Standing {
        let step = &seat.tally.steps[index];
        if self.exam_hidden(seat) {
            return if step.attempts > 0 {
                Standing::Answered
            } else if seat.tally.visible(&self.lab, index) {
                Standing::Open
            } else {
                Standing::Locked
            };
        }
        if step.solved {
            Standing::Solved
        } else if seat.tally.done(&self.lab, index) || seat.tally.submitted.is_some() {
            Standing::NotSolved
        } else if seat.tally.visible(&self.lab, index) {
            Standing::Open
        } else {
            Standing::Locked
        }
    }

    fn step_view(&self, student: &str, index: usize, lang: Lang) -> Result<StepView, Refusal> {
        let seat = &self.seats[student];
        let task = self.task(seat, index, lang)?;
        let tally = &seat.tally.steps[index];
        let item = &seat.items[index];
        let title = match &task {
            Task::Puzzle(p) => p.title.clone(),
            Task::Exercise(_) => self
                .content(lang)
                .exercise(&item.exercise)
                .map_or(String::new(), |e| e.title.clone()),
        };
        let (options, kind) = match &task {
            Task::Puzzle(_) => (Vec::new(), "kernel"),
            Task::Exercise(variant) => match &variant.key {
                AnswerKey::Number { .. } => (Vec::new(), "number"),
                AnswerKey::Choice { options, .. } => (
                    options
                        .iter()
                        .enumerate()
                        .map(|(i, o)| format!("{}) {o}", letter(i)))
                        .collect(),
                    "choice",
                ),
                AnswerKey::Ordering { items, shown, .. } => (
                    shown
                        .iter()
                        .filter_map(|&i| items.get(i).cloned())
                        .collect(),
                    "ordering",
                ),
                AnswerKey::Text { .. } => (Vec::new(), "text"),
                AnswerKey::Explain { .. } => (Vec::new(), "explain"),
            },
        };
        let standing = self.standing(seat, index);
        let done = matches!(standing, Standing::Solved | Standing::NotSolved);
        let hints = task.hints();
        let hints_taken = (tally.hints as usize).min(hints.len());
        let (verdict, why) = match tally.answers.last() {
            Some((answer, _)) if done => {
                let verdict = task.grade(answer, lang);
                (Some(verdict.headline), Some(verdict.why))
            }
            Some((answer, _)) if !self.exam_hidden(seat) => {
                (Some(task.grade(answer, lang).held), None)
            }
            _ => (None, None),
        };
        let kernel = match &task {
            Task::Puzzle(p) => Some(KernelStep {
                puzzle: p.id.clone(),
                kernel: p.kernel.clone(),
                starter: p.starter.clone(),
                max_chars: task.max_chars(),
            }),
            Task::Exercise(_) => None,
        };
        Ok(StepView {
            step: index + 1,
            title,
            prompt: task.prompt().to_string(),
            options,
            answer_kind: kind.to_string(),
            hints: hints[..hints_taken].to_vec(),
            more_hints: self.lab.hints != Hints::Off
                && hints_taken < hints.len()
                && standing == Standing::Open,
            standing,
            attempts: tally.attempts,
            // A kernel is long: its answers are counted, not repeated.
            answers: if item.puzzle {
                Vec::new()
            } else {
                tally.answers.iter().map(|(a, _)| a.clone()).collect()
            },
            verdict,
            why,
            kernel,
        })
    }

    fn state(&self, student: &str) -> StateView {
        let seat = &self.seats[student];
        let hidden = self.exam_hidden(seat);
        let points = self.step_points(seat);
        let en = self.content(Lang::En);
        let steps = seat
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let (title, level) = super::task::heading(en, item);
                StepSummary {
                    step: item.step,
                    title,
                    level: level.to_string(),
                    standing: self.standing(seat, i),
                    points: (!hidden).then_some(points[i]),
                    attempts: seat.tally.steps[i].attempts,
                    worth: self.lab.weight(i),
                }
            })
            .collect();
        StateView {
            title: self.lab.title.clone(),
            student: student.to_string(),
            steps,
            points: (!hidden).then(|| points.iter().sum()),
            max: self.max(),
            points_per_attempt: self.lab.points.clone(),
            attempts_allowed: self.lab.attempts(),
            hint_cost: match self.lab.hints {
                Hints::Cost(n) => Some(n),
                _ => None,
            },
            hints: self.lab.hints != Hints::Off,
            exam: self.lab.feedback == FeedbackMode::AtEnd,
            locked_order: self.lab.order == super::Order::Locked,
            time_left: self.closing(seat).map(|d| d.saturating_sub(self.now())),
            late_in: match self.lab.late {
                super::file::Late::Refuse => None,
                super::file::Late::Deduct { .. } => {
                    self.deadline(seat).map(|d| d.saturating_sub(self.now()))
                }
            },
            submitted: seat.tally.submitted,
            timed_out: seat.timed_out,
            receipt: seat.receipt.clone(),
            current: seat.tally.current(&self.lab).map(|i| i + 1),
        }
    }

    fn refuse_closed(&self, student: &str, index: usize) -> Result<(), Refusal> {
        let seat = &self.seats[student];
        if seat.timed_out {
            return Err(Refusal::Closed(
                "time is up: the lab was handed in by the server's clock".into(),
            ));
        }
        seat.tally
            .check_open(&self.lab, index)
            .map_err(|r| Refusal::Closed(format!("not counted: {}", r.message())))
    }

    /// `POST /answer`: grades the answer, commits it, and says what the student may know.
    pub fn answer(&mut self, request: &Request) -> Result<AnswerView, Refusal> {
        let student = self.admit(request)?;
        let index = self.index_of(&student, request)?;
        self.refuse_closed(&student, index)?;
        let lang = lang_of(request);
        let answer = request.answer.clone().unwrap_or_default();
        let seat = &self.seats[&student];
        let task = self.task(seat, index, lang)?;
        if answer.chars().count() > task.max_chars() {
            return Err(Refusal::Bad(format!(
                "an answer is {} characters at most",
                task.max_chars()
            )));
        }
        let now = self.now();
        let feedback = task.grade(&answer, lang);
        let outcome = match feedback.outcome {
            Outcome::Unusable => {
                // Not an answer (empty, not a number): not counted, say it again.
                return Ok(AnswerView {
                    outcome: "unusable".into(),
                    message: feedback.headline,
                    step: self.step_view(&student, index, lang)?,
                    state: self.state(&student),
                });
            }
            Outcome::Correct => Outcome::Correct,
            _ => Outcome::Wrong,
        };
        let item = &seat.items[index];
        let since = seat
            .seen
            .get(&index)
            .copied()
            .or(seat.tally.started)
            .unwrap_or(now);
        let mut row = Row::new(&student, Kind::Attempt, now);
        row.step = Some(item.step);
        row.exercise = Some(item.exercise.clone());
        row.seed = Some(item.seed);
        row.answer = Some(answer);
        row.outcome = Some(outcome_word(outcome).to_string());
        row.value = now.saturating_sub(since);
        row.note = feedback.note.clone();
        self.commit(row)?;
        let seat = &self.seats[&student];
        let step = self.step_view(&student, index, lang)?;
        let (word, message) = if self.exam_hidden(seat) {
            ("recorded", String::new())
        } else if step.standing == Standing::Solved || step.standing == Standing::NotSolved {
            (outcome_word(outcome), feedback.headline)
        } else {
            (outcome_word(outcome), feedback.held)
        };
        Ok(AnswerView {
            outcome: word.to_string(),
            message,
            step,
            state: self.state(&student),
        })
    }

    /// `POST /hint`: the next hint of a step (booked first; the lab may charge for it).
    pub fn hint(&mut self, request: &Request) -> Result<StepView, Refusal> {
        let student = self.admit(request)?;
        let index = self.index_of(&student, request)?;
        if self.lab.hints == Hints::Off {
            return Err(Refusal::Closed("hints are off in this lab".into()));
        }
        self.refuse_closed(&student, index)?;
        let lang = lang_of(request);
        let seat = &self.seats[&student];
        let available = self.task(seat, index, lang)?.hints().len();
        if seat.tally.steps[index].hints as usize >= available {
            return Err(Refusal::Closed("no more hints for this step".into()));
        }
        let now = self.now();
        let mut row = Row::new(&student, Kind::Hint, now);
        row.step = Some(index + 1);
        self.commit(row)?;
        self.step_view(&student, index, lang)
    }

    /// `POST /submit`: hands the lab in (again: the same receipt).
    pub fn submit(&mut self, request: &Request) -> Result<StateView, Refusal> {
        let student = self.admit(request)?;
        if self.seats[&student].tally.submitted.is_none() {
            let now = self.now();
            self.commit(Row::new(&student, Kind::Submit, now))?;
        }
        Ok(self.state(&student))
    }

    /// Gives a student extra minutes, live.
    pub fn extra_time(&mut self, student: &str, minutes: u32) -> Result<(), Refusal> {
        if !self.seats.contains_key(student) {
            return Err(Refusal::Bad(format!("`{student}` is not on the roster")));
        }
        let mut row = Row::new(student, Kind::ExtraTime, self.now());
        row.value = u64::from(minutes);
        self.commit(row)
    }

    /// Gives a student's step new numbers, live; the step starts over.
    pub fn reroll(&mut self, student: &str, step: usize) -> Result<(), Refusal> {
        let Some(seat) = self.seats.get(student) else {
            return Err(Refusal::Bad(format!("`{student}` is not on the roster")));
        };
        if step == 0 || step > seat.items.len() {
            return Err(Refusal::Bad(format!("no step {step}")));
        }
        let mut row = Row::new(student, Kind::Reroll, self.now());
        row.step = Some(step);
        self.commit(row)
    }

    /// A student's points per step, regrades applied (a dropped step gives 0, a credited one its
    /// full points).
    fn step_points(&self, seat: &Seat) -> Vec<u32> {
        (0..seat.tally.steps.len())
            .map(|i| {
                let step = i + 1;
                let mut points = seat.tally.steps[i].points;
                for regrade in self.regrades.iter().filter(|r| r.step() == step) {
                    match regrade {
                        Regrade::Drop { .. } => return 0,
                        Regrade::Credit { .. } => points = self.lab.item_max(i),
                        Regrade::Accept { .. } => {}
                    }
                }
                points
            })
            .collect()
    }

    /// Points possible, dropped steps left out.
    fn max(&self) -> u32 {
        (0..self.lab.item_count())
            .filter(|&i| {
                !self
                    .regrades
                    .iter()
                    .any(|r| matches!(r, Regrade::Drop { step } if *step == i + 1))
            })
            .map(|i| self.lab.item_max(i))
            .sum()
    }

    /// The regrades stored, in order.
    pub fn regrades(&self) -> &[Regrade] {
        &self.regrades
    }

    /// Regrades a step for the whole class: returns each student whose total or points possible
    /// change. With `dry_run`, nothing is stored and the class stays as it was.
    pub fn regrade(&mut self, regrade: Regrade, dry_run: bool) -> Result<Vec<Change>, Refusal> {
        let regrade = match regrade {
            Regrade::Accept { step, answer } => Regrade::Accept {
                step,
                answer: answer.trim().to_string(),
            },
            other => other,
        };
        let steps = self.lab.item_count();
        let step = regrade.step();
        if step == 0 || step > steps {
            return Err(Refusal::Bad(format!(
                "no step {step} (this lab has steps 1 to {steps})"
            )));
        }
        if let Regrade::Accept { answer, .. } = &regrade
            && answer.trim().is_empty()
        {
            return Err(Refusal::Bad("give the answer to accept".into()));
        }
        if self.regrades.contains(&regrade) {
            return Err(Refusal::Closed(format!(
                "already done: {}",
                regrade.describe()
            )));
        }
        let before = self.grades();
        let storage = |e: LabError| Refusal::Storage(e.to_string());
        if dry_run {
            self.rebuild_with(std::slice::from_ref(&regrade))
                .map_err(storage)?;
            let after = self.grades();
            self.rebuild().map_err(storage)?;
            return Ok(changes(&before, &after));
        }
        let mut row = Row::new("*", Kind::Regrade, self.now());
        row.step = Some(step);
        row.note = Some(regrade.word().to_string());
        if let Regrade::Accept { answer, .. } = &regrade {
            row.answer = Some(answer.trim().to_string());
        }
        self.db
            .append(&row)
            .map_err(|e| Refusal::Storage(format!("not saved: {e}")))?;
        self.rebuild().map_err(storage)?;
        Ok(changes(&before, &self.grades()))
    }

    /// One row per student for the gradebook: total, possible, hand-in, and per-step points.
    pub fn grades(&self) -> Vec<Grade> {
        self.roster
            .entries
            .iter()
            .filter_map(|entry| {
                let seat = self.seats.get(&entry.student)?;
                Some(Grade {
                    student: entry.student.clone(),
                    total: self.step_points(seat).iter().sum(),
                    max: self.max(),
                    steps: self.step_points(seat),
                    attempts: seat.tally.steps.iter().map(|s| s.attempts).collect(),
                    started: seat.tally.started,
                    submitted: seat.tally.submitted,
                    timed_out: seat.timed_out,
                    current: seat.tally.current(&self.lab).map(|i| i + 1),
                    time_left: self.closing(seat).map(|d| d.saturating_sub(self.now())),
                    flags: Vec::new(),
                })
            })
            .collect()
    }
}

impl Class {
    /// Adds to each grade what needs the instructor's eye: wrong numbers equal to another
    /// student's right numbers when luck does not explain them ([`super::copying`]).
    pub fn flag(&self, grades: &mut [Grade]) {
        let en = self.content(Lang::En);
        let mut numbers = Vec::new();
        for (student, seat) in &self.seats {
            for (index, step) in seat.tally.steps.iter().enumerate() {
                let Ok(variant) = self.variant(seat, index, Lang::En) else {
                    continue;
                };
                let AnswerKey::Number { unit, kilo, .. } = &variant.key else {
                    continue;
                };
                for (answer, outcome) in &step.answers {
                    if let Ok(value) = crate::ladder::answer::parse_number(answer, unit, *kilo) {
                        numbers.push(super::copying::Given {
                            student: student.clone(),
                            step: index + 1,
                            exercise: seat.items[index].exercise.clone(),
                            value,
                            text: answer.clone(),
                            right: *outcome == Outcome::Correct,
                        });
                    }
                }
            }
        }
        let flags = super::copying::flags(en, &numbers);
        for grade in grades {
            if let Some(lines) = flags.get(&grade.student) {
                grade.flags.extend(lines.iter().cloned());
            }
        }
    }
}

impl Class {
    /// Names the misconceptions behind each step's wrong answers: a wrong number that equals what
    /// one of the student's own variant's declared mistakes gives counts for that mistake.
    pub fn name_mistakes(&self, stats: &mut [StepStats]) {
        for stat in stats.iter_mut() {
            let index = stat.step - 1;
            let mut named: BTreeMap<String, usize> = BTreeMap::new();
            for seat in self.seats.values() {
                let Some(step) = seat.tally.steps.get(index) else {
                    continue;
                };
                if step.answers.iter().all(|(_, o)| *o != Outcome::Wrong) {
                    continue;
                }
                let Ok(variant) = self.variant(seat, index, Lang::En) else {
                    continue;
                };
                let AnswerKey::Number { unit, kilo, .. } = &variant.key else {
                    continue;
                };
                for (answer, _) in step.answers.iter().filter(|(_, o)| *o == Outcome::Wrong) {
                    let Ok(value) = crate::ladder::answer::parse_number(answer, unit, *kilo) else {
                        continue;
                    };
                    let name = variant.mistakes.iter().find_map(|m| match m.answer {
                        crate::ladder::variant::MistakenAnswer::Number(n)
                            if super::copying::same_number(n, value) =>
                        {
                            m.name.clone()
                        }
                        _ => None,
                    });
                    if let Some(name) = name {
                        *named.entry(name).or_default() += 1;
                    }
                }
            }
            let mut named: Vec<(String, usize)> = named.into_iter().collect();
            named.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            named.truncate(3);
            stat.common_mistakes = named;
        }
    }
}

/// How one step is going across the class, for the instructor's dashboard and statistics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepStats {
    /// Step number, 1-based.
    pub step: usize,
    /// Students who answered it at least once.
    pub answered: usize,
    /// Students who solved it.
    pub solved: usize,
    /// Answers graded, all students.
    pub attempts: u32,
    /// The most common wrong answers (as typed, trimmed, in lower case) with how many gave them,
    /// most common first; at most three.
    pub common_wrong: Vec<(String, usize)>,
    /// The misconceptions the wrong answers embody (each student's answer matched against their
    /// own variant's declared mistakes), with how many answers, most common first; filled by
    /// [`Class::name_mistakes`].
    #[serde(default)]
    pub common_mistakes: Vec<(String, usize)>,
}

impl StepStats {
    /// Percent of those who answered who solved it (none before anyone answered).
    pub fn percent_correct(&self) -> Option<f64> {
        (self.answered > 0).then(|| self.solved as f64 * 100.0 / self.answered as f64)
    }
}

impl Class {
    /// Per-step statistics over the class.
    pub fn step_stats(&self) -> Vec<StepStats> {
        let steps = self.lab.item_count();
        (0..steps)
            .map(|i| {
                let mut stats = StepStats {
                    step: i + 1,
                    answered: 0,
                    solved: 0,
                    attempts: 0,
                    common_wrong: Vec::new(),
                    common_mistakes: Vec::new(),
                };
                let mut wrong: BTreeMap<String, usize> = BTreeMap::new();
                for seat in self.seats.values() {
                    let Some(step) = seat.tally.steps.get(i) else {
                        continue;
                    };
                    stats.attempts += step.attempts;
                    stats.answered += usize::from(step.attempts > 0);
                    stats.solved += usize::from(step.solved);
                    // A puzzle's wrong kernels are counted by what they came to (`race`,
                    // `wrong values`, `missed sectors_per_request`), not by their text.
                    if seat.items.get(i).is_some_and(|item| item.puzzle) {
                        for note in seat.kernel_notes.get(&i).into_iter().flatten() {
                            *wrong.entry(note.clone()).or_default() += 1;
                        }
                        continue;
                    }
                    for (answer, outcome) in &step.answers {
                        if *outcome == Outcome::Wrong {
                            *wrong.entry(answer.trim().to_lowercase()).or_default() += 1;
                        }
                    }
                }
                let mut common: Vec<(String, usize)> = wrong.into_iter().collect();
                common.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                common.truncate(3);
                stats.common_wrong = common;
                stats
            })
            .collect()
    }
}

/// One student's grade, from the served database.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Grade {
    /// Student id.
    pub student: String,
    /// Points earned.
    pub total: u32,
    /// Points possible.
    pub max: u32,
    /// Points per step.
    pub steps: Vec<u32>,
    /// Attempts per step.
    pub attempts: Vec<u32>,
    /// First join (Unix seconds, server clock).
    pub started: Option<u64>,
    /// Hand-in (Unix seconds, server clock).
    pub submitted: Option<u64>,
    /// Handed in by the server at time-up.
    pub timed_out: bool,
    /// The step the student is on.
    pub current: Option<usize>,
    /// Seconds left.
    pub time_left: Option<u64>,
    /// What needs the instructor's eye (filled by [`Class::flag`]).
    pub flags: Vec<String>,
}

fn changes(before: &[Grade], after: &[Grade]) -> Vec<Change> {
    before
        .iter()
        .zip(after)
        .filter(|(b, a)| b.total != a.total || b.max != a.max)
        .map(|(b, a)| Change {
            student: b.student.clone(),
            before: b.total,
            after: a.total,
            max_before: b.max,
            max_after: a.max,
        })
        .collect()
}

fn lang_of(request: &Request) -> Lang {
    Lang::ALL
        .iter()
        .copied()
        .find(|l| l.code() == request.lang)
        .unwrap_or(Lang::En)
}

fn constant_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FakeClock;

    const LAB: &str = r#"Lab(id: "served", title: "Served", version: 1, secret: "a served secret",
        steps: [Exercise("l1-sector-size"), Exercise("l2-stride-sectors")], points: [10, 5],
        hints: Cost(2), time_limit: 10)"#;

    fn class(dir: &std::path::Path, clock: Arc<FakeClock>) -> Class {
        let lab = Lab::parse("served.ron", LAB).unwrap();
        let content = crate::ladder::check::with_dir(None).unwrap();
        let roster = Roster::parse("r.csv", "amy\nbo\n").unwrap();
        let db = Db::open(&dir.join("class.db"), &lab.id, lab.version).unwrap();
        Class::open(lab, "served.ron", LAB, &content, roster, db, clock).unwrap()
    }

    fn request(class: &Class, student: &str, step: Option<usize>, answer: Option<&str>) -> Request {
        Request {
            student: student.into(),
            code: class.code(student),
            lang: "en".into(),
            step,
            answer: answer.map(String::from),
        }
    }

    fn key(class: &Class, student: &str, index: usize) -> String {
        let seat = &class.seats[student];
        class.variant(seat, index, Lang::En).unwrap().key.typed()
    }

    #[test]
    fn a_wrong_code_is_refused_and_nothing_is_stored() {
        let dir = tempfile::tempdir().unwrap();
        let mut class = class(dir.path(), Arc::new(FakeClock::at_secs(1_000)));
        let mut bad = request(&class, "amy", None, None);
        bad.code = class.code("bo");
        assert!(matches!(class.join(&bad), Err(Refusal::Denied(_))));
        let mut stranger = request(&class, "amy", None, None);
        stranger.student = "zed".into();
        assert!(matches!(class.join(&stranger), Err(Refusal::Denied(_))));
        assert!(class.db.events().unwrap().0.is_empty());
    }

    #[test]
    fn answers_are_graded_by_the_server_and_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FakeClock::at_secs(1_000));
        let mut class = class(dir.path(), clock.clone());
        class.join(&request(&class, "amy", None, None)).unwrap();
        let right = key(&class, "amy", 0);
        let wrong = class
            .answer(&request(&class, "amy", Some(1), Some("12345")))
            .unwrap();
        assert_eq!(wrong.outcome, "wrong");
        assert!(
            !wrong.message.contains(&right),
            "no answer while attempts are left: {}",
            wrong.message
        );
        let refused = class.answer(&request(&class, "amy", Some(2), Some("1")));
        assert!(
            matches!(refused, Err(Refusal::Closed(_))),
            "step 2 is locked"
        );
        let got = class
            .answer(&request(&class, "amy", Some(1), Some(&right)))
            .unwrap();
        assert_eq!(got.outcome, "correct");
        assert_eq!(got.state.points, Some(5), "second attempt: 5 points");
        drop(class);
        let mut again = self::class(dir.path(), clock);
        let state = again.join(&request(&again, "amy", None, None)).unwrap();
        assert_eq!(state.points, Some(5));
        assert_eq!(state.current, Some(2));
        assert_eq!(state.steps[0].attempts, 2);
    }

    #[test]
    fn time_is_kept_by_the_server_and_time_up_hands_in() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FakeClock::at_secs(1_000));
        let mut class = class(dir.path(), clock.clone());
        class.join(&request(&class, "amy", None, None)).unwrap();
        class.extra_time("amy", 5).unwrap();
        clock.advance_secs(14 * 60);
        let state = class.status(&request(&class, "amy", None, None)).unwrap();
        assert_eq!(state.time_left, Some(60), "10 minutes and 5 extra, 14 gone");
        clock.advance_secs(61);
        assert_eq!(class.expire().unwrap(), vec!["amy".to_string()]);
        let right = key(&class, "amy", 0);
        let late = class.answer(&request(&class, "amy", Some(1), Some(&right)));
        assert!(matches!(late, Err(Refusal::Closed(_))), "{late:?}");
        let state = class.status(&request(&class, "amy", None, None)).unwrap();
        assert!(state.timed_out);
        assert_eq!(
            state.submitted,
            Some(1_000 + 15 * 60),
            "handed in at the deadline"
        );
        assert_eq!(state.points, Some(0));
    }

    #[test]
    fn step_statistics_count_the_class_and_its_common_wrong_answers() {
        let dir = tempfile::tempdir().unwrap();
        let mut class = class(dir.path(), Arc::new(FakeClock::at_secs(1_000)));
        for student in ["amy", "bo"] {
            class.join(&request(&class, student, None, None)).unwrap();
            class
                .answer(&request(&class, student, Some(1), Some("77777 ")))
                .unwrap();
        }
        let right = key(&class, "amy", 0);
        class
            .answer(&request(&class, "amy", Some(1), Some(&right)))
            .unwrap();
        let stats = class.step_stats();
        assert_eq!(
            (stats[0].answered, stats[0].solved, stats[0].attempts),
            (2, 1, 3)
        );
        assert_eq!(stats[0].percent_correct(), Some(50.0));
        assert_eq!(stats[0].common_wrong, vec![("77777".to_string(), 2)]);
        assert_eq!(stats[1].percent_correct(), None);
    }

    #[test]
    fn a_reroll_gives_new_numbers_and_starts_the_step_over() {
        let dir = tempfile::tempdir().unwrap();
        let mut class = class(dir.path(), Arc::new(FakeClock::at_secs(1_000)));
        class.join(&request(&class, "bo", None, None)).unwrap();
        let before = class.seats["bo"].items[0].seed;
        class
            .answer(&request(&class, "bo", Some(1), Some("99999")))
            .unwrap();
        class.reroll("bo", 1).unwrap();
        assert_ne!(class.seats["bo"].items[0].seed, before);
        assert_eq!(class.seats["bo"].tally.steps[0].attempts, 0);
    }

    #[test]
    fn a_regrade_applies_to_answers_before_it_and_a_dry_run_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FakeClock::at_secs(1_000));
        let mut class = class(dir.path(), clock.clone());
        for student in ["amy", "bo"] {
            class.join(&request(&class, student, None, None)).unwrap();
        }
        // Amy: wrong "31337" then right (5 points); Bo: "31337" twice, out of attempts.
        let right = key(&class, "amy", 0);
        class
            .answer(&request(&class, "amy", Some(1), Some("31337")))
            .unwrap();
        class
            .answer(&request(&class, "amy", Some(1), Some(&right)))
            .unwrap();
        for _ in 0..2 {
            class
                .answer(&request(&class, "bo", Some(1), Some("31337")))
                .unwrap();
        }
        let totals = |class: &Class| -> Vec<(u32, u32)> {
            class.grades().iter().map(|g| (g.total, g.max)).collect()
        };
        assert_eq!(totals(&class), [(5, 20), (0, 20)]);
        let accept = Regrade::Accept {
            step: 1,
            answer: " 31337 ".into(),
        };
        let preview = class.regrade(accept.clone(), true).unwrap();
        assert_eq!(
            preview
                .iter()
                .map(|c| (c.student.as_str(), c.before, c.after))
                .collect::<Vec<_>>(),
            [("amy", 5, 10), ("bo", 0, 10)],
            "the first attempt now scores: 10 points each"
        );
        assert_eq!(
            totals(&class),
            [(5, 20), (0, 20)],
            "a dry run stores nothing"
        );
        assert!(
            class
                .db
                .events()
                .unwrap()
                .0
                .iter()
                .all(|r| r.kind != Kind::Regrade)
        );
        class.regrade(accept.clone(), false).unwrap();
        assert_eq!(totals(&class), [(10, 20), (10, 20)]);
        assert!(matches!(
            class.regrade(accept, false),
            Err(Refusal::Closed(_))
        ));
        // Dropping step 2 takes it out of the points possible; credit gives full points.
        class.regrade(Regrade::Drop { step: 2 }, false).unwrap();
        assert_eq!(totals(&class), [(10, 10), (10, 10)]);
        assert!(matches!(
            class.regrade(Regrade::Credit { step: 9 }, false),
            Err(Refusal::Bad(_))
        ));
        // Kept across a restart, with the answers after it graded the same way.
        drop(class);
        let again = self::class(dir.path(), clock);
        assert_eq!(totals(&again), [(10, 10), (10, 10)]);
        let state = again.state("bo");
        assert_eq!(state.points, Some(10));
        assert_eq!(state.max, 10);
    }

    #[test]
    fn the_lab_opens_and_closes_by_the_server_clock_and_late_answers_lose_points() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FakeClock::at_secs(1_000));
        let text = LAB.replace(
            "time_limit: 10)",
            r#"time_limit: 10, late: Deduct(percent: 25, per_minutes: 1),
               opens: "1970-01-01T00:20:00Z", closes: "1970-01-01T01:00:00Z")"#,
        );
        let lab = Lab::parse("served.ron", &text).unwrap();
        let content = crate::ladder::check::with_dir(None).unwrap();
        let roster = Roster::parse("r.csv", "amy\nbo\n").unwrap();
        let db = Db::open(&dir.path().join("class.db"), &lab.id, lab.version).unwrap();
        let mut class = Class::open(
            lab,
            "served.ron",
            &text,
            &content,
            roster,
            db,
            clock.clone(),
        )
        .unwrap();
        let early = class.join(&request(&class, "amy", None, None));
        assert!(
            matches!(&early, Err(Refusal::Closed(m)) if m.contains("opens at 1970-01-01T00:20:00Z")),
            "{early:?}"
        );
        clock.advance_secs(200); // 00:20, open
        class.join(&request(&class, "amy", None, None)).unwrap();
        clock.advance_secs(10 * 60 + 61); // 2 started minutes past the 10-minute limit
        let state = class.status(&request(&class, "amy", None, None)).unwrap();
        assert_eq!(
            state.submitted, None,
            "late answers are taken until the lab closes"
        );
        let right = key(&class, "amy", 0);
        let got = class
            .answer(&request(&class, "amy", Some(1), Some(&right)))
            .unwrap();
        assert_eq!(got.state.points, Some(5), "10 less 2 × 25 %");
        // At `closes` every open lab is handed in, a student who never joined too.
        clock.advance_secs(3600);
        let mut handed = class.expire().unwrap();
        handed.sort();
        assert_eq!(handed, ["amy", "bo"]);
        let state = class.status(&request(&class, "amy", None, None)).unwrap();
        assert_eq!(state.submitted, Some(3600));
    }

    #[test]
    fn the_statistics_name_the_misconceptions_behind_wrong_answers() {
        let dir = tempfile::tempdir().unwrap();
        let mut class = class(dir.path(), Arc::new(FakeClock::at_secs(1_000)));
        let mut mistaken = 0;
        let mut name = String::new();
        for student in ["amy", "bo"] {
            class.join(&request(&class, student, None, None)).unwrap();
            let right = key(&class, student, 0);
            class
                .answer(&request(&class, student, Some(1), Some(&right)))
                .unwrap();
            let variant = class.variant(&class.seats[student], 1, Lang::En).unwrap();
            let Some((value, label)) = variant.mistakes.iter().find_map(|m| match m.answer {
                crate::ladder::variant::MistakenAnswer::Number(n) => Some((n, m.name.clone()?)),
                _ => None,
            }) else {
                continue;
            };
            class
                .answer(&request(&class, student, Some(2), Some(&value.to_string())))
                .unwrap();
            mistaken += 1;
            name = label;
        }
        assert!(
            mistaken > 0,
            "l2-stride-sectors declares a numeric misconception"
        );
        let mut stats = class.step_stats();
        assert!(stats[1].common_mistakes.is_empty(), "named only when asked");
        class.name_mistakes(&mut stats);
        assert_eq!(stats[1].common_mistakes[0], (name, mistaken));
        assert!(stats[0].common_mistakes.is_empty());
    }

    #[test]
    fn a_regrade_stored_by_another_process_reaches_the_running_class() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(FakeClock::at_secs(1_000));
        let mut serving = class(dir.path(), clock.clone());
        serving.join(&request(&serving, "amy", None, None)).unwrap();
        let right = key(&serving, "amy", 0);
        serving
            .answer(&request(&serving, "amy", Some(1), Some(&right)))
            .unwrap();
        assert_eq!(serving.grades()[0].total, 10);
        // `lab regrade` in another terminal, on the same database.
        let mut other = class(dir.path(), clock);
        other.regrade(Regrade::Drop { step: 1 }, false).unwrap();
        serving.expire().unwrap();
        assert_eq!(
            (serving.grades()[0].total, serving.grades()[0].max),
            (0, 10)
        );
        // The class goes on: the next answer is booked after the regrade.
        let state = serving
            .status(&request(&serving, "amy", None, None))
            .unwrap();
        assert_eq!(state.max, 10);
        let right = key(&serving, "amy", 1);
        let got = serving
            .answer(&request(&serving, "amy", Some(2), Some(&right)))
            .unwrap();
        assert_eq!(got.state.points, Some(10));
    }
}
