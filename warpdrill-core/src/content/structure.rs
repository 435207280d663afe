//! Structural checks of an exercise template that need no engine: sizes within the limits (so that
//! checking every parameter combination, and drawing on every keystroke, stays cheap) and an answer
//! that can be given at all.
//!
//! Each check returns `(needle, message)` pairs: text near the problem to point the diagnostic at,
//! and what is wrong.

use super::schema::{AnswerSpec, ExerciseTemplate, Param, Query, Tolerance};

/// The longest single text (prompt, hint, explanation, option, card side, …), in bytes.
pub const MAX_TEXT_BYTES: usize = 16 * 1024;
/// The longest single expression, in bytes.
pub const MAX_EXPR_BYTES: usize = 4 * 1024;
/// The most text one template may hold in all (every combination check renders all of it).
pub const MAX_TEMPLATE_BYTES: usize = 64 * 1024;
/// The most `{placeholders}` in one template's texts: each is evaluated for every parameter
/// combination `content check` tries (up to 1024), so this bounds what checking a template costs.
pub const MAX_PLACEHOLDERS: usize = 256;
/// The most parameters a template may draw.
pub const MAX_PARAMS: usize = 16;
/// The most values a parameter may choose from when they are listed (`Choice`, `Text`).
pub const MAX_PARAM_VALUES: usize = 1024;
/// The most entries in any other list (values, hints, items, ideas, accepted answers).
pub const MAX_ITEMS: usize = 64;
/// The most choice options: they are named by the letters a–z.
pub const MAX_CHOICES: usize = 26;
/// The largest magnitude of a range bound: every value must be an exact `f64` (2^53).
pub const MAX_RANGE_MAGNITUDE: i64 = 1 << 53;

/// A problem: text to point at (if any) and the message.
pub type Problem = (Option<String>, String);

/// The message for a text over [`MAX_TEXT_BYTES`].
pub fn too_long_message(text: &str) -> String {
    let start: String = text.chars().take(30).collect();
    format!(
        "a text of {} KB (starting `{start}…`) is over the {} KB limit for one text",
        text.len() / 1024,
        MAX_TEXT_BYTES / 1024
    )
}

/// The expressions of a value query (numeric arguments and architecture names).
fn query_texts(query: &Query) -> Vec<&str> {
    fn optional<'q>(items: &[&'q Option<String>]) -> Vec<&'q str> {
        items.iter().filter_map(|o| o.as_deref()).collect()
    }
    let mut texts: Vec<&str> = Vec::new();
    match query {
        Query::Expr(e) => texts.push(e),
        Query::Coalescing {
            arch,
            elem,
            stride,
            offset,
            base,
            lanes,
            struct_size,
            field_offset,
            pitch,
            ..
        } => {
            texts.push(elem);
            texts.extend(optional(&[
                arch,
                stride,
                offset,
                base,
                lanes,
                struct_size,
                field_offset,
                pitch,
            ]));
        }
        Query::Banks {
            arch,
            elem,
            stride,
            offset,
            lanes,
            ..
        } => {
            texts.extend([elem.as_str(), stride]);
            texts.extend(optional(&[arch, offset, lanes]));
        }
        Query::Occupancy {
            arch,
            block_size,
            regs,
            smem,
            static_smem,
            carveout,
            ..
        } => {
            texts.extend([block_size.as_str(), regs]);
            texts.extend(optional(&[arch, smem, static_smem, carveout]));
        }
        Query::AmdWaves { arch, vgprs, .. } => texts.extend([arch.as_str(), vgprs]),
        Query::Tiling {
            n,
            tile,
            elem,
            arch,
            ..
        } => {
            texts.extend([n.as_str(), tile, elem]);
            texts.extend(optional(&[arch]));
        }
        Query::Roofline {
            peak_flops,
            bandwidth,
            intensity,
            ..
        } => texts.extend([peak_flops.as_str(), bandwidth, intensity]),
        Query::Measured(_) => {}
        Query::Arch { arch, .. } => texts.push(arch),
    }
    texts
}

/// The texts (rendered with placeholders) and the expressions of a template's answer.
fn answer_parts(answer: &AnswerSpec) -> (Vec<&str>, Vec<&str>) {
    let mut texts: Vec<&str> = Vec::new();
    let mut exprs: Vec<&str> = Vec::new();
    match answer {
        AnswerSpec::Number { value, .. } => exprs.push(value),
        AnswerSpec::Choice { options, .. } => {
            for option in options {
                texts.push(&option.text);
                exprs.push(&option.correct);
            }
        }
        AnswerSpec::Ordering { items, by, .. } => {
            for item in items {
                texts.push(&item.text);
                texts.extend(item.aliases.iter().map(String::as_str));
                exprs.push(&item.key);
            }
            texts.extend(by.as_deref());
        }
        AnswerSpec::Text { accepted, .. } => texts.extend(accepted.iter().map(String::as_str)),
        AnswerSpec::Explain { ideas, model, .. } => {
            texts.push(model);
            for idea in ideas {
                texts.push(&idea.name);
                texts.extend(idea.any_of.iter().map(String::as_str));
            }
        }
    }
    (texts, exprs)
}

/// Sizes: every text, every expression, the whole template and every list within its limit.
pub fn limits(exercise: &ExerciseTemplate) -> Vec<Problem> {
    let mut problems = Vec::new();
    let (answer_texts, answer_exprs) = answer_parts(&exercise.answer);
    let texts: Vec<&str> = [&exercise.title, &exercise.prompt, &exercise.explanation]
        .into_iter()
        .map(String::as_str)
        .chain(exercise.hints.iter().map(String::as_str))
        .chain(answer_texts)
        .collect();
    let exprs: Vec<&str> = exercise
        .values
        .iter()
        .flat_map(|(_, query)| query_texts(query))
        .chain(answer_exprs)
        .collect();
    if let Some(text) = texts.iter().find(|t| t.len() > MAX_TEXT_BYTES) {
        problems.push((None, too_long_message(text)));
    }
    if let Some(expr) = exprs.iter().find(|e| e.len() > MAX_EXPR_BYTES) {
        let start: String = expr.chars().take(30).collect();
        problems.push((
            Some("values".to_string()),
            format!(
                "an expression of {} bytes (starting `{start}…`) is over the {} KB limit for one expression",
                expr.len(),
                MAX_EXPR_BYTES / 1024
            ),
        ));
    }
    let total: usize = texts.iter().chain(&exprs).map(|t| t.len()).sum();
    if total > MAX_TEMPLATE_BYTES {
        problems.push((
            None,
            format!(
                "holds {} KB of text and expressions; one template may hold at most {} KB (every parameter combination renders all of it)",
                total / 1024,
                MAX_TEMPLATE_BYTES / 1024
            ),
        ));
    }
    let placeholders: usize = texts.iter().map(|t| placeholder_count(t)).sum();
    if placeholders > MAX_PLACEHOLDERS {
        problems.push((
            None,
            format!(
                "has {placeholders} placeholders; at most {MAX_PLACEHOLDERS} (each is computed for every parameter combination checked)"
            ),
        ));
    }
    if exercise.params.len() > MAX_PARAMS {
        problems.push((
            Some("params".to_string()),
            format!(
                "draws {} parameters; at most {MAX_PARAMS}",
                exercise.params.len()
            ),
        ));
    }
    for (name, param) in &exercise.params {
        let listed = match param {
            Param::Choice(values) => values.len(),
            Param::Text(values) => values.len(),
            Param::Range { .. } => 0,
        };
        if listed > MAX_PARAM_VALUES {
            problems.push((
                Some(format!("\"{name}\"")),
                format!(
                    "parameter `{name}` lists {listed} values; at most {MAX_PARAM_VALUES} (use a Range for more)"
                ),
            ));
        }
    }
    for (what, needle, count) in [
        ("values", "values", exercise.values.len()),
        ("hints", "hints", exercise.hints.len()),
        (
            "answer entries",
            "answer",
            answer_list_len(&exercise.answer),
        ),
    ] {
        if count > MAX_ITEMS {
            problems.push((
                Some(needle.to_string()),
                format!("has {count} {what}; at most {MAX_ITEMS}"),
            ));
        }
    }
    problems
}

/// How many `{…}` placeholders `text` holds (`{{` is a literal brace, not one).
fn placeholder_count(text: &str) -> usize {
    let mut count = 0;
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        if rest[at..].starts_with("{{") {
            rest = &rest[at + 2..];
        } else {
            count += 1;
            rest = &rest[at + 1..];
        }
    }
    count
}

/// The length of the answer's longest list (options, items, accepted answers, ideas).
fn answer_list_len(answer: &AnswerSpec) -> usize {
    match answer {
        AnswerSpec::Number { .. } => 0,
        AnswerSpec::Choice { options, .. } => options.len(),
        AnswerSpec::Ordering { items, .. } => items.len(),
        AnswerSpec::Text { accepted, .. } => accepted.len(),
        AnswerSpec::Explain { ideas, .. } => ideas.len(),
    }
}

/// Whether a learner can ever give the right answer, and parameters the engine can draw: refuses
/// answers that accept nothing (or anything) and ranges whose values cannot be counted exactly.
pub fn answerable(exercise: &ExerciseTemplate) -> Vec<Problem> {
    let mut problems = Vec::new();
    let answer = || Some("answer".to_string());
    for (name, param) in &exercise.params {
        let needle = Some(format!("\"{name}\""));
        match param {
            Param::Range { min, max, .. }
                if min.unsigned_abs() > MAX_RANGE_MAGNITUDE.unsigned_abs()
                    || max.unsigned_abs() > MAX_RANGE_MAGNITUDE.unsigned_abs() =>
            {
                problems.push((
                    needle,
                    format!(
                        "parameter `{name}`: a range must stay within ±{MAX_RANGE_MAGNITUDE} (values are exact numbers only up to 2^53)"
                    ),
                ));
            }
            Param::Choice(values) if values.iter().any(|v| !v.is_finite()) => {
                problems.push((
                    needle,
                    format!("parameter `{name}`: every value must be a finite number"),
                ));
            }
            _ => {}
        }
    }
    match &exercise.answer {
        AnswerSpec::Number {
            tolerance, kilo, ..
        } => {
            if let Some(Tolerance::Abs(t) | Tolerance::Rel(t)) = tolerance
                && !(t.is_finite() && *t >= 0.0)
            {
                problems.push((
                    Some("tolerance".to_string()),
                    format!(
                        "tolerance {t} can never be met: use a finite number ≥ 0 (Rel(0.05) is 5 %)"
                    ),
                ));
            }
            if let Some(k) = kilo
                && *k != 1000
                && *k != 1024
            {
                problems.push((
                    Some("kilo".to_string()),
                    format!("kilo must be 1000 or 1024, got {k}"),
                ));
            }
        }
        AnswerSpec::Choice { options, .. } => {
            if options.len() < 2 {
                problems.push((
                    answer(),
                    format!("a choice needs at least two options, got {}", options.len()),
                ));
            } else if options.len() > MAX_CHOICES {
                problems.push((
                    answer(),
                    format!(
                        "a choice has at most {MAX_CHOICES} options (they are lettered a–z), got {}",
                        options.len()
                    ),
                ));
            }
        }
        AnswerSpec::Ordering { items, .. } => {
            if items.len() < 2 {
                problems.push((
                    answer(),
                    format!("an ordering needs at least two items, got {}", items.len()),
                ));
            }
        }
        AnswerSpec::Text { accepted, .. } => {
            if accepted.iter().all(|a| a.trim().is_empty()) {
                problems.push((
                    answer(),
                    "a text answer needs at least one accepted answer that is not blank".into(),
                ));
            }
        }
        AnswerSpec::Explain {
            ideas, required, ..
        } => {
            if ideas.is_empty() {
                problems.push((
                    answer(),
                    "an explanation needs at least one idea to look for (with none, any text would pass)".into(),
                ));
            }
            if let Some(idea) = ideas
                .iter()
                .find(|idea| idea.any_of.iter().all(|w| w.trim().is_empty()))
            {
                problems.push((
                    answer(),
                    format!(
                        "idea `{}` has no words to find it by, so it can never be found",
                        idea.name
                    ),
                ));
            }
            match required {
                Some(0) if !ideas.is_empty() => problems.push((
                    answer(),
                    "required: 0 lets any text pass; require at least one idea".into(),
                )),
                Some(n) if *n > ideas.len() => problems.push((
                    answer(),
                    format!(
                        "required: {n} but there are only {} ideas, so no answer can pass",
                        ideas.len()
                    ),
                )),
                _ => {}
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_counted_without_literal_braces() {
        assert_eq!(placeholder_count("{a} and {b|%} but {{not}} this"), 2);
        assert_eq!(placeholder_count("{{{a}}}"), 1);
        assert_eq!(placeholder_count("none"), 0);
    }
}
