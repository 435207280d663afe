//! A student's lab: which exercise and which seed each step gets. Draws pick the exercises of lowest
//! keyed rank for the student; every variant's seed comes from [`seed::variant_seed`].

use super::LabError;
use super::file::{Lab, StepSpec, locate};
use super::roster::Entry;
use super::seed;
use crate::content::Content;

/// One step of one student's lab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Step number, 1-based.
    pub step: usize,
    /// Exercise id.
    pub exercise: String,
    /// Variant seed.
    pub seed: u64,
    /// Times this step was re-rolled for the student.
    pub roll: u32,
}

/// The exercises a draw chooses from: its topic and level, by id.
pub fn pool<'a>(
    content: &'a Content,
    topic: &str,
    level: crate::content::schema::Level,
) -> Vec<&'a str> {
    let mut ids: Vec<&str> = content
        .exercises
        .iter()
        .filter(|e| e.topic == topic && e.level == level)
        .map(|e| e.id.as_str())
        .collect();
    ids.sort_unstable();
    ids
}

/// Every step of `student`'s lab. `file` and `text` locate mistakes (unknown ids, draws that cannot be
/// filled) for the message.
pub fn plan(
    lab: &Lab,
    content: &Content,
    student: &Entry,
    file: &str,
    text: &str,
) -> Result<Vec<Item>, LabError> {
    lab.secret()?;
    // A draw never gives an exercise another step already gives: the fixed steps' exercises and
    // the earlier draws' picks are left out of its pool.
    let mut taken: Vec<String> = lab
        .steps
        .iter()
        .filter_map(|s| match s {
            StepSpec::Exercise { id, .. } => Some(id.clone()),
            StepSpec::Draw { .. } => None,
        })
        .collect();
    let mut items = Vec::new();
    for (draw, spec) in lab.steps.iter().enumerate() {
        let chosen: Vec<String> = match spec {
            StepSpec::Exercise { id, .. } => {
                if content.exercise(id).is_none() {
                    return Err(locate(file, text, &format!("\"{id}\"")).error(&format!(
                        "unknown exercise `{id}` (see `warpdrill content preview`)"
                    )));
                }
                vec![id.clone()]
            }
            StepSpec::Draw {
                count,
                topic,
                level,
                ..
            } => {
                let mut ids = pool(content, topic, *level);
                ids.retain(|id| !taken.iter().any(|t| t == id));
                if ids.len() < *count {
                    return Err(locate(file, text, &format!("\"{topic}\"")).error(&format!(
                        "this draw asks for {} of topic `{topic}` at {}, and there {} {} besides those the other steps give",
                        crate::format::count(*count as u64, "exercise"),
                        level.key(),
                        if ids.len() == 1 { "is" } else { "are" },
                        ids.len()
                    )));
                }
                ids.sort_by_key(|id| seed::draw_rank(lab, &student.student, draw, id));
                let chosen: Vec<String> = ids.into_iter().take(*count).map(String::from).collect();
                taken.extend(chosen.iter().cloned());
                chosen
            }
        };
        for exercise in chosen {
            let step = items.len() + 1;
            let roll = student.rolls(step);
            items.push(Item {
                step,
                exercise,
                seed: seed::variant_seed(lab, &student.student, step, roll),
                roll,
            });
        }
    }
    Ok(items)
}

/// Every seed a student could have been given for a step: each roll up to the current one.
pub fn seeds_given(lab: &Lab, student: &str, step: usize, roll: u32) -> Vec<u64> {
    (0..=roll)
        .map(|r| seed::variant_seed(lab, student, step, r))
        .collect()
}
