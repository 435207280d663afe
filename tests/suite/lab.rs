//! Lab sessions: per-student variants (pinned), the tutor in lab mode and its locks, results files
//! and what the report makes of them when they are intact, edited or cut off, screen snapshots, and
//! a lab worked through the real binary in tmux.

use crate::common;

use crate::common::tmux::{self, Tmux, cannot_run};
use common::{NOW, press, press_with, screen, type_text};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use std::path::{Path, PathBuf};
use warpdrill::app::{App, Screen};
use warpdrill::content::Content;
use warpdrill::lab::report::{Input, Row, report};
use warpdrill::lab::{Entry, Given, Lab, LabSession, Roster, plan};
use warpdrill::ladder::{Outcome, generate};
use warpdrill::progress::Progress;
use warpdrill::ui::Theme;

const SAMPLE: &str = include_str!("../../labs/coalescing-and-banks.ron");

/// A small lab: three numeric steps, locked order, hints cost 2, no time limit.
const SMALL: &str = r#"Lab(
  id: "small",
  title: "Small lab",
  version: 1,
  secret: "a secret for the tests",
  steps: [Exercise("l2-stride-sectors"), Exercise("l2-bank-stride"), Exercise("l2-tile-smem")],
  points: [10, 7, 5],
  hints: Cost(2),
)"#;

fn lab(text: &str) -> Lab {
    Lab::parse("lab.ron", text).expect("a valid lab")
}

fn student(id: &str) -> Entry {
    Entry {
        student: id.to_string(),
        ..Entry::default()
    }
}

fn items(text: &str, id: &str) -> Vec<warpdrill::lab::Item> {
    plan(
        &lab(text),
        &Content::builtin(),
        &student(id),
        "lab.ron",
        text,
    )
    .expect("a plan")
}

/// The answer a student who knows it would type for step `index` (0-based).
fn right_answer(text: &str, id: &str, index: usize) -> String {
    let item = &items(text, id)[index];
    let content = Content::builtin();
    let template = content.exercise(&item.exercise).unwrap();
    generate(template, item.seed).unwrap().key.typed()
}

fn lab_app(session: LabSession) -> App {
    let mut app = App::new(
        Content::builtin(),
        Progress::default(),
        None,
        Theme::new(false),
        std::sync::Arc::new(warpdrill::clock::FakeClock::at_secs(NOW)),
        Box::new(|| 3),
    );
    app.start_lab(session);
    app
}

fn in_memory(text: &str, id: &str) -> App {
    lab_app(LabSession::in_memory(
        lab(text),
        student(id),
        items(text, id),
        NOW,
    ))
}

// ---------------------------------------------------------------------------------------------
// Variants

#[test]
fn variants_are_pinned() {
    let alice = items(SAMPLE, "alice");
    let summary: Vec<(usize, &str, u64)> = alice
        .iter()
        .map(|i| (i.step, i.exercise.as_str(), i.seed))
        .collect();
    assert_eq!(
        summary,
        vec![
            (1, "l2-stride-sectors", 11904461613804273744),
            (2, "l2-partial-warp", 10462047656590746310),
            (3, "l2-stride-efficiency", 7370056200372762331),
            (4, "l2-bank-stride", 7140566095802758879),
            (5, "l3-opencl-local-tile", 8696799500644399932),
            (6, "l3-wide-conflicts", PINNED_STEP_6),
        ]
    );
    // Same input, same plan: every run, every machine.
    assert_eq!(alice, items(SAMPLE, "alice"));
}

const PINNED_STEP_6: u64 = 5898810464340116901;

#[test]
fn different_students_get_different_variants() {
    let content = Content::builtin();
    let students: Vec<String> = (0..20).map(|i| format!("student{i}")).collect();
    let mut seeds = std::collections::BTreeSet::new();
    let mut prompts = std::collections::BTreeSet::new();
    for id in &students {
        let item = &items(SAMPLE, id)[0];
        seeds.insert(item.seed);
        let template = content.exercise(&item.exercise).unwrap();
        prompts.insert(generate(template, item.seed).unwrap().prompt);
    }
    assert_eq!(seeds.len(), 20, "every student has their own seed");
    assert!(
        prompts.len() >= 10,
        "numbers differ: {} prompts",
        prompts.len()
    );
    // A re-roll gives the student new numbers for that step only.
    let mut rerolled = student("alice");
    rerolled.rerolls = vec![2];
    let lab = lab(SAMPLE);
    let again = plan(&lab, &content, &rerolled, "lab.ron", SAMPLE).unwrap();
    let before = items(SAMPLE, "alice");
    assert_eq!(again[0], before[0]);
    assert_ne!(again[1].seed, before[1].seed);
    assert_eq!(again[1].roll, 1);
}

// ---------------------------------------------------------------------------------------------
// The tutor in lab mode

#[test]
fn a_locked_lab_cannot_be_left_through_search_or_unlock() {
    let mut app = in_memory(SMALL, "alice");
    press(&mut app, KeyCode::Char('/'));
    assert!(app.overlay.is_none(), "search stays closed");
    assert_eq!(
        app.flash.as_deref(),
        Some("Search is closed during the lab.")
    );
    press_with(&mut app, KeyCode::Char('p'), KeyModifiers::CONTROL);
    assert!(app.overlay.is_none());
    press(&mut app, KeyCode::Char('u'));
    assert!(
        app.flash
            .as_deref()
            .unwrap()
            .contains("Unlocking is closed")
    );
    assert!(!app.progress.unlock_all);
    // Step 2 is locked until step 1 is done.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::LabOverview(_)));
    assert!(app.flash.as_deref().unwrap().contains("opens when"));
    // In a step: new numbers are refused, `g` goes back to the overview, not Home.
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::LabStep(_)));
    press_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let text = screen(&app, 80, 24);
    assert!(text.contains("New numbers are closed in a lab"), "{text}");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('g'));
    assert!(matches!(app.screen(), Screen::LabOverview(_)));
    assert_eq!(app.stack.len(), 1);
    let text = screen(&app, 80, 24);
    assert!(text.contains("Small lab · alice · step 1/3"), "{text}");
    assert!(!text.contains("GPU memory performance, seen and computed"));
    // Help lists no search, and `g` as the way back to the overview.
    press(&mut app, KeyCode::Char('?'));
    let help = screen(&app, 80, 24);
    assert!(help.contains("the lab's overview"), "{help}");
    assert!(!help.contains("search exercises"), "{help}");
}

#[test]
fn attempts_points_and_hints_follow_the_lab_rules() {
    let mut app = in_memory(SMALL, "alice");
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "999999");
    press(&mut app, KeyCode::Enter);
    let text = screen(&app, 80, 24);
    assert!(
        text.contains("Not right. 2 attempts left, for up to 7 pts."),
        "{text}"
    );
    assert!(
        !text.contains("the answer is"),
        "a wrong answer with attempts left does not give the answer away:\n{text}"
    );
    press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    type_text(&mut app, &right_answer(SMALL, "alice", 0));
    press(&mut app, KeyCode::Enter);
    let session = app.lab.as_ref().unwrap();
    let step = &session.tally.steps[0];
    assert!(step.solved);
    assert_eq!((step.attempts, step.hints, step.points), (2, 1, 5));
    // Enter moves on to step 2, which is now open.
    press(&mut app, KeyCode::Enter);
    match app.screen() {
        Screen::LabStep(step) => assert_eq!(step.index, 1),
        other => panic!("expected step 2, got {other:?}"),
    }
}

#[test]
fn exam_mode_hides_right_and_wrong_until_hand_in() {
    let text = SMALL.replace("hints: Cost(2),", "hints: Off, feedback: AtEnd,");
    let mut app = in_memory(&text, "alice");
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "999999");
    press(&mut app, KeyCode::Enter);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Answer recorded"), "{shown}");
    assert!(
        !shown.contains("Not right") && !shown.contains("Correct"),
        "{shown}"
    );
    assert!(shown.contains("1/3 answered"), "{shown}");
    press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert!(screen(&app, 80, 24).contains("Hints are off in this lab."));
    press(&mut app, KeyCode::Char('g'));
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Char('s'));
    assert!(matches!(app.screen(), Screen::LabEnd(_)));
    let end = screen(&app, 80, 24);
    assert!(end.contains("Score 0/30 pts"), "{end}");
    assert!(end.contains("Receipt"), "{end}");
}

// ---------------------------------------------------------------------------------------------
// Results files and the report

/// Alice works the small lab into `dir`: step 1 wrong then right with a hint, step 2 right, step 3
/// wrong three times; then hands in. Returns her results file.
fn alice_works(dir: &Path) -> PathBuf {
    let lab = lab(SMALL);
    let (mut session, notices) =
        LabSession::start(lab, student("alice"), items(SMALL, "alice"), dir, NOW).unwrap();
    assert!(notices.is_empty());
    let text = |s: &str| Given::Text(s.to_string());
    session
        .attempt(0, "999999", text("999999"), Outcome::Wrong, 30, NOW + 30)
        .unwrap();
    session.hint(0, NOW + 40).unwrap();
    let right = right_answer(SMALL, "alice", 0);
    session
        .attempt(0, &right, text(&right), Outcome::Correct, 20, NOW + 60)
        .unwrap();
    let right = right_answer(SMALL, "alice", 1);
    session
        .attempt(1, &right, text(&right), Outcome::Correct, 40, NOW + 100)
        .unwrap();
    for n in 0..3 {
        session
            .attempt(2, "1 B", text("1 B"), Outcome::Wrong, 10, NOW + 110 + n)
            .unwrap();
    }
    session.submit(NOW + 200).unwrap();
    session.results.clone().unwrap()
}

fn report_of(paths: &[&Path], roster: &Roster) -> Vec<Row> {
    let inputs: Vec<Input> = paths
        .iter()
        .map(|p| Input {
            path: p.display().to_string(),
            text: std::fs::read_to_string(p).unwrap(),
        })
        .collect();
    report(
        &lab(SMALL),
        "lab.ron",
        SMALL,
        &Content::builtin(),
        roster,
        &inputs,
    )
    .unwrap()
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(
        path,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
}

#[test]
fn an_intact_results_file_reports_cleanly_and_merging_is_idempotent() {
    let (_dir_guard, dir) = common::temp_dir("intact");
    let path = alice_works(&dir);
    let rows = report_of(&[&path], &Roster::default());
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert!(row.flags.is_empty(), "{:?}", row.flags);
    let points: Vec<u32> = row.steps.iter().map(|s| s.points).collect();
    assert_eq!(points, vec![5, 10, 0]);
    assert_eq!(row.total, 15);
    assert_eq!(row.max, 30);
    assert_eq!(row.steps[0].hints, 1);
    assert_eq!(row.steps[2].attempts, 3);
    assert_eq!(row.submitted, Some(NOW + 200));
    assert_eq!(row.receipt.as_ref().map(String::len), Some(11));
    // The same file twice, and a copy elsewhere: still one row, the same row.
    let copy = dir.join("copy.jsonl");
    std::fs::copy(&path, &copy).unwrap();
    let merged = report_of(&[&path, &path, &copy], &Roster::default());
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0].total, row.total);
    assert_eq!(merged[0].receipt, row.receipt);
    assert!(merged[0].flags.is_empty(), "{:?}", merged[0].flags);
    // Starting again continues where she was: nothing is lost, nothing is added after hand-in.
    let (again, _) = LabSession::start(
        lab(SMALL),
        student("alice"),
        items(SMALL, "alice"),
        &dir,
        NOW + 300,
    )
    .unwrap();
    assert_eq!(again.tally.total(), 15);
    assert_eq!(again.receipt, row.receipt);
    assert_eq!(report_of(&[&path], &Roster::default())[0], *row);
    // Receipts from the course page: the right one passes, another one is flagged.
    let receipt = row.receipt.clone().unwrap();
    let handed = warpdrill::lab::report::parse_receipts(&format!(
        "student,receipt\nalice,{}\n",
        receipt.to_lowercase()
    ));
    let mut rows = vec![row.clone()];
    let unknown = warpdrill::lab::report::check_receipts(&mut rows, &handed);
    assert!(rows[0].flags.is_empty(), "{:?}", rows[0].flags);
    assert!(unknown.is_empty());
    // No receipt on the course page for a hand-in, and a receipt of a student nobody knows.
    let mut missing = vec![row.clone()];
    let handed = warpdrill::lab::report::parse_receipts("alise,AAAAA-BBBBB");
    let unknown = warpdrill::lab::report::check_receipts(&mut missing, &handed);
    assert!(
        missing[0].flags[0].contains("no receipt was handed in"),
        "{:?}",
        missing[0].flags
    );
    assert!(unknown[0].contains("`alise`"), "{unknown:?}");
    let handed = warpdrill::lab::report::parse_receipts("alice,AAAAA-BBBBB");
    warpdrill::lab::report::check_receipts(&mut rows, &handed);
    assert!(
        rows[0].flags[0].contains("does not match"),
        "{:?}",
        rows[0].flags
    );
}

#[test]
fn a_flipped_outcome_is_flagged_and_graded_again() {
    let (_dir_guard, dir) = common::temp_dir("flip");
    let path = alice_works(&dir);
    let mut file = lines(&path);
    let at = file.iter().position(|l| l.contains("\"1 B\"")).unwrap();
    file[at] = file[at].replace("\"outcome\":\"wrong\"", "\"outcome\":\"correct\"");
    write_lines(&path, &file);
    let row = &report_of(&[&path], &Roster::default())[0];
    let flags = row.flags.join("\n");
    assert!(
        flags.contains("line 6: the record was changed after it was written"),
        "{flags}"
    );
    assert!(
        flags.contains("4 records from line 6 on not scored"),
        "{flags}"
    );
    assert_eq!(row.total, 15, "the flipped outcome earns nothing");
    assert_eq!(
        row.submitted, None,
        "the hand-in after it is not trusted either"
    );
}

#[test]
fn a_removed_record_and_a_changed_answer_are_flagged() {
    let (_dir_guard, dir) = common::temp_dir("edit");
    let path = alice_works(&dir);
    let original = lines(&path);
    // Remove the wrong first attempt (to look better).
    let mut removed = original.clone();
    removed.remove(1);
    write_lines(&path, &removed);
    let row = &report_of(&[&path], &Roster::default())[0];
    let breaks = row
        .flags
        .iter()
        .filter(|f| f.contains("the chain breaks here"))
        .count();
    assert_eq!(breaks, 1, "one removed line is one break: {:?}", row.flags);
    assert_eq!(row.total, 0, "nothing after the removed record scores");
    assert_eq!(row.steps[0].attempts, 0);
    // Change a wrong answer into the right one: the hash no longer verifies; the new answer is graded.
    let mut changed = original.clone();
    let right = right_answer(SMALL, "alice", 2);
    let at = changed.iter().position(|l| l.contains("\"1 B\"")).unwrap();
    changed[at] = changed[at].replace("\"1 B\"", &format!("{right:?}"));
    write_lines(&path, &changed);
    let row = &report_of(&[&path], &Roster::default())[0];
    let flags = row.flags.join("\n");
    assert!(flags.contains("changed after it was written"), "{flags}");
    assert_eq!(
        row.steps[2].points, 0,
        "the edited answer never scores: {flags}"
    );
    assert_eq!(row.total, 15);
}

#[test]
fn a_cut_off_results_file_still_reports_everything_before_the_damage() {
    let (_dir_guard, dir) = common::temp_dir("cut");
    let path = alice_works(&dir);
    let text = std::fs::read_to_string(&path).unwrap();
    // Cut in the middle of the record of step 2's answer.
    let at = text.find("\"step\":2").unwrap();
    std::fs::write(&path, &text[..at]).unwrap();
    let row = &report_of(&[&path], &Roster::default())[0];
    assert_eq!(row.steps[0].points, 5, "step 1 before the damage counts");
    assert_eq!(row.steps[0].attempts, 2);
    assert_eq!(row.steps[1].attempts, 0);
    let flags = row.flags.join("\n");
    assert!(flags.contains("cut-off"), "{flags}");
    assert!(flags.contains("not handed in"), "{flags}");
    // Starting again keeps the readable records, moves the damaged file aside, and goes on.
    let (session, notices) = LabSession::start(
        lab(SMALL),
        student("alice"),
        items(SMALL, "alice"),
        &dir,
        NOW + 500,
    )
    .unwrap();
    assert_eq!(session.tally.steps[0].points, 5);
    assert!(notices[0].contains("damaged"), "{notices:?}");
    let flags = report_of(&[&path], &Roster::default())[0].flags.join("\n");
    assert!(flags.contains("not handed in"), "{flags}");
    assert!(
        flags.contains("repaired on the student's machine"),
        "a repair is never silent: {flags}"
    );
}

#[test]
fn answers_to_other_variants_other_labs_and_copied_answers_are_flagged() {
    let (_dir_guard, dir) = common::temp_dir("copy");
    let alice = alice_works(&dir);
    // Bob answers step 3 with Alice's... wrong answer, and step 1 with Alice's right answer.
    let lab_ = lab(SMALL);
    let (mut bob, _) =
        LabSession::start(lab_.clone(), student("bob"), items(SMALL, "bob"), &dir, NOW).unwrap();
    let alices = right_answer(SMALL, "alice", 0);
    let bobs = right_answer(SMALL, "bob", 0);
    assert_ne!(alices, bobs, "the two students have different numbers");
    bob.attempt(
        0,
        &alices,
        Given::Text(alices.clone()),
        Outcome::Wrong,
        5,
        NOW + 5,
    )
    .unwrap();
    let bob_path = bob.results.clone().unwrap();
    drop(bob);
    let rows = report_of(&[&alice, &bob_path], &Roster::default());
    let bob_row = rows.iter().find(|r| r.student == "bob").unwrap();
    let flags = bob_row.flags.join("\n");
    // One wrong number equal to one right number on a step whose answers take few values is
    // what luck gives; it is not flagged (the copy flag's odds are tested in `lab::copying`).
    let content = Content::builtin();
    let item = &items(SMALL, "alice")[0];
    let value = generate(content.exercise(&item.exercise).unwrap(), item.seed)
        .unwrap()
        .key
        .value()
        .unwrap();
    let chance = warpdrill::lab::copying::Odds::default().chance(&content, &item.exercise, value);
    assert!(chance * 2.0 >= warpdrill::lab::copying::ALPHA, "{chance}");
    assert!(!flags.contains("right answers"), "{flags}");
    // A file of another version of the lab.
    let mut other = lines(&alice);
    for line in &mut other {
        *line = line.replace("\"version\":1", "\"version\":2");
    }
    let other_path = dir.join("other.jsonl");
    write_lines(&other_path, &other);
    let flags = report_of(&[&other_path], &Roster::default())[0]
        .flags
        .join("\n");
    assert!(
        flags.contains("version 2, not `small` version 1"),
        "{flags}"
    );
    // An answer to a variant Alice was not given: the seed is changed and the record sealed again
    // with Alice's own chain key (what a student pack's ticket holds) — the report still sees it.
    let mut forged = lines(&alice);
    let at = forged
        .iter()
        .position(|l| l.contains("\"step\":2"))
        .unwrap();
    let mut records: Vec<warpdrill::lab::Record> = forged
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    records[at].seed = Some(12345);
    let mut prev = records[at - 1].hash.clone();
    let key = warpdrill::lab::seed::chain_key(&lab_, "alice");
    for (i, record) in records.iter_mut().enumerate().skip(at) {
        record.seal(&key, i as u64, &prev);
        prev = record.hash.clone();
    }
    forged = records.iter().map(|r| r.to_line()).collect();
    write_lines(&alice, &forged);
    let row = &report_of(&[&alice], &Roster::default())[0];
    let flags = row.flags.join("\n");
    assert!(
        flags.contains("step 2: answers a variant this student was not given"),
        "{flags}"
    );
    assert_eq!(row.steps[1].points, 0);
    // The roster lists students without results.
    let roster = Roster::parse("r.csv", "student,extra_minutes,rerolls\ncarol,0,\n").unwrap();
    let rows = report_of(&[&bob_path], &roster);
    let carol = rows.iter().find(|r| r.student == "carol").unwrap();
    assert_eq!(carol.flags, vec!["no results file".to_string()]);
}

// ---------------------------------------------------------------------------------------------
// Snapshots

fn worked_app() -> App {
    let mut app = in_memory(SAMPLE, "alice");
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "999999");
    press(&mut app, KeyCode::Enter);
    press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    type_text(&mut app, &right_answer(SAMPLE, "alice", 0));
    press(&mut app, KeyCode::Enter);
    app
}

#[test]
fn snapshot_lab_overview() {
    let mut app = worked_app();
    press(&mut app, KeyCode::Char('g'));
    insta::assert_snapshot!("lab_overview_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("lab_overview_60x20", screen(&app, 60, 20));
}

#[test]
fn snapshot_lab_step() {
    let mut app = in_memory(SAMPLE, "alice");
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "999999");
    press(&mut app, KeyCode::Enter);
    insta::assert_snapshot!("lab_step_wrong_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("lab_step_wrong_60x20", screen(&app, 60, 20));
    let app = worked_app();
    insta::assert_snapshot!("lab_step_solved_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("lab_step_solved_60x20", screen(&app, 60, 20));
}

#[test]
fn snapshot_lab_end() {
    let mut app = worked_app();
    press(&mut app, KeyCode::Char('g'));
    press(&mut app, KeyCode::Char('s'));
    insta::assert_snapshot!("lab_overview_confirm_80x24", screen(&app, 80, 24));
    press(&mut app, KeyCode::Char('s'));
    insta::assert_snapshot!("lab_end_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("lab_end_60x20", screen(&app, 60, 20));
}

// ---------------------------------------------------------------------------------------------
// The real binary in tmux (common::tmux)

fn warpdrill(args: &[&str]) -> std::process::Output {
    crate::common::warpdrill()
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn a_lab_worked_in_the_real_binary_reports_the_expected_row() {
    const TEST: &str = "a_lab_worked_in_the_real_binary_reports_the_expected_row";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_dir_guard, dir) = common::temp_dir("e2e");
    let lab_path = dir.join("lab.ron");
    std::fs::write(&lab_path, SMALL).unwrap();
    let lab_arg = lab_path.to_str().unwrap();
    // The answer key from the command line, as an instructor would print it.
    let key = warpdrill(&["lab", "key", lab_arg, "--student", "e2e", "--json"]);
    assert!(
        key.status.success(),
        "{}",
        String::from_utf8_lossy(&key.stderr)
    );
    assert_eq!(
        warpdrill(&["lab", "key", lab_arg, "--student", "e2e", "--json"]).stdout,
        key.stdout,
        "the key is the same on every run"
    );
    let key: serde_json::Value = serde_json::from_slice(&key.stdout).unwrap();
    let right = |i: usize| key[i]["typed"].as_str().unwrap().to_string();
    let wrong = |i: usize| format!("{}", key[i]["answer_value"].as_f64().unwrap() + 1.0);

    // The lab is started twice in a row: the second start continues where the first one ended.
    let start = format!(
        "{} lab start {lab_arg} --student e2e",
        env!("CARGO_BIN_EXE_warpdrill")
    );
    let command = format!("sh -c '{start}; echo FIRST rc=$?; {start}; echo AFTER rc=$?; sleep 60'");
    let Some(tmux) = Tmux::start(&command, 80, 24) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    tmux.wait_for("Small lab · e2e · step 1/3");
    // Search and unlocking stay closed.
    tmux.keys(&["/"]);
    tmux.wait_for("Search is closed during the lab.");
    tmux.keys(&["u"]);
    tmux.wait_for("Unlocking is closed");
    assert!(tmux.screen().contains("Lab steps"));
    // Step 1: right at the first attempt.
    tmux.keys(&["Enter"]);
    tmux.wait_for("attempt 1 of 3");
    tmux.literal(&right(0));
    tmux.keys(&["Enter"]);
    tmux.wait_for("Correct");
    // Step 2: a hint, a wrong answer, then right.
    tmux.keys(&["Enter"]);
    tmux.wait_for("Step 2/3");
    tmux.keys(&["C-t"]);
    tmux.wait_for("Hint 1:");
    tmux.literal(&wrong(1));
    tmux.keys(&["Enter"]);
    tmux.wait_for("Not right. 2 attempts left");
    tmux.literal(&right(1));
    tmux.keys(&["Enter"]);
    tmux.wait_for("Step 2/3 · solved · 5 pts");
    // Quit and start again: the lab continues at step 3.
    tmux.keys(&["g", "q"]);
    tmux.wait_for("step 3/3 · 15/30 pts");
    // Step 3: wrong three times.
    tmux.keys(&["Enter"]);
    for n in 0..3 {
        tmux.wait_for(&format!("attempt {} of 3", n + 1));
        tmux.literal(&format!(
            "{} B",
            key[2]["answer_value"].as_f64().unwrap() + 1.0 + n as f64
        ));
        tmux.keys(&["Enter"]);
        if n < 2 {
            tmux.wait_for(&format!("attempt {} of 3", n + 2));
        }
    }
    tmux.wait_for("not solved · 0 pts");
    // Hand in.
    tmux.keys(&["g", "s", "s"]);
    let end = tmux.wait_for("Receipt ");
    let receipt = end
        .lines()
        .find_map(|l| l.split("Receipt ").nth(1))
        .map(|r| r.trim_end_matches(['│', ' ']).to_string())
        .unwrap();
    assert_eq!(receipt.len(), 11, "{end}");
    tmux.keys(&["q", "q"]);
    let after = tmux.wait_for("AFTER rc=0");
    assert!(
        after.contains(&format!("Handed in. Receipt: {receipt}")),
        "{after}"
    );

    let out = warpdrill(&[
        "lab",
        "report",
        lab_arg,
        dir.join("results").to_str().unwrap(),
        "--csv",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let header = rows.headers().unwrap().clone();
    let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 1, "{text}");
    let field = |name: &str| records[0][header.iter().position(|h| h == name).unwrap()].to_string();
    assert_eq!(field("student"), "e2e");
    assert_eq!(field("total"), "15");
    assert_eq!(field("max"), "30");
    assert_eq!(field("percent"), "50.0");
    assert_eq!(
        [1, 2, 3].map(|s| field(&format!("step{s}_points"))),
        ["10", "5", "0"].map(String::from)
    );
    assert_eq!(
        [1, 2, 3].map(|s| field(&format!("step{s}_attempts"))),
        ["1", "2", "3"].map(String::from)
    );
    assert_eq!(
        [1, 2, 3].map(|s| field(&format!("step{s}_hints"))),
        ["0", "1", "0"].map(String::from)
    );
    assert_eq!(field("late"), "0");
    assert_eq!(field("receipt"), receipt);
    assert_eq!(field("flags"), "", "{text}");
    assert!(!field("submitted").is_empty());
    // The text report counts its students as a person writes it.
    let out = warpdrill(&[
        "lab",
        "report",
        lab_arg,
        dir.join("results").to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\n1 student, 0 flagged."), "{text}");
}

// ---------------------------------------------------------------------------------------------
// The other commands

#[test]
fn lab_check_names_file_line_and_column() {
    let (_dir_guard, dir) = common::temp_dir("check");
    let bad = dir.join("bad.ron");
    std::fs::write(
        &bad,
        SMALL
            .replace("\"l2-bank-stride\"", "\"no-such-exercise\"")
            .replace(
                "Exercise(\"l2-tile-smem\")",
                "Draw(count: 9, topic: \"banks\", level: L2)",
            ),
    )
    .unwrap();
    let out = warpdrill(&["lab", "check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let name = bad.display().to_string();
    assert!(
        text.contains(&format!(
            "{name}:6:51: unknown exercise `no-such-exercise` (error)"
        )),
        "{text}"
    );
    assert!(
        text.contains("asks for 9 exercises of `banks` at L2"),
        "{text}"
    );
    // The summary counts in words that agree with their numbers: "1 error", "2 errors".
    let summary = text.lines().last().unwrap_or_default();
    assert!(
        summary.starts_with(&format!("{name}: ")) && !summary.contains("(s)"),
        "{text}"
    );
    assert!(
        summary.contains(" steps, ")
            && (summary.contains(" errors, ") || summary.contains(" error, ")),
        "{text}"
    );
    let broken = dir.join("broken.ron");
    std::fs::write(
        &broken,
        SMALL.replace("points: [10, 7, 5],", "points: [10, 7, 5]"),
    )
    .unwrap();
    let out = warpdrill(&["lab", "check", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!("{}:8:", broken.display())),
        "{text}"
    );
    let good = dir.join("good.ron");
    std::fs::write(&good, SAMPLE).unwrap();
    let out = warpdrill(&["lab", "check", good.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_reroll_in_the_roster_changes_that_step_in_the_key_only() {
    let (_dir_guard, dir) = common::temp_dir("roster");
    let lab_path = dir.join("lab.ron");
    std::fs::write(&lab_path, SMALL).unwrap();
    let roster = dir.join("class.csv");
    let roster_arg = roster.to_str().unwrap();
    let out = warpdrill(&["lab", "roster", roster_arg, "--add", "amy", "--add", "ben"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key = |extra: &[&str]| {
        let mut args = vec!["lab", "key", lab_path.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let out = warpdrill(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let before = key(&["--roster", roster_arg]);
    assert_eq!(
        before.as_array().unwrap().len(),
        6,
        "two students, three steps"
    );
    let out = warpdrill(&[
        "lab",
        "roster",
        roster_arg,
        "--reroll",
        "amy:2",
        "--extra-time",
        "ben:15",
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(&roster).unwrap(),
        "student,extra_minutes,rerolls\namy,0,2\nben,15,\n"
    );
    let after = key(&["--roster", roster_arg]);
    assert_eq!(before[0]["seed"], after[0]["seed"]);
    assert_ne!(
        before[1]["seed"], after[1]["seed"],
        "amy's step 2 has new numbers"
    );
    assert_eq!(
        before.as_array().unwrap()[3..],
        after.as_array().unwrap()[3..],
        "ben is unchanged"
    );
    let bad = warpdrill(&["lab", "roster", roster_arg, "--reroll", "amy"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn lab_start_without_a_terminal_says_so() {
    let (_dir_guard, dir) = common::temp_dir("notty");
    let lab_path = dir.join("lab.ron");
    std::fs::write(&lab_path, SMALL).unwrap();
    let out = warpdrill(&[
        "lab",
        "start",
        lab_path.to_str().unwrap(),
        "--student",
        "amy",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs an interactive terminal"));
    assert!(!dir.join("results").exists(), "nothing is written");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, SMALL.replace("version: 1,", "version: \"one\",")).unwrap();
    let out = warpdrill(&["lab", "start", bad.to_str().unwrap(), "--student", "amy"]);
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains(&format!("{}:4:", bad.display())),
        "{message}"
    );
    let out = warpdrill(&[
        "lab",
        "start",
        lab_path.to_str().unwrap(),
        "--student",
        "a b",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a student id is"));
}

#[test]
fn choices_and_orderings_are_recorded_as_given_and_graded_again() {
    let text = r#"Lab(id: "kinds", title: "Kinds", version: 1, secret: "another test secret",
        steps: [Exercise("l3-limiter"), Exercise("l3-order-patterns")], points: [4, 2], order: Free)"#;
    let (_dir_guard, dir) = common::temp_dir("kinds");
    let lab_ = lab(text);
    let plan_ = items(text, "kim");
    let (session, _) = LabSession::start(lab_.clone(), student("kim"), plan_, &dir, NOW).unwrap();
    let path = session.results.clone().unwrap();
    let mut app = lab_app(session);
    // Step 1: pick option b, then (if that was wrong) the right one.
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('2'));
    press(&mut app, KeyCode::Enter);
    // Step 2, in free order: submit the order as shown.
    press(&mut app, KeyCode::Char('g'));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let tally = app.lab.as_ref().unwrap().tally.clone();
    assert_eq!(tally.steps[0].attempts, 1);
    assert_eq!(tally.steps[1].attempts, 1);
    let file = std::fs::read_to_string(&path).unwrap();
    assert!(file.contains("\"given\":{\"choice\":1}"), "{file}");
    assert!(file.contains("\"given\":{\"order\":["), "{file}");
    let rows = report(
        &lab_,
        "lab.ron",
        text,
        &Content::builtin(),
        &Roster::default(),
        &[Input {
            path: path.display().to_string(),
            text: file,
        }],
    )
    .unwrap();
    let row = &rows[0];
    assert_eq!(row.total, tally.total(), "the report agrees with the tutor");
    assert!(
        row.flags.iter().all(|f| f == "not handed in"),
        "{:?}",
        row.flags
    );
}

#[test]
fn the_time_limit_with_extra_time_closes_answers() {
    let text = SMALL.replace("hints: Cost(2),", "hints: Cost(2), time_limit: 1,");
    let clock = std::sync::Arc::new(warpdrill::clock::FakeClock::at_secs(NOW));
    let mut amy = student("amy");
    amy.extra_minutes = 1;
    let session = LabSession::in_memory(lab(&text), amy, items(&text, "amy"), NOW);
    assert_eq!(session.deadline(), Some(NOW + 120), "1 minute plus 1 extra");
    let mut app = App::new(
        Content::builtin(),
        Progress::default(),
        None,
        Theme::new(false),
        clock.clone(),
        Box::new(|| 3),
    );
    app.start_lab(session);
    clock.set_secs(NOW + 75);
    assert!(screen(&app, 80, 24).contains("0:45 left"));
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "999999");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.lab.as_ref().unwrap().tally.steps[0].attempts, 1);
    clock.set_secs(NOW + 121);
    type_text(&mut app, &right_answer(&text, "amy", 0));
    press(&mut app, KeyCode::Enter);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("time is up"), "{shown}");
    assert!(shown.contains("Time is up: answers are closed."), "{shown}");
    assert_eq!(
        app.lab.as_ref().unwrap().tally.steps[0].attempts,
        1,
        "not counted"
    );
    // Handing in still works.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Char('s'));
    assert!(matches!(app.screen(), Screen::LabEnd(_)));
}

#[test]
fn one_tutor_at_a_time_per_student_file() {
    let (_dir_guard, dir) = common::temp_dir("lock");
    let start = || LabSession::start(lab(SMALL), student("amy"), items(SMALL, "amy"), &dir, NOW);
    let (first, _) = start().unwrap();
    let second = start().map(|_| ()).unwrap_err().to_string();
    assert!(
        second.contains("another warpdrill has this lab open"),
        "{second}"
    );
    // Damaging the file (so that the second tutor would repair it) does not get past the lock.
    let path = first.results.clone().unwrap();
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{not a record\n");
    std::fs::write(&path, &text).unwrap();
    let second = start().map(|_| ()).unwrap_err().to_string();
    assert!(
        second.contains("another warpdrill has this lab open"),
        "{second}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "nothing was repaired"
    );
    // Another student in the same folder is not held up.
    LabSession::start(lab(SMALL), student("ben"), items(SMALL, "ben"), &dir, NOW).unwrap();
    drop(first);
    // Another test thread spawning a process may hold a copy of the file for the instant between
    // its fork and exec (and with it the lock): allow that instant to pass.
    let free = (0..50).any(|_| {
        start().is_ok() || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            false
        }
    });
    assert!(free, "free again once the first is closed");
}

#[test]
fn lab_check_of_a_huge_draw_answers_at_once() {
    let (_guard, dir) = common::temp_dir("huge-draw");
    let path = dir.join("huge.ron");
    std::fs::write(
        &path,
        r#"Lab(id: "huge", title: "Huge", version: 1, secret: "a long enough secret phrase",
            steps: [Draw(count: 4294967295, topic: "banks", level: L2)], points: [10])"#,
    )
    .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let path_text = path.display().to_string();
    std::thread::spawn(move || {
        let _ = tx.send(warpdrill(&["lab", "check", &path_text]));
    });
    let output = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("lab check answers within a minute");
    assert!(!output.status.success());
    let report = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(report.contains("this draw asks for"), "{report}");
}

/// A student pack's ticket runs the student's own lab: the instructor's report grades the results
/// as if the lab file had been used, and a ticket cannot seal another student's results.
#[test]
fn results_sealed_with_a_ticket_are_graded_and_another_students_ticket_is_caught() {
    use warpdrill::lab::ticket::{Ticket, pack_text};
    let (_dir_guard, dir) = common::temp_dir("ticket");
    let full = lab(SMALL);
    let content = Content::builtin();
    let pack = lab(&pack_text(&full, SMALL).unwrap());
    assert!(pack.is_pack());
    let work = |ticket: &Ticket| {
        let items = ticket.items("t", &pack, &content, &ticket.student).unwrap();
        let (mut session, _) = LabSession::start_keyed(
            pack.clone(),
            ticket.entry(),
            items,
            ticket.key.clone(),
            &dir,
            NOW,
        )
        .unwrap();
        let right = right_answer(SMALL, &ticket.student, 0);
        session
            .attempt(
                0,
                &right,
                Given::Text(right.clone()),
                Outcome::Correct,
                5,
                NOW + 5,
            )
            .unwrap();
        session.submit(NOW + 10).unwrap();
        session.results.clone().unwrap()
    };
    let alice = Ticket::issue(&full, &content, &student("alice"), "lab.ron", SMALL).unwrap();
    let path = work(&alice);
    let row = &report_of(&[&path], &Roster::default())[0];
    assert!(row.flags.is_empty(), "{:?}", row.flags);
    assert_eq!(row.total, 10);
    assert!(row.receipt.is_some());
    // Bob's results sealed with the key of Alice's ticket: nothing verifies, nothing scores.
    let mut forged = Ticket::issue(&full, &content, &student("bob"), "lab.ron", SMALL).unwrap();
    forged.key = alice.key.clone();
    let path = work(&forged);
    let row = &report_of(&[&path], &Roster::default())[0];
    assert_eq!(row.student, "bob");
    assert_eq!(row.total, 0);
    let flags = row.flags.join("\n");
    assert!(flags.contains("changed after it was written"), "{flags}");
}

/// A re-roll gives numbers the student has not seen and the step starts over: the answers to the
/// old numbers stay in the file and count for nothing, in the tutor and in the report.
#[test]
fn a_reroll_gives_new_numbers_and_starts_the_step_over() {
    let (_dir_guard, dir) = common::temp_dir("reroll");
    let content = Content::builtin();
    let full = lab(SMALL);
    let (mut session, _) = LabSession::start(
        full.clone(),
        student("alice"),
        items(SMALL, "alice"),
        &dir,
        NOW,
    )
    .unwrap();
    for n in 0..2 {
        session
            .attempt(
                0,
                "999999",
                Given::Text("999999".into()),
                Outcome::Wrong,
                5,
                NOW + n,
            )
            .unwrap();
    }
    drop(session);
    let roster = Roster::parse("r.csv", "student,extra_minutes,rerolls\nalice,0,1 1 1\n").unwrap();
    let entry = roster.of("alice");
    let old = items(SMALL, "alice");
    let new = plan(&full, &content, &entry, "lab.ron", SMALL).unwrap();
    // Three re-rolls: four different prompts for step 1.
    let prompt = |seed| {
        generate(content.exercise(&old[0].exercise).unwrap(), seed)
            .unwrap()
            .prompt
    };
    let mut prompts: Vec<String> = (0..=3)
        .map(|r| {
            let e = Roster::parse(
                "r.csv",
                &format!(
                    "student,extra_minutes,rerolls\nalice,0,{}\n",
                    vec!["1"; r].join(" ")
                ),
            )
            .unwrap()
            .of("alice");
            prompt(plan(&full, &content, &e, "lab.ron", SMALL).unwrap()[0].seed)
        })
        .collect();
    prompts.sort();
    prompts.dedup();
    assert_eq!(prompts.len(), 4, "every re-roll shows new numbers");
    assert_eq!(new[1], old[1], "other steps keep their numbers");
    let (again, _) = LabSession::start(full, entry, new, &dir, NOW + 60).unwrap();
    assert_eq!(again.tally.steps[0].attempts, 0, "the step starts over");
    let path = again.results.clone().unwrap();
    drop(again);
    let row = &report_of(&[&path], &roster)[0];
    assert_eq!(row.steps[0].attempts, 0);
    assert!(
        row.flags.iter().all(|f| !f.contains("not given")),
        "{:?}",
        row.flags
    );
}
