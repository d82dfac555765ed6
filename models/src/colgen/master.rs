//! The restricted master LP: one equality row per record, one `≤ (|S| − 1)/2` row per odd-set cut, one
//! column per generated class with x ≥ 0 and no upper bound (with x ≤ 1 HiGHS may return row
//! duals that are not valid for pricing), and, until the root LP first converges, the exchange
//! columns of [`super::exchange`]. Kept alive in HiGHS between rounds so every re-solve starts
//! from the previous basis.

use super::column::Column;
use super::exchange::Exchange;
use crate::root_lp::{cut_coefficient, cut_rhs, Duals, OddSet};
use highs::{Col, HighsModelStatus, Model, Row, RowProblem, Sense};
use std::collections::HashSet;
use std::time::Instant;

/// Why one solve of the master failed (not the time limit).
#[derive(Debug)]
enum Failure {
    /// HiGHS returned an error.
    Highs(highs::HighsStatus),
    /// HiGHS ended with this model status.
    Status(HighsModelStatus),
    /// A failure [`Master::failing_solves`] injected.
    #[cfg(test)]
    Injected,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Highs(status) => write!(f, "error {status:?}"),
            Failure::Status(status) => write!(f, "model status {status:?}"),
            #[cfg(test)]
            Failure::Injected => write!(f, "injected by a test"),
        }
    }
}

/// The master LP and the columns and cuts it holds.
pub struct Master {
    model: Option<Model>,
    cover: Vec<Row>,
    cut_rows: Vec<Row>,
    cols: Vec<Col>,
    /// Columns, in the order they were added.
    pub columns: Vec<Column>,
    /// Odd-set cuts (sorted record sets; triples are subset-row cuts), in the order they
    /// were added.
    pub cuts: Vec<OddSet>,
    seen: HashSet<Vec<u32>>,
    /// Artificial singleton columns, one per record once added (not in `columns`).
    artificial: Vec<Col>,
    /// Columns currently held at 0 (a branch-and-price node excludes them).
    disabled: Vec<bool>,
    /// Cost of the artificial columns, once added.
    artificial_cost: Option<f64>,
    /// Per-record costs of the artificial columns replacing `artificial_cost` (empty: none).
    artificial_costs: Vec<f64>,
    /// Exchange columns ([`super::exchange`]) while they are in the LP (not in `columns`).
    exchanges: Vec<(Exchange, Col)>,
    /// The model holds an optimal basis and has only gained columns (or freed bounds) since:
    /// that basis is still primal feasible, so the next solve runs the primal simplex.
    primal_warm: bool,
    /// Which simplex re-solves (`OPTIK_MASTER_SIMPLEX`, read once).
    simplex: SimplexChoice,
    /// Solve by the interior-point method without crossover ([`Master::set_interior`]).
    interior: bool,
    /// How the latest solve failed after its rebuild ([`Master::solve`]), if it did.
    failure: Option<Failure>,
    /// Solves that fail before HiGHS is called (tests of what the callers do then).
    #[cfg(test)]
    pub(super) failing_solves: usize,
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
    /// True when an artificial column has a positive value (no partition of the allowed
    /// columns covers every record at this LP's cost).
    pub artificial: bool,
    /// An interior point ([`Master::set_interior`]), not a vertex: every column of the optimal
    /// face has a positive value, and the objective is optimal only to HiGHS' tolerances.
    pub interior: bool,
    /// Seconds spent in HiGHS.
    pub seconds: f64,
    /// Σ y over the exchange columns (0 without them): while positive, `x` is not a fractional
    /// partition.
    pub exchanged: f64,
}

/// Which simplex re-solves the master: `OPTIK_MASTER_SIMPLEX` = `dual` (always, as before
/// 2026-11-27) or `primal` (always), an ablation knob; by default primal after new columns only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SimplexChoice {
    Auto,
    Primal,
    Dual,
}

impl SimplexChoice {
    fn from_env() -> Self {
        match std::env::var("OPTIK_MASTER_SIMPLEX").as_deref() {
            Ok("primal") => SimplexChoice::Primal,
            Ok("dual") => SimplexChoice::Dual,
            _ => SimplexChoice::Auto,
        }
    }
}

impl Master {
    /// An empty master over `n` records.
    pub fn new(n: usize) -> Self {
        let mut model = Self::empty_model();
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
            artificial: Vec::new(),
            disabled: Vec::new(),
            artificial_cost: None,
            artificial_costs: Vec::new(),
            exchanges: Vec::new(),
            primal_warm: false,
            simplex: SimplexChoice::from_env(),
            interior: false,
            failure: None,
            #[cfg(test)]
            failing_solves: 0,
        }
    }

    /// A HiGHS model with the master's options and no rows.
    fn empty_model() -> Model {
        let mut model = RowProblem::default().optimise(Sense::Minimise);
        model.make_quiet();
        if let Some(threads) = super::options::highs_threads() {
            model.set_option("threads", threads);
        }
        model.set_option("presolve", "off");
        model.set_option("solver", "simplex");
        model
    }

    /// Rebuilds the master with only the columns `keep` selects (cover rows, cut rows and
    /// artificial columns stay): the LP's pivots cost time in proportion to its columns, and a
    /// pool that only grows makes every re-solve slower and memory unbounded. Dropped columns
    /// may come back through pricing. The next solve starts without a basis.
    pub fn compact(&mut self, keep: impl Fn(usize) -> bool) {
        let n = self.cover.len();
        let artificial_cost = self.artificial_cost;
        let old_columns = std::mem::take(&mut self.columns);
        let old_disabled = std::mem::take(&mut self.disabled);
        let cuts = std::mem::take(&mut self.cuts);
        let exchanges: Vec<Exchange> = self.exchanges.drain(..).map(|(e, _)| e).collect();
        let mut model = Self::empty_model();
        self.cover = (0..n)
            .map(|_| model.add_row(1.0..=1.0, std::iter::empty()))
            .collect();
        self.model = Some(model);
        self.primal_warm = false;
        self.cut_rows.clear();
        self.cols.clear();
        self.seen.clear();
        self.artificial.clear();
        if let Some(cost) = artificial_cost {
            self.add_artificials(cost);
            let costs = std::mem::take(&mut self.artificial_costs);
            if !costs.is_empty() {
                self.price_artificials(&costs);
            }
        }
        for t in cuts {
            self.add_cut(t);
        }
        self.add_exchanges(&exchanges);
        for (c, (col, off)) in old_columns.into_iter().zip(old_disabled).enumerate() {
            if keep(c) && self.add_column(col) && off {
                let last = self.columns.len() - 1;
                self.disabled[last] = true;
                let hc = self.cols[last];
                self.model().change_column_bounds(hc, 0.0..=0.0);
            }
        }
    }

    /// Adds one artificial singleton column per record at `cost` (more than any partition
    /// costs), so the LP stays feasible before any partition is known or when branching
    /// decisions exclude every column covering a record. Artificial columns never enter
    /// `columns`, cuts or the proof MIP. Does nothing when they exist.
    pub fn add_artificials(&mut self, cost: f64) {
        if !self.artificial.is_empty() {
            return;
        }
        self.artificial_cost = Some(cost);
        for i in 0..self.cover.len() {
            let row = self.cover[i];
            let c = self.model().add_col(cost, 0.0.., [(row, 1.0)]);
            self.artificial.push(c);
        }
    }

    /// Sets record i's artificial column to cost `costs[i]` (they must exist). Any costs keep
    /// the LP a relaxation of the partitions it covers (a partition uses no artificial
    /// column); costs at the duals of a converged LP plus a margin keep those duals feasible,
    /// so the LP starts from them rather than from the huge duals of expensive artificials.
    pub fn price_artificials(&mut self, costs: &[f64]) {
        assert_eq!(costs.len(), self.artificial.len(), "one cost per record");
        for (i, &cost) in costs.iter().enumerate() {
            let c = self.artificial[i];
            self.model().change_column_cost(c, cost);
        }
        self.artificial_costs = costs.to_vec();
    }

    /// Adds exchange columns: y ≥ 0 at the exchange's cost, +1 in `into`'s row and −1 in `out`'s
    /// (they never enter `columns`, cuts or MIPs; [`Master::drop_exchanges`] removes them).
    pub fn add_exchanges(&mut self, list: &[Exchange]) {
        for e in list {
            let entries = [
                (self.cover[e.into as usize], 1.0),
                (self.cover[e.out as usize], -1.0),
            ];
            let c = self.model().add_col(e.cost, 0.0.., entries);
            self.exchanges.push((*e, c));
        }
    }

    /// True while exchange columns are in the LP.
    pub fn has_exchanges(&self) -> bool {
        !self.exchanges.is_empty()
    }

    /// Holds every exchange column at 0 for good; false when there were none.
    pub fn drop_exchanges(&mut self) -> bool {
        if self.exchanges.is_empty() {
            return false;
        }
        for (_, c) in std::mem::take(&mut self.exchanges) {
            self.model().change_column_bounds(c, 0.0..=0.0);
        }
        self.primal_warm = false;
        true
    }

    /// True when an artificial column has a positive value in `x_all` (HiGHS column values).
    fn uses_artificials(&self, x_all: &[f64]) -> bool {
        self.artificial.iter().any(|c| x_all[c.index()] > 1e-9)
    }

    /// Holds every column for which `allowed` is false at 0 and frees the others (branching
    /// decisions of a node); only changed bounds are sent to HiGHS.
    pub fn restrict(&mut self, allowed: impl Fn(&Column) -> bool) {
        let mut changes = Vec::new();
        for (c, col) in self.columns.iter().enumerate() {
            let off = !allowed(col);
            if off != self.disabled[c] {
                changes.push((c, off));
            }
        }
        for (c, off) in changes {
            self.disabled[c] = off;
            let col = self.cols[c];
            if off {
                self.primal_warm = false;
                self.model().change_column_bounds(col, 0.0..=0.0);
            } else {
                self.model().change_column_bounds(col, 0.0..);
            }
        }
    }

    /// True when column `c` is held at 0 by the current node.
    pub fn is_disabled(&self, c: usize) -> bool {
        self.disabled[c]
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
        for (t, set) in self.cuts.iter().enumerate() {
            let a = cut_coefficient(set, &col.members);
            if a > 0 {
                entries.push((self.cut_rows[t], a as f64));
            }
        }
        let cost = col.cost as f64;
        let c = self.model().add_col(cost, 0.0.., entries);
        self.cols.push(c);
        self.columns.push(col);
        self.disabled.push(false);
        true
    }

    /// The odd-set cuts on more than three records (the others are subset-row cuts).
    pub fn large_cuts(&self) -> u64 {
        self.cuts.iter().filter(|s| s.len() > 3).count() as u64
    }

    /// Adds the odd-set cut on `t` (sorted): Σ_C ⌊|C ∩ t| / 2⌋ x_C ≤ (|t| − 1) / 2.
    pub fn add_cut(&mut self, t: OddSet) {
        let entries: Vec<(Col, f64)> = self
            .columns
            .iter()
            .zip(&self.cols)
            .map(|(col, &c)| (c, cut_coefficient(&t, &col.members) as f64))
            .filter(|&(_, a)| a > 0.0)
            .collect();
        let row = self.model().add_row(..=cut_rhs(&t) as f64, entries);
        self.primal_warm = false;
        self.cut_rows.push(row);
        self.cuts.push(t);
    }

    /// Whether the next solves are interior points: HiGHS' interior-point method without
    /// crossover. Its duals are central in the optimal face where the simplex's jump between
    /// its vertices: the root's descent prices at them and moves the LP further per round,
    /// and each solve of the degenerate master is a fraction of a simplex re-solve's (Census,
    /// k = 10: 1.4–3.6 s against 5–11 s from round 4 on). Such a solution leaves no basis (the
    /// next simplex solve starts cold) and its objective is not exact: the caller returns to
    /// vertices before it bounds or rounds anything.
    pub fn set_interior(&mut self, on: bool) {
        self.interior = on;
    }

    /// Solves the LP (warm-started); `None` when HiGHS does not reach optimality in `time_limit`.
    /// When HiGHS fails otherwise (an error status, seen once in a dive LP on Census, k = 5,
    /// sse, after 236 s; or a model status other than optimal and the time limit, after which
    /// a run on the whole diabetes table, k = 10, ended at 11 s of 60 with "master LP not
    /// solved"), the master is rebuilt without a basis and solved once more; a second failure
    /// is `None` too, and [`Master::failure`] says what HiGHS reported.
    pub fn solve(&mut self, time_limit: Option<f64>) -> Option<LpSolution> {
        self.failure = None;
        #[cfg(test)]
        if self.failing_solves > 0 {
            self.failing_solves -= 1;
            self.failure = Some(Failure::Injected);
            return None;
        }
        let start = Instant::now();
        match self.solve_once(time_limit) {
            Ok(sol) => sol,
            Err(failure) => {
                if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                    eprintln!("master LP: HiGHS failed ({failure}); rebuilt, solved again");
                }
                self.compact(|_| true);
                let left = time_limit.map(|t| t - start.elapsed().as_secs_f64());
                self.solve_once(left).unwrap_or_else(|failure| {
                    self.failure = Some(failure);
                    self.compact(|_| true);
                    None
                })
            }
        }
    }

    /// What HiGHS reported when the latest solve failed after its rebuild (`None` when it did
    /// not fail so): for the run's statistics, where a trace was the only way to know why.
    pub fn failure(&self) -> Option<String> {
        self.failure.as_ref().map(Failure::to_string)
    }

    /// One solve of [`Master::solve`]: `Ok(None)` at the time limit, `Err` when HiGHS failed
    /// (an error, which drops the model, or another status than optimal: the caller rebuilds
    /// the model either way).
    fn solve_once(&mut self, time_limit: Option<f64>) -> Result<Option<LpSolution>, Failure> {
        let start = Instant::now();
        let mut model = self.model.take().expect("master model present");
        // HiGHS compares its limit with the run time accumulated over every solve of this model.
        let used = crate::highs_ffi::run_time(&model);
        // After new columns only, the last basis stays primal feasible: the primal simplex
        // continues from it, where the dual simplex (HiGHS' default) stalled on the degenerate
        // master (Adult 2,000 records, k = 5: 48,515 iterations and 8.8 s for one re-solve;
        // docs/exact.md, "Primal re-solves"). New cuts and branching bounds leave it dual
        // feasible instead.
        let primal = match self.simplex {
            SimplexChoice::Auto => self.primal_warm,
            SimplexChoice::Primal => true,
            SimplexChoice::Dual => false,
        };
        model.set_option("simplex_strategy", if primal { 4 } else { 1 });
        model.set_option("solver", if self.interior { "ipm" } else { "simplex" });
        model.set_option("run_crossover", if self.interior { "off" } else { "on" });
        model.set_option(
            "time_limit",
            time_limit.map_or(f64::INFINITY, |t| used + t.max(0.01)),
        );
        let solved = model.try_solve().map_err(Failure::Highs)?;
        let status = solved.status();
        if std::env::var_os("OPTIK_MASTER_TRACE").is_some() {
            eprintln!(
                "master: {} columns, {} iterations, {:.3} s",
                self.columns.len(),
                solved.simplex_iteration_count(),
                start.elapsed().as_secs_f64()
            );
        }
        let sol = solved.get_solution();
        let objective = solved.objective_value();
        self.model = Some(solved.into());
        self.primal_warm = status == HighsModelStatus::Optimal && !self.interior;
        if status != HighsModelStatus::Optimal {
            if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                eprintln!(
                    "master LP: {status:?} after {:.2} s",
                    start.elapsed().as_secs_f64()
                );
            }
            if status == HighsModelStatus::ReachedTimeLimit {
                return Ok(None);
            }
            return Err(Failure::Status(status));
        }
        let n = self.cover.len();
        let rows = sol.dual_rows();
        let pi = rows[..n].to_vec();
        let cuts = self
            .cuts
            .iter()
            .zip(&rows[n..])
            .map(|(t, &sigma)| (t.clone(), (-sigma).max(0.0)))
            .collect();
        let x_all = sol.columns();
        let exchanged = self.exchanges.iter().map(|(_, c)| x_all[c.index()]).sum();
        Ok(Some(LpSolution {
            objective,
            exchanged,
            duals: Duals { pi, cuts },
            x: self.cols.iter().map(|c| x_all[c.index()]).collect(),
            artificial: self.uses_artificials(x_all),
            interior: self.interior,
            seconds: start.elapsed().as_secs_f64(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Six batches of 15 deterministic pseudo-random classes of 2–4 of `n` records, with costs
    /// from their spread.
    fn random_batches(n: u32) -> Vec<Vec<Column>> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut batches: Vec<Vec<Column>> = Vec::new();
        for _ in 0..6 {
            let mut batch = Vec::new();
            for _ in 0..15 {
                let size = 2 + (next() % 3) as usize;
                let mut members: Vec<u32> = Vec::new();
                while members.len() < size {
                    let r = (next() % n as u64) as u32;
                    if !members.contains(&r) {
                        members.push(r);
                    }
                }
                members.sort_unstable();
                let spread = members.last().unwrap() - members[0];
                batch.push(Column {
                    members,
                    cost: (size as i64) * (1 + spread as i64) + (next() % 5) as i64,
                });
            }
            batches.push(batch);
        }
        batches
    }

    /// A solve that HiGHS ends with another status than optimal or the time limit (here an
    /// iteration limit of 0, without presolve) is a failure, and [`Master::solve`] rebuilds
    /// the master and solves it again, to the optimum of a master that never failed.
    #[test]
    fn a_solve_that_highs_leaves_unfinished_is_rebuilt_and_solved_again() {
        let n = 12u32;
        let mut failing = Master::new(n as usize);
        let mut reference = Master::new(n as usize);
        for m in [&mut failing, &mut reference] {
            m.add_artificials(1000.0);
        }
        let stop_at_once = |m: &mut Master| {
            m.model().set_option("presolve", "off");
            m.model().set_option("simplex_iteration_limit", 0);
        };
        let mut failures = 0;
        for batch in random_batches(n) {
            for c in batch {
                failing.add_column(c.clone());
                reference.add_column(c);
            }
            let exact = reference.solve(None).expect("the reference solves");
            // Stopped at once: a failure unless the last basis is still optimal (always the
            // first batch's, whose start has the artificial columns basic).
            stop_at_once(&mut failing);
            match failing.solve_once(None) {
                Err(Failure::Status(HighsModelStatus::ReachedIterationLimit)) => failures += 1,
                Ok(Some(_)) => {}
                other => panic!("{other:?}"),
            }
            // Stopped at once again, then rebuilt by `solve`.
            stop_at_once(&mut failing);
            let lp = failing.solve(None).expect("solved after the rebuild");
            assert_eq!(failing.failure(), None, "the rebuilt master did not fail");
            assert!(
                (lp.objective - exact.objective).abs() < 1e-9 * exact.objective.abs().max(1.0),
                "{lp:?} vs {exact:?}"
            );
        }
        assert!(failures >= 1);
        // A failure is the latest solve's: the next solve that succeeds clears it.
        failing.failing_solves = 1;
        assert!(failing.solve(None).is_none());
        assert_eq!(failing.failure().as_deref(), Some("injected by a test"));
        assert!(failing.solve(None).is_some());
        assert_eq!(failing.failure(), None);
    }

    /// Interior solves (the root descent's) reach the simplex's optima to HiGHS' tolerances with
    /// dual-feasible duals and a feasible cover, say they are interior, and the next solve
    /// at a vertex is exact again.
    #[test]
    fn interior_solves_reach_the_vertex_optima() {
        let n = 12u32;
        let batches = random_batches(n);
        let mut vertex = Master::new(n as usize);
        let mut interior = Master::new(n as usize);
        interior.set_interior(true);
        for m in [&mut vertex, &mut interior] {
            m.add_artificials(1000.0);
        }
        for batch in &batches {
            for c in batch {
                vertex.add_column(c.clone());
                interior.add_column(c.clone());
            }
            let exact = vertex.solve(None).unwrap();
            let lp = interior.solve(None).unwrap();
            assert!(lp.interior && !exact.interior);
            let tol = 1e-6 * exact.objective.abs().max(1.0);
            assert!(
                (lp.objective - exact.objective).abs() < tol,
                "{lp:?} vs {exact:?}"
            );
            for (c, col) in interior.columns.iter().enumerate() {
                assert!(lp.x[c] >= -1e-9);
                assert!(lp.duals.reduced_cost(&col.members, col.cost) >= -tol);
            }
            assert!(lp.duals.value() <= exact.objective + tol);
        }
        interior.set_interior(false);
        let again = interior.solve(None).unwrap();
        let exact = vertex.solve(None).unwrap();
        assert!(!again.interior);
        assert!((again.objective - exact.objective).abs() < 1e-9 * exact.objective.abs().max(1.0));
    }

    /// Re-solves after new columns (primal simplex from the last basis), new cuts and
    /// branching bounds (dual simplex) reach the same optima as re-solving with the dual
    /// simplex throughout.
    #[test]
    fn primal_re_solves_reach_the_dual_simplex_optima() {
        let n = 12u32;
        let batches = random_batches(n);
        let run = |choice: SimplexChoice| {
            let mut m = Master::new(n as usize);
            m.simplex = choice;
            m.add_artificials(1000.0);
            let mut values = Vec::new();
            for (b, batch) in batches.iter().enumerate() {
                for c in batch {
                    m.add_column(c.clone());
                }
                values.push(m.solve(None).unwrap().objective);
                if b == 2 {
                    m.add_cut(vec![0, 1, 2]);
                    m.add_cut(vec![3, 4, 5]);
                    values.push(m.solve(None).unwrap().objective);
                }
                if b == 4 {
                    m.restrict(|c| !(c.members.contains(&0) && c.members.contains(&1)));
                    values.push(m.solve(None).unwrap().objective);
                }
            }
            m.restrict(|_| true);
            values.push(m.solve(None).unwrap().objective);
            values
        };
        let dual = run(SimplexChoice::Dual);
        for choice in [SimplexChoice::Auto, SimplexChoice::Primal] {
            let got = run(choice);
            assert_eq!(got.len(), dual.len());
            for (a, b) in got.iter().zip(&dual) {
                assert!((a - b).abs() < 1e-6, "{choice:?}: {got:?} vs {dual:?}");
            }
        }
        // The sequence did move: later batches lowered the optimum.
        assert!(dual.last().unwrap() < dual.first().unwrap());
    }

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
        m.add_cut(vec![0, 1, 2]);
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

    /// Exchange columns that are not dual-optimal (a free swap between two records of very
    /// different cost) lower the LP, and dropping them restores the plain LP's optimum, also
    /// through a compaction (which must not bring them back).
    #[test]
    fn dropped_exchanges_leave_the_plain_lp() {
        let mut m = Master::new(4);
        for (members, cost) in [(vec![0, 1], 2), (vec![2, 3], 40), (vec![0, 1, 2, 3], 60)] {
            m.add_column(Column { members, cost });
        }
        let plain = m.solve(None).unwrap();
        assert!((plain.objective - 42.0).abs() < 1e-9);
        assert_eq!(plain.exchanged, 0.0);
        assert!(!m.drop_exchanges(), "none to drop");
        // Record 2 "takes the place of" record 0 for free: {0, 1} covers 0, 1 and (via y) 2 …
        let free = |into, out| Exchange {
            into,
            out,
            cost: 0.0,
        };
        m.add_exchanges(&[free(2, 0), free(3, 1)]);
        let with = m.solve(None).unwrap();
        assert!(with.objective < plain.objective - 1.0, "{with:?}");
        assert!(with.exchanged > 0.0);
        assert!(m.has_exchanges() && m.drop_exchanges());
        assert!(!m.has_exchanges());
        let again = m.solve(None).unwrap();
        assert!(
            (again.objective - plain.objective).abs() < 1e-9,
            "{again:?}"
        );
        m.compact(|_| true);
        let compacted = m.solve(None).unwrap();
        assert!((compacted.objective - plain.objective).abs() < 1e-9);
        // Exchanges present at a compaction survive it.
        m.add_exchanges(&[free(2, 0), free(3, 1)]);
        m.compact(|_| true);
        assert!(m.solve(None).unwrap().objective < plain.objective - 1.0);
    }

    /// An odd-set cut on five records: a class holding four of them enters its row with
    /// coefficient 2, the row's bound is 2, and the duals still reproduce HiGHS's reduced
    /// costs and the LP value.
    #[test]
    fn a_five_record_cut_has_coefficients_and_bound_from_its_halves() {
        let mut m = Master::new(5);
        for (members, cost) in [
            (vec![0, 1], 1),
            (vec![1, 2], 1),
            (vec![2, 3], 1),
            (vec![3, 4], 1),
            (vec![0, 4], 1),
            (vec![0, 1, 2, 3], 3),
            (vec![0], 10),
            (vec![1], 10),
            (vec![2], 10),
            (vec![3], 10),
            (vec![4], 10),
        ] {
            m.add_column(Column { members, cost });
        }
        let lp = m.solve(None).unwrap();
        assert!((lp.objective - 2.5).abs() < 1e-9, "the five pairs at ½");
        m.add_cut(vec![0, 1, 2, 3, 4]);
        let lp = m.solve(None).unwrap();
        // Pairs and the 4-class share the row's 2 units; the fifth record costs 10 or a
        // second pair's half.
        assert!(lp.objective > 2.5 + 1e-6);
        assert!(lp.duals.cuts[0].1 > 0.0, "the cut binds");
        assert!((lp.duals.value() - lp.objective).abs() < 1e-6);
        let model = m.model.take().unwrap();
        let solved = model.solve();
        let highs_rc = solved.get_solution().dual_columns().to_vec();
        for (c, col) in m.columns.iter().enumerate() {
            assert!((lp.duals.reduced_cost(&col.members, col.cost) - highs_rc[c]).abs() < 1e-6);
        }
    }
}
