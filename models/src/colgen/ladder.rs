//! The bound ladder: Lagrangian bounds at points below the master's duals, where the exact
//! pricing at the duals themselves cannot end. At k = 10 (classes of 10–19 records) the
//! centroid descent (sse; for wcsd its grown classes) brings the master LP near its value,
//! but a pricing round at its duals runs for minutes and its partial bound stays far below
//! (Tarragona: 27.76 against an LP of 30.15).
//!
//! Any duals give a Lagrangian bound: at a point of value θ·value(π) (θ < 1, π the master's
//! duals) it is that value plus the `max_classes` most negative task minima of the pricing
//! there. The point is θ'π + (1 − θ')m, between π and the per-record bounds m (dual-feasible:
//! every class costs at least Σ m over its members), θ' chosen for the value ([`rung_point`];
//! before session 25 it was θπ, toward 0). Were π optimal, every reduced cost there would be
//! at least (1 − θ')·(cost − Σ m): the search has slack and ends. Searching only for columns
//! below −τ (a task that finds none then counts −τ) prunes far more for the same loss. A
//! rung (θ, t) sets τ = t·θ·value(π)/max_classes, so a complete search without columns
//! bounds the run by θ(1 − t)·value(π). The master's duals are not optimal when the ladder
//! runs, so a rung may find columns; they are negative at π too and go into the master. Its
//! tasks minimise ([`SearchOptions::minimise_tasks`]): one that finds a column keeps only its
//! best few and searches on below them, so a rung run to its end still bounds, losing only
//! what its columns are below its threshold; the next rung is then priced at the new duals
//! (the same rung again if its bound did not raise the run's).
//!
//! Measured on Tarragona, k = 10, one search each at the descent's stall (value 326.5M
//! scaled), with four times the partial pricing's node budget per task: (0.93, 0) complete in
//! 16.0M nodes; (0.95, 0) complete in 26.1M; (0.95, 0.01) complete in 5.0M (bound 0.9405 of
//! the value); (0.98, 0.015) and (0.99, 0.01) each found columns after 8.0M and 11.6M nodes.
//! In 10-minute runs the ladder took Tarragona k = 10 from a gap of 8.06% to 3.65% and Census
//! k = 10 from 22.2% to 12.7% (docs/microaggregation.md, Series 9).

use super::column::Column;
use super::master::{LpSolution, Master};
use super::options::ColgenOptions;
use super::pricing::{search, Found, Mode, SearchOptions};
use super::round::{pricing_options, RoundStop};
use super::run::{Run, PARTIAL_PRICING_NODES, PRICE_EPS};
use crate::root_lp::Duals;
use crate::Instance;

/// The rungs (θ, t), in order: the bound each proves is θ(1 − t) of the master's value.
/// (0.965, 0.01) was dropped in session 13: with the faster pricing, (0.975, 0.01) ends in
/// 31–34 s on Tarragona (k = 10), and the 24–26 s of the rung below it went to the top rungs.
pub const RUNGS: [(f64, f64); 6] = [
    (0.95, 0.01),
    (0.975, 0.01),
    (0.98, 0.01),
    (0.985, 0.0075),
    (0.99, 0.005),
    (0.995, 0.0025),
];

/// A rung's first search may visit this many times the partial pricing's nodes per task; each
/// time the node budget stops it without columns, the rung is searched again with twice the
/// budget, up to [`MAX_BUDGET_FACTOR`] (its bound, from the stopped tasks' frontiers, counts
/// each time).
const TASK_BUDGET_FACTOR: u64 = 8;

/// The largest budget factor; a rung stopped at it ends the ladder.
const MAX_BUDGET_FACTOR: u64 = 64;

/// Where the ladder stands.
#[derive(Debug, Default)]
pub(crate) struct Ladder {
    /// Started (at the descent's first stall) and not yet done.
    active: bool,
    /// Whether [`Ladder::start`] has been called.
    considered: bool,
    /// The next rung.
    rung: usize,
    /// How many times the next search's node budget has been doubled.
    doublings: u32,
    /// The last search, when its node budget stopped it without columns: the next one, at
    /// the same point and duals, runs only the tasks it stopped.
    resume: Option<Resume>,
    /// Seconds × (1 − θ(1 − t)) of the last search that ran every task: a rung's time grows
    /// about as 1/(1 − θ(1 − t)) (Tarragona, k = 10: this product stayed within 0.9–1.1 s
    /// from (0.95, 0.01) to (0.99, 0.005)), so it predicts the next rung's.
    cost: Option<f64>,
    /// The [`CALIBRATION_RUNG`]'s search, when it ran to its end: the share of the master's
    /// value its rung proves and its seconds (the next rungs are fitted to the time left from
    /// them until a rung's `cost` is known).
    calibration: Option<(f64, f64)>,
    /// Whether a search has raised the run's bound yet (the stall's deferred dive waits for
    /// it).
    bounded: bool,
    /// Whether the next search must end by a deadline of its own (see
    /// [`Ladder::set_own_deadline`]).
    own_deadline: bool,
}

/// A rung's search to resume: where it ran, each root task's minimum if it ran to its end,
/// and the columns its tasks found, held back so that the duals stay the same.
#[derive(Debug)]
struct Resume {
    point: (f64, f64),
    duals: Duals,
    settled: Vec<Option<f64>>,
    pending: Vec<Column>,
    /// For a rung held with columns: the point it priced at, where it resumes even if the
    /// master's duals moved meanwhile (the companion's partitions enter the master between
    /// rungs). The bound at any point is valid, and its tasks' minima are that point's.
    at: Option<Duals>,
}

impl Ladder {
    /// At the descent's first stall, with the master's value `value`: the ladder starts when
    /// its first rung would prove more than the run's bound `lower`. On Tarragona it starts
    /// at k = 5 too, where its rungs take 1–2 s.
    pub(super) fn start(&mut self, value: f64, lower: f64) {
        if !self.considered {
            self.considered = true;
            self.active = rung_bound(RUNGS[0], value) > lower;
        }
    }

    /// True while the ladder replaces the exact pricing rounds.
    pub(super) fn active(&self) -> bool {
        self.active
    }

    /// Whether the next search must end by a deadline of its own, before the run's (a waiting
    /// stall dive's time is kept after it): with no rung's time measured yet, the
    /// [`CALIBRATION_RUNG`] then comes first.
    pub(super) fn set_own_deadline(&mut self, own: bool) {
        self.own_deadline = own;
    }

    /// True once a search has bounded the run, or when the ladder is not (or no longer)
    /// active: what the stall's deferred dive waits for.
    pub(super) fn bounded_or_done(&self) -> bool {
        self.bounded || !self.active
    }

    /// True when the ladder has bounded the run and has no search left that is predicted to
    /// end in the `left` seconds, at a master value `value` and a run bound `lower`: every
    /// rung is at or below the bound (the ladder is done), or the next fresh rung (no stopped
    /// search to resume) is predicted from the measured cost to take longer than all of
    /// them, with no lower rung that fits and raises the bound ([`fitting_rung`]). Before a
    /// rung's time is measured it is false. The run then dives instead
    /// (`ColgenOptions::closing_dive`).
    pub(super) fn spent(&self, value: f64, lower: f64, left: f64) -> bool {
        if !self.bounded {
            return false;
        }
        if !self.active {
            return true;
        }
        if self.resume.is_some() {
            return false;
        }
        let Some(next) = RUNGS[self.rung..]
            .iter()
            .copied()
            .find(|&r| rung_bound(r, value) > lower)
        else {
            return true;
        };
        let Some(cost) = self.cost else {
            return false;
        };
        cost / (1.0 - rung_bound(next, 1.0)) > left
            && fitting_rung(next, cost, left)
                .filter(|&p| raises_enough(p, value, lower))
                .is_none()
    }

    /// Prices the next useful rung at the master's duals `sol`: raises the run's bound, adds
    /// the columns it finds (negative at the duals: the LP must be solved again) and returns
    /// how many. A rung that ends (no task stopped by its node budget) is passed when it found
    /// no columns or raised the bound; one its node budget stops is searched again at the
    /// same point with twice the budget (its stopped tasks only, any columns it found held
    /// back until then; without columns, only while the duals stay the same), and past
    /// [`MAX_BUDGET_FACTOR`] the ladder ends (the exact rounds take over). When the search
    /// has a deadline of its own
    /// ([`Ladder::set_own_deadline`]) and no rung's time is measured yet,
    /// [`CALIBRATION_RUNG`] comes first, so that the next rung is one that fits. A search the
    /// deadline stops still bounds (its tasks wind down to their frontiers:
    /// [`SearchOptions::bound_at_deadline`]), keeps its columns and returns the stop; it is
    /// resumed if the duals stay the same.
    pub(super) fn step(
        &mut self,
        inst: &Instance,
        opts: &ColgenOptions,
        run: &mut Run,
        master: &mut Master,
        sol: &LpSolution,
        max_classes: f64,
    ) -> Result<usize, RoundStop> {
        let value = sol.duals.value();
        while self.rung < RUNGS.len() && rung_bound(RUNGS[self.rung], value) <= run.lower {
            self.rung += 1;
        }
        let Some(&next) = RUNGS.get(self.rung) else {
            self.active = false;
            return Ok(0);
        };
        // A rung predicted not to end in the time left gives way to a lower one that would,
        // if that one still raises the bound (Census, k = 10: (0.95, 0.01) takes 103 s, and
        // (0.975, 0.01) did not end in the 180 s left after it).
        let resume = self.resume.take().filter(|r| {
            r.at.is_some() || (r.duals.pi == sol.duals.pi && r.duals.cuts == sol.duals.cuts)
        });
        let (theta, t) = match (resume.as_ref().map(|r| r.point), self.cost, run.remaining()) {
            // A search its budget stopped goes on where it was.
            (Some(point), _, _) => point,
            (None, None, Some(left)) => match self.calibration {
                Some(measured) => calibrated_rung(next, measured, left)
                    .filter(|&p| raises_enough(p, value, run.lower))
                    .unwrap_or(next),
                None if self.own_deadline && rung_bound(CALIBRATION_RUNG, value) > run.lower => {
                    CALIBRATION_RUNG
                }
                None => next,
            },
            (None, Some(cost), Some(left)) => fitting_rung(next, cost, left)
                .filter(|&p| raises_enough(p, value, run.lower))
                .or_else(|| last_rung(&RUNGS[self.rung..], cost, left))
                .unwrap_or(next),
            _ => next,
        };
        let factor = TASK_BUDGET_FACTOR << self.doublings;
        if let Some(path) = std::env::var_os("OPTIK_LADDER_DUMP") {
            dump(
                &path,
                run.stats.scaled_bounds,
                inst,
                opts,
                &sol.duals,
                max_classes,
            );
        }
        let started = std::time::Instant::now();
        let (settled, mut pending, at) = match resume {
            Some(r) => (Some(r.settled), r.pending, r.at),
            None => (None, Vec::new(), None),
        };
        let fresh = settled.is_none();
        let base = SearchOptions {
            node_budget: opts.ladder_node_budget,
            settled: settled.as_deref(),
            bound_at_deadline: true,
            ..pricing_options(
                opts,
                run,
                Mode::Best {
                    k: 0,
                    threshold: 0.0,
                },
            )
        };
        let anchor: &[f64] = if anchor_off() {
            &[]
        } else {
            &run.record_bounds
        };
        let point = at.unwrap_or_else(|| rung_point(&sol.duals, theta, anchor));
        let mut found = rung_search(inst, &point, t, factor, max_classes, base);
        run.stats.scaled_bounds += 1;
        run.stats.calibration_rungs += ((theta, t) == CALIBRATION_RUNG) as u64;
        let complete = !found.partial && !found.timed_out;
        if fresh && complete {
            let secs = started.elapsed().as_secs_f64();
            if (theta, t) == CALIBRATION_RUNG {
                self.calibration = Some((rung_bound((theta, t), 1.0), secs));
            } else {
                self.cost = Some(secs * (1.0 - rung_bound((theta, t), 1.0)));
            }
        }
        // Wound down at the deadline, the tasks' minima still bound (their frontiers').
        let bound = found.lagrangian_bound(point.value(), max_classes as usize);
        let raised = bound.is_some_and(|l| l > run.lower);
        if let Some(l) = bound {
            run.raise_lower(l);
            self.bounded = true;
        }
        let listed = found.columns.len();
        pending.extend(
            std::mem::take(&mut found.columns)
                .into_iter()
                .map(|(_, c)| c),
        );
        // A rung whose tasks found columns and that its node budget stopped (a task that
        // found columns minimises up to the empty budget) is resumed at the same point: its
        // stopped tasks again with twice the budget, its columns held back until then. Added
        // now, they would move the duals, and the rung would start over at the new ones
        // (Census, k = 10: (0.98, 0.01) found 4 columns in 156 s, partial, bound barely
        // above (0.975, 0.01)'s; again at the new duals, stopped by the deadline).
        let hold = !resume_off()
            && listed > 0
            && found.partial
            && !found.timed_out
            && factor < MAX_BUDGET_FACTOR
            && found.root_minima.is_some();
        let mut added = 0;
        if !hold {
            for c in pending.drain(..) {
                if sol.duals.reduced_cost(&c.members, c.cost) < -PRICE_EPS {
                    added += master.add_column(c) as usize;
                }
            }
        }
        let stopped_tasks = |minima: &[f64]| -> Vec<Option<f64>> {
            minima
                .iter()
                .zip(&found.task_stopped)
                .map(|(&m, &stopped)| (!stopped).then_some(m))
                .collect()
        };
        if let (true, Some(minima)) = (hold, &found.root_minima) {
            self.doublings += 1;
            run.stats.held_rungs += 1;
            self.resume = Some(Resume {
                point: (theta, t),
                duals: sol.duals.clone(),
                settled: stopped_tasks(minima),
                pending,
                at: Some(point.clone()),
            });
        } else if found.timed_out {
            if let (0, Some(minima)) = (listed, &found.root_minima) {
                self.resume = Some(Resume {
                    point: (theta, t),
                    duals: sol.duals.clone(),
                    settled: stopped_tasks(minima),
                    pending: Vec::new(),
                    at: None,
                });
            }
        } else if !found.partial && (added == 0 || raised) {
            // Run to its end, the rung has bounded (its tasks minimise: those that found
            // columns count their least reduced cost), so the next rung is priced at the new
            // duals; one whose columns left the bound where it was is priced again.
            if (theta, t) == next {
                self.rung += 1;
            }
            self.doublings = 0;
        } else if added == 0 {
            if factor < MAX_BUDGET_FACTOR {
                self.doublings += 1;
                if let (0, Some(minima)) = (listed, &found.root_minima) {
                    self.resume = Some(Resume {
                        point: (theta, t),
                        duals: sol.duals.clone(),
                        settled: stopped_tasks(minima),
                        pending: Vec::new(),
                        at: None,
                    });
                }
            } else {
                self.active = false;
            }
        }
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            let most = found.task_nodes.iter().max().copied().unwrap_or(0);
            eprintln!(
                "ladder θ {theta} t {t} budget ×{factor}: bound {bound:?}, {} nodes (largest task {most}, {} tasks run), {}, {added} added, {:.2} s",
                found.nodes,
                found.task_nodes.iter().filter(|&&x| x > 0).count(),
                if found.timed_out {
                    "stopped by the deadline"
                } else if found.partial {
                    "partial"
                } else {
                    "complete"
                },
                started.elapsed().as_secs_f64()
            );
        }
        if found.timed_out {
            return Err(RoundStop {
                why: "time limit during pricing",
                lagrange: None,
            });
        }
        Ok(added)
    }
}

/// One rung's search at `point` ([`rung_point`]): the best columns below −PRICE_EPS − τ
/// (τ = t·value(point)/max_classes), each root task limited to `factor` times the partial
/// pricing's node budget (or `base`'s, when it has one); `base` gives the criterion,
/// constraints, deadline and cover. The result's [`Found::lagrangian_bound`] at `point`'s
/// value is the bound. Public for the probes (`examples/ladder_probe.rs`), which run exactly
/// what the ladder runs.
pub fn rung_search(
    inst: &Instance,
    point: &Duals,
    t: f64,
    factor: u64,
    max_classes: f64,
    base: SearchOptions,
) -> Found {
    let tau = t * point.value().abs() / max_classes.max(1.0);
    let n = inst.n;
    search(
        inst,
        point,
        &SearchOptions {
            node_budget: Some(
                base.node_budget
                    .unwrap_or((PARTIAL_PRICING_NODES / n as u64).max(10_000))
                    * factor,
            ),
            mode: Mode::Best {
                k: n.max(50),
                threshold: -PRICE_EPS - tau,
            },
            minimise_tasks: !minimise_off(),
            ..base
        },
    )
}

/// Writes the ladder's starting point for offline probes (`examples/ladder_probe.rs`): the
/// instance, the master's duals, `max_classes` and the pricing's cover, as JSON at
/// `<path>-n<records>-<step>.json`. Holds the distance matrix (no raw records); off unless
/// `OPTIK_LADDER_DUMP` names a path.
fn dump(
    path: &std::ffi::OsStr,
    step: u64,
    inst: &Instance,
    opts: &ColgenOptions,
    duals: &Duals,
    max_classes: f64,
) {
    let json = serde_json::json!({
        "instance": inst,
        "pi": duals.pi,
        "cuts": duals.cuts,
        "max_classes": max_classes,
        "cover": opts.price_cover,
        "value": duals.value(),
    });
    let mut file = std::path::PathBuf::from(path).into_os_string();
    file.push(format!("-n{}-{step}.json", inst.n));
    if let Err(e) = std::fs::write(&file, json.to_string()) {
        eprintln!("ladder dump {}: {e}", std::path::Path::new(&file).display());
    }
}

/// The rung searched first when the ladder must end by a deadline of its own and no rung has
/// measured its time yet: cheap enough to end in most windows, and above the per-record
/// bound where that is weak (Census, k = 10: 65% of the LP), it measures the time the next
/// rungs are fitted to ([`calibrated_rung`]).
pub const CALIBRATION_RUNG: (f64, f64) = (0.8, 0.01);

/// How a rung's time grows with the share f of the master's value it proves, from the
/// calibration rung on: as (1 − f)^−α, α the largest measured. Census, k = 10, at a stall's
/// duals (one search each, 2 threads): (0.8, 0.01) 12.2 s, (0.85, 0.01) 25.8 s, (0.9, 0.01)
/// 63.9 s, (0.95, 0.01) 212.7 s; from the first, α = 2.57 to the third and 2.29 to the
/// fourth. In 600 s runs, from the calibration to the fitted rung: 2.33 (0.930 in 110 s) and
/// 2.37; in a 500 s run 2.79 (0.899 in 72.9 s, predicted 59.7 s with α = 2.5: it ended with
/// 1 s left). The exponent falls as f rises. (Between higher rungs on Tarragona it is about
/// 1: [`Ladder`]'s `cost`.) Those were rungs toward 0; toward the per-record bounds
/// ([`rung_point`]; session 25, another stall's duals) the rungs are faster and the exponent
/// higher: 4.5 s, 30.6 s (0.891), 56.0 s (0.921), 89.2 s (0.9405), α = 2.98, 2.62 and 2.39
/// from the first (toward 0 there: 6.4 s, 38.4 s, 100.8 s at the same shares, α = 2.77 and
/// 2.20).
const CALIBRATED_GROWTH: f64 = 3.0;

/// Share of the time left a rung is predicted to take at most, for [`fitting_rung`] to keep it
/// (the rest covers columns found and searched again).
const FIT_SHARE: f64 = 0.8;

/// A rung chosen by [`fitting_rung`] must raise the bound by at least this share of the
/// master's value (else the next rung runs, and its columns may still move the LP).
const MIN_FIT_GAIN: f64 = 0.0025;

/// Whether a lower rung chosen to fit (`fitting_rung`, `calibrated_rung`) raises the bound
/// `lower` by at least [`MIN_FIT_GAIN`] of the master's value `value`.
fn raises_enough(rung: (f64, f64), value: f64, lower: f64) -> bool {
    rung_bound(rung, value) > lower + MIN_FIT_GAIN * value
}

/// The t of a rung chosen by [`fitting_rung`].
const FIT_T: f64 = 0.01;

/// The rung to search instead of `next` when `next` is predicted (from `cost`, see
/// [`Ladder`]'s field) to take more than [`FIT_SHARE`] of the `left` seconds: the one with
/// t = [`FIT_T`] predicted to take that share. `None` when `next` fits or no lower rung does.
fn fitting_rung(next: (f64, f64), cost: f64, left: f64) -> Option<(f64, f64)> {
    let budget = FIT_SHARE * left;
    if cost / (1.0 - rung_bound(next, 1.0)) <= budget || cost >= budget {
        return None;
    }
    let fraction = 1.0 - cost / budget;
    let theta = fraction / (1.0 - FIT_T);
    (theta < next.0).then_some((theta, FIT_T))
}

/// The rung to search instead of the next of `rungs` (the ladder's, from the next on) when
/// climbing one rung at a time would not reach the highest that fits: the next one is
/// predicted (from `cost`, see [`Ladder`]'s field) to take at most [`FIT_SHARE`] of the
/// `left` seconds, and the highest rung predicted to fit in that share now is not reached by
/// searching each rung up to it in turn (each in [`FIT_SHARE`] of what would be left). That
/// highest rung is searched at once, so the time goes to the bound that counts rather than
/// to rungs below it (Census, k = 10, after a (0.95, 0.01) of 36 s with 358 s left: (0.975,
/// 0.01) 64 s, (0.98, 0.01) 75 s, then (0.99, 0.005) 118 s, its bound at 501 s; until
/// session 28 only the rung after the next was looked at, so the ladder climbed). `None`
/// when the climb reaches it (Tarragona, k = 10: every rung in 6–47 s) or no higher rung
/// fits.
fn last_rung(rungs: &[(f64, f64)], cost: f64, left: f64) -> Option<(f64, f64)> {
    let predict = |r: (f64, f64)| cost / (1.0 - rung_bound(r, 1.0));
    let (&next, rest) = rungs.split_first()?;
    if predict(next) > FIT_SHARE * left {
        return None;
    }
    let top = rest
        .iter()
        .rev()
        .copied()
        .find(|&r| predict(r) <= FIT_SHARE * left)?;
    let mut time = left;
    for &r in rungs {
        if predict(r) > FIT_SHARE * time {
            return Some(top);
        }
        if r == top {
            return None;
        }
        time -= predict(r);
    }
    None
}

/// The rung to search instead of `next` when `next` is predicted, from the calibration
/// rung's `(share, seconds)` and [`CALIBRATED_GROWTH`], to take more than [`FIT_SHARE`] of the
/// `left` seconds: the one with t = [`FIT_T`] predicted to take that share. `None` when `next`
/// fits or no rung above the calibration's does.
fn calibrated_rung(next: (f64, f64), (share, secs): (f64, f64), left: f64) -> Option<(f64, f64)> {
    let budget = FIT_SHARE * left;
    let predict = |f: f64| secs * ((1.0 - share) / (1.0 - f)).powf(CALIBRATED_GROWTH);
    if predict(rung_bound(next, 1.0)) <= budget || secs >= budget {
        return None;
    }
    let fraction = 1.0 - (1.0 - share) * (secs / budget).powf(1.0 / CALIBRATED_GROWTH);
    let theta = fraction / (1.0 - FIT_T);
    (fraction > share && theta < next.0).then_some((theta, FIT_T))
}

/// The bound a rung proves at a master value when its search ends without columns.
fn rung_bound((theta, t): (f64, f64), value: f64) -> f64 {
    theta * (1.0 - t) * value
}

/// The point at which a rung of share `theta` prices: of value θ·value(d), between the
/// duals `d` and the per-record bounds `anchor` ([`anchored`]) when they are below it, else
/// `d` scaled by θ ([`scaled`]; also when `anchor` is empty). Toward the per-record bounds a
/// rung ends sooner than toward 0 for the same share (Census, k = 10, at a stall's duals, value
/// 158.29M, per-record bounds 0.650 of it: share 0.9 in 30.6 s against 38.4 s, 0.93 in
/// 56.0 s against about 61 s). Moving further (the bounds scaled by 1.2, no longer
/// dual-feasible) found columns at the point that are not negative at `d`.
pub fn rung_point(d: &Duals, theta: f64, anchor: &[f64]) -> Duals {
    let value = d.value();
    let floor: f64 = anchor.iter().sum();
    if anchor.len() == d.pi.len() && floor < theta * value && value > floor {
        anchored(d, (theta * value - floor) / (value - floor), anchor)
    } else {
        scaled(d, theta)
    }
}

/// `OPTIK_LADDER_MINIMISE=0` lets a rung's task that found a column stop at one node budget
/// with every column it found, as before session 26 (for the ablation in
/// docs/microaggregation.md).
fn minimise_off() -> bool {
    std::env::var_os("OPTIK_LADDER_MINIMISE").is_some_and(|v| v == "0")
}

/// `OPTIK_LADDER_RESUME=0` adds a partial rung's columns at once, as before session 27 (the
/// rung then starts over at the new duals; for the ablation in docs/microaggregation.md).
fn resume_off() -> bool {
    std::env::var_os("OPTIK_LADDER_RESUME").is_some_and(|v| v == "0")
}

/// `OPTIK_LADDER_ANCHOR=0` prices the rungs at the duals scaled toward 0, as before session
/// 25 (for the ablation in docs/microaggregation.md).
fn anchor_off() -> bool {
    std::env::var_os("OPTIK_LADDER_ANCHOR").is_some_and(|v| v == "0")
}

/// The duals `d` scaled by `theta`, cut penalties alike: value(θd) = θ·value(d).
fn scaled(d: &Duals, theta: f64) -> Duals {
    Duals {
        pi: d.pi.iter().map(|p| theta * p).collect(),
        cuts: d.cuts.iter().map(|(c, m)| (c.clone(), theta * m)).collect(),
    }
}

/// The point θ·d + (1 − θ)·a between the duals `d` and record duals `a` (cut penalties
/// scaled by θ): when `a` is dual-feasible (every class costs at least Σ a over its members,
/// as the per-record bounds do) a column's reduced cost there is θ times its reduced cost at
/// `d` plus (1 − θ) times a non-negative slack, like [`scaled`]'s with `a` = 0.
fn anchored(d: &Duals, theta: f64, a: &[f64]) -> Duals {
    Duals {
        pi: d
            .pi
            .iter()
            .zip(a)
            .map(|(p, m)| theta * p + (1.0 - theta) * m)
            .collect(),
        cuts: d.cuts.iter().map(|(c, m)| (c.clone(), theta * m)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_scales_the_value_and_rungs_rise() {
        let d = Duals {
            pi: vec![3.0, 5.0],
            cuts: vec![(vec![0, 1, 2], 2.0)],
        };
        let s = scaled(&d, 0.5);
        assert!((s.value() - 0.5 * d.value()).abs() < 1e-12);
        for w in RUNGS.windows(2) {
            assert!(rung_bound(w[0], 1.0) < rung_bound(w[1], 1.0));
        }
        assert!(rung_bound(RUNGS[RUNGS.len() - 1], 1.0) < 1.0);
    }

    #[test]
    fn a_rung_that_does_not_fit_gives_way_to_one_that_does() {
        // Census, k = 10: (0.95, 0.01) took 103 s, so cost = 103 · (1 − 0.9405) = 6.13 s.
        let cost = 103.0 * (1.0 - rung_bound(RUNGS[0], 1.0));
        // (0.975, 0.01) is predicted at 176 s: it fits in 300 s, not in 180 s.
        assert_eq!(fitting_rung(RUNGS[1], cost, 300.0), None);
        let (theta, t) = fitting_rung(RUNGS[1], cost, 180.0).expect("a lower rung");
        assert!(theta < RUNGS[1].0 && rung_bound((theta, t), 1.0) > rung_bound(RUNGS[0], 1.0));
        let predicted = cost / (1.0 - rung_bound((theta, t), 1.0));
        assert!((predicted - FIT_SHARE * 180.0).abs() < 1e-9, "{predicted}");
        // No time for any rung: the next one is kept (its partial search still bounds).
        assert_eq!(fitting_rung(RUNGS[1], cost, 7.0), None);
    }

    #[test]
    fn the_last_rung_that_fits_is_the_highest_that_fits() {
        // Census, k = 10: (0.95, 0.01) took 80 s, so cost = 80 · 0.0595 = 4.76 s; 203 s left.
        let cost = 80.0 * (1.0 - rung_bound(RUNGS[0], 1.0));
        // (0.975, 0.01) is predicted at 137 s and (0.98, 0.01) at 160 s: both fit now, but
        // not one after the other, so the higher one runs.
        assert_eq!(last_rung(&RUNGS[1..], cost, 203.0), Some(RUNGS[2]));
        // Time for (0.975, 0.01) and then (0.98, 0.01), but not for (0.985, 0.0075) after
        // them, and (0.99, 0.005), predicted at 317 s, fits now: it runs.
        assert_eq!(last_rung(&RUNGS[1..], cost, 400.0), Some(RUNGS[4]));
        // Time to climb to the highest that fits: the ladder climbs one at a time.
        assert_eq!(last_rung(&RUNGS[1..3], cost, 400.0), None);
        assert_eq!(last_rung(&RUNGS[3..], cost, 1500.0), None);
        // Time for the next only: it is the highest that fits.
        assert_eq!(last_rung(&RUNGS[1..], cost, 175.0), None);
        // The next does not fit: `fitting_rung`'s case.
        assert_eq!(last_rung(&RUNGS[1..], cost, 150.0), None);
        // The top rung has no rung after it.
        assert_eq!(last_rung(&RUNGS[RUNGS.len() - 1..], cost, 1e6), None);
    }

    #[test]
    fn a_ladder_without_a_search_that_ends_in_the_time_left_is_spent() {
        // Census, k = 10 (session 29): (0.95, 0.01) ran in 32 s, so cost = 32 · 0.0595 =
        // 1.90 s; at 535 s the master's value was 158.1M and the bound 155.67M (0.9846 of
        // it): the next rung, (0.995, 0.0025), is predicted at 254 s.
        let cost = 32.0 * (1.0 - rung_bound(RUNGS[0], 1.0));
        let ladder = Ladder {
            active: true,
            considered: true,
            bounded: true,
            cost: Some(cost),
            ..Ladder::default()
        };
        let (value, lower) = (158.1, 155.67);
        assert!(ladder.spent(value, lower, 65.0));
        assert!(!ladder.spent(value, lower, 300.0));
        // (0.95, 0.01) is predicted at 32 s: with 30 s left, a lower rung fits and raises a
        // bound of 0.9 of the value (to 0.92), not one of 0.92.
        assert!(!ladder.spent(1.0, 0.9, 30.0));
        assert!(ladder.spent(1.0, 0.92, 30.0));
        // Every rung at or below the bound, or the ladder done: nothing left.
        assert!(ladder.spent(1.0, 0.995, 1e6));
        let done = Ladder {
            active: false,
            ..ladder
        };
        assert!(done.spent(value, lower, 1e6));
        // A stopped search to resume, a rung's time not measured yet, or no bound from the
        // ladder yet: not spent.
        let resuming = Ladder {
            active: true,
            resume: Some(Resume {
                point: RUNGS[5],
                duals: Duals {
                    pi: Vec::new(),
                    cuts: Vec::new(),
                },
                settled: Vec::new(),
                pending: Vec::new(),
                at: None,
            }),
            ..done
        };
        assert!(!resuming.spent(value, lower, 65.0));
        let unmeasured = Ladder {
            resume: None,
            cost: None,
            ..resuming
        };
        assert!(!unmeasured.spent(value, lower, 65.0));
        let unbounded = Ladder {
            cost: Some(cost),
            bounded: false,
            ..unmeasured
        };
        assert!(!unbounded.spent(value, lower, 65.0));
        assert!(!Ladder::default().spent(value, lower, 65.0));
    }

    #[test]
    fn after_the_calibration_rung_the_next_fits_the_time_left() {
        // Census, k = 10: the calibration rung proved 0.792 of the value in 12.15 s; (0.9,
        // 0.01) took 63.9 s and (0.95, 0.01) 212.7 s.
        let measured = (rung_bound(CALIBRATION_RUNG, 1.0), 12.15);
        // 84 s left: a rung predicted at 0.8 · 84 s, proving about 0.88 (measured: 0.891 in
        // 63.9 s), instead of (0.95, 0.01).
        let (theta, t) = calibrated_rung(RUNGS[0], measured, 84.0).expect("a lower rung");
        let f = rung_bound((theta, t), 1.0);
        assert!(f > 0.875 && f < 0.891, "{f}");
        // Time for the next rung as predicted (12.15 · (0.208/0.0595)^3 = 519 s, 0.8 of
        // 649 s): kept.
        assert_eq!(calibrated_rung(RUNGS[0], measured, 660.0), None);
        assert!(calibrated_rung(RUNGS[0], measured, 640.0).is_some());
        // No more time than the calibration took: nothing better fits.
        assert_eq!(calibrated_rung(RUNGS[0], measured, 12.0), None);
    }
}
