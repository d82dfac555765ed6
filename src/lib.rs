//! optik: provably optimal k-anonymous and personalised k_i-anonymous releases of small
//! microdata tables.
//!
//! Data flows one way, and so do the modules' imports: `data` (table, schema,
//! quasi-identifiers, k_i, record distance) → `partition` (heuristics, exact engines, class
//! constraints, metrics) → `release` (generalisation, independent check, staged output) →
//! `report` (JSON, HTML, pictures) → the anonymisation `pipeline` and the tools (`assess`,
//! `bench`, `experiments`, `explain`) → [`cli`]. `docs/architecture.md` draws it.
//!
//! # The library
//!
//! The items re-exported here are the API (a Python package wraps them): load a table with a
//! schema, choose the k_i, anonymise it with a method — partition, release, independent check,
//! report — or partition it alone, and assess any table. Everything else is `pub(crate)`.
//!
//! ```no_run
//! use optik::*;
//! use std::path::Path;
//!
//! # fn main() -> optik::Result<()> {
//! let schema = Schema::load(&SchemaSource::QiList("age,zip".into()))?;
//! let ks = KSettings::new(KChoice::Uniform(3)).source()?;
//! let ds = Dataset::load(Path::new("table.csv"), schema, &ks, &LoadOptions::default())?;
//! let opts = AnonymiseOptions::new(Solver::heuristic(Heuristic::Mdav));
//! let done = anonymise(&ds, &opts, &ProgressBar::hidden())?;
//! std::fs::write("release.csv", &done.release_csv).unwrap();
//! println!("{} classes, dbil {}", done.report.classes(), done.report.objective());
//! # Ok(())
//! # }
//! ```
//!
//! Messages name settings by their library names (`drop_missing`); see [`Setting`].

mod assess;
mod bench;
pub mod cli;
mod data;
mod error;
mod experiments;
mod explain;
mod partition;
mod pipeline;
mod release;
mod report;
mod settings;

pub use error::{Error, Result};
pub use settings::Setting;

// Load a table with a schema.
pub use data::dataset::{Dataset, LoadOptions, RowSample};
pub use data::distance::{RecordDistance, DEFAULT_SCALE};
pub use data::schema::{Schema, SchemaSource};
pub use data::table::{parse_delimiter, TableSource};

// Choose the k_i.
pub use data::k_source::{KAssign, KChoice, KSettings, KSource};

// Partition with a method.
pub use partition::compare::HeuristicComparison;
pub use partition::constraints::ClassConstraintOptions;
pub use partition::exact::{
    parse_duration, solve as solve_exact, Engine, ExactOptions, ExactOutcome, LnsReport, LnsStart,
    TimelineEntry, MAX_EXACT_RECORDS,
};
pub use partition::export::{export, ExportFormat};
pub use partition::heuristics::{
    run_on as run_heuristic, Form, Heuristic, HeuristicOptions, KMemberCost,
};
pub use partition::metrics::Metrics;
pub use partition::run::{partition, Outcome, Solver};
pub use partition::Method;

// Release, check and report.
pub use pipeline::{anonymise, pictures, AnonymiseOptions, Anonymised};
pub use release::check::CheckReport;
pub use release::check_release;
pub use release::{Release, ReleaseStyle};
pub use report::{OutputSummary, Report};

// Assess any table.
pub use assess::{assess, AssessOptions, AssessReport};

pub use optik_models::cp::Search;
pub use optik_models::{Criterion, Instance, Partition};

/// Interrupts: `request_stop` ends every running solve as if its time limit had passed (it
/// returns its incumbent and a valid bound); `clear_stop` before the next one.
pub use optik_models::stop::{clear as clear_stop, request as request_stop};

/// Progress of a heuristic over the records (`ProgressBar::hidden()` for none).
pub use indicatif::ProgressBar;
