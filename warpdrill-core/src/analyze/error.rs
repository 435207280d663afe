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
    /// A bad launch, kernel choice or define.
    #[error("{0}")]
    Input(String),
}

/// Result of the analyser.
pub type Result<T> = std::result::Result<T, AnalyzeError>;
