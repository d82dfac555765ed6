//! The result every exact engine (CP, compact MIP, column generation) reports, so the portfolio
//! and the report compare engines field by field.

use crate::cp::{CpResult, Status};
use crate::Partition;
use serde::{Deserialize, Serialize};

/// One improving solution of an engine run (the warm start counts as the first when given).
/// Engine-level rather than CP's own event type so the engines stay independent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolutionEvent {
    /// Seconds since the start of the run.
    pub elapsed_s: f64,
    /// Objective in integer distance units.
    pub objective: i64,
    /// Number of classes of the solution.
    pub num_classes: usize,
    /// DBIL of the solution in integer units, whatever the criterion.
    pub dbil: i64,
    /// True for a warm-start partition.
    pub warm_start: bool,
}

impl From<&crate::cp::SolutionEvent> for SolutionEvent {
    fn from(e: &crate::cp::SolutionEvent) -> Self {
        SolutionEvent {
            elapsed_s: e.elapsed_s,
            objective: e.objective,
            num_classes: e.num_classes,
            dbil: e.dbil,
            warm_start: e.warm_start,
        }
    }
}

/// Callback receiving every improving solution.
pub type SolutionCallback = Box<dyn FnMut(&SolutionEvent)>;

/// Counters of an engine run; fields an engine does not have stay zero.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineStats {
    /// Columns generated into the master (column generation) or variables (compact MIP).
    pub columns: usize,
    /// Columns enumerated for the final proof (column generation).
    pub enumerated_columns: usize,
    /// Subset-row cuts added to the master.
    pub cuts: usize,
    /// Pricing rounds (master LP solves followed by a pricing pass).
    pub pricing_rounds: usize,
    /// Seconds spent in LP solves.
    pub lp_time_s: f64,
    /// Seconds spent in pricing and enumeration.
    pub pricing_time_s: f64,
    /// Seconds spent in MIP solves.
    pub mip_time_s: f64,
    /// Branch-and-bound nodes (MIP) or search nodes (CP).
    pub nodes: u64,
    /// Conflicts (CP only).
    pub conflicts: u64,
    /// LP relaxation value before cuts (column generation), in integer units.
    pub lp_bound: Option<f64>,
    /// LP relaxation value after cuts (column generation), in integer units.
    pub lp_bound_cuts: Option<f64>,
}

/// Outcome of one exact engine run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineResult {
    /// Optimal / feasible / infeasible / unknown.
    pub status: Status,
    /// Best partition found (may be a warm start).
    pub partition: Option<Partition>,
    /// Its objective in integer distance units.
    pub objective: Option<i64>,
    /// Best proven lower bound (minimised criteria) in integer units.
    pub lower_bound: Option<i64>,
    /// Engine counters.
    pub stats: EngineStats,
    /// Improving solutions in order.
    pub timeline: Vec<SolutionEvent>,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
    /// Why the run stopped early or could not start (unsupported criterion, budget, ...).
    pub note: Option<String>,
}

impl EngineResult {
    /// A result that reports only a reason (unsupported criterion, invalid input).
    pub fn unsupported(note: impl Into<String>) -> Self {
        EngineResult {
            status: Status::Unknown,
            partition: None,
            objective: None,
            lower_bound: None,
            stats: EngineStats::default(),
            timeline: Vec::new(),
            elapsed_s: 0.0,
            note: Some(note.into()),
        }
    }

    /// Relative gap (objective − bound) / objective, when both are known.
    pub fn gap(&self) -> Option<f64> {
        match (self.objective, self.lower_bound) {
            (Some(ub), Some(lb)) if ub != 0 => Some((ub - lb) as f64 / ub.abs() as f64),
            (Some(_), Some(_)) => Some(0.0),
            _ => None,
        }
    }
}

impl From<CpResult> for EngineResult {
    fn from(r: CpResult) -> Self {
        EngineResult {
            status: r.status,
            partition: r.partition,
            objective: r.objective,
            lower_bound: r.lower_bound,
            stats: EngineStats {
                nodes: r.nodes,
                conflicts: r.conflicts,
                lp_bound_cuts: r.lp_bound,
                lp_time_s: r.lp_time_s,
                ..EngineStats::default()
            },
            timeline: r
                .timeline
                .into_iter()
                .map(|e| SolutionEvent::from(&e))
                .collect(),
            elapsed_s: r.elapsed_s,
            note: r.note,
        }
    }
}
