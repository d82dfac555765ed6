//! `optik explain`'s engine: runs the CP model of [`super::model`] on pumpkin with recording
//! hooks around every optik propagator, the brancher and the conflict resolver, and returns what
//! pumpkin did — decisions, propagations with the explanations pumpkin stored for them,
//! conflicts, learned nogoods, solutions — as a [`Trace`].
//!
//! The search is the one of [`super::solve_cp`] (linear SAT-UNSAT: solve, then solve again
//! under "objective better than the incumbent" until unsatisfiable) with the same model,
//! brancher and resolver, started from scratch (no heuristic warm start, no value hints, no
//! LP-rounded start) so that the trace shows the search finding its solutions. Diameter uses the
//! direct model (`solve_cp` drives it by thresholds); split fixes its minimum number of classes
//! with an unrecorded first search, as `solve_cp` does without a warm start.
//!
//! pumpkin explains a propagation only when conflict analysis needs it, so explanations are
//! asked for at every conflict, for every recorded propagation still on the trail; root facts
//! and the propagations of a branch that ends in a solution are never explained by pumpkin:
//! their explanations are recomputed afterwards by running the propagator alone on the domains
//! it saw ([`replay`]), and marked as recomputed.

mod hooks;
mod log;
mod replay;
pub mod trace;

pub use trace::{Because, Change, Event, Leaf, Lit, Node, Op, Trace, Var};

use std::time::{Duration, Instant};

use optik_propagators::branching::Counters;
use optik_propagators::pumpkin_core::predicates::{Predicate, PredicateConstructor};
use optik_propagators::pumpkin_core::results::{
    ProblemSolution, SatisfactionResultUnderAssumptions,
};
use optik_propagators::pumpkin_core::termination::TimeBudget;

use super::{make_brancher, model, resolver, Search};
use crate::{Criterion, Instance, Partition, Status};
use hooks::{Stop, Tracer, TracingPoster, TracingResolver};
use log::{Log, RawEvent};

/// Largest instance `explain` accepts: the trace of a bigger search is not readable.
pub const MAX_RECORDS: usize = 12;

/// Options of [`explain`].
#[derive(Clone, Debug)]
pub struct ExplainOptions {
    pub criterion: Criterion,
    pub search: Search,
    /// Post the dominance cap `|C| ≤ 2·max k_i − 1` (not for split).
    pub size_cap: bool,
    /// dbil and wcsd: post the root LP's dual bound (the DualBound propagator).
    pub lp_bound: bool,
    /// Stop after this many decisions (the trace says so; the status is then not optimal).
    pub max_decisions: usize,
    pub time_limit: Option<Duration>,
}

impl Default for ExplainOptions {
    fn default() -> Self {
        ExplainOptions {
            criterion: Criterion::Dbil,
            search: Search::DEFAULT,
            size_cap: true,
            lp_bound: true,
            max_decisions: 5_000,
            time_limit: None,
        }
    }
}

/// Traces the search for an optimal partition of `inst` (at most [`MAX_RECORDS`] records).
pub fn explain(inst: &Instance, opts: &ExplainOptions) -> Result<Trace, String> {
    let start = Instant::now();
    let n = inst.n;
    if n == 0 || n > MAX_RECORDS {
        return Err(format!(
            "explain traces instances of 1 to {MAX_RECORDS} records; this one has {n}"
        ));
    }
    let criterion = opts.criterion;
    let maximise = criterion.maximise();
    let obj_ub = model::objective_upper_bound(inst, criterion);
    if obj_ub > i32::MAX as i64 {
        return Err(format!(
            "objective bound {obj_ub} exceeds pumpkin's i32 domains; use a smaller scale"
        ));
    }
    let deadline = opts.time_limit.map(|t| start + t);
    let remaining = || match deadline {
        Some(d) => d.saturating_duration_since(Instant::now()),
        None => Duration::from_secs(100 * 365 * 24 * 3600),
    };

    // Split: the minimum number of classes from a first (unrecorded) solution.
    let min_classes = if criterion == Criterion::Split {
        let mut m = model::build(
            inst,
            criterion,
            false,
            None,
            obj_ub as i32,
            None,
            &crate::ClassConstraints::default(),
        );
        let mut brancher = make_brancher(&m, inst, opts.search, Counters::default());
        let mut res = resolver();
        let mut term = TimeBudget::starting_now(remaining());
        let g = m.g.clone();
        let first =
            match m
                .solver
                .satisfy_under_assumptions(&mut brancher, &mut term, &mut res, &[])
            {
                SatisfactionResultUnderAssumptions::Satisfiable(s) => {
                    let labels: Vec<i32> = g
                        .iter()
                        .map(|&x| s.solution().get_integer_value(x))
                        .collect();
                    Some(Partition::from_labels(&labels).num_classes())
                }
                _ => None,
            };
        first
    } else {
        None
    };

    let root = if opts.lp_bound && matches!(criterion, Criterion::Dbil | Criterion::Wcsd) {
        crate::colgen::root_lp(
            inst,
            crate::ColgenOptions {
                criterion,
                time_limit: opts.time_limit,
                ..crate::ColgenOptions::default()
            },
        )
    } else {
        None
    };

    let log = Log::new(Vec::new());
    let mut poster = TracingPoster {
        log: log.clone(),
        vars: Vec::new().into(),
        names: Vec::new(),
        adders: Vec::new(),
    };
    let size_cap = opts.size_cap && criterion != Criterion::Split;
    let mut m = model::build_with(
        inst,
        criterion,
        size_cap,
        min_classes,
        obj_ub as i32,
        root.as_ref(),
        &crate::ClassConstraints::default(),
        &mut poster,
    );
    let mut initial: Vec<(i32, i32)> =
        m.g.iter()
            .enumerate()
            .map(|(i, _)| (1, if i == 0 { 1 } else { m.cmax }))
            .collect();
    initial.push((0, obj_ub as i32));
    let mut brancher = Tracer {
        inner: make_brancher(&m, inst, opts.search, Counters::default()),
        log: log.clone(),
    };
    let mut res = TracingResolver {
        inner: resolver(),
        log: log.clone(),
        initial: initial.clone(),
        maximise,
    };
    let obj = m.objective;
    let g = m.g.clone();
    let mut best: Option<(Partition, i64)> = None;
    let status = loop {
        let assumption: Vec<Predicate> = match &best {
            None => vec![],
            Some((_, v)) if maximise => vec![obj.lower_bound_predicate(clamp(v + 1))],
            Some((_, v)) => vec![obj.upper_bound_predicate(clamp(v - 1))],
        };
        if best.as_ref().is_some_and(|(_, v)| {
            if maximise {
                *v >= i32::MAX as i64
            } else {
                *v <= 0
            }
        }) {
            break Status::Optimal;
        }
        {
            let mut l = log.borrow_mut();
            l.pending_restart = false;
            l.pending_decision = None;
            l.close_above(0);
            l.path.clear();
            l.search += 1;
            l.assumption_level = assumption.len();
            let index = l.search;
            l.events.push(RawEvent::Search {
                index,
                bound: assumption.first().copied(),
            });
        }
        let mut term = Stop {
            deadline,
            max_decisions: opts.max_decisions,
            log: log.clone(),
        };
        let found = match m.solver.satisfy_under_assumptions(
            &mut brancher,
            &mut term,
            &mut res,
            &assumption,
        ) {
            SatisfactionResultUnderAssumptions::Satisfiable(s) => {
                let labels: Vec<i32> = g
                    .iter()
                    .map(|&x| s.solution().get_integer_value(x))
                    .collect();
                Some(labels)
            }
            SatisfactionResultUnderAssumptions::UnsatisfiableUnderAssumptions(_)
            | SatisfactionResultUnderAssumptions::Unsatisfiable(_) => {
                let mut l = log.borrow_mut();
                l.sync();
                let search = l.search;
                l.events.push(RawEvent::Exhausted { search });
                break if best.is_some() {
                    Status::Optimal
                } else {
                    Status::Infeasible
                };
            }
            SatisfactionResultUnderAssumptions::Unknown(_) => None,
        };
        let mut l = log.borrow_mut();
        l.pending_restart = false;
        match found {
            Some(labels) => {
                let p = Partition::from_labels(&labels);
                let v = super::objective_of(inst, &p, criterion);
                if l.pending_decision.is_some() {
                    let lvl = l
                        .path
                        .last()
                        .and_then(|&x| l.nodes[x].level)
                        .unwrap_or(l.assumption_level)
                        + 1;
                    l.resolve_pending(lvl);
                }
                l.mark_leaf(Leaf::Solution(v));
                l.events.push(RawEvent::Solution {
                    objective: v,
                    labels,
                });
                let improves = best
                    .as_ref()
                    .is_none_or(|(_, b)| if maximise { v > *b } else { v < *b });
                if !improves {
                    l.events.push(RawEvent::Stopped);
                    break Status::Feasible;
                }
                best = Some((p, v));
            }
            None => {
                l.events.push(RawEvent::Stopped);
                break if best.is_some() {
                    Status::Feasible
                } else {
                    Status::Unknown
                };
            }
        }
    };
    {
        let mut l = log.borrow_mut();
        let mut replayer =
            replay::Replayer::new(l.vars.clone(), initial, std::mem::take(&mut poster.adders));
        for e in &mut l.events {
            if let RawEvent::Propagation {
                propagator,
                changes,
                before,
                ..
            } = e
            {
                let missing: Vec<usize> = (0..changes.len())
                    .filter(|&c| changes[c].why.is_none())
                    .collect();
                if missing.is_empty() {
                    continue;
                }
                let asked: Vec<Predicate> = missing.iter().map(|&c| changes[c].pred).collect();
                for (c, why) in missing
                    .into_iter()
                    .zip(replayer.explain(propagator, before, &asked))
                {
                    changes[c].why = why;
                }
            }
        }
    }
    let l = log.borrow();
    let lit = |p: Predicate| l.lit(p).expect("predicates of the model's variables");
    let change = |c: &log::RawChange| Change {
        lit: lit(c.why.as_ref().map_or(c.pred, |w| w.posted)),
        fixes: c.fixes.map(lit),
        because: c.why.as_ref().map(|w| Because {
            by: display_label(&w.label, &poster.names),
            premises: w.premises.iter().filter_map(|&p| l.lit(p)).collect(),
            recomputed: w.recomputed,
        }),
    };
    let events = l
        .events
        .iter()
        .map(|e| match e {
            RawEvent::Search { index, bound } => Event::Search {
                index: *index,
                bound: bound.map(lit),
            },
            RawEvent::Decision { node } => Event::Decision { node: *node },
            RawEvent::Restart => Event::Restart,
            RawEvent::Propagation {
                level,
                propagator,
                changes,
                ..
            } => Event::Propagation {
                level: *level,
                propagator,
                changes: changes.iter().map(change).collect(),
            },
            RawEvent::Conflict {
                level,
                propagator,
                trigger,
                explanation,
            } => Event::Conflict {
                level: *level,
                propagator: *propagator,
                trigger: trigger.map(lit),
                explanation: explanation.iter().filter_map(|&p| l.lit(p)).collect(),
                pruned: explanation
                    .iter()
                    .any(|&p| l.is_objective_bound(p, maximise)),
            },
            RawEvent::Learned {
                nogood,
                backjump,
                asserted,
            } => Event::Learned {
                nogood: nogood.iter().filter_map(|&p| l.lit(p)).collect(),
                backjump: *backjump,
                asserted: asserted.map(lit),
            },
            RawEvent::Solution { objective, labels } => Event::Solution {
                objective: *objective,
                labels: labels.clone(),
            },
            RawEvent::Exhausted { search } => Event::Exhausted { search: *search },
            RawEvent::Stopped => Event::Stopped,
        })
        .collect();
    let nodes = l
        .nodes
        .iter()
        .map(|nd| Node {
            parent: nd.parent,
            search: nd.search,
            level: nd.level.unwrap_or(0),
            decision: lit(nd.decision),
            leaf: nd.leaf,
        })
        .collect();
    Ok(Trace {
        n,
        k: inst.k.clone(),
        cmax: m.cmax,
        criterion,
        scale: inst.scale,
        propagators: poster.names.clone(),
        events,
        nodes,
        status,
        best,
        decisions: l.decisions,
        conflicts: l.conflicts,
        restarts: l.restarts,
        min_classes,
        lp_bound: root.as_ref().map(|r| r.z),
        elapsed_s: start.elapsed().as_secs_f64(),
    })
}

/// optik's name for a pumpkin inference label (`size_cap` → `SizeCap`, `nogood` → `learned
/// nogood`).
fn display_label(label: &str, names: &[&'static str]) -> String {
    let plain: String = label.chars().filter(|&c| c != '_').collect();
    names
        .iter()
        .find(|n| n.eq_ignore_ascii_case(&plain))
        .map(|n| n.to_string())
        .unwrap_or_else(|| {
            if plain.eq_ignore_ascii_case("nogood") {
                "learned nogood".to_string()
            } else {
                label.to_string()
            }
        })
}

fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}
