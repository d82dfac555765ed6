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
