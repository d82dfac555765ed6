//! Heuristic pricing for sse: columns found by descending from every record, in the geometry of
//! the records, toward a class of negative reduced cost. At large k the exact pricing search
//! grows with the class size (Tarragona, k = 10: classes of 10–19 records, rounds of 10 s to
//! minutes, each adding a few columns), and the master LP stayed at the warm start for the whole
//! run; this search finds hundreds of columns in a fraction of a second, and the exact search
//! then only has to certify (and bound) what is left.
//!
//! Why it works: for any point c and any class S, SSE(S) = Σ_{i∈S} ‖x_i − c_S‖² ≤
//! Σ_{i∈S} ‖x_i − c‖² (the centroid c_S minimises it). So the reduced cost of S is at most
//! Σ_{i∈S} g_i(c) with g_i(c) = ‖x_i − c‖² − π_i, and for a fixed c the set minimising that
//! sum takes the records of least g. Alternating c ← centroid of S and S ← best set for c never
//! raises Σ g, like k-means with the duals as a bonus. Only distances are needed:
//! ‖x_i − c_S‖² = (Σ_{j∈S} d_ij − P(S)/|S|) / |S| with P(S) the pair sum of S.

use super::column::{class_cost, valid_unsplittable, Column};
use crate::root_lp::Duals;
use crate::{Criterion, Instance};

/// Alternations per start (the descent usually settles in 3–6).
const MAX_STEPS: usize = 12;

/// Columns of negative reduced cost at `duals` found by the descent from every record (the
/// start c = x_r), at most `limit`, sorted by (reduced cost, members), distinct. Classes hold
/// `kmin..=max_size` records and are valid and unsplittable; cut penalties are counted in the
/// reduced cost, not in the descent. Deterministic when `deadline` does not pass; past it, no
/// further descent starts (a round at 5,000 records takes seconds).
pub(super) fn columns(
    inst: &Instance,
    duals: &Duals,
    max_size: usize,
    limit: usize,
    deadline: Option<std::time::Instant>,
) -> Vec<(f64, Column)> {
    let n = inst.n;
    let max_size = max_size.min(n);
    super::cheap_pricing::from_every_record(inst, Criterion::Sse, duals, limit, deadline, |r| {
        descend(inst, &duals.pi, r, max_size)
    })
}

/// The descent from c = x_r: the last set it reached (sorted members), or `None` when no valid
/// set was found.
fn descend(inst: &Instance, pi: &[f64], r: usize, max_size: usize) -> Option<Vec<u32>> {
    let n = inst.n;
    // g_i at c = x_r is d(r, i) − π_i.
    let mut g: Vec<f64> = (0..n).map(|i| inst.d(r, i) as f64 - pi[i]).collect();
    let mut best: Option<(f64, Vec<u32>)> = None;
    let mut order: Vec<u32> = (0..n as u32).collect();
    for _ in 0..MAX_STEPS {
        let set = best_set(inst, &g, &mut order, max_size)?;
        let value = sum_of(&set, &g);
        if best
            .as_ref()
            .is_some_and(|(v, s)| *s == set || value >= *v - 1e-9)
        {
            break;
        }
        // g at the centroid of `set`.
        let s = set.len() as f64;
        let pair_sum = class_cost(inst, Criterion::Wcsd, &set) as f64;
        for (i, gi) in g.iter_mut().enumerate() {
            let to_set: i64 = set.iter().map(|&j| inst.d(i, j as usize)).sum();
            *gi = (to_set as f64 - pair_sum / s) / s - pi[i];
        }
        best = Some((value, set));
    }
    best.map(|(_, s)| s)
}

/// Σ g over `set`.
fn sum_of(set: &[u32], g: &[f64]) -> f64 {
    set.iter().map(|&i| g[i as usize]).sum()
}

/// The valid unsplittable set of least Σ g among the prefixes of the records in increasing g
/// (at most `max_size` long), sorted; `None` when no prefix is valid.
fn best_set(inst: &Instance, g: &[f64], order: &mut [u32], max_size: usize) -> Option<Vec<u32>> {
    let by_g = |a: &u32, b: &u32| g[*a as usize].total_cmp(&g[*b as usize]).then(a.cmp(b));
    if max_size < order.len() {
        order.select_nth_unstable_by(max_size - 1, by_g);
    }
    let prefix = &mut order[..max_size];
    prefix.sort_unstable_by(by_g);
    let mut best: Option<(f64, usize)> = None;
    let mut sum = 0.0;
    let mut ks: Vec<u32> = Vec::with_capacity(max_size);
    for (len, &i) in prefix.iter().enumerate().map(|(a, i)| (a + 1, i)) {
        sum += g[i as usize];
        ks.clear();
        ks.extend(prefix[..len].iter().map(|&j| inst.k[j as usize]));
        if valid_unsplittable(&mut ks) && best.is_none_or(|(v, _)| sum < v) {
            best = Some((sum, len));
        }
    }
    let (_, len) = best?;
    let mut set = prefix[..len].to_vec();
    set.sort_unstable();
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records on a line at the given positions; squared distances.
    fn line(xs: &[i64], k: u32) -> Instance {
        let dist = xs
            .iter()
            .map(|a| xs.iter().map(|b| (a - b) * (a - b)).collect())
            .collect();
        Instance::new(1.0, vec![k; xs.len()], dist).unwrap()
    }

    #[test]
    fn finds_the_cheap_tight_class_the_duals_pay_for() {
        // Two tight groups of three and one far record; duals pay 10 per record.
        let inst = line(&[0, 1, 2, 100, 101, 102, 500], 3);
        let duals = Duals {
            pi: vec![10.0; 7],
            cuts: Vec::new(),
        };
        let cols = columns(&inst, &duals, 5, 10, None);
        let sets: Vec<&[u32]> = cols.iter().map(|c| c.1.members.as_slice()).collect();
        assert!(sets.contains(&[0u32, 1, 2].as_slice()), "{sets:?}");
        assert!(sets.contains(&[3u32, 4, 5].as_slice()), "{sets:?}");
        for (rc, c) in &cols {
            assert!(*rc < 0.0);
            assert_eq!(*rc, duals.reduced_cost(&c.members, c.cost));
            assert!((3..=5).contains(&c.members.len()));
        }
    }

    #[test]
    fn returns_nothing_when_no_class_has_negative_reduced_cost() {
        let inst = line(&[0, 1, 2, 100, 101, 102], 3);
        // Class {0,1,2}: pair sum 1+4+1 = 6, sse term 2; duals 0.5 each pay 1.5.
        let duals = Duals {
            pi: vec![0.5; 6],
            cuts: Vec::new(),
        };
        assert!(columns(&inst, &duals, 5, 10, None).is_empty());
    }

    #[test]
    fn respects_personal_k() {
        // Record 0 needs a class of 4: the tight triple {0,1,2} is invalid.
        let mut inst = line(&[0, 1, 2, 3, 50, 51, 52], 2);
        inst.k[0] = 4;
        let duals = Duals {
            pi: vec![40.0; 7],
            cuts: Vec::new(),
        };
        for (_, c) in columns(&inst, &duals, 7, 20, None) {
            let mut ks: Vec<u32> = c.members.iter().map(|&i| inst.k[i as usize]).collect();
            assert!(valid_unsplittable(&mut ks), "{:?}", c.members);
        }
    }
}
