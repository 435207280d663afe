//! warpdrill: a terminal tutor for GPU memory performance.

pub mod cli;
pub mod engine;
pub mod explain;
pub mod format;
