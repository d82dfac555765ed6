//! The building blocks every seed-001 chapter-5 experiment shares: one heuristic run's DBIL for
//! a k_i vector, the k_i of a (liberal, moderate, conservative) split drawn at random or
//! correlated with the data, and the cost of deleting records (seed 001 §5.5.4).

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::data::k_source;
use crate::data::k_source::correlated::{self, Axis};
use crate::data::qi::QiTable;
use crate::error::Result;
use crate::partition::heuristics::{self, Form, Heuristic, HeuristicOptions, KMemberCost};
use crate::partition::metrics;
use indicatif::ProgressBar;

/// k of the liberal, moderate and conservative groups.
pub type Levels = [u32; 3];

/// The seed's low (3, 5, 7) and high (5, 7, 10) constraint levels.
pub const LOW: Levels = [3, 5, 7];
pub const HIGH: Levels = [5, 7, 10];

/// The records an experiment runs on, with their distance.
pub struct Sample {
    pub ds: Dataset,
    pub dist: RecordDistance,
    /// Axes of the correlated assignment.
    pub axes: Vec<Axis>,
}

impl Sample {
    pub fn n(&self) -> usize {
        self.ds.n()
    }

    /// The k_i of shares (f_l, f_m, f_c) over `levels`: drawn with `seed`, or by distance to
    /// the origin of the axes when `correlated`.
    pub fn k(
        &self,
        levels: Levels,
        shares: [f64; 3],
        correlated: bool,
        seed: u64,
    ) -> Result<Vec<u32>> {
        let mut dist: Vec<(u32, f64)> = Vec::new();
        for (k, p) in levels.iter().zip(shares) {
            match dist.iter_mut().find(|d| d.0 == *k) {
                Some(d) => d.1 += p,
                None => dist.push((*k, p)),
            }
        }
        if correlated {
            correlated::assign(&dist, &self.axes, &self.ds.table, &self.ds.rows)
        } else {
            Ok(k_source::draw(&dist, seed, self.n()))
        }
    }

    /// DBIL of `method` (k_i form; greedy k-member with eq. 5.5 and `seed`) for the k_i `k`.
    pub fn dbil(&self, method: Heuristic, k: &[u32], seed: u64) -> f64 {
        dbil_of(&self.ds.qi, &self.dist, method, k, seed)
    }

    /// Seed 001 scenario 3 (§5.5.4): the records with k_i > `keep_at_most` are deleted, the rest
    /// is made `keep_at_most`-anonymous by `method`; each deleted record costs the largest
    /// record distance (one unit per attribute of weight 1). Returns (DBIL, deleted records).
    pub fn dbil_after_deletion(
        &self,
        method: Heuristic,
        k: &[u32],
        keep_at_most: u32,
        seed: u64,
    ) -> Result<(f64, usize)> {
        let kept: Vec<usize> = (0..self.n()).filter(|&i| k[i] <= keep_at_most).collect();
        let deleted = self.n() - kept.len();
        let penalty = deleted as f64 * self.ds.qi.max_distance();
        if kept.len() < keep_at_most as usize {
            // Nothing can be released: every record is deleted.
            return Ok((self.n() as f64 * self.ds.qi.max_distance(), self.n()));
        }
        let qi = self.subset(&kept)?;
        let dist = RecordDistance::new(&qi);
        let k_kept = vec![keep_at_most; kept.len()];
        Ok((
            dbil_of(&qi, &dist, method, &k_kept, seed) + penalty,
            deleted,
        ))
    }

    /// The quasi-identifiers of some records of the sample (indices into the sample), decoded
    /// afresh (numeric ranges are those of the subset).
    fn subset(&self, records: &[usize]) -> Result<QiTable> {
        let ds = &self.ds;
        let mut specs: Vec<_> = ds.schema.quasi().collect();
        specs.sort_by_key(|s| ds.table.headers.iter().position(|h| *h == s.name));
        let rows: Vec<usize> = records.iter().map(|&i| ds.rows[i]).collect();
        QiTable::decode(&ds.table, &specs, &rows)
    }
}

/// DBIL of one heuristic run in the k_i form.
pub fn dbil_of(
    qi: &QiTable,
    dist: &RecordDistance,
    method: Heuristic,
    k: &[u32],
    seed: u64,
) -> f64 {
    let opts = HeuristicOptions {
        method,
        form: Form::Ki,
        cost: KMemberCost::Personalised,
        seed,
    };
    let p = heuristics::run(&opts, qi, dist, k, &ProgressBar::hidden());
    metrics::compute(qi, dist, k, &p).dbil
}

/// The (f_l, f_c) grid of figures 5.5–5.8 in percent, `step` apart, f_l + f_c ≤ 100.
pub fn frequency_grid(step: u32) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for fc in (0..=100).step_by(step as usize) {
        for fl in (0..=100 - fc).step_by(step as usize) {
            v.push((fl, fc));
        }
    }
    v
}

/// Mean of some values.
pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}
