//! Pricing one class with CP: the least reduced cost of a single k_i-anonymous class under a
//! set-partitioning LP's duals (issue 12 asks to measure this against column generation's
//! depth-first pricing).
//!
//! Record `i` has a variable `X_i ∈ {1, 2}`: 1 when it is in the class, 2 when it is out (the
//! class-variable convention of the other propagators, with class 1 the priced one). The
//! objective is `⌈s·(rc(C) − ε)⌉` for the class `C = {i : X_i = 1}` and the scale `s`, and 0 for
//! the empty class (so a search that finds nothing below 0 proves that no class has a reduced
//! cost below `−1/s`).
//! With members `A` fixed in and candidates `F` still free, [`DualData::class_rc`] bounds
//! `rc(C)` over every completion `A ⊆ C ⊆ A ∪ F` (the dual-bound propagator's relaxation,
//! cut penalties included): the propagator raises the objective to that bound and removes
//! from the class every candidate whose addition lifts the bound above the objective's upper
//! bound. When every variable is fixed it fixes the objective to the class's reduced cost, or
//! fails when the class is not between `max k` and its size cap. Reasons name the members
//! (`[X_a = 1]`) and every record kept out (`[X_u ≠ 1]`), plus the objective's upper bound
//! for a removal.

mod checker;

pub use checker::ClassPricingChecker;

use std::sync::Arc;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::{Predicate, PropositionalConjunction};
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::{propagator_conflict, PropagationStatusCP};
use pumpkin_core::variables::DomainId;

use crate::common::{clamp32, ge, le, ne, register, Snapshot};
use crate::dual_bound::bound::{candidates, ClassCtx};
use crate::dual_bound::{explain_class, DualData};

declare_inference_label!(ClassPricing);

/// The class's value in the record variables.
pub const IN: i32 = 1;

/// Round-off allowance of a bound at a node with free records (a bound computed there may
/// exceed the exact value of a completion by float round-off; this keeps the node's integer
/// bound at or below the leaf's).
const NODE_TOL: f64 = 1e-6;

/// Round-off allowance of a complete class's reduced cost.
const LEAF_TOL: f64 = 1e-7;

/// The priced class's data: the duals and distances ([`DualData`]: its `z`, `tolerance` and
/// `cmax` are not read), the objective's scale and the size caps.
#[derive(Clone, Debug)]
pub struct PricingData {
    /// Duals, cut penalties, distances and k_i.
    pub duals: DualData,
    /// Objective units per cost unit.
    pub scale: f64,
    /// `cap[k]`: the largest class whose largest k_i is `k` (index 0 unused).
    pub cap: Arc<[usize]>,
}

impl PricingData {
    /// The objective's value for a reduced cost `rc` with round-off allowance `tol`.
    pub fn objective_of(&self, rc: f64, tol: f64) -> i64 {
        if rc.is_infinite() {
            return if rc > 0.0 { i64::MAX / 4 } else { i64::MIN / 4 };
        }
        (self.scale * (rc - tol)).ceil() as i64
    }

    /// The objective of a complete class (sorted members), or `None` when the class is not
    /// allowed (fewer than its largest k_i, or above its cap).
    pub fn leaf_value(&self, members: &[usize]) -> Option<i64> {
        if members.is_empty() {
            return Some(0);
        }
        let kmax = members.iter().map(|&a| self.duals.k[a]).max().unwrap_or(1);
        let cap = self.cap.get(kmax as usize).copied().unwrap_or(usize::MAX);
        if members.len() < kmax as usize || members.len() > cap {
            return None;
        }
        Some(self.objective_of(self.duals.class_rc(members, &[]), LEAF_TOL))
    }

    /// The objective's lower bound over every completion of `members` from `cands` (members
    /// non-empty, candidates non-empty); `i64::MAX / 4` when none reaches the largest k_i.
    pub fn node_bound(&self, members: &[usize], cands: &[usize]) -> i64 {
        self.objective_of(self.duals.class_rc(members, cands), NODE_TOL)
    }
}

/// Constructor of [`ClassPricingPropagator`].
#[derive(Clone, Debug)]
pub struct ClassPricingConstructor {
    /// Record variables (`IN` or 2), in record order.
    pub vars: Vec<DomainId>,
    /// The objective (scaled reduced cost).
    pub objective: DomainId,
    /// Duals, distances, scale and caps.
    pub data: PricingData,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for ClassPricingConstructor {
    type PropagatorImpl = ClassPricingPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            ClassPricing,
            ClassPricingChecker {
                vars: self.vars.clone(),
                objective: self.objective,
                data: self.data.clone(),
            },
        );
        PropagatorSpec {
            registration: register(
                &self.vars,
                DomainEvents::ANY_INT,
                Some((self.objective, DomainEvents::UPPER_BOUND)),
            ),
            checkers: checkers.build(),
            propagator: ClassPricingPropagator {
                vars: self.vars,
                objective: self.objective,
                data: self.data,
                inference_code,
            },
        }
    }
}

/// The class-pricing propagator.
#[derive(Clone, Debug)]
pub struct ClassPricingPropagator {
    vars: Vec<DomainId>,
    objective: DomainId,
    data: PricingData,
    inference_code: InferenceCode,
}

/// The members (`[X_a = 1]`) and every record that cannot join (`[X_u ≠ 1]`), but `skip`.
fn explain(
    vars: &[DomainId],
    s: &Snapshot,
    members: &[usize],
    skip: Option<usize>,
) -> Vec<Predicate> {
    let mut out = Vec::new();
    explain_class(vars, s, IN, members, skip, &mut out);
    out
}

/// Members (fixed in) and candidates (free) of a state.
fn split(s: &Snapshot) -> (Vec<usize>, Vec<usize>) {
    let members = (0..s.len()).filter(|&u| s.fixed[u] == Some(IN)).collect();
    (members, candidates(s, &s.fixed, IN))
}

impl Propagator for ClassPricingPropagator {
    fn name(&self) -> &str {
        "ClassPricing"
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let s = Snapshot::from_domains(&context, &self.vars, 2);
        if s.empty {
            return Ok(());
        }
        let (members, cands) = split(&s);
        if cands.is_empty() {
            // Every record decided: the objective is the class's value.
            let reason: PropositionalConjunction = explain(&self.vars, &s, &members, None).into();
            let Some(v) = self.data.leaf_value(&members) else {
                return propagator_conflict(reason, &self.inference_code);
            };
            let v = clamp32(v);
            context.post(
                ge(self.objective, v),
                (reason.clone(), &self.inference_code),
            )?;
            context.post(le(self.objective, v), (reason, &self.inference_code))?;
            return Ok(());
        }
        if members.is_empty() {
            return Ok(()); // no bound before the first member
        }
        let lb = self.data.node_bound(&members, &cands);
        let obj_lb = context.lower_bound(&self.objective) as i64;
        if lb > obj_lb {
            let reason: PropositionalConjunction = explain(&self.vars, &s, &members, None).into();
            context.post(
                ge(self.objective, clamp32(lb)),
                (reason, &self.inference_code),
            )?;
        }
        let obj_ub = context.upper_bound(&self.objective) as i64;
        let ctx = ClassCtx::new(&self.data.duals, &members, &cands);
        // A bound at or below `stop` (cost units) keeps a candidate: its objective is at most
        // `obj_ub`. `rc` may return such a value before the least one; above it, the least.
        let stop = obj_ub as f64 / self.data.scale + NODE_TOL / 2.0;
        for &u in &cands {
            let with = ctx.rc(Some(u), stop);
            if self.data.objective_of(with, NODE_TOL) > obj_ub {
                let mut reason = explain(&self.vars, &s, &members, Some(u));
                reason.push(le(self.objective, clamp32(obj_ub)));
                context.post(
                    ne(self.vars[u], IN),
                    (PropositionalConjunction::from(reason), &self.inference_code),
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
