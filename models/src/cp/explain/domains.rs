//! The model's domains as `optik explain` sees them: a snapshot of every variable's domain (what
//! a propagator saw, to replay it later) and the trail entry that made a predicate true (the one
//! pumpkin stored the reason of). Shared by the recording hooks, the log and the replay.

use optik_propagators::pumpkin_core::predicates::{Predicate, PredicateConstructor, PredicateType};
use optik_propagators::pumpkin_core::propagation::{Domains, ReadDomains};
use optik_propagators::pumpkin_core::state::State;
use optik_propagators::pumpkin_core::variables::DomainId;

/// Domains of the model's variables: a bit mask of the values of each `G_i`, bounds of the
/// objective.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Snap {
    pub masks: Vec<u64>,
    pub obj: (i32, i32),
    pub level: usize,
}

pub(super) fn snap(vars: &[DomainId], d: &Domains) -> Snap {
    let (obj, g) = vars.split_last().expect("objective");
    let masks = g
        .iter()
        .map(|x| {
            (d.lower_bound(x)..=d.upper_bound(x))
                .filter(|&v| d.contains(x, v))
                .fold(0u64, |m, v| m | (1u64 << v.clamp(0, 63)))
        })
        .collect();
    Snap {
        masks,
        obj: (d.lower_bound(obj), d.upper_bound(obj)),
        level: d.get_checkpoint(),
    }
}

/// The predicate explicitly on the trail at the position that made `p` true: only that one has
/// the propagator's stored reason (asked for an implied predicate, pumpkin answers with the
/// implying one and no inference). `vars` and `initial`: the model's variables, objective last,
/// and their initial domains.
pub(super) fn trail_entry(
    state: &State,
    vars: &[DomainId],
    initial: &[(i32, i32)],
    p: Predicate,
) -> Option<Predicate> {
    let position = state.trail_position(p)?;
    let x = p.get_domain();
    let i = vars.iter().position(|&v| v == x)?;
    let (lo, hi) = initial[i];
    if hi - lo > 64 && p.get_predicate_type() != PredicateType::NotEqual {
        // The objective: its bounds are posted as bounds.
        return Some(p);
    }
    (lo..=hi)
        .flat_map(|v| {
            [
                x.lower_bound_predicate(v),
                x.upper_bound_predicate(v),
                x.disequality_predicate(v),
                x.equality_predicate(v),
            ]
        })
        .find(|&q| state.is_on_trail(q) && state.trail_position(q) == Some(position))
}
