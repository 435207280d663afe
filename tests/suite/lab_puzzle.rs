//! A lab step that is a kernel puzzle, offline: the starter written beside the results, the file
//! checked on every save without counting, Enter handing in the file as it is (one attempt), the
//! reference shown once solved, and the report checking every kernel handed in again.

use crate::common::{NOW, press, screen, warpdrill};
use crate::lab_served::NAIVE_TRANSPOSE;
use ratatui::crossterm::event::KeyCode;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use warpdrill::app::App;
use warpdrill::clock::FakeClock;
use warpdrill::content::Content;
use warpdrill::i18n::Lang;
use warpdrill::lab::task::{Verdict, grade_kernel};
use warpdrill::lab::{Entry, Lab, LabSession, plan};
use warpdrill::ladder::Outcome;
use warpdrill::progress::Progress;
use warpdrill::ui::Theme;

const LAB: &str = r#"Lab(
  id: "kernels", title: "Kernels", version: 1, secret: "a secret for the tests",
  steps: [Puzzle("transpose", points: 20)],
  points: [10, 7, 5],
)"#;

fn session(dir: &Path, student: &str) -> LabSession {
    let lab = Lab::parse("lab.ron", LAB).unwrap();
    let entry = Entry {
        student: student.into(),
        ..Entry::default()
    };
    let items = plan(&lab, &Content::builtin(), &entry, "lab.ron", LAB).unwrap();
    assert!(items[0].puzzle);
    LabSession::start(lab, entry, items, dir, NOW).unwrap().0
}

/// Polls the app until step 1 has `attempts` attempts (a check runs on a worker thread).
fn until_attempts(app: &mut App, attempts: u32) {
    let start = Instant::now();
    while app.lab.as_ref().unwrap().tally.steps[0].attempts < attempts {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no attempt was booked: {}",
            screen(app, 120, 40)
        );
        std::thread::sleep(Duration::from_millis(50));
        app.poll_work();
    }
}

/// Writes `text` to `path` so its modification time differs from the last one seen.
fn save(path: &Path, text: &str) {
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_puzzle_step_hands_in_the_saved_file_and_shows_the_reference_once_solved() {
    let root = tempfile::tempdir().unwrap();
    let results = root.path().join("results");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(root.path().join("lab.ron"), LAB).unwrap();
    let mut app = App::new(
        Content::builtin(),
        Progress::default(),
        None,
        Theme::new(false),
        Arc::new(FakeClock::at_secs(NOW + 10)),
        Box::new(|| 3),
    );
    app.start_lab(session(&results, "amy"));
    press(&mut app, KeyCode::Enter);
    // The starter is written beside the results, in the student's own folder.
    let file = results.join("kernels-amy-kernels").join("transpose.cu");
    let starter = std::fs::read_to_string(&file).expect("the starter is written");
    assert!(starter.contains("__global__ void transpose"), "{starter}");
    let shown = screen(&app, 120, 40);
    assert!(shown.contains("kernels-amy-kernels"), "{shown}");
    assert!(shown.contains("hand in the file"), "{shown}");
    assert!(
        shown.contains("The reference solution opens when this step is done"),
        "{shown}"
    );
    // The naive kernel: handed in, correct, but its stores are not coalesced.
    save(&file, NAIVE_TRANSPOSE);
    press(&mut app, KeyCode::Enter);
    until_attempts(&mut app, 1);
    let step = &app.lab.as_ref().unwrap().tally.steps[0];
    assert!(!step.solved);
    let shown = screen(&app, 120, 40);
    assert!(shown.contains("[missed] sectors per request"), "{shown}");
    assert!(shown.contains("2 attempts left"), "{shown}");
    // The reference solves it at the second attempt: 7 of 10 on a 20-point step.
    let reference = warpdrill::puzzle::find("transpose", Lang::En)
        .unwrap()
        .reference;
    save(&file, &reference);
    press(&mut app, KeyCode::Enter);
    until_attempts(&mut app, 2);
    let step = &app.lab.as_ref().unwrap().tally.steps[0];
    assert!(step.solved);
    assert_eq!(step.points, 14);
    let shown = screen(&app, 120, 60);
    assert!(shown.contains("Reference solution"), "{shown}");
    assert!(shown.contains("solved · 14 pts"), "{shown}");
    drop(app);
    // The report checks both kernels again and agrees.
    let out = warpdrill()
        .args(["lab", "report"])
        .arg(root.path().join("lab.ron"))
        .arg(&results)
        .arg("--json")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(rows[0]["total"], 14, "{text}");
    assert_eq!(
        rows[0]["flags"].as_array().unwrap().len(),
        1,
        "only `not handed in`: {text}"
    );
}

#[test]
fn the_report_checks_a_handed_in_kernel_again_and_flags_a_forged_verdict() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path();
    std::fs::write(dir.join("lab.ron"), LAB).unwrap();
    let p = warpdrill::puzzle::find("transpose", Lang::En).unwrap();
    let honest = grade_kernel(&p, NAIVE_TRANSPOSE, Lang::En);
    assert_eq!(honest.outcome, Outcome::Wrong);
    assert_eq!(
        honest.note.as_deref(),
        Some("missed sectors_per_request time_ms")
    );
    // A results file that says the naive kernel solved it.
    let forged = Verdict {
        outcome: Outcome::Correct,
        ..honest
    };
    let mut lab = session(dir, "bo");
    lab.kernel(0, NAIVE_TRANSPOSE, &forged, 30, NOW + 30)
        .unwrap();
    lab.submit(NOW + 40).unwrap();
    drop(lab);
    let out = warpdrill()
        .args(["lab", "report"])
        .arg(dir.join("lab.ron"))
        .arg(dir)
        .arg("--json")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(rows[0]["total"], 0, "graded again, it is wrong: {text}");
    let flags = rows[0]["flags"].to_string();
    assert!(
        flags.contains("recorded as correct, grades as wrong (a kernel of 8 lines)"),
        "{flags}"
    );
    assert!(
        !flags.contains("__global__"),
        "the kernel is not printed: {flags}"
    );
    // Not a kernel at all is not an answer: refused, nothing written.
    let mut lab = LabSession::start(
        Lab::parse("lab.ron", LAB).unwrap(),
        Entry {
            student: "cy".into(),
            ..Entry::default()
        },
        plan(
            &Lab::parse("lab.ron", LAB).unwrap(),
            &Content::builtin(),
            &Entry {
                student: "cy".into(),
                ..Entry::default()
            },
            "lab.ron",
            LAB,
        )
        .unwrap(),
        dir,
        NOW,
    )
    .unwrap()
    .0;
    let junk = grade_kernel(&p, "   ", Lang::En);
    assert_eq!(junk.outcome, Outcome::Unusable);
    assert!(lab.kernel(0, "   ", &junk, 1, NOW + 1).is_err());
    assert_eq!(lab.tally.steps[0].attempts, 0);
}

#[test]
fn a_puzzle_step_names_an_unknown_puzzle_where_it_is_written() {
    let root = tempfile::tempdir().unwrap();
    let path = root.path().join("lab.ron");
    std::fs::write(&path, LAB.replace("\"transpose\"", "\"transpos\"")).unwrap();
    let out = warpdrill()
        .args(["lab", "check"])
        .arg(&path)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("lab.ron:3:18: unknown puzzle `transpos`"),
        "{text}"
    );
}

#[test]
fn the_sample_lab_with_kernel_puzzles_checks_clean() {
    let lab = concat!(env!("CARGO_MANIFEST_DIR"), "/labs/write-a-kernel.ron");
    let out = warpdrill().args(["lab", "check", lab]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("4 steps, 0 errors, 0 warnings"), "{text}");
}
