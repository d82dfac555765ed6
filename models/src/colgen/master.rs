//! The restricted master LP: one equality row per record, one `≤ 1` row per subset-row cut, one
//! column per generated class with x ≥ 0 and no upper bound (with x ≤ 1 HiGHS may return row
//! duals that are not valid for pricing). Kept alive in HiGHS between rounds so every re-solve
//! starts from the previous basis.

use super::column::Column;
use crate::root_lp::Duals;
use highs::{Col, HighsModelStatus, Model, Row, RowProblem, Sense};
use std::collections::HashSet;
use std::time::Instant;

/// The master LP and the columns and cuts it holds.
pub struct Master {
    model: Option<Model>,
    cover: Vec<Row>,
    cut_rows: Vec<Row>,
    cols: Vec<Col>,
    /// Columns, in the order they were added.
    pub columns: Vec<Column>,
    /// Subset-row cuts (triples of records), in the order they were added.
    pub cuts: Vec<[u32; 3]>,
    seen: HashSet<Vec<u32>>,
    /// Artificial singleton columns (HiGHS columns before every real one), not in `columns`.
    artificial: usize,
}

impl std::fmt::Debug for Master {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Master")
            .field("columns", &self.columns.len())
            .field("cuts", &self.cuts.len())
            .field("artificial", &self.artificial)
            .finish_non_exhaustive()
    }
}

/// Solution of one master LP solve.
#[derive(Clone, Debug)]
pub struct LpSolution {
    /// LP optimum (= Σπ + Σσ at optimality).
    pub objective: f64,
    /// Record duals and cut penalties (μ = −σ ≥ 0).
    pub duals: Duals,
    /// Value of every column, in `Master::columns` order.
    pub x: Vec<f64>,
    /// Seconds spent in HiGHS.
    pub seconds: f64,
}

/// Number of cut-row members of `col` (a column enters a cut row when it holds ≥ 2 of its 3).
fn hits(col: &Column, t: &[u32; 3]) -> usize {
    t.iter()
        .filter(|r| col.members.binary_search(r).is_ok())
        .count()
}

impl Master {
    /// An empty master over `n` records.
    pub fn new(n: usize) -> Self {
        let mut model = RowProblem::default().optimise(Sense::Minimise);
        model.make_quiet();
        model.set_option("presolve", "off");
        model.set_option("solver", "simplex");
        let cover = (0..n)
            .map(|_| model.add_row(1.0..=1.0, std::iter::empty()))
            .collect();
        Master {
            model: Some(model),
            cover,
            cut_rows: Vec::new(),
            cols: Vec::new(),
            columns: Vec::new(),
            cuts: Vec::new(),
            seen: HashSet::new(),
            artificial: 0,
        }
    }

    /// Adds one artificial singleton column per record at `cost` (more than any partition
    /// costs), so the LP is feasible before any partition is known. Must precede every real
    /// column; artificial columns never enter `columns`, cuts or the proof MIP.
    pub fn add_artificials(&mut self, cost: f64) {
        assert!(self.cols.is_empty(), "artificial columns come first");
        for i in 0..self.cover.len() {
            let row = self.cover[i];
            self.model().add_col(cost, 0.0.., [(row, 1.0)]);
            self.artificial += 1;
        }
    }

    fn model(&mut self) -> &mut Model {
        self.model.as_mut().expect("master model present")
    }

    /// Adds a column unless an identical class is already present; returns true if added.
    pub fn add_column(&mut self, col: Column) -> bool {
        if !self.seen.insert(col.members.clone()) {
            return false;
        }
        let mut entries: Vec<(Row, f64)> = col
            .members
            .iter()
            .map(|&i| (self.cover[i as usize], 1.0))
            .collect();
        for (t, tri) in self.cuts.iter().enumerate() {
            if hits(&col, tri) >= 2 {
                entries.push((self.cut_rows[t], 1.0));
            }
        }
        let cost = col.cost as f64;
        let c = self.model().add_col(cost, 0.0.., entries);
        self.cols.push(c);
        self.columns.push(col);
        true
    }

    /// Adds the subset-row cut "at most one chosen class holds two records of `t`".
    pub fn add_cut(&mut self, t: [u32; 3]) {
        let entries: Vec<(Col, f64)> = self
            .columns
            .iter()
            .zip(&self.cols)
            .filter(|(col, _)| hits(col, &t) >= 2)
            .map(|(_, &c)| (c, 1.0))
            .collect();
        let row = self.model().add_row(..=1.0, entries);
        self.cut_rows.push(row);
        self.cuts.push(t);
    }

    /// Solves the LP (warm-started); `None` when HiGHS does not reach optimality in `time_limit`.
    pub fn solve(&mut self, time_limit: Option<f64>) -> Option<LpSolution> {
        let start = Instant::now();
        let mut model = self.model.take().expect("master model present");
        model.set_option("time_limit", time_limit.unwrap_or(f64::INFINITY).max(0.01));
        let solved = model.solve();
        let status = solved.status();
        let sol = solved.get_solution();
        let objective = solved.objective_value();
        self.model = Some(solved.into());
        if status != HighsModelStatus::Optimal {
            return None;
        }
        let n = self.cover.len();
        let rows = sol.dual_rows();
        let pi = rows[..n].to_vec();
        let cuts = self
            .cuts
            .iter()
            .zip(&rows[n..])
            .map(|(&t, &sigma)| (t, (-sigma).max(0.0)))
            .collect();
        Some(LpSolution {
            objective,
            duals: Duals { pi, cuts },
            x: sol.columns()[self.artificial..].to_vec(),
            seconds: start.elapsed().as_secs_f64(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The duals handed to pricing reproduce HiGHS's own reduced costs, cut rows included
    /// (checks the sign convention of the `≤ 1` cut rows).
    #[test]
    fn duals_reproduce_highs_reduced_costs() {
        let mut m = Master::new(3);
        for (members, cost) in [
            (vec![0, 1], 1),
            (vec![1, 2], 1),
            (vec![0, 2], 1),
            (vec![0], 10),
            (vec![1], 10),
            (vec![2], 10),
        ] {
            m.add_column(Column { members, cost });
        }
        let lp = m.solve(None).unwrap();
        assert!((lp.objective - 1.5).abs() < 1e-9);
        m.add_cut([0, 1, 2]);
        let lp = m.solve(None).unwrap();
        assert!(lp.objective > 1.5 + 1e-6);
        assert!(lp.duals.cuts[0].1 > 0.0, "the cut binds: positive penalty");
        let z: f64 = lp.duals.pi.iter().sum::<f64>() - lp.duals.cuts[0].1;
        assert!((z - lp.objective).abs() < 1e-6);
        let model = m.model.take().unwrap();
        let solved = model.solve();
        let highs_rc = solved.get_solution().dual_columns().to_vec();
        for (c, col) in m.columns.iter().enumerate() {
            assert!((lp.duals.reduced_cost(&col.members, col.cost) - highs_rc[c]).abs() < 1e-6);
        }
    }
}
