//! The CP engine: the k_i-anonymity model of seed 001 §6.3.2 on pumpkin 0.5.0 with the custom
//! propagators and branchers of `optik-propagators`, solved by linear SAT-UNSAT search from an
//! optional warm start. Never reports `Optimal` unless the solver proved it.

pub mod explain;
mod model;
mod node_lp;
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

use crate::criteria::objective_of;
use crate::engine::{EngineError, EngineResult, SolutionCallback, SolutionEvent, Status};
use crate::invalid_input::InvalidInput;
use crate::root_lp::RootLp;
use crate::{ClassConstraints, Criterion, Instance, Partition};
use model::ModelSpec;
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
    type Err = InvalidInput;
    fn from_str(s: &str) -> Result<Self, InvalidInput> {
        Search::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                InvalidInput(format!(
                    "unknown search '{s}' (expected switching, create, fill or autonomous)"
                ))
            })
    }
}

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
    /// dbil and wcsd with `lp_bound`, without extra constraints: keep the root LP's master and
    /// re-solve it at the search's nodes (the fixed records' classes as the pair decisions of
    /// a branch-and-price node), raising the objective's bound there (`node_lp` propagator,
    /// `colgen::NodeLps`). Off by default.
    pub node_lp: bool,
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
            node_lp: false,
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
            .field("node_lp", &self.node_lp)
            .field("constraints", &!self.constraints.is_empty())
            .finish_non_exhaustive()
    }
}

/// Time left before `deadline` (a century without one).
fn time_left(deadline: Option<Instant>) -> Duration {
    crate::stop::left(deadline).unwrap_or(Duration::from_secs(100 * 365 * 24 * 3600))
}

/// One run of [`solve_cp`]: the instance and criterion, the clock, the result so far and the
/// callback told of every improving solution.
struct CpRun<'a> {
    inst: &'a Instance,
    criterion: Criterion,
    start: Instant,
    deadline: Option<Instant>,
    result: EngineResult,
    on_solution: Option<SolutionCallback>,
    /// The node LPs, told of every incumbent.
    node_lps: Option<node_lp::NodeLpHook>,
}

impl CpRun<'_> {
    /// Records an improving solution: tells the callback, extends the timeline and makes it the
    /// incumbent.
    fn emit(&mut self, p: Partition, v: i64, warm_start: bool) {
        let event = SolutionEvent {
            elapsed_s: self.start.elapsed().as_secs_f64(),
            objective: v,
            num_classes: p.num_classes(),
            dbil: objective_of(self.inst, &p, Criterion::Dbil),
            warm_start,
            neighbourhood: None,
        };
        if let Some(cb) = self.on_solution.as_mut() {
            cb(&event);
        }
        if let Some(hook) = &self.node_lps {
            hook.bound.incumbent(&p, v);
        }
        self.result.timeline.push(event);
        self.result.partition = Some(p);
        self.result.objective = Some(v);
    }

    /// Adds the nodes and conflicts counted so far.
    fn count(&mut self, counters: &Counters) {
        let (nodes, conflicts) = counters.get();
        self.result.stats.nodes += nodes;
        self.result.stats.conflicts += conflicts;
        if let Some(hook) = &self.node_lps {
            let stats = hook.stats.lock().expect("node-LP stats");
            self.result.stats.node_lps = stats.solved;
            self.result.stats.node_lp_s = Some(stats.seconds);
        }
    }

    /// The result, its status, bound and time set from the search outcome.
    fn finish(mut self, outcome: Outcome) -> EngineResult {
        let result = &mut self.result;
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
        result.elapsed_s = self.start.elapsed().as_secs_f64();
        self.result
    }
}

/// Solves the instance to proven optimality (or until the time limit). Malformed class
/// constraints are an error, as is an objective beyond pumpkin's i32 domains without a warm
/// start (with one, the warm start is returned with a note).
pub fn solve_cp(inst: &Instance, mut opts: CpOptions) -> Result<EngineResult, EngineError> {
    let start = Instant::now();
    let criterion = opts.criterion;
    if !crate::Engine::Cp.optimises(criterion) {
        return Err(EngineError::UnsupportedCriterion {
            engine: crate::Engine::Cp,
            criterion,
        });
    }
    let mut result = EngineResult::empty();
    if inst.n == 0 {
        result.status = Status::Infeasible;
        return Ok(result);
    }
    let extra = std::mem::take(&mut opts.constraints);
    extra.validate(inst.n)?;
    if let Some(why) = extra.obvious_infeasibility(&inst.k) {
        result.status = Status::Infeasible;
        result.note = Some(why);
        result.elapsed_s = start.elapsed().as_secs_f64();
        return Ok(result);
    }
    // The warm start must be a k_i-anonymous partition of these records meeting the constraints.
    let warm = opts.warm_start.take().filter(|p| {
        p.len() == inst.n && p.violations(&inst.k).is_empty() && extra.partition_ok(p.labels())
    });
    let obj_ub = model::objective_upper_bound(inst, criterion);
    if obj_ub > i32::MAX as i64 {
        let error = EngineError::ObjectiveOutOfRange { bound: obj_ub };
        let Some(p) = warm else {
            return Err(error);
        };
        result.note = Some(error.to_string());
        result.objective = Some(objective_of(inst, &p, criterion));
        result.partition = Some(p);
        result.status = Status::Feasible;
        result.elapsed_s = start.elapsed().as_secs_f64();
        return Ok(result);
    }
    let mut run = CpRun {
        inst,
        criterion,
        start,
        deadline: opts.time_limit.map(|t| start + t),
        result,
        on_solution: opts.on_solution.take(),
        node_lps: None,
    };
    let spec = ModelSpec {
        criterion,
        size_cap: opts.size_cap,
        min_classes: None,
        obj_ub: obj_ub as i32,
        dual: None,
        node_lp: None,
        extra: &extra,
    };

    // Split: the minimum number of classes.
    let mut min_classes = None;
    if criterion == Criterion::Split {
        min_classes = match (opts.split_min_classes, &warm) {
            (Some(c), _) => Some(c),
            (None, Some(p)) => Some(p.num_classes()),
            // The seed's rule: the number of classes of the first solution found.
            (None, None) => {
                let counters = Counters::default();
                let first = first_solution_classes(
                    inst,
                    &spec,
                    opts.search,
                    &counters,
                    time_left(run.deadline),
                );
                run.count(&counters);
                first
            }
        };
        run.result.min_classes = min_classes;
    }
    let warm = warm.filter(|p| min_classes.is_none_or(|c| p.num_classes() >= c));

    let counters = Counters::default();
    if let Some(p) = warm {
        let v = objective_of(inst, &p, criterion);
        run.emit(p, v, true);
    }

    // The threshold method decomposes by components and uses a greedy that knows nothing of the
    // extra constraints: under constraints, diameter is solved by the plain objective search.
    if criterion == Criterion::Diameter && extra.is_empty() {
        let outcome = solve_diameter(&mut run, &opts, &counters);
        run.count(&counters);
        return Ok(run.finish(outcome));
    }

    let root = root_lp_start(&mut run, &opts, &extra);
    let hook = run.node_lps.clone();
    let m = model::build(
        inst,
        &ModelSpec {
            min_classes,
            dual: root.as_ref(),
            node_lp: hook.as_ref(),
            ..spec
        },
    );
    let hint: Option<Vec<i32>> = if opts.hints {
        run.result
            .partition
            .as_ref()
            .map(|p| p.labels().iter().map(|&c| c as i32 + 1).collect())
    } else {
        None
    };
    let mut brancher = make_brancher(&m, inst, opts.search, counters.clone());
    let outcome = run_with(m, &mut brancher, &mut run, hint, &extra);
    run.count(&counters);
    Ok(run.finish(outcome))
}

/// dbil and wcsd with `lp_bound`: the root LP, in at most half of the time left (it takes well
/// under a second at n ≤ 100), and with `lp_primal` its LP-rounded partition as incumbent when
/// it is better. Solved without the extra constraints: a relaxation, so its dual bound stays
/// valid.
fn root_lp_start(run: &mut CpRun, opts: &CpOptions, extra: &ClassConstraints) -> Option<RootLp> {
    let (inst, criterion) = (run.inst, run.criterion);
    if !(opts.lp_bound && matches!(criterion, Criterion::Dbil | Criterion::Wcsd)) {
        return None;
    }
    let t = Instant::now();
    let colgen = crate::ColgenOptions {
        criterion,
        time_limit: opts.time_limit.map(|_| time_left(run.deadline) / 2),
        warm_start: run.result.partition.iter().cloned().collect(),
        ..crate::ColgenOptions::default()
    };
    // The node LPs bound partitions of unsplittable classes, which the size cap admits; under
    // extra constraints the cap may be off (and the LP ignores the constraints): root only.
    let lp = if opts.node_lp && opts.size_cap && extra.is_empty() {
        crate::colgen::root_lp_with_nodes(inst, colgen).map(|(lp, mut nodes)| {
            nodes.set_deadline(run.deadline);
            run.node_lps = Some(node_lp::NodeLpHook::new(inst, nodes));
            lp
        })
    } else {
        crate::colgen::root_lp(inst, colgen)
    };
    run.result.stats.lp_time_s = t.elapsed().as_secs_f64();
    run.result.stats.lp_bound_cuts = lp.as_ref().map(|l| l.z);
    if opts.lp_primal {
        if let Some((p, v)) = lp.as_ref().and_then(|l| l.primal.clone()) {
            if run.result.objective.is_none_or(|b| v < b)
                && p.violations(&inst.k).is_empty()
                && extra.partition_ok(p.labels())
            {
                debug_assert_eq!(v, objective_of(inst, &p, criterion));
                run.emit(p, v, false);
            }
        }
    }
    lp
}

/// Split without a given minimum: the number of classes of the first solution found (the
/// seed's rule), or `None` when none is found within `budget`.
fn first_solution_classes(
    inst: &Instance,
    spec: &ModelSpec,
    search: Search,
    counters: &Counters,
    budget: Duration,
) -> Option<usize> {
    let mut m = model::build(
        inst,
        &ModelSpec {
            size_cap: false,
            min_classes: None,
            dual: None,
            ..*spec
        },
    );
    let mut brancher = make_brancher(&m, inst, search, counters.clone());
    let mut resolver = resolver();
    let mut term = crate::stop::Budget(TimeBudget::starting_now(budget));
    let g = m.g.clone();
    let first =
        match m
            .solver
            .satisfy_under_assumptions(&mut brancher, &mut term, &mut resolver, &[])
        {
            SatisfactionResultUnderAssumptions::Satisfiable(s) => {
                let labels: Vec<i32> = g
                    .iter()
                    .map(|&x| s.solution().get_integer_value(x))
                    .collect();
                Some(Partition::from_labels(&labels).num_classes())
            }
            _ => None,
        };
    first
}

/// Maximum diameter by thresholds (see [`threshold`]).
fn solve_diameter(run: &mut CpRun, opts: &CpOptions, counters: &Counters) -> Outcome {
    let inst = run.inst;
    let deadline = run.deadline;
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
            &ModelSpec {
                criterion: Criterion::Diameter,
                size_cap,
                min_classes: None,
                obj_ub: clamp(d),
                dual: None,
                node_lp: None,
                extra: &ClassConstraints::default(),
            },
        );
        let mut brancher = make_brancher(&model, &sub, search, counters.clone());
        let mut resolver = resolver();
        let left = time_left(deadline);
        let mut term = crate::stop::Budget(TimeBudget::starting_now(
            budget.map_or(left, |b| b.min(left)),
        ));
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
    let incumbent = run.result.objective;
    let mut improve = |classes: Vec<Vec<usize>>| -> i64 {
        let p = Partition::from_classes(inst.n, &classes).expect("classes partition the records");
        debug_assert!(
            p.violations(&inst.k).is_empty(),
            "threshold partition is not k_i-anonymous"
        );
        let v = objective_of(inst, &p, Criterion::Diameter);
        if run.result.objective.is_none_or(|b| v < b) {
            run.emit(p, v, false);
        }
        v
    };
    let out_of_time = || time_left(deadline).is_zero();
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

/// The conflict resolver of every CP search here: 1UIP with minimisation, which pumpkin's
/// debug checks (the `check` feature) need turned off.
pub(crate) fn resolver() -> ResolutionResolver {
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

/// The linear SAT-UNSAT search: solve, then solve again under "objective better than the
/// incumbent" until unsatisfiable (proven) or out of time. `hint` is the incumbent's labelling,
/// handed to the brancher first.
fn run_with(
    mut m: model::Model,
    brancher: &mut AnyBrancher,
    run: &mut CpRun,
    hint: Option<Vec<i32>>,
    extra: &ClassConstraints,
) -> Outcome {
    let (inst, criterion) = (run.inst, run.criterion);
    let maximise = criterion.maximise();
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
        let mut term = crate::stop::Budget(TimeBudget::starting_now(time_left(run.deadline)));
        let pause = |on: bool| {
            if let Some(hook) = &run.node_lps {
                hook.paused.store(on, std::sync::atomic::Ordering::Relaxed);
            }
        };
        pause(true);
        let _ =
            m.solver
                .satisfy_under_assumptions(brancher, &mut term, &mut resolver, &assumptions);
        pause(false);
    }
    loop {
        let incumbent = run.result.objective;
        let assumption: Vec<Predicate> = match incumbent {
            None => vec![],
            Some(v) if maximise => vec![obj.lower_bound_predicate(clamp(v + 1))],
            Some(v) => vec![obj.upper_bound_predicate(clamp(v - 1))],
        };
        if incumbent.is_some_and(|v| {
            if maximise {
                v >= i32::MAX as i64
            } else {
                v <= 0
            }
        }) {
            return Outcome::Proven;
        }
        let mut term = crate::stop::Budget(TimeBudget::starting_now(time_left(run.deadline)));
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
                let improves = incumbent.is_none_or(|b| if maximise { v > b } else { v < b });
                if !improves {
                    // Cannot happen with correct propagators; stop rather than loop.
                    return Outcome::Timeout(None);
                }
                run.emit(p, v, false);
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
