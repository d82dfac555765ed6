//! Hand-made tables for the heuristics' unit tests.
use crate::data::distance::RecordDistance;
use crate::data::hierarchy::Hierarchy;
use crate::data::qi::{QiAttribute, QiTable, Values};
use std::sync::Arc;

/// One numeric attribute: record i sits at `x[i]` (distance `|x_i − x_j| / range`).
pub(crate) fn line(x: &[f64]) -> (QiTable, RecordDistance) {
    let min = x.iter().copied().fold(f64::INFINITY, f64::min);
    let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let qi = QiTable {
        n: x.len(),
        attributes: vec![QiAttribute {
            name: "x".into(),
            weight: 1.0,
            column: 0,
            raw: x.iter().map(|v| v.to_string()).collect(),
            values: Values::Numeric {
                values: x.to_vec(),
                min,
                max,
            },
        }],
    };
    let d = RecordDistance::new(&qi);
    (qi, d)
}

/// One categorical attribute with the hierarchy given as ARX rows (`leaf;l1;...;*`);
/// record i has leaf `values[i]`.
pub(crate) fn categorical(rows: &[&str], values: &[&str]) -> (QiTable, RecordDistance) {
    let rows: Vec<(u64, Vec<String>)> = rows
        .iter()
        .enumerate()
        .map(|(i, l)| (i as u64 + 1, l.split(';').map(String::from).collect()))
        .collect();
    let h = Hierarchy::from_rows(&rows).unwrap();
    let leaves = values.iter().map(|v| h.leaf(v).unwrap()).collect();
    let qi = QiTable {
        n: values.len(),
        attributes: vec![QiAttribute {
            name: "c".into(),
            weight: 1.0,
            column: 0,
            raw: values.iter().map(|v| v.to_string()).collect(),
            values: Values::Categorical {
                leaves,
                hierarchy: Arc::new(h),
                has_file: true,
            },
        }],
    };
    let d = RecordDistance::new(&qi);
    (qi, d)
}

/// Classes as sorted member lists, sorted, for comparisons.
pub(crate) fn sorted_classes(p: &crate::Partition) -> Vec<Vec<usize>> {
    let mut c = p.classes();
    c.sort();
    c
}
