//! Instructor-led lab sessions: the lab file, per-student variants through keyed seeds, the roster,
//! results written as a hash chain while the student works, the answer key, the report that grades
//! every answer again, and the lab check. No terminal here; file access lives in [`store`].

pub mod check;
pub mod class;
pub mod copying;
pub mod db;
pub mod file;
pub mod key;
pub mod plan;
pub mod report;
pub mod results;
pub mod roster;
pub mod seed;
pub mod session;
pub mod store;
pub mod task;
pub mod ticket;

pub use file::{FeedbackMode, Hints, Lab, Order, StepSpec};
pub use plan::{Item, plan};
pub use results::{Event, Given, Record};
pub use roster::{Entry, Roster};
pub use session::{LabSession, Tally};
use thiserror::Error;

/// What can go wrong with a lab, a roster or a results file.
#[derive(Debug, Error)]
pub enum LabError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid RON for a lab.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser says.
        message: String,
    },
    /// The file reads, but something in it cannot work.
    #[error("{file}:{line}:{column}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong and what to do.
        message: String,
    },
    /// An answer or hint not taken now (handed in, time up, step not open).
    #[error("{0}")]
    Closed(String),
}
