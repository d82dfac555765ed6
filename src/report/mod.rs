//! The JSON report of a run. The top-level keys `method`, `n`, `classes`, `status`,
//! `objective`, `lower_bound`, `metrics`, `verified` and `time_s` are an interface other tools
//! rely on; keep them.

pub mod html;
pub mod pictures;
pub mod plot;

use crate::partition::metrics::Metrics;
use crate::release::check::CheckReport;
use serde::Serialize;
use std::collections::BTreeMap;

/// A whole run, as written to `--report`.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub optik_version: &'static str,
    pub input: InputSummary,
    pub schema: SchemaSummary,
    pub constraints: ConstraintsSummary,
    pub method: String,
    pub parameters: serde_json::Value,
    pub seed: u64,
    pub n: usize,
    pub classes: usize,
    /// Class size → number of classes of that size.
    pub class_sizes: BTreeMap<usize, usize>,
    /// Criterion values of exact engines are those of the integer instance (distances rounded
    /// to 1/scale), converted back to distance units; `metrics` are computed on exact distances.
    /// `heuristic`, or for exact engines `optimal` / `feasible` / `infeasible` / `unknown`.
    pub status: String,
    pub criterion: String,
    /// Value of the selected criterion, in distance units.
    pub objective: f64,
    pub lower_bound: Option<f64>,
    /// Improving solutions of an exact engine (empty for heuristics).
    pub timeline: Vec<crate::partition::exact::TimelineEntry>,
    /// Exact engine details (null for heuristics).
    pub exact: Option<crate::partition::exact::ExactOutcome>,
    pub metrics: Metrics,
    pub verified: bool,
    pub check: CheckReport,
    pub time_s: f64,
    pub outputs: OutputSummary,
}

#[derive(Clone, Debug, Serialize)]
pub struct InputSummary {
    pub path: String,
    pub rows: usize,
    pub dropped_missing: usize,
    pub delimiter: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SchemaSummary {
    pub source: String,
    pub quasi_identifiers: Vec<QiSummary>,
    pub released_columns: Vec<String>,
    pub dropped_columns: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct QiSummary {
    pub name: String,
    pub kind: String,
    pub weight: f64,
    /// Height of the generalisation tree (categorical), number of levels (ordinal).
    pub levels: Option<usize>,
    pub hierarchy: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ConstraintsSummary {
    pub description: String,
    /// k value → number of records with it.
    pub k_histogram: BTreeMap<u32, usize>,
    pub k_min: u32,
    pub k_max: u32,
    /// ⌊Σ 1/k_i⌋, the most classes any k_i-anonymous partition can have.
    pub max_classes: usize,
    /// Extra class constraints of an exact run (l-diversity, links, maximum size) and whether
    /// the release meets each; absent when none was requested.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub extra: Option<crate::release::check::constraints::ConstraintsCheck>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OutputSummary {
    pub release: String,
    pub report: Option<String>,
    /// `--plot`: the partition picture.
    pub plot: Option<String>,
    /// `--html`: the self-contained report page.
    pub html: Option<String>,
}
