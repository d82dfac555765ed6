//! Local search for the WCSD criterion (the within-class sum of pairwise distances): improves
//! any k_i-anonymous partition by splitting a class into two that are both large enough,
//! moving one record to another class, or swapping two records of different classes, keeping
//! every class at least as large as its largest k_i. Used on the heuristics' output before it
//! warm-starts an exact WCSD run: at k_i over {3, 5, 7} on 500 Adult records the
//! large-neighbourhood search moved the k-member start by 1% in 25 s, where the LP's dive
//! then found a partition 28% cheaper (docs/exact.md, "wcsd: a local search"). A move is
//! priced in O(|class|) from the pairwise distances; candidates are the classes of each
//! record's nearest records.

use crate::Partition;
use std::time::Instant;

/// Nearest records whose classes a record tries to move into or swap with.
const NEAREST: usize = 12;

/// Passes over the records at most (each pass that improves nothing ends the search).
const MAX_PASSES: usize = 50;

/// The classes of a partition under a pairwise distance.
struct Classes<'a, D: Fn(usize, usize) -> i64> {
    d: D,
    k: &'a [u32],
    members: Vec<Vec<usize>>,
    label: Vec<usize>,
}

impl<D: Fn(usize, usize) -> i64> Classes<'_, D> {
    /// Σ of the distances from `i` to the members of class `c` other than `skip`.
    fn sum_to(&self, i: usize, c: usize, skip: usize) -> i64 {
        self.members[c]
            .iter()
            .filter(|&&j| j != skip && j != i)
            .map(|&j| (self.d)(i, j))
            .sum()
    }

    /// Largest k_i of class `c` without record `skip` and with record `add`.
    fn kmax(&self, c: usize, skip: usize, add: Option<usize>) -> usize {
        super::largest_k_after(&self.members[c], self.k, skip, add)
    }

    /// Cost decrease of moving record `i` from its class to class `b` (None if invalid).
    fn move_gain(&self, i: usize, b: usize) -> Option<i64> {
        let a = self.label[i];
        let (na, nb) = (self.members[a].len(), self.members[b].len());
        if a == b || na - 1 < self.kmax(a, i, None) || nb + 1 < self.k[i] as usize {
            return None;
        }
        Some(self.sum_to(i, a, i) - self.sum_to(i, b, i))
    }

    /// Cost decrease of swapping records `i` and `j` of different classes (None if invalid).
    fn swap_gain(&self, i: usize, j: usize) -> Option<i64> {
        let (a, b) = (self.label[i], self.label[j]);
        let (na, nb) = (self.members[a].len(), self.members[b].len());
        if a == b || na < self.kmax(a, i, Some(j)) || nb < self.kmax(b, j, Some(i)) {
            return None;
        }
        let before = self.sum_to(i, a, i) + self.sum_to(j, b, j);
        let after = self.sum_to(i, b, j) + self.sum_to(j, a, i);
        Some(before - after)
    }

    fn relabel(&mut self, i: usize, to: usize) {
        let from = self.label[i];
        self.members[from].retain(|&x| x != i);
        self.members[to].push(i);
        self.label[i] = to;
    }

    /// Splits class `c` into two classes that are both at least as large as their largest
    /// k_i, if it can: every such split lowers the cost by its cross pairs. Seeds the two
    /// farthest members and orders the others by how much nearer the first seed they are;
    /// takes the valid cut of that order with the least cost.
    fn split(&mut self, c: usize) -> bool {
        let m = self.members[c].clone();
        let smallest = 2 * m.iter().map(|&i| self.k[i] as usize).min().unwrap_or(1);
        if m.len() < smallest.max(2) {
            return false;
        }
        let mut far = (0, m[0], m[0]);
        for (x, &i) in m.iter().enumerate() {
            for &j in &m[x + 1..] {
                far = far.max(((self.d)(i, j), i, j));
            }
        }
        let (_, s, t) = far;
        let mut order = m;
        order.sort_by_key(|&x| ((self.d)(x, s) - (self.d)(x, t), x));
        // The pair sums of every prefix and suffix of the order, in O(|c|²) in all (a large
        // class at a large k must not cost |c|³).
        let len = order.len();
        let mut prefix = vec![0i64; len + 1];
        for t in 1..=len {
            let last = order[t - 1];
            prefix[t] = prefix[t - 1]
                + order[..t - 1]
                    .iter()
                    .map(|&j| (self.d)(last, j))
                    .sum::<i64>();
        }
        let mut suffix = vec![0i64; len + 1];
        for t in (0..len).rev() {
            let first = order[t];
            suffix[t] = suffix[t + 1]
                + order[t + 1..]
                    .iter()
                    .map(|&j| (self.d)(first, j))
                    .sum::<i64>();
        }
        let kmax = |part: &[usize]| part.iter().map(|&i| self.k[i] as usize).max().unwrap_or(0);
        let best = (1..len)
            .filter(|&cut| {
                let (p, q) = order.split_at(cut);
                p.len() >= kmax(p) && q.len() >= kmax(q)
            })
            .map(|cut| (prefix[cut] + suffix[cut], cut))
            .min();
        let Some((_, cut)) = best else {
            return false;
        };
        let new = self.members.len();
        self.members.push(Vec::new());
        for &i in &order[cut..] {
            self.relabel(i, new);
        }
        true
    }
}

/// Each record's [`NEAREST`] nearest records (ties by index), whose classes are its
/// candidates; `None` when `deadline` passes first (quadratic in n).
pub(crate) fn nearest(
    d: impl Fn(usize, usize) -> i64,
    n: usize,
    deadline: Option<Instant>,
) -> Option<Vec<Vec<usize>>> {
    let mut lists = Vec::with_capacity(n);
    let mut others: Vec<(i64, usize)> = Vec::with_capacity(n);
    for i in 0..n {
        if deadline.is_some_and(|t| Instant::now() >= t) {
            return None;
        }
        others.clear();
        others.extend((0..n).filter(|&j| j != i).map(|j| (d(i, j), j)));
        let take = NEAREST.min(others.len());
        if take > 0 && others.len() > take {
            others.select_nth_unstable(take - 1);
            others.truncate(take);
        }
        others.sort_unstable();
        lists.push(others.iter().map(|&(_, j)| j).collect());
    }
    Some(lists)
}

/// Improves the k_i-anonymous partition `p` of `k.len()` records under WCSD (Σ over classes of
/// the pairwise distances `d`): splits, then moves and swaps toward the classes of each
/// record's `nearest` records ([`nearest`]), until a pass improves nothing or `deadline`
/// passes. The result is k_i-anonymous and never costs more than `p`.
pub(crate) fn improve(
    d: impl Fn(usize, usize) -> i64,
    k: &[u32],
    p: &Partition,
    nearest: &[Vec<usize>],
    deadline: Option<Instant>,
) -> Partition {
    let n = k.len();
    let mut cl = Classes {
        d,
        k,
        members: p.classes(),
        label: p.labels().to_vec(),
    };
    let late = || deadline.is_some_and(|t| Instant::now() >= t);
    'passes: for _ in 0..MAX_PASSES {
        let mut improved = false;
        for c in 0..cl.members.len() {
            while !late() && cl.split(c) {
                improved = true;
            }
        }
        for (i, near) in nearest.iter().enumerate().take(n) {
            if late() {
                break 'passes;
            }
            // The best move, then the best swap, among the nearest records' classes (each
            // class once: several near records often share one).
            let mut classes: Vec<usize> = near.iter().map(|&j| cl.label[j]).collect();
            classes.sort_unstable();
            classes.dedup();
            let best_move = classes
                .iter()
                .filter_map(|&b| cl.move_gain(i, b).map(|g| (g, b)))
                .max_by_key(|&(g, b)| (g, std::cmp::Reverse(b)));
            if let Some((_, b)) = best_move.filter(|&(g, _)| g > 0) {
                cl.relabel(i, b);
                improved = true;
                continue;
            }
            let best_swap = classes
                .iter()
                .flat_map(|&b| cl.members[b].clone())
                .filter_map(|j| cl.swap_gain(i, j).map(|g| (g, j)))
                .max_by_key(|&(g, j)| (g, std::cmp::Reverse(j)));
            if let Some((_, j)) = best_swap.filter(|&(g, _)| g > 0) {
                let (a, b) = (cl.label[i], cl.label[j]);
                cl.relabel(i, b);
                cl.relabel(j, a);
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    Partition::from_labels(&cl.label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use optik_models::criteria::class_criteria;

    /// Records on a line at these positions; d = |x_i − x_j|.
    fn line(xs: &[i64]) -> impl Fn(usize, usize) -> i64 + '_ {
        move |i, j| (xs[i] - xs[j]).abs()
    }

    fn wcsd(d: impl Fn(usize, usize) -> i64, p: &Partition) -> i64 {
        class_criteria(p, d).wcsd
    }

    fn improved(xs: &[i64], k: &[u32], p: &Partition) -> Partition {
        let near = nearest(line(xs), xs.len(), None).expect("no deadline");
        improve(line(xs), k, p, &near, None)
    }

    #[test]
    fn a_swap_repairs_two_interleaved_classes() {
        // Two clusters {0, 1, 2} and {10, 11, 12}, given interleaved: one swap fixes them.
        let xs = [0, 1, 12, 10, 11, 2];
        let p = Partition::from_labels(&[0, 0, 0, 1, 1, 1]);
        let k = [3u32; 6];
        let q = improved(&xs, &k, &p);
        assert!(q.violations(&k).is_empty());
        assert_eq!(wcsd(line(&xs), &q), 4 + 4);
        assert_eq!(q.class_of(0), q.class_of(5));
        assert_eq!(q.class_of(2), q.class_of(3));
    }

    #[test]
    fn a_passed_deadline_leaves_the_partition_as_it_was() {
        // Both a split and a swap would improve it.
        let xs = [0, 1, 12, 10, 11, 2, 30, 31, 32, 40, 41, 42];
        let p = Partition::from_labels(&[0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
        let k = [3u32; 12];
        let past = Some(Instant::now());
        assert!(nearest(line(&xs), xs.len(), past).is_none());
        let near = nearest(line(&xs), xs.len(), None).expect("no deadline");
        assert_eq!(improve(line(&xs), &k, &p, &near, past), p);
    }

    #[test]
    fn a_class_twice_the_largest_k_is_split() {
        let xs = [0, 1, 2, 20, 21, 22];
        let p = Partition::from_labels(&[0; 6]);
        let k = [3u32; 6];
        let q = improved(&xs, &k, &p);
        assert_eq!(q.num_classes(), 2);
        assert_eq!(wcsd(line(&xs), &q), 8);
    }

    #[test]
    fn personal_k_is_kept_and_the_cost_never_rises() {
        // Pseudo-random points, k_i in {2, 3, 5}; any start (here: consecutive blocks of 5).
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..20 {
            let n = 20 + round;
            let xs: Vec<i64> = (0..n).map(|_| (next() % 100) as i64).collect();
            let k: Vec<u32> = (0..n).map(|_| [2, 3, 5][(next() % 3) as usize]).collect();
            let mut labels: Vec<usize> = (0..n).map(|i| i / 5).collect();
            // The last block may be short: join it to the one before.
            let last = (n - 1) / 5;
            if n % 5 != 0 && last > 0 {
                for l in labels.iter_mut().filter(|l| **l == last) {
                    *l = last - 1;
                }
            }
            let p = Partition::from_labels(&labels);
            if !p.violations(&k).is_empty() {
                continue;
            }
            let q = improved(&xs, &k, &p);
            assert!(q.violations(&k).is_empty(), "round {round}");
            assert!(wcsd(line(&xs), &q) <= wcsd(line(&xs), &p), "round {round}");
        }
    }
}
