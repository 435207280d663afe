//! Printing the command line's answers. Every command prints through here, so that:
//!
//! - a closed pipe (`warpdrill content preview | head`) ends the command quietly, with success, as
//!   other command-line tools do;
//! - any other write failure (`> /dev/full`) is reported on stderr and ends with [`WRITE_FAILED`],
//!   never a crash.

pub use crate::text::{columns as width, pad as pad_right, pad_left};
use std::io::{self, Write};
use std::process::ExitCode;
use thiserror::Error;

/// Exit status when the output could not be written (`EX_IOERR` of sysexits.h).
pub const WRITE_FAILED: u8 = 74;

/// Why output could not be written.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The reader went away (a closed pipe): not an error for the user.
    #[error("the output was closed")]
    Closed,
    /// Anything else: a full disk, a device error.
    #[error("cannot write the output: {0}")]
    Failed(io::Error),
}

impl From<io::Error> for OutputError {
    fn from(error: io::Error) -> Self {
        if error.kind() == io::ErrorKind::BrokenPipe {
            OutputError::Closed
        } else {
            OutputError::Failed(error)
        }
    }
}

impl OutputError {
    /// The exit status for this failure after `code` was meant: a closed pipe keeps `code`
    /// (the work was done; only the reader stopped listening), anything else is [`WRITE_FAILED`]
    /// with a message on stderr.
    pub fn exit(self, code: u8) -> ExitCode {
        match self {
            OutputError::Closed => ExitCode::from(code),
            OutputError::Failed(e) => {
                stderr(&format!("warpdrill: cannot write the output: {e}\n"));
                ExitCode::from(WRITE_FAILED)
            }
        }
    }
}

/// Writes `text` to `out` and flushes it. Control characters (but line breaks and tabs),
/// direction overrides and zero-width characters are written escaped (`\u{1b}`), whatever the text
/// came from — a kernel's source, a file name, an argument — so nothing printed can drive the
/// terminal.
pub fn write_to(out: &mut impl Write, text: &str) -> Result<(), OutputError> {
    out.write_all(crate::format::printable(text).as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes `text` to stdout and flushes it.
pub fn stdout(text: &str) -> Result<(), OutputError> {
    write_to(&mut io::stdout().lock(), text)
}

/// Writes `text` to stderr, ignoring failure: there is nowhere left to report it.
pub fn stderr(text: &str) {
    let _ = write_to(&mut io::stderr().lock(), text);
}

/// Prints a command's answer (`out` on stdout, `err` on stderr) and gives the exit status: `code`,
/// or [`WRITE_FAILED`] when stdout could not be written.
pub fn finish(out: &str, err: &str, code: u8) -> ExitCode {
    let written = if out.is_empty() { Ok(()) } else { stdout(out) };
    stderr(err);
    match written {
        Ok(()) => ExitCode::from(code),
        Err(e) => e.exit(code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Broken(io::ErrorKind);

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_is_quiet_and_a_full_disk_is_an_error() {
        assert!(matches!(
            write_to(&mut Broken(io::ErrorKind::BrokenPipe), "x"),
            Err(OutputError::Closed)
        ));
        assert!(matches!(
            write_to(&mut Broken(io::ErrorKind::StorageFull), "x"),
            Err(OutputError::Failed(_))
        ));
        let mut fine = Vec::new();
        write_to(&mut fine, "ok\n").unwrap();
        assert_eq!(fine, b"ok\n");
    }

    #[test]
    fn padding_counts_terminal_columns() {
        assert_eq!(pad_right("ab", 4), "ab  ");
        assert_eq!(pad_right("월", 3), "월 ");
        assert_eq!(pad_left("제한", 6), "  제한");
        assert_eq!(pad_right("too long", 3), "too long");
        assert_eq!(width("shared memory"), 13);
    }
}
