use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use super::{split, PricingData};
use crate::common::{state_bounds, Snapshot};

/// Conflict when the premises' state (its fixed records the members, its other records whose
/// domain holds the class the candidates) leaves the objective no value: every record decided
/// and the class not allowed or its value outside the objective's bounds; or a member and a
/// bound above the objective's upper bound.
#[derive(Clone, Debug)]
pub struct ClassPricingChecker {
    /// Record variables.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// The priced class's data.
    pub data: PricingData,
}

impl InferenceChecker<Predicate> for ClassPricingChecker {
    fn check(
        &self,
        state: VariableState<Predicate>,
        _premises: &[Predicate],
        _: Option<&Predicate>,
    ) -> bool {
        let s = Snapshot::from_state(&state, &self.vars, 2);
        if s.empty {
            return true;
        }
        let (members, cands) = split(&s);
        let (lb, ub) = state_bounds(&state, self.objective);
        if cands.is_empty() {
            return match self.data.leaf_value(&members) {
                None => true,
                Some(v) => lb.is_some_and(|l| l > v) || ub.is_some_and(|u| u < v),
            };
        }
        !members.is_empty() && ub.is_some_and(|u| self.data.node_bound(&members, &cands) > u)
    }
}
