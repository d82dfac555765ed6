//! The input side: a table read from disk, its schema, the decoded quasi-identifiers, the k_i
//! of every record and the record distance. Knows nothing of partitions or releases.

pub(crate) mod dataset;
pub(crate) mod distance;
#[cfg(test)]
pub(crate) mod fixtures;
pub(crate) mod hierarchy;
pub(crate) mod k_source;
pub(crate) mod qi;
pub(crate) mod schema;
pub(crate) mod standardised;
pub(crate) mod table;
