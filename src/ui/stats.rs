//! Statistics: today, cards by state, true retention beside the desired retention, the 30-day due
//! forecast as a bar chart, the 52-week review heatmap, and the ladder's progress and mastery per
//! topic where there is room.
//!
//! ```text
//! ┌ Statistics · 2026-11-30 ─────────────────────────────────────────────────┐
//! │today 12 rated · 30 due · streak 5 days                                   │
//! │cards new 100 · learning 2 · review 14 · relearning 0 · suspended 0       │
//! │retention 30 d 91.2% (young 90.0% · mature 93.3%) · desired 90.0%         │
//! │due in the next 30 days                                                   │
//! │█ ▅ ▃ …                                                                   │
//! │last 52 weeks                                                             │
//! │Mon ·░▒▓█…                                                                │
//! └──────────────────────────────────────────────────────────────────────────┘
//! ```

use super::{Action, Component, Ctx, Theme, block};
use crate::srs::stats::Stats;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Paragraph, Widget};

/// Keys shown in the footer.
pub const KEYS: &[(&str, &str)] = &[("q", "back"), ("/", "search"), ("?", "help")];

/// The statistics screen's state: the figures, computed when it opened.
#[derive(Debug, Clone)]
pub struct State {
    /// The figures.
    pub stats: Stats,
}

fn percent(value: Option<f64>) -> String {
    value.map_or("—".to_string(), crate::format::percent)
}

/// A shade for a day's count relative to the busiest day.
fn shade(count: u32, max: u32) -> char {
    if count == 0 {
        '·'
    } else {
        ['░', '▒', '▓', '█'][((u64::from(count) * 4 - 1) / u64::from(max.max(1))).min(3) as usize]
    }
}

/// Draws the statistics.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let stats = &state.stats;
    let outer = block(&format!("Statistics · {}", stats.today), theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    let c = &stats.cards;
    let t = &stats.true_retention;
    let summary = vec![
        Line::from(format!(
            "today {} rated · {} due · streak {} day(s) · {} in all",
            stats.reviews_today, stats.due_today, stats.streak_days, stats.total_reviews
        )),
        Line::from(format!(
            "new {} · learning {} · review {} · relearn {} · suspended {}",
            c.new, c.learning, c.review, c.relearning, c.suspended
        )),
        Line::from(format!(
            "retention, last 30 days {} · desired {}",
            percent(stats.retention_30d),
            crate::format::percent(f64::from(stats.desired_retention))
        )),
        Line::styled(
            format!(
                "young {} of {} · mature {} of {}",
                percent(t.young.retention),
                t.young.passed + t.young.failed,
                percent(t.mature.retention),
                t.mature.passed + t.mature.failed
            ),
            theme.dim(),
        ),
    ];
    let heat_rows = 8u16;
    let [top, chart, heat, rest] = inner.layout(&Layout::vertical([
        Constraint::Length(4),
        Constraint::Max(8),
        Constraint::Length(heat_rows),
        Constraint::Fill(1),
    ]));
    Paragraph::new(summary).render(top, buf);
    render_forecast(stats, theme, chart, buf);
    render_heatmap(stats, theme, heat, buf);
    render_topics(ctx, stats, theme, rest, buf);
}

fn render_forecast(stats: &Stats, theme: Theme, area: Rect, buf: &mut Buffer) {
    let [title, bars] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
    ]));
    Line::styled(
        format!(
            "due in the next 30 days ({} in all, today first)",
            stats.forecast.iter().sum::<u32>()
        ),
        theme.title(),
    )
    .render(title, buf);
    let gap = u16::from(bars.width >= 60);
    let data: Vec<Bar> = stats
        .forecast
        .iter()
        .map(|&n| {
            Bar::default()
                .value(u64::from(n))
                .text_value(String::new())
                .style(theme.series(0))
        })
        .collect();
    BarChart::default()
        .data(BarGroup::default().bars(&data))
        .bar_width(1)
        .bar_gap(gap)
        .render(bars, buf);
}

fn render_heatmap(stats: &Stats, theme: Theme, area: Rect, buf: &mut Buffer) {
    let counts = &stats.heatmap.counts;
    let weeks = counts.len().div_ceil(7) + 1;
    let room = usize::from(area.width).saturating_sub(4);
    let shown = weeks.min(room);
    let max = counts.iter().copied().max().unwrap_or(0);
    let mut lines = vec![Line::styled(
        format!(
            "reviews, last {} weeks (one column a week)",
            shown.min(stats.heatmap.counts.len() / 7)
        ),
        theme.title(),
    )];
    let first = usize::from(stats.heatmap.first_weekday);
    for (row, day) in ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        .iter()
        .enumerate()
    {
        let cells: String = (weeks - shown..weeks)
            .map(|week| {
                (week * 7 + row)
                    .checked_sub(first)
                    .and_then(|i| counts.get(i))
                    .map_or(' ', |&n| shade(n, max))
            })
            .collect();
        lines.push(Line::from(vec![
            Span::styled(format!("{day} "), theme.dim()),
            Span::styled(cells, theme.good()),
        ]));
    }
    Paragraph::new(lines).render(area, buf);
}

fn render_topics(ctx: &Ctx, stats: &Stats, theme: Theme, area: Rect, buf: &mut Buffer) {
    let ladder: Vec<String> = crate::content::schema::Level::ALL
        .iter()
        .map(|&level| {
            let (solved, total) = ctx.level_counts(level);
            format!("{} {solved}/{total}", level.key())
        })
        .collect();
    let mut lines = vec![
        Line::from(vec![
            Span::styled("ladder ", theme.title()),
            Span::raw(ladder.join(" · ")),
        ]),
        Line::styled("mastery (average probability of recall now)", theme.title()),
    ];
    for topic in &stats.topics {
        let name = ctx
            .content
            .topic(&topic.topic)
            .map_or(topic.topic.as_str(), |t| t.name.as_str());
        lines.push(Line::from(format!(
            "{:<30} {:>6}  {}/{} studied",
            super::ellipsis(name, 30),
            percent(topic.mastery),
            topic.studied,
            topic.cards
        )));
    }
    Paragraph::new(lines).render(area, buf);
}

impl Component for State {
    fn handle_key(&mut self, _key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        KEYS.to_vec()
    }
}
