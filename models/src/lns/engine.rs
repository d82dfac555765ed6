//! The large-neighbourhood search as an engine run: from a valid start, under a time limit, it
//! returns an [`EngineResult`] like the exact engines (status, objective, lower bound, the
//! timeline of moves) so `solve` and optik's report treat it as one more engine. The lower
//! bound is the per-record bound (or a better valid one the caller proved, e.g. an exact
//! engine's on the same instance).

use super::cost::{self, SumCriterion};
use super::options::{ImprovementCallback, LnsEvent, LnsOptions};
use super::oracle::DistanceOracle;
use super::outcome::LnsStop;
use super::solve::solve_lns;
use crate::engine::{
    EngineError, EngineResult, EngineStats, LnsSummary, SolutionCallback, SolutionEvent,
};
use crate::{ClassConstraints, Criterion, Partition, Status};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The per-record bounds take at most 1/BOUND_SHARE of the time limit
/// ([`cost::record_bounds_until`]).
const BOUND_SHARE: u32 = 4;

/// Options of [`run_lns_engine`].
#[derive(Debug, Clone)]
pub struct LnsEngineOptions {
    /// dbil or wcsd.
    pub criterion: Criterion,
    /// Wall-clock limit of the search (`None`: until no neighbourhood is left to try).
    pub time_limit: Option<Duration>,
    /// Seed of the neighbourhood order.
    pub seed: u64,
    /// Worker threads (0: rayon's thread count).
    pub threads: usize,
    /// A valid lower bound on the same instance proven elsewhere (integer units).
    pub lower_bound: Option<i64>,
    /// Class constraints (the start must meet them; [`super::within_cap`] splits a start's
    /// classes above a largest class size).
    pub constraints: ClassConstraints,
}

/// Improves `start` (k_i-anonymous) by large-neighbourhood search within `opts.time_limit`.
/// `on_bound` hears the per-record bound once it is known (before the first move);
/// `on_solution` hears the start (as a warm start) and every move.
pub fn run_lns_engine<O: DistanceOracle + ?Sized>(
    oracle: &O,
    start: &Partition,
    opts: &LnsEngineOptions,
    on_bound: Option<Box<dyn FnOnce(i64)>>,
    on_solution: Option<SolutionCallback>,
) -> Result<EngineResult, EngineError> {
    let t0 = Instant::now();
    let deadline = opts.time_limit.map(|t| t0 + t);
    let criterion = SumCriterion::try_from(opts.criterion)?;
    // The per-record bounds get a quarter of the time at most (quadratic in n).
    let bounds_until = deadline.map(|d| t0 + d.saturating_duration_since(t0) / BOUND_SHARE);
    let bounds = cost::record_bounds_until(
        oracle,
        criterion,
        opts.constraints.diversity.as_ref(),
        bounds_until,
    );
    let bound_time_s = t0.elapsed().as_secs_f64();
    let per_record = cost::bound_sum(&bounds);
    let lower_bound = opts.lower_bound.map_or(per_record, |b| b.max(per_record));
    if let Some(cb) = on_bound {
        cb(lower_bound);
    }
    let classes = start.classes();
    let class_cost =
        |c: SumCriterion| -> i64 { classes.iter().map(|m| c.class_cost(oracle, m)).sum() };
    let start_objective = class_cost(criterion);
    let warm = SolutionEvent {
        elapsed_s: t0.elapsed().as_secs_f64(),
        objective: start_objective,
        num_classes: classes.len(),
        dbil: match criterion {
            SumCriterion::Dbil => start_objective,
            SumCriterion::Wcsd | SumCriterion::Sse => class_cost(SumCriterion::Dbil),
        },
        warm_start: true,
        neighbourhood: None,
    };
    let mut on_solution = on_solution;
    if let Some(cb) = on_solution.as_mut() {
        cb(&warm);
    }
    // Moves as solution events, timed from the start of the run (bounds included).
    let moves: Rc<RefCell<Vec<SolutionEvent>>> = Rc::default();
    let sink = moves.clone();
    let on_improvement: ImprovementCallback = Box::new(move |e: &LnsEvent| {
        let ev = SolutionEvent {
            elapsed_s: t0.elapsed().as_secs_f64(),
            objective: e.objective,
            num_classes: e.num_classes,
            dbil: e.dbil,
            warm_start: false,
            neighbourhood: Some(e.records),
        };
        if let Some(cb) = on_solution.as_mut() {
            cb(&ev);
        }
        sink.borrow_mut().push(ev);
    });
    let r = solve_lns(
        oracle,
        start,
        LnsOptions {
            criterion: opts.criterion,
            deadline,
            seed: opts.seed,
            threads: opts.threads,
            record_bounds: Some(bounds),
            on_improvement: Some(on_improvement),
            constraints: opts.constraints.clone(),
            ..LnsOptions::default()
        },
    )?;
    let proven = r.stop == LnsStop::Optimal || r.objective <= lower_bound;
    let stop = match r.stop {
        LnsStop::Deadline => "deadline",
        LnsStop::Budget => "budget",
        LnsStop::Exhausted => "exhausted",
        LnsStop::Optimal => "optimal",
    };
    let mut timeline = vec![warm];
    timeline.extend(moves.take());
    Ok(EngineResult {
        status: if proven {
            Status::Optimal
        } else {
            Status::Feasible
        },
        lower_bound: Some(if proven { r.objective } else { lower_bound }),
        objective: Some(r.objective),
        partition: Some(r.partition),
        stats: EngineStats {
            lns: Some(LnsSummary {
                stop: stop.to_string(),
                neighbourhoods: r.stats.neighbourhoods,
                moves: r.stats.improving,
                proven: r.stats.proven,
                timed_out: r.stats.timed_out,
                final_size: r.stats.final_size,
                start_objective,
                per_record_bound: per_record,
                bound_time_s,
            }),
            ..EngineStats::default()
        },
        timeline,
        elapsed_s: t0.elapsed().as_secs_f64(),
        min_classes: None,
        note: (!proven).then(|| {
            format!(
                "large-neighbourhood search stopped ({stop}) after {} neighbourhoods, {} moves",
                r.stats.neighbourhoods, r.stats.improving
            )
        }),
    })
}
