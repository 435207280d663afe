//! The kernel analyser in Hinglish and Korean: each access's "why" line, the compiler-merge note and
//! the `--text` report speak the chosen language with the English figures; `--json` keeps its field
//! names and the English `why` and `merge_note` in every language; the screen at 80×24 keeps its
//! borders with Korean text in it.

use crate::common;

use common::{app, buffer, numbers, press, screen};
use ratatui::crossterm::event::KeyCode;
use warpdrill::analyze::{self, MergeNote, Options, Report, Why, examples};
use warpdrill::app::{Action, App, Screen};
use warpdrill::i18n::Lang;
use warpdrill::ui::analyze::AnalyzeSetup;

/// The analysis of a built-in example.
fn example(name: &str) -> (String, Report) {
    let source = examples::example(name).expect("a built-in example");
    let report = analyze::analyze(source, name, &Options::default()).expect("it analyses");
    (source.to_string(), report)
}

fn has_hangul(text: &str) -> bool {
    text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c))
}

/// Runs the binary with `args`, no language variables set but those in `env`.
fn run(args: &[&str], env: &[(&str, &str)]) -> (String, i32) {
    let mut command = crate::common::warpdrill();
    command.args(args);
    for var in ["WARPDRILL_LANG", "LC_ALL", "LC_MESSAGES", "LANG"] {
        command.env_remove(var);
    }
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command.output().expect("the binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn analysing(example: &str, lang: Lang) -> App {
    let mut app = app();
    app.set_lang(lang);
    app.update(Action::AnalyzeKernel(Box::new(
        AnalyzeSetup::example(example).expect("a built-in example"),
    )));
    assert!(matches!(app.screen(), Screen::Analyze(_)), "{example}");
    app
}

/// The analysis of `source` (with its `// launch:` line).
fn analysed(source: &str) -> Report {
    analyze::analyze(source, "k.cu", &Options::default()).expect("it analyses")
}

/// Two neighbouring shared loads per thread that the compiler merges into one `LDS.64`.
const PAIR: &str = "// launch: --grid 16 --block 256\n__global__ void k(float* out) {\n  __shared__ float s[512];\n  unsigned t = threadIdx.x;\n  s[t] = 1;\n  s[t + 256] = 2;\n  __syncthreads();\n  out[blockIdx.x * 256 + t] = s[2 * t] + s[2 * t + 1];\n}\n";

/// Asserts that `text(lang)` in Korean and Hinglish is not the English text, is in the language,
/// and carries the English text's figures.
fn speaks(english: &str, text: impl Fn(Lang) -> String, what: &str) {
    assert_eq!(text(Lang::En), english, "{what}");
    let ko = text(Lang::Ko);
    let hi = text(Lang::HiLatn);
    assert_ne!(ko, english, "{what}: Korean is the English text");
    assert_ne!(hi, english, "{what}: Hinglish is the English text");
    assert!(has_hangul(&ko), "{what}: no Korean in `{ko}`");
    assert!(
        !has_hangul(&hi),
        "{what}: Hinglish is in Latin script: `{hi}`"
    );
    assert_eq!(numbers(&ko), numbers(english), "{what}: `{ko}`");
    assert_eq!(numbers(&hi), numbers(english), "{what}: `{hi}`");
}

#[test]
fn the_why_line_speaks_the_language_with_the_english_figures() {
    let (_, strided) = example("strided");
    let load = strided
        .lines
        .iter()
        .find(|a| a.text == "in[i * STRIDE]")
        .expect("the strided load");
    speaks(
        "8.0 sectors per request where a full warp needs 4: 50 % of fetched bytes used — neighbouring lanes are not reading neighbouring addresses",
        |lang| load.why.text(lang),
        "strided load",
    );
    assert!(load.why.text(Lang::Ko).contains("request당 sector 8.0개"));
    assert!(
        load.why
            .text(Lang::HiLatn)
            .contains("har request pe 8.0 sectors")
    );
    let (_, tiled) = example("transpose_tiled32");
    let column = tiled
        .lines
        .iter()
        .find(|a| a.extra_wavefronts > 0)
        .expect("the 32-way column read");
    speaks(
        "32.0-way bank conflict on average: lanes of one phase hit different words of the same bank",
        |lang| column.why.text(lang),
        "transposed tile read",
    );
    // Every access of every built-in kernel, whatever its reason.
    let mut kinds = std::collections::HashSet::new();
    for (name, _) in examples::EXAMPLES {
        let (_, report) = example(name);
        for a in &report.lines {
            let english = a.why.text(Lang::En);
            kinds.insert(std::mem::discriminant(&a.why));
            speaks(
                &english,
                |lang| a.why.text(lang),
                &format!("{name} {}", a.text),
            );
        }
    }
    assert!(
        kinds.len() >= 4,
        "coalesced, scattered, conflict-free and conflicting accesses"
    );
    for why in [Why::NeverRuns, Why::NoConflicts] {
        speaks(&why.to_string(), |lang| why.text(lang), &format!("{why:?}"));
    }
}

#[test]
fn the_merge_note_speaks_the_language_with_the_english_figures() {
    let pair = analysed(PAIR);
    let first = pair
        .lines
        .iter()
        .find(|a| a.text == "s[2 * t]")
        .expect("the first of the pair");
    let note = first.merge_note.as_ref().expect("a merge note");
    assert_eq!(note.op(), "LDS/STS.64");
    speaks(
        "assumes the compiler merges `s[2 * t]` and `s[2 * t + 1]` into one 8-byte access (LDS/STS.64) per thread",
        |lang| note.text(lang),
        "a merged pair",
    );
    for lang in [Lang::Ko, Lang::HiLatn] {
        let text = note.text(lang);
        for kept in ["`s[2 * t]`", "`s[2 * t + 1]`", "LDS/STS.64"] {
            assert!(text.contains(kept), "{lang}: no {kept} in `{text}`");
        }
    }
    let (_, tiled) = example("matmul_tiled");
    let row = tiled
        .lines
        .iter()
        .find(|a| a.text.starts_with("As[") && a.merge_note.is_some())
        .expect("As[ty][k] merged over the unrolled loop");
    speaks(
        "assumes the compiler unrolls the loop and merges `As[ty][k]` of neighbouring iterations into 16-byte accesses (LDS/STS.128)",
        |lang| row.merge_note.as_ref().unwrap().text(lang),
        "an unrolled loop",
    );
    // Four members: the English list as before, the others in their own words.
    let four = MergeNote {
        members: vec!["a[0]".into(), "a[1]".into(), "a[2]".into(), "a[3]".into()],
        bytes: 16,
        space: warpdrill::analyze::ast::Space::Global,
        unrolled: false,
    };
    speaks(
        "assumes the compiler merges `a[0]` and `a[1]` and `a[2]` and `a[3]` into one 16-byte access (LDG/STG.128) per thread",
        |lang| four.text(lang),
        "four members",
    );
}

#[test]
fn the_text_report_speaks_with_the_english_figures_and_columns() {
    for example in ["strided", "transpose_tiled32", "matmul_tiled"] {
        let args = ["analyze", "--example", example, "--text"];
        let (english, code) = run(&args, &[]);
        assert_eq!(code, 0, "{english}");
        let (ko, _) = run(&[&["--lang", "ko"][..], &args].concat(), &[]);
        let (hi, _) = run(&[&["--lang", "hi-Latn"][..], &args].concat(), &[]);
        assert_eq!(
            run(&args, &[("LANG", "ko_KR.UTF-8")]).0,
            ko,
            "the locale chooses Korean"
        );
        for heading in ["합계", "\n   줄  instruction · request/sector · wavefront"] {
            assert!(ko.contains(heading), "{example}: no `{heading}` in\n{ko}");
        }
        assert!(!english.contains("합계"));
        assert!(english.contains("\ntotals\n"), "{english}");
        assert!(!ko.contains("\ntotals\n"), "{ko}");
        assert!(!ko.contains("requests,"), "{ko}");
        assert!(hi.contains("(har request pe "), "{hi}");
        for (lang, text) in [("ko", &ko), ("hi-Latn", &hi)] {
            assert_eq!(
                numbers(text),
                numbers(&english),
                "{example} {lang}:\n{text}"
            );
            assert_eq!(
                text.lines().count(),
                english.lines().count(),
                "{example} {lang}"
            );
            // The source column starts where it does in English, counted in terminal columns.
            for (mine, theirs) in text.lines().zip(english.lines()) {
                if let (Some(at), Some(english_at)) = (mine.find(" | "), theirs.find(" | ")) {
                    assert_eq!(
                        ratatui::text::Span::raw(&mine[..at]).width(),
                        ratatui::text::Span::raw(&theirs[..english_at]).width(),
                        "{example} {lang}: `{mine}` against `{theirs}`"
                    );
                }
            }
        }
        let costly = if example == "matmul_tiled" {
            "비용이 가장 큰 access"
        } else {
            "비용이 가장 큰 access\n"
        };
        if english.contains("costliest accesses") {
            assert!(ko.contains(costly), "{example}:\n{ko}");
            assert!(hi.contains("sabse mehnge accesses"), "{example}:\n{hi}");
        }
    }
    let (ko, _) = run(
        &["--lang", "ko", "analyze", "--example", "strided", "--text"],
        &[],
    );
    assert!(
        ko.contains("      request당 sector 8.0개 (warp 전체에 필요한 것은 4개)"),
        "the costliest access's why, in Korean:\n{ko}"
    );
    let (ko, _) = run(
        &[
            "--lang",
            "ko",
            "analyze",
            "--example",
            "matmul_tiled",
            "--text",
        ],
        &[],
    );
    assert!(ko.contains("작성한 그대로: lds 524288 inst"), "{ko}");
    assert!(
        ko.contains("합친다고 가정"),
        "the merge note, in Korean:\n{ko}"
    );
}

#[test]
fn counts_of_one_take_the_singular() {
    let one = "// launch: --grid 1 --block 1\n__global__ void k(float* out, const float* in) {\n  out[0] = in[0];\n}\n";
    let report = analysed(one);
    let english = analyze::render_text_in(one, &report, Lang::En);
    assert!(
        english.contains("  global loads   1 request, 1 sector (1.00 per request)"),
        "{english}"
    );
    assert!(english.contains("  shared loads   0 instructions, 0 wavefronts, 0 bank conflicts"));
    assert_eq!(analyze::render_text(one, &report), english);
    let hinglish = analyze::render_text_in(one, &report, Lang::HiLatn);
    assert!(
        hinglish.contains("1 request, 1 sector (har request pe 1.00)"),
        "{hinglish}"
    );
    assert!(
        hinglish.contains("0 instructions, 0 wavefronts, 0 bank conflicts"),
        "{hinglish}"
    );
    let korean = analyze::render_text_in(one, &report, Lang::Ko);
    assert!(
        korean.contains("  global load    request 1개, sector 1개"),
        "{korean}"
    );
}

#[test]
fn json_keeps_the_english_why_and_merge_note_in_every_language() {
    for example in ["strided", "matmul_tiled", "transpose_tiled32"] {
        let args = ["analyze", "--example", example, "--json"];
        let (english, code) = run(&args, &[]);
        assert_eq!(code, 0);
        for lang in ["ko", "hi-Latn"] {
            let (theirs, _) = run(&[&["--lang", lang][..], &args].concat(), &[]);
            assert_eq!(theirs, english, "{example} {lang}");
        }
        assert_eq!(run(&args, &[("WARPDRILL_LANG", "ko")]).0, english);
        let (_, report) = self::example(example);
        let json: serde_json::Value = serde_json::from_str(&english).unwrap();
        for (a, row) in report.lines.iter().zip(json["lines"].as_array().unwrap()) {
            assert_eq!(row["why"], a.why.text(Lang::En).as_str());
            match &a.merge_note {
                Some(note) => assert_eq!(row["merge_note"], note.text(Lang::En).as_str()),
                None => assert!(row.get("merge_note").is_none()),
            }
        }
    }
    let (json, _) = run(
        &["--lang", "ko", "analyze", "--example", "strided", "--json"],
        &[],
    );
    assert!(json.contains(
        "\"why\": \"8.0 sectors per request where a full warp needs 4: 50 % of fetched bytes used"
    ));
}

/// The right border of every box is whole, and no double-width character is cut at the edge.
fn assert_borders(app: &App, width: u16, height: u16, what: &str) {
    let buf = buffer(app, width, height);
    let text = screen(app, width, height);
    let right = width - 1;
    let mut inside = false;
    for y in 0..height {
        let symbol = buf[(right, y)].symbol();
        match symbol {
            "┐" => inside = true,
            "┘" => inside = false,
            _ if inside => assert_eq!(
                symbol, "│",
                "{what}: the right border is broken on row {y}:\n{text}"
            ),
            _ => {}
        }
        assert!(
            ratatui::text::Span::raw(buf[(right, y)].symbol()).width() < 2,
            "{what}: a double-width character in the last column of row {y}:\n{text}"
        );
    }
}

#[test]
fn the_screen_words_the_why_line_and_the_merge_note_in_the_language() {
    let ko = analysing("transpose_naive", Lang::Ko);
    let text = screen(&ko, 80, 24);
    assert!(
        text.contains("│왜: request당 sector 32.0개 (warp 전체에 필요한 것은 4개)"),
        "{text}"
    );
    assert_borders(&ko, 80, 24, "ko transpose_naive");
    insta::assert_snapshot!("analyze_transpose_naive_ko_80x24", text);
    let hi = analysing("transpose_naive", Lang::HiLatn);
    let text = screen(&hi, 80, 24);
    assert!(
        text.contains("│kyun: har request pe 32.0 sectors"),
        "{text}"
    );
    assert_borders(&hi, 80, 24, "hi transpose_naive");
    insta::assert_snapshot!("analyze_transpose_naive_hi_latn_80x24", text);
    let mut ko = ko;
    press(&mut ko, KeyCode::Tab);
    let text = screen(&ko, 80, 24);
    assert!(
        text.contains("│왜: request당 sector 4.0개, 가져온 byte의 100%를 씀: coalescing됨"),
        "{text}"
    );
    assert_borders(&ko, 80, 24, "ko transpose_naive, the load");

    // The unrolled `As[ty][k]` of the tiled multiply: its merge note under the merged figures.
    for (lang, words) in [
        (Lang::Ko, "loop를 unroll하고"),
        (Lang::HiLatn, "loop unroll karke"),
    ] {
        let mut app = analysing("matmul_tiled", lang);
        let mut found = false;
        for _ in 0..40 {
            let text = screen(&app, 120, 40);
            if text.contains("As[ty][k]") && text.contains(words) {
                found = true;
                assert!(!text.contains("assumes the compiler"), "{text}");
                assert_borders(&app, 120, 40, "matmul_tiled");
                assert_borders(&app, 80, 24, "matmul_tiled at 80×24");
                break;
            }
            press(&mut app, KeyCode::Char('n'));
        }
        assert!(found, "{lang}: no merge note for As[ty][k] in its words");
    }
}

#[test]
fn every_access_of_every_example_keeps_the_borders_in_korean_and_hinglish() {
    for lang in [Lang::Ko, Lang::HiLatn] {
        for (name, _) in examples::EXAMPLES {
            let (_, report) = example(name);
            let mut app = analysing(name, lang);
            for _ in 0..report.lines.len() {
                for (width, height) in [(80, 24), (100, 30), (200, 60)] {
                    assert_borders(&app, width, height, &format!("{lang} {name}"));
                }
                press(&mut app, KeyCode::Char('n'));
            }
        }
    }
}
