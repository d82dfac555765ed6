//! Number of clusters (seed 001 algorithm 6, theorem 10), generalised.
//!
//! Every class `C` of a k_i-anonymous partition has `Σ_{i∈C} 1/k_i ≥ 1`. With value precedence
//! the used classes are `1..T`; for any threshold `m`, classes `m+1..T` only contain records whose
//! domain still reaches above `m`, so `T ≤ m + ⌊Σ_{l: ub(G_l) > m} 1/k_l⌋`. The propagator takes
//! the best threshold `m*` and posts `G_i ≤ U` with reason `∧_{l: ub(G_l) ≤ m*} [G_l ≤ m*]`
//! (the seed's `u` is the sum over records that can still open a class; `m = c_min` there).
//! Sums are exact (common denominator).

mod checker;

pub use checker::NClustersChecker;

use std::sync::Arc;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::PropositionalConjunction;
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::PropagationStatusCP;
use pumpkin_core::variables::DomainId;

use crate::common::{le, register};

declare_inference_label!(NClusters);

/// Weights `L / k_i` with `L` the lcm of the distinct k values.
pub(crate) fn weights(k: &[u32]) -> (u128, Vec<u128>) {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let mut l: u128 = 1;
    for &ki in k {
        let ki = ki.max(1) as u128;
        l = l / gcd(l, ki) * ki;
    }
    (l, k.iter().map(|&ki| l / ki.max(1) as u128).collect())
}

/// Best bound `U = min_m (m + ⌊S_m⌋)` and its threshold `m*`, from upper bounds clamped to
/// `[0, cmax]`.
pub(crate) fn best_bound(ub: &[i32], weight: &[u128], denom: u128, cmax: i32) -> (i32, i32) {
    let mut bucket = vec![0u128; cmax as usize + 1];
    let mut total = 0u128;
    for (l, &u) in ub.iter().enumerate() {
        let u = u.clamp(0, cmax);
        bucket[u as usize] += weight[l];
        total += weight[l];
    }
    let mut best = (i32::MAX, 0);
    let mut below = 0u128;
    for m in 0..=cmax {
        below += bucket[m as usize];
        let s = (total - below) / denom;
        let u = (m as u128 + s).min(i32::MAX as u128) as i32;
        if u < best.0 {
            best = (u, m);
        }
    }
    best
}

/// Constructor of [`NClustersPropagator`].
#[derive(Clone, Debug)]
pub struct NClustersConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// k_i of each record.
    pub k: Vec<u32>,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl PropagatorConstructor for NClustersConstructor {
    type PropagatorImpl = NClustersPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let (denom, weight) = weights(&self.k);
        let weight: Arc<[u128]> = weight.into();
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            NClusters,
            NClustersChecker {
                vars: self.vars.clone(),
                weight: weight.clone(),
                denom,
                cmax: self.cmax,
            },
        );
        PropagatorSpec {
            registration: register(&self.vars, DomainEvents::UPPER_BOUND, None),
            checkers: checkers.build(),
            propagator: NClustersPropagator {
                vars: self.vars,
                weight,
                denom,
                cmax: self.cmax,
                inference_code,
            },
        }
    }
}

/// The number-of-clusters propagator.
#[derive(Clone, Debug)]
pub struct NClustersPropagator {
    vars: Vec<DomainId>,
    weight: Arc<[u128]>,
    denom: u128,
    cmax: i32,
    inference_code: InferenceCode,
}

impl Propagator for NClustersPropagator {
    fn name(&self) -> &str {
        "NClusters"
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        let ub: Vec<i32> = self.vars.iter().map(|x| context.upper_bound(x)).collect();
        let (bound, m) = best_bound(&ub, &self.weight, self.denom, self.cmax);
        if ub.iter().all(|&u| u <= bound) {
            return Ok(());
        }
        let reason: PropositionalConjunction = self
            .vars
            .iter()
            .zip(&ub)
            .filter(|(_, &u)| u <= m)
            .map(|(&x, _)| le(x, m))
            .collect();
        for (i, &x) in self.vars.iter().enumerate() {
            if ub[i] > bound {
                context.post(le(x, bound), (reason.clone(), &self.inference_code))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Harness;

    #[test]
    fn n_clusters_caps_classes_by_the_weight_of_records_above_the_best_threshold() {
        // Records 0..3 (k = 1) are in class 1; records 3 and 4 (k = 2) weigh 1/2 each, so at
        // most 1 + ⌊1/2 + 1/2⌋ = 2 classes: threshold m = 1 beats m = 0 (⌊3 + 1⌋ = 4).
        let all: &[i32] = &[1, 2, 3, 4];
        let (mut h, g) = Harness::new(&[&[1], &[1], &[1], all, all]);
        let constraint_tag = h.tag();
        h.post(NClustersConstructor {
            vars: g.clone(),
            k: vec![1, 1, 1, 2, 2],
            cmax: 4,
            constraint_tag,
        })
        .expect("no conflict");
        assert_eq!(h.bounds(g[3]), (1, 2));
        assert_eq!(h.bounds(g[4]), (1, 2));
        let reason = [le(g[0], 1), le(g[1], 1), le(g[2], 1)];
        h.assert_reason(le(g[3], 2), &reason);
        h.assert_reason(le(g[4], 2), &reason);
    }
}
