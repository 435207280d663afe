//! `warpdrill content check|preview` and `warpdrill check`: the author's and grader's tools.

use super::CheckArgs;
use crate::content::schema::Level;
use crate::content::{self, Content};
use crate::i18n::Lang;
use crate::ladder::{self, Outcome, Response};
use crate::t;
use crate::text;
use serde_json::json;
use std::fmt::Write as _;
use std::path::Path;

/// The built-in content plus `--content DIR`, with a warning on stderr naming the first problems;
/// or, when the directory cannot be read at all, the exit status after saying why.
pub fn load(dir: Option<&Path>) -> Result<Content, std::process::ExitCode> {
    load_in(dir, Lang::En)
}

/// [`load`], its messages in `lang`.
pub fn load_in(dir: Option<&Path>, lang: Lang) -> Result<Content, std::process::ExitCode> {
    let content = ladder::check::with_dir(dir).map_err(|e| {
        super::output::stderr(&format!(
            "{}\n",
            t!(
                lang,
                "cli-error",
                message = crate::format::printable(&e.to_string()).into_owned()
            )
        ));
        std::process::ExitCode::from(2)
    })?;
    if !content.problems.is_empty() {
        let mut warning = format!(
            "{}\n",
            t!(
                lang,
                "cli-warning",
                message = t!(lang, "cli-content-problems", n = content.problems.len())
            )
        );
        for problem in content.problems.iter().take(5) {
            let _ = writeln!(
                warning,
                "  {}",
                crate::format::printable(&problem.to_string())
            );
        }
        super::output::stderr(&warning);
    }
    Ok(content)
}

/// Text to print and the exit status.
pub struct Report {
    /// What to print on stdout.
    pub stdout: String,
    /// What to print on stderr.
    pub stderr: String,
    /// Exit status.
    pub code: u8,
}

impl Report {
    /// Prints the report, every character from content made safe for the terminal
    /// ([`crate::format::printable`]), and gives the exit status.
    pub fn print(&self) -> std::process::ExitCode {
        super::output::finish(
            &crate::format::printable(&self.stdout),
            &crate::format::printable(&self.stderr),
            self.code,
        )
    }
}

/// `content check [DIR] [--json]`: structure, every variant, and the template linter; exit 1 if any
/// problem or linter error (linter warnings are listed and do not fail).
pub fn check(dir: Option<&Path>, as_json: bool) -> Report {
    check_in(dir, as_json, Lang::En)
}

/// [`check`], its summary in `lang` (the problems themselves, and the JSON, stay as they are).
pub fn check_in(dir: Option<&Path>, as_json: bool, lang: Lang) -> Report {
    let loaded = match dir {
        None => Ok((ladder::check::builtin(), content::builtin::sources())),
        Some(dir) => content::load_dir_over(
            dir,
            &Content::builtin().topics,
            &Content::builtin().exercises,
            Some(ladder::check::check_variants),
        )
        .and_then(|loaded| Ok((loaded, content::dir_sources(dir)?.files))),
    };
    let (loaded, sources) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            let dir = dir.unwrap_or(Path::new("."));
            return Report {
                stdout: if as_json {
                    json!({"ok": false, "errors": [{"file": dir.display().to_string(), "line": 0, "column": 0, "message": e.to_string()}], "warnings": []}).to_string() + "\n"
                } else {
                    String::new()
                },
                stderr: if as_json {
                    String::new()
                } else {
                    format!("{}\n", t!(lang, "cli-error", message = e.to_string()))
                },
                code: 1,
            };
        }
    };
    // The template linter: errors fail the check, warnings are listed.
    let mut linted = ladder::check::lint_sources(&sources, &loaded);
    // Every skill an exercise names must be named by a card (of the folder, or built in).
    let mut cards = loaded.cards.clone();
    if dir.is_some() {
        cards.extend(Content::builtin().cards);
    }
    linted.extend(ladder::check::skill_sources(&sources, &loaded, &cards));
    let (lint_errors, warnings): (Vec<_>, Vec<_>) = linted
        .into_iter()
        .partition(|l| l.severity == ladder::check::Severity::Error);
    let mut errors = loaded.problems.clone();
    errors.extend(lint_errors.into_iter().map(|l| l.diagnostic));
    // The built-in kernel puzzles: each reference solves its puzzle and meets its targets.
    let puzzles = match dir {
        None => {
            errors.extend(crate::puzzle::validate());
            crate::puzzle::FILES.len()
        }
        // A folder's own puzzles: each reads, its starter parses, its reference solves it.
        Some(dir) => {
            let folder = crate::puzzle::read_folder(dir);
            errors.extend(crate::puzzle::validate_folder(&folder));
            folder.puzzles.len()
        }
    };
    let warnings: Vec<content::Diagnostic> = warnings.into_iter().map(|l| l.diagnostic).collect();
    let shares = ladder::check::shares_in_sources(&sources, &loaded);
    let ok = errors.is_empty();
    let counts: serde_json::Map<String, serde_json::Value> = Level::ALL
        .iter()
        .map(|level| (level.key().to_string(), json!(loaded.level(*level).count())))
        .collect();
    let stdout = if as_json {
        json!({
            "ok": ok,
            "errors": errors,
            "warnings": warnings,
            "exercises": counts,
            "cards": loaded.cards.len(),
            "topics": loaded.topics.len(),
            "lessons": loaded.lessons.len(),
            "puzzles": puzzles,
            "answer_shares": shares.iter().map(|share| json!({
                "exercise": share.exercise,
                "kind": share.kind,
                "answer": share.answer,
                "count": share.count,
                "seeds": share.seeds,
                "share": share.share(),
                "exempt": share.exempt,
                "warning": share.warns(),
            })).collect::<Vec<_>>(),
        })
        .to_string()
            + "\n"
    } else {
        let mut out = String::new();
        for problem in &errors {
            let _ = writeln!(out, "{problem}");
        }
        for warning in &warnings {
            let _ = writeln!(
                out,
                "{}:{}:{}: warning: {}",
                warning.file, warning.line, warning.column, warning.message
            );
        }
        let levels = Level::ALL
            .iter()
            .map(|l| format!("{} {}", l.key(), loaded.level(*l).count()))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            out,
            "{}",
            t!(
                lang,
                "cli-content-summary",
                status = if ok {
                    t!(lang, "cli-content-ok")
                } else {
                    t!(lang, "cli-content-problems-found")
                },
                files = loaded.files,
                topics = loaded.topics.len(),
                cards = loaded.cards.len(),
                exercises = loaded.exercises.len(),
                levels = levels,
                lessons = loaded.lessons.len(),
                problems = errors.len(),
                warnings = warnings.len()
            )
        );
        if puzzles > 0 {
            let _ = writeln!(
                out,
                "{}",
                t!(lang, "cli-content-puzzles", puzzles = puzzles)
            );
        }
        out.push_str(&share_table(&shares, lang));
        out
    };
    Report {
        stdout,
        stderr: String::new(),
        code: if ok { 0 } else { 1 },
    }
}

/// The answer shares as a table: one row per template — its most common answer, in how many of
/// the seeds, the share, and `warning` above the limit or `fixed fact` where it is exempt.
fn share_table(shares: &[ladder::check::AnswerShare], lang: Lang) -> String {
    if shares.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "cli-content-shares",
            seeds = ladder::check::SHARE_SEEDS,
            limit = crate::format::percent(ladder::check::SHARE_LIMIT)
        )
    );
    let id_width = shares.iter().map(|s| s.exercise.len()).max().unwrap_or(0);
    let answer_width = shares
        .iter()
        .map(|s| text::columns(&s.answer).min(28))
        .max()
        .unwrap_or(0);
    for share in shares {
        let note = if share.warns() {
            format!("  {}", t!(lang, "cli-content-share-warning"))
        } else if share.exempt {
            format!("  {}", t!(lang, "cli-content-share-fixed"))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {}  {}  {:>2}/{}  {}{note}",
            text::pad(&share.exercise, id_width),
            text::pad(&text::cut(&share.answer, 28), answer_width),
            share.count,
            share.seeds,
            text::pad_left(&crate::format::percent(share.share()), 5),
        );
    }
    out
}

/// `content check [DIR] --lang L [--json]`: the English check, then the translations into `L` —
/// coverage per kind (items translated / total) and every mismatch with the English as
/// `file:line:column: message`; exit 1 on any error. Without `--lang` (or with `--lang en`) it is
/// the English check alone. The summary is worded in `ui`.
pub fn check_translations(
    dir: Option<&Path>,
    as_json: bool,
    lang: Option<crate::i18n::Lang>,
    ui: Lang,
) -> Report {
    let english = check_in(dir, as_json, ui);
    let Some(lang) = lang.filter(|l| *l != crate::i18n::Lang::En) else {
        return english;
    };
    let Ok(content) = Content::with_dir(dir) else {
        return english;
    };
    let (coverage, mismatches) = content::i18n::coverage(&content, lang);
    let mut errors: Vec<content::Diagnostic> = content.translations.problems.clone();
    if let Some(texts) = content.translations.get(lang) {
        errors.extend(texts.problems.iter().cloned());
    }
    errors.extend(mismatches);
    let translated = content.in_lang(lang);
    let untranslated: Vec<(content::i18n::ItemKind, &String, &Vec<String>)> = translated
        .fallbacks
        .iter()
        .map(|((kind, id), texts)| (*kind, id, texts))
        .collect();
    let code = if errors.is_empty() { english.code } else { 1 };
    let count_json = |count: content::i18n::Count| {
        json!({
            "translated": count.translated,
            "total": count.total,
            "percent": (count.percent() * 10.0).round() / 10.0,
        })
    };
    let stdout = if as_json {
        let mut value: serde_json::Value =
            serde_json::from_str(&english.stdout).unwrap_or_else(|_| json!({}));
        if let Some(object) = value.as_object_mut() {
            if let Some(list) = object.get_mut("errors").and_then(|e| e.as_array_mut()) {
                list.extend(errors.iter().map(|e| json!(e)));
            }
            object.insert("ok".into(), json!(code == 0));
            object.insert("lang".into(), json!(lang.code()));
            object.insert(
                "coverage".into(),
                json!({
                    "topics": count_json(coverage.topics),
                    "cards": count_json(coverage.cards),
                    "exercises": count_json(coverage.exercises),
                    "lessons": count_json(coverage.lessons),
                    "overall": count_json(coverage.overall()),
                }),
            );
            object.insert(
                "untranslated".into(),
                json!(
                    untranslated
                        .iter()
                        .map(|(kind, id, texts)| json!({"kind": kind, "id": id, "texts": texts}))
                        .collect::<Vec<_>>()
                ),
            );
        }
        value.to_string() + "\n"
    } else {
        let mut out = english.stdout.clone();
        for error in &errors {
            let _ = writeln!(out, "{error}");
        }
        for (kind, id, texts) in &untranslated {
            let what = match kind {
                content::i18n::ItemKind::Topic => t!(lang, "cli-content-kind-topic"),
                content::i18n::ItemKind::Card => t!(lang, "cli-content-kind-card"),
                content::i18n::ItemKind::Exercise => t!(lang, "cli-content-kind-exercise"),
                content::i18n::ItemKind::Lesson => t!(lang, "cli-content-kind-lesson"),
            };
            let line = if texts.iter().any(|t| t == "all") {
                t!(
                    lang,
                    "cli-content-untranslated",
                    lang = lang.code(),
                    what = what,
                    id = id.to_string()
                )
            } else {
                t!(
                    lang,
                    "cli-content-in-english",
                    lang = lang.code(),
                    what = what,
                    id = id.to_string(),
                    fields = texts.join(", ")
                )
            };
            let _ = writeln!(out, "{line}");
        }
        let share = |count: content::i18n::Count| {
            format!(
                "{}/{} ({}%)",
                count.translated,
                count.total,
                crate::format::trim_float(count.percent(), 1)
            )
        };
        let _ = writeln!(
            out,
            "{}",
            t!(
                lang,
                "cli-content-coverage",
                lang = lang.code(),
                status = if errors.is_empty() {
                    t!(lang, "cli-content-ok")
                } else {
                    t!(lang, "cli-content-problems-found")
                },
                topics = share(coverage.topics),
                cards = share(coverage.cards),
                exercises = share(coverage.exercises),
                lessons = share(coverage.lessons),
                overall = share(coverage.overall()),
                problems = errors.len()
            )
        );
        out
    };
    Report {
        stdout,
        stderr: english.stderr,
        code,
    }
}

/// `content preview [--seed N] [--level L] [--json]`.
pub fn preview(content: &Content, seed: u64, level: Option<&str>, as_json: bool) -> Report {
    preview_in(content, seed, level, as_json, Lang::En)
}

/// [`preview`], its labels in `lang` (the JSON is the same in every language).
pub fn preview_in(
    content: &Content,
    seed: u64,
    level: Option<&str>,
    as_json: bool,
    lang: Lang,
) -> Report {
    let level = match level.map(|l| Level::parse(l).ok_or(l)) {
        Some(Err(bad)) => {
            return Report {
                stdout: String::new(),
                stderr: format!(
                    "{}\n",
                    t!(
                        lang,
                        "cli-error",
                        message = t!(lang, "cli-unknown-level", level = bad.to_string())
                    )
                ),
                code: 2,
            };
        }
        Some(Ok(level)) => Some(level),
        None => None,
    };
    let mut text = String::new();
    let mut items = Vec::new();
    let mut failures = 0;
    for exercise in content
        .exercises
        .iter()
        .filter(|e| level.is_none_or(|l| e.level == l))
    {
        match ladder::generate(exercise, seed) {
            Ok(variant) => {
                if as_json {
                    items.push(json!({
                        "id": exercise.id,
                        "level": exercise.level.key(),
                        "topic": exercise.topic,
                        "title": exercise.title,
                        "prompt": variant.prompt,
                        "answer": variant.key.display_in(lang),
                        "answer_value": variant.key.value(),
                        "answer_kind": variant.key.kind(),
                        "parts": variant.key.parts().iter().map(|p| json!({
                            "prompt": p.prompt,
                            "answer": p.key.display_in(lang),
                            "answer_kind": p.key.kind(),
                        })).collect::<Vec<_>>(),
                    }));
                } else {
                    let _ = writeln!(
                        text,
                        "── {} · {} · {} — {}",
                        exercise.level.key(),
                        exercise.id,
                        exercise.topic,
                        exercise.title
                    );
                    let _ = writeln!(text, "{}", variant.prompt);
                    if let ladder::AnswerKey::Choice { options, .. } = &variant.key {
                        for (i, option) in options.iter().enumerate() {
                            let _ = writeln!(text, "  {}) {option}", ladder::variant::letter(i));
                        }
                    }
                    if let ladder::AnswerKey::Ordering { items, shown, .. } = &variant.key {
                        let _ = writeln!(
                            text,
                            "  {}",
                            t!(
                                lang,
                                "cli-preview-items",
                                items = shown
                                    .iter()
                                    .filter_map(|&i| items.get(i).map(String::as_str))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        );
                    }
                    for (i, part) in variant.key.parts().iter().enumerate() {
                        let _ = writeln!(
                            text,
                            "{}",
                            t!(
                                lang,
                                "cli-preview-part",
                                n = (i + 1).to_string(),
                                prompt = part.prompt.clone(),
                                answer = part.key.display_in(lang)
                            )
                        );
                    }
                    let _ = writeln!(
                        text,
                        "{}\n",
                        t!(
                            lang,
                            "cli-preview-answer",
                            answer = variant.key.display_in(lang)
                        )
                    );
                }
            }
            Err(e) => {
                failures += 1;
                let _ = writeln!(
                    text,
                    "── {} · {}: {}\n",
                    exercise.level.key(),
                    exercise.id,
                    t!(lang, "cli-preview-cannot-generate", error = e.to_string())
                );
            }
        }
    }
    Report {
        stdout: if as_json {
            serde_json::Value::Array(items).to_string() + "\n"
        } else {
            text
        },
        stderr: String::new(),
        code: if failures > 0 { 1 } else { 0 },
    }
}

/// `check EXERCISE --seed N --answer TEXT`: exit 0 correct, 1 wrong, 2 unusable, 3 an explanation to
/// compare with the model answer (the ideas found and missed are listed).
pub fn check_answer(content: &Content, args: &CheckArgs) -> Report {
    check_answer_in(content, args, Lang::En)
}

/// [`check_answer`], the words around the grader's feedback in `lang`.
pub fn check_answer_in(content: &Content, args: &CheckArgs, lang: Lang) -> Report {
    let error = |message: String| format!("{}\n", t!(lang, "cli-error", message = message));
    let Some(exercise) = content.exercise(&args.exercise) else {
        let mut suggestions: Vec<&str> = content
            .exercises
            .iter()
            .map(|e| e.id.as_str())
            .filter(|id| crate::ladder::grade::fuzzy_names(&args.exercise, id, 40))
            .collect();
        suggestions.truncate(5);
        let hint = if suggestions.is_empty() {
            t!(lang, "cli-check-list-hint")
        } else {
            t!(
                lang,
                "cli-check-did-you-mean",
                names = suggestions.join(", ")
            )
        };
        return Report {
            stdout: String::new(),
            stderr: error(t!(
                lang,
                "cli-check-no-exercise",
                id = args.exercise.clone(),
                hint = hint
            )),
            code: 2,
        };
    };
    let variant = match ladder::generate(exercise, args.seed) {
        Ok(variant) => variant,
        Err(e) => {
            return Report {
                stdout: String::new(),
                stderr: error(t!(
                    lang,
                    "cli-check-cannot-generate",
                    id = exercise.id.clone(),
                    error = e.to_string()
                )),
                code: 2,
            };
        }
    };
    let feedback = match args.part {
        // The verdict in the language asked for, like the words around it.
        None => ladder::grade_in(&variant, Response::Text(&args.answer), lang),
        Some(part) => {
            let graded = part.checked_sub(1).and_then(|i| {
                ladder::grade_part_in(&variant, i, Response::Text(&args.answer), lang)
            });
            match graded {
                Some(feedback) => feedback,
                None => {
                    return Report {
                        stdout: String::new(),
                        stderr: error(t!(
                            lang,
                            "cli-check-part-range",
                            id = exercise.id.clone(),
                            parts = variant.key.parts().len()
                        )),
                        code: 2,
                    };
                }
            }
        }
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", feedback.headline);
    let code = match feedback.outcome {
        Outcome::Unusable => {
            return Report {
                stdout: String::new(),
                stderr: error(feedback.headline.clone()),
                code: 2,
            };
        }
        Outcome::Correct => 0,
        Outcome::Wrong => 1,
        Outcome::Compare => 3,
    };
    if feedback.outcome == Outcome::Compare {
        let list = |ideas: &[String]| {
            if ideas.is_empty() {
                t!(lang, "cli-none")
            } else {
                ideas.join("; ")
            }
        };
        let _ = writeln!(
            out,
            "{}",
            t!(
                lang,
                "cli-check-ideas-found",
                ideas = list(&feedback.ideas_found)
            )
        );
        let _ = writeln!(
            out,
            "{}",
            t!(
                lang,
                "cli-check-ideas-missed",
                ideas = list(&feedback.ideas_missed)
            )
        );
    }
    if let Some(model) = &feedback.model {
        let _ = writeln!(
            out,
            "{}",
            t!(lang, "cli-check-model", model = model.clone())
        );
    }
    if feedback.outcome != Outcome::Correct {
        let _ = writeln!(
            out,
            "{}",
            t!(lang, "cli-check-why", why = feedback.why.clone())
        );
    }
    Report {
        stdout: out,
        stderr: String::new(),
        code,
    }
}
