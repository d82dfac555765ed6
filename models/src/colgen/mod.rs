//! Column-generation exact engine for the sum criteria (dbil, wcsd, sse): a set-partitioning master
//! over valid unsplittable classes, exact pricing, subset-row cuts on triples, and an optimality
//! proof by enumerating every class whose reduced cost leaves room for a better solution and
//! solving the set-partitioning MIP over them.

mod branch;
mod centroid_pricing;
mod cheap_pricing;
pub mod column;
mod companion;
mod cover;
pub mod cp_pricing;
pub mod cuts;
mod dive;
pub mod exchange;
pub mod ladder;
mod lp_primal;
pub mod master;
pub mod neighbours;
mod node_bound;
pub(crate) mod options;
mod pair_sum_pricing;
pub mod pricing;
pub mod proof;
mod round;
pub mod rounding;
mod run;
mod solve;
mod stabilisation;
pub mod start;
mod tight;

pub use companion::{Companion, Cores, Publish, RecordBounds};
pub use node_bound::NodeLps;
pub use options::{ColgenOptions, Improver, Proof};
pub use solve::{root_lp, root_lp_with_nodes, solve_colgen};
