//! Answers as learners type them, through `warpdrill check`: numbers in words in every language,
//! words for none and for no conflict, powers of ten at the digits typed, tiles, per-SM units, terms
//! in sentences and in other languages — and what is not an answer asked about, never marked wrong.
//! Also the options of a choice in an order drawn from the seed.

use warpdrill::content::Content;
use warpdrill::ladder::{self, AnswerKey};

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

fn check(lang: Option<&str>, id: &str, seed: u64, answer: &str) -> Run {
    let mut command = crate::common::warpdrill();
    for var in ["WARPDRILL_LANG", "LC_ALL", "LC_MESSAGES", "LANG"] {
        command.env_remove(var);
    }
    if let Some(lang) = lang {
        command.args(["--lang", lang]);
    }
    command.args(["check", id, "--seed", &seed.to_string(), "--answer", answer]);
    let out = command.output().expect("the binary runs");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// The first seed whose variant of `id` has the numeric answer `value`.
fn seed_with(id: &str, value: f64) -> u64 {
    let content = Content::builtin();
    let template = content.exercise(id).expect("the exercise exists");
    (0..500)
        .find(|&seed| ladder::generate(template, seed).is_ok_and(|v| v.key.value() == Some(value)))
        .unwrap_or_else(|| panic!("no seed of {id} answers {value}"))
}

#[track_caller]
fn expect(lang: Option<&str>, id: &str, seed: u64, answer: &str, code: i32) -> Run {
    let run = check(lang, id, seed, answer);
    assert_eq!(
        run.code, code,
        "{lang:?} {id} seed {seed}: {answer:?}\n{}{}",
        run.stdout, run.stderr
    );
    run
}

#[test]
fn spelled_numbers_are_graded_in_every_language() {
    let seed = seed_with("l2-stride-sectors", 32.0);
    for (lang, typed) in [
        (None, "thirty-two sectors"),
        (None, "thirty two"),
        (Some("hi-Latn"), "battis sectors"),
        (Some("hi-Latn"), "battis hain"),
        (Some("ko"), "서른두 개"),
        (Some("ko"), "섹터 서른두 개"),
        (Some("ko"), "삼십이"),
        (Some("en"), "서른둘"),
    ] {
        expect(lang, "l2-stride-sectors", seed, typed, 0);
    }
    // The wrong number in words is wrong, and says which number it read.
    let wrong = expect(None, "l2-stride-sectors", seed, "sixteen sectors", 1);
    assert!(wrong.stdout.contains("16 sectors"), "{}", wrong.stdout);
}

#[test]
fn spellings_that_are_other_words_are_asked_about_not_marked_wrong() {
    let seed = seed_with("l2-stride-sectors", 32.0);
    for typed in ["I do not know", "이", "네", "lots"] {
        let run = expect(None, "l2-stride-sectors", seed, typed, 2);
        assert!(
            run.stderr.contains("couldn't read"),
            "{typed}: {}",
            run.stderr
        );
    }
    let run = expect(None, "l2-stride-sectors", seed, "lots", 2);
    assert!(run.stderr.contains("`32 sectors`"), "{}", run.stderr);
}

#[test]
fn words_for_no_conflict() {
    let seed = seed_with("l3-padding", 1.0);
    for (lang, typed) in [
        (None, "no conflict"),
        (None, "conflict-free"),
        (Some("hi-Latn"), "koi conflict nahi"),
        (Some("ko"), "충돌 없음"),
        (None, "one"),
        (None, "1-way"),
    ] {
        expect(lang, "l3-padding", seed, typed, 0);
    }
    let conflicted = seed_with("l3-padding", 32.0);
    expect(None, "l3-padding", conflicted, "32-way bank conflict", 0);
    expect(None, "l3-padding", conflicted, "no conflict", 1);
}

#[test]
fn powers_of_ten_are_judged_at_the_digits_typed() {
    let seed = seed_with("l2-reduction-factor", 1_073_741_824.0);
    for typed in [
        "1.07 billion reads",
        "1.07e9",
        "1.07 × 10^9",
        "1.07x10^9 reads",
        "107 crore",
    ] {
        let run = expect(None, "l2-reduction-factor", seed, typed, 0);
        assert!(
            run.stdout.contains("half a step"),
            "{typed}: {}",
            run.stdout
        );
    }
    // Too few digits to be rounding, or rounded wrong.
    expect(None, "l2-reduction-factor", seed, "1 billion", 1);
    expect(None, "l2-reduction-factor", seed, "1.08e9", 1);
}

#[test]
fn one_rounding_rule_up_and_down() {
    // 62.5 % is half a point from 62 % and from 63 %: both are right, 61 % is not.
    let content = Content::builtin();
    let (id, seed) = content
        .exercises
        .iter()
        .filter(|t| {
            matches!(
                t.answer,
                warpdrill::content::schema::AnswerSpec::Number {
                    unit: warpdrill::content::schema::Unit::Percent,
                    ..
                }
            )
        })
        .find_map(|t| {
            (0..300)
                .find(|&s| ladder::generate(t, s).is_ok_and(|v| v.key.value() == Some(0.625)))
                .map(|s| (t.id.clone(), s))
        })
        .expect("a variant whose answer is 62.5 %");
    expect(None, &id, seed, "62%", 0);
    expect(None, &id, seed, "63%", 0);
    expect(None, &id, seed, "0.63", 0);
    expect(None, &id, seed, "61%", 1);
}

#[test]
fn units_with_a_slash_tiles_and_korean_ordinals() {
    let seed = seed_with("l2-warp-limit", 2.0);
    expect(None, "l2-warp-limit", seed, "2 blocks/SM", 0);
    expect(None, "l2-warp-limit", seed, "2 CTAs/SM", 0);
    let seed = seed_with("l1-bank-of-address", 4.0);
    expect(Some("ko"), "l1-bank-of-address", seed, "4번", 0);
    expect(Some("ko"), "l1-bank-of-address", seed, "네 번", 0);
    expect(None, "l1-bank-of-address", seed, "bank four", 0);
    // A tile answered as its two sides, on a template of its own.
    let root = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir_all(root.path().join("exercises")).unwrap();
    std::fs::write(
        root.path().join("exercises/tile.ron"),
        r#"Exercises(exercises: [(
      id: "t-tile", level: L2, topic: "tiling", title: "Tile",
      params: {"t": Choice([8, 16, 32])},
      values: [("tile", Expr("t"))],
      prompt: "Which tile side is {t}?",
      answer: Number(value: "tile", unit: None),
      hints: ["One.", "Two."],
      explanation: "{tile}.",
    )])"#,
    )
    .unwrap();
    let dir = root.path().to_str().unwrap();
    let grade = |typed: &str| {
        let out = crate::common::warpdrill()
            .args([
                "--content",
                dir,
                "check",
                "t-tile",
                "--seed",
                "0",
                "--answer",
                typed,
            ])
            .output()
            .expect("runs");
        out.status.code().unwrap_or(-1)
    };
    let content = warpdrill::content::Content::with_dir(Some(root.path())).expect("loads");
    let tile = ladder::generate(content.exercise("t-tile").expect("loaded"), 0)
        .expect("draws")
        .key
        .value()
        .expect("a number");
    for typed in [
        format!("{tile}×{tile}"),
        format!("{tile}x{tile}"),
        format!("{tile} by {tile}"),
    ] {
        assert_eq!(grade(&typed), 0, "{typed}");
    }
    assert_eq!(
        grade(&format!("{tile}x{}", tile * 2.0)),
        2,
        "two different sides"
    );
}

#[test]
fn choice_letters_follow_the_seed_and_grading_follows_the_option() {
    let content = Content::builtin();
    for id in [
        "l1-programmer-managed",
        "l1-scope",
        "l1-opencl-local",
        "l1-broadcast",
    ] {
        let template = content.exercise(id).expect("exists");
        let mut letters = std::collections::BTreeSet::new();
        for seed in 0..8 {
            let variant = ladder::generate(template, seed).expect("draws");
            let AnswerKey::Choice {
                options, correct, ..
            } = &variant.key
            else {
                panic!("{id} is a choice");
            };
            letters.insert(correct[0]);
            // Its letter and its words are right; another letter is wrong.
            let letter = char::from(b'a' + correct[0] as u8).to_string();
            expect(None, id, seed, &letter, 0);
            expect(None, id, seed, &options[correct[0]], 0);
            let other = char::from(b'a' + ((correct[0] + 1) % options.len()) as u8).to_string();
            expect(None, id, seed, &other, 1);
        }
        assert_eq!(letters.len(), 4, "{id}: the right letter takes every place");
    }
}

#[test]
fn terms_in_sentences_and_other_languages() {
    let content = Content::builtin();
    let template = content.exercise("l1-scope").expect("exists");
    for seed in 0..3 {
        for (lang, typed) in [
            (None, "it is global memory"),
            (None, "global memory hai"),
            (None, "전역 메모리"),
            (Some("ko"), "글로벌 메모리입니다"),
            (Some("hi-Latn"), "global memory hai"),
        ] {
            expect(lang, "l1-scope", seed, typed, 0);
        }
        expect(None, "l1-scope", seed, "it is shared memory", 1);
        let _ = ladder::generate(template, seed);
    }
    expect(None, "l1-name-coalescing", 0, "coalescing hota hai", 0);
    expect(None, "l1-name-coalescing", 0, "it is memory coalescing", 0);
    expect(None, "l1-name-coalescing", 0, "코얼레싱이요", 0);
}

#[test]
fn option_feedback_follows_its_option_to_its_new_letter() {
    let content = Content::builtin();
    let template = content.exercise("l1-warp-width").expect("exists");
    // What each option as written says when picked wrongly.
    let says = ["half-warp", "NVIDIA's warp", "wave64", "lockstep"];
    for seed in 0..12 {
        let variant = ladder::generate(template, seed).expect("draws");
        let AnswerKey::Choice {
            correct, options, ..
        } = &variant.key
        else {
            panic!("a choice");
        };
        for shown in (0..options.len()).filter(|i| !correct.contains(i)) {
            let written = variant.option_order[shown];
            let feedback = ladder::grade(&variant, ladder::Response::Choice(shown));
            let mistake = feedback.mistake.unwrap_or_default();
            assert!(
                mistake.contains(says[written]),
                "seed {seed}: {}) {} said {mistake:?}",
                char::from(b'a' + shown as u8),
                options[shown]
            );
        }
    }
}
