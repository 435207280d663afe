//! Home: progress per level, the exercise to resume, and the ways in.
//!
//! ```text
//! ┌ warpdrill ─────────────────────────────────────────────┐
//! │ GPU memory performance, seen and computed               │
//! │ L1 Recognition  ██████░░░░  6/12                        │
//! │ …                                                       │
//! │ ▸ Resume: Sectors of a strided load (L2)                │
//! │   Ladder                                                │
//! │   Search                                                │
//! └─────────────────────────────────────────────────────────┘
//! ```

use super::{Action, Component, Ctx, KeyHint};
use super::{Theme, bar, block, pad};
use crate::content::schema::Level;
use crate::i18n::Lang;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Keys shown in the footer.
pub fn keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("↑↓/jk", t!(lang, "common-key-move")),
        KeyHint::new("Enter", t!(lang, "common-key-open")),
        KeyHint::new("/", t!(lang, "common-key-search")),
        KeyHint::new("?", t!(lang, "common-key-help")),
        KeyHint::new("q", t!(lang, "common-key-quit")),
        KeyHint::new("t", t!(lang, "home-key-language")),
    ]
}

/// Home's state: the selected entry.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// Selected menu entry.
    selected: usize,
}

impl State {
    /// Home with its first entry selected.
    pub const fn new() -> Self {
        State { selected: 0 }
    }
}

/// A menu entry: its label and what it does.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Shown text.
    pub label: String,
    /// What Enter does.
    pub action: Action,
}

/// The menu (Resume appears once there is something to resume).
pub fn items(ctx: &Ctx) -> Vec<Item> {
    let lang = ctx.lang;
    let mut items = Vec::new();
    if !ctx.content.lessons.is_empty() {
        items.push(Item {
            label: t!(lang, "home-learn"),
            action: Action::OpenLessons,
        });
    }
    if let Some(id) = &ctx.progress.last_exercise
        && let Some(exercise) = ctx.content.exercise(id)
    {
        items.push(Item {
            label: t!(
                lang,
                "home-resume",
                title = exercise.title.clone(),
                level = exercise.level.key()
            ),
            action: Action::OpenExercise(id.clone()),
        });
    }
    items.push(Item {
        label: t!(lang, "home-ladder"),
        action: Action::OpenLadder(None),
    });
    items.push(practise_item(ctx));
    if let Some(deck) = ctx.review {
        let counts = deck.counts();
        items.push(Item {
            label: t!(
                lang,
                "home-review",
                due = counts.learning + counts.review,
                new = counts.new
            ),
            action: Action::OpenReview,
        });
        items.push(Item {
            label: t!(lang, "home-stats"),
            action: Action::OpenStats,
        });
    }
    items.push(Item {
        label: t!(lang, "home-explorer"),
        action: Action::ReopenExplorer,
    });
    items.push(Item {
        label: t!(lang, "home-calculators"),
        action: Action::ReopenCalculators,
    });
    items.push(Item {
        label: t!(lang, "home-analyse"),
        action: Action::OpenAnalyzeExamples,
    });
    items.push(Item {
        label: t!(lang, "home-puzzles"),
        action: Action::OpenPuzzles,
    });
    items.push(Item {
        label: t!(lang, "home-search"),
        action: Action::OpenSearch,
    });
    items.push(Item {
        label: t!(lang, "home-language", name = lang.native_name()),
        action: Action::SetLang(lang.next()),
    });
    items
}

/// "Practise what you missed", with how many exercises wait (or that none does).
fn practise_item(ctx: &Ctx) -> Item {
    let n = crate::ladder::practice::queue(ctx.content, ctx.progress).len();
    Item {
        label: match n {
            0 => t!(ctx.lang, "home-practise-none"),
            n => t!(ctx.lang, "home-practise", n = n),
        },
        action: Action::OpenPractice,
    }
}

/// Each topic's mastery figure on one line (`Mastery: coalescing 1/5 · banks 0/5 …`), with the
/// recall of its reviewed cards.
fn mastery_line(ctx: &Ctx, theme: Theme) -> Line<'static> {
    let board = ctx.board();
    let mut spans = vec![Span::styled(
        format!("{} ", t!(ctx.lang, "home-mastery")),
        theme.dim(),
    )];
    for (i, topic) in board.topics().iter().enumerate() {
        let (mastered, levels) = board.figure(topic);
        if levels == 0 {
            continue;
        }
        if i > 0 {
            spans.push(Span::styled(" · ", theme.dim()));
        }
        let style = if mastered == levels {
            theme.good()
        } else {
            theme.text()
        };
        let recall = board
            .recall(topic)
            .map(|r| format!(" {:.0}%", r * 100.0))
            .unwrap_or_default();
        spans.push(Span::styled(
            format!("{topic} {mastered}/{levels}{recall}"),
            style,
        ));
    }
    Line::from(spans)
}

impl State {
    /// Handles a key; returns the action it asks for.
    pub fn key(&mut self, key: KeyEvent, items: &[Item], lang: Lang) -> Option<Action> {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(items.len().saturating_sub(1))
            }
            KeyCode::Enter | KeyCode::Char(' ') | KeyCode::Right | KeyCode::Char('l') => {
                return items.get(self.selected).map(|item| item.action.clone());
            }
            KeyCode::Char('L') => return Some(Action::OpenLadder(None)),
            KeyCode::Char('t') => return Some(Action::SetLang(lang.next())),
            _ => {}
        }
        None
    }
}

/// Draws Home.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme: Theme = ctx.theme;
    let lang = ctx.lang;
    let outer = block("warpdrill", theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    let mut lines = vec![Line::styled(t!(lang, "home-tagline"), theme.title())];
    // Notices come first so that a short window never hides them.
    for notice in ctx.notices {
        lines.push(Line::styled(format!("! {notice}"), theme.warn()));
    }
    lines.push(Line::from(""));
    let bar_width = 20usize.min(inner.width.saturating_sub(30) as usize).max(4);
    // Each level on a row with its bar; in a short window, all five on one row.
    let levels_at = lines.len();
    let mut compact: Vec<Span> = Vec::new();
    for level in Level::ALL {
        let (solved, total) = ctx.level_counts(level);
        let open = ctx.level_open(level);
        let style = if open { theme.text() } else { theme.dim() };
        let mut spans = vec![
            Span::styled(
                format!(
                    "{} {}",
                    level.key(),
                    pad(&super::ladder::level_name(level, lang), 12)
                ),
                style,
            ),
            Span::styled(
                bar(solved, total, bar_width),
                if solved == total && total > 0 {
                    theme.good()
                } else {
                    theme.warn()
                },
            ),
            Span::raw(format!(" {solved:>2}/{total:<2}")),
        ];
        if !compact.is_empty() {
            compact.push(Span::styled(" · ", theme.dim()));
        }
        compact.push(Span::styled(
            format!("{} {solved}/{total}", level.key()),
            style,
        ));
        if !open {
            spans.push(Span::styled(
                format!(" {}", t!(lang, "home-locked")),
                theme.dim(),
            ));
            compact.push(Span::styled(
                format!(" {}", t!(lang, "home-locked")),
                theme.dim(),
            ));
        }
        lines.push(Line::from(spans));
    }
    let levels_end = lines.len();
    if !ctx.progress.exercises.is_empty() {
        lines.push(mastery_line(ctx, theme));
    }
    lines.push(Line::from(""));
    for (i, item) in items(ctx).iter().enumerate() {
        let marker = if i == state.selected { "▸ " } else { "  " };
        let style = if i == state.selected {
            theme.selected()
        } else {
            theme.text()
        };
        lines.push(Line::styled(format!("{marker}{}", item.label), style));
    }
    // The counts give way first when the window is short: getting started matters more.
    let counts_at = lines.len();
    lines.push(Line::from(""));
    lines.push(Line::styled(
        t!(
            lang,
            "home-counts",
            exercises = ctx.content.exercises.len(),
            cards = ctx.content.cards.len(),
            topics = ctx.content.topics.len()
        ),
        theme.dim(),
    ));
    if ctx.progress.exercises.is_empty() {
        lines.push(Line::from(""));
        lines.push(Line::styled(t!(lang, "home-start-title"), theme.title()));
        lines.push(Line::from(t!(lang, "home-start-exercise")));
        lines.push(Line::from(t!(lang, "home-start-keys")));
    }
    let room = super::wrap_room(&lines, inner);
    if super::wrapped_height(&lines, room.width) > room.height && lines.len() > counts_at + 2 {
        lines.drain(counts_at..counts_at + 2);
    }
    // Still too tall: the five level rows become one, so that getting started stays in sight.
    if super::wrapped_height(&lines, room.width) > room.height {
        lines.splice(levels_at..levels_end, [Line::from(compact)]);
    }
    // And then the blank rows between the parts.
    if super::wrapped_height(&lines, room.width) > room.height {
        lines.retain(|l| l.width() > 0);
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(room, buf);
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        self.key(key, &items(ctx), ctx.lang)
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
    use crate::content::Content;
    use crate::progress::Progress;
    use crate::ui::ctx::{key, test_ctx};

    #[test]
    fn the_menu_moves_within_its_items_and_opens_the_selected_one() {
        let content = Content::builtin();
        let progress = Progress::default();
        let ctx = test_ctx(&content, &progress);
        let mut home = State::default();
        assert_eq!(home.handle_key(key(KeyCode::Up), &ctx), None);
        assert_eq!(home.selected, 0);
        // Learn comes first: a new learner is taught before being tested.
        assert_eq!(
            home.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::OpenLessons)
        );
        for _ in 0..10 {
            home.handle_key(key(KeyCode::Down), &ctx);
        }
        assert_eq!(
            home.selected,
            items(&ctx).len() - 1,
            "stops at the last entry"
        );
        assert_eq!(
            home.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::SetLang(Lang::HiLatn)),
            "the last entry switches the language"
        );
        assert_eq!(
            home.handle_key(key(KeyCode::Char('t')), &ctx),
            Some(Action::SetLang(Lang::HiLatn))
        );
        assert_eq!(
            home.handle_key(key(KeyCode::Char('L')), &ctx),
            Some(Action::OpenLadder(None))
        );
    }

    #[test]
    fn resume_comes_right_after_learn_once_there_is_an_exercise_to_resume() {
        let content = Content::builtin();
        let mut progress = Progress {
            last_exercise: Some("l1-sector-size".into()),
            ..Progress::default()
        };
        let ctx = test_ctx(&content, &progress);
        let mut home = State::default();
        home.handle_key(key(KeyCode::Down), &ctx);
        assert_eq!(
            home.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::OpenExercise("l1-sector-size".into()))
        );
        progress.last_exercise = Some("no-longer-there".into());
        let ctx = test_ctx(&content, &progress);
        assert_eq!(
            home.handle_key(key(KeyCode::Enter), &ctx),
            Some(Action::OpenLadder(None)),
            "a resume entry for a removed exercise is not offered"
        );
    }
}
