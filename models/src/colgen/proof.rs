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
    /// A lower bound on every selection over the columns (HiGHS's MIP dual bound, less a
    /// tolerance; the best cost when proven; −∞ when HiGHS gives none). A MIP stopped by its
    /// limit still bounds its columns: the proof turns this into a bound of the run.
    pub bound: f64,
    /// True when the caller left HiGHS at `MipLimits::abandon_at` or a stop request, before
    /// it reported (then nothing is found and the bound is −∞).
    pub left: bool,
}

/// Limits of one set-partitioning MIP.
#[derive(Clone, Copy, Debug, Default)]
pub struct MipLimits {
    /// Seconds (none: no limit).
    pub seconds: Option<f64>,
    /// Branch-and-bound nodes (none: no limit). Tests stop proof MIPs early with it.
    pub nodes: Option<u64>,
    /// When the caller leaves HiGHS and goes on without its result, however far HiGHS got
    /// (none: only at a stop request). The run's deadline: HiGHS overruns its own limit.
    pub abandon_at: Option<Instant>,
}

/// What one HiGHS solve of the MIP left, read on its own thread.
struct Solved {
    status: HighsModelStatus,
    nodes: u64,
    chosen: Vec<usize>,
    dual_bound: Option<f64>,
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
    limits: MipLimits,
) -> MipOutcome {
    if let Ok(v) = std::env::var("OPTIK_MIP_PRESOLVE") {
        return solve_once(n, columns, cuts, start, limits, &v);
    }
    let t0 = Instant::now();
    let first_limits = MipLimits {
        seconds: Some(
            limits
                .seconds
                .map_or(PRESOLVE_AFTER, |tl| tl.min(PRESOLVE_AFTER)),
        ),
        ..limits
    };
    let first = solve_once(n, columns, cuts, start, first_limits, "off");
    let left = limits.seconds.map(|tl| tl - t0.elapsed().as_secs_f64());
    // A node limit stops the first solve for good (it is a test's early stop, not a clock).
    if first.proven || left.is_some_and(|l| l < 1.0) || limits.nodes.is_some() {
        return first;
    }
    let seed = first.best.as_ref().map(|b| b.0.as_slice()).or(start);
    let second = solve_once(
        n,
        columns,
        cuts,
        seed,
        MipLimits {
            seconds: left,
            ..limits
        },
        "on",
    );
    let best = match (first.best, second.best) {
        (Some(a), Some(b)) => Some(if b.1 <= a.1 { b } else { a }),
        (a, b) => b.or(a),
    };
    MipOutcome {
        proven: second.proven,
        best,
        seconds: t0.elapsed().as_secs_f64(),
        nodes: first.nodes + second.nodes,
        // Both bound the same MIP.
        bound: first.bound.max(second.bound),
        left: second.left,
    }
}

/// Seconds the proof MIP runs without presolve before it starts again with it (see
/// [`solve_set_partitioning`]).
pub const PRESOLVE_AFTER: f64 = 20.0;

/// Whether HiGHS runs its feasibility-jump heuristic before the root node (`OPTIK_MIP_FJ=1`;
/// default off: the run's MIPs start from its incumbent, so the jump only took time, most
/// beside a second HiGHS solve; docs/exact.md, "The companion's rules and the MIPs' heuristic").
fn feasibility_jump() -> bool {
    std::env::var("OPTIK_MIP_FJ").is_ok_and(|v| v == "1")
}

/// One HiGHS solve of the set-partitioning MIP with `presolve` = `on` | `off`.
fn solve_once(
    n: usize,
    columns: &[Column],
    cuts: &[OddSet],
    start: Option<&[usize]>,
    limits: MipLimits,
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
    // `OPTIK_MIP_CUTS=all` passes every odd set (an ablation knob).
    let all = std::env::var("OPTIK_MIP_CUTS").is_ok_and(|v| v == "all");
    for t in cuts.iter().filter(|t| all || t.len() == 3) {
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
    let threads = super::options::highs_threads();
    let jump = feasibility_jump();
    let log = std::env::var_os("OPTIK_MIP_LOG").is_some();
    let presolve = presolve.to_string();
    let x = start.map(|sel| {
        let mut x = vec![0.0; columns.len()];
        for &c in sel {
            x[c] = 1.0;
        }
        x
    });
    let solve = move || {
        let mut model = pb.optimise(Sense::Minimise);
        model.make_quiet();
        if let Some(threads) = threads {
            model.set_option("threads", threads);
        }
        model.set_option("mip_rel_gap", 0.0);
        model.set_option("mip_abs_gap", 0.5);
        model.set_option("presolve", presolve.as_str());
        model.set_option("mip_heuristic_run_feasibility_jump", jump);
        if log {
            model.set_option("output_flag", true);
            model.set_option("log_to_console", true);
        }
        if let Some(tl) = limits.seconds {
            model.set_option("time_limit", tl.max(0.01));
        }
        if let Some(nodes) = limits.nodes {
            model.set_option("mip_max_nodes", nodes.min(i32::MAX as u64) as i32);
        }
        if let Some(x) = &x {
            // A rejected start only costs the seed; the solve stays correct.
            let _ = model.try_set_solution(Some(x), None, None, None);
        }
        // A HiGHS failure (an error status, not a limit) proves nothing and finds nothing.
        let solved = model.try_solve().ok()?;
        let chosen: Vec<usize> = solved
            .get_solution()
            .columns()
            .iter()
            .enumerate()
            .filter(|(_, &v)| v > 0.5)
            .map(|(c, _)| c)
            .collect();
        Some(Solved {
            status: solved.status(),
            nodes: crate::highs_ffi::mip_node_count(&solved),
            chosen,
            dual_bound: solved.double_info_value(c"mip_dual_bound").ok(),
        })
    };
    // Left at the run's deadline or a stop request (HiGHS can overrun its own limit).
    let Some(Solved {
        status,
        nodes,
        chosen,
        dual_bound,
    }) = crate::detached::run_detached(limits.abandon_at, solve).flatten()
    else {
        return MipOutcome {
            proven: false,
            best: None,
            seconds: t0.elapsed().as_secs_f64(),
            nodes: 0,
            bound: f64::NEG_INFINITY,
            left: true,
        };
    };
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
    let proven = matches!(
        status,
        HighsModelStatus::Optimal | HighsModelStatus::Infeasible
    );
    let bound = match (&best, status) {
        (_, HighsModelStatus::Infeasible) => f64::INFINITY,
        (Some((_, cost)), HighsModelStatus::Optimal) => *cost as f64,
        _ => stopped_bound(dual_bound),
    };
    MipOutcome {
        proven,
        best,
        seconds: t0.elapsed().as_secs_f64(),
        nodes,
        bound,
        left: false,
    }
}

/// The bound a stopped HiGHS MIP leaves: its dual bound less a tolerance (HiGHS works in
/// floating point with feasibility tolerances of 1e-6 to 1e-7; costs here are integers up to
/// about 10⁹), or −∞ when it has none (a limit before the root LP ends reads −∞ or NaN).
fn stopped_bound(dual_bound: Option<f64>) -> f64 {
    match dual_bound {
        Some(b) if b.is_finite() => b - 1e-6 * b.abs() - 1.0,
        _ => f64::NEG_INFINITY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Classes of 3 and 4 records among each record's 7 nearest neighbours, on `n` random
    /// points in eight dimensions, costed by their squared-distance pair sum over their size (the sse
    /// cost): a small microaggregation proof MIP whose root HiGHS does not always close.
    fn local_classes(n: usize, seed: u64) -> Vec<Column> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pts: Vec<[i64; 8]> = (0..n)
            .map(|_| std::array::from_fn(|_| rng.gen_range(0..100)))
            .collect();
        let d = |a: usize, b: usize| -> i64 {
            pts[a]
                .iter()
                .zip(&pts[b])
                .map(|(x, y)| (x - y) * (x - y))
                .sum()
        };
        let mut set = std::collections::BTreeSet::new();
        for r in 0..n {
            let mut near: Vec<usize> = (0..n).filter(|&j| j != r).collect();
            near.sort_by_key(|&j| (d(r, j), j));
            near.truncate(7);
            for a in 0..near.len() {
                for b in a + 1..near.len() {
                    let mut triple = vec![r, near[a], near[b]];
                    triple.sort_unstable();
                    set.insert(triple);
                    for &c in &near[b + 1..] {
                        let mut quad = vec![r, near[a], near[b], c];
                        quad.sort_unstable();
                        set.insert(quad);
                    }
                }
            }
        }
        set.into_iter()
            .map(|m: Vec<usize>| {
                let sum: i64 = (0..m.len())
                    .flat_map(|a| (a + 1..m.len()).map(move |b| (a, b)))
                    .map(|(a, b)| d(m[a], m[b]))
                    .sum();
                Column {
                    cost: sum / m.len() as i64,
                    members: m.into_iter().map(|i| i as u32).collect(),
                }
            })
            .collect()
    }

    /// Stopped by its node limit, the MIP's bound stays at or below the optimum over its
    /// columns (HiGHS's proven optimum without limits) and is finite once the root LP has ended;
    /// proven, it is the optimum. (Measured: two of the six roots stay open.)
    /// A MIP whose `abandon_at` has passed is left before HiGHS reports: nothing found, no
    /// bound, `left` set; with time to spare the same MIP is solved.
    #[test]
    fn a_mip_past_its_abandon_time_is_left() {
        let columns = local_classes(30, 1);
        let past = MipLimits {
            abandon_at: Some(Instant::now()),
            ..MipLimits::default()
        };
        let out = solve_set_partitioning(30, &columns, &[], None, past);
        assert!(out.left && !out.proven && out.best.is_none(), "{out:?}");
        assert_eq!(out.bound, f64::NEG_INFINITY);
        let later = MipLimits {
            abandon_at: Some(Instant::now() + std::time::Duration::from_secs(60)),
            ..MipLimits::default()
        };
        let out = solve_set_partitioning(30, &columns, &[], None, later);
        assert!(!out.left && out.proven, "{out:?}");
    }

    #[test]
    fn a_stopped_mip_bounds_its_columns() {
        let n = 90;
        let mut stopped = 0;
        for seed in 0..6 {
            let columns = local_classes(n, seed);
            let full = solve_set_partitioning(n, &columns, &[], None, MipLimits::default());
            assert!(full.proven);
            let opt = full.best.expect("feasible").1;
            let limits = MipLimits {
                nodes: Some(1),
                ..MipLimits::default()
            };
            let out = solve_set_partitioning(n, &columns, &[], None, limits);
            assert!(
                out.bound <= opt as f64,
                "seed {seed}: {} > {opt}",
                out.bound
            );
            if out.proven {
                assert_eq!(out.best.map(|b| b.1), Some(opt));
                assert_eq!(out.bound, opt as f64);
            } else {
                // Stopped after the root: a finite bound, below what it found.
                assert!(
                    out.bound.is_finite(),
                    "seed {seed}: no bound after the root"
                );
                let found = out.best.map_or(f64::INFINITY, |b| b.1 as f64);
                assert!(
                    out.bound < found,
                    "seed {seed}: bound {} ≥ {found}",
                    out.bound
                );
                stopped += 1;
            }
        }
        assert!(stopped > 0, "no MIP stopped early: the test checks nothing");
    }
}
