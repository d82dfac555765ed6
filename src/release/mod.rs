//! From a partition to the released table: the generalisation, the independent check of the
//! written text, and the staged, atomic writing of outputs.

pub(crate) mod check;
mod check_release;
mod generalise;
pub(crate) mod output;

pub use check_release::check_release;
pub(crate) use generalise::build;
pub use generalise::{Release, ReleaseStyle};
