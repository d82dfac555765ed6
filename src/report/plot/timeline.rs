//! The solver time line (seed 001 figures 6.2–6.5): each improving solution at the second it
//! was found, as a staircase, with the warm start marked, an optional second value per
//! solution on a right-hand axis (e.g. its DBIL) and an optional proven bound.

use super::style::{drawing, padded, tick, FONT, PALETTE};
use crate::error::{input, Result};
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// One improving solution.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TimelinePoint {
    pub elapsed_s: f64,
    /// The optimised criterion's value.
    pub value: f64,
    /// A second value of the same solution (right-hand axis), e.g. its DBIL.
    pub secondary: Option<f64>,
    /// True for the heuristic warm start.
    pub warm_start: bool,
}

/// Plain data of a time line picture.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Timeline {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub points: Vec<TimelinePoint>,
    /// Name of the second series; drawn when set and some point has a secondary value.
    pub secondary_label: Option<String>,
    /// A proven lower bound of the criterion (dashed line).
    pub bound: Option<f64>,
}

const WIDTH: u32 = 800;
const HEIGHT: u32 = 440;

/// Draws the time line. The SVG names each drawn series in its legend: `y_label`, the
/// secondary label, `warm start`, `bound`.
pub(crate) fn timeline(t: &Timeline) -> Result<String> {
    if t.points.is_empty() {
        return Err(input("a time line needs at least one solution"));
    }
    if t.points
        .iter()
        .any(|p| !p.elapsed_s.is_finite() || !p.value.is_finite())
    {
        return Err(input("time line values must be finite"));
    }
    let mut pts = t.points.clone();
    pts.sort_by(|a, b| a.elapsed_s.total_cmp(&b.elapsed_s));
    let x_max = pts.last().map(|p| p.elapsed_s).unwrap_or(0.0).max(1e-3);
    let xr = 0.0..x_max * 1.05;
    let (lo, hi) = pts
        .iter()
        .map(|p| p.value)
        .chain(t.bound)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    let yr = padded(lo, hi);
    let second: Vec<(f64, f64)> = pts
        .iter()
        .filter_map(|p| p.secondary.map(|s| (p.elapsed_s, s)))
        .filter(|(_, s)| s.is_finite())
        .collect();
    let secondary = t.secondary_label.as_ref().filter(|_| !second.is_empty());
    let (c1, c2, cb) = (PALETTE[0], PALETTE[1], PALETTE[3]);

    // A staircase: each solution holds until the next improves on it, up to the end of the axis.
    let stairs = |values: &[(f64, f64)]| {
        let mut s = Vec::with_capacity(2 * values.len() + 1);
        for (w, &(x, y)) in values.iter().enumerate() {
            if w > 0 {
                s.push((x, values[w - 1].1));
            }
            s.push((x, y));
        }
        if let Some(&(_, y)) = values.last() {
            s.push((x_max, y));
        }
        s
    };
    let main: Vec<(f64, f64)> = pts.iter().map(|p| (p.elapsed_s, p.value)).collect();

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(&t.title, (FONT, 24))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64);
        if secondary.is_some() {
            builder.right_y_label_area_size(64);
        }
        // The secondary coordinates exist even without a second series (then unused): plotters
        // moves the right-hand label area to them, so the primary labels stay on the left.
        let y2 = match secondary {
            Some(_) => {
                let (slo, shi) = second
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &(_, v)| {
                        (a.min(v), b.max(v))
                    });
                padded(slo, shi)
            }
            None => yr.clone(),
        };
        let mut chart = builder
            .build_cartesian_2d(xr.clone(), yr)
            .map_err(drawing)?
            .set_secondary_coord(xr.clone(), y2);
        let fmt = |v: &f64| tick(*v);
        chart
            .configure_mesh()
            .x_desc(t.x_label.as_str())
            .y_desc(t.y_label.as_str())
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 17))
            .x_label_formatter(&fmt)
            .y_label_formatter(&fmt)
            .light_line_style(BLACK.mix(0.05))
            .draw()
            .map_err(drawing)?;

        chart
            .draw_series(LineSeries::new(stairs(&main), c1.stroke_width(2)))
            .map_err(drawing)?
            .label(t.y_label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c1.stroke_width(2)));
        chart
            .draw_series(
                pts.iter()
                    .filter(|p| !p.warm_start)
                    .map(|p| Circle::new((p.elapsed_s, p.value), 4, c1.filled())),
            )
            .map_err(drawing)?;
        if pts.iter().any(|p| p.warm_start) {
            chart
                .draw_series(
                    pts.iter()
                        .filter(|p| p.warm_start)
                        .map(|p| TriangleMarker::new((p.elapsed_s, p.value), 8, BLACK.filled())),
                )
                .map_err(drawing)?
                .label("warm start")
                .legend(|(x, y)| TriangleMarker::new((x + 10, y), 6, BLACK.filled()));
        }
        if let Some(b) = t.bound {
            chart
                .draw_series(std::iter::once(DashedPathElement::new(
                    vec![(0.0, b), (xr.end, b)],
                    6,
                    4,
                    cb.stroke_width(2),
                )))
                .map_err(drawing)?
                .label(format!("bound {}", tick(b)))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], cb.stroke_width(2))
                });
        }
        if let Some(label) = secondary {
            chart
                .configure_secondary_axes()
                .y_desc(label.as_str())
                .label_style((FONT, 15))
                .axis_desc_style((FONT, 17))
                .y_label_formatter(&fmt)
                .draw()
                .map_err(drawing)?;
            chart
                .draw_secondary_series(LineSeries::new(stairs(&second), c2.stroke_width(2)))
                .map_err(drawing)?
                .label(label.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], c2.stroke_width(2))
                });
            chart
                .draw_secondary_series(
                    second
                        .iter()
                        .map(|&(x, y)| Cross::new((x, y), 4, c2.stroke_width(2))),
                )
                .map_err(drawing)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, 16))
            .border_style(BLACK.mix(0.4))
            .background_style(WHITE.mix(0.9))
            .draw()
            .map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}
