//! The generic repair shared by the heuristics: merge classes that are smaller than the largest
//! k_i of their members until every class is valid.
//!
//! When it can trigger:
//! - MDAV and Mondrian never need it: every class they build is valid by construction (see their
//!   modules); they call it only as a no-op safety net.
//! - Greedy k-member in the k form never needs it either: a leftover record always fits
//!   (`|e| + 1 ≥ k` for every class).
//! - Greedy k-member in the k_i form needs it only when a leftover record `r` has a k_r larger
//!   than `|e| + 1` for every class `e` built so far: `r` then joins the cheapest class, which
//!   becomes smaller than k_r.

use crate::data::distance::RecordDistance;
use rayon::prelude::*;

/// Merges every class with fewer members than its largest k_i into the other class whose merge
/// increases DBIL (`Σ |C|·diam(C)`) the least (ties: the earlier class), until all classes are
/// valid. Classes are processed in order; a merged class takes the position of the earlier of
/// the two. Returns the number of merges.
///
/// Terminates with a valid partition whenever `max_i k_i ≤ n`: each merge removes one class, and
/// a single class holding every record is valid. Costs `O(|C| · n)` distance evaluations per
/// merge plus one diameter computation per class, only when some class is invalid.
pub(crate) fn repair(dist: &RecordDistance, k: &[u32], classes: &mut Vec<Vec<usize>>) -> usize {
    let max_k = |c: &[usize]| c.iter().map(|&i| k[i]).max().unwrap_or(0) as usize;
    let valid = |c: &[usize]| c.len() >= max_k(c);
    classes.retain(|c| !c.is_empty());
    if classes.iter().all(|c| valid(c)) {
        return 0;
    }
    let mut diam: Vec<f64> = classes
        .par_iter()
        .map(|c| models_diameter(dist, c))
        .collect();
    let mut merges = 0;
    while classes.len() > 1 {
        let Some(a) = classes.iter().position(|c| !valid(c)) else {
            break;
        };
        let (sa, da) = (classes[a].len() as f64, diam[a]);
        let best = (0..classes.len())
            .into_par_iter()
            .filter(|&b| b != a)
            .map(|b| {
                let cross = classes[a]
                    .iter()
                    .flat_map(|&i| classes[b].iter().map(move |&j| (i, j)))
                    .map(|(i, j)| dist.d(i, j))
                    .fold(0.0, f64::max);
                let merged = da.max(diam[b]).max(cross);
                let sb = classes[b].len() as f64;
                let inc = (sa + sb) * merged - sa * da - sb * diam[b];
                (inc, b, merged)
            })
            .reduce_with(|x, y| {
                if y.0.total_cmp(&x.0).then(y.1.cmp(&x.1)).is_lt() {
                    y
                } else {
                    x
                }
            })
            .expect("at least two classes");
        let (_, b, merged) = best;
        let (lo, hi) = (a.min(b), a.max(b));
        let moved = classes.remove(hi);
        diam.remove(hi);
        classes[lo].extend(moved);
        diam[lo] = merged;
        merges += 1;
    }
    merges
}

/// Diameter of a class under the record distance.
fn models_diameter(dist: &RecordDistance, members: &[usize]) -> f64 {
    optik_models::criteria::diameter(members, |i, j| dist.d(i, j))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::heuristics::testutil::line;

    #[test]
    fn valid_classes_are_left_alone() {
        let (_, d) = line(&[0.0, 1.0, 5.0, 6.0]);
        let mut c = vec![vec![0, 1], vec![2, 3]];
        assert_eq!(repair(&d, &[2, 2, 2, 2], &mut c), 0);
        assert_eq!(c, vec![vec![0, 1], vec![2, 3]]);
    }

    #[test]
    fn an_invalid_class_joins_the_cheapest_neighbour() {
        // {0,1} | {4} (k 2) | {5,6} on a range of 6: joining {5,6} adds 3·2/6 − 2·1/6 = 4/6
        // to DBIL, joining {0,1} adds 3·4/6 − 2·1/6 = 10/6.
        let (_, d) = line(&[0.0, 1.0, 4.0, 5.0, 6.0]);
        let mut c = vec![vec![0, 1], vec![2], vec![3, 4]];
        assert_eq!(repair(&d, &[1, 1, 2, 1, 1], &mut c), 1);
        assert_eq!(c, vec![vec![0, 1], vec![2, 3, 4]]);
    }

    #[test]
    fn merging_continues_until_valid() {
        // One record with k = n forces a single class.
        let (_, d) = line(&[0.0, 1.0, 4.0, 5.0]);
        let mut c = vec![vec![0], vec![1], vec![2], vec![3]];
        let merges = repair(&d, &[1, 1, 4, 1], &mut c);
        assert_eq!(merges, 3);
        assert_eq!(c.len(), 1);
        let mut all = c[0].clone();
        all.sort();
        assert_eq!(all, vec![0, 1, 2, 3]);
    }
}
