//! A topic: what it covers, the idea in plain words, and its exercises and cards.

use super::{Action, Component, Ctx, KeyHint};
use super::{Theme, block, pad, rich, text_width};
use crate::content::Content;
use crate::i18n::Lang;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Keys shown in the footer.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("↑↓/jk", t!(lang, "common-key-select")),
        KeyHint::new("Enter", t!(lang, "common-key-open")),
        KeyHint::new("/", t!(lang, "common-key-search")),
        KeyHint::new("q", t!(lang, "common-key-back")),
    ]
}

/// The topic screen's state.
#[derive(Debug, Clone)]
pub struct State {
    /// Topic id.
    id: String,
    /// Selected entry of the combined exercise + card list.
    selected: usize,
}

impl State {
    /// Showing topic `id`.
    pub fn new(id: &str) -> Self {
        State {
            id: id.to_string(),
            selected: 0,
        }
    }

    fn entries(&self, content: &Content, lang: Lang) -> Vec<(Action, String)> {
        // The kinds line up: `exercise L1 · …` and `card     …`.
        let (exercise, card) = (
            t!(lang, "ladder-topic-exercise"),
            t!(lang, "ladder-topic-card"),
        );
        let width = text_width(&exercise).max(text_width(&card));
        let (exercise, card) = (pad(&exercise, width), pad(&card, width));
        content
            .exercises
            .iter()
            .filter(|e| e.topic == self.id)
            .map(|e| {
                (
                    Action::OpenExercise(e.id.clone()),
                    format!("{exercise} {} · {}", e.level.key(), e.title),
                )
            })
            .chain(
                content
                    .cards
                    .iter()
                    .filter(|c| c.topic == self.id)
                    .map(|c| {
                        (
                            Action::OpenCard(c.id.clone()),
                            format!("{card} {}", c.front),
                        )
                    }),
            )
            .collect()
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent, content: &Content, lang: Lang) -> Option<Action> {
        let entries = self.entries(content, lang);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(entries.len().saturating_sub(1))
            }
            KeyCode::Enter => {
                return entries
                    .into_iter()
                    .nth(self.selected)
                    .map(|(action, _)| action);
            }
            _ => {}
        }
        None
    }
}

/// Draws a topic.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let Some(topic) = ctx.content.topic(&state.id) else {
        return;
    };
    let title = super::marked_title(
        ctx,
        crate::content::i18n::ItemKind::Topic,
        &topic.id,
        topic.name.clone(),
    );
    let outer = block(&title, theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    let intro = vec![
        rich(&topic.description, theme),
        Line::from(""),
        Line::from(vec![
            Span::styled(format!("{} ", t!(ctx.lang, "common-simply")), theme.title()),
            Span::raw(topic.analogy.clone()),
        ]),
    ];
    let intro_height = (super::wrapped_height(&intro, inner.width) + 1).min(inner.height / 2);
    let [top, list] = inner.layout(&Layout::vertical([
        Constraint::Length(intro_height),
        Constraint::Fill(1),
    ]));
    let room = super::wrap_room(&intro, top);
    Paragraph::new(intro)
        .wrap(Wrap { trim: false })
        .render(room, buf);
    let entries = state.entries(ctx.content, ctx.lang);
    let rows = list.height as usize;
    let first = state.selected.saturating_sub(rows.saturating_sub(1));
    let lines: Vec<Line> = entries
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, (_, label))| {
            let text = super::ellipsis(label, list.width as usize);
            if i == state.selected {
                Line::styled(text, theme.selected())
            } else {
                Line::from(text)
            }
        })
        .collect();
    Paragraph::new(lines).render(list, buf);
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.key(key, ctx.content, ctx.lang)
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        keys(lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use crate::ui::ctx::{key, test_ctx};

    #[test]
    fn a_topic_lists_its_exercises_then_its_cards() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let exercises = content
            .exercises
            .iter()
            .filter(|e| e.topic == "banks")
            .count();
        let first_card = content
            .cards
            .iter()
            .find(|c| c.topic == "banks")
            .expect("a banks card");
        let mut topic = State::new("banks");
        for _ in 0..exercises {
            topic.handle_key(key(KeyCode::Down), &ctx);
        }
        assert_eq!(
            topic.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::OpenCard(first_card.id.clone()))
        );
        let mut unknown = State::new("no-such-topic");
        assert_eq!(unknown.handle_key(key(KeyCode::Enter), &ctx), None);
    }
}
