//! Content: topics, flashcards and exercise templates in RON — built into the binary, optionally
//! extended or replaced from a directory — loaded and validated with `file:line:column` diagnostics.

pub mod builtin;
pub mod i18n;
pub mod schema;
pub mod structure;
pub mod validate;

use schema::{Card, DeckFile, ExerciseFile, ExerciseTemplate, Lesson, Level, Topic, TopicFile};
use std::fmt;
use std::path::Path;
use thiserror::Error;

/// One problem in a content file, located for the author.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// File path as given (`exercises/L2.ron`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong and what to do.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

/// What a file holds, decided by where it lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `content/topics.ron`.
    Topics,
    /// Any other `content/*.ron`: flashcards.
    Deck,
    /// `exercises/*.ron`.
    Exercises,
    /// `content/lessons/*.ron`: one lesson each.
    Lesson,
}

/// A content file's text and where it came from.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path shown in diagnostics.
    pub path: String,
    /// The RON text.
    pub text: String,
    /// What it holds.
    pub kind: FileKind,
}

/// A directory that could not be read.
#[derive(Debug, Error)]
#[error("cannot read content directory {path}: {source}")]
pub struct DirError {
    /// The directory.
    pub path: String,
    /// Why.
    pub source: std::io::Error,
}

/// Everything loaded, and what was skipped.
#[derive(Debug, Clone, Default)]
pub struct Content {
    /// Topics by id.
    pub topics: Vec<Topic>,
    /// Flashcards.
    pub cards: Vec<Card>,
    /// Exercise templates, in ladder order (level, then file order).
    pub exercises: Vec<ExerciseTemplate>,
    /// Lessons, in topic order.
    pub lessons: Vec<Lesson>,
    /// Problems found; the items they name were skipped.
    pub problems: Vec<Diagnostic>,
    /// Files read.
    pub files: usize,
    /// The language of the texts ([`Content::in_lang`]).
    pub lang: crate::i18n::Lang,
    /// In a translated content: the items with texts still in English, by kind and id, with the
    /// texts that are (`all` when the item has no translation) — for screens to mark them.
    pub fallbacks: std::collections::BTreeMap<(i18n::ItemKind, String), Vec<String>>,
    /// The translations read (every language), applied by [`Content::in_lang`].
    pub translations: std::sync::Arc<i18n::Translations>,
    /// In a translated content: the English it was made from.
    english: Option<std::sync::Arc<Content>>,
}

/// A check of an exercise template beyond its structure — the ladder draws its variants — that
/// returns the first failure: text near the mistake (to locate it) and the message.
pub type TemplateCheck = fn(&ExerciseTemplate) -> Option<(Option<String>, String)>;

impl Content {
    /// The built-in content, embedded in the binary (structure checked; see
    /// `ladder::check::builtin` for the content with every template's variants checked too).
    pub fn builtin() -> Content {
        Content::builtin_checked(None)
    }

    /// The built-in content, each template also passed through `check`.
    pub fn builtin_checked(check: Option<TemplateCheck>) -> Content {
        let mut content = load_checked(builtin::sources(), &[], check);
        content.translations = i18n::builtin();
        content
    }

    /// A copy in `lang`: every text of topics, cards and exercises translated where a valid
    /// translation exists, English otherwise — recorded in [`Content::fallbacks`]. The numbers are
    /// the English templates' own, and answers are graded in both languages (option words, ordering
    /// names, accepted texts, explanation keywords and count words of either).
    pub fn in_lang(&self, lang: crate::i18n::Lang) -> Content {
        let english = self.english();
        let (mut content, _) = i18n::localize(english, lang, english.translations.get(lang));
        if lang != crate::i18n::Lang::En {
            content.english = Some(std::sync::Arc::new(english.clone()));
        }
        content
    }

    /// The English content (itself when it is English).
    pub fn english(&self) -> &Content {
        self.english.as_deref().unwrap_or(self)
    }

    /// The texts of an item still in English in this language (empty when it is fully translated,
    /// or the content is English).
    pub fn english_texts(&self, kind: i18n::ItemKind, id: &str) -> &[String] {
        self.fallbacks
            .get(&(kind, id.to_string()))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether an item is shown (at least partly) in English in a translated content: a screen
    /// marks it "English".
    pub fn is_english(&self, kind: i18n::ItemKind, id: &str) -> bool {
        !self.english_texts(kind, id).is_empty()
    }

    /// The built-in content, with the files of `dir` (laid out as `content/`, `exercises/`) adding to it
    /// or replacing items with the same id.
    pub fn with_dir(dir: Option<&Path>) -> Result<Content, DirError> {
        Content::with_dir_checked(dir, None)
    }

    /// [`Content::with_dir`], each template also passed through `check`.
    pub fn with_dir_checked(
        dir: Option<&Path>,
        check: Option<TemplateCheck>,
    ) -> Result<Content, DirError> {
        let mut content = Content::builtin_checked(check);
        if let Some(dir) = dir {
            let extra = load_dir_over(dir, &content.topics, &content.exercises, check)?;
            content.merge(extra);
            let (sources, problems) = i18n::dir_sources(dir);
            let mut translations = (*content.translations).clone();
            let mut more = i18n::load(sources);
            more.problems.extend(problems);
            translations.merge(more);
            content.translations = std::sync::Arc::new(translations);
        }
        Ok(content)
    }

    /// Adds `other`'s items, replacing those with the same id: one pass over each list, whatever
    /// their sizes.
    fn merge(&mut self, other: Content) {
        replace_or_add(&mut self.topics, other.topics, |t| &t.id);
        replace_or_add(&mut self.cards, other.cards, |c| &c.id);
        replace_or_add(&mut self.exercises, other.exercises, |e| &e.id);
        self.exercises.sort_by_key(|e| e.level);
        replace_or_add(&mut self.lessons, other.lessons, |l| &l.id);
        self.sort_lessons();
        self.problems.extend(other.problems);
        self.files += other.files;
    }

    /// The exercise with this id.
    pub fn exercise(&self, id: &str) -> Option<&ExerciseTemplate> {
        self.exercises.iter().find(|e| e.id == id)
    }

    /// The lesson with this id.
    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.id == id)
    }

    /// The lesson of a topic (the first, if a folder added another).
    pub fn lesson_of(&self, topic: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.topic == topic)
    }

    /// Lessons in the order of their topics (a lesson of no known topic last).
    fn sort_lessons(&mut self) {
        let topics = &self.topics;
        self.lessons.sort_by_key(|l| {
            topics
                .iter()
                .position(|t| t.id == l.topic)
                .unwrap_or(usize::MAX)
        });
    }

    /// The topic with this id.
    pub fn topic(&self, id: &str) -> Option<&Topic> {
        self.topics.iter().find(|t| t.id == id)
    }

    /// Exercises of one level, in order.
    pub fn level(&self, level: Level) -> impl Iterator<Item = &ExerciseTemplate> {
        self.exercises.iter().filter(move |e| e.level == level)
    }

    /// Files with at least one problem.
    pub fn files_with_problems(&self) -> Vec<&str> {
        let mut files: Vec<&str> = self.problems.iter().map(|p| p.file.as_str()).collect();
        files.dedup();
        files
    }
}

/// Puts each of `new` in place of the item of `list` with the same id, or at the end.
fn replace_or_add<T>(list: &mut Vec<T>, new: Vec<T>, id: impl Fn(&T) -> &String) {
    let mut at: std::collections::HashMap<String, usize> = list
        .iter()
        .enumerate()
        .map(|(i, item)| (id(item).clone(), i))
        .collect();
    for item in new {
        match at.get(id(&item)) {
            Some(&i) => list[i] = item,
            None => {
                at.insert(id(&item).clone(), list.len());
                list.push(item);
            }
        }
    }
}

/// The largest content file read, in bytes: larger files are skipped with a message.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// What reading a content directory found.
#[derive(Debug, Clone, Default)]
pub struct DirSources {
    /// The files read.
    pub files: Vec<SourceFile>,
    /// Entries that could not be read (each skipped on its own).
    pub problems: Vec<Diagnostic>,
}

/// Loads and validates the files of `dir` ([`dir_sources`], then [`load`]); entries that could not be
/// read are reported among the problems, and count as files.
pub fn load_dir(
    dir: &Path,
    known_topics: &[Topic],
    check: Option<TemplateCheck>,
) -> Result<Content, DirError> {
    load_dir_over(dir, known_topics, &[], check)
}

/// [`load_dir`], where drill cards may also name the exercises in `known_exercises` (the built-in
/// ones, for a folder that extends them).
pub fn load_dir_over(
    dir: &Path,
    known_topics: &[Topic],
    known_exercises: &[ExerciseTemplate],
    check: Option<TemplateCheck>,
) -> Result<Content, DirError> {
    let sources = dir_sources(dir)?;
    let unreadable = sources.problems.len();
    let mut content = load_with(sources.files, known_topics, known_exercises, check);
    content.files += unreadable;
    let mut problems = sources.problems;
    problems.append(&mut content.problems);
    content.problems = problems;
    Ok(content)
}

/// The text of one content file, or why it was skipped: only regular files (a symbolic link to one is
/// fine) of at most [`MAX_FILE_BYTES`] bytes of UTF-8 are read, so a FIFO, a device or a directory
/// named `x.ron` never hangs or floods the loader.
fn read_source(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let too_big = |size: u64| {
        format!(
            "the file is {:.1} MB; content files are limited to {} MB — split it (the file was skipped)",
            size as f64 / (1024.0 * 1024.0),
            MAX_FILE_BYTES / (1024 * 1024)
        )
    };
    let metadata = std::fs::metadata(path).map_err(|e| {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            format!("a symbolic link that leads nowhere readable ({e}); the file was skipped")
        } else {
            format!("cannot read it ({e}); the file was skipped")
        }
    })?;
    let not_regular = |file_type: std::fs::FileType| {
        let what = if file_type.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        format!("{what}, not a content file; it was skipped")
    };
    if !metadata.is_file() {
        return Err(not_regular(metadata.file_type()));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(too_big(metadata.len()));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read it ({e}); the file was skipped"))?;
    // Checked again on the opened file: the path may have changed since.
    match file.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(m) => return Err(not_regular(m.file_type())),
        Err(e) => return Err(format!("cannot read it ({e}); the file was skipped")),
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it ({e}); the file was skipped"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {}); the file was skipped",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads `dir/content/*.ron` and `dir/exercises/*.ron`, sorted by name. An entry that cannot be read
/// (not a regular file, too large, not UTF-8, a broken link) is skipped and reported on its own; only
/// a directory that cannot be listed at all is an error.
pub fn dir_sources(dir: &Path) -> Result<DirSources, DirError> {
    let mut sources = DirSources::default();
    let mut found_any = false;
    for (sub, default_kind) in [
        ("content", FileKind::Deck),
        ("content/lessons", FileKind::Lesson),
        ("exercises", FileKind::Exercises),
    ] {
        let folder = dir.join(sub);
        if !folder.is_dir() {
            continue;
        }
        found_any |= sub != "content/lessons";
        let read_err = |source| DirError {
            path: folder.display().to_string(),
            source,
        };
        let mut paths: Vec<_> = std::fs::read_dir(&folder)
            .map_err(read_err)?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        paths.sort();
        for path in paths {
            let text = match read_source(&path) {
                Ok(text) => text,
                Err(message) => {
                    sources.problems.push(Diagnostic {
                        file: path.display().to_string(),
                        line: 1,
                        column: 1,
                        message,
                    });
                    continue;
                }
            };
            let kind = if default_kind == FileKind::Deck
                && path.file_name().is_some_and(|n| n == "topics.ron")
            {
                FileKind::Topics
            } else {
                default_kind
            };
            sources.files.push(SourceFile {
                path: path.display().to_string(),
                text,
                kind,
            });
        }
    }
    // A folder of kernel puzzles alone is content too (`crate::puzzle::read_folder`).
    if !found_any && !dir.join("puzzles").is_dir() {
        return Err(DirError {
            path: dir.display().to_string(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "expected a `content/`, `exercises/` or `puzzles/` folder inside it",
            ),
        });
    }
    Ok(sources)
}

/// Parses and validates the structure of `sources`. Topics in `known_topics` count as defined (for a
/// directory that extends the built-in content).
pub fn load(sources: Vec<SourceFile>, known_topics: &[Topic]) -> Content {
    load_checked(sources, known_topics, None)
}

/// [`load`], each exercise template also passed through `check`.
pub fn load_checked(
    sources: Vec<SourceFile>,
    known_topics: &[Topic],
    check: Option<TemplateCheck>,
) -> Content {
    load_with(sources, known_topics, &[], check)
}

/// [`load_checked`], where drill cards may also name the exercises in `known_exercises` (the
/// built-in ones, for a directory that extends them).
pub fn load_with(
    sources: Vec<SourceFile>,
    known_topics: &[Topic],
    known_exercises: &[ExerciseTemplate],
    check: Option<TemplateCheck>,
) -> Content {
    let mut content = Content {
        files: sources.len(),
        ..Content::default()
    };
    let mut parsed_decks = Vec::new();
    let mut parsed_exercises = Vec::new();
    let mut parsed_lessons = Vec::new();
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    // The ids taken so far, by kind: each file adds its own, so loading is linear in the files.
    let mut topic_ids = std::collections::HashSet::new();
    for source in &sources {
        let result = match source.kind {
            FileKind::Topics => options.from_str::<TopicFile>(&source.text).map(|f| {
                content.topics.extend(validate::topics(
                    source,
                    f.topics,
                    &mut topic_ids,
                    &mut content.problems,
                ));
            }),
            FileKind::Deck => options
                .from_str::<DeckFile>(&source.text)
                .map(|f| parsed_decks.push((source, f))),
            FileKind::Exercises => options
                .from_str::<ExerciseFile>(&source.text)
                .map(|f| parsed_exercises.push((source, f))),
            FileKind::Lesson => options
                .from_str::<Lesson>(&source.text)
                .map(|l| parsed_lessons.push((source, l))),
        };
        if let Err(e) = result {
            content.problems.push(Diagnostic {
                file: source.path.clone(),
                line: e.span.start.line.max(1),
                column: e.span.start.col.max(1),
                message: format!("{} (the whole file was skipped)", ron_message(&e.code)),
            });
        }
    }
    let mut topics = content.topics.clone();
    topics.extend(
        known_topics
            .iter()
            .filter(|t| !topic_ids.contains(&t.id))
            .cloned(),
    );
    let known = validate::Known::new(&topics);
    let mut exercise_ids = std::collections::HashSet::new();
    for (source, file) in parsed_exercises {
        let exercises = validate::exercises(
            source,
            file.exercises,
            &known,
            &mut exercise_ids,
            check,
            &mut content.problems,
        );
        content.exercises.extend(exercises);
    }
    let drillable: Vec<&ExerciseTemplate> = content
        .exercises
        .iter()
        .chain(
            known_exercises
                .iter()
                .filter(|k| !exercise_ids.contains(&k.id)),
        )
        .collect();
    let mut cards = Vec::new();
    let mut card_ids = std::collections::HashSet::new();
    for (source, deck) in parsed_decks {
        let kept = validate::cards(
            source,
            deck.cards,
            &known,
            &mut card_ids,
            &drillable,
            &mut content.problems,
        );
        cards.extend(kept);
    }
    content.cards = cards;
    let ladder: Vec<ExerciseTemplate> = content
        .exercises
        .iter()
        .chain(known_exercises)
        .cloned()
        .collect();
    for (source, lesson) in parsed_lessons {
        if let Some(lesson) = validate::lesson(
            source,
            lesson,
            &topics,
            &content.lessons,
            &ladder,
            check,
            &mut content.problems,
        ) {
            content.lessons.push(lesson);
        }
    }
    content.exercises.sort_by_key(|e| e.level);
    content.sort_lessons();
    content
}

fn ron_message(code: &ron::Error) -> String {
    let text = code.to_string();
    match code {
        ron::Error::NoSuchStructField { .. } | ron::Error::MissingStructField { .. } => {
            format!("{text} — see CONTENT.md for the fields each item takes")
        }
        _ => text,
    }
}
