//! `optik explain`: a readable trace of the exact CP search on a tiny table (n ≤ 12), for
//! teaching — each decision, which propagator removed what and why, conflicts, learned nogoods
//! and improving solutions — and optionally the search tree as SVG.
//!
//! The search itself is recorded by `optik_models::cp::explain` (hooks around pumpkin); this
//! module loads the table, names records and classes readably ([`text`]) and draws the tree
//! ([`tree`]).

pub mod text;
pub mod tree;

use crate::cli::{InputArgs, Privacy};
use crate::data::dataset::{Dataset, LoadOptions};
use crate::error::{input, Result};
use crate::release::output::{check_destinations, Staged};
use crate::Criterion;
use clap::Args;
use optik_models::cp::explain::{self as engine, ExplainOptions, MAX_RECORDS};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Criterion to optimise.
    #[arg(long, default_value = "dbil")]
    pub criterion: Criterion,
    /// Search strategy: switching, create, fill, autonomous.
    #[arg(long, default_value = "autonomous")]
    pub search: optik_models::cp::Search,
    /// Do not post the dominance cap |C| ≤ 2·max k_i − 1.
    #[arg(long)]
    pub no_size_cap: bool,
    /// dbil/wcsd: do not post the set-partitioning LP's dual bound (DualBound).
    #[arg(long)]
    pub no_lp_bound: bool,
    /// Stop the search after this many decisions (the trace says so).
    #[arg(long, default_value_t = 5000)]
    pub max_decisions: usize,
    /// Integer units per distance unit.
    #[arg(long, default_value_t = crate::data::distance::DEFAULT_SCALE)]
    pub scale: f64,
    /// Draw the search tree as SVG into this file.
    #[arg(long)]
    pub tree: Option<PathBuf>,
    /// Write the trace into this file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// List each record's quasi-identifier values in the trace's legend (off by default: the
    /// trace names records by row only).
    #[arg(long)]
    pub show_values: bool,
    /// Replace existing outputs.
    #[arg(long)]
    pub force: bool,
}

/// Runs `optik explain`.
pub fn run(a: &ExplainArgs) -> Result<()> {
    let schema = match (&a.input.schema, &a.input.qi) {
        (Some(s), None) => crate::data::schema::Schema::read(s)?,
        (None, Some(q)) => crate::data::schema::Schema::from_qi_list(q)?,
        _ => return Err(input("give either --schema or --qi")),
    };
    let ks = a.k.source()?;
    let outputs: Vec<&Path> = a
        .out
        .iter()
        .chain(a.tree.iter())
        .map(PathBuf::as_path)
        .collect();
    let mut inputs: Vec<&Path> = vec![&a.input.input];
    if let Some(s) = &a.input.schema {
        inputs.push(s);
    }
    check_destinations(&outputs, &inputs, a.force)?;
    if !(a.scale.is_finite() && a.scale > 0.0) {
        return Err(input(format!("--scale must be positive, got {}", a.scale)));
    }
    if a.max_decisions == 0 {
        return Err(input("--max-decisions must be at least 1"));
    }
    let ds = Dataset::load(
        &a.input.input,
        schema,
        &ks,
        &LoadOptions {
            delimiter: a.input.delimiter,
            drop_missing: a.input.drop_missing,
        },
    )?;
    if ds.n() > MAX_RECORDS {
        return Err(input(format!(
            "{}: explain traces tables of at most {MAX_RECORDS} records (this one has {}); take an excerpt",
            a.input.input.display(),
            ds.n()
        )));
    }
    let inst = ds
        .distance()
        .instance(ds.k.clone(), a.scale)
        .map_err(input)?;
    let trace = engine::explain(
        &inst,
        &ExplainOptions {
            criterion: a.criterion,
            search: a.search,
            size_cap: !a.no_size_cap,
            lp_bound: !a.no_lp_bound,
            max_decisions: a.max_decisions,
            time_limit: None,
        },
    )
    .map_err(input)?;
    let names = text::Names::new(&ds, a.show_values);
    let header = text::Header {
        input: a.input.input.display().to_string(),
        k_source: ks.describe(),
        search: a.search.name(),
    };
    let body = text::render(&trace, &names, &header);
    let staged_tree = match &a.tree {
        Some(path) => Some(Staged::write(path, tree::svg(&trace, &names).as_bytes())?),
        None => None,
    };
    match &a.out {
        Some(path) => Staged::write(path, body.as_bytes())?.commit()?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(body.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| crate::error::internal(format!("standard output: {e}")))?;
        }
    }
    if let Some(t) = staged_tree {
        t.commit()?;
    }
    Ok(())
}
