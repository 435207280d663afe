//! The explorer and calculators: screens for several patterns, the numbers on screen equal to the
//! engine's, keys that change the pattern, and "show me" from an exercise.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use warpdrill::app::{Action, App, Screen};
use warpdrill::engine::{self, Arch, Granularity, KernelConfig, WarpAccess};
use warpdrill::format;
use warpdrill::ladder::ShowMe;
use warpdrill::ui::calculators::Tab;
use warpdrill::ui::explorer::Space;

mod common;
use common::{app, press, screen};

fn explore(arch: &str, space: Space, access: WarpAccess) -> App {
    let mut app = app();
    let arch = Arch::parse(arch).unwrap();
    let access = access
        .with_warp_size(arch.warp_size)
        .with_mask(engine::full_mask(arch.warp_size));
    app.update(Action::OpenExplorer(warpdrill::ui::ExplorerSetup::new(
        arch, space, &access,
    )));
    app
}

/// The global numbers the explorer must show, straight from the engine.
fn global_numbers(arch: &str, access: &WarpAccess) -> [String; 4] {
    let arch = Arch::parse(arch).unwrap();
    let access = access
        .clone()
        .with_warp_size(arch.warp_size)
        .with_mask(engine::full_mask(arch.warp_size));
    let c = engine::coalesce(&access, arch.granularity).unwrap();
    [
        format!("sectors {}", c.sectors),
        format!("requests {}", c.requests),
        format!(
            "bytes requested {} / fetched {}",
            c.bytes_requested, c.bytes_fetched
        ),
        format!("efficiency {}", format::percent(c.efficiency)),
    ]
}

fn shared_numbers(access: &WarpAccess) -> [String; 4] {
    let b = engine::bank_conflicts(access, Arch::default_arch()).unwrap();
    [
        format!("wavefronts {}", b.wavefronts),
        format!("ideal {}", b.ideal_wavefronts),
        format!(
            "conflict degree {}-way",
            format::trim_float(b.conflict_degree, 2)
        ),
        format!("bank conflicts {}", b.bank_conflicts),
    ]
}

#[test]
fn global_patterns_show_the_engines_numbers() {
    for (name, arch, access) in [
        ("sequential", "sm_90", WarpAccess::affine(4, 1, 0)),
        ("stride2", "sm_90", WarpAccess::affine(4, 2, 0)),
        ("misaligned", "sm_90", WarpAccess::affine(4, 1, 1)),
        ("stride1024", "sm_90", WarpAccess::affine(4, 1024, 0)),
        (
            "amd_wave64_stride64",
            "gfx942",
            WarpAccess::affine(4, 64, 0),
        ),
    ] {
        let app = explore(arch, Space::Global, access.clone());
        let text = screen(&app, 80, 24);
        insta::assert_snapshot!(format!("explorer_global_{name}_80x24"), text);
        for number in global_numbers(arch, &access) {
            assert!(text.contains(&number), "{name}: {number:?} missing\n{text}");
        }
    }
    let strided = screen(
        &explore("sm_90", Space::Global, WarpAccess::affine(4, 1024, 0)),
        80,
        24,
    );
    assert!(
        strided.contains("⋮ gap of"),
        "far memory is drawn as a gap:\n{strided}"
    );
}

#[test]
fn shared_patterns_show_the_engines_numbers() {
    for (name, access) in [
        ("tile32", WarpAccess::affine(4, 32, 0)),
        ("padded_tile33", WarpAccess::affine(4, 33, 0)),
        ("stride2", WarpAccess::affine(4, 2, 0)),
        ("broadcast", WarpAccess::affine(4, 0, 0)),
        ("doubles", WarpAccess::affine(8, 1, 0)),
    ] {
        let app = explore("sm_90", Space::Shared, access.clone());
        let text = screen(&app, 80, 24);
        insta::assert_snapshot!(format!("explorer_shared_{name}_80x24"), text);
        for number in shared_numbers(&access) {
            assert!(text.contains(&number), "{name}: {number:?} missing\n{text}");
        }
    }
    let stride2 = screen(
        &explore("sm_90", Space::Shared, WarpAccess::affine(4, 2, 0)),
        80,
        24,
    );
    assert!(
        stride2.contains("w2✗"),
        "serialized rows are marked with a symbol:\n{stride2}"
    );
    assert!(
        stride2.contains("stride 2 words: gcd(2, 32) = 2"),
        "{stride2}"
    );
    let broadcast = screen(
        &explore("sm_90", Space::Shared, WarpAccess::affine(4, 0, 0)),
        80,
        24,
    );
    assert!(
        broadcast.contains("broadcast: lanes 0-31 share word 0"),
        "{broadcast}"
    );
    let doubles = screen(
        &explore("sm_90", Space::Shared, WarpAccess::affine(8, 1, 0)),
        80,
        24,
    );
    assert!(
        doubles.contains("phase lanes 0-15"),
        "8-byte phases shown:\n{doubles}"
    );
    let wide = screen(
        &explore("sm_90", Space::Shared, WarpAccess::affine(4, 2, 0)),
        200,
        60,
    );
    insta::assert_snapshot!("explorer_shared_stride2_200x60", wide);
}

#[test]
fn keys_change_the_pattern_and_the_numbers_follow() {
    let mut app = explore("sm_90", Space::Global, WarpAccess::affine(4, 1, 0));
    assert!(screen(&app, 80, 24).contains("sectors 4"));
    press(&mut app, KeyCode::Char('s'));
    let text = screen(&app, 80, 24);
    assert!(
        text.contains("sectors 8") && text.contains("efficiency 50%"),
        "{text}"
    );
    press(&mut app, KeyCode::Char('S'));
    press(&mut app, KeyCode::Char('o'));
    assert!(screen(&app, 80, 24).contains("sectors 5"));
    press(&mut app, KeyCode::Char('O'));
    press(&mut app, KeyCode::Char('e'));
    assert!(screen(&app, 80, 24).contains("elem    8 B"));
    assert!(screen(&app, 80, 24).contains("sectors 8"));
    press(&mut app, KeyCode::Char('m'));
    let shared = screen(&app, 80, 24);
    assert!(
        shared.contains("wavefronts 2") && shared.contains("Lanes → 32 banks"),
        "{shared}"
    );
    press(&mut app, KeyCode::Char('a'));
    assert!(screen(&app, 80, 24).contains("sm_100"));
    // Typing a value: select the stride row, Enter, type, Enter.
    let mut app = explore("sm_90", Space::Global, WarpAccess::affine(4, 1, 0));
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    for c in "-32".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    let text = screen(&app, 80, 24);
    assert!(
        text.contains("stride  -32 elem") && text.contains("sectors 32"),
        "{text}"
    );
    // Presets: Esc closes the picker without leaving the explorer.
    press(&mut app, KeyCode::Char('p'));
    assert!(screen(&app, 80, 24).contains("Presets (Enter apply, Esc close)"));
    press(&mut app, KeyCode::Esc);
    assert!(!screen(&app, 80, 24).contains("Presets (Enter apply"));
    assert!(matches!(app.screen(), Screen::Explorer(_)));
    press(&mut app, KeyCode::Char('p'));
    insta::assert_snapshot!("explorer_presets_80x24", screen(&app, 80, 24));
    for _ in 0..11 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let padded = screen(&app, 80, 24);
    assert!(
        padded.contains("preset: padded tile[32][33]") && padded.contains("wavefronts 1"),
        "{padded}"
    );
    press(&mut app, KeyCode::Char('q'));
    assert!(matches!(app.screen(), Screen::Home(_)));
}

#[test]
fn occupancy_calculator_shows_limits_plots_and_the_textbook_bound() {
    let mut app = app();
    app.update(Action::ShowMe(ShowMe::Occupancy {
        arch: Arch::default_arch(),
        config: KernelConfig::new(256, 48),
    }));
    let text = screen(&app, 80, 24);
    insta::assert_snapshot!("calculator_occupancy_80x24", text);
    let o = engine::occupancy(Arch::default_arch(), &KernelConfig::new(256, 48)).unwrap();
    assert!(
        text.contains(&format!("occupancy {}", format::percent(o.occupancy))),
        "{text}"
    );
    assert!(text.contains("registers 5 ◀"), "{text}");
    let wide = screen(&app, 200, 60);
    assert!(wide.contains("registers        5 ◀ limiter"), "{wide}");
    assert!(text.contains("1365 → 1344 thr = 65.6%"), "{text}");
    for plot in ["block size", "registers", "smem KB"] {
        assert!(text.contains(plot), "{plot} plot\n{text}");
    }
    // ← on the registers row lowers them; the plots and numbers follow.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    for _ in 0..16 {
        press(&mut app, KeyCode::Left);
    }
    assert!(screen(&app, 80, 24).contains("occupancy 100%"));
    insta::assert_snapshot!("calculator_occupancy_200x60", screen(&app, 200, 60));
}

#[test]
fn tiling_and_roofline_calculators() {
    let mut app = app();
    app.update(Action::OpenCalculators(Tab::Tiling));
    let text = screen(&app, 80, 24);
    insta::assert_snapshot!("calculator_tiling_80x24", text);
    assert!(
        text.contains("reduction factor 16×") && text.contains("0.25 → 4 FLOP/B"),
        "{text}"
    );
    press(&mut app, KeyCode::Char('3'));
    let roof = screen(&app, 80, 24);
    insta::assert_snapshot!("calculator_roofline_80x24", roof);
    assert!(roof.contains("ridge 13.96 FLOP/B"), "{roof}");
    assert!(
        roof.contains("naive matmul 0.25 FLOP/B:") && roof.contains("memory-bound, 1.2 TFLOP/s"),
        "{roof}"
    );
    assert!(roof.contains("compute-bound, 67 TFLOP/s"), "{roof}");
    // Add a kernel, type its intensity, and see it placed; remove it again.
    press(&mut app, KeyCode::Char('a'));
    press(&mut app, KeyCode::Enter);
    for c in "100".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    let added = screen(&app, 80, 24);
    assert!(
        added.contains("kernel 4 100 FLOP/B: compute-bound"),
        "{added}"
    );
    press(&mut app, KeyCode::Char('d'));
    assert!(!screen(&app, 80, 24).contains("kernel 4"));
}

#[test]
fn show_me_opens_the_exercises_own_pattern() {
    let mut app = app();
    app.update(Action::OpenExercise("l2-stride-sectors".into()));
    let (elem, stride) = match app.screen() {
        Screen::Exercise(state) => {
            let v = state.variant.as_ref().unwrap();
            (v.numbers["elem"], v.numbers["stride"])
        }
        _ => unreachable!(),
    };
    if let Some(action) = app.handle_key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL)) {
        app.update(action);
    }
    let Screen::Explorer(state) = app.screen() else {
        panic!("show me opened {:?}", app.screen())
    };
    assert_eq!((f64::from(state.elem), state.stride as f64), (elem, stride));
    let expected = engine::coalesce(&state.access(), Granularity::Sector)
        .unwrap()
        .sectors;
    assert!(screen(&app, 80, 24).contains(&format!("sectors {expected}")));
    press(&mut app, KeyCode::Esc);
    assert!(
        matches!(app.screen(), Screen::Exercise(_)),
        "back returns to the exercise"
    );

    app.update(Action::OpenExercise("l3-textbook-vs-hardware".into()));
    if let Some(action) = app.handle_key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL)) {
        app.update(action);
    }
    let Screen::Calculators(state) = app.screen() else {
        panic!()
    };
    assert_eq!(state.tab, Tab::Occupancy);
    assert_eq!(state.occupancy.config.block_size, 256);
}
