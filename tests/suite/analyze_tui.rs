//! The analyser's screens: Home → Analyse a kernel → a built-in kernel, its source with the heat
//! column, the totals, the selected access in the explorer's diagrams, stepping warps, blocks and
//! iterations, Enter into the explorer, and tiny terminals.

use ratatui::crossterm::event::KeyCode;
use warpdrill::analyze::{self, Options, examples};
use warpdrill::app::{Action, App, Screen};
use warpdrill::ui::analyze::AnalyzeSetup;

use crate::common;
use common::{app, press, screen};

fn analysing(example: &str) -> App {
    let mut app = app();
    app.update(Action::AnalyzeKernel(Box::new(
        AnalyzeSetup::example(example).expect("a built-in example"),
    )));
    assert!(matches!(app.screen(), Screen::Analyze(_)), "{example}");
    app
}

fn state(app: &App) -> &warpdrill::ui::analyze::State {
    match app.screen() {
        Screen::Analyze(state) => state,
        other => panic!("not the analyser: {other:?}"),
    }
}

#[test]
fn the_source_view_at_80x24_and_200x60() {
    let app = analysing("transpose_naive");
    insta::assert_snapshot!("analyze_transpose_naive_80x24", screen(&app, 80, 24));
    insta::assert_snapshot!("analyze_transpose_naive_200x60", screen(&app, 200, 60));
    let app = analysing("transpose_tiled32");
    insta::assert_snapshot!("analyze_transpose_tiled32_200x60", screen(&app, 200, 60));
}

#[test]
fn home_lists_the_built_in_kernels_and_opens_one() {
    let mut app = app();
    let items = warpdrill::ui::home::items(&app.ctx());
    let at = items
        .iter()
        .position(|i| i.action == Action::OpenAnalyzeExamples)
        .expect("Home has an Analyse entry");
    assert!(items[at].label.starts_with("Analyse a kernel"));
    for _ in 0..at {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let text = screen(&app, 100, 30);
    for (name, _) in examples::EXAMPLES.iter().take(10) {
        assert!(text.contains(name), "{name} listed:\n{text}");
    }
    assert!(text.contains("grid 256 block 256"), "{text}");
    // The third example, opened with the launch of its `// launch:` line.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    let (name, source) = examples::EXAMPLES[2];
    let shown = state(&app);
    assert_eq!(shown.report().kernel, name);
    let expected = analyze::analyze(source, name, &Options::default()).unwrap();
    assert_eq!(shown.report().totals, expected.totals);
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.screen(), Screen::AnalyzeExamples(_)));
}

#[test]
fn the_screen_shows_the_totals_and_each_line_s_heat() {
    let app = analysing("transpose_naive");
    let text = screen(&app, 200, 60);
    let report = state(&app).report();
    let t = report.totals;
    let compact = warpdrill::ui::analyze::compact;
    assert!(
        text.contains(&format!(
            "st {} req {} sec",
            compact(t.global_store_requests),
            compact(t.global_store_sectors)
        )),
        "{text}"
    );
    // The costliest line is selected and its wasted sectors are on screen, as a number.
    let worst = report
        .lines
        .iter()
        .max_by_key(|a| a.wasted_sectors)
        .unwrap();
    let heat = warpdrill::ui::analyze::compact(worst.wasted_sectors);
    let row = text
        .lines()
        .find(|l| l.contains(&format!("▸{} ", worst.line)))
        .unwrap_or_else(|| panic!("line {} selected:\n{text}", worst.line));
    assert!(row.contains(&heat), "{row}");
    assert!(row.contains('█'), "the worst line has the full bar: {row}");
}

#[test]
fn moving_to_a_line_shows_its_first_warp_in_the_diagram() {
    let mut app = analysing("transpose_tiled32");
    // To the shared store `tile[threadIdx.y + j][threadIdx.x] = …` : no conflict; the costly load is
    // the column read.
    let column_read = state(&app)
        .report()
        .lines
        .iter()
        .find(|a| a.space == "shared" && a.extra_wavefronts > 0)
        .unwrap()
        .line;
    assert_eq!(state(&app).cursor() + 1, column_read as usize);
    let text = screen(&app, 200, 60);
    assert!(text.contains("Lanes → 32 banks"), "{text}");
    assert!(text.contains("32-way") || text.contains("✗"), "{text}");
    // Up to the global read: the sector diagram.
    while state(&app)
        .selected_access()
        .is_none_or(|k| state(&app).report().lines[k].space != "global")
    {
        let before = state(&app).cursor();
        press(&mut app, KeyCode::Char('N'));
        assert_ne!(before, state(&app).cursor(), "no global access above");
    }
    let text = screen(&app, 200, 60);
    assert!(text.contains("Warp → sectors"), "{text}");
}

#[test]
fn keys_move_lines_and_step_iterations_warps_and_blocks() {
    let mut app = analysing("matmul_naive");
    let s = state(&app);
    let source_lines = examples::example("matmul_naive").unwrap().lines().count();
    let start = s.cursor();
    // The loop body's line: one execution per iteration of k.
    assert_eq!(s.iteration(), 0);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Char('l'));
    assert_eq!(state(&app).iteration(), 2);
    press(&mut app, KeyCode::Left);
    assert_eq!(state(&app).iteration(), 1);
    let text = screen(&app, 200, 60);
    assert!(text.contains("run 2 of 256"), "{text}");
    press(&mut app, KeyCode::Char('w'));
    assert_eq!(state(&app).warp(), 1);
    press(&mut app, KeyCode::Char('W'));
    press(&mut app, KeyCode::Char('W'));
    assert_eq!(state(&app).warp(), 7, "wraps to the last of 8 warps");
    press(&mut app, KeyCode::Char('b'));
    assert_eq!(state(&app).block(), 1);
    press(&mut app, KeyCode::Char('B'));
    press(&mut app, KeyCode::Char('B'));
    assert_eq!(state(&app).block(), 255, "wraps to the last of 256 blocks");
    assert!(screen(&app, 200, 60).contains("block (15,15,0) of 256"));
    // Lines: j/k, arrows, PgUp/PgDn, Home/End, n/N.
    press(&mut app, KeyCode::Char('k'));
    assert_eq!(state(&app).cursor(), start - 1);
    assert_eq!(
        state(&app).block(),
        0,
        "a new line starts again at its first warp"
    );
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(state(&app).cursor(), start + 1);
    press(&mut app, KeyCode::PageUp);
    assert_eq!(state(&app).cursor(), 0);
    press(&mut app, KeyCode::PageDown);
    assert_eq!(state(&app).cursor(), source_lines - 1);
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Char('n'));
    let first = state(&app).report().lines[0].line as usize;
    assert_eq!(state(&app).cursor() + 1, first);
    press(&mut app, KeyCode::End);
    assert_eq!(state(&app).cursor(), source_lines - 1);
    // Tab moves between the accesses of one line.
    let mut app = analysing("matmul_naive");
    let a = state(&app).selected_access();
    press(&mut app, KeyCode::Tab);
    assert_ne!(state(&app).selected_access(), a, "A[…] then B[…]");
}

#[test]
fn enter_opens_the_explorer_on_the_access_shown() {
    let mut app = analysing("strided");
    let s = state(&app);
    let (access, _) = s.warp_access().expect("warp 0 runs the strided read");
    press(&mut app, KeyCode::Enter);
    match app.screen() {
        Screen::Explorer(explorer) => {
            assert_eq!(explorer.access().elem_bytes, access.elem_bytes);
            let lanes = explorer.access().resolve().unwrap();
            assert_eq!(lanes, access.resolve().unwrap());
        }
        other => panic!("not the explorer: {other:?}"),
    }
    let text = screen(&app, 120, 40);
    assert!(
        text.contains("sectors 8"),
        "stride 2 of floats: 8 sectors\n{text}"
    );
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.screen(), Screen::Analyze(_)));
}

#[test]
fn help_lists_the_screen_s_keys() {
    let mut app = analysing("copy");
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&app, 100, 40);
    for hint in warpdrill::ui::Component::keys(state(&app), app.lang) {
        let (key, what) = (hint.key.as_ref(), hint.action.as_ref());
        assert!(text.contains(key), "{key} in help:\n{text}");
        assert!(text.contains(what), "{what} in help:\n{text}");
    }
}

#[test]
fn tiny_and_odd_terminals_do_not_panic() {
    let mut app = analysing("matmul_tiled");
    for (w, h) in [
        (1, 1),
        (10, 3),
        (59, 19),
        (60, 20),
        (61, 21),
        (80, 24),
        (300, 100),
    ] {
        let _ = screen(&app, w, h);
    }
    for key in [
        KeyCode::PageDown,
        KeyCode::End,
        KeyCode::Char('n'),
        KeyCode::Right,
    ] {
        press(&mut app, key);
        let _ = screen(&app, 60, 20);
    }
}

#[test]
fn a_kernel_that_cannot_be_analysed_leaves_a_message() {
    let mut app = app();
    let mut setup = AnalyzeSetup::example("copy").unwrap();
    setup.source =
        "__global__ void k(float* a) { a[(int)a[0]] = 1.0f; }\n// launch: --grid 1 --block 32"
            .into();
    setup.launch = Some(analyze::Launch {
        grid: [1, 1, 1],
        block: [32, 1, 1],
    });
    app.update(Action::AnalyzeKernel(Box::new(setup)));
    assert!(matches!(app.screen(), Screen::Home(_)));
    assert!(app.flash.as_deref().unwrap_or("").contains("not supported"));
}

/// On an 80×24 terminal the access box keeps what the learner reads: the why line and the run line
/// (block, warp, iteration), for every access of every built-in kernel — the diagram gives up rows
/// first, down to its lane rows.
#[test]
fn at_80x24_every_access_shows_its_why_and_its_run() {
    for (name, _) in examples::EXAMPLES {
        let mut app = analysing(name);
        let accesses = state(&app).report().lines.len();
        for _ in 0..accesses {
            let text = screen(&app, 80, 24);
            assert!(text.contains("│why: "), "{name}: no why line\n{text}");
            assert!(
                text.contains(" · run ") || text.contains("never runs"),
                "{name}: no run line\n{text}"
            );
            assert!(
                text.contains("│lane ") || text.contains("│bank "),
                "{name}: no diagram\n{text}"
            );
            press(&mut app, KeyCode::Char('n'));
        }
    }
}

#[test]
fn the_screen_shows_the_predicted_time_the_command_line_prints() {
    for example in ["transpose_naive", "matmul_tiled", "reduce_interleaved"] {
        let app = analysing(example);
        let shown = screen(&app, 80, 24);
        let out = crate::common::warpdrill()
            .args(["analyze", "--example", example, "--text"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let head = text
            .lines()
            .find(|l| l.starts_with("predicted time on NVIDIA H200:"))
            .unwrap_or_else(|| panic!("{example}: no time printed:\n{text}"));
        // The figure and the limiter as printed (a long limiter's words may be cut at 80 columns).
        let (figure, limiter) = head.split_once(", limited by ").expect("a limiter");
        let limiter_start: String = limiter.chars().take(12).collect();
        assert!(
            shown.contains(&format!("{figure}, limited by {limiter_start}")),
            "{example}: `{head}` not on the screen:\n{shown}"
        );
    }
}

#[test]
fn t_shows_every_term_of_the_predicted_time_at_80x24_and_t_again_the_diagram() {
    let mut app = analysing("transpose_naive");
    press(&mut app, KeyCode::Char('t'));
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Predicted time: each term, the largest first"),
        "{shown}"
    );
    for term in [
        "▶L2",
        "L1/shared",
        "latency",
        "DRAM",
        "block starts",
        "issue",
        "barriers",
        "launch",
    ] {
        assert!(shown.contains(term), "{term} missing:\n{shown}");
    }
    press(&mut app, KeyCode::Char('t'));
    assert!(screen(&app, 80, 24).contains("Warp → sectors"));
}

#[test]
fn the_screen_counts_a_kernels_atomics_apart() {
    let mut app = app();
    let mut setup = AnalyzeSetup::example("copy").unwrap();
    setup.source = "__global__ void k(const float* in, float* total) {\n  atomicAdd(total, in[threadIdx.x]);\n}\n".into();
    setup.launch = Some(analyze::Launch {
        grid: [1, 1, 1],
        block: [32, 1, 1],
    });
    app.update(Action::AnalyzeKernel(Box::new(setup)));
    assert!(matches!(app.screen(), Screen::Analyze(_)));
    let text = screen(&app, 120, 30);
    assert!(
        text.contains("global ld 1 req 4 sec · atomics 1 req / 32 sectors"),
        "{text}"
    );
}

#[test]
fn the_screen_shows_divergence_in_the_totals_and_for_the_line() {
    // The interleaved reduction starts on its costliest line: the `t % (2s) == 0` branch.
    let app = analysing("reduce_interleaved");
    let shown = screen(&app, 200, 60);
    let d = &state(&app).report().divergence;
    let percent = 100.0 * d.partial_instructions as f64 / d.warp_instructions as f64;
    assert!(
        shown.contains(&format!("divergent {percent:.0} %")),
        "{shown}"
    );
    assert!(
        shown.contains("warp instructions issued with threads idle"),
        "{shown}"
    );
    // A kernel that does not diverge says nothing of it.
    let shown = screen(&analysing("transpose_naive"), 200, 60);
    assert!(!shown.contains("divergen"), "{shown}");
}
