//! `warpdrill puzzle …`: list the kernel puzzles, write a starter file, check a solution.

use super::output::finish;
use crate::i18n::Lang;
use crate::puzzle::check::{CheckError, Outcome};
use crate::puzzle::{self, Puzzle, record};
use crate::t;
use clap::Subcommand;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `warpdrill puzzle …`
#[derive(Debug, Subcommand)]
pub enum PuzzleCommand {
    /// List the puzzles, with a mark on those solved.
    List {
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
    /// Write a puzzle's starter file, DIR/ID.cu (default DIR: `puzzles/` in the data directory).
    Start {
        /// The puzzle (see `warpdrill puzzle list`).
        id: String,
        /// The folder to write it to.
        dir: Option<PathBuf>,
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Check a solution: exit 0 when correct and every target is met, 1 when wrong or a target is
    /// missed, 2 when the file cannot be read as a kernel.
    Check {
        /// The puzzle.
        id: String,
        /// The kernel file.
        file: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// Runs a puzzle command.
pub fn run_in(command: PuzzleCommand, data_dir: Option<&Path>, lang: Lang) -> ExitCode {
    let data = crate::progress::data_dir(data_dir);
    match command {
        PuzzleCommand::List { json } => list(data.as_deref(), json, lang),
        PuzzleCommand::Start { id, dir, force } => {
            let Some(p) = puzzle::find(&id, lang) else {
                return unknown(&id, lang);
            };
            let Some(dir) = dir.or_else(|| data.as_deref().map(record::files_dir)) else {
                return finish("", &format!("{}\n", t!(lang, "puzzle-no-dir")), 2);
            };
            match record::start(&p, &dir, force) {
                Ok(path) => {
                    remember(data.as_deref(), &p.id, &path);
                    finish(
                        &format!(
                            "{}\n",
                            t!(
                                lang,
                                "puzzle-start-wrote",
                                path = path.display().to_string(),
                                id = p.id.as_str()
                            )
                        ),
                        "",
                        0,
                    )
                }
                Err(record::StartError::Exists(path)) => finish(
                    "",
                    &format!(
                        "{}\n",
                        t!(
                            lang,
                            "puzzle-start-exists",
                            path = path.display().to_string()
                        )
                    ),
                    2,
                ),
                Err(e) => finish(
                    "",
                    &format!("{}\n", t!(lang, "cli-error", message = e.to_string())),
                    2,
                ),
            }
        }
        PuzzleCommand::Check { id, file, json } => {
            let Some(p) = puzzle::find(&id, lang) else {
                return unknown(&id, lang);
            };
            let source = match crate::store::read_regular_text(&file, 1 << 20) {
                Ok(s) => s,
                Err(e) => {
                    return finish(
                        "",
                        &format!(
                            "{}\n",
                            t!(
                                lang,
                                "puzzle-unreadable",
                                path = file.display().to_string(),
                                error = e.to_string()
                            )
                        ),
                        2,
                    );
                }
            };
            match puzzle::check::check(&p, &source, None)
                .map_err(|e| e.naming(&p, &file.display().to_string()))
            {
                Ok(outcome) => {
                    if let Some(dir) = data.as_deref() {
                        let now = crate::clock::Clock::now_secs(&crate::clock::SystemClock);
                        let mut loaded = record::load(dir, now);
                        if let Some(notice) = loaded.notice.take() {
                            super::output::stderr(&format!("warpdrill: {notice}\n"));
                        }
                        loaded.record.note(&outcome);
                        loaded.record.remember_file(&p.id, &file);
                        if let Err(e) = loaded.record.save(dir) {
                            super::output::stderr(&format!("warpdrill: progress not saved: {e}\n"));
                        }
                    }
                    let code = if outcome.solved { 0 } else { 1 };
                    if json {
                        let text = serde_json::to_string_pretty(&outcome).unwrap_or_default();
                        finish(&format!("{text}\n"), "", code)
                    } else {
                        finish(&render(&p, &outcome, lang), "", code)
                    }
                }
                Err(CheckError(message)) => {
                    if json {
                        let text = serde_json::json!({"puzzle": p.id, "error": {"kind": "input", "message": message}});
                        finish(&format!("{text}\n"), "", 2)
                    } else {
                        finish(
                            "",
                            &format!("{}\n", t!(lang, "cli-error", message = message)),
                            2,
                        )
                    }
                }
            }
        }
    }
}

/// Remembers `file` as puzzle `id`'s file in the record in `data`, so that the puzzle screen
/// watches it (a record that cannot be saved only loses that).
fn remember(data: Option<&Path>, id: &str, file: &Path) {
    let Some(dir) = data else { return };
    let now = crate::clock::Clock::now_secs(&crate::clock::SystemClock);
    let mut loaded = record::load(dir, now);
    if let Some(notice) = loaded.notice.take() {
        super::output::stderr(&format!("warpdrill: {notice}\n"));
    }
    loaded.record.remember_file(id, file);
    if let Err(e) = loaded.record.save(dir) {
        super::output::stderr(&format!("warpdrill: progress not saved: {e}\n"));
    }
}

fn unknown(id: &str, lang: Lang) -> ExitCode {
    finish("", &format!("{}\n", t!(lang, "puzzle-unknown", id = id)), 2)
}

fn list(data: Option<&Path>, json: bool, lang: Lang) -> ExitCode {
    let puzzles = puzzle::all_in(lang);
    let record = data.map(|d| record::load(d, 0).record).unwrap_or_default();
    if json {
        let list: Vec<serde_json::Value> = puzzles
            .iter()
            .map(|p| {
                serde_json::json!({
                    "id": p.id,
                    "title": p.title,
                    "topic": p.topic,
                    "kernel": p.kernel,
                    "solved": record.solved(&p.id),
                    "best_ms": record.puzzles.get(&p.id).and_then(|e| e.best_ms),
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&list).unwrap_or_default();
        return finish(&format!("{text}\n"), "", 0);
    }
    let mut out = String::new();
    let width = puzzles.iter().map(|p| p.id.len()).max().unwrap_or(0);
    for p in &puzzles {
        let mark = if record.solved(&p.id) { "✓" } else { " " };
        let _ = writeln!(
            out,
            "{mark} {}  {}  ({})",
            crate::text::pad(&p.id, width),
            p.title,
            p.topic
        );
    }
    let solved = puzzles.iter().filter(|p| record.solved(&p.id)).count();
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "puzzle-list-summary",
            solved = solved,
            total = puzzles.len()
        )
    );
    finish(&out, "", 0)
}

/// The outcome as text, in `lang`: correctness, the per-line heat, the targets.
pub fn render(p: &Puzzle, o: &Outcome, lang: Lang) -> String {
    let mut out = format!("{} — {}\n", p.id, p.title);
    for line in crate::puzzle::text::outcome_lines(p, o, 60, lang) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "\n{}", crate::puzzle::text::verdict(o, lang));
    out
}
