//! Partitioning the records into k_i-anonymous classes: the heuristics, the exact engines'
//! glue, the extra class constraints, the metrics of a partition, and one verified run.

pub mod constraints;
pub mod exact;
pub mod heuristics;
pub mod metrics;
pub mod run;
