//! The set-partitioning MIP over an enumerated column set, solved by HiGHS to a zero gap (relative
//! gap 0, absolute gap below one cost unit: costs are integers, the default 1e-4 is not exact).

use super::column::Column;
use crate::root_lp::{cut_coefficient, cut_rhs, OddSet};
use highs::{HighsModelStatus, RowProblem, Sense};
use std::time::Instant;

/// Outcome of one set-partitioning MIP.
#[derive(Clone, Debug)]
pub struct MipOutcome {
    /// Best selection found (indices into the column list) and its integer cost.
    pub best: Option<(Vec<usize>, i64)>,
    /// True when HiGHS proved `best` optimal over the given columns (or proved infeasibility).
    pub proven: bool,
    /// Seconds in HiGHS.
    pub seconds: f64,
    /// Branch-and-bound nodes, when HiGHS reports them.
    pub nodes: u64,
}

/// Solves min Σ cost·x over `columns`, every record covered once, the triples among the odd-set
/// `cuts` as valid inequalities, x binary. `start` (column indices forming a partition) seeds
/// the incumbent.
///
/// HiGHS first solves without presolve, for at most [`PRESOLVE_AFTER`] seconds; a MIP still
/// open then is solved again with presolve, from the best selection found, for the time left.
/// Presolve's probing costs seconds that the quick MIPs do not repay (4× the whole
/// branch-and-bound on Adult, n = 1,000), but it shortens the long ones several times
/// (Tarragona, k = 3, the proof MIP over 16,680 columns and the 132 triples: 50 s with it,
/// over 600 s without). `OPTIK_MIP_PRESOLVE` = `on` | `off` forces one solve with that
/// setting (an ablation knob).
pub fn solve_set_partitioning(
    n: usize,
    columns: &[Column],
    cuts: &[OddSet],
    start: Option<&[usize]>,
    time_limit: Option<f64>,
) -> MipOutcome {
    if let Ok(v) = std::env::var("OPTIK_MIP_PRESOLVE") {
        return solve_once(n, columns, cuts, start, time_limit, &v);
    }
    let t0 = Instant::now();
    let first_limit = time_limit.map_or(PRESOLVE_AFTER, |tl| tl.min(PRESOLVE_AFTER));
    let first = solve_once(n, columns, cuts, start, Some(first_limit), "off");
    let left = time_limit.map(|tl| tl - t0.elapsed().as_secs_f64());
    if first.proven || left.is_some_and(|l| l < 1.0) {
        return first;
    }
    let seed = first.best.as_ref().map(|b| b.0.as_slice()).or(start);
    let second = solve_once(n, columns, cuts, seed, left, "on");
    let best = match (first.best, second.best) {
        (Some(a), Some(b)) => Some(if b.1 <= a.1 { b } else { a }),
        (a, b) => b.or(a),
    };
    MipOutcome {
        proven: second.proven,
        best,
        seconds: t0.elapsed().as_secs_f64(),
        nodes: first.nodes + second.nodes,
    }
}

/// Seconds the proof MIP runs without presolve before it starts again with it (see
/// [`solve_set_partitioning`]).
pub const PRESOLVE_AFTER: f64 = 20.0;

/// One HiGHS solve of the set-partitioning MIP with `presolve` = `on` | `off`.
fn solve_once(
    n: usize,
    columns: &[Column],
    cuts: &[OddSet],
    start: Option<&[usize]>,
    time_limit: Option<f64>,
    presolve: &str,
) -> MipOutcome {
    let t0 = Instant::now();
    let mut pb = RowProblem::default();
    let vars: Vec<_> = columns
        .iter()
        .map(|c| pb.add_integer_column(c.cost as f64, 0.0..=1.0))
        .collect();
    let mut rows: Vec<Vec<(highs::Col, f64)>> = vec![Vec::new(); n];
    for (c, col) in columns.iter().enumerate() {
        for &i in &col.members {
            rows[i as usize].push((vars[c], 1.0));
        }
    }
    for row in rows {
        pb.add_row(1.0..=1.0, row);
    }
    // Only the triples: the larger odd sets' rows are dense and slowed HiGHS down (Tarragona,
    // k = 3, 16,680 columns, with presolve: 292 s with the 655 cuts, 75 s with none, 50 s
    // with the 132 triples; docs/microaggregation.md, "Odd-set cuts").
    for t in cuts.iter().filter(|t| t.len() == 3) {
        let row: Vec<(highs::Col, f64)> = columns
            .iter()
            .enumerate()
            .map(|(c, col)| (vars[c], cut_coefficient(t, &col.members) as f64))
            .filter(|&(_, a)| a > 0.0)
            .collect();
        if row.len() > 1 {
            pb.add_row(..=cut_rhs(t) as f64, row);
        }
    }
    let mut model = pb.optimise(Sense::Minimise);
    model.make_quiet();
    model.set_option("mip_rel_gap", 0.0);
    model.set_option("mip_abs_gap", 0.5);
    model.set_option("presolve", presolve);
    if std::env::var_os("OPTIK_MIP_LOG").is_some() {
        model.set_option("output_flag", true);
        model.set_option("log_to_console", true);
    }
    if let Some(tl) = time_limit {
        model.set_option("time_limit", tl.max(0.01));
    }
    if let Some(sel) = start {
        let mut x = vec![0.0; columns.len()];
        for &c in sel {
            x[c] = 1.0;
        }
        // A rejected start only costs the seed; the solve stays correct.
        let _ = model.try_set_solution(Some(&x), None, None, None);
    }
    // A HiGHS failure (an error status, not a limit) proves nothing and finds nothing.
    let Ok(solved) = model.try_solve() else {
        return MipOutcome {
            proven: false,
            best: None,
            seconds: t0.elapsed().as_secs_f64(),
            nodes: 0,
        };
    };
    let status = solved.status();
    let nodes = crate::highs_ffi::mip_node_count(&solved);
    let sol = solved.get_solution();
    let chosen: Vec<usize> = sol
        .columns()
        .iter()
        .enumerate()
        .filter(|(_, &v)| v > 0.5)
        .map(|(c, _)| c)
        .collect();
    let covers = {
        let mut seen = vec![false; n];
        let mut ok = true;
        for &c in &chosen {
            for &i in &columns[c].members {
                ok &= !std::mem::replace(&mut seen[i as usize], true);
            }
        }
        ok && seen.iter().all(|&s| s)
    };
    let best = covers.then(|| {
        let cost = chosen.iter().map(|&c| columns[c].cost).sum();
        (chosen, cost)
    });
    MipOutcome {
        proven: matches!(
            status,
            HighsModelStatus::Optimal | HighsModelStatus::Infeasible
        ),
        best,
        seconds: t0.elapsed().as_secs_f64(),
        nodes,
    }
}
