//! Lesson pages computed like exercises: the controls the learner set are a page's parameters, its
//! values come from the same engine queries, and its text is rendered by the same placeholders — so
//! the sentence on the page and the diagram below it always agree.

use super::variant::{self, ParamValue, Variant, VariantError, param_len, param_value};
use crate::content::schema::{AnswerSpec, Control, ExerciseTemplate, Lesson, LessonStep, Level};
use std::collections::BTreeMap;

/// How many values a control steps through.
pub fn control_len(control: &Control) -> usize {
    param_len(&control.values)
}

/// The index of the value a control starts at: its `start`, else its first value.
pub fn start_index(control: &Control) -> usize {
    let Some(start) = control.start else {
        return 0;
    };
    (0..control_len(control))
        .find(|&i| matches!(param_value(&control.values, i), ParamValue::Number(n) if n == start))
        .unwrap_or(0)
}

/// The value of a control at `index` (clamped to its values).
pub fn control_value(control: &Control, index: usize) -> ParamValue {
    let last = control_len(control).saturating_sub(1);
    param_value(&control.values, index.min(last))
}

/// A page as an exercise template with no question: its controls are the parameters, its text the
/// prompt. Checking content walks its combinations with the ladder's own check, and [`page`] builds
/// it; nothing shows it as an exercise.
pub fn page_template(topic: &str, step: &LessonStep) -> ExerciseTemplate {
    ExerciseTemplate {
        id: "lesson-page".to_string(),
        level: Level::L1,
        topic: topic.to_string(),
        title: step.title.clone(),
        params: step
            .controls
            .iter()
            .map(|c| (c.name.clone(), c.values.clone()))
            .collect(),
        values: step.values.clone(),
        prompt: step.text.clone(),
        answer: AnswerSpec::Number {
            value: "0".to_string(),
            unit: Default::default(),
            tolerance: None,
            kilo: None,
        },
        hints: vec![String::new(), String::new()],
        explanation: "-".to_string(),
        tries: None,
        mistakes: Vec::new(),
        skill: None,
    }
}

/// The page with its controls at `chosen` (one index per control, in order; missing ones at their
/// start): `prompt` is the rendered text, `numbers` every value, `show_me` the engine calculation
/// its diagram draws.
pub fn page(topic: &str, step: &LessonStep, chosen: &[usize]) -> Result<Variant, VariantError> {
    let params: BTreeMap<String, ParamValue> = step
        .controls
        .iter()
        .enumerate()
        .map(|(i, control)| {
            let index = chosen
                .get(i)
                .copied()
                .unwrap_or_else(|| start_index(control));
            (control.name.clone(), control_value(control, index))
        })
        .collect();
    variant::build(&page_template(topic, step), 0, params)
}

/// The controls of every page at their start.
pub fn starts(lesson: &Lesson) -> Vec<Vec<usize>> {
    lesson
        .steps
        .iter()
        .map(|step| step.controls.iter().map(start_index).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::schema::{CoalescingField, Param, Query};

    fn step() -> LessonStep {
        LessonStep {
            title: "Stride".into(),
            text: "Stride {stride}: {sectors} sectors.".into(),
            controls: vec![Control {
                name: "stride".into(),
                label: "stride".into(),
                values: Param::Choice(vec![1.0, 2.0, 32.0]),
                start: Some(2.0),
            }],
            values: vec![(
                "sectors".into(),
                Query::Coalescing {
                    arch: None,
                    elem: "4".into(),
                    stride: Some("stride".into()),
                    offset: None,
                    base: None,
                    lanes: None,
                    struct_size: None,
                    field_offset: None,
                    pitch: None,
                    column: false,
                    lines: false,
                    op: Default::default(),
                    field: CoalescingField::Sectors,
                },
            )],
            exercise: None,
        }
    }

    #[test]
    fn the_text_follows_the_controls_through_the_engine() {
        let step = step();
        assert_eq!(start_index(&step.controls[0]), 1);
        let at_start = page("coalescing", &step, &[]).unwrap();
        assert_eq!(at_start.prompt, "Stride 2: 8 sectors.");
        assert!(
            at_start.show_me.is_some(),
            "the diagram has its calculation"
        );
        let strided = page("coalescing", &step, &[2]).unwrap();
        assert_eq!(strided.prompt, "Stride 32: 32 sectors.");
        // An index past the end stays on the last value.
        assert_eq!(
            page("coalescing", &step, &[9]).unwrap().prompt,
            strided.prompt
        );
    }
}
