//! Maximum diameter (Dao et al. style): `D ≥ d(a, b)` for two records fixed to the same class,
//! `D ≥ max_i m_i` (every record's class has diameter at least `m_i`), and records farther than
//! `ub(D)` from a member of class `j` cannot join `j`:
//! `[G_l = j] ∧ [D ≤ d(r, l) − 1] → [G_r ≠ j]`.
//! Once every record is fixed, `D ≤` the exact maximum diameter.

mod checker;

pub use checker::DiameterChecker;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::PropositionalConjunction;
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::PropagationStatusCP;
use pumpkin_core::variables::DomainId;

use crate::common::{clamp32, eq, ge, le, ne, register, DistMatrix};

declare_inference_label!(Diameter);

/// Constructor of [`DiameterPropagator`].
#[derive(Clone, Debug)]
pub struct DiameterConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Distances.
    pub dist: DistMatrix,
    /// m_i per record (see [`crate::min_k_diameters`]).
    pub m: Vec<i64>,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for DiameterConstructor {
    type PropagatorImpl = DiameterPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let m_max = self.m.iter().copied().max().unwrap_or(0);
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            Diameter,
            DiameterChecker {
                vars: self.vars.clone(),
                objective: self.objective,
                dist: self.dist.clone(),
                m_max,
                cmax: self.cmax,
            },
        );
        PropagatorSpec {
            registration: register(
                &self.vars,
                DomainEvents::ASSIGN,
                Some((self.objective, DomainEvents::UPPER_BOUND)),
            ),
            checkers: checkers.build(),
            propagator: DiameterPropagator {
                vars: self.vars,
                objective: self.objective,
                dist: self.dist,
                m_max,
                cmax: self.cmax,
                inference_code,
            },
        }
    }
}

/// The max-diameter propagator.
#[derive(Clone, Debug)]
pub struct DiameterPropagator {
    vars: Vec<DomainId>,
    objective: DomainId,
    dist: DistMatrix,
    m_max: i64,
    cmax: i32,
    inference_code: InferenceCode,
}

impl Propagator for DiameterPropagator {
    fn name(&self) -> &str {
        "Diameter"
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let n = self.vars.len();
        let obj = self.objective;
        if (context.lower_bound(&obj) as i64) < self.m_max {
            context.post(
                ge(obj, clamp32(self.m_max)),
                (PropositionalConjunction::default(), &self.inference_code),
            )?;
        }
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); self.cmax as usize + 1];
        let mut unfixed = Vec::new();
        for (i, x) in self.vars.iter().enumerate() {
            match context.fixed_value(x) {
                Some(j) if (1..=self.cmax).contains(&j) => members[j as usize].push(i),
                _ => unfixed.push(i),
            }
        }
        // Largest diameter among fixed members.
        let mut best: Option<(i64, usize, usize, i32)> = None;
        for (j, a) in members.iter().enumerate() {
            for (p, &x) in a.iter().enumerate() {
                for &y in &a[p + 1..] {
                    let d = self.dist.get(x, y);
                    if best.is_none_or(|b| d > b.0) {
                        best = Some((d, x, y, j as i32));
                    }
                }
            }
        }
        let diam = best.map_or(0, |b| b.0).max(self.m_max);
        if let Some((d, x, y, j)) = best {
            if d > context.lower_bound(&obj) as i64 {
                let reason: PropositionalConjunction =
                    vec![eq(self.vars[x], j), eq(self.vars[y], j)].into();
                context.post(ge(obj, clamp32(d)), (reason, &self.inference_code))?;
            }
        }
        if unfixed.is_empty() {
            if (context.upper_bound(&obj) as i64) > diam {
                let reason: PropositionalConjunction = (0..n)
                    .map(|i| eq(self.vars[i], context.lower_bound(&self.vars[i])))
                    .collect();
                context.post(le(obj, clamp32(diam)), (reason, &self.inference_code))?;
            }
            return Ok(());
        }
        let ub = context.upper_bound(&obj) as i64;
        for &r in &unfixed {
            let row = self.dist.row(r);
            for (j, a) in members.iter().enumerate() {
                if a.is_empty() || !context.contains(&self.vars[r], j as i32) {
                    continue;
                }
                if let Some(&l) = a.iter().find(|&&l| row[l] > ub) {
                    let reason: PropositionalConjunction =
                        vec![eq(self.vars[l], j as i32), le(obj, clamp32(row[l] - 1))].into();
                    context.post(ne(self.vars[r], j as i32), (reason, &self.inference_code))?;
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

    /// Records at 0, 1, 10 and 12 on a line; `D ∈ [0, d_max]`.
    fn post(domains: &[&[i32]], m: &[i64], d_max: i32) -> (Harness, Vec<DomainId>, DomainId) {
        let (mut h, g) = Harness::new(domains);
        let objective = h.variable(0, d_max);
        let constraint_tag = h.tag();
        h.post(DiameterConstructor {
            vars: g.clone(),
            objective,
            dist: line(&[0, 1, 10, 12]),
            m: m.to_vec(),
            cmax: 2,
            constraint_tag,
        })
        .expect("no conflict");
        (h, g, objective)
    }

    #[test]
    fn diameter_is_at_least_every_records_smallest_class_diameter() {
        let both: &[i32] = &[1, 2];
        let (mut h, _, d) = post(&[both, both, both, both], &[1, 1, 2, 2], 100);
        assert_eq!(h.bounds(d), (2, 100));
        h.assert_reason(ge(d, 2), &[]);
    }

    #[test]
    fn diameter_is_at_least_the_distance_of_two_records_in_one_class() {
        let (mut h, g, d) = post(&[&[1], &[1, 2], &[1], &[1, 2]], &[0; 4], 100);
        assert_eq!(h.bounds(d), (10, 100));
        h.assert_reason(ge(d, 10), &[eq(g[0], 1), eq(g[2], 1)]);
    }

    #[test]
    fn diameter_removes_a_class_with_a_member_farther_than_the_incumbent() {
        let (mut h, g, d) = post(&[&[1], &[1, 2], &[2], &[1, 2]], &[0; 4], 5);
        assert_eq!(h.domain(g[1], 1, 2), vec![1]);
        assert_eq!(h.domain(g[3], 1, 2), vec![2]);
        h.assert_reason(ne(g[1], 2), &[eq(g[2], 2), le(d, 8)]);
        h.assert_reason(ne(g[3], 1), &[eq(g[0], 1), le(d, 11)]);
    }

    #[test]
    fn diameter_is_at_most_the_exact_diameter_once_every_record_is_assigned() {
        let (mut h, g, d) = post(&[&[1], &[1], &[2], &[2]], &[0; 4], 100);
        assert_eq!(h.bounds(d), (2, 2));
        h.assert_reason(ge(d, 2), &[eq(g[2], 2), eq(g[3], 2)]);
        h.assert_reason(
            le(d, 2),
            &[eq(g[0], 1), eq(g[1], 1), eq(g[2], 2), eq(g[3], 2)],
        );
    }
}
