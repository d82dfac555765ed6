//! From a partition to the released table: the generalisation, the independent check of the
//! written text, and the staged, atomic writing of outputs.

pub mod check;
mod generalise;
pub mod output;

pub use generalise::{build, generalise, Release};
