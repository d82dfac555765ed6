//! Privacy constraints: the k_i of every record, uniform, read from a column, or drawn from a
//! distribution (the Acquisti & Grossklags groups of seed 001 table 5.2), at random or
//! correlated with the data. Three files, each depending only on the ones before it:
//! [`correlated`] (the assignment by distance to an origin), `source` ([`KSource`], resolved
//! into the k_i of a table's records) and `settings` ([`KSettings`], the source as a user
//! writes it, parsed).

pub(crate) mod correlated;
mod settings;
mod source;

pub use settings::{KAssign, KChoice, KSettings};
pub(crate) use settings::{DEFAULT_LEVELS, PRESETS};
pub use source::KSource;
pub(crate) use source::{draw, histogram, parse_k};
