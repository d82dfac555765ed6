//! Starting material for the master: a nearest-neighbour cover, so the master is feasible and an
//! upper bound exists even without heuristic partitions, and the per-record bounds m_i whose
//! least-slack columns seed the first LP.

use super::column::class_cost;
use crate::{Criterion, Diversity, Instance, Partition};

/// A k_i-anonymous partition built greedily: seeds in decreasing k, each taking its nearest
/// unassigned records until the class reaches its largest k; what cannot form a class joins the
/// nearest one, and classes still too small are merged with their nearest class.
pub fn greedy_cover(inst: &Instance) -> Partition {
    let n = inst.n;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| inst.k[b].cmp(&inst.k[a]).then(a.cmp(&b)));
    let mut label = vec![usize::MAX; n];
    let mut classes: Vec<Vec<usize>> = Vec::new();
    let mut leftovers = Vec::new();
    for &seed in &order {
        if label[seed] != usize::MAX {
            continue;
        }
        let mut near: Vec<usize> = (0..n)
            .filter(|&j| j != seed && label[j] == usize::MAX)
            .collect();
        near.sort_by_key(|&j| (inst.d(seed, j), j));
        let mut class = vec![seed];
        let mut kmax = inst.k[seed] as usize;
        for j in near {
            if class.len() >= kmax {
                break;
            }
            class.push(j);
            kmax = kmax.max(inst.k[j] as usize);
        }
        if class.len() >= kmax {
            for &i in &class {
                label[i] = classes.len();
            }
            classes.push(class);
        } else {
            leftovers.extend(class);
            break;
        }
    }
    let placed: std::collections::HashSet<usize> = leftovers.iter().copied().collect();
    leftovers.extend((0..n).filter(|&i| label[i] == usize::MAX && !placed.contains(&i)));
    if classes.is_empty() {
        return Partition::from_labels(&vec![0; n]);
    }
    for &i in &leftovers {
        let near = (0..n)
            .filter(|&j| label[j] != usize::MAX && label[j] < classes.len())
            .min_by_key(|&j| (inst.d(i, j), j))
            .expect("some record is assigned");
        classes[label[near]].push(i);
    }
    // Merge classes that the leftovers made too small for their largest k.
    loop {
        let bad = classes
            .iter()
            .position(|c| c.len() < c.iter().map(|&i| inst.k[i] as usize).max().unwrap_or(0));
        let Some(b) = bad else { break };
        if classes.len() == 1 {
            break;
        }
        let victim = classes.swap_remove(b);
        let target = (0..classes.len())
            .min_by_key(|&c| {
                let d = victim
                    .iter()
                    .flat_map(|&i| classes[c].iter().map(move |&j| (i, j)))
                    .map(|(i, j)| inst.d(i, j))
                    .min()
                    .unwrap_or(i64::MAX);
                (d, c)
            })
            .expect("another class exists");
        classes[target].extend(victim);
    }
    Partition::from_classes(n, &classes).expect("every record placed once")
}

/// Per-record lower bounds m_i with Σ_{i∈C} m_i ≤ cost(C) for every k_i-anonymous class C
/// (l-diverse under `diversity`): [`record_bound`] of every record, and for dbil one refinement
/// by [`refine_dbil`]. Quadratic in n; in parallel.
pub fn record_bounds(
    inst: &Instance,
    criterion: Criterion,
    diversity: Option<&Diversity>,
) -> Vec<f64> {
    use rayon::prelude::*;
    let floor = DiversityFloor::new(diversity);
    let first: Vec<f64> = (0..inst.n)
        .into_par_iter()
        .map(|i| {
            let d = |j: usize| inst.d(i, j);
            record_bound(inst.n, i, inst.k[i], &d, criterion, floor.as_ref())
        })
        .collect();
    match criterion {
        Criterion::Dbil => refine_dbil(
            inst.n,
            &|i| inst.k[i],
            &|i, j| inst.d(i, j),
            &first,
            diversity,
        ),
        _ => first,
    }
}

/// Record `i`'s bound m_i from its distances `d(j)` to the `n` records, for a class of at
/// least s_i = k_i records (max(k_i, l) under l-diversity, `floor`). dbil: the distance to its
/// (s_i − 1)-th nearest record (each member is within diam of |C| − 1 ≥ s_i − 1 others); wcsd:
/// half the sum of the s_i − 1 nearest distances; sse: that half sum over s_i, less 1/(2s_i).
/// (A member's share W_i/(2|C|) of the class's pair sum W is at least the mean of its |C|
/// smallest distances, its own 0 included, which grows with |C|, so |C| = s_i gives the least;
/// and Σ_{i∈C} 1/(2s_i) ≥ |C|/(2 max s) ≥ ½ pays the rounding of the class's term.) Under
/// l-diversity dbil and wcsd also take the l − 1 other values nearest to i, each at its nearest
/// record ([`DiversityFloor`]): a class holding i holds a record of each of l − 1 values other
/// than i's, so its diameter is at least the largest of those distances, and i's half row sum
/// at least half their sum. Linear in n.
pub fn record_bound(
    n: usize,
    i: usize,
    k_i: u32,
    d: &dyn Fn(usize) -> i64,
    criterion: Criterion,
    floor: Option<&DiversityFloor>,
) -> f64 {
    let size = floor.map_or(k_i as usize, |f| f.size(k_i));
    let need = size - 1;
    if need == 0 {
        return if criterion == Criterion::Sse {
            -0.5
        } else {
            0.0
        };
    }
    let mut row: Vec<i64> = Vec::with_capacity(n);
    // sse takes only the larger size from l-diversity (its share may fall as a class grows).
    let values_count = criterion != Criterion::Sse;
    let mut nearest = floor.filter(|_| values_count).map(|f| f.nearest_values(i));
    for j in (0..n).filter(|&j| j != i) {
        let x = d(j);
        row.push(x);
        if let Some(nv) = nearest.as_mut() {
            nv.offer(j, x as f64);
        }
    }
    row.select_nth_unstable(need - 1);
    let near = || row[..need].iter().sum::<i64>() as f64;
    let others = nearest.map(|nv| nv.into_nearest()).unwrap_or_default();
    match criterion {
        Criterion::Wcsd => near().max(others.iter().sum::<f64>()) / 2.0,
        Criterion::Sse => (near() - 1.0) / (2.0 * size as f64),
        _ => (row[need - 1] as f64).max(others.last().copied().unwrap_or(0.0)),
    }
}

/// What l-diversity adds to the per-record bounds: a class holding record i holds at least
/// max(k_i, l) records, of which l − 1 have pairwise distinct values other than i's.
#[derive(Debug)]
pub struct DiversityFloor<'a> {
    values: &'a [u32],
    l: usize,
}

impl<'a> DiversityFloor<'a> {
    /// `None` without l-diversity or with l ≤ 1 (nothing to add).
    pub fn new(diversity: Option<&'a Diversity>) -> Option<Self> {
        let d = diversity.filter(|d| d.l >= 2)?;
        Some(DiversityFloor {
            values: &d.values,
            l: d.l as usize,
        })
    }

    /// The least size of a class holding a record with this k_i.
    pub fn size(&self, k_i: u32) -> usize {
        (k_i as usize).max(self.l)
    }

    /// A collector of record `i`'s l − 1 nearest other values.
    pub fn nearest_values(&self, i: usize) -> NearestValues<'_> {
        NearestValues {
            floor: self,
            own: self.values[i],
            nearest: Vec::with_capacity(self.l),
        }
    }
}

/// The l − 1 values other than the record's own whose nearest offered records are nearest,
/// each with that distance. Kept exact with l − 1 entries: a value dropped for a nearer one
/// can only come back nearer than the entries then kept, which only ever get nearer.
#[derive(Debug)]
pub struct NearestValues<'a> {
    floor: &'a DiversityFloor<'a>,
    own: u32,
    /// (value, least distance), ascending by distance, at most l − 1 long.
    nearest: Vec<(u32, f64)>,
}

impl NearestValues<'_> {
    /// Record `j` is `x` away. O(l).
    pub fn offer(&mut self, j: usize, x: f64) {
        let v = self.floor.values[j];
        if v == self.own {
            return;
        }
        let want = self.floor.l - 1;
        match self.nearest.iter().position(|&(u, _)| u == v) {
            Some(p) if x < self.nearest[p].1 => self.nearest[p].1 = x,
            Some(_) => return,
            None if self.nearest.len() < want => self.nearest.push((v, x)),
            None if x < self.nearest[want - 1].1 => self.nearest[want - 1] = (v, x),
            None => return,
        }
        self.nearest.sort_unstable_by(|a, b| a.1.total_cmp(&b.1));
    }

    /// The l − 1 least per-value distances, ascending (fewer when fewer other values occur:
    /// then no l-diverse class holds the record, and any bound is valid).
    pub fn into_nearest(self) -> Vec<f64> {
        self.nearest.into_iter().map(|(_, x)| x).collect()
    }
}

/// A stronger dbil bound from valid ones `b` over n records with k_i `k` and distances `d`:
/// record i's class C holds at least s_i − 1 other records j (s_i = k_i, or max(k_i, l) under
/// l-diversity), and diam(C) ≥ d(i, j) and diam(C) ≥ b_j (b_j bounds the diameter of every
/// class holding j). So diam(C) ≥ b'_i, the (s_i − 1)-th smallest of max(d(i, j), b_j) over
/// j ≠ i, and under l-diversity ≥ the largest, over the l − 1 other values nearest in that
/// measure, of the least max(d(i, j), b_j) over their records; each member's share of
/// |C|·diam(C) is diam(C) ≥ max(b_i, b'_i). Quadratic in n; in parallel. (On Adult samples a
/// second pass gained under 1%.)
pub fn refine_dbil(
    n: usize,
    k: &(dyn Fn(usize) -> u32 + Sync),
    d: &(dyn Fn(usize, usize) -> i64 + Sync),
    b: &[f64],
    diversity: Option<&Diversity>,
) -> Vec<f64> {
    use rayon::prelude::*;
    let floor = DiversityFloor::new(diversity);
    (0..n)
        .into_par_iter()
        .map(|i| {
            let size = floor.as_ref().map_or(k(i) as usize, |f| f.size(k(i)));
            let need = size - 1;
            if need == 0 {
                return b[i];
            }
            let mut nearest = floor.as_ref().map(|f| f.nearest_values(i));
            let mut row: Vec<f64> = Vec::with_capacity(n);
            for j in (0..n).filter(|&j| j != i) {
                let x = (d(i, j) as f64).max(b[j]);
                row.push(x);
                if let Some(nv) = nearest.as_mut() {
                    nv.offer(j, x);
                }
            }
            let (_, nth, _) = row.select_nth_unstable_by(need - 1, f64::total_cmp);
            let others = nearest.map(|nv| nv.into_nearest()).unwrap_or_default();
            nth.max(b[i]).max(others.last().copied().unwrap_or(0.0))
        })
        .collect()
}

/// Cost of a partition's classes under a sum criterion.
pub fn partition_cost(inst: &Instance, criterion: Criterion, p: &Partition) -> i64 {
    p.classes()
        .iter()
        .map(|c| {
            let m: Vec<u32> = c.iter().map(|&i| i as u32).collect();
            class_cost(inst, criterion, &m)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn points(pos: &[i64], k: &[u32]) -> Instance {
        Instance::from_distance(1.0, k.to_vec(), |i, j| (pos[i] - pos[j]).abs() as f64).unwrap()
    }

    #[test]
    fn l_diversity_raises_the_bound_to_the_nearest_other_value() {
        // k = 2, l = 2: records 0 and 1 share a value and sit together; the nearest record of
        // another value is 10 away from each, so any l-diverse class holding them has a
        // diameter of at least 10 (without l-diversity: 0).
        let inst = points(&[0, 0, 10, 12], &[2; 4]);
        let diversity = Diversity {
            values: vec![0, 0, 1, 1],
            l: 2,
        };
        let plain = record_bounds(&inst, Criterion::Dbil, None);
        let diverse = record_bounds(&inst, Criterion::Dbil, Some(&diversity));
        assert_eq!(plain, vec![0.0, 0.0, 2.0, 2.0]);
        assert_eq!(diverse, vec![10.0, 10.0, 10.0, 12.0]);
        assert_eq!(
            record_bounds(&inst, Criterion::Wcsd, Some(&diversity)),
            vec![5.0, 5.0, 5.0, 6.0]
        );
    }

    proptest! {
        /// The collector keeps exactly the l − 1 least per-value minima, in any offer order.
        #[test]
        fn nearest_values_are_the_least_per_value_minima(
            offers in prop::collection::vec((0u32..6, 0u32..50), 1..40),
            l in 2u32..6,
        ) {
            let values: Vec<u32> = std::iter::once(0).chain(offers.iter().map(|o| o.0)).collect();
            let diversity = Diversity { values, l };
            let floor = DiversityFloor::new(Some(&diversity)).unwrap();
            let mut nv = floor.nearest_values(0);
            let mut least = std::collections::BTreeMap::new();
            for (j, &(v, x)) in offers.iter().enumerate() {
                nv.offer(j + 1, f64::from(x));
                if v != 0 {
                    let e = least.entry(v).or_insert(x);
                    *e = (*e).min(x);
                }
            }
            let mut want: Vec<f64> = least.values().map(|&x| f64::from(x)).collect();
            want.sort_unstable_by(f64::total_cmp);
            want.truncate(l as usize - 1);
            prop_assert_eq!(nv.into_nearest(), want);
        }

        /// Every class that is k_i-anonymous and l-diverse costs at least its members' bounds,
        /// under each sum criterion (dbil's refined ones, at least the unrefined): every
        /// subset of up to 9 records is tried.
        #[test]
        fn bounds_hold_for_every_l_diverse_class(
            pos in prop::collection::vec(0i64..40, 3..10),
            ks in prop::collection::vec(1u32..4, 10),
            vals in prop::collection::vec(0u32..5, 10),
            l in 1u32..4,
        ) {
            let n = pos.len();
            let inst = points(&pos, &ks[..n]);
            let diversity = Diversity { values: vals[..n].to_vec(), l };
            for criterion in [Criterion::Dbil, Criterion::Wcsd, Criterion::Sse] {
                let m = record_bounds(&inst, criterion, Some(&diversity));
                for mask in 1u32..(1 << n) {
                    let members: Vec<u32> = (0..n as u32).filter(|&i| mask >> i & 1 == 1).collect();
                    let size = members.len() as u32;
                    let mut seen: Vec<u32> = members.iter().map(|&i| vals[i as usize]).collect();
                    seen.sort_unstable();
                    seen.dedup();
                    if members.iter().any(|&i| ks[i as usize] > size) || (seen.len() as u32) < l {
                        continue;
                    }
                    let sum: f64 = members.iter().map(|&i| m[i as usize]).sum();
                    let cost = class_cost(&inst, criterion, &members);
                    prop_assert!(sum <= cost as f64 + 1e-9, "{criterion:?} {members:?}: {sum} > {cost}");
                }
            }
        }
    }
}
