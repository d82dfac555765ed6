//! What `optik explain` shows of one CP search: plain data (no pumpkin types), in the order it
//! happened, for the text and search-tree renderers of the `optik` crate.

use serde::Serialize;

use crate::{Criterion, Partition, Status};

/// A variable of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Var {
    /// `G_i`, the class of record `i` (0-based record index).
    Record(usize),
    /// The objective variable.
    Objective,
}

/// The comparison of an atomic constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Op {
    Eq,
    Ne,
    Le,
    Ge,
}

/// An atomic constraint `var op value` (pumpkin's predicate): class ids are 1-based, the
/// objective is in integer units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Lit {
    pub var: Var,
    pub op: Op,
    pub value: i32,
}

/// Why a propagation holds: the conjunction the propagator posted with it, as pumpkin stored it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Because {
    /// Who made the inference (optik's propagator name, or `learned nogood`).
    pub by: String,
    /// The premises; the propagation follows from their conjunction.
    pub premises: Vec<Lit>,
    /// False: pumpkin's conflict analysis asked the propagator for it. True: pumpkin never
    /// asked (a root fact, or a branch left without conflict analysis needing it) and `explain`
    /// recomputed it by running the propagator alone on the domains it saw.
    pub recomputed: bool,
}

/// One predicate a propagator made true.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// A bound or a removal: the predicate the propagator posted (the one its explanation
    /// implies).
    pub lit: Lit,
    /// `var = v` when the propagator's call left its variable a single value.
    pub fixes: Option<Lit>,
    /// Its explanation (`None`: neither pumpkin nor the replay of the propagator gave one).
    pub because: Option<Because>,
}

/// One step of the search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Event {
    /// A call of the solver: find a solution (better than `bound` when there is an incumbent).
    Search {
        index: usize,
        /// Objective bound assumed by this call (`≤` when minimising, `≥` for split).
        bound: Option<Lit>,
    },
    /// The brancher's decision: node `node` of [`Trace::nodes`].
    Decision { node: usize },
    /// pumpkin restarted: back to the root (learned nogoods are kept).
    Restart,
    /// One call of a propagator that changed domains.
    Propagation {
        /// Decision level (0 = root, 1.. the assumption and decision levels).
        level: usize,
        propagator: &'static str,
        /// What it made true.
        changes: Vec<Change>,
    },
    /// A dead end: the conjunction that cannot hold.
    Conflict {
        level: usize,
        /// The propagator that failed (`None`: a learned nogood or the objective bound).
        propagator: Option<&'static str>,
        /// The predicate whose posting emptied a domain, if that is how it failed.
        trigger: Option<Lit>,
        explanation: Vec<Lit>,
        /// True when the explanation involves the objective bound (the branch cannot improve).
        pruned: bool,
    },
    /// Conflict analysis learned the nogood `¬(nogood)`, jumped back and asserted a predicate.
    Learned {
        nogood: Vec<Lit>,
        backjump: usize,
        asserted: Option<Lit>,
    },
    /// A solution (labels: 1-based class of each record).
    Solution { objective: i64, labels: Vec<i32> },
    /// The search call proved that no (better) solution exists.
    Exhausted { search: usize },
    /// The decision or time limit stopped the search.
    Stopped,
}

/// How a search-tree node ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Leaf {
    /// A propagator or nogood found the branch infeasible.
    Conflict,
    /// The branch cannot beat the incumbent (the conflict involves the objective bound).
    Pruned,
    /// A solution with this objective (integer units).
    Solution(i64),
}

/// A decision node of the search tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Node {
    /// Parent decision (`None`: a child of its search call's root).
    pub parent: Option<usize>,
    /// Index of the search call (1-based, as in [`Event::Search`]).
    pub search: usize,
    /// Decision level.
    pub level: usize,
    pub decision: Lit,
    pub leaf: Option<Leaf>,
}

/// The whole traced run.
#[derive(Clone, Debug, Serialize)]
pub struct Trace {
    pub n: usize,
    pub k: Vec<u32>,
    /// Largest class id.
    pub cmax: i32,
    pub criterion: Criterion,
    /// Integer units per distance unit.
    pub scale: f64,
    /// Propagators of the model, in posting order.
    pub propagators: Vec<&'static str>,
    pub events: Vec<Event>,
    pub nodes: Vec<Node>,
    pub status: Status,
    /// Best partition and its objective (integer units).
    pub best: Option<(Partition, i64)>,
    pub decisions: usize,
    pub conflicts: usize,
    pub restarts: usize,
    /// Split: the minimum number of classes enforced.
    pub min_classes: Option<usize>,
    /// Value of the root LP whose duals bound the objective (dbil, wcsd).
    pub lp_bound: Option<f64>,
    pub elapsed_s: f64,
}
