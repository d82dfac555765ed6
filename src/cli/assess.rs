//! `optik assess`: measure the privacy and utility of any table with the library's assessment,
//! write its JSON report and print a one-line summary.

use super::args::{InputArgs, Privacy};
use crate::assess::{self, AssessOptions, AssessReport};
use crate::data::table::TableSource;
use crate::error::Result;
use crate::release::output::{check_destinations, Staged};
use crate::report;
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `optik assess TABLE (--schema S | --qi ...) [k source] [--original IN] --report R.json`.
#[derive(Args, Debug)]
// The k source is optional here: without one, the k_i-dependent figures are left out.
#[command(mut_group("KArgs", |g| g.required(false)))]
pub(crate) struct AssessArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Comma-separated columns to treat as sensitive (in addition to the schema's).
    #[arg(long)]
    pub sensitive: Option<String>,
    /// The original table: population of the journalist risk; when it has the same rows in
    /// the same order, also DBIL, SBIL, non-uniform entropy, identity DRs and the k column.
    #[arg(long)]
    pub original: Option<PathBuf>,
    /// JSON report to write.
    #[arg(long)]
    pub report: PathBuf,
    /// Records whose prosecutor risk is strictly above this are "at risk".
    #[arg(long, default_value_t = 0.2)]
    pub risk_threshold: f64,
    /// Largest quasi-identifier subset of the distinction/separation search and of the CDRs.
    #[arg(long, default_value_t = 3)]
    pub max_subset: usize,
    /// The c of recursive (c, l)-diversity.
    #[arg(long, default_value_t = 3.0)]
    pub c: f64,
    /// Semantic partitions (TOML: `[column]` then `domain = ["v1", "v2"]`), see docs/assess.md.
    #[arg(long)]
    pub semantic: Option<PathBuf>,
    /// Hierarchy of a sensitive attribute for the hierarchical EMD: COLUMN=FILE (repeatable).
    #[arg(long, value_name = "COLUMN=FILE")]
    pub sensitive_hierarchy: Vec<String>,
    /// Ordered levels of a sensitive attribute for the ordered EMD: COLUMN=a,b,c (repeatable).
    #[arg(long, value_name = "COLUMN=LEVELS")]
    pub sensitive_levels: Vec<String>,
    /// Replace an existing report.
    #[arg(long)]
    pub force: bool,
    /// No summary on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `optik assess`; returns the report it wrote.
pub(super) fn run(a: &AssessArgs) -> Result<AssessReport> {
    let started = Instant::now();
    let opts = AssessOptions {
        load: a.input.load_options(),
        sensitive: a.sensitive.clone(),
        original: a.original.clone().map(TableSource::File),
        risk_threshold: a.risk_threshold,
        max_subset: a.max_subset,
        c: a.c,
        semantic: a.semantic.clone(),
        sensitive_hierarchy: a.sensitive_hierarchy.clone(),
        sensitive_levels: a.sensitive_levels.clone(),
    };
    opts.validate()?;
    let mut inputs: Vec<&Path> = a.input.inputs();
    inputs.extend(a.original.as_deref());
    inputs.extend(a.semantic.as_deref());
    check_destinations(&[&a.report], &inputs, a.force)?;
    let schema = a.input.schema()?;
    let ks = a.k.source_if_given()?;
    let report = assess::assess(
        &TableSource::File(a.input.input.clone()),
        schema,
        ks,
        &opts,
        started,
    )?;
    Staged::write(&a.report, &report::to_json(&report)?)?.commit()?;
    if !a.quiet {
        eprintln!(
            "assessed {} records: {} classes, k achieved {}, prosecutor risk highest {:.4} average {:.4}, {:.1}% sample uniques{}, {:.2} s",
            report.rows,
            report.classes.classes,
            report.classes.k_achieved,
            report.risk.prosecutor.highest,
            report.risk.prosecutor.average,
            100.0 * report.risk.sample_uniques_share,
            match report.classes.k_violations {
                Some(v) => format!(", {v} records below their k_i"),
                None => String::new(),
            },
            report.time_s
        );
    }
    Ok(report)
}
