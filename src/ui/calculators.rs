//! Calculators: occupancy (with three what-if plots as Nsight Compute draws them), tiling, roofline
//! (log-log chart with the ridge and labelled kernel points). Every number comes from the engine.

pub use super::action::Tab;
use super::fields::{self, Panel, PanelEvent, parse_int, parse_si};
use super::{Action, Component, Ctx, Theme, block};
use crate::engine::{
    self, ARCHS, Arch, Bound, Carveout, KernelConfig, Limiter, NvidiaLimits, Occupancy, TilingInput,
};
use crate::format;
use crate::ladder::ShowMe;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget, Wrap};

/// Keys shown in the footer.
pub const KEYS: &[(&str, &str)] = &[
    ("Tab/1-3", "calculator"),
    ("↑↓", "field"),
    ("←→", "value"),
    ("Enter", "type a value"),
    ("q", "back"),
    ("a/d", "add/remove a roofline kernel"),
    ("?", "help"),
];

impl Tab {
    /// Parses `occupancy`, `tiling`, `roofline`.
    pub fn parse(text: &str) -> Option<Tab> {
        match text.trim().to_lowercase().as_str() {
            "occupancy" | "occ" => Some(Tab::Occupancy),
            "tiling" | "tile" => Some(Tab::Tiling),
            "roofline" | "roof" => Some(Tab::Roofline),
            _ => None,
        }
    }
}

/// Occupancy inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct OccupancyInputs {
    /// Architecture (one with occupancy figures).
    pub arch: &'static Arch,
    /// The configuration.
    pub config: KernelConfig,
    /// The panel.
    pub panel: Panel,
}

/// Tiling inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct TilingInputs {
    /// Architecture.
    pub arch: &'static Arch,
    /// Sizes.
    pub input: TilingInput,
    /// Registers per thread of the tiled kernel.
    pub regs: u32,
    /// The panel.
    pub panel: Panel,
}

/// Roofline inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct RooflineInputs {
    /// Peak FLOP/s.
    pub peak_flops: f64,
    /// Peak bytes/s.
    pub bandwidth: f64,
    /// Named kernels and their intensities (FLOP/B).
    pub points: Vec<(String, f64)>,
    /// The panel.
    pub panel: Panel,
}

/// The calculators' state.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// The calculator shown.
    pub tab: Tab,
    /// Occupancy.
    pub occupancy: OccupancyInputs,
    /// Tiling.
    pub tiling: TilingInputs,
    /// Roofline.
    pub roofline: RooflineInputs,
}

impl State {
    /// The calculator an exercise's "show me" asks for, on its numbers (`None` for an access
    /// pattern: that is the explorer's).
    pub fn from_show_me(target: &ShowMe) -> Option<State> {
        Some(match target {
            ShowMe::Global { .. } | ShowMe::Shared { .. } => return None,
            ShowMe::Occupancy { arch, config } => {
                let mut state = State::new(Tab::Occupancy);
                state.occupancy.arch = arch;
                state.occupancy.config = *config;
                state
            }
            ShowMe::Tiling { arch, input } => {
                let mut state = State::new(Tab::Tiling);
                if arch.nvidia.is_some() {
                    state.tiling.arch = arch;
                }
                state.tiling.input = *input;
                state
            }
            ShowMe::Roofline {
                peak_flops,
                bandwidth,
                intensity,
            } => {
                let mut state = State::new(Tab::Roofline);
                state.roofline.peak_flops = *peak_flops;
                state.roofline.bandwidth = *bandwidth;
                if let Some(last) = state.roofline.points.last_mut() {
                    *last = ("this exercise".to_string(), *intensity);
                }
                state
            }
        })
    }
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        self.key(key);
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(self, ctx.theme, area, buf);
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        KEYS.to_vec()
    }

    fn captures(&self, _key: &KeyEvent) -> bool {
        self.typing()
    }
}

impl State {
    /// Defaults: 256 threads × 32 registers on sm_90; N = 1024 with 16×16 float tiles; an H200-like
    /// roofline with the naive and tiled matrix multiply.
    pub fn new(tab: Tab) -> Self {
        State {
            tab,
            occupancy: OccupancyInputs {
                arch: Arch::default_arch(),
                config: KernelConfig::new(256, 32),
                panel: Panel::default(),
            },
            tiling: TilingInputs {
                arch: Arch::default_arch(),
                input: TilingInput {
                    n: 1024,
                    tile: 16,
                    elem_bytes: 4,
                },
                regs: 32,
                panel: Panel::default(),
            },
            roofline: RooflineInputs {
                peak_flops: 67e12,
                bandwidth: 4.8e12,
                points: vec![
                    ("naive matmul".into(), 0.25),
                    ("tiled 16×16".into(), 4.0),
                    ("your kernel".into(), 20.0),
                ],
                panel: Panel::default(),
            },
        }
    }

    /// Whether keys go to a value being typed.
    pub fn typing(&self) -> bool {
        match self.tab {
            Tab::Occupancy => self.occupancy.panel.typing(),
            Tab::Tiling => self.tiling.panel.typing(),
            Tab::Roofline => self.roofline.panel.typing(),
        }
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent) {
        if !self.typing() {
            let tab = match key.code {
                KeyCode::Tab => Some(match self.tab {
                    Tab::Occupancy => Tab::Tiling,
                    Tab::Tiling => Tab::Roofline,
                    Tab::Roofline => Tab::Occupancy,
                }),
                KeyCode::BackTab => Some(match self.tab {
                    Tab::Occupancy => Tab::Roofline,
                    Tab::Tiling => Tab::Occupancy,
                    Tab::Roofline => Tab::Tiling,
                }),
                KeyCode::Char('1') => Some(Tab::Occupancy),
                KeyCode::Char('2') => Some(Tab::Tiling),
                KeyCode::Char('3') => Some(Tab::Roofline),
                _ => None,
            };
            if let Some(tab) = tab {
                self.tab = tab;
                return;
            }
        }
        let big = key.modifiers.contains(KeyModifiers::SHIFT);
        match self.tab {
            Tab::Occupancy => self.occupancy.key(key, big),
            Tab::Tiling => self.tiling.key(key),
            Tab::Roofline => self.roofline.key(key),
        }
    }
}

fn next_nvidia(arch: &Arch, step: i64) -> &'static Arch {
    let nvidia: Vec<&'static Arch> = ARCHS.iter().filter(|a| a.nvidia.is_some()).collect();
    let at = nvidia.iter().position(|a| a.key == arch.key).unwrap_or(0) as i64;
    nvidia[(at + step).rem_euclid(nvidia.len() as i64) as usize]
}

fn nvidia_arch(text: &str) -> Result<&'static Arch, String> {
    let arch = Arch::parse(text).map_err(|e| e.to_string())?;
    if arch.nvidia.is_none() {
        return Err(format!(
            "{} has no NVIDIA occupancy figures; choose sm_70 … sm_120",
            arch.key
        ));
    }
    Ok(arch)
}

fn clamp_u32(value: i64, min: u32, max: u32) -> u32 {
    value.clamp(i64::from(min), i64::from(max)) as u32
}

impl OccupancyInputs {
    const ROWS: usize = 6;

    fn rows(&self) -> Vec<(&'static str, String)> {
        let c = &self.config;
        vec![
            ("arch", self.arch.key.to_string()),
            ("block size", format!("{} threads", c.block_size)),
            ("registers", format!("{} /thread", c.regs_per_thread)),
            ("static smem", format::bytes(u64::from(c.static_smem))),
            ("dynamic smem", format::bytes(u64::from(c.dynamic_smem))),
            (
                "carveout",
                match c.carveout {
                    Carveout::Default => "default".to_string(),
                    Carveout::Percent(p) => format!("{p}%"),
                },
            ),
        ]
    }

    fn key(&mut self, key: KeyEvent, big: bool) {
        let row = self.panel.selected.min(Self::ROWS - 1);
        match self.panel.key(key, Self::ROWS) {
            PanelEvent::Adjust(step) => {
                let c = &mut self.config;
                match row {
                    0 => self.arch = next_nvidia(self.arch, step),
                    1 => c.block_size = clamp_u32(i64::from(c.block_size) + 32 * step, 32, 1024),
                    2 => {
                        c.regs_per_thread = clamp_u32(
                            i64::from(c.regs_per_thread) + step * if big { 8 } else { 1 },
                            0,
                            255,
                        )
                    }
                    3 => {
                        c.static_smem =
                            clamp_u32(i64::from(c.static_smem) + 1024 * step, 0, 256 * 1024)
                    }
                    4 => {
                        c.dynamic_smem =
                            clamp_u32(i64::from(c.dynamic_smem) + 1024 * step, 0, 256 * 1024)
                    }
                    _ => {
                        let pct = match c.carveout {
                            Carveout::Default => 101,
                            Carveout::Percent(p) => i64::from(p),
                        };
                        let next = (pct + 25 * step).clamp(0, 101);
                        c.carveout = if next > 100 {
                            Carveout::Default
                        } else {
                            Carveout::Percent(next as u8)
                        };
                    }
                }
            }
            PanelEvent::Submit(text) => {
                let result = (|| -> Result<(), String> {
                    let c = &mut self.config;
                    match row {
                        0 => self.arch = nvidia_arch(&text)?,
                        1 => c.block_size = in_range(parse_int(&text)?, 1, 1024, "block size")?,
                        2 => {
                            c.regs_per_thread =
                                in_range(parse_int(&text)?, 0, 255, "registers per thread")?
                        }
                        3 => {
                            c.static_smem =
                                in_range(parse_int(&text)?, 0, 1 << 20, "static shared memory")?
                        }
                        4 => {
                            c.dynamic_smem =
                                in_range(parse_int(&text)?, 0, 1 << 20, "dynamic shared memory")?
                        }
                        _ => {
                            let t = text.trim().trim_end_matches('%');
                            c.carveout = if t.eq_ignore_ascii_case("default") {
                                Carveout::Default
                            } else {
                                Carveout::from_pct(parse_int(t)?).map_err(|e| e.to_string())?
                            };
                        }
                    }
                    Ok(())
                })();
                self.panel.error = result.err();
            }
            PanelEvent::Handled | PanelEvent::Ignored => {}
        }
    }
}

fn in_range(value: i64, min: i64, max: i64, name: &str) -> Result<u32, String> {
    if (min..=max).contains(&value) {
        Ok(value as u32)
    } else {
        Err(format!("{name} must be {min} to {max}, got {value}"))
    }
}

impl TilingInputs {
    const ROWS: usize = 5;

    fn rows(&self) -> Vec<(&'static str, String)> {
        vec![
            ("N", format!("{}", self.input.n)),
            ("tile", format!("{0}×{0}", self.input.tile)),
            ("element", format!("{} B", self.input.elem_bytes)),
            ("arch", self.arch.key.to_string()),
            ("registers", format!("{} /thread", self.regs)),
        ]
    }

    fn key(&mut self, key: KeyEvent) {
        let row = self.panel.selected.min(Self::ROWS - 1);
        match self.panel.key(key, Self::ROWS) {
            PanelEvent::Adjust(step) => match row {
                0 => {
                    let n = if step > 0 {
                        self.input.n.saturating_mul(2)
                    } else {
                        self.input.n / 2
                    };
                    self.input.n = n.clamp(self.input.tile, 1 << 20);
                }
                1 => {
                    let t = if step > 0 {
                        self.input.tile * 2
                    } else {
                        self.input.tile / 2
                    };
                    self.input.tile = t.clamp(1, 64.min(self.input.n));
                }
                2 => {
                    let sizes = engine::ELEM_SIZES;
                    let at = sizes
                        .iter()
                        .position(|e| *e == self.input.elem_bytes)
                        .unwrap_or(2) as i64;
                    self.input.elem_bytes =
                        sizes[(at + step).rem_euclid(sizes.len() as i64) as usize];
                }
                3 => self.arch = next_nvidia(self.arch, step),
                _ => self.regs = clamp_u32(i64::from(self.regs) + step, 0, 255),
            },
            PanelEvent::Submit(text) => {
                let result = (|| -> Result<(), String> {
                    match row {
                        0 => {
                            self.input.n = u64::from(in_range(parse_int(&text)?, 1, 1 << 20, "N")?)
                        }
                        1 => {
                            self.input.tile =
                                u64::from(in_range(parse_int(&text)?, 1, 1 << 20, "tile")?)
                        }
                        2 => {
                            let e = in_range(parse_int(&text)?, 1, 16, "element size")?;
                            if !engine::ELEM_SIZES.contains(&e) {
                                return Err("element size must be 1, 2, 4, 8 or 16 bytes".into());
                            }
                            self.input.elem_bytes = e;
                        }
                        3 => self.arch = nvidia_arch(&text)?,
                        _ => self.regs = in_range(parse_int(&text)?, 0, 255, "registers")?,
                    }
                    Ok(())
                })();
                self.panel.error = result.err();
            }
            PanelEvent::Handled | PanelEvent::Ignored => {}
        }
    }
}

impl RooflineInputs {
    fn rows(&self) -> Vec<(String, String)> {
        let mut rows = vec![
            (
                "peak".to_string(),
                format!("{}FLOP/s", format::si(self.peak_flops)),
            ),
            (
                "bandwidth".to_string(),
                format!("{}B/s", format::si(self.bandwidth)),
            ),
        ];
        for (name, intensity) in &self.points {
            rows.push((
                name.clone(),
                format!("{} FLOP/B", format::trim_float(*intensity, 3)),
            ));
        }
        rows
    }

    fn key(&mut self, key: KeyEvent) {
        if !self.panel.typing() {
            match key.code {
                // Add a kernel point (typed over with Enter); remove the selected one.
                KeyCode::Char('a') if self.points.len() < 8 => {
                    self.points
                        .push((format!("kernel {}", self.points.len() + 1), 1.0));
                    self.panel.selected = 1 + self.points.len();
                    return;
                }
                KeyCode::Char('d') | KeyCode::Delete
                    if self.panel.selected >= 2 && self.points.len() > 1 =>
                {
                    self.points.remove(self.panel.selected - 2);
                    self.panel.selected = self.panel.selected.min(1 + self.points.len());
                    return;
                }
                _ => {}
            }
        }
        let count = 2 + self.points.len();
        let row = self.panel.selected.min(count - 1);
        match self.panel.key(key, count) {
            PanelEvent::Adjust(step) => {
                let factor = if step > 0 {
                    2f64.sqrt()
                } else {
                    1.0 / 2f64.sqrt()
                };
                match row {
                    0 => self.peak_flops = (self.peak_flops * factor).clamp(1e9, 1e18),
                    1 => self.bandwidth = (self.bandwidth * factor).clamp(1e8, 1e15),
                    i => {
                        let point = &mut self.points[i - 2].1;
                        *point = (*point * factor * factor).clamp(1e-3, 1e4);
                    }
                }
            }
            PanelEvent::Submit(text) => {
                let result = parse_si(&text).map(|value| match row {
                    0 => self.peak_flops = value,
                    1 => self.bandwidth = value,
                    i => self.points[i - 2].1 = value.clamp(1e-3, 1e4),
                });
                self.panel.error = result.err();
            }
            PanelEvent::Handled | PanelEvent::Ignored => {}
        }
    }
}

/// Draws the calculators.
pub fn render(state: &State, theme: Theme, area: Rect, buf: &mut Buffer) {
    let [tabs, body] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
    ]));
    let names = [
        (Tab::Occupancy, "1 Occupancy"),
        (Tab::Tiling, "2 Tiling"),
        (Tab::Roofline, "3 Roofline"),
    ];
    let mut spans = Vec::new();
    for (tab, name) in names {
        let style = if tab == state.tab {
            theme.selected()
        } else {
            theme.dim()
        };
        spans.push(Span::styled(format!(" {name} "), style));
        spans.push(Span::raw(" "));
    }
    Line::from(spans).render(tabs, buf);
    match state.tab {
        Tab::Occupancy => occupancy(&state.occupancy, theme, body, buf),
        Tab::Tiling => tiling(&state.tiling, theme, body, buf),
        Tab::Roofline => roofline(&state.roofline, theme, body, buf),
    }
}

/// Windows at least this wide put the inputs beside the results; narrower ones put them above.
const WIDE: u16 = 90;

/// Width of the results box `frame` will lay out in `area`.
fn results_width(area: Rect) -> u16 {
    if area.width >= WIDE {
        area.width.saturating_sub(30)
    } else {
        area.width
    }
}

/// Lays out a calculator: on wide windows the input panel sits beside the results (`wide_height` rows
/// tall); on narrow ones it becomes a strip above results sized to `lines`. Draws the panel and the
/// results; returns the area left below them.
#[allow(clippy::too_many_arguments)]
fn frame(
    (title, rows, panel): (&str, &[(&str, String)], &Panel),
    results_title: &str,
    lines: Vec<Line<'static>>,
    wide_height: u16,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) -> Rect {
    let (results, rest) = if area.width >= WIDE {
        let [top, rest] = area.layout(&Layout::vertical([
            Constraint::Length(wide_height),
            Constraint::Fill(1),
        ]));
        let [panel_area, results] = top.layout(&Layout::horizontal([
            Constraint::Length(30),
            Constraint::Fill(1),
        ]));
        fields::render(title, rows, panel, theme, panel_area, buf);
        (results, rest)
    } else {
        let height = super::wrapped_height(&lines, area.width.saturating_sub(2)) + 2;
        let [strip, results, rest] = area.layout(&Layout::vertical([
            Constraint::Length(4),
            Constraint::Length(height),
            Constraint::Fill(1),
        ]));
        fields::render_compact(title, rows, panel, theme, strip, buf);
        (results, rest)
    };
    let outer = block(results_title, theme);
    let inner = outer.inner(results);
    outer.render(results, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
    rest
}

fn occupancy(inputs: &OccupancyInputs, theme: Theme, area: Rect, buf: &mut Buffer) {
    let rows = inputs.rows();
    let panel = ("Kernel", rows.as_slice(), &inputs.panel);
    let title = super::arch_title("Occupancy", inputs.arch, results_width(area));
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
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("occupancy {}", format::percent(o.occupancy)),
            theme.title(),
        ),
        Span::raw(format!(
            " · blocks {} · warps {}/{} · limited by ",
            o.active_blocks_per_sm, o.active_warps_per_sm, o.max_warps_per_sm
        )),
        Span::styled(o.limited_by.describe(), theme.bad()),
    ])];
    if wide {
        for limiter in Limiter::ALL {
            let binds = o.limited_by.contains(limiter);
            lines.push(Line::from(vec![
                Span::styled(
                    format!("  {:<14}{:>4}", limiter.label(), o.limits.get(limiter)),
                    if binds { theme.bad() } else { theme.text() },
                ),
                Span::styled(if binds { " ◀ limiter" } else { "" }, theme.bad()),
            ]));
        }
    } else {
        let mut spans = vec![Span::styled("blocks/SM: ", theme.dim())];
        for (i, limiter) in Limiter::ALL.into_iter().enumerate() {
            let binds = o.limited_by.contains(limiter);
            if i > 0 {
                spans.push(Span::styled(" · ", theme.dim()));
            }
            spans.push(Span::styled(
                format!(
                    "{} {}{}",
                    limiter.label(),
                    o.limits.get(limiter),
                    if binds { " ◀" } else { "" }
                ),
                if binds { theme.bad() } else { theme.text() },
            ));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::styled(
        format!(
            "per block: {} regs ({}/warp), {} smem · carveout {}",
            o.regs_per_block,
            o.regs_per_warp,
            format::bytes(u64::from(o.smem_per_block)),
            format::bytes(u64::from(o.carveout_bytes))
        ),
        theme.dim(),
    ));
    lines.push(Line::from(vec![
        Span::styled("textbook 65536/r ", theme.dim()),
        Span::raw(format!(
            "{} → {} thr = {}",
            o.textbook.threads,
            o.textbook.warp_rounded_threads,
            format::percent(o.textbook.occupancy)
        )),
        Span::styled(" vs hardware ", theme.dim()),
        Span::styled(format::percent(o.occupancy), theme.good()),
    ]));
    let plots = frame(panel, &title, lines, 12, theme, area, buf);
    what_if_plots(&limits, &inputs.config, &o, theme, plots, buf);
}

/// Occupancy against block size, registers per thread and shared memory per block, each marking the
/// current configuration — the three plots of Nsight Compute's occupancy section.
fn what_if_plots(
    limits: &NvidiaLimits,
    config: &KernelConfig,
    current: &Occupancy,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let [a, b, c] = area.layout(&Layout::horizontal([Constraint::Ratio(1, 3); 3]));
    let pct = |o: &Occupancy| o.occupancy * 100.0;
    let sweep = |values: &mut dyn Iterator<Item = (f64, KernelConfig)>| -> Vec<(f64, f64)> {
        values
            .map(|(x, cfg)| {
                (
                    x,
                    engine::nvidia_occupancy(limits, &cfg).map_or(0.0, |o| pct(&o)),
                )
            })
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
        "block size",
        &by_block,
        (f64::from(config.block_size), now),
        [32.0, 1024.0],
        ["32", "512", "1024"],
        theme,
        a,
        buf,
    );
    plot(
        "registers",
        &by_regs,
        (f64::from(config.regs_per_thread), now),
        [0.0, 255.0],
        ["0", "128", "255"],
        theme,
        b,
        buf,
    );
    let smem_kb = f64::from(config.static_smem + config.dynamic_smem) / 1024.0;
    let max_kb = f64::from(max_smem) / 1024.0;
    let mid = format!("{}", (max_kb / 2.0).round());
    let end = format!("{}K", max_kb.round());
    plot(
        "smem KB",
        &by_smem,
        (smem_kb, now),
        [0.0, max_kb],
        ["0", &mid, &end],
        theme,
        c,
        buf,
    );
}

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

fn tiling(inputs: &TilingInputs, theme: Theme, area: Rect, buf: &mut Buffer) {
    let rows = inputs.rows();
    let panel = ("Matrix multiply", rows.as_slice(), &inputs.panel);
    let title = super::arch_title("Tiling", inputs.arch, results_width(area));
    let lines = match engine::tiling(&inputs.input, Some(inputs.arch), inputs.regs) {
        Ok(t) => {
            let mut lines = vec![
                Line::from(vec![
                    Span::styled(
                        format!(
                            "reduction factor {}×",
                            format::trim_float(t.reduction_factor, 2)
                        ),
                        theme.title(),
                    ),
                    Span::raw(format!(
                        " · reads naive {} → tiled {}",
                        format::si(t.naive_reads as f64),
                        format::si(t.tiled_reads as f64)
                    )),
                ]),
                Line::from(format!(
                    "footprint {} per block (2 × {}² × {} B)",
                    format::bytes(t.smem_bytes_per_block),
                    inputs.input.tile,
                    inputs.input.elem_bytes
                )),
                Line::from(format!(
                    "blocks per SM by shared memory alone: {}",
                    t.smem_blocks_per_sm.unwrap_or(0)
                )),
            ];
            match &t.occupancy {
                Some(o) => lines.push(Line::from(format!(
                    "full rule ({} threads, {} regs): {} blocks, {} — limited by {}",
                    inputs.input.tile * inputs.input.tile,
                    inputs.regs,
                    o.active_blocks_per_sm,
                    format::percent(o.occupancy),
                    o.limited_by.describe()
                ))),
                None => lines.push(Line::styled(
                    format!(
                        "a {0}×{0}-thread block exceeds 1024 threads: it cannot launch",
                        inputs.input.tile
                    ),
                    theme.bad(),
                )),
            }
            lines.push(Line::from(vec![
                Span::raw("arithmetic intensity "),
                Span::styled(
                    format!(
                        "{} → {} FLOP/B",
                        format::trim_float(t.naive_intensity, 3),
                        format::trim_float(t.tiled_intensity, 3)
                    ),
                    theme.good(),
                ),
                Span::raw(" (reuse × tile)"),
            ]));
            lines
        }
        Err(e) => vec![Line::styled(e.to_string(), theme.bad())],
    };
    let table_area = frame(panel, &title, lines, 10, theme, area, buf);
    // Compare tile sizes side by side.
    let outer = block("Tile sizes compared", theme);
    let inner = outer.inner(table_area);
    outer.render(table_area, buf);
    let mut lines = vec![Line::styled(
        format!(
            "{:>6} {:>10} {:>9} {:>9} {:>7} {:>7}",
            "tile", "smem/block", "blocks/SM", "occupancy", "factor", "FLOP/B"
        ),
        theme.dim(),
    )];
    for tile in [4u64, 8, 16, 32, 64] {
        if tile > inputs.input.n {
            continue;
        }
        let input = TilingInput {
            tile,
            ..inputs.input
        };
        if let Ok(t) = engine::tiling(&input, Some(inputs.arch), inputs.regs) {
            let occupancy = t
                .occupancy
                .map_or("no launch".to_string(), |o| format::percent(o.occupancy));
            let blocks = t
                .occupancy
                .map_or("—".to_string(), |o| o.active_blocks_per_sm.to_string());
            let row = format!(
                "{:>6} {:>10} {:>9} {:>9} {:>6}× {:>7}",
                format!("{tile}×{tile}"),
                format::bytes(t.smem_bytes_per_block),
                blocks,
                occupancy,
                format::trim_float(t.reduction_factor, 2),
                format::trim_float(t.tiled_intensity, 3)
            );
            lines.push(if tile == inputs.input.tile {
                Line::styled(row, theme.selected())
            } else {
                Line::from(row)
            });
        }
    }
    Paragraph::new(lines).render(inner, buf);
}

fn roofline(inputs: &RooflineInputs, theme: Theme, area: Rect, buf: &mut Buffer) {
    let rows: Vec<(String, String)> = inputs.rows();
    let borrowed: Vec<(&str, String)> = rows.iter().map(|(l, v)| (l.as_str(), v.clone())).collect();
    let (chart_area, legend_area) = if area.width >= WIDE {
        let [left, chart_area] = area.layout(&Layout::horizontal([
            Constraint::Length(30),
            Constraint::Fill(1),
        ]));
        let [panel_area, legend_area] = left.layout(&Layout::vertical([
            Constraint::Length(inputs.points.len() as u16 + 4),
            Constraint::Fill(1),
        ]));
        fields::render(
            "Machine and kernels",
            &borrowed,
            &inputs.panel,
            theme,
            panel_area,
            buf,
        );
        (chart_area, legend_area)
    } else {
        let [strip, chart_area, legend_area] = area.layout(&Layout::vertical([
            Constraint::Length(4),
            Constraint::Fill(1),
            Constraint::Length(inputs.points.len() as u16 + 3),
        ]));
        fields::render_compact(
            "Machine and kernels",
            &borrowed,
            &inputs.panel,
            theme,
            strip,
            buf,
        );
        (chart_area, legend_area)
    };

    let ridge = inputs.peak_flops / inputs.bandwidth;
    let log = |v: f64| v.log10();
    let (x_min, x_max) = (-2.0f64, 3.0f64);
    let y_max = log(inputs.peak_flops) + 0.3;
    let y_min = (y_max - 5.0).floor();
    let roof: Vec<(f64, f64)> = (0..=200)
        .map(|i| {
            let x = x_min + (x_max - x_min) * f64::from(i) / 200.0;
            (
                x,
                log(inputs.peak_flops.min(inputs.bandwidth * 10f64.powf(x))),
            )
        })
        .collect();
    let ridge_line: Vec<(f64, f64)> = (0..=20)
        .map(|i| {
            (
                log(ridge),
                y_min + (log(inputs.peak_flops) - y_min) * f64::from(i) / 20.0,
            )
        })
        .collect();
    let placed: Vec<(String, f64, Option<engine::Roofline>)> = inputs
        .points
        .iter()
        .map(|(name, i)| {
            (
                name.clone(),
                *i,
                engine::roofline(inputs.peak_flops, inputs.bandwidth, *i).ok(),
            )
        })
        .collect();
    let point_data: Vec<[(f64, f64); 1]> = placed
        .iter()
        .map(|(_, i, r)| {
            [(
                log(*i).clamp(x_min, x_max),
                log(r.map_or(1.0, |r| r.attainable_flops)).max(y_min),
            )]
        })
        .collect();
    let mut datasets = vec![
        Dataset::default()
            .name("roof")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.title())
            .data(&roof),
        Dataset::default()
            .name("ridge")
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(theme.dim())
            .data(&ridge_line),
    ];
    for (n, data) in point_data.iter().enumerate() {
        datasets.push(
            Dataset::default()
                .marker(Marker::Block)
                .graph_type(GraphType::Scatter)
                .style(theme.series(n + 1).add_modifier(Modifier::BOLD))
                .data(data),
        );
    }
    // As many decade labels as the chart has room for, evenly spread over the log axis.
    let count = (chart_area.width / 9).clamp(3, 6);
    let x_labels: Vec<Span> = (0..count)
        .map(|k| {
            let x = x_min + (x_max - x_min) * f64::from(k) / f64::from(count - 1);
            Span::styled(format::si(10f64.powf(x)).trim().to_string(), theme.dim())
        })
        .collect();
    // Fewer labels on a short chart so that they never run into each other.
    let y_count = (chart_area.height.saturating_sub(4) / 2).clamp(2, 6);
    let y_labels: Vec<Span> = (0..y_count)
        .map(|k| {
            let y = y_min + 5.0 * f64::from(k) / f64::from(y_count - 1);
            Span::styled(format::si(10f64.powf(y)).trim().to_string(), theme.dim())
        })
        .collect();
    Chart::new(datasets)
        .block(block(
            &format!(
                "Roofline (log-log) · ridge {} FLOP/B",
                format::trim_float(ridge, 2)
            ),
            theme,
        ))
        .x_axis(
            Axis::default()
                .title("FLOP/B")
                .bounds([x_min, x_max])
                .labels(x_labels),
        )
        .y_axis(
            Axis::default()
                .title("FLOP/s")
                .bounds([y_min, y_min + 5.0])
                .labels(y_labels),
        )
        .legend_position(None)
        .render(chart_area, buf);

    let outer = block("Kernels", theme);
    let inner = outer.inner(legend_area);
    outer.render(legend_area, buf);
    let mut lines = vec![Line::from(format!(
        "ridge I* = P/β = {} FLOP/B",
        format::trim_float(ridge, 2)
    ))];
    for (n, (name, intensity, r)) in placed.iter().enumerate() {
        if let Some(r) = r {
            lines.push(Line::from(vec![
                Span::styled("■ ", theme.series(n + 1)),
                Span::raw(format!(
                    "{name} {} FLOP/B: ",
                    format::trim_float(*intensity, 3)
                )),
                Span::styled(
                    format!("{}-bound", r.bound.key()),
                    if r.bound == Bound::Memory {
                        theme.bad()
                    } else {
                        theme.good()
                    },
                ),
                Span::raw(format!(", {}FLOP/s", format::si(r.attainable_flops))),
            ]));
        }
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(inner, buf);
}
