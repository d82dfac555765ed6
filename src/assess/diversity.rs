//! Sensitive-attribute protection per equivalence class: l-diversity (Machanavajjhala et al.),
//! t-closeness (Li, Li & Venkatasubramanian) and δ-disclosure (Brickell & Shmatikov).
//!
//! For a sensitive attribute S, P is S's distribution inside a class and Q its distribution in
//! the whole assessed table.
//!
//! - **Distinct l**: the smallest number of distinct S values in a class.
//! - **Entropy l**: exp of the smallest class entropy (natural log), i.e. the largest l with
//!   H(class) ≥ ln l for every class.
//! - **Recursive (c, l)**: with a class's counts r_1 ≥ … ≥ r_m, the class satisfies (c, l) when
//!   r_1 < c·(r_l + … + r_m); the table's l is the largest l every class satisfies (0 when even
//!   l = 1 fails, which happens only for c ≤ 1).
//! - **t-closeness**, the largest EMD(P, Q) over the classes, with three ground distances:
//!   equal distance (any attribute): ½·Σ|p_i − q_i|; ordered distance (numeric S, all values
//!   numbers, or given ordered levels): (1/(m−1))·Σ_i |Σ_{j≤i}(p_j − q_j)| over the m ordered
//!   values (0 when m = 1); hierarchical distance (a given hierarchy): Σ over inner nodes
//!   N of level(N)/height · min(pos(N), neg(N)), with pos/neg the positive/negative extras of
//!   N's children (a leaf's extra is p − q; a node's is the sum of its children's).
//! - **δ-disclosure**: the largest |ln(p(s|class)/p(s))| over classes and values s of the table;
//!   infinite (reported as null, with `delta_infinite: true`) when a class lacks a value of the
//!   table.

use super::column::Column;
use crate::data::hierarchy::Hierarchy;
use crate::data::qi::parse_number;
use crate::error::{input, Result};
use crate::settings::Setting;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// How a sensitive attribute's values are ordered or organised for t-closeness.
#[derive(Clone, Debug, Default)]
pub(crate) struct SensitiveKind {
    /// The attribute's ordered levels, when given.
    pub levels: Option<Vec<String>>,
    /// The attribute's hierarchy, when given.
    pub hierarchy: Option<Arc<Hierarchy>>,
}

/// The report for one sensitive attribute.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct DiversityReport {
    pub attribute: String,
    pub distinct_values: usize,
    pub distinct_l: usize,
    pub entropy_l: f64,
    pub recursive_c: f64,
    pub recursive_l: usize,
    pub t_equal: f64,
    /// Null when S is neither numeric nor given levels.
    pub t_ordered: Option<f64>,
    /// Null without a hierarchy.
    pub t_hierarchical: Option<f64>,
    pub delta: Option<f64>,
    pub delta_infinite: bool,
}

/// Largest l such that a class with these counts satisfies recursive (c, l).
pub(crate) fn recursive_l(counts: &[usize], c: f64) -> usize {
    let mut r: Vec<usize> = counts.iter().copied().filter(|&x| x > 0).collect();
    r.sort_unstable_by(|a, b| b.cmp(a));
    let mut best = 0;
    for l in 1..=r.len() {
        let tail: usize = r[l - 1..].iter().sum();
        if (r[0] as f64) < c * tail as f64 {
            best = l;
        }
    }
    best
}

/// Equal-distance EMD.
pub(crate) fn emd_equal(p: &[f64], q: &[f64]) -> f64 {
    0.5 * p.iter().zip(q).map(|(a, b)| (a - b).abs()).sum::<f64>()
}

/// Ordered-distance EMD (`p`, `q` in the attribute's order).
pub(crate) fn emd_ordered(p: &[f64], q: &[f64]) -> f64 {
    let m = p.len();
    if m <= 1 {
        return 0.0;
    }
    let mut cum = 0.0;
    let mut total = 0.0;
    for i in 0..m {
        cum += p[i] - q[i];
        total += cum.abs();
    }
    total / (m - 1) as f64
}

/// Hierarchical EMD; `p`, `q` indexed by the hierarchy's leaves.
pub(crate) fn emd_hierarchical(h: &Hierarchy, p: &[f64], q: &[f64]) -> f64 {
    let height = h.height();
    if height == 0 {
        return 0.0;
    }
    // extra of each node at the current level, keyed by label id.
    let mut extra: HashMap<u32, f64> = (0..h.num_leaves() as u32)
        .map(|l| (h.ancestor(l, 0), p[l as usize] - q[l as usize]))
        .collect();
    let mut cost = 0.0;
    for level in 1..=height {
        let mut parent_of: HashMap<u32, u32> = HashMap::new();
        for l in 0..h.num_leaves() as u32 {
            parent_of.insert(h.ancestor(l, level - 1), h.ancestor(l, level));
        }
        let mut pos: HashMap<u32, f64> = HashMap::new();
        let mut neg: HashMap<u32, f64> = HashMap::new();
        let mut next: HashMap<u32, f64> = HashMap::new();
        for (child, e) in &extra {
            let parent = parent_of[child];
            *next.entry(parent).or_default() += e;
            if *e > 0.0 {
                *pos.entry(parent).or_default() += e;
            } else {
                *neg.entry(parent).or_default() -= e;
            }
        }
        for parent in next.keys() {
            let (a, b) = (
                pos.get(parent).copied().unwrap_or(0.0),
                neg.get(parent).copied().unwrap_or(0.0),
            );
            cost += level as f64 / height as f64 * a.min(b);
        }
        extra = next;
    }
    cost
}

/// Order of a sensitive column's values for the ordered EMD: the levels, or numeric order
/// when every value is a number; `None` otherwise.
fn order(s: &Column, kind: &SensitiveKind) -> Result<Option<Vec<usize>>> {
    if let Some(levels) = &kind.levels {
        let mut rank = Vec::with_capacity(s.distinct());
        for v in &s.values {
            rank.push(levels.iter().position(|l| l == v).ok_or_else(|| {
                input(format!(
                    "{} {}: value '{v}' is not one of the levels ({})",
                    Setting::SensitiveLevels,
                    s.name,
                    levels.join(", ")
                ))
            })?);
        }
        // Position of each level; codes absent from the table get zero mass.
        let mut idx: Vec<usize> = (0..s.distinct()).collect();
        idx.sort_by_key(|&c| rank[c]);
        return Ok(Some(idx));
    }
    let nums: Option<Vec<f64>> = s.values.iter().map(|v| parse_number(v)).collect();
    Ok(nums.map(|nums| {
        let mut idx: Vec<usize> = (0..s.distinct()).collect();
        idx.sort_by(|&a, &b| nums[a].total_cmp(&nums[b]));
        idx
    }))
}

/// Computes the report of one sensitive attribute over the classes' members.
pub(crate) fn report(
    s: &Column,
    members: &[Vec<usize>],
    kind: &SensitiveKind,
    c: f64,
) -> Result<DiversityReport> {
    let n = s.len() as f64;
    let m = s.distinct();
    let q: Vec<f64> = s.counts().iter().map(|&x| x as f64 / n).collect();
    let order = order(s, kind)?;
    // With levels, the ordered distance runs over every level (absent ones have mass 0).
    let levels_len = kind.levels.as_ref().map(Vec::len);
    let leaf_of: Option<Vec<u32>> = match &kind.hierarchy {
        Some(h) => Some(
            s.values
                .iter()
                .map(|v| {
                    h.leaf(v).ok_or_else(|| {
                        input(format!(
                            "{} {}: value '{v}' is not a leaf of the hierarchy",
                            Setting::SensitiveHierarchy,
                            s.name
                        ))
                    })
                })
                .collect::<Result<_>>()?,
        ),
        None => None,
    };
    let (mut distinct_l, mut min_entropy, mut rec_l) = (usize::MAX, f64::INFINITY, usize::MAX);
    let (mut t_eq, mut t_ord, mut t_hier) = (0.0f64, 0.0f64, 0.0f64);
    let (mut delta, mut delta_infinite) = (0.0f64, false);
    for class in members {
        let mut counts = vec![0usize; m];
        for &r in class {
            counts[s.codes[r] as usize] += 1;
        }
        let size = class.len() as f64;
        let p: Vec<f64> = counts.iter().map(|&x| x as f64 / size).collect();
        distinct_l = distinct_l.min(counts.iter().filter(|&&x| x > 0).count());
        let h: f64 = p.iter().filter(|&&x| x > 0.0).map(|&x| -x * x.ln()).sum();
        min_entropy = min_entropy.min(h);
        rec_l = rec_l.min(recursive_l(&counts, c));
        t_eq = t_eq.max(emd_equal(&p, &q));
        if let Some(idx) = &order {
            let pp: Vec<f64> = idx.iter().map(|&i| p[i]).collect();
            let qq: Vec<f64> = idx.iter().map(|&i| q[i]).collect();
            t_ord = t_ord.max(match (levels_len, &kind.levels) {
                (Some(len), Some(levels)) => {
                    let mut pl = vec![0.0; len];
                    let mut ql = vec![0.0; len];
                    for (i, v) in s.values.iter().enumerate() {
                        let r = levels.iter().position(|l| l == v).expect("checked");
                        pl[r] = p[i];
                        ql[r] = q[i];
                    }
                    emd_ordered(&pl, &ql)
                }
                _ => emd_ordered(&pp, &qq),
            });
        }
        if let (Some(h), Some(leaf_of)) = (&kind.hierarchy, &leaf_of) {
            let mut pl = vec![0.0; h.num_leaves()];
            let mut ql = vec![0.0; h.num_leaves()];
            for i in 0..m {
                pl[leaf_of[i] as usize] += p[i];
                ql[leaf_of[i] as usize] += q[i];
            }
            t_hier = t_hier.max(emd_hierarchical(h, &pl, &ql));
        }
        for i in 0..m {
            if p[i] == 0.0 {
                delta_infinite = true;
            } else {
                delta = delta.max((p[i] / q[i]).ln().abs());
            }
        }
    }
    Ok(DiversityReport {
        attribute: s.name.clone(),
        distinct_values: m,
        distinct_l,
        entropy_l: min_entropy.exp(),
        recursive_c: c,
        recursive_l: rec_l,
        t_equal: t_eq,
        t_ordered: order.is_some().then_some(t_ord),
        t_hierarchical: kind.hierarchy.is_some().then_some(t_hier),
        delta: (!delta_infinite).then_some(delta),
        delta_infinite,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(labels: &[usize]) -> Vec<Vec<usize>> {
        let k = labels.iter().max().unwrap() + 1;
        let mut m = vec![Vec::new(); k];
        for (r, &l) in labels.iter().enumerate() {
            m[l].push(r);
        }
        m
    }

    #[test]
    fn seed_000_table_3_4_salary_is_0_167_close() {
        // Table 3.4 / 5.1: classes {4K, 6K, 10K}, {7K, 12K, 9K}, {5K, 8K, 11K} over the nine
        // salaries 4K..12K: the ordered EMDs are 1/6, 1/6, 1/12 → t = 0.167.
        let sal = Column::encode(
            "Salary",
            ["4", "6", "10", "7", "12", "9", "5", "8", "11"]
                .iter()
                .copied(),
        );
        let r = report(
            &sal,
            &members(&[0, 0, 0, 1, 1, 1, 2, 2, 2]),
            &SensitiveKind::default(),
            2.0,
        )
        .unwrap();
        assert!((r.t_ordered.unwrap() - 1.0 / 6.0).abs() < 1e-12);
        // Equal distance: each class holds 3 of 9 distinct values → ½(3·2/9 + 6/9) = 2/3.
        assert!((r.t_equal - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(r.distinct_l, 3);
        assert!((r.entropy_l - 3.0).abs() < 1e-9);
        // r_1 = 1 < c·(r_l..r_m): with c = 2 every l ≤ 3 holds.
        assert_eq!(r.recursive_l, 3);
        assert!(r.delta_infinite && r.delta.is_none());
    }

    #[test]
    fn li_et_al_hierarchical_emd_by_hand() {
        // Two-level hierarchy {a, b} | {c, d}; P = (1, 0, 0, 0), Q uniform.
        // Leaf extras: +3/4, −1/4, −1/4, −1/4. Node AB: pos 3/4, neg 1/4 → ½·1/4; node C:
        // pos 0 → 0; root: extras AB = +1/2, C = −1/2 → 1·1/2. Total 5/8.
        let h = Hierarchy::from_rows(&[
            (1, vec!["a".into(), "AB".into(), "*".into()]),
            (2, vec!["b".into(), "AB".into(), "*".into()]),
            (3, vec!["c".into(), "C".into(), "*".into()]),
            (4, vec!["d".into(), "C".into(), "*".into()]),
        ])
        .unwrap();
        let q = [0.25; 4];
        let p = [1.0, 0.0, 0.0, 0.0];
        assert!((emd_hierarchical(&h, &p, &q) - 5.0 / 8.0).abs() < 1e-12);
        assert_eq!(emd_hierarchical(&h, &q, &q), 0.0);
        // Via the report, with the values in the table.
        let s = Column::encode("s", ["a", "a", "b", "c", "d", "a"].iter().copied());
        let r = report(
            &s,
            &members(&[0, 0, 1, 1, 1, 1]),
            &SensitiveKind {
                levels: None,
                hierarchy: Some(Arc::new(h)),
            },
            3.0,
        )
        .unwrap();
        // Q = (1/2, 1/6, 1/6, 1/6); class 0 = (1, 0, 0, 0): AB node pos 1/2, neg 1/6 → ½·1/6;
        // root: AB +1/3, C −1/3 → 1/3. Total 1/12 + 1/3 = 5/12. Class 1 = (1/4, 1/4, 1/4, 1/4):
        // leaf extras −1/4, 1/12, 1/12, 1/12; AB: pos 1/12, neg 1/4 → ½·1/12; root: AB −1/6,
        // C +1/6 → 1/6. Total 1/24 + 1/6 = 5/24.
        assert!((r.t_hierarchical.unwrap() - 5.0 / 12.0).abs() < 1e-12);
        assert_eq!(r.t_ordered, None);
        assert_eq!(r.distinct_l, 1);
        assert!((r.entropy_l - 1.0).abs() < 1e-12);
        // δ: class 0 lacks b, c, d → infinite.
        assert!(r.delta_infinite);
    }

    #[test]
    fn delta_disclosure_and_recursive_by_hand() {
        // Q: x 1/2, y 1/2; classes (x, x, y) and (x, y, y, ...) mirrored.
        let s = Column::encode("s", ["x", "x", "y", "y", "y", "x"].iter().copied());
        let r = report(
            &s,
            &members(&[0, 0, 0, 1, 1, 1]),
            &SensitiveKind::default(),
            2.0,
        )
        .unwrap();
        // p = 2/3 vs 1/2 → ln(4/3); p = 1/3 vs 1/2 → |ln(2/3)| = ln 1.5 (the larger).
        assert!((r.delta.unwrap() - 1.5f64.ln()).abs() < 1e-12);
        assert!(!r.delta_infinite);
        // counts (2, 1): l = 1: 2 < 2·3 ✓; l = 2: 2 < 2·1 ✗ → 1.
        assert_eq!(r.recursive_l, 1);
        assert_eq!(recursive_l(&[2, 1], 3.0), 2);
        assert_eq!(recursive_l(&[5], 1.0), 0);
        // Ordinal levels: a level absent from the table still counts in m.
        let o = Column::encode("o", ["lo", "hi"].iter().copied());
        let r = report(
            &o,
            &members(&[0, 1]),
            &SensitiveKind {
                levels: Some(vec!["lo".into(), "mid".into(), "hi".into()]),
                hierarchy: None,
            },
            2.0,
        )
        .unwrap();
        // P = (1, 0, 0), Q = (1/2, 0, 1/2): cumulative 1/2, 1/2, 0 → 1/(3−1) = 1/2.
        assert!((r.t_ordered.unwrap() - 0.5).abs() < 1e-12);
        // One ordered value: no distance to move mass over.
        assert_eq!(emd_ordered(&[1.0], &[1.0]), 0.0);
        let bad = report(
            &o,
            &members(&[0, 1]),
            &SensitiveKind {
                levels: Some(vec!["lo".into()]),
                hierarchy: None,
            },
            2.0,
        );
        assert!(bad.unwrap_err().to_string().contains("'hi'"));
    }
}
