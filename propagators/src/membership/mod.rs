//! Membership (seed 001 algorithm 7): `atleast(k_i, G, G_i)` for every record.
//!
//! For each class `j`, let `H_j` be the records that can still take `j`:
//! - a record `i ∈ H_j` with `k_i > |H_j|` cannot take `j`
//!   (reason: `∧_{r ∉ H_j} [G_r ≠ j]`);
//! - when a record `f` fixed to `j` has `k_f = |H_j|`, every record of `H_j` must take `j`
//!   (reason: `[G_f = j] ∧ ∧_{r ∉ H_j} [G_r ≠ j]`).

mod checker;

pub use checker::MembershipChecker;

use std::sync::Arc;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::PropositionalConjunction;
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, RuntimeCheckers,
};
use pumpkin_core::state::PropagationStatusCP;
use pumpkin_core::variables::DomainId;

use crate::common::{eq, ne, register, Snapshot};

declare_inference_label!(Membership);

/// Constructor of [`MembershipPropagator`].
#[derive(Clone, Debug)]
pub struct MembershipConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// k_i of each record.
    pub k: Vec<u32>,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for MembershipConstructor {
    type PropagatorImpl = MembershipPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let k: Arc<[u32]> = self.k.into();
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            Membership,
            MembershipChecker {
                vars: self.vars.clone(),
                k: k.clone(),
                cmax: self.cmax,
            },
        );
        PropagatorSpec {
            registration: register(&self.vars, DomainEvents::ANY_INT, None),
            checkers: checkers.build(),
            propagator: MembershipPropagator {
                vars: self.vars,
                k,
                cmax: self.cmax,
                inference_code,
            },
        }
    }
}

/// The membership propagator.
#[derive(Clone, Debug)]
pub struct MembershipPropagator {
    vars: Vec<DomainId>,
    k: Arc<[u32]>,
    cmax: i32,
    inference_code: InferenceCode,
}

impl Propagator for MembershipPropagator {
    fn name(&self) -> &str {
        "Membership"
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let s = Snapshot::from_domains(&context, &self.vars, self.cmax);
        let n = self.vars.len();
        let mut holders = Vec::with_capacity(n);
        for j in 1..=self.cmax {
            holders.clear();
            holders.extend((0..n).filter(|&l| s.contains(l, j)));
            let count = holders.len();
            if count == 0 {
                continue;
            }
            let too_big = holders.iter().any(|&l| self.k[l] as usize > count);
            let fixed_max = holders
                .iter()
                .copied()
                .filter(|&l| s.fixed[l] == Some(j))
                .max_by_key(|&l| self.k[l]);
            let force = fixed_max.is_some_and(|f| self.k[f] as usize == count)
                && holders.iter().any(|&l| s.fixed[l].is_none());
            if !too_big && !force {
                continue;
            }
            let outsiders: PropositionalConjunction = (0..n)
                .filter(|&r| !s.contains(r, j))
                .map(|r| ne(self.vars[r], j))
                .collect();
            if too_big {
                for &l in &holders {
                    if self.k[l] as usize > count {
                        context.post(
                            ne(self.vars[l], j),
                            (outsiders.clone(), &self.inference_code),
                        )?;
                    }
                }
            } else if let Some(f) = fixed_max {
                let mut reason = outsiders;
                reason.push(eq(self.vars[f], j));
                for &l in &holders {
                    if s.fixed[l].is_none() {
                        context
                            .post(eq(self.vars[l], j), (reason.clone(), &self.inference_code))?;
                    }
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

    fn post(domains: &[&[i32]], k: &[u32], cmax: i32) -> (Harness, Vec<DomainId>) {
        let (mut h, g) = Harness::new(domains);
        let constraint_tag = h.tag();
        h.post(MembershipConstructor {
            vars: g.clone(),
            k: k.to_vec(),
            cmax,
            constraint_tag,
        })
        .expect("no conflict");
        (h, g)
    }

    #[test]
    fn membership_removes_a_class_with_fewer_holders_than_k() {
        // Only records 0 and 1 can take class 2, and record 0 needs 3 classmates in all.
        let (mut h, g) = post(&[&[1, 2], &[1, 2], &[1], &[1]], &[3, 1, 1, 1], 2);
        assert_eq!(h.domain(g[0], 1, 2), vec![1]);
        assert_eq!(h.domain(g[1], 1, 2), vec![1, 2]);
        h.assert_reason(ne(g[0], 2), &[ne(g[2], 2), ne(g[3], 2)]);
    }

    #[test]
    fn membership_forces_every_holder_into_the_class_of_a_record_that_needs_them_all() {
        // Record 0 (k = 3) is in class 1, which only records 0, 1 and 2 can take.
        let (mut h, g) = post(&[&[1], &[1, 2], &[1, 2], &[2]], &[3, 1, 1, 1], 2);
        assert_eq!(h.domain(g[1], 1, 2), vec![1]);
        assert_eq!(h.domain(g[2], 1, 2), vec![1]);
        h.assert_reason(eq(g[1], 1), &[eq(g[0], 1), ne(g[3], 1)]);
        h.assert_reason(eq(g[2], 1), &[eq(g[0], 1), ne(g[3], 1)]);
    }
}
