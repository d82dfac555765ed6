//! The exact side as the CLI sees it: build the integer instance, warm-start from the best
//! heuristic, run an engine, and translate its result into distance units.

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::error::{input, Result};
use crate::partition::heuristics::{
    self, Form, Heuristic as Method, HeuristicOptions, KMemberCost,
};
use optik_models::cp::{objective_of, solve_cp, CpOptions, Search, Status};
use optik_models::engine::{EngineResult, SolutionEvent};
use optik_models::{
    solve_colgen, solve_mip, ClassConstraints, ColgenOptions, Criterion, Instance, Partition,
};
use serde::Serialize;
use std::time::Duration;

/// Largest table the exact engines accept (they hold an n × n integer matrix).
pub const MAX_EXACT_RECORDS: usize = 5_000;

/// Which exact engine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// The portfolio: column generation for the sum criteria (dbil, wcsd), CP for diameter
    /// and split.
    Auto,
    /// The CP model on pumpkin with optik's propagators.
    Cp,
    /// Set partitioning with column generation on HiGHS (dbil, wcsd).
    Colgen,
    /// The compact assignment MIP on HiGHS (small instances; dbil, diameter, wcsd).
    Mip,
}

impl Engine {
    /// The engine `auto` picks for a criterion.
    pub fn resolve(self, criterion: Criterion) -> Engine {
        match (self, criterion) {
            (Engine::Auto, Criterion::Dbil | Criterion::Wcsd) => Engine::Colgen,
            (Engine::Auto, _) => Engine::Cp,
            (e, _) => e,
        }
    }

    /// Name as written in reports.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Cp => "cp",
            Engine::Colgen => "colgen",
            Engine::Mip => "mip",
        }
    }
}

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
    [h(Method::Mdav), h(Method::KMember), h(Method::Mondrian)]
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
    if !(opts.scale.is_finite() && opts.scale > 0.0) {
        return Err(input(format!(
            "--scale must be positive, got {}",
            opts.scale
        )));
    }
    if ds.n() > MAX_EXACT_RECORDS {
        return Err(input(format!(
            "--method optimal holds an n × n matrix and accepts at most {MAX_EXACT_RECORDS} records; this table has {}",
            ds.n()
        )));
    }
    let inst: Instance = dist.instance(ds.k.clone(), opts.scale).map_err(input)?;
    if !extra.is_empty() {
        if opts.engine == Engine::Mip {
            return Err(input(
                "--engine mip does not support --l-diversity, --links or --max-class-size (use cp or colgen)",
            ));
        }
        extra.validate(inst.n).map_err(input)?;
        if let Some(why) = extra.obvious_infeasibility(&inst.k) {
            return Err(input(format!("infeasible: {why}")));
        }
    }
    let hidden = indicatif::ProgressBar::hidden();
    let better = |a: i64, b: i64| {
        if opts.criterion.maximise() {
            a > b
        } else {
            a < b
        }
    };
    let mut best: Option<(String, Partition, i64)> = None;
    let mut heuristic_starts = Vec::new();
    for h in warm_starts(opts.seed) {
        let p = heuristics::run(&h, &ds.qi, dist, &ds.k, &hidden);
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
        let v = objective_of(&inst, &p, opts.criterion);
        heuristic_starts.push(p.clone());
        if best.as_ref().is_none_or(|b| better(v, b.2)) {
            best = Some((h.method.name().to_string(), p, v));
        }
    }
    let (mut warm_name, warm, mut warm_value) = match best {
        Some((name, p, v)) => (name, Some(p), Some(v)),
        None => (
            "none (no heuristic met the constraints)".to_string(),
            None,
            None,
        ),
    };
    let engine = opts.engine.resolve(opts.criterion);
    if engine == Engine::Colgen && !matches!(opts.criterion, Criterion::Dbil | Criterion::Wcsd) {
        return Err(input(format!(
            "--engine colgen optimises dbil and wcsd only, not {}",
            opts.criterion.name()
        )));
    }
    if engine == Engine::Mip && opts.criterion == Criterion::Split {
        return Err(input("--engine mip does not support split (use cp)"));
    }
    let quiet = opts.quiet;
    let scale = opts.scale;
    let criterion = opts.criterion;
    let log = move |e: &SolutionEvent| {
        if !quiet {
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
        }
    };
    // Column generation without a valid start works against artificial columns whose huge
    // duals defeat its pricing bounds: a short CP search (a fifth of the limit, at most 10 s)
    // looks for a first partition meeting the constraints to start from.
    let mut colgen_limit = opts.time_limit;
    if engine == Engine::Colgen && heuristic_starts.is_empty() && !extra.is_empty() {
        let budget = opts.time_limit.map_or(Duration::from_secs(10), |t| {
            (t / 5).min(Duration::from_secs(10))
        });
        let r = solve_cp(
            &inst,
            CpOptions {
                criterion,
                time_limit: Some(budget),
                size_cap: opts.size_cap,
                search: opts.search,
                lp_bound: false,
                constraints: extra.clone(),
                ..CpOptions::default()
            },
        );
        if r.status == Status::Infeasible {
            return Err(input(format!(
                "infeasible: {}",
                r.note
                    .as_deref()
                    .unwrap_or("no partition meets the k_i and the class constraints")
            )));
        }
        if let (Some(p), Some(v)) = (r.partition, r.objective) {
            warm_name = "cp (search within the constraints)".to_string();
            warm_value = Some(v);
            heuristic_starts.push(p);
        }
        colgen_limit = opts
            .time_limit
            .map(|t| t.saturating_sub(Duration::from_secs_f64(r.elapsed_s)));
    }
    let result: EngineResult = match engine {
        Engine::Cp | Engine::Auto => solve_cp(
            &inst,
            CpOptions {
                criterion,
                time_limit: opts.time_limit,
                size_cap: opts.size_cap,
                search: opts.search,
                warm_start: warm.clone(),
                split_min_classes: None,
                lp_bound: opts.lp_bound,
                lp_primal: opts.lp_primal,
                hints: true,
                constraints: extra.clone(),
                on_solution: Some(Box::new(move |e| log(&SolutionEvent::from(e)))),
            },
        )
        .into(),
        Engine::Colgen => solve_colgen(
            &inst,
            ColgenOptions {
                criterion,
                time_limit: colgen_limit,
                warm_start: heuristic_starts,
                on_solution: Some(Box::new(move |e| log(e))),
                constraints: extra.clone(),
                ..ColgenOptions::default()
            },
        ),
        Engine::Mip => {
            let (warm, warm_value) = (
                warm.clone()
                    .expect("no constraints with mip: every heuristic is valid"),
                warm_value.expect("a warm start"),
            );
            log(&SolutionEvent {
                elapsed_s: 0.0,
                objective: warm_value,
                num_classes: warm.num_classes(),
                dbil: objective_of(&inst, &warm, Criterion::Dbil),
                warm_start: true,
            });
            let mut r = solve_mip(&inst, criterion, opts.time_limit);
            // The compact MIP starts cold: keep the heuristic when it is at least as good.
            if r.objective.is_none_or(|v| v > warm_value) && r.status != Status::Infeasible {
                r.partition = Some(warm.clone());
                r.objective = Some(warm_value);
                if r.status == Status::Optimal {
                    r.status = Status::Feasible;
                }
            }
            r
        }
    };
    if result.partition.is_none() && result.status != Status::Infeasible {
        if let Some(note) = &result.note {
            if result.objective.is_none()
                && result.lower_bound.is_none()
                && result.timeline.is_empty()
            {
                return Err(input(format!(
                    "the {} engine cannot run this instance: {note}",
                    engine.name()
                )));
            }
        }
    }
    let status = result.status;
    let (partition, objective) = match (result.partition.clone(), result.objective, warm) {
        (Some(p), Some(v), _) => (p, v),
        _ if status == Status::Infeasible && !extra.is_empty() => {
            return Err(input(format!(
                "infeasible: {}",
                result
                    .note
                    .as_deref()
                    .unwrap_or("no partition meets the k_i and the class constraints")
            )))
        }
        _ if status == Status::Infeasible => {
            return Err(crate::error::internal(
                "the exact engine reports no k_i-anonymous partition, yet the heuristics found one",
            ))
        }
        (_, _, Some(w)) => (w, warm_value.expect("a warm start has a value")),
        (_, _, None) => {
            return Err(crate::error::internal(format!(
                "the {} engine found no partition meeting the constraints within the time limit, and no heuristic did (raise --time-limit)",
                engine.name()
            )))
        }
    };
    let status = if status == Status::Unknown {
        Status::Feasible
    } else {
        status
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
        status: status.name().to_string(),
        objective: to_units(objective),
        lower_bound: result.lower_bound.map(to_units),
        gap,
        engine: engine.name().to_string(),
        scale: opts.scale,
        warm_start: warm_name,
        warm_start_objective: warm_value.map_or(f64::NAN, to_units),
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
        stats: result.stats.clone(),
        note: result.note.clone(),
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
