use pumpkin_checking::{CheckerVariable, InferenceChecker, VariableState};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

/// Checks value precedence: a state is a conflict when some `G_i` must exceed
/// `1 + max_{l<i} ub(G_l)`.
#[derive(Clone, Debug)]
pub struct PrecedeChecker {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
}

impl InferenceChecker<Predicate> for PrecedeChecker {
    fn check(
        &self,
        state: VariableState<Predicate>,
        _: &[Predicate],
        _: Option<&Predicate>,
    ) -> bool {
        // None = unbounded above.
        let mut prefix_max: Option<i64> = Some(0);
        for x in &self.vars {
            let lb = x
                .induced_lower_bound(&state)
                .as_int()
                .map(i64::from)
                .unwrap_or(i64::MIN);
            if let Some(p) = prefix_max {
                if lb > p + 1 {
                    return true;
                }
            }
            let ub = x.induced_upper_bound(&state).as_int().map(i64::from);
            prefix_max = match (prefix_max, ub) {
                (Some(p), Some(u)) => Some(p.max(u)),
                _ => None,
            };
        }
        false
    }
}
