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
    /// Exercise id, or the puzzle's id when [`Item::puzzle`].
    pub exercise: String,
    /// The step is a kernel puzzle: the student hands in a kernel file.
    pub puzzle: bool,
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
            StepSpec::Puzzle { .. } | StepSpec::Draw { .. } => None,
        })
        .collect();
    let mut items = Vec::new();
    for (draw, spec) in lab.steps.iter().enumerate() {
        if let StepSpec::Puzzle { id, .. } = spec {
            if crate::puzzle::find(id, crate::i18n::Lang::En).is_none() {
                return Err(locate(file, text, &format!("\"{id}\"")).error(&format!(
                    "unknown puzzle `{id}` (see `warpdrill puzzle list`)"
                )));
            }
            let step = items.len() + 1;
            // A re-roll of a puzzle step starts it over: its attempts were for the old seed.
            let roll = student.rolls(step);
            items.push(Item {
                step,
                exercise: id.clone(),
                puzzle: true,
                seed: seed::variant_seed(lab, &student.student, step, roll),
                roll,
            });
            continue;
        }
        let chosen: Vec<String> = match spec {
            StepSpec::Exercise { id, .. } => {
                if content.exercise(id).is_none() {
                    return Err(locate(file, text, &format!("\"{id}\"")).error(&format!(
                        "unknown exercise `{id}` (see `warpdrill content preview`)"
                    )));
                }
                vec![id.clone()]
            }
            StepSpec::Puzzle { .. } => Vec::new(),
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
            let (seed, roll) = rolled(
                lab,
                content,
                &student.student,
                &exercise,
                step,
                student.rolls(step),
            );
            items.push(Item {
                step,
                exercise,
                puzzle: false,
                seed,
                roll,
            });
        }
    }
    Ok(items)
}

/// The seed of a step re-rolled `rerolls` times: each re-roll moves on to the next seed whose
/// numbers differ from every earlier one's (a template with few parameters can draw the same
/// numbers again), trying at most 64 seeds past the re-rolls asked for. Returns the seed and the
/// roll it is.
fn rolled(
    lab: &Lab,
    content: &Content,
    student: &str,
    exercise: &str,
    step: usize,
    rerolls: u32,
) -> (u64, u32) {
    let first = seed::variant_seed(lab, student, step, 0);
    let Some(template) = content.exercise(exercise).filter(|_| rerolls > 0) else {
        return (seed::variant_seed(lab, student, step, rerolls), rerolls);
    };
    let prompt = |seed| {
        crate::ladder::generate(template, seed)
            .map(|v| v.prompt)
            .ok()
    };
    let mut seen = vec![prompt(first)];
    let mut found = 0;
    let mut roll = 0;
    while found < rerolls && roll < rerolls + 64 {
        roll += 1;
        let next = prompt(seed::variant_seed(lab, student, step, roll));
        if !seen.contains(&next) {
            seen.push(next);
            found += 1;
        }
    }
    (seed::variant_seed(lab, student, step, roll), roll)
}

/// Every seed a student could have been given for a step: each roll up to the current one.
pub fn seeds_given(lab: &Lab, student: &str, step: usize, roll: u32) -> Vec<u64> {
    (0..=roll)
        .map(|r| seed::variant_seed(lab, student, step, r))
        .collect()
}
