//! Kernel puzzles: the learner writes a CUDA kernel in their own editor; [`check`] runs it on the
//! CPU with data ([`crate::analyze::exec`]) against a reference kernel run the same way, then grades
//! its memory behaviour with the analyser and the H200 timing model against the reference's.
//!
//! A puzzle is a RON file under `puzzles/` ([`Puzzle`]); the built-in ones are embedded
//! ([`builtin`]), their titles, statements and hints translated in `puzzles/i18n/<lang>.ron`.

pub mod check;
pub mod record;
pub mod text;

use crate::i18n::Lang;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One puzzle.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    /// Stable id (`transpose`), the file name the starter is written to.
    pub id: String,
    /// Short title.
    pub title: String,
    /// The topic it practises (a topic id of the content: coalescing, banks, tiling, …).
    pub topic: String,
    /// What the kernel must compute.
    pub statement: String,
    /// The `__global__` function's name.
    pub kernel: String,
    /// The starter file: the signature and a `// launch:` first line the learner may change.
    pub starter: String,
    /// The reference solution, run by the same interpreter and graded by the same analyser.
    pub reference: String,
    /// The kernel's pointer parameters and their data.
    pub buffers: Vec<BufferSpec>,
    /// The sizes of the correctness runs: the scalar parameters' values (`{"n": 33}`).
    pub sizes: Vec<BTreeMap<String, i64>>,
    /// The size of the performance run (graded by the analyser, not run with data).
    pub perf: BTreeMap<String, i64>,
    /// The parameter each grid dimension (x, y, z) grows with: the launch line's grid is for the
    /// size of its `-D` (else the performance size), and is scaled, rounded up, for every other
    /// size. An empty name: that dimension stays as written.
    #[serde(default)]
    pub grid_scale: Vec<String>,
    /// Floats match when `|got − expected| ≤ tolerance · max(1, |expected|)`.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// What the performance run must reach, against the reference's figures.
    pub targets: Targets,
    /// Progressive hints.
    pub hints: Vec<String>,
    /// Why the reference is fast, shown once solved.
    pub solution: String,
}

fn default_tolerance() -> f64 {
    1e-5
}

/// Element type of a buffer.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
pub enum Elem {
    /// 32-bit float.
    F32,
    /// 32-bit signed integer.
    I32,
}

/// How a buffer is filled before the run.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq)]
pub enum Init {
    /// Zeros.
    Zero,
    /// 0, 1, 2, …
    Iota,
    /// One value everywhere.
    Const(f64),
    /// Uniform in [-1, 1) (floats) or [-100, 100) (integers), from a seed.
    Random(u64),
    /// Small integers in [0, 8) from a seed (sums stay exact in `f32`).
    SmallInts(u64),
}

/// One pointer parameter.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    /// The parameter's name.
    pub name: String,
    /// Element type of the data (a `float4*` parameter is `F32` with 4 per element).
    pub ty: Elem,
    /// Elements: the product of these factors, each a parameter name or a number…
    pub len: Vec<String>,
    /// … divided by this, rounded up.
    #[serde(default = "one")]
    pub div: i64,
    /// Its contents before the run.
    pub init: Init,
    /// Whether the kernel's result is read from it (compared with the reference's).
    #[serde(default)]
    pub output: bool,
}

fn one() -> i64 {
    1
}

/// The performance targets.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Targets {
    /// The worst global access's sectors per request, in multiples of the fewest a full warp of
    /// its width needs, at most the reference's.
    #[serde(default)]
    pub coalescing: bool,
    /// Shared-memory bank conflicts at most the reference's.
    #[serde(default)]
    pub bank_conflicts: bool,
    /// The predicted H200 time at most this many times the reference's.
    #[serde(default)]
    pub time_factor: Option<f64>,
}

impl BufferSpec {
    /// Elements for the parameter values `size`.
    pub fn elements(&self, size: &BTreeMap<String, i64>) -> Result<usize, String> {
        let mut n: i64 = 1;
        for f in &self.len {
            let v = match f.parse::<i64>() {
                Ok(v) => v,
                Err(_) => *size
                    .get(f)
                    .ok_or_else(|| format!("`{}`: no parameter `{f}` in the size", self.name))?,
            };
            n = n
                .checked_mul(v)
                .ok_or_else(|| format!("`{}`: too many elements", self.name))?;
        }
        let n = n.max(0);
        let n = (n + self.div.max(1) - 1) / self.div.max(1);
        usize::try_from(n).map_err(|_| format!("`{}`: too many elements", self.name))
    }
}

/// A puzzle file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleError {
    /// The file.
    pub file: String,
    /// Line and column, when known.
    pub at: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at {
            Some((l, c)) => write!(f, "{}:{l}:{c}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        /// The built-in puzzle files: path (relative to the repository root) and text.
        pub const FILES: &[(&str, &str)] = &[
            $(($path, include_str!(concat!("../../../", $path)))),*
        ];
    };
}

embed! {
    "puzzles/map.ron",
    "puzzles/zip.ron",
    "puzzles/guard.ron",
    "puzzles/map2d.ron",
    "puzzles/broadcast.ron",
    "puzzles/stencil.ron",
    "puzzles/dot.ron",
    "puzzles/prefix-sum.ron",
    "puzzles/axis-sum.ron",
    "puzzles/pool.ron",
    "puzzles/transpose.ron",
    "puzzles/reduce.ron",
    "puzzles/matmul.ron",
    "puzzles/aos-to-soa.ron",
    "puzzles/float4-copy.ron",
    "puzzles/occupancy.ron",
}

/// The embedded translations: language code and text.
pub const I18N: &[(&str, &str)] = &[
    ("hi-Latn", include_str!("../../../puzzles/i18n/hi-Latn.ron")),
    ("ko", include_str!("../../../puzzles/i18n/ko.ron")),
];

/// A puzzle's words in one language.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Words {
    /// Title.
    pub title: String,
    /// Statement.
    pub statement: String,
    /// Hints, as many as the English.
    pub hints: Vec<String>,
    /// The solution text.
    pub solution: String,
}

/// Reads one puzzle file.
pub fn parse(file: &str, text: &str) -> Result<Puzzle, PuzzleError> {
    ron::from_str::<Puzzle>(text).map_err(|e| PuzzleError {
        file: file.to_string(),
        at: Some((e.span.start.line, e.span.start.col)),
        message: e.code.to_string(),
    })
}

/// Reads a translation file: id → words.
pub fn parse_words(file: &str, text: &str) -> Result<BTreeMap<String, Words>, PuzzleError> {
    ron::from_str(text).map_err(|e| PuzzleError {
        file: file.to_string(),
        at: Some((e.span.start.line, e.span.start.col)),
        message: e.code.to_string(),
    })
}

/// The built-in puzzles that read, in order, and the errors of those that do not.
pub fn builtin() -> (Vec<Puzzle>, Vec<PuzzleError>) {
    let mut puzzles = Vec::new();
    let mut errors = Vec::new();
    for (path, text) in FILES {
        match parse(path, text) {
            Ok(p) => puzzles.push(p),
            Err(e) => errors.push(e),
        }
    }
    (puzzles, errors)
}

/// The built-in puzzles in `lang` (English where a translation is missing).
pub fn builtin_in(lang: Lang) -> Vec<Puzzle> {
    let (mut puzzles, _) = builtin();
    if let Some((file, text)) = I18N.iter().find(|(code, _)| *code == lang.code())
        && let Ok(words) = parse_words(file, text)
    {
        translate(&mut puzzles, &words);
    }
    puzzles
}

/// Puts `words` on the puzzles they name (a translation with another number of hints keeps the
/// English hints).
fn translate(puzzles: &mut [Puzzle], words: &BTreeMap<String, Words>) {
    for p in puzzles {
        if let Some(w) = words.get(&p.id) {
            p.title = w.title.clone();
            p.statement = w.statement.clone();
            if w.hints.len() == p.hints.len() {
                p.hints = w.hints.clone();
            }
            p.solution = w.solution.clone();
        }
    }
}

/// Puzzles from a content folder (`--content DIR`: `DIR/puzzles/*.ron`, translated in
/// `DIR/puzzles/i18n/<lang>.ron`), read once at start-up.
#[derive(Debug, Clone, Default)]
pub struct Folder {
    /// The puzzle files that read, by file name.
    pub puzzles: Vec<Puzzle>,
    /// Their translations: language code and words by id.
    pub words: Vec<(String, BTreeMap<String, Words>)>,
    /// The puzzle files as read: path and text, for `content check`.
    pub files: Vec<(String, String)>,
    /// The translation files as read: language code, path and text.
    pub i18n: Vec<(String, String, String)>,
    /// The files that could not be read or parsed.
    pub errors: Vec<PuzzleError>,
}

/// The largest puzzle file read from a folder.
const FILE_LIMIT: u64 = 1 << 20;

/// Reads the puzzles of content folder `dir` (none when it has no `puzzles/`).
pub fn read_folder(dir: &std::path::Path) -> Folder {
    let mut folder = Folder::default();
    let ron_files = |d: std::path::PathBuf| -> Vec<std::path::PathBuf> {
        let mut files: Vec<_> = std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron") && p.is_file())
            .collect();
        files.sort();
        files
    };
    let read = |path: &std::path::Path, errors: &mut Vec<PuzzleError>| {
        crate::store::read_regular_text(path, FILE_LIMIT)
            .map_err(|e| {
                errors.push(PuzzleError {
                    file: path.display().to_string(),
                    at: None,
                    message: e.to_string(),
                })
            })
            .ok()
    };
    for path in ron_files(dir.join("puzzles")) {
        let Some(text) = read(&path, &mut folder.errors) else {
            continue;
        };
        let name = path.display().to_string();
        match parse(&name, &text) {
            Ok(p) => folder.puzzles.push(p),
            Err(e) => folder.errors.push(e),
        }
        folder.files.push((name, text));
    }
    for path in ron_files(dir.join("puzzles").join("i18n")) {
        let code = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(text) = read(&path, &mut folder.errors) else {
            continue;
        };
        let name = path.display().to_string();
        match parse_words(&name, &text) {
            Ok(words) => folder.words.push((code.clone(), words)),
            Err(e) => folder.errors.push(e),
        }
        folder.i18n.push((code, name, text));
    }
    folder
}

static FOLDER: std::sync::RwLock<Option<Folder>> = std::sync::RwLock::new(None);

/// Adds the puzzles of content folder `dir` to the built-in ones for this run (`--content`): one
/// with a built-in id replaces it. Returns the files that could not be read (the others are used).
pub fn use_folder(dir: &std::path::Path) -> Vec<PuzzleError> {
    let folder = read_folder(dir);
    let errors = folder.errors.clone();
    if let Ok(mut kept) = FOLDER.write() {
        *kept = Some(folder);
    }
    errors
}

/// Every puzzle in `lang`: the built-in ones, with those of the content folder in use
/// ([`use_folder`]) replacing any of the same id and added after them.
pub fn all_in(lang: Lang) -> Vec<Puzzle> {
    let mut puzzles = builtin_in(lang);
    let Ok(kept) = FOLDER.read() else {
        return puzzles;
    };
    let Some(folder) = kept.as_ref() else {
        return puzzles;
    };
    let mut extra = folder.puzzles.clone();
    if let Some((_, words)) = folder.words.iter().find(|(code, _)| code == lang.code()) {
        translate(&mut extra, words);
    }
    for p in extra {
        match puzzles.iter_mut().find(|q| q.id == p.id) {
            Some(q) => *q = p,
            None => puzzles.push(p),
        }
    }
    puzzles
}

/// One puzzle by id, in `lang` (built in, or from the content folder in use).
pub fn find(id: &str, lang: Lang) -> Option<Puzzle> {
    all_in(lang).into_iter().find(|p| p.id == id)
}

/// Checks the built-in puzzles as `content check` does: every file reads, ids are unique, the
/// starter parses, the reference solves its own puzzle and meets its own targets, every translation
/// names a known puzzle and has as many hints. Returns the problems.
pub fn validate() -> Vec<crate::content::Diagnostic> {
    let files: Vec<(String, String)> = FILES
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let i18n: Vec<(String, String, String)> = I18N
        .iter()
        .map(|(code, t)| {
            (
                code.to_string(),
                format!("puzzles/i18n/{code}.ron"),
                t.to_string(),
            )
        })
        .collect();
    validate_files(&files, &i18n, true)
}

/// [`validate`] for a content folder's puzzles ([`read_folder`]); a translation need not cover
/// every puzzle of the folder there.
pub fn validate_folder(folder: &Folder) -> Vec<crate::content::Diagnostic> {
    let mut problems = validate_files(&folder.files, &folder.i18n, false);
    problems.extend(folder.errors.iter().filter(|e| e.at.is_none()).map(|e| {
        crate::content::Diagnostic {
            file: e.file.clone(),
            line: 1,
            column: 1,
            message: e.message.clone(),
        }
    }));
    problems
}

/// The problems of puzzle files (path, text) and translation files (language, path, text);
/// `complete`: every puzzle must be translated.
fn validate_files(
    files: &[(String, String)],
    i18n: &[(String, String, String)],
    complete: bool,
) -> Vec<crate::content::Diagnostic> {
    let diag =
        |file: &str, at: Option<(usize, usize)>, message: String| crate::content::Diagnostic {
            file: file.to_string(),
            line: at.map_or(1, |a| a.0),
            column: at.map_or(1, |a| a.1),
            message,
        };
    let mut problems = Vec::new();
    let mut puzzles = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (path, text) in files {
        match parse(path, text) {
            Ok(p) => {
                if !seen.insert(p.id.clone()) {
                    problems.push(diag(path, None, format!("the id `{}` is used twice", p.id)));
                }
                for m in validate_one(&p) {
                    problems.push(diag(path, None, m));
                }
                puzzles.push(p);
            }
            Err(e) => problems.push(diag(path, e.at, e.message)),
        }
    }
    for (_, file, text) in i18n {
        let file = file.as_str();
        match parse_words(file, text) {
            Ok(words) => {
                for (id, w) in &words {
                    match puzzles.iter().find(|p| &p.id == id) {
                        None => problems.push(diag(file, None, format!("no puzzle `{id}`"))),
                        Some(p) if p.hints.len() != w.hints.len() => problems.push(diag(
                            file,
                            None,
                            format!(
                                "`{id}` has {} hints, the English {}",
                                w.hints.len(),
                                p.hints.len()
                            ),
                        )),
                        Some(_) => {}
                    }
                }
                for p in puzzles.iter().filter(|_| complete) {
                    if !words.contains_key(&p.id) {
                        problems.push(diag(file, None, format!("`{}` is not translated", p.id)));
                    }
                }
            }
            Err(e) => problems.push(diag(file, e.at, e.message)),
        }
    }
    problems
}

/// The problems of one puzzle (an empty list when it is sound).
pub fn validate_one(p: &Puzzle) -> Vec<String> {
    let mut problems = Vec::new();
    if p.sizes.is_empty() {
        problems.push("no correctness sizes".to_string());
    }
    if !p.buffers.iter().any(|b| b.output) {
        problems.push("no buffer is marked `output: true`".to_string());
    }
    if let Err(e) = crate::analyze::prepare(
        &p.starter,
        &format!("{}.cu", p.id),
        &crate::analyze::Options {
            kernel: Some(p.kernel.clone()),
            defines: check::defines(&p.perf),
            ..Default::default()
        },
    ) {
        problems.push(format!("the starter does not parse: {e}"));
    }
    match check::check(p, &p.reference, None) {
        Ok(outcome) => {
            if !outcome.correct {
                problems.push(format!(
                    "the reference does not solve its own puzzle: {}",
                    outcome
                        .error
                        .as_ref()
                        .map(|e| e.message.clone())
                        .or_else(|| outcome.first_wrong.as_ref().map(|w| format!(
                            "{}[{}] = {} (expected {})",
                            w.array, w.index, w.got, w.expected
                        )))
                        .unwrap_or_default()
                ));
            }
            for t in outcome.targets.iter().filter(|t| !t.met) {
                problems.push(format!(
                    "the reference misses its own target `{}`: {:?} against {}",
                    t.name, t.figure, t.target
                ));
            }
        }
        Err(e) => problems.push(format!("the reference cannot be checked: {e}")),
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_puzzle_is_sound() {
        let (puzzles, errors) = builtin();
        assert!(errors.is_empty(), "{errors:?}");
        assert!(puzzles.len() >= 16);
        let problems = validate();
        assert!(
            problems.is_empty(),
            "{}",
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
