//! Local search for the SSE criterion: improves any k_i-anonymous partition by moving one
//! record to another class or swapping two records of different classes, keeping every class
//! at least as large as its largest k_i. Used on the heuristics' output before it warm-starts
//! an exact SSE run. Each move is priced in O(dims) from the classes' coordinate sums:
//! SSE(C) = Σ_{i∈C} ‖z_i‖² − ‖Σ_{i∈C} z_i‖²/|C|.

use crate::data::standardised::{sq_to, Standardised};
use crate::Partition;

/// Number of nearest classes (by centroid) a record tries to move or swap into.
const NEIGHBOUR_CLASSES: usize = 8;

/// Smallest SSE decrease accepted (guards against cycling on rounding noise).
const MIN_GAIN: f64 = 1e-10;

/// The classes of a partition with their sums, for O(dims) move prices.
struct Classes<'a> {
    z: &'a Standardised,
    k: &'a [u32],
    members: Vec<Vec<usize>>,
    sum: Vec<Vec<f64>>,
    label: Vec<usize>,
}

impl Classes<'_> {
    /// ‖S‖²/m for a sum vector S of m records (the part of SSE that depends on grouping).
    fn spread(s: &[f64], m: usize) -> f64 {
        if m == 0 {
            0.0
        } else {
            s.iter().map(|v| v * v).sum::<f64>() / m as f64
        }
    }

    fn centroid(&self, c: usize) -> Vec<f64> {
        let m = self.members[c].len() as f64;
        self.sum[c].iter().map(|v| v / m).collect()
    }

    /// Largest k_i of class `c` without record `skip` and with record `add`.
    fn kmax(&self, c: usize, skip: usize, add: Option<usize>) -> usize {
        super::largest_k_after(&self.members[c], self.k, skip, add)
    }

    /// SSE decrease of moving record `i` from its class to class `b` (None if invalid).
    fn move_gain(&self, i: usize, b: usize) -> Option<f64> {
        let a = self.label[i];
        let (na, nb) = (self.members[a].len(), self.members[b].len());
        if na < 2 || na - 1 < self.kmax(a, i, None) || nb + 1 < self.k[i] as usize {
            return None;
        }
        let x = self.z.point(i);
        let sa: Vec<f64> = self.sum[a].iter().zip(x).map(|(s, v)| s - v).collect();
        let sb: Vec<f64> = self.sum[b].iter().zip(x).map(|(s, v)| s + v).collect();
        // SSE = Σ‖z‖² − spread: the gain is the increase of the spreads.
        Some(
            Self::spread(&sa, na - 1) + Self::spread(&sb, nb + 1)
                - Self::spread(&self.sum[a], na)
                - Self::spread(&self.sum[b], nb),
        )
    }

    /// SSE decrease of swapping records `i` and `j` of different classes (None if invalid).
    fn swap_gain(&self, i: usize, j: usize) -> Option<f64> {
        let (a, b) = (self.label[i], self.label[j]);
        let (na, nb) = (self.members[a].len(), self.members[b].len());
        if na < self.kmax(a, i, Some(j)) || nb < self.kmax(b, j, Some(i)) {
            return None;
        }
        let (x, y) = (self.z.point(i), self.z.point(j));
        let sa: Vec<f64> = (0..x.len()).map(|d| self.sum[a][d] - x[d] + y[d]).collect();
        let sb: Vec<f64> = (0..x.len()).map(|d| self.sum[b][d] - y[d] + x[d]).collect();
        Some(
            Self::spread(&sa, na) + Self::spread(&sb, nb)
                - Self::spread(&self.sum[a], na)
                - Self::spread(&self.sum[b], nb),
        )
    }

    fn relabel(&mut self, i: usize, to: usize) {
        let from = self.label[i];
        let x = self.z.point(i);
        self.members[from].retain(|&r| r != i);
        self.members[to].push(i);
        for (d, v) in x.iter().enumerate() {
            self.sum[from][d] -= v;
            self.sum[to][d] += v;
        }
        self.label[i] = to;
    }
}

/// Improves `p` for SSE until no move or swap among each record's nearest classes lowers it;
/// the result is k_i-anonymous whenever `p` is, and its SSE is never higher.
pub(crate) fn improve(z: &Standardised, k: &[u32], p: &Partition) -> Partition {
    let n = z.len();
    let members = p.classes();
    let sum = members
        .iter()
        .map(|m| {
            let mut s = vec![0.0; z.dims()];
            for &i in m {
                for (t, v) in s.iter_mut().zip(z.point(i)) {
                    *t += v;
                }
            }
            s
        })
        .collect();
    let mut c = Classes {
        z,
        k,
        members,
        sum,
        label: p.labels().to_vec(),
    };
    let nc = c.members.len();
    loop {
        let mut improved = false;
        let centroids: Vec<Vec<f64>> = (0..nc).map(|b| c.centroid(b)).collect();
        for i in 0..n {
            let a = c.label[i];
            let mut near: Vec<(f64, usize)> = (0..nc)
                .filter(|&b| b != a)
                .map(|b| (sq_to(z.point(i), &centroids[b]), b))
                .collect();
            let take = NEIGHBOUR_CLASSES.min(near.len());
            if take == 0 {
                break;
            }
            near.select_nth_unstable_by(take - 1, |x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            near.truncate(take);
            near.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            // The best move or swap of record i among its nearest classes.
            let mut best: Option<(f64, usize, Option<usize>)> = None;
            for &(_, b) in &near {
                if let Some(g) = c.move_gain(i, b) {
                    if g > best.map_or(MIN_GAIN, |x| x.0) {
                        best = Some((g, b, None));
                    }
                }
                for &j in &c.members[b] {
                    if let Some(g) = c.swap_gain(i, j) {
                        if g > best.map_or(MIN_GAIN, |x| x.0) {
                            best = Some((g, b, Some(j)));
                        }
                    }
                }
            }
            if let Some((_, b, j)) = best {
                c.relabel(i, b);
                if let Some(j) = j {
                    c.relabel(j, a);
                }
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    Partition::from_labels(&c.label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::fixtures::{qi, quasi, table};
    use crate::data::schema::Kind;

    #[test]
    fn local_search_repairs_a_crossed_partition_and_keeps_k() {
        // 0, 1, 2 | 10, 11, 12, started crossed.
        let t = table(&[&["x"], &["0"], &["1"], &["2"], &["10"], &["11"], &["12"]]);
        let q = qi(&t, &[quasi("x", Kind::Numeric, 1.0)]);
        let z = Standardised::new(&q).unwrap();
        let k = [3; 6];
        let start = Partition::from_labels(&[0, 1, 0, 1, 0, 1]);
        let p = improve(&z, &k, &start);
        assert!(p.violations(&k).is_empty());
        assert!(z.sse(&p) < z.sse(&start));
        let best = Partition::from_labels(&[0, 0, 0, 1, 1, 1]);
        assert!((z.sse(&p) - z.sse(&best)).abs() < 1e-12);
    }

    #[test]
    fn moves_respect_personal_k() {
        // Record 0 needs a class of 4: it cannot leave for a class of 2.
        let t = table(&[&["x"], &["0"], &["5"], &["6"], &["7"], &["1"], &["2"]]);
        let q = qi(&t, &[quasi("x", Kind::Numeric, 1.0)]);
        let z = Standardised::new(&q).unwrap();
        let k = [4, 1, 1, 1, 2, 2];
        let start = Partition::from_labels(&[0, 0, 0, 0, 1, 1]);
        let p = improve(&z, &k, &start);
        assert!(p.violations(&k).is_empty());
        assert!(z.sse(&p) <= z.sse(&start) + 1e-12);
    }
}
