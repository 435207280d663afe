//! Footer keys: every screen words its keys in every language with a message that exists (a Fluent
//! miss would give back the message's id), and drawing neither changes what is drawn the second
//! time nor the keys a screen offers — the keys depend on the screen's state and the language asked
//! for, nothing else.

use crate::common;

use common::{NOW, app, app_with_review, buffer, press, type_text};
use ratatui::crossterm::event::KeyCode;
use std::collections::HashSet;
use warpdrill::app::{Action, App, Overlay};
use warpdrill::content::Content;
use warpdrill::i18n::Lang;
use warpdrill::lab::{Entry, Lab, LabSession, plan};
use warpdrill::t;
use warpdrill::ui::analyze::AnalyzeSetup;
use warpdrill::ui::{Component, KeyHint, Tab, help};

const LAB: &str = r#"Lab(
  id: "keys",
  title: "Keys lab",
  version: 1,
  secret: "a secret for the tests",
  steps: [Exercise("l2-stride-sectors"), Exercise("l2-bank-stride")],
  points: [10, 7],
  hints: Cost(2),
  show_me: true,
)"#;

/// Every message id of the English messages.
fn message_ids() -> HashSet<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/en");
    let mut ids = HashSet::new();
    for entry in std::fs::read_dir(dir).expect("the English messages") {
        let text = std::fs::read_to_string(entry.expect("a message file").path()).unwrap();
        for line in text.lines() {
            if let Some((id, _)) = line.split_once(" =")
                && !id.is_empty()
                && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            {
                ids.insert(id.to_string());
            }
        }
    }
    assert!(ids.len() > 100, "{} ids", ids.len());
    ids
}

/// Whether `text` looks like a message id (`exercise-key-submit`): what Fluent gives for a miss.
fn looks_like_an_id(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    parts.len() >= 2
        && parts.iter().all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

fn assert_worded(keys: &[KeyHint], ids: &HashSet<String>, what: &str) {
    assert!(!keys.is_empty(), "{what}: no keys");
    for hint in keys {
        assert!(!hint.key.trim().is_empty(), "{what}: a key without a name");
        let action = hint.action.trim();
        assert!(!action.is_empty(), "{what}: `{}` does nothing", hint.key);
        assert!(
            !ids.contains(action) && !looks_like_an_id(action),
            "{what}: `{}` is worded by the unresolved message `{action}`",
            hint.key
        );
    }
}

/// The keys shown now: the overlay's when one is open, else the top screen's — less the keys
/// that scroll a pane, which are shown once a drawing found it overflowing (what a drawing
/// measures, not what it changes).
fn shown_keys(app: &App, lang: Lang) -> Vec<KeyHint> {
    let mut keys = match &app.overlay {
        Some(Overlay::Search(search)) => search.keys(lang),
        Some(Overlay::Help) => help::keys(lang),
        None => app.screen().component().keys(lang),
    };
    keys.retain(|k| k.key != "PgUp/PgDn" || k.action != t!(lang, "scroll-key"));
    keys.retain(|k| k.key != "Tab" || k.action != t!(lang, "exercise-key-pane"));
    keys
}

/// Checks the screen shown in every language: worded keys, and drawing twice gives the same
/// buffer and leaves the keys as they were, whatever language was drawn last.
fn check(app: &mut App, ids: &HashSet<String>, name: &str) {
    let before: Vec<Vec<KeyHint>> = Lang::ALL.iter().map(|&l| shown_keys(app, l)).collect();
    for (&lang, keys) in Lang::ALL.iter().zip(&before) {
        let what = format!("{name} in {lang:?}");
        assert_worded(keys, ids, &what);
        if matches!(app.overlay, Some(Overlay::Help)) {
            assert_worded(&app.global_keys(), ids, &format!("{what}, global keys"));
        }
        app.set_lang(lang);
        for (width, height) in [(80, 24), (100, 30)] {
            let first = buffer(app, width, height);
            let second = buffer(app, width, height);
            assert_eq!(first, second, "{what} at {width}×{height} drawn twice");
        }
        let after: Vec<Vec<KeyHint>> = Lang::ALL.iter().map(|&l| shown_keys(app, l)).collect();
        assert_eq!(before, after, "{what}: drawing changed the keys");
    }
    app.set_lang(Lang::En);
}

#[test]
fn every_screen_words_its_keys_in_every_language_and_drawing_changes_nothing() {
    let ids = message_ids();
    let content = Content::builtin();

    let mut tutor = app();
    check(&mut tutor, &ids, "home");
    tutor.update(Action::OpenLadder(None));
    check(&mut tutor, &ids, "ladder");
    for exercise in ["l1-sector-size", "l2-stride-sectors"] {
        tutor.update(Action::OpenExercise(exercise.into()));
        check(&mut tutor, &ids, &format!("{exercise}, typing"));
        type_text(&mut tutor, "999999");
        press(&mut tutor, KeyCode::Enter);
        check(&mut tutor, &ids, &format!("{exercise}, answered wrong"));
    }
    for exercise in content.exercises.iter().take(40) {
        tutor.update(Action::OpenExercise(exercise.id.clone()));
        check(&mut tutor, &ids, &exercise.id);
    }
    let topic = content.topics[0].id.clone();
    tutor.update(Action::OpenTopic(topic));
    check(&mut tutor, &ids, "topic");
    tutor.update(Action::OpenCard(content.cards[0].id.clone()));
    check(&mut tutor, &ids, "card");
    press(&mut tutor, KeyCode::Char(' '));
    check(&mut tutor, &ids, "card, revealed");
    tutor.update(Action::ReopenExplorer);
    check(&mut tutor, &ids, "explorer");
    for tab in [Tab::Occupancy, Tab::Tiling, Tab::Roofline] {
        tutor.update(Action::OpenCalculators(tab));
        check(&mut tutor, &ids, &format!("calculators {tab:?}"));
    }
    tutor.update(Action::OpenAnalyzeExamples);
    check(&mut tutor, &ids, "analyser examples");
    tutor.update(Action::AnalyzeKernel(Box::new(
        AnalyzeSetup::example("matmul_naive").expect("a built-in example"),
    )));
    check(&mut tutor, &ids, "analyser");
    tutor.update(Action::OpenSearch);
    check(&mut tutor, &ids, "search");
    tutor.update(Action::CloseOverlay);
    tutor.update(Action::ToggleHelp);
    check(&mut tutor, &ids, "help");

    let (mut reviewing, _clock) = app_with_review();
    reviewing.update(Action::OpenReview);
    check(&mut reviewing, &ids, "review, front");
    press(&mut reviewing, KeyCode::Char(' '));
    check(&mut reviewing, &ids, "review, back");
    reviewing.update(Action::OpenStats);
    check(&mut reviewing, &ids, "stats");

    let lab = Lab::parse("keys.ron", LAB).expect("a valid lab");
    let student = Entry {
        student: "amy".into(),
        ..Entry::default()
    };
    let items = plan(&lab, &content, &student, "keys.ron", LAB).expect("a plan");
    let mut lab_app = app();
    lab_app.start_lab(LabSession::in_memory(lab, student, items, NOW));
    check(&mut lab_app, &ids, "lab overview");
    lab_app.update(Action::LabOpen(0));
    check(&mut lab_app, &ids, "lab step");
    lab_app.update(Action::LabSubmit);
    check(&mut lab_app, &ids, "lab handed in");
}

#[test]
fn an_id_is_told_from_words() {
    assert!(looks_like_an_id("exercise-key-submit"));
    assert!(looks_like_an_id("common-key-back"));
    assert!(!looks_like_an_id("back"));
    assert!(!looks_like_an_id("new numbers"));
    assert!(!looks_like_an_id("field, value"));
    assert!(!looks_like_an_id("다시"));
}
