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
//! └───────────────────────────────────────────────────────── ↓ 7 more · PgDn ┘
//! ```
//!
//! What does not fit scrolls as one page (↑↓, PgUp/PgDn, Home/End): the page is drawn whole into
//! a buffer of its own height and the rows scrolled to are copied into the screen.

use super::scroll::{self, Scroll};
use super::words::{columns, fit};
use super::{Action, Component, Ctx, KeyHint, Theme, block};
use crate::i18n::Lang;
use crate::srs::stats::Stats;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Paragraph, Widget};

/// Keys shown in the footer.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("q", t!(lang, "stats-key-back")),
        KeyHint::new("/", t!(lang, "stats-key-search")),
        KeyHint::new("?", t!(lang, "stats-key-help")),
    ]
}

/// The statistics screen's state: the figures, computed when it opened.
#[derive(Debug, Clone)]
pub struct State {
    /// The figures.
    stats: Stats,
    /// How far the page is scrolled.
    scroll: Scroll,
}

impl State {
    /// The screen showing `stats`.
    pub fn new(stats: Stats) -> Self {
        State {
            stats,
            scroll: Scroll::default(),
        }
    }
}

/// A `YYYY-MM-DD` day as `lang` writes it: `2026-11-30` in English, `2026년 11월 30일` in Korean.
/// Anything else is shown as it is.
pub fn date(lang: Lang, iso: &str) -> String {
    let mut parts = iso.splitn(3, '-').map(str::parse::<u32>);
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(year)), Some(Ok(month)), Some(Ok(day)))
            if iso.len() == 10 && (1..=12).contains(&month) && (1..=31).contains(&day) =>
        {
            // `$mpad`/`$dpad` are the "0" of `01`…`09`, for the languages that write it.
            t!(
                lang,
                "stats-date",
                year = year,
                month = month,
                day = day,
                mpad = if month < 10 { "0" } else { "" },
                dpad = if day < 10 { "0" } else { "" }
            )
        }
        _ => iso.to_string(),
    }
}

/// The short names of the days, Monday first.
fn weekdays(lang: Lang) -> [String; 7] {
    [
        t!(lang, "stats-weekday-mon"),
        t!(lang, "stats-weekday-tue"),
        t!(lang, "stats-weekday-wed"),
        t!(lang, "stats-weekday-thu"),
        t!(lang, "stats-weekday-fri"),
        t!(lang, "stats-weekday-sat"),
        t!(lang, "stats-weekday-sun"),
    ]
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
    let lang = ctx.lang;
    let stats = &state.stats;
    let outer = block(
        &t!(lang, "stats-title", date = date(lang, &stats.today)),
        theme,
    );
    let inner = outer.inner(area);
    // Summary, forecast, heatmap, then the ladder's line, the mastery heading and one line a
    // topic.
    let heat_rows = 8u16;
    let total = 4 + 8 + heat_rows + 2 + u16::try_from(stats.topics.len()).unwrap_or(u16::MAX);
    let overflow = scroll::measure(&state.scroll, total, inner.height);
    scroll::marked(outer, overflow, theme, lang).render(area, buf);
    if !overflow.any() {
        render_page(ctx, stats, inner, buf);
        return;
    }
    // The whole page at its own height, then the rows scrolled to.
    let page = Rect::new(0, 0, inner.width, total);
    let mut whole = Buffer::empty(page);
    render_page(ctx, stats, page, &mut whole);
    for y in 0..inner.height {
        for x in 0..inner.width {
            if let (Some(from), Some(to)) = (
                whole.cell((x, y + overflow.above)),
                buf.cell_mut((inner.x + x, inner.y + y)),
            ) {
                *to = from.clone();
            }
        }
    }
}

/// Draws the page of figures into `inner`.
fn render_page(ctx: &Ctx, stats: &Stats, inner: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let lang = ctx.lang;
    let c = &stats.cards;
    let t = &stats.true_retention;
    let summary = vec![
        Line::from(t!(
            lang,
            "stats-today",
            rated = stats.reviews_today,
            due = stats.due_today,
            streak = stats.streak_days,
            total = stats.total_reviews
        )),
        Line::from(t!(
            lang,
            "stats-cards",
            new = c.new,
            learning = c.learning,
            review = c.review,
            relearning = c.relearning,
            suspended = c.suspended
        )),
        Line::from(t!(
            lang,
            "stats-retention",
            actual = percent(stats.retention_30d),
            desired = crate::format::percent(f64::from(stats.desired_retention))
        )),
        Line::styled(
            t!(
                lang,
                "stats-retention-by-age",
                young = percent(t.young.retention),
                young_n = t.young.passed + t.young.failed,
                mature = percent(t.mature.retention),
                mature_n = t.mature.passed + t.mature.failed
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
    render_forecast(lang, stats, theme, chart, buf);
    render_heatmap(lang, stats, theme, heat, buf);
    render_topics(ctx, stats, theme, rest, buf);
}

fn render_forecast(lang: Lang, stats: &Stats, theme: Theme, area: Rect, buf: &mut Buffer) {
    let [title, bars] = area.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
    ]));
    Line::styled(
        t!(
            lang,
            "stats-forecast",
            n = stats.forecast.iter().sum::<u32>()
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

fn render_heatmap(lang: Lang, stats: &Stats, theme: Theme, area: Rect, buf: &mut Buffer) {
    let counts = &stats.heatmap.counts;
    let weeks = counts.len().div_ceil(7) + 1;
    let days = weekdays(lang);
    // Every row's cells start in the same column, however wide the day names are.
    let label = days.iter().map(|d| columns(d)).max().unwrap_or(0);
    let room = usize::from(area.width).saturating_sub(label + 1);
    let shown = weeks.min(room);
    let max = counts.iter().copied().max().unwrap_or(0);
    let mut lines = vec![Line::styled(
        t!(
            lang,
            "stats-heatmap",
            n = shown.min(stats.heatmap.counts.len() / 7)
        ),
        theme.title(),
    )];
    let first = usize::from(stats.heatmap.first_weekday);
    for (row, day) in days.iter().enumerate() {
        let cells: String = (weeks - shown..weeks)
            .map(|week| {
                (week * 7 + row)
                    .checked_sub(first)
                    .and_then(|i| counts.get(i))
                    .map_or(' ', |&n| shade(n, max))
            })
            .collect();
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", fit(day, label)), theme.dim()),
            Span::styled(cells, theme.good()),
        ]));
    }
    Paragraph::new(lines).render(area, buf);
}

fn render_topics(ctx: &Ctx, stats: &Stats, theme: Theme, area: Rect, buf: &mut Buffer) {
    let lang = ctx.lang;
    let ladder: Vec<String> = crate::content::schema::Level::ALL
        .iter()
        .map(|&level| {
            let (solved, total) = ctx.level_counts(level);
            format!("{} {solved}/{total}", level.key())
        })
        .collect();
    let mut lines = vec![
        Line::from(vec![
            Span::styled(format!("{} ", t!(lang, "stats-ladder")), theme.title()),
            Span::raw(ladder.join(" · ")),
        ]),
        Line::styled(t!(lang, "stats-mastery"), theme.title()),
    ];
    for topic in &stats.topics {
        let name = ctx
            .content
            .topic(&topic.topic)
            .map_or(topic.topic.as_str(), |t| t.name.as_str());
        let aim = topic.desired_retention.map_or(String::new(), |r| {
            format!(
                " · {}",
                t!(
                    lang,
                    "stats-topic-aim",
                    percent = crate::format::percent(f64::from(r))
                )
            )
        });
        lines.push(Line::from(format!(
            "{} {:>6}  {}{aim}",
            fit(name, 30),
            percent(topic.mastery),
            t!(
                lang,
                "stats-topic-studied",
                studied = topic.studied,
                cards = topic.cards
            )
        )));
    }
    Paragraph::new(lines).render(area, buf);
}

impl Component for State {
    /// The arrows move nothing else here: they scroll the page, as PgUp/PgDn do.
    fn handle_key(&mut self, key: KeyEvent, _ctx: &Ctx) -> Option<Action> {
        self.scroll.key(&key, true);
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        let mut keys = keys(lang);
        if self.scroll.overflowing() {
            keys.insert(1, scroll::key_hint(lang));
        }
        keys
    }
}
