//! The offline lab's smaller defects: the hand-in question and Esc, `g` once time is up, a draw that
//! can repeat a fixed step, `lab check` pointing past comments, a report over a folder with
//! unreadable entries, and rosters without a header or with comments.

use crate::common::{NOW, press, type_text, warpdrill};
use ratatui::crossterm::event::KeyCode;
use std::sync::Arc;
use warpdrill::app::{App, Screen};
use warpdrill::clock::FakeClock;
use warpdrill::content::Content;
use warpdrill::lab::{Entry, Lab, LabSession, plan};
use warpdrill::progress::Progress;
use warpdrill::ui::Theme;

const TIMED: &str = r#"Lab(
  id: "timed", title: "Timed", version: 1, secret: "a secret for the tests",
  steps: [Exercise("l2-stride-sectors"), Exercise("l2-bank-stride")],
  points: [10], time_limit: 1,
)"#;

fn app(clock: Arc<FakeClock>) -> App {
    let lab = Lab::parse("t.ron", TIMED).unwrap();
    let student = Entry {
        student: "amy".into(),
        ..Entry::default()
    };
    let content = Content::builtin();
    let items = plan(&lab, &content, &student, "t.ron", TIMED).unwrap();
    let mut app = App::new(
        content,
        Progress::default(),
        None,
        Theme::new(false),
        clock,
        Box::new(|| 3),
    );
    app.start_lab(LabSession::in_memory(lab, student, items, NOW));
    app
}

#[test]
fn esc_at_the_hand_in_question_cancels_it_and_keeps_the_tutor_open() {
    let mut app = app(Arc::new(FakeClock::at_secs(NOW)));
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Esc);
    assert!(
        !app.quit,
        "Esc answered the question; it does not end the tutor"
    );
    assert!(app.lab.as_ref().unwrap().tally.submitted.is_none());
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Char('s'));
    assert!(app.lab.as_ref().unwrap().tally.submitted.is_some());
}

#[test]
fn once_time_is_up_g_on_a_step_goes_to_the_overview_instead_of_typing() {
    let clock = Arc::new(FakeClock::at_secs(NOW));
    let mut app = app(Arc::clone(&clock));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.stack.last(), Some(Screen::LabStep(_))));
    type_text(&mut app, "1");
    clock.advance_secs(61);
    press(&mut app, KeyCode::Char('g'));
    assert!(
        matches!(app.stack.last(), Some(Screen::LabOverview(_))),
        "g goes to the overview to hand in"
    );
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn a_draw_never_repeats_a_fixed_step_and_lab_check_counts_what_is_left() {
    let dir = tempfile::tempdir().unwrap();
    let lab = write(
        dir.path(),
        "l.ron",
        r#"// l2-bank-stride is step 1; the draw below is about "banks" too
Lab(id: "rep", title: "Rep", version: 1, secret: "a secret for the tests",
  steps: [Exercise("l2-bank-stride"), Draw(count: 1, topic: "banks", level: L2)],
  points: [10])"#,
    );
    let out = warpdrill().args(["lab", "check", &lab]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let parsed = Lab::parse("l.ron", &std::fs::read_to_string(&lab).unwrap()).unwrap();
    let content = Content::builtin();
    for i in 0..40 {
        let student = Entry {
            student: format!("s{i}"),
            ..Entry::default()
        };
        let text = std::fs::read_to_string(&lab).unwrap();
        let items = plan(&parsed, &content, &student, "l.ron", &text).unwrap();
        assert_ne!(
            items[1].exercise, "l2-bank-stride",
            "{student:?} got it twice"
        );
    }
    // A draw that the fixed steps leave too small is an error, placed at the draw.
    let pool = warpdrill::lab::plan::pool(&content, "banks", warpdrill::content::schema::Level::L2);
    let steps: Vec<String> = pool.iter().map(|id| format!("Exercise({id:?})")).collect();
    let tight = write(
        dir.path(),
        "t.ron",
        &format!(
            "// a draw of \"banks\" below\nLab(id: \"t\", title: \"T\", version: 1, secret: \"a secret for the tests\",\n  steps: [{}, Draw(count: 1, topic: \"banks\", level: L2)], points: [10])",
            steps.join(", ")
        ),
    );
    let out = warpdrill().args(["lab", "check", &tight]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("besides those the other steps give"))
        .unwrap_or_else(|| panic!("no error: {text}"));
    assert!(
        line.contains("t.ron:3:"),
        "pointed at the draw, not the comment: {line}"
    );
}

#[test]
fn a_report_over_a_folder_skips_what_it_cannot_read_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let lab = write(dir.path(), "l.ron", TIMED);
    let results = dir.path().join("results");
    std::fs::create_dir(&results).unwrap();
    std::fs::create_dir(results.join("odd.jsonl")).unwrap();
    std::os::unix::fs::symlink(results.join("gone"), results.join("dangling.jsonl")).unwrap();
    let out = warpdrill()
        .args(["lab", "report", &lab])
        .arg(&results)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("skipped") && err.contains("odd.jsonl"),
        "{err}"
    );
    assert!(err.contains("dangling.jsonl"), "{err}");
}

#[test]
fn a_roster_rewrite_keeps_comments_and_a_first_student_named_student() {
    let dir = tempfile::tempdir().unwrap();
    let roster = write(
        dir.path(),
        "r.csv",
        "# class of 2026\nstudent-1,0,\nstudent-2,0,\n",
    );
    let out = warpdrill()
        .args(["lab", "roster", &roster, "--add", "amy"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&roster).unwrap();
    assert!(text.contains("# class of 2026"), "{text}");
    assert!(text.contains("\nstudent-1,0,\n"), "{text}");
    assert!(text.contains("\namy,0,\n"), "{text}");
}

/// Time-up hands the lab in, at the deadline, as a served lab does: the end screen shows the
/// receipt without a key being pressed.
#[test]
fn time_up_hands_the_lab_in_without_a_key() {
    let clock = Arc::new(FakeClock::at_secs(NOW));
    let mut app = app(Arc::clone(&clock));
    press(&mut app, KeyCode::Enter);
    clock.advance_secs(59);
    app.poll_work();
    assert!(app.lab.as_ref().unwrap().tally.submitted.is_none());
    clock.advance_secs(30);
    app.poll_work();
    let lab = app.lab.as_ref().unwrap();
    assert_eq!(
        lab.tally.submitted,
        Some(NOW + 60),
        "handed in at the deadline"
    );
    assert!(lab.receipt.is_some());
    assert!(matches!(app.stack.last(), Some(Screen::LabEnd(_))));
    assert!(
        app.flash.as_deref().unwrap_or("").contains("Time is up"),
        "{:?}",
        app.flash
    );
}
