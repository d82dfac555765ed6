use std::sync::Arc;

use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use crate::common::Snapshot;

/// Conflict when a record fixed to class `j` has `k_i` larger than the number of records whose
/// domain still contains `j` (or when some domain is empty within `[1, c_max]`).
#[derive(Clone, Debug)]
pub struct MembershipChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// k_i of each record.
    pub k: Arc<[u32]>,
    /// Largest class id.
    pub cmax: i32,
}

impl InferenceChecker<Predicate> for MembershipChecker {
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
        (1..=self.cmax).any(|j| {
            let count = (0..n).filter(|&l| s.contains(l, j)).count();
            (0..n).any(|l| s.fixed[l] == Some(j) && self.k[l] as usize > count)
        })
    }
}
