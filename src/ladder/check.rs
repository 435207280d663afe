//! Checking templates the way a learner would meet them: every parameter combination (or many
//! seeds) drawn and built, so a mistake is reported to the author, never shown to a learner.

use super::variant::{self, ParamValue, VariantError, param_len, param_value};
use crate::content::schema::ExerciseTemplate;
use crate::content::{self, Content, DirError, SourceFile};
use std::collections::BTreeMap;
use std::path::Path;

/// Templates with at most this many parameter combinations are checked for every one; others for
/// 300 seeds.
const EXHAUSTIVE_LIMIT: usize = 1024;

/// The built-in content with every template's variants checked.
pub fn builtin() -> Content {
    Content::builtin_checked(Some(check_variants))
}

/// The built-in content plus `dir`, with every template's variants checked.
pub fn with_dir(dir: Option<&Path>) -> Result<Content, DirError> {
    Content::with_dir_checked(dir, Some(check_variants))
}

/// Parses and validates `sources`, with every template's variants checked.
pub fn load(sources: Vec<SourceFile>, known_topics: &[content::schema::Topic]) -> Content {
    content::load_checked(sources, known_topics, Some(check_variants))
}

/// Generates the variants of every parameter combination (or many seeds when there are too many);
/// returns the first failure with a text to locate it by.
pub fn check_variants(exercise: &ExerciseTemplate) -> Option<(Option<String>, String)> {
    let sizes: Vec<usize> = exercise.params.values().map(param_len).collect();
    if let Some((name, _)) = exercise.params.iter().find(|(_, p)| param_len(p) == 0) {
        return Some((
            Some(format!("\"{name}\"")),
            format!(
                "parameter `{name}` has no values (empty list, or a range with max < min or step ≤ 0)"
            ),
        ));
    }
    let total = sizes.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
    let report = |e: VariantError, params: &BTreeMap<String, ParamValue>| {
        let described = params
            .iter()
            .map(|(k, v)| match v {
                ParamValue::Number(n) => format!("{k}={}", variant::plain(*n)),
                ParamValue::Text(t) => format!("{k}={t}"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let when = if described.is_empty() {
            String::new()
        } else {
            format!(" (with {described})")
        };
        Some((needle_of(&e), format!("{e}{when}")))
    };
    match total {
        Some(total) if total <= EXHAUSTIVE_LIMIT => {
            for combination in 0..total {
                let mut rest = combination;
                let params: BTreeMap<String, ParamValue> = exercise
                    .params
                    .iter()
                    .zip(&sizes)
                    .map(|((name, param), &n)| {
                        let index = rest % n;
                        rest /= n;
                        (name.clone(), param_value(param, index))
                    })
                    .collect();
                if let Err(e) = variant::build(exercise, combination as u64, params.clone()) {
                    return report(e, &params);
                }
            }
        }
        _ => {
            for seed in 0..300u64 {
                let params = match variant::draw(exercise, seed) {
                    Ok(params) => params,
                    Err(e) => return report(e, &BTreeMap::new()),
                };
                if let Err(e) = variant::build(exercise, seed, params.clone()) {
                    return report(e, &params);
                }
            }
        }
    }
    None
}

/// Text near the problem, to point the diagnostic at it.
fn needle_of(error: &VariantError) -> Option<String> {
    let place = match error {
        VariantError::Param { name, .. } => return Some(format!("\"{name}\"")),
        VariantError::Expr { place, .. }
        | VariantError::Engine { place, .. }
        | VariantError::Template { place, .. } => place,
    };
    if let Some(start) = place.find("placeholder {") {
        return Some(place[start + "placeholder ".len()..].to_string());
    }
    if let Some(name) = place
        .strip_prefix("value `")
        .and_then(|p| p.strip_suffix('`'))
    {
        return Some(format!("\"{name}\""));
    }
    for (prefix, needle) in [
        ("prompt", "prompt"),
        ("hint", "hints"),
        ("explanation", "explanation"),
        ("model", "model"),
        ("option", "options"),
        ("item", "items"),
        ("answer", "answer"),
    ] {
        if place.starts_with(prefix) {
            return Some(needle.to_string());
        }
    }
    None
}
