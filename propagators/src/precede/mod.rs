//! Value precedence on the class variables (symmetry breaking, seed 001 §6.3):
//! `G_0 = 1` and `G_i ≤ 1 + max(G_0, …, G_{i-1})`, so class `j + 1` is opened only after `j`.
//!
//! Propagation (both explained eagerly):
//! - forward: `ub(G_i) ≤ 1 + max_{l<i} ub(G_l)`, reason `∧_{l<i} [G_l ≤ M]`;
//! - backward: if `G_i ≥ v` and only one earlier record `l` can still reach `v - 1`, then
//!   `G_l ≥ v - 1`, reason `[G_i ≥ v] ∧ ∧_{r<i, r≠l} [G_r ≤ v - 2]`.

mod checker;

pub use checker::PrecedeChecker;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::PropositionalConjunction;
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, EventsToRegister, LocalId, Priority, PropagationContext, Propagator,
    PropagatorConstructor, PropagatorConstructorContext, PropagatorSpec, ReadDomains,
    RuntimeCheckers,
};
use pumpkin_core::state::PropagationStatusCP;
use pumpkin_core::variables::DomainId;

use crate::common::{ge, le};

declare_inference_label!(Precede);

/// Constructor of [`PrecedePropagator`].
#[derive(Clone, Debug)]
pub struct PrecedeConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for PrecedeConstructor {
    type PropagatorImpl = PrecedePropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            Precede,
            PrecedeChecker {
                vars: self.vars.clone(),
            },
        );
        let mut registration = EventsToRegister::builder();
        for (i, x) in self.vars.iter().enumerate() {
            registration = registration.add(x, DomainEvents::BOUNDS, LocalId::from(i as u32));
        }
        PropagatorSpec {
            registration: registration.build(),
            checkers: checkers.build(),
            propagator: PrecedePropagator {
                vars: self.vars,
                inference_code,
            },
        }
    }
}

/// The value-precedence propagator.
#[derive(Clone, Debug)]
pub struct PrecedePropagator {
    vars: Vec<DomainId>,
    inference_code: InferenceCode,
}

impl Propagator for PrecedePropagator {
    fn name(&self) -> &str {
        "Precede"
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let vars = &self.vars;
        // Forward pass.
        let mut prefix_max = 0i32;
        for i in 0..vars.len() {
            let ub = context.upper_bound(&vars[i]);
            if ub > prefix_max + 1 {
                let reason: PropositionalConjunction =
                    vars[..i].iter().map(|&x| le(x, prefix_max)).collect();
                context.post(le(vars[i], prefix_max + 1), (reason, &self.inference_code))?;
            }
            prefix_max = prefix_max.max(context.upper_bound(&vars[i]));
        }
        // Backward pass: a unique supporter of a used class id must open the class before it.
        for i in 1..vars.len() {
            let v = context.lower_bound(&vars[i]);
            if v < 2 {
                continue;
            }
            let mut support = None;
            let mut count = 0;
            for l in (0..i).rev() {
                if context.upper_bound(&vars[l]) >= v - 1 {
                    count += 1;
                    support = Some(l);
                    if count > 1 {
                        break;
                    }
                }
            }
            if count == 1 {
                let l = support.expect("one supporter");
                if context.lower_bound(&vars[l]) < v - 1 {
                    let mut reason: PropositionalConjunction = (0..i)
                        .filter(|&r| r != l)
                        .map(|r| le(vars[r], v - 2))
                        .collect();
                    reason.push(ge(vars[i], v));
                    context.post(ge(vars[l], v - 1), (reason, &self.inference_code))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Harness;

    fn post(domains: &[&[i32]]) -> (Harness, Vec<DomainId>) {
        let (mut h, g) = Harness::new(domains);
        let constraint_tag = h.tag();
        h.post(PrecedeConstructor {
            vars: g.clone(),
            constraint_tag,
        })
        .expect("no conflict");
        (h, g)
    }

    #[test]
    fn precede_caps_each_class_at_one_above_the_earlier_maximum() {
        let (mut h, g) = post(&[&[1, 2, 3, 4], &[1, 2, 3, 4], &[1, 2, 3, 4]]);
        assert_eq!(h.bounds(g[0]), (1, 1));
        assert_eq!(h.bounds(g[1]), (1, 2));
        assert_eq!(h.bounds(g[2]), (1, 3));
        h.assert_reason(le(g[0], 1), &[]);
        h.assert_reason(le(g[1], 2), &[le(g[0], 1)]);
        h.assert_reason(le(g[2], 3), &[le(g[0], 2), le(g[1], 2)]);
    }

    #[test]
    fn precede_makes_the_only_earlier_supporter_open_the_previous_class() {
        // G3 ≥ 3 needs class 2 opened before it; G0 and G1 cannot reach 2, so G2 must.
        let (mut h, g) = post(&[&[1], &[1], &[1, 2], &[3]]);
        assert_eq!(h.bounds(g[2]), (2, 2));
        h.assert_reason(ge(g[2], 2), &[ge(g[3], 3), le(g[0], 1), le(g[1], 1)]);
    }
}
