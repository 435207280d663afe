//! Lessons: one per topic, loaded and checked like the rest of the content; Home → Learn → a lesson
//! whose text and diagram follow the controls, a faded example graded by the ladder's attempt (a
//! hint first, the answer only after the last try), progress kept; a broken lesson file is
//! reported, never shown.

use crate::common::{self, press, press_with, screen, type_text};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use warpdrill::app::Screen;
use warpdrill::content::{FileKind, SourceFile};
use warpdrill::i18n::Lang;
use warpdrill::ladder;

/// Home → Learn → the lesson of `topic`.
fn open_lesson(app: &mut warpdrill::app::App, topic: &str) {
    let home = screen(app, 80, 24);
    assert!(
        home.contains("▸ Learn"),
        "Learn is Home's first entry:\n{home}"
    );
    press(app, KeyCode::Enter);
    let index = app
        .content
        .lessons
        .iter()
        .position(|l| l.topic == topic)
        .expect("a lesson of the topic");
    for _ in 0..index {
        press(app, KeyCode::Down);
    }
    press(app, KeyCode::Enter);
    assert!(
        matches!(app.screen(), Screen::Lesson(_)),
        "{:?}",
        app.screen()
    );
}

#[test]
fn every_topic_has_a_lesson_whose_pages_render_and_whose_faded_examples_draw() {
    let content = ladder::check::builtin();
    assert!(content.problems.is_empty(), "{:?}", content.problems);
    for topic in &content.topics {
        let lesson = content
            .lesson_of(&topic.id)
            .unwrap_or_else(|| panic!("no lesson for topic `{}`", topic.id));
        assert!(
            lesson.steps.len() >= 3,
            "{} has {} pages",
            lesson.id,
            lesson.steps.len()
        );
        let mut live = false;
        let mut faded = false;
        for step in &lesson.steps {
            let page = ladder::lesson::page(&lesson.topic, step, &[]).expect("a page renders");
            assert!(!page.prompt.contains('{'), "{}: {}", lesson.id, page.prompt);
            live |= !step.controls.is_empty();
            if let Some(exercise) = &step.exercise {
                faded = true;
                for seed in 0..20 {
                    ladder::generate(exercise, seed).expect("the faded example draws");
                }
                assert!(
                    content.exercise(&exercise.id).is_none(),
                    "a faded example is not on the ladder"
                );
            }
        }
        assert!(live, "{} has no page the learner can steer", lesson.id);
        assert!(faded, "{} has no faded example", lesson.id);
    }
}

#[test]
fn the_coalescing_lesson_redraws_its_text_and_diagram_when_the_stride_changes() {
    let mut app = common::app();
    open_lesson(&mut app, "coalescing");
    let first = screen(&app, 80, 24);
    assert!(first.contains("1/5"), "{first}");
    assert!(
        first.contains("librarian"),
        "the topic's analogy is in the lesson:\n{first}"
    );
    press(&mut app, KeyCode::Char('n'));
    let stride1 = screen(&app, 80, 24);
    assert!(stride1.contains("2/5"), "{stride1}");
    assert!(stride1.contains("moves 4 × 32 B = 128 B"), "{stride1}");
    assert!(stride1.contains("stride (elements) 1"), "{stride1}");
    assert!(
        stride1.contains("Warp → sectors"),
        "the diagram is inside the page:\n{stride1}"
    );
    press(&mut app, KeyCode::Right);
    let stride2 = screen(&app, 80, 24);
    assert!(stride2.contains("moves 8 × 32 B = 256 B"), "{stride2}");
    assert!(stride2.contains("Efficiency: 50%"), "{stride2}");
    assert!(stride2.contains("stride (elements) 2"), "{stride2}");
    // The diagram's lanes now reach an eighth sector (sectors are lettered A, B, …).
    assert!(stride2.contains("H H H H"), "{stride2}");
    assert!(!stride1.contains("H H H H"), "{stride1}");
}

#[test]
fn the_faded_example_gives_a_hint_first_and_the_answer_only_after_the_last_try() {
    let mut app = common::app();
    open_lesson(&mut app, "coalescing");
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    let page = screen(&app, 80, 24);
    assert!(
        page.contains("4/5") && page.contains("Worked so far"),
        "{page}"
    );
    // 32: one sector per lane, a declared mistake; named, with no answer given.
    type_text(&mut app, "32");
    press(&mut app, KeyCode::Enter);
    let first = screen(&app, 80, 24);
    assert!(first.contains("One sector per lane"), "{first}");
    assert!(first.contains("Hint 1"), "{first}");
    assert!(!first.contains("the answer is"), "{first}");
    // A second wrong answer shows the answer and the worked explanation.
    type_text(&mut app, "5");
    press(&mut app, KeyCode::Enter);
    let second = screen(&app, 80, 24);
    assert!(second.contains("the answer is"), "{second}");
    let progress = &app.progress.lessons["coalescing"];
    assert!(progress.solved.is_empty(), "not solved: {progress:?}");
}

#[test]
fn solving_the_faded_example_and_reaching_the_end_is_remembered_and_hands_off_to_the_ladder() {
    let mut app = common::app();
    open_lesson(&mut app, "coalescing");
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    let Screen::Lesson(lesson) = app.screen() else {
        panic!("{:?}", app.screen());
    };
    let answer = lesson
        .exercise()
        .and_then(|e| e.variant().ok())
        .map(|v| v.key.display())
        .expect("a faded example");
    type_text(&mut app, &answer);
    press(&mut app, KeyCode::Enter);
    assert!(
        screen(&app, 80, 24).contains("✓"),
        "{}",
        screen(&app, 80, 24)
    );
    assert_eq!(
        app.progress.lessons["coalescing"].solved,
        vec!["lesson-coalescing-faded".to_string()]
    );
    // Enter after the answer moves on, as in the ladder.
    press(&mut app, KeyCode::Enter);
    let last = screen(&app, 80, 24);
    assert!(last.contains("5/5"), "{last}");
    assert!(app.progress.lesson_read("coalescing"));
    assert!(last.contains("L1 · How big is a sector?"), "{last}");
    press(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.screen(), Screen::Exercise(_)),
        "{:?}",
        app.screen()
    );
    // Reopened, the lesson list marks it read and the lesson opens where it was left.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    let list = screen(&app, 80, 24);
    assert!(list.contains("✓ Global-memory coalescing · read"), "{list}");
}

#[test]
fn a_long_page_scrolls_to_its_end_at_80x24() {
    let mut app = common::app();
    open_lesson(&mut app, "latency");
    press(&mut app, KeyCode::Char('n'));
    let top = screen(&app, 80, 24);
    let last_sentence = "more loads in flight";
    if top.contains("more · PgDn") {
        assert!(!top.contains(last_sentence), "{top}");
        press(&mut app, KeyCode::PageDown);
        press(&mut app, KeyCode::PageDown);
        let end = screen(&app, 80, 24);
        assert!(end.contains(last_sentence), "{end}");
    } else {
        assert!(top.contains(last_sentence), "{top}");
    }
    // The controls change the numbers in the text.
    assert!(top.contains("about 95 such warps"), "{top}");
    press(&mut app, KeyCode::Right);
    assert!(screen(&app, 80, 24).contains("about 48 such warps"));
}

#[test]
fn lesson_pages_at_80x24_and_200x60() {
    let mut app = common::app();
    open_lesson(&mut app, "banks");
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Right);
    insta::assert_snapshot!("lesson_banks_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("lesson_banks_200x60", screen(&app, 200, 60));
    press_with(&mut app, KeyCode::BackTab, KeyModifiers::SHIFT);
    insta::assert_snapshot!("lesson_banks_idea_80x24", screen(&app, 80, 24));
}

#[test]
fn a_broken_lesson_is_reported_where_it_is_wrong_and_skipped() {
    let text = r#"Lesson(id: "bad", topic: "banks", title: "Bad",
  steps: [
    (title: "One", text: "Stride {strid}", controls: [(name: "stride", label: "s", values: Choice([1, 2]), start: 3)]),
  ])"#;
    let content = ladder::check::load(
        vec![SourceFile {
            path: "content/lessons/bad.ron".into(),
            text: text.into(),
            kind: FileKind::Lesson,
        }],
        &warpdrill::content::Content::builtin().topics,
    );
    assert!(content.lessons.is_empty());
    let messages: Vec<String> = content.problems.iter().map(|p| p.to_string()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("bad.ron:3:") && m.contains("starts at 3")),
        "{messages:#?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("{strid}")),
        "{messages:#?}"
    );
}

#[test]
fn a_translated_lesson_keeps_the_english_numbers_and_a_wrong_placeholder_falls_back() {
    let english = warpdrill::content::Content::builtin();
    let lesson = english.lesson("coalescing").expect("built in");
    let steps: Vec<String> = lesson
        .steps
        .iter()
        .enumerate()
        .map(|(i, _)| match i {
            1 => "(title: \"보폭\", text: \"보폭 {strde}\")".to_string(),
            _ => "(title: \"제목\")".to_string(),
        })
        .collect();
    let text = format!(
        "LessonTexts(lessons: {{ \"coalescing\": (title: \"병합\", steps: [{}]) }})",
        steps.join(", ")
    );
    let translations =
        warpdrill::content::i18n::load(vec![warpdrill::content::i18n::TextSource::new(
            "content/i18n/ko/lessons/coalescing.ron",
            &text,
        )]);
    let (ko, problems) =
        warpdrill::content::i18n::localize(&english, Lang::Ko, translations.get(Lang::Ko));
    let lesson = ko.lesson("coalescing").expect("still there");
    assert_eq!(lesson.title, "병합");
    assert_eq!(lesson.steps[1].title, "보폭");
    assert!(
        lesson.steps[1].text.contains("{stride}"),
        "a text with the wrong placeholder stays English"
    );
    assert!(
        problems.iter().any(|p| p.message.contains("strde")),
        "{problems:#?}"
    );
}

#[test]
fn a_paste_on_the_faded_example_goes_into_its_answer_and_does_not_submit() {
    let mut app = common::app();
    open_lesson(&mut app, "coalescing");
    for _ in 0..3 {
        press(&mut app, KeyCode::Tab);
    }
    if let Some(action) = app.handle_paste("16\n") {
        app.update(action);
    }
    let Screen::Lesson(lesson) = app.screen() else {
        panic!("{:?}", app.screen());
    };
    let exercise = lesson.exercise().expect("the faded example");
    assert_eq!(exercise.input().text().trim(), "16");
    assert_eq!(exercise.attempt().attempts(), 0, "a paste never submits");
}

#[test]
fn a_faded_example_is_linted_once_where_it_is_written() {
    let (_guard, dir) = common::temp_dir("lint-lesson");
    std::fs::create_dir_all(dir.join("content/lessons")).unwrap();
    // The mistake's value is the answer for stride 2: the linter warns.
    std::fs::write(
        dir.join("content/lessons/lint.ron"),
        r#"Lesson(id: "lint", topic: "banks", title: "Lint",
  steps: [
    (title: "Your turn", exercise: (
      id: "lesson-lint-faded", level: L2, topic: "banks", title: "Degree",
      params: { "stride": Choice([2, 6]) },
      values: [("degree", Banks(elem: "4", stride: "stride", field: ConflictDegree))],
      prompt: "Stride {stride}: how many wavefronts?",
      answer: Number(value: "degree", unit: Count("wavefronts")),
      hints: ["gcd", "gcd({stride}, 32)"],
      explanation: "{degree}.",
      mistakes: [(name: "Degree = stride", value: "stride", feedback: "Not the stride.")],
    )),
  ])"#,
    )
    .unwrap();
    let out = common::warpdrill()
        .args(["content", "check", "--json"])
        .arg(&dir)
        .output()
        .expect("the binary runs");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let warnings: Vec<&serde_json::Value> = report["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter(|w| {
            w["message"]
                .as_str()
                .is_some_and(|m| m.contains("lesson-lint-faded"))
        })
        .collect();
    let equal: Vec<_> = warnings
        .iter()
        .filter(|w| {
            w["message"]
                .as_str()
                .is_some_and(|m| m.contains("equals the answer"))
        })
        .collect();
    assert_eq!(equal.len(), 1, "{warnings:#?}");
    assert!(
        equal[0]["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("lint.ron")),
        "{equal:#?}"
    );
}
