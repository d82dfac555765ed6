//! What selects one experiment — which one, on which sample, with which seeds, heuristics and
//! grid — and what it returns: named files, the summary first among them.

use crate::error::{input, Result};
use crate::partition::heuristics::Heuristic;
use crate::settings::Setting;
use std::path::PathBuf;

/// The Markdown summary every experiment writes (and the marker of its output folder).
pub(crate) const SUMMARY: &str = "experiment.md";

/// Which experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Table 5.3: k_c and k_m over k_i, per distribution, level and assignment.
    Table53,
    /// Figures 5.5–5.8: the (f_l, f_c) heatmaps.
    Frequency,
    /// Figure 5.9: the (k_m, scale) heatmap.
    Scale,
    /// Figure 5.10: deleting the conservatives.
    Deletion,
}

impl Kind {
    /// Every experiment (the CLI's mirror is tested against it).
    #[cfg(test)]
    pub(crate) const ALL: [Kind; 4] = [Kind::Table53, Kind::Frequency, Kind::Scale, Kind::Deletion];

    /// The experiment's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Table53 => "table53",
            Kind::Frequency => "frequency",
            Kind::Scale => "scale",
            Kind::Deletion => "deletion",
        }
    }
}

/// One experiment on one sample.
#[derive(Clone, Debug)]
pub(crate) struct ExperimentOptions {
    pub kind: Kind,
    /// The table (Adult: ../shared/data/adult/adult.csv).
    pub csv: PathBuf,
    /// Its schema (benches/adult.toml).
    pub schema: PathBuf,
    /// Records drawn at random from the table (rows with a missing quasi-identifier are
    /// dropped first); `None`: the whole table.
    pub rows: Option<usize>,
    /// Seed of the row sample.
    pub sample_seed: u64,
    /// Seeds of the random k_i draws and of greedy k-member; ratios are averaged over them.
    pub seeds: Vec<u64>,
    /// Heuristics to run.
    pub heuristics: Vec<Heuristic>,
    /// Grid step of the frequency and deletion experiments, in percent.
    pub step: u32,
    /// Largest k_m of the scale experiment (k_m runs from 3).
    pub max_km: u32,
    /// Axes of the correlated assignment.
    pub k_axes: String,
    /// Order of a non-numeric axis.
    pub k_axis_order: Vec<String>,
    /// How to run the same experiment again (the summary's first line), e.g. the command line.
    pub command: String,
}

impl ExperimentOptions {
    /// Refuses empty lists and grids that cannot be drawn.
    pub(crate) fn validate(&self) -> Result<()> {
        if self.seeds.is_empty() || self.heuristics.is_empty() {
            return Err(input(format!(
                "{} and {} need at least one value",
                Setting::Seeds,
                Setting::Heuristics
            )));
        }
        if self.step == 0 || 100 % self.step != 0 {
            return Err(input(format!(
                "{} {} must divide 100",
                Setting::Step,
                self.step
            )));
        }
        if self.max_km < 3 {
            return Err(input(format!(
                "{} {} must be at least 3",
                Setting::MaxKm,
                self.max_km
            )));
        }
        Ok(())
    }
}

/// One output file.
pub(crate) struct File {
    pub name: String,
    pub bytes: Vec<u8>,
}
