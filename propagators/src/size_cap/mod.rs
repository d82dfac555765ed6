//! Class size caps: the dominance cap and a user's maximum class size `M`.
//!
//! Dominance: some optimal partition (for DBIL, max diameter and WCSD) has every class `C` with
//! `|C| ≤ 2·max_{i∈C} k_i − 1` (a larger class splits into two valid classes without raising any
//! of these costs). Not valid for split, nor under l-diversity or must-links (a part need not be
//! l-diverse and may separate a must-link pair); a maximum size keeps it valid (parts are
//! smaller).
//!
//! For class `j`, let `K_j` be the largest k among records that can still take `j`, `F_j` the
//! records fixed to `j` and `cap_j = min(2K_j − 1, M)` (either term absent when not posted). When
//! `|F_j| = cap_j`, no other record can join `j`; reason: `∧_{f∈F_j} [G_f = j]`, plus
//! `∧_{r: k_r > K_j} [G_r ≠ j]` when the dominance term is the smaller one.

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
    /// Post the dominance cap `2·max k − 1`.
    pub dominance: bool,
    /// A maximum class size, if any.
    pub max_size: Option<u32>,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

/// The cap of a class whose largest possible k is `kmax`, and whether the dominance term is the
/// binding one (then the reason must pin `kmax`). `None` when nothing caps the class.
pub(crate) fn cap_of(kmax: u32, dominance: bool, max_size: Option<u32>) -> Option<(usize, bool)> {
    let dom = dominance.then(|| (2 * kmax as usize).saturating_sub(1).max(1));
    match (dom, max_size.map(|m| m as usize)) {
        (Some(d), Some(m)) if d < m => Some((d, true)),
        (_, Some(m)) => Some((m, false)),
        (Some(d), None) => Some((d, true)),
        (None, None) => None,
    }
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
                dominance: self.dominance,
                max_size: self.max_size,
            },
        );
        PropagatorSpec {
            registration: register(&self.vars, DomainEvents::ANY_INT, None),
            checkers: checkers.build(),
            propagator: SizeCapPropagator {
                vars: self.vars,
                k,
                cmax: self.cmax,
                dominance: self.dominance,
                max_size: self.max_size,
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
    dominance: bool,
    max_size: Option<u32>,
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
            let Some((cap, pin_k)) = cap_of(kmax, self.dominance, self.max_size) else {
                continue;
            };
            if fixed < cap || (fixed == cap && !open) {
                continue;
            }
            let reason: PropositionalConjunction = (0..n)
                .filter_map(|l| {
                    if s.fixed[l] == Some(j) {
                        Some(eq(self.vars[l], j))
                    } else if pin_k && !s.contains(l, j) && self.k[l] > kmax {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{assert_conflict, Harness};

    fn post(
        domains: &[&[i32]],
        k: &[u32],
        dominance: bool,
        max_size: Option<u32>,
    ) -> (Harness, Vec<DomainId>, PropagationStatusCP) {
        let (mut h, g) = Harness::new(domains);
        let constraint_tag = h.tag();
        let result = h.post(SizeCapConstructor {
            vars: g.clone(),
            k: k.to_vec(),
            cmax: 2,
            dominance,
            max_size,
            constraint_tag,
        });
        (h, g, result)
    }

    #[test]
    fn size_cap_removes_the_value_of_a_class_at_the_maximum_size() {
        let (mut h, g, result) = post(&[&[1], &[1], &[1, 2]], &[1, 1, 1], false, Some(2));
        result.expect("no conflict");
        assert_eq!(h.domain(g[2], 1, 2), vec![2]);
        h.assert_reason(ne(g[2], 1), &[eq(g[0], 1), eq(g[1], 1)]);
    }

    #[test]
    fn size_cap_removes_the_value_of_a_class_at_the_dominance_cap_pinning_its_largest_k() {
        // Class 1 holds three records of k = 2 (cap 2·2 − 1 = 3); the k = 3 record that would
        // raise the cap is kept out of it, so the reason names that exclusion.
        let (mut h, g, result) = post(
            &[&[1], &[1], &[1], &[2], &[1, 2]],
            &[2, 2, 2, 3, 2],
            true,
            None,
        );
        result.expect("no conflict");
        assert_eq!(h.domain(g[4], 1, 2), vec![2]);
        h.assert_reason(
            ne(g[4], 1),
            &[eq(g[0], 1), eq(g[1], 1), eq(g[2], 1), ne(g[3], 1)],
        );
    }

    #[test]
    fn size_cap_with_the_maximum_size_binding_leaves_k_exclusions_out_of_the_reason() {
        // Maximum size 2 is below the dominance cap 3: the k = 5 record does not matter.
        let (mut h, g, result) = post(&[&[1], &[1], &[2], &[1, 2]], &[2, 2, 5, 2], true, Some(2));
        result.expect("no conflict");
        assert_eq!(h.domain(g[3], 1, 2), vec![2]);
        h.assert_reason(ne(g[3], 1), &[eq(g[0], 1), eq(g[1], 1)]);
    }

    #[test]
    fn size_cap_fails_when_a_class_holds_more_than_its_cap() {
        let (_, g, result) = post(&[&[1], &[1], &[1]], &[1, 1, 1], false, Some(2));
        assert_conflict(result, &[eq(g[0], 1), eq(g[1], 1), eq(g[2], 1)]);
    }
}
