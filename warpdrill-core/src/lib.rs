//! warpdrill-core: the engine that counts what GPU memory does, and everything the tutor builds on it —
//! content, the exercise ladder, spaced review, labs, the kernel analyser and the learner's progress.
//! No terminal crate: the `warpdrill` crate draws.
#![warn(missing_docs)]

pub mod analyze;
pub mod clock;
pub mod content;
pub mod engine;
pub mod explain;
pub mod format;
pub mod i18n;
pub mod lab;
pub mod ladder;
pub mod numwords;
pub mod progress;
pub mod puzzle;
pub mod srs;
pub mod store;
pub mod text;
pub mod units;
