//! The analyser's limits and messages: what C leaves undefined (division by zero, shifts of 64 or
//! more, a local read before it has a value) is refused at its line, values a parameter's type
//! cannot hold are refused instead of wrapped, two kernels of one name are not silently taken one
//! for the other; and the analyser screen works on a worker thread that Esc cancels.

use crate::common;

use common::{app, press, screen};
use ratatui::crossterm::event::KeyCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use warpdrill::analyze::{self, AnalyzeError, Options};
use warpdrill::app::{Action, Screen};
use warpdrill::ui::analyze::AnalyzeSetup;

fn error(source: &str, defines: &[(&str, &str)], kernel: Option<&str>) -> String {
    let options = Options {
        kernel: kernel.map(str::to_string),
        defines: defines
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Options::default()
    };
    match analyze::analyze(source, "k.cu", &options) {
        Ok(_) => panic!("analysed, but should have been refused:\n{source}"),
        Err(e) => e.to_string(),
    }
}

const LAUNCH: &str = "// launch: --grid 1 --block 32\n";

#[test]
fn a_division_by_zero_names_its_line() {
    let source = format!(
        "{LAUNCH}__global__ void k(float *a, int n) {{\n    int i = threadIdx.x / n;\n    a[i] = 1.0f;\n}}\n"
    );
    let message = error(&source, &[("n", "0")], None);
    assert!(message.starts_with("k.cu:3:"), "{message}");
    assert!(
        message.contains("division or remainder by zero"),
        "{message}"
    );
}

#[test]
fn a_huge_shared_array_says_how_big_it_may_be() {
    let source = format!(
        "{LAUNCH}__global__ void k(float *a) {{\n    __shared__ float s[2000000];\n    s[threadIdx.x] = 1.0f;\n}}\n"
    );
    let message = error(&source, &[], None);
    assert!(message.starts_with("k.cu:3:"), "{message}");
    assert!(message.contains("2000000 elements"), "{message}");
    assert!(message.contains("at most 1048576"), "{message}");
    assert!(!message.contains("not a positive constant"), "{message}");
}

#[test]
fn a_define_out_of_range_for_an_int_parameter_is_refused() {
    let source = format!(
        "{LAUNCH}__global__ void k(float *a, int n) {{\n    for (int i = 0; i < n; i++) a[threadIdx.x] = 1.0f;\n}}\n"
    );
    let message = error(&source, &[("n", "2147483648")], None);
    assert!(message.starts_with("k.cu:2:"), "{message}");
    assert!(message.contains("out of range for int"), "{message}");
    assert!(message.contains("2147483647"), "{message}");
    // Below zero for an unsigned parameter too; in range, it analyses.
    let unsigned = source.replace("int n", "unsigned n");
    assert!(error(&unsigned, &[("n", "-1")], None).contains("out of range for unsigned"));
    let options = Options {
        defines: vec![("n".into(), "100".into())],
        ..Options::default()
    };
    analyze::analyze(&source, "k.cu", &options).expect("n = 100 is an int");
}

#[test]
fn a_local_read_before_it_has_a_value_is_named() {
    let source = format!(
        "{LAUNCH}__global__ void k(float *a) {{\n    int j;\n    a[threadIdx.x + j] = 1.0f;\n}}\n"
    );
    let message = error(&source, &[], None);
    assert!(message.starts_with("k.cu:4:"), "{message}");
    assert!(message.contains("`j`"), "{message}");
    assert!(message.contains("before it is given a value"), "{message}");
    // `+=` reads it too.
    let source = format!(
        "{LAUNCH}__global__ void k(float *a) {{\n    int j;\n    j += 1;\n    a[threadIdx.x + j] = 1.0f;\n}}\n"
    );
    assert!(error(&source, &[], None).contains("`j`"));
    // Given a value first, it is an ordinary local.
    let source = format!(
        "{LAUNCH}__global__ void k(float *a) {{\n    int j;\n    j = 2;\n    a[threadIdx.x + j] = 1.0f;\n}}\n"
    );
    analyze::analyze(&source, "k.cu", &Options::default()).expect("a local assigned before use");
}

#[test]
fn shifts_of_64_or_more_are_refused() {
    for (shift, line) in [("threadIdx.x << 64", 3), ("threadIdx.x >> (n + 70)", 3)] {
        let source = format!(
            "{LAUNCH}__global__ void k(float *a, int n) {{\n    int j = {shift};\n    a[j] = 1.0f;\n}}\n"
        );
        let message = error(&source, &[("n", "0")], None);
        assert!(message.starts_with(&format!("k.cu:{line}:")), "{message}");
        assert!(message.contains("64 or more"), "{message}");
    }
    let source = format!(
        "{LAUNCH}__global__ void k(float *a) {{\n    int j = threadIdx.x << 63 >> 63;\n    a[j & 31] = 1.0f;\n}}\n"
    );
    analyze::analyze(&source, "k.cu", &Options::default()).expect("a shift by 63");
}

#[test]
fn two_kernels_of_one_name_are_refused() {
    let source = format!(
        "{LAUNCH}__global__ void k(float *a) {{ a[threadIdx.x] = 1.0f; }}\n__global__ void k(float *a) {{ a[threadIdx.x * 2] = 1.0f; }}\n"
    );
    for kernel in [None, Some("k")] {
        let message = error(&source, &[], kernel);
        assert!(message.contains("two __global__ functions"), "{message}");
        assert!(message.contains("lines 2 and 3"), "{message}");
    }
}

/// One warp, a long loop of many statements: seconds of simulation before the budget ends it.
fn long_kernel() -> String {
    let body: String = (0..200)
        .map(|k| format!("        a[threadIdx.x + {k}] = 1.0f;\n"))
        .collect();
    format!(
        "{LAUNCH}__global__ void k(float *a) {{\n    for (int i = 0; i < 1000000; i++) {{\n{body}    }}\n}}\n"
    )
}

#[test]
fn a_cancelled_analysis_ends_with_cancelled() {
    let flag = Arc::new(AtomicBool::new(true));
    let result = analyze::run::cancellable(flag, || {
        analyze::analyze(&long_kernel(), "k.cu", &Options::default())
    });
    assert!(matches!(result, Err(AnalyzeError::Cancelled)), "{result:?}");
    // Without the flag, the same run is not cancelled (the step budget ends it instead).
    let flag = Arc::new(AtomicBool::new(false));
    let short = format!("{LAUNCH}__global__ void k(float *a) {{ a[threadIdx.x] = 1.0f; }}\n");
    analyze::run::cancellable(flag, || {
        analyze::analyze(&short, "k.cu", &Options::default())
    })
    .expect("not cancelled");
}

fn setup(source: String) -> AnalyzeSetup {
    AnalyzeSetup {
        file: "k.cu".into(),
        source,
        kernel: None,
        launch: None,
        defines: Vec::new(),
        headers: Vec::new(),
        assume: Vec::new(),
        arch: warpdrill::engine::Arch::default_arch(),
        gpu: warpdrill::engine::timing::H200.key,
    }
}

#[test]
fn the_screen_analyses_on_a_worker_thread_that_esc_cancels() {
    let mut app = app();
    app.background = true;
    app.update(Action::AnalyzeKernel(Box::new(setup(long_kernel()))));
    // At once, before the run is over: the screen says so, and keys are answered.
    assert!(matches!(app.screen(), Screen::Analyzing(_)));
    let shown = screen(&app, 100, 30);
    assert!(shown.contains("analysing… (Esc cancels)"), "{shown}");
    press(&mut app, KeyCode::Esc);
    assert!(!matches!(app.screen(), Screen::Analyzing(_)));
    // The worker stops soon after (it checks its flag every few thousand steps).
    let started = std::time::Instant::now();
    while warpdrill::ui::analyze::working() && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(!warpdrill::ui::analyze::working(), "the worker ended");

    // A short kernel: its report replaces the "analysing…" screen once the worker is done.
    let short = format!("{LAUNCH}__global__ void k(float *a) {{ a[threadIdx.x] = 1.0f; }}\n");
    app.update(Action::AnalyzeKernel(Box::new(setup(short))));
    let started = std::time::Instant::now();
    while matches!(app.screen(), Screen::Analyzing(_)) && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        app.poll_work();
    }
    assert!(matches!(app.screen(), Screen::Analyze(_)));

    // An error goes back, saying why.
    let bad = format!("{LAUNCH}__global__ void k(float *a) {{ a[threadIdx.x / 0] = 1.0f; }}\n");
    app.update(Action::AnalyzeKernel(Box::new(setup(bad))));
    let started = std::time::Instant::now();
    while matches!(app.screen(), Screen::Analyzing(_)) && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        app.poll_work();
    }
    assert!(
        matches!(app.screen(), Screen::Analyze(_)),
        "back where it was"
    );
    let flash = app.flash.clone().unwrap_or_default();
    assert!(flash.starts_with("Cannot analyse k.cu: k.cu:2:"), "{flash}");
}
