//! Heatmaps: a matrix of values with row and column labels and a colour scale (seed 001
//! figures 5.5–5.8, the (f_l, f_c) frequency sweeps).

use super::style::{drawing, tick, FONT};
use crate::error::{input, Result};
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::text_anchor;

/// Plain data of a heatmap picture.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Heatmap {
    pub title: String,
    /// Name of the column variable (under the grid).
    pub x_label: String,
    /// Name of the row variable (left of the grid).
    pub y_label: String,
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
    /// `values[row][col]`; `None` for a cell without a value (drawn grey).
    pub values: Vec<Vec<Option<f64>>>,
    /// What the colour encodes (beside the colour bar).
    pub value_label: String,
}

/// Grids with at most this many cells print each value in its cell.
pub(crate) const MAX_PRINTED_CELLS: usize = 400;

const MISSING: RGBColor = RGBColor(200, 200, 200);

/// Colour of a value on the scale [lo, hi].
fn colour(v: f64, lo: f64, hi: f64) -> RGBColor {
    let t = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
    ViridisRGB::get_color(t.clamp(0.0, 1.0) as f32)
}

/// Draws the heatmap: one `<rect>` per cell (row 0 at the top), the labels, and a colour bar
/// with the value range.
pub(crate) fn heatmap(h: &Heatmap) -> Result<String> {
    let (rows, cols) = (h.row_labels.len(), h.col_labels.len());
    if rows == 0 || cols == 0 {
        return Err(input("a heatmap needs at least one row and one column"));
    }
    if h.values.len() != rows || h.values.iter().any(|r| r.len() != cols) {
        return Err(input(format!(
            "heatmap values must be {rows} rows of {cols} columns"
        )));
    }
    let finite = h
        .values
        .iter()
        .flatten()
        .flatten()
        .filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
        (a.min(v), b.max(v))
    });
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let cell = (560 / cols.max(rows)).clamp(24, 80) as u32;
    let label_w = 40 + 7 * h.row_labels.iter().map(|l| l.len()).max().unwrap_or(1) as u32;
    let width = label_w + cell * cols as u32 + 190;
    let height = 110 + cell * rows as u32;
    let print_cells = rows * cols <= MAX_PRINTED_CELLS && cell >= 30;

    let mut svg = String::new();
    {
        let page = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        page.fill(&WHITE).map_err(drawing)?;
        let root = page.titled(&h.title, (FONT, 24)).map_err(drawing)?;
        let (grid_area, bar_area) = root.split_horizontally(width - 150);
        // Cell (row r, column c) spans [c, c+1] × [rows−1−r, rows−r]: row 0 on top.
        let mut chart = ChartBuilder::on(&grid_area)
            .margin(8)
            .x_label_area_size(52)
            .y_label_area_size(label_w)
            .build_cartesian_2d(0.0..cols as f64, 0.0..rows as f64)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(0)
            .y_labels(0)
            .x_desc(h.x_label.as_str())
            .y_desc(h.y_label.as_str())
            .axis_desc_style((FONT, 17))
            .draw()
            .map_err(drawing)?;
        // Row and column names at the cell centres (plotters' ticks fall on round numbers).
        let label = |s: &str, at: (i32, i32), h_pos, v_pos| {
            page.draw(&Text::new(
                s.to_string(),
                at,
                TextStyle::from((FONT, 15).into_font()).pos(text_anchor::Pos::new(h_pos, v_pos)),
            ))
        };
        for (c, name) in h.col_labels.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(c as f64 + 0.5, 0.0));
            label(
                name,
                (x, y + 8),
                text_anchor::HPos::Center,
                text_anchor::VPos::Top,
            )
            .map_err(drawing)?;
        }
        for (r, name) in h.row_labels.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(0.0, (rows - r) as f64 - 0.5));
            label(
                name,
                (x - 8, y),
                text_anchor::HPos::Right,
                text_anchor::VPos::Center,
            )
            .map_err(drawing)?;
        }
        for (r, row) in h.values.iter().enumerate() {
            let y = (rows - 1 - r) as f64;
            for (c, v) in row.iter().enumerate() {
                let x = c as f64;
                let fill = match v {
                    Some(v) if v.is_finite() => colour(*v, lo, hi),
                    _ => MISSING,
                };
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x, y + 1.0), (x + 1.0, y)],
                        fill.filled(),
                    )))
                    .map_err(drawing)?;
                if print_cells {
                    let (text, dark) = match v {
                        Some(v) if v.is_finite() => {
                            let RGBColor(cr, cg, cb) = fill;
                            let lum = 0.299 * cr as f64 + 0.587 * cg as f64 + 0.114 * cb as f64;
                            (tick(*v), lum < 128.0)
                        }
                        _ => ("–".to_string(), false),
                    };
                    let style = TextStyle::from((FONT, 14).into_font())
                        .color(if dark { &WHITE } else { &BLACK })
                        .pos(text_anchor::Pos::new(
                            text_anchor::HPos::Center,
                            text_anchor::VPos::Center,
                        ));
                    chart
                        .draw_series(std::iter::once(Text::new(text, (x + 0.5, y + 0.5), style)))
                        .map_err(drawing)?;
                }
            }
        }

        // Colour bar.
        let mut bar = ChartBuilder::on(&bar_area)
            .margin_top(8)
            .margin_bottom(52)
            .margin_right(8)
            .y_label_area_size(0)
            .right_y_label_area_size(70)
            .build_cartesian_2d(0.0..1.0, lo..if hi > lo { hi } else { lo + 1.0 })
            .map_err(drawing)?;
        let yfmt = |v: &f64| tick(*v);
        bar.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .y_desc(h.value_label.as_str())
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .y_label_formatter(&yfmt)
            .draw()
            .map_err(drawing)?;
        let top = if hi > lo { hi } else { lo + 1.0 };
        let steps = 64;
        bar.draw_series((0..steps).map(|s| {
            let a = lo + (top - lo) * s as f64 / steps as f64;
            let b = lo + (top - lo) * (s + 1) as f64 / steps as f64;
            Rectangle::new(
                [(0.0, a), (1.0, b)],
                colour(0.5 * (a + b), lo, top).filled(),
            )
        }))
        .map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}
