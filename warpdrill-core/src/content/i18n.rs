//! Translations of the content: the text of topics, cards and exercises in Hinglish and Korean,
//! keyed by the English ids (CONTENT.md, "Translations"). They carry only text: every number still
//! comes from the engine through the English template's parameters and values.
//!
//! Files are read in two steps. [`load`] parses them (a syntax error skips the file, an item that
//! does not read — an unknown field, a wrong type — skips that item, each reported as
//! `file:line:column`); [`localize`] then checks each text against the English (the id exists, lists
//! have the English length, placeholders are exactly the English ones) and builds the translated
//! content, falling back to English — and recording it — wherever a text is missing or wrong.

use super::schema::{AnswerSpec, CountWord, ExerciseTemplate, Idea, Lesson, Unit};
use super::{Content, Diagnostic};
use crate::i18n::Lang;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

/// What a translation file holds, decided by where it lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// `content/i18n/<lang>/topics.ron`: `TopicTexts`.
    Topics,
    /// Any other `content/i18n/<lang>/*.ron`: `CardTexts`.
    Cards,
    /// `exercises/i18n/<lang>/*.ron`: `ExerciseTexts`.
    Exercises,
    /// `content/i18n/<lang>/lessons/*.ron`: `LessonTexts`.
    Lessons,
}

/// A translation file's text, where it came from, and what it holds.
#[derive(Debug, Clone)]
pub struct TextSource {
    /// Path shown in diagnostics.
    pub path: String,
    /// The RON text.
    pub text: String,
    /// The language folder (`ko`), read by [`load`].
    pub folder: String,
    /// What it holds.
    pub kind: TextKind,
}

impl TextSource {
    /// A source for `path` (`…/content/i18n/ko/topics.ron`, `…/exercises/i18n/hi-Latn/L2.ron`,
    /// `…/content/i18n/ko/lessons/banks.ron`): the language is the folder above the file (above
    /// `lessons/` for a lesson), the kind the folder above `i18n`.
    pub fn new(path: &str, text: &str) -> TextSource {
        let parts: Vec<&str> = path.split(['/', '\\']).collect();
        let file = parts.last().copied().unwrap_or_default();
        let lessons = parts
            .len()
            .checked_sub(2)
            .is_some_and(|i| parts[i] == "lessons");
        let folder = parts
            .len()
            .checked_sub(if lessons { 3 } else { 2 })
            .map_or("", |i| parts[i])
            .to_string();
        if lessons {
            return TextSource {
                path: path.to_string(),
                text: text.to_string(),
                folder,
                kind: TextKind::Lessons,
            };
        }
        let exercises = parts
            .len()
            .checked_sub(4)
            .is_some_and(|i| parts[i] == "exercises");
        let kind = if exercises {
            TextKind::Exercises
        } else if file == "topics.ron" {
            TextKind::Topics
        } else {
            TextKind::Cards
        };
        TextSource {
            path: path.to_string(),
            text: text.to_string(),
            folder,
            kind,
        }
    }
}

/// A topic's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicText {
    /// Display name.
    pub name: Option<String>,
    /// What it covers.
    pub description: Option<String>,
    /// The analogy, retold.
    pub analogy: Option<String>,
}

/// A card's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardText {
    /// The question side.
    pub front: Option<String>,
    /// The answer side.
    pub back: Option<String>,
}

/// An exercise's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExerciseText {
    /// Title.
    pub title: Option<String>,
    /// The question.
    pub prompt: Option<String>,
    /// The hints, in the English order.
    pub hints: Option<Vec<String>>,
    /// The worked explanation.
    pub explanation: Option<String>,
    /// The answer's texts.
    pub answer: Option<AnswerText>,
    /// The declared mistakes' texts, in the English order.
    pub mistakes: Option<Vec<MistakeText>>,
}

/// A lesson's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonText {
    /// Title.
    pub title: Option<String>,
    /// The pages, in the English order.
    pub steps: Option<Vec<StepText>>,
}

/// A lesson page's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepText {
    /// The heading.
    pub title: Option<String>,
    /// The prose, with the English placeholders.
    pub text: Option<String>,
    /// The controls' labels, in the English order.
    pub labels: Option<Vec<String>>,
    /// The faded example's texts (as an exercise's).
    pub exercise: Option<ExerciseText>,
}

/// A declared mistake's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MistakeText {
    /// The misconception as feedback names it.
    pub name: Option<String>,
    /// What to rethink.
    pub feedback: Option<String>,
}

/// The texts of an answer (each only where the English answer has it).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerText {
    /// `Count("…")`: the counted word in this language.
    pub unit: Option<String>,
    /// `Choice`: the option texts, in order.
    pub options: Option<Vec<String>>,
    /// `Choice`: the options' own feedback, by letter (`{"b": "…"}`), for the options that have
    /// one in English.
    pub feedback: Option<BTreeMap<String, String>>,
    /// `Ordering`: the item texts (and more aliases), in order.
    pub items: Option<Vec<ItemText>>,
    /// `Ordering`: what the order is by.
    pub by: Option<String>,
    /// `Text`: more accepted answers in this language.
    pub accepted: Option<Vec<String>>,
    /// `Explain`: the ideas, in order.
    pub ideas: Option<Vec<IdeaText>>,
    /// `Explain`: the model answer.
    pub model: Option<String>,
    /// `Explain`: its exact parts, in order.
    pub checks: Option<Vec<CheckText>>,
}

/// An ordering item's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemText {
    /// The item as shown.
    pub text: Option<String>,
    /// More names a learner may type (added to the English ones).
    #[serde(default)]
    pub aliases: Vec<String>,
}

/// An idea's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdeaText {
    /// The idea as feedback names it.
    pub name: Option<String>,
    /// Keywords in this language (added to the English ones).
    #[serde(default)]
    pub any_of: Vec<String>,
    /// Contradicting phrases in this language (added to the English ones).
    #[serde(default)]
    pub not_with: Vec<String>,
}

/// An exact part's texts.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckText {
    /// The question.
    pub prompt: Option<String>,
    /// A `Choice` part: its option texts.
    pub options: Option<Vec<String>>,
    /// A `Number` part counted in `Count("…")`: the word in this language.
    pub unit: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "TopicTexts")]
struct TopicFile<'a> {
    #[serde(borrow)]
    topics: BTreeMap<String, &'a ron::value::RawValue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "CardTexts")]
struct CardFile<'a> {
    #[serde(borrow)]
    cards: BTreeMap<String, &'a ron::value::RawValue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "LessonTexts")]
struct LessonFile<'a> {
    #[serde(borrow)]
    lessons: BTreeMap<String, &'a ron::value::RawValue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "ExerciseTexts")]
struct ExerciseFile<'a> {
    #[serde(borrow)]
    exercises: BTreeMap<String, &'a ron::value::RawValue>,
}

/// One translated item and where it was written.
#[derive(Debug, Clone)]
pub struct Entry<T> {
    /// The texts.
    pub texts: T,
    /// The file.
    pub file: String,
    /// The file's text (to locate a mistake).
    source: Arc<str>,
    /// Byte offset of the item in the file.
    start: usize,
    /// Byte length of the item.
    len: usize,
}

impl<T> Entry<T> {
    /// A diagnostic at the first place in the item where `text` is written as a string (else at
    /// `field:`, else at the item).
    fn at(&self, text: Option<&str>, field: &str, message: String) -> Diagnostic {
        let item = &self.source[self.start..self.start + self.len];
        let literal = text.map(|t| {
            format!(
                "\"{}\"",
                t.replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace('\n', "\\n")
            )
        });
        let offset = literal
            .and_then(|l| item.find(&l))
            .or_else(|| find_field(item, field))
            .unwrap_or(0);
        let (line, column) = line_column(&self.source, self.start + offset);
        Diagnostic {
            file: self.file.clone(),
            line,
            column,
            message,
        }
    }
}

/// Byte offset of `field:` (a whole word) in `text`.
fn find_field(text: &str, field: &str) -> Option<usize> {
    if field.is_empty() {
        return None;
    }
    text.match_indices(field).map(|(i, _)| i).find(|&i| {
        let before_ok = !text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let after = text[i + field.len()..].trim_start();
        before_ok && after.starts_with(':')
    })
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// The translated items of one language, by id.
#[derive(Debug, Clone, Default)]
pub struct LangTexts {
    /// Topics.
    pub topics: BTreeMap<String, Entry<TopicText>>,
    /// Cards.
    pub cards: BTreeMap<String, Entry<CardText>>,
    /// Exercises.
    pub exercises: BTreeMap<String, Entry<ExerciseText>>,
    /// Lessons.
    pub lessons: BTreeMap<String, Entry<LessonText>>,
    /// Files read.
    pub files: usize,
    /// Files and items that could not be read (each skipped).
    pub problems: Vec<Diagnostic>,
}

/// Every language's translations as read, before they are checked against the English.
#[derive(Debug, Clone, Default)]
pub struct Translations {
    /// By language (never English: the English is the content itself).
    pub langs: BTreeMap<Lang, LangTexts>,
    /// Files in no language folder warpdrill knows (`content/i18n/fr/…`).
    pub problems: Vec<Diagnostic>,
}

impl Translations {
    /// Adds `other`'s items, replacing those with the same id (a `--content` folder over the
    /// built-in translations).
    pub fn merge(&mut self, other: Translations) {
        for (lang, texts) in other.langs {
            let mine = self.langs.entry(lang).or_default();
            mine.topics.extend(texts.topics);
            mine.cards.extend(texts.cards);
            mine.exercises.extend(texts.exercises);
            mine.lessons.extend(texts.lessons);
            mine.files += texts.files;
            mine.problems.extend(texts.problems);
        }
        self.problems.extend(other.problems);
    }

    /// The texts of `lang` (empty for English or a language with no files).
    pub fn get(&self, lang: Lang) -> Option<&LangTexts> {
        self.langs.get(&lang)
    }
}

/// The translation folders as a sentence names them: `` `i18n/hi-Latn/` or `i18n/ko/` ``.
fn translation_folders(before: &str, after: &str) -> String {
    let folders: Vec<String> = Lang::ALL
        .iter()
        .filter(|&&l| l != Lang::En)
        .map(|l| format!("`{before}{}{after}`", l.code()))
        .collect();
    match folders.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Parses translation files. A file that does not read is skipped whole; an item that does not read
/// (an unknown field, a number where a text belongs) is skipped alone; both are reported.
pub fn load(sources: Vec<TextSource>) -> Translations {
    let mut translations = Translations::default();
    for source in sources {
        let lang = match source.folder.parse::<Lang>() {
            Ok(lang) if lang != Lang::En && source.folder == lang.code() => lang,
            Ok(Lang::En) => {
                translations.problems.push(Diagnostic {
                    file: source.path.clone(),
                    line: 1,
                    column: 1,
                    message: format!(
                        "English is the content itself: translations live in {} (the file was skipped)",
                        translation_folders("i18n/", "/")
                    ),
                });
                continue;
            }
            Ok(lang) => {
                translations.problems.push(Diagnostic {
                    file: source.path.clone(),
                    line: 1,
                    column: 1,
                    message: format!(
                        "the language folder is `{}`; name it `{}` (the file was skipped)",
                        source.folder,
                        lang.code()
                    ),
                });
                continue;
            }
            Err(_) => {
                translations.problems.push(Diagnostic {
                    file: source.path.clone(),
                    line: 1,
                    column: 1,
                    message: format!(
                        "`{}` is not a language of warpdrill; translation folders are {} (the file was skipped)",
                        source.folder,
                        translation_folders("", "")
                    ),
                });
                continue;
            }
        };
        let texts = translations.langs.entry(lang).or_default();
        texts.files += 1;
        read_file(&source, texts);
    }
    translations
}

fn read_file(source: &TextSource, texts: &mut LangTexts) {
    let shared: Arc<str> = Arc::from(source.text.as_str());
    let text: &str = &shared;
    let outer = ron::Options::default();
    let items = match source.kind {
        TextKind::Topics => outer.from_str::<TopicFile<'_>>(text).map(|f| f.topics),
        TextKind::Cards => outer.from_str::<CardFile<'_>>(text).map(|f| f.cards),
        TextKind::Exercises => outer
            .from_str::<ExerciseFile<'_>>(text)
            .map(|f| f.exercises),
        TextKind::Lessons => outer.from_str::<LessonFile<'_>>(text).map(|f| f.lessons),
    };
    let items = match items {
        Ok(items) => items,
        Err(e) => {
            let expected = match source.kind {
                TextKind::Topics => "TopicTexts(topics: { \"id\": (name: …), … })",
                TextKind::Cards => "CardTexts(cards: { \"id\": (front: …, back: …), … })",
                TextKind::Exercises => "ExerciseTexts(exercises: { \"id\": (title: …), … })",
                TextKind::Lessons => "LessonTexts(lessons: { \"id\": (title: …, steps: […]), … })",
            };
            texts.problems.push(Diagnostic {
                file: source.path.clone(),
                line: e.span.start.line.max(1),
                column: e.span.start.col.max(1),
                message: format!(
                    "{} — this file is read as {expected} (the whole file was skipped)",
                    e.code
                ),
            });
            return;
        }
    };
    for (id, raw) in items {
        let item = raw.get_ron();
        let start = item.as_ptr() as usize - text.as_ptr() as usize;
        let place = |e: ron::error::SpannedError, what: &str| {
            let (item_line, item_column) = line_column(text, start);
            let line = e.span.start.line.max(1);
            let column = e.span.start.col.max(1);
            let (line, column) = if line == 1 {
                (item_line, item_column + column - 1)
            } else {
                (item_line + line - 1, column)
            };
            Diagnostic {
                file: source.path.clone(),
                line,
                column,
                message: format!(
                    "{what} `{id}`: {} — see CONTENT.md, \"Translations\" (the item was skipped)",
                    e.code
                ),
            }
        };
        fn parse<T: DeserializeOwned>(item: &str) -> Result<T, ron::error::SpannedError> {
            ron::Options::default()
                .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
                .from_str::<T>(item)
        }
        let entry = Place {
            file: &source.path,
            source: &shared,
            start,
            len: item.len(),
        };
        match source.kind {
            TextKind::Topics => match parse::<TopicText>(item) {
                Ok(t) => {
                    texts.topics.insert(id, entry.with(t));
                }
                Err(e) => texts.problems.push(place(e, "topic")),
            },
            TextKind::Cards => match parse::<CardText>(item) {
                Ok(t) => {
                    texts.cards.insert(id, entry.with(t));
                }
                Err(e) => texts.problems.push(place(e, "card")),
            },
            TextKind::Exercises => match parse::<ExerciseText>(item) {
                Ok(t) => {
                    texts.exercises.insert(id, entry.with(t));
                }
                Err(e) => texts.problems.push(place(e, "exercise")),
            },
            TextKind::Lessons => match parse::<LessonText>(item) {
                Ok(t) => {
                    texts.lessons.insert(id, entry.with(t));
                }
                Err(e) => texts.problems.push(place(e, "lesson")),
            },
        }
    }
}

/// Where an item was read.
struct Place<'a> {
    file: &'a str,
    source: &'a Arc<str>,
    start: usize,
    len: usize,
}

impl Place<'_> {
    fn with<T>(&self, texts: T) -> Entry<T> {
        Entry {
            texts,
            file: self.file.to_string(),
            source: self.source.clone(),
            start: self.start,
            len: self.len,
        }
    }
}

/// Reads the translations of a content folder: `DIR/content/i18n/<lang>/*.ron` and
/// `DIR/exercises/i18n/<lang>/*.ron`. An entry that cannot be read is reported and skipped.
pub fn dir_sources(dir: &Path) -> (Vec<TextSource>, Vec<Diagnostic>) {
    let mut sources = Vec::new();
    let mut problems = Vec::new();
    for top in ["content", "exercises"] {
        let i18n = dir.join(top).join("i18n");
        let Ok(langs) = std::fs::read_dir(&i18n) else {
            continue;
        };
        let mut langs: Vec<_> = langs.filter_map(|e| e.ok().map(|e| e.path())).collect();
        langs.sort();
        for lang in langs.into_iter().filter(|p| p.is_dir()) {
            let Ok(files) = std::fs::read_dir(&lang) else {
                continue;
            };
            let mut files: Vec<_> = files
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "ron"))
                .collect();
            if let Ok(lessons) = std::fs::read_dir(lang.join("lessons")) {
                files.extend(
                    lessons
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.extension().is_some_and(|e| e == "ron")),
                );
            }
            files.sort();
            for file in files {
                let path = file.display().to_string();
                match super::read_source(&file) {
                    Ok(text) => sources.push(TextSource::new(&path, &text)),
                    Err(message) => problems.push(Diagnostic {
                        file: path,
                        line: 1,
                        column: 1,
                        message,
                    }),
                }
            }
        }
    }
    (sources, problems)
}

/// The embedded translations, read once.
pub fn builtin() -> Arc<Translations> {
    static BUILTIN: std::sync::OnceLock<Arc<Translations>> = std::sync::OnceLock::new();
    BUILTIN
        .get_or_init(|| Arc::new(load(super::builtin::i18n_sources())))
        .clone()
}

/// The `{…}` placeholders of a text as written, whitespace removed (`{sectors * 32}` →
/// `sectors*32`); `{{` and `}}` are literal braces. An unmatched brace is an error.
pub fn placeholders(text: &str) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(['{', '}']) {
        let brace = &rest[open..];
        if brace.starts_with("{{") || brace.starts_with("}}") {
            rest = &brace[2..];
            continue;
        }
        if brace.starts_with('}') {
            return Err("a `}` without its `{` (write `}}` for a literal brace)".into());
        }
        let Some(close) = brace.find('}') else {
            return Err("a `{` without its `}` (write `{{` for a literal brace)".into());
        };
        found.push(brace[1..close].split_whitespace().collect::<String>());
        rest = &brace[close + 1..];
    }
    Ok(found)
}

/// Why `translated` cannot stand for `english`: a blank text, a broken brace, a placeholder the
/// English does not have (a number typed by hand, or a changed expression), or one it leaves out.
pub fn placeholder_mismatch(english: &str, translated: &str) -> Option<String> {
    if translated.trim().is_empty() {
        return Some("the translation is empty".into());
    }
    let mine = match placeholders(translated) {
        Ok(found) => found,
        Err(message) => return Some(message),
    };
    let theirs: BTreeSet<String> = placeholders(english)
        .unwrap_or_default()
        .into_iter()
        .collect();
    let mine_set: BTreeSet<String> = mine.iter().cloned().collect();
    let extra: Vec<String> = mine_set
        .difference(&theirs)
        .map(|p| format!("{{{p}}}"))
        .collect();
    let missing: Vec<String> = theirs
        .difference(&mine_set)
        .map(|p| format!("{{{p}}}"))
        .collect();
    let english_list = || {
        if theirs.is_empty() {
            "none".to_string()
        } else {
            theirs
                .iter()
                .map(|p| format!("{{{p}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    match (extra.is_empty(), missing.is_empty()) {
        (true, true) => None,
        (false, true) => Some(format!(
            "placeholder {} is not one of the English text's ({}) — a translation never types its own numbers or expressions",
            extra.join(", "),
            english_list()
        )),
        (true, false) => Some(format!(
            "the English placeholder {} is missing — every number of the English text must appear",
            missing.join(", ")
        )),
        (false, false) => Some(format!(
            "placeholders differ from the English: {} is not in the English, {} is missing",
            extra.join(", "),
            missing.join(", ")
        )),
    }
}

/// What an item is, for [`Content::fallbacks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    /// A topic.
    Topic,
    /// A flashcard.
    Card,
    /// An exercise template.
    Exercise,
    /// A lesson.
    Lesson,
}

impl ItemKind {
    /// `topics`, `cards`, `exercises`.
    pub fn plural(self) -> &'static str {
        match self {
            ItemKind::Topic => "topics",
            ItemKind::Card => "cards",
            ItemKind::Exercise => "exercises",
            ItemKind::Lesson => "lessons",
        }
    }
}

/// Items translated out of all, for one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Count {
    /// Items with every text in the language.
    pub translated: usize,
    /// Items of the English content.
    pub total: usize,
}

impl Count {
    /// The translated share in percent (100 when there is nothing to translate).
    pub fn percent(self) -> f64 {
        if self.total == 0 {
            100.0
        } else {
            100.0 * self.translated as f64 / self.total as f64
        }
    }
}

/// How much of the content a language covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Coverage {
    /// Topics.
    pub topics: Count,
    /// Cards.
    pub cards: Count,
    /// Exercises.
    pub exercises: Count,
    /// Lessons.
    pub lessons: Count,
}

impl Coverage {
    /// Every kind together.
    pub fn overall(self) -> Count {
        Count {
            translated: self.topics.translated
                + self.cards.translated
                + self.exercises.translated
                + self.lessons.translated,
            total: self.topics.total + self.cards.total + self.exercises.total + self.lessons.total,
        }
    }
}

/// Builds a translated copy, recording per item which texts fell back to English, and the
/// mismatches found.
struct Builder<'a, T> {
    entry: Option<&'a Entry<T>>,
    english_only: Vec<String>,
    problems: &'a mut Vec<Diagnostic>,
    what: String,
}

impl<T> Builder<'_, T> {
    /// The text for `field`: the translation when it is there and fits the English, else the
    /// English (recorded).
    fn text(&mut self, field: &str, english: &str, translated: Option<&String>) -> String {
        let Some(translated) = translated else {
            self.english_only.push(field.to_string());
            return english.to_string();
        };
        if let Some(why) = placeholder_mismatch(english, translated) {
            self.report(Some(translated), key_of(field), format!("{field}: {why}"));
            self.english_only.push(field.to_string());
            return english.to_string();
        }
        translated.clone()
    }

    /// A list that must have the English length: `None` (recorded as English) when it is missing
    /// or has another length.
    fn list<'l, U>(
        &mut self,
        field: &str,
        english_len: usize,
        translated: Option<&'l Vec<U>>,
    ) -> Option<&'l Vec<U>> {
        let list = translated?;
        if list.len() != english_len {
            self.report(
                None,
                field,
                format!(
                    "{field}: {} in the translation, {english_len} in the English — lists follow the English one for one, in order",
                    list.len()
                ),
            );
            return None;
        }
        Some(list)
    }

    /// A field the English does not have.
    fn refuse(&mut self, field: &str, why: &str) {
        self.report(None, field, format!("{field}: {why} (ignored)"));
    }

    fn report(&mut self, text: Option<&String>, field: &str, message: String) {
        if let Some(entry) = self.entry {
            self.problems.push(entry.at(
                text.map(String::as_str),
                field,
                format!("{} — {message}", self.what),
            ));
        }
    }
}

/// `hint 2` → `hints`, `item 1 text` → `items`: the RON field a text is written under.
fn key_of(field: &str) -> &str {
    match field.split_whitespace().next().unwrap_or(field) {
        "hint" => "hints",
        "option" => "options",
        "item" => "items",
        "idea" => "ideas",
        "check" => "checks",
        "mistake" => "mistakes",
        "step" => "steps",
        other => other,
    }
}

/// The content of `english` in `lang`: every text translated where the translation has it and it
/// fits the English, else English, recorded in [`Content::fallbacks`]. Also returns the
/// mismatches found (each skipped), and the translations naming no English item.
pub fn localize(
    english: &Content,
    lang: Lang,
    texts: Option<&LangTexts>,
) -> (Content, Vec<Diagnostic>) {
    let mut out = english.clone();
    out.lang = lang;
    out.fallbacks = BTreeMap::new();
    let mut problems = Vec::new();
    if lang == Lang::En {
        return (out, problems);
    }
    let empty = LangTexts::default();
    let texts = texts.unwrap_or(&empty);
    let mut fallbacks = BTreeMap::new();
    let topics = Kind::new(
        ItemKind::Topic,
        &texts.topics,
        &mut problems,
        &mut fallbacks,
    );
    topics.localize(
        &mut out.topics,
        |t| &t.id,
        |topic, b, t| {
            topic.name = b.text("name", &topic.name, t.name.as_ref());
            topic.description = b.text("description", &topic.description, t.description.as_ref());
            topic.analogy = b.text("analogy", &topic.analogy, t.analogy.as_ref());
        },
    );
    let cards = Kind::new(ItemKind::Card, &texts.cards, &mut problems, &mut fallbacks);
    cards.localize(
        &mut out.cards,
        |c| &c.id,
        |card, b, t| {
            card.front = b.text("front", &card.front, t.front.as_ref());
            card.back = b.text("back", &card.back, t.back.as_ref());
        },
    );
    let exercises = Kind::new(
        ItemKind::Exercise,
        &texts.exercises,
        &mut problems,
        &mut fallbacks,
    );
    exercises.localize(&mut out.exercises, |e| &e.id, localize_exercise);
    let lessons = Kind::new(
        ItemKind::Lesson,
        &texts.lessons,
        &mut problems,
        &mut fallbacks,
    );
    lessons.localize(&mut out.lessons, |l| &l.id, localize_lesson);
    out.fallbacks = fallbacks;
    problems.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    (out, problems)
}

/// One kind of item being translated: its translations by id, where problems and English-only
/// fields go.
struct Kind<'a, T> {
    kind: ItemKind,
    texts: &'a BTreeMap<String, Entry<T>>,
    problems: &'a mut Vec<Diagnostic>,
    fallbacks: &'a mut BTreeMap<(ItemKind, String), Vec<String>>,
}

impl<'a, T> Kind<'a, T> {
    fn new(
        kind: ItemKind,
        texts: &'a BTreeMap<String, Entry<T>>,
        problems: &'a mut Vec<Diagnostic>,
        fallbacks: &'a mut BTreeMap<(ItemKind, String), Vec<String>>,
    ) -> Self {
        Kind {
            kind,
            texts,
            problems,
            fallbacks,
        }
    }

    /// Translates each item with `fill` (which sets its fields through the [`Builder`]), records
    /// what stays English (`all` for an item with no translation), and reports translations whose
    /// id names no English item.
    fn localize<I>(
        self,
        items: &mut [I],
        id: impl Fn(&I) -> &String,
        fill: impl Fn(&mut I, &mut Builder<'_, T>, &T),
    ) {
        let singular = match self.kind {
            ItemKind::Topic => "topic",
            ItemKind::Card => "card",
            ItemKind::Exercise => "exercise",
            ItemKind::Lesson => "lesson",
        };
        for item in items.iter_mut() {
            let key = id(item).clone();
            let english_only = match self.texts.get(&key) {
                None => vec!["all".into()],
                Some(entry) => {
                    let mut b = Builder {
                        entry: Some(entry),
                        english_only: Vec::new(),
                        problems: &mut *self.problems,
                        what: format!("{singular} `{key}`"),
                    };
                    fill(item, &mut b, &entry.texts);
                    b.english_only
                }
            };
            if !english_only.is_empty() {
                self.fallbacks.insert((self.kind, key), english_only);
            }
        }
        for (key, entry) in self.texts {
            if !items.iter().any(|item| id(item) == key) {
                self.problems.push(entry.at(
                    None,
                    "",
                    format!(
                        "{singular} `{key}`: there is no {singular} with this id in the English content (the translation was skipped)"
                    ),
                ));
            }
        }
    }
}

fn localize_lesson(lesson: &mut Lesson, b: &mut Builder<'_, LessonText>, t: &LessonText) {
    lesson.title = b.text("title", &lesson.title, t.title.as_ref());
    let Some(steps) = b.list("steps", lesson.steps.len(), t.steps.as_ref()) else {
        b.english_only.push("steps".into());
        return;
    };
    for (i, (step, texts)) in lesson.steps.iter_mut().zip(steps).enumerate() {
        let page = i + 1;
        step.title = b.text(
            &format!("step {page} title"),
            &step.title,
            texts.title.as_ref(),
        );
        if !step.text.is_empty() || texts.text.is_some() {
            step.text = b.text(
                &format!("step {page} text"),
                &step.text,
                texts.text.as_ref(),
            );
        }
        if !step.controls.is_empty() || texts.labels.is_some() {
            let field = format!("step {page} labels");
            match b.list(&field, step.controls.len(), texts.labels.as_ref()) {
                Some(labels) => {
                    for (control, label) in step.controls.iter_mut().zip(labels) {
                        control.label = label.trim().to_string();
                    }
                }
                None => b.english_only.push(field),
            }
        }
        match (&mut step.exercise, &texts.exercise) {
            (Some(exercise), Some(translated)) => {
                let before = b.english_only.len();
                localize_exercise(exercise, b, translated);
                for field in &mut b.english_only[before..] {
                    *field = format!("step {page} {field}");
                }
            }
            (Some(_), None) => b.english_only.push(format!("step {page} exercise")),
            (None, Some(_)) => b.refuse(
                &format!("step {page} exercise"),
                "the English page has no exercise",
            ),
            (None, None) => {}
        }
    }
}

fn localize_exercise<T>(exercise: &mut ExerciseTemplate, b: &mut Builder<'_, T>, t: &ExerciseText) {
    exercise.title = b.text("title", &exercise.title, t.title.as_ref());
    exercise.prompt = b.text("prompt", &exercise.prompt, t.prompt.as_ref());
    match b.list("hints", exercise.hints.len(), t.hints.as_ref()) {
        Some(hints) => {
            for (i, (hint, translated)) in exercise.hints.iter_mut().zip(hints).enumerate() {
                *hint = b.text(&format!("hint {}", i + 1), hint, Some(translated));
            }
        }
        None => b.english_only.push("hints".into()),
    }
    exercise.explanation = b.text("explanation", &exercise.explanation, t.explanation.as_ref());
    let empty = AnswerText::default();
    let answer = t.answer.as_ref().unwrap_or(&empty);
    localize_answer(&mut exercise.answer, answer, b, "");
    if !exercise.mistakes.is_empty() || t.mistakes.is_some() {
        match b.list("mistakes", exercise.mistakes.len(), t.mistakes.as_ref()) {
            Some(texts) => {
                for (i, (mistake, translated)) in
                    exercise.mistakes.iter_mut().zip(texts).enumerate()
                {
                    mistake.name = b.text(
                        &format!("mistake {} name", i + 1),
                        &mistake.name,
                        translated.name.as_ref(),
                    );
                    mistake.feedback = b.text(
                        &format!("mistake {} feedback", i + 1),
                        &mistake.feedback,
                        translated.feedback.as_ref(),
                    );
                }
            }
            None => b.english_only.push("mistakes".into()),
        }
    }
}

/// `a`, `b`, … for option 0, 1, …
fn letter(index: usize) -> char {
    (b'a' + (index % 26) as u8) as char
}

/// A count word in two languages: the translation shown, the English accepted too.
fn count_in(word: &mut CountWord, translated: &str) {
    let english = std::mem::take(&mut word.word);
    word.also = vec![english];
    word.word = translated.trim().to_string();
}

fn localize_answer<T>(spec: &mut AnswerSpec, t: &AnswerText, b: &mut Builder<'_, T>, prefix: &str) {
    let kind = match spec {
        AnswerSpec::Number { .. } => "a Number",
        AnswerSpec::Choice { .. } => "a Choice",
        AnswerSpec::Ordering { .. } => "an Ordering",
        AnswerSpec::Text { .. } => "a Text",
        AnswerSpec::Explain { .. } => "an Explain",
    };
    let not_here = |b: &mut Builder<'_, T>, present: bool, field: &str| {
        if present {
            b.refuse(
                &format!("{prefix}{field}"),
                &format!("the English answer is {kind}, which has no `{field}`"),
            );
        }
    };
    match spec {
        AnswerSpec::Number { unit, .. } => {
            match (unit, &t.unit) {
                (Unit::Count(word), Some(translated)) if !translated.trim().is_empty() => {
                    count_in(word, translated);
                }
                (Unit::Count(_), Some(_)) => b.refuse(&format!("{prefix}unit"), "the word is empty"),
                (_, Some(_)) => b.refuse(
                    &format!("{prefix}unit"),
                    "only a Count(\"…\") unit has a word to translate; the other units are read in every language",
                ),
                _ => {}
            }
            not_here(b, t.options.is_some(), "options");
            not_here(b, t.feedback.is_some(), "feedback");
            not_here(b, t.items.is_some(), "items");
            not_here(b, t.by.is_some(), "by");
            not_here(b, t.accepted.is_some(), "accepted");
            not_here(b, t.ideas.is_some(), "ideas");
            not_here(b, t.model.is_some(), "model");
            not_here(b, t.checks.is_some(), "checks");
        }
        AnswerSpec::Choice { options, .. } => {
            let field = format!("{prefix}options");
            match b.list(&field, options.len(), t.options.as_ref()) {
                Some(texts) => {
                    for (i, (option, translated)) in options.iter_mut().zip(texts).enumerate() {
                        let english = option.text.clone();
                        option.text = b.text(
                            &format!("{prefix}option {}", letter(i)),
                            &english,
                            Some(translated),
                        );
                        if option.text != english {
                            option.also = Some(english);
                        }
                    }
                }
                None => b.english_only.push(field),
            }
            let translated = t.feedback.clone().unwrap_or_default();
            for (i, option) in options.iter_mut().enumerate() {
                let key = letter(i).to_string();
                match &mut option.feedback {
                    Some(feedback) => {
                        *feedback = b.text(
                            &format!("{prefix}option {key} feedback"),
                            feedback,
                            translated.get(&key),
                        );
                    }
                    None if translated.contains_key(&key) => b.refuse(
                        &format!("{prefix}feedback"),
                        &format!("option {key} has no feedback in English"),
                    ),
                    None => {}
                }
            }
            for key in translated.keys() {
                if !(0..options.len()).any(|i| letter(i).to_string() == *key) {
                    b.refuse(
                        &format!("{prefix}feedback"),
                        &format!("`{key}` is not the letter of an option"),
                    );
                }
            }
            not_here(b, t.unit.is_some(), "unit");
            not_here(b, t.items.is_some(), "items");
            not_here(b, t.by.is_some(), "by");
            not_here(b, t.accepted.is_some(), "accepted");
            not_here(b, t.ideas.is_some(), "ideas");
            not_here(b, t.model.is_some(), "model");
            not_here(b, t.checks.is_some(), "checks");
        }
        AnswerSpec::Ordering { items, by, .. } => {
            match b.list("items", items.len(), t.items.as_ref()) {
                Some(texts) => {
                    for (i, (item, translated)) in items.iter_mut().zip(texts).enumerate() {
                        let english = item.text.clone();
                        item.text = b.text(
                            &format!("item {}", i + 1),
                            &english,
                            translated.text.as_ref(),
                        );
                        if item.text != english {
                            item.also = Some(english);
                        }
                        let mut aliases = translated.aliases.clone();
                        aliases.append(&mut item.aliases);
                        item.aliases = aliases;
                    }
                }
                None => b.english_only.push("items".into()),
            }
            match by {
                Some(by) => *by = b.text("by", by, t.by.as_ref()),
                None => not_here(b, t.by.is_some(), "by"),
            }
            not_here(b, t.unit.is_some(), "unit");
            not_here(b, t.options.is_some(), "options");
            not_here(b, t.feedback.is_some(), "feedback");
            not_here(b, t.accepted.is_some(), "accepted");
            not_here(b, t.ideas.is_some(), "ideas");
            not_here(b, t.model.is_some(), "model");
            not_here(b, t.checks.is_some(), "checks");
        }
        AnswerSpec::Text { accepted, .. } => {
            if let Some(more) = &t.accepted {
                let mut all: Vec<String> = more
                    .iter()
                    .filter(|a| !a.trim().is_empty())
                    .cloned()
                    .collect();
                all.append(accepted);
                *accepted = all;
            }
            not_here(b, t.unit.is_some(), "unit");
            not_here(b, t.options.is_some(), "options");
            not_here(b, t.feedback.is_some(), "feedback");
            not_here(b, t.items.is_some(), "items");
            not_here(b, t.by.is_some(), "by");
            not_here(b, t.ideas.is_some(), "ideas");
            not_here(b, t.model.is_some(), "model");
            not_here(b, t.checks.is_some(), "checks");
        }
        AnswerSpec::Explain {
            ideas,
            model,
            checks,
            ..
        } => {
            match b.list("ideas", ideas.len(), t.ideas.as_ref()) {
                Some(texts) => {
                    for (i, (idea, translated)) in ideas.iter_mut().zip(texts).enumerate() {
                        localize_idea(idea, translated, b, i);
                    }
                }
                None => b.english_only.push("ideas".into()),
            }
            *model = b.text("model", model, t.model.as_ref());
            if checks.is_empty() {
                not_here(b, t.checks.is_some(), "checks");
            } else {
                match b.list("checks", checks.len(), t.checks.as_ref()) {
                    Some(texts) => {
                        for (i, (check, translated)) in checks.iter_mut().zip(texts).enumerate() {
                            let prefix = format!("check {} ", i + 1);
                            check.prompt = b.text(
                                &format!("{prefix}prompt"),
                                &check.prompt,
                                translated.prompt.as_ref(),
                            );
                            let answer = AnswerText {
                                unit: translated.unit.clone(),
                                options: translated.options.clone(),
                                ..AnswerText::default()
                            };
                            localize_answer(&mut check.answer, &answer, b, &prefix);
                        }
                    }
                    None => b.english_only.push("checks".into()),
                }
            }
            not_here(b, t.unit.is_some(), "unit");
            not_here(b, t.options.is_some(), "options");
            not_here(b, t.feedback.is_some(), "feedback");
            not_here(b, t.items.is_some(), "items");
            not_here(b, t.by.is_some(), "by");
            not_here(b, t.accepted.is_some(), "accepted");
        }
    }
}

fn localize_idea<T>(idea: &mut Idea, t: &IdeaText, b: &mut Builder<'_, T>, index: usize) {
    idea.name = b.text(&format!("idea {}", index + 1), &idea.name, t.name.as_ref());
    let keep = |words: &[String]| -> Vec<String> {
        words
            .iter()
            .filter(|w| !w.trim().is_empty())
            .cloned()
            .collect()
    };
    let mut any_of = keep(&t.any_of);
    any_of.append(&mut idea.any_of);
    idea.any_of = any_of;
    let mut not_with = keep(&t.not_with);
    not_with.append(&mut idea.not_with);
    idea.not_with = not_with;
}

/// How much of `english` the translations of `lang` cover, and every mismatch.
pub fn coverage(english: &Content, lang: Lang) -> (Coverage, Vec<Diagnostic>) {
    let translated = english.in_lang(lang);
    let (_, problems) = localize(english.english(), lang, english.translations.get(lang));
    let count = |kind: ItemKind, total: usize| Count {
        translated: total
            - translated
                .fallbacks
                .keys()
                .filter(|(k, _)| *k == kind)
                .count(),
        total,
    };
    let coverage = Coverage {
        topics: count(ItemKind::Topic, english.topics.len()),
        cards: count(ItemKind::Card, english.cards.len()),
        exercises: count(ItemKind::Exercise, english.exercises.len()),
        lessons: count(ItemKind::Lesson, english.lessons.len()),
    };
    (coverage, problems)
}
