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

/// `n=33` for a size.
pub fn size_text(size: &std::collections::BTreeMap<String, i64>) -> String {
    size.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A figure: `32.0`, `0.0153`.
pub fn figure(v: f64) -> String {
    if v.abs() >= 10.0 || v == v.trunc() {
        format!("{v:.1}")
    } else {
        format!("{v:.4}")
    }
}

/// A race or an out-of-bounds access in the learner's language.
fn detail_text(d: &puzzle::check::Detail, lang: Lang) -> String {
    use puzzle::check::Detail;
    let dims = |d: [u32; 3]| format!("({},{},{})", d[0], d[1], d[2]);
    let kind = |write: bool| {
        if write {
            t!(lang, "puzzle-access-write")
        } else {
            t!(lang, "puzzle-access-read")
        }
    };
    match d {
        Detail::Race(r) => t!(
            lang,
            "puzzle-race-detail",
            space = r.space,
            array = r.array.as_str(),
            byte = r.byte,
            first = kind(r.first.write),
            first_line = r.first.line,
            first_thread = dims(r.first.thread),
            first_block = dims(r.first.block),
            second = kind(r.second.write),
            second_line = r.second.line,
            second_thread = dims(r.second.thread),
            second_block = dims(r.second.block)
        ),
        Detail::OutOfBounds(crate::analyze::exec::ExecError::OutOfBounds {
            space,
            array,
            index,
            elements,
            write,
            block,
            thread,
            line,
        }) => t!(
            lang,
            "puzzle-oob-detail",
            line = *line,
            access = kind(*write),
            array = array.as_str(),
            index = *index,
            space = *space,
            elements = *elements,
            thread = dims(*thread),
            block = dims(*block)
        ),
        // Any other stop is told by its own message.
        Detail::OutOfBounds(other) => other.to_string(),
    }
}

/// The outcome of a check as lines of text: correctness, the per-line heat of the performance run
/// (`▲` on a hot line, each access cut to `code_width` columns), each target met or missed with
/// its figure. The command line prints the same.
pub fn outcome_lines(p: &Puzzle, o: &Outcome, code_width: usize, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    if o.correct {
        let sizes: Vec<String> = p.sizes.iter().map(size_text).collect();
        out.push(t!(
            lang,
            "puzzle-correct",
            count = o.sizes_run,
            sizes = sizes.join(", ")
        ));
    } else {
        if let Some(w) = &o.first_wrong {
            out.push(t!(
                lang,
                "puzzle-first-wrong",
                size = size_text(&w.size),
                array = w.array.as_str(),
                index = w.index,
                got = figure(w.got),
                expected = figure(w.expected)
            ));
        }
        if let Some(e) = &o.error {
            let size = size_text(&e.size);
            let translated = e.detail.as_ref().map(|d| detail_text(d, lang));
            let message = translated.as_deref().unwrap_or(e.message.as_str());
            out.push(match e.kind {
                "race" => t!(lang, "puzzle-race", size = size, message = message),
                "out_of_bounds" => {
                    t!(lang, "puzzle-out-of-bounds", size = size, message = message)
                }
                _ => t!(lang, "puzzle-run-error", size = size, message = message),
            });
        }
    }
    out.push(String::new());
    out.push(t!(lang, "puzzle-perf-head", size = size_text(&p.perf)));
    for h in &o.lines {
        let hot = (h.space == "global" && h.per_request > h.ideal + 1e-9) || h.conflicts > 0;
        let figures = if h.space == "global" {
            t!(
                lang,
                "puzzle-heat-global",
                per = figure(h.per_request),
                ideal = figure(h.ideal)
            )
        } else {
            t!(
                lang,
                "puzzle-heat-shared",
                per = figure(h.per_request),
                conflicts = h.conflicts
            )
        };
        let code = h.text.as_str();
        out.push(format!(
            "{} {:>4}  {}  {}",
            if hot { "▲" } else { " " },
            h.line,
            pad(&figures, 36),
            crate::text::cut(code, code_width.max(8))
        ));
    }
    out.push(String::new());
    out.push(t!(lang, "puzzle-targets"));
    for tr in &o.targets {
        let mark = if tr.met {
            t!(lang, "puzzle-met")
        } else {
            t!(lang, "puzzle-missed")
        };
        // Conflicts are a count; the other figures have decimals.
        let show = |v: f64| {
            if tr.name == "bank_conflicts" {
                format!("{v:.0}")
            } else {
                figure(v)
            }
        };
        let fig = tr.figure.map_or("—".to_string(), show);
        out.push(format!(
            "  [{mark}] {}: {fig} ≤ {}",
            target_name(tr, o, lang),
            show(tr.target)
        ));
    }
    out
}

/// "Solved." or "Not solved yet."
pub fn verdict(o: &Outcome, lang: Lang) -> String {
    if o.solved {
        t!(lang, "puzzle-solved")
    } else {
        t!(lang, "puzzle-not-solved")
    }
}

fn target_name(tr: &crate::puzzle::check::TargetResult, o: &Outcome, lang: Lang) -> String {
    match tr.name {
        "sectors_per_request" => t!(
            lang,
            "puzzle-target-sectors",
            line = tr.line.map_or("—".to_string(), |l| l.to_string())
        ),
        "bank_conflicts" => t!(lang, "puzzle-target-conflicts"),
        _ => t!(
            lang,
            "puzzle-target-time",
            reference = o.reference_ms.map_or("—".to_string(), figure)
        ),
    }
}

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
            puzzles: puzzle::builtin_in(lang)
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
        })
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
        let work = move || {
            let result = (|| {
                let known = reference.lock().ok().and_then(|r| r.clone());
                let report = match known {
                    Some(r) => r,
                    None => {
                        let r = puzzle::check::reference_report(&puzzle)?;
                        if let Ok(mut slot) = reference.lock() {
                            *slot = Some(r.clone());
                        }
                        r
                    }
                };
                puzzle::check::check(&puzzle, &source, Some(&report))
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
        if solved {
            if let Some(best) = &self.best {
                let figures: Vec<String> = best
                    .best_figures
                    .iter()
                    .map(|(k, v)| format!("{k} {}", figure(*v)))
                    .collect();
                out.push((
                    t!(lang, "puzzle-yours", figures = figures.join(", ")),
                    Tone::Good,
                ));
            }
            let reference = self
                .reference
                .lock()
                .ok()
                .and_then(|r| r.as_ref().map(reference_figures))
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

/// The reference's figures: worst sectors per request, bank conflicts, predicted time.
fn reference_figures(r: &crate::analyze::Report) -> String {
    let heat = puzzle::check::heat(r);
    let worst = heat
        .iter()
        .filter(|h| h.space == "global")
        .map(|h| h.per_request)
        .fold(0.0f64, f64::max);
    let conflicts = r.totals.shared_load_conflicts + r.totals.shared_store_conflicts;
    let ms = r.time.as_ref().map_or("—".to_string(), |t| figure(t.ms));
    format!(
        "sectors_per_request {}, bank_conflicts {conflicts}, time_ms {ms}",
        figure(worst)
    )
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
