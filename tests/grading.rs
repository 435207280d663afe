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
            ("13%", Wrong),
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
            ("8.39", Wrong),
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
