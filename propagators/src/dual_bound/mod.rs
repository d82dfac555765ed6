//! LP dual bound with reduced-cost filtering (Focacci, Lodi & Milano's cost-based filtering,
//! here with the duals of optik's set-partitioning LP): the objective of a sum criterion (dbil,
//! wcsd) is at least `z + Σ_j max(0, rc_lb(j))` (see [`bound`]), and a record cannot join a
//! class when doing so pushes that bound above the incumbent. The duals are constants of the
//! instance (LP duality holds for every solution), so explanations only name the class
//! assignments and domain exclusions the class bounds read, plus the objective's upper bound.
//!
//! This is the bound the seed's CP model lacks (§6.6: its DBIL bound is why it stalls near 30
//! records); with it the CP engine starts from the LP's gap instead of the per-record bound's.

pub mod bound;
mod checker;

pub use bound::{DualData, DualEval, SumCriterion};
pub use checker::DualBoundChecker;

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

declare_inference_label!(DualBound);

/// Constructor of [`DualBoundPropagator`].
#[derive(Clone, Debug)]
pub struct DualBoundConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Criterion the duals belong to.
    pub criterion: SumCriterion,
    /// Distances.
    pub dist: DistMatrix,
    /// k_i per record.
    pub k: Vec<u32>,
    /// Cover duals π_i of a converged set-partitioning LP.
    pub pi: Vec<f64>,
    /// Its odd-set cuts (sorted sets S) and their penalties μ_S ≥ 0.
    pub cuts: Vec<(Vec<u32>, f64)>,
    /// Its value z = Σπ − Σ_S μ_S (|S| − 1)/2.
    pub z: f64,
    /// Round-off tolerance (LP accuracy plus c_max times the pricing ε).
    pub tolerance: f64,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for DualBoundConstructor {
    type PropagatorImpl = DualBoundPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let data = DualData {
            criterion: self.criterion,
            dist: self.dist,
            k: Arc::from(self.k),
            pi: Arc::from(self.pi),
            cuts: Arc::from(self.cuts),
            z: self.z,
            tolerance: self.tolerance,
            cmax: self.cmax,
        };
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            DualBound,
            DualBoundChecker {
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
            propagator: DualBoundPropagator {
                vars: self.vars,
                objective: self.objective,
                data,
                inference_code,
            },
        }
    }
}

/// The dual-bound propagator.
#[derive(Clone, Debug)]
pub struct DualBoundPropagator {
    vars: Vec<DomainId>,
    objective: DomainId,
    data: DualData,
    inference_code: InferenceCode,
}

/// What class `j`'s bound read, pushed onto `out`: its members' assignments and the exclusions
/// of `j` from every other record of `vars` (records fixed elsewhere included), except `skip`.
/// The class-pricing propagator's reasons are the same.
pub(crate) fn explain_class(
    vars: &[DomainId],
    s: &Snapshot,
    j: i32,
    members: &[usize],
    skip: Option<usize>,
    out: &mut Vec<Predicate>,
) {
    for &a in members {
        out.push(eq(vars[a], j));
    }
    for (u, &x) in vars.iter().enumerate() {
        if Some(u) == skip || members.contains(&u) {
            continue;
        }
        if s.fixed[u].is_some() || !s.contains(u, j) {
            out.push(ne(x, j));
        }
    }
}

impl DualBoundPropagator {
    /// The explanation of every positive share except class `skip_class`'s.
    fn explain(&self, s: &Snapshot, ev: &DualEval, skip_class: Option<i32>) -> Vec<Predicate> {
        let mut reason = Vec::new();
        for share in &ev.shares {
            if share.rc > 0.0 && Some(share.class) != skip_class {
                explain_class(
                    &self.vars,
                    s,
                    share.class,
                    &share.members,
                    None,
                    &mut reason,
                );
            }
        }
        reason
    }
}

impl Propagator for DualBoundPropagator {
    fn name(&self) -> &str {
        "DualBound"
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
        let lb = self.data.ceil(ev.total);
        let obj_lb = context.lower_bound(&self.objective) as i64;
        let obj_ub = context.upper_bound(&self.objective) as i64;
        if lb > obj_lb {
            let reason: PropositionalConjunction = self.explain(&s, &ev, None).into();
            context.post(
                ge(self.objective, clamp32(lb)),
                (reason, &self.inference_code),
            )?;
        }
        if lb > obj_ub || ev.unfixed.is_empty() {
            return Ok(());
        }
        // Reduced-cost filtering: r cannot join j when the bound with r in j exceeds ub(I).
        let ctxs: Vec<(i32, bound::ClassCtx, f64)> = ev
            .shares
            .iter()
            .map(|c| {
                (
                    c.class,
                    bound::ClassCtx::new(&self.data, &c.members, &c.cands),
                    c.rc,
                )
            })
            .collect();
        // Values no class holds yet (r would open them), with their candidates.
        let mut fresh: Vec<(i32, Vec<usize>)> = Vec::new();
        for &r in &ev.unfixed {
            for j in s.values(r) {
                let (before, with) = match ctxs.iter().find(|c| c.0 == j) {
                    Some((_, ctx, rc)) => {
                        // Not above `stop` means no pruning: let the bound stop there.
                        let stop = obj_ub as f64 + self.data.tolerance - (ev.total - rc);
                        (*rc, ctx.rc(Some(r), stop))
                    }
                    None => {
                        let idx = match fresh.iter().position(|f| f.0 == j) {
                            Some(i) => i,
                            None => {
                                fresh.push((j, bound::candidates(&s, &s.fixed, j)));
                                fresh.len() - 1
                            }
                        };
                        let cands: Vec<usize> =
                            fresh[idx].1.iter().copied().filter(|&u| u != r).collect();
                        (0.0, self.data.class_rc(&[r], &cands))
                    }
                };
                let with = ev.total - before + with.max(0.0);
                if self.data.ceil(with) > obj_ub {
                    let members: &[usize] = ev
                        .shares
                        .iter()
                        .find(|c| c.class == j)
                        .map_or(&[], |c| &c.members);
                    let mut reason = self.explain(&s, &ev, Some(j));
                    explain_class(&self.vars, &s, j, members, Some(r), &mut reason);
                    reason.push(le(self.objective, clamp32(obj_ub)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Harness;

    /// Four records (k = 2) with duals π = (3, 5, 10, 2) and z = 20: records 0 and 2 are in
    /// class 1 (rc = 2·9 − 13 = 5, so I ≥ 25), record 1 is free in {1, 2}, record 3 in {2, 3}.
    fn post(i_max: i32) -> (Harness, Vec<DomainId>, DomainId) {
        let rows = vec![
            vec![0, 4, 9, 5],
            vec![4, 0, 6, 1],
            vec![9, 6, 0, 7],
            vec![5, 1, 7, 0],
        ];
        let (mut h, g) = Harness::new(&[&[1], &[1, 2], &[1], &[2, 3]]);
        let objective = h.variable(0, i_max);
        let constraint_tag = h.tag();
        h.post(DualBoundConstructor {
            vars: g.clone(),
            objective,
            criterion: SumCriterion::Dbil,
            dist: DistMatrix::new(&rows),
            k: vec![2; 4],
            pi: vec![3.0, 5.0, 10.0, 2.0],
            cuts: vec![],
            z: 20.0,
            tolerance: 1e-6,
            cmax: 3,
            constraint_tag,
        })
        .expect("no conflict");
        (h, g, objective)
    }

    #[test]
    fn dual_bound_raises_the_objective_to_the_lp_bound_plus_positive_class_shares() {
        let (mut h, g, obj) = post(100);
        assert_eq!(h.bounds(obj), (25, 100));
        // Class 1's share reads its members and the records that cannot join it.
        h.assert_reason(ge(obj, 25), &[eq(g[0], 1), eq(g[2], 1), ne(g[3], 1)]);
    }

    #[test]
    fn dual_bound_removes_a_class_that_no_record_can_complete() {
        // Record 3 alone in class 3 would need a classmate, and no other record can take 3.
        let (mut h, g, obj) = post(100);
        assert_eq!(h.domain(g[3], 1, 3), vec![2]);
        h.assert_reason(
            ne(g[3], 3),
            &[
                eq(g[0], 1),
                eq(g[2], 1),
                ne(g[3], 1),
                ne(g[0], 3),
                ne(g[1], 3),
                ne(g[2], 3),
                le(obj, 100),
            ],
        );
    }

    #[test]
    fn dual_bound_removes_a_class_whose_share_with_the_record_exceeds_the_incumbent() {
        // Record 1 in class 1: rc = 3·9 − 18 = 9 instead of 5, so the bound would be 29.
        let (mut h, g, obj) = post(100);
        h.restrict(le(obj, 28));
        h.propagate_once().expect("no conflict");
        assert_eq!(h.domain(g[1], 1, 3), vec![2]);
        h.assert_reason(
            ne(g[1], 1),
            &[eq(g[0], 1), eq(g[2], 1), ne(g[3], 1), le(obj, 28)],
        );
    }
}
