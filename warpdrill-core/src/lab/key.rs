//! The answer key: every step of a student's lab with its prompt, answer and worked explanation.

use super::LabError;
use super::file::Lab;
use super::plan::plan;
use super::roster::Entry;
use crate::content::Content;
use crate::ladder::variant::letter;
use crate::ladder::{AnswerKey, generate};
use serde::Serialize;

/// One step of one student's lab, answered.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyItem {
    /// Student id.
    pub student: String,
    /// Step number, 1-based.
    pub step: usize,
    /// Exercise id.
    pub exercise: String,
    /// Variant seed (`warpdrill check EXERCISE --seed SEED --answer …` grades against it).
    pub seed: u64,
    /// The question with the student's numbers.
    pub prompt: String,
    /// The answer as shown (a puzzle step: the reference kernel; any kernel that is correct and
    /// meets every target is right).
    pub answer: String,
    /// The number, for numeric answers.
    pub answer_value: Option<f64>,
    /// What a student who knows the answer would type (a puzzle step: the command that checks a
    /// kernel file the way the lab does).
    pub typed: String,
    /// Every form accepted as written in the template (short texts), the right letters (choices),
    /// else what a student would type.
    pub accepted: Vec<String>,
    /// The worked explanation.
    pub explanation: String,
}

/// The key of one student's lab.
pub fn key(
    lab: &Lab,
    content: &Content,
    student: &Entry,
    file: &str,
    text: &str,
) -> Result<Vec<KeyItem>, LabError> {
    plan(lab, content, student, file, text)?
        .into_iter()
        .map(|item| {
            if item.puzzle {
                let puzzle =
                    crate::puzzle::find(&item.exercise, content.lang).ok_or_else(|| {
                        LabError::Closed(format!("unknown puzzle `{}`", item.exercise))
                    })?;
                let check = format!("warpdrill puzzle check {} FILE", puzzle.id);
                return Ok(KeyItem {
                    student: student.student.clone(),
                    step: item.step,
                    exercise: item.exercise,
                    seed: item.seed,
                    prompt: puzzle.statement,
                    answer: puzzle.reference.clone(),
                    answer_value: None,
                    typed: check.clone(),
                    accepted: vec![check],
                    explanation: puzzle.solution,
                });
            }
            let template = content
                .exercise(&item.exercise)
                .ok_or_else(|| LabError::Closed(format!("unknown exercise `{}`", item.exercise)))?;
            let variant = generate(template, item.seed).map_err(|e| {
                LabError::Closed(format!(
                    "exercise `{}` (seed {}) cannot be drawn: {e}",
                    item.exercise, item.seed
                ))
            })?;
            Ok(KeyItem {
                student: student.student.clone(),
                step: item.step,
                exercise: item.exercise,
                seed: item.seed,
                prompt: variant.prompt,
                answer: variant.key.display(),
                answer_value: variant.key.value(),
                typed: variant.key.typed(),
                accepted: match &variant.key {
                    AnswerKey::Text { accepted, .. } => accepted.clone(),
                    AnswerKey::Choice { correct, .. } => {
                        correct.iter().map(|&i| letter(i).to_string()).collect()
                    }
                    key => vec![key.typed()],
                },
                explanation: variant.explanation,
            })
        })
        .collect()
}
