//! The 2-D picture of a partition: one point per record coloured by class, marker size by k_i,
//! each class outlined by its (slightly inflated) convex hull and labelled with its largest k_i.

use super::hull;
use super::style::{drawing, padded, tick, FONT, PALETTE};
use crate::error::{input, Result};
use plotters::prelude::*;
use plotters::style::text_anchor;

/// Pictures with at most this many classes get a `k=` label at each class; above it the labels
/// would hide the records.
pub(crate) const MAX_CLASS_LABELS: usize = 80;

/// Plain data of a partition picture (see [`super::layout`] to build it from a run).
#[derive(Clone, Debug)]
pub(crate) struct PartitionPicture {
    pub title: String,
    /// One line under the picture (how the records were placed, sampling).
    pub caption: String,
    pub x_label: String,
    pub y_label: String,
    /// Position of each shown record.
    pub points: Vec<(f64, f64)>,
    /// Class of each shown record (any ids; equal id, same class).
    pub class: Vec<usize>,
    /// k_i of each shown record.
    pub k: Vec<u32>,
    /// Tick labels at integer positions 0, 1, .. (ordinal levels, categories), if discrete.
    pub x_ticks: Option<Vec<String>>,
    pub y_ticks: Option<Vec<String>>,
}

const WIDTH: u32 = 860;
/// Height without the caption.
const HEIGHT: u32 = 624;
const LEGEND: u32 = 170;
/// Height of one caption line (the caption breaks after each `; `).
const CAPTION_LINE: u32 = 22;

/// Distinct marker sizes: the k levels beyond the first `SIZES − 1` share the largest one.
const SIZES: usize = 5;

/// Marker radius of each distinct k level (ascending k, growing radius).
fn radii(levels: &[u32]) -> Vec<i32> {
    (0..levels.len())
        .map(|r| 3 + 2 * r.min(SIZES - 1) as i32)
        .collect()
}

fn tick_label(ticks: &Option<Vec<String>>, v: f64) -> String {
    match ticks {
        Some(t) => {
            let r = v.round();
            if (v - r).abs() < 1e-6 && r >= 0.0 && (r as usize) < t.len() {
                t[r as usize].clone()
            } else {
                String::new()
            }
        }
        None => tick(v),
    }
}

/// Draws the picture; the SVG has one `<polygon>` per class (its filled outline) and one
/// `<circle>` per record plus one per marker size in the legend (one per k level, at most 5).
pub(crate) fn partition(p: &PartitionPicture) -> Result<String> {
    let n = p.points.len();
    if p.class.len() != n || p.k.len() != n {
        return Err(input(format!(
            "partition picture: {} points, {} classes, {} k values",
            n,
            p.class.len(),
            p.k.len()
        )));
    }
    // Classes in order of first appearance: colour i % 12.
    let mut class_ids: Vec<usize> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut slot = std::collections::HashMap::new();
    for (i, &c) in p.class.iter().enumerate() {
        let s = *slot.entry(c).or_insert_with(|| {
            class_ids.push(c);
            members.push(Vec::new());
            class_ids.len() - 1
        });
        members[s].push(i);
    }
    let mut levels: Vec<u32> = p.k.clone();
    levels.sort_unstable();
    levels.dedup();
    let radius = radii(&levels);
    let r_of = |k: u32| radius[levels.binary_search(&k).expect("a level")];

    let (x0, x1) = p
        .points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
            (a.min(q.0), b.max(q.0))
        });
    let (y0, y1) = p
        .points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
            (a.min(q.1), b.max(q.1))
        });
    let (xr, yr) = (padded(x0, x1), padded(y0, y1));
    let (rx, ry) = (0.02 * (xr.end - xr.start), 0.025 * (yr.end - yr.start));

    let mut svg = String::new();
    {
        let caption: Vec<&str> = p.caption.split("; ").collect();
        let footer_h = CAPTION_LINE * caption.len() as u32 + 14;
        let root =
            SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT + footer_h)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (upper, footer) = root.split_vertically(HEIGHT);
        let (plot, legend) = upper.split_horizontally(WIDTH - LEGEND);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&p.title, (FONT, 24))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(if p.y_ticks.is_some() { 110 } else { 56 })
            .build_cartesian_2d(xr.clone(), yr.clone())
            .map_err(drawing)?;
        let xt = |v: &f64| tick_label(&p.x_ticks, *v);
        let yt = |v: &f64| tick_label(&p.y_ticks, *v);
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(p.x_label.as_str())
            .y_desc(p.y_label.as_str())
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 17))
            .light_line_style(WHITE.mix(0.0))
            .x_label_formatter(&xt)
            .y_label_formatter(&yt);
        if let Some(t) = &p.x_ticks {
            mesh.x_labels(t.len() + 1);
        }
        if let Some(t) = &p.y_ticks {
            mesh.y_labels(t.len() + 1);
        }
        mesh.draw().map_err(drawing)?;

        for (s, m) in members.iter().enumerate() {
            let colour = PALETTE[s % PALETTE.len()];
            let pts: Vec<(f64, f64)> = m.iter().map(|&i| p.points[i]).collect();
            let outline = hull::inflated_hull(&pts, rx, ry);
            chart
                .draw_series(std::iter::once(Polygon::new(
                    outline.clone(),
                    colour.mix(0.10).filled(),
                )))
                .map_err(drawing)?;
            let mut closed = outline;
            closed.push(closed[0]);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    closed,
                    colour.stroke_width(2),
                )))
                .map_err(drawing)?;
        }
        for (s, m) in members.iter().enumerate() {
            let colour = PALETTE[s % PALETTE.len()];
            chart
                .draw_series(m.iter().map(|&i| {
                    Circle::new(
                        p.points[i],
                        r_of(p.k[i]),
                        ShapeStyle::from(colour.mix(0.85)).filled(),
                    )
                }))
                .map_err(drawing)?;
        }
        if members.len() <= MAX_CLASS_LABELS {
            for (s, m) in members.iter().enumerate() {
                let kmax = m.iter().map(|&i| p.k[i]).max().unwrap_or(0);
                // Above the class's highest record.
                let top = m
                    .iter()
                    .map(|&i| p.points[i])
                    .fold(
                        (0.0, f64::NEG_INFINITY),
                        |a, q| if q.1 > a.1 { q } else { a },
                    );
                let style = TextStyle::from((FONT, 15).into_font())
                    .color(&PALETTE[s % PALETTE.len()])
                    .pos(text_anchor::Pos::new(
                        text_anchor::HPos::Center,
                        text_anchor::VPos::Bottom,
                    ));
                chart
                    .draw_series(std::iter::once(Text::new(
                        format!("k={kmax}"),
                        (top.0, top.1 + ry),
                        style,
                    )))
                    .map_err(drawing)?;
            }
        }

        // Legend panel: marker sizes by k_i, the class count, the colour rule.
        let line = |i: i32| 60 + 24 * i;
        let text_at = |s: &str, x: i32, y: i32, size: i32| {
            legend.draw(&Text::new(
                s.to_string(),
                (x, y),
                TextStyle::from((FONT, size).into_font()).pos(text_anchor::Pos::new(
                    text_anchor::HPos::Left,
                    text_anchor::VPos::Center,
                )),
            ))
        };
        let text = |s: &str, y: i32, size: i32| text_at(s, 8, y, size);
        text("marker size: k_i", line(0), 17).map_err(drawing)?;
        let shown = levels.len().min(SIZES);
        for (l, &k) in levels.iter().take(shown).enumerate() {
            let y = line(l as i32 + 1);
            legend
                .draw(&Circle::new((22, y), radius[l], BLACK.mix(0.6).filled()))
                .map_err(drawing)?;
            let label = if l + 1 == SIZES && levels.len() > SIZES {
                format!("k_i ≥ {k}")
            } else {
                format!("k_i = {k}")
            };
            text_at(&label, 40, y, 16).map_err(drawing)?;
        }
        let below = line(shown as i32 + 2);
        text(&format!("{} records", n), below, 16).map_err(drawing)?;
        text(&format!("{} classes", members.len()), below + 22, 16).map_err(drawing)?;
        text("outline: convex hull", below + 44, 16).map_err(drawing)?;
        text("label: largest k_i", below + 66, 16).map_err(drawing)?;
        if members.len() > PALETTE.len() {
            text(
                &format!("colours repeat every {}", PALETTE.len()),
                below + 88,
                16,
            )
            .map_err(drawing)?;
        }
        for (l, line) in caption.iter().enumerate() {
            footer
                .draw(&Text::new(
                    line.to_string(),
                    (12, (CAPTION_LINE / 2 + CAPTION_LINE * l as u32) as i32),
                    TextStyle::from((FONT, 16).into_font()).pos(text_anchor::Pos::new(
                        text_anchor::HPos::Left,
                        text_anchor::VPos::Center,
                    )),
                ))
                .map_err(drawing)?;
        }
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}
