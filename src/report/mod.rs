//! The JSON report of a run. The top-level keys `method`, `n`, `classes`, `status`,
//! `objective`, `lower_bound`, `metrics`, `verified` and `time_s` are an interface other tools
//! rely on; keep them.

pub(crate) mod html;
pub(crate) mod pictures;
pub(crate) mod plot;

use crate::data::dataset::Dataset;
use crate::data::qi::Values;
use crate::data::schema::Role;
use crate::error::{internal, Result};
use crate::partition::metrics::Metrics;
use crate::release::check::CheckReport;
use serde::Serialize;
use std::collections::BTreeMap;

/// A report as the pretty-printed JSON optik writes.
pub(crate) fn to_json<T: Serialize>(report: &T) -> Result<Vec<u8>> {
    serde_json::to_vec_pretty(report).map_err(|e| internal(format!("report: {e}")))
}

/// A whole run, as written to the report file.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub(crate) optik_version: &'static str,
    pub(crate) input: InputSummary,
    pub(crate) schema: SchemaSummary,
    pub(crate) constraints: ConstraintsSummary,
    pub(crate) method: String,
    pub(crate) parameters: serde_json::Value,
    pub(crate) seed: u64,
    pub(crate) n: usize,
    pub(crate) classes: usize,
    /// Class size → number of classes of that size.
    pub(crate) class_sizes: BTreeMap<usize, usize>,
    /// Criterion values of exact engines are those of the integer instance (distances rounded
    /// to 1/scale), converted back to distance units; `metrics` are computed on exact distances.
    /// `heuristic`, or for exact engines `optimal` / `feasible` / `infeasible` / `unknown`.
    pub(crate) status: String,
    pub(crate) criterion: crate::Criterion,
    /// Value of the selected criterion, in distance units.
    pub(crate) objective: f64,
    pub(crate) lower_bound: Option<f64>,
    /// Each heuristic's objective and its ratio to `objective` (always for exact runs; for a
    /// heuristic run when a comparison was asked, else empty).
    pub(crate) heuristics: Vec<crate::partition::compare::HeuristicComparison>,
    /// Improving solutions of an exact engine (empty for heuristics).
    pub(crate) timeline: Vec<crate::partition::exact::TimelineEntry>,
    /// Exact engine details (null for heuristics).
    pub(crate) exact: Option<crate::partition::exact::ExactOutcome>,
    pub(crate) metrics: Metrics,
    pub(crate) verified: bool,
    pub(crate) check: CheckReport,
    pub(crate) time_s: f64,
    pub(crate) outputs: OutputSummary,
}

impl Report {
    /// The report as the pretty-printed JSON optik writes.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        to_json(self)
    }

    /// Method name (`mdav`, `kmember`, `mondrian`, `optimal`).
    pub fn method(&self) -> &str {
        &self.method
    }

    /// `heuristic`, or the exact engine's `optimal` / `feasible`.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// Value of the criterion, in distance units.
    pub fn objective(&self) -> f64 {
        self.objective
    }

    /// The criterion `objective` is the value of.
    pub fn criterion(&self) -> crate::Criterion {
        self.criterion
    }

    /// Proven bound of the exact engine.
    pub fn lower_bound(&self) -> Option<f64> {
        self.lower_bound
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.classes
    }

    /// Each heuristic beside the release (empty for a heuristic run without a comparison).
    pub fn heuristics(&self) -> &[crate::partition::compare::HeuristicComparison] {
        &self.heuristics
    }

    /// Whether the independent check verified the release.
    pub fn verified(&self) -> bool {
        self.verified
    }
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct InputSummary {
    pub path: String,
    pub rows: usize,
    pub dropped_missing: usize,
    pub delimiter: String,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct SchemaSummary {
    pub source: String,
    pub quasi_identifiers: Vec<QiSummary>,
    pub released_columns: Vec<String>,
    pub dropped_columns: Vec<String>,
}

impl SchemaSummary {
    /// The schema of a loaded dataset: its quasi-identifiers, and the columns released and
    /// dropped.
    pub(crate) fn of(ds: &Dataset) -> SchemaSummary {
        let quasi_identifiers = ds
            .qi
            .attributes
            .iter()
            .map(|a| QiSummary {
                name: a.name.clone(),
                kind: a.kind_name().to_string(),
                weight: a.weight,
                levels: match &a.values {
                    Values::Numeric { .. } => None,
                    Values::Ordinal { levels, .. } => Some(levels.len()),
                    Values::Categorical { hierarchy, .. } => Some(hierarchy.height()),
                },
                hierarchy: matches!(a.values, Values::Categorical { has_file: true, .. }),
            })
            .collect();
        let (mut released, mut dropped) = (Vec::new(), Vec::new());
        for (h, r) in ds.table.headers.iter().zip(&ds.roles) {
            match r {
                Some(Role::Quasi | Role::Sensitive | Role::Insensitive) => released.push(h.clone()),
                _ => dropped.push(h.clone()),
            }
        }
        SchemaSummary {
            source: ds.schema.source.clone(),
            quasi_identifiers,
            released_columns: released,
            dropped_columns: dropped,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct QiSummary {
    pub name: String,
    pub kind: String,
    pub weight: f64,
    /// Height of the generalisation tree (categorical), number of levels (ordinal).
    pub levels: Option<usize>,
    pub hierarchy: bool,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct ConstraintsSummary {
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
    /// The partition picture.
    pub plot: Option<String>,
    /// The self-contained report page.
    pub html: Option<String>,
}
