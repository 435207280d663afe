//! The command line in Hinglish and Korean, against the real binary: `calc`, `content preview`,
//! `check`, `stats` and `lab key` speak the language chosen by `--lang`, `WARPDRILL_LANG` or the
//! locale; their numbers are the English run's numbers; their JSON (and CSV) is the same in every
//! language; double-width Korean columns still line up.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common;
use common::numbers;

/// What a run printed.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs the binary with no language variables set but those in `env`.
fn run_env(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = crate::common::warpdrill();
    command.args(args);
    for var in ["WARPDRILL_LANG", "LC_ALL", "LC_MESSAGES", "LANG"] {
        command.env_remove(var);
    }
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command.output().expect("the binary runs");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Runs the binary with `--lang LANG` in front of `args` (`None`: no flag).
fn run(lang: Option<&str>, args: &[&str]) -> Run {
    let mut all: Vec<&str> = Vec::new();
    if let Some(lang) = lang {
        all.extend(["--lang", lang]);
    }
    all.extend(args);
    run_env(&all, &[])
}

/// Terminal columns of `text` (a Hangul syllable takes two), as ratatui measures.
fn width(text: &str) -> usize {
    ratatui::text::Span::raw(text).width()
}

/// Asserts that `args` speaks Korean and Hinglish (each with its `words`), with the English run's
/// numbers, and that English is printed when asked for.
fn speaks(args: &[&str], korean: &[&str], hinglish: &[&str]) -> Run {
    let english = run(None, args);
    assert_eq!(run(Some("en"), args), english, "--lang en is the default");
    let ko = run(Some("ko"), args);
    let hi = run(Some("hi-Latn"), args);
    assert_eq!(ko.code, english.code, "{args:?}: {ko:?}");
    assert_eq!(hi.code, english.code, "{args:?}: {hi:?}");
    for word in korean {
        assert!(
            ko.stdout.contains(word),
            "{args:?}: no `{word}` in\n{}",
            ko.stdout
        );
        assert!(
            !english.stdout.contains(word),
            "{args:?}: `{word}` in English"
        );
    }
    for word in hinglish {
        assert!(
            hi.stdout.contains(word),
            "{args:?}: no `{word}` in\n{}",
            hi.stdout
        );
        assert!(
            !english.stdout.contains(word),
            "{args:?}: `{word}` in English"
        );
    }
    assert_eq!(
        numbers(&ko.stdout),
        numbers(&english.stdout),
        "{args:?}\n{}",
        ko.stdout
    );
    assert_eq!(
        numbers(&hi.stdout),
        numbers(&english.stdout),
        "{args:?}\n{}",
        hi.stdout
    );
    english
}

/// Whether two JSON values have the same shape: the same field names, the same numbers and flags;
/// texts may differ (content is shown in the learner's language, field names never change).
fn same_shape(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_shape(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_shape(v, w))
        }
        (Value::String(_), Value::String(_)) => true,
        _ => a == b,
    }
}

/// Asserts that `args` (a `--json` or `--csv` run) gives the same data in every language: JSON with
/// the same field names, numbers and flags (texts are in the language), CSV with the same header
/// and the same numbers.
fn same_in_every_language(args: &[&str]) {
    let english = run(None, args);
    assert_eq!(english.code, 0, "{args:?}: {english:?}");
    assert!(!english.stdout.is_empty());
    let same = |other: &Run, what: &str| {
        assert_eq!(other.code, english.code, "{args:?} {what}");
        match serde_json::from_str::<serde_json::Value>(&english.stdout) {
            Ok(json) => {
                let theirs: serde_json::Value = serde_json::from_str(&other.stdout)
                    .unwrap_or_else(|e| panic!("{args:?} {what}: not JSON: {e}"));
                assert!(
                    same_shape(&json, &theirs),
                    "{args:?} {what}:\n{}",
                    other.stdout
                );
            }
            Err(_) => {
                assert_eq!(
                    other.stdout.lines().next(),
                    english.stdout.lines().next(),
                    "{args:?} {what}: the header"
                );
                assert_eq!(
                    numbers(&other.stdout),
                    numbers(&english.stdout),
                    "{args:?} {what}"
                );
            }
        }
    };
    for lang in ["ko", "hi-Latn"] {
        same(&run(Some(lang), args), lang);
    }
    same(
        &run_env(args, &[("LANG", "ko_KR.UTF-8")]),
        "under a Korean locale",
    );
}

#[test]
fn calc_coalescing_speaks_the_chosen_language() {
    let args = ["calc", "coalescing", "--stride", "2"];
    let english = speaks(
        &args,
        &["global load", "효율", "주소", "이유:", "transaction 8개"],
        &["par global load", "laaye gaye", "kyun:"],
    );
    assert!(
        english.stdout.contains("efficiency 50%"),
        "{}",
        english.stdout
    );
    same_in_every_language(&["calc", "coalescing", "--stride", "2", "--json"]);
}

#[test]
fn the_language_comes_from_the_flag_then_the_variable_then_the_locale() {
    let args = ["calc", "coalescing", "--stride", "2"];
    let english = run(None, &args);
    let korean = run(Some("ko"), &args);
    let hinglish = run(Some("hi-Latn"), &args);
    assert_ne!(korean.stdout, english.stdout);
    assert_ne!(hinglish.stdout, english.stdout);
    assert_eq!(run_env(&args, &[("LANG", "ko_KR.UTF-8")]), korean);
    assert_eq!(run_env(&args, &[("LC_ALL", "ko_KR.UTF-8")]), korean);
    assert_eq!(run_env(&args, &[("WARPDRILL_LANG", "hi-Latn")]), hinglish);
    assert_eq!(
        run_env(
            &args,
            &[("WARPDRILL_LANG", "hi-Latn"), ("LANG", "ko_KR.UTF-8")]
        ),
        hinglish,
        "WARPDRILL_LANG beats the locale"
    );
    let mut flagged = vec!["--lang", "en"];
    flagged.extend(args);
    for env in [
        &[("LANG", "ko_KR.UTF-8")][..],
        &[("WARPDRILL_LANG", "hi-Latn")][..],
        &[("WARPDRILL_LANG", "ko"), ("LC_ALL", "hi_IN.UTF-8")][..],
    ] {
        assert_eq!(run_env(&flagged, env), english, "--lang en beats {env:?}");
    }
    // A language warpdrill does not speak is refused, not silently English.
    let typo = run_env(&args, &[("WARPDRILL_LANG", "klingon")]);
    assert_eq!(typo.code, 2, "{typo:?}");
    assert!(typo.stderr.contains("klingon"), "{typo:?}");
    assert!(typo.stdout.is_empty());
}

#[test]
fn every_calculator_speaks_and_keeps_its_numbers_and_json() {
    speaks(
        &["calc", "banks", "--stride", "32"],
        &["이상적으로는", "bank conflict 31번", "칸 = word"],
        &["padhne wali lane"],
    );
    speaks(
        &["calc", "banks", "--stride", "2", "--mask", "first16"],
        &["16개 (mask 0xffff)"],
        &["32 mein se 16 lanes"],
    );
    speaks(
        &["calc", "occupancy", "--block-size", "256", "--regs", "48"],
        &["제한 요인", "활성 warp"],
        &["limit karne wala", "yahi limiter hai"],
    );
    speaks(
        &["calc", "occupancy", "--arch", "gfx90a", "--regs", "64"],
        &["SIMD당 wave"],
        &["har SIMD par waves"],
    );
    speaks(&["calc", "tiling"], &["행렬 곱"], &["kitne guna kam"]);
    speaks(
        &["calc", "tiling", "--tile", "64"],
        &["occupancy 없음"],
        &["koi occupancy nahi"],
    );
    speaks(&["calc", "roofline"], &["도달 가능"], &["mil sakta hai"]);
    speaks(
        &["calc", "coalescing", "--stride", "1024"],
        &["안 가져옴"],
        &["fetch nahi hue"],
    );
    for args in [
        &["calc", "banks", "--stride", "32", "--json"][..],
        &["calc", "occupancy", "--regs", "48", "--json"][..],
        &["calc", "occupancy", "--arch", "gfx90a", "--json"][..],
        &["calc", "tiling", "--json"][..],
        &["calc", "roofline", "--json"][..],
    ] {
        same_in_every_language(args);
    }
    // Errors are worded in the language too, with the same exit status.
    let err = run(Some("ko"), &["calc", "banks", "--granularity", "line"]);
    assert_eq!(err.code, 2);
    assert!(err.stderr.starts_with("오류: --granularity"), "{err:?}");
}

#[test]
fn counts_take_the_right_form_in_every_language() {
    // Stride 0: every lane reads the same word, one sector, one transaction.
    let args = ["calc", "coalescing", "--stride", "0"];
    let english = run(None, &args).stdout;
    assert!(english.contains("· 1 transaction (32 B)"), "{english}");
    let hinglish = run(Some("hi-Latn"), &args).stdout;
    assert!(hinglish.contains("· 1 transaction (32 B)"), "{hinglish}");
    let korean = run(Some("ko"), &args).stdout;
    assert!(korean.contains("transaction 1개 (32 B)"), "{korean}");
    for text in [&english, &hinglish, &korean] {
        assert!(!text.contains("1 transactions"), "{text}");
    }
    // A gap of one sector, then of several.
    let one = ["calc", "coalescing", "--mask", "first2", "--stride", "16"];
    assert!(run(None, &one).stdout.contains("(1 sector not fetched)"));
    assert!(
        run(Some("hi-Latn"), &one)
            .stdout
            .contains("(1 sector fetch nahi hue)")
    );
    assert!(
        run(Some("ko"), &one)
            .stdout
            .contains("(sector 1개 안 가져옴)")
    );
    let three = ["calc", "coalescing", "--mask", "first2", "--stride", "32"];
    assert!(
        run(Some("hi-Latn"), &three)
            .stdout
            .contains("(3 sectors fetch nahi hue)")
    );
}

#[test]
fn korean_columns_line_up_by_terminal_width() {
    for lang in ["en", "ko", "hi-Latn"] {
        let out = run(Some(lang), &["calc", "occupancy", "--regs", "48"]).stdout;
        // The limit rows: `    <label padded to 14> <count right-aligned in 4>`.
        let rows: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("    ") && !l.starts_with("     "))
            .collect();
        assert_eq!(rows.len(), 5, "{lang}:\n{out}");
        for row in rows {
            let end = row
                .char_indices()
                .skip(4)
                .find(|(_, c)| c.is_ascii_digit() || *c == '—')
                .map(|(i, c)| i + c.len_utf8())
                .unwrap_or_else(|| panic!("{lang}: no count in {row:?}"));
            let digits_end = row[end..]
                .char_indices()
                .find(|(_, c)| !c.is_ascii_digit())
                .map_or(row.len(), |(i, _)| end + i);
            assert_eq!(width(&row[..digits_end]), 23, "{lang}: {row:?}\n{out}");
        }
        // The segment table: the address column ends at the same column in the header and rows.
        let out = run(Some(lang), &["calc", "coalescing", "--stride", "2"]).stdout;
        let table: Vec<&str> = out.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
        assert!(table.len() > 2, "{lang}:\n{out}");
        let address_end = |line: &str| width(&line[..line.find(['█', '·']).unwrap_or(line.len())]);
        let header = table[0];
        let bar_start = header.find(&t_bytes_word(lang)).unwrap();
        for row in &table[1..] {
            assert_eq!(
                address_end(row),
                width(&header[..bar_start]),
                "{lang}: {row:?}\n{out}"
            );
        }
    }
}

/// The first word of the segment table's bytes column in `lang`.
fn t_bytes_word(lang: &str) -> String {
    match lang {
        "ko" => "bytes".to_string(),
        _ => "bytes".to_string(),
    }
}

#[test]
fn content_preview_labels_speak_and_json_does_not_change() {
    let args = ["content", "preview", "--seed", "7", "--level", "L2"];
    let english = speaks(&args, &["정답: "], &["jawab: "]);
    assert!(english.stdout.contains("\nanswer: "), "{}", english.stdout);
    same_in_every_language(&[
        "content", "preview", "--seed", "7", "--level", "L2", "--json",
    ]);
    let bad = run(Some("ko"), &["content", "preview", "--level", "L9"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("알 수 없는 level `L9`"), "{bad:?}");
}

#[test]
fn content_check_summary_speaks() {
    // Under a Korean locale the summary speaks Korean; `--lang` also asks for the translations'
    // coverage, a line of its own after the same summary.
    let english = run(None, &["content", "check"]);
    assert!(english.stdout.starts_with("ok: "), "{}", english.stdout);
    let ko = run_env(&["content", "check"], &[("LANG", "ko_KR.UTF-8")]);
    assert!(
        ko.stdout.contains("정상: 파일") && ko.stdout.contains("연습문제"),
        "{}",
        ko.stdout
    );
    assert_eq!(
        numbers(&ko.stdout),
        numbers(&english.stdout),
        "{}",
        ko.stdout
    );
    let hi = run(Some("hi-Latn"), &["content", "check"]);
    let first = hi.stdout.lines().next().unwrap_or_default();
    assert!(first.contains("theek hai:"), "{}", hi.stdout);
    let english_first = english.stdout.lines().next().unwrap_or_default();
    assert_eq!(numbers(first), numbers(english_first), "{}", hi.stdout);
    // After the summary, the answer share of every template, in the language's words.
    assert!(
        english.stdout.contains("answer shares over 40 seeds")
            && english.stdout.contains("  l2-stride-sectors "),
        "{}",
        english.stdout
    );
    // The coverage line speaks too, with real plurals ("0 problems", not "0 problem(s)").
    assert!(
        hi.stdout.contains("hi-Latn theek hai: topics"),
        "{}",
        hi.stdout
    );
    assert!(
        hi.stdout.trim_end().ends_with("; 0 problems"),
        "{}",
        hi.stdout
    );
    let ko = run(Some("ko"), &["content", "check"]);
    let coverage = ko.stdout.lines().last().unwrap_or_default();
    assert!(coverage.starts_with("ko 정상: topic"), "{}", ko.stdout);
    assert!(
        coverage.contains("; 전체 ") && coverage.ends_with("; 문제 0개"),
        "{}",
        ko.stdout
    );
    assert!(!english.stdout.contains("(s)"), "{}", english.stdout);
    let json = run(None, &["content", "check", "--json"]);
    assert_eq!(
        run_env(&["content", "check", "--json"], &[("LANG", "ko_KR.UTF-8")]),
        json,
        "the JSON does not change with the locale"
    );
}

#[test]
fn check_words_the_verdict_around_the_feedback() {
    let exercise = "l2-stride-sectors";
    let preview = run(None, &["content", "preview", "--seed", "7", "--json"]);
    let items: serde_json::Value = serde_json::from_str(&preview.stdout).unwrap();
    let answer = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == exercise)
        .and_then(|i| i["answer"].as_str())
        .unwrap()
        .to_string();
    let right = speaks(
        &["check", exercise, "--seed", "7", "--answer", &answer],
        &[],
        &[],
    );
    assert_eq!(right.code, 0, "{right:?}");
    let wrong = speaks(
        &["check", exercise, "--seed", "7", "--answer", "999 sectors"],
        &["이유: "],
        &["Kyun: "],
    );
    assert_eq!(wrong.code, 1, "{wrong:?}");
    assert!(wrong.stdout.contains("\nWhy: "), "{}", wrong.stdout);
    let unknown = run(Some("ko"), &["check", "l2-stride-sector", "--answer", "1"]);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown
            .stderr
            .starts_with("오류: 연습문제 `l2-stride-sector`가 없다 — 혹시 ")
            && unknown.stderr.contains("l2-stride-sectors"),
        "{unknown:?}"
    );
    let hinglish = run(
        Some("hi-Latn"),
        &["check", "no-such-thing", "--answer", "1"],
    );
    assert!(hinglish.stderr.contains("nahi mili"), "{hinglish:?}");
}

#[test]
fn stats_speak_and_the_heatmap_lines_up() {
    let (_dir_guard, dir) = common::temp_dir("stats");
    common::write_some_reviews(&dir);
    let config = dir.join("no-such-review.ron");
    let data = dir.display().to_string();
    let args = ["--data-dir", data.as_str(), "stats"];
    let env = [("WARPDRILL_CONFIG", config.to_str().unwrap())];
    let with = |lang: Option<&str>, extra: &[&str]| {
        let mut all: Vec<&str> = Vec::new();
        if let Some(lang) = lang {
            all.extend(["--lang", lang]);
        }
        all.extend(args);
        all.extend(extra);
        run_env(&all, &env)
    };
    let english = with(None, &[]);
    assert_eq!(english.code, 0, "{english:?}");
    assert!(
        english.stdout.contains("  retention  last 30 days"),
        "{}",
        english.stdout
    );
    let korean = with(Some("ko"), &[]);
    let hinglish = with(Some("hi-Latn"), &[]);
    for word in ["기억률", "숙달도", "\n    월 "] {
        assert!(
            korean.stdout.contains(word),
            "no {word:?} in\n{}",
            korean.stdout
        );
    }
    for word in ["pichhle 30 din", "mein se", "\n    Mangal "] {
        assert!(
            hinglish.stdout.contains(word),
            "no {word:?} in\n{}",
            hinglish.stdout
        );
    }
    assert_eq!(
        numbers(&korean.stdout),
        numbers(&english.stdout),
        "{}",
        korean.stdout
    );
    assert_eq!(
        numbers(&hinglish.stdout),
        numbers(&english.stdout),
        "{}",
        hinglish.stdout
    );
    assert_eq!(
        run_env(
            &["--data-dir", data.as_str(), "stats"],
            &[
                ("WARPDRILL_CONFIG", config.to_str().unwrap()),
                ("LANG", "ko_KR.UTF-8")
            ]
        ),
        korean
    );
    // The labels column and the heatmap rows start their figures at one terminal column.
    for out in [&english.stdout, &korean.stdout, &hinglish.stdout] {
        let lines: Vec<&str> = out.lines().collect();
        let starts: BTreeSet<usize> = lines[1..6]
            .iter()
            .map(|l| {
                let label_end = l[2..].find("  ").map_or(2, |i| 2 + i);
                let figures = label_end + l[label_end..].len() - l[label_end..].trim_start().len();
                width(&l[..figures])
            })
            .collect();
        assert_eq!(starts, BTreeSet::from([13]), "{out}");
        let heat: BTreeSet<usize> = lines[lines.len() - 7..]
            .iter()
            .map(|l| width(&l[..l.find(|c: char| "·▁▂▃▄▅▆▇█".contains(c)).unwrap()]))
            .collect();
        assert_eq!(heat.len(), 1, "{out}");
    }
    let json = with(None, &["--json"]);
    assert_eq!(json.code, 0);
    assert_eq!(with(Some("ko"), &["--json"]).stdout, json.stdout);
    assert_eq!(with(Some("hi-Latn"), &["--json"]).stdout, json.stdout);
}

#[test]
fn lab_key_speaks_and_its_data_does_not_change() {
    let lab = concat!(env!("CARGO_MANIFEST_DIR"), "/labs/coalescing-and-banks.ron");
    let args = ["lab", "key", lab, "--student", "s1"];
    let english = speaks(
        &args,
        &["1단계 · ", "정답: ", "인정되는 답", "이유: "],
        &["jawab: ", "maane jaate hain", "kyun: "],
    );
    assert!(english.stdout.contains("\nstep 1 · "), "{}", english.stdout);
    let markdown = speaks(
        &["lab", "key", lab, "--student", "s1", "--markdown"],
        &["| 단계 | 연습문제 |"],
        &["| step | exercise | seed | sawaal | jawab |"],
    );
    assert!(
        markdown
            .stdout
            .contains("| step | exercise | seed | prompt | answer |")
    );
    same_in_every_language(&["lab", "key", lab, "--student", "s1", "--json"]);
    // CSV headers are data: English in every language.
    same_in_every_language(&["lab", "key", lab, "--student", "s1", "--csv"]);
    let missing = run(
        Some("ko"),
        &["lab", "key", "/no/such/lab.ron", "--student", "s1"],
    );
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.starts_with("오류: "), "{missing:?}");
}

/// Message ids of an ftl file (`id = …` at the start of a line).
fn ids(ftl: &str) -> BTreeSet<String> {
    ftl.lines()
        .filter_map(|line| {
            let (id, _) = line.split_once(" =")?;
            (!id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
                .then(|| id.to_string())
        })
        .collect()
}

#[test]
fn every_cli_message_exists_in_all_three_languages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |lang: &str| {
        std::fs::read_to_string(root.join("locales").join(lang).join("cli.ftl")).unwrap()
    };
    let english = ids(&read("en"));
    assert!(english.len() > 50, "{}", english.len());
    assert_eq!(ids(&read("ko")), english, "ko/cli.ftl");
    assert_eq!(ids(&read("hi-Latn")), english, "hi-Latn/cli.ftl");
    // Every id the command line asks for is there (`t!(lang, "cli-…"`).
    let mut used = BTreeSet::new();
    for file in std::fs::read_dir(root.join("src/cli")).unwrap() {
        let source = std::fs::read_to_string(file.unwrap().path()).unwrap();
        for piece in source.split("t!(").skip(1) {
            if let Some(id) = piece.split('"').nth(1).filter(|id| id.starts_with("cli-")) {
                used.insert(id.to_string());
            }
        }
    }
    assert!(used.len() > 50, "{used:?}");
    let missing: Vec<_> = used.difference(&english).collect();
    assert!(missing.is_empty(), "used but not defined: {missing:?}");
    let unused: Vec<_> = english.difference(&used).collect();
    assert!(unused.is_empty(), "defined but never used: {unused:?}");
}

/// `check --lang` gives its verdict in that language, numbers counted as the language counts them.
#[test]
fn check_gives_its_verdict_in_the_language_asked_for() {
    let run = |lang: &str, answer: &str| {
        let out = crate::common::warpdrill()
            .args([
                "--lang",
                lang,
                "check",
                "l2-stride-sectors",
                "--seed",
                "3",
                "--answer",
                answer,
            ])
            .output()
            .expect("the binary runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let wrong = run("ko", "9");
    assert!(wrong.starts_with("아쉽다"), "{wrong}");
    // The prompt's term, in the Korean order.
    assert!(wrong.contains("sector 32개"), "{wrong}");
    assert!(!wrong.contains("Not quite"), "{wrong}");
    let right = run("hi-Latn", "32");
    assert!(right.starts_with("Sahi"), "{right}");
    assert!(run("en", "32").starts_with("Correct"));
}
