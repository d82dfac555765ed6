//! The hooks through which `optik explain` watches pumpkin search, without changing it:
//! a wrapper around each optik propagator (what it removed, or the conflict it reported), a
//! wrapper around the brancher (each decision, restarts) and one around the conflict resolver
//! (the conflict, pumpkin's stored explanation of every propagation still on the trail, and the
//! learned nogood). Each wrapper delegates every call unchanged.

use std::time::Instant;

use optik_propagators::pumpkin_conflict_resolvers::resolvers::ResolutionResolver;
use optik_propagators::pumpkin_core::branching::{Brancher, SelectionContext};
use optik_propagators::pumpkin_core::conflict_resolving::{
    ConflictAnalysisContext, ConflictResolver,
};
use optik_propagators::pumpkin_core::predicates::{Predicate, PredicateConstructor};
use optik_propagators::pumpkin_core::propagation::{
    Domains, EnqueueDecision, ExplanationContext, LazyExplanation, LocalId, NotificationContext,
    OpaqueDomainEvent, PredicateId, Priority, PropagationContext, Propagator,
    PropagatorConstructor, PropagatorConstructorContext, PropagatorSpec,
};
use optik_propagators::pumpkin_core::state::{Conflict, CurrentNogood, PropagationStatusCP, State};
use optik_propagators::pumpkin_core::statistics::StatisticLogger;
use optik_propagators::pumpkin_core::termination::TerminationCondition;
use optik_propagators::pumpkin_core::variables::DomainId;
use optik_propagators::pumpkin_core::Solver;

use super::domains::{snap, trail_entry, Snap};
use super::log::{RawChange, RawEvent, Shared, Why};
use super::replay::AddTo;
use crate::cp::model::Poster;
use crate::cp::AnyBrancher;

/// What became true between two snapshots, as bounds and removals (what a propagator posts),
/// each with the value its variable is now fixed to, if the domain became a single value.
fn changes(vars: &[DomainId], before: &Snap, after: &Snap) -> Vec<RawChange> {
    let (obj, g) = vars.split_last().expect("objective");
    let mut out = Vec::new();
    for (i, x) in g.iter().enumerate() {
        let (b, a) = (before.masks[i], after.masks[i]);
        if a == b || a == 0 {
            continue;
        }
        let fixes = (a.count_ones() == 1).then(|| x.equality_predicate(a.trailing_zeros() as i32));
        let (lo, hi) = (a.trailing_zeros() as i32, 63 - a.leading_zeros() as i32);
        let (old_lo, old_hi) = (b.trailing_zeros() as i32, 63 - b.leading_zeros() as i32);
        let mut preds = Vec::new();
        if lo > old_lo {
            preds.push(x.lower_bound_predicate(lo));
        }
        if hi < old_hi {
            preds.push(x.upper_bound_predicate(hi));
        }
        preds.extend(
            (lo + 1..hi)
                .filter(|&v| b & !a & (1u64 << v) != 0)
                .map(|v| x.disequality_predicate(v)),
        );
        out.extend(preds.into_iter().map(|pred| RawChange {
            pred,
            fixes,
            why: None,
        }));
    }
    let fixed = (after.obj.0 == after.obj.1).then(|| obj.equality_predicate(after.obj.0));
    if after.obj.0 > before.obj.0 {
        out.push(RawChange {
            pred: obj.lower_bound_predicate(after.obj.0),
            fixes: fixed,
            why: None,
        });
    }
    if after.obj.1 < before.obj.1 {
        out.push(RawChange {
            pred: obj.upper_bound_predicate(after.obj.1),
            fixes: fixed,
            why: None,
        });
    }
    out
}

/// An optik propagator with a recorder around it.
#[derive(Clone)]
pub(super) struct Traced<P> {
    inner: P,
    name: &'static str,
    log: Shared,
    vars: std::rc::Rc<[DomainId]>,
}

impl<P> Traced<P> {
    fn before(&self, context: &mut PropagationContext) -> Snap {
        let s = snap(&self.vars, &context.domains());
        let mut log = self.log.borrow_mut();
        log.sync();
        log.resolve_pending(s.level);
        s
    }

    fn after(&self, before: Snap, context: &mut PropagationContext, result: &PropagationStatusCP) {
        let after = snap(&self.vars, &context.domains());
        let posted = changes(&self.vars, &before, &after);
        let mut log = self.log.borrow_mut();
        if !posted.is_empty() {
            log.events.push(RawEvent::Propagation {
                level: before.level,
                propagator: self.name,
                changes: posted,
                open: true,
                before: before.clone(),
            });
        }
        if let Err(conflict) = result {
            let (trigger, explanation) = match conflict {
                Conflict::Propagator(c) => (None, c.conjunction.iter().copied().collect()),
                Conflict::EmptyDomain(e) => (Some(e.trigger_predicate), Vec::new()),
            };
            log.pending_conflict = Some(log.events.len());
            log.events.push(RawEvent::Conflict {
                level: before.level,
                propagator: Some(self.name),
                trigger,
                explanation,
            });
        }
    }
}

impl<P: Propagator + Clone> Propagator for Traced<P> {
    fn name(&self) -> &str {
        self.name
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let before = self.before(&mut context);
        let result = self.inner.propagate_from_scratch(context.reborrow());
        self.after(before, &mut context, &result);
        result
    }

    fn propagate(&mut self, mut context: PropagationContext) -> PropagationStatusCP {
        let before = self.before(&mut context);
        let result = self.inner.propagate(context.reborrow());
        self.after(before, &mut context, &result);
        result
    }

    fn notify(
        &mut self,
        context: NotificationContext,
        local_id: LocalId,
        event: OpaqueDomainEvent,
    ) -> EnqueueDecision {
        self.inner.notify(context, local_id, event)
    }

    fn notify_backtrack(&mut self, context: Domains, local_id: LocalId, event: OpaqueDomainEvent) {
        self.inner.notify_backtrack(context, local_id, event)
    }

    fn notify_predicate_id_satisfied(
        &mut self,
        context: NotificationContext,
        predicate_id: PredicateId,
    ) -> EnqueueDecision {
        self.inner
            .notify_predicate_id_satisfied(context, predicate_id)
    }

    fn synchronise(&mut self, context: NotificationContext<'_>) {
        self.inner.synchronise(context)
    }

    fn priority(&self) -> Priority {
        self.inner.priority()
    }

    fn detect_inconsistency(
        &self,
        domains: Domains,
    ) -> Option<optik_propagators::pumpkin_core::state::PropagatorConflict> {
        self.inner.detect_inconsistency(domains)
    }

    fn lazy_explanation(&mut self, code: u64, context: ExplanationContext) -> LazyExplanation<'_> {
        self.inner.lazy_explanation(code, context)
    }

    fn log_statistics(&self, statistic_logger: StatisticLogger) {
        self.inner.log_statistics(statistic_logger)
    }
}

/// Constructor of a [`Traced`] propagator.
struct TracedConstructor<C> {
    inner: C,
    name: &'static str,
    log: Shared,
    vars: std::rc::Rc<[DomainId]>,
}

impl<C> PropagatorConstructor for TracedConstructor<C>
where
    C: PropagatorConstructor,
    C::PropagatorImpl: 'static,
{
    type PropagatorImpl = Traced<C::PropagatorImpl>;

    fn create(self, context: PropagatorConstructorContext) -> PropagatorSpec<Self::PropagatorImpl> {
        let spec = self.inner.create(context);
        PropagatorSpec {
            registration: spec.registration,
            checkers: spec.checkers,
            propagator: Traced {
                inner: spec.propagator,
                name: self.name,
                log: self.log,
                vars: self.vars,
            },
        }
    }
}

/// Posts every propagator of the model wrapped in [`Traced`]; remembers their names and keeps
/// a copy of each constructor to replay the propagator alone (see [`super::replay`]).
pub(super) struct TracingPoster {
    pub log: Shared,
    pub vars: std::rc::Rc<[DomainId]>,
    pub names: Vec<&'static str>,
    pub adders: Vec<(&'static str, AddTo)>,
}

impl Poster for TracingPoster {
    fn variables(&mut self, g: &[DomainId], objective: DomainId) {
        let mut all = g.to_vec();
        all.push(objective);
        self.log.borrow_mut().vars = all.clone();
        self.vars = all.into();
    }

    fn post<C>(&mut self, solver: &mut Solver, name: &'static str, constructor: C)
    where
        C: PropagatorConstructor + Clone + 'static,
        C::PropagatorImpl: 'static,
    {
        let vars = self.vars.clone();
        self.names.push(name);
        let copy = constructor.clone();
        self.adders.push((
            name,
            std::rc::Rc::new(move |state: &mut State| {
                let _ = state.add_propagator(copy.clone());
            }),
        ));
        let _ = solver.add_propagator(TracedConstructor {
            inner: constructor,
            name,
            log: self.log.clone(),
            vars,
        });
    }
}

/// The model's brancher with a recorder around it.
#[derive(Debug)]
pub(super) struct Tracer {
    pub inner: AnyBrancher,
    pub log: Shared,
}

impl std::fmt::Debug for super::log::Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log")
            .field("events", &self.events.len())
            .finish_non_exhaustive()
    }
}

optik_propagators::forward_brancher! {
    impl Brancher for Tracer {
        to inner;

        fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
            let d = self.inner.next_decision(context);
            if let Some(p) = d {
                self.log.borrow_mut().decision(p);
            }
            d
        }

        fn on_backtrack(&mut self) {
            {
                let mut log = self.log.borrow_mut();
                if !log.in_resolver {
                    log.pending_restart = true;
                }
            }
            self.inner.on_backtrack()
        }
    }
}

/// pumpkin's resolution (1UIP) conflict resolver with a recorder around it.
#[derive(Clone, Debug)]
pub(super) struct TracingResolver {
    pub inner: ResolutionResolver,
    pub log: Shared,
    /// Initial bounds of each model variable (to list the predicates that can be on the trail).
    pub initial: Vec<(i32, i32)>,
    pub maximise: bool,
}

impl TracingResolver {
    /// Every atomic predicate over a model variable that currently holds and is not implied by
    /// its initial domain.
    fn holding(&self, context: &ConflictAnalysisContext) -> Vec<Predicate> {
        let state = context.get_state();
        let vars = self.log.borrow().vars.clone();
        let mut out = Vec::new();
        for (x, &(lo, hi)) in vars.iter().zip(&self.initial) {
            let (lb, ub) = (state.lower_bound(*x), state.upper_bound(*x));
            if lb == ub {
                out.push(x.equality_predicate(lb));
            }
            if lb > lo {
                out.push(x.lower_bound_predicate(lb));
            }
            if ub < hi {
                out.push(x.upper_bound_predicate(ub));
            }
            if hi - lo <= 64 {
                for v in lo..=hi {
                    if !state.contains(*x, v) {
                        out.push(x.disequality_predicate(v));
                    }
                }
            }
        }
        out
    }
}

impl ConflictResolver for TracingResolver {
    fn resolve_conflict(&mut self, context: &mut ConflictAnalysisContext) {
        let level = context.get_state().get_checkpoint();
        let nogood = context.get_conflict_nogood();
        // Ask pumpkin for the stored explanation of every recorded propagation still on the
        // trail (they are undone by the backjump below).
        let wanted: Vec<(usize, usize, Predicate, usize)> = {
            let mut log = self.log.borrow_mut();
            log.sync();
            log.resolve_pending(level);
            log.events
                .iter()
                .enumerate()
                .filter_map(|(e, ev)| match ev {
                    RawEvent::Propagation {
                        level: l,
                        changes,
                        open: true,
                        ..
                    } => Some((e, *l, changes)),
                    _ => None,
                })
                .flat_map(|(e, l, changes)| {
                    changes
                        .iter()
                        .enumerate()
                        .filter(|(_, ch)| ch.why.is_none())
                        .map(move |(c, ch)| (e, c, ch.pred, l))
                })
                .collect()
        };
        let vars = self.log.borrow().vars.clone();
        let mut answers = Vec::new();
        for (e, c, p, l) in wanted {
            let state = context.get_state();
            // Root facts are given to conflict analysis without their reason.
            if l == 0
                || state.truth_value(p) != Some(true)
                || state.get_checkpoint_for_predicate(p) != Some(l)
            {
                continue;
            }
            // The trail entry that made `p` true: only its own predicate has the stored reason
            // (for an implied predicate pumpkin answers with the implying one).
            let Some(entry) = trail_entry(context.get_state(), &vars, &self.initial, p) else {
                continue;
            };
            let mut buf: Vec<Predicate> = Vec::new();
            let code = context.get_propagation_reason_without_proof_log(
                entry,
                CurrentNogood::empty(),
                &mut buf,
            );
            answers.push((e, c, Why::new(entry, code, buf, false)));
        }
        {
            let mut log = self.log.borrow_mut();
            for (e, c, why) in answers {
                if let RawEvent::Propagation { changes, .. } = &mut log.events[e] {
                    changes[c].why = Some(why);
                }
            }
            let pruned = nogood
                .iter()
                .any(|&p| log.is_objective_bound(p, self.maximise));
            match log.pending_conflict.take() {
                Some(e) => {
                    if let RawEvent::Conflict { explanation, .. } = &mut log.events[e] {
                        if explanation.is_empty() {
                            *explanation = nogood.clone();
                        }
                    }
                }
                None => log.events.push(RawEvent::Conflict {
                    level,
                    propagator: None,
                    trigger: None,
                    explanation: nogood.clone(),
                }),
            }
            log.mark_leaf(if pruned {
                super::trace::Leaf::Pruned
            } else {
                super::trace::Leaf::Conflict
            });
            log.conflicts += 1;
            log.in_resolver = true;
        }
        self.inner.resolve_conflict(context);
        // The learned nogood asserted the latest predicate on the trail; its stored reason is
        // the rest of the nogood.
        let state = context.get_state();
        let backjump = state.get_checkpoint();
        let asserted = self
            .holding(context)
            .into_iter()
            .filter_map(|p| {
                state
                    .trail_position(p)
                    .map(|t| (t, state.is_on_trail(p), p))
            })
            .max_by_key(|&(t, exact, _)| (t, exact))
            .map(|(_, _, p)| p);
        let mut learned = Vec::new();
        if let Some(a) = asserted {
            let _ = context.get_propagation_reason_without_proof_log(
                a,
                CurrentNogood::empty(),
                &mut learned,
            );
            learned.push(!a);
        }
        let mut log = self.log.borrow_mut();
        log.in_resolver = false;
        log.close_above(backjump);
        while let Some(&last) = log.path.last() {
            if log.nodes[last].level.is_some_and(|l| l > backjump) {
                log.path.pop();
            } else {
                break;
            }
        }
        log.events.push(RawEvent::Learned {
            nogood: learned,
            backjump,
            asserted,
        });
    }
}

/// Stops the search at a deadline or after a number of decisions.
pub(super) struct Stop {
    pub deadline: Option<Instant>,
    pub max_decisions: usize,
    pub log: Shared,
}

impl TerminationCondition for Stop {
    fn should_stop(&mut self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .log
                .try_borrow()
                .is_ok_and(|l| l.decisions >= self.max_decisions)
    }
}
