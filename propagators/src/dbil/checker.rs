use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use super::bound::{evaluate, DbilData};
use crate::common::{state_bounds, Snapshot};

/// Conflict when the DBIL bound (computed with the records fixed by the premises as `F` and the
/// domains of the whole state) exceeds `ub(I)`, or when every record is fixed and the exact
/// DBIL is below `lb(I)`.
#[derive(Clone, Debug)]
pub struct DbilChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Bound data.
    pub data: DbilData,
}

impl InferenceChecker<Predicate> for DbilChecker {
    fn check(
        &self,
        state: VariableState<Predicate>,
        premises: &[Predicate],
        _: Option<&Predicate>,
    ) -> bool {
        let s = Snapshot::from_state(&state, &self.vars, self.data.cmax);
        if s.empty {
            return true;
        }
        let Ok(premise_state) =
            VariableState::prepare_for_conflict_check(premises.iter().copied(), None)
        else {
            return true;
        };
        let fixed = Snapshot::from_state(&premise_state, &self.vars, self.data.cmax).fixed;
        let ev = evaluate(&self.data, &s, &fixed);
        let (lb, ub) = state_bounds(&state, self.objective);
        ub.is_some_and(|ub| ev.lb > ub) || (ev.complete && lb.is_some_and(|lb| ev.lb < lb))
    }
}
