//! Box plots of several named groups of values (seed 001 figure 6.6: each heuristic's DBIL over
//! the optimum), Tukey style: the box spans the quartiles, whiskers reach the furthest values
//! within 1.5 IQR, values beyond are drawn as outliers.

use super::style::{drawing, padded, tick, FONT, PALETTE};
use crate::error::{input, Result};
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// One box: a name and its values.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BoxGroup {
    pub name: String,
    pub values: Vec<f64>,
}

/// Plain data of a box plot picture.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BoxPlot {
    pub title: String,
    pub y_label: String,
    pub groups: Vec<BoxGroup>,
    /// A reference level drawn as a dashed line (e.g. 1 for ratios to the optimum).
    pub reference: Option<f64>,
}

/// The five numbers a box is drawn from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Summary {
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    /// Furthest values within 1.5 IQR of the box.
    pub low_whisker: f64,
    pub high_whisker: f64,
    pub outliers: Vec<f64>,
    pub n: usize,
}

/// Quantile of sorted values by linear interpolation between closest ranks (type 7, as R's
/// and numpy's default).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The box of some finite values (`None` when there are none).
pub(crate) fn summary(values: &[f64]) -> Option<Summary> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let (q1, median, q3) = (quantile(&v, 0.25), quantile(&v, 0.5), quantile(&v, 0.75));
    let iqr = q3 - q1;
    let (lo_fence, hi_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
    let inside = v
        .iter()
        .copied()
        .filter(|&x| x >= lo_fence && x <= hi_fence);
    let low_whisker = inside.clone().fold(f64::INFINITY, f64::min);
    let high_whisker = inside.fold(f64::NEG_INFINITY, f64::max);
    Some(Summary {
        q1,
        median,
        q3,
        low_whisker,
        high_whisker,
        outliers: v
            .iter()
            .copied()
            .filter(|&x| x < lo_fence || x > hi_fence)
            .collect(),
        n: v.len(),
    })
}

const HEIGHT: u32 = 460;

/// Draws the box plot: one filled `<rect>` box per non-empty group, group names (with their
/// counts) under the boxes.
pub(crate) fn boxplot(b: &BoxPlot) -> Result<String> {
    if b.groups.is_empty() {
        return Err(input("a box plot needs at least one group"));
    }
    let boxes: Vec<Option<Summary>> = b.groups.iter().map(|g| summary(&g.values)).collect();
    let (lo, hi) = boxes
        .iter()
        .flatten()
        .flat_map(|s| {
            [s.low_whisker, s.high_whisker]
                .into_iter()
                .chain(s.outliers.iter().copied())
        })
        .chain(b.reference)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, c), v| {
            (a.min(v), c.max(v))
        });
    if !lo.is_finite() {
        return Err(input("a box plot needs at least one finite value"));
    }
    let g = b.groups.len();
    let names: Vec<String> = b
        .groups
        .iter()
        .zip(&boxes)
        .map(|(gr, s)| format!("{} (n={})", gr.name, s.as_ref().map_or(0, |s| s.n)))
        .collect();
    // Each group is as wide as its longest name (about 8 px a character at this font size).
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as u32;
    let width = (160 + (8 * longest + 16).max(110) * g as u32).max(480);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&b.title, (FONT, 24))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.5..(g as f64 - 0.5), padded(lo, hi))
            .map_err(drawing)?;
        let xfmt = |v: &f64| {
            let r = v.round();
            if (v - r).abs() < 1e-6 && r >= 0.0 && (r as usize) < names.len() {
                names[r as usize].clone()
            } else {
                String::new()
            }
        };
        let yfmt = |v: &f64| tick(*v);
        chart
            .configure_mesh()
            .y_desc(b.y_label.as_str())
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 17))
            .x_labels(g + 1)
            .x_label_formatter(&xfmt)
            .y_label_formatter(&yfmt)
            .disable_x_mesh()
            .light_line_style(BLACK.mix(0.05))
            .draw()
            .map_err(drawing)?;
        if let Some(r) = b.reference {
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    vec![(-0.5, r), (g as f64 - 0.5, r)],
                    6,
                    4,
                    BLACK.mix(0.5).stroke_width(1),
                )))
                .map_err(drawing)?;
        }
        for (i, s) in boxes.iter().enumerate() {
            let Some(s) = s else { continue };
            let c = PALETTE[i % PALETTE.len()];
            let x = i as f64;
            let (l, r) = (x - 0.3, x + 0.3);
            chart
                .draw_series([
                    Rectangle::new([(l, s.q3), (r, s.q1)], c.mix(0.25).filled()),
                    Rectangle::new([(l, s.q3), (r, s.q1)], c.stroke_width(2)),
                ])
                .map_err(drawing)?;
            chart
                .draw_series([
                    PathElement::new(vec![(l, s.median), (r, s.median)], c.stroke_width(3)),
                    PathElement::new(vec![(x, s.q3), (x, s.high_whisker)], c.stroke_width(1)),
                    PathElement::new(vec![(x, s.q1), (x, s.low_whisker)], c.stroke_width(1)),
                    PathElement::new(
                        vec![(x - 0.12, s.high_whisker), (x + 0.12, s.high_whisker)],
                        c.stroke_width(1),
                    ),
                    PathElement::new(
                        vec![(x - 0.12, s.low_whisker), (x + 0.12, s.low_whisker)],
                        c.stroke_width(1),
                    ),
                ])
                .map_err(drawing)?;
            chart
                .draw_series(
                    s.outliers
                        .iter()
                        .map(|&y| Circle::new((x, y), 3, c.stroke_width(1))),
                )
                .map_err(drawing)?;
        }
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_matches_type_7_quantiles_and_tukey_fences() {
        let s = summary(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 100.0]).unwrap();
        assert_eq!((s.q1, s.median, s.q3), (3.0, 5.0, 7.0));
        assert_eq!((s.low_whisker, s.high_whisker), (1.0, 8.0));
        assert_eq!(s.outliers, vec![100.0]);
        let one = summary(&[2.5]).unwrap();
        assert_eq!((one.q1, one.median, one.q3, one.n), (2.5, 2.5, 2.5, 1));
        assert!(summary(&[f64::NAN]).is_none());
        let even = summary(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((even.q1, even.median, even.q3), (1.75, 2.5, 3.25));
    }
}
