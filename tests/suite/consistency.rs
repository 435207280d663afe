//! warpdrill never contradicts itself on screen or on the command line: words agree with their
//! numbers, addresses keep their sign, and the same question gets the same answer everywhere.

use crate::common;

use common::{app, press, screen};
use ratatui::crossterm::event::KeyCode;
use warpdrill::app::{Action, Screen};
use warpdrill::engine::{Arch, WarpAccess};
use warpdrill::ui::{ExplorerSetup, Space};

fn warpdrill(args: &[&str]) -> (String, String, i32) {
    let out = crate::common::warpdrill()
        .args(args)
        .output()
        .expect("the binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn counts_and_nouns_agree() {
    let (text, _, code) = warpdrill(&["calc", "coalescing", "--stride", "0"]);
    assert_eq!(code, 0);
    assert!(text.contains("1 transaction (32 B)"), "{text}");
    assert!(!text.contains("1 transactions"), "{text}");
    let (text, _, _) = warpdrill(&["calc", "banks", "--elem", "8"]);
    assert!(text.contains("→ 1 wavefront\n"), "{text}");
    assert!(!text.contains("wavefront(s)"), "{text}");
    let (text, _, _) = warpdrill(&["calc", "tiling", "--tile", "1"]);
    assert!(!text.contains(" 1 blocks"), "{text}");
}

#[test]
fn negative_addresses_are_shown_with_a_sign() {
    // Stride −1 from element 0: lanes read bytes 0, −4, …, −124; sectors start at −0x80.
    let (text, _, code) = warpdrill(&["calc", "coalescing", "--stride", "-1"]);
    assert_eq!(code, 0);
    assert!(text.contains("-0x80"), "{text}");
    assert!(!text.contains("0xffffffff"), "{text}");
    let mut app = app();
    app.update(Action::OpenExplorer(ExplorerSetup::new(
        Arch::default_arch(),
        Space::Global,
        &WarpAccess::affine(4, -1, 0),
    )));
    let shown = screen(&app, 100, 30);
    assert!(
        shown.contains("-0x80") && !shown.contains("0xffff"),
        "{shown}"
    );
}

#[test]
fn explore_and_calculators_opened_from_the_command_line_quit_on_q() {
    for start in [
        Action::OpenExplorer(ExplorerSetup::default()),
        Action::OpenCalculators(warpdrill::ui::Tab::Roofline),
    ] {
        let mut app = app();
        app.start_on(start);
        assert_eq!(app.stack.len(), 1);
        press(&mut app, KeyCode::Char('q'));
        assert!(app.quit, "q quits a tool opened on its own");
    }
    // Opened from Home, the same screens go back to Home.
    let mut app = app();
    app.update(Action::OpenExplorer(ExplorerSetup::default()));
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.quit && matches!(app.screen(), Screen::Home(_)));
    // g from a tool opened on its own still reaches Home.
    let mut app = common::app();
    app.start_on(Action::OpenExplorer(ExplorerSetup::default()));
    press(&mut app, KeyCode::Char('g'));
    assert!(matches!(app.screen(), Screen::Home(_)));
    press(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}

#[test]
fn while_too_small_only_quit_acts() {
    let mut app = app();
    app.update(Action::OpenExercise("l1-sector-size".into()));
    app.resize(40, 12);
    assert!(screen(&app, 40, 12).contains("Terminal too small"));
    for code in [KeyCode::Char('j'), KeyCode::Char('3'), KeyCode::Enter] {
        press(&mut app, code);
    }
    let Screen::Exercise(state) = app.screen() else {
        panic!("{:?}", app.screen())
    };
    assert_eq!(
        state.input().text(),
        "",
        "keys did not reach the hidden answer box"
    );
    assert_eq!(state.attempt().attempts(), 0);
    app.resize(80, 24);
    press(&mut app, KeyCode::Char('3'));
    let Screen::Exercise(state) = app.screen() else {
        panic!()
    };
    assert_eq!(
        state.input().text(),
        "3",
        "after resizing, keys reach the screen again"
    );
    app.resize(40, 12);
    press(&mut app, KeyCode::Char('q'));
    assert!(app.quit, "q quits from the too-small screen, as it says");
}

#[test]
fn help_lists_only_the_global_keys_that_work_on_the_screen() {
    let mut app = app();
    let names = |app: &warpdrill::app::App| -> Vec<String> {
        app.global_keys()
            .into_iter()
            .map(|hint| hint.key.into_owned())
            .collect()
    };
    assert_eq!(
        names(&app),
        vec!["/", "Ctrl-P", "?", "F1", "g", "Esc", "q", "Ctrl-C"],
        "on Home every global key works"
    );
    // In an answer box letters and `/` are text; Esc still goes back, Ctrl keys still work.
    app.update(Action::OpenExercise("l1-sector-size".into()));
    let typing = names(&app);
    for gone in ["/", "g", "q"] {
        assert!(
            !typing.iter().any(|k| k == gone),
            "{gone} is typed here: {typing:?}"
        );
    }
    for kept in ["Ctrl-P", "F1", "Esc", "Ctrl-C", "?"] {
        assert!(
            typing.iter().any(|k| k == kept),
            "{kept} works here: {typing:?}"
        );
    }
    // The help overlay shows the same list.
    press(&mut app, KeyCode::F(1));
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Ctrl-P") && !shown.contains("/ or Ctrl-P"),
        "{shown}"
    );
    assert!(!shown.contains("g             home"), "{shown}");
}

#[test]
fn search_lists_every_kind_and_opens_only_what_the_ladder_would() {
    use warpdrill::app::Overlay;
    use warpdrill::ui::search::Kind;
    let mut app = app();
    press(&mut app, KeyCode::Char('/'));
    let Some(Overlay::Search(search)) = &app.overlay else {
        panic!("search is open")
    };
    let content = &app.content;
    assert_eq!(
        search.hits().len(),
        content.topics.len() + content.exercises.len() + content.cards.len(),
        "an empty query lists everything"
    );
    for kind in [Kind::Topic, Kind::Exercise, Kind::Card] {
        assert!(search.hits().iter().any(|h| h.kind == kind), "{kind:?}");
    }
    // An L3 exercise is locked for a new learner: it is marked, and Enter says why instead of opening.
    let l3 = content
        .exercises
        .iter()
        .find(|e| e.level == warpdrill::content::schema::Level::L3)
        .expect("an L3 exercise")
        .clone();
    common::type_text(&mut app, &l3.title);
    let shown = screen(&app, 100, 30);
    assert!(shown.contains("locked"), "{shown}");
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::Home(_)), "nothing opened");
    let shown = screen(&app, 100, 30);
    assert!(
        shown.contains(&format!("L3 · {} is locked", l3.topic)),
        "{shown}"
    );
    // Once everything is unlocked it opens.
    app.progress.unlock_all = true;
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::Exercise(state) if state.id() == l3.id));
}

mod one_shared_memory_rule {
    use proptest::prelude::*;
    use warpdrill::engine::{self, Arch, Carveout, KernelConfig, TilingInput};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// `calc tiling` and `calc occupancy` agree on the blocks shared memory allows, for every tile
        /// and element size, on every NVIDIA architecture with occupancy figures.
        #[test]
        fn tiling_and_occupancy_count_shared_memory_blocks_alike(
            tile in 1u64..=64,
            elem in prop::sample::select(vec![1u32, 2, 4, 8, 16]),
            arch in prop::sample::select(
                engine::ARCHS.iter().filter(|a| a.nvidia.is_some()).collect::<Vec<&'static Arch>>()
            ),
        ) {
            let t = engine::tiling(&TilingInput { n: 1024, tile, elem_bytes: elem }, Some(arch), 0)
                .expect("tiling computes");
            let mut config = KernelConfig::new(32, 0);
            config.dynamic_smem = u32::try_from(t.smem_bytes_per_block).expect("fits");
            config.carveout = Carveout::Default;
            let expected = engine::occupancy(arch, &config).map_or(0, |o| o.limits.shared_memory);
            prop_assert_eq!(t.smem_blocks_per_sm, Some(expected));
        }
    }
}

#[test]
fn calc_tiling_and_calc_occupancy_agree_on_the_command_line() {
    // 16×16 float tiles: 2 KB of shared memory per block, plus the 1 KB reserve → 76 blocks on sm_90.
    let (tiling, _, _) = warpdrill(&["calc", "tiling", "--tile", "16"]);
    assert!(
        tiling.contains("blocks per SM by shared memory alone: 76"),
        "{tiling}"
    );
    let (occupancy, _, _) = warpdrill(&["calc", "occupancy", "--smem", "2048"]);
    assert!(occupancy.contains("shared memory    76"), "{occupancy}");
}

#[test]
fn feedback_draws_code_marks_instead_of_printing_backticks() {
    let mut app = app();
    app.update(Action::OpenExercise("l1-opencl-local".into()));
    let Screen::Exercise(state) = app.screen() else {
        panic!()
    };
    let wrong = match state.variant() {
        Ok(warpdrill::ladder::Variant {
            key:
                warpdrill::ladder::AnswerKey::Choice {
                    options, correct, ..
                },
            ..
        }) => (0..options.len())
            .find(|i| !correct.contains(i))
            .expect("a wrong option"),
        other => panic!("{other:?}"),
    };
    press(&mut app, KeyCode::Char(char::from(b'1' + wrong as u8)));
    press(&mut app, KeyCode::Enter);
    let shown = screen(&app, 100, 30);
    assert!(
        shown.contains("Not quite") || shown.contains("✗"),
        "{shown}"
    );
    let feedback: String = shown
        .lines()
        .skip_while(|line| !line.contains("Feedback"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!feedback.contains('`'), "{feedback}");
    assert!(
        feedback.contains("__"),
        "the code itself is still shown: {feedback}"
    );
}

#[test]
fn version_names_the_content_and_completions_are_printed_for_each_shell() {
    let (version, _, code) = warpdrill(&["--version"]);
    assert_eq!(code, 0);
    assert!(
        version.starts_with("warpdrill ")
            && version.contains("(content ")
            && version.contains(" files)"),
        "{version}"
    );
    for (shell, marker) in [
        ("bash", "_warpdrill()"),
        ("zsh", "#compdef warpdrill"),
        ("fish", "complete -c warpdrill"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (script, _, code) = warpdrill(&["completions", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(
            script.contains(marker),
            "{shell}: {}",
            &script[..script.len().min(200)]
        );
        assert!(script.contains("explore"), "{shell} completes subcommands");
    }
}

#[test]
fn colour_follows_the_flag_then_no_color() {
    use std::ffi::OsStr;
    use warpdrill::cli::ColorArg;
    assert!(ColorArg::Auto.enabled(None));
    assert!(
        ColorArg::Auto.enabled(Some(OsStr::new(""))),
        "an empty NO_COLOR does not count"
    );
    assert!(!ColorArg::Auto.enabled(Some(OsStr::new("1"))));
    assert!(
        ColorArg::Always.enabled(Some(OsStr::new("1"))),
        "--color always wins"
    );
    assert!(!ColorArg::Never.enabled(None));
}

#[test]
fn the_command_line_reads_values_as_the_calculators_do() {
    let (text, err, code) = warpdrill(&["calc", "occupancy", "--smem", "24K"]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("24 KB shared memory/block"), "{text}");
    let (same, _, _) = warpdrill(&["calc", "occupancy", "--smem", "24576"]);
    assert_eq!(text, same);
    let (text, err, code) = warpdrill(&[
        "calc",
        "roofline",
        "--peak-flops",
        "67T",
        "--bandwidth",
        "4.8T",
    ]);
    assert_eq!(code, 0, "{err}");
    let (same, _, _) = warpdrill(&[
        "calc",
        "roofline",
        "--peak-flops",
        "67 TFLOP/s",
        "--bandwidth",
        "4.8e12",
    ]);
    assert_eq!(text, same);
    // A negative intensity gets the range message, not clap's "unexpected argument".
    let (_, err, code) = warpdrill(&["calc", "roofline", "--intensity", "-1"]);
    assert_eq!(code, 2);
    assert!(err.contains("must be greater than 0"), "{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
    // Bits are questioned, not read as bytes.
    let (_, err, code) = warpdrill(&["calc", "occupancy", "--smem", "2 Kb"]);
    assert_eq!(code, 2);
    assert!(err.contains("bits"), "{err}");
}

#[test]
fn the_explorer_and_calculators_reopen_as_they_were_left_even_after_a_restart() {
    use warpdrill::progress::Store;
    let root = tempfile::tempdir().expect("a temporary folder");
    let dir = root.path().to_path_buf();
    std::fs::create_dir_all(&dir).unwrap();
    let open = |dir: &std::path::Path| {
        let opened = Store::open(dir, common::NOW);
        warpdrill::app::App::new(
            warpdrill::content::Content::builtin(),
            opened.progress,
            Some(opened.store),
            warpdrill::ui::Theme::new(false),
            std::sync::Arc::new(warpdrill::clock::FakeClock::at_secs(common::NOW)),
            Box::new(|| 3),
        )
    };
    let mut app = open(&dir);
    // Home → Explorer (after Learn, Ladder and Practise), stride up twice, shared memory; back to
    // Home.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.screen(), Screen::Explorer(_)));
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Char('m'));
    press(&mut app, KeyCode::Char('q'));
    // Home → Calculators, switch to the roofline tab, then g for Home.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('3'));
    press(&mut app, KeyCode::Char('g'));
    // Reopened in the same run…
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    let Screen::Explorer(state) = app.screen() else {
        panic!("{:?}", app.screen())
    };
    assert_eq!((state.stride(), state.space()), (3, Space::Shared));
    press(&mut app, KeyCode::Char('q'));
    drop(app);
    // …and after a restart.
    let mut app = open(&dir);
    app.update(Action::ReopenExplorer);
    let Screen::Explorer(state) = app.screen() else {
        panic!()
    };
    assert_eq!((state.stride(), state.space()), (3, Space::Shared));
    app.update(Action::Home);
    app.update(Action::ReopenCalculators);
    let Screen::Calculators(state) = app.screen() else {
        panic!()
    };
    assert_eq!(state.tab(), warpdrill::ui::Tab::Roofline);
    drop(app);
}

mod useful_elements_in_words_match_the_diagram {
    use proptest::prelude::*;
    use warpdrill::engine::{self, Granularity, Op, Pattern, WarpAccess};
    use warpdrill::explain;
    use warpdrill::ui::diagram::{SegmentLine, segment_lines};

    /// Lanes named by a list of ranges as the diagram writes them: `0-2, 5` → 4.
    fn lanes_in(ranges: &str) -> u64 {
        ranges
            .split(", ")
            .map(|part| match part.split_once('-') {
                Some((a, b)) => b.parse::<u64>().unwrap() - a.parse::<u64>().unwrap() + 1,
                None => 1,
            })
            .sum()
    }

    /// The number of useful elements a "why" sentence states (`3` or `2–3`), as `(fewest, most)`.
    fn stated(why: &str) -> Option<(u64, u64)> {
        let before = &why[..why.find(" useful element")?];
        let number = before.rsplit(' ').next()?;
        Some(match number.split_once('–') {
            Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
            None => (number.parse().ok()?, number.parse().ok()?),
        })
    }

    fn struct_access(elem_bytes: u32, struct_bytes: i64, field_offset: i64) -> WarpAccess {
        WarpAccess {
            elem_bytes,
            pattern: Pattern::StructField {
                struct_bytes,
                field_offset,
                first: 0,
                base_bytes: 0,
            },
            active_mask: engine::full_mask(32),
            warp_size: 32,
            op: Op::Load,
        }
    }

    fn drawn(access: &WarpAccess, granularity: Granularity) -> (String, (u64, u64)) {
        let c = engine::coalesce(access, granularity).expect("a valid struct access");
        let counts: Vec<u64> = segment_lines(&c)
            .into_iter()
            .filter_map(|line| match line {
                SegmentLine::Segment(row) => Some(lanes_in(&row.lanes)),
                SegmentLine::Gap { .. } => None,
            })
            .collect();
        let range = (*counts.iter().min().unwrap(), *counts.iter().max().unwrap());
        (explain::coalescing(access, &c), range)
    }

    #[test]
    fn twelve_byte_structs_hold_two_or_three_fields_a_sector() {
        let (why, drawn) = drawn(&struct_access(4, 12, 0), Granularity::Sector);
        assert_eq!(drawn, (2, 3));
        assert!(why.contains("holds only 2–3 useful elements"), "{why}");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// The useful elements per sector (or line) the sentence states are the lanes the diagram
        /// draws in each segment, for every struct size and field offset.
        #[test]
        fn the_stated_count_is_the_drawn_count(
            elem in prop::sample::select(vec![1u32, 2, 4, 8]),
            struct_bytes in 1i64..=160,
            offset in 0i64..160,
            line in any::<bool>(),
        ) {
            prop_assume!(struct_bytes >= i64::from(elem));
            let offset = offset % (struct_bytes - i64::from(elem) + 1);
            let granularity = if line { Granularity::Line } else { Granularity::Sector };
            let access = struct_access(elem, struct_bytes, offset);
            let (why, range) = drawn(&access, granularity);
            if let Some(words) = stated(&why) {
                prop_assert_eq!(words, range, "{}", why);
            }
        }
    }
}

#[test]
fn explicit_offsets_count_the_lanes_given_an_offset() {
    let (out, err, code) = warpdrill(&["calc", "coalescing", "--offsets", "0,4,8"]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.contains("3 of 32 lanes (mask 0x7) × 4 B"),
        "the heading counts the 3 lanes that read:\n{out}"
    );
    assert!(out.contains("bytes requested 12"), "{out}");
}

#[test]
fn amd_calls_lds_serialization_passes_not_wavefronts() {
    use warpdrill::i18n::Lang;
    for lang in Lang::ALL {
        let (out, err, code) = warpdrill(&[
            "--lang",
            lang.code(),
            "calc",
            "banks",
            "--arch",
            "gfx942",
            "--stride",
            "2",
        ]);
        assert_eq!(code, 0, "{err}");
        // The heading names the wave64 "wavefront"; nothing after it counts LDS work in them.
        let body: String = out.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert!(!body.contains("wavefront"), "{lang:?}:\n{out}");
        assert!(body.contains("LDS pass"), "{lang:?}:\n{out}");
        assert!(body.contains("\n  p2 "), "{lang:?}:\n{out}");
    }
    let mut app = app();
    let arch = Arch::parse("gfx942").unwrap();
    for lang in Lang::ALL {
        app.lang = lang;
        let access = WarpAccess::affine(4, 2, 0)
            .with_warp_size(64)
            .with_mask(warpdrill::engine::full_mask(64));
        app.update(Action::OpenExplorer(ExplorerSetup::new(
            arch,
            Space::Shared,
            &access,
        )));
        let text = screen(&app, 100, 30);
        let below_title: String = text.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert!(
            !below_title.to_lowercase().contains("wavefront"),
            "{lang:?}:\n{text}"
        );
        assert!(below_title.contains("LDS pass"), "{lang:?}:\n{text}");
        // NVIDIA keeps its word.
        app.update(Action::OpenExplorer(ExplorerSetup::new(
            Arch::default_arch(),
            Space::Shared,
            &WarpAccess::affine(4, 2, 0),
        )));
        assert!(screen(&app, 100, 30).contains("wavefront"), "{lang:?}");
    }
}
