//! The WCSD lower bound, shared by the propagator and its checker.
//!
//! `W = Σ_C Σ_{x<y∈C} d(x, y) = ½ Σ_i T_i` with `T_i = Σ_{l ∈ C(i), l ≠ i} d(i, l)`. For a set
//! `F` of fixed records (`A_j` = members of `F` in class `j`, `K_j = max_{A_j} k`) and
//! `U` the others, a record `i` ending in class `j` has `T_i ≥ Σ_{l∈A_j∖{i}} d(i, l)` plus the
//! sum of the `q` smallest distances from `i` to `U∖{i}`, where `q = max(k_i, K_j) − |A_j ∪ {i}|`
//! is the number of classmates still to come (all from `U`). Fixed records use their class;
//! a record of `U` takes the minimum over its domain. Fixing a record never lowers this bound
//! (it moves from `U` to some `A_j`, where its exact distance replaces one of the `q` smallest),
//! so explanations are: every fixed record, and for each record of `U` the excluded classes
//! cheaper than its minimum. Computed as `Σ LB(T_i)` (twice the bound); the bound is `⌈·/2⌉`.

use crate::common::{DistMatrix, Snapshot};

/// Static data of the WCSD bound.
#[derive(Clone, Debug)]
pub struct WcsdData {
    /// Distances.
    pub dist: DistMatrix,
    /// k_i per record.
    pub k: std::sync::Arc<[u32]>,
    /// Largest class id.
    pub cmax: i32,
}

/// Result of one evaluation (all costs doubled).
#[derive(Clone, Debug)]
pub struct WcsdEval {
    /// Twice the lower bound (before rounding).
    pub lb2: i64,
    /// Members of each class (index = class id).
    pub members: Vec<Vec<usize>>,
    /// `K_j` per class (0 when empty).
    pub kmax: Vec<u32>,
    /// `Σ_{l∈A_j} d(r, l)` per record and class (row-major, `cmax + 1` columns).
    pub sum: Vec<i64>,
    /// Prefix sums of the smallest distances from r to `U∖{r}` (index q = sum of q smallest).
    pub prefix: Vec<Vec<i64>>,
    /// LB(T_r) per record (for fixed records, with their class; for others, the minimum).
    pub t: Vec<i64>,
    /// Records outside F.
    pub unfixed: Vec<usize>,
    /// True when every record is in F (then the bound is the exact WCSD).
    pub complete: bool,
}

impl WcsdEval {
    /// LB(T_r) if record `r ∉ F` joins class `j`.
    #[inline]
    pub fn est(&self, data: &WcsdData, r: usize, j: i32) -> i64 {
        let w = data.cmax as usize + 1;
        let have = self.members[j as usize].len();
        let target = data.k[r].max(self.kmax[j as usize]) as usize;
        let q = target.saturating_sub(have + 1);
        self.sum[r * w + j as usize] + completion(&self.prefix[r], q)
    }

    /// The lower bound `⌈lb2 / 2⌉`.
    pub fn lb(&self) -> i64 {
        (self.lb2 + 1).div_euclid(2)
    }
}

/// Cost standing for "no completion" (large, but far from overflowing sums).
pub const INFEASIBLE: i64 = 1 << 40;

/// Sum of the `q` smallest distances to other unfixed records, or [`INFEASIBLE`] when fewer
/// than `q` remain (keeps the bound monotone).
#[inline]
fn completion(prefix: &[i64], q: usize) -> i64 {
    prefix.get(q).copied().unwrap_or(INFEASIBLE)
}

/// Evaluates the bound for domains `s` and designated fixed values `fixed`.
pub fn evaluate(data: &WcsdData, s: &Snapshot, fixed: &[Option<i32>]) -> WcsdEval {
    let n = fixed.len();
    let w = data.cmax as usize + 1;
    let mut members = vec![Vec::new(); w];
    let mut kmax = vec![0u32; w];
    let mut unfixed = Vec::new();
    for (i, f) in fixed.iter().enumerate() {
        match f {
            Some(j) if (1..=data.cmax).contains(j) => {
                members[*j as usize].push(i);
                kmax[*j as usize] = kmax[*j as usize].max(data.k[i]);
            }
            _ => unfixed.push(i),
        }
    }
    let kk = data.k.iter().copied().max().unwrap_or(1) as usize;
    let mut sum = vec![0i64; n * w];
    let mut prefix = vec![vec![0i64]; n];
    let mut near = Vec::with_capacity(unfixed.len());
    for r in 0..n {
        let row = data.dist.row(r);
        for (j, a) in members.iter().enumerate() {
            sum[r * w + j] = a.iter().map(|&l| row[l]).sum::<i64>();
        }
        near.clear();
        near.extend(unfixed.iter().filter(|&&u| u != r).map(|&u| row[u]));
        let take = kk.min(near.len());
        if take > 0 && take < near.len() {
            near.select_nth_unstable(take - 1);
        }
        near[..take].sort_unstable();
        let mut p = Vec::with_capacity(take + 1);
        p.push(0);
        for &d in &near[..take] {
            p.push(p.last().copied().unwrap_or(0) + d);
        }
        prefix[r] = p;
    }
    let mut ev = WcsdEval {
        lb2: 0,
        members,
        kmax,
        sum,
        prefix,
        t: vec![0; n],
        complete: unfixed.is_empty(),
        unfixed,
    };
    let mut total = 0i64;
    for (i, f) in fixed.iter().enumerate() {
        let t = match *f {
            Some(j) if (1..=data.cmax).contains(&j) => {
                // `sum` includes d(i, i) = 0; q counts i as already in A_j.
                let have = ev.members[j as usize].len();
                let q = (ev.kmax[j as usize] as usize).saturating_sub(have);
                ev.sum[i * w + j as usize] + completion(&ev.prefix[i], q)
            }
            _ => s.values(i).map(|j| ev.est(data, i, j)).min().unwrap_or(0),
        };
        ev.t[i] = t;
        total += t;
    }
    ev.lb2 = total;
    ev
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{line, Harness};

    fn data(points: &[i64], k: &[u32], cmax: i32) -> WcsdData {
        WcsdData {
            dist: line(points),
            k: k.into(),
            cmax,
        }
    }

    #[test]
    fn wcsd_bound_charges_each_record_the_nearest_records_its_class_still_needs() {
        // Records at 0, 1, 10, 12 (k = 2); records 0 and 2 start classes 1 and 2. Record 0
        // still needs one classmate: the nearest free record is 1 (distance 1); record 2's is
        // record 3 (distance 2). Records 1 and 3 pay their distance to the class they join, or
        // in the empty class 3 the distance to the other free record (11).
        let all: &[i32] = &[1, 2, 3];
        let (mut h, g) = Harness::new(&[&[1], all, &[2], all]);
        let s = h.snapshot(&g, 3);
        let d = data(&[0, 1, 10, 12], &[2; 4], 3);
        let ev = evaluate(&d, &s, &s.fixed);
        assert_eq!(ev.t, vec![1, 1, 2, 2]);
        assert_eq!(ev.est(&d, 1, 2), 9);
        assert_eq!(ev.est(&d, 3, 1), 12);
        assert_eq!(ev.est(&d, 1, 3), 11);
        assert_eq!(ev.est(&d, 3, 3), 11);
        assert_eq!((ev.lb2, ev.lb()), (6, 3));
    }

    #[test]
    fn wcsd_bound_of_a_class_short_of_free_records_is_infeasible() {
        // Record 0 (k = 3) is in class 1 and needs two more records; only record 1 is free.
        let (mut h, g) = Harness::new(&[&[1], &[1, 2], &[2]]);
        let s = h.snapshot(&g, 2);
        let d = data(&[0, 1, 10], &[3; 3], 2);
        let ev = evaluate(&d, &s, &s.fixed);
        assert!(ev.t[0] >= INFEASIBLE);
    }
}
