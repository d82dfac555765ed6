//! `optik experiment KIND --csv T --schema S --out DIR`: run one of seed 001's §5.5 heuristic
//! experiments with the library and write its files into DIR atomically.

use super::args::HeuristicArg;
use crate::data::k_source::correlated::DEFAULT_AXES;
use crate::error::Result;
use crate::experiments::{self, ExperimentOptions, Kind, SUMMARY};
use crate::release::output::StagedDir;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Instant;

/// Which experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum KindArg {
    /// Table 5.3: k_c and k_m over k_i, per distribution, level and assignment.
    Table53,
    /// Figures 5.5–5.8: the (f_l, f_c) heatmaps.
    Frequency,
    /// Figure 5.9: the (k_m, scale) heatmap.
    Scale,
    /// Figure 5.10: deleting the conservatives.
    Deletion,
}

impl From<KindArg> for Kind {
    fn from(k: KindArg) -> Kind {
        match k {
            KindArg::Table53 => Kind::Table53,
            KindArg::Frequency => Kind::Frequency,
            KindArg::Scale => Kind::Scale,
            KindArg::Deletion => Kind::Deletion,
        }
    }
}

#[derive(Args, Debug)]
pub(crate) struct ExperimentArgs {
    /// Which experiment.
    #[arg(value_enum)]
    pub kind: KindArg,
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
    pub heuristics: Vec<HeuristicArg>,
    /// Grid step of the frequency and deletion experiments, in percent.
    #[arg(long, default_value_t = 10)]
    pub step: u32,
    /// Largest k_m of the scale experiment (k_m runs from 3).
    #[arg(long, default_value_t = 15)]
    pub max_km: u32,
    /// Axes of the correlated assignment.
    #[arg(long, default_value = DEFAULT_AXES)]
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

/// How many records an experiment uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rows {
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
pub(super) fn run(a: &ExperimentArgs) -> Result<()> {
    let started = Instant::now();
    StagedDir::check(&a.out, SUMMARY, &[&a.csv], a.force)?;
    let kind = Kind::from(a.kind);
    let opts = ExperimentOptions {
        kind,
        csv: a.csv.clone(),
        schema: a.schema.clone(),
        rows: match a.rows {
            Rows::All => None,
            Rows::Sample(n) => Some(n),
        },
        sample_seed: a.sample_seed,
        seeds: a.seeds.clone(),
        heuristics: a.heuristics.iter().map(|&h| h.into()).collect(),
        step: a.step,
        max_km: a.max_km,
        k_axes: a.k_axes.clone(),
        k_axis_order: a.k_axis_order.clone(),
        command: command_line(a, kind),
    };
    opts.validate()?;
    let done = experiments::experiment(&opts, started)?;
    let staged = StagedDir::create(&a.out)?;
    for f in &done.files {
        staged.write(&f.name, &f.bytes)?;
    }
    staged.commit()?;
    eprintln!(
        "experiment {} on {} records in {:.1} s; results in {}",
        kind.name(),
        done.n,
        started.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

/// The command that runs the same experiment again (the summary records it).
fn command_line(a: &ExperimentArgs, kind: Kind) -> String {
    let heuristics: Vec<&str> = a
        .heuristics
        .iter()
        .map(|&h| crate::partition::heuristics::Heuristic::from(h).name())
        .collect();
    format!(
        "optik experiment {} --csv {} --schema {} --rows {} --sample-seed {} --seeds {} --heuristics {} --step {} --max-km {}",
        kind.name(),
        a.csv.display(),
        a.schema.display(),
        a.rows,
        a.sample_seed,
        join(&a.seeds),
        heuristics.join(","),
        a.step,
        a.max_km,
    )
}

fn join<T: std::fmt::Display>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_use_the_library_names() {
        let cli: Vec<String> = KindArg::value_variants()
            .iter()
            .map(|v| v.to_possible_value().unwrap().get_name().to_string())
            .collect();
        let lib: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(cli, lib);
        for &v in KindArg::value_variants() {
            let name = v.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(Kind::from(v).name(), name);
        }
    }
}
