//! optik: provably optimal k-anonymous and personalised k_i-anonymous releases of small
//! microdata tables.
//!
//! Data flows one way: [`table`] → [`dataset`] (schema, quasi-identifiers, k_i) →
//! [`distance`] / instance → heuristics or exact engines → [`Partition`] → [`release`] +
//! [`report`], with [`check`] verifying every release independently.

pub mod assess;
pub mod bench;
pub mod check;
pub mod cli;
pub mod constraints;
pub mod dataset;
pub mod distance;
pub mod error;
pub mod exact;
pub mod experiments;
pub mod explain;
mod fixtures;
pub mod heuristics;
pub mod hierarchy;
pub mod k_assign;
pub mod metrics;
pub mod output;
pub mod pictures;
pub mod plot;
pub mod privacy;
pub mod qi;
pub mod release;
pub mod report;
pub mod report_html;
pub mod run;
pub mod schema;
pub mod table;

pub use optik_models::{Criterion, Instance, Partition};
