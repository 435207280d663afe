use clap::Parser;
use std::process::ExitCode;
use warpdrill::cli::{self, Cli};

fn main() -> ExitCode {
    cli::run(Cli::parse())
}
