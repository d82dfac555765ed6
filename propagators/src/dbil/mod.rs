//! DBIL (seed 001 algorithm 8, with a stronger and additive bound): the objective
//! `I = Σ_C |C|·diam(C)` is bounded below by the exact cost of the assigned part plus, for every
//! unassigned record, the cheapest class it can still join; see [`bound`] for the bound.
//!
//! Propagation: `I ≥ LB`; `I ≤ DBIL` once every record is assigned; and `G_r ≠ j` when
//! `LB − μ_r + est(r, j) > ub(I)` (the cheapest completion with `r` in `j` exceeds the incumbent).

pub mod bound;
mod checker;

pub use bound::{DbilData, DbilEval};
pub use checker::DbilChecker;

use std::sync::Arc;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::{Predicate, PropositionalConjunction};
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::PropagationStatusCP;
use pumpkin_core::variables::DomainId;

use crate::common::{clamp32, eq, ge, le, ne, register, DistMatrix, Snapshot};

declare_inference_label!(Dbil);

/// Constructor of [`DbilPropagator`].
#[derive(Clone, Debug)]
pub struct DbilConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Distances.
    pub dist: DistMatrix,
    /// k_i per record.
    pub k: Vec<u32>,
    /// m_i per record (see [`crate::min_k_diameters`]).
    pub m: Vec<i64>,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for DbilConstructor {
    type PropagatorImpl = DbilPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let data = DbilData {
            dist: self.dist,
            k: Arc::from(self.k),
            m: Arc::from(self.m),
            cmax: self.cmax,
        };
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            Dbil,
            DbilChecker {
                vars: self.vars.clone(),
                objective: self.objective,
                data: data.clone(),
            },
        );
        PropagatorSpec {
            registration: register(
                &self.vars,
                DomainEvents::ANY_INT,
                Some((self.objective, DomainEvents::UPPER_BOUND)),
            ),
            checkers: checkers.build(),
            propagator: DbilPropagator {
                vars: self.vars,
                objective: self.objective,
                data,
                inference_code,
            },
        }
    }
}

/// The DBIL propagator.
#[derive(Clone, Debug)]
pub struct DbilPropagator {
    vars: Vec<DomainId>,
    objective: DomainId,
    data: DbilData,
    inference_code: InferenceCode,
}

impl DbilPropagator {
    /// The explanation of the bound without the domain exclusions of record `skip`.
    fn explain(&self, s: &Snapshot, ev: &DbilEval, skip: Option<usize>) -> Vec<Predicate> {
        let mut reason = Vec::new();
        for (j, a) in ev.members.iter().enumerate() {
            for &l in a {
                reason.push(eq(self.vars[l], j as i32));
            }
        }
        for (j, t) in ev.threshold.iter().enumerate() {
            if let Some(t) = *t {
                let j = j as i32;
                for &r in &ev.unfixed {
                    if !s.contains(r, j) && ev.e(&self.data, r, j) < t {
                        reason.push(ne(self.vars[r], j));
                    }
                }
            }
        }
        for &r in &ev.unfixed {
            if Some(r) == skip {
                continue;
            }
            self.explain_record(s, ev, r, &mut reason);
        }
        reason
    }

    /// Exclusions that keep `μ_r` at its value.
    fn explain_record(&self, s: &Snapshot, ev: &DbilEval, r: usize, reason: &mut Vec<Predicate>) {
        let mu = ev.mu[r];
        if mu <= self.data.m[r] {
            return;
        }
        for j in 1..=self.data.cmax {
            if !s.contains(r, j) && ev.est(&self.data, r, j) < mu {
                reason.push(ne(self.vars[r], j));
            }
        }
    }
}

impl Propagator for DbilPropagator {
    fn name(&self) -> &str {
        "Dbil"
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let s = Snapshot::from_domains(&context, &self.vars, self.data.cmax);
        if s.empty {
            return Ok(());
        }
        let ev = bound::evaluate(&self.data, &s, &s.fixed);
        let lb = ev.lb;
        let obj_lb = context.lower_bound(&self.objective) as i64;
        let obj_ub = context.upper_bound(&self.objective) as i64;
        if lb > obj_lb {
            let reason: PropositionalConjunction = self.explain(&s, &ev, None).into();
            context.post(
                ge(self.objective, clamp32(lb)),
                (reason, &self.inference_code),
            )?;
        }
        if ev.complete {
            if obj_ub > lb {
                let reason: PropositionalConjunction = self.explain(&s, &ev, None).into();
                context.post(
                    le(self.objective, clamp32(lb)),
                    (reason, &self.inference_code),
                )?;
            }
            return Ok(());
        }
        // Pruning: r cannot join j when the cheapest completion with r in j exceeds ub(I).
        let mut base: Option<Vec<Predicate>> = None;
        for idx in 0..ev.unfixed.len() {
            let r = ev.unfixed[idx];
            let rest = lb - ev.mu[r];
            for j in s.values(r) {
                let with = rest + ev.est(&self.data, r, j);
                if with > obj_ub {
                    let base = base.get_or_insert_with(|| self.explain(&s, &ev, Some(usize::MAX)));
                    // base holds every record's exclusions; drop r's own ones.
                    let mut own = Vec::new();
                    self.explain_record(&s, &ev, r, &mut own);
                    let mut reason: Vec<Predicate> =
                        base.iter().copied().filter(|p| !own.contains(p)).collect();
                    reason.push(le(self.objective, clamp32(with - 1)));
                    context.post(
                        ne(self.vars[r], j),
                        (PropositionalConjunction::from(reason), &self.inference_code),
                    )?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{line, Harness};

    /// Records on a line at `points` (k = 2 each, `m` their smallest class diameters) and
    /// `I ∈ [0, i_max]`.
    fn post(
        points: &[i64],
        m: &[i64],
        domains: &[&[i32]],
        cmax: i32,
        i_max: i32,
    ) -> (Harness, Vec<DomainId>, DomainId) {
        let (mut h, g) = Harness::new(domains);
        let objective = h.variable(0, i_max);
        let constraint_tag = h.tag();
        h.post(DbilConstructor {
            vars: g.clone(),
            objective,
            dist: line(points),
            k: vec![2; points.len()],
            m: m.to_vec(),
            cmax,
            constraint_tag,
        })
        .expect("no conflict");
        (h, g, objective)
    }

    /// Records at 0, 1, 10, 12: 0 in class 1, 2 in class 2, the others free. The bound is
    /// 1·1 + 1·2 (classes) + 1 + 2 (records 1 and 3 at their cheapest) = 6.
    fn two_classes_started(i_max: i32) -> (Harness, Vec<DomainId>, DomainId) {
        let both: &[i32] = &[1, 2];
        post(
            &[0, 1, 10, 12],
            &[1, 1, 2, 2],
            &[&[1], both, &[2], both],
            2,
            i_max,
        )
    }

    /// Records at 0, 1, 10, 12, −1: 0 in class 1, 2 in class 2, record 1 kept out of class 1.
    /// Record 1 then pays at least 2 (class 3 with record 4), more than its m = 1; the bound is
    /// 1 + 2 (classes) + 2 + 2 + 1 (records 1, 3, 4) = 8.
    fn record_kept_from_its_cheapest_class(i_max: i32) -> (Harness, Vec<DomainId>, DomainId) {
        let all: &[i32] = &[1, 2, 3];
        post(
            &[0, 1, 10, 12, -1],
            &[1, 1, 2, 2, 1],
            &[&[1], &[2, 3], &[2], all, all],
            3,
            i_max,
        )
    }

    #[test]
    fn dbil_raises_the_objective_to_the_lower_bound() {
        let (mut h, g, obj) = two_classes_started(100);
        assert_eq!(h.bounds(obj), (6, 100));
        h.assert_reason(ge(obj, 6), &[eq(g[0], 1), eq(g[2], 2)]);
    }

    #[test]
    fn dbil_lower_bound_reason_names_the_exclusions_that_keep_a_class_threshold() {
        // Record 1 is kept out of class 1, so record 0's only possible classmate is record 3
        // at distance 12: δ_1 = 12, and the bound is 12 + 2 + 9 + 2 = 25.
        let all: &[i32] = &[1, 2, 3];
        let (mut h, g, obj) = post(
            &[0, 1, 10, 12],
            &[1, 1, 2, 2],
            &[&[1], &[2, 3], &[2], all],
            3,
            100,
        );
        assert_eq!(h.bounds(obj), (25, 100));
        h.assert_reason(ge(obj, 25), &[eq(g[0], 1), eq(g[2], 2), ne(g[1], 1)]);
    }

    #[test]
    fn dbil_lower_bound_reason_names_the_exclusions_that_raise_a_records_cost() {
        let (mut h, g, obj) = record_kept_from_its_cheapest_class(100);
        assert_eq!(h.bounds(obj), (8, 100));
        h.assert_reason(ge(obj, 8), &[eq(g[0], 1), eq(g[2], 2), ne(g[1], 1)]);
    }

    #[test]
    fn dbil_fixes_the_objective_once_every_record_is_assigned() {
        let (mut h, g, obj) = post(
            &[0, 1, 10, 12],
            &[1, 1, 2, 2],
            &[&[1], &[1], &[2], &[2]],
            2,
            100,
        );
        assert_eq!(h.bounds(obj), (6, 6));
        let all = [eq(g[0], 1), eq(g[1], 1), eq(g[2], 2), eq(g[3], 2)];
        h.assert_reason(ge(obj, 6), &all);
        h.assert_reason(le(obj, 6), &all);
    }

    #[test]
    fn dbil_removes_a_class_whose_cheapest_completion_exceeds_the_incumbent() {
        // Record 1 in class 2 costs 9 instead of 1 (bound 14); record 3 in class 1 costs 12
        // instead of 2 (bound 16).
        let (mut h, g, obj) = two_classes_started(10);
        assert_eq!(h.domain(g[1], 1, 2), vec![1]);
        assert_eq!(h.domain(g[3], 1, 2), vec![2]);
        h.assert_reason(ne(g[1], 2), &[eq(g[0], 1), eq(g[2], 2), le(obj, 13)]);
        h.assert_reason(ne(g[3], 1), &[eq(g[0], 1), eq(g[2], 2), le(obj, 15)]);
    }

    #[test]
    fn dbil_pruning_reason_leaves_out_the_pruned_records_own_exclusions() {
        let (mut h, g, obj) = record_kept_from_its_cheapest_class(100);
        h.restrict(le(obj, 14));
        h.propagate_once().expect("no conflict");
        // Record 1 in class 2 pays 9 instead of 2 (bound 15): its own exclusion of class 1,
        // which only raised its cheapest cost, is not needed.
        assert_eq!(h.domain(g[1], 1, 3), vec![3]);
        h.assert_reason(ne(g[1], 2), &[eq(g[0], 1), eq(g[2], 2), le(obj, 14)]);
        // Record 3 in class 1 pays 12 instead of 2 (bound 18): record 1's exclusion stays.
        h.assert_reason(
            ne(g[3], 1),
            &[eq(g[0], 1), eq(g[2], 2), ne(g[1], 1), le(obj, 17)],
        );
    }
}
