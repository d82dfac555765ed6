//! One anonymisation in memory, as `optik anonymise` performs it and as a library caller (a
//! Python package) wants it: partition a loaded dataset, generalise the release, check the
//! release *text* independently, and build the report. Nothing is written: the caller writes
//! the release, the report and any picture (atomically, after this succeeded).

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::data::k_source;
use crate::data::table::Table;
use crate::error::{input, internal, Result};
use crate::partition::compare::{self, HeuristicComparison};
use crate::partition::constraints::ClassConstraintOptions;
use crate::partition::run::{self, Outcome, Solver};
use crate::release::check::{self, constraints::ConstraintsCheck};
use crate::release::{self, Release, ReleaseStyle};
use crate::report::plot::layout::Axes;
use crate::report::{ConstraintsSummary, InputSummary, OutputSummary, Report, SchemaSummary};
use crate::settings::Setting;
use crate::{Criterion, Partition};
use indicatif::ProgressBar;
use std::path::Path;
use std::time::Instant;

/// Everything that selects one anonymisation of a loaded dataset.
#[derive(Clone, Debug)]
pub struct AnonymiseOptions {
    /// A heuristic or an exact engine, with its options.
    pub solver: Solver,
    /// Criterion reported as the objective.
    pub criterion: Criterion,
    /// Seed of the k_i draws and of randomised methods (written into the report).
    pub seed: u64,
    /// Extra class constraints (exact engines only).
    pub constraints: ClassConstraintOptions,
    /// Add a column with this name holding each record's class id.
    pub class_column: Option<String>,
    /// Heuristic runs: compare with the other heuristics in the report (exact runs always
    /// compare, reusing their warm starts).
    pub compare: bool,
    /// Generalised intervals or class means.
    pub release: ReleaseStyle,
    /// The files the caller will write, as the report lists them.
    pub outputs: OutputSummary,
    /// When the run started (the report's `time_s` counts from here, loading included).
    pub started: Instant,
}

impl AnonymiseOptions {
    /// `solver` with the dbil criterion, seed 0, no class constraint or class column, the
    /// release listed as `release.csv`, started now.
    pub fn new(solver: Solver) -> AnonymiseOptions {
        let criterion = match &solver {
            Solver::Exact(e) => e.criterion,
            Solver::Heuristic(_) => Criterion::Dbil,
        };
        AnonymiseOptions {
            solver,
            criterion,
            seed: 0,
            constraints: ClassConstraintOptions::default(),
            class_column: None,
            compare: false,
            release: ReleaseStyle::Generalised,
            outputs: OutputSummary {
                release: "release.csv".to_string(),
                report: None,
                plot: None,
                html: None,
            },
            started: Instant::now(),
        }
    }
}

impl AnonymiseOptions {
    /// Refuses what no dataset can make valid: class constraints with a heuristic.
    pub fn validate(&self) -> Result<()> {
        if let (true, Solver::Heuristic(h)) = (self.constraints.any(), &self.solver) {
            return Err(input(format!(
                "{}, {} and {} need {} optimal, not {}",
                Setting::LDiversity,
                Setting::Links,
                Setting::MaxClassSize,
                Setting::Method,
                h.method.name()
            )));
        }
        Ok(())
    }
}

/// A verified anonymisation.
#[derive(Clone, Debug)]
pub struct Anonymised {
    pub partition: Partition,
    /// The record distance the partition was made with.
    pub distance: RecordDistance,
    pub release: Release,
    /// The release as CSV, exactly as the independent check read it.
    pub release_csv: Vec<u8>,
    pub report: Report,
}

/// Anonymises `ds`: checks the options against it, partitions it (progress on `progress`),
/// builds the release, checks the release text independently (the k_i, then any class
/// constraint) and builds the report. Fails, with nothing to write, when a check rejects it.
pub fn anonymise(
    ds: &Dataset,
    opts: &AnonymiseOptions,
    progress: &ProgressBar,
) -> Result<Anonymised> {
    opts.validate()?;
    if let Some(c) = &opts.class_column {
        if ds.table.headers.contains(c) {
            return Err(input(format!(
                "{} '{c}' is already a column of the input",
                Setting::ClassColumn
            )));
        }
    }
    let class = opts.constraints.load(ds)?;
    let distance = ds.distance();
    let outcome = run::partition_with(
        ds,
        &distance,
        &opts.solver,
        opts.criterion,
        progress,
        &class.model,
    )?;
    let release = release::build(
        ds,
        &outcome.partition,
        opts.class_column.as_deref(),
        opts.release,
    );
    let release_csv = release.to_csv(ds.table.delimiter);
    let text = Table::parse(
        Path::new(&opts.outputs.release),
        release_csv.clone(),
        Some(ds.table.delimiter),
    )?;
    let check = check::check_table(&text, &release.quasi, &ds.k)?;
    if !check.verified {
        return Err(internal(format!(
            "the independent check rejected the release ({} records in groups smaller than their k_i); nothing was written",
            check.violations
        )));
    }
    let extra = if opts.constraints.any() {
        let c = check::constraints::check(&text, &release.quasi, &class.requested)?;
        let cap = class.model.max_size.map_or(usize::MAX, |m| m as usize);
        let merged = c.max_class_size.as_ref().is_some_and(|m| !m.holds)
            && outcome.partition.largest_class() <= cap;
        if merged {
            // Every class is within the cap, yet a released group is not: classes whose records
            // generalise to the same quasi-identifiers (identical records, typically) are one
            // group in the release. A limit of the data, not a fault.
            return Err(input(format!(
                "classes of at most {cap} records generalise to the same quasi-identifiers and are released as one group of {} (typically identical records split across classes); nothing was written: raise the maximum class size or drop duplicate records",
                c.max_class_size.as_ref().map_or(0, |m| m.largest_group)
            )));
        }
        if !c.extra_hold {
            return Err(internal(format!(
                "the independent check found the release breaking a class constraint ({}); nothing was written",
                serde_json::to_string(&c).unwrap_or_default()
            )));
        }
        Some(c)
    } else {
        None
    };
    let dominance_cap = class.model.hereditary();
    let heuristics = match (&opts.solver, &outcome.exact) {
        (_, Some(e)) => compare::of_exact(&e.heuristics, outcome.objective, opts.constraints.any()),
        (Solver::Heuristic(h), None) if opts.compare => {
            compare::of_heuristic(ds, &distance, h, &outcome, opts.criterion)
        }
        _ => Vec::new(),
    };
    let report = report(ds, opts, &outcome, check, extra, dominance_cap, heuristics);
    Ok(Anonymised {
        partition: outcome.partition,
        distance,
        release,
        release_csv,
        report,
    })
}

/// The report of a verified run.
fn report(
    ds: &Dataset,
    opts: &AnonymiseOptions,
    outcome: &Outcome,
    check: check::CheckReport,
    extra: Option<ConstraintsCheck>,
    dominance_cap: bool,
    heuristics: Vec<HeuristicComparison>,
) -> Report {
    let partition = &outcome.partition;
    Report {
        optik_version: env!("CARGO_PKG_VERSION"),
        input: InputSummary {
            path: ds.table.path.display().to_string(),
            rows: ds.table.len(),
            dropped_missing: ds.dropped,
            delimiter: (ds.table.delimiter as char).to_string(),
        },
        schema: SchemaSummary::of(ds),
        constraints: ConstraintsSummary {
            description: ds.k_source.describe(),
            k_histogram: k_source::histogram(&ds.k),
            k_min: *ds.k.iter().min().expect("n ≥ 1"),
            k_max: *ds.k.iter().max().expect("n ≥ 1"),
            max_classes: optik_models::instance::max_classes(&ds.k),
            extra,
        },
        method: opts.solver.name().to_string(),
        parameters: match &opts.solver {
            Solver::Exact(e) => serde_json::json!({
                "engine": e.engine.resolve(opts.criterion).name(),
                "time_limit_s": e.time_limit.map(|t| t.as_secs_f64()),
                "size_cap": e.size_cap,
                // The dominance cap is off under l-diversity and must-links (not valid there).
                "dominance_cap": e.size_cap && dominance_cap,
                "lp_bound": e.lp_bound,
                "lp_primal": e.lp_bound && e.lp_primal,
                "node_lp": e.lp_bound && e.node_lp,
                "search": e.search.name(),
                "scale": e.scale,
                "release": opts.release.name(),
            }),
            Solver::Heuristic(h) => serde_json::json!({
                "form": h.form,
                "cost": if h.method == crate::partition::heuristics::Heuristic::KMember {
                    Some(h.cost)
                } else {
                    None
                },
                "release": opts.release.name(),
            }),
        },
        seed: opts.seed,
        n: ds.n(),
        classes: partition.num_classes(),
        class_sizes: {
            let mut h = std::collections::BTreeMap::new();
            for s in partition.sizes() {
                *h.entry(s).or_default() += 1;
            }
            h
        },
        status: outcome.status.clone(),
        criterion: opts.criterion,
        objective: outcome.objective,
        lower_bound: outcome.lower_bound,
        heuristics,
        timeline: outcome
            .exact
            .as_ref()
            .map(|e| e.timeline.clone())
            .unwrap_or_default(),
        exact: outcome.exact.clone(),
        metrics: outcome.metrics.clone(),
        verified: check.verified,
        check,
        time_s: opts.started.elapsed().as_secs_f64(),
        outputs: opts.outputs.clone(),
    }
}

/// The partition picture of a verified anonymisation of `ds` as SVG and, with `with_html`, the
/// self-contained HTML report page around it, as the command line writes them.
/// `plot_axes` (`a,b`, two quasi-identifiers) places the records; by default a 2-D MDS.
pub fn pictures(
    ds: &Dataset,
    done: &Anonymised,
    plot_axes: Option<&str>,
    with_html: bool,
) -> Result<(String, Option<String>)> {
    let axes = match plot_axes {
        Some(spec) => Axes::parse(spec, &ds.qi)?,
        None => Axes::Mds,
    };
    let p = crate::report::pictures::draw(
        &axes,
        ds,
        &done.distance,
        &done.partition,
        &done.report,
        &done.release,
        with_html,
    )?;
    Ok((p.svg, p.html))
}
