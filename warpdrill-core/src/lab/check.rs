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
                let ids = pool(content, topic, *level);
                if content.topic(topic).is_none() {
                    push(&needle, true, format!("unknown topic `{topic}`"));
                } else if ids.len() < *count {
                    push(
                        &needle,
                        true,
                        format!(
                            "this draw asks for {} of `{topic}` at {} and there {} {}",
                            crate::format::count(*count as u64, "exercise"),
                            level.key(),
                            if ids.len() == 1 { "is" } else { "are" },
                            ids.len()
                        ),
                    );
                } else if ids.len() == *count && lab.steps.len() > 1 {
                    push(
                        &needle,
                        false,
                        format!(
                            "every student gets the same {}: the pool of `{topic}` at {} has only {}",
                            crate::format::count(*count as u64, "exercise"),
                            level.key(),
                            ids.len()
                        ),
                    );
                }
                // A fixed step's exercise in the pool: some students would get it twice.
                let fixed: Vec<(usize, &str)> = lab
                    .steps
                    .iter()
                    .scan(0usize, |at, spec| {
                        let first = *at + 1;
                        *at += spec.count();
                        Some((first, spec))
                    })
                    .filter_map(|(number, spec)| match spec {
                        StepSpec::Exercise { id, .. } => Some((number, id.as_str())),
                        StepSpec::Draw { .. } => None,
                    })
                    .filter(|(_, id)| ids.contains(id))
                    .collect();
                for (number, id) in fixed {
                    push(
                        &needle,
                        false,
                        format!(
                            "this draw can give `{id}`, which step {number} already gives everyone: some students would get the same exercise twice (take it out of the draw's topic and level, or make step {number} a draw too)"
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
