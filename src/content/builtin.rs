//! The built-in content, embedded in the binary so `cargo run --release` works from anywhere.

use super::{FileKind, SourceFile};

macro_rules! embed {
    ($($path:literal => $kind:expr),* $(,)?) => {
        /// Paths of the embedded files, relative to the repository root.
        pub const FILES: &[(&str, FileKind, &str)] = &[
            $(($path, $kind, include_str!(concat!("../../", $path)))),*
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
    "exercises/L1.ron" => FileKind::Exercises,
    "exercises/L2.ron" => FileKind::Exercises,
    "exercises/L3.ron" => FileKind::Exercises,
    "exercises/L4.ron" => FileKind::Exercises,
    "exercises/L5.ron" => FileKind::Exercises,
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
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
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
}
