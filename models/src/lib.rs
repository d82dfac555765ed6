//! Exact side of optik: the solver-facing instance (an integer distance matrix and the
//! k_i of every record), the partition type every engine and heuristic returns, and the
//! clustering criteria evaluated on any distance.

pub mod brute_force;
pub mod colgen;
pub mod constraints;
pub mod cp;
pub mod criteria;
pub mod engine;
pub mod export;
pub mod instance;
pub mod mip;
pub mod partition;

pub use colgen::{solve_colgen, ColgenOptions};
pub use constraints::{ClassConstraints, Diversity};
pub use cp::{solve_cp, CpOptions, CpResult, Search, SolutionEvent, Status};
pub use criteria::{CriteriaValues, Criterion};
pub use engine::{EngineResult, EngineStats};
pub use instance::Instance;
pub use mip::{mip_lp_text, solve_mip};
pub use partition::Partition;
