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
