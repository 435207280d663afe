//! Content: topics, flashcards and exercise templates in RON — built into the binary, optionally
//! extended or replaced from a directory — loaded and validated with `file:line:column` diagnostics.

pub mod builtin;
pub mod schema;
pub mod validate;

use schema::{Card, DeckFile, ExerciseFile, ExerciseTemplate, Level, Topic, TopicFile};
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
    /// Problems found; the items they name were skipped.
    pub problems: Vec<Diagnostic>,
    /// Files read.
    pub files: usize,
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
        load_checked(builtin::sources(), &[], check)
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
            let extra = load_with(
                dir_sources(dir)?,
                &content.topics,
                &content.exercises,
                check,
            );
            content.merge(extra);
        }
        Ok(content)
    }

    fn merge(&mut self, other: Content) {
        for topic in other.topics {
            match self.topics.iter_mut().find(|t| t.id == topic.id) {
                Some(existing) => *existing = topic,
                None => self.topics.push(topic),
            }
        }
        for card in other.cards {
            match self.cards.iter_mut().find(|c| c.id == card.id) {
                Some(existing) => *existing = card,
                None => self.cards.push(card),
            }
        }
        for exercise in other.exercises {
            match self.exercises.iter_mut().find(|e| e.id == exercise.id) {
                Some(existing) => *existing = exercise,
                None => self.exercises.push(exercise),
            }
        }
        self.exercises.sort_by_key(|e| e.level);
        self.problems.extend(other.problems);
        self.files += other.files;
    }

    /// The exercise with this id.
    pub fn exercise(&self, id: &str) -> Option<&ExerciseTemplate> {
        self.exercises.iter().find(|e| e.id == id)
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

/// Reads `dir/content/*.ron` and `dir/exercises/*.ron`, sorted by name.
pub fn dir_sources(dir: &Path) -> Result<Vec<SourceFile>, DirError> {
    let mut sources = Vec::new();
    let mut found_any = false;
    for (sub, default_kind) in [
        ("content", FileKind::Deck),
        ("exercises", FileKind::Exercises),
    ] {
        let folder = dir.join(sub);
        if !folder.is_dir() {
            continue;
        }
        found_any = true;
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
            let text = std::fs::read_to_string(&path).map_err(|source| DirError {
                path: path.display().to_string(),
                source,
            })?;
            let kind = if default_kind == FileKind::Deck
                && path.file_name().is_some_and(|n| n == "topics.ron")
            {
                FileKind::Topics
            } else {
                default_kind
            };
            sources.push(SourceFile {
                path: path.display().to_string(),
                text,
                kind,
            });
        }
    }
    if !found_any {
        return Err(DirError {
            path: dir.display().to_string(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "expected a `content/` or `exercises/` folder inside it",
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
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    for source in &sources {
        let result = match source.kind {
            FileKind::Topics => options.from_str::<TopicFile>(&source.text).map(|f| {
                content.topics.extend(validate::topics(
                    source,
                    f.topics,
                    &content.topics,
                    &mut content.problems,
                ));
            }),
            FileKind::Deck => options
                .from_str::<DeckFile>(&source.text)
                .map(|f| parsed_decks.push((source, f))),
            FileKind::Exercises => options
                .from_str::<ExerciseFile>(&source.text)
                .map(|f| parsed_exercises.push((source, f))),
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
            .filter(|t| !content.topics.iter().any(|c| c.id == t.id))
            .cloned(),
    );
    for (source, file) in parsed_exercises {
        let exercises = validate::exercises(
            source,
            file.exercises,
            &topics,
            &content.exercises,
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
                .filter(|k| !content.exercises.iter().any(|e| e.id == k.id)),
        )
        .collect();
    let mut cards = Vec::new();
    for (source, deck) in parsed_decks {
        let kept = validate::cards(
            source,
            deck.cards,
            &topics,
            &cards,
            &drillable,
            &mut content.problems,
        );
        cards.extend(kept);
    }
    content.cards = cards;
    content.exercises.sort_by_key(|e| e.level);
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
