//! Every integration test, in one binary: the engine against the H200's measurements, the content
//! and the ladder, the command line, the screens against snapshots, and the real binary in tmux.
//! One binary links the dependencies once, instead of once per file.

mod analyze;
mod analyze_limits;
mod analyze_tui;
mod calculators_props;
mod cli_messages;
mod common;
mod consistency;
mod content;
mod e2e_tmux;
mod engine_props;
mod explorer;
mod explorer_props;
mod facts;
mod grading;
mod hostile;
mod i18n_analyze;
mod i18n_cli;
mod i18n_content;
mod i18n_explorer;
mod i18n_ids;
mod i18n_review;
mod i18n_ui;
mod kernels_as_written;
mod kernels_public;
mod keys;
mod lab;
mod lab_offline;
mod lab_served;
mod lessons;
mod mastery;
mod puzzle;
mod puzzle_props;
mod readme;
mod reference;
mod resume;
mod review;
mod review_trust;
mod review_tui;
mod screens;
mod scrolling;
mod sweeps;
mod timing;
mod tui;
mod typed;
