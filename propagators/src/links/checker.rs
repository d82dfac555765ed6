use pumpkin_checking::{InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use crate::common::Snapshot;

/// Conflict when a must-link pair has disjoint domains within `[1, c_max]`, when a cannot-link
/// pair is fixed to the same class, or when some domain is empty.
#[derive(Clone, Debug)]
pub struct LinksChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// Must-link pairs.
    pub must: Vec<(u32, u32)>,
    /// Cannot-link pairs.
    pub cannot: Vec<(u32, u32)>,
    /// Largest class id.
    pub cmax: i32,
}

impl InferenceChecker<Predicate> for LinksChecker {
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
        let disjoint = self.must.iter().any(|&(a, b)| {
            let (a, b) = (a as usize, b as usize);
            !s.values(a).any(|v| s.contains(b, v))
        });
        let same = self.cannot.iter().any(|&(a, b)| {
            let (a, b) = (a as usize, b as usize);
            s.fixed[a].is_some() && s.fixed[a] == s.fixed[b]
        });
        disjoint || same
    }
}
