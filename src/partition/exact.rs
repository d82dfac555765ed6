//! The exact side of a partitioning: build the integer instance, warm-start from the
//! heuristics, run `optik_models::solve`, log its improving solutions, and translate its result
//! into distance units and its errors into optik's one-line messages.

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::error::{input, internal, Error, Result};
use crate::partition::heuristics::{self, Form, Heuristic, HeuristicOptions, KMemberCost};
use crate::partition::large::{solve_large, LargeOptions, DEFAULT_LNS_TIME_LIMIT};
use crate::settings::Setting;
use optik_models::cp::Search;
use optik_models::lns::{constrained_start, SumCriterion};
pub use optik_models::Engine;
use optik_models::{
    BoundCallback, BoundEvent, ClassConstraints, Criterion, EngineError, Instance, Partition,
    SolutionCallback, SolutionEvent, SolveOptions, SolveOutcome, WarmStart,
};
use serde::Serialize;
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Largest table the exact engines accept (they hold an n × n integer matrix).
pub const MAX_EXACT_RECORDS: usize = 5_000;

/// Above this many records `auto` runs the large-neighbourhood search (dbil and wcsd): the
/// exact engines' n × n matrix ends there. Up to it column generation with the companion
/// search gives a bound at least as strong and, in three of the four cells measured, the better
/// release (Adult, first 5,000 records, personal k_i, 300 s: 2,794.3 / bound 2,731.8 against
/// the search's 2,986.1 / 1,650.4; docs/large.md, "Where `auto` switches").
const AUTO_LNS_RECORDS: usize = MAX_EXACT_RECORDS;

/// Under l-diversity (l ≥ 2) `auto` runs the search above this many records: from about 400
/// records column generation's LP does not converge within a minute there, so its bound is
/// the search's (the per-record one), and its release was 12–17% worse (Adult, k = 5, l = 2,
/// 400 to 2,000 records, 60 s); up to 300 it proves or bounds better (docs/large.md, "Where
/// `auto` switches").
const AUTO_LNS_DIVERSE_RECORDS: usize = 300;

/// Above this many records `auto` gives column generation a default time limit
/// ([`DEFAULT_LNS_TIME_LIMIT`], recorded in the report) when none was asked for: below it most
/// runs prove within a minute, above it a proof is rare and a run without a limit
/// could go on for hours.
const AUTO_DEFAULT_LIMIT_RECORDS: usize = 1_000;

/// Options of an exact run.
#[derive(Clone, Debug)]
pub struct ExactOptions {
    pub engine: Engine,
    pub criterion: Criterion,
    pub time_limit: Option<Duration>,
    pub size_cap: bool,
    /// CP, dbil/wcsd: post the set-partitioning LP's dual bound.
    pub lp_bound: bool,
    /// CP with `lp_bound`: start from the LP-rounded partition when it is better.
    pub lp_primal: bool,
    /// CP with `lp_bound`: re-solve the LP at the search's nodes.
    pub node_lp: bool,
    pub search: Search,
    pub scale: f64,
    pub seed: u64,
    pub quiet: bool,
}

/// One improving solution, in distance units.
#[derive(Clone, Debug, Serialize)]
pub struct TimelineEntry {
    pub elapsed_s: f64,
    /// Criterion value of the solution (integer instance, in distance units).
    pub objective: f64,
    pub classes: usize,
    /// DBIL of the solution (integer instance, in distance units), whatever the criterion.
    pub dbil: f64,
    /// True for the heuristic warm start.
    pub warm_start: bool,
    /// Large-neighbourhood search: records of the neighbourhood whose re-optimisation made
    /// this solution (a move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub neighbourhood: Option<usize>,
}

/// What an exact run produced.
#[derive(Clone, Debug, Serialize)]
pub struct ExactOutcome {
    #[serde(skip)]
    pub partition: Partition,
    /// `optimal`, `feasible`, `infeasible` or `unknown`.
    pub status: String,
    /// Objective of the returned partition on the integer instance, in distance units.
    pub objective: f64,
    /// Proven bound (lower for minimised criteria, upper for split), in distance units.
    pub lower_bound: Option<f64>,
    /// Relative gap |objective − bound| / |objective| (0 when proven).
    pub gap: Option<f64>,
    pub engine: String,
    pub scale: f64,
    /// Heuristic used as warm start and its objective.
    pub warm_start: String,
    pub warm_start_objective: f64,
    pub timeline: Vec<TimelineEntry>,
    pub nodes: u64,
    pub conflicts: u64,
    /// Engine counters (columns, cuts, pricing rounds, LP and MIP times, nodes, conflicts).
    pub stats: optik_models::EngineStats,
    /// Why the engine stopped early, if it says.
    pub note: Option<String>,
    /// The time limit `auto` applied, in seconds, when none was given on a table above 1,000
    /// records (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_time_limit_s: Option<f64>,
    pub search: String,
    pub size_cap: bool,
    /// Large-neighbourhood search runs only: its limits, starts and counters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lns: Option<LnsReport>,
    /// wcsd: the engine's objective before the local search improved its partition (absent
    /// when it did not; see `polish`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polished_from: Option<f64>,
    /// The three heuristics run for the warm start, each on the integer instance (the report's
    /// comparison reuses them).
    #[serde(skip)]
    pub heuristics: Vec<HeuristicRun>,
}

/// One heuristic run for the warm start: its partition as the engine could use it and its
/// value on the integer instance.
#[derive(Clone, Debug)]
pub struct HeuristicRun {
    pub method: Heuristic,
    /// Criterion value on the integer instance, in distance units (of the repaired partition
    /// when `repaired`).
    pub objective: f64,
    pub classes: usize,
    /// Classes were merged so that the partition meets the class constraints.
    pub repaired: bool,
    /// The partition (repaired or not) meets the class constraints.
    pub meets_constraints: bool,
}

/// What a large-neighbourhood search run reports beside the engine's fields.
#[derive(Clone, Debug, Serialize)]
pub struct LnsReport {
    /// The run's time limit in seconds (heuristic starts included).
    pub time_limit_s: f64,
    /// True when no time limit was given and the default applied.
    pub default_time_limit: bool,
    /// Why `auto` chose the search (`records above 5000`), or `engine lns`.
    pub chosen_by: String,
    /// Every heuristic tried as a start: objective (distance units) and seconds.
    pub starts: Vec<LnsStart>,
    /// The per-record lower bound (distance units).
    pub per_record_bound: f64,
    /// The search's counters (neighbourhoods, moves, proven, timed out, why it stopped).
    pub search: optik_models::lns::LnsSummary,
}

/// One heuristic start of a large-neighbourhood search.
#[derive(Clone, Debug, Serialize)]
pub struct LnsStart {
    pub method: String,
    pub objective: f64,
    pub seconds: f64,
}

/// Share of the time limit wcsd's local search may take on the heuristics' partitions
/// before the engine starts (its nearest-record lists are quadratic in n: the whole search
/// took 1.5 s on 5,000 Adult records).
const LOCAL_SEARCH_SHARE: f64 = 0.05;

/// The heuristics tried for the warm start (all k_i forms; greedy k-member with eq. 5.5).
fn warm_starts(seed: u64) -> [HeuristicOptions; 3] {
    let h = |method| HeuristicOptions {
        method,
        form: Form::Ki,
        cost: KMemberCost::Personalised,
        seed,
    };
    [
        h(Heuristic::Mdav),
        h(Heuristic::KMember),
        h(Heuristic::Mondrian),
    ]
}

/// Solves a dataset exactly with the chosen engine, warm-started by the best heuristic.
pub fn solve(ds: &Dataset, dist: &RecordDistance, opts: &ExactOptions) -> Result<ExactOutcome> {
    solve_with(ds, dist, opts, &ClassConstraints::default())
}

/// [`solve`] under extra class constraints (l-diversity, links, maximum size): only heuristic
/// partitions that meet them are warm starts; an infeasible combination is a one-line error
/// saying why.
pub(crate) fn solve_with(
    ds: &Dataset,
    dist: &RecordDistance,
    opts: &ExactOptions,
    extra: &ClassConstraints,
) -> Result<ExactOutcome> {
    if let Some(chosen_by) = lns_choice(ds.n(), opts, extra) {
        return solve_lns(ds, dist, opts, extra, chosen_by);
    }
    let default_limit = (opts.engine == Engine::Auto
        && opts.time_limit.is_none()
        && ds.n() > AUTO_DEFAULT_LIMIT_RECORDS)
        .then_some(DEFAULT_LNS_TIME_LIMIT);
    let limited;
    let opts = match default_limit {
        Some(limit) => {
            limited = ExactOptions {
                time_limit: Some(limit),
                ..opts.clone()
            };
            &limited
        }
        None => opts,
    };
    let inst = exact_instance(ds, dist, opts)?;
    let engine = optik_models::select_engine(&inst, opts.engine, opts.criterion, extra)
        .map_err(|e| engine_error(e, opts.engine, extra))?;
    let local_deadline = opts
        .time_limit
        .map(|l| Instant::now() + l.mul_f64(LOCAL_SEARCH_SHARE));
    // wcsd's local search: each record's nearest records, once for every start and the
    // engine's partition (`OPTIK_WCSD_LOCAL=0` leaves the partitions as they are: an ablation
    // knob).
    let local = std::env::var("OPTIK_WCSD_LOCAL").as_deref() != Ok("0");
    let wcsd_nearest = (opts.criterion == Criterion::Wcsd && local)
        .then(|| heuristics::wcsd_local::nearest(|a, b| inst.d(a, b), inst.n, local_deadline))
        .flatten();
    let runs = heuristic_starts(
        ds,
        &inst,
        dist,
        extra,
        opts,
        wcsd_nearest.as_deref(),
        local_deadline,
    );
    let heuristics: Vec<HeuristicRun> = runs
        .iter()
        .map(|r| HeuristicRun {
            method: r.method,
            objective: inst.to_units(optik_models::criteria::objective_of(
                &inst,
                &r.compared,
                opts.criterion,
            )),
            classes: r.compared.num_classes(),
            repaired: r.repaired,
            meets_constraints: r.meets_constraints,
        })
        .collect();
    let (names, partitions): (Vec<String>, Vec<Partition>) = runs
        .into_iter()
        .filter(|r| r.meets_constraints)
        .map(|r| (r.name, r.start))
        .unzip();
    let (on_solution, on_bound) = progress_log(opts);
    // The engine's partition passes wcsd's local search once more: the time for it is kept
    // back from the engine's limit (`OPTIK_WCSD_POLISH=0` skips it: an ablation knob).
    let polishing =
        wcsd_nearest.is_some() && std::env::var("OPTIK_WCSD_POLISH").as_deref() != Ok("0");
    let polish_reserve = opts
        .time_limit
        .filter(|_| polishing)
        .map(|l| l.mul_f64(POLISH_SHARE));
    let solved = optik_models::solve(
        &inst,
        engine,
        SolveOptions {
            criterion: opts.criterion,
            time_limit: opts
                .time_limit
                .map(|l| l - polish_reserve.unwrap_or_default()),
            size_cap: opts.size_cap,
            search: opts.search,
            lp_bound: opts.lp_bound,
            lp_primal: opts.lp_primal,
            node_lp: opts.node_lp,
            constraints: extra.clone(),
            warm_starts: partitions,
            on_solution,
            on_bound,
        },
    )
    .map_err(|e| engine_error(e, engine, extra))?;
    let mut solved = solved;
    let polished_from = wcsd_nearest
        .as_deref()
        .filter(|_| polishing)
        .and_then(|near| {
            let deadline = polish_reserve.map(|r| Instant::now() + r);
            polish(&inst, &ds.k, extra, near, &mut solved.result, deadline)
        });
    let mut out = outcome(inst.scale, opts, solved, &names, heuristics)?;
    out.polished_from = polished_from.map(|v| inst.to_units(v));
    out.default_time_limit_s = default_limit.map(|d| d.as_secs_f64());
    Ok(out)
}

/// Share of the time limit kept back from the engine for wcsd's local search on its
/// partition ([`polish`]).
const POLISH_SHARE: f64 = 0.01;

/// wcsd: the engine's partition, unless proven optimal, passes the local search of the warm
/// starts once more (moves and swaps toward near records' classes, splits) until `deadline`.
/// The companion and the stall steps leave such gains (docs/exact.md, "wcsd: the engine's
/// partition polished"). A gain replaces the result's partition and objective and adds a
/// timeline event; the bound stays, and a polished objective equal to it is proven. Returns
/// the objective before the gain, if any. Nothing changes when the local search breaks a
/// class constraint the partition met.
fn polish(
    inst: &Instance,
    k: &[u32],
    extra: &ClassConstraints,
    nearest: &[Vec<usize>],
    result: &mut optik_models::EngineResult,
    deadline: Option<Instant>,
) -> Option<i64> {
    if result.status == optik_models::Status::Optimal {
        return None;
    }
    let started = Instant::now();
    let (p, before) = (result.partition.as_ref()?, result.objective?);
    let better = heuristics::wcsd_local::improve(|a, b| inst.d(a, b), k, p, nearest, deadline);
    if !extra.partition_ok(better.labels()) {
        return None;
    }
    let after = optik_models::criteria::objective_of(inst, &better, Criterion::Wcsd);
    if after >= before {
        return None;
    }
    let all = optik_models::criteria::evaluate(&better, |a, b| inst.d(a, b));
    result.timeline.push(SolutionEvent {
        elapsed_s: result.elapsed_s + started.elapsed().as_secs_f64(),
        objective: after,
        num_classes: better.num_classes(),
        dbil: all.get(Criterion::Dbil),
        warm_start: false,
        neighbourhood: None,
    });
    if result.lower_bound.is_some_and(|lb| lb >= after) {
        result.status = optik_models::Status::Optimal;
    }
    result.partition = Some(better);
    result.objective = Some(after);
    Some(before)
}

/// Why the large-neighbourhood search runs instead of an exact engine, or `None`: asked for
/// (engine lns), or `auto` on a sum criterion above [`AUTO_LNS_RECORDS`] records, or above
/// [`AUTO_LNS_DIVERSE_RECORDS`] under l-diversity.
fn lns_choice(n: usize, opts: &ExactOptions, extra: &ClassConstraints) -> Option<String> {
    let sum = matches!(opts.criterion, Criterion::Dbil | Criterion::Wcsd);
    let diverse = extra.l() >= 2;
    match opts.engine {
        Engine::Lns => Some(format!("{} lns", Setting::Engine)),
        Engine::Auto if sum && n > AUTO_LNS_RECORDS => {
            Some(format!("{} records, above {AUTO_LNS_RECORDS}", n))
        }
        Engine::Auto if sum && diverse && n > AUTO_LNS_DIVERSE_RECORDS => Some(format!(
            "{n} records under l-diversity, above {AUTO_LNS_DIVERSE_RECORDS}"
        )),
        _ => None,
    }
}

/// The large-neighbourhood search from the best heuristic, under the time limit (the default
/// one when none was given), with distances on the fly.
fn solve_lns(
    ds: &Dataset,
    dist: &RecordDistance,
    opts: &ExactOptions,
    extra: &ClassConstraints,
    chosen_by: String,
) -> Result<ExactOutcome> {
    check_scale(opts)?;
    extra
        .validate(ds.n())
        .map_err(|e| engine_error(e.into(), Engine::Lns, extra))?;
    if let Some(why) = extra.obvious_infeasibility(&ds.k) {
        return Err(engine_error(
            EngineError::Infeasible(why),
            Engine::Lns,
            extra,
        ));
    }
    let time_limit = opts.time_limit.unwrap_or(DEFAULT_LNS_TIME_LIMIT);
    let run = solve_large(
        ds,
        dist,
        &LargeOptions {
            criterion: opts.criterion,
            scale: opts.scale,
            time_limit,
            seed: opts.seed,
            quiet: opts.quiet,
            lower_bound: None,
            constraints: extra.clone(),
        },
    )
    .map_err(|e| engine_error(e, Engine::Lns, extra))?;
    let start_objective = run
        .starts
        .iter()
        .find(|s| s.method.name() == run.start)
        .map_or(0, |s| s.objective);
    let lns = LnsReport {
        time_limit_s: time_limit.as_secs_f64(),
        default_time_limit: opts.time_limit.is_none(),
        chosen_by,
        starts: run
            .starts
            .iter()
            .map(|s| LnsStart {
                method: s.method.name().to_string(),
                objective: s.objective as f64 / opts.scale,
                seconds: s.seconds,
            })
            .collect(),
        per_record_bound: run
            .result
            .stats
            .lns
            .as_ref()
            .map_or(0.0, |s| s.per_record_bound as f64 / opts.scale),
        search: run.result.stats.lns.clone().unwrap_or_default(),
    };
    let solved = SolveOutcome {
        engine: Engine::Lns,
        warm_start: Some(WarmStart::Given {
            index: 0,
            objective: start_objective,
        }),
        result: run.result,
    };
    // The heuristics it started from are the report's comparison (repaired to meet the class
    // constraints where that was needed and possible).
    let heuristics = run
        .starts
        .iter()
        .map(|s| HeuristicRun {
            method: s.method,
            objective: s.objective as f64 / opts.scale,
            classes: s.classes,
            repaired: s.repaired,
            meets_constraints: s.meets_constraints,
        })
        .collect();
    let mut out = outcome(opts.scale, opts, solved, &[run.start], heuristics)?;
    out.lns = Some(lns);
    out.default_time_limit_s = opts
        .time_limit
        .is_none()
        .then_some(time_limit.as_secs_f64());
    Ok(out)
}

/// The integer instance of the table (distances × the scale, rounded), within the exact
/// engines' size limit.
fn exact_instance(ds: &Dataset, dist: &RecordDistance, opts: &ExactOptions) -> Result<Instance> {
    check_scale(opts)?;
    if ds.n() > MAX_EXACT_RECORDS {
        return Err(input(format!(
            "{} {} holds an n × n matrix and accepts at most {MAX_EXACT_RECORDS} records; this table has {} (the large-neighbourhood search, {} lns, takes any size for dbil and wcsd)",
            Setting::Engine,
            opts.engine.resolve(opts.criterion).name(),
            ds.n(),
            Setting::Engine
        )));
    }
    ds.exact_instance(dist, opts.criterion, opts.scale)
        .map_err(input)
}

/// The integer scale must be a positive number.
fn check_scale(opts: &ExactOptions) -> Result<()> {
    if !(opts.scale.is_finite() && opts.scale > 0.0) {
        return Err(input(format!(
            "{} must be positive, got {}",
            Setting::Scale,
            opts.scale
        )));
    }
    Ok(())
}

/// One heuristic run for the warm starts: the partition it gives the engine (improved by the
/// SSE local search for sse, repaired to meet the class constraints where
/// [`constrained_start`] finds a way) and the heuristic's own partition the report compares with.
struct HeuristicStart {
    method: Heuristic,
    /// The method's name, `<method>+ls` after the SSE local search.
    name: String,
    start: Partition,
    compared: Partition,
    repaired: bool,
    meets_constraints: bool,
}

/// Every heuristic's partition, in the order of [`warm_starts`] (for sse, microaggregation's
/// MDAV too, and every start first improved by the SSE local search); those meeting the class
/// constraints are the warm starts.
fn heuristic_starts(
    ds: &Dataset,
    inst: &Instance,
    dist: &RecordDistance,
    extra: &ClassConstraints,
    opts: &ExactOptions,
    wcsd_nearest: Option<&[Vec<usize>]>,
    local_deadline: Option<Instant>,
) -> Vec<HeuristicStart> {
    let hidden = indicatif::ProgressBar::hidden();
    let mut starts = Vec::new();
    let (seed, criterion) = (opts.seed, opts.criterion);
    let sse = if criterion == Criterion::Sse {
        ds.standardised().ok()
    } else {
        None
    };
    let mut methods = warm_starts(seed).to_vec();
    if sse.is_some() {
        methods.push(HeuristicOptions {
            method: Heuristic::MdavSse,
            ..methods[0]
        });
    }
    for h in methods {
        let p = heuristics::run(&h, &ds.qi, dist, &ds.k, &hidden);
        let raw = p.clone();
        let (p, name) = match (&sse, wcsd_nearest) {
            (Some(z), _) => (
                heuristics::sse_local::improve(z, &ds.k, &p),
                format!("{}+ls", h.method.name()),
            ),
            (None, Some(near)) => (
                heuristics::wcsd_local::improve(
                    |a, b| inst.d(a, b),
                    &ds.k,
                    &p,
                    near,
                    local_deadline,
                ),
                format!("{}+ls", h.method.name()),
            ),
            (None, None) => (p, h.method.name().to_string()),
        };
        // The local searches know nothing of the extra constraints either: a move can grow a
        // class past the maximum class size or break l-diversity or a link the heuristic met.
        let (p, name) = if extra.partition_ok(p.labels()) || !extra.partition_ok(raw.labels()) {
            (p, name)
        } else {
            (raw.clone(), h.method.name().to_string())
        };
        // The heuristics know nothing of the extra constraints: use only those meeting them,
        // after a repair where one is found (costed by the criterion, dbil for the others).
        let (start, repaired, meets_constraints) = if extra.partition_ok(p.labels()) {
            (p, false, true)
        } else {
            let by = SumCriterion::try_from(criterion).unwrap_or(SumCriterion::Dbil);
            match constrained_start(inst, &p, extra, by) {
                Some(r) => (r, true, true),
                None => (p, false, false),
            }
        };
        // The comparison is with the heuristic as users run it (before the local search).
        let compared = if sse.is_some() || wcsd_nearest.is_some() {
            raw
        } else {
            start.clone()
        };
        starts.push(HeuristicStart {
            method: h.method,
            name,
            start,
            compared,
            repaired,
            meets_constraints,
        });
    }
    starts
}

/// What the progress lines know of a run: its incumbent, its bound (integer units) and when a
/// bound was last printed.
#[derive(Clone, Copy, Debug, Default)]
struct Progress {
    incumbent: Option<i64>,
    bound: Option<i64>,
    printed_at: Option<f64>,
}

impl Progress {
    /// ", gap G%" when both ends are known.
    fn gap(&self) -> String {
        match (self.bound, self.incumbent) {
            (Some(b), Some(ub)) => format!(
                ", gap {:.2}%",
                100.0 * (ub - b).max(0) as f64 / (ub.abs().max(1) as f64)
            ),
            _ => String::new(),
        }
    }

    /// ", bound B, gap G%" when a bound is known.
    fn tail(&self, scale: f64) -> String {
        self.bound.map_or(String::new(), |b| {
            format!(", bound {:.4}{}", b as f64 / scale, self.gap())
        })
    }
}

/// Seconds between two progress lines for rising bounds (improving solutions always print).
const BOUND_LINE_EVERY_S: f64 = 1.0;

/// Prints every improving solution, and the rising bound at most once a second, to standard
/// error with the incumbent, the bound and the gap (nothing when quiet).
fn progress_log(opts: &ExactOptions) -> (Option<SolutionCallback>, Option<BoundCallback>) {
    if opts.quiet {
        return (None, None);
    }
    let scale = opts.scale;
    let criterion = opts.criterion;
    let state = Rc::new(Cell::new(Progress::default()));
    let on_solution = {
        let state = Rc::clone(&state);
        Box::new(move |e: &SolutionEvent| {
            let mut p = state.get();
            p.incumbent = Some(e.objective);
            state.set(p);
            let dbil = if criterion == Criterion::Dbil {
                String::new()
            } else {
                format!(", dbil = {:.4}", e.dbil as f64 / scale)
            };
            eprintln!(
                "[{:>8.3} s] {}{} = {:.4}{dbil} ({} classes){}",
                e.elapsed_s,
                if e.warm_start {
                    "warm start "
                } else {
                    "improved "
                },
                criterion.name(),
                e.objective as f64 / scale,
                e.num_classes,
                p.tail(scale)
            );
        }) as SolutionCallback
    };
    let on_bound = Box::new(move |e: &BoundEvent| {
        let mut p = state.get();
        p.bound = Some(e.bound);
        let due = p
            .printed_at
            .is_none_or(|t| e.elapsed_s - t >= BOUND_LINE_EVERY_S);
        if due {
            p.printed_at = Some(e.elapsed_s);
            let incumbent = p.incumbent.map_or(String::new(), |v| {
                format!(" (incumbent {:.4})", v as f64 / scale)
            });
            eprintln!(
                "[{:>8.3} s] bound {} ≥ {:.4}{incumbent}{}",
                e.elapsed_s,
                criterion.name(),
                e.bound as f64 / scale,
                p.gap()
            );
        }
        state.set(p);
    }) as BoundCallback;
    (Some(on_solution), Some(on_bound))
}

/// optik's one-line message for an engine error (`engine` as asked, or as resolved once it
/// ran).
fn engine_error(e: EngineError, engine: Engine, extra: &ClassConstraints) -> Error {
    match e {
        EngineError::UnsupportedConstraints { .. } => input(format!(
            "{} mip does not support {}, {} or {} (use cp or colgen)",
            Setting::Engine,
            Setting::LDiversity,
            Setting::Links,
            Setting::MaxClassSize
        )),
        EngineError::UnsupportedCriterion {
            engine: Engine::Colgen,
            criterion,
        } => input(format!(
            "{} colgen optimises dbil and wcsd only, not {}",
            Setting::Engine,
            criterion.name()
        )),
        EngineError::UnsupportedCriterion {
            engine: Engine::Lns,
            criterion,
        } => input(format!(
            "{} lns optimises dbil and wcsd only, not {}",
            Setting::Engine,
            criterion.name()
        )),
        EngineError::UnsupportedCriterion {
            engine: Engine::Mip,
            ..
        } => input(format!(
            "{} mip does not support split (use cp)",
            Setting::Engine
        )),
        EngineError::Infeasible(why) if !extra.is_empty() => input(format!("infeasible: {why}")),
        EngineError::Infeasible(_) => internal(
            "the exact engine reports no k_i-anonymous partition, yet the heuristics found one",
        ),
        e @ EngineError::NoStart(_) => input(format!(
            "{e} (use {} colgen, which searches for one, on at most {MAX_EXACT_RECORDS} records)",
            Setting::Engine
        )),
        e @ EngineError::ObjectiveOutOfRange { .. } => input(format!(
            "the {} engine cannot run this instance: {e}",
            engine.name()
        )),
        e => input(e.to_string()),
    }
}

/// The solver's outcome in distance units, with the warm start named.
fn outcome(
    scale: f64,
    opts: &ExactOptions,
    solved: SolveOutcome,
    heuristic_names: &[String],
    heuristics: Vec<HeuristicRun>,
) -> Result<ExactOutcome> {
    let SolveOutcome {
        engine,
        warm_start,
        result,
    } = solved;
    let (Some(partition), Some(objective)) = (result.partition, result.objective) else {
        return Err(internal(format!(
            "the {} engine found no partition meeting the constraints within the time limit, and no heuristic did (raise {})",
            engine.name(),
            Setting::TimeLimit
        )));
    };
    let warm_name = match warm_start {
        Some(WarmStart::Given { index, .. }) => heuristic_names[index].clone(),
        Some(WarmStart::CpSearch { .. }) => "cp (search within the constraints)".to_string(),
        None => "none (no heuristic met the constraints)".to_string(),
    };
    let to_units = |v: i64| v as f64 / scale;
    let gap = result.lower_bound.map(|lb| {
        if objective == 0 {
            if lb == 0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (objective - lb).abs() as f64 / objective.abs() as f64
        }
    });
    Ok(ExactOutcome {
        partition,
        status: result.status.name().to_string(),
        objective: to_units(objective),
        lower_bound: result.lower_bound.map(to_units),
        gap,
        engine: engine.name().to_string(),
        scale: opts.scale,
        warm_start: warm_name,
        warm_start_objective: warm_start.map_or(f64::NAN, |w| to_units(w.objective())),
        timeline: result
            .timeline
            .iter()
            .map(|e| TimelineEntry {
                elapsed_s: e.elapsed_s,
                objective: to_units(e.objective),
                classes: e.num_classes,
                dbil: to_units(e.dbil),
                warm_start: e.warm_start,
                neighbourhood: e.neighbourhood,
            })
            .collect(),
        nodes: result.stats.nodes,
        conflicts: result.stats.conflicts,
        stats: result.stats,
        note: result.note,
        default_time_limit_s: None,
        search: opts.search.name().to_string(),
        size_cap: opts.size_cap,
        lns: None,
        polished_from: None,
        heuristics,
    })
}

/// Parses `60s`, `2m`, `1.5`, `500ms` into a duration.
pub fn parse_duration(s: &str) -> std::result::Result<Duration, String> {
    let s = s.trim();
    let (num, mult) = if let Some(v) = s.strip_suffix("ms") {
        (v, 0.001)
    } else if let Some(v) = s.strip_suffix('s') {
        (v, 1.0)
    } else if let Some(v) = s.strip_suffix('m') {
        (v, 60.0)
    } else if let Some(v) = s.strip_suffix('h') {
        (v, 3600.0)
    } else {
        (s, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(Duration::from_secs_f64(x * mult)),
        _ => Err(format!(
            "'{s}' is not a positive duration (e.g. 60s, 2m, 500ms)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("60s").unwrap(), Duration::from_secs(60));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("1.5").unwrap(), Duration::from_millis(1500));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("abc").is_err());
    }

    /// Records on a line (distance |a − b|), k = 2, and a feasible engine result holding the
    /// interleaved partition {0, 2} {1, 3} {4, 6} {5, 7} (wcsd 8) with `bound`.
    fn interleaved(bound: i64) -> (Instance, optik_models::EngineResult) {
        let xs = [0i64, 1, 2, 3, 10, 11, 12, 13];
        let dist = xs
            .iter()
            .map(|a| xs.iter().map(|b| (a - b).abs()).collect())
            .collect();
        let inst = Instance::new(1.0, vec![2; 8], dist).unwrap();
        let p = Partition::from_labels(&[0, 1, 0, 1, 2, 3, 2, 3]);
        let mut result = optik_models::EngineResult::empty();
        result.status = optik_models::Status::Feasible;
        result.objective = Some(optik_models::criteria::objective_of(
            &inst,
            &p,
            Criterion::Wcsd,
        ));
        result.partition = Some(p);
        result.lower_bound = Some(bound);
        (inst, result)
    }

    /// [`polish`] on `result` under `extra`, with the instance's nearest lists and no deadline.
    fn polish_under(
        inst: &Instance,
        result: &mut optik_models::EngineResult,
        extra: &ClassConstraints,
    ) -> Option<i64> {
        let near = heuristics::wcsd_local::nearest(|a, b| inst.d(a, b), inst.n, None).unwrap();
        polish(inst, &inst.k, extra, &near, result, None)
    }

    /// The local search improves an engine's unproven partition: the result takes the cheaper
    /// partition (k-anonymous, its objective right), a timeline event, and the old objective
    /// comes back; the bound is kept, and a polished objective equal to it is proven.
    #[test]
    fn polish_takes_the_local_search_gain_and_keeps_the_bound() {
        let (inst, mut result) = interleaved(2);
        assert_eq!(result.objective, Some(8));
        let got = polish_under(&inst, &mut result, &ClassConstraints::default());
        assert_eq!(got, Some(8));
        let p = result.partition.as_ref().unwrap();
        assert!(p.violations(&inst.k).is_empty());
        let after = optik_models::criteria::objective_of(&inst, p, Criterion::Wcsd);
        assert_eq!(result.objective, Some(after));
        assert!(after < 8);
        assert_eq!(result.timeline.last().map(|e| e.objective), Some(after));
        assert_eq!(result.lower_bound, Some(2));
        // {0,1} {2,3} {4,5} {6,7}: 4, the optimum; a bound of 4 makes it proven.
        let (inst, mut result) = interleaved(4);
        polish_under(&inst, &mut result, &ClassConstraints::default());
        assert_eq!(result.objective, Some(4));
        assert_eq!(result.status, optik_models::Status::Optimal);
    }

    /// Nothing changes for a proven partition, or when the gain breaks a class constraint the
    /// partition met (here a cannot-link between records 0 and 1).
    #[test]
    fn polish_leaves_proven_and_constrained_partitions() {
        let (inst, mut result) = interleaved(2);
        result.status = optik_models::Status::Optimal;
        let before = result.partition.clone();
        let none = ClassConstraints::default();
        assert_eq!(polish_under(&inst, &mut result, &none), None);
        assert_eq!(result.partition, before);
        let (inst, mut result) = interleaved(2);
        let cannot = ClassConstraints {
            cannot: vec![(0, 1), (2, 3), (4, 5), (6, 7)],
            ..ClassConstraints::default()
        };
        assert!(cannot.partition_ok(result.partition.as_ref().unwrap().labels()));
        assert_eq!(polish_under(&inst, &mut result, &cannot), None);
        assert_eq!(result.objective, Some(8));
        assert!(result.timeline.is_empty());
    }
}
