use clap::Parser;
use std::process::ExitCode;
use warpdrill::cli::{self, CalcCommand, Cli, Command, ContentCommand};

fn finish(report: cli::content::Report) -> ExitCode {
    report.print()
}

fn main() -> ExitCode {
    if let Err(report) = color_eyre::install() {
        eprintln!("warning: could not install the error reporter: {report}");
    }
    let cli = Cli::parse();
    match cli.command {
        None => ExitCode::from(cli::tui::run(
            cli.data_dir.as_deref(),
            cli.content.as_deref(),
            cli::tui::Start::Home,
        )),
        Some(Command::Explore(args)) => match args.to_state() {
            Ok(state) => ExitCode::from(cli::tui::run(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                cli::tui::Start::Explorer(Box::new(state)),
            )),
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        },
        Some(Command::Calculators { which }) => {
            use warpdrill::ui::calculators::Tab;
            let tab = match which {
                cli::CalculatorArg::Occupancy => Tab::Occupancy,
                cli::CalculatorArg::Tiling => Tab::Tiling,
                cli::CalculatorArg::Roofline => Tab::Roofline,
            };
            ExitCode::from(cli::tui::run(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                cli::tui::Start::Calculators(tab),
            ))
        }
        Some(Command::Ladder { level }) => {
            let level = match level
                .as_deref()
                .map(|l| warpdrill::content::schema::Level::parse(l).ok_or(l))
            {
                Some(Err(bad)) => {
                    eprintln!("error: unknown level `{bad}` (use L1 … L5)");
                    return ExitCode::from(2);
                }
                Some(Ok(level)) => Some(level),
                None => None,
            };
            ExitCode::from(cli::tui::run(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                cli::tui::Start::Ladder(level),
            ))
        }
        Some(Command::Content(ContentCommand::Check { dir, json })) => finish(cli::content::check(
            dir.as_deref().or(cli.content.as_deref()),
            json,
        )),
        Some(Command::Content(ContentCommand::Preview { seed, level, json })) => {
            match cli::content::load(cli.content.as_deref()) {
                Ok(content) => finish(cli::content::preview(
                    &content,
                    seed,
                    level.as_deref(),
                    json,
                )),
                Err(code) => code,
            }
        }
        Some(Command::Check(args)) => match cli::content::load(cli.content.as_deref()) {
            Ok(content) => finish(cli::content::check_answer(&content, &args)),
            Err(code) => code,
        },
        Some(Command::Calc(calc)) => {
            let answer = match &calc {
                CalcCommand::Coalescing(args) => cli::calc::coalescing(args),
                CalcCommand::Banks(args) => cli::calc::banks(args),
                CalcCommand::Occupancy(args) => cli::calc::occupancy(args),
                CalcCommand::Tiling(args) => cli::calc::tiling(args),
                CalcCommand::Roofline(args) => cli::calc::roofline(args),
                CalcCommand::Batch => return cli::batch::run_stdio(),
            };
            match answer {
                Ok(text) if text.ends_with('\n') => cli::output::finish(&text, "", 0),
                Ok(text) => cli::output::finish(&format!("{text}\n"), "", 0),
                Err(message) => cli::output::finish("", &format!("error: {message}\n"), 2),
            }
        }
    }
}
