//! optik's integration tests, in one binary: the `optik` command line end to end (releases,
//! checks, bad input, the exact engines, constraints, pictures, assess, bench, experiments,
//! explain), the public library API where a test needs it, the README's commands, and the
//! module layering of `src/` (`architecture`). Shared helpers and the command builder are in
//! `common`.

mod common;

mod architecture;
mod assess;
mod bad_input;
mod bench;
mod colgen_bounds;
mod constraints_cli;
mod end_to_end;
mod experiments;
mod explain;
mod heuristics_compared;
mod html_render;
mod k_assign;
mod large;
mod microaggregation;
mod optimal;
mod pictures_cli;
mod readme;
