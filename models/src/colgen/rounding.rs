//! LP rounding, a primal heuristic for the column-generation engine.
//!
//! The set-partitioning LP is usually within a fraction of a percent of the optimum, but at
//! larger k its restricted-master MIP can stall at the root without improving the heuristic
//! start (docs/exact.md). This rounding needs no MIP: take the LP's classes in decreasing value,
//! keep those disjoint from the ones already kept, give every record left over to the class
//! whose cost it raises least (among classes it can join without breaking its k_i), then move
//! single records between classes while that lowers the total cost. Every class it returns
//! holds each member's k_i and meets the extra constraints; it proves nothing.

use super::column::{class_cost, Column};
use crate::{ClassConstraints, Criterion, Instance, Partition};
use std::time::Instant;

/// Candidate classes per record in the improvement moves: those of its nearest records.
const NEAR: usize = 12;

/// Which of the rounding's steps run (ablation knobs, and tests that need the older path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moves {
    /// Leftovers may form classes of their own (`OPTIK_ROUND_FORM=0`: they only join the kept
    /// classes, as before 2026-11-30).
    pub form_leftover_classes: bool,
    /// The local moves include swaps (`OPTIK_LOCAL_SWAPS=0`: relocations only, as before
    /// 2026-11-30).
    pub swaps: bool,
}

impl Default for Moves {
    fn default() -> Self {
        let on = |name: &str| std::env::var(name).map_or(true, |v| v != "0");
        Moves {
            form_leftover_classes: on("OPTIK_ROUND_FORM"),
            swaps: on("OPTIK_LOCAL_SWAPS"),
        }
    }
}

/// Rounds the LP solution `x` over `columns` into a partition, or `None` when the leftovers
/// cannot be placed (or the result breaks an extra constraint). Records marked in `frozen`
/// (empty: none) belong to classes the rounding keeps as they are (a dive's fixed classes,
/// which the LP holds at 1): no leftover joins them and no move enters or leaves them.
/// `moves` says which of its steps run.
#[allow(clippy::too_many_arguments)]
pub fn round(
    inst: &Instance,
    criterion: Criterion,
    columns: &[Column],
    x: &[f64],
    extra: &ClassConstraints,
    deadline: Option<Instant>,
    frozen: &[bool],
    moves: Moves,
) -> Option<Partition> {
    let n = inst.n;
    let is_frozen = |i: u32| frozen.get(i as usize).copied().unwrap_or(false);
    let mut order: Vec<usize> = (0..columns.len()).filter(|&c| x[c] > 1e-6).collect();
    order.sort_by(|&a, &b| {
        x[b].total_cmp(&x[a])
            .then(columns[a].cost.cmp(&columns[b].cost))
            .then(a.cmp(&b))
    });
    let mut label = vec![usize::MAX; n];
    let mut classes: Vec<Vec<u32>> = Vec::new();
    for c in order {
        let m = &columns[c].members;
        if m.iter().all(|&i| label[i as usize] == usize::MAX) {
            for &i in m {
                label[i as usize] = classes.len();
            }
            classes.push(m.clone());
        }
    }
    if classes.is_empty() {
        return None;
    }
    let left: Vec<usize> = (0..n).filter(|&i| label[i] == usize::MAX).collect();
    // Leftovers joining the kept classes, and (when they are many) forming classes of their own
    // first: at large k the LP's disjoint classes leave a few classes' worth of records, and
    // joining all of them gives too few, too large classes (diabetes, 200 records, k = 10: 15
    // classes where the best partitions known have 19 or 20). The cheaper after the moves wins.
    let near = nearest(inst);
    let polish = |mut classes: Vec<Vec<u32>>, mut label: Vec<usize>| {
        let at = Limits {
            extra,
            deadline,
            swaps: moves.swaps,
            near: &near,
        };
        improve(inst, criterion, &mut classes, &mut label, &at, &is_frozen);
        let cost: i64 = classes.iter().map(|c| class_cost(inst, criterion, c)).sum();
        (classes, cost)
    };
    let joined = place_leftovers(inst, criterion, &classes, &label, &left, extra, &is_frozen)
        .map(|(classes, label)| polish(classes, label));
    let formed = moves
        .form_leftover_classes
        .then(|| leftover_classes(inst, &left, extra))
        .flatten()
        .and_then(|(new, rest)| {
            let mut classes = classes.clone();
            let mut label = label.clone();
            for c in new {
                for &i in &c {
                    label[i as usize] = classes.len();
                }
                classes.push(c);
            }
            place_leftovers(inst, criterion, &classes, &label, &rest, extra, &is_frozen)
                .map(|(classes, label)| polish(classes, label))
        });
    let classes = match (joined, formed) {
        (Some(a), Some(b)) => {
            if b.1 < a.1 {
                b.0
            } else {
                a.0
            }
        }
        (a, b) => a.or(b)?.0,
    };
    let p = partition_of(n, classes)?;
    (p.violations(&inst.k).is_empty() && extra.partition_ok(p.labels())).then_some(p)
}

/// `p` after the rounding's relocation and swap moves ([`improve`]) under the extra
/// constraints (which `p` meets): never costlier, still k_i-anonymous. The companion search
/// starts from it (a pass costs milliseconds where its neighbourhoods take seconds).
pub fn local_search(
    inst: &Instance,
    criterion: Criterion,
    p: &Partition,
    extra: &ClassConstraints,
    deadline: Option<Instant>,
) -> Partition {
    let mut classes: Vec<Vec<u32>> = p
        .classes()
        .into_iter()
        .map(|c| c.into_iter().map(|i| i as u32).collect())
        .collect();
    let mut label = p.labels().to_vec();
    let near = nearest(inst);
    let at = Limits {
        extra,
        deadline,
        swaps: Moves::default().swaps,
        near: &near,
    };
    improve(inst, criterion, &mut classes, &mut label, &at, &|_| false);
    partition_of(inst.n, classes).expect("moves keep a partition")
}

/// The partition of `n` records whose classes are `classes` (empty ones dropped), if they are
/// one.
fn partition_of(n: usize, classes: Vec<Vec<u32>>) -> Option<Partition> {
    let classes: Vec<Vec<usize>> = classes
        .into_iter()
        .filter(|c| !c.is_empty())
        .map(|c| c.into_iter().map(|i| i as usize).collect())
        .collect();
    Partition::from_classes(n, &classes).ok()
}

/// Gives each of `left`, most demanding first, to the class it raises least among those it can
/// join without breaking its k_i (frozen classes excepted); `None` when one fits nowhere.
fn place_leftovers(
    inst: &Instance,
    criterion: Criterion,
    classes: &[Vec<u32>],
    label: &[usize],
    left: &[usize],
    extra: &ClassConstraints,
    is_frozen: &dyn Fn(u32) -> bool,
) -> Option<(Vec<Vec<u32>>, Vec<usize>)> {
    let mut classes = classes.to_vec();
    let mut label = label.to_vec();
    let mut left = left.to_vec();
    left.sort_by(|&a, &b| inst.k[b].cmp(&inst.k[a]).then(a.cmp(&b)));
    for r in left {
        let best = (0..classes.len())
            .filter(|&c| !is_frozen(classes[c][0]))
            .filter_map(|c| {
                let mut with = classes[c].clone();
                with.push(r as u32);
                with.sort_unstable();
                let ok = with.len() >= inst.k[r] as usize && extra.class_ok(&with);
                ok.then(|| {
                    let delta = class_cost(inst, criterion, &with)
                        - class_cost(inst, criterion, &classes[c]);
                    (delta, c, with)
                })
            })
            .min_by_key(|(delta, c, _)| (*delta, *c))?;
        label[r] = best.1;
        classes[best.1] = best.2;
    }
    Some((classes, label))
}

/// New classes from the leftovers `left`, k-member style: the most compact leftover (smallest
/// distance to its k_i − 1 nearest leftovers) with its nearest free leftovers until the class
/// holds every member's k_i, while enough leftovers remain. Returns the classes and the
/// leftovers still to place, or `None` when no class forms.
fn leftover_classes(
    inst: &Instance,
    left: &[usize],
    extra: &ClassConstraints,
) -> Option<(Vec<Vec<u32>>, Vec<usize>)> {
    let kmin = left.iter().map(|&i| inst.k[i] as usize).min()?;
    if left.len() < kmin {
        return None;
    }
    // Each leftover's other leftovers, nearest first, and its compactness.
    let near: Vec<Vec<usize>> = left
        .iter()
        .map(|&i| {
            let mut v: Vec<usize> = left.iter().copied().filter(|&j| j != i).collect();
            v.sort_by_key(|&j| (inst.d(i, j), j));
            v
        })
        .collect();
    let mut seeds: Vec<usize> = (0..left.len()).collect();
    let spread = |s: usize| -> i64 {
        let k = inst.k[left[s]] as usize;
        near[s]
            .iter()
            .take(k.saturating_sub(1))
            .map(|&j| inst.d(left[s], j))
            .sum()
    };
    seeds.sort_by_cached_key(|&s| (spread(s), left[s]));
    let mut free: std::collections::HashSet<usize> = left.iter().copied().collect();
    let mut formed = Vec::new();
    for s in seeds {
        let seed = left[s];
        if !free.contains(&seed) {
            continue;
        }
        let mut class = vec![seed];
        let mut need = inst.k[seed] as usize;
        for &j in &near[s] {
            if class.len() >= need {
                break;
            }
            if free.contains(&j) {
                class.push(j);
                need = need.max(inst.k[j] as usize);
            }
        }
        let mut members: Vec<u32> = class.iter().map(|&i| i as u32).collect();
        members.sort_unstable();
        if class.len() < need || !extra.class_ok(&members) {
            continue;
        }
        for i in &class {
            free.remove(i);
        }
        formed.push(members);
    }
    if formed.is_empty() {
        return None;
    }
    let rest = left.iter().copied().filter(|i| free.contains(i)).collect();
    Some((formed, rest))
}

/// Relocation and swap moves: a record leaves its class for a class of one of its nearest
/// records, or trades places with a member of such a class, when both classes stay valid and
/// the total cost drops; passes until none improves. Swaps keep the class sizes, so they move
/// records between classes at their k_i floor, where every relocation breaks a class (at
/// k = 10 the best partitions are mostly of classes of exactly k).
fn improve(
    inst: &Instance,
    criterion: Criterion,
    classes: &mut [Vec<u32>],
    label: &mut [usize],
    at: &Limits,
    is_frozen: &dyn Fn(u32) -> bool,
) {
    let Limits {
        extra,
        deadline,
        swaps,
        near,
    } = *at;
    let n = inst.n;
    let kmax = |members: &[u32]| {
        members
            .iter()
            .map(|&i| inst.k[i as usize] as usize)
            .max()
            .unwrap_or(0)
    };
    let mut cost: Vec<i64> = classes
        .iter()
        .map(|c| class_cost(inst, criterion, c))
        .collect();
    for _pass in 0..50 {
        let mut improved = false;
        for r in 0..n {
            if crate::stop::past(deadline) {
                return;
            }
            if is_frozen(r as u32) {
                continue;
            }
            let a = label[r];
            let without: Vec<u32> = classes[a]
                .iter()
                .copied()
                .filter(|&i| i as usize != r)
                .collect();
            let mut targets: Vec<usize> = near[r].iter().map(|&j| label[j]).collect();
            targets.sort_unstable();
            targets.dedup();
            targets.retain(|&b| b != a && classes[b].first().is_none_or(|&f| !is_frozen(f)));
            if !without.is_empty() && (without.len() < kmax(&without) || !extra.class_ok(&without))
            {
                let swap = swaps
                    .then(|| best_swap(inst, criterion, classes, &cost, r, a, &targets, extra));
                if let Some(swap) = swap.flatten() {
                    apply_swap(classes, &mut cost, label, r, a, swap);
                    improved = true;
                }
                continue;
            }
            let cost_without = class_cost(inst, criterion, &without);
            let mut best: Option<(i64, usize, Vec<u32>, i64)> = None;
            for &b in &targets {
                let mut with = classes[b].clone();
                with.push(r as u32);
                with.sort_unstable();
                if with.len() < kmax(&with) || !extra.class_ok(&with) {
                    continue;
                }
                let cost_with = class_cost(inst, criterion, &with);
                let delta = cost_without + cost_with - cost[a] - cost[b];
                if delta < 0 && best.as_ref().is_none_or(|x| delta < x.0) {
                    best = Some((delta, b, with, cost_with));
                }
            }
            if let Some((_, b, with, cost_with)) = best {
                classes[a] = without;
                cost[a] = cost_without;
                classes[b] = with;
                cost[b] = cost_with;
                label[r] = b;
                improved = true;
            } else if let Some(swap) = swaps
                .then(|| best_swap(inst, criterion, classes, &cost, r, a, &targets, extra))
                .flatten()
            {
                apply_swap(classes, &mut cost, label, r, a, swap);
                improved = true;
            }
        }
        if !improved {
            return;
        }
    }
}

/// What the local moves keep to: the extra constraints, the deadline, and whether swaps are
/// allowed.
#[derive(Clone, Copy)]
struct Limits<'a> {
    extra: &'a ClassConstraints,
    deadline: Option<Instant>,
    swaps: bool,
    /// Each record's [`NEAR`] nearest records ([`nearest`]).
    near: &'a [Vec<usize>],
}

/// Each record's [`NEAR`] nearest other records (computed once per rounding: both of its
/// variants' moves use them).
fn nearest(inst: &Instance) -> Vec<Vec<usize>> {
    let n = inst.n;
    (0..n)
        .map(|i| {
            let mut v: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            if v.len() > NEAR {
                v.select_nth_unstable_by_key(NEAR, |&j| (inst.d(i, j), j));
                v.truncate(NEAR);
            }
            v
        })
        .collect()
}

/// A swap of record `r` (in class `a`) with a member `j` of class `b`: the two new classes and
/// their costs.
struct Swap {
    delta: i64,
    j: usize,
    b: usize,
    new_a: Vec<u32>,
    cost_a: i64,
    new_b: Vec<u32>,
    cost_b: i64,
}

/// The swap of `r` with a member of one of the classes `targets` that lowers the total cost
/// most, both classes staying valid (frozen classes are not in `targets`).
#[allow(clippy::too_many_arguments)]
fn best_swap(
    inst: &Instance,
    criterion: Criterion,
    classes: &[Vec<u32>],
    cost: &[i64],
    r: usize,
    a: usize,
    targets: &[usize],
    extra: &ClassConstraints,
) -> Option<Swap> {
    let valid = |m: &[u32]| {
        m.len()
            >= m.iter()
                .map(|&i| inst.k[i as usize] as usize)
                .max()
                .unwrap_or(0)
            && extra.class_ok(m)
    };
    let mut best: Option<Swap> = None;
    for &b in targets {
        for &j in &classes[b] {
            let mut new_a: Vec<u32> = classes[a]
                .iter()
                .copied()
                .filter(|&i| i as usize != r)
                .collect();
            new_a.push(j);
            new_a.sort_unstable();
            let mut new_b: Vec<u32> = classes[b].iter().copied().filter(|&i| i != j).collect();
            new_b.push(r as u32);
            new_b.sort_unstable();
            let cost_a = class_cost(inst, criterion, &new_a);
            let cost_b = class_cost(inst, criterion, &new_b);
            let delta = cost_a + cost_b - cost[a] - cost[b];
            if delta < 0
                && best.as_ref().is_none_or(|s| delta < s.delta)
                && valid(&new_a)
                && valid(&new_b)
            {
                best = Some(Swap {
                    delta,
                    j: j as usize,
                    b,
                    new_a,
                    cost_a,
                    new_b,
                    cost_b,
                });
            }
        }
    }
    best
}

/// Makes the swap: `r` goes to the swap's class, its partner to `a`.
fn apply_swap(
    classes: &mut [Vec<u32>],
    cost: &mut [i64],
    label: &mut [usize],
    r: usize,
    a: usize,
    s: Swap,
) {
    classes[a] = s.new_a;
    cost[a] = s.cost_a;
    classes[s.b] = s.new_b;
    cost[s.b] = s.cost_b;
    label[r] = s.b;
    label[s.j] = a;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brute_force::brute_force;
    use proptest::prelude::*;

    /// Records at the points `pts` (Manhattan distances) with the k_i `k`.
    fn points_instance(pts: &[(i64, i64)], k: Vec<u32>) -> Instance {
        Instance::from_distance(1.0, k, |i, j| {
            ((pts[i].0 - pts[j].0).abs() + (pts[i].1 - pts[j].1).abs()) as f64
        })
        .unwrap()
    }

    /// The dbil rounding with every step, no extra constraint and no deadline.
    fn dbil_round(
        inst: &Instance,
        columns: &[Column],
        x: &[f64],
        frozen: &[bool],
    ) -> Option<Partition> {
        let none = ClassConstraints::default();
        round(
            inst,
            Criterion::Dbil,
            columns,
            x,
            &none,
            None,
            frozen,
            Moves::default(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// Rounding any non-negative weighting of valid classes gives a k_i-anonymous partition
        /// that costs at least the optimum.
        #[test]
        fn rounding_is_valid_and_never_below_the_optimum(
            pts in proptest::collection::vec((0i64..30, 0i64..30), 4..=9),
            ks in proptest::collection::vec(1u32..=3, 9),
            weights in proptest::collection::vec(0.0f64..1.0, 12),
            sizes in proptest::collection::vec(2usize..=4, 12),
            starts in proptest::collection::vec(0usize..9, 12),
        ) {
            let n = pts.len();
            let inst = points_instance(&pts, ks[..n].to_vec());
            let criterion = Criterion::Dbil;
            // Some valid classes (runs of consecutive records) as the LP's support.
            let columns: Vec<Column> = sizes
                .iter()
                .zip(&starts)
                .map(|(&s, &st)| {
                    let mut m: Vec<u32> = (0..s).map(|o| ((st + o) % n) as u32).collect();
                    m.sort_unstable();
                    m.dedup();
                    Column::new(&inst, criterion, m)
                })
                .filter(|c| {
                    c.members.len()
                        >= c.members.iter().map(|&i| inst.k[i as usize] as usize).max().unwrap()
                })
                .collect();
            let weights = &weights[..columns.len()];
            let extra = ClassConstraints::default();
            if let Some(p) = round(&inst, criterion, &columns, weights, &extra, None, &[], Moves::default()) {
                prop_assert!(p.violations(&inst.k).is_empty());
                let cost = super::super::start::partition_cost(&inst, criterion, &p);
                let (_, opt) = brute_force(&inst, criterion, 1).unwrap();
                prop_assert!(cost >= opt);
            }
        }

        /// The local moves return a k_i-anonymous partition under the cap, never costlier than
        /// the start and never below the optimum.
        #[test]
        fn local_search_keeps_a_valid_partition_and_never_raises_its_cost(
            pts in proptest::collection::vec((0i64..30, 0i64..30), 4..=9),
            ks in proptest::collection::vec(1u32..=3, 9),
            wcsd in any::<bool>(),
        ) {
            use super::super::start::{greedy_cover, partition_cost};
            let inst = points_instance(&pts, ks[..pts.len()].to_vec());
            let criterion = if wcsd { Criterion::Wcsd } else { Criterion::Dbil };
            let start = greedy_cover(&inst);
            let cap = ClassConstraints {
                max_size: Some(start.largest_class() as u32),
                ..ClassConstraints::default()
            };
            let p = local_search(&inst, criterion, &start, &cap, None);
            prop_assert!(p.violations(&inst.k).is_empty());
            prop_assert!(p.largest_class() <= start.largest_class());
            let cost = partition_cost(&inst, criterion, &p);
            prop_assert!(cost <= partition_cost(&inst, criterion, &start));
            let (_, opt) = brute_force(&inst, criterion, 1).unwrap();
            prop_assert!(cost >= opt);
        }
    }

    /// Rounding an integral LP solution (the greedy cover's classes at 1) returns a valid
    /// partition no worse than it: the moves only lower the cost.
    #[test]
    fn rounding_an_integral_solution_keeps_or_improves_it() {
        use super::super::start::{greedy_cover, partition_cost};
        for seed in 0..20u64 {
            let n = 30;
            let pts: Vec<(i64, i64)> = (0..n)
                .map(|i| {
                    (
                        (i as i64 * 7 + seed as i64 * 13) % 41,
                        (i as i64 * 11 + seed as i64) % 37,
                    )
                })
                .collect();
            let k: Vec<u32> = (0..n).map(|i| 2 + ((i as u64 + seed) % 3) as u32).collect();
            let inst = Instance::from_distance(1.0, k, |i, j| {
                ((pts[i].0 - pts[j].0).abs() + (pts[i].1 - pts[j].1).abs()) as f64
            })
            .unwrap();
            let criterion = Criterion::Dbil;
            let g = greedy_cover(&inst);
            let columns: Vec<Column> = g
                .classes()
                .into_iter()
                .map(|c| Column::new(&inst, criterion, c.into_iter().map(|i| i as u32).collect()))
                .collect();
            let x = vec![1.0; columns.len()];
            let p = round(
                &inst,
                criterion,
                &columns,
                &x,
                &ClassConstraints::default(),
                None,
                &[],
                Moves::default(),
            )
            .expect("an integral solution rounds");
            assert!(p.violations(&inst.k).is_empty());
            assert!(partition_cost(&inst, criterion, &p) <= partition_cost(&inst, criterion, &g));
        }
    }

    /// Frozen records' classes come out of the rounding as they went in, even when moving a
    /// record out of them would lower the cost, and the result stays k_i-anonymous.
    #[test]
    fn frozen_classes_stay_as_they_are() {
        // Records on a line; the LP "chose" {0, 1, 2, 10} (a poor class: 10 belongs with
        // 11 and 12) and {11, 12, 13}, and covers 3..=9 with small classes.
        let xs = [0i64, 1, 2, 3, 4, 5, 6, 7, 8, 9, 30, 31, 32, 33];
        let n = xs.len();
        let inst =
            Instance::from_distance(1.0, vec![2; n], |i, j| (xs[i] - xs[j]).abs() as f64).unwrap();
        let criterion = Criterion::Dbil;
        let mut classes: Vec<Vec<u32>> = vec![vec![0, 1, 2, 10], vec![11, 12, 13]];
        classes.extend([vec![3, 4], vec![5, 6], vec![7, 8, 9]]);
        let columns: Vec<Column> = classes
            .into_iter()
            .map(|m| Column::new(&inst, criterion, m))
            .collect();
        let x = vec![1.0; columns.len()];
        let free = dbil_round(&inst, &columns, &x, &[]).expect("rounds");
        assert_ne!(
            free.labels()[10],
            free.labels()[0],
            "without freezing, 10 moves"
        );
        let mut frozen = vec![false; n];
        for i in [0, 1, 2, 10] {
            frozen[i] = true;
        }
        let p = dbil_round(&inst, &columns, &x, &frozen).expect("rounds");
        assert!(p.violations(&inst.k).is_empty());
        let class_of_0: Vec<usize> = (0..n).filter(|&i| p.labels()[i] == p.labels()[0]).collect();
        assert_eq!(class_of_0, vec![0, 1, 2, 10]);
    }

    /// Leftovers far from every kept class form a class of their own instead of all joining
    /// one: joining leaves one wide class, and single-record moves cannot split it.
    #[test]
    fn far_leftovers_form_a_class_of_their_own() {
        let xs = [0i64, 1, 2, 3, 100, 101, 102, 103];
        let n = xs.len();
        let inst =
            Instance::from_distance(1.0, vec![2; n], |i, j| (xs[i] - xs[j]).abs() as f64).unwrap();
        let criterion = Criterion::Dbil;
        // The LP's support: {0, 1, 2, 3} at 1 and two half classes that overlap it, so the
        // records 4..=7 are left over.
        let classes: Vec<Vec<u32>> = vec![vec![0, 1, 2, 3], vec![0, 4, 5], vec![1, 6, 7]];
        let columns: Vec<Column> = classes
            .into_iter()
            .map(|m| Column::new(&inst, criterion, m))
            .collect();
        let x = [1.0, 0.5, 0.5];
        let p = dbil_round(&inst, &columns, &x, &[]).expect("rounds");
        assert!(p.violations(&inst.k).is_empty());
        let l = p.labels();
        for i in 4..n {
            assert_ne!(l[i], l[0], "record {i} stays apart from the first group");
        }
    }

    /// Two classes at their k floor, each holding one record of each end of a line: no record
    /// can leave its class, and a swap mends both.
    #[test]
    fn a_swap_mends_classes_that_no_relocation_can() {
        let xs = [0i64, 1, 10, 11];
        let inst =
            Instance::from_distance(1.0, vec![2; 4], |i, j| (xs[i] - xs[j]).abs() as f64).unwrap();
        let crossed = Partition::from_labels(&[0, 1, 0, 1]);
        let none = ClassConstraints::default();
        let p = local_search(&inst, Criterion::Dbil, &crossed, &none, None);
        assert_eq!(p, Partition::from_labels(&[0, 0, 1, 1]));
    }
}
