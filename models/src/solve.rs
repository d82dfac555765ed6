//! One entry point to the exact engines: [`solve`] checks that the chosen engine can run the
//! criterion under the class constraints, resolves `auto`, and runs the engine from the given
//! warm starts with the rules between engines — a short CP search for a first partition before
//! column generation when no warm start meets the class constraints, and the compact MIP (which
//! starts cold) giving way to the warm start when that is better.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::colgen::rounding::local_search;
use crate::colgen::start::partition_cost;
use crate::colgen::{
    solve_colgen, ColgenOptions, Companion, Cores, Improver, Publish, RecordBounds,
};
use crate::cp::{solve_cp, CpOptions, Search};
use crate::criteria::objective_of;
use crate::engine::{
    BoundCallback, Engine, EngineError, EngineResult, SolutionCallback, SolutionEvent, Status,
};
use crate::lns::{rule_from_env, solve_lns, LnsOptions, NeighbourhoodRule, SeedBias};
use crate::mip::solve_mip;
use crate::{ClassConstraints, Criterion, Instance, Partition};

/// Why no partition exists, when the engine that proved it does not say.
const NO_PARTITION: &str = "no partition meets the k_i and the class constraints";

/// Options of [`solve`].
pub struct SolveOptions {
    /// Criterion to optimise.
    pub criterion: Criterion,
    /// Wall-clock limit (`None` = until proven).
    pub time_limit: Option<Duration>,
    /// CP: post the dominance cap `|C| ≤ 2·max_{i∈C} k_i − 1` (ignored for split).
    pub size_cap: bool,
    /// CP: search strategy.
    pub search: Search,
    /// CP, dbil and wcsd: post the set-partitioning LP's dual bound.
    pub lp_bound: bool,
    /// CP with `lp_bound`: start from the LP-rounded partition when it is better.
    pub lp_primal: bool,
    /// CP with `lp_bound`: re-solve the LP at the search's nodes ([`CpOptions::node_lp`]).
    pub node_lp: bool,
    /// Extra class constraints (l-diversity, links, maximum size).
    pub constraints: ClassConstraints,
    /// k_i-anonymous partitions meeting the constraints (e.g. the heuristics'), in a fixed
    /// order: CP and the MIP start from the best (the first among equals), column generation
    /// seeds its master with all of them.
    pub warm_starts: Vec<Partition>,
    /// Called on every improving solution, the warm start first.
    pub on_solution: Option<SolutionCallback>,
    /// Called whenever the engine's lower bound rises (column generation).
    pub on_bound: Option<BoundCallback>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            criterion: Criterion::Dbil,
            time_limit: None,
            size_cap: true,
            search: Search::DEFAULT,
            lp_bound: true,
            lp_primal: true,
            node_lp: false,
            constraints: ClassConstraints::default(),
            warm_starts: Vec::new(),
            on_solution: None,
            on_bound: None,
        }
    }
}

impl std::fmt::Debug for SolveOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("criterion", &self.criterion)
            .field("time_limit", &self.time_limit)
            .field("size_cap", &self.size_cap)
            .field("search", &self.search)
            .field("lp_bound", &self.lp_bound)
            .field("lp_primal", &self.lp_primal)
            .field("node_lp", &self.node_lp)
            .field("constraints", &!self.constraints.is_empty())
            .field("warm_starts", &self.warm_starts.len())
            .finish_non_exhaustive()
    }
}

/// The partition a run started from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarmStart {
    /// `warm_starts[index]`, the best of the given ones.
    Given {
        /// Its position in [`SolveOptions::warm_starts`].
        index: usize,
        /// Its objective in integer units.
        objective: i64,
    },
    /// None was given that meets the class constraints: the partition a short CP search found
    /// before column generation.
    CpSearch {
        /// Its objective in integer units.
        objective: i64,
    },
}

impl WarmStart {
    /// Objective of the starting partition, in integer units.
    pub fn objective(self) -> i64 {
        match self {
            WarmStart::Given { objective, .. } | WarmStart::CpSearch { objective } => objective,
        }
    }
}

/// What [`solve`] did.
#[derive(Clone, Debug)]
pub struct SolveOutcome {
    /// The engine that ran (`auto` resolved).
    pub engine: Engine,
    /// The partition it started from, if any.
    pub warm_start: Option<WarmStart>,
    /// The engine's result. Its partition is the engine's, or the warm start when the engine
    /// found nothing better; it is `None` only when nothing was found in time (status
    /// `Unknown`). The status is never `Infeasible` (that is an error).
    pub result: EngineResult,
}

/// Checks, before any work, that `engine` can run `criterion` under `constraints` on `inst`,
/// and returns the engine that will run (`auto` resolved). Errors: constraints with the compact
/// MIP, malformed constraints, constraints infeasible at sight, a criterion the engine does not
/// optimise (in that order).
pub fn select_engine(
    inst: &Instance,
    engine: Engine,
    criterion: Criterion,
    constraints: &ClassConstraints,
) -> Result<Engine, EngineError> {
    if !constraints.is_empty() {
        if engine == Engine::Mip {
            return Err(EngineError::UnsupportedConstraints { engine });
        }
        constraints.validate(inst.n)?;
        if let Some(why) = constraints.obvious_infeasibility(&inst.k) {
            return Err(EngineError::Infeasible(why));
        }
    }
    let resolved = engine.resolve(criterion);
    if !resolved.optimises(criterion) {
        return Err(EngineError::UnsupportedCriterion {
            engine: resolved,
            criterion,
        });
    }
    Ok(resolved)
}

/// Optimises `opts.criterion` on `inst` with `engine` (see [`select_engine`] for the checks)
/// from the given warm starts. A proof that no partition meets the k_i and the constraints is
/// [`EngineError::Infeasible`].
pub fn solve(
    inst: &Instance,
    engine: Engine,
    opts: SolveOptions,
) -> Result<SolveOutcome, EngineError> {
    let engine = select_engine(inst, engine, opts.criterion, &opts.constraints)?;
    let best = best_warm_start(inst, opts.criterion, &opts.warm_starts);
    let best_partition = best.map(|(index, objective)| {
        let p = opts.warm_starts[index].clone();
        (p, objective)
    });
    let mut warm_start = best.map(|(index, objective)| WarmStart::Given { index, objective });
    let result = match engine {
        Engine::Colgen => {
            let (result, bootstrap) = run_colgen(inst, opts)?;
            warm_start = warm_start.or(bootstrap);
            result
        }
        Engine::Mip => run_mip(inst, opts, best_partition.clone())?,
        Engine::Lns => run_lns(inst, opts)?,
        Engine::Cp | Engine::Auto => run_cp(inst, opts, best_partition.clone().map(|b| b.0))?,
    };
    let result = settle(result, best_partition)?;
    Ok(SolveOutcome {
        engine,
        warm_start,
        result,
    })
}

/// Index and objective of the best partition of `starts` (the first among equals).
fn best_warm_start(
    inst: &Instance,
    criterion: Criterion,
    starts: &[Partition],
) -> Option<(usize, i64)> {
    let better = |a: i64, b: i64| {
        if criterion.maximise() {
            a > b
        } else {
            a < b
        }
    };
    let mut best: Option<(usize, i64)> = None;
    for (index, p) in starts.iter().enumerate() {
        let v = objective_of(inst, p, criterion);
        if best.is_none_or(|(_, b)| better(v, b)) {
            best = Some((index, v));
        }
    }
    best
}

/// The CP engine from the best warm start.
fn run_cp(
    inst: &Instance,
    opts: SolveOptions,
    warm: Option<Partition>,
) -> Result<EngineResult, EngineError> {
    solve_cp(
        inst,
        CpOptions {
            criterion: opts.criterion,
            time_limit: opts.time_limit,
            size_cap: opts.size_cap,
            search: opts.search,
            warm_start: warm,
            split_min_classes: None,
            lp_bound: opts.lp_bound,
            lp_primal: opts.lp_primal,
            node_lp: opts.node_lp,
            hints: true,
            constraints: opts.constraints,
            on_solution: opts.on_solution,
        },
    )
}

/// Column generation seeded with every warm start, or, under class constraints that none of
/// them meets, with the partition of a short CP search (returned as the run's warm start).
fn run_colgen(
    inst: &Instance,
    opts: SolveOptions,
) -> Result<(EngineResult, Option<WarmStart>), EngineError> {
    let mut time_limit = opts.time_limit;
    let mut bootstrap = None;
    let mut first = None;
    if opts.warm_starts.is_empty() && !opts.constraints.is_empty() {
        let (found, elapsed) = cp_first_partition(inst, &opts)?;
        if let Some((p, objective)) = found {
            bootstrap = Some(WarmStart::CpSearch { objective });
            first = Some(p);
        }
        time_limit = opts.time_limit.map(|t| t.saturating_sub(elapsed));
    }
    let mut starts = opts.warm_starts;
    starts.extend(first);
    let result = solve_colgen(
        inst,
        ColgenOptions {
            criterion: opts.criterion,
            time_limit,
            warm_start: starts,
            on_solution: opts.on_solution,
            on_bound: opts.on_bound,
            improve: (opts.constraints.is_empty() && lns_in_colgen())
                .then(|| lns_improver(opts.criterion)),
            companion: lns_companion_in_colgen().then(|| lns_companion(opts.criterion)),
            constraints: opts.constraints,
            ..ColgenOptions::default()
        },
    )?;
    Ok((result, bootstrap))
}

/// Column generation improves its incumbent by large-neighbourhood search unless
/// `OPTIK_COLGEN_LNS=0` (an ablation knob; `proof` keeps only the run before the proof, see
/// [`ColgenOptions::improve_early`]).
fn lns_in_colgen() -> bool {
    std::env::var("OPTIK_COLGEN_LNS").map_or(true, |v| v != "0")
}

/// Column generation runs the large-neighbourhood search beside it on its own thread unless
/// `OPTIK_COLGEN_LNS` is `0`, `proof` or `blocking` (ablation knobs: `blocking` is the search
/// taking turns with the LP, while it converges slowly and before the proof).
fn lns_companion_in_colgen() -> bool {
    !matches!(
        std::env::var("OPTIK_COLGEN_LNS").as_deref(),
        Ok("0" | "proof" | "blocking")
    )
}

/// The large-neighbourhood search as column generation's companion: on the cores column
/// generation leaves (all but one; all once the run hands its core over), with column
/// generation's per-record bounds (the search's own for every sum criterion: `lns::cost`'s
/// tests check they agree).
fn lns_companion(criterion: Criterion) -> Companion {
    Arc::new(
        move |inst: &Instance,
              constraints: &ClassConstraints,
              bounds: &RecordBounds,
              start: &Partition,
              deadline: Option<Instant>,
              cores: Cores,
              publish: Publish| {
            let all = rayon::current_num_threads();
            let threads = match cores {
                Cores::AllButOne => all.saturating_sub(1),
                Cores::All => all,
            };
            let polished;
            // The polish's moves keep a largest class size, but no other constraint.
            let start = if companion_polish() && constraints.size_cap_only() {
                polished = polished_start(
                    inst,
                    criterion,
                    constraints.max_size,
                    start,
                    deadline,
                    &publish,
                );
                &polished
            } else {
                start
            };
            let _ = solve_lns(
                inst,
                start,
                LnsOptions {
                    criterion,
                    deadline,
                    threads: threads.max(1),
                    max_size: companion_max_size(inst.n),
                    constraints: constraints.clone(),
                    rule: companion_rule(inst),
                    on_partition: Some(Box::new(move |p, ev| publish(p, ev.objective))),
                    record_bounds: Some(bounds.values.clone()),
                    seed_bias: if bounds.duals {
                        SeedBias::Room
                    } else {
                        SeedBias::CostOverBound
                    },
                    background: true,
                    ..LnsOptions::default()
                },
            );
        },
    )
}

/// `start` after the local moves ([`local_search`]) under the largest class size given,
/// handed to `publish` when they lowered its cost.
fn polished_start(
    inst: &Instance,
    criterion: Criterion,
    max_class_size: Option<u32>,
    start: &Partition,
    deadline: Option<Instant>,
    publish: &Publish,
) -> Partition {
    let cap = ClassConstraints {
        max_size: max_class_size,
        ..ClassConstraints::default()
    };
    let polished = local_search(inst, criterion, start, &cap, deadline);
    let cost = partition_cost(inst, criterion, &polished);
    if cost < partition_cost(inst, criterion, start) {
        publish(&polished, cost);
    }
    polished
}

/// The companion polishes each start with the LP rounding's relocation and swap moves before
/// its neighbourhoods unless `OPTIK_COMPANION_POLISH` is `0` (an ablation knob).
fn companion_polish() -> bool {
    std::env::var("OPTIK_COMPANION_POLISH").map_or(true, |v| v != "0")
}

/// Below this many records the companion's neighbourhoods hold at most half the table and follow
/// the related rule; from here on they may take the whole table and grow around the seed's
/// medoid, as before 2026-11-27. Below it the companion starts late and the run's tree is fast:
/// after a hand-over the search re-solved the whole instance from its own root again and again,
/// and capped at half with the related rule it found better partitions (diabetes, 442 records,
/// personal k_i: gap 0.63% → 0.40% over four k_i draws). On 1,000-record samples of Adult and
/// Census with personal k_i both changes made the companion worse (Census 0.32–0.36% →
/// 0.45–0.64%). docs/exact.md, "The companion's largest neighbourhood".
const HALF_TABLE_BELOW: usize = 500;

/// The companion's largest neighbourhood: half the table below [`HALF_TABLE_BELOW`] records,
/// the search's own default above (`OPTIK_COMPANION_MAX_SIZE` records when set, an ablation
/// knob; 0 = the whole table).
fn companion_max_size(n: usize) -> usize {
    let knob = std::env::var("OPTIK_COMPANION_MAX_SIZE").ok();
    companion_max_size_for(n, knob.and_then(|v| v.parse().ok()))
}

/// The smallest k_i from which the companion takes the related rule on any table size (see
/// [`companion_rule`]).
const RELATED_FROM_K: u32 = 5;

/// The companion's neighbourhood rule: `OPTIK_LNS_RULE` when set, else the related rule below
/// [`HALF_TABLE_BELOW`] records or when every k_i is at least [`RELATED_FROM_K`], and medoid
/// to seed otherwise. Medoid to seed was chosen on personal k_i; at uniform k = 5 (1,000
/// records) and k = 10 (500 records) the related rule ended lower in 13 of 18 side-by-side
/// runs (docs/exact.md, "The companion's rule at uniform k").
fn companion_rule(inst: &Instance) -> NeighbourhoodRule {
    companion_rule_for(inst.n, inst.least_k(), rule_from_env())
}

/// [`companion_rule`] for `n` records whose smallest k_i is `least_k`, and the knob's rule
/// `knob`.
fn companion_rule_for(
    n: usize,
    least_k: u32,
    knob: Option<NeighbourhoodRule>,
) -> NeighbourhoodRule {
    knob.unwrap_or(if n < HALF_TABLE_BELOW || least_k >= RELATED_FROM_K {
        NeighbourhoodRule::Related
    } else {
        NeighbourhoodRule::MedoidToSeed
    })
}

/// [`companion_max_size`] for the knob's value `knob`.
fn companion_max_size_for(n: usize, knob: Option<usize>) -> usize {
    match knob {
        Some(0) => n.max(1),
        Some(m) => m,
        None if n < HALF_TABLE_BELOW => (n / 2).max(1),
        None => LnsOptions::default().max_size,
    }
}

/// The large-neighbourhood search as column generation's improver (no class constraints: the
/// search does not take them).
fn lns_improver(criterion: Criterion) -> Improver {
    Box::new(
        move |inst: &Instance, start: &Partition, deadline: Instant| {
            let r = solve_lns(
                inst,
                start,
                LnsOptions {
                    criterion,
                    deadline: Some(deadline),
                    ..LnsOptions::default()
                },
            )
            .ok()?;
            Some(r.partition)
        },
    )
}

/// Column generation without a valid start works against artificial columns whose huge duals
/// defeat its pricing bounds: a short CP search (a fifth of the limit, at most 10 s; no LP
/// bound) looks for a first partition meeting the constraints to start from. Returns it (if
/// found) and the time spent; a proof that none exists is [`EngineError::Infeasible`].
fn cp_first_partition(
    inst: &Instance,
    opts: &SolveOptions,
) -> Result<(Option<(Partition, i64)>, Duration), EngineError> {
    let budget = opts.time_limit.map_or(Duration::from_secs(10), |t| {
        (t / 5).min(Duration::from_secs(10))
    });
    let start = Instant::now();
    let r = match solve_cp(
        inst,
        CpOptions {
            criterion: opts.criterion,
            time_limit: Some(budget),
            size_cap: opts.size_cap,
            search: opts.search,
            lp_bound: false,
            constraints: opts.constraints.clone(),
            ..CpOptions::default()
        },
    ) {
        Ok(r) => r,
        // Beyond CP's domains: column generation starts without it.
        Err(EngineError::ObjectiveOutOfRange { .. }) => return Ok((None, start.elapsed())),
        Err(e) => return Err(e),
    };
    if r.status == Status::Infeasible {
        return Err(EngineError::Infeasible(
            r.note.unwrap_or_else(|| NO_PARTITION.to_string()),
        ));
    }
    let found = r.partition.zip(r.objective);
    Ok((found, Duration::from_secs_f64(r.elapsed_s)))
}

/// The compact MIP, which starts cold: the warm start is reported first, and kept when the MIP
/// ends without a partition at least as good.
fn run_mip(
    inst: &Instance,
    opts: SolveOptions,
    warm: Option<(Partition, i64)>,
) -> Result<EngineResult, EngineError> {
    let mut on_solution = opts.on_solution;
    if let (Some((p, v)), Some(cb)) = (&warm, on_solution.as_mut()) {
        cb(&SolutionEvent {
            elapsed_s: 0.0,
            objective: *v,
            num_classes: p.num_classes(),
            dbil: objective_of(inst, p, Criterion::Dbil),
            warm_start: true,
            neighbourhood: None,
        });
    }
    let mut r = solve_mip(inst, opts.criterion, opts.time_limit)?;
    if let Some((p, v)) = warm {
        if r.objective.is_none_or(|m| m > v) && r.status != Status::Infeasible {
            r.partition = Some(p);
            r.objective = Some(v);
            if r.status == Status::Optimal {
                r.status = Status::Feasible;
            }
        }
    }
    Ok(r)
}

/// Large-neighbourhood search from the cheapest warm start (the greedy cover without one)
/// that meets the class constraints once repaired ([`crate::lns::constrained_start`]).
fn run_lns(inst: &Instance, opts: SolveOptions) -> Result<EngineResult, EngineError> {
    let starts = if opts.warm_starts.is_empty() {
        vec![crate::colgen::start::greedy_cover(inst)]
    } else {
        opts.warm_starts.clone()
    };
    let extra = &opts.constraints;
    let criterion = crate::lns::SumCriterion::try_from(opts.criterion)?;
    let start = starts
        .iter()
        .filter(|p| p.violations(&inst.k).is_empty())
        .filter_map(|p| crate::lns::constrained_start(inst, p, extra, criterion))
        .min_by_key(|p| objective_of(inst, p, opts.criterion))
        .ok_or_else(|| {
            EngineError::NoStart("no warm start meets the class constraints".to_string())
        })?;
    crate::lns::run_lns_engine(
        inst,
        &start,
        &crate::lns::LnsEngineOptions {
            criterion: opts.criterion,
            time_limit: opts.time_limit,
            seed: 0,
            threads: 0,
            lower_bound: None,
            constraints: opts.constraints.clone(),
        },
        None,
        opts.on_solution,
    )
}

/// The result as [`solve`] reports it: infeasibility as an error, the best warm start when the
/// engine found no partition, and a result with a partition at least feasible.
fn settle(
    mut result: EngineResult,
    warm: Option<(Partition, i64)>,
) -> Result<EngineResult, EngineError> {
    if result.status == Status::Infeasible {
        let why = result.note.unwrap_or_else(|| NO_PARTITION.to_string());
        return Err(EngineError::Infeasible(why));
    }
    if result.partition.is_none() || result.objective.is_none() {
        if let Some((p, v)) = warm {
            result.partition = Some(p);
            result.objective = Some(v);
        }
    }
    if result.partition.is_some() && result.status == Status::Unknown {
        result.status = Status::Feasible;
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The companion's start is polished by the local moves and handed to the run when they
    /// lowered its cost (two classes at their floor that only a swap mends), and not handed
    /// over when they did not.
    #[test]
    fn the_companion_hands_over_its_polished_start() {
        use std::sync::Mutex;
        let xs = [0i64, 1, 10, 11];
        let inst =
            Instance::from_distance(1.0, vec![2; 4], |i, j| (xs[i] - xs[j]).abs() as f64).unwrap();
        let got: Arc<Mutex<Vec<i64>>> = Arc::default();
        let sink = Arc::clone(&got);
        let publish: Publish = Arc::new(move |_, cost| sink.lock().unwrap().push(cost));
        let crossed = Partition::from_labels(&[0, 1, 0, 1]);
        let p = polished_start(&inst, Criterion::Dbil, None, &crossed, None, &publish);
        assert_eq!(p, Partition::from_labels(&[0, 0, 1, 1]));
        assert_eq!(*got.lock().unwrap(), vec![4]);
        let again = polished_start(&inst, Criterion::Dbil, Some(2), &p, None, &publish);
        assert_eq!(again, p);
        assert_eq!(got.lock().unwrap().len(), 1, "nothing better to hand over");
    }

    /// Below 500 records the companion's neighbourhoods stay below the whole table (half of
    /// it); above, the search's own largest; the knob's 0 allows the whole table.
    #[test]
    fn the_companion_frees_at_most_half_of_a_small_table() {
        assert_eq!(companion_max_size_for(442, None), 221);
        assert_eq!(companion_max_size_for(499, None), 249);
        assert_eq!(companion_max_size_for(1000, None), 1000);
        assert_eq!(companion_max_size_for(5000, None), 1000);
        assert_eq!(companion_max_size_for(1, None), 1);
        assert_eq!(companion_max_size_for(442, Some(0)), 442);
        assert_eq!(companion_max_size_for(442, Some(300)), 300);
    }

    /// Below 500 records, or when every k_i is at least 5, the companion's neighbourhoods
    /// follow the related rule, otherwise the seed's medoid; the knob's rule wins.
    #[test]
    fn the_companion_randomises_its_neighbourhoods_on_small_tables_and_at_large_k() {
        use NeighbourhoodRule::{ClosestRecords, MedoidToSeed, Related};
        assert_eq!(companion_rule_for(442, 2, None), Related);
        assert_eq!(companion_rule_for(1000, 2, None), MedoidToSeed);
        assert_eq!(companion_rule_for(1000, 3, None), MedoidToSeed);
        assert_eq!(companion_rule_for(1000, 5, None), Related);
        assert_eq!(companion_rule_for(500, 10, None), Related);
        assert_eq!(
            companion_rule_for(442, 2, Some(ClosestRecords)),
            ClosestRecords
        );
        assert_eq!(companion_rule_for(1000, 2, Some(Related)), Related);
        assert_eq!(
            companion_rule_for(1000, 5, Some(MedoidToSeed)),
            MedoidToSeed
        );
    }
}
