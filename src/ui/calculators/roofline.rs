//! The roofline calculator: a machine's peak FLOP/s and bandwidth, kernels placed by their
//! arithmetic intensity on a log-log chart, each memory- or compute-bound.
//!
//! The chart's cells and its axis labels come from one transform ([`Plane`]), so a label stands
//! exactly under (or beside) the points drawn at its value (60×20):
//!
//! ```text
//! ┌ Roofline (log-log) · ridge 13.96 FLOP/B ─────────────────┐
//! │100 T┤FLOP/s                ⢀⣀⣀⣀⠤█⠤⠖⠒⠒•⠒█⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒│
//! │     │        ⢀⣀⣀⣀⡤⠤█⠔⠒⠒⠒⠉⠉⠉⠁         •                   │
//! │100 G┤⠤⠤⠒⠒⠒⠋⠉⠉⠁                       •                   │
//! │     │                                •             FLOP/B│
//! │     └┬─────────┬─────────┬──────────┬─────────┬─────────┬│
//! │     0.01      0.1        1          10       100      1 k│
//! └──────────────────────────────────────────────────────────┘
//! ```

use super::WIDE;
use crate::engine::{self, Bound};
use crate::format;
use crate::i18n::Lang;
use crate::t;
use crate::ui::fields::{self, Panel, PanelEvent, parse_si};
use crate::ui::{Theme, block};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::{Marker, line};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget, Wrap};

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

/// Rows of the panel, in order: the machine, then one row per kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Row {
    Peak,
    Bandwidth,
    /// The kernel at this index of [`RooflineInputs::points`].
    Kernel(usize),
}

/// Most kernels on the chart (`a` adds no more).
const MAX_POINTS: usize = 8;
/// Lowest and highest intensity a kernel may have, in FLOP/B.
const INTENSITY: [f64; 2] = [1e-3, 1e4];
/// Lowest and highest peak FLOP/s ←→ reach.
const STEPPED_PEAK: [f64; 2] = [1e9, 1e18];
/// Lowest and highest bandwidth ←→ reach, in B/s.
const STEPPED_BANDWIDTH: [f64; 2] = [1e8, 1e15];

impl RooflineInputs {
    /// Every row, in order.
    fn row_list(&self) -> Vec<Row> {
        let mut rows = vec![Row::Peak, Row::Bandwidth];
        rows.extend((0..self.points.len()).map(Row::Kernel));
        rows
    }

    /// The row under the cursor (the last one if the cursor is past it).
    fn selected(&self) -> Row {
        let rows = self.row_list();
        rows.get(self.panel.selected)
            .or(rows.last())
            .copied()
            .unwrap_or(Row::Peak)
    }

    fn row_text(&self, row: Row, lang: Lang) -> (String, String) {
        match row {
            Row::Peak => (
                t!(lang, "calc-roof-row-peak"),
                format!("{}FLOP/s", format::si(self.peak_flops)),
            ),
            Row::Bandwidth => (
                t!(lang, "calc-roof-row-bandwidth"),
                format!("{}B/s", format::si(self.bandwidth)),
            ),
            Row::Kernel(i) => self
                .points
                .get(i)
                .map_or_else(Default::default, |(name, x)| {
                    (
                        name.clone(),
                        format!("{} FLOP/B", format::trim_float(*x, 3)),
                    )
                }),
        }
    }

    fn rows(&self, lang: Lang) -> Vec<(String, String)> {
        self.row_list()
            .into_iter()
            .map(|row| self.row_text(row, lang))
            .collect()
    }

    /// Handles a key: `a` adds a kernel (typed over with Enter), `d`/Delete removes the selected
    /// one (never the last), ↑↓ choose a row, ←→ step its value, Enter types one.
    pub(super) fn key(&mut self, key: KeyEvent, lang: Lang) {
        if !self.panel.typing() {
            match key.code {
                KeyCode::Char('a') if self.points.len() < MAX_POINTS => {
                    self.points
                        .push((format!("kernel {}", self.points.len() + 1), 1.0));
                    self.panel.selected = 1 + self.points.len();
                    return;
                }
                KeyCode::Char('d') | KeyCode::Delete => {
                    if let Row::Kernel(i) = self.selected()
                        && i < self.points.len()
                        && self.points.len() > 1
                    {
                        self.points.remove(i);
                        self.panel.selected = self.panel.selected.min(1 + self.points.len());
                        return;
                    }
                }
                _ => {}
            }
        }
        let row = self.selected();
        match self.panel.key(key, self.row_list().len()) {
            PanelEvent::Adjust(step) => self.adjust(row, step),
            PanelEvent::Submit(text) => {
                self.panel.error = parse_si(&text)
                    .map(|value| self.set(row, value))
                    .map_err(|_| {
                        t!(
                            lang,
                            "calc-roof-error-number",
                            text = text.trim().to_string()
                        )
                    })
                    .err();
            }
            PanelEvent::Handled | PanelEvent::Ignored => {}
        }
    }

    /// Steps `row`: the machine by a factor √2, a kernel's intensity by 2.
    fn adjust(&mut self, row: Row, step: i64) {
        let factor = if step > 0 {
            2f64.sqrt()
        } else {
            1.0 / 2f64.sqrt()
        };
        match row {
            Row::Peak => {
                self.peak_flops = (self.peak_flops * factor).clamp(STEPPED_PEAK[0], STEPPED_PEAK[1])
            }
            Row::Bandwidth => {
                self.bandwidth =
                    (self.bandwidth * factor).clamp(STEPPED_BANDWIDTH[0], STEPPED_BANDWIDTH[1]);
            }
            Row::Kernel(i) => {
                if let Some((_, intensity)) = self.points.get_mut(i) {
                    *intensity = (*intensity * factor * factor).clamp(INTENSITY[0], INTENSITY[1]);
                }
            }
        }
    }

    /// Sets `row` to a typed value (positive and finite, as [`parse_si`] returns); a kernel's
    /// intensity is held within 0.001–10 000 FLOP/B.
    fn set(&mut self, row: Row, value: f64) {
        match row {
            Row::Peak => self.peak_flops = value,
            Row::Bandwidth => self.bandwidth = value,
            Row::Kernel(i) => {
                if let Some((_, intensity)) = self.points.get_mut(i) {
                    *intensity = value.clamp(INTENSITY[0], INTENSITY[1]);
                }
            }
        }
    }
}

/// Draws the roofline calculator: the panel, the chart and the list of kernels.
pub(super) fn render(
    inputs: &RooflineInputs,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) {
    let rows: Vec<(String, String)> = inputs.rows(lang);
    let panel_title = t!(lang, "calc-roof-panel");
    let borrowed: Vec<(&str, String)> = rows.iter().map(|(l, v)| (l.as_str(), v.clone())).collect();
    let points = u16::try_from(inputs.points.len()).unwrap_or(u16::MAX);
    let (chart_area, legend_area) = if area.width >= WIDE {
        let [left, chart_area] = area.layout(&Layout::horizontal([
            Constraint::Length(30),
            Constraint::Fill(1),
        ]));
        let [panel_area, legend_area] = left.layout(&Layout::vertical([
            Constraint::Length(points.saturating_add(4)),
            Constraint::Fill(1),
        ]));
        fields::render(
            &panel_title,
            &borrowed,
            &inputs.panel,
            theme,
            panel_area,
            buf,
        );
        (chart_area, legend_area)
    } else {
        let strip_height = super::strip_height(&borrowed, &inputs.panel, theme, area);
        let [strip, chart_area, legend_area] = area.layout(&Layout::vertical([
            Constraint::Length(strip_height),
            Constraint::Fill(1),
            Constraint::Length(points.saturating_add(3)),
        ]));
        fields::render_compact(&panel_title, &borrowed, &inputs.panel, theme, strip, buf);
        (chart_area, legend_area)
    };

    let ridge = inputs.peak_flops / inputs.bandwidth;
    let placed: Vec<(&str, f64, Option<engine::Roofline>)> = inputs
        .points
        .iter()
        .map(|(name, i)| {
            (
                name.as_str(),
                *i,
                engine::roofline(inputs.peak_flops, inputs.bandwidth, *i).ok(),
            )
        })
        .collect();
    chart(inputs, &placed, ridge, theme, lang, chart_area, buf);

    let outer = block(&t!(lang, "calc-roof-kernels"), theme);
    let inner = outer.inner(legend_area);
    outer.render(legend_area, buf);
    let mut lines = vec![Line::from(t!(
        lang,
        "calc-roof-ridge-line",
        ridge = format::trim_float(ridge, 2)
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
                    match r.bound {
                        Bound::Memory => t!(lang, "calc-roof-memory-bound"),
                        Bound::Compute => t!(lang, "calc-roof-compute-bound"),
                    },
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
    let room = crate::ui::wrap_room(&lines, inner);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(room, buf);
}

/// Decades of intensity across the chart: 0.01 to 1000 FLOP/B.
const X_DECADES: [f64; 2] = [-2.0, 3.0];
/// Decades of FLOP/s up the chart, ending at the first whole decade at or above the peak.
const Y_DECADES: f64 = 5.0;

/// Where the log-log plot lies on screen: cells of `area`, spanning log10 of the intensity `x`
/// (left to right) and log10 of the FLOP/s `y` (bottom to top).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Plane {
    area: Rect,
    x: [f64; 2],
    y: [f64; 2],
}

impl Plane {
    /// Column of the cell in which log10(intensity) = `x` is drawn (`None` off the plane).
    fn column(&self, x: f64) -> Option<u16> {
        let [left, right] = self.x;
        cell(x, left, right, self.area.width).map(|at| self.area.x + at)
    }

    /// Row of the cell in which log10(FLOP/s) = `y` is drawn (`None` off the plane).
    fn row(&self, y: f64) -> Option<u16> {
        let [bottom, top] = self.y;
        cell(y, top, bottom, self.area.height).map(|at| self.area.y + at)
    }
}

/// Cell `0..cells` of `value` on an axis running from `from` (cell 0) to `to` (the last cell),
/// rounded to the nearest: the same arithmetic, in the same order, as ratatui's canvas, so the roof
/// it draws passes through the cells the points and labels are given. `None` outside the axis.
fn cell(value: f64, from: f64, to: f64, cells: u16) -> Option<u16> {
    let span = to - from;
    let inside = (from.min(to)..=from.max(to)).contains(&value);
    if cells == 0 || !span.is_finite() || span == 0.0 || !inside {
        return None;
    }
    let at = ((value - from) * f64::from(cells - 1) / span).round();
    // `value` lies between the ends, so `at` lies in 0..=cells-1.
    (0.0..f64::from(cells)).contains(&at).then_some(at as u16)
}

/// The chart's ranges in decades, `([x_min, x_max], [y_min, y_max])` of log10 FLOP/B and log10
/// FLOP/s: at least the usual 0.01–1000 FLOP/B and five decades under the peak, widened to whole
/// decades until they hold the ridge, every kernel and the roof above each kernel. `None` for
/// inputs that are not positive and finite.
fn ranges(peak: f64, bandwidth: f64, intensities: &[f64]) -> Option<([f64; 2], [f64; 2])> {
    let positive = |v: f64| v.is_finite() && v > 0.0;
    if !positive(peak) || !positive(bandwidth) || !intensities.iter().all(|i| positive(*i)) {
        return None;
    }
    let ridge = (peak / bandwidth).log10();
    let xs = intensities.iter().map(|i| i.log10()).chain([ridge]);
    let (lo, hi) = xs.fold((X_DECADES[0], X_DECADES[1]), |(lo, hi), x| {
        (lo.min(x.floor()), hi.max(x.ceil()))
    });
    let top = peak.log10().ceil();
    let lowest_kernel = intensities
        .iter()
        .map(|i| peak.min(bandwidth * i).log10())
        .fold(f64::INFINITY, f64::min);
    let bottom = (top - Y_DECADES).min(lowest_kernel.floor());
    [lo, hi, top, bottom]
        .iter()
        .all(|v| v.is_finite())
        .then_some(([lo, hi], [bottom, top]))
}

/// The chart's plane and where its labels go.
#[derive(Debug, Clone, PartialEq)]
struct Axes {
    plane: Plane,
    /// Column and text of each intensity label.
    x_labels: Vec<(u16, String)>,
    /// Row and text of each FLOP/s label.
    y_labels: Vec<(u16, String)>,
    /// Width of the FLOP/s labels, left of the axis.
    y_label_width: u16,
}

/// Whole decades within `[low, high]` (none for bounds that are not finite or span too many).
fn decades([low, high]: [f64; 2]) -> Vec<f64> {
    if !(low.is_finite() && high.is_finite()) || high - low > 50.0 {
        return Vec::new();
    }
    let mut decade = low.ceil();
    let mut all = Vec::new();
    while decade <= high {
        all.push(decade);
        decade += 1.0;
    }
    all
}

/// `10^decade` as a label (`0.01`, `1 k`, `100 T`), or `None` when it is too large to print.
fn decade_label(decade: f64) -> Option<String> {
    let value = 10f64.powf(decade);
    value
        .is_finite()
        .then(|| format::si(value).trim().to_string())
}

/// Every `step`-th of `labels`, for the smallest step whose neighbours all satisfy `apart`.
fn spread<T: Clone>(labels: &[T], apart: impl Fn(&T, &T) -> bool) -> Vec<T> {
    (1..=labels.len().max(1))
        .map(|step| labels.iter().step_by(step).cloned().collect::<Vec<_>>())
        .find(|kept| kept.windows(2).all(|pair| apart(&pair[0], &pair[1])))
        .unwrap_or_default()
}

/// First column of `text` centred on `column`, kept within `area`.
fn label_start(text: &str, column: u16, area: Rect) -> u16 {
    let width = u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
    let centred = column.saturating_sub(width.saturating_sub(1) / 2);
    let last = area.right().saturating_sub(width).max(area.x);
    centred.clamp(area.x, last)
}

impl Axes {
    /// Lays the chart out in `area`: FLOP/s labels on the left, the axis lines, the intensity labels
    /// below, the plane in the rest; labels at whole decades, as many as fit without touching.
    /// `None` when `area` is too small for a plane.
    fn layout(area: Rect, x: [f64; 2], y: [f64; 2]) -> Option<Axes> {
        // Two rows below the plane: the axis line and the intensity labels.
        let height = area.height.checked_sub(2).filter(|&h| h > 0)?;
        let rows = Plane {
            area: Rect::new(area.x, area.y, 1, height),
            x,
            y,
        };
        // From the top decade down: the roof lies near the top.
        let y_candidates: Vec<(u16, String)> = decades(y)
            .into_iter()
            .rev()
            .filter_map(|d| Some((rows.row(d)?, decade_label(d)?)))
            .collect();
        // A blank row between two labels.
        let y_labels = spread(&y_candidates, |a, b| a.0.abs_diff(b.0) >= 2);
        let y_label_width = y_labels
            .iter()
            .map(|(_, text)| u16::try_from(text.chars().count()).unwrap_or(u16::MAX))
            .max()
            .unwrap_or(0);
        let left = y_label_width.saturating_add(1);
        let width = area.width.checked_sub(left).filter(|&w| w > 0)?;
        let plane = Plane {
            area: Rect::new(area.x + left, area.y, width, height),
            x,
            y,
        };
        let x_candidates: Vec<(u16, String)> = decades(x)
            .into_iter()
            .filter_map(|d| Some((plane.column(d)?, decade_label(d)?)))
            .collect();
        // A blank column between two labels.
        let x_labels = spread(&x_candidates, |a, b| {
            let end = label_start(&a.1, a.0, area) as usize + a.1.chars().count();
            end < label_start(&b.1, b.0, area) as usize
        });
        Some(Axes {
            plane,
            x_labels,
            y_labels,
            y_label_width,
        })
    }
}

/// Sets one cell, if it is in the buffer.
fn put(buf: &mut Buffer, (x, y): (u16, u16), symbol: &str, style: Style) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_symbol(symbol).set_style(style);
    }
}

/// Writes `text` from `(x, y)`, cut at the right of `within`.
fn put_text(buf: &mut Buffer, (x, y): (u16, u16), text: &str, style: Style, within: Rect) {
    let width = u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
    let area = Rect::new(x, y, width, 1)
        .intersection(within)
        .intersection(buf.area);
    Line::styled(text.to_string(), style).render(area, buf);
}

/// The log-log chart: the roof, the ridge, a block per kernel, and the axes with their labels.
fn chart(
    inputs: &RooflineInputs,
    placed: &[(&str, f64, Option<engine::Roofline>)],
    ridge: f64,
    theme: Theme,
    lang: Lang,
    area: Rect,
    buf: &mut Buffer,
) {
    let outer = block(
        &t!(
            lang,
            "calc-roof-title",
            ridge = format::trim_float(ridge, 2)
        ),
        theme,
    );
    let inner = outer.inner(area);
    outer.render(area, buf);
    let log = |v: f64| v.log10();
    let peak = log(inputs.peak_flops);
    let intensities: Vec<f64> = placed.iter().map(|(_, i, _)| *i).collect();
    let Some((x_range, y_range)) = ranges(inputs.peak_flops, inputs.bandwidth, &intensities) else {
        return;
    };
    let Some(axes) = Axes::layout(inner, x_range, y_range) else {
        return;
    };
    let plane = axes.plane;
    let [x_min, x_max] = plane.x;
    let [y_min, _] = plane.y;

    let roof: Vec<(f64, f64)> = (0..=200)
        .map(|i| {
            let x = x_min + (x_max - x_min) * f64::from(i) / 200.0;
            (
                x,
                log(inputs.peak_flops.min(inputs.bandwidth * 10f64.powf(x))),
            )
        })
        .collect();
    Chart::new(vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.title())
            .data(&roof),
    ])
    .x_axis(Axis::default().bounds(plane.x))
    .y_axis(Axis::default().bounds(plane.y))
    .render(plane.area, buf);

    // The axes, a tick at each label.
    let axis_column = plane.area.x.saturating_sub(1);
    let axis_row = plane.area.bottom();
    for row in plane.area.top()..plane.area.bottom() {
        put(buf, (axis_column, row), line::VERTICAL, Style::default());
    }
    put(
        buf,
        (axis_column, axis_row),
        line::BOTTOM_LEFT,
        Style::default(),
    );
    for column in plane.area.left()..plane.area.right() {
        put(buf, (column, axis_row), line::HORIZONTAL, Style::default());
    }
    for (row, text) in &axes.y_labels {
        put(
            buf,
            (axis_column, *row),
            line::VERTICAL_LEFT,
            Style::default(),
        );
        let width = u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
        let start = inner.x + axes.y_label_width.saturating_sub(width);
        put_text(buf, (start, *row), text, theme.dim(), inner);
    }
    for (column, text) in &axes.x_labels {
        put(
            buf,
            (*column, axis_row),
            line::HORIZONTAL_DOWN,
            Style::default(),
        );
        let start = label_start(text, *column, inner);
        put_text(buf, (start, axis_row + 1), text, theme.dim(), inner);
    }

    // The ridge, from the peak down.
    if let (Some(column), Some(from)) = (plane.column(log(ridge)), plane.row(peak)) {
        for row in from..plane.area.bottom() {
            put(buf, (column, row), "•", theme.dim());
        }
    }
    // The kernels: off-chart intensities at the edge, tiny FLOP/s on the bottom row.
    for (n, (_, intensity, r)) in placed.iter().enumerate() {
        let x = log(*intensity).clamp(x_min, x_max);
        let y = log(r.map_or(1.0, |r| r.attainable_flops)).max(y_min);
        if let (Some(column), Some(row)) = (plane.column(x), plane.row(y)) {
            let style = theme.series(n + 1).add_modifier(Modifier::BOLD);
            put(buf, (column, row), ratatui::symbols::block::FULL, style);
        }
    }

    // Axis names over whatever lies beneath.
    if plane.area.height > 2 {
        let (per_second, per_byte) = ("FLOP/s", "FLOP/B");
        if 7 < plane.area.width {
            let at = (plane.area.x, plane.area.y);
            put_text(buf, at, per_second, Style::reset(), plane.area);
        }
        if 6 < plane.area.width {
            let at = (plane.area.right() - 6, plane.area.bottom() - 1);
            put_text(buf, at, per_byte, Style::reset(), plane.area);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{press, screen, type_value};
    use super::super::{State, Tab};
    use super::*;

    fn roofline() -> State {
        State::new(Tab::Roofline)
    }

    fn names(state: &State) -> Vec<&str> {
        state
            .roofline
            .points
            .iter()
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// Selects `row` from the top.
    fn select(state: &mut State, row: Row) {
        let rows = state.roofline.row_list();
        for _ in 0..rows.len() {
            press(state, KeyCode::Up);
        }
        let at = rows.iter().position(|&r| r == row).unwrap_or(0);
        for _ in 0..at {
            press(state, KeyCode::Down);
        }
        assert_eq!(state.roofline.selected(), row);
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs()
    }

    #[test]
    fn hand_derived_numbers_are_on_screen() {
        // Ridge 67 T / 4.8 T = 13.96 FLOP/B; below it a kernel gets intensity × 4.8 TB/s.
        let text = screen(&roofline(), 80, 24);
        assert!(text.contains("ridge 13.96 FLOP/B"), "{text}");
        assert!(text.contains("naive matmul 0.25 FLOP/B: memory-bound, 1.2 TFLOP/s"));
        assert!(text.contains("tiled 16×16 4 FLOP/B: memory-bound, 19.2 TFLOP/s"));
        assert!(text.contains("your kernel 20 FLOP/B: compute-bound, 67 TFLOP/s"));
    }

    #[test]
    fn up_and_down_move_between_rows_and_stop_at_the_ends() {
        let mut state = roofline();
        press(&mut state, KeyCode::Up);
        assert_eq!(state.roofline.selected(), Row::Peak);
        press(&mut state, KeyCode::Down);
        assert_eq!(state.roofline.selected(), Row::Bandwidth);
        press(&mut state, KeyCode::Down);
        assert_eq!(state.roofline.selected(), Row::Kernel(0));
        for _ in 0..10 {
            press(&mut state, KeyCode::Down);
        }
        assert_eq!(state.roofline.selected(), Row::Kernel(2));
        assert_eq!(state.roofline.panel.selected, 4);
    }

    #[test]
    fn left_and_right_step_the_row_under_the_cursor_within_its_bounds() {
        let mut state = roofline();
        select(&mut state, Row::Peak);
        press(&mut state, KeyCode::Right);
        assert!(close(state.roofline.peak_flops, 67e12 * 2f64.sqrt()));
        assert!(screen(&state, 80, 24).contains("peak 94.8 TFLOP/s"));
        assert_eq!(state.roofline.bandwidth, 4.8e12, "only the row selected");
        for _ in 0..200 {
            press(&mut state, KeyCode::Right);
        }
        assert_eq!(state.roofline.peak_flops, 1e18);
        for _ in 0..200 {
            press(&mut state, KeyCode::Left);
        }
        assert_eq!(state.roofline.peak_flops, 1e9);

        select(&mut state, Row::Bandwidth);
        press(&mut state, KeyCode::Left);
        assert!(close(state.roofline.bandwidth, 4.8e12 / 2f64.sqrt()));
        for _ in 0..200 {
            press(&mut state, KeyCode::Right);
        }
        assert_eq!(state.roofline.bandwidth, 1e15);
        for _ in 0..200 {
            press(&mut state, KeyCode::Left);
        }
        assert_eq!(state.roofline.bandwidth, 1e8);

        // A kernel's intensity doubles or halves, within 0.001–10 000 FLOP/B.
        select(&mut state, Row::Kernel(2));
        press(&mut state, KeyCode::Right);
        assert!(close(state.roofline.points[2].1, 40.0));
        assert!(
            close(state.roofline.points[1].1, 4.0),
            "only the row selected"
        );
        for _ in 0..40 {
            press(&mut state, KeyCode::Right);
        }
        assert_eq!(state.roofline.points[2].1, 1e4);
        for _ in 0..40 {
            press(&mut state, KeyCode::Left);
        }
        assert_eq!(state.roofline.points[2].1, 1e-3);
    }

    #[test]
    fn a_typed_value_is_set() {
        let mut state = roofline();
        select(&mut state, Row::Kernel(0));
        type_value(&mut state, "100");
        assert_eq!(state.roofline.points[0].1, 100.0);
        assert!(screen(&state, 80, 24).contains("naive matmul 100 FLOP/B: compute-bound"));
        select(&mut state, Row::Peak);
        type_value(&mut state, "100T");
        assert_eq!(state.roofline.peak_flops, 1e14);
        select(&mut state, Row::Bandwidth);
        type_value(&mut state, "2 TB/s");
        assert_eq!(state.roofline.bandwidth, 2e12);
        // 100 T / 2 T = 50 FLOP/B.
        assert!(screen(&state, 80, 24).contains("ridge 50 FLOP/B"));
        // Past the ends of the intensity axis: held at the end.
        select(&mut state, Row::Kernel(1));
        type_value(&mut state, "1e9");
        assert_eq!(state.roofline.points[1].1, 1e4);
        assert_eq!(state.roofline.panel.error, None);
    }

    #[test]
    fn a_bad_value_shows_why_and_keeps_the_old_one() {
        let mut state = roofline();
        select(&mut state, Row::Bandwidth);
        type_value(&mut state, "fast");
        assert_eq!(state.roofline.bandwidth, 4.8e12);
        let error = "`fast`: not a positive number (e.g. 67T, 4.8 TB/s, 0.25)";
        assert_eq!(state.roofline.panel.error.as_deref(), Some(error));
        assert!(screen(&state, 80, 24).contains(error));
        for text in ["0", "-1", "1e400", "NaN", "inf", "", &"9".repeat(400)] {
            for row in [Row::Peak, Row::Bandwidth, Row::Kernel(0)] {
                select(&mut state, row);
                type_value(&mut state, text);
                assert!(state.roofline.panel.error.is_some(), "{text:?} {row:?}");
            }
        }
        assert_eq!(state.roofline.peak_flops, 67e12);
        assert_eq!(state.roofline.bandwidth, 4.8e12);
        assert_eq!(state.roofline.points[0].1, 0.25);
    }

    #[test]
    fn a_adds_kernels_and_d_removes_the_selected_one() {
        let mut state = roofline();
        press(&mut state, KeyCode::Char('a'));
        assert_eq!(state.roofline.points.len(), 4);
        assert_eq!(state.roofline.points[3], ("kernel 4".to_string(), 1.0));
        assert_eq!(state.roofline.selected(), Row::Kernel(3), "the new kernel");
        for _ in 0..10 {
            press(&mut state, KeyCode::Char('a'));
        }
        assert_eq!(state.roofline.points.len(), 8, "at most 8 kernels");
        assert_eq!(state.roofline.selected(), Row::Kernel(7));

        // `d` on a machine row removes nothing.
        select(&mut state, Row::Peak);
        press(&mut state, KeyCode::Char('d'));
        assert_eq!(state.roofline.points.len(), 8);

        select(&mut state, Row::Kernel(1));
        press(&mut state, KeyCode::Char('d'));
        assert_eq!(
            names(&state)[..3],
            ["naive matmul", "your kernel", "kernel 4"]
        );
        assert_eq!(state.roofline.selected(), Row::Kernel(1));
        // Removing the last row moves the cursor up onto the new last one.
        select(&mut state, Row::Kernel(6));
        press(&mut state, KeyCode::Delete);
        assert_eq!(state.roofline.points.len(), 6);
        assert_eq!(state.roofline.selected(), Row::Kernel(5));
        for _ in 0..10 {
            press(&mut state, KeyCode::Char('d'));
        }
        assert_eq!(names(&state), ["naive matmul"], "the last kernel stays");

        // While a value is typed, `a` and `d` are text.
        press(&mut state, KeyCode::Enter);
        press(&mut state, KeyCode::Char('a'));
        press(&mut state, KeyCode::Char('d'));
        assert!(screen(&state, 80, 24).contains("ad▏"));
        assert_eq!(state.roofline.points.len(), 1);
    }

    /// The screen as rows of cells.
    fn cells(state: &State, width: u16, height: u16) -> Vec<Vec<char>> {
        screen(state, width, height)
            .lines()
            .map(|row| row.chars().collect())
            .collect()
    }

    /// Where the one kernel block `█` is drawn.
    fn block_at(cells: &[Vec<char>]) -> (usize, usize) {
        let found: Vec<(usize, usize)> = cells
            .iter()
            .enumerate()
            .flat_map(|(y, row)| {
                row.iter()
                    .enumerate()
                    .filter(|(_, c)| **c == '█')
                    .map(move |(x, _)| (x, y))
            })
            .collect();
        assert_eq!(found.len(), 1, "one kernel on the chart");
        found[0]
    }

    /// The text of the label row below the x axis, and the axis row's `┬` columns.
    fn x_axis(cells: &[Vec<char>]) -> (Vec<char>, Vec<usize>) {
        let axis = cells
            .iter()
            .position(|row| row.contains(&'┬'))
            .expect("an x axis with ticks");
        let ticks = (0..cells[axis].len())
            .filter(|&x| cells[axis][x] == '┬')
            .collect();
        (cells[axis + 1].clone(), ticks)
    }

    /// Columns `label` covers in `row` (a whole word).
    fn label_columns(row: &[char], label: &str) -> std::ops::Range<usize> {
        let text: String = row.iter().collect();
        let start = text
            .split(' ')
            .scan(0, |at, word| {
                let here = *at;
                *at += word.chars().count() + 1;
                Some((here, word))
            })
            .find(|(_, word)| *word == label)
            .map(|(at, _)| at)
            .unwrap_or_else(|| panic!("label {label:?} in {text:?}"));
        start..start + label.chars().count()
    }

    #[test]
    fn x_labels_stand_over_the_column_of_points_at_their_intensity() {
        for (width, height) in [(80, 24), (60, 20), (100, 30), (200, 60), (73, 21)] {
            for (intensity, label) in [(0.1, "0.1"), (1.0, "1"), (10.0, "10"), (100.0, "100")] {
                let mut state = roofline();
                state.roofline.points = vec![("k".into(), intensity)];
                let cells = cells(&state, width, height);
                let (column, _) = block_at(&cells);
                let (labels, ticks) = x_axis(&cells);
                assert!(
                    ticks.contains(&column),
                    "{width}×{height}: {intensity} FLOP/B drawn at column {column}, ticks {ticks:?}"
                );
                if labels
                    .iter()
                    .collect::<String>()
                    .contains(&format!(" {label} "))
                {
                    let covers = label_columns(&labels, label);
                    assert!(
                        covers.contains(&column),
                        "{width}×{height}: {label:?} at {covers:?}, its points at {column}"
                    );
                }
            }
        }
        // At 80×24 every decade has its label.
        let (labels, ticks) = x_axis(&cells(&roofline(), 80, 24));
        let text: String = labels.iter().collect();
        let words: Vec<&str> = text
            .split("  ")
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .collect();
        assert_eq!(words, ["│", "0.01", "0.1", "1", "10", "100", "1 k│"]);
        assert_eq!(ticks.len(), 6);
    }

    #[test]
    fn y_labels_stand_beside_the_row_of_points_at_their_flops() {
        for (width, height) in [(80, 24), (60, 20), (100, 30), (200, 60)] {
            // 1e14 FLOP/s and 1e12 B/s: 1 FLOP/B attains 1 T, 100 FLOP/B the 100 T peak.
            for (intensity, label) in [(1.0, "1 T"), (100.0, "100 T")] {
                let mut state = roofline();
                state.roofline.peak_flops = 1e14;
                state.roofline.bandwidth = 1e12;
                state.roofline.points = vec![("k".into(), intensity)];
                let cells = cells(&state, width, height);
                let (_, row) = block_at(&cells);
                let tick = format!("{label}┤");
                let labelled: Vec<usize> = (0..cells.len())
                    .filter(|&y| cells[y].iter().collect::<String>().contains(&tick))
                    .collect();
                // The top decade is always labelled; a lower one may be left out for room.
                if label == "100 T" {
                    assert_eq!(labelled.len(), 1, "{width}×{height}: {label:?} labelled");
                }
                for y in labelled {
                    assert_eq!(
                        y, row,
                        "{width}×{height}: {label:?} on row {y}, its points on row {row}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_plane_maps_values_to_cells_as_the_canvas_draws_them() {
        // The roof is drawn by ratatui's canvas; the points and labels by `Plane`. They must agree.
        for (width, height) in [(71u16, 8u16), (52, 4), (1, 1), (2, 2), (150, 45)] {
            let area = Rect::new(3, 2, width, height);
            let plane = Plane {
                area,
                x: X_DECADES,
                y: [9.0, 14.0],
            };
            for (x, y) in [
                (-2.0, 9.0),
                (3.0, 14.0),
                (0.602, 13.283),
                (1.0, 12.0),
                (-0.6021, 12.0792),
                (0.5, 11.5),
            ] {
                let data = [(x, y)];
                let mut buf = Buffer::empty(Rect::new(0, 0, width + 5, height + 4));
                Chart::new(vec![
                    Dataset::default()
                        .marker(Marker::Block)
                        .graph_type(GraphType::Scatter)
                        .data(&data),
                ])
                .x_axis(Axis::default().bounds(plane.x))
                .y_axis(Axis::default().bounds(plane.y))
                .render(area, &mut buf);
                let drawn: Vec<(u16, u16)> = area
                    .positions()
                    .filter(|p| buf[*p].symbol() == "█")
                    .map(|p| (p.x, p.y))
                    .collect();
                let placed = plane.column(x).zip(plane.row(y));
                assert_eq!(drawn, placed.into_iter().collect::<Vec<_>>(), "{x}, {y}");
            }
        }
        let plane = Plane {
            area: Rect::new(0, 0, 10, 5),
            x: X_DECADES,
            y: [9.0, 14.0],
        };
        assert_eq!(plane.column(3.5), None);
        assert_eq!(plane.column(f64::NAN), None);
        assert_eq!(plane.row(8.0), None);
        assert_eq!(plane.row(14.0), Some(0));
        assert_eq!(plane.row(9.0), Some(4));
        assert_eq!(cell(1.0, 0.0, 0.0, 5), None);
        assert_eq!(cell(1.0, 0.0, 2.0, 0), None);
    }

    #[test]
    fn labels_are_whole_decades_spread_without_touching() {
        assert_eq!(decades([-2.0, 3.0]), [-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]);
        assert_eq!(decades([9.5, 11.2]), [10.0, 11.0]);
        assert!(decades([f64::NAN, 3.0]).is_empty());
        assert!(decades([0.0, 1e9]).is_empty());
        assert_eq!(decade_label(-2.0).as_deref(), Some("0.01"));
        assert_eq!(decade_label(3.0).as_deref(), Some("1 k"));
        assert_eq!(decade_label(14.0).as_deref(), Some("100 T"));
        assert_eq!(decade_label(400.0), None);
        let rows = [0u16, 1, 3, 4, 6, 7];
        assert_eq!(spread(&rows, |a, b| a.abs_diff(*b) >= 2), [0, 3, 6]);
        assert_eq!(spread(&rows, |a, b| a.abs_diff(*b) >= 5), [0, 6]);
        assert_eq!(spread(&rows, |_, _| false), [0]);
        assert!(spread::<u16>(&[], |_, _| true).is_empty());
        let area = Rect::new(1, 0, 20, 1);
        assert_eq!(label_start("100", 10, area), 9);
        assert_eq!(label_start("0.01", 1, area), 1);
        assert_eq!(label_start("1 k", 20, area), 18);
        // A chart too small for a plane draws no axes.
        assert_eq!(
            Axes::layout(Rect::new(0, 0, 40, 2), X_DECADES, [9.0, 14.0]),
            None
        );
        assert_eq!(
            Axes::layout(Rect::new(0, 0, 3, 9), X_DECADES, [9.0, 14.0]),
            None
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// For peaks of 1 GFLOP/s to 10 PFLOP/s, bandwidths of 1 GB/s to 100 TB/s and kernels of
        /// 0.001 to 10 000 FLOP/B, the plot holds the roof, the ridge and every kernel.
        #[test]
        fn the_axes_hold_the_roof_the_ridge_and_every_kernel(
            peak_exp in 9.0f64..16.0,
            bandwidth_exp in 9.0f64..14.0,
            kernels in proptest::collection::vec(-3.0f64..4.0, 1..8),
        ) {
            let (peak, bandwidth) = (10f64.powf(peak_exp), 10f64.powf(bandwidth_exp));
            let intensities: Vec<f64> = kernels.iter().map(|k| 10f64.powf(*k)).collect();
            let ([x_min, x_max], [y_min, y_max]) =
                ranges(peak, bandwidth, &intensities).expect("positive inputs");
            let inside = |v: f64, lo: f64, hi: f64| lo <= v && v <= hi;
            proptest::prop_assert!(inside((peak / bandwidth).log10(), x_min, x_max));
            proptest::prop_assert!(inside(peak.log10(), y_min, y_max));
            for i in &intensities {
                proptest::prop_assert!(inside(i.log10(), x_min, x_max));
                proptest::prop_assert!(inside(peak.min(bandwidth * i).log10(), y_min, y_max));
            }
            // Whole decades, so every label is a 1, 10, 100 … tick.
            for end in [x_min, x_max, y_min, y_max] {
                proptest::prop_assert_eq!(end, end.round());
            }
            // The usual view is kept when everything fits in it.
            proptest::prop_assert!(x_min <= X_DECADES[0] && x_max >= X_DECADES[1]);
        }
    }

    #[test]
    fn a_peak_of_150_tflops_keeps_the_roof_on_the_chart() {
        let mut state = roofline();
        state.roofline.peak_flops = 150e12;
        state.roofline.points.push(("huge".into(), 5e4));
        let text: String = cells(&state, 80, 30)
            .iter()
            .map(|row| row.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(text.contains("100 T") || text.contains("1 P"), "{text}");
        assert!(
            text.contains("10 k"),
            "the x axis reaches the 50 000 FLOP/B kernel: {text}"
        );
    }
}
