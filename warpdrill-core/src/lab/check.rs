//! `lab check`: a lab file against the content — unknown exercises, draws that cannot be filled,
//! variants that cannot be drawn, and steps whose answers barely vary between students.

use super::file::{Lab, StepSpec, locate};
use super::plan::pool;
use super::roster::Entry;
use super::seed;
use crate::content::Content;
use crate::ladder::generate;
use std::collections::BTreeSet;

/// Students sampled to see how much a step's answers vary.
pub const SAMPLE: usize = 40;

/// One finding, located in the lab file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// `file:line:column: message`.
    pub message: String,
    /// An error (the lab cannot run as written) rather than a warning.
    pub error: bool,
}

/// Checks a parsed lab against the content.
pub fn check(lab: &Lab, content: &Content, file: &str, text: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut push = |needle: &str, error: bool, message: String| {
        let place = locate(file, text, needle);
        findings.push(Finding {
            message: format!("{}:{}:{}: {message}", place.file, place.line, place.column),
            error,
        });
    };
    let students: Vec<Entry> = (0..SAMPLE)
        .map(|i| Entry {
            student: format!("sample-{i}"),
            ..Entry::default()
        })
        .collect();
    let mut step = 0;
    for spec in &lab.steps {
        let (needle, candidates, count) = match spec {
            StepSpec::Puzzle { id, .. } => {
                if crate::puzzle::find(id, crate::i18n::Lang::En).is_none() {
                    push(
                        &format!("\"{id}\""),
                        true,
                        format!("unknown puzzle `{id}` (see `warpdrill puzzle list`)"),
                    );
                }
                // One kernel for everyone: nothing is drawn, so nothing can tie.
                step += 1;
                continue;
            }
            StepSpec::Exercise { id, .. } => {
                let needle = format!("\"{id}\"");
                if content.exercise(id).is_none() {
                    push(&needle, true, format!("unknown exercise `{id}`"));
                    step += 1;
                    continue;
                }
                (needle, vec![id.clone()], 1)
            }
            StepSpec::Draw {
                count,
                topic,
                level,
                ..
            } => {
                let needle = format!("\"{topic}\"");
                // The plan leaves out of a draw what the fixed steps give, and what earlier draws
                // of the same pool took.
                let fixed: Vec<&str> = lab
                    .steps
                    .iter()
                    .filter_map(|s| match s {
                        StepSpec::Exercise { id, .. } => Some(id.as_str()),
                        StepSpec::Puzzle { .. } | StepSpec::Draw { .. } => None,
                    })
                    .collect();
                let earlier: usize = lab
                    .steps
                    .iter()
                    .take_while(|s| !std::ptr::eq(*s, spec))
                    .filter_map(|s| match s {
                        StepSpec::Draw {
                            count: n,
                            topic: t,
                            level: l,
                            ..
                        } if t == topic && l == level => Some(*n),
                        _ => None,
                    })
                    .sum();
                let mut ids = pool(content, topic, *level);
                ids.retain(|id| !fixed.contains(id));
                let left = ids.len().saturating_sub(earlier);
                if content.topic(topic).is_none() {
                    push(&needle, true, format!("unknown topic `{topic}`"));
                } else if left < *count {
                    push(
                        &needle,
                        true,
                        format!(
                            "this draw asks for {} of `{topic}` at {} and there {} {} besides those the other steps give",
                            crate::format::count(*count as u64, "exercise"),
                            level.key(),
                            if left == 1 { "is" } else { "are" },
                            left
                        ),
                    );
                } else if left == *count && lab.steps.len() > 1 {
                    push(
                        &needle,
                        false,
                        format!(
                            "every student gets the same {}: the pool of `{topic}` at {} has only {} besides those the other steps give",
                            crate::format::count(*count as u64, "exercise"),
                            level.key(),
                            left
                        ),
                    );
                }
                // A draw larger than its pool is reported above; only the steps it can fill are
                // checked, so a huge count costs nothing.
                let fillable = (*count).min(ids.len());
                (
                    needle,
                    ids.into_iter().map(String::from).collect(),
                    fillable,
                )
            }
        };
        for offset in 0..count {
            let number = step + offset + 1;
            let mut answers: BTreeSet<String> = BTreeSet::new();
            let mut tested = 0;
            for id in &candidates {
                let Some(template) = content.exercise(id) else {
                    continue;
                };
                for student in &students {
                    let seed = seed::variant_seed(lab, &student.student, number, 0);
                    match generate(template, seed) {
                        Ok(variant) => {
                            answers.insert(variant.key.display());
                            tested += 1;
                        }
                        Err(e) => {
                            push(
                                &needle,
                                true,
                                format!("step {number}: `{id}` cannot be drawn (seed {seed}): {e}"),
                            );
                            break;
                        }
                    }
                }
            }
            if tested > 0 && answers.len() < 4 {
                push(
                    &needle,
                    false,
                    format!(
                        "step {number}: {} over {SAMPLE} students — neighbours will share answers (tied); a template with more parameters varies more",
                        crate::format::count(answers.len() as u64, "distinct answer")
                    ),
                );
            }
        }
        step += count;
    }
    findings
}
