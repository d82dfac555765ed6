//! The pictures of a run: the partition as SVG and the self-contained HTML report page. The
//! caller writes them with the release and the report, only when the whole run succeeds.

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::error::Result;
use crate::release::Release;
use crate::report::plot::layout::{partition_picture, Axes};
use crate::report::plot::{self, Timeline, TimelinePoint};
use crate::report::Report;
use crate::Partition;

/// The partition picture, and the HTML report page that embeds it.
#[derive(Clone, Debug)]
pub(crate) struct Pictures {
    /// The partition as SVG.
    pub svg: String,
    /// The self-contained HTML report, when asked for.
    pub html: Option<String>,
}

/// Draws the partition picture of a run (records placed by `axes`) and, with `html`, the HTML
/// report page around it.
pub(crate) fn draw(
    axes: &Axes,
    ds: &Dataset,
    dist: &RecordDistance,
    partition: &Partition,
    report: &Report,
    release: &Release,
    html: bool,
) -> Result<Pictures> {
    let title = format!(
        "{} ({}): {} records, {} classes",
        report.method, report.status, report.n, report.classes
    );
    let picture = partition_picture(&ds.qi, dist, partition, &ds.k, axes, &title);
    let svg = plot::partition(&picture)?;
    let html = if html {
        let tl = match report.timeline.is_empty() {
            true => None,
            false => Some(plot::timeline(&run_timeline(report))?),
        };
        Some(crate::report::html::render(
            report,
            &svg,
            tl.as_deref(),
            release,
        ))
    } else {
        None
    };
    Ok(Pictures { svg, html })
}

/// The time line of an exact run's report.
pub(crate) fn run_timeline(report: &Report) -> Timeline {
    Timeline {
        title: format!("Improving solutions ({})", report.method),
        x_label: "elapsed seconds".into(),
        y_label: report.criterion.name().to_string(),
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
