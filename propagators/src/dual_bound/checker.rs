use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use super::bound::{evaluate, DualData};
use crate::common::{state_bounds, Snapshot};

/// Conflict when the dual bound of the premises' state (the records fixed there as the assigned
/// parts, its domains as the candidates) exceeds `ub(I)`.
#[derive(Clone, Debug)]
pub struct DualBoundChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Bound data.
    pub data: DualData,
}

impl InferenceChecker<Predicate> for DualBoundChecker {
    fn check(
        &self,
        state: VariableState<Predicate>,
        _premises: &[Predicate],
        _: Option<&Predicate>,
    ) -> bool {
        let s = Snapshot::from_state(&state, &self.vars, self.data.cmax);
        if s.empty {
            return true;
        }
        let ev = evaluate(&self.data, &s, &s.fixed);
        let (_, ub) = state_bounds(&state, self.objective);
        ub.is_some_and(|ub| self.data.ceil(ev.total) > ub)
    }
}
