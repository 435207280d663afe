use clap::Parser;
use std::process::ExitCode;
use warpdrill::cli::{self, CalcCommand, Cli, Command};

fn main() -> ExitCode {
    if let Err(report) = color_eyre::install() {
        eprintln!("warning: could not install the error reporter: {report}");
    }
    let cli = Cli::parse();
    match cli.command {
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            ExitCode::SUCCESS
        }
        Some(Command::Calc(calc)) => {
            let answer = match &calc {
                CalcCommand::Coalescing(args) => cli::calc::coalescing(args),
                CalcCommand::Banks(args) => cli::calc::banks(args),
                CalcCommand::Occupancy(args) => cli::calc::occupancy(args),
                CalcCommand::Tiling(args) => cli::calc::tiling(args),
                CalcCommand::Roofline(args) => cli::calc::roofline(args),
                CalcCommand::Batch => {
                    let stdin = std::io::stdin().lock();
                    let stdout = std::io::stdout().lock();
                    return match cli::batch::run(stdin, stdout) {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(e) => {
                            eprintln!("error: cannot read requests from stdin: {e}");
                            ExitCode::from(1)
                        }
                    };
                }
            };
            match answer {
                Ok(text) => {
                    print!("{text}");
                    if !text.ends_with('\n') {
                        println!();
                    }
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(2)
                }
            }
        }
    }
}
