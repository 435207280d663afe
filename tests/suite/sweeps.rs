//! Sweeps: `calc sweep` rows against single `calc` runs, and the explorer's sweep panel and the
//! occupancy heat map as a learner sees them.

use clap::Parser;
use proptest::prelude::*;
use ratatui::crossterm::event::KeyCode;
use serde_json::Value;
use warpdrill::app::{Action, App};
use warpdrill::cli::{CalcCommand, Cli, Command};
use warpdrill::engine::{Arch, WarpAccess};
use warpdrill::ui::calculators::Tab;
use warpdrill::ui::explorer::Space;

use crate::common;
use common::{app, press, screen};

// ------------------------------------------------------------------------------------------------
// calc sweep

/// Runs one `warpdrill …` command line of the calculators; its stdout, or the error message.
fn calc(args: &[String]) -> Result<String, String> {
    let cli =
        Cli::try_parse_from(std::iter::once("warpdrill".to_string()).chain(args.iter().cloned()))
            .map_err(|e| e.to_string())?;
    match cli.command {
        Some(Command::Calc(CalcCommand::Coalescing(a))) => warpdrill::cli::calc::coalescing(&a),
        Some(Command::Calc(CalcCommand::Banks(a))) => warpdrill::cli::calc::banks(&a),
        Some(Command::Calc(CalcCommand::Occupancy(a))) => warpdrill::cli::calc::occupancy(&a),
        Some(Command::Calc(CalcCommand::Sweep(s))) => {
            let mut out = Vec::new();
            match warpdrill::cli::sweep::run(&s, &mut out) {
                Ok(()) => Ok(String::from_utf8(out).expect("sweeps print UTF-8")),
                Err(warpdrill::cli::sweep::SweepError::Input(message)) => Err(message),
                Err(warpdrill::cli::sweep::SweepError::Io(e)) => Err(e.to_string()),
            }
        }
        other => panic!("not a calculator: {other:?}"),
    }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// The flags that set `param` to `value` on `calc coalescing|banks`, given the base flags.
fn access_flags(param: &str, value: i64, base: &[String]) -> Vec<String> {
    // `--flag=value`: a negative value is a value, not a flag.
    let v = format!("={value}");
    let flag = |name: &str| format!("{name}{v}");
    match param {
        "stride" => vec![flag("--stride")],
        "offset" => vec![flag("--offset")],
        "elem" => vec![flag("--elem")],
        "struct_size" => vec![flag("--struct-size")],
        "lanes" => vec![format!("--mask=first{value}")],
        "pitch" if base.iter().any(|a| a == "--pitch") => vec![flag("--pitch")],
        "pitch" => vec![flag("--pitch"), "--walk=column".into()],
        other => panic!("{other}"),
    }
}

fn occupancy_flags(param: &str, value: i64) -> Vec<String> {
    let flag = match param {
        "block_size" => "--block-size",
        "regs" => "--regs",
        "smem" => "--smem",
        "static_smem" => "--static-smem",
        "carveout" => "--carveout",
        other => panic!("{other}"),
    };
    vec![format!("{flag}={value}")]
}

/// Removes the per-lane and per-segment lists `calc --json` adds to the fields a sweep prints.
fn summary(mut value: Value) -> Value {
    if let Value::Object(fields) = &mut value {
        for detail in ["segments", "lane_segment", "phases", "bank_of_lane"] {
            fields.remove(detail);
        }
    }
    value
}

/// Checks every row of `calc sweep KIND BASE --vary … --json` against `calc KIND BASE <point> --json`.
fn rows_equal_calc(
    kind: &str,
    base: &[String],
    vary: &[(String, String)],
) -> Result<usize, TestCaseError> {
    let mut args = strings(&["calc", "sweep", kind]);
    args.extend(base.iter().cloned());
    for (name, range) in vary {
        args.push("--vary".into());
        args.push(format!("{name}={range}"));
    }
    args.push("--json".into());
    let text = match calc(&args) {
        Ok(text) => text,
        // Flags that cannot be swept (stride of an AoS pattern) are refused as a whole.
        Err(message) => {
            prop_assert!(!message.is_empty());
            return Ok(0);
        }
    };
    let rows: Vec<Value> =
        serde_json::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
    for row in &rows {
        let mut fields = row.as_object().cloned().unwrap_or_default();
        let mut point = Vec::new();
        for (name, _) in vary {
            let value = fields.remove(name).and_then(|v| v.as_i64());
            let value = value.ok_or_else(|| TestCaseError::fail(format!("no {name} in {row}")))?;
            point.extend(if kind == "occupancy" {
                occupancy_flags(name, value)
            } else {
                access_flags(name, value, base)
            });
        }
        // The base flags (all `--flag value` pairs) that the point does not set, then the point's
        // (`--flag=value`).
        let mut single = strings(&["calc", kind]);
        for pair in base.chunks(2) {
            let set_here = point
                .iter()
                .any(|p| p.split('=').next() == Some(pair[0].as_str()));
            if !set_here {
                single.extend(pair.iter().cloned());
            }
        }
        single.extend(point);
        single.push("--json".into());
        match calc(&single) {
            Ok(json) => {
                let want = summary(serde_json::from_str(&json).unwrap());
                prop_assert_eq!(Value::Object(fields), want, "{:?}", single);
            }
            Err(message) => {
                let got = fields.get("error").and_then(Value::as_str);
                let lanes = single.iter().find_map(|a| {
                    a.strip_prefix("--mask=first")
                        .and_then(|n| n.parse::<i64>().ok())
                });
                if let Some(lanes) = lanes.filter(|n| !(0..=64).contains(n)) {
                    // More lanes than a mask has: `--mask firstN` says so in its own words.
                    let want = format!("active lanes must be 0 to 64, got {lanes}");
                    prop_assert_eq!(got, Some(want.as_str()));
                } else if message.starts_with("error: invalid value") {
                    // A negative count clap refuses for a u32 flag: the sweep names it too.
                    prop_assert!(
                        got.is_some_and(|e| e.contains("must be")),
                        "{:?}: {:?}",
                        single,
                        got
                    );
                } else {
                    prop_assert_eq!(got, Some(message.as_str()), "{:?}", single);
                }
            }
        }
    }
    Ok(rows.len())
}

fn range() -> impl Strategy<Value = String> {
    (-40i64..300, 0i64..12, 1i64..4)
        .prop_map(|(start, len, step)| format!("{start}..{}:{step}", start + len * step))
}

fn access_base() -> impl Strategy<Value = Vec<String>> {
    let shape = prop_oneof![
        3 => (-40i64..40, -40i64..40).prop_map(|(s, o)| strings(&["--stride", &s.to_string(), "--offset", &o.to_string()])),
        1 => (1i64..64, 0i64..8).prop_map(|(size, first)| strings(&["--struct-size", &(size * 4).to_string(), "--offset", &first.to_string()])),
        1 => (0i64..512, any::<bool>()).prop_map(|(pitch, column)| strings(&["--pitch", &(pitch * 4).to_string(), "--walk", if column { "column" } else { "row" }])),
    ];
    (
        shape,
        proptest::sample::select(vec!["1", "2", "4", "8", "16"]),
        proptest::sample::select(vec!["sm_90", "sm_70", "pascal", "gfx942", "rdna3"]),
        proptest::sample::select(vec![None, Some("0xffff"), Some("odd"), Some("first3")]),
        -8i64..8,
    )
        .prop_map(|(mut flags, elem, arch, mask, base)| {
            flags.extend(strings(&[
                "--elem",
                elem,
                "--arch",
                arch,
                "--base",
                &(base * 4).to_string(),
            ]));
            if let Some(mask) = mask {
                flags.extend(strings(&["--mask", mask]));
            }
            flags
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every row of a coalescing or bank sweep, one parameter or a grid of two, equals what `calc`
    /// prints for that point (errors included).
    #[test]
    fn access_sweep_rows_equal_calc(
        shared in any::<bool>(),
        base in access_base(),
        first in proptest::sample::select(vec!["stride", "offset", "elem", "struct_size", "lanes", "pitch"]),
        second in proptest::option::of(proptest::sample::select(vec!["stride", "offset", "elem", "lanes"])),
        first_range in range(),
        second_range in range(),
    ) {
        let mut vary = vec![(first.to_string(), first_range)];
        if let Some(second) = second.filter(|s| *s != first) {
            vary.push((second.to_string(), second_range));
        }
        rows_equal_calc(if shared { "banks" } else { "coalescing" }, &base, &vary)?;
    }

    /// Every row of an occupancy sweep equals `calc occupancy` at that point, on NVIDIA and AMD.
    #[test]
    fn occupancy_sweep_rows_equal_calc(
        arch in proptest::sample::select(vec!["sm_90", "sm_86", "sm_75", "gfx942"]),
        block in 1u32..=1024,
        regs in 0u32..=255,
        smem in 0u32..100_000,
        first in proptest::sample::select(vec!["block_size", "regs", "smem", "static_smem", "carveout"]),
        second in proptest::sample::select(vec!["block_size", "regs", "carveout"]),
        first_start in 0i64..1100,
        second_start in -2i64..255,
    ) {
        let base = strings(&["--arch", arch, "--block-size", &block.to_string(), "--regs", &regs.to_string(), "--smem", &smem.to_string()]);
        let span = |name: &str, start: i64| match name {
            "carveout" => format!("{}..{}:7", start.clamp(-3, 90), start.clamp(-3, 90) + 20),
            "smem" | "static_smem" => format!("{}..{}:4096", start * 64, start * 64 + 40_000),
            _ => format!("{start}..{}:9", start + 60),
        };
        let mut vary = vec![(first.to_string(), span(first, first_start))];
        if second != first {
            vary.push((second.to_string(), span(second, second_start)));
        }
        rows_equal_calc("occupancy", &base, &vary)?;
    }
}

#[test]
fn a_stride_sweep_prints_one_row_per_stride() {
    let out = calc(&strings(&[
        "calc",
        "sweep",
        "coalescing",
        "--vary",
        "stride=1..256",
        "--csv",
    ]))
    .unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 257, "a header and 256 rows");
    assert_eq!(
        lines[0],
        "stride,kind,arch,op,granularity,active_lanes,sectors,lines,transactions,requests,bytes_requested,bytes_fetched,efficiency,error"
    );
    assert_eq!(
        lines[1],
        "1,coalescing,sm_90,load,sector,32,4,1,4,1,128,128,1.0,"
    );
    assert_eq!(
        lines[32],
        "32,coalescing,sm_90,load,sector,32,32,32,32,1,128,1024,0.125,"
    );
    let text = calc(&strings(&[
        "calc",
        "sweep",
        "banks",
        "--vary",
        "stride=31..33",
    ]))
    .unwrap();
    assert!(text.contains("32          32"), "{text}");
    let occupancy = calc(&strings(&[
        "calc",
        "sweep",
        "occupancy",
        "--vary",
        "regs=32..64:16",
    ]))
    .unwrap();
    assert!(
        occupancy.contains("          48       5      40      62.5%  registers"),
        "{occupancy}"
    );
    let grid = calc(&strings(&[
        "calc",
        "sweep",
        "coalescing",
        "--vary",
        "stride=1..4",
        "--vary",
        "offset=0..2",
        "--json",
    ]))
    .unwrap();
    let rows: Vec<Value> = serde_json::from_str(&grid).unwrap();
    assert_eq!(rows.len(), 12);
    assert_eq!(
        (rows[4]["stride"].as_i64(), rows[4]["offset"].as_i64()),
        (Some(2), Some(1))
    );
}

#[test]
fn unusable_sweeps_are_refused_with_the_reason() {
    for (args, reason) in [
        (vec!["coalescing", "--vary", "stride"], "NAME=START..END"),
        (
            vec!["coalescing", "--vary", "speed=1..4"],
            "cannot vary `speed`",
        ),
        (
            vec!["coalescing", "--vary", "stride=9..1"],
            "ends before it starts",
        ),
        (
            vec![
                "coalescing",
                "--vary",
                "stride=1..4",
                "--vary",
                "stride=1..4",
            ],
            "varied twice",
        ),
        (vec!["coalescing", "--vary", "stride=1..9999999"], "at most"),
        (
            vec![
                "coalescing",
                "--vary",
                "stride=1..4",
                "--vary",
                "offset=1..4",
                "--vary",
                "elem=1..4",
            ],
            "at most two",
        ),
        (
            vec!["coalescing", "--struct-size", "12", "--vary", "stride=1..4"],
            "affine",
        ),
        (
            vec!["banks", "--granularity", "line", "--vary", "stride=1..4"],
            "coalescing` only",
        ),
        (vec!["occupancy", "--vary", "warps=1..4"], "cannot vary"),
        (
            vec!["coalescing", "--arch", "sm_99", "--vary", "stride=1..4"],
            "unknown architecture",
        ),
    ] {
        let mut line = strings(&["calc", "sweep"]);
        line.extend(strings(&args));
        let err = calc(&line).unwrap_err();
        assert!(err.contains(reason), "{args:?}: {err}");
    }
    // A point the engine refuses is a row with its reason; the others are counted.
    let out = calc(&strings(&[
        "calc",
        "sweep",
        "coalescing",
        "--vary",
        "elem=2..3,",
        "--csv",
    ]));
    assert!(out.is_err());
    let out = calc(&strings(&[
        "calc",
        "sweep",
        "coalescing",
        "--vary",
        "lanes=0..1",
        "--csv",
    ]))
    .unwrap();
    assert!(
        out.lines().nth(1).unwrap().ends_with(
            ",active mask `first0` has no active lanes: at least one lane must be active"
        ),
        "{out}"
    );
}

// ------------------------------------------------------------------------------------------------
// The explorer's sweep panel and the occupancy heat map

fn explore(space: Space, access: WarpAccess) -> App {
    let mut app = app();
    app.update(Action::OpenExplorer(warpdrill::ui::ExplorerSetup::new(
        Arch::default_arch(),
        space,
        &access,
    )));
    app
}

#[test]
fn the_sweep_panel_draws_the_curve_and_the_measurement() {
    let mut app = explore(Space::Global, WarpAccess::affine(4, 2, 0));
    press(&mut app, KeyCode::Char('w'));
    let small = screen(&app, 80, 24);
    insta::assert_snapshot!("sweep_global_stride2_80x24", small);
    assert!(
        small.contains("Sweep: sectors/request vs stride"),
        "{small}"
    );
    assert!(small.contains("now 2 → 8"), "{small}");
    let wide = screen(&app, 200, 60);
    insta::assert_snapshot!("sweep_global_stride2_200x60", wide);
    assert!(
        wide.contains("Warp → sectors"),
        "the diagram stays above the sweep:\n{wide}"
    );
    assert!(
        wide.contains(
            "• H200 time per useful byte (1 / useful GB/s), scaled to the model at stride 1"
        ),
        "{wide}"
    );

    let mut shared = explore(Space::Shared, WarpAccess::affine(4, 32, 0));
    press(&mut shared, KeyCode::Char('w'));
    let text = screen(&shared, 200, 60);
    insta::assert_snapshot!("sweep_shared_stride32_200x60", text);
    insta::assert_snapshot!("sweep_shared_stride32_80x24", screen(&shared, 80, 24));
    assert!(text.contains("Sweep: wavefronts against stride"), "{text}");
    assert!(text.contains("now 32 → 32"), "{text}");
    assert!(text.contains("H200 cycles per load"), "{text}");
    press(&mut shared, KeyCode::Char('w'));
    assert!(
        !screen(&shared, 200, 60).contains("Sweep:"),
        "w hides the panel"
    );
}

#[test]
fn the_heat_map_shows_occupancy_by_block_size_and_registers() {
    let mut app = app();
    app.update(Action::OpenCalculators(Tab::Occupancy));
    press(&mut app, KeyCode::Char('m'));
    let small = screen(&app, 80, 24);
    insta::assert_snapshot!("heat_map_80x24", small);
    let wide = screen(&app, 200, 60);
    insta::assert_snapshot!("heat_map_200x60", wide);
    // 256 threads × 32 registers: 100 %, marked.
    assert!(wide.contains("*100"), "{wide}");
    assert!(wide.contains("* 256 × 32 regs = 100%"), "{wide}");
    // Registers from 0 to 248 by 8, block sizes 32 to 1024 by 32 at this size.
    assert!(wide.contains("│ 248 "), "{wide}");
    assert!(wide.contains("1024"), "{wide}");
    // A block that fits on no SM (1024 threads at 248 registers) is a failed launch, marked and
    // explained, never an occupancy of 0.
    let row_248 = wide.lines().find(|l| l.contains("│ 248 ")).unwrap();
    assert!(
        row_248.contains('×') && !row_248.contains("  0 "),
        "{row_248}"
    );
    assert!(wide.contains("× no block fits: the launch fails"), "{wide}");
    // The map follows every key: two more registers per thread at 48 → 62.5 %, marked.
    for _ in 0..2 {
        press(&mut app, KeyCode::Down);
    }
    for _ in 0..16 {
        press(&mut app, KeyCode::Right);
    }
    let after = screen(&app, 200, 60);
    assert!(after.contains("* 256 × 48 regs = 62.5%"), "{after}");
    assert!(after.contains("*62"), "{after}");
    // Off the grid the kernel's row is its own: 33 registers at 256 threads is 6 blocks of 8
    // warps = 75 %, in a row labelled 33 (not the 32-register row's 100 %).
    for _ in 0..15 {
        press(&mut app, KeyCode::Left);
    }
    let off = screen(&app, 200, 60);
    assert!(off.contains("* 256 × 33 regs = 75%"), "{off}");
    let row = off
        .lines()
        .find(|l| l.contains("│  33 "))
        .unwrap_or_else(|| panic!("a row for 33 registers:\n{off}"));
    assert!(row.contains("*75"), "{row}");
    let small = screen(&app, 80, 24);
    let row = small
        .lines()
        .find(|l| l.contains("│  33 "))
        .unwrap_or_else(|| panic!("a row for 33 registers at 80×24:\n{small}"));
    assert!(row.contains("*75"), "{row}");
    press(&mut app, KeyCode::Char('m'));
    assert!(
        screen(&app, 200, 60).contains("block size ■"),
        "m brings the plots back"
    );
}

#[test]
fn the_measured_curve_is_drawn_on_sm_90_only_and_says_what_it_is() {
    for arch in ["sm_89", "gfx942"] {
        let mut app = app();
        let arch = Arch::parse(arch).unwrap();
        let access = WarpAccess::affine(4, 2, 0)
            .with_warp_size(arch.warp_size)
            .with_mask(warpdrill::engine::full_mask(arch.warp_size));
        app.update(Action::OpenExplorer(warpdrill::ui::ExplorerSetup::new(
            arch,
            Space::Global,
            &access,
        )));
        press(&mut app, KeyCode::Char('w'));
        let wide = screen(&app, 200, 60);
        assert!(!wide.contains('•'), "no H200 dots on {}:\n{wide}", arch.key);
        // gfx942 counts 128-byte lines, which the H200 did not measure: no note either.
        assert_eq!(
            wide.contains("H200 measurements are drawn on sm_90 only"),
            arch.key == "sm_89",
            "{}:\n{wide}",
            arch.key
        );
    }
    // Against efficiency the dots are the bandwidth itself.
    let mut app = explore(Space::Global, WarpAccess::affine(4, 2, 0));
    press(&mut app, KeyCode::Char('w'));
    for _ in 0..11 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Right);
    let wide = screen(&app, 200, 60);
    assert!(
        wide.contains("• H200 useful GB/s, scaled to the model at stride 1"),
        "{wide}"
    );
}

#[test]
fn the_default_stride_axis_is_log_two() {
    let mut app = explore(Space::Global, WarpAccess::affine(4, 2, 0));
    press(&mut app, KeyCode::Char('w'));
    for (width, height) in [(80u16, 24u16), (200, 60)] {
        let text = screen(&app, width, height);
        let labels = text
            .lines()
            .find(|l| l.contains(" 256"))
            .unwrap_or_else(|| panic!("no stride labels:\n{text}"));
        let values: Vec<(usize, u64)> = labels
            .match_indices(|c: char| c.is_ascii_digit())
            .filter(|(at, _)| !labels[..*at].ends_with(|c: char| c.is_ascii_digit()))
            .map(|(at, _)| {
                let digits: String = labels[at..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                (labels[..at].chars().count(), digits.parse().unwrap())
            })
            .collect();
        let numbers: Vec<u64> = values.iter().map(|(_, v)| *v).collect();
        assert!(
            numbers.len() >= 3 && numbers.iter().all(|v| v.is_power_of_two()),
            "powers of two under the axis at {width}: {labels}"
        );
        assert_eq!((numbers[0], *numbers.last().unwrap()), (1, 256), "{labels}");
        // 1 to 16 takes half the axis, not a sixteenth.
        let column = |v: u64| values.iter().find(|(_, n)| *n == v).map(|(c, _)| *c);
        if let (Some(one), Some(sixteen)) = (column(1), column(16)) {
            let whole = column(256).unwrap() - one;
            assert!(sixteen - one >= whole * 2 / 5, "{labels}");
        }
    }
}
