//! [`solve_lns`]: checks the start, computes the per-record bounds, and drives the search on
//! worker threads until the deadline, the budget, or nothing is left to try.

use super::cost::{self, SumCriterion};
use super::neighbourhood::SeedBias;
use super::options::{Drive, LnsOptions};
use super::oracle::DistanceOracle;
use super::outcome::{LnsResult, LnsStop};
use super::{parallel, search};
use crate::engine::EngineError;
use crate::Partition;
use std::time::Instant;

/// Improves the k_i-anonymous partition `start` of the oracle's records by large-neighbourhood
/// search until `opts.deadline`, `opts.max_neighbourhoods`, or until every neighbourhood of the
/// largest size is proven optimal. Errors: a criterion that is not a sum over classes,
/// constraints that do not fit the records, or a start that does not cover the records, breaks
/// a k_i, has a class above the largest class size or breaks another of `opts.constraints`.
pub fn solve_lns<O: DistanceOracle + ?Sized>(
    oracle: &O,
    start: &Partition,
    mut opts: LnsOptions,
) -> Result<LnsResult, EngineError> {
    let t0 = Instant::now();
    let criterion = SumCriterion::try_from(opts.criterion)?;
    let n = oracle.n();
    if start.len() != n {
        return Err(crate::InvalidInput(format!(
            "start partition has {} records, not {n}",
            start.len()
        ))
        .into());
    }
    let k: Vec<u32> = (0..n).map(|i| oracle.k(i)).collect();
    if let Some(&i) = start.violations(&k).first() {
        return Err(crate::InvalidInput(format!(
            "start partition puts record {i} (k = {}) in a class of {}",
            k[i],
            start.sizes()[start.class_of(i)]
        ))
        .into());
    }
    opts.constraints.validate(n)?;
    if let Some(cap) = opts.constraints.max_size {
        let big = start.largest_class();
        if big > cap as usize {
            return Err(crate::InvalidInput(format!(
                "start partition has a class of {big} records, above the largest class size {cap}"
            ))
            .into());
        }
    }
    if !opts.constraints.partition_ok(start.labels()) {
        return Err(crate::InvalidInput(
            "start partition breaks the l-diversity or a link".to_string(),
        )
        .into());
    }
    let record_bounds = match opts.record_bounds.take() {
        Some(b) if b.len() == n => b,
        _ => cost::record_bounds(oracle, criterion, opts.constraints.diversity.as_ref()),
    };
    let lower_bound = cost::bound_sum(&record_bounds);
    let bounds = match opts.seed_bias {
        SeedBias::CostOverBound | SeedBias::Room => record_bounds,
        SeedBias::Uniform => vec![0.0; n],
    };
    let threads = match opts.threads {
        0 => rayon::current_num_threads(),
        t => t,
    };
    let limits = Drive {
        threads,
        deadline: opts.deadline,
        max_neighbourhoods: opts.max_neighbourhoods,
        column_budget: opts.column_budget,
        cuts: opts.cuts,
        constraints: opts.constraints.clone(),
        background: opts.background,
    };
    let mut search = search::Search::new(oracle, criterion, start, &mut opts, bounds);
    let setup_s = t0.elapsed().as_secs_f64();
    let stop = if n == 0 {
        LnsStop::Optimal
    } else {
        parallel::drive(&mut search, oracle, criterion, &limits)?
    };
    let mut stats = search.stats.clone();
    stats.final_size = search.size();
    stats.setup_s = setup_s;
    let inc = search.incumbent();
    Ok(LnsResult {
        partition: inc.partition(),
        objective: inc.objective(),
        lower_bound,
        stop,
        timeline: search.timeline,
        stats,
        elapsed_s: t0.elapsed().as_secs_f64(),
    })
}
