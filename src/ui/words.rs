//! Measuring and cutting text in terminal columns (a Hangul syllable takes two): the core's text
//! module, as the screens name it.

pub use crate::text::{columns, cut, fit};
