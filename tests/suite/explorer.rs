//! The explorer and calculators: screens for several patterns, the numbers on screen equal to the
//! engine's, keys that change the pattern, and "show me" from an exercise.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use warpdrill::app::{Action, App, Screen};
use warpdrill::engine::{self, Arch, KernelConfig, WarpAccess};
use warpdrill::ladder::ShowMe;
use warpdrill::ui::calculators::Tab;
use warpdrill::ui::explorer::Space;

use crate::common;
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
/// The numbers a learner works out by hand for a global pattern: sectors, requests, bytes requested
/// and fetched, efficiency.
fn global_numbers(sectors: u32, requested: u32, fetched: u32, efficiency: &str) -> [String; 4] {
    [
        format!("sectors {sectors}"),
        "requests 1".to_string(),
        format!("bytes requested {requested} / fetched {fetched}"),
        format!("efficiency {efficiency}"),
    ]
}

/// The numbers worked out by hand for a shared pattern: wavefronts, ideal, degree, conflicts.
fn shared_numbers(wavefronts: u32, ideal: u32, degree: u32) -> [String; 4] {
    [
        format!("wavefronts {wavefronts}"),
        format!("ideal {ideal}"),
        format!("conflict degree {degree}-way"),
        format!("bank conflicts {}", wavefronts - ideal),
    ]
}

#[test]
fn global_patterns_show_the_engines_numbers() {
    // By hand: 32 lanes × 4 B = 128 B requested. Stride 1 fills 4 sectors; stride 2 spans 256 B = 8
    // sectors; offset 1 straddles 5 sectors (160 B); stride 1024 puts each lane in its own sector
    // (32 × 32 B). AMD wave64 at stride 64: 64 lanes × 4 B = 256 B, one 128-byte line per lane.
    for (name, arch, access, expected) in [
        (
            "sequential",
            "sm_90",
            WarpAccess::affine(4, 1, 0),
            global_numbers(4, 128, 128, "100%"),
        ),
        (
            "stride2",
            "sm_90",
            WarpAccess::affine(4, 2, 0),
            global_numbers(8, 128, 256, "50%"),
        ),
        (
            "misaligned",
            "sm_90",
            WarpAccess::affine(4, 1, 1),
            global_numbers(5, 128, 160, "80%"),
        ),
        (
            "stride1024",
            "sm_90",
            WarpAccess::affine(4, 1024, 0),
            global_numbers(32, 128, 1024, "12.5%"),
        ),
        (
            "amd_wave64_stride64",
            "gfx942",
            WarpAccess::affine(4, 64, 0),
            global_numbers(64, 256, 64 * 128, "3.1%"),
        ),
    ] {
        let app = explore(arch, Space::Global, access.clone());
        let text = screen(&app, 80, 24);
        insta::assert_snapshot!(format!("explorer_global_{name}_80x24"), text);
        for number in expected {
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
    // By hand: a column of tile[32][32] puts all 32 lanes in bank 0 (32-way); [32][33] spreads them
    // over 32 banks; stride 2 pairs lanes t and t+16 in one bank (2-way); one word for all lanes is a
    // broadcast; 8-byte loads take two 16-lane phases, each conflict-free.
    for (name, access, expected) in [
        (
            "tile32",
            WarpAccess::affine(4, 32, 0),
            shared_numbers(32, 1, 32),
        ),
        (
            "padded_tile33",
            WarpAccess::affine(4, 33, 0),
            shared_numbers(1, 1, 1),
        ),
        (
            "stride2",
            WarpAccess::affine(4, 2, 0),
            shared_numbers(2, 1, 2),
        ),
        (
            "broadcast",
            WarpAccess::affine(4, 0, 0),
            shared_numbers(1, 1, 1),
        ),
        (
            "doubles",
            WarpAccess::affine(8, 1, 0),
            shared_numbers(2, 2, 1),
        ),
    ] {
        let app = explore("sm_90", Space::Shared, access.clone());
        let text = screen(&app, 80, 24);
        insta::assert_snapshot!(format!("explorer_shared_{name}_80x24"), text);
        for number in expected {
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
    // By hand: 48 registers × 32 lanes = 1536 per warp; 65 536 / 1536 = 42 warps, rounded to
    // whole 8-warp blocks: 5 blocks, 40 of 64 warps = 62.5 %.
    assert!(text.contains("occupancy 62.5%"), "{text}");
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
            let v = state.variant().unwrap();
            (v.numbers["elem"], v.numbers["stride"])
        }
        _ => unreachable!(),
    };
    let show_me = |app: &mut warpdrill::app::App| {
        if let Some(action) =
            app.handle_key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL))
        {
            app.update(action);
        }
    };
    // Before a first answer the diagram would give the answer away: it waits.
    show_me(&mut app);
    assert!(matches!(app.screen(), Screen::Exercise(_)));
    assert!(screen(&app, 80, 24).contains("Show me opens after your first answer"));
    for key in [KeyCode::Char('0'), KeyCode::Enter] {
        press(&mut app, key);
    }
    show_me(&mut app);
    let Screen::Explorer(state) = app.screen() else {
        panic!("show me opened {:?}", app.screen())
    };
    assert_eq!(
        (f64::from(state.elem_bytes()), state.stride() as f64),
        (elem, stride)
    );
    // By hand: 32 lanes, each `stride × elem` bytes apart, span (31·stride + 1)·elem bytes; below a
    // 32-byte gap the sectors are that span rounded up to 32 B, else one per lane.
    let gap = stride * elem;
    let expected = if gap >= 32.0 {
        32.0
    } else {
        ((31.0 * gap + elem) / 32.0).ceil()
    };
    assert!(screen(&app, 80, 24).contains(&format!("sectors {expected}")));
    press(&mut app, KeyCode::Esc);
    assert!(
        matches!(app.screen(), Screen::Exercise(_)),
        "back returns to the exercise"
    );

    app.update(Action::OpenExercise("l3-textbook-vs-hardware".into()));
    for key in [KeyCode::Char('1'), KeyCode::Char('%'), KeyCode::Enter] {
        press(&mut app, key);
    }
    show_me(&mut app);
    let Screen::Calculators(state) = app.screen() else {
        panic!()
    };
    assert_eq!(state.tab(), Tab::Occupancy);
    assert_eq!(state.occupancy().config.block_size, 256);
}

/// The bank numbers of a bank diagram's header, read back from the screen, with the column each
/// is drawn in: one row (`  0  1 … 31`), or two rows read downwards (tens over units).
fn bank_header(lines: &[Vec<char>], row: usize, at: usize) -> Vec<(u32, usize)> {
    let first = &lines[row];
    let second = &lines[row + 1];
    let digit = |line: &Vec<char>, c: usize| line.get(c).and_then(|ch| ch.to_digit(10));
    let two_rows = second[at..at + 4].iter().all(|c| *c == ' ')
        && (at + 4..second.len()).any(|c| digit(second, c).is_some());
    let end = |line: &Vec<char>| {
        (at..line.len())
            .find(|&c| line[c] == '│')
            .unwrap_or(line.len())
    };
    if two_rows {
        (at + 4..end(second))
            .filter_map(|c| Some((digit(first, c)? * 10 + digit(second, c)?, c)))
            .collect()
    } else {
        let mut banks = Vec::new();
        let mut c = at + 4;
        while c < end(first) {
            if first[c].is_ascii_digit() {
                let start = c;
                while c < end(first) && first[c].is_ascii_digit() {
                    c += 1;
                }
                let text: String = first[start..c].iter().collect();
                banks.push((text.parse().unwrap(), c - 1));
            } else {
                c += 1;
            }
        }
        banks
    }
}

#[test]
fn bank_and_lane_numbers_stay_apart_at_every_width() {
    for width in [60u16, 80, 100, 120, 200] {
        let app = explore("sm_90", Space::Shared, WarpAccess::affine(4, 2, 0));
        let text = screen(&app, width, 30);
        let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        let (row, at) = lines
            .iter()
            .enumerate()
            .find_map(|(i, l)| {
                let s: String = l.iter().collect();
                s.find("│bank ")
                    .map(|byte| (i, s[..byte].chars().count() + 1))
            })
            .unwrap_or_else(|| panic!("no bank header at {width}:\n{text}"));
        let banks = bank_header(&lines, row, at);
        let numbers: Vec<u32> = banks.iter().map(|(b, _)| *b).collect();
        assert_eq!(
            numbers,
            (0..32).collect::<Vec<_>>(),
            "header at {width} columns:\n{text}"
        );
        let columns: Vec<usize> = banks.iter().map(|(_, c)| *c).collect();
        // Every lane number in the grid ends in a bank's column and is one number, not several run
        // together.
        let header_rows = 1 + usize::from(lines[row + 1][at..].starts_with(&[' '; 5]));
        let mut lane_rows = 0;
        for line in &lines[row + header_rows..] {
            let body: String = line[at..].iter().collect();
            let lane_row = body.starts_with('w')
                || (body.starts_with("     ") && body.chars().any(|c| c.is_ascii_digit()));
            if !lane_row {
                if lane_rows > 0 {
                    break;
                }
                continue;
            }
            lane_rows += 1;
            let mut c = at + 5;
            while c < line.len() && line[c] != '│' {
                if line[c].is_ascii_digit() {
                    let start = c;
                    while line[c].is_ascii_digit() {
                        c += 1;
                    }
                    let end = if line[c] == '+' { c } else { c - 1 };
                    assert!(
                        c - start <= 2 && columns.contains(&(c - 1)),
                        "lane number at column {start} runs into another or misses its bank at \
                         {width} columns:\n{text}"
                    );
                    c = end + 1;
                } else {
                    c += 1;
                }
            }
        }
        assert!(lane_rows >= 2, "no grid rows at {width}:\n{text}");
    }
}
