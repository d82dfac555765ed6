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
mod style;
#[cfg(test)]
mod tests;
pub(crate) mod timeline;

pub(crate) use boxplot::{boxplot, BoxGroup, BoxPlot};
pub(crate) use heatmap::{heatmap, Heatmap};
pub(crate) use partition::partition;
pub(crate) use timeline::{timeline, Timeline, TimelinePoint};
