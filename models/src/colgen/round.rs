//! One pricing round of column generation (stabilised pricing, columns into the master) and the
//! pool bound that keeps the master small.

use super::column::Column;
use super::master::{LpSolution, Master};
use super::options::ColgenOptions;
use super::pricing::{self, search, Mode, Pairs, SearchOptions};
use super::run::{Run, PARTIAL_PRICING_NODES, PRICE_EPS};
use super::stabilisation::Smoothing;
use super::{centroid_pricing, pair_sum_pricing};
use crate::root_lp::Duals;
use crate::Instance;

/// The pricing search of a run for `mode`: the run's criterion, deadline and class constraints.
pub(super) fn pricing_options<'a>(
    opts: &'a ColgenOptions,
    run: &Run,
    mode: Mode,
) -> SearchOptions<'a> {
    SearchOptions {
        criterion: opts.criterion,
        mode,
        deadline: run.deadline,
        constraints: &opts.constraints,
        node_budget: None,
        branching: None,
        cover: opts.price_cover,
        settled: None,
        bound_at_deadline: false,
        minimise_tasks: false,
    }
}

/// Largest column pool, per record, before the master drops columns.
pub(super) const POOL_PER_RECORD: usize = 30;

/// Columns per record a compaction keeps (those of least reduced cost, besides every column
/// with a positive LP value and every column priced since the LP solve).
pub(super) const KEPT_PER_RECORD: usize = 15;

/// Bounds the master's column pool: past `POOL_PER_RECORD·n` columns, rebuilds it with the
/// columns of positive value in `sol`, the `KEPT_PER_RECORD·n` of least reduced cost at its duals,
/// and the columns added after it was solved. Keeps LP re-solves fast and memory bounded; the
/// dropped columns can come back through pricing.
pub(super) fn age_pool(master: &mut Master, sol: &LpSolution, n: usize) {
    if master.columns.len() <= POOL_PER_RECORD * n {
        return;
    }
    let seen = sol.x.len();
    let mut by_rc: Vec<(f64, usize)> = (0..seen)
        .map(|c| {
            let col = &master.columns[c];
            (sol.duals.reduced_cost(&col.members, col.cost), c)
        })
        .collect();
    by_rc.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut keep = vec![false; seen];
    for &(_, c) in by_rc.iter().take(KEPT_PER_RECORD * n) {
        keep[c] = true;
    }
    for (c, &v) in sol.x.iter().enumerate() {
        keep[c] |= v > 1e-9;
    }
    master.compact(|c| c >= seen || keep[c]);
}

/// What one pricing round did.
pub(super) struct Round {
    /// Columns added to the master.
    pub(super) added: usize,
    /// When none was added: the most negative reduced cost of the complete pricing at the
    /// master's duals (≥ −PRICE_EPS: the LP has converged).
    pub(super) min_rc: f64,
    /// The best Lagrangian bound of the round's complete pricings, for the problem the round
    /// priced (the whole instance at the root, a node's subproblem in the tree).
    pub(super) lagrange: Option<f64>,
}

/// A pricing round stopped by the time limit: why, and the best Lagrangian bound its earlier
/// (partial) searches proved before the stop, still valid for what the round priced.
pub(super) struct RoundStop {
    pub(super) why: &'static str,
    pub(super) lagrange: Option<f64>,
}

/// One pricing round: prices at the smoothed point (the master's duals when smoothing is off),
/// adds the columns whose reduced cost at the master's duals is negative, and on a mispricing
/// (none) moves the point toward the master's duals and prices again. Every complete pricing
/// yields a Lagrangian bound. `branching` restricts the columns to a branch-and-price node's.
#[allow(clippy::too_many_arguments, reason = "one round's context")]
pub(super) fn price_round(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &Run,
    master: &mut Master,
    sol: &LpSolution,
    mut smoothing: Option<&mut Smoothing>,
    branching: Option<&Pairs>,
    max_classes: f64,
) -> Result<Round, RoundStop> {
    let n = inst.n;
    let per_round = super::options::env_number::<f64>("OPTIK_PRICE_K")
        .map_or(n.max(50), |f| ((f * n as f64) as usize).max(50));
    let mode = Mode::Best {
        k: per_round,
        threshold: -PRICE_EPS,
    };
    let most_negative = |cols: &[(f64, Column)]| cols.iter().map(|c| c.0).fold(0.0, f64::min);
    let mut misprices = 0;
    let mut improved = false;
    let mut best_lagrange: Option<f64> = None;
    let mut note_bound = |l: f64| {
        best_lagrange = Some(best_lagrange.map_or(l, |b: f64| b.max(l)));
    };
    loop {
        let (point, alpha) = match smoothing.as_deref() {
            Some(s) => s.point(&sol.duals, misprices),
            None => (sol.duals.clone(), 0.0),
        };
        let searched = std::time::Instant::now();
        let mut found = search(
            inst,
            &point,
            &SearchOptions {
                node_budget: Some((PARTIAL_PRICING_NODES / n as u64).max(10_000)),
                branching,
                ..pricing_options(opts, run, mode)
            },
        );
        if found.timed_out {
            return Err(RoundStop {
                why: "time limit during pricing",
                lagrange: best_lagrange,
            });
        }
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            eprintln!(
                "exact pricing: {} columns, {} nodes, {} in {:.2} s",
                found.columns.len(),
                found.nodes,
                if found.partial { "partial" } else { "complete" },
                searched.elapsed().as_secs_f64()
            );
        }
        // A complete pricing gives a Lagrangian bound at the point priced: every partition costs
        // at least value(point) + the reduced costs its classes can sum to (one root task's
        // minimum per class, or (number of classes)·min_rc; `Found::lagrangian_sum`). A
        // partial one does too, from its tasks' minima and frontiers.
        let lagrange = |found: &pricing::Found, at: &Duals| {
            let l = at.value() + found.lagrangian_sum(max_classes as usize);
            if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                let most_negative = found.columns.iter().map(|c| c.0).fold(0.0, f64::min);
                let uniform = at.value() + max_classes * most_negative;
                eprintln!("lagrange {l:.1} (uniform {uniform:.1})");
            }
            l
        };
        if !found.partial {
            let l = lagrange(&found, &point);
            note_bound(l);
            if let Some(s) = smoothing.as_deref_mut() {
                improved |= s.offer(&point, l);
            }
        } else if found.root_minima.is_some() {
            // A stopped search still bounds every task (its frontier): a valid, weaker bound
            // for the run; the smoothing centre keeps to complete pricings.
            note_bound(lagrange(&found, &point));
        }
        let mut added = 0;
        for (rc, c) in std::mem::take(&mut found.columns) {
            let rc_out = if alpha == 0.0 {
                rc
            } else {
                sol.duals.reduced_cost(&c.members, c.cost)
            };
            if rc_out < -PRICE_EPS {
                added += master.add_column(c) as usize;
            }
        }
        if added > 0 {
            if let Some(s) = smoothing.as_deref_mut() {
                s.adapt(misprices > 0, improved);
            }
            return Ok(Round {
                added,
                min_rc: 0.0,
                lagrange: best_lagrange,
            });
        }
        if alpha > 0.0 {
            misprices += 1;
            continue;
        }
        let min_rc;
        if found.partial {
            // Only columns the master already holds (round-off): price completely.
            found = search(
                inst,
                &sol.duals,
                &SearchOptions {
                    branching,
                    ..pricing_options(opts, run, mode)
                },
            );
            if found.timed_out {
                return Err(RoundStop {
                    why: "time limit during pricing",
                    lagrange: best_lagrange,
                });
            }
            note_bound(lagrange(&found, &sol.duals));
            min_rc = most_negative(&found.columns);
            for (_, c) in std::mem::take(&mut found.columns) {
                added += master.add_column(c) as usize;
            }
        } else {
            min_rc = most_negative(&found.columns);
        }
        if let Some(s) = smoothing.as_deref_mut() {
            s.adapt(misprices > 0, improved);
        }
        return Ok(Round {
            added,
            min_rc,
            lagrange: best_lagrange,
        });
    }
}

/// Whether the run has a [`fast_round`]: sse's centroid descent or wcsd's grown classes, turned
/// on, without class constraints beyond k_i.
pub(super) fn has_fast_round(opts: &ColgenOptions) -> bool {
    opts.constraints.is_empty()
        && match opts.criterion {
            crate::Criterion::Sse => opts.centroid_pricing,
            crate::Criterion::Wcsd => opts.wcsd_pricing,
            _ => false,
        }
}

/// The root's cheap pricing before the exact round, without class constraints beyond k_i:
/// sse's centroid descent ([`ColgenOptions::centroid_pricing`]) or wcsd's grown classes
/// ([`ColgenOptions::wcsd_pricing`]). Returns the columns it added; with none, the exact round
/// follows (only it can say the LP has converged).
pub(super) fn fast_round(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &Run,
    master: &mut Master,
    sol: &LpSolution,
) -> usize {
    if !has_fast_round(opts) {
        return 0;
    }
    let search = match opts.criterion {
        crate::Criterion::Sse => centroid_pricing::columns,
        _ => pair_sum_pricing::columns,
    };
    let n = inst.n;
    let t = std::time::Instant::now();
    let kmax = inst.largest_k();
    let max_size = super::column::size_limit(&opts.constraints, kmax, n);
    let mut added = 0;
    for (_, c) in search(inst, &sol.duals, max_size, n.max(50), run.deadline) {
        added += master.add_column(c) as usize;
    }
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "{} pricing: {added} added in {:.2} s",
            opts.criterion.name(),
            t.elapsed().as_secs_f64()
        );
    }
    added
}
