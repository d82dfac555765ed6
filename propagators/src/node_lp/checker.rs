use std::rc::Rc;

use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use super::{groups_of, GroupBound};
use crate::common::{state_bounds, Snapshot};

/// Conflict when the verifier's bound of the groups the premises fix exceeds `ub(I)`.
#[derive(Clone)]
pub struct NodeLpChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// The bound the inferences are checked against.
    pub verifier: Rc<dyn GroupBound>,
    /// Largest class id.
    pub cmax: i32,
}

impl std::fmt::Debug for NodeLpChecker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeLpChecker").finish_non_exhaustive()
    }
}

impl InferenceChecker<Predicate> for NodeLpChecker {
    fn check(
        &self,
        state: VariableState<Predicate>,
        _premises: &[Predicate],
        _: Option<&Predicate>,
    ) -> bool {
        let s = Snapshot::from_state(&state, &self.vars, self.cmax);
        if s.empty {
            return true;
        }
        let (_, ub) = state_bounds(&state, self.objective);
        let Some(ub) = ub else {
            return false;
        };
        self.verifier
            .bound(&groups_of(&s), ub + 1)
            .is_some_and(|b| b > ub)
    }
}
