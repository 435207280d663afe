//! The real binary in a real terminal (tmux): answer an exercise, quit, and check that progress was
//! saved and the terminal restored; review cards and `kill -9` the tutor between ratings, and find
//! every rating in the review log. Where tmux cannot run these tests fail, so that a missing tmux is
//! never mistaken for a pass: under `CI=true` always, elsewhere unless `WARPDRILL_SKIP_TMUX=1` asks to
//! skip them (and then each says so on stderr).

use crate::common;
use crate::common::tmux::{self, Tmux, cannot_run};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn shell_command(dir: &Path, args: &str) -> String {
    format!(
        "sh -c 'echo BEFORE-TUTOR; {bin} --data-dir {dir} {args}; echo AFTER-TUTOR rc=$?; stty -a | tr \" ;\" \"\\n\\n\" | grep -x -e -icanon -e icanon -e -echo -e echo | tr \"\\n\" \" \"; echo; sleep 60'",
        bin = env!("CARGO_BIN_EXE_warpdrill"),
        dir = dir.display(),
    )
}

#[test]
fn answer_an_exercise_quit_and_find_progress_saved() {
    const TEST: &str = "answer_an_exercise_quit_and_find_progress_saved";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_dir_guard, dir) = common::temp_dir("progress");
    let Some(session) = Tmux::start(&shell_command(&dir, ""), 80, 24) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    session.wait_for("GPU memory performance, seen and computed");
    // L on Home opens the ladder (Enter would open Learn, Home's first entry).
    session.keys(&["L"]);
    session.wait_for("L1 Recognition — name and place things");
    session.keys(&["Enter"]);
    session.wait_for("How many bytes is one sector?");
    // Not an answer: it is refused with a message and not counted as an attempt.
    session.literal("lots");
    session.keys(&["Enter"]);
    session.wait_for("couldn't read");
    session.keys(&["BSpace", "BSpace", "BSpace", "BSpace"]);
    session.literal("32 B");
    session.keys(&["Enter"]);
    let screen = session.wait_for("Correct — 32 B.");
    assert!(screen.contains("Your answer"), "{screen}");
    session.keys(&["q"]);
    session.wait_for("✓ How big is a sector?");
    session.keys(&["q"]);
    session.wait_for("Resume: How big is a sector?");
    session.keys(&["q"]);
    let after = session.wait_for("AFTER-TUTOR rc=0");
    assert!(
        after.contains("BEFORE-TUTOR"),
        "the normal screen is back:\n{after}"
    );
    assert!(
        !after.contains("┌ warpdrill"),
        "the tutor's screen is gone:\n{after}"
    );
    let modes = session.wait_for("icanon");
    assert!(
        modes.contains(" icanon") || modes.contains("\nicanon"),
        "cooked mode restored:\n{modes}"
    );
    assert!(!modes.contains("-icanon"), "raw mode left on:\n{modes}");
    assert!(!modes.contains("-echo"), "echo left off:\n{modes}");

    let saved = std::fs::read_to_string(dir.join("progress.ron")).expect("progress saved");
    assert!(saved.contains("\"l1-sector-size\""), "{saved}");
    assert!(saved.contains("solved: true"), "{saved}");
    assert!(
        saved.contains("attempts: 1,"),
        "one attempt, not two: {saved}"
    );
    assert!(
        !saved.contains("lots"),
        "the unusable input is not in the history: {saved}"
    );
    assert!(saved.contains("\"32 B\""), "{saved}");
}

#[test]
fn without_a_terminal_the_tutor_says_so_and_exits_2() {
    let (_guard, dir) = common::temp_dir("notty");
    let out = crate::common::warpdrill()
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(
        message.contains("needs an interactive terminal"),
        "{message}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn explorer_redraws_the_numbers_when_the_stride_changes() {
    const TEST: &str = "explorer_redraws_the_numbers_when_the_stride_changes";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_dir_guard, dir) = common::temp_dir("explore");
    let Some(session) = Tmux::start(&shell_command(&dir, "explore --elem 4 --stride 1"), 80, 24)
    else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    let before = session.wait_for("sectors 4");
    assert!(before.contains("efficiency 100%"), "{before}");
    session.keys(&["s"]);
    let after = session.wait_for("sectors 8");
    assert!(after.contains("efficiency 50%"), "{after}");
    assert!(after.contains("stride  2 elem"), "{after}");
    // Opened on its own from the command line, the explorer quits on q (g would reach Home).
    session.keys(&["q"]);
    session.wait_for("AFTER-TUTOR rc=0");
}

#[test]
fn review_keeps_every_rating_through_kill_9() {
    const TEST: &str = "review_keeps_every_rating_through_kill_9";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_dir_guard, dir) = common::temp_dir("review-kill");
    let script = dir.join("run.sh");
    std::fs::write(
        &script,
        format!(
            "export WARPDRILL_CONFIG={dir}/no-review.ron\necho $$ > {dir}/pid\nexec {bin} --data-dir {dir} review --new 500\n",
            dir = dir.display(),
            bin = env!("CARGO_BIN_EXE_warpdrill"),
        ),
    )
    .unwrap();
    let cards = warpdrill::content::Content::builtin().cards.len();
    let mut rated = 0;
    for round in 0..4 {
        let _ = std::fs::remove_file(dir.join("pid"));
        let command = format!(
            "sh -c 'sh {}; echo AFTER-TUTOR rc=$?; sleep 60'",
            script.display()
        );
        // Sessions start one after another here, while other tests start theirs: retry a refusal.
        let session = (0..5).find_map(|_| {
            Tmux::start(&command, 80, 24).or_else(|| {
                std::thread::sleep(Duration::from_millis(300));
                None
            })
        });
        let Some(session) = session else {
            cannot_run(TEST, "tmux is installed but cannot start a session here");
            return;
        };
        session.wait_for("Review ·");
        for _ in 0..(2 + round) {
            let before = format!("new {} ·", cards - rated);
            session.wait_for(&before);
            let screen = session.screen();
            if screen.contains("> ▏") {
                // A drill card: any answer will do.
                session.literal("1");
            }
            session.keys(&["Enter"]);
            session.keys(&["3"]);
            rated += 1;
        }
        // Every rating shown as done on screen was saved before the next card appeared.
        session.wait_for(&format!("new {} ·", cards - rated));
        let pid = std::fs::read_to_string(dir.join("pid")).expect("the script wrote its pid");
        let killed = Command::new("kill")
            .args(["-9", pid.trim()])
            .status()
            .expect("kill");
        assert!(killed.success());
        // The terminal is left as the killed process had it; wait for the process to be gone.
        let deadline = Instant::now() + Duration::from_secs(10);
        while Path::new(&format!("/proc/{}", pid.trim())).exists() {
            assert!(Instant::now() < deadline, "the tutor outlived kill -9");
            std::thread::sleep(Duration::from_millis(50));
        }
        drop(session);
        let loaded = warpdrill::srs::store::RevlogFile::open(&dir, 0);
        assert!(
            loaded.notices.iter().all(|n| n.contains("cut off")),
            "round {round}: {:?}",
            loaded.notices
        );
        let ratings = loaded
            .records
            .iter()
            .filter(|r| r.kind == warpdrill::srs::Kind::Rate)
            .count();
        assert_eq!(ratings, rated, "round {round}: every rating is in the log");
    }
}

#[test]
fn analyse_a_kernel_in_the_terminal_step_through_it_and_open_the_explorer() {
    const TEST: &str = "analyse_a_kernel_in_the_terminal_step_through_it_and_open_the_explorer";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_dir_guard, dir) = common::temp_dir("analyze");
    let kernel = dir.join("walk.cu");
    std::fs::write(
        &kernel,
        "// launch: --grid 64 --block 128\n__global__ void walk(const float* in, float* out) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  for (int k = 0; k < 4; ++k)\n    out[i * 4 + k] = in[i * 2];\n}\n",
    )
    .unwrap();
    let args = format!("analyze {}", kernel.display());
    let Some(session) = Tmux::start(&shell_command(&dir, &args), 120, 40) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    // The diagram is drawn last: wait for it, not for the first panel, or a busy machine shows a
    // half-drawn frame.
    let screen = session.wait_for("Warp → sectors");
    assert!(
        screen.contains("kernel walk · grid 64 · block 128"),
        "{screen}"
    );
    assert!(screen.contains("totals"), "{screen}");
    // The costliest line (the store, 4 floats apart per lane) is selected, with its sector diagram.
    assert!(screen.contains("▸5"), "{screen}");
    assert!(screen.contains("Warp → sectors"), "{screen}");
    assert!(screen.contains("run 1 of 4"), "{screen}");
    session.keys(&["Right", "Right"]);
    session.wait_for("run 3 of 4");
    session.keys(&["w"]);
    session.wait_for("warp 1 of 4");
    session.keys(&["b"]);
    session.wait_for("block (1,0,0) of 64");
    session.keys(&["k"]);
    session.wait_for("▸4");
    session.keys(&["j"]);
    session.wait_for("▸5");
    // Tab walks the line's two accesses: the store and the read.
    if !session.screen().contains("Line 5 · in[i * 2]") {
        session.keys(&["Tab"]);
    }
    session.wait_for("Line 5 · in[i * 2]");
    session.keys(&["Enter"]);
    let explorer = session.wait_for("Numbers");
    assert!(explorer.contains("sectors 8"), "{explorer}");
    session.keys(&["q"]);
    session.wait_for("Source · heat");
    session.keys(&["?"]);
    session.wait_for("iteration");
    session.keys(&["q", "q"]);
    session.wait_for("AFTER-TUTOR rc=0");

    // Not a terminal: the text report, as before.
    let out = crate::common::warpdrill()
        .args(["analyze", kernel.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("costliest accesses"));
}

#[test]
fn a_tiny_terminal_shows_the_analyser_without_a_panic() {
    const TEST: &str = "a_tiny_terminal_shows_the_analyser_without_a_panic";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_dir_guard, dir) = common::temp_dir("analyze-tiny");
    let Some(session) = Tmux::start(
        &shell_command(&dir, "analyze --example matmul_tiled"),
        40,
        12,
    ) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    session.wait_for("Terminal too small");
    session.keys(&["q"]);
    session.wait_for("AFTER-TUTOR rc=0");
}

#[test]
fn closing_the_terminal_ends_the_tutor_instead_of_leaving_it_spinning() {
    const TEST: &str = "closing_the_terminal_ends_the_tutor_instead_of_leaving_it_spinning";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_dir_guard, dir) = common::temp_dir("hangup");
    // The tutor is the pane's own process (no shell in between), as when a terminal window runs it.
    let command = format!(
        "exec {bin} --data-dir {dir}",
        bin = env!("CARGO_BIN_EXE_warpdrill"),
        dir = dir.display()
    );
    let Some(session) = Tmux::start(&command, 80, 24) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    session.wait_for("GPU memory performance, seen and computed");
    let alive = || {
        Command::new("pgrep")
            .args(["-f", &format!("data-dir {}", dir.display())])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    assert!(alive(), "the tutor runs");
    drop(session); // kills the tmux session: the terminal is gone
    let start = Instant::now();
    while alive() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let still = alive();
    if still {
        let _ = Command::new("pkill")
            .args(["-9", "-f", &format!("data-dir {}", dir.display())])
            .status();
    }
    assert!(
        !still,
        "the tutor still runs 10 s after its terminal closed"
    );
}

#[test]
fn an_explanation_is_typed_on_two_lines_and_its_worked_explanation_read_with_pgdn() {
    const TEST: &str =
        "an_explanation_is_typed_on_two_lines_and_its_worked_explanation_read_with_pgdn";
    if !tmux::available() {
        cannot_run(TEST, "tmux is not installed");
        return;
    }
    let (_dir_guard, dir) = common::temp_dir("explain");
    let Some(session) = Tmux::start(&shell_command(&dir, ""), 80, 24) else {
        cannot_run(TEST, "tmux is installed but cannot start a session here");
        return;
    };
    session.wait_for("GPU memory performance, seen and computed");
    // Every level opened (u on the ladder), then the exercise found by search.
    session.keys(&["L"]);
    session.wait_for("L1 Recognition — name and place things");
    session.keys(&["u", "q"]);
    session.wait_for("GPU memory performance, seen and computed");
    session.keys(&["/"]);
    session.literal("The model says 32");
    session.wait_for("1 result");
    session.keys(&["Enter"]);
    session.wait_for("Explain why.");
    session.literal("32");
    session.keys(&["Enter"]);
    session.wait_for("Ctrl-J or Alt-Enter: new line");
    // Ctrl-J as the terminal sends it: a new line, not an answer.
    session.literal("each lane fetches its own 32-byte sector");
    session.keys(&["C-j"]);
    session.literal("and the stride-1 kernel was not bandwidth-bound");
    let typed = session.wait_for("and the stride-1 kernel");
    let rows: Vec<&str> = typed.lines().collect();
    let first = rows
        .iter()
        .position(|r| r.contains("each lane fetches its own 32-byte sector"))
        .unwrap_or_else(|| panic!("the first line:\n{typed}"));
    assert!(
        rows[first + 1].contains("and the stride-1 kernel"),
        "two lines in the box:\n{typed}"
    );
    session.keys(&["Enter"]);
    let graded = session.wait_for("Compare with the model answer");
    assert!(
        graded.contains("Found: sectors, not lines: 8× the bytes;")
            && graded.contains("the stride-1 kernel was not bandwidth-bound."),
        "an idea from each line:\n{graded}"
    );
    // Missed it, then the worked explanation: read to its end with PgDn.
    session.keys(&["n", "C-e"]);
    let opened = session.wait_for("Worked explanation:");
    assert!(opened.contains("more · PgDn"), "{opened}");
    assert!(!opened.contains("4.6 TB/s)."), "{opened}");
    session.keys(&["PageDown", "PageDown", "PageDown"]);
    let end = session.wait_for("4.6 TB/s).");
    assert!(end.contains("↑"), "{end}");
    session.keys(&["Escape"]);
    session.wait_for("GPU memory performance, seen and computed");
    session.keys(&["q"]);
    session.wait_for("AFTER-TUTOR rc=0");
}
