//! At least `c0` classes (the seed's extra constraint for split: keep at least the number of
//! classes of the first solution). With value precedence, this is `max_i G_i ≥ c0`.
//! If only one record `l` can reach `c0`, then `G_l ≥ c0`; reason `∧_{r≠l} [G_r ≤ c0 − 1]`.

mod checker;

pub use checker::MinClassesChecker;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::PropositionalConjunction;
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::{propagator_conflict, PropagationStatusCP};
use pumpkin_core::variables::DomainId;

use crate::common::{ge, le, register};

declare_inference_label!(MinClasses);

/// Constructor of [`MinClassesPropagator`].
#[derive(Clone, Debug)]
pub struct MinClassesConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// Minimum number of classes.
    pub min_classes: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for MinClassesConstructor {
    type PropagatorImpl = MinClassesPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            MinClasses,
            MinClassesChecker {
                vars: self.vars.clone(),
                min_classes: self.min_classes,
            },
        );
        PropagatorSpec {
            registration: register(&self.vars, DomainEvents::UPPER_BOUND, None),
            checkers: checkers.build(),
            propagator: MinClassesPropagator {
                vars: self.vars,
                min_classes: self.min_classes,
                inference_code,
            },
        }
    }
}

/// The at-least-`c0`-classes propagator.
#[derive(Clone, Debug)]
pub struct MinClassesPropagator {
    vars: Vec<DomainId>,
    min_classes: i32,
    inference_code: InferenceCode,
}

impl Propagator for MinClassesPropagator {
    fn name(&self) -> &str {
        "MinClasses"
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let c0 = self.min_classes;
        if c0 <= 1 {
            return Ok(());
        }
        let holders: Vec<usize> = (0..self.vars.len())
            .filter(|&l| context.upper_bound(&self.vars[l]) >= c0)
            .take(2)
            .collect();
        match holders.as_slice() {
            [] => {
                let reason: PropositionalConjunction =
                    self.vars.iter().map(|&x| le(x, c0 - 1)).collect();
                propagator_conflict(reason, &self.inference_code)
            }
            [l] => {
                let l = *l;
                if context.lower_bound(&self.vars[l]) < c0 {
                    let reason: PropositionalConjunction = (0..self.vars.len())
                        .filter(|&r| r != l)
                        .map(|r| le(self.vars[r], c0 - 1))
                        .collect();
                    context.post(ge(self.vars[l], c0), (reason, &self.inference_code))?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{assert_conflict, Harness};

    fn post(domains: &[&[i32]], min_classes: i32) -> (Harness, Vec<DomainId>, PropagationStatusCP) {
        let (mut h, g) = Harness::new(domains);
        let constraint_tag = h.tag();
        let result = h.post(MinClassesConstructor {
            vars: g.clone(),
            min_classes,
            constraint_tag,
        });
        (h, g, result)
    }

    #[test]
    fn min_classes_makes_the_only_record_that_can_reach_c0_open_it() {
        let (mut h, g, result) = post(&[&[1], &[1, 2], &[1, 2, 3]], 3);
        result.expect("no conflict");
        assert_eq!(h.bounds(g[2]), (3, 3));
        h.assert_reason(ge(g[2], 3), &[le(g[0], 2), le(g[1], 2)]);
    }

    #[test]
    fn min_classes_fails_when_no_record_can_reach_c0() {
        let (_, g, result) = post(&[&[1], &[1, 2], &[1, 2]], 3);
        assert_conflict(result, &[le(g[0], 2), le(g[1], 2), le(g[2], 2)]);
    }
}
