//! `optik explain`: a readable trace of the exact CP search on a tiny table (n ≤ 12), for
//! teaching — each decision, which propagator removed what and why, conflicts, learned nogoods
//! and improving solutions — and optionally the search tree as SVG.
//!
//! The search itself is recorded by `optik_models::cp::explain` (hooks around pumpkin); this
//! module checks the table is tiny, names records and classes readably ([`text`]) and draws the tree
//! ([`tree`]).

pub(crate) mod text;
pub(crate) mod tree;

use crate::data::dataset::Dataset;
use crate::error::{input, Result};
use crate::settings::Setting;
use crate::Criterion;
use optik_models::cp::explain::{self as engine, MAX_RECORDS};
use optik_models::cp::Search;

/// What to trace and how to show it.
#[derive(Clone, Debug)]
pub(crate) struct ExplainOptions {
    /// Criterion to optimise.
    pub criterion: Criterion,
    /// Search strategy.
    pub search: Search,
    /// Post the dominance cap |C| ≤ 2·max k_i − 1.
    pub size_cap: bool,
    /// dbil/wcsd: post the set-partitioning LP's dual bound (DualBound).
    pub lp_bound: bool,
    /// Stop the search after this many decisions (the trace says so).
    pub max_decisions: usize,
    /// Integer units per distance unit.
    pub scale: f64,
    /// List each record's quasi-identifier values in the trace's legend.
    pub show_values: bool,
    /// Draw the search tree as SVG too.
    pub tree: bool,
}

impl ExplainOptions {
    /// Refuses a scale or a decision budget that cannot run (before the table is read).
    pub(crate) fn validate(&self) -> Result<()> {
        if !(self.scale.is_finite() && self.scale > 0.0) {
            return Err(input(format!(
                "{} must be positive, got {}",
                Setting::Scale,
                self.scale
            )));
        }
        if self.max_decisions == 0 {
            return Err(input(format!(
                "{} must be at least 1",
                Setting::MaxDecisions
            )));
        }
        Ok(())
    }
}

/// A traced search: the readable trace and, when asked, the search tree.
#[derive(Clone, Debug)]
pub(crate) struct Explanation {
    pub text: String,
    /// The search tree as SVG.
    pub tree: Option<String>,
}

/// Traces the exact CP search on `ds` (at most [`MAX_RECORDS`] records).
pub(crate) fn explain(ds: &Dataset, opts: &ExplainOptions) -> Result<Explanation> {
    opts.validate()?;
    if !optik_models::Engine::Cp.optimises(opts.criterion) {
        return Err(input(format!(
            "explain traces the CP search, which does not optimise {} (use {} optimal with column generation)",
            opts.criterion.name(),
            Setting::Method
        )));
    }
    if ds.n() > MAX_RECORDS {
        return Err(input(format!(
            "{}: explain traces tables of at most {MAX_RECORDS} records (this one has {}); take an excerpt",
            ds.table.path.display(),
            ds.n()
        )));
    }
    let inst = ds
        .distance()
        .instance(ds.k.clone(), opts.scale)
        .map_err(input)?;
    let trace = engine::explain(
        &inst,
        &engine::ExplainOptions {
            criterion: opts.criterion,
            search: opts.search,
            size_cap: opts.size_cap,
            lp_bound: opts.lp_bound,
            max_decisions: opts.max_decisions,
            time_limit: None,
        },
    )
    .map_err(|e| input(e.to_string()))?;
    let names = text::Names::new(ds, opts.show_values);
    let header = text::Header {
        input: ds.table.path.display().to_string(),
        k_source: ds.k_source.describe(),
        search: opts.search.name(),
    };
    Ok(Explanation {
        text: text::render(&trace, &names, &header),
        tree: opts.tree.then(|| tree::svg(&trace, &names)),
    })
}
