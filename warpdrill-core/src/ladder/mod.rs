//! The exercise ladder: variants drawn from templates, answers read and graded.

pub mod answer;
pub mod attempt;
pub mod check;
pub mod expr;
pub mod grade;
mod key;
pub mod lesson;
pub mod mastery;
pub mod practice;
mod query;
pub mod terms;
pub mod unlock;
pub mod variant;

pub use attempt::{Attempt, Given, Input, Offer, Record, Reply, Rules, Standing, Status};
pub use grade::{Feedback, Outcome, Response, grade, grade_in, grade_part, grade_part_in};
pub use key::Part;
pub use variant::{AnswerKey, ShowMe, Variant, VariantError, generate};
