//! Translated content: translation files read and checked against the English (placeholders, list
//! lengths, ids, unknown fields — each mistake located and skipped alone), English fallback marked
//! per item, answers identical in every language and graded in either, Korean units understood,
//! `content check --lang` reporting coverage, and the built-in translations complete.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use warpdrill::content::Content;
use warpdrill::content::i18n::{self, ItemKind};
use warpdrill::content::schema::{Idea, Tolerance, Unit};
use warpdrill::i18n::Lang;
use warpdrill::ladder::{self, AnswerKey, Outcome, Response, Variant};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/i18n")
}

/// The built-in content with the translations of `dir` alone (not the built-in ones), so that what
/// is translated does not depend on how far the built-in translations have come.
fn with_own_translations(dir: &Path) -> Content {
    let mut content = Content::with_dir(Some(dir)).expect("the folder reads");
    let (sources, problems) = i18n::dir_sources(dir);
    let mut translations = i18n::load(sources);
    translations.problems.extend(problems);
    content.translations = std::sync::Arc::new(translations);
    content
}

/// The built-in content with the fixture's translations alone.
fn with_fixture() -> Content {
    with_own_translations(&fixture())
}

/// The mismatches of `lang`'s translations in `content`, as `file:line:column: message`.
fn mismatches(content: &Content, lang: Lang) -> Vec<String> {
    let (_, problems) = i18n::coverage(content, lang);
    let mut all: Vec<String> = content
        .translations
        .get(lang)
        .map(|t| t.problems.iter().map(|p| p.to_string()).collect())
        .unwrap_or_default();
    all.extend(problems.iter().map(|p| p.to_string()));
    all
}

/// 1-based line of the first line of `file` (under the fixture) containing `needle`, after the line
/// containing `after`.
fn line_of(file: &str, after: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(fixture().join(file)).unwrap();
    let start = text.lines().position(|l| l.contains(after)).unwrap();
    start
        + 1
        + text
            .lines()
            .skip(start)
            .position(|l| l.contains(needle))
            .unwrap()
}

#[test]
fn a_placeholder_mismatch_is_reported_at_its_place_and_that_text_falls_back() {
    let content = with_fixture();
    let problems = mismatches(&content, Lang::Ko);
    let file = "exercises/i18n/ko/L2.ron";
    let line = line_of(file, "\"l2-stride-sectors\"", "prompt:");
    let reported = problems
        .iter()
        .find(|p| p.contains("l2-stride-sectors") && p.contains("prompt"))
        .unwrap_or_else(|| panic!("no prompt mismatch reported in {problems:#?}"));
    assert!(
        reported.contains(&format!("{file}:{line}:")),
        "located at the prompt (line {line}): {reported}"
    );
    assert!(
        reported.contains("{elem}") && reported.contains("missing"),
        "names the missing placeholder: {reported}"
    );
    // The column points at the string itself.
    let text = std::fs::read_to_string(fixture().join(file)).unwrap();
    let column = text.lines().nth(line - 1).unwrap().find("\"꽉").unwrap() + 1;
    assert!(
        reported.contains(&format!(":{line}:{column}:")),
        "{reported}"
    );
    // Only the prompt falls back; the rest of the item is Korean.
    let ko = content.in_lang(Lang::Ko);
    let exercise = ko.exercise("l2-stride-sectors").unwrap();
    let english = Content::builtin();
    let original = english.exercise("l2-stride-sectors").unwrap();
    assert_eq!(exercise.prompt, original.prompt);
    assert_eq!(exercise.title, "stride가 있는 load의 sector 수");
    assert!(exercise.hints[0].starts_with("이웃한 lane"));
    assert_eq!(
        ko.english_texts(ItemKind::Exercise, "l2-stride-sectors"),
        ["prompt".to_string()]
    );
}

#[test]
fn placeholders_compare_as_written_up_to_whitespace_with_literal_braces() {
    assert_eq!(
        i18n::placeholder_mismatch("{sectors * 32} B", "{sectors*32} 바이트"),
        None
    );
    assert_eq!(
        i18n::placeholder_mismatch("{ridge|2} FLOP/B", "{ridge | 2} FLOP/B"),
        None
    );
    assert_eq!(
        i18n::placeholder_mismatch("`a[{{i}}]` is {x}", "`a[{{i}}]`는 {x}"),
        None
    );
    let typed = i18n::placeholder_mismatch("{sectors} sectors", "5 섹터").unwrap();
    assert!(
        typed.contains("{sectors}") && typed.contains("missing"),
        "{typed}"
    );
    let changed = i18n::placeholder_mismatch("{sectors * 32} B", "{sectors * 33} B").unwrap();
    assert!(changed.contains("{sectors*33}"), "{changed}");
    let extra = i18n::placeholder_mismatch("{a} and {b}", "{a}, {b}, {c}").unwrap();
    assert!(
        extra.contains("{c}") && extra.contains("not one of"),
        "{extra}"
    );
    let broken = i18n::placeholder_mismatch("{a}", "{a").unwrap();
    assert!(broken.contains("without its"), "{broken}");
    assert!(i18n::placeholder_mismatch("{a}", "  ").is_some(), "blank");
    // A literal brace is not a placeholder: `{{x}}` in the translation does not stand for `{x}`.
    assert!(i18n::placeholder_mismatch("{x}", "{{x}}").is_some());
}

#[test]
fn lists_ids_and_fields_are_checked_and_each_mistake_skipped_alone() {
    let content = with_fixture();
    let problems = mismatches(&content, Lang::Ko);
    let find = |needle: &str| {
        problems
            .iter()
            .find(|p| p.contains(needle))
            .unwrap_or_else(|| panic!("`{needle}` not reported in {problems:#?}"))
    };
    let hints = find("`l1-scope`");
    assert!(hints.contains("hints") && hints.contains("1 in the translation, 2 in the English"));
    assert!(
        hints.contains(&format!(
            "exercises/i18n/ko/L1.ron:{}:",
            line_of("exercises/i18n/ko/L1.ron", "\"l1-scope\"", "hints:")
        )),
        "{hints}"
    );
    let unknown = find("l1-no-such-exercise");
    assert!(unknown.contains("no exercise"), "{unknown}");
    let field = find("titel");
    assert!(
        field.contains(&format!(
            "exercises/i18n/ko/L2.ron:{}:",
            line_of("exercises/i18n/ko/L2.ron", "l2-misaligned", "titel")
        )),
        "the unknown field is located: {field}"
    );
    // The item with the unknown field is skipped; its neighbours in the file are not.
    let ko = content.in_lang(Lang::Ko);
    assert!(ko.is_english(ItemKind::Exercise, "l2-misaligned-sectors"));
    assert_eq!(
        ko.english_texts(ItemKind::Exercise, "l2-misaligned-sectors"),
        ["all".to_string()]
    );
    let scope = ko.exercise("l1-scope").unwrap();
    assert_eq!(scope.title, "누가 볼 수 있나?");
    assert_eq!(
        scope.hints,
        Content::builtin().exercise("l1-scope").unwrap().hints
    );
    // A bad translation never reaches the English content.
    assert_eq!(
        content.exercise("l1-scope").unwrap().title,
        "Who can see it?"
    );
}

#[test]
fn a_file_that_does_not_read_is_reported_and_the_rest_loads() {
    let root = tempfile::tempdir().expect("a temporary folder");
    let dir = root.path().to_path_buf();
    let ko = dir.join("content/i18n/ko");
    std::fs::create_dir_all(&ko).unwrap();
    std::fs::create_dir_all(dir.join("exercises/i18n/fr")).unwrap();
    std::fs::write(
        ko.join("topics.ron"),
        "TopicTexts(topics: { \"banks\": (name: \"뱅크\"), ",
    )
    .unwrap();
    std::fs::write(
        ko.join("cards-banks.ron"),
        "CardTexts(cards: { \"bank-count\": (front: 5, back: \"b\"), \"bank-tile33\": (front: \"앞\", back: \"뒤\") })",
    )
    .unwrap();
    std::fs::write(
        dir.join("exercises/i18n/fr/L1.ron"),
        "ExerciseTexts(exercises: {})",
    )
    .unwrap();
    let content = with_own_translations(&dir);
    let problems = mismatches(&content, Lang::Ko);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("topics.ron:1:") && p.contains("whole file was skipped")),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("cards-banks.ron:1:") && p.contains("`bank-count`")),
        "{problems:#?}"
    );
    assert!(
        content
            .translations
            .problems
            .iter()
            .any(|p| p.message.contains("`fr` is not a language")),
        "{:#?}",
        content.translations.problems
    );
    let translated = content.in_lang(Lang::Ko);
    let card = translated
        .cards
        .iter()
        .find(|c| c.id == "bank-tile33")
        .unwrap();
    assert_eq!((card.front.as_str(), card.back.as_str()), ("앞", "뒤"));
    assert!(translated.is_english(ItemKind::Card, "bank-count"));
    assert!(!translated.is_english(ItemKind::Card, "bank-tile33"));
}

#[test]
fn fallback_to_english_is_marked_per_item() {
    let content = with_fixture();
    let ko = content.in_lang(Lang::Ko);
    assert_eq!(ko.lang, Lang::Ko);
    // Complete: not marked.
    assert!(!ko.is_english(ItemKind::Topic, "coalescing"));
    assert_eq!(
        ko.topic("coalescing").unwrap().name,
        "Global memory coalescing"
    );
    assert!(!ko.is_english(ItemKind::Exercise, "l1-programmer-managed"));
    assert!(!ko.is_english(ItemKind::Card, "bank-count"));
    // Partly translated: the English texts are named.
    assert_eq!(
        ko.english_texts(ItemKind::Topic, "banks"),
        ["description".to_string(), "analogy".to_string()]
    );
    assert_eq!(ko.topic("banks").unwrap().name, "Shared memory의 bank");
    // Not translated at all.
    assert_eq!(
        ko.english_texts(ItemKind::Topic, "occupancy"),
        ["all".to_string()]
    );
    // English content marks nothing, and going back to English restores every text.
    let en = ko.in_lang(Lang::En);
    assert!(en.fallbacks.is_empty());
    assert_eq!(
        en.topic("banks").unwrap().name,
        content.topic("banks").unwrap().name
    );
    // Hinglish is its own language: the Korean texts do not leak into it.
    let hi = content.in_lang(Lang::HiLatn);
    assert!(hi.is_english(ItemKind::Exercise, "l1-programmer-managed"));
    assert!(!hi.is_english(ItemKind::Exercise, "l2-stride-sectors"));
    assert!(
        hi.exercise("l2-stride-sectors")
            .unwrap()
            .prompt
            .contains("padhta hai")
    );
}

fn seeds() -> [u64; 4] {
    [0, 1, 7, 12345]
}

/// The answer of a variant, language aside: the number, the right options, the order.
fn answer_of(key: &AnswerKey) -> String {
    match key {
        AnswerKey::Number {
            value,
            tolerance,
            kilo,
            ..
        } => format!("number {value} {tolerance:?} {kilo}"),
        AnswerKey::Choice {
            options, correct, ..
        } => format!("choice {correct:?} of {}", options.len()),
        AnswerKey::Ordering { correct, shown, .. } => format!("order {correct:?} shown {shown:?}"),
        AnswerKey::Text { threshold, .. } => format!("text {threshold}"),
        AnswerKey::Explain {
            ideas,
            required,
            checks,
            ..
        } => format!(
            "explain {} ideas, {required} required, parts {:?}",
            ideas.len(),
            checks.iter().map(|c| answer_of(&c.key)).collect::<Vec<_>>()
        ),
    }
}

/// Every exercise in every language and several seeds: the same answer as in English, the English
/// answer graded right in the translation, and the translation's own answer graded right.
fn answers_agree(content: &Content) {
    let english = content.in_lang(Lang::En);
    for lang in [Lang::HiLatn, Lang::Ko] {
        let translated = content.in_lang(lang);
        assert_eq!(translated.exercises.len(), english.exercises.len());
        for (en, tr) in english.exercises.iter().zip(&translated.exercises) {
            assert_eq!(en.id, tr.id);
            for seed in seeds() {
                let a = ladder::generate(en, seed).unwrap();
                let b = ladder::generate(tr, seed).unwrap_or_else(|e| {
                    panic!("{} ({}) seed {seed} cannot be drawn: {e}", tr.id, lang)
                });
                assert_eq!(a.params, b.params, "{} {lang} seed {seed}", en.id);
                assert_eq!(a.numbers, b.numbers, "{} {lang} seed {seed}", en.id);
                assert_eq!(
                    answer_of(&a.key),
                    answer_of(&b.key),
                    "{} {lang} seed {seed}",
                    en.id
                );
                if !matches!(a.key, AnswerKey::Explain { .. }) {
                    for typed in [a.key.typed(), b.key.typed()] {
                        let feedback = ladder::grade(&b, Response::Text(&typed));
                        assert_eq!(
                            feedback.outcome,
                            Outcome::Correct,
                            "{} in {lang}, seed {seed}: `{typed}` → {}",
                            en.id,
                            feedback.headline
                        );
                    }
                }
                for (i, part) in a.key.parts().iter().enumerate() {
                    let typed = part.key.typed();
                    let feedback =
                        ladder::grade_part(&b, i, Response::Text(&typed)).expect("same parts");
                    assert_eq!(feedback.outcome, Outcome::Correct, "{} part {i}", en.id);
                }
            }
        }
    }
}

#[test]
fn every_exercise_has_the_english_answer_in_every_language() {
    answers_agree(&Content::builtin());
    answers_agree(&with_fixture());
}

#[test]
fn the_translated_variant_carries_no_number_of_its_own() {
    let content = with_fixture();
    let template = content.in_lang(Lang::HiLatn);
    let template = template.exercise("l2-stride-sectors").unwrap();
    for seed in seeds() {
        let variant = ladder::generate(template, seed).unwrap();
        let english = ladder::generate(
            Content::builtin().exercise("l2-stride-sectors").unwrap(),
            seed,
        )
        .unwrap();
        let sectors = english.numbers["sectors"];
        assert!(
            variant
                .explanation
                .contains(&format!("{} sectors", ladder::variant::plain(sectors))),
            "{}",
            variant.explanation
        );
    }
}

/// A variant of `l2-stride-sectors` whose answer is `sectors` (seed chosen for it), in `lang`.
fn stride_sectors(lang: Lang) -> Variant {
    let content = with_fixture().in_lang(lang);
    let template = content.exercise("l2-stride-sectors").unwrap();
    ladder::generate(template, 3).unwrap()
}

#[test]
fn korean_count_answers_are_graded_right() {
    let variant = stride_sectors(Lang::Ko);
    let n = ladder::variant::plain(variant.key.value().unwrap());
    for typed in [
        format!("{n}개"),
        format!("{n} 개"),
        format!("{n} 섹터"),
        format!("{n}섹터"),
        format!("섹터 {n}개"),
        format!("{n}개 섹터"),
        format!("{n}개입니다"),
        format!("{n} sectors"),
        n.clone(),
    ] {
        let feedback = ladder::grade(&variant, Response::Text(&typed));
        assert_eq!(
            feedback.outcome,
            Outcome::Correct,
            "`{typed}`: {}",
            feedback.headline
        );
    }
    // The shown answer uses the Korean word.
    assert!(
        variant.key.display().ends_with("섹터"),
        "{}",
        variant.key.display()
    );
    let wrong = format!("{}개", variant.key.value().unwrap() + 1.0);
    assert_eq!(
        ladder::grade(&variant, Response::Text(&wrong)).outcome,
        Outcome::Wrong
    );
    for refused in [
        format!("{n}개 아님"),
        format!("{n} 워프"),
        format!("{n} 바이트"),
    ] {
        assert_eq!(
            ladder::grade(&variant, Response::Text(&refused)).outcome,
            Outcome::Unusable,
            "`{refused}`"
        );
    }
}

/// A Korean learner reads counts as Korean says them: the word, the number, the counter
/// (`섹터 8개`), in the answer shown, in the echo of a wrong answer and in the tolerance; cycles
/// as `32 사이클`. English and Hinglish keep `8 sectors`.
#[test]
fn korean_feedback_says_counts_in_korean_order() {
    let variant = stride_sectors(Lang::Ko);
    let value = variant.key.value().unwrap();
    let n = ladder::variant::plain(value);
    assert_eq!(variant.key.display_in(Lang::Ko), format!("섹터 {n}개"));
    let right = ladder::grade::grade_in(&variant, Response::Text(&n), Lang::Ko);
    assert_eq!(right.outcome, Outcome::Correct);
    assert!(
        right.headline.contains(&format!("섹터 {n}개")),
        "{}",
        right.headline
    );
    assert!(
        !right.headline.contains(&format!("{n} 섹터")),
        "{}",
        right.headline
    );
    let wrong = ladder::variant::plain(value + 1.0);
    let feedback = ladder::grade::grade_in(&variant, Response::Text(&wrong), Lang::Ko);
    assert_eq!(feedback.outcome, Outcome::Wrong);
    assert!(
        feedback.headline.contains(&format!("섹터 {wrong}개")),
        "{}",
        feedback.headline
    );
    assert_eq!(feedback.expected, format!("섹터 {n}개"));
    // Cycles, and the English order where the word was not translated.
    assert_eq!(
        ladder::variant::format_with_unit_in(32.0, &Unit::Cycles, 1024, Lang::Ko),
        "32 사이클"
    );
    assert_eq!(
        ladder::variant::format_with_unit_in(4.0, &Unit::Count("warps".into()), 1024, Lang::Ko),
        "4 warps"
    );
    let english = stride_sectors(Lang::En);
    assert_eq!(english.key.display_in(Lang::En), format!("{n} sectors"));
    let hinglish = stride_sectors(Lang::HiLatn);
    assert!(
        hinglish.key.display_in(Lang::HiLatn).starts_with(&n),
        "{}",
        hinglish.key.display_in(Lang::HiLatn)
    );
}

fn number(value: f64, unit: Unit) -> Variant {
    let mut variant = stride_sectors(Lang::Ko);
    variant.key = AnswerKey::Number {
        value,
        tolerance: match unit {
            Unit::Percent => Tolerance::Abs(0.001),
            _ if value.fract() == 0.0 => Tolerance::Exact,
            _ => Tolerance::Rel(0.01),
        },
        unit,
        kilo: 1024,
    };
    variant
}

#[test]
fn korean_and_hinglish_units_are_read() {
    let cases: &[(f64, Unit, &[&str])] = &[
        (
            128.0,
            Unit::Bytes,
            &["128 바이트", "128바이트", "128 B", "128 바이트입니다"],
        ),
        (
            2048.0,
            Unit::Bytes,
            &["2 킬로바이트", "2KB", "2048 바이트 (2 킬로바이트)"],
        ),
        (
            8.39e-6,
            Unit::Seconds,
            &["8.39 마이크로초", "8.39마이크로초", "8.39 µs"],
        ),
        (0.002, Unit::Seconds, &["2 밀리초", "2000 마이크로초"]),
        (3e-7, Unit::Seconds, &["300 나노초"]),
        (
            0.625,
            Unit::Percent,
            &["62.5 퍼센트", "62.5%", "62.5 percent", "62.5 % hai"],
        ),
        (16.0, Unit::Factor, &["16배", "16 배", "16x", "16 guna"]),
        (284.0, Unit::Cycles, &["284 사이클", "284 cycles"]),
        (
            40.0,
            Unit::Count("warps".into()),
            &["40 워프", "40개", "40 warps hain", "40 warps har SM mein"],
        ),
        (
            32.0,
            Unit::Count("wavefronts".into()),
            &["32 웨이브프론트", "32-way"],
        ),
        (8.0, Unit::Count("banks".into()), &["8 뱅크", "8개 뱅크"]),
        (
            64.0,
            Unit::Count("registers".into()),
            &["64 레지스터", "64 regs"],
        ),
        (4.0, Unit::Count("blocks".into()), &["4 블록", "약 4 블록"]),
        (
            1024.0,
            Unit::Count("threads".into()),
            &["1024 스레드", "1,024 threads"],
        ),
        (5.0, Unit::None, &["5개", "5"]),
    ];
    for (value, unit, typed) in cases {
        let variant = number(*value, unit.clone());
        for typed in *typed {
            let feedback = ladder::grade(&variant, Response::Text(typed));
            assert_eq!(
                feedback.outcome,
                Outcome::Correct,
                "`{typed}` for {value} {unit:?}: {}",
                feedback.headline
            );
        }
    }
    // The wrong scale is still wrong, and a unit of another kind is refused.
    assert_eq!(
        ladder::grade(
            &number(8.39e-6, Unit::Seconds),
            Response::Text("8.39 밀리초")
        )
        .outcome,
        Outcome::Wrong
    );
    assert_eq!(
        ladder::grade(
            &number(128.0, Unit::Bytes),
            Response::Text("128 마이크로초")
        )
        .outcome,
        Outcome::Unusable
    );
    assert_eq!(
        ladder::grade(
            &number(40.0, Unit::Count("warps".into())),
            Response::Text("40 블록")
        )
        .outcome,
        Outcome::Unusable
    );
}

#[test]
fn a_choice_is_answered_by_its_korean_or_english_words() {
    let content = with_fixture().in_lang(Lang::Ko);
    let template = content.exercise("l1-programmer-managed").unwrap();
    let variant = ladder::generate(template, 0).unwrap();
    let AnswerKey::Choice { options, .. } = &variant.key else {
        panic!("a choice")
    };
    assert_eq!(options[1], "공유 메모리 (`__shared__`)");
    for (typed, want) in [
        ("공유 메모리", Outcome::Correct),
        ("b", Outcome::Correct),
        ("b) 공유 메모리", Outcome::Correct),
        ("shared memory", Outcome::Correct),
        ("L1 캐시", Outcome::Wrong),
        ("텍스처 캐시", Outcome::Wrong),
        ("the texture cache", Outcome::Wrong),
    ] {
        let feedback = ladder::grade(&variant, Response::Text(typed));
        assert_eq!(feedback.outcome, want, "`{typed}`: {}", feedback.headline);
    }
}

#[test]
fn orderings_and_short_texts_take_either_language() {
    let content = with_fixture().in_lang(Lang::Ko);
    let ladder_ex = ladder::generate(content.exercise("l1-latency-ladder").unwrap(), 0).unwrap();
    for typed in [
        "레지스터, 공유 메모리, L1 캐시, L2 캐시, 디바이스 메모리 (HBM)",
        "레지, smem, L1, L2, 글로벌 메모리",
        "registers, shared memory, L1 cache, L2 cache, HBM",
    ] {
        let feedback = ladder::grade(&ladder_ex, Response::Text(typed));
        assert_eq!(
            feedback.outcome,
            Outcome::Correct,
            "`{typed}`: {}",
            feedback.headline
        );
    }
    let AnswerKey::Ordering { by, .. } = &ladder_ex.key else {
        panic!("an ordering")
    };
    assert_eq!(by.as_deref(), Some("빠른 것부터"));
    let name = ladder::generate(content.exercise("l1-name-coalescing").unwrap(), 0).unwrap();
    for (typed, want) in [
        ("메모리 병합", Outcome::Correct),
        ("메모리 병합이요", Outcome::Correct),
        ("coalescing", Outcome::Correct),
        ("coalescing이요", Outcome::Correct),
        ("bank conflict", Outcome::Wrong),
        ("coalescing nahi", Outcome::Wrong),
    ] {
        let feedback = ladder::grade(&name, Response::Text(typed));
        assert_eq!(feedback.outcome, want, "`{typed}`: {}", feedback.headline);
    }
}

#[test]
fn korean_explanations_match_hangul_inside_words_and_read_korean_negation() {
    let mut variant = stride_sectors(Lang::Ko);
    variant.key = AnswerKey::Explain {
        ideas: vec![
            Idea {
                name: "coalescing".into(),
                any_of: vec![
                    "연속된 주소".into(),
                    "coalescing".into(),
                    "coalesced".into(),
                ],
                not_with: vec![],
            },
            Idea {
                name: "섹터".into(),
                any_of: vec!["섹터".into(), "sector".into()],
                not_with: vec![],
            },
        ],
        model: "…".into(),
        required: 1,
        checks: vec![],
    };
    let found = |text: &str| ladder::grade(&variant, Response::Text(text)).ideas_found;
    assert_eq!(found("섹터가 줄어든다"), ["섹터"]);
    assert_eq!(found("32바이트섹터를 덜 읽는다"), ["섹터"]);
    assert_eq!(found("sector에서 데이터를 가져온다"), ["섹터"]);
    assert_eq!(
        found("warp가 연속된 주소를 읽으면 coalescing이 된다"),
        ["coalescing"]
    );
    assert!(found("coalescing이 되지 않는다").is_empty());
    assert!(found("coalescing이 안 된다").is_empty());
    assert!(found("이 접근은 coalesced가 아니다").is_empty());
    assert!(found("coalescing nahi hota").is_empty());
    assert!(found("bina coalescing ke").is_empty());
    assert_eq!(found("coalescing이 되면 섹터가 줄어든다").len(), 2);
    // English keeps whole-word matching: `sectorial` is not `sector`… but `sectors` is.
    assert_eq!(found("fewer sectors"), ["섹터"]);
}

#[test]
fn translated_explain_ideas_add_keywords_to_the_english_ones() {
    let root = tempfile::tempdir().expect("a temporary folder");
    let dir = root.path().to_path_buf();
    let ko = dir.join("exercises/i18n/ko");
    std::fs::create_dir_all(&ko).unwrap();
    let english = Content::builtin();
    let (id, ideas) = english
        .exercises
        .iter()
        .find_map(|e| match &e.answer {
            warpdrill::content::schema::AnswerSpec::Explain { ideas, .. } => {
                Some((e.id.clone(), ideas.clone()))
            }
            _ => None,
        })
        .expect("an explanation exercise");
    let translated_ideas: Vec<String> = ideas
        .iter()
        .enumerate()
        .map(|(i, _)| format!("(name: \"생각 {i}\", any_of: [\"한국어낱말{i}\"])"))
        .collect();
    std::fs::write(
        ko.join("L3.ron"),
        format!(
            "ExerciseTexts(exercises: {{ \"{id}\": (answer: (ideas: [{}])) }})",
            translated_ideas.join(", ")
        ),
    )
    .unwrap();
    let content = with_own_translations(&dir).in_lang(Lang::Ko);
    let template = content.exercise(&id).unwrap();
    let variant = ladder::generate(template, 0).unwrap();
    let feedback = ladder::grade(&variant, Response::Text("여기서 한국어낱말0이 중요하다"));
    assert_eq!(feedback.ideas_found, ["생각 0"]);
    let english_word = &ideas[0].any_of[0];
    let feedback = ladder::grade(&variant, Response::Text(english_word));
    assert!(
        feedback.ideas_found.contains(&"생각 0".to_string()),
        "the English keyword `{english_word}` still counts: {:?}",
        feedback.ideas_found
    );
}

fn warpdrill(args: &[&str]) -> std::process::Output {
    crate::common::warpdrill()
        .args(args)
        .env_remove("WARPDRILL_LANG")
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .unwrap()
}

#[test]
fn content_check_lang_reports_coverage_and_mismatches() {
    let dir = fixture();
    let dir = dir.to_str().unwrap();
    let out = warpdrill(&["content", "check", dir, "--lang", "ko"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("exercises/i18n/ko/L2.ron:") && stdout.contains("l2-stride-sectors"),
        "{stdout}"
    );
    // The fixture's translations come over the built-in ones (however complete those are). The
    // report speaks the language it checks, as `--lang` asks.
    let total = Content::builtin();
    let summary = stdout.lines().last().unwrap();
    assert!(
        summary.starts_with("ko 문제 발견: topic ")
            && summary.contains(&format!("/{} (", total.topics.len()))
            && summary.contains(&format!("/{} (", total.cards.len()))
            && summary.contains("전체 "),
        "{summary}"
    );
    assert!(
        stdout.contains("ko: topic `banks` 영어로 남은 부분: description, analogy"),
        "{stdout}"
    );
    let hinglish = warpdrill(&["content", "check", dir, "--lang", "hi-Latn"]);
    let hinglish = String::from_utf8_lossy(&hinglish.stdout);
    assert!(
        hinglish.lines().last().unwrap().starts_with("hi-Latn ") && !hinglish.contains("(s)"),
        "{hinglish}"
    );
    let json = warpdrill(&["content", "check", dir, "--lang", "ko", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["ok"], false);
    assert_eq!(value["lang"], "ko");
    assert!(value["coverage"]["topics"]["translated"].as_u64().unwrap() >= 1);
    assert_eq!(value["coverage"]["topics"]["total"], total.topics.len());
    assert_eq!(value["coverage"]["cards"]["total"], total.cards.len());
    assert_eq!(
        value["coverage"]["exercises"]["total"],
        total.exercises.len()
    );
    assert!(value["coverage"]["overall"]["percent"].as_f64().unwrap() < 100.0);
    let errors = value["errors"].as_array().unwrap();
    assert!(errors.iter().any(
        |e| e["message"].as_str().unwrap().contains("l2-stride-sectors")
            && e["line"].as_u64().unwrap() > 1
    ));
    assert!(
        value["untranslated"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["id"] == "banks" && u["kind"] == "topic" && u["texts"][0] == "description")
    );
    // Without --lang, the English check as always (the locale does not turn it on).
    let english = crate::common::warpdrill()
        .args(["content", "check", dir])
        .env("WARPDRILL_LANG", "ko")
        .output()
        .unwrap();
    let english_out = String::from_utf8_lossy(&english.stdout);
    assert_eq!(english.status.code(), Some(0), "{english_out}");
    assert!(!english_out.contains("ko"), "{english_out}");
}

#[test]
fn check_and_preview_speak_the_chosen_language() {
    let dir = fixture();
    let dir = dir.to_str().unwrap();
    let variant = stride_sectors(Lang::Ko);
    let n = ladder::variant::plain(variant.key.value().unwrap());
    let out = warpdrill(&[
        "--content",
        dir,
        "--lang",
        "ko",
        "check",
        "l2-stride-sectors",
        "--seed",
        "3",
        "--answer",
        &format!("{n}개"),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = warpdrill(&[
        "--content",
        dir,
        "--lang",
        "ko",
        "check",
        "l1-programmer-managed",
        "--answer",
        "공유 메모리",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let preview = warpdrill(&[
        "--content",
        dir,
        "--lang",
        "ko",
        "content",
        "preview",
        "--level",
        "L1",
    ]);
    let text = String::from_utf8_lossy(&preview.stdout);
    assert!(text.contains("누가 관리하나?"), "{text}");
    assert!(text.contains("b) 공유 메모리"), "{text}");
    let english = warpdrill(&["--content", dir, "content", "preview", "--level", "L1"]);
    assert!(String::from_utf8_lossy(&english.stdout).contains("Who manages it?"));
    // The language from the environment, as the flag would give it.
    let from_env = crate::common::warpdrill()
        .args(["--content", dir, "content", "preview", "--level", "L1"])
        .env("WARPDRILL_LANG", "ko")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&from_env.stdout).contains("누가 관리하나?"));
}

/// The items of `lang` still in English, as lines for a failure message.
fn missing(content: &Content, lang: Lang) -> Vec<String> {
    content
        .in_lang(lang)
        .fallbacks
        .iter()
        .map(|((kind, id), texts)| format!("{} `{id}`: {}", kind.plural(), texts.join(", ")))
        .collect()
}

#[test]
fn the_built_in_content_is_fully_translated_into_korean_and_hinglish() {
    let content = Content::builtin();
    let mut report = BTreeMap::new();
    for lang in [Lang::Ko, Lang::HiLatn] {
        let (coverage, problems) = i18n::coverage(&content, lang);
        let mut lines = missing(&content, lang);
        lines.extend(problems.iter().map(|p| p.to_string()));
        if let Some(texts) = content.translations.get(lang) {
            lines.extend(texts.problems.iter().map(|p| p.to_string()));
        }
        if coverage.overall().translated != coverage.overall().total || !lines.is_empty() {
            report.insert(
                lang.code(),
                format!(
                    "{}/{} items translated; missing or wrong ({}):\n  {}",
                    coverage.overall().translated,
                    coverage.overall().total,
                    lines.len(),
                    lines
                        .iter()
                        .take(40)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("\n  ")
                ),
            );
        }
    }
    assert!(
        report.is_empty(),
        "the built-in content must be 100 % translated (content/i18n/<lang>/, exercises/i18n/<lang>/; `warpdrill content check --lang L` lists every gap):\n{}",
        report
            .iter()
            .map(|(lang, text)| format!("{lang}: {text}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
