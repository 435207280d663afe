//! The built-in content: every template generates, grades its own answer correct and a wrong one wrong,
//! for many seeds; broken content is reported with file, line and column.

use std::path::Path;
use std::process::Command;
use warpdrill::content::schema::Level;
use warpdrill::content::{self, Content, FileKind, SourceFile};
use warpdrill::ladder::{self, AnswerKey, Outcome, Response};

fn builtin() -> Content {
    let content = Content::builtin();
    assert!(
        content.problems.is_empty(),
        "built-in content has problems: {:#?}",
        content.problems
    );
    content
}

#[test]
fn builtin_content_meets_the_ladder_targets() {
    let content = builtin();
    for level in Level::ALL {
        assert!(
            content.level(level).count() >= 10,
            "{} has fewer than 10 exercises",
            level.key()
        );
    }
    assert!(
        content.cards.len() >= 100,
        "only {} cards",
        content.cards.len()
    );
    for topic in [
        "hierarchy",
        "coalescing",
        "banks",
        "occupancy",
        "tiling",
        "roofline",
        "latency",
        "amd",
    ] {
        assert!(content.topic(topic).is_some(), "topic {topic} missing");
        assert!(
            content.cards.iter().any(|c| c.topic == topic),
            "no card on {topic}"
        );
        assert!(
            content.exercises.iter().any(|e| e.topic == topic),
            "no exercise on {topic}"
        );
    }
}

#[test]
fn every_template_grades_its_own_answer_for_many_seeds() {
    let content = builtin();
    for exercise in &content.exercises {
        for seed in 0..40 {
            let variant = ladder::generate(exercise, seed)
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", exercise.id));
            assert!(
                !variant.prompt.contains("{{"),
                "{}: unrendered escape in {}",
                exercise.id,
                variant.prompt
            );
            assert!(variant.hints.len() >= 2);
            let typed = variant.key.typed();
            let feedback = ladder::grade(&variant, Response::Text(&typed));
            assert_eq!(
                feedback.outcome,
                Outcome::Correct,
                "{} seed {seed}: typing the answer {typed:?} was graded {:?}: {}",
                exercise.id,
                feedback.outcome,
                feedback.headline
            );
            match &variant.key {
                AnswerKey::Number { value, .. } => {
                    let wrong = format!("{}", value * 3.0 + 7.0);
                    let feedback = ladder::grade(&variant, Response::Text(&wrong));
                    assert_eq!(
                        feedback.outcome,
                        Outcome::Wrong,
                        "{} seed {seed}: {wrong}",
                        exercise.id
                    );
                    assert!(
                        feedback.headline.contains(&variant.key.display()),
                        "{}",
                        feedback.headline
                    );
                    assert!(!feedback.why.is_empty());
                }
                AnswerKey::Choice { options, correct } => {
                    assert_eq!(
                        ladder::grade(&variant, Response::Choice(correct[0])).outcome,
                        Outcome::Correct
                    );
                    if let Some(bad) = (0..options.len()).find(|i| !correct.contains(i)) {
                        let feedback = ladder::grade(&variant, Response::Choice(bad));
                        assert_eq!(
                            feedback.outcome,
                            Outcome::Wrong,
                            "{} seed {seed}",
                            exercise.id
                        );
                    }
                }
                AnswerKey::Ordering { shown, correct, .. } => {
                    assert_eq!(
                        ladder::grade(&variant, Response::Order(correct)).outcome,
                        Outcome::Correct
                    );
                    assert_ne!(shown, correct, "{}: shown already in order", exercise.id);
                    assert_eq!(
                        ladder::grade(&variant, Response::Order(shown)).outcome,
                        Outcome::Wrong
                    );
                }
                AnswerKey::Text { .. } => {
                    let feedback =
                        ladder::grade(&variant, Response::Text("bank conflict occupancy"));
                    assert_eq!(feedback.outcome, Outcome::Wrong, "{}", exercise.id);
                }
                AnswerKey::Explain { .. } => {
                    let feedback = ladder::grade(&variant, Response::Text("no idea"));
                    assert_eq!(feedback.outcome, Outcome::Wrong, "{}", exercise.id);
                    assert!(feedback.model.is_some());
                }
            }
        }
    }
}

#[test]
fn nonsense_answers_are_unusable_not_wrong() {
    let content = builtin();
    let exercise = content.exercise("l2-stride-sectors").unwrap();
    let variant = ladder::generate(exercise, 1).unwrap();
    for input in ["", "   ", "abc", "1e999", &"7".repeat(10_000), "5 parsecs"] {
        let feedback = ladder::grade(&variant, Response::Text(input));
        assert_eq!(feedback.outcome, Outcome::Unusable, "{input:.20}");
        assert!(!feedback.headline.is_empty());
    }
}

#[test]
fn the_same_seed_gives_the_same_variant_on_every_platform() {
    let content = builtin();
    let exercise = content.exercise("l2-stride-sectors").unwrap();
    let a = ladder::generate(exercise, 42).unwrap();
    let b = ladder::generate(exercise, 42).unwrap();
    assert_eq!(a, b);
    // Pinned: ChaCha8 output and our own uniform draw are fixed by their algorithms, so a change here
    // means saved seeds would show other numbers.
    let drawn: Vec<String> = [0u64, 1, 2, 42, 1000]
        .iter()
        .map(|&seed| {
            let v = ladder::generate(exercise, seed).unwrap();
            format!("{}/{}", v.numbers["elem"], v.numbers["stride"])
        })
        .collect();
    assert_eq!(drawn, PINNED_DRAWS, "seeded draws changed");
    let distinct: std::collections::BTreeSet<String> = (0..50)
        .map(|s| ladder::generate(exercise, s).unwrap().prompt)
        .collect();
    assert!(distinct.len() > 10, "seeds barely vary the exercise");
}

const PINNED_DRAWS: [&str; 5] = ["4/2", "4/3", "1/1", "2/2", "4/8"];

fn source(path: &str, kind: FileKind, text: &str) -> SourceFile {
    SourceFile {
        path: path.to_string(),
        text: text.to_string(),
        kind,
    }
}

#[test]
fn a_malformed_file_is_reported_at_its_line_and_column() {
    let broken = "Deck(\n  cards: [\n    (id: \"a\", topic: \"banks\", front: \"x\" back: \"y\"),\n  ],\n)\n";
    let loaded = content::load(
        vec![source("content/bad.ron", FileKind::Deck, broken)],
        &Content::builtin().topics,
    );
    assert_eq!(loaded.problems.len(), 1, "{:#?}", loaded.problems);
    let problem = &loaded.problems[0];
    assert_eq!(
        (problem.file.as_str(), problem.line),
        ("content/bad.ron", 3)
    );
    assert_eq!(problem.column, 42, "{problem}");
    assert!(
        problem.message.to_lowercase().contains("comma"),
        "{problem}"
    );
}

#[test]
fn semantic_problems_name_the_item_and_skip_only_it() {
    let deck = "Deck(\n  cards: [\n    (id: \"one\", topic: \"banks\", front: \"f\", back: \"b\"),\n    (id: \"one\", topic: \"banks\", front: \"f\", back: \"b\"),\n    (id: \"two\", topic: \"nope\", front: \"f\", back: \"b\"),\n    (id: \"three\", topic: \"banks\", front: \"f\", back: \"b\", colour: \"red\"),\n  ],\n)\n";
    let loaded = content::load(
        vec![source("content/deck.ron", FileKind::Deck, deck)],
        &Content::builtin().topics,
    );
    // The unknown field makes the whole file unreadable, so check it separately.
    assert_eq!(loaded.problems.len(), 1);
    assert!(
        loaded.problems[0].message.contains("colour"),
        "{}",
        loaded.problems[0]
    );
    assert_eq!(loaded.problems[0].line, 6);

    let deck = deck.replace(", colour: \"red\"", "");
    let loaded = content::load(
        vec![source("content/deck.ron", FileKind::Deck, &deck)],
        &Content::builtin().topics,
    );
    let messages: Vec<String> = loaded.problems.iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(
        messages[0].starts_with("content/deck.ron:4:")
            && messages[0].contains("duplicate card id `one`"),
        "{messages:#?}"
    );
    assert!(
        messages[1].starts_with("content/deck.ron:5:")
            && messages[1].contains("unknown topic `nope`"),
        "{messages:#?}"
    );
    assert_eq!(loaded.cards.len(), 2, "the valid cards are kept");
}

#[test]
fn exercise_mistakes_are_caught_before_a_learner_sees_them() {
    let exercises = r#"Exercises(
  exercises: [
    (
      id: "bad-placeholder", level: L1, topic: "banks", title: "t",
      params: { "s": Choice([1, 2]) },
      prompt: "stride {stride}",
      answer: Number(value: "s"),
      hints: ["a", "b"], explanation: "e",
    ),
    (
      id: "bad-engine", level: L2, topic: "coalescing", title: "t",
      params: { "e": Choice([4, 3]) },
      values: [("sectors", Coalescing(elem: "e", stride: "1", field: Sectors))],
      prompt: "p {e}", answer: Number(value: "sectors"),
      hints: ["a", "b"], explanation: "e",
    ),
    (
      id: "one-hint", level: L2, topic: "coalescing", title: "t",
      prompt: "p", answer: Number(value: "1"),
      hints: ["a"], explanation: "e",
    ),
    (
      id: "fine", level: L2, topic: "coalescing", title: "t",
      prompt: "p", answer: Number(value: "4"),
      hints: ["a", "b"], explanation: "e",
    ),
  ],
)
"#;
    let loaded = content::load(
        vec![source("exercises/x.ron", FileKind::Exercises, exercises)],
        &Content::builtin().topics,
    );
    let messages: Vec<String> = loaded.problems.iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(
        messages[0].starts_with("exercises/x.ron:6:")
            && messages[0].contains("`stride` is not a parameter"),
        "{messages:#?}"
    );
    assert!(
        messages[1].contains("element size") && messages[1].contains("e=3"),
        "{messages:#?}"
    );
    assert!(messages[2].contains("at least two"), "{messages:#?}");
    assert_eq!(
        loaded
            .exercises
            .iter()
            .map(|e| e.id.as_str())
            .collect::<Vec<_>>(),
        vec!["fine"]
    );
}

fn warpdrill(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_warpdrill"))
        .args(args)
        .output()
        .expect("run warpdrill")
}

#[test]
fn content_check_command_reports_counts_and_problems() {
    let ok = warpdrill(&["content", "check", "--json"]);
    assert_eq!(ok.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(report["ok"], true);
    assert!(report["cards"].as_u64().unwrap() >= 100);
    assert!(report["exercises"]["L5"].as_u64().unwrap() >= 10);

    let dir = std::env::temp_dir().join(format!("warpdrill-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("content")).unwrap();
    std::fs::write(
        dir.join("content/cards.ron"),
        "Deck(cards: [ (id: \"x\", topic: \"banks\", front: \"f\") ])",
    )
    .unwrap();
    let bad = warpdrill(&["content", "check", dir.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    let text = String::from_utf8_lossy(&bad.stdout);
    assert!(
        text.contains("cards.ron:1:") && text.contains("back"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_command_grades_with_exit_codes() {
    let right = warpdrill(&[
        "check",
        "l1-sector-size",
        "--seed",
        "1",
        "--answer",
        "32 bytes",
    ]);
    assert_eq!(
        right.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&right.stdout)
    );
    let wrong = warpdrill(&["check", "l1-sector-size", "--seed", "1", "--answer", "128"]);
    assert_eq!(wrong.status.code(), Some(1));
    let text = String::from_utf8_lossy(&wrong.stdout);
    assert!(text.contains("32 B") && text.contains("Why:"), "{text}");
    let unusable = warpdrill(&["check", "l1-sector-size", "--seed", "1", "--answer", "lots"]);
    assert_eq!(unusable.status.code(), Some(2));
    let unknown = warpdrill(&["check", "no-such-exercise", "--answer", "1"]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn preview_json_has_every_exercise() {
    let out = warpdrill(&["content", "preview", "--seed", "5", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let items: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(items.len(), builtin().exercises.len());
    let sector = items.iter().find(|i| i["id"] == "l1-sector-size").unwrap();
    assert_eq!(sector["answer_value"], 32.0);
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("CONTENT.md")
            .exists(),
        "CONTENT.md documents the formats"
    );
}

#[test]
fn drill_cards_name_exercises_that_exist_and_the_engine_grades() {
    let deck = r#"Deck(
  cards: [
    (id: "good-drill", topic: "banks", front: "f", back: "b", drill: "l2-bank-stride"),
    (id: "typo-drill", topic: "banks", front: "f", back: "b", drill: "l2-bank-strid"),
    (id: "explain-drill", topic: "coalescing", front: "f", back: "b", drill: "l3-misalign-cheap"),
    (id: "restarted", topic: "banks", front: "f", back: "b", rev: 2),
  ],
)"#;
    let builtin = builtin();
    let loaded = content::load_with(
        vec![source("content/deck.ron", FileKind::Deck, deck)],
        &builtin.topics,
        &builtin.exercises,
    );
    let messages: Vec<String> = loaded.problems.iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(
        messages[0].starts_with("content/deck.ron:4:")
            && messages[0].contains("drill `l2-bank-strid` is not an exercise id")
            && messages[0].contains("l2-bank-stride"),
        "{messages:#?}"
    );
    assert!(
        messages[1].starts_with("content/deck.ron:5:")
            && messages[1].contains("a drill needs an answer the engine grades"),
        "{messages:#?}"
    );
    let ids: Vec<&str> = loaded.cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["good-drill", "restarted"]);
    assert_eq!(loaded.cards[1].rev, 2);
}

#[test]
fn the_built_in_deck_drills_every_numeric_skill_of_the_ladder() {
    let content = builtin();
    let drilled: Vec<&str> = content
        .cards
        .iter()
        .filter_map(|c| c.drill.as_deref())
        .collect();
    for exercise in [
        "l2-stride-sectors",
        "l2-stride-efficiency",
        "l1-bank-of-address",
        "l2-bank-stride",
        "l3-textbook-vs-hardware",
        "l2-reduction-factor",
        "l2-tiled-intensity",
        "l2-ridge",
    ] {
        assert!(drilled.contains(&exercise), "no drill card for {exercise}");
    }
    for id in drilled {
        let template = content.exercise(id).expect("validated");
        for seed in 0..20 {
            let variant = warpdrill::srs::drill::draw(id, template, seed).unwrap();
            let right = variant.key.typed();
            assert_eq!(
                warpdrill::srs::drill::grade(&variant, &right).outcome,
                Outcome::Correct,
                "{id} seed {seed}"
            );
        }
    }
}
