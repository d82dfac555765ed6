use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use crate::common::{state_bounds, DistMatrix, Snapshot};

/// Conflict when `max(max_i m_i, largest distance between two records fixed to the same class)`
/// exceeds `ub(D)`, or when every record is fixed and the exact maximum diameter is below
/// `lb(D)`.
#[derive(Clone, Debug)]
pub struct DiameterChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// Distances.
    pub dist: DistMatrix,
    /// max_i m_i.
    pub m_max: i64,
    /// Largest class id.
    pub cmax: i32,
}

impl InferenceChecker<Predicate> for DiameterChecker {
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
        let mut diam = self.m_max;
        for a in 0..n {
            for b in a + 1..n {
                if s.fixed[a].is_some() && s.fixed[a] == s.fixed[b] {
                    diam = diam.max(self.dist.get(a, b));
                }
            }
        }
        let complete = s.fixed.iter().all(Option::is_some);
        let (lb, ub) = state_bounds(&state, self.objective);
        ub.is_some_and(|ub| diam > ub) || (complete && lb.is_some_and(|lb| diam < lb))
    }
}
