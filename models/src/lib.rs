//! Exact side of optik: the solver-facing instance (an integer distance matrix and the
//! k_i of every record), the partition type every engine and heuristic returns, and the
//! clustering criteria evaluated on any distance.

pub mod brute_force;
pub mod cp;
pub mod criteria;
pub mod export;
pub mod instance;
pub mod partition;

pub use cp::{solve_cp, CpOptions, CpResult, Search, SolutionEvent, Status};
pub use criteria::{CriteriaValues, Criterion};
pub use instance::Instance;
pub use partition::Partition;
