//! One flashcard: the front, and the back on Space/Enter; a long card scrolls (PgUp/PgDn, ↑↓).

use super::scroll::{self, Scroll};
use super::{Action, Component, Ctx, KeyHint};
use super::{Theme, block, rich};
use crate::content::Content;
use crate::i18n::Lang;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::Line;

/// Keys shown in the footer.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("Space/Enter", t!(lang, "card-key-reveal")),
        KeyHint::new("t", t!(lang, "card-key-topic")),
        KeyHint::new("/", t!(lang, "card-key-search")),
        KeyHint::new("q", t!(lang, "card-key-back")),
    ]
}

/// The card screen's state.
#[derive(Debug, Clone)]
pub struct State {
    /// Card id.
    id: String,
    /// The back is shown.
    revealed: bool,
    /// How far the card is scrolled.
    scroll: Scroll,
}

impl State {
    /// Showing card `id`, front only.
    pub fn new(id: &str) -> Self {
        State {
            id: id.to_string(),
            revealed: false,
            scroll: Scroll::default(),
        }
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent, content: &Content) -> Option<Action> {
        // The arrows move nothing else here: they scroll, as PgUp/PgDn do.
        if self.scroll.key(&key, true) {
            return None;
        }
        match key.code {
            KeyCode::Char(' ') | KeyCode::Enter => {
                self.revealed = !self.revealed;
                self.scroll.reset();
            }
            KeyCode::Char('t') => {
                let card = content.cards.iter().find(|c| c.id == self.id)?;
                return Some(Action::OpenTopic(card.topic.clone()));
            }
            _ => {}
        }
        None
    }
}

/// Draws a card.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let Some(card) = ctx.content.cards.iter().find(|c| c.id == state.id) else {
        return;
    };
    let topic = ctx
        .content
        .topic(&card.topic)
        .map_or(card.topic.as_str(), |t| t.name.as_str());
    let title = super::marked_title(
        ctx,
        crate::content::i18n::ItemKind::Card,
        &card.id,
        t!(ctx.lang, "card-title", topic = topic),
    );
    let outer = block(&title, theme);
    let inner = outer.inner(area);
    let mut lines = vec![rich(&card.front, theme), Line::from("")];
    if state.revealed {
        lines.push(Line::styled(
            "─".repeat(inner.width as usize),
            theme.border(),
        ));
        lines.push(rich(&card.back, theme));
    } else {
        lines.push(Line::styled(t!(ctx.lang, "card-show-answer"), theme.dim()));
    }
    if !card.tags.is_empty() {
        lines.push(Line::from(""));
        lines.push(Line::styled(
            format!("#{}", card.tags.join(" #")),
            theme.dim(),
        ));
    }
    let room = crate::ui::wrap_room(&lines, inner);
    crate::ui::fit_rules(&mut lines, room.width);
    scroll::render(
        lines,
        Some(outer),
        &state.scroll,
        theme,
        ctx.lang,
        area,
        buf,
    );
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.key(key, ctx.content)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use crate::ui::ctx::{key, test_ctx};

    #[test]
    fn space_turns_the_card_and_t_opens_its_topic() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let mut card = State::new("occ-48-regs");
        assert_eq!(card.handle_key(key(KeyCode::Char(' ')), &ctx), None);
        assert!(card.revealed);
        card.handle_key(key(KeyCode::Enter), &ctx);
        assert!(!card.revealed);
        assert_eq!(
            card.handle_key(key(KeyCode::Char('t')), &ctx),
            Some(Action::OpenTopic("occupancy".into()))
        );
        let mut gone = State::new("no-such-card");
        assert_eq!(gone.handle_key(key(KeyCode::Char('t')), &ctx), None);
    }
}
