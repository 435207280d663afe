//! The sweep panel (`w`): one figure of the current pattern against one parameter, the others as
//! set, the current value marked — and, where the H200 measured the same sweep, the measured curve
//! beside the model's, scaled to meet it at the first measured point.
//!
//! ```text
//! ┌ Sweep: sectors/request against stride (elements) · now 2 → 8 ───────────┐
//! │32 ┤        ⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀⣀          ─ model (sectors/request) │
//! │   │   ⢀⠔⠁  ⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒                        ─ H200 measured, scaled   │
//! │ 0 ┼■─────────────────────────────────────────────────────────────────    │
//! │   1                        128                              256          │
//! └──────────────────────────────────────────────────────────────────────────┘
//! ```

use super::{Space, State};
use crate::engine::measured::MeasuredSweep;
use crate::engine::{
    AccessParam, AccessShape, Granularity, Op, SweepRange, Vendor, banks_sweep, coalescing_sweep,
};
use crate::format;
use crate::i18n::Lang;
use crate::t;
use crate::ui::{Theme, block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Widget};

/// Most points the panel sweeps (a typed range beyond it is refused; `calc sweep` takes more).
pub const MAX_PANEL_POINTS: u64 = 4096;

/// The figure plotted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// Global: transactions (sectors, or lines) per request.
    SectorsPerRequest,
    /// Global: requested / fetched bytes, in percent.
    Efficiency,
    /// Shared: wavefronts per request.
    Wavefronts,
}

impl Figure {
    fn name(self, granularity: Granularity, vendor: Vendor, lang: Lang) -> String {
        match (self, granularity) {
            (Figure::SectorsPerRequest, Granularity::Sector) => {
                t!(lang, "explorer-figure-sectors")
            }
            (Figure::SectorsPerRequest, Granularity::Line) => t!(lang, "explorer-figure-lines"),
            (Figure::Efficiency, _) => t!(lang, "explorer-figure-efficiency"),
            (Figure::Wavefronts, _) => {
                t!(lang, "explorer-figure-wavefronts", vendor = vendor.key())
            }
        }
    }

    /// Reads `sectors`, `lines`, `efficiency`, `wavefronts` (and their first letters).
    pub fn parse(text: &str) -> Option<Figure> {
        match text.trim().to_lowercase().as_str() {
            "sectors" | "s" | "lines" | "sectors/request" | "transactions" => {
                Some(Figure::SectorsPerRequest)
            }
            "efficiency" | "e" | "eff" => Some(Figure::Efficiency),
            "wavefronts" | "w" => Some(Figure::Wavefronts),
            _ => None,
        }
    }

    /// The figures of a memory space.
    fn of(space: Space) -> &'static [Figure] {
        match space {
            Space::Global => &[Figure::SectorsPerRequest, Figure::Efficiency],
            Space::Shared => &[Figure::Wavefronts],
        }
    }
}

/// What the sweep panel shows: which parameter varies over which range, and which figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SweepPanel {
    /// The parameter varied.
    pub param: AccessParam,
    /// Its range; `None` = the parameter's default (stride 1–256, offset 0–63, …).
    pub range: Option<SweepRange>,
    /// The figure, for global memory (shared memory always plots wavefronts).
    pub figure: Figure,
}

impl Default for SweepPanel {
    fn default() -> Self {
        SweepPanel {
            param: AccessParam::Stride,
            range: None,
            figure: Figure::SectorsPerRequest,
        }
    }
}

impl State {
    /// The access shape of these parameters (what [`State::access`] builds a warp from).
    pub fn shape(&self) -> AccessShape {
        AccessShape::of(&self.access())
    }

    /// The parameter the sweep varies: the one chosen, or the first that applies to the pattern.
    pub(super) fn sweep_param(&self, panel: &SweepPanel) -> AccessParam {
        let shape = self.shape();
        if panel.param.applies_to(&shape) {
            panel.param
        } else {
            AccessParam::ALL
                .into_iter()
                .find(|p| p.applies_to(&shape))
                .unwrap_or(AccessParam::Elem)
        }
    }

    /// The range swept.
    pub(super) fn sweep_range(&self, panel: &SweepPanel) -> SweepRange {
        let param = self.sweep_param(panel);
        match panel.range {
            Some(range) if panel.param == param => range,
            _ => param.default_range(self.arch.warp_size),
        }
    }

    /// The figure plotted for the current memory space.
    pub(super) fn sweep_figure(&self, panel: &SweepPanel) -> Figure {
        let figures = Figure::of(self.space);
        if figures.contains(&panel.figure) {
            panel.figure
        } else {
            figures[0]
        }
    }

    /// Shows or hides the sweep panel.
    pub(super) fn toggle_sweep(&mut self) {
        self.sweep = match self.sweep {
            Some(_) => None,
            None => Some(SweepPanel::default()),
        };
    }

    /// ←→ on the sweep's rows: the next parameter that applies, a range half or twice as long,
    /// the next figure.
    pub(super) fn adjust_sweep(&mut self, row: SweepRow, step: i64) {
        let Some(mut panel) = self.sweep else {
            return;
        };
        match row {
            SweepRow::Param => {
                let shape = self.shape();
                let current = self.sweep_param(&panel);
                let usable: Vec<AccessParam> = AccessParam::ALL
                    .into_iter()
                    .filter(|p| p.applies_to(&shape))
                    .collect();
                let at = usable.iter().position(|p| *p == current).unwrap_or(0) as i64;
                let len = usable.len().max(1) as i64;
                if let Some(next) = usable.get((at + step).rem_euclid(len) as usize) {
                    panel.param = *next;
                    panel.range = None;
                }
            }
            SweepRow::Range => {
                let range = self.sweep_range(&panel);
                let points = i64::try_from(range.len()).unwrap_or(i64::MAX);
                let points = if step > 0 {
                    points.saturating_mul(2)
                } else {
                    (points / 2).max(2)
                };
                let end = range
                    .start
                    .saturating_add((points - 1).saturating_mul(range.step));
                let wider = SweepRange::new(range.start, end, range.step);
                if wider.len() <= MAX_PANEL_POINTS {
                    panel.param = self.sweep_param(&panel);
                    panel.range = Some(wider);
                }
            }
            SweepRow::Figure => {
                let figures = Figure::of(self.space);
                let at = figures
                    .iter()
                    .position(|f| *f == self.sweep_figure(&panel))
                    .unwrap_or(0) as i64;
                panel.figure = figures[(at + step).rem_euclid(figures.len() as i64) as usize];
            }
        }
        self.sweep = Some(panel);
    }

    /// A typed value on the sweep's rows: a parameter name, a range (`1..512`, `0..1024:4`), a figure.
    pub(super) fn set_sweep(
        &mut self,
        row: SweepRow,
        text: &str,
        lang: Lang,
    ) -> Result<(), String> {
        let Some(mut panel) = self.sweep else {
            return Ok(());
        };
        match row {
            SweepRow::Param => {
                let param = AccessParam::parse(text).ok_or_else(|| {
                    t!(
                        lang,
                        "explorer-error-sweep-param",
                        text = text.trim().to_string()
                    )
                })?;
                if !param.applies_to(&self.shape()) {
                    return Err(t!(
                        lang,
                        "explorer-error-sweep-applies",
                        param = param.key()
                    ));
                }
                panel.param = param;
                panel.range = None;
            }
            SweepRow::Range => {
                let range = SweepRange::parse(text)?;
                if range.len() > MAX_PANEL_POINTS {
                    return Err(t!(
                        lang,
                        "explorer-error-sweep-points",
                        max = MAX_PANEL_POINTS.to_string()
                    ));
                }
                panel.param = self.sweep_param(&panel);
                panel.range = Some(range);
            }
            SweepRow::Figure => {
                panel.figure = Figure::parse(text)
                    .filter(|f| Figure::of(self.space).contains(f))
                    .ok_or_else(|| match self.space {
                        Space::Global => t!(lang, "explorer-error-figure-global"),
                        Space::Shared => t!(lang, "explorer-error-figure-shared"),
                    })?;
            }
        }
        self.sweep = Some(panel);
        Ok(())
    }

    /// The text of a sweep row: `("sweep", "stride")`, `("range", "1..256")`, `("figure", …)`.
    pub(super) fn sweep_row_text(&self, row: SweepRow, lang: Lang) -> (String, String) {
        let panel = self.sweep.unwrap_or_default();
        match row {
            SweepRow::Param => (
                t!(lang, "explorer-row-sweep"),
                self.sweep_param(&panel).key().replace('_', " "),
            ),
            SweepRow::Range => (
                t!(lang, "explorer-row-range"),
                self.sweep_range(&panel).to_string(),
            ),
            SweepRow::Figure => (
                t!(lang, "explorer-row-figure"),
                self.sweep_figure(&panel)
                    .name(self.granularity(), self.arch.vendor, lang),
            ),
        }
    }
}

/// The sweep's rows in the parameter panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SweepRow {
    Param,
    Range,
    Figure,
}

/// The model's curve, the measured one (scaled) where there is one, and the current point.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepCurves {
    /// `(value, figure)` of every point the engine could count.
    pub model: Vec<(f64, f64)>,
    /// The H200's measurement of the same sweep, scaled to the model at its first common point.
    pub measured: Vec<(f64, f64)>,
    /// The current value and its figure, when it lies in the range.
    pub current: Option<(f64, f64)>,
    /// The parameter, range and figure drawn.
    pub param: AccessParam,
    /// The range drawn.
    pub range: SweepRange,
    /// The figure drawn.
    pub figure: Figure,
    /// The measurement drawn, if any, and the value its scale was matched at.
    pub measured_from: Option<(MeasuredSweep, i64)>,
    /// The H200 measured this sweep, but the architecture shown is not sm_90, so it is not drawn.
    pub measured_on_sm90_only: bool,
    /// The x axis is log 2 (1, 2, 4, … equally far apart): strides over a wide positive range.
    pub log2: bool,
}

/// What the curves are computed from: equal keys, equal curves.
#[derive(Debug, Clone, PartialEq)]
struct CurveKey {
    shape: AccessShape,
    arch: &'static str,
    space: Space,
    op: Op,
    granularity: Granularity,
    panel: SweepPanel,
}

/// The curves the panel draws and what they were computed from, kept in the explorer's state.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Curves {
    key: CurveKey,
    curves: SweepCurves,
}

impl State {
    /// What the sweep's curves depend on.
    fn curve_key(&self, panel: SweepPanel) -> CurveKey {
        CurveKey {
            shape: self.shape(),
            arch: self.arch.key,
            space: self.space,
            op: self.op,
            granularity: self.granularity(),
            panel,
        }
    }

    /// Brings the sweep's curves up to date after a change: counted again only when what they
    /// depend on changed (moving between rows, or opening the picker, counts nothing), dropped
    /// while the panel is hidden. Drawing reads what this left.
    pub(super) fn update_sweep(&mut self) {
        let Some(panel) = self.sweep else {
            self.curves = None;
            return;
        };
        let key = self.curve_key(panel);
        if self.curves.as_ref().is_some_and(|c| c.key == key) {
            return;
        }
        let curves = curves(self, &panel);
        self.curves = Some(Curves { key, curves });
    }

    /// The curves the sweep panel draws, when it is shown: the current parameters' (every key
    /// that changes them counts them again before the next frame).
    pub fn sweep_curves(&self) -> Option<&SweepCurves> {
        self.curves.as_ref().map(|c| &c.curves)
    }
}

/// Computes the curves of the panel: one fast count per point.
fn curves(state: &State, panel: &SweepPanel) -> SweepCurves {
    let param = state.sweep_param(panel);
    let range = state.sweep_range(panel);
    let figure = state.sweep_figure(panel);
    let shape = state.shape();
    let model: Vec<(f64, f64)> = match state.space {
        Space::Global => coalescing_sweep(
            &shape,
            state.arch.warp_size,
            state.granularity(),
            state.op,
            param,
            range,
        )
        .into_iter()
        .filter_map(|(x, c)| {
            let c = c.ok()?;
            let y = match figure {
                Figure::Efficiency => c.efficiency * 100.0,
                _ => f64::from(c.transactions()) / f64::from(c.requests.max(1)),
            };
            Some((x as f64, y))
        })
        .collect(),
        Space::Shared => banks_sweep(&shape, state.arch, state.op, param, range)
            .into_iter()
            .filter_map(|(x, b)| Some((x as f64, f64::from(b.ok()?.wavefronts))))
            .collect(),
    };
    let now = param.current(&shape, state.arch.warp_size);
    let current = model.iter().find(|(x, _)| *x == now as f64).copied();
    let sweep = measured_sweep(state, param);
    // The measurement is of an H200: drawn beside sm_90's model only.
    let on_h200 = state.arch.key == MEASURED_ARCH;
    let (measured, measured_from) = match sweep {
        Some(sweep) if on_h200 => scale(sweep, figure, &model),
        _ => (Vec::new(), None),
    };
    let log2 = param == AccessParam::Stride && range.start >= 1 && range.end >= 8 * range.start;
    SweepCurves {
        model,
        measured,
        current,
        param,
        range,
        figure,
        measured_from,
        measured_on_sm90_only: sweep.is_some() && !on_h200,
        log2,
    }
}

/// The architecture the measured curves were taken on (an H200).
const MEASURED_ARCH: &str = "sm_90";

/// The H200 sweep that measured this one (whatever architecture is shown; [`curves`] draws it on
/// sm_90 only): a full warp of an affine pattern from an aligned base, counting sectors — strides (4-, 8-, 16-byte global; 4-, 8-byte shared)
/// from offset 0, or offsets of 4-byte elements at stride 1.
fn measured_sweep(state: &State, param: AccessParam) -> Option<MeasuredSweep> {
    let shape = state.shape();
    let plain = shape.offsets.is_none()
        && shape.struct_size.is_none()
        && shape.pitch.is_none()
        && shape.mask.is_none()
        && shape.base.rem_euclid(128) == 0
        // The measured curves are of loads.
        && state.op == Op::Load;
    if !plain {
        return None;
    }
    match (state.space, param) {
        (Space::Global, AccessParam::Stride)
            if shape.offset == 0
                && state.granularity() == Granularity::Sector
                && [4, 8, 16].contains(&shape.elem_bytes) =>
        {
            Some(MeasuredSweep::GlobalStride {
                elem_bytes: shape.elem_bytes,
            })
        }
        (Space::Global, AccessParam::Offset)
            if shape.stride == 1
                && shape.elem_bytes == 4
                && state.granularity() == Granularity::Sector =>
        {
            Some(MeasuredSweep::GlobalOffset)
        }
        (Space::Shared, AccessParam::Stride)
            if shape.offset == 0 && [4, 8].contains(&shape.elem_bytes) =>
        {
            Some(MeasuredSweep::SharedStride {
                elem_bytes: shape.elem_bytes,
            })
        }
        _ => None,
    }
}

/// Measured points in the figure's units, and the sweep and value they were matched at.
type Scaled = (Vec<(f64, f64)>, Option<(MeasuredSweep, i64)>);

/// The measured points inside the model's range, turned into the figure's units: a cost figure
/// (sectors, wavefronts) scales the measured cost (1 / bandwidth, or cycles); efficiency scales the
/// measured bandwidth. The scale makes the first point the two share equal.
fn scale(sweep: MeasuredSweep, figure: Figure, model: &[(f64, f64)]) -> Scaled {
    let cost = |value: f64| match (sweep, figure) {
        (_, Figure::Efficiency) => value,
        (MeasuredSweep::SharedStride { .. }, _) => value,
        _ => 1.0 / value,
    };
    let points: Vec<(i64, f64)> = sweep
        .points()
        .iter()
        .copied()
        .filter(|(x, v)| *v > 0.0 && model.iter().any(|(m, _)| *m == *x as f64))
        .collect();
    // Match at stride (or offset) 1 or 0 when measured, else at the first common point.
    let Some(&(at, reference)) = points.iter().find(|(x, _)| *x >= 1).or(points.first()) else {
        return (Vec::new(), None);
    };
    let Some(&(_, model_at)) = model.iter().find(|(m, _)| *m == at as f64) else {
        return (Vec::new(), None);
    };
    let factor = model_at / cost(reference);
    let scaled = points
        .iter()
        .map(|(x, v)| (*x as f64, cost(*v) * factor))
        .filter(|(_, y)| y.is_finite())
        .collect();
    (scaled, Some((sweep, at)))
}

/// Draws the sweep panel from the curves the state holds; counts nothing.
pub(super) fn render_sweep(
    state: &State,
    curves: &SweepCurves,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) {
    let name = curves
        .figure
        .name(state.granularity(), state.arch.vendor, lang);
    let now = match curves.current {
        Some((x, y)) => t!(
            lang,
            "explorer-sweep-now",
            x = x.to_string(),
            y = format::trim_float(y, 2)
        ),
        None => String::new(),
    };
    let param = curves.param.key().replace('_', " ");
    let title = if area.width >= 100 {
        t!(
            lang,
            "explorer-sweep-title-long",
            figure = name.clone(),
            param = curves.param.label(),
            now = now
        )
    } else {
        t!(
            lang,
            "explorer-sweep-title",
            figure = name.clone(),
            param = param.clone(),
            now = now
        )
    };
    // On a log-2 axis the points are drawn at log2(x); the data keep their values.
    let to_axis = |x: f64| if curves.log2 { x.log2() } else { x };
    let on_axis = |points: &[(f64, f64)]| -> Vec<(f64, f64)> {
        points.iter().map(|&(x, y)| (to_axis(x), y)).collect()
    };
    let (model_points, measured_points) = (on_axis(&curves.model), on_axis(&curves.measured));
    let x_bounds = {
        let (start, end) = (
            to_axis(curves.range.start as f64),
            to_axis(curves.range.end as f64),
        );
        if curves.log2 {
            // Whole powers of two at the ends, so the labels fall on their points.
            [start.floor(), end.ceil()]
        } else if end > start {
            [start, end]
        } else {
            [start - 1.0, start + 1.0]
        }
    };
    let top = curves
        .model
        .iter()
        .chain(&curves.measured)
        .map(|(_, y)| *y)
        .fold(0.0f64, f64::max);
    let y_max = match curves.figure {
        Figure::Efficiency => 100.0,
        _ => nice_ceiling(top),
    };
    let current = curves.current.map(|(x, y)| [(to_axis(x), y)]);
    let model_name = if area.width >= 100 {
        t!(lang, "explorer-sweep-model-long", figure = name.clone())
    } else {
        t!(lang, "explorer-sweep-model")
    };
    let mut datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.series(0))
            .data(&model_points),
    ];
    // Long names on wide panels; short ones keep the legend small enough to be drawn.
    let measured_name = curves.measured_from.map(|(sweep, at)| {
        if area.width >= 100 {
            t!(
                lang,
                "explorer-sweep-measured-long",
                unit = measured_unit(sweep, curves.figure, lang),
                param = param.clone(),
                at = at.to_string()
            )
        } else {
            t!(
                lang,
                "explorer-sweep-measured",
                param = param.clone(),
                at = at.to_string()
            )
        }
    });
    if measured_name.is_some() {
        // Dots, not a line: the measured points stay apart from the model's curve without colour.
        datasets.push(
            Dataset::default()
                .marker(Marker::Dot)
                .graph_type(GraphType::Scatter)
                .style(theme.series(2))
                .data(&measured_points),
        );
    }
    if let Some(point) = &current {
        datasets.push(
            Dataset::default()
                .marker(Marker::Block)
                .graph_type(GraphType::Scatter)
                .style(theme.bad())
                .data(point),
        );
    }
    let x_labels: Vec<Span> = if curves.log2 {
        // Blank labels keep the label row; the powers of two are written under their points
        // below (ratatui spreads labels evenly, not where their values fall).
        vec![Span::raw(""), Span::raw("")]
    } else {
        let mid = ((x_bounds[0] + x_bounds[1]) / 2.0).floor();
        [x_bounds[0], mid, x_bounds[1]]
            .map(|x| Span::styled(format::trim_float(x, 0), theme.dim()))
            .to_vec()
    };
    let y_labels = [0.0, y_max / 2.0, y_max]
        .map(|y| Span::styled(format::trim_float(y, 1), theme.dim()))
        .to_vec();
    let y_label_width = y_labels.iter().map(Span::width).max().unwrap_or(0) as u16;
    let outer = block(&title, theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    // The key on a line of its own under the plot, never over a curve.
    let [plot, key] = inner.layout(&Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(u16::from(inner.height >= 4)),
    ]));
    let mut key_spans = vec![
        Span::styled("⠤⠤ ", theme.series(0)),
        Span::styled(model_name, theme.series(0)),
    ];
    if let Some(label) = measured_name {
        key_spans.push(Span::raw("   "));
        key_spans.push(Span::styled(label, theme.series(2)));
    } else if curves.measured_on_sm90_only {
        key_spans.push(Span::raw("   "));
        key_spans.push(Span::styled(
            t!(lang, "explorer-sweep-measured-sm90-only"),
            theme.dim(),
        ));
    }
    if current.is_some() {
        key_spans.push(Span::raw("   "));
        key_spans.push(Span::styled("█ ", theme.bad()));
        key_spans.push(Span::styled(
            t!(lang, "explorer-sweep-now-point"),
            theme.bad(),
        ));
    }
    Line::from(key_spans).render(key, buf);
    Chart::new(datasets)
        .x_axis(Axis::default().bounds(x_bounds).labels(x_labels))
        .y_axis(Axis::default().bounds([0.0, y_max]).labels(y_labels))
        .legend_position(None)
        .render(plot, buf);
    if curves.log2 && plot.height >= 3 {
        // The chart's layout: y labels (at most a third of the width), the y axis, then the graph.
        let left = plot.x + y_label_width.min(plot.width / 3) + 1;
        let graph_width = plot.right().saturating_sub(left);
        for (column, text) in log2_labels(x_bounds, left, graph_width) {
            buf.set_string(column, plot.bottom() - 1, text, theme.dim());
        }
    }
}

/// What the measured dots show, in the figure's terms: against a cost (sectors or lines per
/// request) the H200's time per useful byte (1 / useful GB/s, which rises with the stride as the
/// cost does); against efficiency its useful GB/s; in shared memory its cycles per load.
fn measured_unit(sweep: MeasuredSweep, figure: Figure, lang: Lang) -> String {
    match (sweep, figure) {
        (MeasuredSweep::SharedStride { .. }, _) => t!(lang, "explorer-measured-cycles"),
        (_, Figure::Efficiency) => t!(lang, "explorer-measured-bandwidth"),
        _ => t!(lang, "explorer-measured-time-per-byte"),
    }
}

/// The labels under a log-2 axis over `bounds` (log2 of the ends, whole numbers) on a graph of
/// `width` columns from column `left`: `(column, text)` for each power of two written under its own
/// point — the first starting there, the last ending there, the others centred — leaving out those
/// that would touch a neighbour (the ends are always kept).
fn log2_labels(bounds: [f64; 2], left: u16, width: u16) -> Vec<(u16, String)> {
    let (low, high) = (bounds[0] as i64, bounds[1] as i64);
    if width < 2 || high <= low || !(0..63).contains(&low) || !(0..63).contains(&high) {
        return Vec::new();
    }
    let span = (high - low) as f64;
    let placed: Vec<(u16, String)> = (low..=high)
        .map(|power| {
            let text = (1u64 << power).to_string();
            let at = ((power - low) as f64 / span * f64::from(width - 1)).round() as u16;
            let len = text.len() as u16;
            let start = if power == low {
                at
            } else if power == high {
                (at + 1).saturating_sub(len)
            } else {
                at.saturating_sub(len / 2)
            };
            (left + start.min(width.saturating_sub(len)), text)
        })
        .collect();
    let last = placed.last().cloned();
    let mut kept: Vec<(u16, String)> = Vec::new();
    for (column, text) in placed {
        let free = kept
            .last()
            .map_or(0, |(c, t): &(u16, String)| c + t.len() as u16 + 1);
        if column >= free {
            kept.push((column, text));
        }
    }
    // The last label stays: drop the ones it would touch.
    if let Some((column, text)) = last {
        while kept
            .last()
            .is_some_and(|(c, t)| *c != column && c + t.len() as u16 + 1 > column)
        {
            kept.pop();
        }
        if kept.last().is_none_or(|(c, _)| *c != column) {
            kept.push((column, text));
        }
    }
    kept
}

/// A round number at or above `value` for the top of an axis: 1, 2, 4, 5, 8 × a power of ten, or
/// a power of two up to 64 (what sectors and wavefronts reach).
fn nice_ceiling(value: f64) -> f64 {
    if value.is_nan() || value <= 0.0 {
        return 1.0;
    }
    if value <= 64.0 {
        let mut top = 1.0;
        while top < value {
            top *= 2.0;
        }
        return top;
    }
    let magnitude = 10f64.powf(value.log10().floor());
    [1.0, 2.0, 4.0, 5.0, 8.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|top| *top >= value)
        .unwrap_or(value)
}

#[cfg(test)]
mod tests {
    use super::super::params::Row;
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEvent};

    fn global() -> State {
        State {
            sweep: Some(SweepPanel::default()),
            ..State::default()
        }
    }

    #[test]
    fn a_stride_sweep_has_256_points_and_marks_the_current_stride() {
        let mut state = global();
        state.stride = 2;
        let c = curves(&state, &state.sweep.unwrap());
        assert_eq!(c.model.len(), 256);
        assert_eq!(c.model[0], (1.0, 4.0));
        assert_eq!(c.model[31], (32.0, 32.0));
        assert_eq!(c.current, Some((2.0, 8.0)));
        // The H200 measured strides 1–64 of 4-byte floats; scaled to 4 sectors at stride 1.
        assert_eq!(c.measured.len(), 64);
        assert_eq!(c.measured[0], (1.0, 4.0));
        let at32 = c.measured[31].1;
        assert!((25.0..28.0).contains(&at32), "{at32}");
        assert!(matches!(
            c.measured_from,
            Some((MeasuredSweep::GlobalStride { elem_bytes: 4 }, 1))
        ));
    }

    #[test]
    fn shared_strides_plot_wavefronts_beside_the_measured_cycles() {
        let mut state = global();
        state.space = Space::Shared;
        let c = curves(&state, &state.sweep.unwrap());
        assert_eq!(c.figure, Figure::Wavefronts);
        assert_eq!(c.model[31], (32.0, 32.0));
        assert_eq!(c.model[32], (33.0, 1.0));
        // 66.09 cycles at stride 32 against 6.96 at stride 1: the measured curve, scaled to one
        // wavefront at stride 1, reaches about 9.5 — far below the model's 32.
        let (_, at32) = c.measured[31];
        assert!((9.0..10.0).contains(&at32), "{at32}");
    }

    fn press(state: &mut State, code: KeyCode) {
        state.key(KeyEvent::from(code));
    }

    /// The curves as counted now from the state's parameters, to compare with the stored ones.
    fn counted(state: &State) -> SweepCurves {
        curves(state, &state.sweep.expect("the sweep panel is shown"))
    }

    #[test]
    fn stored_curves_follow_every_key_and_only_those_that_change_them() {
        let mut state = State::default();
        assert!(
            state.sweep_curves().is_none(),
            "nothing counted while hidden"
        );
        press(&mut state, KeyCode::Char('w'));
        let shown = state.sweep_curves().expect("counted when the panel opens");
        assert_eq!(shown.current, Some((1.0, 4.0)));
        let model_at = shown.model.as_ptr();
        // Moving between rows changes nothing the curves show: they are kept, not counted again.
        press(&mut state, KeyCode::Down);
        press(&mut state, KeyCode::Up);
        assert_eq!(
            state.sweep_curves().unwrap().model.as_ptr(),
            model_at,
            "kept"
        );
        press(&mut state, KeyCode::Char('s'));
        assert_eq!(
            state.sweep_curves().unwrap().current,
            Some((2.0, 8.0)),
            "a new stride is marked before anything is drawn"
        );
        for code in ['e', 'e', 'o', 't', 'm', 't', 'm'].map(KeyCode::Char) {
            press(&mut state, code);
            assert_eq!(
                state.sweep_curves(),
                Some(&counted(&state)),
                "after {code:?}"
            );
        }
        // →, ← on the range row: twice as long, then back.
        let range_row = state
            .rows()
            .iter()
            .position(|r| *r == Row::Sweep(SweepRow::Range))
            .unwrap();
        for _ in 0..range_row {
            press(&mut state, KeyCode::Down);
        }
        press(&mut state, KeyCode::Right);
        assert_eq!(state.sweep_curves().unwrap().model.len(), 512);
        press(&mut state, KeyCode::Left);
        assert_eq!(state.sweep_curves().unwrap().model.len(), 256);
        // A preset keeps the panel open and its curves follow.
        press(&mut state, KeyCode::Char('p'));
        press(&mut state, KeyCode::Down);
        press(&mut state, KeyCode::Enter);
        assert_eq!(state.stride, 2);
        assert_eq!(state.sweep_curves(), Some(&counted(&state)));
        press(&mut state, KeyCode::Char('w'));
        assert!(state.sweep_curves().is_none(), "dropped when hidden");
    }

    #[test]
    fn no_measurement_for_patterns_the_h200_did_not_run() {
        let mut state = global();
        state.elem = 2;
        assert!(curves(&state, &state.sweep.unwrap()).measured.is_empty());
        state.elem = 4;
        state.offset = 3;
        assert!(curves(&state, &state.sweep.unwrap()).measured.is_empty());
    }

    #[test]
    fn rows_step_and_take_typed_values() {
        let mut state = global();
        state.adjust_sweep(SweepRow::Range, 1);
        assert_eq!(state.sweep_row_text(SweepRow::Range, Lang::En).1, "1..512");
        state.adjust_sweep(SweepRow::Range, -1);
        state.adjust_sweep(SweepRow::Range, -1);
        assert_eq!(state.sweep_row_text(SweepRow::Range, Lang::En).1, "1..128");
        state.adjust_sweep(SweepRow::Param, 1);
        assert_eq!(state.sweep_row_text(SweepRow::Param, Lang::En).1, "offset");
        assert_eq!(state.sweep_row_text(SweepRow::Range, Lang::En).1, "0..63");
        assert!(
            state
                .set_sweep(SweepRow::Range, "0..100000", Lang::En)
                .is_err()
        );
        assert!(state.set_sweep(SweepRow::Range, "9..1", Lang::En).is_err());
        state
            .set_sweep(SweepRow::Range, "0..1024:16", Lang::En)
            .unwrap();
        assert_eq!(curves(&state, &state.sweep.unwrap()).model.len(), 65);
        state
            .set_sweep(SweepRow::Figure, "efficiency", Lang::En)
            .unwrap();
        assert_eq!(
            state.sweep_figure(&state.sweep.unwrap()),
            Figure::Efficiency
        );
        assert!(
            state
                .set_sweep(SweepRow::Figure, "wavefronts", Lang::En)
                .is_err()
        );
        state.set_sweep(SweepRow::Param, "pitch", Lang::En).unwrap();
        assert_eq!(
            state.sweep_row_text(SweepRow::Range, Lang::En).1,
            "4..1024:4"
        );
        assert!(
            state
                .set_sweep(SweepRow::Param, "nonsense", Lang::En)
                .is_err()
        );
        state.toggle_sweep();
        assert!(state.sweep.is_none());
    }
}
