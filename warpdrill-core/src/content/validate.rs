//! Validation of parsed content: ids, references, hints, and answers the engine can compute for every
//! parameter choice. Each problem skips only the item it names.

use super::schema::{Card, ExerciseTemplate, Lesson, Topic};
use super::structure;
use super::{Diagnostic, SourceFile, TemplateCheck};
use std::collections::HashSet;

/// Line and column (1-based) of byte offset `at` in `text`.
pub fn position(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(before.chars().count(), |nl| {
        before[nl + 1..].chars().count()
    }) + 1;
    (line, column)
}

/// Byte offset of the first `id: "…"` with this id at or after `from`.
fn id_offset(text: &str, id: &str, from: usize) -> Option<usize> {
    let quoted = format!("\"{id}\"");
    text.get(from..)?
        .match_indices(&quoted)
        .map(|(at, _)| at + from)
        .find(|&at| {
            // Looks back only over `id:` and the blanks around it, never to the start of the line:
            // a deck written on one line stays linear.
            let before = text[..at].trim_end_matches([' ', '\t', '\r']);
            before
                .strip_suffix(':')
                .is_some_and(|b| b.trim_end_matches([' ', '\t', '\r']).ends_with("id"))
        })
}

/// Finds items in a file in order: each search starts where the previous item was found, so locating
/// every item of a large file stays linear.
struct Locator<'a> {
    source: &'a SourceFile,
    cursor: usize,
    /// The last position computed (byte offset, line, column), to count on from instead of from the
    /// start of the file.
    last: std::cell::Cell<(usize, usize, usize)>,
    /// Searches that read to the end of the file without finding what they looked for.
    misses: std::cell::Cell<u32>,
}

/// Failed searches allowed per file before the locator stops searching (each reads the rest of the
/// file, so unbounded they would make a large file quadratic).
const MAX_MISSES: u32 = 16;

impl<'a> Locator<'a> {
    fn new(source: &'a SourceFile) -> Self {
        Locator {
            source,
            cursor: 0,
            last: std::cell::Cell::new((0, 1, 1)),
            misses: std::cell::Cell::new(0),
        }
    }

    /// Line and column of `at`, counted on from the last position when `at` is after it.
    fn position(&self, at: usize) -> (usize, usize) {
        let text = &self.source.text;
        let at = at.min(text.len());
        let (from, line, column) = self.last.get();
        let (line, column) = match text.get(from..at) {
            Some(between) if at >= from => match between.rfind('\n') {
                Some(nl) => (
                    line + between.matches('\n').count(),
                    between[nl + 1..].chars().count() + 1,
                ),
                None => (line, column + between.chars().count()),
            },
            _ => position(text, at),
        };
        self.last.set((at, line, column));
        (line, column)
    }

    /// Offset of the next item with this id.
    fn item(&mut self, id: &str) -> usize {
        // A search that fails reads to the end of the file; after a few (ids written with escapes,
        // so the text differs from the id), stop searching rather than go quadratic.
        if self.misses.get() >= MAX_MISSES {
            return self.cursor;
        }
        let text = &self.source.text;
        match id_offset(text, id, self.cursor).or_else(|| id_offset(text, id, 0)) {
            Some(at) => {
                self.cursor = at + id.len() + 2;
                at
            }
            None => {
                self.misses.set(self.misses.get() + 1);
                self.cursor
            }
        }
    }

    fn diag(&self, at: usize, needle: Option<&str>, message: String) -> Diagnostic {
        let found = needle
            .filter(|_| self.misses.get() < MAX_MISSES)
            .map(|n| self.source.text.get(at..)?.find(n).map(|i| at + i));
        if found == Some(None) {
            self.misses.set(self.misses.get() + 1);
        }
        let at = found.flatten().unwrap_or(at);
        let (line, column) = self.position(at);
        Diagnostic {
            file: self.source.path.clone(),
            line,
            column,
            message,
        }
    }
}

/// Whether `id` is a valid id of a topic, card or exercise: lowercase letters, digits, `-` and `_`
/// (so it is also safe in a file name).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// Takes `id` for an item: false when it is taken already; an id taken now is listed in `fresh`.
fn take(ids: &mut HashSet<String>, fresh: &mut Vec<String>, id: &str) -> bool {
    let new = ids.insert(id.to_string());
    if new {
        fresh.push(id.to_string());
    }
    new
}

/// Gives back the ids taken now by items that were not kept: a later file may use them, as if
/// the rejected item had never been written.
fn release<'k>(ids: &mut HashSet<String>, fresh: Vec<String>, kept: impl Iterator<Item = &'k str>) {
    let kept: HashSet<&str> = kept.collect();
    for id in fresh {
        if !kept.contains(id.as_str()) {
            ids.remove(&id);
        }
    }
}

const ID_RULE: &str = "ids use lowercase letters, digits, `-` and `_`";

/// Validates topics; returns the valid ones.
/// `ids` holds the topic ids taken so far (by earlier files), and takes this file's.
pub fn topics(
    source: &SourceFile,
    list: Vec<Topic>,
    ids: &mut HashSet<String>,
    problems: &mut Vec<Diagnostic>,
) -> Vec<Topic> {
    let mut locator = Locator::new(source);
    let mut kept: Vec<Topic> = Vec::new();
    let mut fresh = Vec::new();
    for topic in list {
        let at = locator.item(&topic.id);
        let problem = if !valid_id(&topic.id) {
            Some(format!("topic id `{}`: {ID_RULE}", topic.id))
        } else if !take(ids, &mut fresh, &topic.id) {
            Some(format!("duplicate topic id `{}`", topic.id))
        } else if topic.name.trim().is_empty()
            || topic.description.trim().is_empty()
            || topic.analogy.trim().is_empty()
        {
            Some(format!(
                "topic `{}` needs a name, a description and an analogy",
                topic.id
            ))
        } else if let Some(message) = too_long(
            [&topic.name, &topic.description, &topic.analogy]
                .into_iter()
                .map(String::as_str),
        ) {
            Some(format!("topic `{}`: {message}", topic.id))
        } else {
            None
        };
        match problem {
            Some(message) => problems.push(locator.diag(at, None, message)),
            None => kept.push(topic),
        }
    }
    release(ids, fresh, kept.iter().map(|k| k.id.as_str()));
    kept
}

/// The topics items may name, with their ids looked up in constant time (built once for all the
/// files of a load, so that loading stays linear in the number of files).
pub struct Known<'t> {
    topics: &'t [Topic],
    ids: HashSet<&'t str>,
}

impl<'t> Known<'t> {
    /// The topics items may name.
    pub fn new(topics: &'t [Topic]) -> Known<'t> {
        Known {
            topics,
            ids: topics.iter().map(|t| t.id.as_str()).collect(),
        }
    }

    fn has(&self, id: &str) -> bool {
        self.ids.contains(id)
    }
}

/// Validates flashcards; returns the valid ones. `ids` holds the card ids taken so far, and takes
/// this file's.
/// A drill card's `drill` must name one of `exercises` whose answer can be typed and graded.
pub fn cards(
    source: &SourceFile,
    list: Vec<Card>,
    known: &Known,
    ids: &mut HashSet<String>,
    exercises: &[&ExerciseTemplate],
    problems: &mut Vec<Diagnostic>,
) -> Vec<Card> {
    let mut locator = Locator::new(source);
    let mut kept: Vec<Card> = Vec::new();
    let mut fresh = Vec::new();
    let topics = known.topics;
    for card in list {
        let at = locator.item(&card.id);
        let problem = if !valid_id(&card.id) {
            Some((None, format!("card id `{}`: {ID_RULE}", card.id)))
        } else if !take(ids, &mut fresh, &card.id) {
            Some((
                None,
                format!(
                    "duplicate card id `{}` (review history attaches to ids: keep them unique)",
                    card.id
                ),
            ))
        } else if !known.has(&card.topic) {
            Some((
                Some("topic"),
                format!(
                    "card `{}`: unknown topic `{}` (known: {})",
                    card.id,
                    card.topic,
                    topic_list(topics)
                ),
            ))
        } else if card.front.trim().is_empty() || card.back.trim().is_empty() {
            Some((None, format!("card `{}` needs a front and a back", card.id)))
        } else if let Some(message) = too_long(
            [&card.front, &card.back]
                .into_iter()
                .chain(&card.tags)
                .map(String::as_str),
        ) {
            Some((None, format!("card `{}`: {message}", card.id)))
        } else if let Some(skill) = card.skill.as_deref().filter(|s| !valid_id(s)) {
            Some((
                Some("skill"),
                format!("card `{}`: skill `{skill}`: {ID_RULE}", card.id),
            ))
        } else if let Some(message) = card
            .drill
            .as_deref()
            .and_then(|d| drill_problem(d, exercises))
        {
            Some((Some("drill"), format!("card `{}`: {message}", card.id)))
        } else {
            None
        };
        match problem {
            Some((needle, message)) => problems.push(locator.diag(at, needle, message)),
            None => kept.push(card),
        }
    }
    release(ids, fresh, kept.iter().map(|k| k.id.as_str()));
    kept
}

/// Levenshtein distance between two ids (characters inserted, removed or changed).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

fn drill_problem(id: &str, exercises: &[&ExerciseTemplate]) -> Option<String> {
    match exercises.iter().find(|e| e.id == id) {
        None => {
            let mut near: Vec<&str> = exercises
                .iter()
                .map(|e| e.id.as_str())
                .filter(|e| edit_distance(id, e) <= 3)
                .take(3)
                .collect();
            if near.is_empty() {
                near.push("see `warpdrill content preview`");
            }
            Some(format!(
                "drill `{id}` is not an exercise id (close: {})",
                near.join(", ")
            ))
        }
        Some(e) if matches!(e.answer, crate::content::schema::AnswerSpec::Explain { .. }) => {
            Some(format!(
                "drill `{id}` is an explanation graded by the learner; a drill needs an answer the engine grades (number, choice, ordering or text)"
            ))
        }
        Some(_) => None,
    }
}

/// The first text over [`structure::MAX_TEXT_BYTES`], described.
fn too_long<'t>(texts: impl IntoIterator<Item = &'t str>) -> Option<String> {
    texts
        .into_iter()
        .find(|t| t.len() > structure::MAX_TEXT_BYTES)
        .map(structure::too_long_message)
}

/// The known topic ids for a message: the first dozen, so that a file of many topics and many
/// mistakes does not repeat all of them in every message.
fn topic_list(topics: &[Topic]) -> String {
    const SHOWN: usize = 12;
    let mut list = topics
        .iter()
        .take(SHOWN)
        .map(|t| t.id.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if topics.len() > SHOWN {
        list.push_str(&format!(" and {} more", topics.len() - SHOWN));
    }
    list
}

/// Validates exercise templates; returns the valid ones. `ids` holds the exercise ids taken so
/// far, and takes this file's.
pub fn exercises(
    source: &SourceFile,
    list: Vec<ExerciseTemplate>,
    known: &Known,
    ids: &mut HashSet<String>,
    check: Option<TemplateCheck>,
    problems: &mut Vec<Diagnostic>,
) -> Vec<ExerciseTemplate> {
    exercises_in(source, list, known, ids, check, problems)
}

fn exercises_in(
    source: &SourceFile,
    list: Vec<ExerciseTemplate>,
    known: &Known,
    ids: &mut HashSet<String>,
    check: Option<TemplateCheck>,
    problems: &mut Vec<Diagnostic>,
) -> Vec<ExerciseTemplate> {
    let mut locator = Locator::new(source);
    let mut kept: Vec<ExerciseTemplate> = Vec::new();
    let mut fresh = Vec::new();
    let topics = known.topics;
    for exercise in list {
        let at = locator.item(&exercise.id);
        let mut found = Vec::new();
        if !valid_id(&exercise.id) {
            found.push((None, format!("exercise id `{}`: {ID_RULE}", exercise.id)));
        }
        if !take(ids, &mut fresh, &exercise.id) {
            found.push((None, format!("duplicate exercise id `{}`", exercise.id)));
        }
        if !known.has(&exercise.topic) {
            found.push((
                Some("topic".to_string()),
                format!(
                    "unknown topic `{}` (known: {})",
                    exercise.topic,
                    topic_list(topics)
                ),
            ));
        }
        if let Some(skill) = exercise.skill.as_deref().filter(|s| !valid_id(s)) {
            found.push((
                Some("skill".to_string()),
                format!("skill `{skill}`: {ID_RULE}"),
            ));
        }
        if exercise.hints.len() < 2 {
            found.push((
                Some("hints".to_string()),
                format!(
                    "has {}; give at least two, from a nudge to nearly the answer",
                    crate::format::count(exercise.hints.len() as u64, "hint")
                ),
            ));
        }
        if let Some(tries) = exercise.tries
            && !(1..=9).contains(&tries)
        {
            found.push((
                Some("tries".to_string()),
                format!(
                    "`tries: {tries}`: give 1 to 9 wrong answers before the answer is shown (default 2)"
                ),
            ));
        }
        for mistake in &exercise.mistakes {
            if mistake.name.trim().is_empty() || mistake.feedback.trim().is_empty() {
                found.push((
                    Some("mistakes".to_string()),
                    "a mistake needs a name and a feedback that says what to rethink".to_string(),
                ));
            }
        }
        if !exercise.mistakes.is_empty()
            && !matches!(
                exercise.answer,
                crate::content::schema::AnswerSpec::Number { .. }
            )
            && !matches!(&exercise.answer, crate::content::schema::AnswerSpec::Explain { checks, .. }
                if checks.iter().any(|c| matches!(c.answer, crate::content::schema::AnswerSpec::Number { .. })))
        {
            found.push((
                Some("mistakes".to_string()),
                "`mistakes` match numbers: this answer is not a number (give a choice's options their own `feedback`)".to_string(),
            ));
        }
        if exercise.title.trim().is_empty() || exercise.explanation.trim().is_empty() {
            found.push((None, "needs a title and a worked explanation".to_string()));
        }
        let mut structure = structure::limits(&exercise);
        structure.extend(structure::answerable(&exercise));
        if structure.is_empty() {
            // Only a template within the limits is worth drawing every combination of.
            if let Some((needle, message)) = check.and_then(|check| check(&exercise)) {
                found.push((needle, message));
            }
        }
        found.extend(structure);
        if found.is_empty() {
            kept.push(exercise);
        } else {
            for (needle, message) in found {
                problems.push(locator.diag(
                    at,
                    needle.as_deref(),
                    format!("exercise `{}`: {message}", exercise.id),
                ));
            }
        }
    }
    release(ids, fresh, kept.iter().map(|k| k.id.as_str()));
    kept
}

/// Validates a lesson; returns it when valid. Every page is rendered for every combination of its
/// controls (through `check`, the ladder's own walk), and a faded example is validated as an
/// exercise template whose id no other exercise or lesson uses.
pub fn lesson(
    source: &SourceFile,
    lesson: Lesson,
    topics: &[Topic],
    existing: &[Lesson],
    exercises: &[ExerciseTemplate],
    check: Option<TemplateCheck>,
    problems: &mut Vec<Diagnostic>,
) -> Option<Lesson> {
    let mut locator = Locator::new(source);
    let at = locator.item(&lesson.id);
    let mut found: Vec<(Option<String>, String)> = Vec::new();
    if !valid_id(&lesson.id) {
        found.push((None, format!("lesson id `{}`: {ID_RULE}", lesson.id)));
    }
    if existing.iter().any(|l| l.id == lesson.id) {
        found.push((None, format!("duplicate lesson id `{}`", lesson.id)));
    }
    if !topics.iter().any(|t| t.id == lesson.topic) {
        found.push((
            Some("topic".to_string()),
            format!(
                "unknown topic `{}` (known: {})",
                lesson.topic,
                topic_list(topics)
            ),
        ));
    }
    if lesson.title.trim().is_empty() {
        found.push((Some("title".to_string()), "needs a title".to_string()));
    }
    if lesson.steps.is_empty() {
        found.push((
            Some("steps".to_string()),
            "has no pages; give at least one `steps` entry".to_string(),
        ));
    }
    let mut faded: Vec<ExerciseTemplate> = existing
        .iter()
        .flat_map(|l| l.steps.iter().filter_map(|s| s.exercise.clone()))
        .collect();
    for (i, step) in lesson.steps.iter().enumerate() {
        let page = i + 1;
        if step.title.trim().is_empty() {
            found.push((None, format!("page {page} needs a title")));
        }
        if step.text.trim().is_empty() && step.exercise.is_none() {
            found.push((
                Some(format!("\"{}\"", step.title)),
                format!("page {page} has neither text nor an exercise"),
            ));
        }
        let mut names = HashSet::new();
        for control in &step.controls {
            let needle = Some(format!("\"{}\"", control.name));
            if !names.insert(control.name.as_str()) {
                found.push((
                    needle.clone(),
                    format!("page {page}: two controls named `{}`", control.name),
                ));
            }
            if control.label.trim().is_empty() {
                found.push((
                    needle.clone(),
                    format!("page {page}: control `{}` needs a label", control.name),
                ));
            }
            if let Some(start) = control.start {
                let len = crate::ladder::lesson::control_len(control);
                let among = (0..len).any(|v| {
                    matches!(
                        crate::ladder::variant::param_value(&control.values, v),
                        crate::ladder::variant::ParamValue::Number(n) if n == start
                    )
                });
                if !among {
                    found.push((
                        needle,
                        format!(
                            "page {page}: control `{}` starts at {start}, which is not one of its values",
                            control.name
                        ),
                    ));
                }
            }
        }
        if step.exercise.is_some() && !step.controls.is_empty() {
            found.push((
                Some("controls".to_string()),
                format!(
                    "page {page}: a faded example draws its numbers from its exercise's `params`; give it no `controls`"
                ),
            ));
        }
        let template = crate::ladder::lesson::page_template(&lesson.topic, step);
        let mut structure = structure::limits(&template);
        if structure.is_empty()
            && let Some(failure) = check.and_then(|check| check(&template))
        {
            structure.push(failure);
        }
        for (needle, message) in structure {
            found.push((needle, format!("page {page}: {message}")));
        }
        if let Some(exercise) = &step.exercise {
            if exercise.topic != lesson.topic {
                found.push((
                    Some(format!("\"{}\"", exercise.id)),
                    format!(
                        "page {page}: the exercise's topic is `{}`, the lesson's `{}`",
                        exercise.topic, lesson.topic
                    ),
                ));
            }
            let mut taken: HashSet<String> = exercises
                .iter()
                .chain(&faded)
                .map(|e| e.id.clone())
                .collect();
            let mut inner = Vec::new();
            let kept = exercises_in(
                source,
                vec![exercise.clone()],
                &Known::new(topics),
                &mut taken,
                check,
                &mut inner,
            );
            problems.append(&mut inner);
            if kept.is_empty() {
                found.push((
                    Some(format!("\"{}\"", exercise.id)),
                    format!("page {page}: its exercise has problems (listed)"),
                ));
            }
            faded.push(exercise.clone());
        }
    }
    if found.is_empty() {
        return Some(lesson);
    }
    for (needle, message) in found {
        problems.push(locator.diag(
            at,
            needle.as_deref(),
            format!("lesson `{}`: {message}", lesson.id),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based() {
        let text = "ab\ncd\nef";
        assert_eq!(position(text, 0), (1, 1));
        assert_eq!(position(text, 4), (2, 2));
        assert_eq!(position(text, 6), (3, 1));
    }

    #[test]
    fn ids_are_found_on_their_line() {
        let text = "(id: \"x\", topic: \"x\")\n(id: \"x\")";
        assert_eq!(id_offset(text, "x", 0), Some(5));
        assert_eq!(id_offset(text, "x", 6), Some(text.rfind("\"x\"").unwrap()));
    }
}
