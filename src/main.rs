use clap::Parser;
use std::process::ExitCode;
use warpdrill::cli::{self, CalcCommand, Cli, Command, ContentCommand};
use warpdrill::content::Content;

fn finish(report: cli::content::Report) -> ExitCode {
    print!("{}", report.stdout);
    eprint!("{}", report.stderr);
    ExitCode::from(report.code)
}

/// The built-in content plus `--content DIR`, or the reason it cannot be read.
fn load_content(dir: Option<&std::path::Path>) -> Result<Content, ExitCode> {
    let content = Content::with_dir(dir).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })?;
    if !content.problems.is_empty() {
        eprintln!(
            "warning: {} content problem(s) — those items were skipped (see `warpdrill content check`):",
            content.problems.len()
        );
        for problem in content.problems.iter().take(5) {
            eprintln!("  {problem}");
        }
    }
    Ok(content)
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
        Some(command @ (Command::Stats(_) | Command::Review(_) | Command::Cards(_))) => {
            cli::review::run(command, cli.data_dir.as_deref(), cli.content.as_deref())
        }
        Some(Command::Content(ContentCommand::Check { dir, json })) => finish(cli::content::check(
            dir.as_deref().or(cli.content.as_deref()),
            json,
        )),
        Some(Command::Content(ContentCommand::Preview { seed, level, json })) => {
            match load_content(cli.content.as_deref()) {
                Ok(content) => finish(cli::content::preview(
                    &content,
                    seed,
                    level.as_deref(),
                    json,
                )),
                Err(code) => code,
            }
        }
        Some(Command::Check(args)) => match load_content(cli.content.as_deref()) {
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
