//! The converged set-partitioning LP: its duals and value, and the partition its rounding
//! found. Column generation computes it (`colgen::root_lp`); its pricing works on the duals, and
//! the CP engine's dual-bound propagator posts them. A data module of its own, so the CP model
//! depends on this LP and not on column generation.

use crate::Partition;

/// A rank-1 cut on an odd set `S` of records (sorted): in a partition the classes holding two
/// or more of `S` hold them in disjoint parts, so Σ_C ⌊|C ∩ S| / 2⌋ x_C ≤ (|S| − 1) / 2, the
/// {0, ½}-Chvátal–Gomory rounding of the cover rows of `S` (Edmonds' blossom inequality when
/// classes are pairs). Triples are the subset-row cuts. Valid for every partition, whatever
/// the k_i, and so in every branch-and-price node and proof MIP.
pub type OddSet = Vec<u32>;

/// The coefficient ⌊|C ∩ S| / 2⌋ of the class `members` (sorted) in the cut on `set`.
pub fn cut_coefficient(set: &[u32], members: &[u32]) -> usize {
    let hits = set
        .iter()
        .filter(|r| members.binary_search(r).is_ok())
        .count();
    hits / 2
}

/// The right-hand side (|S| − 1) / 2 of the cut on `set`.
pub fn cut_rhs(set: &[u32]) -> usize {
    (set.len() - 1) / 2
}

/// Dual values priced into reduced costs:
/// rc(C) = cost(C) − Σ_{i∈C} π_i + Σ_S μ_S ⌊|C ∩ S| / 2⌋.
#[derive(Clone, Debug, Default)]
pub struct Duals {
    /// Dual of each record's cover row.
    pub pi: Vec<f64>,
    /// Odd-set cuts and their penalties μ_S = −σ_S ≥ 0.
    pub cuts: Vec<(OddSet, f64)>,
}

impl Duals {
    /// The dual objective z = Σπ − Σ_S μ_S (|S| − 1)/2: with every reduced cost ≥ 0 a lower
    /// bound on every partition's cost (with the most negative reduced cost r < 0,
    /// z + c_max·r is).
    pub fn value(&self) -> f64 {
        self.pi.iter().sum::<f64>()
            - self
                .cuts
                .iter()
                .map(|(s, mu)| cut_rhs(s) as f64 * mu)
                .sum::<f64>()
    }

    /// Reduced cost of the class `members` (sorted) costing `cost` under these duals (the
    /// reference the pricing search is tested against).
    pub fn reduced_cost(&self, members: &[u32], cost: i64) -> f64 {
        let mut rc = cost as f64;
        for &i in members {
            rc -= self.pi[i as usize];
        }
        for (s, mu) in &self.cuts {
            rc += cut_coefficient(s, members) as f64 * mu;
        }
        rc
    }
}

/// The converged set-partitioning LP (with its subset-row cuts): its duals are valid for every
/// partition, which is what the CP engine's dual-bound propagator uses.
#[derive(Clone, Debug)]
pub struct RootLp {
    /// Cover duals and cut penalties.
    pub duals: Duals,
    /// LP value z = Σπ − Σ_S μ_S (|S| − 1)/2.
    pub z: f64,
    /// Most negative reduced cost of the last pricing round (≥ −PRICE_EPS: converged).
    pub min_rc: f64,
    /// Columns in the master.
    pub columns: usize,
    /// Odd-set cuts in the master.
    pub cuts: usize,
    /// The best partition known after the LP: the warm starts' and the restricted master MIP's
    /// over the LP's columns of least reduced cost (an LP-rounding heuristic, no proof).
    pub primal: Option<(Partition, i64)>,
    /// Seconds spent.
    pub seconds: f64,
}
