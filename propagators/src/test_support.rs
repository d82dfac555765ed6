//! Helpers for the propagators' unit tests, in the style of pumpkin's own propagator tests: build
//! a state in pumpkin's [`TestSolver`], post one propagator (which propagates it to a fixed
//! point), then read back the domains, the reason the propagator gave for a propagation, or the
//! explanation of a conflict.
//!
//! Reasons are compared as sets of predicates: a conjunction means the same whatever the order
//! (and repetition) of its predicates.

// pumpkin marks `TestSolver` "to be replaced by the state API"; it is still the way pumpkin's
// own propagators are tested, and this file is the only one that calls it.
#![allow(deprecated)]

use pumpkin_core::predicates::Predicate;
use pumpkin_core::proof::ConstraintTag;
use pumpkin_core::propagation::{PropagatorConstructor, PropagatorId};
use pumpkin_core::state::{Conflict, CurrentNogood};
use pumpkin_core::variables::DomainId;
use pumpkin_core::TestSolver;

use crate::common::{DistMatrix, Snapshot};

/// A [`TestSolver`] with the few calls these tests make.
#[derive(Debug)]
pub(crate) struct Harness {
    solver: TestSolver,
    /// The propagator under test, once posted.
    propagator: Option<PropagatorId>,
}

impl Harness {
    /// A state with one class variable per domain (each domain lists its values).
    pub(crate) fn new(domains: &[&[i32]]) -> (Harness, Vec<DomainId>) {
        let mut solver = TestSolver::default();
        let vars = domains
            .iter()
            .map(|d| solver.new_sparse_variable(d.to_vec()))
            .collect();
        (
            Harness {
                solver,
                propagator: None,
            },
            vars,
        )
    }

    /// A further variable with domain `lo..=hi` (an objective).
    pub(crate) fn variable(&mut self, lo: i32, hi: i32) -> DomainId {
        self.solver.new_variable(lo, hi)
    }

    /// A fresh constraint tag for a constructor.
    pub(crate) fn tag(&mut self) -> ConstraintTag {
        self.solver.new_constraint_tag()
    }

    /// Adds the propagator and propagates to a fixed point.
    pub(crate) fn post<C>(&mut self, constructor: C) -> Result<(), Conflict>
    where
        C: PropagatorConstructor,
        C::PropagatorImpl: 'static,
    {
        let id = self.solver.new_propagator(constructor)?;
        self.propagator = Some(id);
        Ok(())
    }

    /// Makes `predicate` true (as a search decision would), without propagating.
    pub(crate) fn restrict(&mut self, predicate: Predicate) {
        self.solver
            .state
            .post(predicate)
            .expect("the restriction leaves the domain non-empty");
    }

    /// Opens a new checkpoint (a decision level): what is restricted next belongs to it.
    pub(crate) fn checkpoint(&mut self) {
        self.solver.state.new_checkpoint();
    }

    /// Runs the posted propagator once more (one pass, not to a fixed point).
    pub(crate) fn propagate_once(&mut self) -> Result<(), Conflict> {
        let id = self.propagator.expect("a propagator was posted");
        self.solver.propagate(id)
    }

    /// The current domains of `vars` within `1..=cmax`.
    pub(crate) fn snapshot(&mut self, vars: &[DomainId], cmax: i32) -> Snapshot {
        Snapshot::from_domains(&self.solver.state.get_domains(), vars, cmax)
    }

    /// `(lower bound, upper bound)` of `x`.
    pub(crate) fn bounds(&self, x: DomainId) -> (i32, i32) {
        (self.solver.lower_bound(x), self.solver.upper_bound(x))
    }

    /// The values left in the domain of `x` among `lo..=hi`.
    pub(crate) fn domain(&self, x: DomainId, lo: i32, hi: i32) -> Vec<i32> {
        (lo..=hi).filter(|&v| self.solver.contains(x, v)).collect()
    }

    /// Asserts that `propagated` was propagated with exactly `expected` as its reason.
    #[track_caller]
    pub(crate) fn assert_reason(&mut self, propagated: Predicate, expected: &[Predicate]) {
        let reason = self.solver.get_reason_int(propagated);
        assert_same_predicates(reason.as_slice(), expected);
    }

    /// Asserts that `result` is an empty domain caused by propagating `trigger` with exactly
    /// `expected` as its reason.
    #[track_caller]
    pub(crate) fn assert_empty_domain(
        &mut self,
        result: Result<(), Conflict>,
        trigger: Predicate,
        expected: &[Predicate],
    ) {
        match result {
            Err(Conflict::EmptyDomain(c)) => {
                assert_eq!(
                    c.trigger_predicate, trigger,
                    "the predicate that emptied a domain"
                );
                let mut reason = Vec::new();
                let _ = c.get_reason(&mut self.solver.state, &mut reason, CurrentNogood::empty());
                assert_same_predicates(&reason, expected);
            }
            other => panic!("expected an empty domain, got {other:?}"),
        }
    }
}

/// Distances between points on a line.
pub(crate) fn line(points: &[i64]) -> DistMatrix {
    let rows: Vec<Vec<i64>> = points
        .iter()
        .map(|a| points.iter().map(|b| (a - b).abs()).collect())
        .collect();
    DistMatrix::new(&rows)
}

/// Asserts that `a` and `b` hold the same predicates.
#[track_caller]
pub(crate) fn assert_same_predicates(a: &[Predicate], b: &[Predicate]) {
    let a_in_b = a.iter().all(|p| b.contains(p));
    let b_in_a = b.iter().all(|p| a.contains(p));
    assert!(
        a_in_b && b_in_a,
        "predicates differ:\n  got      {a:?}\n  expected {b:?}"
    );
}

/// Asserts that `result` is a conflict stated by a propagator with exactly `expected` as its
/// explanation.
#[track_caller]
pub(crate) fn assert_conflict(result: Result<(), Conflict>, expected: &[Predicate]) {
    match result {
        Err(Conflict::Propagator(c)) => assert_same_predicates(c.conjunction.as_slice(), expected),
        other => panic!("expected a propagator conflict, got {other:?}"),
    }
}
