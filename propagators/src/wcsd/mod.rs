//! WCSD (within-cluster sum of distances), minimised: exact cost of the assigned part plus a
//! per-record bound for the rest (see [`bound`]). Propagates `W ≥ LB`, `W ≤ WCSD` once complete,
//! and `G_r ≠ j` when the cheapest completion with `r` in `j` exceeds `ub(W)`.

pub mod bound;
mod checker;

pub use bound::{WcsdData, WcsdEval};
pub use checker::WcsdChecker;

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

declare_inference_label!(Wcsd);

/// Constructor of [`WcsdPropagator`].
#[derive(Clone, Debug)]
pub struct WcsdConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Distances.
    pub dist: DistMatrix,
    /// k_i per record.
    pub k: Vec<u32>,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for WcsdConstructor {
    type PropagatorImpl = WcsdPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let data = WcsdData {
            dist: self.dist,
            k: Arc::from(self.k),
            cmax: self.cmax,
        };
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            Wcsd,
            WcsdChecker {
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
            propagator: WcsdPropagator {
                vars: self.vars,
                objective: self.objective,
                data,
                inference_code,
            },
        }
    }
}

/// The WCSD propagator.
#[derive(Clone, Debug)]
pub struct WcsdPropagator {
    vars: Vec<DomainId>,
    objective: DomainId,
    data: WcsdData,
    inference_code: InferenceCode,
}

impl WcsdPropagator {
    fn explain(&self, s: &Snapshot, ev: &WcsdEval, skip: Option<usize>) -> Vec<Predicate> {
        let mut reason = Vec::new();
        for (j, a) in ev.members.iter().enumerate() {
            for &l in a {
                reason.push(eq(self.vars[l], j as i32));
            }
        }
        for &r in &ev.unfixed {
            if Some(r) != skip {
                self.explain_record(s, ev, r, &mut reason);
            }
        }
        reason
    }

    fn explain_record(&self, s: &Snapshot, ev: &WcsdEval, r: usize, reason: &mut Vec<Predicate>) {
        let t = ev.t[r];
        for j in 1..=self.data.cmax {
            if !s.contains(r, j) && ev.est(&self.data, r, j) < t {
                reason.push(ne(self.vars[r], j));
            }
        }
    }
}

impl Propagator for WcsdPropagator {
    fn name(&self) -> &str {
        "Wcsd"
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
        let lb = ev.lb();
        if lb > context.lower_bound(&self.objective) as i64 {
            let reason: PropositionalConjunction = self.explain(&s, &ev, None).into();
            context.post(
                ge(self.objective, clamp32(lb)),
                (reason, &self.inference_code),
            )?;
        }
        if ev.complete {
            if context.upper_bound(&self.objective) as i64 > lb {
                let reason: PropositionalConjunction = self.explain(&s, &ev, None).into();
                context.post(
                    le(self.objective, clamp32(lb)),
                    (reason, &self.inference_code),
                )?;
            }
            return Ok(());
        }
        let obj_ub = context.upper_bound(&self.objective) as i64;
        for idx in 0..ev.unfixed.len() {
            let r = ev.unfixed[idx];
            let rest2 = ev.lb2 - ev.t[r];
            for j in s.values(r) {
                let with = (rest2 + ev.est(&self.data, r, j) + 1).div_euclid(2);
                if with > obj_ub {
                    let mut reason = self.explain(&s, &ev, Some(r));
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

    /// Records at 0, 1, 10 and 12 (k = 2 each) and `W ∈ [0, w_max]`.
    fn post(domains: &[&[i32]], cmax: i32, w_max: i32) -> (Harness, Vec<DomainId>, DomainId) {
        let (mut h, g) = Harness::new(domains);
        let objective = h.variable(0, w_max);
        let constraint_tag = h.tag();
        h.post(WcsdConstructor {
            vars: g.clone(),
            objective,
            dist: line(&[0, 1, 10, 12]),
            k: vec![2; 4],
            cmax,
            constraint_tag,
        })
        .expect("no conflict");
        (h, g, objective)
    }

    /// Record 0 in class 1, record 2 in class 2, the others free: the doubled bound is
    /// 1 + 1 + 2 + 2 (each record's distance to its cheapest classmate), so W ≥ 3.
    fn two_classes_started(w_max: i32) -> (Harness, Vec<DomainId>, DomainId) {
        let both: &[i32] = &[1, 2];
        post(&[&[1], both, &[2], both], 2, w_max)
    }

    /// As above with record 1 kept out of class 1: it pays 9 (class 2) instead of 1, so the
    /// doubled bound is 1 + 9 + 2 + 2 and W ≥ 7.
    fn record_kept_from_its_cheapest_class(w_max: i32) -> (Harness, Vec<DomainId>, DomainId) {
        post(&[&[1], &[2, 3], &[2], &[1, 2, 3]], 3, w_max)
    }

    #[test]
    fn wcsd_raises_the_objective_to_the_lower_bound() {
        let (mut h, g, obj) = two_classes_started(100);
        assert_eq!(h.bounds(obj), (3, 100));
        h.assert_reason(ge(obj, 3), &[eq(g[0], 1), eq(g[2], 2)]);
    }

    #[test]
    fn wcsd_lower_bound_reason_names_the_exclusions_that_raise_a_records_cost() {
        let (mut h, g, obj) = record_kept_from_its_cheapest_class(100);
        assert_eq!(h.bounds(obj), (7, 100));
        h.assert_reason(ge(obj, 7), &[eq(g[0], 1), eq(g[2], 2), ne(g[1], 1)]);
    }

    #[test]
    fn wcsd_fixes_the_objective_once_every_record_is_assigned() {
        let (mut h, g, obj) = post(&[&[1], &[1], &[2], &[2]], 2, 100);
        assert_eq!(h.bounds(obj), (3, 3));
        let all = [eq(g[0], 1), eq(g[1], 1), eq(g[2], 2), eq(g[3], 2)];
        h.assert_reason(ge(obj, 3), &all);
        h.assert_reason(le(obj, 3), &all);
    }

    #[test]
    fn wcsd_removes_a_class_whose_cheapest_completion_exceeds_the_incumbent() {
        // Record 1 in class 2 makes the doubled bound 1 + 9 + 2 + 2 (W ≥ 7); record 3 in
        // class 1 makes it 1 + 1 + 2 + 12 (W ≥ 8).
        let (mut h, g, obj) = two_classes_started(6);
        assert_eq!(h.domain(g[1], 1, 2), vec![1]);
        assert_eq!(h.domain(g[3], 1, 2), vec![2]);
        h.assert_reason(ne(g[1], 2), &[eq(g[0], 1), eq(g[2], 2), le(obj, 6)]);
        h.assert_reason(ne(g[3], 1), &[eq(g[0], 1), eq(g[2], 2), le(obj, 7)]);
    }

    #[test]
    fn wcsd_pruning_reason_leaves_out_the_pruned_records_own_exclusions() {
        let (mut h, g, obj) = record_kept_from_its_cheapest_class(100);
        h.restrict(le(obj, 7));
        h.propagate_once().expect("no conflict");
        // Record 1 opening class 3 needs record 3 (11): doubled bound 1 + 11 + 2 + 2, W ≥ 8.
        assert_eq!(h.domain(g[1], 1, 3), vec![2]);
        h.assert_reason(ne(g[1], 3), &[eq(g[0], 1), eq(g[2], 2), le(obj, 7)]);
        // Record 3 in class 1: 1 + 9 + 2 + 12, W ≥ 12; record 1's exclusion stays.
        assert_eq!(h.domain(g[3], 1, 3), vec![2]);
        h.assert_reason(
            ne(g[3], 1),
            &[eq(g[0], 1), eq(g[2], 2), ne(g[1], 1), le(obj, 11)],
        );
    }
}
