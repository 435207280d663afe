//! The search palette (`/` or Ctrl-P): fuzzy search over exercises, cards and topics, matched
//! characters highlighted; Enter opens the result.

use super::input::LineInput;
use super::{Action, Component, Ctx, KeyHint};
use super::{Theme, centered, pad, popup, text_width};
use crate::content::Content;
use crate::i18n::Lang;
use crate::t;
use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// Keys shown in the footer.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("type", t!(lang, "app-search-key-filter")),
        KeyHint::new("↑↓", t!(lang, "common-key-select")),
        KeyHint::new("Enter", t!(lang, "common-key-open")),
        KeyHint::new("Esc", t!(lang, "common-key-close")),
    ]
}

/// Results kept for a query (an empty query lists everything).
const LIMIT: usize = 50;

/// What a result opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An exercise.
    Exercise,
    /// A flashcard.
    Card,
    /// A topic.
    Topic,
}

/// One result.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// What it is.
    pub kind: Kind,
    /// Its id.
    pub id: String,
    /// The text shown and matched.
    pub label: String,
    /// Character positions of the match in `label`.
    pub matched: Vec<usize>,
    /// Match score.
    pub score: i64,
}

/// The palette's state.
#[derive(Debug, Clone)]
pub struct State {
    /// The query.
    input: LineInput,
    /// Results, best first.
    hits: Vec<Hit>,
    /// Selected result.
    selected: usize,
    /// Why the selected result did not open (a locked level).
    notice: Option<String>,
}

impl State {
    /// An empty query (which lists everything in order).
    pub fn new(content: &Content) -> Self {
        let mut state = State {
            input: LineInput::default(),
            hits: Vec::new(),
            selected: 0,
            notice: None,
        };
        state.refresh(content);
        state
    }

    /// Handles a key; returns the action when a result is opened. An exercise of a locked level
    /// opens only as the ladder would open it: not at all, with the reason shown.
    pub fn key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        let content = ctx.content;
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        self.notice = None;
        match key.code {
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down => {
                self.selected = (self.selected + 1).min(self.hits.len().saturating_sub(1))
            }
            KeyCode::Char('k') if ctrl => self.selected = self.selected.saturating_sub(1),
            KeyCode::Char('j') if ctrl => {
                self.selected = (self.selected + 1).min(self.hits.len().saturating_sub(1))
            }
            KeyCode::Enter => {
                let hit = self.hits.get(self.selected)?;
                if let Some(reason) = locked(ctx, hit) {
                    self.notice = Some(reason);
                    return None;
                }
                return Some(match hit.kind {
                    Kind::Exercise => Action::OpenExercise(hit.id.clone()),
                    Kind::Card => Action::OpenCard(hit.id.clone()),
                    Kind::Topic => Action::OpenTopic(hit.id.clone()),
                });
            }
            _ => {
                if self.input.edit(&key) {
                    self.refresh(content);
                }
            }
        }
        None
    }

    /// What matches the query, best first.
    pub fn hits(&self) -> &[Hit] {
        &self.hits
    }

    /// Recomputes the results for the query.
    pub fn refresh(&mut self, content: &Content) {
        self.hits = search(content, self.input.text());
        self.selected = 0;
    }
}

/// Why a result cannot be opened yet: an exercise of a topic-level that is still locked.
pub fn locked(ctx: &Ctx, hit: &Hit) -> Option<String> {
    if hit.kind != Kind::Exercise {
        return None;
    }
    let exercise = ctx.content.exercise(&hit.id)?;
    let why = super::ladder::locked_why(&ctx.board(), &exercise.topic, exercise.level, ctx.lang)?;
    Some(t!(
        ctx.lang,
        "app-search-locked",
        level = exercise.level.key(),
        topic = exercise.topic.clone(),
        why = why
    ))
}

/// Every exercise, card and topic matching `query`, best first (all of them for an empty query).
pub fn search(content: &Content, query: &str) -> Vec<Hit> {
    let matcher = SkimMatcherV2::default().ignore_case();
    let query = query.trim();
    // Topics first, then exercises by level, then cards: an empty query lists all of them.
    let candidates = content
        .topics
        .iter()
        .map(|t| {
            (
                Kind::Topic,
                t.id.as_str(),
                format!("{} — {}", t.name, t.description),
            )
        })
        .chain(content.exercises.iter().map(|e| {
            (
                Kind::Exercise,
                e.id.as_str(),
                format!("{} · {} [{}]", e.level.key(), e.title, e.topic),
            )
        }))
        .chain(content.cards.iter().map(|c| {
            let tags = if c.tags.is_empty() {
                String::new()
            } else {
                format!(" #{}", c.tags.join(" #"))
            };
            (Kind::Card, c.id.as_str(), format!("{}{tags}", c.front))
        }));
    let mut hits: Vec<Hit> = candidates
        .filter_map(|(kind, id, label)| {
            if query.is_empty() {
                return Some(Hit {
                    kind,
                    id: id.to_string(),
                    label,
                    matched: Vec::new(),
                    score: 0,
                });
            }
            matcher
                .fuzzy_indices(&label, query)
                .map(|(score, matched)| Hit {
                    kind,
                    id: id.to_string(),
                    label,
                    matched,
                    score,
                })
        })
        .collect();
    if !query.is_empty() {
        hits.sort_by_key(|hit| std::cmp::Reverse(hit.score));
        hits.truncate(LIMIT);
    }
    hits
}

/// Draws the palette over the screen.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let lang = ctx.lang;
    let rect = centered(
        area,
        area.width.saturating_sub(4).min(100),
        area.height.saturating_sub(2),
    );
    let inner = popup(rect, &t!(lang, "app-search-title"), theme, buf);
    let [query_area, list_area] = inner.layout(&Layout::vertical([
        Constraint::Length(2),
        Constraint::Fill(1),
    ]));
    let (visible, cursor) = state
        .input
        .window(query_area.width.saturating_sub(4) as usize);
    let before: String = visible.chars().take(cursor).collect();
    let after: String = visible.chars().skip(cursor).collect();
    Paragraph::new(vec![
        Line::from(vec![
            Span::styled("/ ", theme.key()),
            Span::raw(before),
            Span::styled("▏", theme.key()),
            Span::raw(after),
        ]),
        match &state.notice {
            Some(notice) => Line::styled(notice.clone(), theme.warn()),
            None => Line::styled(
                t!(lang, "app-search-results", n = state.hits.len()),
                theme.dim(),
            ),
        },
    ])
    .render(query_area, buf);
    let rows = list_area.height as usize;
    let first = state.selected.saturating_sub(rows.saturating_sub(1));
    let width = list_area.width.saturating_sub(11) as usize;
    let mut lines = Vec::new();
    for (i, hit) in state.hits.iter().enumerate().skip(first).take(rows) {
        let selected = i == state.selected;
        let is_locked = locked(ctx, hit).is_some();
        let kind = match hit.kind {
            Kind::Exercise if is_locked => t!(lang, "app-search-kind-locked"),
            Kind::Exercise => t!(lang, "app-search-kind-exercise"),
            Kind::Card => t!(lang, "app-search-kind-card"),
            Kind::Topic => t!(lang, "app-search-kind-topic"),
        };
        let mut spans = vec![Span::styled(
            format!("{} ", pad(&kind, 9)),
            if selected {
                theme.selected()
            } else {
                theme.dim()
            },
        )];
        // Cut by columns, never through a wide character.
        let long = text_width(&hit.label) > width;
        let room = if long { width.saturating_sub(1) } else { width };
        let shown = super::take_width(&hit.label, room).chars().count();
        for (at, c) in hit.label.chars().take(shown).enumerate() {
            let style = if hit.matched.contains(&at) {
                theme.matched()
            } else if selected {
                theme.selected()
            } else if is_locked {
                theme.dim()
            } else {
                theme.text()
            };
            spans.push(Span::styled(c.to_string(), style));
        }
        if long {
            spans.push(Span::styled("…", theme.dim()));
        }
        lines.push(Line::from(spans));
    }
    if state.hits.is_empty() {
        lines.push(Line::styled(t!(lang, "app-search-nothing"), theme.dim()));
    }
    Paragraph::new(lines).render(list_area, buf);
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.key(key, ctx)
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        keys(lang)
    }

    fn captures(&self, key: &KeyEvent) -> bool {
        key.code != ratatui::crossterm::event::KeyCode::Esc
    }

    fn handle_paste(&mut self, text: &str, ctx: &Ctx) -> Option<Action> {
        self.input.paste(text);
        self.refresh(ctx.content);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzzy_search_finds_across_kinds() {
        let content = Content::builtin();
        let hits = search(&content, "tile33");
        assert!(
            hits.iter()
                .any(|h| h.kind == Kind::Card && h.id == "bank-tile33"),
            "{hits:#?}"
        );
        let hits = search(&content, "coalesc");
        assert!(
            hits.iter()
                .any(|h| h.kind == Kind::Topic && h.id == "coalescing")
        );
        assert!(hits.iter().any(|h| h.kind == Kind::Exercise));
        assert!(!hits[0].matched.is_empty());
        assert!(search(&content, "zzzqqqxxx").is_empty());
        assert_eq!(
            search(&content, "").len(),
            content.topics.len() + content.exercises.len() + content.cards.len()
        );
    }

    #[test]
    fn typing_narrows_the_results_and_enter_opens_the_best() {
        use crate::progress::Progress;
        use crate::ui::ctx::{key, test_ctx};
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let mut search = State::new(&content);
        let everything = search.hits.len();
        for c in "sector size".chars() {
            assert_eq!(search.handle_key(key(KeyCode::Char(c)), &ctx), None);
        }
        assert!(search.hits.len() < everything);
        let best = search.hits[0].clone();
        let opened = search.handle_key(key(KeyCode::Enter), &ctx);
        assert!(
            matches!(&opened, Some(Action::OpenExercise(id) | Action::OpenCard(id) | Action::OpenTopic(id)) if *id == best.id),
            "{opened:?}"
        );
        for c in "zzzzqqqq".chars() {
            search.handle_key(key(KeyCode::Char(c)), &ctx);
        }
        assert_eq!(
            search.handle_key(key(KeyCode::Enter), &ctx),
            None,
            "no hit, nothing opens"
        );
    }
}
