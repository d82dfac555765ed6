//! The command line: `optik anonymise` and `optik check`.

use crate::data::dataset::{Dataset, LoadOptions};
use crate::data::k_source::{self, KSource};
use crate::data::qi;
use crate::data::schema::{Role, Schema};
use crate::data::table::{is_missing, Table};
use crate::error::{in_file, input, internal, Result};
use crate::partition::exact::{self, ExactOptions};
use crate::partition::heuristics::{Form, HeuristicOptions, KMemberCost, Method};
use crate::partition::run::{self, Solver};
use crate::release::check::{self, CheckReport};
use crate::release::output::{check_destinations, Staged};
use crate::report::{
    ConstraintsSummary, InputSummary, OutputSummary, QiSummary, Report, SchemaSummary,
};
use crate::{release, Criterion};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Exit code of `optik check` when the release is not k_i-anonymous.
pub const EXIT_NOT_ANONYMOUS: i32 = 3;

#[derive(Parser, Debug)]
#[command(
    name = "optik",
    version,
    about = "Optimal k- and k_i-anonymous releases of small microdata tables"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Partition the records into k_i-anonymous classes, write the generalised release and a report.
    Anonymise(AnonymiseArgs),
    /// Verify independently that a released table is k_i-anonymous (exit 3 when it is not).
    Check(CheckArgs),
    /// Write the exact solvers' instance (integer distance matrix + k_i) for other solvers.
    Export(ExportArgs),
    /// Measure the privacy and utility of any table (a release, another tool's output, an original).
    Assess(crate::assess::AssessArgs),
    /// Run a benchmark grid from a TOML spec; write results.csv, results.md and the spec.
    Bench(crate::bench::BenchArgs),
    /// Re-run a seed 001 §5.5 heuristic experiment (table 5.3, figures 5.5–5.10) on a table sample.
    Experiment(crate::experiments::ExperimentArgs),
    /// Trace the exact CP search on a tiny table (n ≤ 12): decisions, propagations and their
    /// explanations, conflicts, learned nogoods, solutions; optionally the search tree as SVG.
    Explain(crate::explain::ExplainArgs),
}

/// `optik export` formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// `{"n": .., "scale": .., "k": [..], "dist": [[..]]}`.
    Json,
    /// MiniZinc data for `models/minizinc/ki_anonymity.mzn`.
    Dzn,
    /// The compact assignment MIP of `--criterion` in CPLEX LP format.
    Lp,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: ExportFormat,
    /// Criterion of the LP export (dbil, diameter, wcsd).
    #[arg(long, default_value = "dbil")]
    pub criterion: Criterion,
    /// Integer units per distance unit.
    #[arg(long, default_value_t = crate::data::distance::DEFAULT_SCALE)]
    pub scale: f64,
    /// File to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Replace an existing output.
    #[arg(long)]
    pub force: bool,
}

/// Where the table and its schema come from.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Input table (CSV with a header row; `,` `;` or tab separated, detected).
    pub input: PathBuf,
    /// TOML schema giving every column a role and each quasi-identifier a kind.
    #[arg(long, conflicts_with = "qi", required_unless_present = "qi")]
    pub schema: Option<PathBuf>,
    /// Quick use without a schema: comma-separated quasi-identifiers (kinds inferred).
    #[arg(long)]
    pub qi: Option<String>,
    /// Field delimiter (one character, or `tab`); detected from the header when absent.
    #[arg(long, value_parser = crate::data::table::parse_delimiter)]
    pub delimiter: Option<u8>,
    /// Drop rows with a missing quasi-identifier (empty, NA, ?) instead of failing.
    #[arg(long)]
    pub drop_missing: bool,
}

/// The privacy constraints: exactly one source of k_i.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct KArgs {
    /// Uniform k-anonymity.
    #[arg(long, value_parser = k_source::parse_k)]
    pub k: Option<u32>,
    /// Per-record k_i read from this column (not released).
    #[arg(long)]
    pub k_column: Option<String>,
    /// Each record draws k_i from this distribution, e.g. 3:0.823,5:0.168,7:0.009 (with --seed).
    #[arg(long)]
    pub k_dist: Option<String>,
    /// Acquisti & Grossklags group shares (seed table 5.2): general, personal, professional,
    /// sexual-political; k values from --k-levels.
    #[arg(long)]
    pub k_preset: Option<String>,
}

/// The k_i source with the options that shape it, shared by every subcommand.
#[derive(Args, Debug, Clone)]
pub struct Privacy {
    #[command(flatten)]
    pub choice: KArgs,
    /// k values of the liberal, moderate and conservative groups for --k-preset.
    #[arg(long, default_value = "3,5,7")]
    pub k_levels: String,
    /// Seed of the --k-dist / --k-preset draws (reuse the one the release was made with) and of
    /// randomised methods.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How --k-dist / --k-preset shares are given to records: at random, or correlated with the
    /// data (nearest the origin of the --k-axes plane: lowest k; seed 001 §5.5.5).
    #[arg(long, value_enum, default_value = "random")]
    pub k_assign: crate::data::k_source::correlated::KAssign,
    /// The plane of --k-assign correlated: two columns, a,b.
    #[arg(long, default_value = crate::data::k_source::correlated::DEFAULT_AXES)]
    pub k_axes: String,
    /// Order of a non-numeric --k-axes column, from the origin outwards: COLUMN=v1,v2,...
    /// (repeatable; `education=adult` is Adult's education-num order).
    #[arg(long)]
    pub k_axis_order: Vec<String>,
}

impl Privacy {
    /// The k source these flags describe.
    pub fn source(&self) -> Result<KSource> {
        let (levels, seed) = (self.k_levels.as_str(), self.seed);
        let choice = &self.choice;
        let ks = if let Some(k) = choice.k {
            KSource::Uniform { k }
        } else if let Some(c) = &choice.k_column {
            KSource::Column { name: c.clone() }
        } else if let Some(d) = &choice.k_dist {
            KSource::Distribution {
                dist: k_source::parse_distribution(d)?,
                seed,
            }
        } else if let Some(p) = &choice.k_preset {
            KSource::Distribution {
                dist: k_source::preset(p, k_source::parse_levels(levels)?)?,
                seed,
            }
        } else {
            return Err(input("give one of --k, --k-column, --k-dist, --k-preset"));
        };
        crate::data::k_source::correlated::apply(
            ks,
            self.k_assign,
            &self.k_axes,
            &self.k_axis_order,
        )
    }
}

/// `--method` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    Mdav,
    Kmember,
    Mondrian,
    Optimal,
}

impl MethodArg {
    /// The heuristic, if this is one.
    pub fn heuristic(self) -> Option<Method> {
        match self {
            MethodArg::Mdav => Some(Method::Mdav),
            MethodArg::Kmember => Some(Method::KMember),
            MethodArg::Mondrian => Some(Method::Mondrian),
            MethodArg::Optimal => None,
        }
    }

    /// Name as written in reports.
    pub fn name(self) -> &'static str {
        match self.heuristic() {
            Some(m) => m.name(),
            None => "optimal",
        }
    }
}

#[derive(Args, Debug)]
pub struct AnonymiseArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Partitioning method: a heuristic, or `optimal` (exact CP engine, warm-started by the
    /// best heuristic).
    #[arg(long, value_enum)]
    pub method: MethodArg,
    /// Time limit of the exact engine (e.g. 60s, 5m); the best partition found is released and
    /// the report says whether it is proven optimal.
    #[arg(long, value_parser = crate::partition::exact::parse_duration)]
    pub time_limit: Option<std::time::Duration>,
    /// Exact engine: `auto` (column generation for dbil/wcsd, CP for diameter/split), `cp`,
    /// `colgen` or `mip`.
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: exact::Engine,
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
    #[command(flatten)]
    pub class: crate::partition::constraints::ConstraintArgs,
    /// Exact engine search strategy: switching, create, fill, autonomous.
    #[arg(long, default_value = "autonomous")]
    pub search: optik_models::cp::Search,
    /// Integer units per distance unit in the exact engines' matrix.
    #[arg(long, default_value_t = crate::data::distance::DEFAULT_SCALE)]
    pub scale: f64,
    /// `ki`: the personalised heuristic; `k`: the original one with k = max k_i.
    #[arg(long, value_enum, default_value = "ki")]
    pub form: Form,
    /// Greedy k-member cost: original (eq. 5.3), corrected (5.4), personalised (5.5).
    #[arg(long, value_enum, default_value = "personalised")]
    pub cost: KMemberCost,
    /// Criterion reported as the objective.
    #[arg(long, default_value = "dbil")]
    pub criterion: Criterion,
    /// Release CSV to write.
    #[arg(long)]
    pub out: PathBuf,
    /// JSON report to write.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Add a column with this name holding each record's class id.
    #[arg(long)]
    pub class_column: Option<String>,
    #[command(flatten)]
    pub pictures: crate::report::pictures::PictureArgs,
    /// Replace existing outputs.
    #[arg(long)]
    pub force: bool,
    /// No progress or summary on stderr.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Original table holding the --k-column (when the release does not), rows in release order.
    #[arg(long)]
    pub original: Option<PathBuf>,
    /// Write the check result as JSON.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Replace an existing report.
    #[arg(long)]
    pub force: bool,
}

/// Runs the CLI; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let result = match cli.command {
        Command::Anonymise(a) => anonymise(&a).map(|_| 0),
        Command::Check(c) => check_command(&c),
        Command::Export(e) => export(&e).map(|_| 0),
        Command::Assess(a) => crate::assess::run(&a).map(|_| 0),
        Command::Bench(b) => crate::bench::bench(&b).map(|_| 0),
        Command::Experiment(e) => crate::experiments::experiment(&e).map(|_| 0),
        Command::Explain(e) => crate::explain::run(&e).map(|_| 0),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

/// Prints clap's help and version as usual, and usage errors on one line (exit 2).
fn usage_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return 0;
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .collect();
    let line = parts.join(" ");
    eprintln!(
        "{}",
        if line.starts_with("error:") {
            line
        } else {
            format!("error: {line}")
        }
    );
    2
}

fn load_schema(args: &InputArgs) -> Result<Schema> {
    match (&args.schema, &args.qi) {
        (Some(s), None) => Schema::read(s),
        (None, Some(q)) => Schema::from_qi_list(q),
        _ => Err(input("give either --schema or --qi")),
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

/// `optik anonymise`: returns the report it wrote.
pub fn anonymise(a: &AnonymiseArgs) -> Result<Report> {
    let start = Instant::now();
    let schema = load_schema(&a.input)?;
    let ks = a.k.source()?;
    let mut outputs: Vec<&Path> = vec![&a.out];
    if let Some(r) = &a.report {
        outputs.push(r);
    }
    outputs.extend(a.pictures.outputs());
    let mut inputs: Vec<&Path> = vec![&a.input.input];
    if let Some(s) = &a.input.schema {
        inputs.push(s);
    }
    inputs.extend(a.class.inputs());
    if a.class.any() && a.method != MethodArg::Optimal {
        return Err(input(format!(
            "--l-diversity, --links and --max-class-size need --method optimal, not {}",
            a.method.name()
        )));
    }
    check_destinations(&outputs, &inputs, a.force)?;
    let ds = Dataset::load(
        &a.input.input,
        schema,
        &ks,
        &LoadOptions {
            delimiter: a.input.delimiter,
            drop_missing: a.input.drop_missing,
        },
    )?;
    let axes = a.pictures.axes(&ds)?;
    if let Some(c) = &a.class_column {
        if ds.table.headers.contains(c) {
            return Err(input(format!(
                "--class-column '{c}' is already a column of the input"
            )));
        }
    }
    let class = a.class.load(&ds)?;
    let dist = ds.distance();
    let solver = match a.method.heuristic() {
        Some(method) => Solver::Heuristic(HeuristicOptions {
            method,
            form: a.form,
            cost: a.cost,
            seed: a.k.seed,
        }),
        None => Solver::Exact(ExactOptions {
            engine: a.engine,
            criterion: a.criterion,
            time_limit: a.time_limit,
            size_cap: !a.no_size_cap,
            lp_bound: !a.no_lp_bound,
            lp_primal: !a.no_lp_primal,
            search: a.search,
            scale: a.scale,
            seed: a.k.seed,
            quiet: a.quiet,
        }),
    };
    let bar = progress(
        a.quiet || ds.n() < 2_000 || matches!(solver, Solver::Exact(_)),
        ds.n(),
        solver.name(),
    );
    let run::Outcome {
        partition,
        exact,
        metrics: m,
        status,
        objective,
        lower_bound,
    } = run::partition_with(&ds, &dist, &solver, a.criterion, &bar, &class.model)?;
    bar.finish_and_clear();
    let rel = release::build(&ds, &partition, a.class_column.as_deref());
    let staged = Staged::write(&a.out, &rel.to_csv(ds.table.delimiter))?;
    let check = check::check_file(staged.path(), Some(ds.table.delimiter), &rel.quasi, &ds.k)?;
    if !check.verified {
        return Err(internal(format!(
            "the independent check rejected the release ({} records in groups smaller than their k_i); nothing was written",
            check.violations
        )));
    }
    let extra = if a.class.any() {
        let table = Table::read(staged.path(), Some(ds.table.delimiter))?;
        let c = crate::release::check::constraints::check(&table, &rel.quasi, &class.requested)?;
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
    let report = Report {
        optik_version: env!("CARGO_PKG_VERSION"),
        input: InputSummary {
            path: a.input.input.display().to_string(),
            rows: ds.table.len(),
            dropped_missing: ds.dropped,
            delimiter: (ds.table.delimiter as char).to_string(),
        },
        schema: schema_summary(&ds),
        constraints: ConstraintsSummary {
            description: ks.describe(),
            k_histogram: k_source::histogram(&ds.k),
            k_min: *ds.k.iter().min().expect("n ≥ 1"),
            k_max: *ds.k.iter().max().expect("n ≥ 1"),
            max_classes: optik_models::instance::max_classes(&ds.k),
            extra,
        },
        method: a.method.name().to_string(),
        parameters: match a.method {
            MethodArg::Optimal => serde_json::json!({
                "engine": a.engine.resolve(a.criterion).name(),
                "time_limit_s": a.time_limit.map(|t| t.as_secs_f64()),
                "size_cap": !a.no_size_cap,
                // The dominance cap is off under l-diversity and must-links (not valid there).
                "dominance_cap": !a.no_size_cap && class.model.hereditary(),
                "lp_bound": !a.no_lp_bound,
                "lp_primal": !a.no_lp_bound && !a.no_lp_primal,
                "search": a.search.name(),
                "scale": a.scale,
            }),
            _ => serde_json::json!({
                "form": a.form,
                "cost": if a.method == MethodArg::Kmember { Some(a.cost) } else { None },
            }),
        },
        seed: a.k.seed,
        n: ds.n(),
        classes: partition.num_classes(),
        class_sizes: {
            let mut h = std::collections::BTreeMap::new();
            for s in partition.sizes() {
                *h.entry(s).or_default() += 1;
            }
            h
        },
        status,
        criterion: a.criterion.name().to_string(),
        objective,
        lower_bound,
        timeline: exact
            .as_ref()
            .map(|e| e.timeline.clone())
            .unwrap_or_default(),
        exact,
        metrics: m,
        verified: check.verified,
        check,
        time_s: start.elapsed().as_secs_f64(),
        outputs: OutputSummary {
            release: a.out.display().to_string(),
            report: a.report.as_ref().map(|r| r.display().to_string()),
            plot: a.pictures.plot.as_ref().map(|p| p.display().to_string()),
            html: a.pictures.html.as_ref().map(|p| p.display().to_string()),
        },
    };
    let staged_report = match &a.report {
        Some(path) => {
            let json =
                serde_json::to_vec_pretty(&report).map_err(|e| internal(format!("report: {e}")))?;
            Some(Staged::write(path, &json)?)
        }
        None => None,
    };
    let staged_pictures = a
        .pictures
        .stage(&axes, &ds, &dist, &partition, &report, &rel)?;
    staged.commit()?;
    if let Some(r) = staged_report {
        r.commit()?;
    }
    for p in staged_pictures {
        p.commit()?;
    }
    if !a.quiet {
        eprintln!(
            "{} ({}): {} records in {} classes, {} = {:.4}{}, verified k_i-anonymous, {:.2} s",
            report.method,
            report.status,
            report.n,
            report.classes,
            report.criterion,
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
        if ds.dropped > 0 {
            eprintln!(
                "dropped {} rows with a missing quasi-identifier",
                ds.dropped
            );
        }
    }
    Ok(report)
}

fn schema_summary(ds: &Dataset) -> SchemaSummary {
    let quasi_identifiers = ds
        .qi
        .attributes
        .iter()
        .map(|a| QiSummary {
            name: a.name.clone(),
            kind: a.kind_name().to_string(),
            weight: a.weight,
            levels: match &a.values {
                qi::Values::Numeric { .. } => None,
                qi::Values::Ordinal { levels, .. } => Some(levels.len()),
                qi::Values::Categorical { hierarchy, .. } => Some(hierarchy.height()),
            },
            hierarchy: matches!(a.values, qi::Values::Categorical { has_file: true, .. }),
        })
        .collect();
    let (mut released, mut dropped) = (Vec::new(), Vec::new());
    for (h, r) in ds.table.headers.iter().zip(&ds.roles) {
        match r {
            Some(Role::Quasi | Role::Sensitive | Role::Insensitive) => released.push(h.clone()),
            _ => dropped.push(h.clone()),
        }
    }
    SchemaSummary {
        source: ds.schema.source.clone(),
        quasi_identifiers,
        released_columns: released,
        dropped_columns: dropped,
    }
}

/// `optik export`: writes the instance of a table.
pub fn export(e: &ExportArgs) -> Result<()> {
    let schema = load_schema(&e.input)?;
    let ks = e.k.source()?;
    let mut inputs: Vec<&Path> = vec![&e.input.input];
    if let Some(s) = &e.input.schema {
        inputs.push(s);
    }
    check_destinations(&[&e.out], &inputs, e.force)?;
    if !(e.scale.is_finite() && e.scale > 0.0) {
        return Err(input(format!("--scale must be positive, got {}", e.scale)));
    }
    let ds = Dataset::load(
        &e.input.input,
        schema,
        &ks,
        &LoadOptions {
            delimiter: e.input.delimiter,
            drop_missing: e.input.drop_missing,
        },
    )?;
    if ds.n() > exact::MAX_EXACT_RECORDS {
        return Err(input(format!(
            "export writes an n × n matrix and accepts at most {} records; this table has {}",
            exact::MAX_EXACT_RECORDS,
            ds.n()
        )));
    }
    let inst = ds
        .distance()
        .instance(ds.k.clone(), e.scale)
        .map_err(input)?;
    let text = match e.format {
        ExportFormat::Json => optik_models::export::to_json(&inst),
        ExportFormat::Dzn => optik_models::export::to_dzn(&inst),
        ExportFormat::Lp => {
            if e.criterion == Criterion::Split {
                return Err(input(
                    "--format lp: the compact MIP has no split model (dbil, diameter or wcsd)",
                ));
            }
            optik_models::mip_lp_text(&inst, e.criterion)
        }
    };
    Staged::write(&e.out, text.as_bytes())?.commit()
}

/// `optik check`: returns the exit code (0 verified, 3 not k_i-anonymous).
pub fn check_command(c: &CheckArgs) -> Result<i32> {
    let schema = load_schema(&c.input)?;
    let ks = c.k.source()?;
    if let Some(r) = &c.report {
        check_destinations(&[r], &[&c.input.input], c.force)?;
    }
    let release = Table::read(&c.input.input, c.input.delimiter.or(schema.delimiter))?;
    let quasi: Vec<String> = schema.quasi().map(|q| q.name.clone()).collect();
    let rows: Vec<usize> = (0..release.len()).collect();
    let k = match (&ks, &c.original) {
        (KSource::Column { name }, _) if release.headers.contains(name) => {
            ks.resolve(&release, &rows)?
        }
        (KSource::Column { name }, Some(orig)) => {
            let original = Table::read(orig, c.input.delimiter.or(schema.delimiter))?;
            let qcols: Vec<usize> = quasi
                .iter()
                .map(|q| original.column(q))
                .collect::<Result<_>>()?;
            let kept: Vec<usize> = (0..original.len())
                .filter(|&r| {
                    !c.input.drop_missing
                        || !qcols.iter().any(|&q| is_missing(&original.rows[r][q]))
                })
                .collect();
            if kept.len() != release.len() {
                return Err(in_file(
                    orig,
                    format!(
                        "has {} rows{} but the release has {}",
                        kept.len(),
                        if c.input.drop_missing {
                            " after dropping missing values"
                        } else {
                            ""
                        },
                        release.len()
                    ),
                ));
            }
            KSource::Column { name: name.clone() }.resolve(&original, &kept)?
        }
        (KSource::Column { name }, None) => {
            return Err(input(format!(
                "the release has no column '{name}': give the original table with --original"
            )))
        }
        _ => ks.resolve(&release, &rows)?,
    };
    let report: CheckReport = check::check_table(&release, &quasi, &k)?;
    if let Some(path) = &c.report {
        let json =
            serde_json::to_vec_pretty(&report).map_err(|e| internal(format!("report: {e}")))?;
        Staged::write(path, &json)?.commit()?;
    }
    if report.verified {
        eprintln!(
            "verified: {} records in {} groups, smallest group {}, every record's group has at least k_i rows",
            report.records, report.groups, report.min_group
        );
        Ok(0)
    } else {
        let v = report.first_violation.as_ref().expect("a violation exists");
        eprintln!(
            "NOT k_i-anonymous: {} records are in groups smaller than their k_i (first: {} line {}, k_i = {}, group of {})",
            report.violations,
            c.input.input.display(),
            v.line,
            v.k,
            v.group_size
        );
        Ok(EXIT_NOT_ANONYMOUS)
    }
}
