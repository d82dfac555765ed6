//! Dominance size cap: some optimal partition (for DBIL, max diameter and WCSD) has every class
//! `C` with `|C| ≤ 2·max_{i∈C} k_i − 1` (a larger class splits into two valid classes without
//! raising any of these costs). Not valid for split.
//!
//! For class `j`, let `K_j` be the largest k among records that can still take `j` and `F_j` the
//! records fixed to `j`. When `|F_j| = 2K_j − 1`, no other record can join `j`; reason:
//! `∧_{f∈F_j} [G_f = j] ∧ ∧_{r: k_r > K_j} [G_r ≠ j]`.

mod checker;

pub use checker::SizeCapChecker;

use std::sync::Arc;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::PropositionalConjunction;
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, RuntimeCheckers,
};
use pumpkin_core::state::{propagator_conflict, PropagationStatusCP};
use pumpkin_core::variables::DomainId;

use crate::common::{eq, ne, register, Snapshot};

declare_inference_label!(SizeCap);

/// Constructor of [`SizeCapPropagator`].
#[derive(Clone, Debug)]
pub struct SizeCapConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// k_i of each record.
    pub k: Vec<u32>,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for SizeCapConstructor {
    type PropagatorImpl = SizeCapPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let k: Arc<[u32]> = self.k.into();
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            SizeCap,
            SizeCapChecker {
                vars: self.vars.clone(),
                k: k.clone(),
                cmax: self.cmax,
            },
        );
        PropagatorSpec {
            registration: register(&self.vars, DomainEvents::ANY_INT, None),
            checkers: checkers.build(),
            propagator: SizeCapPropagator {
                vars: self.vars,
                k,
                cmax: self.cmax,
                inference_code,
            },
        }
    }
}

/// The size-cap propagator.
#[derive(Clone, Debug)]
pub struct SizeCapPropagator {
    vars: Vec<DomainId>,
    k: Arc<[u32]>,
    cmax: i32,
    inference_code: InferenceCode,
}

impl Propagator for SizeCapPropagator {
    fn name(&self) -> &str {
        "SizeCap"
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let s = Snapshot::from_domains(&context, &self.vars, self.cmax);
        let n = self.vars.len();
        for j in 1..=self.cmax {
            let mut fixed = 0usize;
            let mut kmax = 0u32;
            let mut open = false;
            for l in 0..n {
                if s.contains(l, j) {
                    kmax = kmax.max(self.k[l]);
                    if s.fixed[l] == Some(j) {
                        fixed += 1;
                    } else {
                        open = true;
                    }
                }
            }
            if fixed == 0 {
                continue;
            }
            let cap = 2 * kmax as usize - 1;
            if fixed < cap || (fixed == cap && !open) {
                continue;
            }
            let reason: PropositionalConjunction = (0..n)
                .filter_map(|l| {
                    if s.fixed[l] == Some(j) {
                        Some(eq(self.vars[l], j))
                    } else if !s.contains(l, j) && self.k[l] > kmax {
                        Some(ne(self.vars[l], j))
                    } else {
                        None
                    }
                })
                .collect();
            if fixed > cap {
                return propagator_conflict(reason, &self.inference_code);
            }
            for l in 0..n {
                if s.contains(l, j) && s.fixed[l].is_none() {
                    context.post(ne(self.vars[l], j), (reason.clone(), &self.inference_code))?;
                }
            }
        }
        Ok(())
    }
}
