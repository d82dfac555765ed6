//! What every picture shares: the palette, the font, tick labels, padded ranges, and plotters'
//! errors as optik's.

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
