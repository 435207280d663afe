use clap::Parser;
use std::io::Write;
use std::process::ExitCode;
use warpdrill::cli::{self, Cli};

fn main() -> ExitCode {
    match Cli::try_parse() {
        Ok(parsed) => cli::run(parsed),
        Err(e) => {
            // Help and the version go to stdout; a usage error to stderr with status 2. Either can
            // fail to be written (a full disk, a closed pipe): then it is an error, not a success.
            let code = if e.use_stderr() { 2 } else { 0 };
            if let Err(error) = e.print().and_then(|()| std::io::stdout().flush()) {
                // 74: an input/output error, as every other command that cannot write says.
                let _ = writeln!(
                    std::io::stderr(),
                    "warpdrill: cannot write the output: {error}"
                );
                return ExitCode::from(74);
            }
            ExitCode::from(code)
        }
    }
}
