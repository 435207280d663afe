//! Embeds every translation file under `content/i18n/<lang>/` and `exercises/i18n/<lang>/`, so a new
//! translation file is never left out of the binary, and rebuilds when a Fluent file is added to or
//! removed from `locales/` (the embedded UI strings). It also lists the message ids each language's
//! Fluent files define, so the tutor can tell a message a language lacks from one it has.

use std::path::{Path, PathBuf};

fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            found.extend(ron_files(&path));
        } else if path.extension().is_some_and(|e| e == "ron") {
            found.push(path);
        }
    }
    found
}

fn main() {
    // The content lives at the workspace root, beside this crate.
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("..");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../locales");
    let mut list = String::from("&[\n");
    for top in ["content", "exercises"] {
        println!("cargo:rerun-if-changed=../{top}");
        let i18n = root.join(top).join("i18n");
        if i18n.is_dir() {
            println!("cargo:rerun-if-changed=../{top}/i18n");
        }
        for path in ron_files(&i18n) {
            let relative = path
                .strip_prefix(&root)
                .expect("under the root")
                .to_string_lossy()
                .replace('\\', "/");
            list.push_str(&format!(
                "    ({relative:?}, include_str!({:?})),\n",
                path.display().to_string()
            ));
        }
    }
    list.push_str("]\n");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out_dir.join("i18n_files.rs"), list).expect("OUT_DIR is writable");
    std::fs::write(
        out_dir.join("message_ids.rs"),
        message_ids(&root.join("locales")),
    )
    .expect("OUT_DIR is writable");
}

/// `&[("en", &["app-title", …]), …]`: for each folder of `locales/`, the ids of the messages its
/// `.ftl` files define, sorted. A message starts a line with its id and ` =`; terms (`-name`),
/// comments and indented continuation lines do not.
fn message_ids(locales: &Path) -> String {
    let mut langs: Vec<PathBuf> = std::fs::read_dir(locales)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    langs.retain(|p| p.is_dir());
    langs.sort();
    let mut out = String::from("&[\n");
    for lang in langs {
        let mut ids = Vec::new();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&lang)
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "ftl"));
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            for line in text.lines() {
                if !line.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    continue;
                }
                if let Some((id, _)) = line.split_once('=') {
                    ids.push(id.trim().to_string());
                }
            }
        }
        ids.sort();
        ids.dedup();
        let name = lang.file_name().unwrap_or_default().to_string_lossy();
        out.push_str(&format!("    ({name:?}, &{ids:?}),\n"));
    }
    out.push_str("]\n");
    out
}
