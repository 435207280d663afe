//! Nothing is cut off: at 80×24 a long worked explanation, help, a lab step and the statistics
//! scroll to their last line; an explanation is typed on several lines and reaches the grader
//! whole; asking for a hint after the last one is answered.

use crate::common::{NOW, app, app_with_review, press, press_with, screen, type_text};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use warpdrill::app::{Action, App, Screen};
use warpdrill::content::Content;
use warpdrill::i18n::Lang;
use warpdrill::lab::{Entry, Lab, LabSession, plan};
use warpdrill::ladder::Given;
use warpdrill::progress::Progress;
use warpdrill::ui::Theme;

/// The text on screen as one paragraph: borders and the row breaks of wrapping taken out, so a
/// sentence wrapped over rows reads whole.
fn prose(screen: &str) -> String {
    screen
        .lines()
        .map(|row| row.trim_matches(|c: char| "│┌┐└┘├┤─ ".contains(c)))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn footer(screen: &str) -> &str {
    screen.lines().last().unwrap_or_default()
}

fn exercise_state(app: &App) -> &warpdrill::ui::exercise::State {
    match app.screen() {
        Screen::Exercise(state) => state,
        Screen::LabStep(step) => &step.exercise,
        other => panic!("not an exercise: {other:?}"),
    }
}

/// The exercise with one of the longest worked explanations among those answered with one number.
const LONG: &str = "l2-block-limit";

/// The last sentence of its worked explanation.
const LAST_SENTENCE: &str = "128 or more threads per block keep the block limit out of the way.";

/// The last words of `text`, as [`prose`] reads them.
fn last_words(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words[words.len().saturating_sub(n)..].join(" ")
}

/// Presses PgDn until the screen at 80×24 shows `end` (at most 20 times); the screens before and
/// after.
fn page_down_to(tutor: &mut App, end: &str) -> (String, String) {
    let first = screen(tutor, 80, 24);
    let mut shown = first.clone();
    for _ in 0..20 {
        if prose(&shown).contains(end) {
            break;
        }
        press(tutor, KeyCode::PageDown);
        shown = screen(tutor, 80, 24);
    }
    (first, shown)
}

fn worked_end(tutor: &App) -> String {
    let state = exercise_state(tutor);
    assert!(state.explanation_shown());
    last_words(&state.variant().expect("a variant").explanation, 14)
}

#[test]
fn a_long_worked_explanation_is_read_to_its_end_with_pgdn_at_80x24() {
    // An explanation answered, compared with the model answer and marked "missed it": the model
    // answer and the worked explanation together are far taller than the feedback pane.
    let mut tutor = app();
    tutor.update(Action::OpenExercise("l3-stride-model-vs-h200".into()));
    type_text(&mut tutor, "32");
    press(&mut tutor, KeyCode::Enter);
    type_text(&mut tutor, "no idea");
    press(&mut tutor, KeyCode::Enter);
    press(&mut tutor, KeyCode::Char('n'));
    let explain = if exercise_state(&tutor).typing() {
        KeyModifiers::CONTROL
    } else {
        KeyModifiers::NONE
    };
    press_with(&mut tutor, KeyCode::Char('e'), explain);
    let end = worked_end(&tutor);
    let (first, shown) = page_down_to(&mut tutor, &end);
    assert!(
        !prose(&first).contains(&end),
        "the worked explanation does not fit at 80×24:\n{first}"
    );
    assert!(
        first.contains("more · PgDn"),
        "what is hidden is marked:\n{first}"
    );
    assert!(
        footer(&first).contains("PgUp/PgDn scroll"),
        "the footer offers scrolling:\n{first}"
    );
    assert_eq!(
        exercise_state(&tutor).id(),
        "l3-stride-model-vs-h200",
        "PgDn scrolls, it does not move on"
    );
    assert!(
        prose(&shown).contains(&end),
        "the worked explanation is read to its last words `{end}`:\n{shown}"
    );
    assert!(shown.contains("↑"), "the rows above are marked:\n{shown}");
    assert!(
        !shown
            .lines()
            .any(|row| row.ends_with("┘│") && row.contains("more")),
        "nothing is left below the feedback:\n{shown}"
    );
    // Back to the top with PgUp.
    for _ in 0..20 {
        press(&mut tutor, KeyCode::PageUp);
    }
    assert_eq!(screen(&tutor, 80, 24), first);
}

#[test]
fn the_longest_worked_explanation_is_read_to_its_end_in_every_language() {
    for lang in Lang::ALL {
        let mut tutor = app();
        tutor.set_lang(lang);
        tutor.update(Action::OpenExercise(LONG.into()));
        // Wrong twice, with both hints and "simply" open, then the worked explanation.
        for _ in 0..2 {
            type_text(&mut tutor, "1%");
            press(&mut tutor, KeyCode::Enter);
        }
        for c in ['t', 't', 'y', 'e'] {
            press_with(&mut tutor, KeyCode::Char(c), KeyModifiers::CONTROL);
        }
        let end = worked_end(&tutor);
        let (_, shown) = page_down_to(&mut tutor, &end);
        assert!(
            prose(&shown).contains(&end),
            "{lang:?}: the worked explanation is read to its last words `{end}`:\n{shown}"
        );
        // Typing goes on meanwhile, and Ctrl-N moves on.
        type_text(&mut tutor, "4");
        assert_eq!(exercise_state(&tutor).input().text(), "4");
        assert_eq!(
            tutor.handle_key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL)),
            Some(Action::Step {
                id: LONG.into(),
                by: 1
            })
        );
    }
}

#[test]
fn a_two_line_explanation_reaches_the_grader_with_both_lines() {
    let mut tutor = app();
    tutor.update(Action::OpenExercise("l3-stride-model-vs-h200".into()));
    // The exact part first: the sectors at stride 32.
    type_text(&mut tutor, "32");
    press(&mut tutor, KeyCode::Enter);
    let asked = screen(&tutor, 80, 24);
    assert!(
        footer(&asked).contains("^J new line"),
        "the footer says how to start a line:\n{asked}"
    );
    type_text(&mut tutor, "each lane fetches its own 32-byte sector");
    press_with(&mut tutor, KeyCode::Char('j'), KeyModifiers::CONTROL);
    type_text(
        &mut tutor,
        "and the stride-1 kernel was not bandwidth-bound",
    );
    let typing = screen(&tutor, 80, 24);
    let first = typing
        .lines()
        .position(|row| row.contains("each lane fetches"))
        .expect("the first line shown");
    assert!(
        typing
            .lines()
            .nth(first + 1)
            .unwrap_or_default()
            .contains("and the stride-1 kernel"),
        "the second line is on the row below:\n{typing}"
    );
    press(&mut tutor, KeyCode::Enter);
    let state = exercise_state(&tutor);
    match state.attempt().last_given() {
        Some(Given::Explained { text, .. }) => assert_eq!(
            text,
            "each lane fetches its own 32-byte sector\nand the stride-1 kernel was not bandwidth-bound"
        ),
        other => panic!("an explanation was given: {other:?}"),
    }
    let found = &state.attempt().feedback().expect("graded").ideas_found;
    assert_eq!(found.len(), 2, "an idea from each line: {found:?}");
}

#[test]
fn hints_count_down_in_the_footer_and_running_out_is_said() {
    let mut tutor = app();
    tutor.update(Action::OpenExercise("l1-sector-size".into()));
    let hints = exercise_state(&tutor)
        .variant()
        .map_or(0, |v| v.hints.len());
    assert_eq!(hints, 2);
    assert!(footer(&screen(&tutor, 80, 24)).contains("^T hint 1/2"));
    press_with(&mut tutor, KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert!(footer(&screen(&tutor, 80, 24)).contains("^T hint 2/2"));
    press_with(&mut tutor, KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert!(footer(&screen(&tutor, 80, 24)).contains("^T no hints left"));
    press_with(&mut tutor, KeyCode::Char('t'), KeyModifiers::CONTROL);
    let after = screen(&tutor, 80, 24);
    assert!(
        prose(&after).contains("Every hint is already shown"),
        "asking once more is answered:\n{after}"
    );
}

fn lab_app(text: &str) -> App {
    let lab = Lab::parse("lab.ron", text).expect("a valid lab");
    let student = Entry {
        student: "alice".to_string(),
        ..Entry::default()
    };
    let items = plan(&lab, &Content::builtin(), &student, "lab.ron", text).expect("a plan");
    let mut app = App::new(
        Content::builtin(),
        Progress::default(),
        None,
        Theme::new(false),
        std::sync::Arc::new(warpdrill::clock::FakeClock::at_secs(NOW)),
        Box::new(|| 3),
    );
    app.start_lab(LabSession::in_memory(lab, student, items, NOW));
    app
}

#[test]
fn a_lab_step_scrolls_its_explanation_and_says_when_hints_run_out() {
    let mut lab = lab_app(
        r#"Lab(id: "long", title: "Long", version: 1, secret: "a secret for the tests",
           steps: [Exercise("l2-block-limit"), Exercise("l1-sector-size")], points: [10, 5],
           hints: Allowed)"#,
    );
    press(&mut lab, KeyCode::Enter);
    for _ in 0..3 {
        press_with(&mut lab, KeyCode::Char('t'), KeyModifiers::CONTROL);
    }
    let hinted = screen(&lab, 60, 20);
    assert!(
        hinted.contains("Every hint of this step is already shown."),
        "{hinted}"
    );
    for _ in 0..2 {
        type_text(&mut lab, "1%");
        press(&mut lab, KeyCode::Enter);
    }
    press(&mut lab, KeyCode::Char('e'));
    let mut shown = screen(&lab, 60, 20);
    assert!(footer(&shown).contains("PgUp/PgDn scroll"), "{shown}");
    for _ in 0..20 {
        if prose(&shown).contains(LAST_SENTENCE) {
            break;
        }
        press(&mut lab, KeyCode::PageDown);
        shown = screen(&lab, 60, 20);
    }
    assert!(prose(&shown).contains(LAST_SENTENCE), "{shown}");
    assert_eq!(exercise_state(&lab).id(), LONG, "still step 1");
    press(&mut lab, KeyCode::Char('n'));
    assert_eq!(
        exercise_state(&lab).id(),
        "l1-sector-size",
        "n moves to step 2"
    );
}

#[test]
fn help_and_statistics_scroll_to_their_last_line() {
    let mut tutor = app();
    tutor.update(Action::OpenExercise("l2-stride-sectors".into()));
    press(&mut tutor, KeyCode::F(1));
    // The smallest terminal drawn.
    let help = screen(&tutor, 60, 20);
    assert!(help.contains("more · PgDn"), "{help}");
    assert!(footer(&help).contains("PgUp/PgDn scroll"), "{help}");
    assert!(!help.contains("Ctrl-C"), "the last key is below:\n{help}");
    press(&mut tutor, KeyCode::End);
    let end = screen(&tutor, 60, 20);
    assert!(end.contains("Ctrl-C"), "{end}");

    let (mut reviewing, _clock) = app_with_review();
    reviewing.update(Action::OpenStats);
    let last_topic = reviewing
        .content
        .topics
        .last()
        .map(|t| t.name.clone())
        .expect("topics");
    for (width, height) in [(80, 24), (100, 30)] {
        press(&mut reviewing, KeyCode::Home);
        let top = screen(&reviewing, width, height);
        assert!(!top.contains(&last_topic), "{width}×{height}:\n{top}");
        assert!(footer(&top).contains("PgUp/PgDn scroll"), "{top}");
        press(&mut reviewing, KeyCode::End);
        let end = screen(&reviewing, width, height);
        assert!(end.contains(&last_topic), "{width}×{height}:\n{end}");
        assert!(end.contains("↑"), "{end}");
    }
}
