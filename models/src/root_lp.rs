//! The converged set-partitioning LP: its duals and value, and the partition its rounding
//! found. Column generation computes it (`colgen::root_lp`); its pricing works on the duals, and
//! the CP engine's dual-bound propagator posts them. A data module of its own, so the CP model
//! depends on this LP and not on column generation.

use crate::Partition;

/// Dual values priced into reduced costs: rc(C) = cost(C) − Σ_{i∈C} π_i + Σ_{t: |C∩t|≥2} μ_t.
#[derive(Clone, Debug, Default)]
pub struct Duals {
    /// Dual of each record's cover row.
    pub pi: Vec<f64>,
    /// Subset-row cuts on triples and their penalties μ_t = −σ_t ≥ 0.
    pub cuts: Vec<([u32; 3], f64)>,
}

impl Duals {
    /// The dual objective z = Σπ − Σμ: with every reduced cost ≥ 0 a lower bound on every
    /// partition's cost (with the most negative reduced cost r < 0, z + c_max·r is).
    pub fn value(&self) -> f64 {
        self.pi.iter().sum::<f64>() - self.cuts.iter().map(|c| c.1).sum::<f64>()
    }

    /// Reduced cost of the class `members` costing `cost` under these duals (the reference
    /// the pricing search is tested against).
    pub fn reduced_cost(&self, members: &[u32], cost: i64) -> f64 {
        let mut rc = cost as f64;
        for &i in members {
            rc -= self.pi[i as usize];
        }
        for (t, mu) in &self.cuts {
            let hits = t.iter().filter(|r| members.contains(r)).count();
            if hits >= 2 {
                rc += mu;
            }
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
    /// LP value z = Σπ − Σμ.
    pub z: f64,
    /// Most negative reduced cost of the last pricing round (≥ −PRICE_EPS: converged).
    pub min_rc: f64,
    /// Columns in the master.
    pub columns: usize,
    /// Subset-row cuts in the master.
    pub cuts: usize,
    /// The best partition known after the LP: the warm starts' and the restricted master MIP's
    /// over the LP's columns of least reduced cost (an LP-rounding heuristic, no proof).
    pub primal: Option<(Partition, i64)>,
    /// Seconds spent.
    pub seconds: f64,
}
