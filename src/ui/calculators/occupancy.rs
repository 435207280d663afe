//! The occupancy calculator: a kernel's launch configuration → resident blocks and warps per SM,
//! which resource limits them, and three what-if plots as Nsight Compute draws them.

use super::{WIDE, clamp_u32, frame, in_range, next_nvidia, nvidia_arch, results_width};
use crate::engine::{
    self, Arch, Carveout, KernelConfig, Limiter, NvidiaLimits, Occupancy, OccupancyCalculator,
};
use crate::format;
use crate::i18n::Lang;
use crate::t;
use crate::ui::fields::{Panel, PanelEvent, parse_bytes, parse_int};

/// A typed size in bytes, as a signed number for the range check.
fn bytes(text: &str) -> Result<i64, String> {
    parse_bytes(text).map(|b| i64::try_from(b).unwrap_or(i64::MAX))
}
use crate::ui::{Theme, block};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Widget};
use std::fmt::Write as _;

/// Occupancy inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct OccupancyInputs {
    /// Architecture (one with occupancy figures).
    pub arch: &'static Arch,
    /// The configuration.
    pub config: KernelConfig,
    /// The panel.
    pub panel: Panel,
    /// Whether the heat map (block size × registers) replaces the what-if plots (`m`).
    pub heat_map: bool,
}

/// Rows of the panel, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Row {
    Arch,
    BlockSize,
    Registers,
    StaticSmem,
    DynamicSmem,
    Carveout,
}

impl Row {
    const ALL: [Row; 6] = [
        Row::Arch,
        Row::BlockSize,
        Row::Registers,
        Row::StaticSmem,
        Row::DynamicSmem,
        Row::Carveout,
    ];

    fn label(self, lang: Lang) -> String {
        match self {
            Row::Arch => t!(lang, "calc-occ-row-arch"),
            Row::BlockSize => t!(lang, "calc-occ-row-block-size"),
            Row::Registers => t!(lang, "calc-occ-row-registers"),
            Row::StaticSmem => t!(lang, "calc-occ-row-static-smem"),
            Row::DynamicSmem => t!(lang, "calc-occ-row-dynamic-smem"),
            Row::Carveout => t!(lang, "calc-occ-row-carveout"),
        }
    }
}

/// A limit's name in `lang`.
pub(super) fn limiter_label(limiter: Limiter, lang: Lang) -> String {
    match limiter {
        Limiter::Warps => t!(lang, "calc-limiter-warps"),
        Limiter::Registers => t!(lang, "calc-limiter-registers"),
        Limiter::SharedMemory => t!(lang, "calc-limiter-shared-memory"),
        Limiter::Blocks => t!(lang, "calc-limiter-blocks"),
    }
}

/// Largest shared memory per block ←→ reach (a typed value may go up to [`TYPED_SMEM_MAX`]).
const STEPPED_SMEM_MAX: u32 = 256 * 1024;
/// Largest shared memory per block that can be typed.
const TYPED_SMEM_MAX: i64 = 1 << 20;

impl OccupancyInputs {
    /// The row under the cursor (the last one if the cursor is past it).
    fn selected(&self) -> Row {
        *Row::ALL.get(self.panel.selected).unwrap_or(&Row::Carveout)
    }

    fn value(&self, row: Row, lang: Lang) -> String {
        let c = &self.config;
        match row {
            Row::Arch => self.arch.key.to_string(),
            Row::BlockSize => t!(lang, "calc-value-threads", n = c.block_size.to_string()),
            Row::Registers => t!(
                lang,
                "calc-value-per-thread",
                n = c.regs_per_thread.to_string()
            ),
            Row::StaticSmem => format::bytes(u64::from(c.static_smem)),
            Row::DynamicSmem => format::bytes(u64::from(c.dynamic_smem)),
            Row::Carveout => match c.carveout {
                Carveout::Default => t!(lang, "calc-value-default"),
                Carveout::Percent(p) => format!("{p}%"),
            },
        }
    }

    fn rows(&self, lang: Lang) -> Vec<(String, String)> {
        Row::ALL
            .iter()
            .map(|&row| (row.label(lang), self.value(row, lang)))
            .collect()
    }

    /// Handles a key: ↑↓ choose a row, ←→ step its value (Shift: registers by 8), Enter types one.
    pub(super) fn key(&mut self, key: KeyEvent, lang: Lang) {
        if !self.panel.typing() && key.code == KeyCode::Char('m') {
            self.heat_map = !self.heat_map;
            return;
        }
        let big = key.modifiers.contains(KeyModifiers::SHIFT);
        let row = self.selected();
        match self.panel.key(key, Row::ALL.len()) {
            PanelEvent::Adjust(step) => self.adjust(row, step, big),
            PanelEvent::Submit(text) => self.panel.error = self.set(row, &text, lang).err(),
            PanelEvent::Handled | PanelEvent::Ignored => {}
        }
    }

    /// Steps `row` by `step`: the next architecture, a warp of threads, a register (8 with
    /// `big`), 1 KB of shared memory, 25 % of carveout (past 100 %: the default).
    fn adjust(&mut self, row: Row, step: i64, big: bool) {
        let c = &mut self.config;
        match row {
            Row::Arch => self.arch = next_nvidia(self.arch, step),
            Row::BlockSize => {
                c.block_size = clamp_u32(i64::from(c.block_size) + 32 * step, 32, 1024);
            }
            Row::Registers => {
                let by = if big { 8 } else { 1 };
                c.regs_per_thread = clamp_u32(i64::from(c.regs_per_thread) + by * step, 0, 255);
            }
            Row::StaticSmem => {
                c.static_smem =
                    clamp_u32(i64::from(c.static_smem) + 1024 * step, 0, STEPPED_SMEM_MAX);
            }
            Row::DynamicSmem => {
                c.dynamic_smem =
                    clamp_u32(i64::from(c.dynamic_smem) + 1024 * step, 0, STEPPED_SMEM_MAX);
            }
            Row::Carveout => {
                // 101 stands for the default, one step past 100 %.
                let pct = match c.carveout {
                    Carveout::Default => 101,
                    Carveout::Percent(p) => i64::from(p),
                };
                let next = (pct + 25 * step).clamp(0, 101);
                c.carveout = match u8::try_from(next) {
                    Ok(p) if p <= 100 => Carveout::Percent(p),
                    _ => Carveout::Default,
                };
            }
        }
    }

    /// Sets `row` to a typed value; an unusable one leaves it as it was and says why.
    fn set(&mut self, row: Row, text: &str, lang: Lang) -> Result<(), String> {
        let c = &mut self.config;
        match row {
            Row::Arch => self.arch = nvidia_arch(text, lang)?,
            Row::BlockSize => {
                let name = t!(lang, "calc-name-block-size");
                c.block_size = in_range(parse_int(text)?, 1, 1024, &name, lang)?;
            }
            Row::Registers => {
                let name = t!(lang, "calc-name-registers");
                c.regs_per_thread = in_range(parse_int(text)?, 0, 255, &name, lang)?;
            }
            Row::StaticSmem => {
                let name = t!(lang, "calc-name-static-smem");
                c.static_smem = in_range(bytes(text)?, 0, TYPED_SMEM_MAX, &name, lang)?;
            }
            Row::DynamicSmem => {
                let name = t!(lang, "calc-name-dynamic-smem");
                c.dynamic_smem = in_range(bytes(text)?, 0, TYPED_SMEM_MAX, &name, lang)?;
            }
            Row::Carveout => {
                let t = text.trim().trim_end_matches('%');
                c.carveout = if t.eq_ignore_ascii_case("default") {
                    Carveout::Default
                } else {
                    Carveout::from_pct(parse_int(t)?).map_err(|e| e.to_string())?
                };
            }
        }
        Ok(())
    }
}

/// Draws the occupancy calculator: the panel, the engine's answer with every limit, the
/// textbook bound beside the hardware's, and the what-if plots below.
pub(super) fn render(
    inputs: &OccupancyInputs,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) {
    let texts = inputs.rows(lang);
    let rows: Vec<(&str, String)> = texts.iter().map(|(l, v)| (l.as_str(), v.clone())).collect();
    let kernel = t!(lang, "calc-occ-kernel");
    let panel = (kernel.as_str(), rows.as_slice(), &inputs.panel);
    let title = crate::ui::arch_title(
        &t!(lang, "calc-occ-title"),
        inputs.arch,
        results_width(area),
    );
    let Some(limits) = inputs.arch.nvidia else {
        return;
    };
    let o = match engine::nvidia_occupancy(&limits, &inputs.config) {
        Ok(o) => o,
        Err(e) => {
            frame(
                panel,
                &title,
                vec![Line::styled(e.to_string(), theme.bad())],
                12,
                theme,
                area,
                buf,
            );
            return;
        }
    };
    let wide = area.width >= WIDE;
    let limited_by = o
        .limited_by
        .iter()
        .map(|l| limiter_label(l, lang))
        .collect::<Vec<_>>()
        .join(", ");
    let mut lines = vec![Line::from(vec![
        Span::styled(
            t!(
                lang,
                "calc-occ-occupancy",
                percent = format::percent(o.occupancy)
            ),
            theme.title(),
        ),
        Span::raw(format!(
            " · {} · ",
            t!(
                lang,
                "calc-occ-blocks-warps",
                blocks = o.active_blocks_per_sm.to_string(),
                warps = o.active_warps_per_sm.to_string(),
                max = o.max_warps_per_sm.to_string()
            )
        )),
        Span::styled(
            t!(lang, "calc-occ-limited-by", limiters = limited_by),
            theme.bad(),
        ),
    ])];
    if wide {
        for limiter in Limiter::ALL {
            let binds = o.limited_by.contains(limiter);
            lines.push(Line::from(vec![
                Span::styled(
                    format!(
                        "  {}{:>4}",
                        crate::ui::diagram::pad_right(&limiter_label(limiter, lang), 14),
                        o.limits.get(limiter)
                    ),
                    if binds { theme.bad() } else { theme.text() },
                ),
                Span::styled(
                    if binds {
                        format!(" ◀ {}", t!(lang, "calc-occ-limiter"))
                    } else {
                        String::new()
                    },
                    theme.bad(),
                ),
            ]));
        }
    } else {
        let mut spans = vec![Span::styled(
            format!("{} ", t!(lang, "calc-occ-blocks-per-sm")),
            theme.dim(),
        )];
        for (i, limiter) in Limiter::ALL.into_iter().enumerate() {
            let binds = o.limited_by.contains(limiter);
            if i > 0 {
                spans.push(Span::styled(" · ", theme.dim()));
            }
            spans.push(Span::styled(
                format!(
                    "{} {}{}",
                    limiter_label(limiter, lang),
                    o.limits.get(limiter),
                    if binds { " ◀" } else { "" }
                ),
                if binds { theme.bad() } else { theme.text() },
            ));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::styled(
        t!(
            lang,
            "calc-occ-per-block",
            regs = o.regs_per_block.to_string(),
            per_warp = o.regs_per_warp.to_string(),
            smem = format::bytes(u64::from(o.smem_per_block)),
            carveout = format::bytes(u64::from(o.carveout_bytes))
        ),
        theme.dim(),
    ));
    lines.push(Line::from(vec![
        Span::styled(format!("{} ", t!(lang, "calc-occ-textbook")), theme.dim()),
        Span::raw(t!(
            lang,
            "calc-occ-textbook-threads",
            threads = o.textbook.threads.to_string(),
            rounded = o.textbook.warp_rounded_threads.to_string(),
            percent = format::percent(o.textbook.occupancy)
        )),
        Span::styled(
            format!(" {} ", t!(lang, "calc-occ-vs-hardware")),
            theme.dim(),
        ),
        Span::styled(format::percent(o.occupancy), theme.good()),
    ]));
    let plots = frame(panel, &title, lines, 12, theme, area, buf);
    let calculator = OccupancyCalculator::shared(&limits);
    if inputs.heat_map {
        heat_map(&calculator, &inputs.config, theme, lang, plots, buf);
    } else {
        what_if_plots(&calculator, &inputs.config, &o, theme, lang, plots, buf);
    }
}

/// Occupancy of every block size (columns) × registers per thread (rows) with the rest of the
/// kernel as set: each cell the percentage, coloured, and `*` on the sample nearest the kernel.
/// Columns step by whole warps so that each cell holds 4 characters; rows by a power of two of
/// registers so that they fit.
fn heat_map(
    calculator: &OccupancyCalculator,
    config: &KernelConfig,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) {
    let current = calculator
        .evaluate(config)
        .map_or("—".to_string(), |o| format::percent(o.occupancy));
    let title = t!(
        lang,
        "calc-heat-title",
        block = config.block_size.to_string(),
        regs = config.regs_per_thread.to_string(),
        current = current
    );
    // A cell where no block fits is a launch that fails, not an occupancy of 0: the bottom border
    // says what its mark means.
    let outer = block(&title, theme).title_bottom(Line::styled(
        format!(" {} ", t!(lang, "calc-heat-cannot-launch")),
        theme.dim(),
    ));
    let inner = outer.inner(area);
    outer.render(area, buf);
    const LABEL: u16 = 5;
    let columns_room = inner.width.saturating_sub(LABEL);
    let rows_room = inner.height.saturating_sub(1);
    if columns_room < 4 || rows_room == 0 {
        return;
    }
    // Warps per column step: a power of two, so that 1024 threads is always the last column.
    let mut warps_step = 1u32;
    while 32 / warps_step * 4 > u32::from(columns_room) && warps_step < 32 {
        warps_step *= 2;
    }
    let mut blocks: Vec<u32> = (1..=32 / warps_step).map(|k| k * warps_step * 32).collect();
    let cell = (columns_room / blocks.len() as u16).max(4);
    let mut regs_step = 1u32;
    while 256u32.div_ceil(regs_step) > u32::from(rows_room) && regs_step < 256 {
        regs_step *= 2;
    }
    let mut regs: Vec<u32> = (0..256u32.div_ceil(regs_step))
        .map(|i| i * regs_step)
        .collect();
    let nearest = |samples: &[u32], value: u32| {
        samples
            .iter()
            .enumerate()
            .min_by_key(|(_, s)| s.abs_diff(value))
            .map(|(i, _)| i)
    };
    let mark = (
        nearest(&blocks, config.block_size),
        nearest(&regs, config.regs_per_thread),
    );
    // The kernel's own block size and register count take the place of the nearest samples (the
    // order stays), so its cell shows its own occupancy, the figure in the title — 33 registers
    // get a row of their own, not the 32-register row's value.
    if let Some(column) = mark.0
        && config.block_size <= 1024
    {
        blocks[column] = config.block_size;
    }
    if let Some(row) = mark.1
        && config.regs_per_thread <= 255
    {
        regs[row] = config.regs_per_thread;
    }
    let width = usize::from(cell);
    // Labels need 5 characters to stay apart ("960 1024"); in 4-character cells every other
    // column is labelled, over both.
    let mut header = vec![Span::styled(format!("{:>4} ", "reg"), theme.dim())];
    if width >= 5 {
        for block_size in &blocks {
            header.push(Span::styled(format!("{block_size:>width$}"), theme.dim()));
        }
    } else {
        for pair in blocks.chunks(2) {
            let label = pair.last().map_or(String::new(), u32::to_string);
            header.push(Span::styled(
                format!("{label:>w$}", w = width * pair.len()),
                theme.dim(),
            ));
        }
    }
    Line::from(header).render(Rect { height: 1, ..inner }, buf);
    // Written cell by cell into the buffer: 1024 cells a frame, no line of spans built.
    let mut text = String::with_capacity(8);
    for (row, &r) in regs.iter().enumerate() {
        let y = inner.y.saturating_add(1).saturating_add(row as u16);
        if y >= inner.bottom() {
            break;
        }
        buf.set_string(inner.x, y, format!("{r:>4} "), theme.dim());
        for (column, &block_size) in blocks.iter().enumerate() {
            let x = inner
                .x
                .saturating_add(LABEL)
                .saturating_add(cell.saturating_mul(column as u16));
            if x.saturating_add(cell) > inner.right() {
                break;
            }
            let sample = KernelConfig {
                block_size,
                regs_per_thread: r,
                ..*config
            };
            let marked = mark == (Some(column), Some(row));
            text.clear();
            let mut style = match calculator.evaluate(&sample) {
                Ok(o) if o.active_blocks_per_sm == 0 => {
                    text.push('×');
                    theme.bad()
                }
                Ok(o) => {
                    let _ = write!(text, "{:.0}", (o.occupancy * 100.0).floor());
                    theme.heat(o.occupancy)
                }
                Err(_) => {
                    text.push('-');
                    theme.dim()
                }
            };
            // The kernel's own cell: reversed, and starred where a star fits beside the value.
            if marked {
                style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
                if text.len() + 1 < width {
                    text.insert(0, '*');
                }
            }
            buf.set_stringn(x, y, format!("{text:>width$}"), width, style);
        }
    }
}

/// Occupancy against block size, registers per thread and shared memory per block, each marking the
/// current configuration — the three plots of Nsight Compute's occupancy section.
fn what_if_plots(
    calculator: &OccupancyCalculator,
    config: &KernelConfig,
    current: &Occupancy,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) {
    let limits: &NvidiaLimits = calculator.limits();
    let [a, b, c] = area.layout(&Layout::horizontal([Constraint::Ratio(1, 3); 3]));
    let pct = |o: &Occupancy| o.occupancy * 100.0;
    let sweep = |values: &mut dyn Iterator<Item = (f64, KernelConfig)>| -> Vec<(f64, f64)> {
        values
            .map(|(x, cfg)| (x, calculator.evaluate(&cfg).map_or(0.0, |o| pct(&o))))
            .collect()
    };
    let by_block = sweep(&mut (1..=32).map(|w| {
        (
            f64::from(w * 32),
            KernelConfig {
                block_size: w * 32,
                ..*config
            },
        )
    }));
    let by_regs = sweep(&mut (0..=255).map(|r| {
        (
            f64::from(r),
            KernelConfig {
                regs_per_thread: r,
                ..*config
            },
        )
    }));
    let max_smem = limits.smem_optin_per_block;
    // At least 256 bytes a sample: `step` is never 0, and `i * step` stays within `max_smem`.
    let step = (max_smem / 128).max(256);
    let by_smem = sweep(&mut (0..=max_smem / step).map(|i| {
        let bytes: u32 = i * step;
        (
            f64::from(bytes) / 1024.0,
            KernelConfig {
                dynamic_smem: bytes.saturating_sub(config.static_smem),
                ..*config
            },
        )
    }));
    let now = pct(current);
    plot(
        &t!(lang, "calc-plot-block-size"),
        &by_block,
        (f64::from(config.block_size), now),
        [32.0, 1024.0],
        ["32", "512", "1024"],
        theme,
        a,
        buf,
    );
    plot(
        &t!(lang, "calc-plot-registers"),
        &by_regs,
        (f64::from(config.regs_per_thread), now),
        [0.0, 255.0],
        ["0", "128", "255"],
        theme,
        b,
        buf,
    );
    let smem_kb = (f64::from(config.static_smem) + f64::from(config.dynamic_smem)) / 1024.0;
    let max_kb = f64::from(max_smem) / 1024.0;
    let mid = format!("{}", (max_kb / 2.0).round());
    let end = format!("{}K", max_kb.round());
    plot(
        &t!(lang, "calc-plot-smem"),
        &by_smem,
        (smem_kb, now),
        [0.0, max_kb],
        ["0", &mid, &end],
        theme,
        c,
        buf,
    );
}

/// One what-if plot: occupancy (0–100 %) against `data`'s x, held flat between samples, with the
/// current configuration marked.
#[allow(clippy::too_many_arguments)]
fn plot(
    title: &str,
    data: &[(f64, f64)],
    current: (f64, f64),
    x_bounds: [f64; 2],
    x_labels: [&str; 3],
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let marker = [current];
    // Occupancy changes in steps: hold each value until the next sample, as Nsight Compute draws it.
    let mut steps = Vec::with_capacity(data.len() * 2);
    for pair in data.windows(2) {
        steps.push(pair[0]);
        steps.push((pair[1].0, pair[0].1));
    }
    steps.extend(data.last());
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.series(0))
            .data(&steps),
        Dataset::default()
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(theme.bad())
            .data(&marker),
    ];
    let chart = Chart::new(datasets)
        .block(block(
            &format!("{title} ■ {}", format::percent(current.1 / 100.0)),
            theme,
        ))
        .x_axis(
            Axis::default().bounds(x_bounds).labels(
                x_labels
                    .iter()
                    .map(|l| Span::styled(l.to_string(), theme.dim()))
                    .collect::<Vec<_>>(),
            ),
        )
        .y_axis(
            Axis::default().bounds([0.0, 100.0]).labels(
                ["0", "50", "100%"]
                    .map(|l| Span::styled(l, theme.dim()))
                    .to_vec(),
            ),
        );
    chart.render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::super::testing::{press, screen, type_value};
    use super::super::{State, Tab};
    use super::*;
    use ratatui::crossterm::event::KeyCode;

    /// The occupancy calculator on 256 threads × `regs` registers, sm_90.
    fn occupancy(regs: u32) -> State {
        let mut state = State::new(Tab::Occupancy);
        state.occupancy.config = KernelConfig::new(256, regs);
        state
    }

    fn config(state: &State) -> KernelConfig {
        state.occupancy.config
    }

    #[test]
    fn hand_derived_numbers_are_on_screen() {
        // 48 registers × 32 lanes = 1536 per warp, × 8 warps = 12288 per block;
        // 65536 / 12288 = 5.3 → 5 blocks = 40 of 64 warps = 62.5 %.
        let text = screen(&occupancy(48), 80, 24);
        assert!(text.contains("occupancy 62.5%"), "{text}");
        assert!(text.contains("blocks 5 · warps 40/64"), "{text}");
        // 32 registers: 8192 per block → 8 blocks, and 8 blocks × 8 warps fill all 64.
        let text = screen(&occupancy(32), 80, 24);
        assert!(text.contains("occupancy 100%"), "{text}");
        assert!(text.contains("blocks 8 · warps 64/64"), "{text}");
    }

    #[test]
    fn up_and_down_move_between_rows_and_stop_at_the_ends() {
        let mut state = occupancy(32);
        press(&mut state, KeyCode::Up);
        assert_eq!(state.occupancy.selected(), Row::Arch);
        press(&mut state, KeyCode::Down);
        assert_eq!(state.occupancy.selected(), Row::BlockSize);
        press(&mut state, KeyCode::Char('j'));
        assert_eq!(state.occupancy.selected(), Row::Registers);
        for _ in 0..10 {
            press(&mut state, KeyCode::Down);
        }
        assert_eq!(state.occupancy.selected(), Row::Carveout);
        assert_eq!(state.occupancy.panel.selected, 5);
        press(&mut state, KeyCode::Char('k'));
        assert_eq!(state.occupancy.selected(), Row::DynamicSmem);
    }

    /// Selects `row` from the top.
    fn select(state: &mut State, row: Row) {
        for _ in 0..Row::ALL.len() {
            press(state, KeyCode::Up);
        }
        let at = Row::ALL.iter().position(|&r| r == row).unwrap_or(0);
        for _ in 0..at {
            press(state, KeyCode::Down);
        }
        assert_eq!(state.occupancy.selected(), row);
    }

    #[test]
    fn left_and_right_step_the_row_under_the_cursor_within_its_bounds() {
        let mut state = occupancy(32);
        select(&mut state, Row::Arch);
        press(&mut state, KeyCode::Right);
        assert_eq!(state.occupancy.arch.key, "sm_100");
        press(&mut state, KeyCode::Left);
        press(&mut state, KeyCode::Left);
        assert_eq!(state.occupancy.arch.key, "sm_89");

        select(&mut state, Row::BlockSize);
        press(&mut state, KeyCode::Left);
        assert_eq!(config(&state).block_size, 224);
        assert_eq!(config(&state).regs_per_thread, 32, "only the row selected");
        for _ in 0..40 {
            press(&mut state, KeyCode::Left);
        }
        assert_eq!(config(&state).block_size, 32);
        for _ in 0..40 {
            press(&mut state, KeyCode::Right);
        }
        assert_eq!(config(&state).block_size, 1024);

        select(&mut state, Row::Registers);
        press(&mut state, KeyCode::Char('+'));
        assert_eq!(config(&state).regs_per_thread, 33);
        for _ in 0..40 {
            press(&mut state, KeyCode::Left);
        }
        assert_eq!(config(&state).regs_per_thread, 0);
        for _ in 0..40 {
            state.key(KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT));
        }
        assert_eq!(config(&state).regs_per_thread, 255);

        select(&mut state, Row::StaticSmem);
        press(&mut state, KeyCode::Right);
        assert_eq!(config(&state).static_smem, 1024);
        press(&mut state, KeyCode::Left);
        press(&mut state, KeyCode::Left);
        assert_eq!(config(&state).static_smem, 0);

        select(&mut state, Row::DynamicSmem);
        for _ in 0..300 {
            press(&mut state, KeyCode::Right);
        }
        assert_eq!(config(&state).dynamic_smem, 256 * 1024);

        select(&mut state, Row::Carveout);
        assert_eq!(config(&state).carveout, Carveout::Default);
        press(&mut state, KeyCode::Right);
        assert_eq!(
            config(&state).carveout,
            Carveout::Default,
            "default is the top"
        );
        let mut seen = Vec::new();
        for _ in 0..6 {
            press(&mut state, KeyCode::Left);
            seen.push(config(&state).carveout);
        }
        let p = Carveout::Percent;
        assert_eq!(seen, vec![p(76), p(51), p(26), p(1), p(0), p(0)]);
        press(&mut state, KeyCode::Right);
        assert_eq!(config(&state).carveout, p(25));
    }

    #[test]
    fn a_typed_value_is_set_and_the_numbers_follow() {
        let mut state = occupancy(32);
        select(&mut state, Row::Registers);
        press(&mut state, KeyCode::Enter);
        assert!(state.typing());
        for c in "48".chars() {
            press(&mut state, KeyCode::Char(c));
        }
        assert!(screen(&state, 80, 24).contains("registers 48▏"));
        press(&mut state, KeyCode::Enter);
        assert!(!state.typing());
        assert_eq!(config(&state).regs_per_thread, 48);
        assert!(screen(&state, 80, 24).contains("occupancy 62.5%"));

        select(&mut state, Row::Arch);
        type_value(&mut state, "sm_80");
        assert_eq!(state.occupancy.arch.key, "sm_80");
        select(&mut state, Row::BlockSize);
        type_value(&mut state, "1,024");
        assert_eq!(config(&state).block_size, 1024);
        select(&mut state, Row::StaticSmem);
        type_value(&mut state, "48k");
        assert_eq!(config(&state).static_smem, 48 * 1024);
        select(&mut state, Row::DynamicSmem);
        type_value(&mut state, "0x100");
        assert_eq!(config(&state).dynamic_smem, 256);
        select(&mut state, Row::Carveout);
        type_value(&mut state, "50%");
        assert_eq!(config(&state).carveout, Carveout::Percent(50));
        type_value(&mut state, "Default");
        assert_eq!(config(&state).carveout, Carveout::Default);
        assert_eq!(state.occupancy.panel.error, None);
    }

    #[test]
    fn a_bad_value_shows_why_and_keeps_the_old_one() {
        let mut state = occupancy(32);
        select(&mut state, Row::Registers);
        type_value(&mut state, "300");
        assert_eq!(config(&state).regs_per_thread, 32);
        let error = "registers per thread must be 0 to 255, got 300";
        assert_eq!(state.occupancy.panel.error.as_deref(), Some(error));
        assert!(screen(&state, 80, 24).contains(error));
        type_value(&mut state, "many");
        assert_eq!(
            state.occupancy.panel.error.as_deref(),
            Some("`many`: not a whole number (e.g. 32, -4, 0x80, 1,024)")
        );
        for text in ["-1", "", "999999999999", "1e400", "NaN"] {
            type_value(&mut state, text);
            assert!(state.occupancy.panel.error.is_some(), "{text:?}");
            assert_eq!(config(&state).regs_per_thread, 32, "{text:?}");
        }
        // Typing again clears the error; Esc leaves the value alone.
        press(&mut state, KeyCode::Enter);
        assert_eq!(state.occupancy.panel.error, None);
        press(&mut state, KeyCode::Char('9'));
        press(&mut state, KeyCode::Esc);
        assert_eq!(config(&state).regs_per_thread, 32);

        select(&mut state, Row::BlockSize);
        type_value(&mut state, "0");
        assert_eq!(config(&state).block_size, 256);
        select(&mut state, Row::Arch);
        type_value(&mut state, "gfx942");
        assert_eq!(state.occupancy.arch.key, "sm_90");
        assert!(
            state
                .occupancy
                .panel
                .error
                .as_deref()
                .is_some_and(|e| e.contains("no NVIDIA occupancy figures")),
            "{:?}",
            state.occupancy.panel.error
        );
        select(&mut state, Row::Carveout);
        type_value(&mut state, "101");
        assert_eq!(config(&state).carveout, Carveout::Default);
        assert!(state.occupancy.panel.error.is_some());
        select(&mut state, Row::StaticSmem);
        type_value(&mut state, "2M");
        assert_eq!(config(&state).static_smem, 0);
        assert!(state.occupancy.panel.error.is_some());
    }
}
