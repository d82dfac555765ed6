//! The heuristic experiments of seed 001 chapter 5 (§5.5) on a sample of a table (Adult in
//! `benches/experiments.md`), each returned as Markdown tables, a CSV of every cell and SVG
//! heatmaps (`optik experiment` writes them into a folder):
//!
//! - `table53`: DBIL of k_c- and k_m-anonymity over DBIL of k_i-anonymity, per heuristic, for the
//!   four Acquisti–Grossklags distributions, low and high levels, random and correlated k_i
//!   (table 5.3);
//! - `frequency`: the same ratios over the (f_l, f_c) grid (figures 5.5–5.8);
//! - `scale`: k_c-anonymity over k_i-anonymity for k_l = k_m − s, k_c = k_m + s (figure 5.9);
//! - `deletion`: deleting the conservatives and releasing k_m-anonymity, over k_i-anonymity
//!   (figure 5.10, greedy k-member).
//!
//! Heuristic runs are untimed and run in parallel (rayon); every number is deterministic for
//! the given sample and seeds.

mod grids;
mod options;
mod runs;

pub(crate) use options::{ExperimentOptions, File, Kind, SUMMARY};

use crate::data::dataset::{Dataset, RowSample};
use crate::data::k_source::KSource;
use crate::data::schema::Schema;
use crate::data::table::Table;
use crate::error::Result;
use std::time::Instant;

pub(crate) use self::runs::{Sample, LOW};

/// An experiment's results.
pub(crate) struct Experiment {
    /// The files of the output folder (the summary is [`SUMMARY`]).
    pub files: Vec<File>,
    /// Records of the sample.
    pub n: usize,
}

/// Runs an experiment; `started` is when the run started (for the summary's wall time).
pub(crate) fn experiment(a: &ExperimentOptions, started: Instant) -> Result<Experiment> {
    a.validate()?;
    let schema = Schema::read(&a.schema)?;
    let table = Table::read(&a.csv, schema.delimiter)?;
    let ds = Dataset::from_table(
        table,
        schema,
        &KSource::Uniform { k: 1 },
        true,
        match a.rows {
            None => RowSample::All,
            Some(n) => RowSample::Random {
                n,
                seed: a.sample_seed,
            },
        },
    )?;
    let axes = crate::data::k_source::correlated::parse_axes(&a.k_axes, &a.k_axis_order)?;
    let dist = ds.distance();
    let sample = Sample { ds, dist, axes };
    // Fail on a bad axis now, before the long runs.
    sample.k(LOW, [0.5, 0.3, 0.2], true, 0)?;
    let header = format!(
        "- command: `{}`\n- sample: {} from `{}` after dropping rows with a missing quasi-identifier; {} quasi-identifiers\n- correlated k_i: by distance to the origin of {} (each axis scaled to [0, 1]; {})\n",
        a.command,
        match a.rows {
            None => format!("all {} records", sample.n()),
            Some(_) => format!(
                "{} records drawn at random (seed {})",
                sample.n(),
                a.sample_seed
            ),
        },
        a.csv.display(),
        sample.ds.qi.attributes.len(),
        a.k_axes.replace(',', " × "),
        if a.k_axis_order.is_empty() { "numeric axes".to_string() } else { format!("order {}", a.k_axis_order.join("; ")) },
    );
    let mut files = match a.kind {
        Kind::Table53 => grids::table53(&sample, a)?,
        Kind::Frequency => grids::frequency(&sample, a)?,
        Kind::Scale => grids::scale(&sample, a)?,
        Kind::Deletion => grids::deletion(&sample, a)?,
    };
    let summary = files
        .iter_mut()
        .find(|f| f.name == SUMMARY)
        .ok_or_else(|| crate::error::internal("experiment without a summary"))?;
    let body = String::from_utf8_lossy(&summary.bytes).to_string();
    let (title, rest) = body.split_once('\n').unwrap_or((&body, ""));
    summary.bytes = format!(
        "{title}\n\n{header}- wall time: {:.1} s on {} cores (heuristic runs in parallel, untimed)\n{rest}",
        started.elapsed().as_secs_f64(),
        std::thread::available_parallelism().map_or(1, |c| c.get())
    )
    .into_bytes();
    Ok(Experiment {
        files,
        n: sample.n(),
    })
}
