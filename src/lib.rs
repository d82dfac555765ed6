//! optik: provably optimal k-anonymous and personalised k_i-anonymous releases of small
//! microdata tables.
//!
//! Data flows one way: [`data`] (table, schema, quasi-identifiers, k_i, distance) →
//! [`partition`] (heuristics or exact engines) → [`release`] (generalisation, independent
//! check, staged output) → [`report`]; the tools ([`assess`], [`bench`], [`experiments`],
//! [`explain`]) and the [`cli`] sit on top.

pub mod assess;
pub mod bench;
pub mod cli;
pub mod data;
pub mod error;
pub mod experiments;
pub mod explain;
pub mod partition;
pub mod pipeline;
pub mod release;
pub mod report;
pub mod settings;

pub use optik_models::{Criterion, Instance, Partition};
