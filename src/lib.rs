//! warpdrill: a terminal tutor for GPU memory performance — the screens, the app loop and the
//! command line, over [`warpdrill_core`].
#![warn(missing_docs)]

pub mod app;
pub mod cli;
pub mod ui;

pub use warpdrill_core::{
    analyze, clock, content, engine, explain, format, i18n, lab, ladder, progress, puzzle, srs,
    store, t, text, units,
};
