//! The input side: a table read from disk, its schema, the decoded quasi-identifiers, the k_i
//! of every record and the record distance. Knows nothing of partitions or releases.

pub mod dataset;
pub mod distance;
#[cfg(test)]
pub mod fixtures;
pub mod hierarchy;
pub mod k_source;
pub mod qi;
pub mod schema;
pub mod table;
