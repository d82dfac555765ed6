//! The shared recorder the tracing hooks write into while pumpkin searches: events with pumpkin
//! predicates, the search-tree nodes, and the bookkeeping that says which recorded propagations
//! are still on pumpkin's trail (only those can be asked for their explanation).

use std::cell::RefCell;
use std::rc::Rc;

use optik_propagators::pumpkin_core::predicates::{Predicate, PredicateType};
use optik_propagators::pumpkin_core::proof::InferenceCode;
use optik_propagators::pumpkin_core::variables::DomainId;

use super::domains::Snap;
use super::trace::{Leaf, Lit, Op, Var};

/// Shared handle (pumpkin runs single-threaded; propagators only need `Clone + 'static`).
pub(super) type Shared = Rc<RefCell<Log>>;

/// What one propagator call made true about one variable.
pub(super) struct RawChange {
    /// A bound or a removal, read from the domains before and after the call.
    pub pred: Predicate,
    /// `var = v` when the call left a single value.
    pub fixes: Option<Predicate>,
    pub why: Option<Why>,
}

/// An explanation as pumpkin returned it.
pub(super) struct Why {
    /// The predicate the propagator posted (the trail entry that made `pred` true): the one
    /// the premises imply.
    pub posted: Predicate,
    /// pumpkin's inference label.
    pub label: String,
    pub premises: Vec<Predicate>,
    /// Recomputed by replaying the propagator (pumpkin's conflict analysis never asked).
    pub recomputed: bool,
}

impl Why {
    pub(super) fn new(
        posted: Predicate,
        code: Option<InferenceCode>,
        premises: Vec<Predicate>,
        recomputed: bool,
    ) -> Why {
        Why {
            posted,
            label: code.map_or_else(
                || "implied by the domain".to_string(),
                |c| c.label().to_string(),
            ),
            premises,
            recomputed,
        }
    }
}

/// An event with pumpkin predicates.
pub(super) enum RawEvent {
    Search {
        index: usize,
        bound: Option<Predicate>,
    },
    Decision {
        node: usize,
    },
    Restart,
    Propagation {
        level: usize,
        propagator: &'static str,
        changes: Vec<RawChange>,
        /// Still on the trail: its explanations can still be asked for.
        open: bool,
        /// The domains the propagator saw (to replay it).
        before: Snap,
    },
    Conflict {
        level: usize,
        propagator: Option<&'static str>,
        trigger: Option<Predicate>,
        explanation: Vec<Predicate>,
    },
    Learned {
        nogood: Vec<Predicate>,
        backjump: usize,
        asserted: Option<Predicate>,
    },
    Solution {
        objective: i64,
        labels: Vec<i32>,
    },
    Exhausted {
        search: usize,
    },
    Stopped,
}

/// A search-tree node being built.
pub(super) struct RawNode {
    pub parent: Option<usize>,
    pub search: usize,
    /// `None` until the first propagation after the decision tells its level.
    pub level: Option<usize>,
    pub decision: Predicate,
    pub leaf: Option<Leaf>,
}

/// The recorder.
pub(super) struct Log {
    /// `G_0..G_{n-1}`, then the objective.
    pub vars: Vec<DomainId>,
    pub events: Vec<RawEvent>,
    pub nodes: Vec<RawNode>,
    /// Nodes of the current branch, root first.
    pub path: Vec<usize>,
    /// Current search call (1-based; 0 = model building).
    pub search: usize,
    /// A decision whose level is not known yet.
    pub pending_decision: Option<usize>,
    /// A conflict a propagator just reported (event index), for the resolver to complete.
    pub pending_conflict: Option<usize>,
    /// Set while pumpkin's conflict resolver runs (its backtracks are backjumps, not restarts).
    pub in_resolver: bool,
    /// A backtrack outside conflict analysis happened: a restart (or the end of a call).
    pub pending_restart: bool,
    /// Decision level of the assumptions of the current call (0 or 1).
    pub assumption_level: usize,
    pub decisions: usize,
    pub conflicts: usize,
    pub restarts: usize,
}

impl Log {
    pub(super) fn new(vars: Vec<DomainId>) -> Shared {
        Rc::new(RefCell::new(Log {
            vars,
            events: Vec::new(),
            nodes: Vec::new(),
            path: Vec::new(),
            search: 0,
            pending_decision: None,
            pending_conflict: None,
            in_resolver: false,
            pending_restart: false,
            assumption_level: 0,
            decisions: 0,
            conflicts: 0,
            restarts: 0,
        }))
    }

    /// Starts search call number `search + 1` under an objective `bound` (assumptions at
    /// level `assumptions`): a fresh branch, no pending decision or restart.
    pub(super) fn begin_search(&mut self, bound: Option<Predicate>, assumptions: usize) {
        self.pending_restart = false;
        self.pending_decision = None;
        self.close_above(0);
        self.path.clear();
        self.search += 1;
        self.assumption_level = assumptions;
        let index = self.search;
        self.events.push(RawEvent::Search { index, bound });
    }

    /// Records a solution of objective `objective` found at the end of the current branch.
    pub(super) fn record_solution(&mut self, objective: i64, labels: Vec<i32>) {
        if self.pending_decision.is_some() {
            let level = self
                .path
                .last()
                .and_then(|&x| self.nodes[x].level)
                .unwrap_or(self.assumption_level)
                + 1;
            self.resolve_pending(level);
        }
        self.mark_leaf(Leaf::Solution(objective));
        self.events.push(RawEvent::Solution { objective, labels });
    }

    /// Applies a restart noticed earlier; called before anything new is recorded.
    pub(super) fn sync(&mut self) {
        if self.pending_restart {
            self.pending_restart = false;
            self.resolve_pending(self.assumption_level + 1);
            self.close_above(0);
            self.path.clear();
            if self.search > 0 {
                self.restarts += 1;
                self.events.push(RawEvent::Restart);
            }
        }
    }

    /// Level of the current deepest node (or of the assumptions).
    fn current_level(&self) -> usize {
        self.path
            .last()
            .and_then(|&n| self.nodes[n].level)
            .unwrap_or(self.assumption_level)
    }

    /// Gives the pending decision its level and hangs it into the tree.
    pub(super) fn resolve_pending(&mut self, level: usize) {
        let Some(node) = self.pending_decision.take() else {
            return;
        };
        // Everything recorded at this level or deeper was undone before this decision.
        self.close_above(level.saturating_sub(1));
        while let Some(&last) = self.path.last() {
            if self.nodes[last].level.is_some_and(|l| l >= level) {
                self.path.pop();
            } else {
                break;
            }
        }
        self.nodes[node].level = Some(level);
        self.nodes[node].parent = self.path.last().copied();
        self.path.push(node);
    }

    /// Records a decision of the brancher.
    pub(super) fn decision(&mut self, p: Predicate) {
        self.sync();
        if self.pending_decision.is_some() {
            // The previous decision triggered no propagator: one level below this one.
            let l = self.current_level() + 1;
            self.resolve_pending(l);
        }
        let node = self.nodes.len();
        self.nodes.push(RawNode {
            parent: None,
            search: self.search,
            level: None,
            decision: p,
            leaf: None,
        });
        self.pending_decision = Some(node);
        self.decisions += 1;
        self.events.push(RawEvent::Decision { node });
    }

    /// Marks propagations deeper than `level` as undone.
    pub(super) fn close_above(&mut self, level: usize) {
        for e in &mut self.events {
            if let RawEvent::Propagation { level: l, open, .. } = e {
                if *l > level {
                    *open = false;
                }
            }
        }
    }

    /// Marks how the current deepest node ended (the first outcome wins).
    pub(super) fn mark_leaf(&mut self, leaf: Leaf) {
        if let Some(&n) = self.path.last() {
            if self.nodes[n].leaf.is_none() {
                self.nodes[n].leaf = Some(leaf);
            }
        }
    }

    /// Index of a model variable.
    pub(super) fn var_of(&self, d: DomainId) -> Option<Var> {
        let i = self.vars.iter().position(|&v| v == d)?;
        Some(if i + 1 == self.vars.len() {
            Var::Objective
        } else {
            Var::Record(i)
        })
    }

    /// The predicate as a [`Lit`] (`None` for a variable outside the model).
    pub(super) fn lit(&self, p: Predicate) -> Option<Lit> {
        let var = self.var_of(p.get_domain())?;
        let op = match p.get_predicate_type() {
            PredicateType::Equal => Op::Eq,
            PredicateType::NotEqual => Op::Ne,
            PredicateType::LowerBound => Op::Ge,
            PredicateType::UpperBound => Op::Le,
        };
        Some(Lit {
            var,
            op,
            value: p.get_right_hand_side(),
        })
    }

    /// True when the predicate bounds the objective from the side the incumbent constrains.
    pub(super) fn is_objective_bound(&self, p: Predicate, maximise: bool) -> bool {
        p.get_domain() == *self.vars.last().expect("objective")
            && matches!(
                (p.get_predicate_type(), maximise),
                (PredicateType::UpperBound, false) | (PredicateType::LowerBound, true)
            )
    }
}
