//! Mondrian, median partitioning (LeFevre et al.), generalised to k_i (seed 001 §5.4.1).
//!
//! A partition is cut on its widest attribute: width = weight × normalised range (numeric and
//! ordinal: `QiAttribute::spread`, the range over the attribute's range; categorical: level of
//! the lowest common ancestor of the partition's values over the hierarchy height). Attributes
//! are tried in decreasing width (ties: schema order), skipping width 0:
//! - numeric / ordinal: strict median cut `x ≤ m | x > m` with `m` the lower median; when the
//!   right side is empty, `x < m | x ≥ m`;
//! - categorical: one part per child of the partition's LCA node (the ancestor one level below
//!   the LCA level); child groups that are too small are merged together, and if that merged
//!   group is still too small it is merged into the smallest valid group (repeatedly, smallest
//!   first) instead of abandoning the cut.
//!
//! A cut is accepted only when it yields at least two parts and every part `P` satisfies
//! `|P| ≥ max_{i∈P} k_i` (the k form passes every k equal to `max_i k_i`). When no attribute
//! allows a cut the partition becomes a class. Every class is therefore valid (the whole table
//! is, as k_i ≤ n), and since every cut is decided by quasi-identifier values only, two records
//! with identical quasi-identifiers always end in the same class.

use crate::data::qi::{QiAttribute, QiTable, Values};
use crate::Partition;
use indicatif::ProgressBar;
use std::collections::BTreeMap;

/// Mondrian for personalised constraints `k` (pass every k equal for k-anonymity).
pub(crate) fn mondrian(qi: &QiTable, k: &[u32], progress: &ProgressBar) -> Partition {
    let n = qi.n;
    assert_eq!(k.len(), n, "one k_i per record");
    let mut label = vec![0usize; n];
    let mut next = 0;
    let mut stack = vec![(0..n).collect::<Vec<usize>>()];
    while let Some(part) = stack.pop() {
        match cut(qi, k, &part) {
            Some(parts) => stack.extend(parts.into_iter().rev()),
            None => {
                for &i in &part {
                    label[i] = next;
                }
                next += 1;
                progress.inc(part.len() as u64);
            }
        }
    }
    let p = Partition::from_labels(&label);
    debug_assert!(p.violations(k).is_empty(), "Mondrian classes are valid");
    p
}

/// Whether a group of records may be a part: it holds its own largest k_i.
fn valid(k: &[u32], part: &[usize]) -> bool {
    part.len() >= part.iter().map(|&i| k[i]).max().unwrap_or(0) as usize
}

/// The first allowed cut of `part`, trying attributes in decreasing width.
fn cut(qi: &QiTable, k: &[u32], part: &[usize]) -> Option<Vec<Vec<usize>>> {
    if part.len() < 2 {
        return None;
    }
    let mut widths: Vec<(f64, usize)> = qi
        .attributes
        .iter()
        .enumerate()
        .map(|(a, attr)| (attr.weight * width(attr, part), a))
        .filter(|&(w, _)| w > 0.0)
        .collect();
    widths.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    widths.into_iter().find_map(|(_, a)| {
        let attr = &qi.attributes[a];
        let parts = match &attr.values {
            Values::Numeric { values, .. } => median_cut(part, |i| values[i]),
            Values::Ordinal { ranks, .. } => median_cut(part, |i| ranks[i] as f64),
            Values::Categorical {
                leaves, hierarchy, ..
            } => {
                let level = hierarchy.lca_level_of(part.iter().map(|&i| leaves[i]));
                hierarchy_cut(part, k, level, |i| hierarchy.ancestor(leaves[i], level - 1))
            }
        }?;
        (parts.len() >= 2 && parts.iter().all(|p| valid(k, p))).then_some(parts)
    })
}

/// Normalised range of an attribute over `part`, in [0, 1].
fn width(attr: &QiAttribute, part: &[usize]) -> f64 {
    match &attr.values {
        Values::Numeric { .. } => attr.spread(part),
        Values::Ordinal { levels, .. } => {
            if levels.len() < 2 {
                0.0
            } else {
                attr.spread(part)
            }
        }
        Values::Categorical {
            leaves, hierarchy, ..
        } => {
            if hierarchy.height() == 0 {
                0.0
            } else {
                hierarchy.lca_level_of(part.iter().map(|&i| leaves[i])) as f64
                    / hierarchy.height() as f64
            }
        }
    }
}

/// Strict median cut: `≤ m | > m` with `m` the lower median, else `< m | ≥ m`.
fn median_cut(part: &[usize], value: impl Fn(usize) -> f64) -> Option<Vec<Vec<usize>>> {
    let mut xs: Vec<f64> = part.iter().map(|&i| value(i)).collect();
    let mid = (xs.len() - 1) / 2;
    let (_, &mut m, _) = xs.select_nth_unstable_by(mid, f64::total_cmp);
    let split = |right: &dyn Fn(f64) -> bool| {
        let (r, l): (Vec<usize>, Vec<usize>) = part.iter().copied().partition(|&i| right(value(i)));
        (!l.is_empty() && !r.is_empty()).then(|| vec![l, r])
    };
    split(&|x| x > m).or_else(|| split(&|x| x >= m))
}

/// Cut along the hierarchy: one group per child of the LCA node (`child(i)`, ordered by child
/// id); too-small groups are merged together, then into the smallest valid groups until valid.
fn hierarchy_cut(
    part: &[usize],
    k: &[u32],
    level: usize,
    child: impl Fn(usize) -> u32,
) -> Option<Vec<Vec<usize>>> {
    if level == 0 {
        return None;
    }
    let mut groups: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for &i in part {
        groups.entry(child(i)).or_default().push(i);
    }
    let (mut good, small): (Vec<Vec<usize>>, Vec<Vec<usize>>) =
        groups.into_values().partition(|g| valid(k, g));
    let mut merged: Vec<usize> = small.into_iter().flatten().collect();
    if !merged.is_empty() {
        while !valid(k, &merged) {
            // Smallest valid group (ties: first in child order) absorbs the small records.
            let Some(s) = (0..good.len()).min_by_key(|&g| (good[g].len(), g)) else {
                break;
            };
            merged.extend(good.remove(s));
        }
        good.push(merged);
    }
    (good.len() >= 2).then_some(good)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::heuristics::testutil::{categorical, line, sorted_classes};

    fn run_qi(qi: &QiTable, k: &[u32]) -> Vec<Vec<usize>> {
        let p = mondrian(qi, k, &ProgressBar::hidden());
        assert!(p.violations(k).is_empty());
        sorted_classes(&p)
    }

    #[test]
    fn median_cuts_on_a_line() {
        // 8 points, k = 2: halves, then quarters.
        let (qi, _) = line(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        assert_eq!(
            run_qi(&qi, &[2; 8]),
            vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]
        );
        // k = 3: one cut {0..3} | {4..7}; a further cut would leave 2 < 3.
        assert_eq!(
            run_qi(&qi, &[3; 8]),
            vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]
        );
    }

    #[test]
    fn personalised_k_allows_smaller_parts() {
        // Left half asks for 1, right half for 4: the left is cut to singletons.
        let (qi, _) = line(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        let k = [1, 1, 1, 1, 4, 4, 4, 4];
        assert_eq!(
            run_qi(&qi, &k),
            vec![vec![0], vec![1], vec![2], vec![3], vec![4, 5, 6, 7]]
        );
    }

    #[test]
    fn falls_back_to_the_other_strict_cut() {
        // Values 1,1,1,5: m = 1; ≤ 1 | > 1 gives {0,1,2} | {3}. With k = 1 that is allowed.
        let (qi, _) = line(&[1.0, 1.0, 1.0, 5.0]);
        assert_eq!(run_qi(&qi, &[1; 4]), vec![vec![0, 1, 2], vec![3]]);
        // Values 1,5,5,5: lower median 5, ≤ 5 takes all: falls back to < 5 | ≥ 5.
        let (qi, _) = line(&[1.0, 5.0, 5.0, 5.0]);
        assert_eq!(run_qi(&qi, &[1; 4]), vec![vec![0], vec![1, 2, 3]]);
        // Same with k = 2: {0} is too small, no cut.
        assert_eq!(run_qi(&qi, &[2; 4]), vec![vec![0, 1, 2, 3]]);
    }

    const TREE: [&str; 6] = ["a;x;*", "b;x;*", "c;y;*", "d;y;*", "e;z;*", "f;z;*"];

    #[test]
    fn categorical_cut_follows_the_hierarchy() {
        let (qi, _) = categorical(&TREE, &["a", "b", "c", "d", "a", "c"]);
        // k 2: x = {0,1,4}, y = {2,3,5}; inside x: a = {0,4} and b = {1} (too small, merged
        // into a: no cut); same inside y.
        assert_eq!(run_qi(&qi, &[2; 6]), vec![vec![0, 1, 4], vec![2, 3, 5]]);
        // k 1: down to leaves.
        assert_eq!(
            run_qi(&qi, &[1; 6]),
            vec![vec![0, 4], vec![1], vec![2, 5], vec![3]]
        );
    }

    #[test]
    fn small_child_groups_are_merged_not_dropped() {
        // Children x: 3 records, y: 1, z: 1 with k = 2: y and z are merged ({3,4} valid) → cut.
        let (qi, _) = categorical(&TREE, &["a", "b", "a", "c", "e"]);
        assert_eq!(run_qi(&qi, &[2; 5]), vec![vec![0, 1, 2], vec![3, 4]]);
        // Children x: 4, y: 2, z: 1 with k = 3: y and z are both too small; merged they hold
        // 3 records, which is valid.
        let (qi, _) = categorical(&TREE, &["a", "b", "a", "b", "c", "d", "e"]);
        assert_eq!(run_qi(&qi, &[3; 7]), vec![vec![0, 1, 2, 3], vec![4, 5, 6]]);
        // Children x: 4, y: 1 (k 3): the small group joins the smallest valid group, x, which
        // leaves a single group: no cut.
        let (qi, _) = categorical(&TREE, &["a", "b", "a", "b", "c"]);
        assert_eq!(run_qi(&qi, &[3; 5]), vec![vec![0, 1, 2, 3, 4]]);
    }

    #[test]
    fn merged_small_group_joins_the_smallest_valid_group() {
        // x: 5 records, y: 3 records, z: 1 record asking for 4 → small {z} joins y (smallest
        // valid): {y ∪ z} has 4 ≥ 4.
        let (qi, _) = categorical(&TREE, &["a", "a", "a", "b", "b", "c", "c", "d", "e"]);
        let k = [1, 1, 1, 1, 1, 1, 1, 1, 4];
        let p = mondrian(&qi, &k, &ProgressBar::hidden());
        assert!(p.violations(&k).is_empty());
        assert_eq!(p.class_of(8), p.class_of(5));
        assert_eq!(p.class_of(8), p.class_of(7));
        assert_ne!(p.class_of(8), p.class_of(0));
    }

    #[test]
    fn widest_attribute_is_cut_first_and_identical_records_stay_together() {
        // Two attributes: x spans the full range, c is constant: cuts happen on x only, and
        // duplicates are never separated.
        let (mut qi, _) = line(&[0.0, 0.0, 5.0, 5.0, 9.0, 9.0]);
        let (cq, _) = categorical(&TREE, &["a", "a", "a", "a", "a", "a"]);
        qi.attributes.extend(cq.attributes);
        assert_eq!(
            run_qi(&qi, &[1; 6]),
            vec![vec![0, 1], vec![2, 3], vec![4, 5]]
        );
    }
}
