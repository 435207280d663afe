//! Every UI message the code asks for exists in English, Hinglish and Korean; the three bundles
//! hold the same messages; and no translation uses a variable its English message does not get.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use warpdrill::i18n::{Lang, has_message};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The message ids of every `t!(lang, "id" …)` in `text`, with their line numbers.
fn ids_in(text: &str) -> Vec<(String, usize)> {
    let mut ids = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(at) = rest.find("t!(") {
        let start = offset + at + 3;
        let after = &text[start..];
        // `t!(` itself, not the end of `assert!(`.
        let named_t = text[..offset + at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        // Not in a comment (`/// … t!(lang, "id") …`).
        let line_start = text[..offset + at].rfind('\n').map_or(0, |i| i + 1);
        let in_comment = text[line_start..offset + at].trim_start().starts_with("//");
        if !named_t || in_comment {
            offset = start;
            rest = &text[start..];
            continue;
        }
        // The language expression, a comma, then the id as a string literal.
        if let Some(quote) = after.find('"') {
            let before = &after[..quote];
            if before.matches(',').count() == 1
                && before.trim_end().ends_with(',')
                && !before.contains('$')
                && let Some(end) = after[quote + 1..].find('"')
            {
                let id = &after[quote + 1..quote + 1 + end];
                let line = text[..start].lines().count();
                ids.push((id.to_string(), line));
            }
        }
        offset = start;
        rest = &text[start..];
    }
    ids
}

/// Each message of a language's `.ftl` files, with the variables its text uses.
fn bundle(lang: Lang) -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("locales")
        .join(lang.code());
    let mut messages = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("a locale folder") {
        let path = entry.expect("a folder entry").path();
        if path.extension().is_none_or(|e| e != "ftl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable .ftl file");
        let mut current: Option<String> = None;
        for line in text.lines() {
            let starts_message =
                line.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && line.contains('=');
            if starts_message {
                let id = line
                    .split('=')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string();
                assert!(
                    messages.insert(id.clone(), BTreeSet::new()).is_none(),
                    "{}: `{id}` is defined twice in {}",
                    lang.code(),
                    path.display()
                );
                current = Some(id);
            } else if line.starts_with('#') || line.trim().is_empty() {
                current = None;
                continue;
            }
            if let Some(id) = &current {
                let vars = messages.get_mut(id).expect("the message just added");
                let mut rest = line;
                while let Some(at) = rest.find('$') {
                    let name: String = rest[at + 1..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                        .collect();
                    vars.insert(name);
                    rest = &rest[at + 1..];
                }
            }
        }
    }
    messages
}

#[test]
fn every_id_used_in_the_code_exists_in_all_three_languages() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut used = 0;
    let mut missing = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        for (id, line) in ids_in(&text) {
            used += 1;
            for lang in Lang::ALL {
                if !has_message(lang, &id) {
                    missing.push(format!(
                        "{}:{line}: `{id}` in {}",
                        file.display(),
                        lang.code()
                    ));
                }
            }
        }
    }
    assert!(used > 150, "the scan finds the ids ({used} found)");
    assert!(
        missing.is_empty(),
        "messages missing:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_three_bundles_hold_the_same_messages_with_the_english_variables_only() {
    let english = bundle(Lang::En);
    assert!(english.contains_key("count-sectors"));
    for lang in [Lang::HiLatn, Lang::Ko] {
        let other = bundle(lang);
        let only_english: Vec<_> = english.keys().filter(|k| !other.contains_key(*k)).collect();
        let only_other: Vec<_> = other.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(
            only_english.is_empty() && only_other.is_empty(),
            "{}: missing {only_english:?}, extra {only_other:?}",
            lang.code()
        );
        for (id, vars) in &other {
            let allowed = &english[id];
            let unknown: Vec<_> = vars.difference(allowed).collect();
            assert!(
                unknown.is_empty(),
                "{}: `{id}` uses {unknown:?}, which the English message does not get",
                lang.code()
            );
        }
    }
}

#[test]
fn the_scan_reads_ids_the_way_the_code_writes_them() {
    let text = "assert!(x, \"not-an-id\"); let a = t!(lang, \"one-id\");\nlet b = t!(\n    ctx.lang,\n    \"two-id\",\n    n = 3\n);";
    let ids: Vec<String> = ids_in(text).into_iter().map(|(id, _)| id).collect();
    assert_eq!(ids, vec!["one-id".to_string(), "two-id".to_string()]);
}

#[test]
fn counts_never_read_one_sectors() {
    for (lang, one) in [
        (Lang::En, "1 try"),
        (Lang::HiLatn, "1 try"),
        (Lang::Ko, "1회 시도"),
    ] {
        assert_eq!(warpdrill::t!(lang, "ladder-tries", n = 1), one);
    }
    assert_eq!(warpdrill::t!(Lang::En, "ladder-tries", n = 4), "4 tries");
    assert_eq!(
        warpdrill::t!(Lang::En, "app-search-results", n = 1),
        "1 result"
    );
    assert_eq!(
        warpdrill::t!(Lang::HiLatn, "app-search-results", n = 0),
        "0 results"
    );
    assert_eq!(
        warpdrill::t!(Lang::Ko, "app-search-results", n = 7),
        "결과 7개"
    );
    assert_eq!(
        warpdrill::t!(Lang::En, "exercise-hints-available", n = 1),
        "1 hint available."
    );
}

/// Korean particles that depend on the word before them (이/가, 을/를, 은/는, (으)로) are never
/// written as `(이)`, `을(를)`, …: a message puts the placeholder where no particle follows it.
#[test]
fn korean_messages_write_no_particle_in_brackets() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/ko");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("locales/ko") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a Fluent file");
        for (i, line) in text.lines().enumerate() {
            for pattern in [
                "(이)", "(가)", "을(를)", "를(을)", "은(는)", "는(은)", "(으)로", "이(가)",
            ] {
                if line.contains(pattern) {
                    found.push(format!("{}:{}: {line}", path.display(), i + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
