//! Pumpkin propagators and branchers for k_i-anonymous clustering (seed 001 §6.4–6.5).
//!
//! Every record `i` has a class variable `G_i ∈ [1, c_max]`. Each propagator lives in its own
//! module with a constructor (registration and inference checker), the propagator itself (with
//! eager LCG explanations: every post carries a conjunction that implies it) and a checker that
//! re-verifies any inference from its premises alone, so pumpkin's `check-propagations` feature
//! can validate every explanation. Enable this crate's `check` feature to run with pumpkin's
//! `check-propagations` and `debug-checks`. Each module's unit tests post its propagator on a
//! small state in pumpkin's `TestSolver` (see `test_support`) and check, rule by rule, what it
//! propagates and the reason it gives.

pub mod branching;
pub mod common;
pub mod dbil;
pub mod diameter;
pub mod dual_bound;
pub mod l_diversity;
pub mod links;
pub mod membership;
pub mod min_classes;
pub mod n_clusters;
pub mod node_lp;
pub mod precede;
pub mod pricing;
pub mod size_cap;
pub mod split;
pub mod wcsd;

#[cfg(test)]
mod test_support;

pub use common::{min_k_diameters, DistMatrix, Snapshot};

/// Re-export of the pumpkin crates this crate is written against, so that dependants use the
/// exact same versions.
pub use pumpkin_conflict_resolvers;
pub use pumpkin_core;
