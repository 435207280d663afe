//! The kernel analyser's screens: the list of built-in kernels, and one analysed kernel — its source
//! with a heat column, the totals, and the selected line's access for one warp in the explorer's
//! diagrams.
//!
//! ```text
//! kernel transpose_naive · grid 32,32 · block 32,8 · transpose_naive.cu
//! totals  global ld 8192 req 32768 sec · st 8192 req 262144 sec · shared —
//! ┌ Source (heat: wasted sectors / extra wavefronts) ─┐┌ in[y * N + x] ────────────────┐
//! │   7         int x = blockIdx.x * 32 + threadIdx.x; ││global load · 4 B per lane      │
//! │ ▸ 9 ▁   0   out[x * N + y] = in[y * N + x];        ││ld 8192 req 32768 sec (4.0/req)│
//! │     █ 229k                                         │└────────────────────────────────┘
//! └────────────────────────────────────────────────────┘┌ Warp → sectors ──────────────────┐
//! ```

pub use super::action::AnalyzeSetup;
use super::{Action, Component, Ctx, ExplorerSetup, KeyHint, Space, Theme, block, ellipsis};
use crate::analyze::{self, AccessReport, Launch, Report, Totals, Trace, ast::Kernel, examples};
use crate::engine::{self, AccessShape, Granularity, WarpAccess};
use crate::i18n::Lang;
use crate::t;
use crate::text::pad;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Executions of one access by one warp kept for stepping through (loop iterations beyond are counted).
const TRACE_LIMIT: usize = 4096;
/// Warps searched for the first one that runs a line's access.
const WARP_SEARCH: u64 = 256;
/// Lines PgUp/PgDn move.
const PAGE: usize = 15;

/// A label column: `label` padded to the widest of `labels` plus two spaces.
fn label_cell(label: &str, labels: &[&str]) -> String {
    let widest = labels
        .iter()
        .map(|l| crate::text::columns(l))
        .max()
        .unwrap_or(0);
    pad(label, widest + 2)
}

/// The footer keys of the examples list with their words in `lang`.
fn example_keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("↑↓/jk", t!(lang, "analyze-key-move")),
        KeyHint::new("Enter", t!(lang, "analyze-key-analyse")),
        KeyHint::new("PgUp/PgDn", t!(lang, "analyze-key-page")),
    ]
}

/// The footer keys of the analyser with their words in `lang`.
fn analyser_keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("↑↓/jk", t!(lang, "analyze-key-line")),
        KeyHint::new("Enter", t!(lang, "analyze-key-explorer")),
        KeyHint::new("←→", t!(lang, "analyze-key-iteration")),
        KeyHint::new("w/W", t!(lang, "analyze-key-warp")),
        KeyHint::new("b/B", t!(lang, "analyze-key-block")),
        KeyHint::new("t", t!(lang, "analyze-key-time")),
        KeyHint::new("n/N", t!(lang, "analyze-key-next-prev")),
        KeyHint::new("Tab", t!(lang, "analyze-key-access")),
        KeyHint::new("PgUp/PgDn", t!(lang, "analyze-key-page")),
        KeyHint::new("h/l", t!(lang, "analyze-key-iteration")),
    ]
}

/// The one-line description of a built-in example (its `// about:` line).
pub fn about(source: &str) -> &str {
    source
        .lines()
        .find_map(|l| l.trim().strip_prefix("// about:"))
        .unwrap_or("")
        .trim()
}

/// The list of built-in kernels (Home → Analyse a kernel).
#[derive(Debug, Clone, Default)]
pub struct Examples {
    /// The selected example.
    selected: usize,
}

impl Component for Examples {
    fn handle_key(&mut self, key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        let last = examples::EXAMPLES.len().saturating_sub(1);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(last),
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(PAGE),
            KeyCode::PageDown => self.selected = (self.selected + PAGE).min(last),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = last,
            KeyCode::Enter | KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => {
                let (name, _) = examples::EXAMPLES.get(self.selected)?;
                return AnalyzeSetup::example(name).map(|s| Action::AnalyzeKernel(Box::new(s)));
            }
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let theme = ctx.theme;
        let lang = ctx.lang;
        let outer = block(&t!(lang, "analyze-examples-title"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        let mut lines = vec![
            Line::styled(t!(lang, "analyze-examples-intro"), theme.dim()),
            Line::from(""),
        ];
        let width = usize::from(inner.width);
        let room = usize::from(inner.height).saturating_sub(lines.len());
        let first = self.selected.saturating_sub(room.saturating_sub(1));
        for (i, (name, source)) in examples::EXAMPLES.iter().enumerate().skip(first) {
            let launch = analyze::launch_line(source)
                .ok()
                .flatten()
                .map(|l| {
                    t!(
                        lang,
                        "analyze-examples-launch",
                        grid = dims(l.grid),
                        block = dims(l.block)
                    )
                })
                .unwrap_or_default();
            let selected = i == self.selected;
            let marker = if selected { "▸ " } else { "  " };
            let head = format!("{marker}{} {} ", pad(name, 22), pad(&launch, 24));
            let rest = width.saturating_sub(Span::raw(head.as_str()).width());
            let style = if selected {
                theme.selected()
            } else {
                theme.text()
            };
            lines.push(Line::from(vec![
                Span::styled(head, style),
                Span::styled(ellipsis(about(source), rest), theme.dim()),
            ]));
        }
        Paragraph::new(lines).render(inner, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        example_keys(lang)
    }
}

/// One analysed kernel.
#[derive(Debug, Clone)]
pub struct State {
    setup: AnalyzeSetup,
    /// The analysis.
    report: Report,
    kernel: Kernel,
    launch: Launch,
    lines: Vec<String>,
    /// The selected source line, from 0.
    cursor: usize,
    /// Which of the line's accesses is shown.
    access: usize,
    /// The block shown, numbered as the hardware numbers them (x fastest).
    block: u64,
    /// The warp of the block shown.
    warp: u64,
    /// The execution of the access by that warp shown (the loop iteration), from 0.
    iteration: usize,
    trace: Result<Trace, String>,
    /// The predicted time's terms shown in place of the diagram (`t`).
    show_time: bool,
}

impl State {
    /// Analyses the setup's kernel; the message of the error otherwise.
    pub fn new(setup: &AnalyzeSetup) -> Result<State, String> {
        let options = setup.options();
        let (kernel, launch) =
            analyze::prepare(&setup.source, &setup.file, &options).map_err(|e| e.to_string())?;
        let mut report =
            analyze::report(&kernel, &launch, &setup.file, &options).map_err(|e| e.to_string())?;
        report.time = report.predict(setup.gpu());
        // Source text as the screen shows it: tabs as four spaces, control characters as
        // `\u{1b}`-style escapes (ratatui would drop them without a trace).
        let lines: Vec<String> = setup
            .source
            .lines()
            .map(|l| crate::format::printable(&l.replace('\t', "    ")).into_owned())
            .collect();
        // Start on the costliest access (then the one whose line issues the most instructions
        // with threads idle), or the first.
        let idle = |line: u32| {
            report
                .profile
                .line_instructions
                .get(line as usize)
                .map_or(0, |[_, partial]| *partial)
        };
        let start = report
            .lines
            .iter()
            .max_by_key(|a| {
                (
                    a.wasted_sectors + a.extra_wavefronts,
                    idle(a.line),
                    std::cmp::Reverse(a.line),
                )
            })
            .map_or(0, |a| a.line.saturating_sub(1) as usize);
        let mut state = State {
            setup: setup.clone(),
            report,
            kernel,
            launch,
            lines,
            cursor: start,
            access: 0,
            block: 0,
            warp: 0,
            iteration: 0,
            trace: Ok(Trace::default()),
            show_time: false,
        };
        state.access = state.costliest_on_line();
        state.first_warp();
        Ok(state)
    }

    /// Indices (into the report's accesses) of the accesses on the selected line.
    pub fn line_accesses(&self) -> Vec<usize> {
        let line = self.cursor as u32 + 1;
        (0..self.report.lines.len())
            .filter(|&k| self.report.lines[k].line == line)
            .collect()
    }

    /// The analysis.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The selected source line, from 0.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The block shown, numbered as the hardware numbers them (x fastest).
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The warp of the block shown.
    pub fn warp(&self) -> u64 {
        self.warp
    }

    /// The execution of the access by that warp shown (the loop iteration), from 0.
    pub fn iteration(&self) -> usize {
        self.iteration
    }

    /// The access shown: its index into the report's accesses (which is also its site).
    pub fn selected_access(&self) -> Option<usize> {
        let accesses = self.line_accesses();
        accesses
            .get(self.access.min(accesses.len().saturating_sub(1)))
            .copied()
    }

    fn blocks(&self) -> u64 {
        self.launch.grid.iter().map(|&d| u64::from(d)).product()
    }

    fn warps_per_block(&self) -> u64 {
        let threads: u64 = self.launch.block.iter().map(|&d| u64::from(d)).product();
        threads.div_ceil(32).max(1)
    }

    fn block_coords(&self, block: u64) -> [u32; 3] {
        let [gx, gy, _] = self.launch.grid.map(u64::from);
        let gx = gx.max(1);
        let gy = gy.max(1);
        [
            (block % gx) as u32,
            ((block / gx) % gy) as u32,
            (block / (gx * gy)) as u32,
        ]
    }

    fn retrace(&mut self) {
        self.trace = match self.selected_access() {
            None => Ok(Trace::default()),
            Some(site) => analyze::run::trace(
                &self.kernel,
                &self.launch,
                &self.setup.file,
                self.block_coords(self.block),
                self.warp as usize,
                site,
                TRACE_LIMIT,
            )
            .map_err(|e| e.to_string()),
        };
        let shown = self.trace.as_ref().map_or(0, |t| t.executions.len());
        self.iteration = self.iteration.min(shown.saturating_sub(1));
    }

    /// Shows the first warp (block by block) that runs the selected access, from the first iteration.
    fn first_warp(&mut self) {
        self.block = 0;
        self.warp = 0;
        self.iteration = 0;
        let per_block = self.warps_per_block();
        let all = self.blocks().saturating_mul(per_block);
        let started = std::time::Instant::now();
        for n in 0..all.min(WARP_SEARCH) {
            if n > 0 && started.elapsed() > std::time::Duration::from_millis(300) {
                break;
            }
            self.block = n / per_block;
            self.warp = n % per_block;
            self.retrace();
            if !matches!(&self.trace, Ok(t) if t.total == 0) {
                return;
            }
        }
        self.block = 0;
        self.warp = 0;
        self.retrace();
    }

    fn move_to(&mut self, line: usize) {
        let line = line.min(self.lines.len().saturating_sub(1));
        if line != self.cursor {
            self.cursor = line;
            self.access = self.costliest_on_line();
            self.first_warp();
        }
    }

    /// Which of the selected line's accesses wastes most (the first of equals).
    fn costliest_on_line(&self) -> usize {
        let accesses = self.line_accesses();
        let mut best = 0;
        for (k, &site) in accesses.iter().enumerate() {
            let cost = |i: usize| {
                let a = &self.report.lines[i];
                a.wasted_sectors + a.extra_wavefronts
            };
            if cost(site) > cost(accesses[best]) {
                best = k;
            }
        }
        best
    }

    /// The next (or previous) line with an access, from the cursor.
    fn next_access_line(&self, forward: bool) -> Option<usize> {
        let lines = self
            .report
            .lines
            .iter()
            .map(|a| a.line.saturating_sub(1) as usize);
        if forward {
            lines.filter(|&l| l > self.cursor).min()
        } else {
            lines.filter(|&l| l < self.cursor).max()
        }
    }

    fn step(value: u64, count: u64, forward: bool) -> u64 {
        let count = count.max(1);
        if forward {
            (value + 1) % count
        } else {
            (value + count - 1) % count
        }
    }

    /// The access shown for the warp, block and iteration chosen, as the engine takes it.
    pub fn warp_access(&self) -> Option<(WarpAccess, Space)> {
        let site = self.selected_access()?;
        let report = self.report.lines.get(site)?;
        let execution = self.trace.as_ref().ok()?.executions.get(self.iteration)?;
        let shape = AccessShape {
            elem_bytes: report.bytes,
            offsets: Some(execution.offsets.to_vec()),
            mask: Some(u64::from(execution.mask)),
            ..AccessShape::default()
        };
        let space = if report.space == "shared" {
            Space::Shared
        } else {
            Space::Global
        };
        // Stores are counted as stores: 8- and 16-byte shared stores never pair-merge.
        let op = if execution.store {
            crate::engine::Op::Store
        } else {
            crate::engine::Op::Load
        };
        Some((shape.access_as(32, op), space))
    }

    /// Per source line, the waste its accesses show: wasted sectors plus extra wavefronts.
    pub fn heat(&self) -> Vec<Option<u64>> {
        let mut heat = vec![None; self.lines.len()];
        for a in &self.report.lines {
            if let Some(h) = heat.get_mut(a.line.saturating_sub(1) as usize) {
                *h = Some(h.unwrap_or(0) + a.wasted_sectors + a.extra_wavefronts);
            }
        }
        heat
    }
}

/// `1,2,1` → `1,2`; `[x, 1, 1]` → `x`.
fn dims(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("{x},{y}"),
        [x, y, z] => format!("{x},{y},{z}"),
    }
}

/// A count in at most five characters: `950`, `12.3k`, `4.1M`.
pub fn compact(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{:.1}k", n as f64 / 1e3),
        1_000_000..=999_999_999 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

/// A heat cell: a bar glyph (eight steps) and the value, so it reads without colour.
pub fn heat_cell(value: u64, max: u64) -> String {
    const GLYPHS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let step = if value == 0 || max == 0 {
        0
    } else {
        ((value as f64 / max as f64) * 8.0).ceil().clamp(1.0, 8.0) as usize
    };
    format!("{} {:>6}", GLYPHS[step], compact(value))
}

/// The totals in one line; `atomics` is how many atomics the kernel calls (counted apart, as Nsight
/// Compute counts them, so not in these figures).
fn totals_line(
    t: &Totals,
    atomics: usize,
    counted: Option<&analyze::AtomicTotals>,
    lang: Lang,
) -> String {
    let mut parts = Vec::new();
    if t.global_load_instructions > 0 {
        parts.push(t!(
            lang,
            "analyze-totals-global-load",
            requests = compact(t.global_load_requests),
            sectors = compact(t.global_load_sectors)
        ));
    }
    if t.global_store_instructions > 0 {
        parts.push(t!(
            lang,
            "analyze-totals-global-store",
            requests = compact(t.global_store_requests),
            sectors = compact(t.global_store_sectors)
        ));
    }
    if t.shared_load_instructions > 0 {
        parts.push(t!(
            lang,
            "analyze-totals-shared-load",
            wavefronts = compact(t.shared_load_wavefronts),
            conflicts = compact(t.shared_load_conflicts)
        ));
    }
    if t.shared_store_instructions > 0 {
        parts.push(t!(
            lang,
            "analyze-totals-shared-store",
            wavefronts = compact(t.shared_store_wavefronts),
            conflicts = compact(t.shared_store_conflicts)
        ));
    }
    let none = parts.is_empty();
    let a = counted.copied().unwrap_or_default();
    let global = a.global_atom_requests + a.global_red_requests;
    if global > 0 {
        parts.push(t!(
            lang,
            "analyze-totals-atomics-global",
            requests = compact(global),
            sectors = compact(a.global_atom_sectors + a.global_red_sectors)
        ));
    }
    if a.shared_atom_instructions > 0 {
        parts.push(t!(
            lang,
            "analyze-totals-atomics-shared",
            instructions = compact(a.shared_atom_instructions),
            wavefronts = compact(a.shared_atom_wavefronts)
        ));
    }
    if atomics > 0 && global + a.shared_atom_instructions == 0 {
        parts.push(t!(lang, "analyze-totals-atomics", n = atomics));
    }
    if none && atomics == 0 {
        t!(lang, "analyze-totals-none")
    } else {
        parts.join(" · ")
    }
}

/// The totals line with the share of warp instructions issued with threads idle, where any are.
fn with_divergence(line: String, d: &analyze::Divergence, lang: Lang) -> String {
    if d.partial_instructions == 0 || d.warp_instructions == 0 {
        return line;
    }
    let percent = 100.0 * d.partial_instructions as f64 / d.warp_instructions as f64;
    format!(
        "{line} · {}",
        t!(
            lang,
            "analyze-totals-divergence",
            percent = format!("{percent:.0}")
        )
    )
}

/// The totals line with the data it assumes (`--assume`), so figures from assumed data are never
/// shown as if they were the kernel's own.
fn with_assumed(line: String, assumed: &[analyze::assume::Assumed], lang: Lang) -> String {
    if assumed.is_empty() {
        return line;
    }
    let arrays: Vec<String> = assumed
        .iter()
        .map(|a| format!("{} {}", a.array, a.text(lang)))
        .collect();
    format!(
        "{line} · {}",
        t!(lang, "analyze-totals-assumed", arrays = arrays.join("; "))
    )
}

impl State {
    fn render_source(&self, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
        let outer = block(&t!(lang, "analyze-source-title"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        let height = usize::from(inner.height).max(1);
        let top = self
            .cursor
            .saturating_sub(height / 2)
            .min(self.lines.len().saturating_sub(height));
        let heat = self.heat();
        let max = heat.iter().flatten().copied().max().unwrap_or(0);
        let number_width = self.lines.len().to_string().len();
        let mut out = Vec::new();
        for (k, text) in self.lines.iter().enumerate().skip(top).take(height) {
            let selected = k == self.cursor;
            let marker = if selected { "▸" } else { " " };
            let reused = heat.get(k).copied().flatten().is_none()
                && self.report.reused.iter().any(|r| r.line as usize == k + 1);
            let cell = match heat.get(k).copied().flatten() {
                Some(v) => heat_cell(v, max),
                // A load nvcc leaves out (the value is already in a register): no traffic.
                None if reused => format!("{:<8}", t!(lang, "analyze-heat-reused")),
                None => " ".repeat(8),
            };
            let cell_style = match heat.get(k).copied().flatten() {
                Some(v) if v > 0 && max > 0 => theme.heat(v as f64 / max as f64),
                Some(_) => theme.good(),
                None => theme.dim(),
            };
            let text_style = if selected {
                theme.selected()
            } else {
                theme.text()
            };
            out.push(Line::from(vec![
                Span::styled(format!("{marker}{:>number_width$} ", k + 1), theme.dim()),
                Span::styled(cell, cell_style),
                Span::raw(" "),
                Span::styled(text.clone(), text_style),
            ]));
        }
        Paragraph::new(out).render(inner, buf);
    }

    fn detail_lines(&self, theme: Theme, lang: Lang) -> Vec<Line<'static>> {
        let Some(site) = self.selected_access() else {
            return vec![Line::styled(t!(lang, "analyze-no-access"), theme.dim())];
        };
        let a: &AccessReport = &self.report.lines[site];
        let count = self.line_accesses().len();
        let mut lines = vec![Line::from(vec![
            Span::styled(crate::format::printable(&a.text).into_owned(), theme.code()),
            Span::styled(
                format!(
                    "  {}{}",
                    t!(
                        lang,
                        "analyze-access-head",
                        space = a.space,
                        bytes = a.bytes.to_string()
                    ),
                    if count > 1 {
                        format!(
                            " · {}",
                            t!(
                                lang,
                                "analyze-access-of",
                                n = (self.access + 1).to_string(),
                                count = count.to_string()
                            )
                        )
                    } else {
                        String::new()
                    }
                ),
                theme.dim(),
            ),
        ])];
        let written_label = t!(lang, "analyze-as-written");
        let merged_label = t!(lang, "analyze-if-merged");
        let compiled_label = t!(lang, "analyze-compiled");
        let mut labels = vec![written_label.as_str(), merged_label.as_str()];
        if a.as_written.is_some() {
            labels.push(compiled_label.as_str());
        }
        let written_cell = label_cell(&written_label, &labels);
        let merged_cell = label_cell(&merged_label, &labels);
        let compiled_cell = label_cell(&compiled_label, &labels);
        let figures = analyze::access_figures(&a.counts, a.space);
        if figures.is_empty() {
            lines.push(Line::styled(t!(lang, "analyze-never-runs"), theme.dim()));
        }
        // Where nvcc's merge is in the counts, they come first, then the access as written.
        let first_cell = if a.as_written.is_some() {
            &compiled_cell
        } else {
            &written_cell
        };
        for f in figures {
            lines.push(Line::from(format!("{first_cell}{f}")));
        }
        if let Some(w) = &a.as_written {
            for f in analyze::access_figures(w, a.space) {
                lines.push(Line::styled(format!("{written_cell}{f}"), theme.dim()));
            }
        }
        if let Some(m) = &a.merged {
            let merged = analyze::access_figures(m, a.space);
            if merged.is_empty() {
                lines.push(Line::styled(
                    format!("{merged_cell}{}", t!(lang, "analyze-merged-with-first")),
                    theme.warn(),
                ));
            }
            for f in merged {
                lines.push(Line::styled(format!("{merged_cell}{f}"), theme.warn()));
            }
        }
        // The merge's assumption goes last: on a short screen it is what gets cut.
        let merge_note = (a.merged.is_some() || a.as_written.is_some())
            .then_some(a.merge_note.as_ref())
            .flatten()
            .map(|note| Line::styled(format!("  ({})", note.text(lang)), theme.dim()));
        lines.push(Line::styled(
            t!(lang, "analyze-why", why = a.why.text(lang)),
            theme.dim(),
        ));
        let coords = self.block_coords(self.block);
        let where_ = t!(
            lang,
            "analyze-where",
            x = coords[0].to_string(),
            y = coords[1].to_string(),
            z = coords[2].to_string(),
            blocks = self.blocks().to_string(),
            warp = self.warp.to_string(),
            warps = self.warps_per_block().to_string()
        );
        match &self.trace {
            Ok(tr) if tr.total == 0 => lines.push(Line::styled(
                t!(lang, "analyze-warp-never-runs", place = where_),
                theme.warn(),
            )),
            Ok(tr) => {
                let shown = tr.executions.get(self.iteration);
                let lanes = u64::from(shown.map_or(0, |e| e.mask.count_ones()));
                let run = (self.iteration + 1).to_string();
                let total = tr.total.to_string();
                let text = match shown {
                    Some(e) if e.store => t!(
                        lang,
                        "analyze-run-store",
                        place = where_,
                        run = run,
                        total = total,
                        lanes = lanes
                    ),
                    Some(_) => t!(
                        lang,
                        "analyze-run-load",
                        place = where_,
                        run = run,
                        total = total,
                        lanes = lanes
                    ),
                    None => t!(
                        lang,
                        "analyze-run",
                        place = where_,
                        run = run,
                        total = total,
                        lanes = lanes
                    ),
                };
                lines.push(Line::from(text));
            }
            Err(e) => lines.push(Line::styled(
                t!(
                    lang,
                    "analyze-trace-error",
                    place = where_,
                    error = e.clone()
                ),
                theme.bad(),
            )),
        }
        lines.extend(merge_note);
        // What the line's divergence costs: its instructions issued with threads idle.
        if let Some([all, partial]) = self.report.profile.line_instructions.get(a.line as usize)
            && *partial > 0
        {
            lines.push(Line::styled(
                t!(
                    lang,
                    "analyze-line-divergence",
                    partial = compact(*partial),
                    all = compact(*all)
                ),
                theme.warn(),
            ));
        }
        lines
    }

    /// The predicted time's terms, largest first (the limiter marked), how they combine and the
    /// two baselines — what `analyze --text` prints under the report.
    fn render_time(
        &self,
        p: &crate::engine::timing::Prediction,
        theme: Theme,
        lang: Lang,
        area: Rect,
        buf: &mut Buffer,
    ) {
        let words = crate::analyze::timing_text::time_text(p, self.setup.gpu(), lang);
        let outer = block(&t!(lang, "analyze-time-title"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        let width = words
            .terms
            .iter()
            .map(|t| crate::text::columns(&t.label))
            .max()
            .unwrap_or(0)
            + 1;
        let mut lines = Vec::new();
        if let Some(n) = &words.not_calibrated {
            lines.push(Line::styled(n.clone(), theme.warn()));
        }
        for term in &words.terms {
            let style = if term.limiter {
                theme.bad()
            } else {
                theme.dim()
            };
            lines.push(Line::from(vec![
                Span::styled(if term.limiter { "▶" } else { " " }, style),
                Span::styled(crate::text::pad(&term.label, width), theme.title()),
                Span::raw(format!(
                    "{:>9} ms  ",
                    crate::analyze::timing_text::ms_text(term.ms)
                )),
                Span::raw(term.detail.clone()),
            ]));
        }
        lines.push(Line::styled(words.combine.clone(), theme.dim()));
        for baseline in &words.baselines {
            lines.push(Line::styled(baseline.clone(), theme.dim()));
        }
        let room = super::wrap_room(&lines, inner);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(room, buf);
    }

    fn render_diagram(&self, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
        let arch = self.setup.arch;
        match self.warp_access() {
            None => {
                let outer = block(&t!(lang, "analyze-warp-diagram"), theme);
                let inner = outer.inner(area);
                outer.render(area, buf);
                super::render_wrapped(
                    Line::styled(t!(lang, "analyze-move-to-access"), theme.dim()),
                    true,
                    inner,
                    buf,
                );
            }
            Some((access, Space::Global)) => match engine::coalesce(&access, Granularity::Sector) {
                Ok(c) => {
                    let title =
                        super::arch_title(&t!(lang, "analyze-warp-sectors"), arch, area.width);
                    super::explorer::global_diagram(&c, theme, lang, &title, area, buf);
                }
                Err(e) => message_box(&e.to_string(), theme, lang, area, buf),
            },
            Some((access, Space::Shared)) => match engine::bank_conflicts(&access, arch) {
                Ok(b) => super::explorer::bank_diagram(&b, theme, lang, arch, area, buf),
                Err(e) => message_box(&e.to_string(), theme, lang, area, buf),
            },
        }
    }
}

fn message_box(message: &str, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
    let outer = block(&t!(lang, "analyze-warp-diagram"), theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    super::render_wrapped(
        Line::styled(message.to_string(), theme.bad()),
        true,
        inner,
        buf,
    );
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        let last = self.lines.len().saturating_sub(1);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.move_to(self.cursor.saturating_sub(1)),
            KeyCode::Down | KeyCode::Char('j') => self.move_to((self.cursor + 1).min(last)),
            KeyCode::PageUp => self.move_to(self.cursor.saturating_sub(PAGE)),
            KeyCode::PageDown => self.move_to((self.cursor + PAGE).min(last)),
            KeyCode::Home => self.move_to(0),
            KeyCode::End => self.move_to(last),
            KeyCode::Char('n') => {
                if let Some(line) = self.next_access_line(true) {
                    self.move_to(line);
                }
            }
            KeyCode::Char('N') => {
                if let Some(line) = self.next_access_line(false) {
                    self.move_to(line);
                }
            }
            KeyCode::Tab => {
                let count = self.line_accesses().len();
                if count > 1 {
                    self.access = (self.access + 1) % count;
                    self.first_warp();
                }
            }
            KeyCode::Right | KeyCode::Char('l') => {
                let shown = self.trace.as_ref().map_or(0, |t| t.executions.len());
                if self.iteration + 1 < shown {
                    self.iteration += 1;
                }
            }
            KeyCode::Left | KeyCode::Char('h') => self.iteration = self.iteration.saturating_sub(1),
            KeyCode::Char(c @ ('w' | 'W')) => {
                self.warp = State::step(self.warp, self.warps_per_block(), c == 'w');
                self.retrace();
            }
            KeyCode::Char(c @ ('b' | 'B')) => {
                self.block = State::step(self.block, self.blocks(), c == 'b');
                self.retrace();
            }
            KeyCode::Char('t') => self.show_time = !self.show_time,
            KeyCode::Enter => {
                let (access, space) = self.warp_access()?;
                return Some(Action::OpenExplorer(ExplorerSetup::new(
                    self.setup.arch,
                    space,
                    &access,
                )));
            }
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let theme = ctx.theme;
        let lang = ctx.lang;
        if area.width < 4 || area.height < 4 {
            return;
        }
        let merged = self.report.merged_totals.as_ref();
        // The predicted time and what limits it, under the totals.
        let time = self
            .report
            .time
            .as_ref()
            .map(|p| crate::analyze::timing_text::time_text(p, self.setup.gpu(), lang).head);
        let [head, body] = area.layout(&Layout::vertical([
            Constraint::Length(2 + u16::from(merged.is_some()) + u16::from(time.is_some())),
            Constraint::Fill(1),
        ]));
        let title = t!(
            lang,
            "analyze-kernel-title",
            kernel = self.report.kernel.to_string(),
            grid = dims(self.report.grid),
            block = dims(self.report.block),
            file = self.setup.file.to_string()
        );
        let width = usize::from(head.width);
        let totals_label = t!(lang, "analyze-totals");
        let merged_label = t!(lang, "analyze-if-merged");
        let labels = [totals_label.as_str(), merged_label.as_str()];
        let totals_cell = label_cell(&totals_label, &labels);
        let merged_cell = label_cell(&merged_label, &labels);
        let label_width = Span::raw(totals_cell.as_str()).width();
        let mut head_lines = vec![
            Line::styled(ellipsis(&title, width), theme.title()),
            Line::from(vec![
                Span::styled(totals_cell, theme.title()),
                Span::raw(ellipsis(
                    &with_assumed(
                        with_divergence(
                            totals_line(
                                &self.report.totals,
                                self.report.atomics.len(),
                                self.report.atomic_totals.as_ref(),
                                lang,
                            ),
                            &self.report.divergence,
                            lang,
                        ),
                        &self.report.assumed,
                        lang,
                    ),
                    width.saturating_sub(label_width),
                )),
            ]),
        ];
        if let Some(m) = merged {
            head_lines.push(Line::from(vec![
                Span::styled(merged_cell, theme.warn()),
                Span::styled(
                    ellipsis(
                        &totals_line(m, 0, None, lang),
                        width.saturating_sub(label_width),
                    ),
                    theme.warn(),
                ),
            ]));
        }
        if let Some(time) = &time {
            head_lines.push(Line::styled(ellipsis(time, width), theme.title()));
        }
        Paragraph::new(head_lines).render(head, buf);
        let details = self.detail_lines(theme, lang);
        let (source_area, side) = if body.width >= 140 {
            let [s, side] = body.layout(&Layout::horizontal([
                Constraint::Fill(1),
                Constraint::Length(body.width.saturating_mul(11) / 20),
            ]));
            (s, side)
        } else {
            // A few lines of source around the selected one; on a short screen the rest goes to
            // the access's figures and diagram.
            let source_rows = if body.height < 30 {
                (body.height / 3).max(5)
            } else {
                body.height * 2 / 5
            };
            let [s, side] = body.layout(&Layout::vertical([
                Constraint::Length(source_rows),
                Constraint::Fill(1),
            ]));
            (s, side)
        };
        self.render_source(theme, ctx.lang, source_area, buf);
        // `t`: the predicted time's terms take the place of the access's figures and diagram.
        if let Some(p) = self.report.time.as_ref().filter(|_| self.show_time) {
            self.render_time(p, theme, lang, side, buf);
            return;
        }
        // Korean rows wrap one column short of the border (see `wrap_room`).
        let detail_width = super::wrap_room(&details, side).width.saturating_sub(2);
        // The figures, why and run line first; the diagram keeps at least its lane rows and one
        // sector row (6 rows) when there is room for both.
        const DIAGRAM_ROWS: u16 = 6;
        let detail_height = (super::wrapped_height(&details, detail_width) + 2).min(
            if side.height >= 2 * DIAGRAM_ROWS {
                side.height - DIAGRAM_ROWS
            } else {
                side.height / 2
            },
        );
        let [detail_area, diagram_area] = side.layout(&Layout::vertical([
            Constraint::Length(detail_height),
            Constraint::Fill(1),
        ]));
        let title = match self.selected_access() {
            Some(site) => t!(
                lang,
                "analyze-line-title",
                line = (self.cursor + 1).to_string(),
                text = crate::format::printable(&self.report.lines[site].text).into_owned()
            ),
            None => t!(lang, "analyze-line", line = (self.cursor + 1).to_string()),
        };
        let outer = block(
            &ellipsis(&title, usize::from(side.width).saturating_sub(4)),
            theme,
        );
        let inner = outer.inner(detail_area);
        outer.render(detail_area, buf);
        let room = super::wrap_room(&details, inner);
        Paragraph::new(details)
            .wrap(Wrap { trim: false })
            .render(room, buf);
        if diagram_area.is_empty() {
            return;
        }
        self.render_diagram(theme, lang, diagram_area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        analyser_keys(lang)
    }
}

/// Analyses running on worker threads now (see [`Pending`]).
static WORKING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Whether an analysis is running on a worker thread, or its result waits to be shown: the event
/// loop then wakes up a few times a second, to show the result as soon as it is there.
pub fn working() -> bool {
    WORKING.load(std::sync::atomic::Ordering::SeqCst) > 0
}

/// Counts one analysis in [`WORKING`] for as long as it lives: until the worker is done *and* the
/// screen that waits for it is gone, so that a result that arrives just before the event loop
/// goes to sleep still wakes it.
#[derive(Debug)]
struct Ticket;

impl Ticket {
    fn new() -> Ticket {
        WORKING.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ticket
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        WORKING.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// What a worker thread leaves for the screen: the analysed kernel, or why not.
#[derive(Debug)]
struct Slot {
    result: std::sync::Mutex<Option<Result<State, String>>>,
    _ticket: Ticket,
}

type Outcome = std::sync::Arc<Slot>;

/// A kernel being analysed on a worker thread, so that the screen keeps answering keys: shows
/// "analysing… (Esc cancels)" until the result is there. Leaving it (Esc, `g`, quitting) sets the
/// cancel flag, which the interpreter reads every few thousand steps.
#[derive(Debug, Clone)]
pub struct Pending {
    file: String,
    cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
    outcome: Outcome,
    started: std::time::Instant,
}

impl Pending {
    /// Starts analysing `setup` on a worker thread (on this one when no thread can be started).
    pub fn start(setup: AnalyzeSetup) -> Pending {
        use std::sync::atomic::AtomicBool;
        use std::sync::{Arc, Mutex};
        let cancel = Arc::new(AtomicBool::new(false));
        let outcome: Outcome = Arc::new(Slot {
            result: Mutex::new(None),
            _ticket: Ticket::new(),
        });
        let file = setup.file.clone();
        let work = {
            let cancel = Arc::clone(&cancel);
            let outcome = Arc::clone(&outcome);
            move || {
                let result = analyze::run::cancellable(cancel, || State::new(&setup));
                if let Ok(mut slot) = outcome.result.lock() {
                    *slot = Some(result);
                }
            }
        };
        let spawned = std::thread::Builder::new()
            .name("analyse".into())
            .spawn(work);
        if let Err(e) = spawned
            && let Ok(mut slot) = outcome.result.lock()
        {
            *slot = Some(Err(e.to_string()));
        }
        Pending {
            file,
            cancel,
            outcome,
            started: std::time::Instant::now(),
        }
    }

    /// The result, once the worker is done (taken: a second call gives `None`).
    pub fn take(&self) -> Option<Result<State, String>> {
        self.outcome
            .result
            .lock()
            .ok()
            .and_then(|mut slot| slot.take())
    }

    /// Asks the worker to stop; it ends within a few thousand steps.
    pub fn cancel(&self) {
        self.cancel.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// The file being analysed.
    pub fn file(&self) -> &str {
        &self.file
    }
}

impl Component for Pending {
    fn handle_key(&mut self, _key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        // Esc (a global key) cancels; other keys wait for the result.
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let lang = ctx.lang;
        let outer = block(
            &t!(
                lang,
                "analyze-pending-title",
                file = crate::format::printable(&self.file).into_owned()
            ),
            ctx.theme,
        );
        let inner = outer.inner(area);
        outer.render(area, buf);
        let seconds = self.started.elapsed().as_secs();
        let text = vec![
            Line::styled(t!(lang, "analyze-pending"), ctx.theme.title()),
            Line::from(t!(
                lang,
                "analyze-pending-time",
                seconds = seconds.to_string()
            )),
        ];
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .render(inner, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        vec![KeyHint::new("Esc", t!(lang, "analyze-key-cancel"))]
    }
}
