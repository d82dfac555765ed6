//! Split (Dao et al. style), maximised: `S` is the smallest distance between two records of
//! different classes (0 for a single class, as in `criteria::evaluate`).
//! - `[G_a = x] ∧ [G_b = y] → [S ≤ d(a, b)]` for records fixed to different classes;
//! - records nearer than `lb(S)` must share a class: `[G_b ≠ v] ∧ [S ≥ d(a, b) + 1] → [G_a ≠ v]`;
//! - a single class (every `G ≤ 1`) gives `S ≤ 0`;
//! - once every record is fixed, `S ≥` the exact split.

mod checker;

pub use checker::SplitChecker;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::PropositionalConjunction;
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::PropagationStatusCP;
use pumpkin_core::variables::DomainId;

use crate::common::{clamp32, eq, ge, le, ne, register, DistMatrix, Snapshot};

declare_inference_label!(Split);

/// Constructor of [`SplitPropagator`].
#[derive(Clone, Debug)]
pub struct SplitConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Distances.
    pub dist: DistMatrix,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for SplitConstructor {
    type PropagatorImpl = SplitPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            Split,
            SplitChecker {
                vars: self.vars.clone(),
                objective: self.objective,
                dist: self.dist.clone(),
                cmax: self.cmax,
            },
        );
        PropagatorSpec {
            registration: register(
                &self.vars,
                DomainEvents::ANY_INT,
                Some((self.objective, DomainEvents::LOWER_BOUND)),
            ),
            checkers: checkers.build(),
            propagator: SplitPropagator {
                vars: self.vars,
                objective: self.objective,
                dist: self.dist,
                cmax: self.cmax,
                inference_code,
            },
        }
    }
}

/// The split propagator.
#[derive(Clone, Debug)]
pub struct SplitPropagator {
    vars: Vec<DomainId>,
    objective: DomainId,
    dist: DistMatrix,
    cmax: i32,
    inference_code: InferenceCode,
}

/// Exact split of a complete assignment (0 for one class).
pub(crate) fn exact_split(fixed: &[Option<i32>], dist: &DistMatrix) -> i64 {
    let n = fixed.len();
    let mut best: Option<i64> = None;
    for a in 0..n {
        for b in a + 1..n {
            if fixed[a] != fixed[b] {
                let d = dist.get(a, b);
                if best.is_none_or(|x| d < x) {
                    best = Some(d);
                }
            }
        }
    }
    best.unwrap_or(0)
}

impl Propagator for SplitPropagator {
    fn name(&self) -> &str {
        "Split"
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let s = Snapshot::from_domains(&context, &self.vars, self.cmax);
        if s.empty {
            return Ok(());
        }
        let n = self.vars.len();
        let obj = self.objective;
        // Single class.
        if s.ub.iter().all(|&u| u <= 1) {
            if context.upper_bound(&obj) > 0 {
                let reason: PropositionalConjunction =
                    self.vars.iter().map(|&x| le(x, 1)).collect();
                context.post(le(obj, 0), (reason, &self.inference_code))?;
            }
        } else {
            // Nearest pair fixed to different classes.
            let mut best: Option<(i64, usize, usize)> = None;
            for a in 0..n {
                let Some(x) = s.fixed[a] else { continue };
                for b in a + 1..n {
                    if let Some(y) = s.fixed[b] {
                        let d = self.dist.get(a, b);
                        if x != y && best.is_none_or(|t| d < t.0) {
                            best = Some((d, a, b));
                        }
                    }
                }
            }
            if let Some((d, a, b)) = best {
                if (context.upper_bound(&obj) as i64) > d {
                    let reason: PropositionalConjunction = vec![
                        eq(self.vars[a], s.fixed[a].expect("fixed")),
                        eq(self.vars[b], s.fixed[b].expect("fixed")),
                    ]
                    .into();
                    context.post(le(obj, clamp32(d)), (reason, &self.inference_code))?;
                }
            }
        }
        if s.fixed.iter().all(Option::is_some) {
            let exact = exact_split(&s.fixed, &self.dist);
            if (context.lower_bound(&obj) as i64) < exact {
                let reason: PropositionalConjunction = (0..n)
                    .map(|i| eq(self.vars[i], s.fixed[i].expect("fixed")))
                    .collect();
                context.post(ge(obj, clamp32(exact)), (reason, &self.inference_code))?;
            }
            return Ok(());
        }
        // Must-link: pairs nearer than lb(S) share a class.
        let lb = context.lower_bound(&obj) as i64;
        if lb <= 0 {
            return Ok(());
        }
        for a in 0..n {
            for b in 0..n {
                let d = self.dist.get(a, b);
                if a == b || d >= lb {
                    continue;
                }
                for v in s.values(a) {
                    if !s.contains(b, v) {
                        let reason: PropositionalConjunction =
                            vec![ne(self.vars[b], v), ge(obj, clamp32(d + 1))].into();
                        context.post(ne(self.vars[a], v), (reason, &self.inference_code))?;
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
    use crate::test_support::{line, Harness};

    /// Records at 0, 1, 10 and 12 on a line; `S ∈ [s_min, 100]`.
    fn post(domains: &[&[i32]], s_min: i32) -> (Harness, Vec<DomainId>, DomainId) {
        let (mut h, g) = Harness::new(domains);
        let objective = h.variable(s_min, 100);
        let constraint_tag = h.tag();
        h.post(SplitConstructor {
            vars: g.clone(),
            objective,
            dist: line(&[0, 1, 10, 12][..domains.len()]),
            cmax: 2,
            constraint_tag,
        })
        .expect("no conflict");
        (h, g, objective)
    }

    #[test]
    fn split_is_at_most_the_distance_of_two_records_in_different_classes() {
        let (mut h, g, s) = post(&[&[1], &[1, 2], &[2], &[1, 2]], 0);
        assert_eq!(h.bounds(s), (0, 10));
        h.assert_reason(le(s, 10), &[eq(g[0], 1), eq(g[2], 2)]);
    }

    #[test]
    fn split_keeps_records_nearer_than_its_lower_bound_in_one_class() {
        // S ≥ 5: records 0 and 1 (distance 1) share a class, and record 0 is in class 1.
        let (mut h, g, s) = post(&[&[1], &[1, 2], &[1, 2], &[1, 2]], 5);
        assert_eq!(h.domain(g[1], 1, 2), vec![1]);
        h.assert_reason(ne(g[1], 2), &[ne(g[0], 2), ge(s, 2)]);
    }

    #[test]
    fn split_of_a_single_class_is_zero() {
        let (mut h, g, s) = post(&[&[1], &[1], &[1]], 0);
        assert_eq!(h.bounds(s), (0, 0));
        h.assert_reason(le(s, 0), &[le(g[0], 1), le(g[1], 1), le(g[2], 1)]);
    }

    #[test]
    fn split_is_at_least_the_exact_split_once_every_record_is_assigned() {
        let (mut h, g, s) = post(&[&[1], &[1], &[2], &[2]], 0);
        assert_eq!(h.bounds(s), (9, 9));
        h.assert_reason(le(s, 9), &[eq(g[1], 1), eq(g[2], 2)]);
        h.assert_reason(
            ge(s, 9),
            &[eq(g[0], 1), eq(g[1], 1), eq(g[2], 2), eq(g[3], 2)],
        );
    }
}
