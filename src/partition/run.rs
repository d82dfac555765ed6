//! One partitioning run as `optik anonymise` and `optik bench` both perform it: a heuristic or
//! an exact engine, then the checks that the partition covers every record and meets every
//! k_i, and the metrics. Kept in one place so the benchmark measures exactly what the command
//! releases.

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::error::{internal, Result};
use crate::partition::exact::{self, ExactOptions, ExactOutcome};
use crate::partition::heuristics::{self, Form, Heuristic, HeuristicOptions, KMemberCost};
use crate::partition::metrics::{self, Metrics};
use crate::{Criterion, Partition};
use indicatif::ProgressBar;
use optik_models::ClassConstraints;

/// How the partition is made.
#[derive(Clone, Debug)]
pub enum Solver {
    Heuristic(HeuristicOptions),
    Exact(ExactOptions),
}

impl Solver {
    /// A heuristic in its k_i form (greedy k-member with eq. 5.5, seed 0).
    pub fn heuristic(method: Heuristic) -> Solver {
        Solver::Heuristic(HeuristicOptions {
            method,
            form: Form::Ki,
            cost: KMemberCost::Personalised,
            seed: 0,
        })
    }

    /// Method name as written in reports (`optimal` for the exact engines).
    pub fn name(&self) -> &'static str {
        match self {
            Solver::Heuristic(h) => h.method.name(),
            Solver::Exact(_) => "optimal",
        }
    }
}

/// A verified partition with its metrics and reported objective.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub partition: Partition,
    /// The exact engine's result (`None` for heuristics).
    pub exact: Option<ExactOutcome>,
    pub metrics: Metrics,
    /// `heuristic`, or the exact engine's `optimal` / `feasible`.
    pub status: String,
    /// The criterion value, in distance units: the float metric for heuristics, the integer
    /// instance's value for the exact engines.
    pub objective: f64,
    /// Proven bound of the exact engine.
    pub lower_bound: Option<f64>,
}

/// Partitions `ds` with `solver` (progress on `bar` for the heuristics) and verifies that the
/// partition covers every record once and meets every k_i of `ds.k`.
pub fn partition(
    ds: &Dataset,
    dist: &RecordDistance,
    solver: &Solver,
    criterion: Criterion,
    bar: &ProgressBar,
) -> Result<Outcome> {
    partition_with(
        ds,
        dist,
        solver,
        criterion,
        bar,
        &ClassConstraints::default(),
    )
}

/// [`partition`] under extra class constraints (exact engines only; the caller refuses them
/// with heuristics).
pub(crate) fn partition_with(
    ds: &Dataset,
    dist: &RecordDistance,
    solver: &Solver,
    criterion: Criterion,
    bar: &ProgressBar,
    extra: &ClassConstraints,
) -> Result<Outcome> {
    let needs_numbers = criterion == Criterion::Sse
        || matches!(solver, Solver::Heuristic(h) if h.method == Heuristic::MdavSse);
    if needs_numbers {
        crate::data::standardised::Standardised::new(&ds.qi).map_err(crate::error::input)?;
    }
    let (partition, exact) = match solver {
        Solver::Heuristic(opts) => (heuristics::run(opts, &ds.qi, dist, &ds.k, bar), None),
        Solver::Exact(opts) => {
            let outcome = exact::solve_with(ds, dist, opts, extra)?;
            (outcome.partition.clone(), Some(outcome))
        }
    };
    if partition.len() != ds.n() {
        return Err(internal(format!(
            "{} returned a partition of {} records, expected {}",
            solver.name(),
            partition.len(),
            ds.n()
        )));
    }
    let violations = partition.violations(&ds.k);
    if !violations.is_empty() {
        return Err(internal(format!(
            "{} produced a partition that is not k_i-anonymous ({} records below their k_i); nothing was written",
            solver.name(),
            violations.len()
        )));
    }
    let metrics = metrics::compute(&ds.qi, dist, &ds.k, &partition);
    let (status, objective, lower_bound) = match &exact {
        Some(e) => (e.status.clone(), e.objective, e.lower_bound),
        None => ("heuristic".to_string(), metrics.value(criterion), None),
    };
    Ok(Outcome {
        partition,
        exact,
        metrics,
        status,
        objective,
        lower_bound,
    })
}
