//! Where each record goes in the partition picture: at its values of two chosen
//! quasi-identifiers, or at its classical-MDS coordinates of the record distance matrix. Large
//! tables are sampled deterministically by whole classes, so every drawn outline is complete.

use super::mds::classical_mds;
use super::partition::PartitionPicture;
use crate::data::distance::RecordDistance;
use crate::data::qi::{QiTable, Values};
use crate::error::{input, Result};
use crate::settings::Setting;
use crate::Partition;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Most records embedded by MDS (an n × n matrix and its power iterations).
pub(crate) const MDS_LIMIT: usize = 1_500;
/// Most records drawn when placed by two attributes (keeps the SVG small).
pub(crate) const AXES_LIMIT: usize = 5_000;
/// Discrete axes (ordinal levels, categories) spread coincident records by up to ± this.
pub(crate) const JITTER: f64 = 0.2;
/// Categorical axes name their categories when they have at most this many.
const MAX_TICK_LABELS: usize = 40;

/// How records are placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Axes {
    /// 2-D classical MDS of the record distance matrix.
    Mds,
    /// Two quasi-identifiers, by index in the `QiTable`.
    Attributes(usize, usize),
}

impl Axes {
    /// Parses the picture's axes `a,b` against the quasi-identifiers.
    pub(crate) fn parse(spec: &str, qi: &QiTable) -> Result<Axes> {
        let names: Vec<&str> = spec.split(',').map(str::trim).collect();
        let all = || {
            qi.attributes
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if names.len() != 2 || names.iter().any(|n| n.is_empty()) {
            return Err(input(format!(
                "{} takes two quasi-identifiers as a,b (got '{spec}'; quasi-identifiers: {})",
                Setting::PlotAxes,
                all()
            )));
        }
        let find = |n: &str| {
            qi.attributes
                .iter()
                .position(|a| a.name == n)
                .ok_or_else(|| {
                    input(format!(
                        "{}: '{n}' is not a quasi-identifier (quasi-identifiers: {})",
                        Setting::PlotAxes,
                        all()
                    ))
                })
        };
        let (a, b) = (find(names[0])?, find(names[1])?);
        if a == b {
            return Err(input(format!(
                "{}: give two different quasi-identifiers (got '{spec}')",
                Setting::PlotAxes
            )));
        }
        Ok(Axes::Attributes(a, b))
    }
}

/// The records drawn: all, or whole classes drawn in a seeded random order until `limit`
/// records are taken. Returns the records (ascending) and a note when sampled.
fn sample(p: &Partition, limit: usize) -> (Vec<usize>, Option<String>) {
    let n = p.len();
    if n <= limit {
        return ((0..n).collect(), None);
    }
    let classes = p.classes();
    let mut order: Vec<usize> = (0..classes.len()).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(0));
    let (mut taken, mut chosen) = (0, 0);
    let mut rows = Vec::new();
    for c in order {
        if taken + classes[c].len() <= limit {
            taken += classes[c].len();
            chosen += 1;
            rows.extend_from_slice(&classes[c]);
        }
    }
    rows.sort_unstable();
    let note = format!(
        "n = {n} > {limit}: a fixed random sample of {chosen} whole classes of {} ({taken} records) is drawn",
        classes.len()
    );
    (rows, Some(note))
}

/// A deterministic offset in [−JITTER, JITTER] for record `i` on axis `axis`.
fn jitter(i: usize, axis: u64) -> f64 {
    let h = (i as u64)
        .wrapping_mul(2)
        .wrapping_add(axis)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let u = (h >> 11) as f64 / (1u64 << 53) as f64;
    (2.0 * u - 1.0) * JITTER
}

/// Position of record `i` on attribute `a`: the number itself, or the level / leaf index
/// spread by a fixed jitter.
fn coordinate(qi: &QiTable, a: usize, i: usize, axis: u64) -> f64 {
    match &qi.attributes[a].values {
        Values::Numeric { values, .. } => values[i],
        Values::Ordinal { ranks, .. } => ranks[i] as f64 + jitter(i, axis),
        Values::Categorical { leaves, .. } => leaves[i] as f64 + jitter(i, axis),
    }
}

fn ticks(qi: &QiTable, a: usize) -> Option<Vec<String>> {
    match &qi.attributes[a].values {
        Values::Numeric { .. } => None,
        Values::Ordinal { levels, .. } => Some(levels.clone()),
        Values::Categorical { hierarchy, .. } => {
            let l = hierarchy.num_leaves();
            (l <= MAX_TICK_LABELS).then(|| {
                (0..l as u32)
                    .map(|x| hierarchy.leaf_label(x).to_string())
                    .collect()
            })
        }
    }
}

fn axis_label(qi: &QiTable, a: usize) -> String {
    let at = &qi.attributes[a];
    match at.values {
        Values::Numeric { .. } => at.name.clone(),
        Values::Ordinal { .. } => format!("{} (ordinal)", at.name),
        Values::Categorical { .. } if ticks(qi, a).is_some() => {
            format!("{} (categorical)", at.name)
        }
        Values::Categorical { .. } => format!("{} (category index)", at.name),
    }
}

/// The picture of partition `p` of the records of `qi` (k_i in `k`), placed by `axes`.
pub(crate) fn partition_picture(
    qi: &QiTable,
    dist: &RecordDistance,
    p: &Partition,
    k: &[u32],
    axes: &Axes,
    title: &str,
) -> PartitionPicture {
    let limit = match axes {
        Axes::Mds => MDS_LIMIT,
        Axes::Attributes(..) => AXES_LIMIT,
    };
    let (rows, note) = sample(p, limit);
    let (points, x_label, y_label, x_ticks, y_ticks, mut caption) = match *axes {
        Axes::Mds => {
            let d: Vec<Vec<f64>> = rows
                .iter()
                .map(|&i| rows.iter().map(|&j| dist.d(i, j)).collect())
                .collect();
            let emb = classical_mds(&d, 2);
            (
                emb.iter().map(|c| (c[0], c[1])).collect::<Vec<_>>(),
                "MDS axis 1".to_string(),
                "MDS axis 2".to_string(),
                None,
                None,
                "Records placed by a 2-D classical MDS of the record distance matrix (distance units)"
                    .to_string(),
            )
        }
        Axes::Attributes(a, b) => {
            let discrete = |x: usize| !matches!(qi.attributes[x].values, Values::Numeric { .. });
            (
                rows.iter()
                    .map(|&i| (coordinate(qi, a, i, 0), coordinate(qi, b, i, 1)))
                    .collect(),
                axis_label(qi, a),
                axis_label(qi, b),
                ticks(qi, a),
                ticks(qi, b),
                format!(
                    "Records placed by {} × {}{}",
                    qi.attributes[a].name,
                    qi.attributes[b].name,
                    if discrete(a) || discrete(b) {
                        format!(" (discrete values spread by up to ±{JITTER})")
                    } else {
                        String::new()
                    }
                ),
            )
        }
    };
    if let Some(n) = note {
        caption = format!("{caption}; {n}");
    }
    PartitionPicture {
        title: title.to_string(),
        caption,
        x_label,
        y_label,
        class: rows.iter().map(|&i| p.class_of(i)).collect(),
        k: rows.iter().map(|&i| k[i]).collect(),
        points,
        x_ticks,
        y_ticks,
    }
}
