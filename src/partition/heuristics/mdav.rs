//! MDAV, maximum distance to average vector (Domingo-Ferrer & Torra), generalised to k_i.
//!
//! With `S` the unassigned records and `K` the largest k_i in `S`, while `|S| ≥ 2K`:
//! 1. `r1` = the record furthest from the centroid of `S`; its class is `r1` plus its nearest
//!    neighbours (in order of distance to `r1`), added until the class size reaches the largest
//!    k_i inside the class;
//! 2. with `K'` the largest k_i of what is left, if still `|S| ≥ 2K'`, a class is built the same
//!    way around `r2`, the record of `S` furthest from `r1`.
//!
//! When `|S| < 2K` the remaining records form the last class. With every k_i = k this is
//! classic MDAV (two classes while `|S| ≥ 3k`, then one more if `|S| ≥ 2k`, then the rest).
//!
//! **No leftovers arise**, so no merging is needed: a built class has size exactly its own
//! largest k_i, which is at most the `K` of `S` when it was built; it is built only when
//! `|S| ≥ 2K`, so afterwards `|S| ≥ K ≥` the largest k_i of what is left. Initially `|S| = n ≥`
//! every k_i. Hence the final remainder always holds at least the largest k_i among its records,
//! and every class is valid.
//!
//! Cost: each class needs O(|S|) distance evaluations (furthest and nearest searches, run in
//! parallel); the centroid is kept up to date incrementally (coordinate sums and per-attribute
//! code counts), so it costs O(dimensions + leaves) per class instead of O(|S|).

use super::scan::{further, smaller, MaxK};
use crate::data::distance::{Point, RecordDistance};
use crate::Partition;
use indicatif::ProgressBar;
use rayon::prelude::*;

/// Minimum number of records per rayon task in the scans.
const MIN_LEN: usize = 1024;

/// MDAV for personalised constraints `k` (pass every k equal to get classic MDAV).
pub(crate) fn mdav(dist: &RecordDistance, k: &[u32], progress: &ProgressBar) -> Partition {
    let n = dist.len();
    assert_eq!(k.len(), n, "one k_i per record");
    let points: Vec<Point> = (0..n).map(|i| dist.point(i)).collect();
    let metric = dist;
    let mut s = State {
        centroid: Centroid::new(points),
        left: MaxK::new(k),
        alive: (0..n).collect(),
        label: vec![usize::MAX; n],
        classes: 0,
    };
    while !s.alive.is_empty() && s.alive.len() >= 2 * s.left.max() {
        let c = s.centroid.point();
        let from_c = metric.point_row(&c);
        let r1 = furthest(&s.alive, |i| from_c.d(i));
        let (e1, r2) = grow(metric, k, r1, &s.alive, s.left.max());
        s.take(&e1, k, progress);
        if !s.alive.is_empty() && s.alive.len() >= 2 * s.left.max() {
            let r2 = r2.unwrap_or_else(|| {
                let from = metric.row(r1);
                furthest(&s.alive, |i| from.d(i))
            });
            let (e2, _) = grow(metric, k, r2, &s.alive, s.left.max());
            s.take(&e2, k, progress);
        }
    }
    if !s.alive.is_empty() {
        let rest = s.alive.clone();
        s.take(&rest, k, progress);
    }
    let p = Partition::from_labels(&s.label);
    debug_assert!(p.violations(k).is_empty(), "MDAV classes are valid");
    p
}

/// The unassigned records and the classes built so far.
struct State {
    centroid: Centroid,
    left: MaxK,
    alive: Vec<usize>,
    label: Vec<usize>,
    classes: usize,
}

impl State {
    /// Makes `members` a class.
    fn take(&mut self, members: &[usize], k: &[u32], progress: &ProgressBar) {
        for &i in members {
            self.label[i] = self.classes;
            self.centroid.remove(i);
            self.left.remove(k[i]);
        }
        self.classes += 1;
        let label = &self.label;
        self.alive.retain(|&i| label[i] == usize::MAX);
        progress.inc(members.len() as u64);
    }
}

/// The record of `alive` with the largest `f`, ties to the smallest index.
fn furthest(alive: &[usize], f: impl Fn(usize) -> f64 + Sync) -> usize {
    alive
        .par_iter()
        .with_min_len(MIN_LEN)
        .map(|&i| (f(i), i))
        .reduce_with(further)
        .expect("alive is not empty")
        .1
}

/// The class of `r`: `r` then its nearest neighbours in `alive` (by distance, then index) until
/// the size reaches the largest k_i of the class. `bound` (the largest k_i in `alive`) caps the
/// number of neighbours ever needed. Also returns, when the distances from `r` were computed,
/// the record of `alive` outside the class furthest from `r` (MDAV's next seed `r2`).
fn grow(
    metric: &RecordDistance,
    k: &[u32],
    r: usize,
    alive: &[usize],
    bound: usize,
) -> (Vec<usize>, Option<usize>) {
    let mut e = vec![r];
    let mut need = k[r] as usize;
    if e.len() >= need {
        return (e, None);
    }
    let from = metric.row(r);
    let mut all: Vec<(f64, usize)> = alive
        .par_iter()
        .with_min_len(MIN_LEN)
        .filter(|&&i| i != r)
        .map(|&i| (from.d(i), i))
        .collect();
    let m = bound.saturating_sub(1).min(all.len());
    let order = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    if m > 0 && m < all.len() {
        all.select_nth_unstable_by(m - 1, order);
    }
    all[..m].sort_unstable_by(order);
    debug_assert!(all[..m].windows(2).all(|w| smaller(w[0], w[1]) == w[0]));
    let mut used = 0;
    for &(_, i) in &all[..m] {
        if e.len() >= need {
            break;
        }
        e.push(i);
        used += 1;
        need = need.max(k[i] as usize);
    }
    assert!(e.len() >= need, "a class always completes when |S| ≥ 2K");
    let far = all[used..].iter().copied().reduce(further).map(|x| x.1);
    (e, far)
}

/// The centroid of the unassigned records, kept up to date under removals: coordinate sums and,
/// per categorical attribute, a count per code. Reading it matches
/// [`RecordDistance::centroid`]: mean coordinates, most frequent code (ties to the smallest).
struct Centroid {
    points: Vec<Point>,
    sums: Vec<f64>,
    counts: Vec<Vec<usize>>,
    len: usize,
}

impl Centroid {
    /// From the encoding of every record ([`RecordDistance::point`]).
    fn new(points: Vec<Point>) -> Self {
        let (dims, cats) = points
            .first()
            .map_or((0, 0), |p| (p.coords.len(), p.codes.len()));
        let mut sums = vec![0.0; dims];
        let mut counts: Vec<Vec<usize>> = (0..cats)
            .map(|a| {
                let codes = points.iter().map(|p| p.codes[a] as usize + 1).max();
                vec![0; codes.unwrap_or(0)]
            })
            .collect();
        for p in &points {
            for (s, x) in sums.iter_mut().zip(&p.coords) {
                *s += x;
            }
            for (c, &code) in counts.iter_mut().zip(&p.codes) {
                c[code as usize] += 1;
            }
        }
        Centroid {
            len: points.len(),
            points,
            sums,
            counts,
        }
    }

    fn remove(&mut self, i: usize) {
        let p = &self.points[i];
        for (s, x) in self.sums.iter_mut().zip(&p.coords) {
            *s -= x;
        }
        for (c, &code) in self.counts.iter_mut().zip(&p.codes) {
            c[code as usize] -= 1;
        }
        self.len -= 1;
    }

    fn point(&self) -> Point {
        let len = self.len.max(1) as f64;
        Point {
            coords: self.sums.iter().map(|s| s / len).collect(),
            codes: self
                .counts
                .iter()
                .map(|c| {
                    let mut best = 0;
                    for (code, &count) in c.iter().enumerate() {
                        if count > c[best] {
                            best = code;
                        }
                    }
                    best as u32
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::heuristics::testutil::{categorical, line, sorted_classes};

    fn run(x: &[f64], k: &[u32]) -> Vec<Vec<usize>> {
        let (_, d) = line(x);
        let p = mdav(&d, k, &ProgressBar::hidden());
        assert!(p.violations(k).is_empty());
        sorted_classes(&p)
    }

    #[test]
    fn classic_mdav_on_a_line() {
        // Nine points 0..8, k = 3: centroid 4, r1 = 0 (tie with 8, smallest index) → {0,1,2};
        // r2 = 8 → {6,7,8}; three records left (< 2k) form the last class.
        let x: Vec<f64> = (0..9).map(f64::from).collect();
        assert_eq!(
            run(&x, &[3; 9]),
            vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 8]]
        );
    }

    #[test]
    fn classic_mdav_ending_with_one_class_and_the_rest() {
        // 0..8 with k = 2: {0,1}, {7,8}; then |S| = 5 ∈ [2k, 3k): the centroid is 4, r1 = 2
        // → {2,3}; 3 records left < 2k → {4,5,6}.
        let x: Vec<f64> = (0..9).map(f64::from).collect();
        assert_eq!(
            run(&x, &[2; 9]),
            vec![vec![0, 1], vec![2, 3], vec![4, 5, 6], vec![7, 8]]
        );
    }

    #[test]
    fn personalised_classes_grow_to_their_own_largest_k() {
        // 0..8; the ends ask for 2, everyone else for 1.
        // K = 2: {0,1} and {8,7}; then K = 1: singletons, built outside in.
        let x: Vec<f64> = (0..9).map(f64::from).collect();
        let k = [2, 1, 1, 1, 1, 1, 1, 1, 2];
        let mut expected = vec![vec![0, 1], vec![7, 8]];
        expected.extend((2..7).map(|i| vec![i]));
        expected.sort();
        assert_eq!(run(&x, &k), expected);
    }

    #[test]
    fn a_large_k_inside_a_class_makes_it_grow() {
        // r1 = 0 (k 2) takes its nearest neighbour 1 (k 3), so the class must reach 3:
        // {0,1,2}. Then K = 1: singletons {5} (furthest from 0), {3}, {4}.
        let x = [0.0, 1.0, 2.0, 6.0, 7.0, 8.0];
        let k = [2, 3, 1, 1, 1, 1];
        assert_eq!(run(&x, &k), vec![vec![0, 1, 2], vec![3], vec![4], vec![5]]);
    }

    #[test]
    fn uniform_k_gives_sizes_between_k_and_2k_minus_1() {
        let x: Vec<f64> = (0..23).map(|i| ((i * 7) % 23) as f64).collect();
        for kk in 1..=5u32 {
            let classes = run(&x, &[kk; 23]);
            for c in classes {
                assert!(
                    c.len() >= kk as usize && c.len() < 2 * kk as usize,
                    "{kk}: {c:?}"
                );
            }
        }
    }

    #[test]
    fn incremental_centroid_matches_the_direct_one() {
        let (_, d) = categorical(
            &["a;x;*", "b;x;*", "c;y;*", "d;y;*"],
            &["a", "b", "b", "c", "d", "d", "d", "a"],
        );
        let mut c = Centroid::new((0..d.len()).map(|i| d.point(i)).collect());
        let mut alive: Vec<usize> = (0..8).collect();
        for gone in [6, 0, 4] {
            c.remove(gone);
            alive.retain(|&i| i != gone);
            assert_eq!(c.point(), d.centroid(&alive));
        }
    }

    #[test]
    fn single_record_and_all_in_one() {
        assert_eq!(run(&[3.0], &[1]), vec![vec![0]]);
        assert_eq!(run(&[0.0, 1.0, 9.0], &[1, 3, 1]), vec![vec![0, 1, 2]]);
    }
}
