//! The root's converged master kept to bound the CP engine's nodes (issue 12: the CP engine
//! inside the tree, one exact core). A CP node's fixed records form groups (together within a
//! group, apart between groups), which are the pair decisions of a branch-and-price node; the
//! node LP of [`super::branch`] on those pairs, warm-started from the master the previous nodes
//! left, bounds every partition of unsplittable classes with those groups. Some optimal
//! partition is made of such classes, so pruning a CP node by this bound never loses the
//! optimum (the CP's other solutions are dominated by one of them).

use super::branch::{node_lp, HandOver, NodeLp};
use super::master::Master;
use super::options::ColgenOptions;
use super::pricing::Pairs;
use super::run::{ceil_bound, Run};
use crate::{Instance, Partition};
use std::time::{Duration, Instant};

/// The master and run the root LP left, ready for node LPs.
pub struct NodeLps {
    opts: ColgenOptions,
    run: Run,
    master: Master,
    /// The root LP's value: every node's bound is at least this.
    root: f64,
    /// The root LP's cover duals (the artificial columns are priced from them).
    pi: Vec<f64>,
    /// The margin the artificial columns are priced with (the gap when last priced).
    margin: f64,
    max_classes: f64,
    /// The run's own deadline (each node LP gets a slice of the time up to it).
    deadline: Option<Instant>,
}

/// Longest one node LP may take.
const NODE_LIMIT: Duration = Duration::from_secs(1);

impl std::fmt::Debug for NodeLps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeLps")
            .field("root", &self.root)
            .field("columns", &self.master.columns.len())
            .finish_non_exhaustive()
    }
}

impl NodeLps {
    pub(super) fn new(
        inst: &Instance,
        mut opts: ColgenOptions,
        mut run: Run,
        mut master: Master,
        root: f64,
        pi: Vec<f64>,
    ) -> Self {
        // One core, no companion: the CP search runs between the node LPs; no cut rounds in
        // them (the root's cuts stay).
        opts.companion = None;
        opts.cuts = false;
        opts.handover_after = None;
        opts.node_sync = false;
        run.companion = None;
        run.on_solution = None;
        run.on_bound = None;
        // Pairs can leave a record without a column: artificial singletons keep every node LP
        // feasible (priced in `bound`).
        master.add_artificials(run.cap as f64);
        NodeLps {
            max_classes: inst.max_classes().max(1) as f64,
            deadline: run.deadline,
            opts,
            run,
            master,
            root,
            pi,
            margin: f64::NAN,
        }
    }

    /// The deadline the node LPs stop at (the CP search's, not the root LP's share of it).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.run.deadline = deadline;
    }

    /// Makes `p` (costing `cost`) the incumbent the node LPs prune against.
    pub fn incumbent(&mut self, inst: &Instance, p: Partition, cost: i64) {
        self.run.offer(inst, p, cost, false);
    }

    /// A lower bound on every partition of unsplittable classes in which each group's records
    /// share a class and no two groups share one: the node LP on these pairs (its value when
    /// it converges, else the best Lagrangian bound of its complete pricings, else the root's),
    /// rounded up. `None` when the time is up.
    pub fn bound(&mut self, inst: &Instance, groups: &[Vec<u32>]) -> Option<i64> {
        let now = Instant::now();
        let until = self
            .deadline
            .map_or(now + NODE_LIMIT, |d| d.min(now + NODE_LIMIT));
        if until <= now {
            return None;
        }
        self.run.deadline = Some(until);
        // Record i's artificial column costs max(π_i, 0) plus the gap to the incumbent: the
        // root's duals stay feasible (the node LP starts at least at the root's value, not
        // from duals at a cost above every partition, where pricing explodes), and a record
        // may still raise its dual by the whole gap.
        let margin = (self.run.ub_or_cap() as f64 - self.root).max(1.0);
        if margin != self.margin {
            self.margin = margin;
            let costs: Vec<f64> = self.pi.iter().map(|p| p.max(0.0) + margin).collect();
            self.master.price_artificials(&costs);
        }
        let pairs = pairs_of(groups);
        self.master.restrict(|c| pairs.allows(&c.members));
        let mut best = self.root;
        let mut hand_over = HandOver::new(&self.opts, &self.run);
        let lp = node_lp(
            inst,
            &self.opts,
            &mut self.run,
            &mut self.master,
            &pairs,
            self.max_classes,
            (self.root, &mut best),
            &mut hand_over,
            None,
        );
        self.run.deadline = self.deadline;
        let value = match lp {
            Ok(NodeLp::Converged(sol)) => best.max(sol.objective),
            Ok(NodeLp::Pruned) => best.max(self.run.ub() as f64),
            Ok(NodeLp::Enumerate) | Err(_) => best,
        };
        Some(ceil_bound(value))
    }
}

/// The pair decisions of `groups`: each group's first member with every other member, and the
/// first members of every two groups apart.
fn pairs_of(groups: &[Vec<u32>]) -> Pairs {
    let mut pairs = Pairs::default();
    for g in groups {
        for &b in &g[1..] {
            pairs.together.push((g[0], b));
        }
    }
    for (i, a) in groups.iter().enumerate() {
        for b in &groups[i + 1..] {
            pairs.apart.push((a[0], b[0]));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_become_chains_together_and_representatives_apart() {
        let p = pairs_of(&[vec![0, 3, 4], vec![1], vec![2, 5]]);
        assert_eq!(p.together, vec![(0, 3), (0, 4), (2, 5)]);
        assert_eq!(p.apart, vec![(0, 1), (0, 2), (1, 2)]);
        assert!(p.allows(&[0, 3, 4]));
        assert!(!p.allows(&[0, 3]));
        assert!(!p.allows(&[1, 2, 5]));
        assert!(p.allows(&[6, 7]));
    }
}
