//! The exact side of a partitioning: build the integer instance, warm-start from the
//! heuristics, run `optik_models::solve`, log its improving solutions, and translate its result
//! into distance units and its errors into optik's one-line messages.

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::error::{input, internal, Error, Result};
use crate::partition::heuristics::{self, Form, Heuristic, HeuristicOptions, KMemberCost};
use crate::settings::Setting;
use optik_models::cp::Search;
pub use optik_models::Engine;
use optik_models::{
    ClassConstraints, Criterion, EngineError, Instance, Partition, SolutionCallback, SolutionEvent,
    SolveOptions, SolveOutcome, WarmStart,
};
use serde::Serialize;
use std::time::Duration;

/// Largest table the exact engines accept (they hold an n × n integer matrix).
pub const MAX_EXACT_RECORDS: usize = 5_000;

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
    pub search: String,
    pub size_cap: bool,
}

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
    let inst = exact_instance(ds, dist, opts)?;
    let engine = optik_models::select_engine(&inst, opts.engine, opts.criterion, extra)
        .map_err(|e| engine_error(e, opts.engine, extra))?;
    let (names, partitions): (Vec<String>, Vec<Partition>) =
        heuristic_starts(ds, dist, &inst, extra, opts.seed, opts.criterion)
            .into_iter()
            .unzip();
    let solved = optik_models::solve(
        &inst,
        engine,
        SolveOptions {
            criterion: opts.criterion,
            time_limit: opts.time_limit,
            size_cap: opts.size_cap,
            search: opts.search,
            lp_bound: opts.lp_bound,
            lp_primal: opts.lp_primal,
            constraints: extra.clone(),
            warm_starts: partitions,
            on_solution: solution_log(opts),
        },
    )
    .map_err(|e| engine_error(e, engine, extra))?;
    outcome(&inst, opts, solved, &names)
}

/// The integer instance of the table (distances × the scale, rounded), within the exact
/// engines' size limit.
fn exact_instance(ds: &Dataset, dist: &RecordDistance, opts: &ExactOptions) -> Result<Instance> {
    if !(opts.scale.is_finite() && opts.scale > 0.0) {
        return Err(input(format!(
            "{} must be positive, got {}",
            Setting::Scale,
            opts.scale
        )));
    }
    if ds.n() > MAX_EXACT_RECORDS {
        return Err(input(format!(
            "{} optimal holds an n × n matrix and accepts at most {MAX_EXACT_RECORDS} records; this table has {}",
            Setting::Method,
            ds.n()
        )));
    }
    ds.exact_instance(dist, opts.criterion, opts.scale)
        .map_err(input)
}

/// The heuristics' partitions that meet the class constraints (after a repair by merging
/// classes where that is enough), with the name of their method, in the order of
/// [`warm_starts`]. For sse, microaggregation's MDAV is tried too, and every start is first
/// improved by the SSE local search (named `<method>+ls`).
fn heuristic_starts(
    ds: &Dataset,
    dist: &RecordDistance,
    inst: &Instance,
    extra: &ClassConstraints,
    seed: u64,
    criterion: Criterion,
) -> Vec<(String, Partition)> {
    let hidden = indicatif::ProgressBar::hidden();
    let mut starts = Vec::new();
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
        let (p, name) = match &sse {
            Some(z) => (
                heuristics::sse_local::improve(z, &ds.k, &p),
                format!("{}+ls", h.method.name()),
            ),
            None => (p, h.method.name().to_string()),
        };
        // The heuristics know nothing of the extra constraints: use only those meeting them,
        // after a repair by merging classes where that is enough.
        let p = if extra.partition_ok(p.labels()) {
            p
        } else {
            match crate::partition::constraints::repair::repair(&p, extra, |a, b| inst.d(a, b)) {
                Some(r) => r,
                None => continue,
            }
        };
        starts.push((name, p));
    }
    starts
}

/// Prints every improving solution to standard error (nothing when quiet).
fn solution_log(opts: &ExactOptions) -> Option<SolutionCallback> {
    if opts.quiet {
        return None;
    }
    let scale = opts.scale;
    let criterion = opts.criterion;
    Some(Box::new(move |e: &SolutionEvent| {
        let dbil = if criterion == Criterion::Dbil {
            String::new()
        } else {
            format!(", dbil = {:.4}", e.dbil as f64 / scale)
        };
        eprintln!(
            "[{:>8.3} s] {}{} = {:.4}{dbil} ({} classes)",
            e.elapsed_s,
            if e.warm_start {
                "warm start "
            } else {
                "improved "
            },
            criterion.name(),
            e.objective as f64 / scale,
            e.num_classes
        );
    }))
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
        e @ EngineError::ObjectiveOutOfRange { .. } => input(format!(
            "the {} engine cannot run this instance: {e}",
            engine.name()
        )),
        e => input(e.to_string()),
    }
}

/// The solver's outcome in distance units, with the warm start named.
fn outcome(
    inst: &Instance,
    opts: &ExactOptions,
    solved: SolveOutcome,
    heuristic_names: &[String],
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
    let to_units = |v: i64| inst.to_units(v);
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
            })
            .collect(),
        nodes: result.stats.nodes,
        conflicts: result.stats.conflicts,
        stats: result.stats,
        note: result.note,
        search: opts.search.name().to_string(),
        size_cap: opts.size_cap,
    })
}

/// Parses `60s`, `2m`, `1.5`, `500ms` into a duration.
pub(crate) fn parse_duration(s: &str) -> std::result::Result<Duration, String> {
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
}
