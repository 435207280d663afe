//! The built-in content, embedded in the binary so `cargo run --release` works from anywhere.

use super::{FileKind, SourceFile};

macro_rules! embed {
    ($($path:literal => $kind:expr),* $(,)?) => {
        /// Paths of the embedded files, relative to the repository root.
        pub const FILES: &[(&str, FileKind, &str)] = &[
            $(($path, $kind, include_str!(concat!("../../../", $path)))),*
        ];
    };
}

embed! {
    "content/topics.ron" => FileKind::Topics,
    "content/cards-hierarchy.ron" => FileKind::Deck,
    "content/cards-coalescing.ron" => FileKind::Deck,
    "content/cards-banks.ron" => FileKind::Deck,
    "content/cards-occupancy.ron" => FileKind::Deck,
    "content/cards-tiling-roofline.ron" => FileKind::Deck,
    "content/cards-amd.ron" => FileKind::Deck,
    "content/lessons/hierarchy.ron" => FileKind::Lesson,
    "content/lessons/coalescing.ron" => FileKind::Lesson,
    "content/lessons/banks.ron" => FileKind::Lesson,
    "content/lessons/occupancy.ron" => FileKind::Lesson,
    "content/lessons/tiling.ron" => FileKind::Lesson,
    "content/lessons/roofline.ron" => FileKind::Lesson,
    "content/lessons/latency.ron" => FileKind::Lesson,
    "content/lessons/amd.ron" => FileKind::Lesson,
    "exercises/L1.ron" => FileKind::Exercises,
    "exercises/L2.ron" => FileKind::Exercises,
    "exercises/L3.ron" => FileKind::Exercises,
    "exercises/L4.ron" => FileKind::Exercises,
    "exercises/L5.ron" => FileKind::Exercises,
}

/// The embedded translations (`content/i18n/<lang>/*.ron`, `exercises/i18n/<lang>/*.ron`): paths
/// relative to the repository root, and texts. Listed by the build script from the folders, so no
/// file is left out.
pub const I18N_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/i18n_files.rs"));

/// The embedded translations as sources.
pub fn i18n_sources() -> Vec<super::i18n::TextSource> {
    I18N_FILES
        .iter()
        .map(|(path, text)| super::i18n::TextSource::new(path, text))
        .collect()
}

/// A fingerprint of the embedded content (FNV-1a over every file), so a learner or an instructor can
/// tell which content a binary carries.
pub fn fingerprint() -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for (path, _, text) in FILES {
        for byte in path.bytes().chain(text.bytes()) {
            hash ^= u32::from(byte);
            hash = hash.wrapping_mul(0x0100_0193);
        }
    }
    hash
}

/// `0.1.0 (content 1a2b3c4d, 12 files)`: the program's version and the content it carries.
pub fn version_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{} (content {:08x}, {} files)",
            env!("CARGO_PKG_VERSION"),
            fingerprint(),
            FILES.len()
        )
    })
}

/// The embedded files as sources.
pub fn sources() -> Vec<SourceFile> {
    FILES
        .iter()
        .map(|(path, kind, text)| SourceFile {
            path: (*path).to_string(),
            text: (*text).to_string(),
            kind: *kind,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_content_file_in_the_repository_is_embedded() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        for folder in ["content", "exercises"] {
            for entry in std::fs::read_dir(root.join(folder)).unwrap() {
                let name = format!("{folder}/{}", entry.unwrap().file_name().to_string_lossy());
                if name.ends_with(".ron") {
                    assert!(
                        FILES.iter().any(|(path, _, _)| *path == name),
                        "{name} is not embedded"
                    );
                }
            }
        }
    }

    fn translation_files_on_disk(dir: &std::path::Path, root: &std::path::Path) -> Vec<String> {
        let mut found = Vec::new();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return found;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                found.extend(translation_files_on_disk(&path, root));
            } else if path.extension().is_some_and(|e| e == "ron") {
                let relative = path.strip_prefix(root).unwrap();
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
        found
    }

    #[test]
    fn every_translation_file_in_the_repository_is_embedded() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let mut on_disk = Vec::new();
        for folder in ["content/i18n", "exercises/i18n"] {
            on_disk.extend(translation_files_on_disk(&root.join(folder), root));
        }
        on_disk.sort();
        let mut embedded: Vec<String> = I18N_FILES.iter().map(|(p, _)| p.to_string()).collect();
        embedded.sort();
        assert_eq!(
            embedded, on_disk,
            "the embedded translations differ from the files under content/i18n and exercises/i18n"
        );
        for (path, text) in I18N_FILES {
            assert_eq!(
                std::fs::read_to_string(root.join(path)).unwrap(),
                *text,
                "{path} is embedded out of date"
            );
        }
    }
}
