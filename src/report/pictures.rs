//! The picture outputs of `optik anonymise`: `--plot partition.svg` and `--html report.html`.
//! They are staged next to their destinations like the release and the report, and committed
//! only when the whole run succeeds.

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::error::{input, Result};
use crate::release::output::Staged;
use crate::release::Release;
use crate::report::plot::layout::{partition_picture, Axes};
use crate::report::plot::{self, Timeline, TimelinePoint};
use crate::report::Report;
use crate::Partition;
use clap::Args;
use std::path::{Path, PathBuf};

/// The picture options of `optik anonymise`.
#[derive(Args, Debug, Clone, Default)]
pub struct PictureArgs {
    /// Draw the partition as SVG: records placed by --plot-axes (default: a 2-D classical MDS of
    /// the distance matrix), coloured by class, each class outlined and labelled with its k_i.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Two quasi-identifiers to place the records by in the partition picture, e.g. age,education.
    #[arg(long)]
    pub plot_axes: Option<String>,
    /// Write a self-contained HTML report: partition picture, metrics, time line, release preview.
    #[arg(long)]
    pub html: Option<PathBuf>,
}

impl PictureArgs {
    /// The files these options write.
    pub fn outputs(&self) -> Vec<&Path> {
        self.plot
            .iter()
            .chain(self.html.iter())
            .map(PathBuf::as_path)
            .collect()
    }

    /// Checks the options against the loaded table (before the partitioning runs) and returns
    /// how records will be placed.
    pub fn axes(&self, ds: &Dataset) -> Result<Axes> {
        match &self.plot_axes {
            None => Ok(Axes::Mds),
            Some(_) if self.plot.is_none() && self.html.is_none() => {
                Err(input("--plot-axes needs --plot or --html"))
            }
            Some(spec) => Axes::parse(spec, &ds.qi),
        }
    }

    /// Draws the requested pictures and stages them; the caller commits them with the release.
    pub fn stage(
        &self,
        axes: &Axes,
        ds: &Dataset,
        dist: &RecordDistance,
        partition: &Partition,
        report: &Report,
        release: &Release,
    ) -> Result<Vec<Staged>> {
        if self.plot.is_none() && self.html.is_none() {
            return Ok(Vec::new());
        }
        let title = format!(
            "{} ({}): {} records, {} classes",
            report.method, report.status, report.n, report.classes
        );
        let picture = partition_picture(&ds.qi, dist, partition, &ds.k, axes, &title);
        let svg = plot::partition(&picture)?;
        let mut staged = Vec::new();
        if let Some(path) = &self.plot {
            staged.push(Staged::write(path, svg.as_bytes())?);
        }
        if let Some(path) = &self.html {
            let tl = match report.timeline.is_empty() {
                true => None,
                false => Some(plot::timeline(&run_timeline(report))?),
            };
            let html = crate::report::html::render(report, &svg, tl.as_deref(), release);
            staged.push(Staged::write(path, html.as_bytes())?);
        }
        Ok(staged)
    }
}

/// The time line of an exact run's report.
pub fn run_timeline(report: &Report) -> Timeline {
    Timeline {
        title: format!("Improving solutions ({})", report.method),
        x_label: "elapsed seconds".into(),
        y_label: report.criterion.clone(),
        points: report
            .timeline
            .iter()
            .map(|e| TimelinePoint {
                elapsed_s: e.elapsed_s,
                value: e.objective,
                secondary: None,
                warm_start: e.warm_start,
            })
            .collect(),
        secondary_label: None,
        bound: report.lower_bound,
    }
}
