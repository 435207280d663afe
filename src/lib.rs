//! warpdrill: a terminal tutor for GPU memory performance.

pub mod engine;
