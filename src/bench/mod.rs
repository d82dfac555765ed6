//! The benchmark grid: runs instances × seeds × criteria × methods × forms from a TOML spec
//! with the same library calls as `optik anonymise`, checks every released table
//! independently, and returns `results.csv`, `results.md`, a copy of the spec and the pictures
//! (`ratios.svg`, one time line per exact run) for `optik bench` to write into a folder. Exact
//! (timed) runs run one at a time; heuristic runs may share the machine through rayon.

mod plots;
mod results;
pub(crate) mod spec;

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::data::table::Table;
use crate::error::{in_file, Error, Result};
use crate::partition::exact::{Engine, ExactOptions, MAX_EXACT_RECORDS};
use crate::partition::heuristics::{effective_k, Form, HeuristicOptions, KMemberCost};
use crate::partition::run::{self, Solver};
use crate::partition::Method;
use crate::release;
use crate::release::check;
use crate::{Criterion, Instance};
use indicatif::{ProgressBar, ProgressStyle};
use optik_models::cp::Search;
use optik_models::objective_of;
use rayon::prelude::*;
use results::Row;
use spec::{MethodSpec, Spec};
use std::time::Instant;

/// File names inside the output folder.
pub(crate) const RESULTS_CSV: &str = "results.csv";
pub(crate) const RESULTS_MD: &str = "results.md";
pub(crate) const SPEC_COPY: &str = "spec.toml";

/// How the grid runs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BenchOptions {
    /// Run the heuristic runs one at a time too (their times are then comparable).
    pub sequential: bool,
    /// No progress bar or plan on stderr.
    pub quiet: bool,
}

/// A finished grid.
pub(crate) struct BenchResults {
    /// The output folder's files, by name.
    pub files: Vec<(String, Vec<u8>)>,
    /// Runs made.
    pub runs: usize,
    /// Runs that failed (status error or a failed check).
    pub failed: usize,
}

/// One instance of the spec made ready for one seed.
struct Prepared {
    instance: usize,
    seed: u64,
    ds: Dataset,
    /// The same records with every k_i raised to max k_i, for exact runs of form k.
    ds_k: Option<Dataset>,
    dist: RecordDistance,
    /// The exact engines' integer instance, on which every run's objective is evaluated.
    exact: Option<Instance>,
    /// The same for sse (squared distances of the standardised records), when a run needs it.
    exact_sse: Option<Instance>,
}

/// One grid point.
struct Point<'a> {
    prepared: usize,
    criterion: Criterion,
    method: &'a MethodSpec,
    form: Form,
}

/// Runs the grid of `spec`; `started` is when the run started (for the wall time).
pub(crate) fn run(spec: &Spec, a: &BenchOptions, started: Instant) -> Result<BenchResults> {
    let start = started;
    let prepared = prepare(spec)?;
    let mut points = Vec::new();
    for (p, prep) in prepared.iter().enumerate() {
        for &criterion in &spec.criteria {
            for method in &spec.methods {
                if !method.runs_on(&spec.instances[prep.instance].name) {
                    continue;
                }
                for &form in &method.forms {
                    points.push(Point {
                        prepared: p,
                        criterion,
                        method,
                        form,
                    });
                }
            }
        }
    }
    let (exact, heuristic): (Vec<usize>, Vec<usize>) =
        (0..points.len()).partition(|&i| points[i].method.method == Method::Optimal);
    let threads = if a.sequential {
        1
    } else {
        rayon::current_num_threads()
    };
    let bar = progress_bar(a.quiet, points.len());
    if !a.quiet {
        eprintln!(
            "{} runs: {} heuristic runs {}, then {} exact runs one at a time (timed, nothing else running)",
            points.len(),
            heuristic.len(),
            if threads > 1 {
                format!("in parallel on {threads} rayon threads")
            } else {
                "one at a time".to_string()
            },
            exact.len()
        );
    }
    let one = |i: usize| {
        let row = run_point(spec, &prepared, &points[i], &bar);
        bar.inc(1);
        (i, row)
    };
    let mut done: Vec<(usize, Row)> = if threads > 1 {
        heuristic.par_iter().map(|&i| one(i)).collect()
    } else {
        heuristic.iter().map(|&i| one(i)).collect()
    };
    for &i in &exact {
        let p = &points[i];
        bar.set_message(format!(
            "{} seed {} optimal ({})",
            spec.instances[prepared[p.prepared].instance].name,
            prepared[p.prepared].seed,
            p.method.engine.resolve(p.criterion).name()
        ));
        done.push(one(i));
    }
    bar.finish_and_clear();
    done.sort_by_key(|d| d.0);
    let mut rows: Vec<Row> = done.into_iter().map(|d| d.1).collect();
    results::fill_ratios(&mut rows);
    let header = results::Header {
        spec: &spec.path.display().to_string(),
        description: spec.description.as_deref(),
        date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        cores: std::thread::available_parallelism().map_or(1, |c| c.get()),
        heuristic_threads: threads,
        wall_s: start.elapsed().as_secs_f64(),
        instances: spec
            .instances
            .iter()
            .map(|i| {
                let n = prepared
                    .iter()
                    .find(|p| spec.instances[p.instance].name == i.name)
                    .map_or(0, |p| p.ds.n());
                format!(
                    "{}: `{}`, {} ({} records), {}",
                    i.name,
                    i.csv_given.display(),
                    i.sample.describe(),
                    n,
                    i.k_description()
                )
            })
            .collect(),
        scale: spec.scale,
    };
    let pictures = plots::pictures(&rows)?;
    let mut files = vec![(RESULTS_CSV.to_string(), results::to_csv(&rows)?)];
    let mut md = results::to_markdown(&header, &rows);
    md.push_str(&plots::markdown(&pictures));
    files.push((RESULTS_MD.to_string(), md.into_bytes()));
    files.push((SPEC_COPY.to_string(), spec.text.clone().into_bytes()));
    for p in pictures {
        files.push((p.file, p.svg.into_bytes()));
    }
    let failed = rows
        .iter()
        .filter(|r| r.status == "error" || r.check != "ok")
        .count();
    Ok(BenchResults {
        files,
        runs: rows.len(),
        failed,
    })
}

fn progress_bar(quiet: bool, n: usize) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    bar.set_style(
        ProgressStyle::with_template("bench [{elapsed_precise}] {bar:30} {pos}/{len} runs {msg}")
            .expect("valid template"),
    );
    bar
}

/// Loads every instance for every seed; any problem is a spec error naming the instance.
fn prepare(spec: &Spec) -> Result<Vec<Prepared>> {
    let mut out = Vec::new();
    for (ii, inst) in spec.instances.iter().enumerate() {
        let exact_runs = spec
            .methods
            .iter()
            .filter(|m| m.method == Method::Optimal && m.runs_on(&inst.name));
        let needs_exact = exact_runs.clone().next().is_some();
        // The large-neighbourhood search (engine lns, or auto on dbil and wcsd) takes any size.
        let any_size = exact_runs.clone().all(|m| {
            matches!(m.engine, Engine::Lns | Engine::Auto)
                && spec
                    .criteria
                    .iter()
                    .all(|c| matches!(c, Criterion::Dbil | Criterion::Wcsd))
        });
        let needs_k_form = exact_runs.clone().any(|m| m.forms.contains(&Form::K));
        let wrap = |e: Error| in_file(&spec.path, format!("instances[{ii}] '{}': {e}", inst.name));
        let table =
            Table::read(&inst.csv, inst.delimiter.or(inst.schema.delimiter)).map_err(wrap)?;
        for &seed in &spec.seeds {
            let ks = inst.k_source(seed).map_err(wrap)?;
            let ds = Dataset::from_table(
                table.clone(),
                inst.schema.clone(),
                &ks,
                inst.drop_missing,
                inst.sample,
            )
            .map_err(wrap)?;
            if needs_exact && !any_size && ds.n() > MAX_EXACT_RECORDS {
                return Err(wrap(Error::Input(format!(
                    "{} records, but optimal runs other than engine lns (or auto on dbil and wcsd) accept at most {MAX_EXACT_RECORDS}",
                    ds.n()
                ))));
            }
            let ds_k = needs_k_form.then(|| {
                let mut d = ds.clone();
                d.k = effective_k(Form::K, &ds.k);
                d
            });
            let dist = ds.distance();
            let exact = if ds.n() <= MAX_EXACT_RECORDS {
                Some(
                    dist.instance(ds.k.clone(), spec.scale)
                        .map_err(|e| wrap(Error::Input(e)))?,
                )
            } else {
                None
            };
            let exact_sse =
                if ds.n() <= MAX_EXACT_RECORDS && spec.criteria.contains(&Criterion::Sse) {
                    Some(
                        ds.exact_instance(&dist, Criterion::Sse, spec.scale)
                            .map_err(|e| wrap(Error::Input(e)))?,
                    )
                } else {
                    None
                };
            out.push(Prepared {
                exact_sse,
                instance: ii,
                seed,
                ds,
                ds_k,
                dist,
                exact,
            });
        }
    }
    Ok(out)
}

/// Runs one grid point and checks its release; failures become rows with status `error`.
fn run_point(spec: &Spec, prepared: &[Prepared], p: &Point, bar: &ProgressBar) -> Row {
    let prep = &prepared[p.prepared];
    let instance = &spec.instances[prep.instance];
    let m = p.method;
    let (solver, ds) = match m.method.heuristic() {
        Some(method) => (
            Solver::Heuristic(HeuristicOptions {
                method,
                form: p.form,
                cost: m.cost,
                seed: prep.seed,
            }),
            &prep.ds,
        ),
        None => (
            Solver::Exact(ExactOptions {
                engine: m.engine,
                criterion: p.criterion,
                time_limit: m.time_limit,
                size_cap: true,
                lp_bound: true,
                lp_primal: true,
                node_lp: false,
                search: Search::DEFAULT,
                scale: spec.scale,
                seed: prep.seed,
                quiet: true,
            }),
            match (p.form, &prep.ds_k) {
                (Form::K, Some(d)) => d,
                _ => &prep.ds,
            },
        ),
    };
    let mut row = Row {
        instance: instance.name.clone(),
        n: ds.n(),
        method: m.method.name().to_string(),
        engine: match m.method {
            Method::Optimal => m.engine.resolve(p.criterion).name().to_string(),
            _ => String::new(),
        },
        form: p.form.name().to_string(),
        cost: match m.method {
            Method::KMember => KMemberCost::name(m.cost).to_string(),
            _ => String::new(),
        },
        criterion: p.criterion.name().to_string(),
        seed: prep.seed,
        status: "error".to_string(),
        own_k: p.form == Form::Ki,
        maximise: p.criterion.maximise(),
        ..Row::default()
    };
    let t = Instant::now();
    let outcome = run::partition(ds, &prep.dist, &solver, p.criterion, &ProgressBar::hidden());
    row.time_s = t.elapsed().as_secs_f64();
    let o = match outcome {
        Ok(o) => o,
        Err(e) => {
            bar.suspend(|| eprintln!("{} / {} seed {}: {e}", row.instance, row.method, row.seed));
            row.note = e.to_string();
            return row;
        }
    };
    let instance = if p.criterion == Criterion::Sse {
        &prep.exact_sse
    } else {
        &prep.exact
    };
    let objective = match instance {
        Some(inst) => inst.to_units(objective_of(inst, &o.partition, p.criterion)),
        None => o.objective,
    };
    if let Some(e) = &o.exact {
        row.lower_bound = e.lower_bound;
        row.gap = e.gap;
        row.nodes = Some(e.nodes);
        row.columns = (e.engine != "cp").then_some(e.stats.columns);
        row.timeline = e.timeline.clone();
        if (e.objective - objective).abs() > 1e-9 * objective.abs().max(1.0) {
            row.note = format!(
                "the engine reports {} but its partition evaluates to {objective}",
                e.objective
            );
        } else if let Some(note) = &e.note {
            row.note = note.replace(['\n', '|'], " ");
        }
    }
    row.status = o.status;
    row.objective = Some(objective);
    row.dbil = Some(o.metrics.dbil);
    row.classes = Some(o.partition.num_classes());
    // The independent check, on the released text, against the k the run enforced.
    let enforced = effective_k(p.form, &prep.ds.k);
    let rel = release::build(ds, &o.partition, None, release::ReleaseStyle::Generalised);
    let label = format!("{} / {} / seed {}", row.instance, row.method, row.seed);
    row.check = match check::check_table(
        &rel.to_table(&label, ds.table.delimiter),
        &rel.quasi,
        &enforced,
    ) {
        Ok(c) if c.verified => "ok".to_string(),
        Ok(c) => format!("FAILED ({} records below their k)", c.violations),
        Err(e) => format!("FAILED ({e})"),
    };
    row
}
