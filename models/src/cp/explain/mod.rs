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

mod domains;
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

use super::model::{self, ModelSpec};
use super::{first_solution_classes, make_brancher, resolver, time_left, Search};
use crate::criteria::objective_of;
use crate::engine::{EngineError, Status};
use crate::invalid_input::InvalidInput;
use crate::root_lp::RootLp;
use crate::{ClassConstraints, Criterion, Instance, Partition};
use hooks::{Stop, Tracer, TracingPoster, TracingResolver};
use log::{Log, RawEvent, Shared};

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
pub fn explain(inst: &Instance, opts: &ExplainOptions) -> Result<Trace, EngineError> {
    let start = Instant::now();
    let criterion = opts.criterion;
    let obj_ub = objective_bound(inst, criterion)?;
    let deadline = opts.time_limit.map(|t| start + t);
    let no_constraints = ClassConstraints::default();
    let spec = ModelSpec {
        criterion,
        size_cap: false,
        min_classes: None,
        obj_ub,
        dual: None,
        node_lp: None,
        extra: &no_constraints,
    };
    // Split: the minimum number of classes from a first (unrecorded) solution.
    let min_classes = if criterion == Criterion::Split {
        let counters = Counters::default();
        first_solution_classes(inst, &spec, opts.search, &counters, time_left(deadline))
    } else {
        None
    };
    let root = root_lp(inst, opts);
    let mut traced = TracedSearch::new(
        inst,
        opts.search,
        &ModelSpec {
            size_cap: opts.size_cap && criterion != Criterion::Split,
            min_classes,
            dual: root.as_ref(),
            ..spec
        },
    );
    let (status, best) = traced.run(inst, criterion, deadline, opts.max_decisions);
    traced.recompute_explanations();
    let l = traced.log.borrow();
    let maximise = criterion.maximise();
    Ok(Trace {
        n: inst.n,
        k: inst.k.clone(),
        cmax: traced.model.cmax,
        criterion,
        scale: inst.scale,
        propagators: traced.poster.names.clone(),
        events: events(&l, &traced.poster.names, maximise),
        nodes: nodes(&l),
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

/// Checks the instance's size and returns the objective's upper bound (within pumpkin's i32).
fn objective_bound(inst: &Instance, criterion: Criterion) -> Result<i32, EngineError> {
    let n = inst.n;
    if n == 0 || n > MAX_RECORDS {
        return Err(InvalidInput(format!(
            "explain traces instances of 1 to {MAX_RECORDS} records; this one has {n}"
        ))
        .into());
    }
    let bound = model::objective_upper_bound(inst, criterion);
    i32::try_from(bound).map_err(|_| EngineError::ObjectiveOutOfRange { bound })
}

/// dbil and wcsd with `lp_bound`: the root LP whose duals the DualBound propagator posts.
fn root_lp(inst: &Instance, opts: &ExplainOptions) -> Option<RootLp> {
    if !(opts.lp_bound && matches!(opts.criterion, Criterion::Dbil | Criterion::Wcsd)) {
        return None;
    }
    crate::colgen::root_lp(
        inst,
        crate::ColgenOptions {
            criterion: opts.criterion,
            time_limit: opts.time_limit,
            ..crate::ColgenOptions::default()
        },
    )
}

/// How one search call ended.
enum Call {
    /// A solution: the class label of every record.
    Solution(Vec<i32>),
    /// No (better) solution exists.
    Exhausted,
    /// The decision or time limit stopped it.
    Stopped,
}

/// The model with a recorder around every propagator, the brancher and the resolver.
struct TracedSearch {
    model: model::Model,
    log: Shared,
    poster: TracingPoster,
    brancher: Tracer,
    resolver: TracingResolver,
    /// Initial domain bounds of `G_0..G_{n-1}` and of the objective.
    initial: Vec<(i32, i32)>,
}

impl TracedSearch {
    /// Builds the model of `spec` through the tracing poster.
    fn new(inst: &Instance, search: Search, spec: &ModelSpec) -> Self {
        let log = Log::new(Vec::new());
        let mut poster = TracingPoster {
            log: log.clone(),
            vars: Vec::new().into(),
            names: Vec::new(),
            adders: Vec::new(),
        };
        let model = model::build_with(inst, spec, &mut poster);
        let mut initial: Vec<(i32, i32)> = model
            .g
            .iter()
            .enumerate()
            .map(|(i, _)| (1, if i == 0 { 1 } else { model.cmax }))
            .collect();
        initial.push((0, spec.obj_ub));
        let brancher = Tracer {
            inner: make_brancher(&model, inst, search, Counters::default()),
            log: log.clone(),
        };
        let resolver = TracingResolver {
            inner: resolver(),
            log: log.clone(),
            initial: initial.clone(),
            maximise: spec.criterion.maximise(),
        };
        TracedSearch {
            model,
            log,
            poster,
            brancher,
            resolver,
            initial,
        }
    }

    /// The linear SAT-UNSAT search of [`super::solve_cp`], recorded: solve, then solve again
    /// under "objective better than the incumbent" until unsatisfiable or stopped.
    fn run(
        &mut self,
        inst: &Instance,
        criterion: Criterion,
        deadline: Option<Instant>,
        max_decisions: usize,
    ) -> (Status, Option<(Partition, i64)>) {
        let maximise = criterion.maximise();
        let obj = self.model.objective;
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
            self.log
                .borrow_mut()
                .begin_search(assumption.first().copied(), assumption.len());
            let labels = match self.solve_under(&assumption, deadline, max_decisions) {
                Call::Solution(labels) => labels,
                Call::Exhausted if best.is_some() => break Status::Optimal,
                Call::Exhausted => break Status::Infeasible,
                Call::Stopped if best.is_some() => break Status::Feasible,
                Call::Stopped => break Status::Unknown,
            };
            let p = Partition::from_labels(&labels);
            let v = objective_of(inst, &p, criterion);
            let mut l = self.log.borrow_mut();
            l.record_solution(v, labels);
            let improves = best
                .as_ref()
                .is_none_or(|(_, b)| if maximise { v > *b } else { v < *b });
            if !improves {
                l.events.push(RawEvent::Stopped);
                break Status::Feasible;
            }
            best = Some((p, v));
        };
        (status, best)
    }

    /// One search call under `assumption`, logged as exhausted or stopped when it ends without
    /// a solution.
    fn solve_under(
        &mut self,
        assumption: &[Predicate],
        deadline: Option<Instant>,
        max_decisions: usize,
    ) -> Call {
        let mut term = Stop {
            deadline,
            max_decisions,
            log: self.log.clone(),
        };
        let g = self.model.g.clone();
        let call = match self.model.solver.satisfy_under_assumptions(
            &mut self.brancher,
            &mut term,
            &mut self.resolver,
            assumption,
        ) {
            SatisfactionResultUnderAssumptions::Satisfiable(s) => Call::Solution(
                g.iter()
                    .map(|&x| s.solution().get_integer_value(x))
                    .collect(),
            ),
            SatisfactionResultUnderAssumptions::UnsatisfiableUnderAssumptions(_)
            | SatisfactionResultUnderAssumptions::Unsatisfiable(_) => {
                let mut l = self.log.borrow_mut();
                l.sync();
                let search = l.search;
                l.events.push(RawEvent::Exhausted { search });
                return Call::Exhausted;
            }
            SatisfactionResultUnderAssumptions::Unknown(_) => Call::Stopped,
        };
        let mut l = self.log.borrow_mut();
        l.pending_restart = false;
        if matches!(call, Call::Stopped) {
            l.events.push(RawEvent::Stopped);
        }
        call
    }

    /// Fills in the explanations pumpkin never stored (root facts, branches ending in a
    /// solution) by replaying each propagator alone on the domains it saw.
    fn recompute_explanations(&mut self) {
        let mut l = self.log.borrow_mut();
        let mut replayer = replay::Replayer::new(
            l.vars.clone(),
            self.initial.clone(),
            std::mem::take(&mut self.poster.adders),
        );
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
}

/// The recorded events with pumpkin's predicates as [`Lit`]s and inference labels as optik's
/// propagator names.
fn events(l: &Log, names: &[&'static str], maximise: bool) -> Vec<Event> {
    let lit = |p: Predicate| l.lit(p).expect("predicates of the model's variables");
    let change = |c: &log::RawChange| Change {
        lit: lit(c.why.as_ref().map_or(c.pred, |w| w.posted)),
        fixes: c.fixes.map(lit),
        because: c.why.as_ref().map(|w| Because {
            by: display_label(&w.label, names),
            premises: w.premises.iter().filter_map(|&p| l.lit(p)).collect(),
            recomputed: w.recomputed,
        }),
    };
    l.events
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
        .collect()
}

/// The recorded search-tree nodes with their decisions as [`Lit`]s.
fn nodes(l: &Log) -> Vec<Node> {
    l.nodes
        .iter()
        .map(|nd| Node {
            parent: nd.parent,
            search: nd.search,
            level: nd.level.unwrap_or(0),
            decision: l
                .lit(nd.decision)
                .expect("predicates of the model's variables"),
            leaf: nd.leaf,
        })
        .collect()
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
