//! `optik explain`: trace the exact CP search on a tiny table with the library, then write the
//! trace (to a file or standard output) and the search tree.

use super::args::{InputArgs, Privacy};
use crate::data::dataset::Dataset;
use crate::error::{internal, Result};
use crate::explain::{self, ExplainOptions};
use crate::release::output::{check_destinations, Staged};
use crate::Criterion;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub(crate) struct ExplainArgs {
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
pub(super) fn run(a: &ExplainArgs) -> Result<()> {
    let schema = a.input.schema()?;
    let ks = a.k.source()?;
    let outputs: Vec<&Path> = a
        .out
        .iter()
        .chain(a.tree.iter())
        .map(PathBuf::as_path)
        .collect();
    check_destinations(&outputs, &a.input.inputs(), a.force)?;
    let opts = ExplainOptions {
        criterion: a.criterion,
        search: a.search,
        size_cap: !a.no_size_cap,
        lp_bound: !a.no_lp_bound,
        max_decisions: a.max_decisions,
        scale: a.scale,
        show_values: a.show_values,
        tree: a.tree.is_some(),
    };
    opts.validate()?;
    let ds = Dataset::load(&a.input.input, schema, &ks, &a.input.load_options())?;
    let explanation = explain::explain(&ds, &opts)?;
    let staged_tree = match (&a.tree, &explanation.tree) {
        (Some(path), Some(svg)) => Some(Staged::write(path, svg.as_bytes())?),
        _ => None,
    };
    match &a.out {
        Some(path) => Staged::write(path, explanation.text.as_bytes())?.commit()?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(explanation.text.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| internal(format!("standard output: {e}")))?;
        }
    }
    if let Some(t) = staged_tree {
        t.commit()?;
    }
    Ok(())
}
