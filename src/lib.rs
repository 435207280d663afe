//! warpdrill: a terminal tutor for GPU memory performance.
#![warn(missing_docs)]

pub mod analyze;
pub mod app;
pub mod cli;
pub mod content;
pub mod engine;
pub mod explain;
pub mod format;
pub mod i18n;
pub mod lab;
pub mod ladder;
pub mod progress;
pub mod srs;
pub mod store;
pub mod ui;
pub mod units;
