//! Spaced-repetition review: FSRS scheduling behind a small trait with Anki-style learning steps, the
//! review log (`revlog.jsonl`, the truth every card state is derived from), drill cards graded by the
//! ladder, statistics, and the Anki and FSRS-optimizer exchange formats.
//!
//! Nothing here draws or prints; the command line and the screens call in. Time comes from an injected
//! [`Clock`], so tests run on a fake one.

pub mod anki;
pub mod calibration;
/// The clock, shared with the rest of the tutor (see [`crate::clock`]).
pub use crate::clock;
pub mod config;
pub mod deck;
pub mod drill;
pub mod log;
pub mod optimize;
pub mod replay;
pub mod schedule;
pub mod stats;
pub mod store;

pub use clock::{Clock, FakeClock, SystemClock};
pub use config::ReviewConfig;
pub use deck::{Counts, Deck};
pub use log::{Kind, Record};
pub use schedule::{CardState, FsrsScheduler, Memory, Phase, Rating, Scheduler};

use thiserror::Error;

/// What can go wrong in review.
#[derive(Debug, Error)]
pub enum SrsError {
    /// A file could not be read or written.
    #[error("{action} {path}: {source}")]
    Io {
        /// `cannot append to`, `cannot read`, …
        action: &'static str,
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The configuration is not usable.
    #[error("review settings: {0}")]
    Config(String),
    /// The FSRS model refused its input.
    #[error("the scheduler refused: {0}")]
    Fsrs(String),
    /// The log is read-only this session: `why` says why (another warpdrill holds the data
    /// directory's lock, the log is damaged and could not be moved aside, it could not be read).
    #[error("nothing is saved to the review log {path} this time: {why}")]
    ReadOnly {
        /// The log.
        path: String,
        /// Why it is read-only, for the learner.
        why: String,
    },
    /// No card with this id.
    #[error("no card `{0}`")]
    UnknownCard(String),
    /// Nothing to undo.
    #[error("nothing to undo")]
    NothingToUndo,
    /// A drill card names an exercise that cannot be drawn.
    #[error("drill `{card}`: {message}")]
    Drill {
        /// The card.
        card: String,
        /// Why.
        message: String,
    },
    /// An exchange file could not be read.
    #[error("{file}:{line}: {message}")]
    Parse {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Too few reviews to fit parameters.
    #[error(
        "the log holds {have} reviews that count for fitting; at least {need} are needed — keep reviewing"
    )]
    NotEnoughReviews {
        /// Usable reviews.
        have: usize,
        /// The minimum.
        need: usize,
    },
}
