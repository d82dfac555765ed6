use std::sync::Arc;

use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use crate::common::Snapshot;

/// Conflict when more than `cap_j = min(2K_j − 1, M)` records are fixed to class `j`, where `K_j`
/// is the largest k among records whose domain contains `j` (each term only when posted).
#[derive(Clone, Debug)]
pub struct SizeCapChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// k_i of each record.
    pub k: Arc<[u32]>,
    /// Largest class id.
    pub cmax: i32,
    /// The dominance term is posted.
    pub dominance: bool,
    /// The maximum class size, if any.
    pub max_size: Option<u32>,
}

impl InferenceChecker<Predicate> for SizeCapChecker {
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
            let kmax = (0..n)
                .filter(|&l| s.contains(l, j))
                .map(|l| self.k[l])
                .max()
                .unwrap_or(0);
            let fixed = (0..n).filter(|&l| s.fixed[l] == Some(j)).count();
            fixed > 0
                && super::cap_of(kmax, self.dominance, self.max_size)
                    .is_some_and(|(cap, _)| fixed > cap)
        })
    }
}
