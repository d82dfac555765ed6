//! Must-link and cannot-link pairs on the class variables: `G_a = G_b` and `G_a ≠ G_b`.
//!
//! - must-link: a value `v` missing from the domain of `b` leaves the domain of `a`
//!   (reason: `[G_b ≠ v]`), and symmetrically;
//! - cannot-link: `a` fixed to `v` removes `v` from `b` (reason: `[G_a = v]`), and symmetrically.
//!
//! Written here rather than taken from `pumpkin-constraints` so that its inference checker works
//! on the same class-domain snapshots as the other propagators of this crate.

mod checker;

pub use checker::LinksChecker;

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

declare_inference_label!(Links);

/// Constructor of [`LinksPropagator`].
#[derive(Clone, Debug)]
pub struct LinksConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// Pairs (record indices) that must share a class.
    pub must: Vec<(u32, u32)>,
    /// Pairs that must not share a class.
    pub cannot: Vec<(u32, u32)>,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for LinksConstructor {
    type PropagatorImpl = LinksPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            Links,
            LinksChecker {
                vars: self.vars.clone(),
                must: self.must.clone(),
                cannot: self.cannot.clone(),
                cmax: self.cmax,
            },
        );
        PropagatorSpec {
            registration: register(&self.vars, DomainEvents::ANY_INT, None),
            checkers: checkers.build(),
            propagator: LinksPropagator {
                vars: self.vars,
                must: self.must,
                cannot: self.cannot,
                cmax: self.cmax,
                inference_code,
            },
        }
    }
}

/// The links propagator.
#[derive(Clone, Debug)]
pub struct LinksPropagator {
    vars: Vec<DomainId>,
    must: Vec<(u32, u32)>,
    cannot: Vec<(u32, u32)>,
    cmax: i32,
    inference_code: InferenceCode,
}

impl Propagator for LinksPropagator {
    fn name(&self) -> &str {
        "Links"
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let s = Snapshot::from_domains(&context, &self.vars, self.cmax);
        for &(a, b) in &self.must {
            let (a, b) = (a as usize, b as usize);
            for (x, y) in [(a, b), (b, a)] {
                let gone: Vec<i32> = s.values(x).filter(|&v| !s.contains(y, v)).collect();
                for v in gone {
                    context.post(
                        ne(self.vars[x], v),
                        (
                            PropositionalConjunction::from(vec![ne(self.vars[y], v)]),
                            &self.inference_code,
                        ),
                    )?;
                }
            }
        }
        for &(a, b) in &self.cannot {
            let (a, b) = (a as usize, b as usize);
            for (x, y) in [(a, b), (b, a)] {
                if let Some(v) = s.fixed[x] {
                    if s.contains(y, v) {
                        context.post(
                            ne(self.vars[y], v),
                            (
                                PropositionalConjunction::from(vec![eq(self.vars[x], v)]),
                                &self.inference_code,
                            ),
                        )?;
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

    fn post(
        domains: &[&[i32]],
        must: &[(u32, u32)],
        cannot: &[(u32, u32)],
    ) -> (Harness, Vec<DomainId>, PropagationStatusCP) {
        let (mut h, g) = Harness::new(domains);
        let constraint_tag = h.tag();
        let result = h.post(LinksConstructor {
            vars: g.clone(),
            must: must.to_vec(),
            cannot: cannot.to_vec(),
            cmax: 3,
            constraint_tag,
        });
        (h, g, result)
    }

    #[test]
    fn links_must_link_removes_a_value_missing_from_the_partner() {
        let (mut h, g, result) = post(&[&[1, 2, 3], &[1, 2]], &[(0, 1)], &[]);
        result.expect("no conflict");
        assert_eq!(h.domain(g[0], 1, 3), vec![1, 2]);
        h.assert_reason(ne(g[0], 3), &[ne(g[1], 3)]);
    }

    #[test]
    fn links_cannot_link_removes_the_partners_class() {
        let (mut h, g, result) = post(&[&[1, 2], &[2]], &[], &[(0, 1)]);
        result.expect("no conflict");
        assert_eq!(h.domain(g[0], 1, 3), vec![1]);
        h.assert_reason(ne(g[0], 2), &[eq(g[1], 2)]);
    }

    #[test]
    fn links_cannot_link_pair_in_the_same_class_empties_a_domain() {
        let (mut h, g, result) = post(&[&[1], &[1]], &[], &[(0, 1)]);
        h.assert_empty_domain(result, ne(g[1], 1), &[eq(g[0], 1)]);
    }
}
