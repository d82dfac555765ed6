//! Shared data: the distance matrix, per-record minimal class diameters, domain snapshots
//! readable both from a propagation context and from an inference checker's variable state.

use std::sync::Arc;

use pumpkin_checking::{CheckerVariable, VariableState};
use pumpkin_core::predicates::{Predicate, PredicateConstructor};
use pumpkin_core::propagation::ReadDomains;
use pumpkin_core::variables::DomainId;

/// Symmetric integer distance matrix shared (cheaply cloned) between propagators and branchers.
#[derive(Clone, Debug)]
pub struct DistMatrix {
    n: usize,
    d: Arc<[i64]>,
}

impl DistMatrix {
    /// Builds the matrix from rows (must be square).
    pub fn new(rows: &[Vec<i64>]) -> Self {
        let n = rows.len();
        let mut d = Vec::with_capacity(n * n);
        for row in rows {
            assert_eq!(row.len(), n, "distance matrix must be square");
            d.extend_from_slice(row);
        }
        DistMatrix { n, d: d.into() }
    }

    /// Number of records.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Distance between `i` and `j`.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> i64 {
        self.d[i * self.n + j]
    }

    /// Row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &[i64] {
        &self.d[i * self.n..(i + 1) * self.n]
    }

    /// Largest distance.
    pub fn max(&self) -> i64 {
        self.d.iter().copied().max().unwrap_or(0)
    }
}

/// `m_i`: a lower bound on the diameter of the class of record `i` in any k_i-anonymous
/// partition (0 when `k_i = 1`). A class `C ∋ i` has `|C| ≥ K = max_{c∈C} k_c ≥ k_i`, so it
/// contains a `K`-subset containing `i` whose members all have `k ≤ K`: `m_i` is the smallest
/// diameter of such a subset over the k values `K ≥ k_i` that occur. Exact when the clique
/// search stays within its budget (always for `K ≤ 3`); otherwise a valid lower bound (the
/// largest diameter proven infeasible plus one step).
pub fn min_k_diameters(dist: &DistMatrix, k: &[u32]) -> Vec<i64> {
    let n = dist.n();
    let mut values: Vec<i64> = Vec::with_capacity(n * (n.saturating_sub(1)) / 2);
    for i in 0..n {
        for j in i + 1..n {
            values.push(dist.get(i, j));
        }
    }
    values.sort_unstable();
    values.dedup();
    let mut ks: Vec<u32> = k.to_vec();
    ks.sort_unstable();
    ks.dedup();
    (0..n)
        .map(|i| {
            ks.iter()
                .filter(|&&kk| kk >= k[i])
                .map(|&kk| {
                    let eligible: Vec<bool> = k.iter().map(|&x| x <= kk).collect();
                    subset_min_diameter(dist, &values, i, kk as usize - 1, &eligible)
                })
                .min()
                .unwrap_or(0)
        })
        .collect()
}

/// Smallest diameter of a set of `need` eligible records other than `i` together with `i`
/// (`i64::MAX` when there are not enough eligible records; a lower bound when the clique search
/// runs out of budget).
fn subset_min_diameter(
    dist: &DistMatrix,
    values: &[i64],
    i: usize,
    need: usize,
    eligible: &[bool],
) -> i64 {
    let n = dist.n();
    if need == 0 {
        return 0;
    }
    let count = (0..n).filter(|&j| j != i && eligible[j]).count();
    if count < need {
        return i64::MAX;
    }
    if need <= 2 {
        return small_k_diameter(dist, i, need, eligible);
    }
    // Lower end: the need-th nearest eligible neighbour of i.
    let mut row: Vec<i64> = (0..n)
        .filter(|&j| j != i && eligible[j])
        .map(|j| dist.get(i, j))
        .collect();
    row.select_nth_unstable(need - 1);
    let knn = row[need - 1];
    let start = values.partition_point(|&v| v < knn);
    // Binary search the smallest feasible D in values[start..].
    let (mut lo, mut hi) = (start, values.len() - 1);
    let mut proven_infeasible_below = knn; // every D < knn is infeasible
    while lo < hi {
        let mid = (lo + hi) / 2;
        match clique_exists(dist, i, need, values[mid], eligible) {
            Some(true) => hi = mid,
            Some(false) => {
                proven_infeasible_below = values[mid + 1];
                lo = mid + 1
            }
            // Budget exhausted: what is proven is a bound.
            None => return proven_infeasible_below,
        }
    }
    values[lo]
}

/// Exact smallest diameter for `need ∈ {1, 2}` eligible companions of `i`: the nearest eligible
/// neighbour's distance, or `min_{a,b} max(d(i,a), d(i,b), d(a,b))` scanning neighbours by
/// distance.
fn small_k_diameter(dist: &DistMatrix, i: usize, need: usize, eligible: &[bool]) -> i64 {
    let n = dist.n();
    let row = dist.row(i);
    let mut order: Vec<usize> = (0..n).filter(|&j| j != i && eligible[j]).collect();
    order.sort_unstable_by_key(|&j| row[j]);
    if need == 1 {
        return row[order[0]];
    }
    let mut best = i64::MAX;
    for (p, &b) in order.iter().enumerate().skip(1) {
        let db = row[b];
        if db >= best {
            break;
        }
        let rb = dist.row(b);
        for &a in &order[..p] {
            let v = db.max(rb[a]);
            if v < best {
                best = v;
                if best == db {
                    break;
                }
            }
        }
    }
    best
}

/// Is there a set of `need` records other than `i`, all within `d_max` of `i` and of each other?
/// `None` when the search budget is exhausted.
fn clique_exists(
    dist: &DistMatrix,
    i: usize,
    need: usize,
    d_max: i64,
    eligible: &[bool],
) -> Option<bool> {
    let cands: Vec<usize> = (0..dist.n())
        .filter(|&j| j != i && eligible[j] && dist.get(i, j) <= d_max)
        .collect();
    if cands.len() < need {
        return Some(false);
    }
    let mut budget: u64 = 200_000;
    fn rec(
        dist: &DistMatrix,
        cands: &[usize],
        chosen: &mut Vec<usize>,
        need: usize,
        d_max: i64,
        budget: &mut u64,
    ) -> Option<bool> {
        if chosen.len() == need {
            return Some(true);
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        for (p, &c) in cands.iter().enumerate() {
            if cands.len() - p < need - chosen.len() {
                break;
            }
            if chosen.iter().all(|&o| dist.get(o, c) <= d_max) {
                chosen.push(c);
                let r = rec(dist, &cands[p + 1..], chosen, need, d_max, budget);
                chosen.pop();
                match r {
                    Some(true) => return Some(true),
                    None => return None,
                    Some(false) => {}
                }
            }
        }
        Some(false)
    }
    rec(dist, &cands, &mut Vec::new(), need, d_max, &mut budget)
}

/// The domains of the class variables restricted to `[1, c_max]`, read either from the solver
/// or from an inference checker's state (where unmentioned variables are unbounded).
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// Largest class id.
    pub cmax: i32,
    words: usize,
    bits: Vec<u64>,
    /// Fixed value of each variable, if its domain (within `[1, c_max]`) is a singleton.
    pub fixed: Vec<Option<i32>>,
    /// Smallest value of each domain within `[1, c_max]` (`c_max + 1` when empty).
    pub lb: Vec<i32>,
    /// Largest value of each domain within `[1, c_max]` (0 when empty).
    pub ub: Vec<i32>,
    /// True when some domain is empty.
    pub empty: bool,
}

impl Snapshot {
    fn with_capacity(n: usize, cmax: i32) -> Self {
        let words = (cmax as usize + 1).div_ceil(64);
        Snapshot {
            cmax,
            words,
            bits: vec![0; n * words],
            fixed: vec![None; n],
            lb: vec![cmax + 1; n],
            ub: vec![0; n],
            empty: false,
        }
    }

    fn set(&mut self, i: usize, v: i32) {
        self.bits[i * self.words + v as usize / 64] |= 1u64 << (v as usize % 64);
        self.lb[i] = self.lb[i].min(v);
        self.ub[i] = self.ub[i].max(v);
    }

    fn finish(&mut self) {
        for i in 0..self.fixed.len() {
            if self.lb[i] > self.ub[i] {
                self.empty = true;
            } else if self.lb[i] == self.ub[i] {
                self.fixed[i] = Some(self.lb[i]);
            }
        }
    }

    /// Reads the current domains from a propagation context.
    pub fn from_domains<D: ReadDomains>(ctx: &D, vars: &[DomainId], cmax: i32) -> Self {
        let mut s = Self::with_capacity(vars.len(), cmax);
        for (i, x) in vars.iter().enumerate() {
            for v in ctx.iterate_domain(x) {
                if (1..=cmax).contains(&v) {
                    s.set(i, v);
                }
            }
        }
        s.finish();
        s
    }

    /// Reads the domains induced by a checker's variable state.
    pub fn from_state(state: &VariableState<Predicate>, vars: &[DomainId], cmax: i32) -> Self {
        let mut s = Self::with_capacity(vars.len(), cmax);
        for (i, x) in vars.iter().enumerate() {
            for v in 1..=cmax {
                if x.induced_domain_contains(state, v) {
                    s.set(i, v);
                }
            }
        }
        s.finish();
        s
    }

    /// Number of variables.
    pub fn len(&self) -> usize {
        self.fixed.len()
    }

    /// True when there are no variables.
    pub fn is_empty(&self) -> bool {
        self.fixed.is_empty()
    }

    /// Is `v` in the domain of variable `i`?
    #[inline]
    pub fn contains(&self, i: usize, v: i32) -> bool {
        if v < 1 || v > self.cmax {
            return false;
        }
        self.bits[i * self.words + v as usize / 64] & (1u64 << (v as usize % 64)) != 0
    }

    /// Values of the domain of variable `i`.
    pub fn values(&self, i: usize) -> impl Iterator<Item = i32> + '_ {
        (self.lb[i]..=self.ub[i]).filter(move |&v| self.contains(i, v))
    }

    /// Domain size of variable `i`.
    pub fn size(&self, i: usize) -> usize {
        let row = &self.bits[i * self.words..(i + 1) * self.words];
        row.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// `[x == v]`.
#[inline]
pub fn eq(x: DomainId, v: i32) -> Predicate {
    x.equality_predicate(v)
}

/// `[x != v]`.
#[inline]
pub fn ne(x: DomainId, v: i32) -> Predicate {
    x.disequality_predicate(v)
}

/// `[x <= v]`.
#[inline]
pub fn le(x: DomainId, v: i32) -> Predicate {
    x.upper_bound_predicate(v)
}

/// `[x >= v]`.
#[inline]
pub fn ge(x: DomainId, v: i32) -> Predicate {
    x.lower_bound_predicate(v)
}

/// Clamps an i64 bound into the i32 range of pumpkin domains.
#[inline]
pub fn clamp32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// Lower/upper bounds of an objective variable in a checker state, as i64 (None = unbounded).
pub fn state_bounds(state: &VariableState<Predicate>, x: DomainId) -> (Option<i64>, Option<i64>) {
    let lb = x.induced_lower_bound(state).as_int().map(|v| v as i64);
    let ub = x.induced_upper_bound(state).as_int().map(|v| v as i64);
    (lb, ub)
}

/// Registers every variable of `vars` (local ids `0..`) and optionally an objective (local id
/// `vars.len()`) for the given events.
pub fn register(
    vars: &[DomainId],
    events: pumpkin_core::propagation::DomainEvents,
    objective: Option<(DomainId, pumpkin_core::propagation::DomainEvents)>,
) -> pumpkin_core::propagation::EventsToRegister {
    use pumpkin_core::propagation::{EventsToRegister, LocalId};
    let mut registration = EventsToRegister::builder();
    for (i, x) in vars.iter().enumerate() {
        registration = registration.add(x, events, LocalId::from(i as u32));
    }
    if let Some((obj, ev)) = objective {
        registration = registration.add(&obj, ev, LocalId::from(vars.len() as u32));
    }
    registration.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_k_diameters_on_a_line() {
        let pts = [0i64, 1, 3, 10, 14, 15];
        let rows: Vec<Vec<i64>> = pts
            .iter()
            .map(|a| pts.iter().map(|b| (a - b).abs()).collect())
            .collect();
        let d = DistMatrix::new(&rows);
        assert_eq!(min_k_diameters(&d, &[2; 6]), vec![1, 1, 2, 4, 1, 1]);
        assert_eq!(min_k_diameters(&d, &[3; 6]), vec![3, 3, 3, 5, 5, 5]);
        assert_eq!(
            min_k_diameters(&d, &[1, 1, 1, 1, 1, 4]),
            vec![0, 0, 0, 0, 0, 12]
        );
        // Record 3 (k = 2) has only k = 3 neighbours nearby: its class has at least 3 members.
        assert_eq!(
            min_k_diameters(&d, &[2, 2, 2, 2, 3, 3]),
            vec![1, 1, 2, 5, 5, 5]
        );
    }
}
