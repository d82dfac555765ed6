//! Explanations pumpkin never materialised, recomputed.
//!
//! pumpkin asks a propagator for the reason of a propagation only when conflict analysis needs
//! it; root facts and the propagations of a branch that ends in a solution are never explained,
//! and pumpkin 0.5 keeps its reason store private outside conflict analysis. To still show
//! them, the propagator is run again, alone, in a fresh [`State`] holding the model's variables:
//! the domains it saw when it ran in the search are posted, it propagates to its fixed point,
//! and `State::get_propagation_reason` returns the conjunction it posts with each predicate it
//! made true — the reason it would have given pumpkin. The premises hold in the domains the
//! propagator saw (or were derived by the same propagator from them), so the explanation is
//! one the search could have used.

use std::collections::HashMap;
use std::rc::Rc;

use optik_propagators::pumpkin_core::predicates::{Predicate, PredicateConstructor};
use optik_propagators::pumpkin_core::state::{CurrentNogood, State};
use optik_propagators::pumpkin_core::variables::DomainId;

use super::domains::{trail_entry, Snap};
use super::log::Why;

/// Adds a fresh copy of one of the model's propagators to a state.
pub(super) type AddTo = Rc<dyn Fn(&mut State)>;

/// Runs single propagators again on recorded domains.
pub(super) struct Replayer {
    /// `G_0..G_{n-1}`, then the objective (the model's ids).
    vars: Vec<DomainId>,
    /// Initial domain of each of `vars`.
    initial: Vec<(i32, i32)>,
    adders: HashMap<&'static str, AddTo>,
    /// One state per propagator, built on first use (`None`: it could not be built).
    states: HashMap<&'static str, Option<State>>,
}

impl Replayer {
    pub(super) fn new(
        vars: Vec<DomainId>,
        initial: Vec<(i32, i32)>,
        adders: impl IntoIterator<Item = (&'static str, AddTo)>,
    ) -> Replayer {
        Replayer {
            vars,
            initial,
            adders: adders.into_iter().collect(),
            states: HashMap::new(),
        }
    }

    /// A state whose domain ids coincide with the model's (the propagator's constructor holds
    /// the model's ids), with the propagator `name` alone, propagated at the root.
    fn build(&self, name: &str) -> Option<State> {
        let add = self.adders.get(name)?;
        let mut state = State::default();
        let last = self.vars.iter().map(|v| v.id()).max()?;
        for id in 1..=last {
            let (lo, hi) = self
                .vars
                .iter()
                .position(|v| v.id() == id)
                .map_or((0, 0), |i| self.initial[i]);
            if state.new_interval_variable(lo, hi, None).id() != id {
                return None;
            }
        }
        add(&mut state);
        state.propagate_to_fixed_point().ok()?;
        Some(state)
    }

    /// The explanation of each of `asked` (predicates propagator `name` made true when it ran
    /// on the domains `before`): inference label and premises; `None` where the replay does not
    /// derive it.
    pub(super) fn explain(
        &mut self,
        name: &'static str,
        before: &Snap,
        asked: &[Predicate],
    ) -> Vec<Option<Why>> {
        if !self.states.contains_key(name) {
            let built = self.build(name);
            self.states.insert(name, built);
        }
        let (vars, initial) = (&self.vars, &self.initial);
        let Some(Some(state)) = self.states.get_mut(name) else {
            return asked.iter().map(|_| None).collect();
        };
        state.new_checkpoint();
        let posted = post_domains(state, vars, initial, before) && {
            state.propagate_to_fixed_point().is_ok()
        };
        let out = asked
            .iter()
            .map(|&p| {
                if !posted || state.truth_value(p) != Some(true) {
                    return None;
                }
                let entry = trail_entry(state, vars, initial, p)?;
                let mut premises: Vec<Predicate> = Vec::new();
                let code =
                    state.get_propagation_reason(entry, &mut premises, CurrentNogood::empty());
                Some(Why::new(entry, code, premises, true))
            })
            .collect();
        let _ = state.restore_to(0);
        out
    }
}

/// Posts the recorded domains (as decisions); false if that empties a domain.
fn post_domains(
    state: &mut State,
    vars: &[DomainId],
    initial: &[(i32, i32)],
    before: &Snap,
) -> bool {
    let (obj, g) = vars.split_last().expect("objective");
    for ((x, &(lo, hi)), &mask) in g.iter().zip(initial).zip(&before.masks) {
        for v in lo..=hi {
            if mask & (1u64 << v.clamp(0, 63)) == 0
                && state.post(x.disequality_predicate(v)).is_err()
            {
                return false;
            }
        }
    }
    state.post(obj.lower_bound_predicate(before.obj.0)).is_ok()
        && state.post(obj.upper_bound_predicate(before.obj.1)).is_ok()
}
