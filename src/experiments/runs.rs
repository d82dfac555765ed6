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
pub(super) type Levels = [u32; 3];

/// The seed's low (3, 5, 7) and high (5, 7, 10) constraint levels.
pub(crate) const LOW: Levels = [3, 5, 7];
pub(crate) const HIGH: Levels = [5, 7, 10];

/// The records an experiment runs on, with their distance.
pub(crate) struct Sample {
    pub ds: Dataset,
    pub dist: RecordDistance,
    /// Axes of the correlated assignment.
    pub axes: Vec<Axis>,
}

impl Sample {
    pub(crate) fn n(&self) -> usize {
        self.ds.n()
    }

    /// The k_i of shares (f_l, f_m, f_c) over `levels`: drawn with `seed`, or by distance to
    /// the origin of the axes when `correlated`.
    pub(crate) fn k(
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
    pub(crate) fn dbil(&self, method: Heuristic, k: &[u32], seed: u64) -> f64 {
        dbil_of(&self.ds.qi, &self.dist, method, k, seed)
    }

    /// Seed 001 scenario 3 (§5.5.4): the records with k_i > `keep_at_most` are deleted, the rest
    /// is made `keep_at_most`-anonymous by `method`; each deleted record costs the largest
    /// record distance (one unit per attribute of weight 1). Returns (DBIL, deleted records).
    pub(crate) fn dbil_after_deletion(
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
pub(crate) fn dbil_of(
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
pub(crate) fn frequency_grid(step: u32) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for fc in (0..=100).step_by(step as usize) {
        for fl in (0..=100 - fc).step_by(step as usize) {
            v.push((fl, fc));
        }
    }
    v
}

/// Mean of some values.
pub(super) fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::dataset::RowSample;
    use crate::data::fixtures;
    use crate::data::k_source::KSource;
    use crate::data::schema::Schema;
    use crate::data::table::Table;

    /// Deleting a conservative costs the largest record distance, one unit per attribute (8
    /// on Adult), on top of the k_m-anonymity of the records kept.
    #[test]
    fn deleted_records_cost_one_unit_per_attribute() {
        let dir = tempfile::tempdir().unwrap();
        let csv = fixtures::adult_sample(dir.path(), 120);
        let schema = Schema::read(&fixtures::adult_schema(dir.path())).unwrap();
        let table = Table::read(&csv, schema.delimiter).unwrap();
        let ds = Dataset::from_table(
            table.clone(),
            schema.clone(),
            &KSource::Uniform { k: 1 },
            true,
            RowSample::All,
        )
        .unwrap();
        let dist = ds.distance();
        let s = Sample {
            ds,
            dist,
            axes: Vec::new(),
        };
        assert_eq!(s.ds.qi.max_distance(), 8.0);
        // Every 10th record is a conservative (k_i = 7), the others moderates (5).
        let k: Vec<u32> = (0..s.n())
            .map(|i| if i % 10 == 0 { 7 } else { 5 })
            .collect();
        let (dbil, deleted) = s.dbil_after_deletion(Heuristic::KMember, &k, 5, 1).unwrap();
        assert_eq!(deleted, 12);
        // The same: the kept rows loaded as a table of their own, made 5-anonymous, plus 12 × 8.
        let mut kept = table.clone();
        let keep: Vec<usize> = (0..table.len()).filter(|i| i % 10 != 0).collect();
        kept.rows = keep.iter().map(|&i| table.rows[i].clone()).collect();
        kept.lines = keep.iter().map(|&i| table.lines[i]).collect();
        let ds_kept = Dataset::from_table(
            kept,
            schema,
            &KSource::Uniform { k: 1 },
            true,
            RowSample::All,
        )
        .unwrap();
        let d_kept = ds_kept.distance();
        let direct = dbil_of(
            &ds_kept.qi,
            &d_kept,
            Heuristic::KMember,
            &vec![5; keep.len()],
            1,
        );
        assert!(
            (dbil - (direct + 96.0)).abs() < 1e-9,
            "{dbil} vs {direct} + 96"
        );
        // No conservative: nothing deleted, the cost is plain k_m-anonymity.
        let (none, deleted) = s
            .dbil_after_deletion(Heuristic::Mdav, &vec![5; s.n()], 5, 1)
            .unwrap();
        assert_eq!(deleted, 0);
        assert_eq!(none, s.dbil(Heuristic::Mdav, &vec![5; s.n()], 1));
        // Fewer kept records than k_m: every record is deleted.
        let all7: Vec<u32> = (0..s.n()).map(|i| if i < 3 { 5 } else { 7 }).collect();
        assert_eq!(
            s.dbil_after_deletion(Heuristic::Mdav, &all7, 5, 1).unwrap(),
            (8.0 * 120.0, 120)
        );
    }
}
