//! Typed errors of the engine: every one names the input at fault and what is allowed.

use thiserror::Error;

/// Everything the engine can refuse. Messages are written for the learner who typed the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// An input outside its allowed range, e.g. `element size must be one of 1, 2, 4, 8, 16 bytes, got 3`.
    #[error("{name} must be {allowed}, got {value}")]
    OutOfRange {
        /// The input, in the learner's words (`block size`, `registers per thread`).
        name: &'static str,
        /// What was given.
        value: String,
        /// What is allowed.
        allowed: String,
    },
    /// An address computation that does not fit in a signed 64-bit byte address.
    #[error("the address of {what} does not fit in 64 bits; use a smaller stride, offset or base")]
    Overflow {
        /// Which address overflowed (`lane 31`).
        what: String,
    },
    /// A result too large or too small to represent, such as the ridge of a roofline whose peak is
    /// 1e300 times its bandwidth.
    #[error("{what} is out of scale ({detail}); use figures nearer real hardware")]
    OutOfScale {
        /// The result, in the learner's words (`the ridge intensity`).
        what: &'static str,
        /// How it came about.
        detail: String,
    },
    /// An active-lane mask the warp cannot have (`first33` on a 32-lane warp, no lane at all), in
    /// the words `--mask` is refused with.
    #[error("{0}")]
    Mask(String),
    /// An architecture name that no preset matches.
    #[error(
        "unknown architecture `{0}` (try sm_70 … sm_120, a compute capability such as 8.6, a GPU such as H100 or RTX 4090, kepler, pascal, gfx90a, gfx942 or rdna3)"
    )]
    UnknownArch(String),
    /// A computation the chosen architecture has no model for.
    #[error("{what} is not modelled for {arch}: {hint}")]
    Unsupported {
        /// The computation.
        what: &'static str,
        /// The architecture key.
        arch: &'static str,
        /// What to use instead.
        hint: &'static str,
    },
}

impl EngineError {
    pub(crate) fn range(
        name: &'static str,
        value: impl ToString,
        allowed: impl Into<String>,
    ) -> Self {
        EngineError::OutOfRange {
            name,
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }
}

/// Result alias of the engine.
pub type Result<T> = std::result::Result<T, EngineError>;
