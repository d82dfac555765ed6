use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use crate::common::{state_bounds, DistMatrix, Snapshot};

/// Conflict when two records with disjoint domains are nearer than `lb(S)`, when every domain is
/// `{1}` and `lb(S) > 0`, or when every record is fixed and the exact split exceeds `ub(S)`.
#[derive(Clone, Debug)]
pub struct SplitChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Distances.
    pub dist: DistMatrix,
    /// Largest class id.
    pub cmax: i32,
}

impl InferenceChecker<Predicate> for SplitChecker {
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
        let n = self.vars.len();
        let (lb, ub) = state_bounds(&state, self.objective);
        if let Some(ub) = ub {
            if s.fixed.iter().all(Option::is_some) && super::exact_split(&s.fixed, &self.dist) > ub
            {
                return true;
            }
        }
        let Some(lb) = lb else { return false };
        if lb > 0 && s.ub.iter().all(|&u| u <= 1) {
            return true;
        }
        for a in 0..n {
            for b in a + 1..n {
                if self.dist.get(a, b) < lb && !s.values(a).any(|v| s.contains(b, v)) {
                    return true;
                }
            }
        }
        false
    }
}
