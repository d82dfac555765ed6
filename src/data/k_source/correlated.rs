//! Privacy constraints correlated with the data (seed 001 §5.5.5, figure 5.11): the records are
//! projected on a plane of two attributes (the seed uses age × education) and the records
//! nearest the origin get the lowest k, the farthest the highest, in the shares of the chosen
//! distribution. The seed states the rule, not its details; optik fixes them so the assignment
//! is deterministic:
//!
//! - each axis is scaled to [0, 1] over the records kept (min–max); a numeric column is read as
//!   numbers, any other column needs its values' order (an axis order `education=a,b,c`) and
//!   is placed at the value's rank in that order;
//! - records are ranked by Euclidean distance to the origin (ties: table order);
//! - the k values, ascending, take consecutive runs of that ranking whose lengths are the shares
//!   × n rounded by largest remainder (so the counts are exact, unlike random draws).

use crate::data::table::Table;
use crate::error::{at_cell, input, Result};
use crate::settings::Setting;
use serde::Serialize;

/// One axis of the plane: a column, and the order of its values when it is not numeric.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Axis {
    pub column: String,
    /// Values from the origin outwards (`None`: the column is numeric).
    pub order: Option<Vec<String>>,
}

/// The default plane of the seed.
pub(crate) const DEFAULT_AXES: &str = "age,education";

/// Adult's education values in the order of the UCI `education-num` column (1 = Preschool,
/// 16 = Doctorate); the axis order `education=adult` stands for it.
pub(crate) const ADULT_EDUCATION: [&str; 16] = [
    "Preschool",
    "1st-4th",
    "5th-6th",
    "7th-8th",
    "9th",
    "10th",
    "11th",
    "12th",
    "HS-grad",
    "Some-college",
    "Assoc-voc",
    "Assoc-acdm",
    "Bachelors",
    "Masters",
    "Prof-school",
    "Doctorate",
];

/// Parses the axes `a,b` and the axis orders `COLUMN=v1,v2,...` given for them.
pub(crate) fn parse_axes(axes: &str, orders: &[String]) -> Result<Vec<Axis>> {
    let names: Vec<&str> = axes.split(',').map(str::trim).collect();
    if names.len() != 2 || names.iter().any(|n| n.is_empty()) || names[0] == names[1] {
        return Err(input(format!(
            "{} '{axes}': give two different columns as a,b",
            Setting::KAxes
        )));
    }
    let mut parsed: Vec<(String, Vec<String>)> = Vec::new();
    for o in orders {
        let (col, values) = o.split_once('=').ok_or_else(|| {
            input(format!(
                "{} '{o}': expected COLUMN=v1,v2,... (values from the origin outwards)",
                Setting::KAxisOrder
            ))
        })?;
        let col = col.trim();
        let values: Vec<String> = if values.trim() == "adult" && col == "education" {
            ADULT_EDUCATION.iter().map(|s| s.to_string()).collect()
        } else {
            values.split(',').map(|v| v.trim().to_string()).collect()
        };
        if values.iter().any(String::is_empty) {
            return Err(input(format!(
                "{} '{o}': an empty value",
                Setting::KAxisOrder
            )));
        }
        if let Some(v) = values
            .iter()
            .enumerate()
            .find(|(i, v)| values[..*i].contains(v))
        {
            return Err(input(format!(
                "{} '{o}': '{}' is listed twice",
                Setting::KAxisOrder,
                v.1
            )));
        }
        if !names.contains(&col) {
            return Err(input(format!(
                "{} '{o}': '{col}' is not one of {} {axes}",
                Setting::KAxisOrder,
                Setting::KAxes
            )));
        }
        if parsed.iter().any(|p| p.0 == col) {
            return Err(input(format!(
                "{}: '{col}' is given twice",
                Setting::KAxisOrder
            )));
        }
        parsed.push((col.to_string(), values));
    }
    Ok(names
        .iter()
        .map(|n| Axis {
            column: n.to_string(),
            order: parsed.iter().find(|p| p.0 == *n).map(|p| p.1.clone()),
        })
        .collect())
}

/// Exact group sizes: `shares` × n rounded by largest remainder (ties: the earlier group).
pub(crate) fn group_sizes(shares: &[f64], n: usize) -> Vec<usize> {
    let exact: Vec<f64> = shares.iter().map(|s| s * n as f64).collect();
    let mut sizes: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
    let mut left = n - sizes.iter().sum::<usize>().min(n);
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (exact[a] - exact[a].floor(), exact[b] - exact[b].floor());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    for &g in order.iter().cycle().take(shares.len() * 2) {
        if left == 0 {
            break;
        }
        sizes[g] += 1;
        left -= 1;
    }
    sizes
}

/// Position of every record (table rows `rows`) on one axis, scaled to [0, 1].
fn coordinates(table: &Table, rows: &[usize], axis: &Axis) -> Result<Vec<f64>> {
    let c = table.column(&axis.column)?;
    let raw: Vec<f64> = rows
        .iter()
        .map(|&r| {
            let v = table.rows[r][c].trim();
            match &axis.order {
                Some(order) => order.iter().position(|o| o == v).map(|p| p as f64).ok_or_else(|| {
                    at_cell(
                        &table.path,
                        table.lines[r],
                        &axis.column,
                        format!(
                            "'{v}' is not in the {} of '{}'",
                            Setting::KAxisOrder,
                            axis.column
                        ),
                    )
                }),
                None => v.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                    at_cell(
                        &table.path,
                        table.lines[r],
                        &axis.column,
                        format!(
                            "'{v}' is not a number: give the order of the values of '{}' with {} {}=v1,v2,...",
                            axis.column, Setting::KAxisOrder, axis.column
                        ),
                    )
                }),
            }
        })
        .collect::<Result<_>>()?;
    let (lo, hi) = raw
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let span = hi - lo;
    Ok(raw
        .into_iter()
        .map(|x| if span > 0.0 { (x - lo) / span } else { 0.0 })
        .collect())
}

/// The k_i of the records at table rows `rows`: `dist`'s k values, ascending, given to the
/// records by increasing distance to the origin of the `axes` plane.
pub(crate) fn assign(
    dist: &[(u32, f64)],
    axes: &[Axis],
    table: &Table,
    rows: &[usize],
) -> Result<Vec<u32>> {
    let n = rows.len();
    let x = coordinates(table, rows, &axes[0])?;
    let y = coordinates(table, rows, &axes[1])?;
    let mut order: Vec<usize> = (0..n).collect();
    let d = |i: usize| x[i].hypot(y[i]);
    order.sort_by(|&a, &b| d(a).total_cmp(&d(b)).then(a.cmp(&b)));
    let mut groups: Vec<(u32, f64)> = dist.to_vec();
    groups.sort_by_key(|g| g.0);
    let sizes = group_sizes(&groups.iter().map(|g| g.1).collect::<Vec<_>>(), n);
    let mut k = vec![0u32; n];
    let mut at = 0;
    for (g, size) in groups.iter().zip(sizes) {
        for &i in &order[at..at + size] {
            k[i] = g.0;
        }
        at += size;
    }
    Ok(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn table(rows: &[(&str, &str)]) -> Table {
        Table {
            path: PathBuf::from("t.csv"),
            headers: vec!["age".into(), "education".into()],
            rows: rows
                .iter()
                .map(|(a, e)| vec![a.to_string(), e.to_string()])
                .collect(),
            lines: (2..rows.len() as u64 + 2).collect(),
            delimiter: b',',
        }
    }

    #[test]
    fn sizes_are_exact_and_sum_to_n() {
        assert_eq!(group_sizes(&[0.823, 0.168, 0.009], 100), vec![82, 17, 1]);
        assert_eq!(group_sizes(&[0.5, 0.5], 3), vec![2, 1]);
        assert_eq!(group_sizes(&[1.0], 7), vec![7]);
        for n in [1, 10, 99, 1000] {
            assert_eq!(
                group_sizes(&[0.107, 0.355, 0.538], n).iter().sum::<usize>(),
                n
            );
        }
    }

    #[test]
    fn nearest_records_to_the_origin_get_the_lowest_k() {
        let t = table(&[
            ("90", "Doctorate"),
            ("17", "Preschool"),
            ("50", "HS-grad"),
            ("20", "9th"),
            ("80", "Masters"),
        ]);
        let axes = parse_axes("age,education", &["education=adult".into()]).unwrap();
        let dist = [(7, 0.2), (3, 0.4), (5, 0.4)];
        let k = assign(&dist, &axes, &t, &[0, 1, 2, 3, 4]).unwrap();
        // Distances: row 1 (0,0) < row 3 < row 2 < row 4 < row 0 (1,1).
        assert_eq!(k, vec![7, 3, 5, 3, 5]);
        // A subset of rows is scaled on its own range.
        assert_eq!(assign(&dist, &axes, &t, &[0, 2]).unwrap(), vec![5, 3]);
    }

    #[test]
    fn bad_axes_are_refused_with_their_cell() {
        let t = table(&[("30", "Bachelors"), ("x", "Masters")]);
        let axes = parse_axes("age,education", &["education=adult".into()]).unwrap();
        let e = assign(&[(2, 1.0)], &axes, &t, &[0, 1])
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3") && e.contains("'age'"), "{e}");
        let axes = parse_axes("age,education", &[]).unwrap();
        let e = assign(&[(2, 1.0)], &axes, &t, &[0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("k_axis_order education="), "{e}");
        let axes = parse_axes("age,education", &["education=Masters".into()]).unwrap();
        let e = assign(&[(2, 1.0)], &axes, &t, &[0])
            .unwrap_err()
            .to_string();
        assert!(e.contains("'Bachelors' is not in"), "{e}");
        assert!(parse_axes("age", &[]).is_err());
        assert!(parse_axes("age,age", &[]).is_err());
        assert!(parse_axes("age,education", &["sex=a,b".into()]).is_err());
        assert!(parse_axes("age,education", &["education".into()]).is_err());
        assert!(parse_axes("age,education", &["education=a,a".into()]).is_err());
    }
}
