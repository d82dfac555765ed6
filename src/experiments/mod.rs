//! `optik experiment KIND --csv T --schema S --out DIR`: the heuristic experiments of seed 001
//! chapter 5 (§5.5) on a sample of a table (Adult in `benches/experiments.md`), each written as
//! Markdown tables, a CSV of every cell and SVG heatmaps into DIR atomically:
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
mod runs;

use crate::data::dataset::{Dataset, RowSample};
use crate::data::k_source::KSource;
use crate::data::schema::Schema;
use crate::data::table::Table;
use crate::error::{input, Result};
use crate::partition::heuristics::Method;
use crate::release::output::StagedDir;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Instant;

pub use self::runs::{dbil_of, frequency_grid, Sample, HIGH, LOW};

/// The Markdown summary every experiment writes (and the marker of its output folder).
pub const SUMMARY: &str = "experiment.md";

/// Which experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// Table 5.3: k_c and k_m over k_i, per distribution, level and assignment.
    Table53,
    /// Figures 5.5–5.8: the (f_l, f_c) heatmaps.
    Frequency,
    /// Figure 5.9: the (k_m, scale) heatmap.
    Scale,
    /// Figure 5.10: deleting the conservatives.
    Deletion,
}

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// Which experiment.
    #[arg(value_enum)]
    pub kind: Kind,
    /// The table (Adult: ../shared/data/adult/adult.csv).
    #[arg(long)]
    pub csv: PathBuf,
    /// Its schema (benches/adult.toml).
    #[arg(long)]
    pub schema: PathBuf,
    /// Records drawn at random from the table (rows with a missing quasi-identifier are dropped
    /// first), or `all` for the whole table.
    #[arg(long, default_value = "2000", value_parser = parse_rows)]
    pub rows: Rows,
    /// Seed of the row sample.
    #[arg(long, default_value_t = 2019)]
    pub sample_seed: u64,
    /// Seeds of the random k_i draws and of greedy k-member; ratios are averaged over them.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3")]
    pub seeds: Vec<u64>,
    /// Heuristics to run.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "mondrian,kmember,mdav"
    )]
    pub heuristics: Vec<Method>,
    /// Grid step of the frequency and deletion experiments, in percent.
    #[arg(long, default_value_t = 10)]
    pub step: u32,
    /// Largest k_m of the scale experiment (k_m runs from 3).
    #[arg(long, default_value_t = 15)]
    pub max_km: u32,
    /// Axes of the correlated assignment.
    #[arg(long, default_value = crate::data::k_source::correlated::DEFAULT_AXES)]
    pub k_axes: String,
    /// Order of a non-numeric axis (see `optik anonymise --k-axis-order`).
    #[arg(long, default_value = "education=adult")]
    pub k_axis_order: Vec<String>,
    /// Output folder (written atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace a previous output of `optik experiment`.
    #[arg(long)]
    pub force: bool,
}

/// One output file.
pub struct File {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// How many records an experiment uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    /// The whole table (after dropping rows with a missing quasi-identifier).
    All,
    /// A random sample of this many records.
    Sample(usize),
}

impl std::fmt::Display for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rows::All => f.write_str("all"),
            Rows::Sample(n) => write!(f, "{n}"),
        }
    }
}

fn parse_rows(s: &str) -> std::result::Result<Rows, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(Rows::All);
    }
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(Rows::Sample(n)),
        _ => Err(format!(
            "expected a positive number of rows or `all`, got `{s}`"
        )),
    }
}

/// Runs `optik experiment`.
pub fn experiment(a: &ExperimentArgs) -> Result<()> {
    let start = Instant::now();
    StagedDir::check(&a.out, SUMMARY, &[&a.csv], a.force)?;
    if a.seeds.is_empty() || a.heuristics.is_empty() {
        return Err(input("--seeds and --heuristics need at least one value"));
    }
    if a.step == 0 || 100 % a.step != 0 {
        return Err(input(format!("--step {} must divide 100", a.step)));
    }
    if a.max_km < 3 {
        return Err(input(format!("--max-km {} must be at least 3", a.max_km)));
    }
    let schema = Schema::read(&a.schema)?;
    let table = Table::read(&a.csv, schema.delimiter)?;
    let ds = Dataset::from_table(
        table,
        schema,
        &KSource::Uniform { k: 1 },
        true,
        match a.rows {
            Rows::All => RowSample::All,
            Rows::Sample(n) => RowSample::Random {
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
        "- command: `optik experiment {} --csv {} --schema {} --rows {} --sample-seed {} --seeds {} --heuristics {} --step {} --max-km {}`\n- sample: {} from `{}` after dropping rows with a missing quasi-identifier; {} quasi-identifiers\n- correlated k_i: by distance to the origin of {} (each axis scaled to [0, 1]; {})\n",
        a.kind.to_possible_value().map_or(String::new(), |v| v.get_name().to_string()),
        a.csv.display(),
        a.schema.display(),
        a.rows,
        a.sample_seed,
        join(&a.seeds),
        a.heuristics.iter().map(|m| m.name()).collect::<Vec<_>>().join(","),
        a.step,
        a.max_km,
        match a.rows {
            Rows::All => format!("all {} records", sample.n()),
            Rows::Sample(_) => format!(
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
        start.elapsed().as_secs_f64(),
        std::thread::available_parallelism().map_or(1, |c| c.get())
    )
    .into_bytes();
    let staged = StagedDir::create(&a.out)?;
    for f in &files {
        staged.write(&f.name, &f.bytes)?;
    }
    staged.commit()?;
    eprintln!(
        "experiment {} on {} records in {:.1} s; results in {}",
        a.kind
            .to_possible_value()
            .map_or(String::new(), |v| v.get_name().to_string()),
        sample.n(),
        start.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

fn join<T: std::fmt::Display>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}
