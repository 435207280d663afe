//! Embeds every translation file under `content/i18n/<lang>/` and `exercises/i18n/<lang>/`, so a new
//! translation file is never left out of the binary, and rebuilds when a Fluent file is added to or
//! removed from `locales/` (the embedded UI strings).

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
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("i18n_files.rs");
    std::fs::write(out, list).expect("OUT_DIR is writable");
}
