//! A bound re-solved at the CP search's nodes (issue 12: "the CP engine inside the tree"). The
//! records the search has fixed form groups: the records fixed to one class share it, and two
//! groups are in different classes. Those are exactly the pairs a Ryan–Foster node of
//! branch-and-price decides (together / apart), so the column-generation engine can answer
//! "what does every solution with these groups cost at least?" with its node LP, and this
//! propagator raises the objective to that answer. The bound comes through [`GroupBound`]
//! (this crate knows nothing of LPs); its value is only a function of the groups, so the
//! explanation is the fixed records' assignments, which entail every group.
//!
//! The LP costs far more than a propagation, so it runs only on nodes with at least
//! `min_fixed` fixed records, never twice on the same groups (a cache keyed by the groups,
//! which the restarts revisit), and only while the LP's share of the time since the first call
//! stays below `share`; the other nodes read the cache.

mod checker;

pub use checker::NodeLpChecker;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use pumpkin_core::declare_inference_label;
use pumpkin_core::predicates::{Predicate, PropositionalConjunction};
use pumpkin_core::proof::{ConstraintTag, InferenceCode};
use pumpkin_core::propagation::{
    DomainEvents, Priority, PropagationContext, Propagator, PropagatorConstructor,
    PropagatorConstructorContext, PropagatorSpec, ReadDomains, RuntimeCheckers,
};
use pumpkin_core::state::PropagationStatusCP;
use pumpkin_core::variables::DomainId;

use crate::common::{clamp32, eq, ge, register, Snapshot};

declare_inference_label!(NodeLp);

/// A lower bound on the objective of every solution (of the set the bound is valid for: the
/// caller's relaxation) in which the records of each group share one class and no two groups
/// share a class.
pub trait GroupBound {
    /// The bound for `groups` (each sorted; disjoint; ordered by first member), or `None` when
    /// nothing is known. `ub` is the objective the search must beat: a bound that reaches it
    /// may be returned as soon as it is proven.
    fn bound(&self, groups: &[Vec<u32>], ub: i64) -> Option<i64>;
}

/// The groups of the fixed records of `s`, each sorted, ordered by first member (so equal
/// partitions of the fixed records give equal keys, whatever their class ids).
pub fn groups_of(s: &Snapshot) -> Vec<Vec<u32>> {
    let mut by_class: HashMap<i32, usize> = HashMap::new();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for (i, f) in s.fixed.iter().enumerate() {
        if let Some(v) = f {
            let g = *by_class.entry(*v).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(i as u32);
        }
    }
    groups
}

/// Counters of the node LPs, shared with the engine that reports them.
#[derive(Debug, Default)]
pub struct NodeLpStats {
    /// Bounds asked of the LP.
    pub solved: u64,
    /// Nodes answered from the cache.
    pub cached: u64,
    /// Nodes whose bound raised the objective's lower bound.
    pub raised: u64,
    /// Seconds in the LP.
    pub seconds: f64,
}

/// The propagator's memory across nodes: the bounds known per groups, since when it asks.
#[derive(Debug, Default)]
struct Memory {
    started: Option<Instant>,
    cache: HashMap<Vec<Vec<u32>>, i64>,
}

/// Constructor of [`NodeLpPropagator`].
#[derive(Clone)]
pub struct NodeLpConstructor {
    /// Class variables in record order.
    pub vars: Vec<DomainId>,
    /// The objective variable.
    pub objective: DomainId,
    /// The bound of a node's groups.
    pub bound: Rc<dyn GroupBound>,
    /// What the inference checker asks (an independent bound in tests, else `bound`).
    pub verifier: Rc<dyn GroupBound>,
    /// Fewest fixed records for which the bound is asked.
    pub min_fixed: usize,
    /// Most fixed records for which the bound is asked (deeper nodes read the cache only).
    pub max_fixed: usize,
    /// On a conflict, drop the groups the bound does not need from the explanation (one bound
    /// asked per group).
    pub minimise: bool,
    /// Largest share of the time (since the first node asked) the bound may take.
    pub share: f64,
    /// Counters, read by the engine.
    pub stats: Arc<Mutex<NodeLpStats>>,
    /// While set, the propagator asks nothing (the engine's solve under a known solution's
    /// assignment, where every node's bound is beside the point).
    pub paused: Arc<AtomicBool>,
    /// Largest class id.
    pub cmax: i32,
    /// Tag of the constraint.
    pub constraint_tag: ConstraintTag,
}

impl std::fmt::Debug for NodeLpConstructor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeLpConstructor")
            .field("min_fixed", &self.min_fixed)
            .field("share", &self.share)
            .finish_non_exhaustive()
    }
}

impl PropagatorConstructor for NodeLpConstructor {
    type PropagatorImpl = NodeLpPropagator;

    fn create(
        self,
        _context: PropagatorConstructorContext,
    ) -> PropagatorSpec<Self::PropagatorImpl> {
        let mut checkers = RuntimeCheckers::builder();
        let inference_code = checkers.add_inference_checker(
            self.constraint_tag,
            NodeLp,
            NodeLpChecker {
                vars: self.vars.clone(),
                objective: self.objective,
                verifier: self.verifier,
                cmax: self.cmax,
            },
        );
        PropagatorSpec {
            registration: register(&self.vars, DomainEvents::ASSIGN, None),
            checkers: checkers.build(),
            propagator: NodeLpPropagator {
                vars: self.vars,
                objective: self.objective,
                bound: self.bound,
                min_fixed: self.min_fixed.max(1),
                max_fixed: self.max_fixed,
                minimise: self.minimise,
                share: self.share,
                memory: Arc::new(Mutex::new(Memory::default())),
                stats: self.stats,
                paused: self.paused,
                cmax: self.cmax,
                inference_code,
            },
        }
    }
}

/// The node-LP propagator.
#[derive(Clone)]
pub struct NodeLpPropagator {
    vars: Vec<DomainId>,
    objective: DomainId,
    bound: Rc<dyn GroupBound>,
    min_fixed: usize,
    max_fixed: usize,
    minimise: bool,
    share: f64,
    memory: Arc<Mutex<Memory>>,
    stats: Arc<Mutex<NodeLpStats>>,
    paused: Arc<AtomicBool>,
    cmax: i32,
    inference_code: InferenceCode,
}

impl std::fmt::Debug for NodeLpPropagator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeLpPropagator")
            .field("min_fixed", &self.min_fixed)
            .field("share", &self.share)
            .finish_non_exhaustive()
    }
}

impl NodeLpPropagator {
    /// The bound of `groups`: the cache's, else the LP's when the time share allows.
    fn lookup(&self, groups: Vec<Vec<u32>>, ub: i64, solve: bool) -> Option<i64> {
        let mut memory = self.memory.lock().expect("node-LP memory");
        let mut stats = self.stats.lock().expect("node-LP stats");
        if let Some(&b) = memory.cache.get(&groups) {
            stats.cached += 1;
            return Some(b);
        }
        if !solve {
            return None;
        }
        let started = *memory.started.get_or_insert_with(Instant::now);
        let allowed = started.elapsed().as_secs_f64() * self.share;
        if stats.seconds > allowed {
            return None;
        }
        let t = Instant::now();
        let b = self.bound.bound(&groups, ub);
        stats.seconds += t.elapsed().as_secs_f64();
        stats.solved += 1;
        if let Some(b) = b {
            memory.cache.insert(groups, b);
        }
        b
    }
}

impl Propagator for NodeLpPropagator {
    fn name(&self) -> &str {
        "NodeLp"
    }

    fn priority(&self) -> Priority {
        Priority::VeryLow
    }

    fn propagate_from_scratch(&self, mut context: PropagationContext) -> PropagationStatusCP {
        if self.paused.load(Ordering::Relaxed) {
            return Ok(());
        }
        let s = Snapshot::from_domains(&context, &self.vars, self.cmax);
        let fixed = s.fixed.iter().flatten().count();
        if s.empty || fixed < self.min_fixed {
            return Ok(());
        }
        let obj_lb = context.lower_bound(&self.objective) as i64;
        let ub = context.upper_bound(&self.objective) as i64 + 1;
        let mut groups = groups_of(&s);
        let Some(mut lb) = self.lookup(groups.clone(), ub, fixed <= self.max_fixed) else {
            return Ok(());
        };
        if lb >= ub && self.minimise {
            // A conflict: keep only the groups it needs (deletion filter), so the nogood
            // names fewer assignments and prunes elsewhere in the search too. The groups with
            // a record fixed at the current checkpoint stay (conflict analysis needs a
            // literal of the current level).
            let now = context.get_checkpoint();
            let current = |group: &Vec<u32>| {
                group.iter().any(|&i| {
                    let v = s.fixed[i as usize].expect("groups hold fixed records");
                    context.get_checkpoint_for_predicate(eq(self.vars[i as usize], v)) == Some(now)
                })
            };
            let mut g = groups.len();
            while g > 0 && groups.len() > 1 {
                g -= 1;
                if current(&groups[g]) {
                    continue;
                }
                let mut fewer = groups.clone();
                fewer.remove(g);
                if let Some(b) = self.lookup(fewer.clone(), ub, true) {
                    if b >= ub {
                        groups = fewer;
                        lb = b;
                    }
                }
            }
        }
        if lb > obj_lb {
            self.stats.lock().expect("node-LP stats").raised += 1;
            let reason: Vec<Predicate> = groups
                .iter()
                .flatten()
                .map(|&i| {
                    let v = s.fixed[i as usize].expect("groups hold fixed records");
                    eq(self.vars[i as usize], v)
                })
                .collect();
            context.post(
                ge(self.objective, clamp32(lb)),
                (PropositionalConjunction::from(reason), &self.inference_code),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Harness;

    /// A bound that charges 10 per group of two or more records, and counts its calls.
    struct PerPair(Mutex<u32>);

    impl GroupBound for PerPair {
        fn bound(&self, groups: &[Vec<u32>], _ub: i64) -> Option<i64> {
            *self.0.lock().unwrap() += 1;
            Some(10 * groups.iter().filter(|g| g.len() >= 2).count() as i64)
        }
    }

    fn post(
        domains: &[&[i32]],
        i_max: i32,
        min_fixed: usize,
        minimise: bool,
    ) -> (
        Harness,
        Vec<DomainId>,
        DomainId,
        Rc<PerPair>,
        Result<(), pumpkin_core::state::Conflict>,
    ) {
        let (mut h, g) = Harness::new(domains);
        let objective = h.variable(0, i_max);
        let constraint_tag = h.tag();
        let bound = Rc::new(PerPair(Mutex::new(0)));
        let r = h.post(NodeLpConstructor {
            vars: g.clone(),
            objective,
            bound: bound.clone(),
            verifier: bound.clone(),
            min_fixed,
            max_fixed: usize::MAX,
            minimise,
            share: 1.0,
            stats: Arc::default(),
            paused: Arc::default(),
            cmax: 3,
            constraint_tag,
        });
        (h, g, objective, bound, r)
    }

    #[test]
    fn node_lp_raises_the_objective_to_the_groups_bound_with_the_fixed_records_as_reason() {
        // Records 0 and 1 share class 1, record 2 is alone in class 2: one group of two.
        let (mut h, g, obj, _, r) = post(&[&[1], &[1], &[2], &[1, 2, 3]], 100, 2, false);
        r.expect("no conflict");
        assert_eq!(h.bounds(obj), (10, 100));
        h.assert_reason(ge(obj, 10), &[eq(g[0], 1), eq(g[1], 1), eq(g[2], 2)]);
    }

    #[test]
    fn node_lp_fails_when_the_groups_bound_exceeds_the_incumbent() {
        // Two groups of two: 20 > 19, the objective's domain empties.
        let (mut h, g, obj, _, r) = post(&[&[1], &[1], &[2], &[2]], 19, 2, false);
        h.assert_empty_domain(
            r,
            ge(obj, 20),
            &[eq(g[0], 1), eq(g[1], 1), eq(g[2], 2), eq(g[3], 2)],
        );
    }

    #[test]
    fn node_lp_conflicts_name_only_the_groups_the_bound_needs() {
        // Groups {0, 1}, {2}, then {3, 4} at a new checkpoint: 20 > 15. Without {2} the bound
        // is still 20, without {0, 1} 10, and {3, 4} holds the current level's records: record
        // 2 leaves the explanation.
        let (mut h, g, obj, _, r) = post(&[&[1], &[1], &[2], &[1, 3], &[1, 3]], 15, 2, true);
        r.expect("no conflict");
        h.checkpoint();
        h.restrict(eq(g[3], 3));
        h.restrict(eq(g[4], 3));
        let r = h.propagate_once();
        h.assert_empty_domain(
            r,
            ge(obj, 20),
            &[eq(g[0], 1), eq(g[1], 1), eq(g[3], 3), eq(g[4], 3)],
        );
    }

    #[test]
    fn node_lp_waits_for_enough_fixed_records_and_asks_each_groups_once() {
        let (mut h, g, obj, bound, r) =
            post(&[&[1], &[1, 2], &[1, 2, 3], &[1, 2, 3]], 100, 2, false);
        r.expect("no conflict");
        assert_eq!(*bound.0.lock().unwrap(), 0, "one fixed record: not asked");
        h.restrict(eq(g[1], 1));
        h.propagate_once().expect("no conflict");
        assert_eq!(*bound.0.lock().unwrap(), 1);
        assert_eq!(h.bounds(obj), (10, 100));
        h.propagate_once().expect("no conflict");
        assert_eq!(
            *bound.0.lock().unwrap(),
            1,
            "the same groups come from the cache"
        );
    }

    #[test]
    fn groups_do_not_depend_on_class_ids() {
        let (mut h, g) = Harness::new(&[&[2], &[1], &[2], &[1, 3]]);
        let s = h.snapshot(&g, 3);
        assert_eq!(groups_of(&s), vec![vec![0, 2], vec![1]]);
        let (mut h, g) = Harness::new(&[&[1], &[3], &[1], &[2, 3]]);
        let s = h.snapshot(&g, 3);
        assert_eq!(groups_of(&s), vec![vec![0, 2], vec![1]]);
    }
}
