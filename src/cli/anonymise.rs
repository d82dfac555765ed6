//! `optik anonymise`: load the table, anonymise it in memory (the library's pipeline), then
//! write the release, the report and the pictures atomically and print a one-line summary.

use super::args::{
    ConstraintArgs, CostArg, EngineArg, FormArg, InputArgs, MethodArg, PictureArgs, Privacy,
    ReleaseArg,
};
use crate::data::dataset::Dataset;
use crate::error::{input, Result};
use crate::partition::compare;
use crate::partition::exact::ExactOptions;
use crate::partition::heuristics::HeuristicOptions;
use crate::partition::run::Solver;
use crate::partition::Method;
use crate::pipeline::{self, AnonymiseOptions, Anonymised};
use crate::release::output::{check_destinations, Staged};
use crate::report::pictures;
use crate::report::plot::layout::Axes;
use crate::report::{self, OutputSummary, Report};
use crate::Criterion;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
pub(crate) struct AnonymiseArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Partitioning method: a heuristic, or `optimal` (exact CP engine, warm-started by the
    /// best heuristic).
    #[arg(long, value_enum)]
    pub method: MethodArg,
    /// Time limit of the exact engine (e.g. 60s, 5m); the best partition found is released and
    /// the report says whether it is proven optimal. Default: none, except 300 s with
    /// `--engine lns` and with `auto` above 1,000 records (the report records it).
    #[arg(long, value_parser = crate::partition::exact::parse_duration)]
    pub time_limit: Option<std::time::Duration>,
    /// Exact engine: `auto` (column generation for dbil/wcsd up to 5,000 records and the
    /// large-neighbourhood search above, CP for diameter/split), `cp`, `colgen`, `mip` or `lns`.
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineArg,
    /// Exact engine: do not post the dominance cap |C| ≤ 2·max k_i − 1 (to compare).
    #[arg(long)]
    pub no_size_cap: bool,
    /// CP engine, dbil/wcsd: do not post the set-partitioning LP's dual bound (the seed's
    /// per-record bound only, to compare).
    #[arg(long)]
    pub no_lp_bound: bool,
    /// CP engine with the LP bound: do not start from the LP-rounded partition (search from the
    /// heuristics' warm start only, to compare).
    #[arg(long)]
    pub no_lp_primal: bool,
    /// CP engine with the LP bound (dbil/wcsd, no extra class constraints): re-solve the LP at
    /// the search's nodes with the fixed records' classes as pair decisions (column
    /// generation's node LP), raising the objective's bound there.
    #[arg(long)]
    pub node_lp: bool,
    #[command(flatten)]
    pub class: ConstraintArgs,
    /// Exact engine search strategy: switching, create, fill, autonomous.
    #[arg(long, default_value = "autonomous")]
    pub search: optik_models::cp::Search,
    /// Integer units per distance unit in the exact engines' matrix.
    #[arg(long, default_value_t = crate::data::distance::DEFAULT_SCALE)]
    pub scale: f64,
    /// `ki`: the personalised heuristic; `k`: the original one with k = max k_i.
    #[arg(long, value_enum, default_value = "ki")]
    pub form: FormArg,
    /// Greedy k-member cost: original (eq. 5.3), corrected (5.4), personalised (5.5).
    #[arg(long, value_enum, default_value = "personalised")]
    pub cost: CostArg,
    /// Criterion reported as the objective.
    #[arg(long, default_value = "dbil")]
    pub criterion: Criterion,
    /// Heuristic methods: run the other two heuristics too and compare them in the report and
    /// the summary (`--method optimal` always compares).
    #[arg(long)]
    pub compare: bool,
    /// Release CSV to write.
    #[arg(long)]
    pub out: PathBuf,
    /// JSON report to write.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Add a column with this name holding each record's class id.
    #[arg(long)]
    pub class_column: Option<String>,
    /// `generalised`: intervals and hierarchy labels; `centroid`: numeric quasi-identifiers
    /// replaced by the class mean (microaggregation's release).
    #[arg(long, value_enum, default_value = "generalised")]
    pub release: ReleaseArg,
    #[command(flatten)]
    pub pictures: PictureArgs,
    /// Replace existing outputs.
    #[arg(long)]
    pub force: bool,
    /// No progress or summary on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `optik anonymise`; returns the report it wrote.
pub(super) fn run(a: &AnonymiseArgs) -> Result<Report> {
    let started = Instant::now();
    let schema = a.input.schema()?;
    let ks = a.k.source()?;
    let method = Method::from(a.method);
    let opts = AnonymiseOptions {
        solver: solver(a, method),
        criterion: a.criterion,
        seed: a.k.seed,
        constraints: a.class.options(),
        class_column: a.class_column.clone(),
        compare: a.compare,
        release: a.release.into(),
        outputs: output_summary(a),
        started,
    };
    opts.validate()?;
    check_destinations(&outputs(a), &inputs(a), a.force)?;
    let ds = Dataset::load(&a.input.input, schema, &ks, &a.input.load_options())?;
    let axes = picture_axes(&a.pictures, &ds)?;
    let bar = progress(
        a.quiet || ds.n() < 2_000 || matches!(opts.solver, Solver::Exact(_)),
        ds.n(),
        opts.solver.name(),
    );
    let done = pipeline::anonymise(&ds, &opts, &bar)?;
    bar.finish_and_clear();
    write_outputs(a, &axes, &ds, &done)?;
    if !a.quiet {
        summary(&done.report, ds.dropped);
    }
    Ok(done.report)
}

/// Files the run writes.
fn outputs(a: &AnonymiseArgs) -> Vec<&Path> {
    let mut outputs: Vec<&Path> = vec![&a.out];
    if let Some(r) = &a.report {
        outputs.push(r);
    }
    outputs.extend(a.pictures.outputs());
    outputs
}

/// Files the run reads (never overwritten).
fn inputs(a: &AnonymiseArgs) -> Vec<&Path> {
    let mut inputs = a.input.inputs();
    inputs.extend(a.class.links.as_deref());
    inputs
}

/// How the pictures place the records, checked before the partitioning runs.
fn picture_axes(p: &PictureArgs, ds: &Dataset) -> Result<Axes> {
    match &p.plot_axes {
        None => Ok(Axes::Mds),
        Some(_) if p.plot.is_none() && p.html.is_none() => {
            Err(input("--plot-axes needs --plot or --html"))
        }
        Some(spec) => Axes::parse(spec, &ds.qi),
    }
}

/// The heuristic or the exact engine the flags select.
fn solver(a: &AnonymiseArgs, method: Method) -> Solver {
    match method.heuristic() {
        Some(heuristic) => Solver::Heuristic(HeuristicOptions {
            method: heuristic,
            form: a.form.into(),
            cost: a.cost.into(),
            seed: a.k.seed,
        }),
        None => Solver::Exact(ExactOptions {
            engine: a.engine.into(),
            criterion: a.criterion,
            time_limit: a.time_limit,
            size_cap: !a.no_size_cap,
            lp_bound: !a.no_lp_bound,
            lp_primal: !a.no_lp_primal,
            node_lp: a.node_lp,
            search: a.search,
            scale: a.scale,
            seed: a.k.seed,
            quiet: a.quiet,
        }),
    }
}

/// The outputs as the report lists them.
fn output_summary(a: &AnonymiseArgs) -> OutputSummary {
    OutputSummary {
        release: a.out.display().to_string(),
        report: a.report.as_ref().map(|r| r.display().to_string()),
        plot: a.pictures.plot.as_ref().map(|p| p.display().to_string()),
        html: a.pictures.html.as_ref().map(|p| p.display().to_string()),
    }
}

fn progress(quiet: bool, n: usize, what: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{elapsed_precise}] {bar:30} {pos}/{len} records")
            .expect("valid template"),
    );
    bar.set_message(what.to_string());
    bar
}

/// Stages the release, the report and the pictures, then commits them all: a failure leaves
/// no output behind.
fn write_outputs(a: &AnonymiseArgs, axes: &Axes, ds: &Dataset, done: &Anonymised) -> Result<()> {
    let release = Staged::write(&a.out, &done.release_csv)?;
    let report = match &a.report {
        Some(path) => Some(Staged::write(path, &report::to_json(&done.report)?)?),
        None => None,
    };
    let mut staged_pictures = Vec::new();
    if a.pictures.plot.is_some() || a.pictures.html.is_some() {
        let pictures = pictures::draw(
            axes,
            ds,
            &done.distance,
            &done.partition,
            &done.report,
            &done.release,
            a.pictures.html.is_some(),
        )?;
        if let Some(path) = &a.pictures.plot {
            staged_pictures.push(Staged::write(path, pictures.svg.as_bytes())?);
        }
        if let (Some(path), Some(html)) = (&a.pictures.html, &pictures.html) {
            staged_pictures.push(Staged::write(path, html.as_bytes())?);
        }
    }
    release.commit()?;
    if let Some(r) = report {
        r.commit()?;
    }
    for p in staged_pictures {
        p.commit()?;
    }
    Ok(())
}

/// The one-line summary on stderr (and what else the user should know).
fn summary(report: &Report, dropped: usize) {
    let compared = compare::phrase(&report.heuristics, report.criterion(), &report.method)
        .map(|p| format!(", {p}"))
        .unwrap_or_default();
    eprintln!(
        "{} ({}): {} records in {} classes, {} = {:.4}{}{compared}, verified k_i-anonymous, {:.2} s",
        report.method,
        report.status,
        report.n,
        report.classes,
        report.criterion.name(),
        report.objective,
        match report.lower_bound {
            Some(lb) if report.status != "optimal" => format!(" (bound {lb:.4})"),
            _ => String::new(),
        },
        report.time_s
    );
    if report.constraints.extra.is_some() {
        eprintln!("the class constraints hold in the release (checked independently)");
    }
    if dropped > 0 {
        eprintln!("dropped {dropped} rows with a missing quasi-identifier");
    }
}
