//! Pictures as SVG text (plotters' SVG backend; text is written as SVG `<text>`, so no font
//! file is read and nothing depends on the machine's fonts). Every function takes plain data
//! and returns the SVG document as a `String`; output is deterministic (same data, same bytes).
//!
//! The library API, for the CLI and the benchmark runner (`Result` is `optik::error::Result`:
//! malformed data, such as empty groups or lengths that disagree, is an `Error::Input`):
//!
//! ```text
//! plot::timeline(&Timeline) -> Result<String>
//!     Timeline { title, x_label, y_label, points: Vec<TimelinePoint>, secondary_label: Option<String>,
//!                bound: Option<f64> }
//!     TimelinePoint { elapsed_s: f64, value: f64, secondary: Option<f64>, warm_start: bool }
//!     Improving solutions as a staircase over elapsed seconds (warm start marked by a triangle),
//!     an optional second series on a right-hand axis (e.g. each solution's DBIL), and an optional
//!     proven bound as a dashed line.
//! plot::boxplot(&BoxPlot) -> Result<String>
//!     BoxPlot { title, y_label, groups: Vec<BoxGroup { name, values: Vec<f64> }>, reference: Option<f64> }
//!     One Tukey box per group (quartiles by linear interpolation, whiskers to the furthest value
//!     within 1.5 IQR, outliers as points); `reference` draws a dashed line (e.g. ratio 1).
//! plot::heatmap(&Heatmap) -> Result<String>
//!     Heatmap { title, x_label, y_label, col_labels, row_labels, values: Vec<Vec<Option<f64>>>,
//!               value_label }
//!     values[row][col]; rows drawn top to bottom; missing cells grey with a dash; viridis colour
//!     scale with its range on a colour bar; each cell printed when the grid is small.
//! plot::partition(&PartitionPicture) -> Result<String>
//!     PartitionPicture { title, caption, x_label, y_label, points: Vec<(f64, f64)>,
//!                        class: Vec<usize>, k: Vec<u32>, x_ticks, y_ticks }
//!     One point per record (colour by class, marker size by k_i), one outline (convex hull)
//!     per class labelled with the class's largest k_i.
//! plot::layout::partition_picture(&QiTable, &RecordDistance, &Partition, k: &[u32], &Axes,
//!                                title: &str) -> PartitionPicture
//!     Places records by two quasi-identifiers (Axes::Attributes, parsed by Axes::parse) or by
//!     classical MDS (Axes::Mds, plot::mds::classical_mds(&[Vec<f64>], dims) -> Vec<Vec<f64>>);
//!     samples whole classes above layout::MDS_LIMIT / layout::AXES_LIMIT records.
//! plot::boxplot::summary(&[f64]) -> Option<Summary>   (the five numbers and outliers of a box)
//! ```

pub(crate) mod boxplot;
pub(crate) mod heatmap;
pub(crate) mod hull;
pub(crate) mod layout;
pub(crate) mod mds;
pub(crate) mod partition;
#[cfg(test)]
mod tests;
pub(crate) mod timeline;

pub(crate) use boxplot::{boxplot, BoxGroup, BoxPlot};
pub(crate) use heatmap::{heatmap, Heatmap};
pub(crate) use partition::{partition, PartitionPicture};
pub(crate) use timeline::{timeline, Timeline, TimelinePoint};

use crate::error::{internal, Error};
use plotters::style::RGBColor;

/// Categorical palette (Tableau 10 and two more): classes cycle through it.
pub(crate) const PALETTE: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 128),
    RGBColor(128, 64, 0),
];

/// Font family of every label (resolved by whoever displays the SVG).
pub(crate) const FONT: &str = "sans-serif";

/// A drawing failure (plotters reports them for broken layouts) as an internal error.
pub(crate) fn drawing<E: std::fmt::Display>(e: E) -> Error {
    internal(format!("drawing a picture: {e}"))
}

/// A range padded by 5 % on each side (and widened when empty), for axes.
pub(crate) fn padded(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    let span = hi - lo;
    if span <= 0.0 {
        let w = if lo.abs() > 0.0 { lo.abs() * 0.1 } else { 1.0 };
        return (lo - w)..(hi + w);
    }
    (lo - 0.05 * span)..(hi + 0.05 * span)
}

/// Short number formatting for tick labels.
pub(crate) fn tick(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if !(1e-3..1e5).contains(&a) {
        format!("{x:.1e}")
    } else if a >= 100.0 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
