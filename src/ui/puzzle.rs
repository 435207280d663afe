//! Kernel puzzles: the list, and one puzzle's screen, which watches the learner's file and checks
//! it again each time it is saved.
//!
//! ```text
//! ┌ Puzzle: Transpose ───────────────────────────────────────────────┐
//! │ in and out are n×n row-major matrices of floats. Write out = inᵀ… │
//! │ File: ~/.local/share/warpdrill/puzzles/transpose.cu               │
//! │ Watching the file: save it and it is checked again.               │
//! │                                                                   │
//! │ Correct on 4 sizes (n=1, n=17, n=33, n=64).                       │
//! │ Performance run at n=2048 (▲ hot):                                │
//! │ ▲    3  32.0 sectors/request (ideal 4.0)   out[x * n + y] = …     │
//! │ Targets:                                                          │
//! │   [missed] sectors per request, worst access (line 3): 32.0 ≤ 4.0 │
//! └───────────────────────────────────────────────────────────────────┘
//! ```

use super::{Action, Component, Ctx, KeyHint, block, pad};
use crate::i18n::Lang;
use crate::puzzle::check::{CheckError, Outcome};
use crate::puzzle::text::{named_figures, outcome_lines, reference_figures, verdict};
use crate::puzzle::{self, Puzzle, record};
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

static WATCHING: AtomicBool = AtomicBool::new(false);

/// Whether a puzzle screen is shown and watching its file (the event loop then wakes every
/// [`POLL`] to look at the file's modification time).
pub fn watching() -> bool {
    WATCHING.load(Ordering::Relaxed)
}

/// Says whether a puzzle screen is on top.
pub fn set_watching(on: bool) {
    WATCHING.store(on, Ordering::Relaxed);
}

/// How often the shown puzzle's file is looked at.
pub const POLL: std::time::Duration = std::time::Duration::from_millis(500);

/// The puzzle list, solved ones marked.
#[derive(Debug, Clone)]
pub struct List {
    puzzles: Vec<(String, String, String)>,
    solved: BTreeSet<String>,
    selected: usize,
}

impl List {
    /// The built-in puzzles in `lang`, with the ids solved.
    pub fn new(lang: Lang, solved: BTreeSet<String>) -> List {
        List {
            puzzles: puzzle::all_in(lang)
                .into_iter()
                .map(|p| (p.id, p.title, p.topic))
                .collect(),
            solved,
            selected: 0,
        }
    }

    /// Marks `id` solved.
    pub fn mark_solved(&mut self, id: &str) {
        self.solved.insert(id.to_string());
    }
}

impl Component for List {
    fn handle_key(&mut self, key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        let last = self.puzzles.len().saturating_sub(1);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(last),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = last,
            KeyCode::Enter | KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => {
                let (id, _, _) = self.puzzles.get(self.selected)?;
                return Some(Action::OpenPuzzle(id.clone()));
            }
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let theme = ctx.theme;
        let lang = ctx.lang;
        let outer = block(&t!(lang, "puzzle-list-title"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        let solved = self
            .puzzles
            .iter()
            .filter(|(id, _, _)| self.solved.contains(id))
            .count();
        let intro = Paragraph::new(Line::styled(
            t!(
                lang,
                "puzzle-list-intro",
                solved = solved,
                total = self.puzzles.len()
            ),
            theme.dim(),
        ))
        .wrap(Wrap { trim: true });
        let intro_rows = intro.line_count(inner.width).min(3) as u16;
        let [top, rest] = inner.layout(&ratatui::layout::Layout::vertical([
            ratatui::layout::Constraint::Length(intro_rows + 1),
            ratatui::layout::Constraint::Fill(1),
        ]));
        intro.render(top, buf);
        let room = usize::from(rest.height).max(1);
        let first = self.selected.saturating_sub(room - 1);
        let width = self.puzzles.iter().map(|p| p.0.len()).max().unwrap_or(0);
        let lines: Vec<Line> = self
            .puzzles
            .iter()
            .enumerate()
            .skip(first)
            .take(room)
            .map(|(i, (id, title, topic))| {
                let mark = if self.solved.contains(id) { "✓" } else { " " };
                let marker = if i == self.selected { "▸" } else { " " };
                let text = format!("{marker} {mark} {}  {title}  ({topic})", pad(id, width));
                let style = if i == self.selected {
                    theme.selected()
                } else if self.solved.contains(id) {
                    theme.good()
                } else {
                    theme.text()
                };
                Line::styled(crate::text::cut(&text, usize::from(rest.width)), style)
            })
            .collect();
        Paragraph::new(lines).render(rest, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        vec![
            KeyHint::new("↑↓/jk", t!(lang, "common-key-move")),
            KeyHint::new("Enter", t!(lang, "common-key-open")),
            KeyHint::new("?", t!(lang, "common-key-help")),
            KeyHint::new("Esc", t!(lang, "common-key-back")),
        ]
    }
}

type Slot = Arc<Mutex<Option<Result<Outcome, String>>>>;

/// One puzzle: its statement, the watched file, the last check.
#[derive(Debug, Clone)]
pub struct State {
    puzzle: Puzzle,
    /// The learner's file (`None`: no data directory and so no default place).
    path: Option<PathBuf>,
    /// The file's modification time when last checked.
    seen: Option<SystemTime>,
    /// The check running on a worker thread.
    pending: Option<Slot>,
    /// The source the last (or running) check read.
    source: String,
    /// The last check: its outcome, or why it could not be made.
    outcome: Option<Result<Outcome, String>>,
    /// The reference's performance report, computed once.
    reference: Arc<Mutex<Option<crate::analyze::Report>>>,
    hints: usize,
    scroll: u16,
    /// The learner's best figures so far, and whether it is solved (from the record).
    best: Option<record::Entry>,
    /// A step of a lab: hints are the lab's to give, and the reference is shown when the lab
    /// says (`Some(true)`), not when the practice record says it is solved.
    lab: Option<bool>,
}

impl State {
    /// Puzzle `id` in `lang`, its file at `path`; `best` is its record.
    pub fn new(
        id: &str,
        lang: Lang,
        path: Option<PathBuf>,
        best: Option<record::Entry>,
    ) -> Option<State> {
        Some(State {
            puzzle: puzzle::find(id, lang)?,
            path,
            seen: None,
            pending: None,
            source: String::new(),
            outcome: None,
            reference: Arc::new(Mutex::new(None)),
            hints: 0,
            scroll: 0,
            best,
            lab: None,
        })
    }

    /// The screen as a step of a lab: `hints` hints shown, the reference shown when `reveal`.
    pub fn in_lab(mut self, hints: usize, reveal: bool) -> State {
        self.set_lab(hints, reveal);
        self
    }

    /// In a lab: how many hints are shown, and whether the reference is.
    pub fn set_lab(&mut self, hints: usize, reveal: bool) {
        self.lab = Some(reveal);
        self.hints = hints.min(self.puzzle.hints.len());
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The source the last (or running) check read.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether a check is running.
    pub fn checking(&self) -> bool {
        self.pending.is_some()
    }

    /// The last check of the file as it is now: its outcome when the file has not changed since
    /// (none while a check runs, before the first, or after the file changed).
    pub fn current(&self) -> Option<&Result<Outcome, String>> {
        let path = self.path.as_ref()?;
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        (self.pending.is_none() && modified.is_some() && modified == self.seen)
            .then_some(self.outcome.as_ref())
            .flatten()
    }

    /// The puzzle's id.
    pub fn id(&self) -> &str {
        &self.puzzle.id
    }

    /// The file watched.
    pub fn path(&self) -> Option<&PathBuf> {
        self.path.as_ref()
    }

    /// Notes the record after a check.
    pub fn set_best(&mut self, best: Option<record::Entry>) {
        self.best = best;
    }

    /// Looks at the file: when it changed since the last check (or `force`), starts checking it on
    /// a worker thread; when a check has finished, takes its outcome and returns it for the record.
    pub fn poll(&mut self, force: bool) -> Option<Outcome> {
        if let Some(slot) = &self.pending {
            let done = slot.lock().ok().and_then(|mut s| s.take());
            let done = done?;
            self.pending = None;
            let recorded = done.as_ref().ok().cloned();
            self.outcome = Some(done);
            return recorded;
        }
        let path = self.path.clone()?;
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if modified.is_none() || (!force && modified == self.seen) {
            return None;
        }
        self.seen = modified;
        let source = match crate::store::read_regular_text(&path, 1 << 20) {
            Ok(s) => s,
            Err(e) => {
                self.outcome = Some(Err(e.to_string()));
                return None;
            }
        };
        self.source = source.clone();
        let slot: Slot = Arc::new(Mutex::new(None));
        let puzzle = self.puzzle.clone();
        let reference = Arc::clone(&self.reference);
        let out = Arc::clone(&slot);
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let work = move || {
            // Remembered by puzzle and source: a lab step handing in the file just checked
            // finds the outcome made.
            let result = (|| {
                let report = puzzle::check::reference_cached(&puzzle)?;
                if let Ok(mut slot) = reference.lock() {
                    *slot = Some(report.as_ref().clone());
                }
                puzzle::check::check_cached(&puzzle, &source)
                    .map(|o| o.as_ref().clone())
                    .map_err(|e| e.naming(&puzzle, &name))
            })();
            if let Ok(mut s) = out.lock() {
                *s = Some(result.map_err(|CheckError(m)| m));
            }
        };
        if std::thread::Builder::new()
            .name("puzzle".into())
            .spawn(work)
            .is_err()
        {
            self.outcome = Some(Err("cannot start a worker thread".into()));
            return None;
        }
        self.pending = Some(slot);
        None
    }

    fn lines(&self, lang: Lang, code_width: usize) -> Vec<(String, Tone)> {
        let mut out = Vec::new();
        out.push((self.puzzle.statement.clone(), Tone::Text));
        match &self.path {
            Some(path) if path.exists() => {
                out.push((
                    t!(lang, "puzzle-file", path = path.display().to_string()),
                    Tone::Text,
                ));
                out.push((t!(lang, "puzzle-watching"), Tone::Dim));
            }
            Some(path) => out.push((
                t!(
                    lang,
                    "puzzle-file-missing",
                    path = path.display().to_string()
                ),
                Tone::Warn,
            )),
            None => out.push((t!(lang, "puzzle-no-data-dir"), Tone::Warn)),
        }
        for (k, hint) in self.puzzle.hints.iter().take(self.hints).enumerate() {
            out.push((
                t!(lang, "puzzle-hint", n = k + 1, text = hint.as_str()),
                Tone::Dim,
            ));
        }
        out.push((String::new(), Tone::Text));
        if self.pending.is_some() {
            out.push((t!(lang, "puzzle-checking"), Tone::Dim));
        }
        match &self.outcome {
            None if self.pending.is_none() => out.push((t!(lang, "puzzle-not-checked"), Tone::Dim)),
            None => {}
            Some(Err(message)) => out.push((
                t!(lang, "puzzle-cannot-check", message = message.as_str()),
                Tone::Bad,
            )),
            Some(Ok(o)) => {
                out.push((
                    verdict(o, lang),
                    if o.solved { Tone::Good } else { Tone::Warn },
                ));
                for line in outcome_lines(&self.puzzle, o, code_width, lang) {
                    let tone = if line.starts_with('▲')
                        || line.contains(&format!("[{}]", t!(lang, "puzzle-missed")))
                    {
                        Tone::Bad
                    } else if line.contains(&format!("[{}]", t!(lang, "puzzle-met"))) {
                        Tone::Good
                    } else {
                        Tone::Text
                    };
                    out.push((line, tone));
                }
            }
        }
        let solved = self.best.as_ref().is_some_and(|b| b.solved);
        out.push((String::new(), Tone::Text));
        if self.lab == Some(false) {
            out.push((t!(lang, "lab-puzzle-reference-later"), Tone::Dim));
            return out;
        }
        if solved || self.lab == Some(true) {
            if let Some(best) = self.best.as_ref().filter(|_| self.lab.is_none()) {
                let figures = named_figures(
                    best.best_figures.iter().map(|(k, v)| (k.as_str(), *v)),
                    lang,
                );
                out.push((t!(lang, "puzzle-yours", figures = figures), Tone::Good));
            }
            let reference = self
                .reference
                .lock()
                .ok()
                .and_then(|r| r.as_ref().map(|r| reference_figures(r, lang)))
                .unwrap_or_default();
            out.push((
                t!(lang, "puzzle-reference-head", figures = reference),
                Tone::Title,
            ));
            for line in self.puzzle.reference.lines() {
                out.push((format!("    {line}"), Tone::Text));
            }
            out.push((self.puzzle.solution.clone(), Tone::Dim));
        } else {
            out.push((t!(lang, "puzzle-reference-locked"), Tone::Dim));
        }
        out
    }
}

#[derive(Debug, Clone, Copy)]
enum Tone {
    Text,
    Dim,
    Good,
    Bad,
    Warn,
    Title,
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        match key.code {
            KeyCode::Char('s') => return Some(Action::PuzzleStart(self.puzzle.id.clone())),
            KeyCode::Char('c') => {
                self.poll(true);
            }
            KeyCode::Char('h') => self.hints = (self.hints + 1).min(self.puzzle.hints.len()),
            // The analyser's own screen on the file at the performance size: every line's
            // figures and its diagrams.
            KeyCode::Char('a') if !self.source.is_empty() => {
                let launch =
                    puzzle::check::launch_for(&self.puzzle, &self.source, &self.puzzle.perf)
                        .ok()?;
                let file = self.path.as_ref().map_or_else(
                    || format!("{}.cu", self.puzzle.id),
                    |p| p.display().to_string(),
                );
                return Some(Action::AnalyzeKernel(Box::new(
                    super::action::AnalyzeSetup {
                        file,
                        source: self.source.clone(),
                        kernel: Some(self.puzzle.kernel.clone()),
                        launch: Some(launch),
                        defines: puzzle::check::defines(&self.puzzle.perf),
                        headers: self.path.as_ref().map_or_else(Vec::new, |p| {
                            crate::analyze::headers_beside(p, &self.source)
                        }),
                        assume: Vec::new(),
                        arch: crate::engine::Arch::parse("sm_90")
                            .unwrap_or_else(|_| crate::engine::Arch::default_arch()),
                        gpu: crate::engine::timing::H200.key,
                    },
                )));
            }
            KeyCode::Up | KeyCode::Char('k') => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.scroll = self.scroll.saturating_add(1),
            KeyCode::PageUp => self.scroll = self.scroll.saturating_sub(10),
            KeyCode::PageDown => self.scroll = self.scroll.saturating_add(10),
            KeyCode::Home => self.scroll = 0,
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let theme = ctx.theme;
        let outer = block(
            &format!("{} · {}", self.puzzle.title, self.puzzle.id),
            theme,
        );
        let inner = outer.inner(area);
        outer.render(area, buf);
        let lines: Vec<Line> = self
            .lines(ctx.lang, usize::from(inner.width).saturating_sub(48))
            .into_iter()
            .map(|(text, tone)| {
                let style = match tone {
                    Tone::Text => theme.text(),
                    Tone::Dim => theme.dim(),
                    Tone::Good => theme.good(),
                    Tone::Bad => theme.bad(),
                    Tone::Warn => theme.warn(),
                    Tone::Title => theme.title(),
                };
                Line::styled(text, style)
            })
            .collect();
        let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
        let total = paragraph.line_count(inner.width) as u16;
        let scroll = self.scroll.min(total.saturating_sub(inner.height));
        paragraph.scroll((scroll, 0)).render(inner, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        vec![
            KeyHint::new("s", t!(lang, "puzzle-key-start")),
            KeyHint::new("c", t!(lang, "puzzle-key-check")),
            KeyHint::new("h", t!(lang, "puzzle-key-hint")),
            KeyHint::new("a", t!(lang, "puzzle-key-analyse")),
            KeyHint::new("↑↓", t!(lang, "puzzle-key-scroll")),
            KeyHint::new("?", t!(lang, "common-key-help")),
            KeyHint::new("Esc", t!(lang, "common-key-back")),
        ]
    }
}
