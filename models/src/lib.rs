//! Exact side of optik: the solver-facing instance (an integer distance matrix and the
//! k_i of every record), the partition type every engine and heuristic returns, the
//! clustering criteria evaluated on any distance, and the exact engines behind one [`solve()`].
//!
//! Layers, each depending only on those above it (`scripts/module-cycles` checks there is no
//! cycle):
//! - data: [`invalid_input`], [`partition`], [`instance`], [`criteria`], [`constraints`],
//!   [`export`];
//! - the engine vocabulary: [`engine`] (engine, status, result, solution events, errors) and
//!   [`root_lp`] (the set-partitioning LP shared by column generation and CP);
//! - the engines: [`colgen`], [`cp`] (which runs column generation's root LP for its dual
//!   bound), [`mip`], and the reference [`brute_force`];
//! - [`lns`]: large-neighbourhood search re-optimising neighbourhoods with column generation;
//! - [`mod@solve`]: engine selection, warm starts and the rules between engines.

pub mod brute_force;
pub mod colgen;
pub mod constraints;
pub mod cp;
pub mod criteria;
mod detached;
pub mod engine;
pub mod export;
mod highs_ffi;
pub mod instance;
pub mod invalid_input;
pub mod lns;
pub mod mip;
pub mod partition;
pub mod root_lp;
pub mod solve;
pub mod stop;

pub use colgen::{solve_colgen, ColgenOptions};
pub use constraints::{ClassConstraints, Diversity};
pub use cp::{solve_cp, CpOptions, Search};
pub use criteria::{objective_of, CriteriaValues, Criterion};
pub use engine::{
    BoundCallback, BoundEvent, Engine, EngineError, EngineResult, EngineStats, SolutionCallback,
    SolutionEvent, Status,
};
pub use instance::Instance;
pub use invalid_input::InvalidInput;
pub use lns::{solve_lns, DistanceOracle, LnsOptions, LnsResult};
pub use mip::{mip_lp_text, solve_mip};
pub use partition::Partition;
pub use solve::{select_engine, solve, SolveOptions, SolveOutcome, WarmStart};
