//! Large-neighbourhood search over a k_i-anonymous partition for the sum criteria (dbil, wcsd):
//! free the records of a few neighbouring classes, re-optimise them exactly with column
//! generation (warm-started with their current classes, so a neighbourhood never gets worse),
//! keep every improvement. Records outside a neighbourhood keep their classes, so every other
//! class stays valid. Distances come through a [`DistanceOracle`], so no n × n matrix is needed.
//!
//! - [`oracle`]: distances on demand and the dense sub-instance of a neighbourhood;
//! - [`cost`]: the sum criteria's class costs and per-record bounds through the oracle;
//! - [`incumbent`]: the partition as classes with stable ids;
//! - [`neighbourhood`]: which classes form a neighbourhood, and the order of seeds;
//! - [`search`]: the policy (next neighbourhood, improvements, the adaptive size m);
//! - [`parallel`]: worker threads on disjoint neighbourhoods under a deadline;
//! - [`engine`]: the search as an engine run (result, timeline, lower bound) for `solve`.

pub mod cost;
pub mod engine;
pub mod incumbent;
pub mod neighbourhood;
pub mod oracle;
pub mod parallel;
pub mod search;

pub use cost::SumCriterion;
pub use engine::{run_lns_engine, LnsEngineOptions, LnsSummary};
pub use neighbourhood::{NeighbourhoodRule, SeedBias};
pub use oracle::DistanceOracle;

use crate::engine::EngineError;
use crate::{Criterion, Partition};
use std::time::{Duration, Instant};

/// One improvement: a neighbourhood whose re-optimised classes cost less.
#[derive(Clone, Debug, PartialEq)]
pub struct LnsEvent {
    /// Seconds since the search started.
    pub elapsed_s: f64,
    /// Objective of the whole partition after the move (integer units).
    pub objective: i64,
    /// Records in the neighbourhood.
    pub records: usize,
    /// Classes freed.
    pub classes_before: usize,
    /// Classes the neighbourhood was re-partitioned into.
    pub classes_after: usize,
    /// Cost of the freed classes before and after (integer units).
    pub cost_before: i64,
    /// See `cost_before`.
    pub cost_after: i64,
    /// True when the neighbourhood's new classes are proven optimal for its records.
    pub proven: bool,
    /// Classes of the whole partition after the move.
    pub num_classes: usize,
    /// DBIL of the whole partition after the move (integer units), whatever the criterion.
    pub dbil: i64,
}

impl std::fmt::Display for LnsEvent {
    /// `neighbourhood of 212 records / 40 classes: 1234 → 1201` (integer units).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "neighbourhood of {} records / {} classes: {} → {}",
            self.records, self.classes_before, self.cost_before, self.cost_after
        )
    }
}

/// Receives every improvement, on the thread that called [`solve_lns`].
pub type ImprovementCallback = Box<dyn FnMut(&LnsEvent)>;

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LnsStop {
    /// The deadline came.
    Deadline,
    /// `max_neighbourhoods` neighbourhoods were solved.
    Budget,
    /// Every neighbourhood of the largest size was solved with its current classes: proven
    /// optimal for its records (a local optimum of this neighbourhood structure), or stopped
    /// by its time limit without improvement.
    Exhausted,
    /// A neighbourhood holding every class was proven optimal: the partition is optimal.
    Optimal,
}

/// Counters of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LnsStats {
    /// Objective of the start partition.
    pub start_objective: i64,
    /// Neighbourhoods solved.
    pub neighbourhoods: usize,
    /// ... that improved the incumbent.
    pub improving: usize,
    /// ... proven optimal within their time limit.
    pub proven: usize,
    /// ... stopped by their time limit (or their column budget) before a proof.
    pub timed_out: usize,
    /// Worker seconds spent on neighbourhoods that were proven, and that timed out.
    pub proven_s: f64,
    /// See `proven_s`.
    pub timed_out_s: f64,
    /// ... that timed out but still improved.
    pub timed_out_improving: usize,
    /// Neighbourhoods passed over because they were already proven optimal, or timed out
    /// without improvement, with the same classes.
    pub skipped: usize,
    /// Times m grew and shrank.
    pub grown: usize,
    /// See `grown`.
    pub shrunk: usize,
    /// Results rejected as invalid (always 0 unless column generation has a bug).
    pub rejected: usize,
    /// Largest overrun of a neighbourhood's time limit (seconds; ≤ 0 when none).
    pub overrun_s: f64,
    /// Neighbourhood size m at the end.
    pub final_size: usize,
    /// Seconds before the first neighbourhood: per-record bounds and the incumbent's classes.
    pub setup_s: f64,
}

/// Options of [`solve_lns`].
pub struct LnsOptions {
    /// dbil or wcsd.
    pub criterion: Criterion,
    /// The search returns by then (within column generation's overrun, well under a second).
    pub deadline: Option<Instant>,
    /// Time limit of a neighbourhood's first attempt: most neighbourhoods are proven in a
    /// fraction of a second, a few take far longer; one that times out is tried again with
    /// twice the time when the seeds come back to it, up to `neighbourhood_limit`.
    pub first_limit: Duration,
    /// Longest time limit of one neighbourhood's column generation.
    pub neighbourhood_limit: Duration,
    /// Initial neighbourhood size m (records).
    pub size: usize,
    /// Smallest m the adaptation shrinks to.
    pub min_size: usize,
    /// Largest m the adaptation grows to (capped by n).
    pub max_size: usize,
    /// How neighbouring classes are found.
    pub rule: NeighbourhoodRule,
    /// How seeds favour expensive classes.
    pub seed_bias: SeedBias,
    /// Seed the classes an improvement creates next (before the rest of the pass).
    pub follow_improvements: bool,
    /// Seed of the seed order.
    pub seed: u64,
    /// Worker threads; 0 = rayon's thread count.
    pub threads: usize,
    /// Stop after this many neighbourhoods (tests; `None`: until the deadline or exhausted).
    pub max_neighbourhoods: Option<usize>,
    /// Column budget of one neighbourhood's proof (bounds its memory).
    pub column_budget: usize,
    /// Subset-row cuts in the neighbourhoods' column generation.
    pub cuts: bool,
    /// Called on every improvement.
    pub on_improvement: Option<ImprovementCallback>,
    /// The per-record bounds when the caller computed them already
    /// ([`cost::record_bounds`] of the oracle and criterion).
    pub record_bounds: Option<Vec<f64>>,
}

impl Default for LnsOptions {
    fn default() -> Self {
        LnsOptions {
            criterion: Criterion::Dbil,
            deadline: None,
            first_limit: Duration::from_millis(250),
            neighbourhood_limit: Duration::from_secs(10),
            size: 100,
            min_size: 20,
            max_size: 1000,
            rule: NeighbourhoodRule::MedoidToSeed,
            seed_bias: SeedBias::CostOverBound,
            follow_improvements: true,
            seed: 0,
            threads: 0,
            max_neighbourhoods: None,
            column_budget: 1_000_000,
            cuts: true,
            on_improvement: None,
            record_bounds: None,
        }
    }
}

impl std::fmt::Debug for LnsOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LnsOptions")
            .field("criterion", &self.criterion)
            .field("deadline", &self.deadline)
            .field("first_limit", &self.first_limit)
            .field("neighbourhood_limit", &self.neighbourhood_limit)
            .field("size", &self.size)
            .field("min_size", &self.min_size)
            .field("max_size", &self.max_size)
            .field("rule", &self.rule)
            .field("seed_bias", &self.seed_bias)
            .field("follow_improvements", &self.follow_improvements)
            .field("seed", &self.seed)
            .field("threads", &self.threads)
            .field("max_neighbourhoods", &self.max_neighbourhoods)
            .field("column_budget", &self.column_budget)
            .field("cuts", &self.cuts)
            .finish_non_exhaustive()
    }
}

/// Outcome of [`solve_lns`].
#[derive(Clone, Debug, PartialEq)]
pub struct LnsResult {
    /// The best partition (the start when nothing improved); k_i-anonymous.
    pub partition: Partition,
    /// Its objective in integer units.
    pub objective: i64,
    /// A lower bound on every k_i-anonymous partition of the records: ⌈Σ_i bound_i⌉ of the
    /// per-record bounds ([`SumCriterion::record_bound`]).
    pub lower_bound: i64,
    /// Why the search stopped.
    pub stop: LnsStop,
    /// Every improvement in order.
    pub timeline: Vec<LnsEvent>,
    /// Counters.
    pub stats: LnsStats,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
}

/// Improves the k_i-anonymous partition `start` of the oracle's records by large-neighbourhood
/// search until `opts.deadline`, `opts.max_neighbourhoods`, or until every neighbourhood of the
/// largest size is proven optimal. Errors: a criterion that is not a sum over classes, or a
/// start that does not cover the records or breaks a k_i.
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
    let record_bounds = match opts.record_bounds.take() {
        Some(b) if b.len() == n => b,
        _ => cost::record_bounds(oracle, criterion),
    };
    let lower_bound = cost::bound_sum(&record_bounds);
    let bounds = match opts.seed_bias {
        SeedBias::CostOverBound => record_bounds,
        SeedBias::Uniform => vec![0.0; n],
    };
    let threads = match opts.threads {
        0 => rayon::current_num_threads(),
        t => t,
    };
    let limits = parallel::Drive {
        threads,
        deadline: opts.deadline,
        max_neighbourhoods: opts.max_neighbourhoods,
        column_budget: opts.column_budget,
        cuts: opts.cuts,
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
