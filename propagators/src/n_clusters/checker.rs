use std::sync::Arc;

use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use crate::common::Snapshot;

/// Conflict when some `G_i` must exceed `min_m (m + ⌊Σ_{l: ub(G_l) > m} 1/k_l⌋)`.
#[derive(Clone, Debug)]
pub struct NClustersChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// `denom / k_i` per record.
    pub weight: Arc<[u128]>,
    /// Common denominator.
    pub denom: u128,
    /// Largest class id.
    pub cmax: i32,
}

impl InferenceChecker<Predicate> for NClustersChecker {
    fn check(
        &self,
        state: VariableState<Predicate>,
        _: &[Predicate],
        _: Option<&Predicate>,
    ) -> bool {
        let s = Snapshot::from_state(&state, &self.vars, self.cmax);
        if s.empty {
            return true;
        }
        let (bound, _) = super::best_bound(&s.ub, &self.weight, self.denom, self.cmax);
        s.lb.iter().any(|&lb| lb > bound)
    }
}
