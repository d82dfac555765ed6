//! Greedy k-member clustering (Byun et al.), generalised to k_i (seed 001 §5.4.2–5.4.3).
//!
//! A record `r0` is drawn with `ChaCha8Rng::seed_from_u64(seed)`. Each class is seeded by the
//! unassigned record furthest from the previous class's seed (the first one: furthest from
//! `r0`), then grown one record at a time with the record minimising the selected
//! [`KMemberCost`] until its size reaches its largest k_i (`k_e`, updated as records join).
//!
//! Classes are started while the unassigned records can still form a valid class (some `m`
//! records with k_i ≤ m); in the k form that is Byun's `|S| ≥ k`, and the class always
//! completes. In the k_i form a class whose growth exhausts the unassigned records before
//! reaching its `k_e` is dissolved and its records join the leftovers.
//!
//! Leftovers are placed one by one, largest k_i first (ties: smaller index), into the class with
//! the smallest cost increase among the classes where they satisfy their own k_i
//! (`|e| + 1 ≥ k_r`), or into the cheapest class when there is none; finally [`repair`]
//! merges any class still below its largest k_i (only possible after that last fallback).
//!
//! Cost: for each remaining record the largest distance to the class being built is kept and
//! updated with each new member, so `diam(e ∪ r) = max(diam(e), maxdist[r])` is O(1) and every
//! added record costs one parallel pass over the unassigned records: about n²/2 distance
//! evaluations for the growth plus n²/(2·k̄) for the seed searches.

use super::options::KMemberCost;
use super::repair::repair;
use super::scan::{further, smaller, MaxK};
use crate::data::distance::RecordDistance;
use crate::Partition;
use indicatif::ProgressBar;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Minimum number of records per rayon task in the scans.
const MIN_LEN: usize = 2048;

/// A class being built or built.
#[derive(Clone, Debug, PartialEq)]
struct Class {
    members: Vec<usize>,
    diam: f64,
    /// Largest k_i among the members.
    k: u32,
}

impl Class {
    fn valid(&self) -> bool {
        self.members.len() >= self.k as usize
    }
}

/// The unassigned records, with `maxdist[p]` = largest distance from `rem[p]` to the class
/// being built (valid only during a growth).
struct Pool {
    rem: Vec<usize>,
    maxdist: Vec<f64>,
}

impl Pool {
    fn new(records: Vec<usize>) -> Self {
        let maxdist = vec![0.0; records.len()];
        Pool {
            rem: records,
            maxdist,
        }
    }

    /// Removes the record at position `p` (order of `rem` is irrelevant: every scan breaks
    /// ties by record index).
    fn take(&mut self, p: usize) -> (usize, f64) {
        (self.rem.swap_remove(p), self.maxdist.swap_remove(p))
    }

    /// Position of the record furthest from `from` (ties: smallest record index).
    fn furthest_from(&self, metric: &RecordDistance, from: usize) -> usize {
        let from = metric.row(from);
        self.rem
            .par_iter()
            .enumerate()
            .with_min_len(MIN_LEN)
            .map(|(p, &r)| (from.d(r), r, p))
            .reduce_with(|a, b| {
                if further((a.0, a.1), (b.0, b.1)) == (b.0, b.1) {
                    b
                } else {
                    a
                }
            })
            .expect("pool is not empty")
            .2
    }
}

/// Greedy k-member clustering for personalised constraints `k` (pass every k equal to get the
/// original k-anonymity heuristic), with the first record drawn from `seed`.
pub(crate) fn kmember(
    dist: &RecordDistance,
    k: &[u32],
    cost: KMemberCost,
    seed: u64,
    progress: &ProgressBar,
) -> Partition {
    let n = dist.len();
    assert_eq!(k.len(), n, "one k_i per record");
    if n == 0 {
        return Partition::from_labels::<usize>(&[]);
    }
    let metric = dist;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut prev = rng.gen_range(0..n);
    let mut pool = Pool::new((0..n).collect());
    let mut left = MaxK::new(k);
    let mut classes: Vec<Class> = Vec::new();
    let mut leftovers: Vec<usize> = Vec::new();
    while left.feasible() {
        let p = pool.furthest_from(metric, prev);
        let (s, _) = pool.take(p);
        left.remove(k[s]);
        progress.inc(1);
        let class = grow(metric, k, cost, s, &mut pool, &mut left, progress);
        prev = s;
        if class.valid() {
            classes.push(class);
        } else {
            // The unassigned records ran out before the class reached its k_e.
            leftovers = class.members;
            break;
        }
    }
    progress.inc(pool.rem.len() as u64);
    leftovers.extend(pool.rem.iter().copied());
    leftovers.sort_by(|a, b| k[*b].cmp(&k[*a]).then(a.cmp(b)));
    for r in leftovers {
        place_leftover(metric, k, cost, r, &mut classes);
    }
    let mut lists: Vec<Vec<usize>> = classes.into_iter().map(|c| c.members).collect();
    repair(dist, k, &mut lists);
    let p = Partition::from_classes(n, &lists).expect("every record is placed once");
    debug_assert!(p.violations(k).is_empty(), "k-member classes are valid");
    p
}

/// Grows the class seeded by `s` (already taken from the pool) until it holds its largest k_i
/// or the pool is empty.
fn grow(
    metric: &RecordDistance,
    k: &[u32],
    cost: KMemberCost,
    s: usize,
    pool: &mut Pool,
    left: &mut MaxK,
    progress: &ProgressBar,
) -> Class {
    let mut e = Class {
        members: vec![s],
        diam: 0.0,
        k: k[s],
    };
    let mut last = s;
    while !e.valid() && !pool.rem.is_empty() {
        let (size, ke, diam, fresh) = (e.members.len(), e.k, e.diam, last == s);
        let from = metric.row(last);
        let (_, r, p) = pool
            .rem
            .par_iter()
            .zip(pool.maxdist.par_iter_mut())
            .enumerate()
            .with_min_len(MIN_LEN)
            .map(|(p, (&r, m))| {
                let d = from.d(r);
                let md = if fresh { d } else { m.max(d) };
                *m = md;
                (cost.increase(size, ke, diam, k[r], diam.max(md)), r, p)
            })
            .reduce_with(|a, b| {
                if smaller((a.0, a.1), (b.0, b.1)) == (b.0, b.1) {
                    b
                } else {
                    a
                }
            })
            .expect("pool is not empty");
        let (r2, md) = pool.take(p);
        debug_assert_eq!(r, r2);
        left.remove(k[r]);
        progress.inc(1);
        e.members.push(r);
        e.diam = e.diam.max(md);
        e.k = e.k.max(k[r]);
        last = r;
    }
    e
}

/// Puts a leftover record into the class with the smallest cost increase among those where it
/// satisfies its own k (`|e| + 1 ≥ k_r`), else into the cheapest class (ties: earlier class).
fn place_leftover(
    metric: &RecordDistance,
    k: &[u32],
    cost: KMemberCost,
    r: usize,
    classes: &mut Vec<Class>,
) {
    if classes.is_empty() {
        // Only possible when no valid class exists at all, i.e. never when max k_i ≤ n; kept
        // total: the repair then merges the singletons.
        classes.push(Class {
            members: vec![r],
            diam: 0.0,
            k: k[r],
        });
        return;
    }
    let kr = k[r];
    let from = metric.row(r);
    let scored: Vec<(bool, f64, f64)> = classes
        .par_iter()
        .map(|c| {
            let far = c.members.iter().map(|&j| from.d(j)).fold(0.0, f64::max);
            let new_diam = c.diam.max(far);
            let fits = c.members.len() + 1 >= kr as usize;
            (
                fits,
                cost.increase(c.members.len(), c.k, c.diam, kr, new_diam),
                new_diam,
            )
        })
        .collect();
    let any_fits = scored.iter().any(|s| s.0);
    let best = (0..classes.len())
        .filter(|&c| scored[c].0 || !any_fits)
        .min_by(|&a, &b| scored[a].1.total_cmp(&scored[b].1).then(a.cmp(&b)))
        .expect("some class is a candidate");
    let c = &mut classes[best];
    c.members.push(r);
    c.diam = scored[best].2;
    c.k = c.k.max(kr);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::heuristics::testutil::{line, sorted_classes};

    fn dbil(d: &RecordDistance, p: &Partition) -> f64 {
        optik_models::criteria::evaluate(p, |i, j| d.d(i, j)).dbil
    }

    /// Grows the class of record 0 among all the other records.
    fn class_of_first(x: &[f64], k: &[u32], cost: KMemberCost) -> Vec<usize> {
        let (_, d) = line(x);
        let metric = &d;
        let mut pool = Pool::new((1..x.len()).collect());
        let mut left = MaxK::new(k);
        left.remove(k[0]);
        let mut e = grow(
            metric,
            k,
            cost,
            0,
            &mut pool,
            &mut left,
            &ProgressBar::hidden(),
        );
        e.members.sort();
        e.members
    }

    #[test]
    fn personalised_cost_does_not_absorb_a_demanding_record() {
        // Seed 0 (k 2); candidates 1 at x=1 (k 4), 2 at x=1.5 (k 2), 3 at x=3 (k 1).
        // Eq. 5.3/5.4 take the nearest record, 1, which forces the class up to 4 records;
        // eq. 5.5 charges it for k_r = 4 (cost 4·1 > 2·1.5) and takes 2: a class of 2.
        let x = [0.0, 1.0, 1.5, 3.0, 3.2];
        let k = [2, 4, 2, 1, 1];
        assert_eq!(
            class_of_first(&x, &k, KMemberCost::Original),
            vec![0, 1, 2, 3]
        );
        assert_eq!(
            class_of_first(&x, &k, KMemberCost::Corrected),
            vec![0, 1, 2, 3]
        );
        assert_eq!(
            class_of_first(&x, &k, KMemberCost::Personalised),
            vec![0, 2]
        );
    }

    #[test]
    fn all_costs_agree_in_the_k_form() {
        // With one k, eq. 5.4 is eq. 5.3 up to an r-independent factor and constant while a
        // class grows, identical when a leftover joins a valid class, and eq. 5.5 = eq. 5.4.
        // Coordinates are multiples of 1/32 (range 32), so every distance and cost is exact
        // and no rounding can reorder candidates.
        let x: Vec<f64> = (0..40).map(|i| ((i * 13) % 33) as f64).collect();
        let (_, d) = line(&x);
        for kk in 2..=4 {
            let k = vec![kk; 40];
            for seed in 0..5 {
                let bar = ProgressBar::hidden();
                let a = kmember(&d, &k, KMemberCost::Original, seed, &bar);
                let b = kmember(&d, &k, KMemberCost::Corrected, seed, &bar);
                let c = kmember(&d, &k, KMemberCost::Personalised, seed, &bar);
                assert_eq!(a, b);
                assert_eq!(b, c);
            }
        }
    }

    #[test]
    fn personalised_cost_lowers_dbil_on_a_mixed_cluster() {
        // Left: 0 (k 2), 1 (k 4), 2 (k 2); right: four records asking for 4.
        // Personalised: {0,2} and the right cluster with record 1 (DBIL 2·1.5 + 5·9.6 = 51).
        // Original/corrected: record 1 drags its neighbours into one class of all seven
        // (7·10.6 = 74.2), whichever record the seed starts from.
        let x = [0.0, 1.0, 1.5, 10.0, 10.2, 10.4, 10.6];
        let k = [2, 4, 2, 4, 4, 4, 4];
        let (_, d) = line(&x);
        let range = 10.6;
        for seed in 0..8 {
            let bar = ProgressBar::hidden();
            let pers = kmember(&d, &k, KMemberCost::Personalised, seed, &bar);
            assert_eq!(sorted_classes(&pers), vec![vec![0, 2], vec![1, 3, 4, 5, 6]]);
            assert!((dbil(&d, &pers) * range - 51.0).abs() < 1e-9);
            let orig = kmember(&d, &k, KMemberCost::Original, seed, &bar);
            assert_eq!(orig.num_classes(), 1);
            assert!((dbil(&d, &orig) * range - 74.2).abs() < 1e-9);
        }
    }

    #[test]
    fn k_form_on_two_clusters() {
        let x = [0.0, 0.5, 1.0, 9.0, 9.5, 10.0, 10.2];
        let (_, d) = line(&x);
        let k = [3; 7];
        for seed in 0..4 {
            let p = kmember(&d, &k, KMemberCost::Original, seed, &ProgressBar::hidden());
            assert_eq!(
                sorted_classes(&p),
                vec![vec![0, 1, 2], vec![3, 4, 5, 6]],
                "seed {seed}"
            );
        }
    }

    #[test]
    fn leftover_goes_where_it_satisfies_its_own_k() {
        // Built: A = {0,1} (k 2) and B = {3,4,5} (k 3); leftover 2 at x = 3, nearer A.
        let (_, d) = line(&[0.0, 1.0, 3.0, 10.0, 11.0, 12.0]);
        let metric = &d;
        let built = vec![
            Class {
                members: vec![0, 1],
                diam: 1.0 / 12.0,
                k: 2,
            },
            Class {
                members: vec![3, 4, 5],
                diam: 2.0 / 12.0,
                k: 3,
            },
        ];
        let place = |kr: u32| {
            let mut c = built.clone();
            place_leftover(
                metric,
                &[2, 2, kr, 3, 3, 3],
                KMemberCost::Personalised,
                2,
                &mut c,
            );
            c
        };
        // k 2: A fits and is cheaper.
        assert_eq!(place(2)[0].members, vec![0, 1, 2]);
        // k 4: only B reaches 4 with it, although A is cheaper.
        let c = place(4);
        assert_eq!(c[1].members, vec![3, 4, 5, 2]);
        assert_eq!(c[1].k, 4);
        assert!((c[1].diam - 9.0 / 12.0).abs() < 1e-12);
        // k 5: no class fits, the cheapest (A) takes it and becomes invalid: the case the
        // repair exists for.
        let c = place(5);
        assert_eq!(c[0].members, vec![0, 1, 2]);
        assert!(!c[0].valid());
    }

    #[test]
    fn repair_fixes_a_demanding_leftover() {
        // Record 4 asks for 5 = n: the only valid partition is one class, reached either by
        // growing a class around record 4 or, when {0,1} and {2,3} are built first, by the
        // leftover fitting nowhere and the repair merging the classes.
        let x = [0.0, 1.0, 5.0, 6.0, 3.0];
        let k = [2, 2, 2, 2, 5];
        let (_, d) = line(&x);
        for seed in 0..4 {
            let p = kmember(
                &d,
                &k,
                KMemberCost::Personalised,
                seed,
                &ProgressBar::hidden(),
            );
            assert!(p.violations(&k).is_empty());
            assert_eq!(p.num_classes(), 1);
        }
    }

    #[test]
    fn deterministic_for_a_seed() {
        let x: Vec<f64> = (0..60).map(|i| ((i * 23) % 61) as f64).collect();
        let k: Vec<u32> = (0..60).map(|i| 1 + (i % 3) as u32).collect();
        let (_, d) = line(&x);
        for cost in [KMemberCost::Original, KMemberCost::Personalised] {
            let bar = ProgressBar::hidden();
            let a = kmember(&d, &k, cost, 11, &bar);
            let b = kmember(&d, &k, cost, 11, &bar);
            assert_eq!(a, b);
            assert!(a.violations(&k).is_empty());
        }
    }
}
