//! `optik-models`' integration tests, in one binary: the engines against brute force and each
//! other on random instances, under class constraints, and against the shipped MiniZinc model;
//! the large-neighbourhood search built on column generation.
//! `checked_propagations` re-runs CP under pumpkin's checks and needs the `check` feature:
//! `cargo test -p optik-models --features check --test integration checked_propagations`.

mod common;

#[cfg(feature = "check")]
mod checked_propagations;
mod colgen;
mod companion;
mod constraints;
mod cp_properties;
mod cp_vs_brute_force;
mod lns;
mod minizinc;
mod mip;
mod time_limits;
