//! What every screen may read while it handles a key or draws: a small read-only view of the app.

use super::Theme;
use crate::clock::Clock;
use crate::content::Content;
use crate::content::schema::Level;
use crate::lab::LabSession;
use crate::ladder::mastery::Board;
use crate::ladder::unlock;
use crate::progress::Progress;
use crate::srs::Deck;

/// The read-only view a screen gets.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// Topics, cards and exercises.
    pub content: &'a Content,
    /// The learner's progress.
    pub progress: &'a Progress,
    /// Messages for the learner (damaged files, skipped content, failed saves).
    pub notices: &'a [String],
    /// Styles.
    pub theme: Theme,
    /// The language to speak (`t!(ctx.lang, "id")`).
    pub lang: crate::i18n::Lang,
    /// The tutor's one clock (the review deck keeps the same time).
    pub clock: &'a dyn Clock,
    /// Now, in Unix seconds: `clock` read once for this key or frame.
    pub now: u64,
    /// The flashcards with their review states (none when review could not be set up).
    pub review: Option<&'a Deck>,
    /// The lab being worked on, in lab mode.
    pub lab: Option<&'a LabSession>,
}

impl Ctx<'_> {
    /// The ladder's topic-levels with their mastery and what is open, the topics' recall read from
    /// the review deck (when there is one).
    pub fn board(&self) -> Board {
        Board::new(
            self.content,
            self.progress,
            self.review.map(|d| d.recall_by_topic()).unwrap_or_default(),
        )
    }

    /// Whether any topic of a level of the ladder is open (see [`unlock::level_open`]).
    pub fn level_open(&self, level: Level) -> bool {
        unlock::level_open(&self.board(), level)
    }

    /// `(solved, total)` exercises of a level.
    pub fn level_counts(&self, level: Level) -> (usize, usize) {
        unlock::level_counts(self.content, self.progress, level)
    }
}

/// The clock of [`test_ctx`], stopped at 1 800 000 000 s.
#[cfg(test)]
pub(crate) static TEST_CLOCK: std::sync::LazyLock<crate::clock::FakeClock> =
    std::sync::LazyLock::new(|| crate::clock::FakeClock::at_secs(1_800_000_000));

/// A context for the screens' unit tests: plain colours, the clock at a fixed second.
#[cfg(test)]
pub(crate) fn test_ctx<'a>(content: &'a Content, progress: &'a Progress) -> Ctx<'a> {
    Ctx {
        clock: &*TEST_CLOCK,
        content,
        progress,
        notices: &[],
        theme: Theme::new(false),
        lang: crate::i18n::Lang::En,
        now: TEST_CLOCK.now_secs(),
        review: None,
        lab: None,
    }
}

/// A key without modifiers.
#[cfg(test)]
pub(crate) fn key(code: ratatui::crossterm::event::KeyCode) -> ratatui::crossterm::event::KeyEvent {
    ratatui::crossterm::event::KeyEvent::new(code, ratatui::crossterm::event::KeyModifiers::NONE)
}

/// [`test_ctx`] reviewing `deck`, on the deck's clock (the app gives both the same one).
#[cfg(test)]
pub(crate) fn review_ctx<'a>(
    content: &'a Content,
    progress: &'a Progress,
    deck: &'a Deck,
) -> Ctx<'a> {
    Ctx {
        clock: deck.clock(),
        now: deck.clock().now_secs(),
        review: Some(deck),
        ..test_ctx(content, progress)
    }
}
