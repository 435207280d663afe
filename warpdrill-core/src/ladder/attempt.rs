//! One attempt at an exercise variant: a pure state machine that the exercise screen, lab steps and
//! drill cards drive. Screens turn keys into [`Input`]s and draw what [`Attempt`] holds; the
//! [`Record`] an answer produces is what the app saves (progress, a lab's results, a review rating).
//!
//! ```text
//!            answer (exact part)          answer (last part / whole answer)
//!   Open ─────────────────────────▶ Open ──────────────────────────────────┐
//!    ▲                                                                     │
//!    │ wrong, tries left                     explanation, learner marks    ▼
//!    └──────────────────────── Open ◀──── AwaitingMark ◀──────────── graded
//!                                              │ mark                     │ right / last try
//!                                              ▼                          ▼
//!                                            Record                    Finished
//! ```
//!
//! Every answer is graded in the language passed with it, so a Korean lab gets Korean verdicts.
//! The rule that a right answer after the answer was shown counts as *seen*, not *solved*, lives
//! here ([`Record::standing`]) and nowhere else.

use super::grade::{Feedback, Outcome, Response, grade_in, grade_part_in};
use super::variant::{AnswerKey, Variant, letter};
use crate::i18n::Lang;
use serde::{Deserialize, Serialize};

/// The answer as given, enough to grade it again (a lab's results keep it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Given {
    /// Typed text.
    Text(String),
    /// The option picked (0-based).
    Choice(usize),
    /// Items arranged, first to last (item indices).
    Order(Vec<usize>),
    /// An explanation with the answers to its exact parts, in order, before it.
    Explained {
        /// The answers to the exact parts, first part first.
        parts: Vec<String>,
        /// The explanation itself.
        text: String,
    },
}

impl Given {
    /// The response the grader takes for the whole answer (an explanation's own text).
    pub fn response(&self) -> Response<'_> {
        match self {
            Given::Text(text) | Given::Explained { text, .. } => Response::Text(text),
            Given::Choice(index) => Response::Choice(*index),
            Given::Order(order) => Response::Order(order),
        }
    }

    /// This answer with a picked option found again by its words: `shown` is the answer as the
    /// learner saw it (`b) shared memory`, from [`Given::shown`]). Options are shown in an order
    /// drawn from the seed, so a record is graded by the option it names, not by its letter
    /// alone — a record written before that order changed still names the option it meant. The
    /// letter stands where the words name no option (another language's words).
    pub fn resolved(&self, variant: &Variant, shown: Option<&str>) -> Given {
        let (Given::Choice(index), AnswerKey::Choice { options, also, .. }, Some(shown)) =
            (self, &variant.key, shown)
        else {
            return self.clone();
        };
        let words = match shown.split_once(") ") {
            Some((mark, words)) if mark.chars().count() == 1 => words.trim(),
            _ => return self.clone(),
        };
        let named: Vec<usize> = (0..options.len())
            .filter(|&i| options[i] == words || also.get(i).is_some_and(|e| e == words))
            .collect();
        match named.as_slice() {
            [one] => Given::Choice(*one),
            _ => Given::Choice(*index),
        }
    }

    /// The answer as the learner saw it: the text, `b) option` or `x → y → z`.
    pub fn shown(&self, variant: &Variant) -> String {
        match (self, &variant.key) {
            (Given::Choice(choice), AnswerKey::Choice { options, .. }) => options
                .get(*choice)
                .map(|option| format!("{}) {option}", letter(*choice)))
                .unwrap_or_default(),
            (Given::Order(order), AnswerKey::Ordering { items, .. }) => order
                .iter()
                .filter_map(|&i| items.get(i).map(String::as_str))
                .collect::<Vec<_>>()
                .join(" → "),
            (Given::Text(text) | Given::Explained { text, .. }, _) => text.clone(),
            _ => String::new(),
        }
    }
}

/// Grades a whole given answer: the exact parts of an explanation first (any wrong part makes the
/// answer wrong), then the answer itself. With `self_mark` an explanation stays
/// [`Outcome::Compare`] for the learner to mark; without it (a lab, where no one marks) an
/// explanation is right when it holds every idea of the model answer.
pub fn grade_given(variant: &Variant, given: &Given, lang: Lang, self_mark: bool) -> Feedback {
    let mut feedback = grade_in(variant, given.response(), lang);
    if !self_mark {
        feedback.outcome = ideas_outcome(&feedback);
    }
    if let Given::Explained { parts, .. } = given {
        let parts_right = variant.key.parts().len() == parts.len()
            && parts.iter().enumerate().all(|(i, typed)| {
                grade_part_in(variant, i, Response::Text(typed), lang)
                    .is_some_and(|f| f.outcome == Outcome::Correct)
            });
        if !parts_right && feedback.outcome == Outcome::Correct {
            feedback.outcome = Outcome::Wrong;
        }
    }
    feedback
}

/// The outcome of an explanation graded by its ideas alone: right when every idea was found.
fn ideas_outcome(feedback: &Feedback) -> Outcome {
    match feedback.outcome {
        Outcome::Compare
            if feedback.ideas_missed.is_empty() && !feedback.ideas_found.is_empty() =>
        {
            Outcome::Correct
        }
        Outcome::Compare => Outcome::Wrong,
        other => other,
    }
}

/// The rules an attempt is played by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Answers allowed before the attempt is finished (`None`: as many as the learner likes).
    pub budget: Option<u32>,
    /// Wrong answers on these numbers before a wrong answer shows the answer and the worked
    /// explanation. Before that a wrong answer says only that it was wrong (and names the
    /// misconception when one matches). The last answer of a budget always shows the answer.
    pub reveal_after: u32,
    /// Whether verdicts are shown at all (an exam-style lab shows none until hand-in).
    pub verdicts: bool,
    /// Whether the learner marks an explanation against the model answer (the ladder) or its ideas
    /// decide (a lab).
    pub self_mark: bool,
    /// Whether a wrong answer whose answer is held back shows the next hint by itself (the
    /// ladder). A lab leaves hints to the learner: they may cost points.
    pub hint_on_wrong: bool,
    /// Whether the learner may ask for the answer at any time ("show answer"); a right answer
    /// after it counts as seen.
    pub show_answer: bool,
}

impl Rules {
    /// The ladder's rules: unlimited answers, the answer shown after two wrong ones (a hint
    /// offered after the first), explanations self-marked, "show answer" at any time.
    pub const LADDER: Rules = Rules::ladder(crate::content::schema::DEFAULT_TRIES);

    /// The ladder's rules with `tries` wrong answers before the answer is shown (1 to 9).
    pub const fn ladder(tries: u32) -> Rules {
        Rules {
            budget: None,
            reveal_after: if tries == 0 {
                1
            } else if tries > 9 {
                9
            } else {
                tries
            },
            verdicts: true,
            self_mark: true,
            hint_on_wrong: true,
            show_answer: true,
        }
    }

    /// A drill card: one answer, graded and explained, then rated.
    pub const DRILL: Rules = Rules {
        budget: Some(1),
        reveal_after: 1,
        verdicts: true,
        self_mark: true,
        hint_on_wrong: false,
        show_answer: false,
    };

    /// A lab step: `attempts` answers; verdicts shown (`verdicts`) or held until hand-in; the
    /// answer is shown only once the last try is spent; explanations graded by their ideas.
    pub fn lab(attempts: u32, verdicts: bool) -> Rules {
        Rules {
            budget: Some(attempts.max(1)),
            reveal_after: attempts.max(1),
            verdicts,
            self_mark: false,
            hint_on_wrong: false,
            show_answer: false,
        }
    }
}

/// What a wrong answer whose answer is held back offers next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// Hint `n` (1-based) is now shown.
    Hint(u32),
    /// Every hint is already shown.
    NoMoreHints,
    /// A hint may be asked for (the rules show none by themselves).
    AskHint,
}

/// Where an attempt stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Waiting for an answer (or for the next exact part).
    Open,
    /// An explanation was graded against the model answer; the learner marks it.
    AwaitingMark,
    /// Over: solved, marked, or out of tries. No more answers.
    Finished,
}

/// What the learner does to an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input<'a> {
    /// An answer (to the current exact part while one is asked).
    Answer(Response<'a>),
    /// The learner's mark of an explanation: `true` = "I had it".
    Mark(bool),
    /// Show the next hint.
    Hint,
    /// The worked explanation was opened (after an answer it names the answer).
    Explanation,
    /// "Show answer": the answer and the worked explanation, at any time (where the rules allow).
    ShowAnswer,
}

/// What an input did.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Nothing changed (the input does not apply now); the notice says why where it helps.
    Ignored(Option<Refusal>),
    /// Not an answer: the feedback says why; nothing is recorded.
    Unusable,
    /// An exact part was graded; the next part (or the explanation) is asked.
    Part,
    /// An explanation waits for the learner's mark.
    Compare,
    /// A hint is now shown (the app counts it).
    Hint,
    /// The explanation is now shown.
    Explanation,
    /// The answer is now shown (and the worked explanation with it).
    AnswerShown,
    /// An answer to record.
    Recorded(Record),
}

/// Why an input was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// "I had it" needs at least one idea of the model answer in the explanation.
    CannotMarkHadIt,
    /// Every hint is already shown.
    NoMoreHints,
    /// The attempt is over.
    Finished,
}

/// A graded answer, as the app records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The answer as given.
    pub given: Given,
    /// The answer as the learner saw it.
    pub shown: String,
    /// Right or wrong (never unusable or compare).
    pub outcome: Outcome,
    /// The answer had been shown before this answer was given.
    pub revealed: bool,
    /// Answers given to this attempt, this one included.
    pub attempts: u32,
    /// Hints shown when it was given.
    pub hints: u32,
    /// The attempt is over with this answer.
    pub last: bool,
    /// The answer was wrong and the next hint was shown with the verdict (the app counts it).
    pub hint_offered: bool,
}

/// How a recorded answer counts for the learner's progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Right before the answer was shown.
    Solved,
    /// Right, but only after the answer was shown: seen, not solved until answered right on new
    /// numbers.
    Seen,
    /// Wrong.
    Wrong,
}

impl Record {
    /// How this answer counts: solved, seen or wrong.
    pub fn standing(&self) -> Standing {
        match (self.outcome, self.revealed) {
            (Outcome::Correct, false) => Standing::Solved,
            (Outcome::Correct, true) => Standing::Seen,
            _ => Standing::Wrong,
        }
    }
}

/// One attempt at a variant (see the module docs). It does not own the variant: every input is
/// given the variant the attempt was made for.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    rules: Rules,
    status: Status,
    /// The exact part being asked (= the number of parts once the answer itself is asked).
    part: usize,
    /// The exact parts answered so far.
    parts: Vec<String>,
    /// How each answered exact part went (`true` = right).
    parts_right: Vec<bool>,
    hints: u32,
    attempts: u32,
    revealed: bool,
    solved: bool,
    /// The feedback on the last answer, as the learner may see it.
    feedback: Option<Feedback>,
    /// The last answer was wrong and its answer is held back (tries left without reveal).
    withheld: bool,
    /// The last answer given to the whole question.
    last_given: Option<Given>,
    /// The full feedback on the last answer while it is held back ("show answer" shows it).
    held_back: Option<Feedback>,
    /// What the last held-back answer offers next.
    offer: Option<Offer>,
    /// The learner asked for the answer.
    answer_shown: bool,
}

impl Attempt {
    /// A fresh attempt under `rules`.
    pub fn new(rules: Rules) -> Attempt {
        Attempt {
            rules,
            status: Status::Open,
            part: 0,
            parts: Vec::new(),
            parts_right: Vec::new(),
            hints: 0,
            attempts: 0,
            revealed: false,
            solved: false,
            feedback: None,
            withheld: false,
            last_given: None,
            held_back: None,
            offer: None,
            answer_shown: false,
        }
    }

    /// An attempt taken up again with `attempts` answers and `hints` hints already spent (a lab
    /// step reopened); `finished` when it is over.
    pub fn resumed(rules: Rules, attempts: u32, hints: u32, finished: bool) -> Attempt {
        let mut attempt = Attempt::new(rules);
        attempt.attempts = attempts;
        attempt.hints = hints;
        if finished || rules.budget.is_some_and(|budget| attempts >= budget) {
            attempt.status = Status::Finished;
        }
        attempt
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Where it stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether an answer can be given now.
    pub fn open(&self) -> bool {
        self.status == Status::Open
    }

    /// Solved: answered right (or marked "I had it").
    pub fn solved(&self) -> bool {
        self.solved
    }

    /// The exact part asked now (equal to the number of parts once the answer itself is asked).
    pub fn part(&self) -> usize {
        self.part
    }

    /// How each exact part answered so far went.
    pub fn parts_right(&self) -> &[bool] {
        &self.parts_right
    }

    /// Hints shown.
    pub fn hints(&self) -> u32 {
        self.hints
    }

    /// Answers given (exact parts not counted).
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Answers left, if the rules set a budget.
    pub fn left(&self) -> Option<u32> {
        self.rules
            .budget
            .map(|budget| budget.saturating_sub(self.attempts))
    }

    /// The answer of this variant has been shown (wrong-answer feedback, the worked explanation, the
    /// model answer): a right answer now counts as seen.
    pub fn revealed(&self) -> bool {
        self.revealed
    }

    /// The feedback on the last answer, if the learner may see it.
    pub fn feedback(&self) -> Option<&Feedback> {
        self.feedback.as_ref()
    }

    /// The last answer was wrong and, with tries left, its answer is held back: the screen says so
    /// in its own words (a lab names the points still to be had).
    pub fn withheld(&self) -> bool {
        self.withheld
    }

    /// What the last wrong answer, its answer held back, offers next (a hint shown, none left,
    /// or one to ask for).
    pub fn offer(&self) -> Option<Offer> {
        self.offer.filter(|_| self.withheld)
    }

    /// The learner asked for the answer ("show answer").
    pub fn answer_shown(&self) -> bool {
        self.answer_shown
    }

    /// Wrong answers left before the answer is shown (0 once it is shown or the attempt is over).
    pub fn tries_before_reveal(&self) -> u32 {
        if self.revealed || self.status == Status::Finished {
            return 0;
        }
        self.rules.reveal_after.saturating_sub(self.attempts)
    }

    /// The last answer given to the whole question.
    pub fn last_given(&self) -> Option<&Given> {
        self.last_given.as_ref()
    }

    /// Whether "I had it" may be chosen: only when the explanation held at least one idea of the
    /// model answer.
    pub fn can_mark_had_it(&self) -> bool {
        self.status == Status::AwaitingMark
            && self
                .feedback
                .as_ref()
                .is_some_and(|f| !f.ideas_found.is_empty())
    }

    /// Applies `input` to the attempt at `variant`, grading in `lang`.
    pub fn apply(&mut self, variant: &Variant, input: Input<'_>, lang: Lang) -> Reply {
        match input {
            Input::Hint => {
                if self.hints as usize >= variant.hints.len() {
                    return Reply::Ignored(Some(Refusal::NoMoreHints));
                }
                self.hints += 1;
                Reply::Hint
            }
            Input::Explanation => {
                // After an answer the explanation names it; before one it teaches.
                if self.attempts > 0 && self.status != Status::AwaitingMark {
                    self.revealed = true;
                    if let Some(full) = self.held_back.take() {
                        self.feedback = Some(full);
                        self.withheld = false;
                    }
                }
                Reply::Explanation
            }
            Input::ShowAnswer => {
                if !self.rules.show_answer {
                    return Reply::Ignored(None);
                }
                self.revealed = true;
                self.answer_shown = true;
                if let Some(full) = self.held_back.take() {
                    self.feedback = Some(full);
                }
                self.withheld = false;
                Reply::AnswerShown
            }
            Input::Mark(had_it) => self.mark(variant, had_it),
            Input::Answer(response) => self.answer(variant, response, lang),
        }
    }

    fn answer(&mut self, variant: &Variant, response: Response<'_>, lang: Lang) -> Reply {
        if self.status != Status::Open {
            return Reply::Ignored(Some(Refusal::Finished));
        }
        let parts = variant.key.parts().len();
        if self.part < parts {
            let Response::Text(typed) = response else {
                return Reply::Ignored(None);
            };
            let Some(feedback) = grade_part_in(variant, self.part, response, lang) else {
                return Reply::Ignored(None);
            };
            let outcome = feedback.outcome;
            self.withheld = false;
            self.feedback = Some(feedback);
            if outcome == Outcome::Unusable {
                return Reply::Unusable;
            }
            self.parts.push(typed.to_string());
            self.parts_right.push(outcome == Outcome::Correct);
            self.part += 1;
            return Reply::Part;
        }
        let given = match (response, parts > 0) {
            (Response::Text(text), true) => Given::Explained {
                parts: self.parts.clone(),
                text: text.to_string(),
            },
            (Response::Text(text), false) => Given::Text(text.to_string()),
            (Response::Choice(choice), _) => Given::Choice(choice),
            (Response::Order(order), _) => Given::Order(order.to_vec()),
        };
        let feedback = grade_given(variant, &given, lang, self.rules.self_mark);
        self.withheld = false;
        self.held_back = None;
        self.offer = None;
        if feedback.outcome == Outcome::Unusable {
            self.feedback = Some(feedback);
            return Reply::Unusable;
        }
        self.attempts += 1;
        self.last_given = Some(given.clone());
        if feedback.outcome == Outcome::Compare {
            // The learner compares with the model answer and marks it; that mark is the answer.
            self.feedback = Some(feedback);
            self.status = Status::AwaitingMark;
            return Reply::Compare;
        }
        let outcome = feedback.outcome;
        let spent = self.left() == Some(0);
        let last = outcome == Outcome::Correct || spent;
        // A wrong answer before the reveal keeps the answer back (unless it was already shown).
        let hold = outcome == Outcome::Wrong
            && !last
            && !self.revealed
            && self.attempts < self.rules.reveal_after;
        let mut hint_offered = false;
        if hold && self.rules.verdicts {
            self.offer = Some(if !self.rules.hint_on_wrong {
                Offer::AskHint
            } else if (self.hints as usize) < variant.hints.len() {
                self.hints += 1;
                hint_offered = true;
                Offer::Hint(self.hints)
            } else {
                Offer::NoMoreHints
            });
        }
        let mut record = self.record(variant, given, outcome, last);
        record.hint_offered = hint_offered;
        if last {
            self.status = Status::Finished;
            self.solved = outcome == Outcome::Correct;
        } else {
            self.reset_parts();
        }
        if !self.rules.verdicts {
            self.feedback = None;
        } else if hold {
            self.feedback = Some(feedback.withheld());
            self.held_back = Some(feedback);
            self.withheld = true;
        } else {
            if outcome == Outcome::Wrong {
                // The feedback names the answer: from now on a right answer here is "seen".
                self.revealed = true;
            }
            self.feedback = Some(feedback);
        }
        Reply::Recorded(record)
    }

    fn mark(&mut self, variant: &Variant, had_it: bool) -> Reply {
        if self.status != Status::AwaitingMark {
            return Reply::Ignored(None);
        }
        if had_it && !self.can_mark_had_it() {
            return Reply::Ignored(Some(Refusal::CannotMarkHadIt));
        }
        // A wrong exact part keeps the exercise unsolved, whatever the mark.
        let outcome = if had_it && self.parts_right.iter().all(|&right| right) {
            Outcome::Correct
        } else {
            Outcome::Wrong
        };
        let given = self
            .last_given
            .clone()
            .unwrap_or_else(|| Given::Text(String::new()));
        let spent = self.left() == Some(0);
        let last = had_it || spent;
        let record = self.record(variant, given, outcome, last);
        self.solved = had_it;
        self.status = if last { Status::Finished } else { Status::Open };
        if !last {
            self.reset_parts();
        }
        // The model answer has been read: another try on this variant would only repeat it.
        self.revealed = true;
        Reply::Recorded(record)
    }

    fn record(&self, variant: &Variant, given: Given, outcome: Outcome, last: bool) -> Record {
        Record {
            shown: given.shown(variant),
            given,
            outcome,
            revealed: self.revealed,
            attempts: self.attempts,
            hints: self.hints,
            last,
            hint_offered: false,
        }
    }

    /// Another try at an explanation asks its exact parts again.
    fn reset_parts(&mut self) {
        self.part = 0;
        self.parts.clear();
        self.parts_right.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::ladder::generate;

    fn variant(id: &str) -> Variant {
        let content = Content::builtin();
        let template = content.exercise(id).expect("a built-in exercise");
        generate(template, 7).expect("a variant")
    }

    fn first_with(kind: &str) -> Variant {
        let content = Content::builtin();
        content
            .exercises
            .iter()
            .filter_map(|t| generate(t, 7).ok())
            .find(|v| v.key.kind() == kind)
            .unwrap_or_else(|| panic!("a built-in {kind} exercise"))
    }

    fn with_parts() -> Variant {
        let content = Content::builtin();
        content
            .exercises
            .iter()
            .filter_map(|t| generate(t, 7).ok())
            .find(|v| !v.key.parts().is_empty())
            .expect("an explanation with exact parts")
    }

    fn right_text(v: &Variant) -> String {
        v.key.typed()
    }

    #[test]
    fn a_right_answer_solves_and_finishes() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::LADDER);
        let answer = right_text(&v);
        let Reply::Recorded(record) = a.apply(&v, Input::Answer(Response::Text(&answer)), Lang::En)
        else {
            panic!("a right answer is recorded");
        };
        assert_eq!(record.outcome, Outcome::Correct);
        assert_eq!(record.standing(), Standing::Solved);
        assert!(record.last && a.solved() && !a.open());
        assert_eq!(
            a.apply(&v, Input::Answer(Response::Text(&answer)), Lang::En),
            Reply::Ignored(Some(Refusal::Finished))
        );
    }

    #[test]
    fn nonsense_is_no_attempt() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::LADDER);
        assert_eq!(
            a.apply(&v, Input::Answer(Response::Text("banana")), Lang::En),
            Reply::Unusable
        );
        assert_eq!(a.attempts(), 0);
        assert!(a.open());
        assert_eq!(a.feedback().map(|f| f.outcome), Some(Outcome::Unusable));
    }

    #[test]
    fn the_first_wrong_answer_holds_the_answer_back_and_offers_a_hint() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::LADDER);
        let Reply::Recorded(wrong) = a.apply(&v, Input::Answer(Response::Text("999")), Lang::En)
        else {
            panic!("a wrong answer is recorded");
        };
        assert_eq!(wrong.standing(), Standing::Wrong);
        assert!(!wrong.last && a.open() && !a.revealed() && a.withheld());
        assert!(wrong.hint_offered, "the next hint comes with the verdict");
        assert_eq!(a.offer(), Some(Offer::Hint(1)));
        assert_eq!(a.hints(), 1);
        let feedback = a.feedback().expect("the verdict is shown");
        assert_eq!(feedback.outcome, Outcome::Wrong);
        let answer = v.key.display();
        assert!(feedback.expected.is_empty() && feedback.why.is_empty());
        assert!(
            !feedback.headline.contains(&answer),
            "no answer in {:?}",
            feedback.headline
        );
        assert_eq!(a.tries_before_reveal(), 1);
        // The second try on the same numbers still solves it.
        let Reply::Recorded(right) =
            a.apply(&v, Input::Answer(Response::Text(&right_text(&v))), Lang::En)
        else {
            panic!("a right answer is recorded");
        };
        assert_eq!(right.standing(), Standing::Solved);
        assert_eq!(right.attempts, 2);
    }

    #[test]
    fn the_second_wrong_answer_shows_the_answer_and_then_right_is_seen() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::LADDER);
        a.apply(&v, Input::Answer(Response::Text("999")), Lang::En);
        let Reply::Recorded(second) = a.apply(&v, Input::Answer(Response::Text("998")), Lang::En)
        else {
            panic!("recorded");
        };
        assert!(!second.hint_offered && !a.withheld() && a.revealed() && a.open());
        let feedback = a.feedback().expect("feedback");
        assert_eq!(feedback.expected, v.key.display());
        assert!(feedback.headline.contains(&v.key.display()));
        assert!(
            !feedback.why.is_empty(),
            "the worked explanation comes with it"
        );
        let answer = right_text(&v);
        let Reply::Recorded(right) = a.apply(&v, Input::Answer(Response::Text(&answer)), Lang::En)
        else {
            panic!("a right answer is recorded");
        };
        assert_eq!(right.standing(), Standing::Seen);
        assert_eq!(right.attempts, 3);
    }

    #[test]
    fn with_every_hint_shown_a_held_answer_says_so() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::LADDER);
        for _ in 0..v.hints.len() {
            a.apply(&v, Input::Hint, Lang::En);
        }
        let Reply::Recorded(wrong) = a.apply(&v, Input::Answer(Response::Text("999")), Lang::En)
        else {
            panic!("recorded");
        };
        assert!(!wrong.hint_offered);
        assert_eq!(a.offer(), Some(Offer::NoMoreHints));
    }

    #[test]
    fn a_template_sets_its_tries() {
        let v = variant("l2-stride-sectors");
        let mut one = Attempt::new(Rules::ladder(1));
        one.apply(&v, Input::Answer(Response::Text("999")), Lang::En);
        assert!(
            one.revealed() && !one.withheld(),
            "one try: the answer at once"
        );
        let mut three = Attempt::new(Rules::ladder(3));
        three.apply(&v, Input::Answer(Response::Text("999")), Lang::En);
        three.apply(&v, Input::Answer(Response::Text("998")), Lang::En);
        assert!(three.withheld() && !three.revealed());
        three.apply(&v, Input::Answer(Response::Text("997")), Lang::En);
        assert!(three.revealed());
    }

    #[test]
    fn show_answer_at_any_time_makes_a_right_answer_seen() {
        let v = variant("l2-stride-sectors");
        let mut before = Attempt::new(Rules::LADDER);
        assert_eq!(
            before.apply(&v, Input::ShowAnswer, Lang::En),
            Reply::AnswerShown
        );
        assert!(before.revealed() && before.answer_shown() && before.open());
        let answer = right_text(&v);
        let Reply::Recorded(record) =
            before.apply(&v, Input::Answer(Response::Text(&answer)), Lang::En)
        else {
            panic!("recorded");
        };
        assert_eq!(record.standing(), Standing::Seen);

        let mut after = Attempt::new(Rules::LADDER);
        after.apply(&v, Input::Answer(Response::Text("999")), Lang::En);
        assert!(after.feedback().is_some_and(|f| f.expected.is_empty()));
        after.apply(&v, Input::ShowAnswer, Lang::En);
        assert!(!after.withheld());
        assert!(
            after
                .feedback()
                .is_some_and(|f| f.expected == v.key.display() && !f.why.is_empty()),
            "the held-back feedback is shown in full"
        );
        let Reply::Recorded(record) =
            after.apply(&v, Input::Answer(Response::Text(&answer)), Lang::En)
        else {
            panic!("recorded");
        };
        assert_eq!(record.standing(), Standing::Seen);

        let mut lab = Attempt::new(Rules::lab(3, true));
        assert_eq!(
            lab.apply(&v, Input::ShowAnswer, Lang::En),
            Reply::Ignored(None)
        );
        assert!(!lab.revealed());
    }

    #[test]
    fn a_declared_mistake_is_named_without_the_answer_on_the_first_try() {
        let content = Content::builtin();
        let template = content
            .exercises
            .iter()
            .find(|t| !t.mistakes.is_empty())
            .expect("a template with mistakes");
        let v = generate(template, 7).expect("a variant");
        let Some(m) = v.mistakes.iter().find_map(|m| match m.answer {
            crate::ladder::variant::MistakenAnswer::Number(value)
                if Some(value) != v.key.value() =>
            {
                Some((m.name.clone().unwrap_or_default(), value))
            }
            _ => None,
        }) else {
            panic!("a numeric mistake");
        };
        let AnswerKey::Number { unit, kilo, .. } = &v.key else {
            panic!("a number");
        };
        let typed = crate::ladder::variant::format_with_unit(m.1, unit, *kilo);
        let mut a = Attempt::new(Rules::LADDER);
        a.apply(&v, Input::Answer(Response::Text(&typed)), Lang::En);
        let feedback = a.feedback().expect("feedback");
        assert!(feedback.headline.starts_with(&m.0), "{}", feedback.headline);
        assert!(feedback.expected.is_empty());
        assert!(!feedback.headline.contains(&v.key.display()));
        a.apply(&v, Input::Answer(Response::Text(&typed)), Lang::En);
        let feedback = a.feedback().expect("feedback");
        assert!(feedback.headline.starts_with(&m.0), "{}", feedback.headline);
        assert!(feedback.headline.contains(&v.key.display()));
    }

    #[test]
    fn opening_the_explanation_after_an_answer_reveals_it() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::LADDER);
        a.apply(&v, Input::Explanation, Lang::En);
        assert!(!a.revealed(), "before any answer the explanation teaches");
        a.apply(&v, Input::Answer(Response::Text("999")), Lang::En);
        let mut b = Attempt::new(Rules::lab(3, true));
        b.apply(&v, Input::Answer(Response::Text("999")), Lang::En);
        assert!(!b.revealed(), "a lab holds the answer back");
        b.apply(&v, Input::Explanation, Lang::En);
        assert!(b.revealed());
    }

    #[test]
    fn a_lab_budget_holds_the_answer_back_until_the_last_try() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::lab(2, true));
        let Reply::Recorded(first) = a.apply(&v, Input::Answer(Response::Text("999")), Lang::En)
        else {
            panic!("recorded");
        };
        assert!(!first.last && a.withheld() && !first.hint_offered);
        assert!(
            a.feedback()
                .is_some_and(|f| f.expected.is_empty() && f.why.is_empty()),
            "a lab says wrong without the answer"
        );
        assert_eq!(a.offer(), Some(Offer::AskHint));
        assert_eq!(a.left(), Some(1));
        let Reply::Recorded(second) = a.apply(&v, Input::Answer(Response::Text("998")), Lang::En)
        else {
            panic!("recorded");
        };
        assert!(second.last && !a.open() && !a.solved());
        assert!(!a.withheld());
        assert!(
            a.feedback().is_some_and(|f| !f.expected.is_empty()),
            "the last try shows the answer"
        );
    }

    #[test]
    fn an_exam_shows_no_verdict() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::lab(1, false));
        let answer = right_text(&v);
        assert!(matches!(
            a.apply(&v, Input::Answer(Response::Text(&answer)), Lang::En),
            Reply::Recorded(_)
        ));
        assert!(a.feedback().is_none() && !a.withheld());
    }

    #[test]
    fn verdicts_speak_the_language_they_are_asked_in() {
        let v = variant("l2-stride-sectors");
        let mut en = Attempt::new(Rules::lab(1, true));
        let mut ko = Attempt::new(Rules::lab(1, true));
        en.apply(&v, Input::Answer(Response::Text("999")), Lang::En);
        ko.apply(&v, Input::Answer(Response::Text("999")), Lang::Ko);
        let (en, ko) = (en.feedback().unwrap(), ko.feedback().unwrap());
        assert_ne!(en.headline, ko.headline);
        assert!(
            ko.headline
                .chars()
                .any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)),
            "{}",
            ko.headline
        );
    }

    #[test]
    fn hints_stop_at_the_last_one() {
        let v = variant("l2-stride-sectors");
        let mut a = Attempt::new(Rules::LADDER);
        for _ in 0..v.hints.len() {
            assert_eq!(a.apply(&v, Input::Hint, Lang::En), Reply::Hint);
        }
        assert_eq!(
            a.apply(&v, Input::Hint, Lang::En),
            Reply::Ignored(Some(Refusal::NoMoreHints))
        );
        assert_eq!(a.hints() as usize, v.hints.len());
    }

    #[test]
    fn explanations_ask_their_exact_parts_first_and_a_wrong_part_keeps_them_unsolved() {
        let v = with_parts();
        let parts = v.key.parts().len();
        let mut a = Attempt::new(Rules::LADDER);
        assert_eq!(
            a.apply(&v, Input::Answer(Response::Text("999999")), Lang::En),
            Reply::Part,
            "the first exact part is asked first"
        );
        for part in v.key.parts().iter().skip(1) {
            let typed = part.key.typed();
            assert_eq!(
                a.apply(&v, Input::Answer(Response::Text(&typed)), Lang::En),
                Reply::Part
            );
        }
        assert_eq!(a.part(), parts);
        assert_eq!(a.parts_right().first(), Some(&false));
        let model = v.key.typed();
        let reply = a.apply(&v, Input::Answer(Response::Text(&model)), Lang::En);
        assert_eq!(reply, Reply::Compare);
        let Reply::Recorded(record) = a.apply(&v, Input::Mark(true), Lang::En) else {
            panic!("the mark is recorded");
        };
        assert_eq!(record.outcome, Outcome::Wrong, "a wrong part stays wrong");
        assert!(
            matches!(record.given, Given::Explained { ref parts, .. } if parts.len() == v.key.parts().len())
        );
    }

    #[test]
    fn a_lab_grades_explanations_and_their_parts_by_itself() {
        let v = with_parts();
        let mut a = Attempt::new(Rules::lab(3, true));
        for part in v.key.parts() {
            let typed = part.key.typed();
            assert_eq!(
                a.apply(&v, Input::Answer(Response::Text(&typed)), Lang::Ko),
                Reply::Part
            );
        }
        let AnswerKey::Explain { ideas, .. } = &v.key else {
            panic!("an explanation");
        };
        // Every idea of the model answer, each in its own sentence.
        let full: String = ideas
            .iter()
            .map(|idea| format!("{}. ", idea.any_of[0]))
            .collect();
        let Reply::Recorded(record) = a.apply(&v, Input::Answer(Response::Text(&full)), Lang::Ko)
        else {
            panic!("a lab records an explanation at once: no one marks it");
        };
        assert_eq!(record.outcome, Outcome::Correct);
        assert_eq!(
            grade_given(&v, &record.given, Lang::En, false).outcome,
            Outcome::Correct,
            "the record grades again to the same outcome"
        );
        let Given::Explained { mut parts, text } = record.given else {
            panic!("explained");
        };
        parts[0] = "999999".into();
        let tampered = Given::Explained { parts, text };
        assert_eq!(
            grade_given(&v, &tampered, Lang::En, false).outcome,
            Outcome::Wrong
        );
    }

    #[test]
    fn had_it_needs_an_idea_of_the_model_answer() {
        let v = first_with("explain");
        let mut a = Attempt::new(Rules::LADDER);
        for _ in 0..v.key.parts().len() {
            a.apply(&v, Input::Answer(Response::Text("1")), Lang::En);
        }
        assert_eq!(
            a.apply(&v, Input::Answer(Response::Text("zzz qqq")), Lang::En),
            Reply::Compare
        );
        assert_eq!(
            a.apply(&v, Input::Mark(true), Lang::En),
            Reply::Ignored(Some(Refusal::CannotMarkHadIt))
        );
        let Reply::Recorded(record) = a.apply(&v, Input::Mark(false), Lang::En) else {
            panic!("recorded");
        };
        assert_eq!(record.standing(), Standing::Wrong);
        assert!(a.open(), "a missed explanation may be tried again");
        assert_eq!(a.part(), 0, "and its exact parts are asked again");
    }

    #[test]
    fn choices_and_orderings_are_shown_as_the_learner_saw_them() {
        let v = first_with("choice");
        let mut a = Attempt::new(Rules::LADDER);
        let Reply::Recorded(record) = a.apply(&v, Input::Answer(Response::Choice(1)), Lang::En)
        else {
            panic!("recorded");
        };
        assert!(record.shown.starts_with("b) "), "{}", record.shown);
        assert_eq!(record.given, Given::Choice(1));
    }

    #[test]
    fn a_recorded_choice_is_found_again_by_its_words() {
        let v = variant("l1-scope");
        let AnswerKey::Choice {
            options, correct, ..
        } = &v.key
        else {
            panic!("a choice");
        };
        let right = correct[0];
        let other = (right + 1) % options.len();
        // A record whose letter no longer matches its words (written before the order changed)
        // is graded by the words.
        let shown = format!("{}) {}", letter(other), options[right]);
        assert_eq!(
            Given::Choice(other).resolved(&v, Some(&shown)),
            Given::Choice(right)
        );
        let feedback = grade_given(
            &v,
            &Given::Choice(other).resolved(&v, Some(&shown)),
            Lang::En,
            false,
        );
        assert_eq!(feedback.outcome, Outcome::Correct);
        // Words that name no option (another language) leave the letter.
        assert_eq!(
            Given::Choice(other).resolved(&v, Some("b) 전역 메모리")),
            Given::Choice(other)
        );
        assert_eq!(
            Given::Choice(other).resolved(&v, None),
            Given::Choice(other)
        );
    }
}
