//! The vocabulary every exact engine (CP, compact MIP, column generation) speaks: which engine,
//! the status and result of a run, its improving solutions and counters, and why a run cannot
//! start. The engines and [`crate::solve()`] depend on this module; it depends on no engine.

use crate::invalid_input::InvalidInput;
use crate::{Criterion, Partition};
use serde::{Deserialize, Serialize};

/// Which exact engine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The portfolio: column generation for the sum criteria (dbil, wcsd, sse), CP for diameter
    /// and split.
    Auto,
    /// The CP model on pumpkin with optik's propagators.
    Cp,
    /// Set partitioning with column generation on HiGHS (dbil, wcsd).
    Colgen,
    /// The compact assignment MIP on HiGHS (small instances; dbil, diameter, wcsd).
    Mip,
    /// Large-neighbourhood search from the best warm start: neighbourhoods re-optimised by
    /// column generation (dbil, wcsd); proves only when one neighbourhood holds every class or
    /// the per-record bound meets the incumbent.
    Lns,
}

impl Engine {
    /// The engine `auto` picks for a criterion (any other engine is itself).
    pub fn resolve(self, criterion: Criterion) -> Engine {
        match (self, criterion) {
            (Engine::Auto, c) if c.is_sum() => Engine::Colgen,
            (Engine::Auto, _) => Engine::Cp,
            (e, _) => e,
        }
    }

    /// True when the engine (after resolving `auto`) optimises `criterion`: column generation
    /// only the sum criteria, the compact MIP all but split and sse, CP all but sse (a class's
    /// SSE divides by its size, which none of CP's propagators bounds).
    pub fn optimises(self, criterion: Criterion) -> bool {
        match self.resolve(criterion) {
            Engine::Colgen => criterion.is_sum(),
            Engine::Mip => !matches!(criterion, Criterion::Split | Criterion::Sse),
            Engine::Lns => matches!(criterion, Criterion::Dbil | Criterion::Wcsd),
            Engine::Auto | Engine::Cp => criterion != Criterion::Sse,
        }
    }

    /// Name as written in reports.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Cp => "cp",
            Engine::Colgen => "colgen",
            Engine::Mip => "mip",
            Engine::Lns => "lns",
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Outcome of an engine run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The returned partition is proven optimal.
    Optimal,
    /// A partition was found (possibly the warm start) but not proven optimal (time limit).
    Feasible,
    /// No k_i-anonymous partition exists (under the model's constraints).
    Infeasible,
    /// Nothing was found and nothing proven.
    Unknown,
}

impl Status {
    /// Name as written in reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::Unknown => "unknown",
        }
    }
}

/// One improving solution of an engine run (the warm start counts as the first when given).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolutionEvent {
    /// Seconds since the start of the run.
    pub elapsed_s: f64,
    /// Objective in integer distance units.
    pub objective: i64,
    /// Number of classes of the solution.
    pub num_classes: usize,
    /// DBIL of the solution in integer units, whatever the criterion (the seed's figures 6.2–6.5
    /// plot it beside the criterion).
    pub dbil: i64,
    /// True for a warm-start partition.
    pub warm_start: bool,
    /// Large-neighbourhood search: records of the neighbourhood whose re-optimisation made
    /// this solution (a move); `None` for the other engines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbourhood: Option<usize>,
}

/// Callback receiving every improving solution.
pub type SolutionCallback = Box<dyn FnMut(&SolutionEvent)>;

/// A raised lower bound during a run (column generation's Lagrangian and LP bounds, the proof's
/// bounds): for progress lines that show incumbent, bound and gap while an engine works.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundEvent {
    /// Seconds since the start of the run.
    pub elapsed_s: f64,
    /// The run's lower bound in integer distance units (valid: no partition costs less).
    pub bound: i64,
}

/// Callback receiving every raised lower bound.
pub type BoundCallback = Box<dyn FnMut(&BoundEvent)>;

/// Counters of an engine run; fields an engine does not have stay zero.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineStats {
    /// Columns generated into the master (column generation) or variables (compact MIP).
    pub columns: usize,
    /// Columns enumerated for the final proof (column generation).
    pub enumerated_columns: usize,
    /// Odd-set cuts added to the master (subset-row cuts on triples included).
    pub cuts: usize,
    /// Those of the odd-set cuts on more than three records (see `colgen::cuts`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub large_cuts: u64,
    /// Pricing rounds (master LP solves followed by a pricing pass).
    pub pricing_rounds: usize,
    /// Seconds spent in LP solves (column generation; CP: the root LP of its dual bound).
    pub lp_time_s: f64,
    /// Seconds spent in pricing and enumeration.
    pub pricing_time_s: f64,
    /// Seconds spent in MIP solves.
    pub mip_time_s: f64,
    /// Branch-and-bound nodes (MIP) or search nodes (CP).
    pub nodes: u64,
    /// Branch-and-price nodes (column generation's tree proof).
    #[serde(default)]
    pub tree_nodes: u64,
    /// Dives (column generation: price-and-dive at the root LP and in branch-and-price).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dives: u64,
    /// LP re-solves of those dives.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dive_steps: u64,
    /// Searches of column generation's bound ladder (Lagrangian bounds at scaled duals; see
    /// `colgen::ladder`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scaled_bounds: u64,
    /// Of those, the calibration rungs: the first search of a ladder that must end by a
    /// deadline of its own (a deferred stall dive's), run to measure the time the next rungs
    /// are fitted to (see `colgen::ladder`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub calibration_rungs: u64,
    /// Dives at the first stall of the root's fast pricing (sse's centroid descent, wcsd's
    /// grown classes; counted in `dives` too).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stall_dives: u64,
    /// Of those, the dives that waited for the bound ladder's first bound (see
    /// `ColgenOptions::ladder_first_after`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deferred_stall_dives: u64,
    /// Closing dives: one with the time left once the bound ladder has no search left that
    /// ends in it (see `ColgenOptions::closing_dive`; counted in `dives` too).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub closing_dives: u64,
    /// Proof probes: the enumeration's first stage run before branch-and-price when the gap
    /// at the root is too wide for the enumeration (see `ColgenOptions::proof_probe`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub proof_probes: u64,
    /// Stages of the enumeration proof settled by the cover search instead of their MIP (see
    /// `ColgenOptions::proof_cover`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cover_stages: u64,
    /// Tight phases: column-generation runs with no class above the tight size, for an
    /// incumbent, before branch-and-price (see `ColgenOptions::tight_phase`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tight_phases: u64,
    /// Restricted master MIPs at the fast pricing's stalls (sse, wcsd): the first stall's, and
    /// one at each later stall whose LP has fallen by 0.02% since the last (see
    /// `colgen::solve`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stall_mips: u64,
    /// LP roundings at the convergences of the root's cut rounds (see
    /// `ColgenOptions::cut_rounding`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cut_roundings: u64,
    /// Master LP solves at interior points, while the root's fast pricing descends (see
    /// `ColgenOptions::interior_descent`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub interior_solves: u64,
    /// Master LP solves with dual-optimal exchange columns, before the root LP first converged
    /// (see `colgen::exchange`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub exchange_solves: u64,
    /// Times the companion was handed the root LP's duals as its per-record bounds (0 or 1; see
    /// `colgen::companion::RecordBounds`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub companion_duals: u64,
    /// Rungs of the bound ladder that their node budget stopped after they found columns,
    /// searched again at the same point with the columns held back (see `colgen::ladder`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub held_rungs: u64,
    /// CP engine with node LPs: the node LPs solved (a node's bound asked of column
    /// generation).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub node_lps: u64,
    /// CP engine with node LPs: their seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_lp_s: Option<f64>,
    /// Seconds into the run at which branch-and-price, too slow to close the gap in the time
    /// left, handed its core to the companion search (column generation; see
    /// `colgen::branch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handover_s: Option<f64>,
    /// Dives the run's core made from the root LP after the tree's hand-over instead of
    /// giving the core to the companion (column generation; see
    /// `ColgenOptions::handover_dives`; counted in `dives` too).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub handover_dives: u64,
    /// What HiGHS reported when it could not solve the master LP even after a rebuild, with
    /// time left (column generation: the run then handed its core to the companion; see
    /// `colgen::master`). Rare: the one failure seen had no trace to say why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lp_failure: Option<String>,
    /// Seconds into the run at which branch-and-price, chosen at the root for a gap above
    /// 0.5%, gave way to the enumeration proof once the companion's partitions brought the
    /// gap to the root LP under it (column generation; see `colgen::branch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enumeration_s: Option<f64>,
    /// Conflicts (CP only).
    pub conflicts: u64,
    /// LP relaxation value before cuts (column generation), in integer units.
    pub lp_bound: Option<f64>,
    /// Seconds into the run at which the root LP first converged, before cuts (column
    /// generation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lp_converged_s: Option<f64>,
    /// LP relaxation value after cuts (column generation; CP with the LP dual bound: the root
    /// LP it posted), in integer units.
    pub lp_bound_cuts: Option<f64>,
    /// Large-neighbourhood search counters (`None` for the other engines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lns: Option<LnsSummary>,
}

/// For serde: counters that stay out of reports while zero.
fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// What a large-neighbourhood search run did (`Engine::Lns`), for the report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LnsSummary {
    /// Why it stopped: `deadline`, `exhausted` (every neighbourhood of the largest size solved
    /// with its current classes), `optimal` (one neighbourhood held every class), `budget`.
    pub stop: String,
    /// Neighbourhoods re-optimised, improving ones (the moves), proven optimal, timed out.
    pub neighbourhoods: usize,
    /// See `neighbourhoods`.
    pub moves: usize,
    /// See `neighbourhoods`.
    pub proven: usize,
    /// See `neighbourhoods`.
    pub timed_out: usize,
    /// Neighbourhood size (records) at the end.
    pub final_size: usize,
    /// Objective of the start (integer units).
    pub start_objective: i64,
    /// ⌈Σ per-record bounds⌉ (integer units).
    pub per_record_bound: i64,
    /// Seconds spent on the per-record bounds before the search.
    pub bound_time_s: f64,
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
    /// Best proven bound in integer units: a lower bound for minimised criteria, an upper
    /// bound for split.
    pub lower_bound: Option<i64>,
    /// Engine counters.
    pub stats: EngineStats,
    /// Improving solutions in order.
    pub timeline: Vec<SolutionEvent>,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
    /// Split (CP): the minimum number of classes that was enforced.
    pub min_classes: Option<usize>,
    /// Why the run stopped early or could not search (budget, time limit, solver failure, ...).
    pub note: Option<String>,
}

impl EngineResult {
    /// A run that has found and proven nothing yet.
    pub fn empty() -> Self {
        EngineResult {
            status: Status::Unknown,
            partition: None,
            objective: None,
            lower_bound: None,
            stats: EngineStats::default(),
            timeline: Vec::new(),
            elapsed_s: 0.0,
            min_classes: None,
            note: None,
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

/// Why an engine cannot run, or why no partition exists before any search.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The engine does not optimise this criterion (see [`Engine::optimises`]).
    #[error("the {engine} engine does not optimise {}", .criterion.name())]
    UnsupportedCriterion {
        /// The engine asked for (resolved).
        engine: Engine,
        /// The criterion it does not optimise.
        criterion: Criterion,
    },
    /// The engine does not take extra class constraints (l-diversity, links, maximum size).
    #[error("the {engine} engine does not take class constraints (l-diversity, links, maximum class size)")]
    UnsupportedConstraints {
        /// The engine asked for.
        engine: Engine,
    },
    /// The objective's range does not fit the CP solver's i32 domains.
    #[error("objective bound {bound} exceeds pumpkin's i32 domains; use a smaller scale")]
    ObjectiveOutOfRange {
        /// Largest value the objective can take, in integer units.
        bound: i64,
    },
    /// A malformed instance, partition or class constraints.
    #[error(transparent)]
    InvalidInput(#[from] InvalidInput),
    /// No partition meets the k_i and the class constraints; the reason.
    #[error("infeasible: {0}")]
    Infeasible(String),
    /// The large-neighbourhood search has no start that meets the class constraints (a
    /// partition may still exist: the exact engines search for one); why.
    #[error("the large-neighbourhood search has no start: {0}")]
    NoStart(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_resolves_by_criterion() {
        assert_eq!(Engine::Auto.resolve(Criterion::Dbil), Engine::Colgen);
        assert_eq!(Engine::Auto.resolve(Criterion::Wcsd), Engine::Colgen);
        assert_eq!(Engine::Auto.resolve(Criterion::Diameter), Engine::Cp);
        assert_eq!(Engine::Auto.resolve(Criterion::Split), Engine::Cp);
        assert_eq!(Engine::Auto.resolve(Criterion::Sse), Engine::Colgen);
        assert_eq!(Engine::Mip.resolve(Criterion::Split), Engine::Mip);
    }

    #[test]
    fn engines_optimise_their_criteria() {
        for c in Criterion::ALL {
            assert!(Engine::Auto.optimises(c));
            assert_eq!(Engine::Cp.optimises(c), c != Criterion::Sse);
        }
        assert!(Engine::Colgen.optimises(Criterion::Wcsd));
        assert!(Engine::Colgen.optimises(Criterion::Sse));
        assert!(!Engine::Mip.optimises(Criterion::Sse));
        assert!(!Engine::Colgen.optimises(Criterion::Diameter));
        assert!(Engine::Mip.optimises(Criterion::Diameter));
        assert!(!Engine::Mip.optimises(Criterion::Split));
    }
}
