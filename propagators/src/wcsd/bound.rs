//! The WCSD lower bound, shared by the propagator and its checker.
//!
//! `W = Σ_C Σ_{x<y∈C} d(x, y)`. For a designated set `F` of fixed records (`A_j` = members of `F`
//! in class `j`) and `U` the others:
//! `W = Σ_{pairs in F} + Σ_{r∈U} [ Σ_{l∈A_{c(r)}} d(r, l) + ½ Σ_{u∈U∩C(r), u≠r} d(r, u) ]`.
//! A record `r ∈ U` in class `j` has at least `q = k_r − 1 − |A_j|` classmates in `U`, so its
//! term is at least `est(r, j) = Σ_{l∈A_j} d(r, l) + ½·(sum of the q smallest distances from r
//! to U∖{r})`; hence `W ≥ P_F + Σ_{r∈U} min_{j∈dom(G_r)} est(r, j)`. Computed doubled to stay in
//! integers; the bound is `⌈·/2⌉`.

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
    /// `2·Σ_{l∈A_j} d(r, l)` per unfixed record and class (row-major, `cmax + 1` columns).
    pub s2: Vec<i64>,
    /// Prefix sums of the smallest distances from r to `U∖{r}` (index q = sum of q smallest).
    pub prefix: Vec<Vec<i64>>,
    /// 2·μ_r per record (0 for fixed).
    pub mu2: Vec<i64>,
    /// Records outside F.
    pub unfixed: Vec<usize>,
    /// True when every record is in F (then the bound is the exact WCSD).
    pub complete: bool,
}

impl WcsdEval {
    /// `2·est(r, j)`.
    #[inline]
    pub fn est2(&self, data: &WcsdData, r: usize, j: i32) -> i64 {
        let w = data.cmax as usize + 1;
        let have = self.members[j as usize].len();
        let q = (data.k[r] as usize).saturating_sub(1 + have);
        let p = &self.prefix[r];
        self.s2[r * w + j as usize] + p[q.min(p.len() - 1)]
    }

    /// The lower bound `⌈lb2 / 2⌉`.
    pub fn lb(&self) -> i64 {
        (self.lb2 + 1).div_euclid(2)
    }
}

/// Evaluates the bound for domains `s` and designated fixed values `fixed`.
pub fn evaluate(data: &WcsdData, s: &Snapshot, fixed: &[Option<i32>]) -> WcsdEval {
    let n = fixed.len();
    let w = data.cmax as usize + 1;
    let mut members = vec![Vec::new(); w];
    let mut unfixed = Vec::new();
    for (i, f) in fixed.iter().enumerate() {
        match f {
            Some(j) if (1..=data.cmax).contains(j) => members[*j as usize].push(i),
            _ => unfixed.push(i),
        }
    }
    let mut lb2 = 0i64;
    for a in &members {
        for (p, &x) in a.iter().enumerate() {
            for &y in &a[p + 1..] {
                lb2 += 2 * data.dist.get(x, y);
            }
        }
    }
    let kmax = data.k.iter().copied().max().unwrap_or(1) as usize;
    let mut s2 = vec![0i64; n * w];
    let mut prefix = vec![vec![0i64]; n];
    let mut near = Vec::with_capacity(unfixed.len());
    for &r in &unfixed {
        let row = data.dist.row(r);
        for (j, a) in members.iter().enumerate() {
            s2[r * w + j] = 2 * a.iter().map(|&l| row[l]).sum::<i64>();
        }
        near.clear();
        near.extend(unfixed.iter().filter(|&&u| u != r).map(|&u| row[u]));
        let take = kmax.saturating_sub(1).min(near.len());
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
        lb2,
        members,
        s2,
        prefix,
        mu2: vec![0; n],
        complete: unfixed.is_empty(),
        unfixed,
    };
    let mut sum = 0i64;
    for idx in 0..ev.unfixed.len() {
        let r = ev.unfixed[idx];
        let mu2 = s.values(r).map(|j| ev.est2(data, r, j)).min().unwrap_or(0);
        ev.mu2[r] = mu2;
        sum += mu2;
    }
    ev.lb2 += sum;
    ev
}
