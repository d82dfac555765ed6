//! Distinct l-diversity: every non-empty class holds at least `l` distinct values of a sensitive
//! attribute (`values[i]` is record i's value id).
//!
//! For class `j`, let `H_j` be the records that can still take `j` and `V_j` their values:
//! - when `|V_j| < l`, class `j` must stay empty: every record of `H_j` leaves `j`
//!   (reason: `∧_{r: val(r) ∉ V_j} [G_r ≠ j]`; records outside `H_j` whose value is in `V_j`
//!   are not needed);
//! - when `|V_j| = l` and a record `f` is fixed to `j`, a value `v` held by one record `i` of
//!   `H_j` only forces `i` into `j` (reason: `[G_f = j] ∧ ∧_{r: val(r) ∉ V_j} [G_r ≠ j] ∧
//!   ∧_{r ≠ i: val(r) = v} [G_r ≠ j]`).

mod checker;

pub use checker::LDiversityChecker;

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

declare_inference_label!(LDiversity);

/// Constructor of [`LDiversityPropagator`].
#[derive(Clone, Debug)]
pub struct LDiversityConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// Sensitive value id of each record.
    pub values: Vec<u32>,
    /// Distinct values every non-empty class needs.
    pub l: u32,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for LDiversityConstructor {
    type PropagatorImpl = LDiversityPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let values: Arc<[u32]> = self.values.into();
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            LDiversity,
            LDiversityChecker {
                vars: self.vars.clone(),
                values: values.clone(),
                l: self.l,
                cmax: self.cmax,
            },
        );
        let nvalues = values.iter().map(|&v| v as usize + 1).max().unwrap_or(0);
        PropagatorSpec {
            registration: register(&self.vars, DomainEvents::ANY_INT, None),
            checkers: checkers.build(),
            propagator: LDiversityPropagator {
                vars: self.vars,
                values,
                nvalues,
                l: self.l as usize,
                cmax: self.cmax,
                inference_code,
            },
        }
    }
}

/// The l-diversity propagator.
#[derive(Clone, Debug)]
pub struct LDiversityPropagator {
    vars: Vec<DomainId>,
    values: Arc<[u32]>,
    nvalues: usize,
    l: usize,
    cmax: i32,
    inference_code: InferenceCode,
}

impl Propagator for LDiversityPropagator {
    fn name(&self) -> &str {
        "LDiversity"
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let s = Snapshot::from_domains(&context, &self.vars, self.cmax);
        let n = self.vars.len();
        // holders[v] = number of records of value v that can take j; last[v] = one of them.
        let mut holders = vec![0usize; self.nvalues];
        let mut last = vec![usize::MAX; self.nvalues];
        for j in 1..=self.cmax {
            holders.iter_mut().for_each(|h| *h = 0);
            let mut distinct = 0usize;
            let mut any = false;
            let mut fixed = None;
            for l in 0..n {
                if s.contains(l, j) {
                    any = true;
                    let v = self.values[l] as usize;
                    if holders[v] == 0 {
                        distinct += 1;
                    }
                    holders[v] += 1;
                    last[v] = l;
                    if fixed.is_none() && s.fixed[l] == Some(j) {
                        fixed = Some(l);
                    }
                }
            }
            if !any || distinct > self.l {
                continue;
            }
            // Records whose value no holder has, all kept out of j.
            let outside: PropositionalConjunction = (0..n)
                .filter(|&r| holders[self.values[r] as usize] == 0)
                .map(|r| ne(self.vars[r], j))
                .collect();
            if distinct < self.l {
                for l in 0..n {
                    if s.contains(l, j) {
                        context
                            .post(ne(self.vars[l], j), (outside.clone(), &self.inference_code))?;
                    }
                }
                continue;
            }
            let Some(f) = fixed else { continue };
            for v in 0..self.nvalues {
                if holders[v] != 1 {
                    continue;
                }
                let i = last[v];
                if s.fixed[i].is_some() {
                    continue;
                }
                let mut reason = outside.clone();
                reason.push(eq(self.vars[f], j));
                reason.extend(
                    (0..n)
                        .filter(|&r| r != i && self.values[r] as usize == v)
                        .map(|r| ne(self.vars[r], j)),
                );
                context.post(eq(self.vars[i], j), (reason, &self.inference_code))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Harness;

    fn post(domains: &[&[i32]], values: &[u32], l: u32) -> (Harness, Vec<DomainId>) {
        let (mut h, g) = Harness::new(domains);
        let constraint_tag = h.tag();
        h.post(LDiversityConstructor {
            vars: g.clone(),
            values: values.to_vec(),
            l,
            cmax: 2,
            constraint_tag,
        })
        .expect("no conflict");
        (h, g)
    }

    #[test]
    fn l_diversity_empties_a_class_whose_holders_have_fewer_than_l_values() {
        // Class 2 can only hold records 0 and 1, which share value 0.
        let (mut h, g) = post(&[&[1, 2], &[1, 2], &[1], &[1]], &[0, 0, 1, 1], 2);
        assert_eq!(h.domain(g[0], 1, 2), vec![1]);
        assert_eq!(h.domain(g[1], 1, 2), vec![1]);
        h.assert_reason(ne(g[0], 2), &[ne(g[2], 2), ne(g[3], 2)]);
        h.assert_reason(ne(g[1], 2), &[ne(g[2], 2), ne(g[3], 2)]);
    }

    #[test]
    fn l_diversity_forces_the_only_holder_of_a_needed_value_into_a_used_class() {
        // Class 1 is used (record 0) and has exactly l = 2 values among its holders; value 1
        // only comes with record 1.
        let (mut h, g) = post(&[&[1], &[1, 2], &[2], &[2]], &[0, 1, 1, 2], 2);
        assert_eq!(h.domain(g[1], 1, 2), vec![1]);
        h.assert_reason(eq(g[1], 1), &[eq(g[0], 1), ne(g[3], 1), ne(g[2], 1)]);
    }
}
