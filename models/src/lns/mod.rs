//! Large-neighbourhood search over a k_i-anonymous partition for the sum criteria (dbil, wcsd):
//! free the records of a few neighbouring classes, re-optimise them exactly with column
//! generation (warm-started with their current classes, so a neighbourhood never gets worse),
//! keep every improvement. Records outside a neighbourhood keep their classes, so every other
//! class stays valid. Distances come through a [`DistanceOracle`], so no n × n matrix is needed.
//!
//! - [`oracle`]: distances on demand and the dense sub-instance of a neighbourhood;
//! - [`capped`]: a start within a largest class size, from one with larger classes;
//! - [`constrained`]: a start meeting l-diversity, links and the cap, repaired from any start;
//! - [`cost`]: the sum criteria's class costs and per-record bounds through the oracle;
//! - [`incumbent`]: the partition as classes with stable ids;
//! - [`neighbourhood`]: which classes form a neighbourhood, and the order of seeds;
//! - [`search`]: the policy (next neighbourhood, improvements, the adaptive size m);
//! - [`parallel`]: worker threads on disjoint neighbourhoods under a deadline;
//! - [`engine`]: the search as an engine run (result, timeline, lower bound) for `solve`;
//! - [`options`], [`outcome`]: what a search is given and what it returns;
//! - [`solve`]: [`solve_lns`], the search under its limits.

pub mod capped;
pub mod constrained;
pub mod cost;
pub mod engine;
pub mod incumbent;
pub mod neighbourhood;
pub mod options;
pub mod oracle;
pub mod outcome;
pub mod parallel;
pub mod search;
pub mod solve;

pub use crate::engine::LnsSummary;
pub use capped::within_cap;
pub use constrained::constrained_start;
pub use cost::SumCriterion;
pub use engine::{run_lns_engine, LnsEngineOptions};
pub use neighbourhood::{NeighbourhoodRule, SeedBias};
pub use options::{rule_from_env, ImprovementCallback, LnsEvent, LnsOptions, PartitionCallback};
pub use oracle::DistanceOracle;
pub use outcome::{LnsResult, LnsStats, LnsStop};
pub use solve::solve_lns;
