//! Grading what learners type: each tolerance kind just inside and just outside, the right number in
//! the wrong unit scale, ambiguous percentages, and input that is not an answer (which is never
//! counted as one).

use std::collections::BTreeMap;
use warpdrill::content::schema::{Tolerance, Unit};
use warpdrill::ladder::{self, AnswerKey, Outcome, Response, Variant};

/// A variant whose answer is `value` in `unit`, graded with `tolerance`.
fn number(value: f64, unit: Unit, tolerance: Tolerance, kilo: u32) -> Variant {
    Variant {
        exercise_id: "test".into(),
        seed: 0,
        params: BTreeMap::new(),
        numbers: BTreeMap::new(),
        texts: BTreeMap::new(),
        show_me: None,
        prompt: "?".into(),
        hints: vec!["a".into(), "b".into()],
        explanation: "because".into(),
        key: AnswerKey::Number {
            value,
            unit,
            tolerance,
            kilo,
        },
        mistakes: Vec::new(),
        option_order: Vec::new(),
    }
}

fn outcome(variant: &Variant, typed: &str) -> Outcome {
    ladder::grade(variant, Response::Text(typed)).outcome
}

#[track_caller]
fn expect(variant: &Variant, cases: &[(&str, Outcome)]) {
    for (typed, want) in cases {
        let feedback = ladder::grade(variant, Response::Text(typed));
        assert_eq!(
            feedback.outcome,
            *want,
            "{typed:?} against {}: {}",
            variant.key.display(),
            feedback.headline
        );
    }
}

use Outcome::{Correct, Unusable, Wrong};

#[test]
fn exact_answers_take_the_number_and_nothing_near_it() {
    let sectors = number(5.0, Unit::Count("sectors".into()), Tolerance::Exact, 1024);
    expect(
        &sectors,
        &[
            ("5", Correct),
            ("5 sectors", Correct),
            ("5.0", Correct),
            ("10/2", Correct),
            ("5.001", Wrong),
            ("4.999", Wrong),
            ("6", Wrong),
            ("4", Wrong),
        ],
    );
}

#[test]
fn exact_is_exact_for_small_answers_too() {
    // 0.3 ns: "exact" must not mean "within a nanosecond".
    let time = number(0.3e-9, Unit::Seconds, Tolerance::Exact, 1024);
    expect(
        &time,
        &[
            ("0.3 ns", Correct),
            ("300 ps", Unusable),
            ("0.0003 us", Correct),
            ("1 ns", Wrong),
            ("0 ns", Wrong),
            ("0.31 ns", Wrong),
        ],
    );
    let zero = number(0.0, Unit::None, Tolerance::Exact, 1024);
    expect(&zero, &[("0", Correct), ("-0", Correct), ("0.0001", Wrong)]);
}

#[test]
fn absolute_tolerance_edges() {
    let cycles = number(10.0, Unit::Cycles, Tolerance::Abs(0.5), 1024);
    expect(
        &cycles,
        &[
            ("10.5", Correct),
            ("9.5 cycles", Correct),
            ("10.49", Correct),
            ("10.51", Wrong),
            ("9.49", Wrong),
        ],
    );
}

#[test]
fn relative_tolerance_edges() {
    let cycles = number(200.0, Unit::Cycles, Tolerance::Rel(0.05), 1024);
    expect(
        &cycles,
        &[
            ("210", Correct),
            ("190", Correct),
            ("210.1", Wrong),
            ("189.9", Wrong),
        ],
    );
    // Relative to the answer, however small it is: 8.39 µs ± 2 %.
    let time = number(8.388_608e-6, Unit::Seconds, Tolerance::Rel(0.02), 1024);
    expect(
        &time,
        &[
            ("8.39 us", Correct),
            ("8.23 µs", Correct),
            ("8.55 µs", Correct),
            ("8.2 µs", Wrong),
            ("8.6 µs", Wrong),
        ],
    );
}

#[test]
fn percentages_default_to_a_tenth_of_a_point() {
    // The default tolerance of a percentage, as templates get it.
    let content = warpdrill::content::Content::builtin();
    let efficiency = content.exercise("l2-stride-efficiency").unwrap();
    let variant = (0..50)
        .map(|seed| ladder::generate(efficiency, seed).unwrap())
        .find(|v| v.key.value() == Some(0.125))
        .expect("a variant at 12.5 %");
    expect(
        &variant,
        &[
            ("12.5%", Correct),
            ("12.5", Correct),
            ("0.125", Correct),
            ("1/8", Correct),
            ("12.6%", Correct),
            ("12.4 %", Correct),
            ("12.65%", Wrong),
            ("12.35%", Wrong),
            ("0.127", Wrong),
            // Rounded at the last digit typed, up or down (12.5 % is half a point from each):
            // accepted; a point further is not.
            ("13%", Correct),
            ("12%", Correct),
            ("0.12", Correct),
            ("14%", Wrong),
            ("11%", Wrong),
        ],
    );
}

#[test]
fn the_right_number_in_the_wrong_unit_scale_is_wrong() {
    let bytes = number(32.0, Unit::Bytes, Tolerance::Exact, 1024);
    expect(
        &bytes,
        &[
            ("32", Correct),
            ("32 B", Correct),
            ("32 bytes", Correct),
            ("0.03125 KB", Correct),
            ("32 KB", Wrong),
            ("32 KiB", Wrong),
            ("32 MB", Wrong),
        ],
    );
    let kilobytes = number(2048.0, Unit::Bytes, Tolerance::Exact, 1024);
    expect(
        &kilobytes,
        &[
            ("2 KB", Correct),
            ("2 KiB", Correct),
            ("2 B", Wrong),
            ("2 MB", Wrong),
        ],
    );
    // With `kilo: 1000`, KB is 1000 bytes and KiB still 1024.
    let decimal = number(2000.0, Unit::Bytes, Tolerance::Exact, 1000);
    expect(&decimal, &[("2 KB", Correct), ("2 KiB", Wrong)]);

    let time = number(8.388_608e-6, Unit::Seconds, Tolerance::Rel(0.02), 1024);
    expect(
        &time,
        &[
            ("8.39 ms", Wrong),
            ("8.39 ns", Wrong),
            ("8.39 s", Wrong),
            // A bare time is asked about, not guessed.
            ("8.39", Unusable),
            ("8390 ns", Correct),
            ("0.00839 ms", Correct),
        ],
    );
    let rate = number(4.8e12, Unit::BytesPerSecond, Tolerance::Rel(0.01), 1000);
    expect(
        &rate,
        &[
            ("4.8 TB/s", Correct),
            ("4800 GB/s", Correct),
            ("4.8 GB/s", Wrong),
        ],
    );
    let flops = number(67e12, Unit::FlopPerSecond, Tolerance::Rel(0.01), 1000);
    expect(
        &flops,
        &[
            ("67 TFLOP/s", Correct),
            ("67 tflops", Correct),
            ("67 TFLOPS/s", Correct),
            ("67 GFLOP/s", Wrong),
        ],
    );
}

#[test]
fn a_unit_slip_is_named_in_the_feedback() {
    let bytes = number(32.0, Unit::Bytes, Tolerance::Exact, 1024);
    let feedback = ladder::grade(&bytes, Response::Text("32 KB"));
    assert_eq!(feedback.outcome, Wrong);
    assert!(
        feedback.headline.contains("1024×") && feedback.headline.contains("unit"),
        "{}",
        feedback.headline
    );
    let time = number(8.388_608e-6, Unit::Seconds, Tolerance::Rel(0.02), 1024);
    let feedback = ladder::grade(&time, Response::Text("8.39 ms"));
    assert_eq!(feedback.outcome, Wrong);
    assert!(
        feedback.headline.contains("1000×") && feedback.headline.contains("unit"),
        "{}",
        feedback.headline
    );
    // A plain wrong answer gets no such remark.
    let feedback = ladder::grade(&time, Response::Text("5 ms"));
    assert!(!feedback.headline.contains("unit"), "{}", feedback.headline);
}

#[test]
fn ambiguous_percentages_read_as_documented() {
    // A bare number above 1 is a percentage; at most 1 it is a fraction. `%` always means percent.
    let hundred = number(1.0, Unit::Percent, Tolerance::Abs(0.001), 1024);
    expect(
        &hundred,
        &[
            ("1", Correct),
            ("100", Correct),
            ("100%", Correct),
            ("1%", Wrong),
        ],
    );
    let half = number(0.5, Unit::Percent, Tolerance::Abs(0.001), 1024);
    expect(
        &half,
        &[
            ("0.5", Correct),
            ("50", Correct),
            ("50%", Correct),
            ("0.5%", Wrong),
        ],
    );
    let one_percent = number(0.01, Unit::Percent, Tolerance::Abs(0.001), 1024);
    expect(
        &one_percent,
        &[
            ("1%", Correct),
            ("0.01", Correct),
            ("1 percent", Correct),
            ("1", Wrong),
        ],
    );
    // The feedback shows how the bare number was read.
    let feedback = ladder::grade(&one_percent, Response::Text("1"));
    assert!(feedback.headline.contains("100%"), "{}", feedback.headline);
    let small = number(0.005, Unit::Percent, Tolerance::Abs(0.001), 1024);
    expect(&small, &[("0.5%", Correct), ("0.5", Wrong)]);
}

#[test]
fn input_that_is_not_an_answer_is_unusable_not_wrong() {
    let bytes = number(32.0, Unit::Bytes, Tolerance::Exact, 1024);
    let warps = number(40.0, Unit::Count("warps".into()), Tolerance::Exact, 1024);
    let time = number(8.39e-6, Unit::Seconds, Tolerance::Rel(0.02), 1024);
    let percent = number(0.625, Unit::Percent, Tolerance::Abs(0.001), 1024);
    for (variant, typed) in [
        (&bytes, ""),
        (&bytes, "   "),
        (&bytes, "lots"),
        (&bytes, "62.5%"),
        (&bytes, "32 parsecs"),
        (&bytes, "1e999"),
        (&bytes, "1/0"),
        (&warps, "40 blocks"),
        (&time, "2 KB"),
        (&percent, "62,5%"),
        (&percent, &"9".repeat(500)),
    ] {
        let feedback = ladder::grade(variant, Response::Text(typed));
        assert_eq!(
            feedback.outcome, Unusable,
            "{typed:.20}: {}",
            feedback.headline
        );
        assert!(!feedback.headline.is_empty());
        assert!(feedback.why.is_empty(), "no explanation is given away");
    }
    // Picking an option is not a number.
    assert_eq!(ladder::grade(&bytes, Response::Choice(0)).outcome, Unusable);
    assert_eq!(outcome(&bytes, "32"), Correct);
}

#[test]
fn choices_by_letter_number_or_words_and_nothing_else() {
    let mut variant = number(0.0, Unit::None, Tolerance::Exact, 1024);
    variant.key = AnswerKey::Choice {
        options: vec!["memory-bound".into(), "compute-bound".into()],
        correct: vec![1],
        also: Vec::new(),
    };
    expect(
        &variant,
        &[
            ("b", Correct),
            ("B)", Correct),
            ("2", Correct),
            ("compute bound", Correct),
            ("a", Wrong),
            ("memory", Wrong),
            ("not memory-bound", Unusable),
            ("c", Unusable),
            ("9", Unusable),
            ("zzz", Unusable),
        ],
    );
    assert_eq!(
        ladder::grade(&variant, Response::Choice(1)).outcome,
        Correct
    );
    assert_eq!(
        ladder::grade(&variant, Response::Choice(5)).outcome,
        Unusable
    );
}

// ---- Through `warpdrill check`, as a learner or a grading script meets it ----

fn warpdrill(args: &[&str]) -> std::process::Output {
    crate::common::warpdrill()
        .args(args)
        .output()
        .expect("run warpdrill")
}

/// Exit status and output of `warpdrill check ID --seed SEED --answer TYPED`.
fn check(id: &str, seed: u64, typed: &str) -> (i32, String) {
    let out = warpdrill(&["check", id, "--seed", &seed.to_string(), "--answer", typed]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn builtin_variant(id: &str, seed: u64) -> Variant {
    let content = warpdrill::content::Content::builtin();
    let template = content.exercise(id).unwrap_or_else(|| panic!("no {id}"));
    ladder::generate(template, seed).unwrap()
}

#[test]
fn every_answer_preview_prints_is_accepted_by_check() {
    // (arguments, the exit status wanted, what was typed) for every answer and exact part.
    let mut jobs: Vec<(Vec<String>, i32, String)> = Vec::new();
    for seed in ["1", "7", "42"] {
        let out = warpdrill(&["content", "preview", "--seed", seed, "--json"]);
        let items: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for item in items.as_array().unwrap() {
            let id = item["id"].as_str().unwrap();
            let answer = item["answer"].as_str().unwrap();
            let want = if item["answer_kind"] == "explain" {
                3
            } else {
                0
            };
            let args = ["check", id, "--seed", seed, "--answer", answer];
            jobs.push((
                args.map(String::from).to_vec(),
                want,
                format!("{id} seed {seed}: {answer:?}"),
            ));
            for (i, part) in item["parts"].as_array().unwrap().iter().enumerate() {
                let answer = part["answer"].as_str().unwrap();
                let number = (i + 1).to_string();
                let args = [
                    "check", id, "--seed", seed, "--part", &number, "--answer", answer,
                ];
                jobs.push((
                    args.map(String::from).to_vec(),
                    0,
                    format!("{id} seed {seed} part {number}: {answer:?}"),
                ));
            }
        }
    }
    assert!(jobs.len() > 150, "only {} answers", jobs.len());
    // A few at a time: each is a process of its own.
    let refused: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(4))
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|(args, want, label)| {
                            let args: Vec<&str> = args.iter().map(String::as_str).collect();
                            let out = warpdrill(&args);
                            let code = out.status.code().unwrap_or(-1);
                            (code != *want).then(|| {
                                format!(
                                    "{label} → exit {code}: {}{}",
                                    String::from_utf8_lossy(&out.stdout),
                                    String::from_utf8_lossy(&out.stderr)
                                )
                            })
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

#[test]
fn answers_with_the_units_and_context_people_add() {
    let v = builtin_variant("l2-regs-per-warp", 3);
    let regs = v.key.value().unwrap();
    for typed in [format!("{regs} regs"), format!("{regs} registers")] {
        assert_eq!(check("l2-regs-per-warp", 3, &typed).0, 0, "{typed}");
    }
    let v = builtin_variant("l2-textbook-threads", 0);
    let threads = v.key.value().unwrap();
    assert_eq!(
        check("l2-textbook-threads", 0, &format!("{threads} lanes")).0,
        0
    );
    // Wavefronts as a conflict degree: `32-way`.
    let seed = (0..200)
        .find(|&s| builtin_variant("l3-padding", s).key.value() == Some(32.0))
        .unwrap();
    assert_eq!(check("l3-padding", seed, "32-way").0, 0);
    assert_eq!(check("l3-padding", seed, "32-way conflict").0, 0);
    // Trailing context.
    let v = builtin_variant("l2-warp-limit", 5);
    let blocks = v.key.value().unwrap();
    assert_eq!(
        check("l2-warp-limit", 5, &format!("{blocks} blocks per SM")).0,
        0
    );
    let v = builtin_variant("l1-max-warps", 2);
    let warps = v.key.value().unwrap();
    assert_eq!(
        check("l1-max-warps", 2, &format!("{warps} warps per SM")).0,
        0
    );
    let v = builtin_variant("l1-bank-of-address", 9);
    let bank = v.key.value().unwrap();
    assert_eq!(check("l1-bank-of-address", 9, &format!("bank {bank}")).0, 0);
    let v = builtin_variant("l4-tile-for-ridge", 4);
    let tile = v.key.parts()[0].key.value().unwrap();
    let out = warpdrill(&[
        "check",
        "l4-tile-for-ridge",
        "--seed",
        "4",
        "--part",
        "1",
        "--answer",
        &format!("T = {tile}"),
    ]);
    assert_eq!(out.status.code(), Some(0));
    // Thousands as the prompts print them, and powers.
    let seed = (0..200)
        .find(|&s| builtin_variant("l1-max-warps", s).key.value() == Some(64.0))
        .unwrap();
    assert_eq!(check("l1-max-warps", seed, "2^6").0, 0);
    let v = builtin_variant("l2-tile-smem", 1);
    let bytes = v.key.value().unwrap() as u64;
    let spaced = warpdrill::format::bytes(bytes);
    assert_eq!(check("l2-tile-smem", 1, &spaced).0, 0, "{spaced}");
    if bytes >= 1000 {
        let with_space = format!("{} {:03} B", bytes / 1000, bytes % 1000);
        let with_comma = format!("{},{:03} B", bytes / 1000, bytes % 1000);
        assert_eq!(check("l2-tile-smem", 1, &with_space).0, 0, "{with_space}");
        assert_eq!(check("l2-tile-smem", 1, &with_comma).0, 0, "{with_comma}");
    }
}

#[test]
fn factors_rates_and_powers_in_their_usual_forms() {
    let seed = (0..200)
        .find(|&s| builtin_variant("l3-aos-vs-soa", s).key.value() == Some(3.0))
        .expect("a 12-byte struct variant: 3×");
    for typed in ["3", "x3", "3x", "3×", "3 times", "300%"] {
        assert_eq!(check("l3-aos-vs-soa", seed, typed).0, 0, "{typed}");
    }
    let v = builtin_variant("l5-tiled-roofline", 0);
    let tera = v.key.parts()[0].key.value().unwrap() / 1e12;
    for typed in [format!("{tera} TFLOP/s"), format!("{tera} teraflops")] {
        let out = warpdrill(&[
            "check",
            "l5-tiled-roofline",
            "--seed",
            "0",
            "--part",
            "1",
            "--answer",
            &typed,
        ]);
        assert_eq!(out.status.code(), Some(0), "{typed}");
    }
}

#[test]
fn unclear_units_are_asked_about_not_guessed() {
    // A bare time: which unit?
    let (code, text) = check("l2-transfer-time", 0, "5.2");
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("which unit"), "{text}");
    // Bits are not bytes.
    for typed in ["2 Kb", "32 b"] {
        let (code, text) = check("l2-tile-smem", 0, typed);
        assert_eq!(code, 2, "{typed}: {text}");
        assert!(text.contains("bits"), "{text}");
    }
}

#[test]
fn rounding_a_learner_does_is_accepted_and_said() {
    // 2/3 as a percentage, rounded to a whole percent or to two decimals of a fraction.
    let third = number(2.0 / 3.0, Unit::Percent, Tolerance::Abs(0.001), 1024);
    expect(
        &third,
        &[
            ("66.7%", Correct),
            ("67%", Correct),
            ("0.67", Correct),
            ("66%", Wrong),
            ("0.6", Wrong),
            ("70%", Wrong),
        ],
    );
    let feedback = ladder::grade(&third, Response::Text("67%"));
    assert!(feedback.headline.contains("round"), "{}", feedback.headline);
    // The tolerance is stated when an answer within it is accepted.
    let time = number(8.388_608e-6, Unit::Seconds, Tolerance::Rel(0.02), 1024);
    let feedback = ladder::grade(&time, Response::Text("8.3 us"));
    assert_eq!(feedback.outcome, Correct);
    assert!(
        feedback.headline.contains("within 2 %"),
        "{}",
        feedback.headline
    );
}

#[test]
fn names_negated_or_contradicted_are_wrong_word_forms_are_right() {
    for (typed, code) in [
        ("coalescing", 0),
        ("memory coalescing", 0),
        ("coalesced", 0),
        ("coalesce", 0),
        ("Coalesced access", 0),
        ("coalesing", 0),
        ("not coalescing", 1),
        ("no coalescing", 1),
        ("bank coalescing", 1),
        ("uncoalesced", 1),
        ("memory", 1),
    ] {
        let (got, text) = check("l1-name-coalescing", 0, typed);
        assert_eq!(got, code, "{typed}: {text}");
    }
}

#[test]
fn choices_in_the_form_they_are_shown() {
    let v = builtin_variant("l1-programmer-managed", 0);
    let shown = v.key.display();
    assert_eq!(check("l1-programmer-managed", 0, &shown).0, 0, "{shown}");
    assert_eq!(check("l1-programmer-managed", 0, "b) shared memory").0, 0);
    assert_eq!(check("l1-programmer-managed", 0, "(b)").0, 0);
    // A letter with another option's words is not an answer.
    assert_eq!(check("l1-programmer-managed", 0, "b) L2 cache").0, 2);
    // Hedging between a right and a wrong option is wrong.
    assert_eq!(check("l1-programmer-managed", 0, "a or b").0, 1);
}

#[test]
fn fixed_facts_do_not_speak_of_these_numbers() {
    let (code, text) = check("l1-sector-size", 0, "64 B");
    assert_eq!(code, 1);
    assert!(!text.contains("for these numbers"), "{text}");
    let (code, text) = check("l2-tile-smem", 0, "1 B");
    assert_eq!(code, 1);
    assert!(text.contains("for these numbers"), "{text}");
}

#[test]
fn wrong_answer_diagnosis_names_the_real_slip() {
    let sectors = number(1.0, Unit::Count("sectors".into()), Tolerance::Exact, 1024);
    let feedback = ladder::grade(&sectors, Response::Text("32"));
    assert!(
        feedback.headline.contains("32×") && !feedback.headline.contains("unit"),
        "{}",
        feedback.headline
    );
    let time = number(334e-6, Unit::Seconds, Tolerance::Rel(0.02), 1024);
    let feedback = ladder::grade(&time, Response::Text("334 s"));
    assert!(feedback.headline.contains("unit"), "{}", feedback.headline);
}

#[test]
fn explanations_are_compared_not_marked_right() {
    // Exit 3 with the ideas found and missed, whatever the answer.
    let (code, text) = check(
        "l5-design-particles",
        0,
        "Use a structure of arrays: x, y, z in separate arrays, 4 sectors per field load against 24 sectors with the AoS.",
    );
    assert_eq!(code, 3, "{text}");
    assert!(
        text.contains("Ideas found:") && text.contains("Ideas missed:"),
        "{text}"
    );
    assert!(text.contains("Model answer:"), "{text}");
    let (code, text) = check("l5-design-particles", 0, "idk");
    assert_eq!(code, 3, "{text}");
    assert!(text.contains("Ideas found: none"), "{text}");
}

#[test]
fn negated_and_contradicted_ideas_do_not_count() {
    let v = builtin_variant("l5-defend-occupancy", 0);
    let feedback = ladder::grade(
        &v,
        Response::Text("it never hides latency and never spills"),
    );
    assert_eq!(feedback.outcome, Outcome::Compare);
    assert!(
        feedback.ideas_found.is_empty(),
        "found {:?}",
        feedback.ideas_found
    );
    let v = builtin_variant("l5-design-particles", 0);
    let feedback = ladder::grade(
        &v,
        Response::Text("Keep AoS, it is fine; SoA would need 24 sectors per field"),
    );
    assert!(
        feedback.ideas_found.is_empty(),
        "found {:?}",
        feedback.ideas_found
    );
}

// ---- Named misconceptions ----

/// The first seed whose variant satisfies `pick`.
fn variant_where(id: &str, pick: impl Fn(&Variant) -> bool) -> Variant {
    (0..500)
        .map(|seed| builtin_variant(id, seed))
        .find(|v| pick(v))
        .unwrap_or_else(|| panic!("a variant of {id}"))
}

#[test]
fn textbook_occupancy_is_named_as_such() {
    // 48 registers: the textbook 65.6 % against the hardware's 62.5 %.
    let v = variant_where("l3-textbook-vs-hardware", |v| v.numbers["regs"] == 48.0);
    let feedback = ladder::grade(&v, Response::Text("65.6%"));
    assert_eq!(feedback.outcome, Outcome::Wrong);
    assert!(
        feedback.headline.starts_with("Textbook occupancy:"),
        "{}",
        feedback.headline
    );
    assert!(feedback.held.starts_with("Textbook occupancy:"));
    assert!(
        !feedback.held.contains("62.5"),
        "the held verdict keeps the answer back: {}",
        feedback.held
    );
    assert!(feedback.headline.contains("62.5%"), "{}", feedback.headline);
    // 65.625 % typed in full is the same misconception; an unrelated number is not.
    assert!(
        ladder::grade(&v, Response::Text("0.65625"))
            .mistake
            .is_some()
    );
    assert!(ladder::grade(&v, Response::Text("40%")).mistake.is_none());
}

#[test]
fn stride_as_conflict_degree_is_named() {
    let v = variant_where("l2-bank-stride", |v| v.numbers["stride"] == 12.0);
    let feedback = ladder::grade(&v, Response::Text("12"));
    assert!(
        feedback.headline.starts_with("Conflict degree = stride:"),
        "{}",
        feedback.headline
    );
    assert!(!feedback.held.contains("4 wavefronts"), "{}", feedback.held);
    let unrelated = ladder::grade(&v, Response::Text("7"));
    assert!(unrelated.mistake.is_none() && unrelated.headline.starts_with("Not quite"));
}

#[test]
fn a_bank_from_the_byte_address_is_named() {
    let v = variant_where("l1-bank-of-address", |v| v.numbers["word"] == 77.0);
    // Byte 308: 308 mod 32 = 20, but the bank is (308 / 4) mod 32 = 13.
    let feedback = ladder::grade(&v, Response::Text("20"));
    assert!(
        feedback
            .headline
            .starts_with("Bank = address mod 32 without ÷4:"),
        "{}",
        feedback.headline
    );
    assert_eq!(
        ladder::grade(&v, Response::Text("13")).outcome,
        Outcome::Correct
    );
}

#[test]
fn lines_for_sectors_and_the_naive_count_are_named() {
    let v = variant_where("l2-stride-sectors", |v| {
        v.numbers["elem"] == 4.0 && v.numbers["stride"] == 2.0
    });
    // 8 sectors of 32 bytes, but 2 lines of 128.
    let feedback = ladder::grade(&v, Response::Text("2"));
    assert!(
        feedback
            .headline
            .starts_with("128-byte lines instead of 32-byte sectors:"),
        "{}",
        feedback.headline
    );
    let v = builtin_variant("l2-reduction-factor", 3);
    let naive = format!("{}", v.numbers["naive"]);
    let feedback = ladder::grade(&v, Response::Text(&naive));
    assert!(
        feedback.headline.starts_with("The naive read count"),
        "{}",
        feedback.headline
    );
}

#[test]
fn a_choice_option_carries_its_own_feedback() {
    use warpdrill::ladder::variant::{Misconception, MistakenAnswer};
    let mut v = number(1.0, Unit::None, Tolerance::Exact, 1024);
    v.key = AnswerKey::Choice {
        options: vec!["registers".into(), "shared memory".into()],
        correct: vec![1],
        also: Vec::new(),
    };
    v.mistakes = vec![Misconception {
        name: None,
        answer: MistakenAnswer::Option(0),
        feedback: "Registers are private to a thread.".into(),
    }];
    let feedback = ladder::grade(&v, Response::Choice(0));
    assert!(feedback.headline.starts_with("Registers are private"));
    assert_eq!(feedback.held, "Registers are private to a thread.");
}
