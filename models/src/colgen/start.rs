//! Starting material for the master: a nearest-neighbour cover, so the master is feasible and an
//! upper bound exists even without heuristic partitions, and the per-record bounds m_i whose
//! least-slack columns seed the first LP.

use super::column::class_cost;
use crate::{Criterion, Instance, Partition};

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

/// Per-record lower bounds m_i with Σ_{i∈C} m_i ≤ cost(C) for every k_i-anonymous class C:
/// dbil: the distance to the (k_i − 1)-th nearest record (each member is within diam of
/// |C| − 1 ≥ k_i − 1 others), refined once by [`refine_dbil`]; wcsd: half the sum of the k_i − 1 nearest distances; sse: that
/// half sum over k_i, less 1/(2k_i). (A member's share W_i/(2|C|) of the class's pair sum W is
/// at least the mean of its |C| smallest distances, its own 0 included, which grows with |C|,
/// so |C| = k_i gives the least; and Σ_{i∈C} 1/(2k_i) ≥ |C|/(2 max k) ≥ ½ pays the rounding
/// of the class's term.)
pub fn record_bounds(inst: &Instance, criterion: Criterion) -> Vec<f64> {
    use rayon::prelude::*;
    let first: Vec<f64> = (0..inst.n)
        .into_par_iter()
        .map(|i| {
            let need = inst.k[i] as usize - 1;
            if need == 0 {
                return if criterion == Criterion::Sse {
                    -0.5
                } else {
                    0.0
                };
            }
            let mut row: Vec<i64> = (0..inst.n)
                .filter(|&j| j != i)
                .map(|j| inst.d(i, j))
                .collect();
            row.select_nth_unstable(need - 1);
            match criterion {
                Criterion::Wcsd => row[..need].iter().sum::<i64>() as f64 / 2.0,
                Criterion::Sse => {
                    let ki = (need + 1) as f64;
                    (row[..need].iter().sum::<i64>() as f64 - 1.0) / (2.0 * ki)
                }
                _ => row[need - 1] as f64,
            }
        })
        .collect();
    match criterion {
        Criterion::Dbil => refine_dbil(inst.n, &|i| inst.k[i], &|i, j| inst.d(i, j), &first),
        _ => first,
    }
}

/// A stronger dbil bound from valid ones `b` over n records with k_i `k` and distances `d`:
/// record i's class C holds at least k_i − 1 other records j, and diam(C) ≥ d(i, j) and
/// diam(C) ≥ b_j (b_j bounds the diameter of every class holding j). So diam(C) ≥ b'_i, the
/// (k_i − 1)-th smallest of max(d(i, j), b_j) over j ≠ i, and each member's share of
/// |C|·diam(C) is diam(C) ≥ max(b_i, b'_i). Quadratic in n; in parallel. (On Adult samples a
/// second pass gained under 1%.)
pub fn refine_dbil(
    n: usize,
    k: &(dyn Fn(usize) -> u32 + Sync),
    d: &(dyn Fn(usize, usize) -> i64 + Sync),
    b: &[f64],
) -> Vec<f64> {
    use rayon::prelude::*;
    (0..n)
        .into_par_iter()
        .map(|i| {
            let need = k(i) as usize - 1;
            if need == 0 {
                return b[i];
            }
            let mut row: Vec<f64> = (0..n)
                .filter(|&j| j != i)
                .map(|j| (d(i, j) as f64).max(b[j]))
                .collect();
            let (_, nth, _) = row.select_nth_unstable_by(need - 1, f64::total_cmp);
            nth.max(b[i])
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
