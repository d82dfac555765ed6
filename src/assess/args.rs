//! The `optik assess` command line.

use crate::cli::{InputArgs, Privacy};
use clap::Args;
use std::path::PathBuf;

/// `optik assess TABLE (--schema S | --qi ...) [k source] [--original IN] --report R.json`.
#[derive(Args, Debug)]
// The k source is optional here: without one, the k_i-dependent figures are left out.
#[command(mut_group("KArgs", |g| g.required(false)))]
pub struct AssessArgs {
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
