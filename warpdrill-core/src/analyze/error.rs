//! What can go wrong reading or running a kernel.

use thiserror::Error;

/// An analysis error. Positioned ones print as `file:line:column: …`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AnalyzeError {
    /// A construct outside the supported subset of CUDA C.
    #[error("{file}:{line}:{column}: not supported: {what}")]
    Unsupported {
        /// File name as given.
        file: String,
        /// Line, from 1.
        line: u32,
        /// Column, from 1.
        column: u32,
        /// What is not supported.
        what: String,
    },
    /// The source is not valid C/CUDA.
    #[error("{file}:{line}:{column}: syntax error: {what}")]
    Syntax {
        /// File name as given.
        file: String,
        /// Line, from 1.
        line: u32,
        /// Column, from 1.
        column: u32,
        /// What was found.
        what: String,
    },
    /// The simulation would take more steps than it may ([`crate::analyze::run::MAX_STEPS`]).
    #[error(
        "{file}: too long to simulate: more than {} steps (one per statement a warp runs and per loop turn, over every warp simulated) — shrink the launch or the loop, or use -D to set a smaller N",
        grouped(*steps)
    )]
    TooLong {
        /// File name as given.
        file: String,
        /// The budget that ran out.
        steps: u64,
    },
    /// The run was cancelled (see [`crate::analyze::run::cancellable`]).
    #[error("the analysis was cancelled")]
    Cancelled,
    /// The kernel asked for is defined in a header the file includes, not in the file.
    #[error("{file}: `{kernel}` is defined in {header}, which it includes: analyse {header}")]
    InHeader {
        /// File name as given.
        file: String,
        /// The kernel.
        kernel: String,
        /// The header, as the file includes it.
        header: String,
    },
    /// A bad launch, kernel choice or define.
    #[error("{0}")]
    Input(String),
    /// Several unsupported constructs of one kernel, each on its own line, in source order.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Several(Vec<AnalyzeError>),
}

/// `16777216` → `16 777 216`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Result of the analyser.
pub type Result<T> = std::result::Result<T, AnalyzeError>;
