use pumpkin_checking::{CheckerVariable, InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

/// Conflict when every class variable is below `c0`.
#[derive(Clone, Debug)]
pub struct MinClassesChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// Minimum number of classes.
    pub min_classes: i32,
}

impl InferenceChecker<Predicate> for MinClassesChecker {
    fn check(
        &self,
        state: VariableState<Predicate>,
        _: &[Predicate],
        _: Option<&Predicate>,
    ) -> bool {
        self.vars.iter().all(|x| {
            x.induced_upper_bound(&state)
                .as_int()
                .is_some_and(|u| u < self.min_classes)
        })
    }
}
