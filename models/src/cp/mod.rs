//! The CP engine: the k_i-anonymity model of seed 001 §6.3.2 on pumpkin 0.5.0 with the custom
//! propagators and branchers of `optik-propagators`, solved by linear SAT-UNSAT search from an
//! optional warm start. Never reports `Optimal` unless the solver proved it.

pub mod explain;
mod model;
mod threshold;

use std::time::{Duration, Instant};

use optik_propagators::branching::{BranchMode, ClusterBrancher, Counters, Counting};
use optik_propagators::pumpkin_conflict_resolvers::resolvers::{AnalysisMode, ResolutionResolver};
use optik_propagators::pumpkin_core::branching::branchers::autonomous_search::AutonomousSearch;
use optik_propagators::pumpkin_core::branching::Brancher;
use optik_propagators::pumpkin_core::predicates::{Predicate, PredicateConstructor};
use optik_propagators::pumpkin_core::results::{
    ProblemSolution, SatisfactionResultUnderAssumptions,
};
use optik_propagators::pumpkin_core::termination::TimeBudget;
use serde::{Deserialize, Serialize};

use crate::criteria::evaluate;
use crate::{ClassConstraints, Criterion, Instance, Partition};
use optik_propagators::{min_k_diameters, DistMatrix};

/// Search strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Search {
    /// Seed algorithm 11: fill when a class is below its largest k, else create.
    Switching,
    /// Seed algorithm 9.
    Create,
    /// Seed algorithm 10 (falls back to create when no class needs filling).
    Fill,
    /// pumpkin's VSIDS with restarts and solution-guided phase saving, falling back to switching.
    Autonomous,
}

impl Search {
    /// The default strategy (the faster one on the benchmark, see the crate notes).
    pub const DEFAULT: Search = Search::Autonomous;

    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Search::Switching => "switching",
            Search::Create => "create",
            Search::Fill => "fill",
            Search::Autonomous => "autonomous",
        }
    }

    /// All strategies.
    pub const ALL: [Search; 4] = [
        Search::Switching,
        Search::Create,
        Search::Fill,
        Search::Autonomous,
    ];
}

impl std::str::FromStr for Search {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Search::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                format!("unknown search '{s}' (expected switching, create, fill or autonomous)")
            })
    }
}

/// Outcome of a CP run.
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

/// One improving solution (the warm start counts as the first when given).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolutionEvent {
    /// Seconds since the start of `solve_cp`.
    pub elapsed_s: f64,
    /// Objective in integer distance units.
    pub objective: i64,
    /// Number of classes of the solution.
    pub num_classes: usize,
    /// DBIL of the solution in integer units, whatever the criterion (the seed's figures 6.2–6.5
    /// plot it beside the criterion).
    pub dbil: i64,
    /// True for the warm-start partition.
    pub warm_start: bool,
}

/// Callback receiving every improving solution.
pub type SolutionCallback = Box<dyn FnMut(&SolutionEvent)>;

/// Options of [`solve_cp`].
pub struct CpOptions {
    /// Criterion to optimise.
    pub criterion: Criterion,
    /// Wall-clock limit (`None` = until proven).
    pub time_limit: Option<Duration>,
    /// Post the dominance cap `|C| ≤ 2·max_{i∈C} k_i − 1` (ignored for split).
    pub size_cap: bool,
    /// Search strategy.
    pub search: Search,
    /// A k_i-anonymous partition to start from (its cost is the first upper bound).
    pub warm_start: Option<Partition>,
    /// Split only: minimum number of classes. `None` = the seed's rule: the number of classes of
    /// the warm start, or of the first solution found.
    pub split_min_classes: Option<usize>,
    /// Called on every improving solution.
    pub on_solution: Option<SolutionCallback>,
    /// dbil and wcsd: solve the set-partitioning LP first and post its dual bound with
    /// reduced-cost filtering (see `optik_propagators::dual_bound`).
    pub lp_bound: bool,
    /// With `lp_bound`: start from the LP-rounded partition (restricted master MIP over the
    /// LP's columns) when it beats the warm start.
    pub lp_primal: bool,
    /// Give the warm start to the search as value hints (phase of the autonomous search).
    pub hints: bool,
    /// Extra class constraints (l-diversity, links, maximum size); a warm start that breaks
    /// them is dropped.
    pub constraints: ClassConstraints,
}

impl Default for CpOptions {
    fn default() -> Self {
        CpOptions {
            criterion: Criterion::Dbil,
            time_limit: None,
            size_cap: true,
            search: Search::DEFAULT,
            warm_start: None,
            split_min_classes: None,
            on_solution: None,
            lp_bound: true,
            lp_primal: true,
            hints: true,
            constraints: ClassConstraints::default(),
        }
    }
}

impl std::fmt::Debug for CpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpOptions")
            .field("criterion", &self.criterion)
            .field("time_limit", &self.time_limit)
            .field("size_cap", &self.size_cap)
            .field("search", &self.search)
            .field(
                "warm_start",
                &self.warm_start.as_ref().map(|p| p.num_classes()),
            )
            .field("split_min_classes", &self.split_min_classes)
            .field("lp_bound", &self.lp_bound)
            .field("lp_primal", &self.lp_primal)
            .field("hints", &self.hints)
            .field("constraints", &!self.constraints.is_empty())
            .finish_non_exhaustive()
    }
}

/// Result of [`solve_cp`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpResult {
    /// Outcome.
    pub status: Status,
    /// Best partition found (may be the warm start).
    pub partition: Option<Partition>,
    /// Its objective, in integer distance units.
    pub objective: Option<i64>,
    /// Best proven bound: a lower bound for minimised criteria, an upper bound for split.
    pub lower_bound: Option<i64>,
    /// Improving solutions in order.
    pub timeline: Vec<SolutionEvent>,
    /// Search nodes (decisions).
    pub nodes: u64,
    /// Conflicts.
    pub conflicts: u64,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
    /// Split only: the minimum number of classes that was enforced.
    pub min_classes: Option<usize>,
    /// Why the run could not start, if it could not (e.g. objective beyond pumpkin's i32).
    pub note: Option<String>,
    /// dbil/wcsd with `lp_bound`: value of the root set-partitioning LP (with cuts).
    pub lp_bound: Option<f64>,
    /// Seconds spent on that LP.
    pub lp_time_s: f64,
}

/// Objective of a partition in integer units (split of one class = 0).
pub fn objective_of(inst: &Instance, p: &Partition, criterion: Criterion) -> i64 {
    evaluate(p, |a, b| inst.d(a, b)).get(criterion)
}

/// Solves the instance to proven optimality (or until the time limit).
pub fn solve_cp(inst: &Instance, mut opts: CpOptions) -> CpResult {
    let start = Instant::now();
    let criterion = opts.criterion;
    let maximise = criterion.maximise();
    let mut result = CpResult {
        status: Status::Unknown,
        partition: None,
        objective: None,
        lower_bound: None,
        timeline: Vec::new(),
        nodes: 0,
        conflicts: 0,
        elapsed_s: 0.0,
        min_classes: None,
        note: None,
        lp_bound: None,
        lp_time_s: 0.0,
    };
    if inst.n == 0 {
        result.status = Status::Infeasible;
        return result;
    }
    let extra = std::mem::take(&mut opts.constraints);
    if let Err(e) = extra.validate(inst.n) {
        result.note = Some(e);
        return result;
    }
    if let Some(why) = extra.obvious_infeasibility(&inst.k) {
        result.status = Status::Infeasible;
        result.note = Some(why);
        result.elapsed_s = start.elapsed().as_secs_f64();
        return result;
    }
    // The warm start must be a k_i-anonymous partition of these records meeting the constraints.
    let warm = opts.warm_start.take().filter(|p| {
        p.len() == inst.n && p.violations(&inst.k).is_empty() && extra.partition_ok(p.labels())
    });
    let obj_ub = model::objective_upper_bound(inst, criterion);
    if obj_ub > i32::MAX as i64 {
        result.note = Some(format!(
            "objective bound {obj_ub} exceeds pumpkin's i32 domains; use a smaller scale"
        ));
        if let Some(p) = warm {
            result.objective = Some(objective_of(inst, &p, criterion));
            result.partition = Some(p);
            result.status = Status::Feasible;
        }
        result.elapsed_s = start.elapsed().as_secs_f64();
        return result;
    }
    let deadline = opts.time_limit.map(|t| start + t);
    let remaining = |now: Instant| -> Duration {
        match deadline {
            Some(d) => d.saturating_duration_since(now),
            None => Duration::from_secs(100 * 365 * 24 * 3600),
        }
    };

    // Split: the minimum number of classes.
    let mut min_classes = None;
    if criterion == Criterion::Split {
        let c0 = match (opts.split_min_classes, &warm) {
            (Some(c), _) => Some(c),
            (None, Some(p)) => Some(p.num_classes()),
            (None, None) => {
                // The seed's rule: the number of classes of the first solution found.
                let mut m = model::build(inst, criterion, false, None, obj_ub as i32, None, &extra);
                let counters = Counters::default();
                let mut brancher = make_brancher(&m, inst, opts.search, counters.clone());
                let mut resolver = resolver();
                let mut term = TimeBudget::starting_now(remaining(Instant::now()));
                let g = m.g.clone();
                let first = match m.solver.satisfy_under_assumptions(
                    &mut brancher,
                    &mut term,
                    &mut resolver,
                    &[],
                ) {
                    SatisfactionResultUnderAssumptions::Satisfiable(s) => {
                        let labels: Vec<i32> = g
                            .iter()
                            .map(|&x| s.solution().get_integer_value(x))
                            .collect();
                        Some(Partition::from_labels(&labels).num_classes())
                    }
                    _ => None,
                };
                let (nodes, conflicts) = counters.get();
                result.nodes += nodes;
                result.conflicts += conflicts;
                first
            }
        };
        min_classes = c0;
        result.min_classes = c0;
    }
    let warm = warm.filter(|p| min_classes.is_none_or(|c| p.num_classes() >= c));

    let counters = Counters::default();
    let mut on_solution = opts.on_solution.take();
    let mut emit = |result: &mut CpResult, p: Partition, v: i64, warm_start: bool| {
        let event = SolutionEvent {
            elapsed_s: start.elapsed().as_secs_f64(),
            objective: v,
            num_classes: p.num_classes(),
            dbil: objective_of(inst, &p, Criterion::Dbil),
            warm_start,
        };
        if let Some(cb) = on_solution.as_mut() {
            cb(&event);
        }
        result.timeline.push(event);
        result.partition = Some(p);
        result.objective = Some(v);
    };
    if let Some(p) = warm {
        let v = objective_of(inst, &p, criterion);
        emit(&mut result, p, v, true);
    }

    // The threshold method decomposes by components and uses a greedy that knows nothing of the
    // extra constraints: under constraints, diameter is solved by the plain objective search.
    if criterion == Criterion::Diameter && extra.is_empty() {
        let outcome = solve_diameter(inst, &opts, &counters, &remaining, &mut result, &mut emit);
        let (nodes, conflicts) = counters.get();
        result.nodes += nodes;
        result.conflicts += conflicts;
        finish(&mut result, outcome, start);
        return result;
    }

    // The root LP: at most half of the time left (it takes well under a second at n ≤ 100).
    // Solved without the extra constraints: a relaxation, so its dual bound stays valid.
    let root = if opts.lp_bound && matches!(criterion, Criterion::Dbil | Criterion::Wcsd) {
        let t = Instant::now();
        let lp = crate::colgen::root_lp(
            inst,
            crate::ColgenOptions {
                criterion,
                time_limit: opts.time_limit.map(|_| remaining(Instant::now()) / 2),
                warm_start: result.partition.iter().cloned().collect(),
                ..crate::ColgenOptions::default()
            },
        );
        result.lp_time_s = t.elapsed().as_secs_f64();
        result.lp_bound = lp.as_ref().map(|l| l.z);
        if opts.lp_primal {
            if let Some((p, v)) = lp.as_ref().and_then(|l| l.primal.clone()) {
                if result.objective.is_none_or(|b| v < b)
                    && p.violations(&inst.k).is_empty()
                    && extra.partition_ok(p.labels())
                {
                    debug_assert_eq!(v, objective_of(inst, &p, criterion));
                    emit(&mut result, p, v, false);
                }
            }
        }
        lp
    } else {
        None
    };
    let m = model::build(
        inst,
        criterion,
        opts.size_cap,
        min_classes,
        obj_ub as i32,
        root.as_ref(),
        &extra,
    );
    let hint: Option<Vec<i32>> = if opts.hints {
        result
            .partition
            .as_ref()
            .map(|p| p.labels().iter().map(|&c| c as i32 + 1).collect())
    } else {
        None
    };
    let brancher = make_brancher(&m, inst, opts.search, counters.clone());
    let mut brancher = brancher;
    let outcome = run_with(
        m,
        &mut brancher,
        &mut result,
        maximise,
        criterion,
        inst,
        &remaining,
        &mut emit,
        hint,
        &extra,
    );
    let (nodes, conflicts) = counters.get();
    result.nodes += nodes;
    result.conflicts += conflicts;
    finish(&mut result, outcome, start);
    result
}

/// Sets the status, bound and time of a result from the search outcome.
fn finish(result: &mut CpResult, outcome: Outcome, start: Instant) {
    result.status = match outcome {
        Outcome::Proven => {
            if result.partition.is_some() {
                result.lower_bound = result.objective;
                Status::Optimal
            } else {
                Status::Infeasible
            }
        }
        Outcome::Timeout(bound) => {
            result.lower_bound = bound;
            if result.partition.is_some() {
                Status::Feasible
            } else {
                Status::Unknown
            }
        }
    };
    result.elapsed_s = start.elapsed().as_secs_f64();
}

/// Maximum diameter by thresholds (see [`threshold`]).
fn solve_diameter(
    inst: &Instance,
    opts: &CpOptions,
    counters: &Counters,
    remaining: &dyn Fn(Instant) -> Duration,
    result: &mut CpResult,
    emit: &mut dyn FnMut(&mut CpResult, Partition, i64, bool),
) -> Outcome {
    let m = min_k_diameters(&DistMatrix::new(&inst.dist), &inst.k);
    let search = opts.search;
    let size_cap = opts.size_cap;
    let search = match std::env::var("OPTIK_THRESHOLD_SEARCH") {
        Ok(v) => v.parse().unwrap_or(search),
        Err(_) => search,
    };
    let mut cp = |recs: &[usize], d: i64, budget: Option<Duration>| -> threshold::Feasibility {
        // Hardest records (fewest compatible records) first: with value precedence, the
        // brancher then opens classes around them, as the greedy does.
        let mut recs = recs.to_vec();
        let deg = |a: usize| {
            recs.iter()
                .filter(|&&b| b != a && inst.dist[a][b] <= d)
                .count()
        };
        let mut keyed: Vec<(usize, usize)> = recs.iter().map(|&a| (deg(a), a)).collect();
        keyed.sort_unstable();
        recs = keyed.into_iter().map(|(_, a)| a).collect();
        let recs = &recs[..];
        let sub = sub_instance(inst, recs);
        let mut model = model::build(
            &sub,
            Criterion::Diameter,
            size_cap,
            None,
            clamp(d),
            None,
            &ClassConstraints::default(),
        );
        let mut brancher = make_brancher(&model, &sub, search, counters.clone());
        let mut resolver = resolver();
        let left = remaining(Instant::now());
        let mut term = TimeBudget::starting_now(budget.map_or(left, |b| b.min(left)));
        let res = match model.solver.satisfy_under_assumptions(
            &mut brancher,
            &mut term,
            &mut resolver,
            &[],
        ) {
            SatisfactionResultUnderAssumptions::Satisfiable(s) => {
                let labels: Vec<i32> = model
                    .g
                    .iter()
                    .map(|&x| s.solution().get_integer_value(x))
                    .collect();
                let p = Partition::from_labels(&labels);
                threshold::Feasibility::Feasible(
                    p.classes()
                        .into_iter()
                        .map(|c| c.into_iter().map(|a| recs[a]).collect())
                        .collect(),
                )
            }
            SatisfactionResultUnderAssumptions::UnsatisfiableUnderAssumptions(_)
            | SatisfactionResultUnderAssumptions::Unsatisfiable(_) => {
                threshold::Feasibility::Infeasible
            }
            SatisfactionResultUnderAssumptions::Unknown(_) => threshold::Feasibility::Unknown,
        };
        res
    };
    let incumbent = result.objective;
    let res_cell = std::cell::RefCell::new(result);
    let mut improve = |classes: Vec<Vec<usize>>| -> i64 {
        let p = Partition::from_classes(inst.n, &classes).expect("classes partition the records");
        debug_assert!(
            p.violations(&inst.k).is_empty(),
            "threshold partition is not k_i-anonymous"
        );
        let v = objective_of(inst, &p, Criterion::Diameter);
        let mut r = res_cell.borrow_mut();
        if r.objective.is_none_or(|b| v < b) {
            emit(&mut r, p, v, false);
        }
        v
    };
    let out_of_time = || remaining(Instant::now()).is_zero();
    let mut driver = threshold::Driver {
        inst,
        m: &m,
        cp: &mut cp,
        improve: &mut improve,
        incumbent,
        out_of_time: &out_of_time,
    };
    match driver.run() {
        threshold::Proof::Optimal => Outcome::Proven,
        threshold::Proof::Bound(b) => Outcome::Timeout(Some(b)),
    }
}

/// The instance restricted to `recs` (in that order).
fn sub_instance(inst: &Instance, recs: &[usize]) -> Instance {
    Instance {
        n: recs.len(),
        scale: inst.scale,
        k: recs.iter().map(|&r| inst.k[r]).collect(),
        dist: recs
            .iter()
            .map(|&a| recs.iter().map(|&b| inst.dist[a][b]).collect())
            .collect(),
    }
}

enum Outcome {
    /// No better solution exists (or none at all).
    Proven,
    /// Time limit; the root bound on the objective.
    Timeout(Option<i64>),
}

fn resolver() -> ResolutionResolver {
    if cfg!(feature = "check") {
        // Minimisation off: debug-checks asserts otherwise (see solver-stack notes).
        ResolutionResolver::new(AnalysisMode::OneUIP, false, false)
    } else {
        ResolutionResolver::default()
    }
}

/// The chosen brancher (static dispatch over the two shapes).
enum AnyBrancher {
    Cluster(Counting<ClusterBrancher>),
    Autonomous(Box<Counting<AutonomousSearch<ClusterBrancher>>>),
}

fn make_brancher(
    m: &model::Model,
    inst: &Instance,
    search: Search,
    counters: Counters,
) -> AnyBrancher {
    let mode = match search {
        Search::Create => BranchMode::Create,
        Search::Fill => BranchMode::Fill,
        Search::Switching | Search::Autonomous => BranchMode::Switching,
    };
    let cluster = ClusterBrancher::new(
        m.g.clone(),
        m.dist.clone(),
        inst.k.clone(),
        m.cmax,
        mode,
        Some(m.objective),
    );
    match search {
        Search::Autonomous => AnyBrancher::Autonomous(Box::new(Counting::new(
            AutonomousSearch::new(cluster),
            counters,
        ))),
        _ => AnyBrancher::Cluster(Counting::new(cluster, counters)),
    }
}

macro_rules! delegate {
    ($self:ident, $b:ident => $e:expr) => {
        match $self {
            AnyBrancher::Cluster($b) => $e,
            AnyBrancher::Autonomous($b) => $e,
        }
    };
}

impl std::fmt::Debug for AnyBrancher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        delegate!(self, b => b.fmt(f))
    }
}

optik_propagators::forward_brancher! {
    impl Brancher for AnyBrancher {
        to match AnyBrancher::Cluster, AnyBrancher::Autonomous;
    }
}

#[allow(clippy::too_many_arguments, reason = "internal driver")]
fn run_with(
    mut m: model::Model,
    brancher: &mut AnyBrancher,
    result: &mut CpResult,
    maximise: bool,
    criterion: Criterion,
    inst: &Instance,
    remaining: &dyn Fn(Instant) -> Duration,
    emit: &mut dyn FnMut(&mut CpResult, Partition, i64, bool),
    hint: Option<Vec<i32>>,
    extra: &ClassConstraints,
) -> Outcome {
    let mut resolver = resolver();
    let obj = m.objective;
    if let Some(labels) = hint {
        // Value hints: solving once under the warm start's assignment hands it to the brancher
        // as a solution, so the autonomous search's solution-guided phase starts from it.
        let assumptions: Vec<Predicate> =
            m.g.iter()
                .zip(&labels)
                .map(|(&x, &v)| x.equality_predicate(v))
                .collect();
        let mut term = TimeBudget::starting_now(remaining(Instant::now()));
        let _ =
            m.solver
                .satisfy_under_assumptions(brancher, &mut term, &mut resolver, &assumptions);
    }
    loop {
        let assumption: Vec<Predicate> = match result.objective {
            None => vec![],
            Some(v) if maximise => vec![obj.lower_bound_predicate(clamp(v + 1))],
            Some(v) => vec![obj.upper_bound_predicate(clamp(v - 1))],
        };
        if result.objective.is_some_and(|v| {
            if maximise {
                v >= i32::MAX as i64
            } else {
                v <= 0
            }
        }) {
            return Outcome::Proven;
        }
        let mut term = TimeBudget::starting_now(remaining(Instant::now()));
        let found = match m.solver.satisfy_under_assumptions(
            brancher,
            &mut term,
            &mut resolver,
            &assumption,
        ) {
            SatisfactionResultUnderAssumptions::Satisfiable(s) => {
                let labels: Vec<i32> =
                    m.g.iter()
                        .map(|&x| s.solution().get_integer_value(x))
                        .collect();
                let reported = s.solution().get_integer_value(obj) as i64;
                Some((labels, reported))
            }
            SatisfactionResultUnderAssumptions::UnsatisfiableUnderAssumptions(_)
            | SatisfactionResultUnderAssumptions::Unsatisfiable(_) => return Outcome::Proven,
            SatisfactionResultUnderAssumptions::Unknown(_) => None,
        };
        match found {
            Some((labels, reported)) => {
                let p = Partition::from_labels(&labels);
                let v = objective_of(inst, &p, criterion);
                debug_assert_eq!(
                    v, reported,
                    "objective variable disagrees with the partition"
                );
                debug_assert!(
                    p.violations(&inst.k).is_empty(),
                    "CP solution is not k_i-anonymous"
                );
                debug_assert!(
                    extra.partition_ok(p.labels()),
                    "CP solution breaks the class constraints"
                );
                let improves = result
                    .objective
                    .is_none_or(|b| if maximise { v > b } else { v < b });
                if !improves {
                    // Cannot happen with correct propagators; stop rather than loop.
                    return Outcome::Timeout(None);
                }
                emit(result, p, v, false);
            }
            None => {
                let bound = if maximise {
                    m.solver.upper_bound(&obj) as i64
                } else {
                    m.solver.lower_bound(&obj) as i64
                };
                return Outcome::Timeout(Some(bound));
            }
        }
    }
}

fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}
