//! The column-generation engine's stages: start, root column generation, LP rounding, and the
//! proof by enumeration (small gaps) or by branch-and-price (large ones).

use super::branch;
use super::column::Column;
use super::companion::{Link, RecordBounds};
use super::exchange;
use super::ladder::Ladder;
use super::master::{LpSolution, Master};
use super::options::{env_number, ColgenOptions, Proof};
use super::pricing::{search, Found, Mode, Pairs, SearchOptions};
use super::proof::MipLimits;
use super::round::{age_pool, fast_round, has_fast_round, price_round, pricing_options, Round};
use super::run::{ceil_bound, cost_cap, partition_of, Run};
use super::stabilisation::Smoothing;
use super::tight;
use super::{cover, cuts, dive, lp_primal, proof, start};
use crate::engine::{Engine, EngineError, EngineResult, EngineStats, Status};
use crate::root_lp::{Duals, OddSet, RootLp};
use crate::{ClassConstraints, Criterion, Instance, Partition};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Solves dbil or wcsd to proven optimality by column generation (or reports LB, UB and the gap
/// at the time limit or when the proof would enumerate more than `column_budget` columns).
pub fn solve_colgen(inst: &Instance, mut opts: ColgenOptions) -> Result<EngineResult, EngineError> {
    let criterion = opts.criterion;
    if !Engine::Colgen.optimises(criterion) {
        return Err(EngineError::UnsupportedCriterion {
            engine: Engine::Colgen,
            criterion,
        });
    }
    opts.constraints.validate(inst.n)?;
    if let Some(why) = opts.constraints.obvious_infeasibility(&inst.k) {
        return Ok(EngineResult {
            status: Status::Infeasible,
            note: Some(why),
            ..EngineResult::empty()
        });
    }
    let (mut run, mut master) = match start_run(inst, &mut opts) {
        Ok(x) => x,
        Err(r) => return Ok(*r),
    };
    let not_before = companion_not_before(inst, &opts, &run);
    let late_ok = inst.n >= IMPROVE_MIN_RECORDS || not_before.is_some();
    let companion = opts.companion.clone().filter(|_| late_ok);
    std::thread::scope(|scope| {
        // Stops the companion if the run unwinds before `finish` stopped it.
        let mut _guard = None;
        if let (Some(companion), Some((p, cost))) = (companion.as_ref(), run.best.clone()) {
            let (constraints, p, cost) = match tight::tight_companion_start(inst, &opts, &run) {
                Some((size, q, c)) => (ClassConstraints::capped(size), q, c),
                None => (opts.constraints.clone(), p, cost),
            };
            let link = Link::new(cost, constraints);
            run.companion = Some(Arc::clone(&link));
            _guard = Some(AbandonOnDrop(Arc::clone(&link)));
            let deadline = run.deadline;
            let bounds = RecordBounds {
                values: run.record_bounds.clone(),
                duals: false,
            };
            scope.spawn(move || link.drive(inst, bounds, companion, deadline, not_before, p));
        }
        Ok(
            match column_generation(inst, &opts, &mut run, &mut master) {
                Ok((sol, min_rc)) => prove(inst, criterion, &opts, run, &mut master, &sol, min_rc),
                Err(note) => {
                    run.stats.columns = master.columns.len();
                    run.finish(inst, Status::Feasible, Some(note.to_string()))
                }
            },
        )
    })
}

/// Tells the companion to stop when dropped (a no-op once the run's `finish` stopped it).
struct AbandonOnDrop(Arc<Link>);

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        self.0.abandon();
    }
}

/// Runs column generation (with cuts when `opts.cuts`) to convergence and returns the LP's
/// duals and an LP-rounded partition, or `None` when the LP did not converge in time.
pub fn root_lp(inst: &Instance, opts: ColgenOptions) -> Option<RootLp> {
    root_lp_with_nodes(inst, opts).map(|(lp, _)| lp)
}

/// [`root_lp`], and the converged master with its run, which go on to bound the CP engine's
/// nodes ([`super::node_bound::NodeLps`]).
pub fn root_lp_with_nodes(
    inst: &Instance,
    mut opts: ColgenOptions,
) -> Option<(RootLp, super::node_bound::NodeLps)> {
    if !opts.criterion.is_sum() || inst.n == 0 {
        return None;
    }
    let (mut run, mut master) = start_run(inst, &mut opts).ok()?;
    let (sol, min_rc) = column_generation(inst, &opts, &mut run, &mut master).ok()?;
    let z = sol.duals.value();
    lp_rounding(inst, &opts, &mut run, &master, &sol);
    primal_step(inst, opts.criterion, &mut run, &master, &sol);
    let pi = sol.duals.pi.clone();
    let lp = RootLp {
        primal: run.best.clone(),
        duals: sol.duals,
        z,
        min_rc,
        columns: master.columns.len(),
        cuts: master.cuts.len(),
        seconds: run.start.elapsed().as_secs_f64(),
    };
    let nodes = super::node_bound::NodeLps::new(inst, opts, run, master, z, pi);
    Some((lp, nodes))
}

/// Incumbent from the warm starts (or the greedy cover) and the starting master; an empty
/// instance ends the run at once (`Err`, its finished result).
fn start_run(
    inst: &Instance,
    opts: &mut ColgenOptions,
) -> Result<(Run, Master), Box<EngineResult>> {
    let criterion = opts.criterion;
    let n = inst.n;
    let mut run = Run {
        start: Instant::now(),
        deadline: opts.time_limit.map(|t| Instant::now() + t),
        best: None,
        lower: 0.0,
        stats: EngineStats::default(),
        timeline: Vec::new(),
        on_solution: opts.on_solution.take(),
        on_bound: opts.on_bound.take(),
        reported: i64::MIN,
        cap: cost_cap(inst, criterion),
        companion: None,
        criterion,
        record_bounds: Vec::new(),
    };
    if n == 0 {
        return Err(Box::new(run.finish(
            inst,
            Status::Infeasible,
            Some("empty instance".into()),
        )));
    }
    // Incumbent: the best valid warm start, or the greedy cover (when they meet the constraints).
    let extra = &opts.constraints;
    let valid = |p: &Partition| {
        p.len() == n && p.violations(&inst.k).is_empty() && extra.partition_ok(p.labels())
    };
    let mut seeds: Vec<Partition> = opts
        .warm_start
        .iter()
        .filter(|p| valid(p))
        .cloned()
        .collect();
    let nwarm = seeds.len();
    seeds.push(start::greedy_cover(inst));
    seeds.retain(|p| valid(p));
    for (s, p) in seeds.iter().enumerate() {
        let cost = start::partition_cost(inst, criterion, p);
        run.offer(inst, p.clone(), cost, s < nwarm);
    }
    let mut master = Master::new(n);
    if seeds.is_empty() {
        // No partition known: artificial singletons costing more than any partition keep the
        // master feasible; the proof then settles feasibility.
        master.add_artificials(run.cap as f64);
    }
    for p in &seeds {
        add_classes(inst, criterion, &mut master, p);
    }
    if criterion == Criterion::Sse && extra.is_empty() {
        for c in super::neighbours::nearest_columns(inst, criterion) {
            master.add_column(c);
        }
    }
    // Least-slack columns against the per-record bounds m_i.
    let t = Instant::now();
    let m = start::record_bounds(inst, criterion, extra.diversity.as_ref());
    run.record_bounds = m.clone();
    let mean = m.iter().sum::<f64>() / n as f64;
    let mut tau = mean.max(1.0);
    let seed_duals = Duals {
        pi: m.clone(),
        cuts: Vec::new(),
    };
    // Large classes make this search slow (sse at k = 10 on Census: the whole 10-minute limit,
    // before any LP was solved): it gets a share of the limit and keeps what it found by then.
    let seed_end = t + opts
        .time_limit
        .map_or(Duration::from_secs(30), |l| l.mul_f64(SEED_SHARE));
    let seed_deadline = Some(run.deadline.map_or(seed_end, |d| d.min(seed_end)));
    for _ in 0..6 {
        let found = search(
            inst,
            &seed_duals,
            &SearchOptions {
                deadline: seed_deadline,
                ..pricing_options(
                    opts,
                    &run,
                    Mode::Best {
                        k: 5 * n,
                        threshold: tau,
                    },
                )
            },
        );
        let full = found.columns.len() >= 5 * n;
        if full || found.timed_out || run.out_of_time() {
            for (_, c) in found.columns {
                master.add_column(c);
            }
            break;
        }
        tau *= 2.0;
        if tau > 64.0 * mean.max(1.0) {
            for (_, c) in found.columns {
                master.add_column(c);
            }
            break;
        }
    }
    run.stats.pricing_time_s += t.elapsed().as_secs_f64();
    run.raise_lower(m.iter().sum::<f64>());
    Ok((run, master))
}

/// Prices and separates cuts until the LP (with its cuts) is optimal; returns the last LP
/// solution and its most negative reduced cost, or why it stopped early. Until the fast
/// pricing's tail or first stall the master may be solved at interior points
/// ([`ColgenOptions::interior_descent`]); it leaves solving at vertices.
fn column_generation(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &mut Master,
) -> Result<(LpSolution, f64), &'static str> {
    master.set_interior(
        opts.interior_descent && inst.n >= opts.stall_step_min_records && has_fast_round(opts),
    );
    // Exact rounds only (the fast rounds' stalls round the LP's x, which exchanges blur).
    if opts.exchanges > 0 && !has_fast_round(opts) && run.stats.lp_bound.is_none() {
        let list = exchange::exchanges(
            inst,
            opts.criterion,
            &opts.constraints,
            opts.exchanges,
            opts.exchange_scale,
        );
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            eprintln!("exchange columns: {}", list.len());
        }
        master.add_exchanges(&list);
    }
    let converged = converge(inst, opts, run, master);
    master.set_interior(false);
    converged
}

/// [`column_generation`]'s rounds.
fn converge(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &mut Master,
) -> Result<(LpSolution, f64), &'static str> {
    let n = inst.n;
    let max_classes = inst.max_classes().max(1) as f64;
    let mut cut_set: HashSet<OddSet> = HashSet::new();
    let cut_cap = if opts.cuts {
        opts.cuts_per_record.0 * n
    } else {
        0
    };
    let per_round_cuts = (n / 4).max(10);
    let mut cut_rounds_without_gain = 0;
    let mut last_cut_bound = f64::NEG_INFINITY;
    let mut smoothing = (opts.smoothing > 0.0).then(|| {
        let alpha = opts.smoothing;
        let m = run.record_bounds.clone();
        let bound = m.iter().sum::<f64>();
        Smoothing::new(
            Duals {
                pi: m,
                cuts: Vec::new(),
            },
            bound,
            alpha,
        )
    });
    let mut improved_early = false;
    // While the fast pricing (sse's centroid descent, wcsd's grown classes; the "descent"
    // below) finds columns, the exact rounds (the only ones that bound)
    // still take this share of the time (`OPTIK_CENTROID_EXACT_SHARE` in (0, 1); unset: they
    // wait until the descent finds nothing). The last exact round's seconds and end.
    let exact_share =
        env_number::<f64>("OPTIK_CENTROID_EXACT_SHARE").filter(|s| *s > 0.0 && *s < 1.0);
    let mut last_exact = (0.0, Instant::now());
    // Whether the descent has found columns, and whether it has stalled since.
    let mut descent = (false, false);
    // The LP value at the last stall's restricted master MIP, when it ended and its seconds.
    let mut stall_mip_lp = f64::INFINITY;
    let mut stall_mip_time = (Instant::now(), 0.0);
    let mut ladder = Ladder::default();
    // The first stall's dive when it waits for the ladder's first bound (see
    // `ColgenOptions::ladder_first_after`).
    let mut deferred_dive: Option<DeferredDive> = None;
    // Whether the closing dive has run (see `ColgenOptions::closing_dive`).
    let mut closing_dive_done = false;
    // Seconds the dives took: the cut rounds' clock leaves them out (see `CUT_TIME_SHARE`).
    let mut dive_s = 0.0;
    let early_at = early_search_at(inst, opts, run);
    // The most columns a descent round at an interior point added.
    let mut interior_peak = 0;
    let early_due =
        |improved_early: bool| !improved_early && early_at.is_some_and(|at| Instant::now() >= at);
    let (sol, min_rc): (LpSolution, f64) = loop {
        if run.out_of_time() {
            return Err("time limit during column generation");
        }
        if let Some(p) = run.sync_companion(inst) {
            add_classes(inst, opts.criterion, master, &p);
        }
        if early_due(improved_early) {
            improved_early = true;
            if improve_early(inst, opts, run) {
                if let Some((p, _)) = &run.best {
                    add_classes(inst, opts.criterion, master, p);
                }
            }
        }
        let Some(sol) = master.solve(run.remaining()) else {
            if run.lp_timed_out() {
                return Err("time limit in the master LP");
            }
            if master.drop_exchanges() {
                // The plain master again (one failure seen since δ gained its extra unit, in
                // session 45: docs/exact.md, the footnote in "Exchange columns").
                if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                    eprintln!("exchanges dropped after a failed master LP");
                }
                continue;
            }
            // HiGHS failed twice with time left: rather than end the run early (the whole
            // diabetes table, k = 10: at 11 s of 60), the companion gets the time left on
            // every core; the bound stays what it is.
            run.stats.lp_failure = master.failure();
            run.hand_over(inst);
            return Err("master LP not solved");
        };
        run.stats.lp_time_s += sol.seconds;
        run.stats.pricing_rounds += 1;
        run.stats.interior_solves += sol.interior as u64;
        run.stats.exchange_solves += master.has_exchanges() as u64;
        // Progress trace for tuning (bound, pool and cut counts per round).
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            eprintln!(
                "round {} lp {:.1} columns {} cuts {} t {:.2}",
                run.stats.pricing_rounds,
                sol.objective,
                master.columns.len(),
                master.cuts.len(),
                run.start.elapsed().as_secs_f64()
            );
        }
        let t = Instant::now();
        // A pricing round may take minutes at large k: it stops when the early search is due
        // (the round is then priced again after it).
        let hard = run.deadline;
        let pricing_deadline = match (improved_early, early_at) {
            (false, Some(at)) => Some(hard.map_or(at, |h| h.min(at))),
            _ => hard,
        };
        run.deadline = pricing_deadline;
        let fast_added = fast_round(inst, opts, run, master, &sol);
        descent.0 |= fast_added > 0;
        if sol.interior {
            interior_peak = interior_peak.max(fast_added);
            if fast_added == 0 {
                // The descent stalled at an interior point: the LP again at a vertex (exact,
                // with a basis) before the stall's steps, the ladder or an exact round use it.
                master.set_interior(false);
                run.deadline = hard;
                run.stats.pricing_time_s += t.elapsed().as_secs_f64();
                continue;
            }
            if interior_peak >= n / 2 && fast_added < n / 8 {
                // The descent's tail: a few columns a round, which a warm simplex re-solve
                // takes in a fraction of an interior solve's time (Census, k = 10: 0.1–0.4 s
                // against 1.7 s; 47 interior rounds of 1–20 columns took 82 s). The peak
                // must be the descent's (Census, k = 10: 850–950 columns a round): while it
                // ramps up, rounds of 1, 8, …, 124, 301, 123 columns are not a tail (a
                // peak of n/4 switched there at 38 s, and the descent ran at vertices).
                master.set_interior(false);
            }
        }
        if fast_added == 0 && descent.0 && !descent.1 && inst.n >= opts.stall_step_min_records {
            // The descent's first stall: the LP is near its value (as far as the
            // descent can tell) long before an exact round can certify it at large k, and
            // the proof's primal steps would come only after that. Round it and solve its
            // restricted master now (Tarragona, k = 10: the stall comes at about 190 s of
            // 600). Small instances (the search's sub-problems among them) reach the proof's
            // primal steps fast. wcsd at 1,000 records (Adult, k = 5): the stall's MIP and
            // dive took the incumbent from 1,786.7 to 1,688.4 by 10 s.
            descent.1 = true;
            run.deadline = hard;
            (stall_mip_lp, stall_mip_time) = stall_mip(inst, opts, run, master, &sol);
            if opts.dive && run.ub() as f64 > (1.0 + STALL_DIVE_GAP) * sol.objective {
                // Census, k = 10: the LP is fractional at the stall and the MIP over its
                // columns leaves the incumbent 7% above it. A dive priced by the descent
                // alone builds the columns an integral solution needs.
                let share = if run.ub() as f64 > (1.0 + WIDE_STALL_GAP) * sol.objective {
                    WIDE_STALL_DIVE_SHARE
                } else {
                    STALL_DIVE_SHARE
                };
                if opts.bound_ladder && stall_is_late(opts, run) {
                    ladder.start(sol.duals.value(), run.lower);
                }
                if !ladder.active() {
                    dive_s += dive_and_restore(inst, opts, run, master, sol, share, Stage::Stall);
                    continue;
                }
                deferred_dive = Some(DeferredDive::new(share, run.remaining()));
            }
            run.deadline = pricing_deadline;
        } else if fast_added == 0
            && deferred_dive.is_some_and(|d| ladder.bounded_or_done() || d.rung_over())
        {
            // The ladder has bounded the run (or its rung's deadline came): the stall's dive
            // now, with its share of the time left now or the seconds kept for it at the
            // stall, whichever is more.
            run.deadline = hard;
            let share = deferred_dive
                .take()
                .map_or(STALL_DIVE_SHARE, |d| d.share_now(run.remaining()));
            run.stats.deferred_stall_dives += 1;
            dive_s += dive_and_restore(inst, opts, run, master, sol, share, Stage::Stall);
            continue;
        } else if fast_added == 0
            && descent.1
            && sol.objective < (1.0 - RESTALL_LP_DROP) * stall_mip_lp
            && run.ub() as f64 > sol.objective + 1.0
            && stall_mip_time.0.elapsed().as_secs_f64() >= opts.restall_spacing * stall_mip_time.1
        {
            // A later stall, after the ladder's columns moved the LP on: the first stall can
            // come early, and its MIP decides the incumbent (Tarragona, k = 10: 30.56 IL
            // from a stall at LP 326.98M, 30.17 from one at 326.51M; the LP went on to
            // 326.48M in the first run). The MIP over the moved LP's columns is cheap (1–2 s).
            run.deadline = hard;
            (stall_mip_lp, stall_mip_time) = stall_mip(inst, opts, run, master, &sol);
            if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                eprintln!(
                    "stall mip again at lp {:.1}: ub {} t {:.2}",
                    sol.objective,
                    run.ub(),
                    run.start.elapsed().as_secs_f64()
                );
            }
            run.deadline = pricing_deadline;
        }
        if fast_added == 0 && descent.0 && opts.bound_ladder {
            ladder.start(sol.duals.value(), run.lower);
        }
        if fast_added == 0
            && !closing_dive_done
            && deferred_dive.is_none()
            && closing_dive_due(opts, run, &ladder, &sol)
            && descent.1
        {
            // The ladder has nothing left that ends in the time left (Census, k = 10: done
            // at 500–517 s with exact rounds after it, or a rung the deadline stopped after
            // 65 s), and the incumbent is still over 1% above the LP: one more dive, from
            // the LP as it is now, with all the time left.
            closing_dive_done = true;
            run.deadline = hard;
            run.stats.closing_dives += 1;
            dive_s += dive_and_restore(inst, opts, run, master, sol, 1.0, Stage::Closing);
            continue;
        }
        if fast_added == 0 && ladder.active() {
            // The ladder's rung instead of an exact round: it bounds, or adds columns. While
            // the stall's dive waits, the rung leaves it the seconds kept for it (stopped by
            // that deadline, the rung still bounds, and the dive runs next).
            let rung_end = deferred_dive.and_then(|d| d.rung_end);
            if let Some(end) = rung_end {
                run.deadline = Some(run.deadline.map_or(end, |d| d.min(end)));
            }
            ladder.set_own_deadline(rung_end.is_some());
            let step = ladder.step(inst, opts, run, master, &sol, max_classes);
            run.deadline = hard;
            run.stats.pricing_time_s += t.elapsed().as_secs_f64();
            match step {
                Ok(added) => {
                    if added > 0 {
                        age_pool(master, &sol, n);
                    }
                    continue;
                }
                Err(_)
                    if (early_due(improved_early) || deferred_dive.is_some())
                        && !run.out_of_time() =>
                {
                    continue
                }
                Err(stop) => return Err(stop.why),
            }
        }
        let exact_due = fast_added == 0
            || exact_share.is_some_and(|share| {
                last_exact.1.elapsed().as_secs_f64() * share >= last_exact.0 * (1.0 - share)
            });
        let round = if exact_due {
            let started = Instant::now();
            let round = price_round(
                inst,
                opts,
                run,
                master,
                &sol,
                smoothing.as_mut(),
                None,
                max_classes,
            );
            last_exact = (started.elapsed().as_secs_f64(), Instant::now());
            round.map(|r| Round {
                added: r.added + fast_added,
                ..r
            })
        } else {
            Ok(Round {
                added: fast_added,
                min_rc: 0.0,
                lagrange: None,
            })
        };
        run.deadline = hard;
        run.stats.pricing_time_s += t.elapsed().as_secs_f64();
        let round = round.map_err(|stop| {
            // A stopped round keeps what its earlier searches proved.
            if let Some(l) = stop.lagrange {
                run.raise_lower(l);
            }
            stop.why
        });
        if round.is_err() && early_due(improved_early) && !run.out_of_time() {
            continue;
        }
        let Round {
            added,
            min_rc,
            lagrange,
        } = round?;
        if let Some(l) = lagrange {
            run.raise_lower(l);
        }
        if added > 0 {
            // Another LP solve follows: the pool may shrink now (the solution's indices die).
            age_pool(master, &sol, n);
            continue;
        }
        if master.drop_exchanges() {
            // Converged with the exchange columns: the plain master converges from here.
            if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                eprintln!(
                    "exchanges dropped at lp {:.1} (y {:.2}) t {:.2}",
                    sol.objective,
                    sol.exchanged,
                    run.start.elapsed().as_secs_f64()
                );
            }
            continue;
        }
        // Converged: the LP bound is exact (up to PRICE_EPS per class).
        if run.stats.lp_bound.is_none() {
            run.stats.lp_bound = Some(sol.objective);
            run.stats.lp_converged_s = Some(run.start.elapsed().as_secs_f64());
            post_duals(opts, run, master, &sol);
        }
        run.stats.lp_bound_cuts = Some(sol.objective);
        if master.cuts.is_empty() && early_due(improved_early) {
            // A root LP that converged slowly leaves little time: the incumbent gets the LP's
            // rounding and the improver before the cuts (both run again before the proof).
            lp_rounding(inst, opts, run, master, &sol);
            improve_incumbent(inst, opts, run, sol.duals.value());
        } else if master.cuts.is_empty() && !improved_early && run.companion.is_some() {
            // The first convergence: the LP's rounding and its dive restart the companion from
            // there (the LP is solved again afterwards, then the cuts come).
            lp_rounding(inst, opts, run, master, &sol);
            // Fast roots and small gaps are the proof's (80/20 on 1,000 records: proven in
            // 1.3 s, 2.4 s with a dive first).
            let slow = Instant::now() >= slow_root_at(opts, run);
            if opts.dive && opts.root_dive && slow && opts.proof.tree(sol.objective, run.ub()) {
                dive_s += dive_and_restore(
                    inst,
                    opts,
                    run,
                    master,
                    sol,
                    opts.root_dive_share,
                    Stage::Root,
                );
                improved_early = true;
                continue;
            }
            run.sync_companion(inst);
        } else if !master.cuts.is_empty() && opts.cut_rounding {
            // The LP after a cut round rounds to another partition (Adult 500, k = 10: the
            // cut rounds ran from 8.5 s to 26.7 s of a minute, and the rounding after the last
            // was 1.4% below the companion's partition): each one is offered, and the
            // companion goes on from it when it is better (at the next sync: the loop's top,
            // or the proof's).
            lp_rounding(inst, opts, run, master, &sol);
            run.stats.cut_roundings += 1;
        }
        // Past the first convergence the search no longer runs "early".
        improved_early = true;
        let gain = sol.objective - last_cut_bound;
        // Cut rounds stop at 40% of the time limit: on Census, k = 5, they ran from the LP's
        // convergence at 151 s to the limit (3,403 cuts, each round slower), and the run
        // never reached its primal steps and proof (gap 1.28% against 0.51% before).
        let cut_time = cuts_in_time(opts, run.start.elapsed().as_secs_f64(), dive_s);
        if cut_time && master.cuts.len() < cut_cap && ceil_bound(run.lower) < run.ub() {
            let gap = (run.ub() as f64 - sol.objective).max(0.0);
            if !cut_round_gained(gain, sol.objective, gap, opts.root_cut_tail_for(inst)) {
                cut_rounds_without_gain += 1;
            } else {
                cut_rounds_without_gain = 0;
            }
            last_cut_bound = sol.objective;
            if cut_rounds_without_gain < 3 {
                let limit = per_round_cuts.min(cut_cap - master.cuts.len());
                let new = cuts::separate(
                    &master.columns,
                    &sol.x,
                    &cut_set,
                    0.02,
                    limit,
                    &cuts::Growth {
                        // After a round without gain, the larger sets grow beside the
                        // violated triples: on Tarragona, k = 3, the few triples each round
                        // after the first growth gained nothing, and three such rounds ended
                        // the cuts at 332 (LP 1,566.6553 SSE against 1,566.658 with 655).
                        after_triples: cut_rounds_without_gain == 0,
                        ..cuts::Growth::after_triples(
                            opts.cut_set_max,
                            cuts::growth_budget(opts.time_limit),
                            run.deadline,
                        )
                    },
                );
                if !new.is_empty() {
                    for (t, _) in new {
                        cut_set.insert(t.clone());
                        master.add_cut(t);
                    }
                    run.stats.cuts = master.cuts.len();
                    run.stats.large_cuts = master.large_cuts();
                    continue;
                }
            }
        }
        break (sol, min_rc);
    };
    run.stats.columns = master.columns.len();
    Ok((sol, min_rc))
}

/// Proof stage: primal steps at the converged root LP `sol`, then the proof ([`settle`]).
fn prove(
    inst: &Instance,
    criterion: Criterion,
    opts: &ColgenOptions,
    mut run: Run,
    master: &mut Master,
    sol: &LpSolution,
    min_rc: f64,
) -> EngineResult {
    lp_rounding(inst, opts, &mut run, master, sol);
    // The MIP stays before the tree's dive: it often brings a small gap under the 0.5% of the
    // enumeration proof (80/20 on 1,000 Adult records: proven in 0.9 s; 8.4 s by the tree
    // without it).
    primal_step(inst, criterion, &mut run, master, sol);
    improve_incumbent(inst, opts, &mut run, sol.duals.value());
    settle(inst, opts, run, master, sol, min_rc)
}

/// The proof from the converged root LP `sol`: branch-and-price for a wide gap (until the
/// incumbent comes within the enumeration's reach; with a time limit, after the
/// enumeration's first stage as a probe, `ColgenOptions::proof_probe_for`), else enumerate
/// every column that can belong to a solution better than the incumbent, in stages of
/// growing reduced-cost threshold, and solve the set-partitioning MIP over them.
fn settle(
    inst: &Instance,
    opts: &ColgenOptions,
    mut run: Run,
    master: &mut Master,
    sol: &LpSolution,
    min_rc: f64,
) -> EngineResult {
    let n = inst.n;
    let criterion = opts.criterion;
    let z = sol.duals.value();
    // Any solution of cost ≤ UB − 1 has Σ x_C rc_C ≤ UB − 1 − z; every rc ≥ min_rc (≤ 0).
    let slack = inst.max_classes().max(1) as f64 * (-min_rc).max(0.0) + 1e-6 * z.abs().max(1.0);
    let wide = opts.proof.tree(z, run.ub());
    // Auto, with a time limit: a wide gap first gets the enumeration's first stage, its MIP
    // limited to a share of the time left (`ColgenOptions::proof_probe_for`).
    let mut probe = match opts.proof_probe_for(inst) {
        Some(share)
            if wide
                && opts.proof == Proof::Auto
                && opts.time_limit.is_some()
                && inst.n < PROBE_MAX_RECORDS =>
        {
            Some(share)
        }
        _ => None,
    };
    if wide && probe.is_none() && still_wide_after_tight(inst, opts, &mut run, z) {
        // Auto: the tree gives way to the enumeration if the incumbent comes close enough.
        let enumerate_from = (opts.proof == Proof::Auto).then_some(z);
        run = match prove_by_tree(inst, opts, run, master, sol, enumerate_from) {
            Ok(result) => return result,
            Err(run) => *run,
        };
    }
    if probe.is_some() {
        run.stats.proof_probes += 1;
    }
    let mut theta: Option<f64> = None; // threshold below which every column is in the set

    // The cover search while it keeps up: not after a stage it did not finish (the next have
    // more columns and a wider reach), nor where a partition has too many classes.
    let mut cover = opts
        .proof_cover
        .filter(|_| inst.max_classes() <= cover::MAX_CLASSES);
    loop {
        run.sync_companion(inst);
        let target = run.ub_or_cap() as f64 - 1.0 - z + slack;
        if target < 0.0 {
            return run.finish(inst, Status::Optimal, None);
        }
        if run.out_of_time() {
            return run.finish(
                inst,
                Status::Feasible,
                Some("time limit during the proof".into()),
            );
        }
        let t = Instant::now();
        let (cols, complete_to) = match theta {
            None => {
                // Stage 1: every column below the target when there are at most 40n of them
                // (one MIP: on Tarragona, k = 3, a MIP over the 20n best of 19,916 columns
                // took 374 s and a second over all of them did not end in 163 s), else the
                // 20n best.
                let mode = Mode::All {
                    threshold: target,
                    budget: STAGE_ONE_ALL * n,
                };
                let Some(all) = enumerate(inst, sol, opts, &run, mode) else {
                    return run.finish(inst, Status::Feasible, Some(ENUMERATION_STOPPED.into()));
                };
                if !all.over_budget {
                    (all.columns, target)
                } else {
                    drop(all);
                    let k = 20 * n;
                    let mode = Mode::Best {
                        k,
                        threshold: target,
                    };
                    let Some(found) = enumerate(inst, sol, opts, &run, mode) else {
                        let note = Some(ENUMERATION_STOPPED.into());
                        return run.finish(inst, Status::Feasible, note);
                    };
                    let reach = if found.columns.len() < k {
                        target
                    } else {
                        // every column strictly below the k-th reduced cost is present
                        found.columns.last().map_or(target, |c| c.0) - 1e-9
                    };
                    (found.columns, reach)
                }
            }
            Some(prev) => {
                let th = target.min((2.0 * prev).max(target / 16.0).max(prev + 1.0));
                let mode = Mode::All {
                    threshold: th,
                    budget: opts.column_budget,
                };
                let Some(found) = enumerate(inst, sol, opts, &run, mode) else {
                    return run.finish(inst, Status::Feasible, Some(ENUMERATION_STOPPED.into()));
                };
                if found.over_budget {
                    run.stats.pricing_time_s += t.elapsed().as_secs_f64();
                    if opts.proof == Proof::Enumeration {
                        let note = format!(
                            "column budget {} exceeded at reduced-cost threshold {th:.1}",
                            opts.column_budget
                        );
                        return run.finish(inst, Status::Feasible, Some(note));
                    }
                    // Too many columns below the gap: branching needs none of them.
                    drop(found);
                    return match prove_by_tree(inst, opts, run, master, sol, None) {
                        Ok(result) => result,
                        // Not asked for: the tree never gives way here.
                        Err(run) => run.finish(inst, Status::Feasible, None),
                    };
                }
                (found.columns, th)
            }
        };
        run.stats.pricing_time_s += t.elapsed().as_secs_f64();
        run.stats.enumerated_columns = cols.len();
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            eprintln!(
                "proof: {} columns below {complete_to:.1} (target {target:.1}) in {:.2} s, t {:.2}",
                cols.len(),
                t.elapsed().as_secs_f64(),
                run.start.elapsed().as_secs_f64()
            );
        }
        // A probe's search gets the probe's share of its own share, as its MIP does.
        let settled = cover.is_some_and(|share| {
            let share = share * probe.unwrap_or(1.0);
            cover_round(inst, share, &mut run, &cols, complete_to, z, slack)
        });
        if !settled {
            cover = None;
        }
        let proven = if settled {
            true
        } else {
            let columns: Vec<Column> = cols.into_iter().map(|c| c.1).collect();
            let left = run.remaining().map(|left| left * probe.unwrap_or(1.0));
            let limits = MipLimits {
                seconds: match (left, opts.proof_mip_seconds) {
                    (Some(l), Some(cap)) => Some(l.min(cap)),
                    (l, cap) => l.or(cap),
                },
                nodes: opts.proof_mip_nodes,
                ..MipLimits::default()
            };
            let out = mip_round(inst, criterion, &mut run, columns, &master.cuts, limits);
            if !out.proven {
                // A partition better than the MIP's bound uses a column outside the set, whose
                // reduced cost is at least `complete_to`.
                if opts.proof_mip_bound {
                    run.raise_lower(out.bound.min(z + complete_to - slack));
                }
                if probe.is_none() {
                    if opts.proof_mip_nodes.is_none() && run.remaining().is_some() {
                        // Stopped by the clock, a margin before the deadline (`mip_seconds`:
                        // 3.5 s of a 60 s run whose proof MIP started at 24 s): the companion
                        // takes it.
                        run.hand_over(inst);
                    }
                    return run.finish(
                        inst,
                        Status::Feasible,
                        Some("time limit in the proof MIP".into()),
                    );
                }
            }
            out.proven
        };
        if proven {
            let target = run.ub_or_cap() as f64 - 1.0 - z + slack;
            if complete_to >= target {
                return run.finish(inst, Status::Optimal, None);
            }
            // No better solution uses only columns below complete_to: raise the bound.
            run.raise_lower(z + complete_to - slack);
            theta = Some(complete_to.max(1e-3));
        }
        // After the probe, a gap still too wide for the enumeration goes to the tree, which
        // gives way to the enumeration again if the incumbent comes close enough.
        if probe.take().is_some()
            && opts.proof.tree(z, run.ub())
            && still_wide_after_tight(inst, opts, &mut run, z)
        {
            run = match prove_by_tree(inst, opts, run, master, sol, Some(z)) {
                Ok(result) => return result,
                Err(run) => *run,
            };
        }
    }
}

/// A stage of the enumeration proof settled by the cover search ([`cover::cheapest_cover`]
/// over `cols`, every column below `complete_to` at the root LP's duals of value `z`, for
/// `share` of the time left): its best partition is offered to the run, and true is returned
/// when the search ended in its time.
fn cover_round(
    inst: &Instance,
    share: f64,
    run: &mut Run,
    cols: &[(f64, Column)],
    complete_to: f64,
    z: f64,
    slack: f64,
) -> bool {
    let seconds = run.remaining().map_or(cover::MAX_SECONDS, |left| {
        (left * share).min(cover::MAX_SECONDS)
    });
    let t = Instant::now();
    let deadline = t + Duration::from_secs_f64(seconds);
    let found = cover::cheapest_cover(
        inst.n,
        cols,
        complete_to,
        z,
        slack,
        run.ub_or_cap(),
        Some(deadline),
    );
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "cover over {} columns (limit {seconds:.1} s): complete {}, best {:?}, {} nodes, {:.2} s",
            cols.len(),
            found.complete,
            found.best.as_ref().map(|b| b.1),
            found.nodes,
            t.elapsed().as_secs_f64()
        );
    }
    if let Some((sel, cost)) = &found.best {
        let chosen: Vec<&Column> = sel.iter().map(|&c| &cols[c].1).collect();
        run.offer(inst, partition_of(inst.n, &chosen), *cost, false);
    }
    run.stats.cover_stages += u64::from(found.complete);
    found.complete
}

/// Before the tree: the tight phase when it applies ([`tight::tight_run`]); whether the gap
/// at the root LP's value `z` is still too wide for the enumeration after it.
fn still_wide_after_tight(inst: &Instance, opts: &ColgenOptions, run: &mut Run, z: f64) -> bool {
    if let Some(mut tight_opts) = tight::tight_run(inst, opts, run) {
        // It has a companion only once the run's own may have started (its hand-overs would
        // start one at once).
        if companion_not_before(inst, opts, run).is_some_and(|at| Instant::now() < at) {
            tight_opts.companion = None;
        }
        let result = solve_colgen(inst, tight_opts);
        tight::offer(inst, opts, run, result);
    }
    opts.proof.tree(z, run.ub())
}

/// The columns `mode` selects at the root LP's duals, or `None` when the deadline stopped the
/// search.
fn enumerate(
    inst: &Instance,
    sol: &LpSolution,
    opts: &ColgenOptions,
    run: &Run,
    mode: Mode,
) -> Option<Found> {
    let found = search(inst, &sol.duals, &pricing_options(opts, run, mode));
    (!found.timed_out).then_some(found)
}

/// The note of a run the deadline stopped while the proof enumerated columns.
const ENUMERATION_STOPPED: &str = "time limit during enumeration";

/// Whether a root cut round that raised the LP (now `lp`) by `gain`, against a gap `gap` to the
/// incumbent, counts as a gain (three rounds in a row without one end the cuts). It must close
/// 2e-6 of the LP's value or 1% of the gap, whichever is less: on Tarragona, k = 3, the odd-set
/// cuts leave a gap of 0.0008%, and rounds that closed a tenth of it each counted as without
/// gain. Against a wide gap it must close the share `tail` of it too (diabetes, 200 records,
/// k = 10: rounds of 0.01 against a gap of 23 ran from 7 s to 33 s and raised the bound by
/// 0.24).
fn cut_round_gained(gain: f64, lp: f64, gap: f64, tail: Option<f64>) -> bool {
    let absolute = (2e-6 * lp.abs().max(1.0)).min(0.01 * gap);
    gain >= absolute.max(tail.unwrap_or(0.0) * gap)
}

/// Share of the time limit after which the root separates no more cuts.
const CUT_TIME_SHARE: f64 = 0.4;

/// Whether the root may still separate cuts `elapsed` seconds into the run, of which the
/// dives took `dive_s`: the cut rounds' clock leaves the dives out (unless
/// `OPTIK_CUT_CLOCK=total`). Adult, 1,000 records, k = 5, 60 s: the root converged at 13.6 s,
/// its dive ended at 22.2 s and the LP was solved again by 24.7 s, past the 24 s mark, so the
/// root got no cut at all (bound 1,159.64, against 1,173.1 with the cuts).
fn cuts_in_time(opts: &ColgenOptions, elapsed: f64, dive_s: f64) -> bool {
    let clock = if opts.cut_clock_skips_dives {
        elapsed - dive_s
    } else {
        elapsed
    };
    opts.time_limit
        .is_none_or(|l| clock < CUT_TIME_SHARE * l.as_secs_f64())
}

/// The proof probe runs below this many records. Above, it found nothing (Adult, 1,000
/// records, k = 5: 20,000 columns reaching 0.7% of the gap, a 5.75 s MIP), and HiGHS can
/// overrun the probe's limit many times over on its 20n columns: 504 records in triangles
/// of equal costs, 10,080 columns, 9.1 s for a 0.96 s limit, at the root node, between its
/// clock checks (most samples in its LP re-solves' set-up).
const PROBE_MAX_RECORDS: usize = 500;

/// The proof's first stage takes every column below the target when there are at most this
/// many per record (see [`settle`]).
const STAGE_ONE_ALL: usize = 40;

/// Proof by branch-and-price from the converged root LP `sol`. With `enumerate_from` (the
/// root's dual value), returns the run (`Err`) when the tree gave way to the enumeration.
fn prove_by_tree(
    inst: &Instance,
    opts: &ColgenOptions,
    mut run: Run,
    master: &mut Master,
    sol: &LpSolution,
    enumerate_from: Option<f64>,
) -> Result<EngineResult, Box<Run>> {
    let (end, tree) =
        branch::branch_and_price(inst, opts, &mut run, master, sol.objective, enumerate_from);
    run.stats.tree_nodes += tree.nodes;
    run.stats.dives += tree.dives;
    run.stats.dive_steps += tree.dive_steps;
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!("tree: {tree:?}");
    }
    match end {
        branch::TreeEnd::Proven => Ok(run.finish(inst, Status::Optimal, None)),
        branch::TreeEnd::Stopped(why) => Ok(run.finish(inst, Status::Feasible, Some(why.into()))),
        branch::TreeEnd::Enumerate => {
            run.stats.enumeration_s = Some(run.start.elapsed().as_secs_f64());
            if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                eprintln!("tree: the enumeration takes over at ub {}", run.ub());
            }
            Err(Box::new(run))
        }
    }
}

/// LP rounding of the converged LP ([`lp_primal::round_lp`]), offered to the run, with a trace line.
fn lp_rounding(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &Master,
    sol: &LpSolution,
) {
    let t = Instant::now();
    let rounded = lp_primal::round_lp(inst, opts, run, master, sol, &[]);
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "lp rounding: {:?} in {:.2} s",
            rounded.map(|r| r.1),
            t.elapsed().as_secs_f64()
        );
    }
}

/// Adds the classes of `p` to the master as columns.
fn add_classes(inst: &Instance, criterion: Criterion, master: &mut Master, p: &Partition) {
    for class in p.classes() {
        let members = class.iter().map(|&i| i as u32).collect();
        master.add_column(Column::new(inst, criterion, members));
    }
}

/// Share of the time limit the least-slack columns of the first master may take (no limit:
/// 30 s).
const SEED_SHARE: f64 = 0.05;

/// Share of the time left that the primal step's MIP may take (at most 30 s;
/// `OPTIK_PRIMAL_MIP_SHARE` sets it).
const PRIMAL_MIP_SHARE: f64 = 0.2;

/// Share of the time left (at most 30 s) for the restricted master MIP at the descent's
/// first stall.
const PLATEAU_MIP_SHARE: f64 = 0.1;

/// A later stall of the descent solves the restricted master MIP again when the LP
/// has fallen by this fraction since the last stall's MIP, and `restall_spacing` times that
/// MIP's seconds have passed since it ended. Without the spacing, on Census k = 3 the LP fell
/// 0.02% every few seconds after the first stall, and five MIPs of 3–12 s each took the proof
/// from 159 s to 199 s (163 s with it).
const RESTALL_LP_DROP: f64 = 2e-4;

/// The primal step at a stall of the descent (the root's fast pricing): the LP's rounding and the restricted
/// master MIP. Returns the LP's value, and when the step ended and its seconds.
fn stall_mip(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &Master,
    sol: &LpSolution,
) -> (f64, (Instant, f64)) {
    let started = Instant::now();
    lp_rounding(inst, opts, run, master, sol);
    primal_mip(inst, opts.criterion, run, master, sol, PLATEAU_MIP_SHARE);
    run.stats.stall_mips += 1;
    let seconds = started.elapsed().as_secs_f64();
    (sol.objective, (Instant::now(), seconds))
}

/// Where a dive from the root's LP starts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The root LP's first convergence: exact pricing.
    Root,
    /// The descent's first stall: pricing by the descent (the root's fast pricing).
    Stall,
    /// The closing dive (`ColgenOptions::closing_dive`): pricing by the descent too.
    Closing,
}

/// Dives from the root's LP `sol` with `share` of the time left, then gives the master every
/// column back without the dive's basis (artificial columns basic at 0 give duals at which
/// pricing explodes; see `branch`) and restarts the companion from the run's incumbent.
fn dive_and_restore(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &mut Master,
    sol: LpSolution,
    share: f64,
    stage: Stage,
) -> f64 {
    let started = Instant::now();
    let deadline = run
        .remaining()
        .map(|left| Instant::now() + Duration::from_secs_f64(left * share));
    let ub = run.ub();
    let pricing = match stage {
        Stage::Root => dive::DivePricing::Exact,
        Stage::Stall | Stage::Closing => dive::DivePricing::Descent,
    };
    let d = dive::dive(
        inst,
        opts,
        run,
        master,
        sol,
        &Pairs::default(),
        deadline,
        pricing,
        None,
    );
    run.stats.dives += 1;
    run.stats.stall_dives += (stage == Stage::Stall) as u64;
    run.stats.dive_steps += d.steps;
    let what = match stage {
        Stage::Root => "root dive",
        Stage::Stall => "stall dive",
        Stage::Closing => "closing dive",
    };
    dive::trace(what, d, ub, run);
    dive::restore(master);
    run.sync_companion(inst);
    started.elapsed().as_secs_f64()
}

/// The descent's first stall's dive while it waits for the bound ladder's first bound.
#[derive(Clone, Copy, Debug)]
struct DeferredDive {
    /// Its share of the time left when it runs.
    share: f64,
    /// Seconds kept for it: its share of the time left at the stall (`None`: no limit).
    reserve: Option<f64>,
    /// The ladder's searches end that long before the deadline, so a rung that would not end
    /// in the time left (Census, k = 10: a stall at 438 s of 600, and a rung of 160–230 s)
    /// leaves the dive the time it had at the stall, and still bounds.
    rung_end: Option<Instant>,
}

impl DeferredDive {
    /// The dive at a stall with `left` seconds to the deadline, with this share of them.
    fn new(share: f64, left: Option<f64>) -> Self {
        let reserve = left.map(|l| share * l);
        DeferredDive {
            share,
            reserve,
            rung_end: left
                .zip(reserve)
                .map(|(l, r)| Instant::now() + Duration::from_secs_f64((l - r).max(0.0))),
        }
    }

    /// True once the ladder's time before the dive is over.
    fn rung_over(&self) -> bool {
        self.rung_end.is_some_and(|e| Instant::now() >= e)
    }

    /// The dive's share of the `left` seconds when it runs: its own share, or more to give it
    /// the seconds kept for it (at most all of them).
    fn share_now(&self, left: Option<f64>) -> f64 {
        match (self.reserve, left) {
            (Some(reserve), Some(left)) if left > 0.0 => (reserve / left).clamp(self.share, 1.0),
            _ => self.share,
        }
    }
}

/// The least time left for a closing dive (`ColgenOptions::closing_dive`): on Census, k = 10,
/// closing dives ran 12–37 steps in 20–40 s (docs/microaggregation.md, Series 23); with 11 s,
/// session 24's late dive made 3 steps and found nothing.
const CLOSING_DIVE_MIN_S: f64 = 10.0;

/// Whether the closing dive is due (`ColgenOptions::closing_dive`) at the master's LP `sol`:
/// dives on, a time limit with at most the closing dive's share of it and at least
/// [`CLOSING_DIVE_MIN_S`] left, the bound ladder spent in that time ([`Ladder::spent`]) and the
/// incumbent more than [`STALL_DIVE_GAP`] above the LP.
fn closing_dive_due(opts: &ColgenOptions, run: &Run, ladder: &Ladder, sol: &LpSolution) -> bool {
    let (Some(share), Some(limit), Some(left)) =
        (opts.closing_dive, opts.time_limit, run.remaining())
    else {
        return false;
    };
    opts.dive
        && left >= CLOSING_DIVE_MIN_S
        && left <= share * limit.as_secs_f64()
        && run.ub() as f64 > (1.0 + STALL_DIVE_GAP) * sol.objective
        && ladder.spent(sol.duals.value(), run.lower, left)
}

/// Whether the descent's first stall comes late enough for its dive to wait for the bound
/// ladder's first bound (see `ColgenOptions::ladder_first_after`).
fn stall_is_late(opts: &ColgenOptions, run: &Run) -> bool {
    let Some(share) = opts.ladder_first_after else {
        return false;
    };
    match opts.time_limit {
        Some(limit) => run.start.elapsed().as_secs_f64() >= share * limit.as_secs_f64(),
        None => share <= 0.0,
    }
}

/// The dive at the descent's first stall runs when the incumbent is more than this
/// fraction above the LP there (Census, k = 10: 7%; Tarragona: 0.15–0.4%).
const STALL_DIVE_GAP: f64 = 0.01;

/// Share of the time left that the dive at the descent's stall may take.
const STALL_DIVE_SHARE: f64 = 0.15;

/// When the incumbent after the stall's MIP is more than this fraction above the LP, the dive
/// gets [`WIDE_STALL_DIVE_SHARE`] of the time left instead.
const WIDE_STALL_GAP: f64 = 0.03;

/// The stall dive's share of the time left when the gap is wide. Census, k = 10 (MIP 6.7%
/// above the LP): with 0.15 the dive ran 6–12 steps and ended at 163.2–168.3M (scaled), its
/// share stopping it; with 0.4 it ran 25–39 steps, ended at 160.15–162.29M (1.2–2.5% above the
/// LP) when its LP needed the artificial columns, before its share ran out. There the bound
/// ladder completes one rung in the time left either way.
const WIDE_STALL_DIVE_SHARE: f64 = 0.4;

/// Share of a MIP's time limit kept back for HiGHS' overrun (at least 1 s, at most
/// [`MIP_MARGIN_MAX_S`]).
const MIP_MARGIN: f64 = 0.1;

/// The largest margin kept back from a MIP, in seconds. The largest overrun measured was 5.6 s
/// (a 41 s limit under load); without this cap a 10-minute run whose proof MIP started
/// halfway left 32 s unused (Tarragona, k = 5; docs/microaggregation.md, Series 13).
const MIP_MARGIN_MAX_S: f64 = 8.0;

/// Share of the remaining time the improver may take before the proof.
const IMPROVE_SHARE: f64 = 0.3;

/// Smallest instance the improver runs on, and the companion from the start. Its
/// neighbourhoods hold about 100 records, and its result depends on timing (which of several
/// tied optima a proven run releases): below 500 records the proof is mostly fast without it
/// and runs stay reproducible; the companion starts there only after [`LATE_COMPANION_SHARE`]
/// of a time limit.
const IMPROVE_MIN_RECORDS: usize = 500;

/// Share of the time limit after which the companion starts below [`IMPROVE_MIN_RECORDS`]
/// records (diabetes, 442 records, k = 10: the run kept its warm start for the whole minute).
const LATE_COMPANION_SHARE: f64 = 0.1;

/// When the run's companion may start: below [`IMPROVE_MIN_RECORDS`] records only once the run
/// has used a share of its limit (runs that prove by then stay reproducible, and none runs
/// without a limit). `None`: at once.
fn companion_not_before(inst: &Instance, opts: &ColgenOptions, run: &Run) -> Option<Instant> {
    (inst.n < IMPROVE_MIN_RECORDS)
        .then(|| late_companion_at(opts, run))
        .flatten()
}

/// When the companion of a small instance starts: [`LATE_COMPANION_SHARE`] of the time limit
/// after the start (`OPTIK_COMPANION_LATE` sets the share, `0` for never: an ablation knob);
/// `None` without a time limit.
fn late_companion_at(opts: &ColgenOptions, run: &Run) -> Option<Instant> {
    let share = env_number::<f64>("OPTIK_COMPANION_LATE")
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(LATE_COMPANION_SHARE);
    if share == 0.0 {
        return None;
    }
    Some(run.start + opts.time_limit?.mul_f64(share.min(1.0)))
}

/// Share of the time limit the improver takes while the root LP converges slowly (no limit:
/// 10 s).
const IMPROVE_EARLY_SHARE: f64 = 0.15;

/// Share of the time limit after which a root LP that has not converged counts as slow (no
/// limit: after 5 s).
const SLOW_ROOT_SHARE: f64 = 0.1;

/// When the root LP of a large instance counts as converging slowly: [`SLOW_ROOT_SHARE`] of the
/// limit after the start (`None`: no early search). From then on the improver runs as soon as
/// possible rather than after the cuts (instances whose LP converges at once, e.g. k_i over
/// {2, 3} at n = 1,000 in about a second, never run it early).
fn early_search_at(inst: &Instance, opts: &ColgenOptions, run: &Run) -> Option<Instant> {
    if inst.n < IMPROVE_MIN_RECORDS
        || !opts.improve_early
        || opts.improve.is_none()
        || run.companion.is_some()
    {
        return None;
    }
    Some(slow_root_at(opts, run))
}

/// When a root LP still converging counts as slow: [`SLOW_ROOT_SHARE`] of the limit after the
/// start (no limit: 5 s).
fn slow_root_at(opts: &ColgenOptions, run: &Run) -> Instant {
    let after = opts
        .time_limit
        .map_or(Duration::from_secs(5), |t| t.mul_f64(SLOW_ROOT_SHARE));
    run.start + after
}

/// While the root LP converges slowly: the warm starts lie far above the optimum at large k
/// (Adult k = 5, n = 1,000: k-member's 1,589 against an LP near 1,180), the LP may not converge
/// before the limit, and the improvers behind it would then never run, so the run would end at
/// the heuristic's value. The large-neighbourhood search gets [`IMPROVE_EARLY_SHARE`] of the
/// limit here; the caller adds its classes to the master. True when it found a better
/// partition.
fn improve_early(inst: &Instance, opts: &ColgenOptions, run: &mut Run) -> bool {
    let share = match opts.time_limit {
        Some(limit) => limit.mul_f64(IMPROVE_EARLY_SHARE),
        None => Duration::from_secs(10),
    };
    let end = Instant::now() + share;
    run_improver(
        inst,
        opts,
        run,
        "early improver",
        run.deadline.map_or(end, |d| d.min(end)),
    )
}

/// Runs the improver on the incumbent until `deadline` and offers its partition when it is
/// valid (k_i and the class constraints) and better. True when the incumbent improved.
fn run_improver(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    what: &str,
    deadline: Instant,
) -> bool {
    let (Some(improve), Some((p, ub))) = (opts.improve.as_ref(), run.best.clone()) else {
        return false;
    };
    let t = Instant::now();
    let Some(q) = improve(inst, &p, deadline) else {
        return false;
    };
    let cost = start::partition_cost(inst, opts.criterion, &q);
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "{what}: {ub} -> {cost} in {:.2} s",
            t.elapsed().as_secs_f64()
        );
    }
    let ok = q.violations(&inst.k).is_empty() && opts.constraints.partition_ok(q.labels());
    if ok && cost < ub {
        run.offer(inst, q, cost, false);
        return true;
    }
    false
}

/// Relative root gap from which the improver gets its whole share (below, a proportional part).
const IMPROVE_FULL_GAP: f64 = 0.05;

/// Relative root gap (incumbent over LP value) above which the improver runs.
const IMPROVE_GAP: f64 = 0.005;

/// Hands the companion the duals of the LP just converged without cuts or exchanges: every
/// class then costs at least its records' duals (up to the pricing's tolerance), so the
/// companion looks first where the incumbent's classes have the most reduced cost and skips
/// neighbourhoods that have none ([`RecordBounds`]).
fn post_duals(opts: &ColgenOptions, run: &mut Run, master: &Master, sol: &LpSolution) {
    let Some(link) = run.companion.as_ref() else {
        return;
    };
    if !opts.companion_duals || !master.cuts.is_empty() || master.has_exchanges() {
        return;
    }
    let posted = link.post_bounds(RecordBounds {
        values: sol.duals.pi.clone(),
        duals: true,
    });
    run.stats.companion_duals += posted as u64;
    if posted && std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "duals to the companion at lp {:.1} t {:.2}",
            sol.objective,
            run.start.elapsed().as_secs_f64()
        );
    }
}

/// At large k the LP bound converges but its rounding and the restricted-master MIP leave the
/// incumbent a few percent above it (Adult k = 5, n = 500: 764 against an LP of 738.8): the
/// improver (the large-neighbourhood search) gets a share of the remaining time (without a
/// limit: as long as the run took so far, at least 10 s), scaled down for gaps under 5%
/// (the proof closes those faster: Adult 80/20 n = 1,000 at a 0.6% gap took 23 s with the whole
/// share, 8 s without the search).
fn improve_incumbent(inst: &Instance, opts: &ColgenOptions, run: &mut Run, z: f64) {
    if run.companion.is_some() {
        return; // the companion search does this job on the other core
    }
    let Some((_, ub)) = run.best.as_ref().filter(|_| opts.improve.is_some()) else {
        return;
    };
    let ub = *ub;
    if inst.n < IMPROVE_MIN_RECORDS || (ub as f64 - z) <= IMPROVE_GAP * z.abs().max(1.0) {
        return;
    }
    // Small gaps are the proof's: the search's time grows with the gap, in full from 5%.
    let weight = ((ub as f64 - z) / z.abs().max(1.0) / IMPROVE_FULL_GAP).min(1.0);
    let share = match run.remaining() {
        Some(left) => Duration::from_secs_f64(left * IMPROVE_SHARE * weight),
        None => run
            .start
            .elapsed()
            .max(Duration::from_secs(10))
            .mul_f64(weight),
    };
    run_improver(inst, opts, run, "improver", Instant::now() + share);
}

/// Primal step: the restricted master MIP over the 3n pool columns of least reduced cost (the
/// LP is nearly integral after the cuts), so the proof starts from a near-optimal incumbent and
/// its threshold UB − 1 − LB is small.
fn primal_step(
    inst: &Instance,
    criterion: Criterion,
    run: &mut Run,
    master: &Master,
    sol: &LpSolution,
) {
    let share = env_number::<f64>("OPTIK_PRIMAL_MIP_SHARE")
        .filter(|s| (0.0..=1.0).contains(s))
        .unwrap_or(PRIMAL_MIP_SHARE);
    primal_mip(inst, criterion, run, master, sol, share);
}

/// The restricted master MIP of [`primal_step`] on `share` of the time left (at most 30 s).
fn primal_mip(
    inst: &Instance,
    criterion: Criterion,
    run: &mut Run,
    master: &Master,
    sol: &LpSolution,
    share: f64,
) {
    let mut pool: Vec<(f64, usize)> = master
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| (sol.duals.reduced_cost(&c.members, c.cost), i))
        .collect();
    pool.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    pool.truncate(3 * inst.n);
    let columns: Vec<Column> = pool
        .iter()
        .map(|&(_, i)| master.columns[i].clone())
        .collect();
    let limit = run.remaining().map_or(30.0, |r| r * share).min(30.0);
    let limits = MipLimits {
        seconds: Some(limit),
        ..MipLimits::default()
    };
    mip_round(inst, criterion, run, columns, &master.cuts, limits);
}

/// HiGHS's limit for a MIP given `left` seconds: the time left less the margin.
fn mip_seconds(left: f64) -> f64 {
    (left - (MIP_MARGIN * left).clamp(1.0, MIP_MARGIN_MAX_S)).max(0.05)
}

/// Solves the set-partitioning MIP over `columns` plus the incumbent's classes (its start
/// solution), offering any improvement to the run.
fn mip_round(
    inst: &Instance,
    criterion: Criterion,
    run: &mut Run,
    mut columns: Vec<Column>,
    cuts: &[OddSet],
    limits: MipLimits,
) -> proof::MipOutcome {
    let n = inst.n;
    let mut start_sel = Vec::new();
    if let Some((p, _)) = &run.best {
        let index: std::collections::HashMap<&[u32], usize> = columns
            .iter()
            .enumerate()
            .map(|(i, c)| (c.members.as_slice(), i))
            .collect();
        let mut extra = Vec::new();
        for class in p.classes() {
            let members: Vec<u32> = class.iter().map(|&i| i as u32).collect();
            match index.get(members.as_slice()) {
                Some(&i) => start_sel.push(i),
                None => extra.push(Column::new(inst, criterion, members)),
            }
        }
        for c in extra {
            start_sel.push(columns.len());
            columns.push(c);
        }
    }
    let start = (!start_sel.is_empty()).then_some(start_sel.as_slice());
    // HiGHS checks its limit between cut-separation passes, which take seconds on large pools
    // (measured: 46.6 s for a 41 s limit under load): it gets the time left less a margin.
    let time_limit = limits.seconds.map(mip_seconds);
    // `OPTIK_MIP_DUMP=PATH` writes every MIP over 10,000 columns or more (the proof's) to PATH
    // for `models/examples/proof_mip` (the last one wins).
    if let (Ok(path), true) = (std::env::var("OPTIK_MIP_DUMP"), columns.len() >= 10_000) {
        let cols: Vec<(&Vec<u32>, i64)> = columns.iter().map(|c| (&c.members, c.cost)).collect();
        let j = serde_json::json!({"n": n, "columns": cols, "cuts": cuts, "start": start});
        if let Err(e) = std::fs::write(&path, j.to_string()) {
            eprintln!("OPTIK_MIP_DUMP: cannot write {path}: {e}");
        }
    }
    let limits = MipLimits {
        seconds: time_limit,
        abandon_at: crate::detached::abandon_time(run.deadline),
        ..limits
    };
    let out = proof::solve_set_partitioning(n, &columns, cuts, start, limits);
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "mip over {} columns (limit {:?} s): proven {}, best {:?}, bound {:.1}, {:.2} s, {} nodes{}",
            columns.len(),
            time_limit,
            out.proven,
            out.best.as_ref().map(|b| b.1),
            out.bound,
            out.seconds,
            out.nodes,
            if out.left { ", left past the deadline" } else { "" }
        );
    }
    run.stats.mip_time_s += out.seconds;
    run.stats.nodes += out.nodes;
    if let Some((sel, cost)) = &out.best {
        let chosen: Vec<&Column> = sel.iter().map(|&c| &columns[c]).collect();
        run.offer(inst, partition_of(n, &chosen), *cost, false);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records at pseudo-random points of an `xm` × `ym` grid (Manhattan distance), one per k.
    fn scattered(xm: i64, ym: i64, k: Vec<u32>) -> Instance {
        let n = k.len() as i64;
        let x: Vec<i64> = (0..n).map(|i| (i * 7919 + 13) % xm).collect();
        let y: Vec<i64> = (0..n).map(|i| (i * 104_729 + 7) % ym).collect();
        let dist = (0..n as usize)
            .map(|a| {
                (0..n as usize)
                    .map(|b| (x[a] - x[b]).abs() + (y[a] - y[b]).abs())
                    .collect()
            })
            .collect();
        Instance::new(1.0, k, dist).expect("valid")
    }

    /// A root LP that HiGHS cannot solve (it failed twice, `Master::solve`) with time left
    /// hands the run's core to the companion, whose partition the run then takes, instead of
    /// ending the run at once.
    #[test]
    fn a_root_lp_that_cannot_be_solved_hands_the_core_over() {
        use super::super::run::{master_over_the_pairs, with_a_companion_holding_the_pairs};
        with_a_companion_holding_the_pairs(false, |inst, run| {
            let opts = ColgenOptions::default();
            let mut master = master_over_the_pairs(inst, opts.criterion, run);
            master.failing_solves = usize::MAX;
            let end = converge(inst, &opts, run, &mut master);
            assert_eq!(end.err(), Some("master LP not solved"));
            assert_eq!(run.stats.lp_failure.as_deref(), Some("injected by a test"));
            // The companion published its pairs (cost 4) only on every core.
            assert_eq!(run.ub(), 4);
            assert!(run.stats.handover_s.is_some());
        });
    }

    #[test]
    fn a_deferred_dive_keeps_its_seconds_from_the_stall() {
        // Census, k = 10: a stall at 438 s of 600 keeps 0.4 · 162 = 64.8 s for the dive; the
        // rung may run until then.
        let d = DeferredDive::new(0.4, Some(162.0));
        assert!((d.reserve.unwrap() - 64.8).abs() < 1e-9);
        let rung = d
            .rung_end
            .unwrap()
            .duration_since(Instant::now())
            .as_secs_f64();
        assert!(rung > 97.0 && rung <= 97.2 + 1e-9, "{rung}");
        assert!(!d.rung_over());
        // The rung ended early (200 s left): the dive gets its share of them. It ended late
        // (70 s left): the dive gets the 64.8 s kept for it. Past them: all that is left.
        assert_eq!(d.share_now(Some(200.0)), 0.4);
        assert!((d.share_now(Some(70.0)) - 64.8 / 70.0).abs() < 1e-12);
        assert_eq!(d.share_now(Some(30.0)), 1.0);
        // No limit: nothing kept, the rung never gives way.
        let free = DeferredDive::new(0.4, None);
        assert_eq!((free.reserve, free.rung_end.is_none()), (None, true));
        assert!(!free.rung_over());
        assert_eq!(free.share_now(None), 0.4);
        // A stall at the deadline: the rung's time is already over.
        assert!(DeferredDive::new(0.4, Some(0.0)).rung_over());
    }

    #[test]
    fn a_mip_keeps_a_margin_of_a_tenth_between_one_and_eight_seconds() {
        assert_eq!(mip_seconds(320.0), 312.0);
        assert_eq!(mip_seconds(50.0), 45.0);
        assert_eq!(mip_seconds(5.0), 4.0);
        assert_eq!(mip_seconds(0.5), 0.05);
    }

    /// A root cut round gains against the LP's value or the gap, whichever asks less, and,
    /// with a tail, against that share of a wide gap.
    #[test]
    fn a_root_cut_round_gains_against_the_lp_or_the_gap() {
        use super::cut_round_gained;
        // Tarragona-like: a gap of 0.0008% of an LP of 1,566,655 (12.5); a tenth of it gains.
        assert!(cut_round_gained(1.25, 1_566_655.0, 12.5, None));
        assert!(cut_round_gained(1.25, 1_566_655.0, 12.5, Some(0.005)));
        assert!(!cut_round_gained(0.1, 1_566_655.0, 12.5, Some(0.005)));
        // Diabetes 200, k = 10: rounds of 10 against a gap of 23,000 over an LP of 307,000.
        assert!(cut_round_gained(10.0, 307_000.0, 23_000.0, None));
        assert!(!cut_round_gained(10.0, 307_000.0, 23_000.0, Some(0.005)));
        assert!(cut_round_gained(115.0, 307_000.0, 23_000.0, Some(0.005)));
    }

    #[test]
    fn the_cut_clock_leaves_the_dives_out() {
        let mut opts = ColgenOptions {
            time_limit: Some(Duration::from_secs(60)),
            ..ColgenOptions::default()
        };
        opts.cut_clock_skips_dives = true;
        assert!(cuts_in_time(&opts, 23.9, 0.0));
        assert!(!cuts_in_time(&opts, 24.0, 0.0));
        assert!(cuts_in_time(&opts, 24.7, 8.6));
        assert!(!cuts_in_time(&opts, 32.7, 8.6));
        opts.cut_clock_skips_dives = false;
        assert!(!cuts_in_time(&opts, 24.7, 8.6));
        opts.time_limit = None;
        assert!(cuts_in_time(&opts, 1e6, 0.0));
    }

    /// A dive adds its rounding's classes to the master in the same order every time: the
    /// column order decides which of several optimal bases HiGHS returns, and a hash set's
    /// order once made a proof (Adult, 200 records, personal k_i) release a different one of
    /// its tied optimal partitions from run to run.
    #[test]
    fn a_dive_adds_its_columns_in_the_same_order_every_time() {
        let k = (0..36).map(|i| if i % 3 == 0 { 4 } else { 3 }).collect();
        let inst = scattered(101, 67, k);
        let columns_after_a_dive = || {
            let mut opts = ColgenOptions::default();
            let (mut run, mut master) = start_run(&inst, &mut opts).expect("started");
            let (sol, _) =
                column_generation(&inst, &opts, &mut run, &mut master).expect("converged");
            let before = master.columns.len();
            let d = dive::dive(
                &inst,
                &opts,
                &mut run,
                &mut master,
                sol,
                &Pairs::default(),
                None,
                dive::DivePricing::Exact,
                None,
            );
            assert!(d.steps > 0, "the dive fixed nothing");
            let order: Vec<Vec<u32>> = master.columns[before..]
                .iter()
                .map(|c| c.members.clone())
                .collect();
            order
        };
        let first = columns_after_a_dive();
        assert!(first.len() > 2, "{first:?}");
        for _ in 0..9 {
            assert_eq!(columns_after_a_dive(), first);
        }
    }

    /// A proof through branch-and-price is reproducible within one process too, where every
    /// hash set gets other keys: the same partition, the same counts of rounds, nodes, dives,
    /// columns and cuts (any decision taken in a hash order would show here; with the dive's
    /// old hash-set order the counts differed in every run).
    #[test]
    fn a_tree_proof_repeats_itself_exactly() {
        // A coarse grid: several records share a point (as in Adult), so there are ties.
        let k = (0..100)
            .map(|i| match i % 6 {
                0 => 5,
                1 | 2 => 4,
                _ => 3,
            })
            .collect();
        let inst = scattered(23, 17, k);
        let solve = || {
            let r = solve_colgen(
                &inst,
                ColgenOptions {
                    proof: Proof::Tree,
                    ..ColgenOptions::default()
                },
            )
            .expect("solved");
            assert_eq!(r.status, Status::Optimal);
            let s = &r.stats;
            (
                r.objective,
                r.partition.expect("a partition").classes(),
                (s.pricing_rounds, s.tree_nodes, s.dives, s.columns, s.cuts),
            )
        };
        let first = solve();
        assert!(first.2 .1 > 1, "the tree branched: {:?}", first.2);
        for _ in 0..3 {
            assert_eq!(solve(), first);
        }
    }

    /// A tree chosen at the root for a wide gap (the incumbent: one class of every record)
    /// gives way to the enumeration once its incumbent comes within 0.5% of the root LP (here
    /// through the tree's own first steps), and the enumeration proves the optimum that a
    /// plain solve proves.
    #[test]
    fn the_tree_gives_way_to_the_enumeration_once_the_gap_is_small() {
        let n = 40;
        let x: Vec<i64> = (0..n as i64).map(|i| (i * 7919 + 13) % 101).collect();
        let dist = x
            .iter()
            .map(|a| x.iter().map(|b| (a - b).abs()).collect())
            .collect();
        let k = (0..n).map(|i| if i % 5 == 0 { 3 } else { 2 }).collect();
        let inst = Instance::new(1.0, k, dist).expect("valid");
        let plain = solve_colgen(&inst, ColgenOptions::default()).expect("solved");
        assert_eq!(plain.status, Status::Optimal);
        let mut opts = ColgenOptions::default();
        let (mut run, mut master) = start_run(&inst, &mut opts).expect("started");
        let (sol, min_rc) =
            column_generation(&inst, &opts, &mut run, &mut master).expect("converged");
        let one = Partition::from_labels(&vec![0; n]);
        let cost = start::partition_cost(&inst, Criterion::Dbil, &one);
        assert!(opts.proof.tree(sol.duals.value(), cost));
        run.best = Some((one, cost));
        let r = settle(&inst, &opts, run, &mut master, &sol, min_rc);
        assert!(r.stats.enumeration_s.is_some(), "{:?}", r.stats);
        assert_eq!(r.status, Status::Optimal, "{:?}", r.note);
        assert_eq!(r.objective, plain.objective);
        let p = r.partition.expect("a partition");
        assert!(p.violations(&inst.k).is_empty());
        assert_eq!(
            Some(start::partition_cost(&inst, Criterion::Dbil, &p)),
            r.objective
        );
        // Stopped anywhere in the tree, at the switch or in the enumeration, the bound stays
        // below the optimum and "optimal" is only said of it.
        let opt = plain.objective.expect("an optimum");
        for micros in [
            0u64, 50, 100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600,
        ] {
            let (mut run, mut master) = start_run(&inst, &mut opts).expect("started");
            let (sol, min_rc) =
                column_generation(&inst, &opts, &mut run, &mut master).expect("converged");
            run.best = Some((Partition::from_labels(&vec![0; n]), cost));
            run.deadline = Some(Instant::now() + Duration::from_micros(micros));
            let r = settle(&inst, &opts, run, &mut master, &sol, min_rc);
            let lb = r.lower_bound.expect("a bound");
            assert!(
                lb <= opt,
                "bound {lb} above the optimum {opt} at {micros} µs"
            );
            if r.status == Status::Optimal {
                assert_eq!(r.objective, Some(opt));
            }
        }
    }
}
