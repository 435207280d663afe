//! What every screen may read while it handles a key or draws: a small read-only view of the app.

use super::Theme;
use crate::content::Content;
use crate::content::schema::Level;
use crate::lab::LabSession;
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
    /// Now, in Unix seconds.
    pub now: u64,
    /// The flashcards with their review states (none when review could not be set up).
    pub review: Option<&'a Deck>,
    /// The lab being worked on, in lab mode.
    pub lab: Option<&'a LabSession>,
}

impl Ctx<'_> {
    /// Whether a level of the ladder is open (see [`unlock::level_open`]).
    pub fn level_open(&self, level: Level) -> bool {
        unlock::level_open(self.content, self.progress, level)
    }

    /// `(solved, total)` exercises of a level.
    pub fn level_counts(&self, level: Level) -> (usize, usize) {
        unlock::level_counts(self.content, self.progress, level)
    }
}

/// A context for the screens' unit tests: plain colours, the clock at a fixed second.
#[cfg(test)]
pub(crate) fn test_ctx<'a>(content: &'a Content, progress: &'a Progress) -> Ctx<'a> {
    Ctx {
        content,
        progress,
        notices: &[],
        theme: Theme::new(false),
        lang: crate::i18n::Lang::En,
        now: 1_800_000_000,
        review: None,
        lab: None,
    }
}

/// A key without modifiers.
#[cfg(test)]
pub(crate) fn key(code: ratatui::crossterm::event::KeyCode) -> ratatui::crossterm::event::KeyEvent {
    ratatui::crossterm::event::KeyEvent::new(code, ratatui::crossterm::event::KeyModifiers::NONE)
}
