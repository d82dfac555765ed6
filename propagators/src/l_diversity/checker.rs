use std::sync::Arc;

use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use crate::common::Snapshot;

/// Conflict when a record is fixed to class `j` while the records whose domain contains `j`
/// hold fewer than `l` distinct values (or when some domain is empty within `[1, c_max]`).
#[derive(Clone, Debug)]
pub struct LDiversityChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// Sensitive value id of each record.
    pub values: Arc<[u32]>,
    /// Distinct values a non-empty class needs.
    pub l: u32,
    /// Largest class id.
    pub cmax: i32,
}

impl InferenceChecker<Predicate> for LDiversityChecker {
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
            if !(0..n).any(|l| s.fixed[l] == Some(j)) {
                return false;
            }
            let mut vals: Vec<u32> = (0..n)
                .filter(|&l| s.contains(l, j))
                .map(|l| self.values[l])
                .collect();
            vals.sort_unstable();
            vals.dedup();
            (vals.len() as u32) < self.l
        })
    }
}
