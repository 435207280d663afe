//! What a step of a lab asks, and how an answer to it is graded: an exercise's variant (a number,
//! a choice, an explanation …) or a kernel puzzle (the student's kernel file, run and graded by
//! [`crate::puzzle::check`]). The tutor, the served lab and the report grade through here.

use super::plan::Item;
use crate::content::Content;
use crate::i18n::Lang;
use crate::ladder::attempt::{Given, grade_given};
use crate::ladder::{Outcome, Variant, generate};
use crate::puzzle::{self, Puzzle, check::CheckError};
use crate::t;

/// The longest kernel file a puzzle step takes, in characters.
pub const KERNEL_CHARS: usize = 64 * 1024;

/// A step's question.
#[derive(Debug, Clone)]
pub enum Task {
    /// An exercise, with the student's numbers.
    Exercise(Box<Variant>),
    /// A kernel puzzle, the same for everyone.
    Puzzle(Box<Puzzle>),
}

/// An answer, graded.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Right, wrong, or not an answer (not counted: say it again).
    pub outcome: Outcome,
    /// What to say once the step is done.
    pub headline: String,
    /// What to say while tries are left (an exercise's answer held back).
    pub held: String,
    /// The worked explanation, or a puzzle's reference solution.
    pub why: String,
    /// A puzzle's outcome in a word ([`puzzle::check::summary`]), kept with the attempt so a
    /// class's statistics can count what went wrong without running the kernels again.
    pub note: Option<String>,
}

impl Task {
    /// Step `item`'s question in `lang`.
    pub fn of(content: &Content, item: &Item, lang: Lang) -> Result<Task, String> {
        if item.puzzle {
            return puzzle::find(&item.exercise, lang)
                .map(|p| Task::Puzzle(Box::new(p)))
                .ok_or_else(|| format!("unknown puzzle `{}`", item.exercise));
        }
        let template = content
            .exercise(&item.exercise)
            .ok_or_else(|| format!("unknown exercise `{}`", item.exercise))?;
        generate(template, item.seed)
            .map(|v| Task::Exercise(Box::new(v)))
            .map_err(|e| format!("step {} cannot be drawn ({e})", item.step))
    }

    /// The question as the student reads it.
    pub fn prompt(&self) -> &str {
        match self {
            Task::Exercise(v) => &v.prompt,
            Task::Puzzle(p) => &p.statement,
        }
    }

    /// The hints, in order.
    pub fn hints(&self) -> &[String] {
        match self {
            Task::Exercise(v) => &v.hints,
            Task::Puzzle(p) => &p.hints,
        }
    }

    /// The longest answer taken, in characters.
    pub fn max_chars(&self) -> usize {
        match self {
            Task::Exercise(_) => 4000,
            Task::Puzzle(_) => KERNEL_CHARS,
        }
    }

    /// Grades `answer` (a puzzle's: the kernel file's text) in `lang`.
    pub fn grade(&self, answer: &str, lang: Lang) -> Verdict {
        match self {
            Task::Exercise(variant) => {
                let f = grade_given(variant, &Given::Text(answer.to_string()), lang, false);
                Verdict {
                    outcome: f.outcome,
                    headline: f.headline,
                    held: f.held,
                    why: f.why,
                    note: None,
                }
            }
            Task::Puzzle(p) => grade_kernel(p, answer, lang),
        }
    }
}

/// A kernel handed in for puzzle `p`: right when it is correct on every size and meets every
/// target. A file the analyser cannot read, or an empty one, is not an answer.
pub fn grade_kernel(p: &Puzzle, source: &str, lang: Lang) -> Verdict {
    let unusable = |message: String| Verdict {
        outcome: Outcome::Unusable,
        headline: message.clone(),
        held: message,
        why: String::new(),
        note: None,
    };
    if source.trim().is_empty() {
        return unusable(t!(lang, "lab-kernel-empty"));
    }
    let outcome = match puzzle::check::check_cached(p, source) {
        Ok(o) => o,
        Err(CheckError(message)) => {
            return unusable(t!(lang, "puzzle-cannot-check", message = message));
        }
    };
    let mut lines = vec![puzzle::text::verdict(&outcome, lang)];
    lines.extend(puzzle::text::outcome_lines(p, &outcome, 60, lang));
    let text = lines.join("\n");
    let figures = puzzle::check::reference_cached(p)
        .map(|r| puzzle::text::reference_figures(&r, lang))
        .unwrap_or_default();
    let why = format!(
        "{}\n{}\n\n{}",
        t!(lang, "puzzle-reference-head", figures = figures),
        p.reference.trim_end(),
        p.solution
    );
    Verdict {
        outcome: if outcome.solved {
            Outcome::Correct
        } else {
            Outcome::Wrong
        },
        headline: text.clone(),
        held: text,
        why,
        note: Some(puzzle::check::summary(&outcome)),
    }
}

/// Step `item`'s title and level in `content`'s language (a puzzle is at L5, the top of the
/// ladder); an id nothing knows is its own title.
pub fn heading(content: &Content, item: &Item) -> (String, &'static str) {
    if item.puzzle {
        return puzzle::find(&item.exercise, content.lang).map_or_else(
            || (item.exercise.clone(), ""),
            |p| (p.title, crate::content::schema::Level::L5.key()),
        );
    }
    content.exercise(&item.exercise).map_or_else(
        || (item.exercise.clone(), ""),
        |e| (e.title.clone(), e.level.key()),
    )
}
