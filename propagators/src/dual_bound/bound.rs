//! The reduced-cost bound of [`super::DualBoundPropagator`].
//!
//! With the duals of a converged set-partitioning LP (cover duals π_i, subset-row cut penalties
//! μ_t ≥ 0, LP value z = Σπ − Σμ), every k_i-anonymous partition P satisfies
//! `cost(P) ≥ z + Σ_{C∈P} rc(C)` and `rc(C) ≥ −ε` for every class (pricing found none below).
//! `rc(C) = cost(C) − π(C) + Σ_{t: |C∩t|≥2} μ_t`. For a class `j` whose assigned members `A` are
//! known and whose other members come from the records that can still take `j`, a lower bound on
//! `rc` over all completions `C ⊇ A` is computed exactly for a relaxation (each candidate's
//! contribution is bounded independently):
//! - dbil: `cost(C) = Σ_{i∈C} diam(C)`; with `t* = max(diam(A), max_{u∈C∖A} d_max(u, A))`,
//!   `rc(C) ≥ |A|·t* − π(A) + Σ_{u∈C∖A} (t* − π_u)`; minimised over the levels `t*` and over
//!   the completions with at least `max_{a∈A} k_a − |A|` members among the records eligible at
//!   that level;
//! - wcsd: `cost(C) ≥ wcsd(A) + Σ_{u∈C∖A} Σ_{a∈A} d(u, a)`; minimised the same way.
//!
//! Cut penalties are added for the triples with two members in `A`. The bound of the whole node
//! is `z + Σ_j max(0, rc_lb(j))` (classes without an assigned member count 0).

use std::sync::Arc;

use crate::common::{DistMatrix, Snapshot};

/// The sum criterion the duals were computed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SumCriterion {
    /// Σ_C |C|·diam(C).
    Dbil,
    /// Σ_C Σ_{pairs in C} d.
    Wcsd,
}

/// The instance and the LP duals.
#[derive(Clone, Debug)]
pub struct DualData {
    /// Criterion of the duals.
    pub criterion: SumCriterion,
    /// Distances.
    pub dist: DistMatrix,
    /// k_i per record.
    pub k: Arc<[u32]>,
    /// Cover duals π_i.
    pub pi: Arc<[f64]>,
    /// Odd-set cuts (sorted set S, penalty μ_S ≥ 0): a class C pays μ_S ⌊|C∩S|/2⌋.
    pub cuts: Arc<[(Vec<u32>, f64)]>,
    /// The LP value z = Σπ − Σ_S μ_S (|S| − 1)/2.
    pub z: f64,
    /// Tolerance subtracted before rounding the bound up (LP round-off and pricing ε).
    pub tolerance: f64,
    /// Largest class id.
    pub cmax: i32,
}

/// One class's share of the bound.
#[derive(Clone, Debug)]
pub struct ClassShare {
    /// Class id.
    pub class: i32,
    /// Assigned members.
    pub members: Vec<usize>,
    /// Records that can still join.
    pub cands: Vec<usize>,
    /// `max(0, rc_lb)`, `+∞` when the class cannot be completed from its candidates.
    pub rc: f64,
}

/// The bound at a node.
#[derive(Clone, Debug)]
pub struct DualEval {
    /// Classes with at least one assigned member.
    pub shares: Vec<ClassShare>,
    /// `z + Σ shares` (may be `+∞`).
    pub total: f64,
    /// Records not fixed.
    pub unfixed: Vec<usize>,
}

impl DualData {
    /// Integer lower bound from a float one (rounded up after the tolerance).
    pub fn ceil(&self, v: f64) -> i64 {
        if v.is_infinite() {
            return i64::MAX / 4;
        }
        (v - self.tolerance).ceil() as i64
    }

    /// Lower bound on `rc(C)` over every class `C ⊇ members` whose other records come from
    /// `cands`; `+∞` when not enough candidates exist.
    pub fn class_rc(&self, members: &[usize], cands: &[usize]) -> f64 {
        if members.is_empty() {
            return 0.0;
        }
        ClassCtx::new(self, members, cands).rc(None, f64::NEG_INFINITY)
    }

    /// Σ_S μ_S ⌊|S ∩ members| / 2⌋.
    fn cut_penalty(&self, members: &[usize]) -> f64 {
        if members.len() < 2 || self.cuts.is_empty() {
            return 0.0;
        }
        self.cuts
            .iter()
            .map(|(t, mu)| {
                let hits = t
                    .iter()
                    .filter(|&&r| members.contains(&(r as usize)))
                    .count();
                (hits / 2) as f64 * mu
            })
            .sum()
    }
}

/// One class's assigned part and candidates, prepared once so that the bound with one more
/// member (reduced-cost filtering tries every candidate) costs one pass per level.
pub struct ClassCtx<'a> {
    data: &'a DualData,
    members: &'a [usize],
    /// diam(A) (dbil) or wcsd(A) (wcsd).
    cost_a: i64,
    pi_a: f64,
    kmax: u32,
    penalty: f64,
    /// Candidates by decreasing dual: (record, aggregate distance to A: max for dbil, sum for
    /// wcsd).
    cands: Vec<(usize, i64)>,
}

impl std::fmt::Debug for ClassCtx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClassCtx")
            .field("members", &self.members)
            .field("cost_a", &self.cost_a)
            .field("pi_a", &self.pi_a)
            .field("kmax", &self.kmax)
            .field("penalty", &self.penalty)
            .field("cands", &self.cands)
            .finish_non_exhaustive()
    }
}

impl<'a> ClassCtx<'a> {
    /// Prepares class `members` (non-empty) with candidates `cands`.
    pub fn new(data: &'a DualData, members: &'a [usize], cands: &[usize]) -> Self {
        let dbil = data.criterion == SumCriterion::Dbil;
        let mut cost_a = 0;
        for (x, &a) in members.iter().enumerate() {
            for &b in &members[x + 1..] {
                let d = data.dist.get(a, b);
                cost_a = if dbil { cost_a.max(d) } else { cost_a + d };
            }
        }
        let mut c: Vec<(usize, i64)> = cands
            .iter()
            .map(|&u| {
                let row = data.dist.row(u);
                let agg = if dbil {
                    members.iter().map(|&a| row[a]).max().unwrap_or(0)
                } else {
                    members.iter().map(|&a| row[a]).sum()
                };
                (u, agg)
            })
            .collect();
        c.sort_by(|x, y| data.pi[y.0].total_cmp(&data.pi[x.0]).then(x.0.cmp(&y.0)));
        ClassCtx {
            data,
            members,
            cost_a,
            pi_a: members.iter().map(|&a| data.pi[a]).sum(),
            kmax: members.iter().map(|&a| data.k[a]).max().unwrap_or(1),
            penalty: data.cut_penalty(members),
            cands: c,
        }
    }

    /// The bound with candidate `extra` (if any) added to the assigned part. Stops early with a
    /// value ≤ `stop` as soon as one is found (the caller only needs to know the bound is not
    /// above `stop`); otherwise returns the exact minimum of the relaxation.
    pub fn rc(&self, extra: Option<usize>, stop: f64) -> f64 {
        let data = self.data;
        let dbil = data.criterion == SumCriterion::Dbil;
        let (mut cost_a, mut pi_a, mut kmax, mut penalty, mut size) = (
            self.cost_a,
            self.pi_a,
            self.kmax,
            self.penalty,
            self.members.len(),
        );
        let mut row: &[i64] = &[];
        if let Some(r) = extra {
            let agg_r = self
                .cands
                .iter()
                .find(|c| c.0 == r)
                .map(|c| c.1)
                .expect("the extra member is a candidate");
            cost_a = if dbil {
                cost_a.max(agg_r)
            } else {
                cost_a + agg_r
            };
            pi_a += data.pi[r];
            kmax = kmax.max(data.k[r]);
            size += 1;
            penalty += self.extra_penalty(r);
            row = data.dist.row(r);
        }
        let need = (kmax as usize).saturating_sub(size);
        let agg = |u: usize, a: i64| -> i64 {
            match extra {
                None => a,
                Some(_) if dbil => a.max(row[u]),
                Some(_) => a + row[u],
            }
        };
        let avail = self.cands.len() - usize::from(extra.is_some());
        if avail < need {
            return f64::INFINITY;
        }
        let v = if dbil {
            self.dbil_min(extra, cost_a, pi_a, size, need, stop - penalty, &agg)
        } else {
            self.wcsd_min(extra, cost_a, pi_a, need, &agg)
        };
        v + penalty
    }

    /// Penalties of the cuts holding `r` and an odd number of members of the assigned part
    /// (adding `r` raises their ⌊|C∩S|/2⌋ by one).
    fn extra_penalty(&self, r: usize) -> f64 {
        self.data
            .cuts
            .iter()
            .filter(|(t, _)| {
                t.contains(&(r as u32))
                    && t.iter()
                        .filter(|&&x| self.members.contains(&(x as usize)))
                        .count()
                        % 2
                        == 1
            })
            .map(|c| c.1)
            .sum()
    }

    /// dbil: min over levels t of `size·t − π(A) + Σ_{chosen} (t − π_u)`, choosing among the
    /// candidates eligible at t (aggregate ≤ t) the `need` largest duals and every dual above t.
    #[allow(clippy::too_many_arguments, reason = "the prepared class state")]
    fn dbil_min(
        &self,
        extra: Option<usize>,
        diam: i64,
        pi_a: f64,
        size: usize,
        need: usize,
        stop: f64,
        agg: &dyn Fn(usize, i64) -> i64,
    ) -> f64 {
        let pi = &self.data.pi;
        let eval = |t: i64| -> Option<f64> {
            let tf = t as f64;
            let mut v = size as f64 * tf - pi_a;
            let mut taken = 0;
            for &(u, a) in &self.cands {
                if Some(u) == extra || agg(u, a) > t {
                    continue;
                }
                let p = pi[u];
                if taken < need || p > tf {
                    v += tf - p;
                    taken += 1;
                } else {
                    break;
                }
            }
            (taken >= need).then_some(v)
        };
        let mut best = f64::INFINITY;
        // Level diam first (the usual minimiser), then every candidate's eligibility level.
        if let Some(v) = eval(diam) {
            best = v;
            if best <= stop {
                return best;
            }
        }
        for &(u, a) in &self.cands {
            if Some(u) == extra {
                continue;
            }
            let t = agg(u, a);
            if t <= diam {
                continue;
            }
            if let Some(v) = eval(t) {
                best = best.min(v);
                if best <= stop {
                    return best;
                }
            }
        }
        best
    }

    /// wcsd: `wcsd(A) − π(A) + Σ_{chosen} (agg_u − π_u)`, choosing the `need` smallest terms and
    /// every negative one.
    fn wcsd_min(
        &self,
        extra: Option<usize>,
        cost_a: i64,
        pi_a: f64,
        need: usize,
        agg: &dyn Fn(usize, i64) -> i64,
    ) -> f64 {
        let pi = &self.data.pi;
        let mut w: Vec<f64> = self
            .cands
            .iter()
            .filter(|c| Some(c.0) != extra)
            .map(|&(u, a)| agg(u, a) as f64 - pi[u])
            .collect();
        w.sort_by(|x, y| x.total_cmp(y));
        let mut v = cost_a as f64 - pi_a;
        for (x, &t) in w.iter().enumerate() {
            if x < need || t < 0.0 {
                v += t;
            } else {
                break;
            }
        }
        v
    }
}

/// Candidates of class `j`: records not in `fixed` whose domain holds `j`.
pub fn candidates(s: &Snapshot, fixed: &[Option<i32>], j: i32) -> Vec<usize> {
    (0..fixed.len())
        .filter(|&u| fixed[u].is_none() && s.contains(u, j))
        .collect()
}

/// The bound with the records of `fixed` as the assigned parts and the domains of `s`.
pub fn evaluate(data: &DualData, s: &Snapshot, fixed: &[Option<i32>]) -> DualEval {
    let mut by_class: Vec<Vec<usize>> = vec![Vec::new(); data.cmax as usize + 1];
    let mut unfixed = Vec::new();
    for (i, f) in fixed.iter().enumerate() {
        match f {
            Some(j) if (1..=data.cmax).contains(j) => by_class[*j as usize].push(i),
            _ => unfixed.push(i),
        }
    }
    let mut shares = Vec::new();
    let mut total = data.z;
    for (j, members) in by_class.into_iter().enumerate() {
        if members.is_empty() {
            continue;
        }
        let j = j as i32;
        let cands = candidates(s, fixed, j);
        let rc = data.class_rc(&members, &cands).max(0.0);
        total += rc;
        shares.push(ClassShare {
            class: j,
            members,
            cands,
            rc,
        });
    }
    DualEval {
        shares,
        total,
        unfixed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: min over every completion C ⊇ A from `cands` of cost(C) − π(C) + cuts.
    fn brute(d: &DualData, members: &[usize], cands: &[usize]) -> f64 {
        let mut best = f64::INFINITY;
        for mask in 0u32..(1 << cands.len()) {
            let mut c: Vec<usize> = members.to_vec();
            for (b, &u) in cands.iter().enumerate() {
                if mask >> b & 1 == 1 {
                    c.push(u);
                }
            }
            let kmax = c.iter().map(|&a| d.k[a]).max().unwrap() as usize;
            if c.len() < kmax {
                continue;
            }
            let mut diam = 0;
            let mut sum = 0;
            for (x, &a) in c.iter().enumerate() {
                for &b in &c[x + 1..] {
                    diam = diam.max(d.dist.get(a, b));
                    sum += d.dist.get(a, b);
                }
            }
            let cost = match d.criterion {
                SumCriterion::Dbil => c.len() as i64 * diam,
                SumCriterion::Wcsd => sum,
            } as f64;
            let pi: f64 = c.iter().map(|&a| d.pi[a]).sum();
            // The relaxation keeps only the cuts inside A (a completion can only add penalties).
            best = best.min(cost - pi + d.cut_penalty(members));
        }
        best
    }

    fn data(criterion: SumCriterion, seed: u64, n: usize) -> DualData {
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let pts: Vec<(i64, i64)> = (0..n)
            .map(|_| ((next() % 100) as i64, (next() % 100) as i64))
            .collect();
        let rows: Vec<Vec<i64>> = pts
            .iter()
            .map(|a| {
                pts.iter()
                    .map(|b| (a.0 - b.0).abs() + (a.1 - b.1).abs())
                    .collect()
            })
            .collect();
        DualData {
            criterion,
            dist: DistMatrix::new(&rows),
            k: (0..n).map(|_| 2 + (next() % 3) as u32).collect(),
            pi: (0..n).map(|_| (next() % 400) as f64 - 50.0).collect(),
            cuts: Arc::from(vec![
                (vec![0, 1, 2], 7.5),
                (vec![1, 3, 4], 2.0),
                (vec![0, 2, 3, 4, 5], 3.0),
            ]),
            z: 0.0,
            tolerance: 1e-6,
            cmax: 4,
        }
    }

    #[test]
    fn class_bound_never_exceeds_the_best_completion() {
        for seed in 0..200u64 {
            for crit in [SumCriterion::Dbil, SumCriterion::Wcsd] {
                let n = 9;
                let d = data(crit, seed, n);
                let na = 1 + (seed % 3) as usize;
                let members: Vec<usize> = (0..na).collect();
                let cands: Vec<usize> = (na..n).collect();
                let lb = d.class_rc(&members, &cands);
                let exact = brute(&d, &members, &cands);
                assert!(
                    lb <= exact + 1e-9,
                    "seed {seed} {crit:?}: bound {lb} above the best completion {exact}"
                );
                if exact.is_infinite() {
                    assert!(lb.is_infinite());
                }
            }
        }
    }

    #[test]
    fn one_more_member_equals_the_bound_of_the_larger_class() {
        // Reduced-cost filtering evaluates A ∪ {r} incrementally: same value as from scratch,
        // and the early stop only ever answers "not above stop" when that is true.
        for seed in 0..100u64 {
            for crit in [SumCriterion::Dbil, SumCriterion::Wcsd] {
                let n = 10;
                let d = data(crit, seed, n);
                let na = 1 + (seed % 3) as usize;
                let members: Vec<usize> = (0..na).collect();
                let cands: Vec<usize> = (na..n).collect();
                let ctx = ClassCtx::new(&d, &members, &cands);
                for &r in &cands {
                    let mut bigger = members.clone();
                    bigger.push(r);
                    let rest: Vec<usize> = cands.iter().copied().filter(|&u| u != r).collect();
                    let scratch = d.class_rc(&bigger, &rest);
                    let incr = ctx.rc(Some(r), f64::NEG_INFINITY);
                    assert!(
                        (scratch - incr).abs() < 1e-9 || scratch == incr,
                        "seed {seed} {crit:?} r {r}: {scratch} vs {incr}"
                    );
                    for stop in [scratch - 1.0, scratch + 1.0] {
                        let v = ctx.rc(Some(r), stop);
                        assert_eq!(v <= stop, scratch <= stop, "seed {seed} r {r} stop {stop}");
                    }
                }
            }
        }
    }

    #[test]
    fn dbil_bound_is_exact_for_a_pair_needing_one_more() {
        // A = {0}, k = 2: the best completion is the single candidate maximising π_u − d(0, u).
        let rows = vec![vec![0, 4, 9], vec![4, 0, 6], vec![9, 6, 0]];
        let d = DualData {
            criterion: SumCriterion::Dbil,
            dist: DistMatrix::new(&rows),
            k: Arc::from(vec![2, 2, 2]),
            pi: Arc::from(vec![3.0, 5.0, 10.0]),
            cuts: Arc::from(vec![]),
            z: 0.0,
            tolerance: 1e-6,
            cmax: 1,
        };
        // {0,1}: 2·4 − 8 = 0; {0,2}: 18 − 13 = 5; {0,1,2}: 27 − 18 = 9.
        assert_eq!(d.class_rc(&[0], &[1, 2]), 0.0);
        assert_eq!(d.class_rc(&[0], &[2]), 5.0);
        assert_eq!(d.class_rc(&[0], &[]), f64::INFINITY);
    }

    #[test]
    fn dual_bound_rounds_up_after_the_tolerance() {
        let d = data(SumCriterion::Dbil, 0, 3);
        assert_eq!(d.ceil(25.0 + 1e-7), 25);
        assert_eq!(d.ceil(25.1), 26);
        assert_eq!(d.ceil(f64::INFINITY), i64::MAX / 4);
    }
}
