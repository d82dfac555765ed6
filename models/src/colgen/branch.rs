//! Branch-and-price with Ryan–Foster branching on record pairs: a node fixes pairs of records
//! to share a class or to be in different classes; its LP is the master restricted to the
//! columns that respect the node's pairs, with pricing (which honours the pairs) run to
//! convergence. Proving by branching needs no enumeration of every column below the gap, which
//! explodes at large k, where the gap after the root LP is wide.
//!
//! Validity. The root's columns are valid unsplittable classes, and some optimal partition uses
//! only such classes; every such partition satisfies exactly one side of each branching
//! decision, so the two children of a node partition the node's set of such partitions. A node
//! is discarded only when a valid lower bound on every partition of its set (its converged LP
//! value, or a Lagrangian bound of a complete pricing) reaches the incumbent. The global bound
//! reported at any stop is the smallest bound over the open nodes, each of which is a bound its
//! parent proved for it.
//!
//! Handing the core over. On large instances the tree's bound rises far too slowly to close
//! the gap before the limit (Adult, 5,000 records, personal k_i: 0.2 in 120 s against a gap
//! of 50), while the companion search, on the other core, still lowers the incumbent. Once the
//! tree has used a share of its time and its bound, rising at its rate so far, would not reach
//! the incumbent by the limit, the run hands its core to the companion ([`stalled`]); the
//! open nodes keep the bound.

use super::cuts;
use super::lp_primal::{integral_partition, round_lp};
use super::master::{LpSolution, Master};
use super::options::ColgenOptions;
use super::pricing::Pairs;
use super::round::{age_pool, price_round, Round};
use super::run::{ceil_bound, Run};
use super::{dive, start};
use crate::root_lp::OddSet;
use crate::Instance;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::time::{Duration, Instant};

/// Share of the time left that the root's dive may take.
const DIVE_SHARE: f64 = 0.5;

/// Nodes between two dives of the tree (each from the node of least bound), after the root's
/// or a successful dive; doubled after each dive that finds nothing.
const DIVE_EVERY: u64 = 10;

/// Share of the time left that a dive after the root's may take.
const DIVE_LATER_SHARE: f64 = 0.1;

/// An open node: its decisions and the bound its parent proved for it.
struct Node {
    pairs: Pairs,
    bound: f64,
    depth: usize,
    id: u64,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Node {
    /// Max-heap order: the smallest bound first, then the deepest, then the oldest.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .bound
            .total_cmp(&self.bound)
            .then(self.depth.cmp(&other.depth))
            .then(other.id.cmp(&self.id))
    }
}

/// How a tree search ended.
pub(super) enum TreeEnd {
    /// Every node was closed: the incumbent is optimal (or none exists).
    Proven,
    /// Stopped (time limit); `run.lower` holds the smallest open bound.
    Stopped(&'static str),
    /// The incumbent came within the enumeration proof's reach of the root LP: the caller
    /// proves by enumeration; `run.lower` holds the smallest open bound.
    Enumerate,
}

/// Counters of the tree.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TreeStats {
    pub(super) nodes: u64,
    pub(super) pruned_by_lagrange: u64,
    pub(super) integral: u64,
    /// Dives ([`dive`]) and their LP re-solves.
    pub(super) dives: u64,
    pub(super) dive_steps: u64,
}

/// How a node's LP ended.
pub(super) enum NodeLp {
    /// Converged (no column of negative reduced cost respects the node's pairs).
    Converged(LpSolution),
    /// A Lagrangian bound of a complete pricing reached the incumbent.
    Pruned,
    /// Between its rounds the incumbent (the companion's) came within the enumeration's reach
    /// of the root LP: the tree ends for the enumeration proof.
    Enumerate,
}

/// Runs the tree from the converged root LP (value `root_bound`) until every node is closed or
/// time runs out. Improvements go to `run`; on return `run.lower` holds the tree's bound. With
/// `enumerate_from` (the root's dual value), the tree ends with [`TreeEnd::Enumerate`] as soon
/// as the incumbent is close enough to it for the enumeration proof
/// ([`super::options::Proof::tree`]).
pub(super) fn branch_and_price(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &mut Master,
    root_bound: f64,
    enumerate_from: Option<f64>,
) -> (TreeEnd, TreeStats) {
    let trace = std::env::var_os("OPTIK_COLGEN_TRACE").is_some();
    let max_classes = inst.max_classes().max(1) as f64;
    // Branching can leave a record without a column: artificial singletons costing more than
    // any partition keep every node LP feasible (a node needing them is pruned by its bound).
    master.add_artificials(run.cap as f64);
    let mut stats = TreeStats::default();
    let mut open = BinaryHeap::new();
    let mut next_id = 0u64;
    open.push(Node {
        pairs: Pairs::default(),
        bound: root_bound,
        depth: 0,
        id: next_id,
    });
    let mut last_dive: Option<u64> = None;
    let mut dive_every = DIVE_EVERY;
    let mut hand_over = HandOver::new(opts, run);
    let end = loop {
        run.sync_companion(inst);
        // The tree's bound: the smallest open bound (never below what the root proved).
        if let Some(top) = open.peek() {
            run.raise_lower(top.bound);
        }
        // The companion may bring the incumbent within the enumeration's reach of the root
        // (Adult 1,000, k_i 80/20, wcsd: the root chose the tree at a 0.6% gap, the companion
        // brought it to 0.3%, and the tree ran 50 s without closing it).
        if enumerate_from.is_some_and(|z| !opts.proof.tree(z, run.ub())) {
            break TreeEnd::Enumerate;
        }
        if hand_over.check(inst, opts, run, master, &Pairs::default()) {
            continue;
        }
        let Some(node) = open.pop() else {
            break TreeEnd::Proven;
        };
        if ceil_bound(node.bound) >= run.ub() {
            // Every open node's bound is at least this one's: all are closed.
            break TreeEnd::Proven;
        }
        if run.out_of_time() {
            open.push(node);
            break TreeEnd::Stopped("time limit in branch-and-price");
        }
        stats.nodes += 1;
        master.restrict(|c| node.pairs.allows(&c.members));
        // The node's Lagrangian bounds raise the run's while its LP converges, up to the
        // other open nodes' least bound (Adult, 1,000 records, k = 5, 60 s: the root node
        // separated 2,148 cuts for 35 s and was stopped before its LP converged, and the run
        // reported the bound it had before them).
        let floor = open.peek().map_or(f64::INFINITY, |o| o.bound);
        let mut node_best = node.bound;
        let lp = match node_lp(
            inst,
            opts,
            run,
            master,
            &node.pairs,
            max_classes,
            (floor, &mut node_best),
            &mut hand_over,
            enumerate_from,
        ) {
            Ok(lp) => lp,
            Err(why) => {
                open.push(Node {
                    bound: node_best,
                    ..node
                });
                break TreeEnd::Stopped(why);
            }
        };
        let sol = match lp {
            NodeLp::Pruned => {
                stats.pruned_by_lagrange += 1;
                continue;
            }
            NodeLp::Enumerate => {
                open.push(Node {
                    bound: node_best,
                    ..node
                });
                break TreeEnd::Enumerate;
            }
            NodeLp::Converged(sol) => sol,
        };
        let z = sol.objective.max(node.bound);
        if trace {
            eprintln!(
                "node {} depth {} bound {:.1} lp {:.1} ub {} open {} columns {} t {:.2}",
                stats.nodes,
                node.depth,
                node.bound,
                sol.objective,
                run.ub(),
                open.len(),
                master.columns.len(),
                run.start.elapsed().as_secs_f64()
            );
        }
        if ceil_bound(z) >= run.ub() {
            continue;
        }
        let dive_due = last_dive.is_none_or(|at| opts.node_dives && stats.nodes >= at + dive_every);
        if opts.dive
            && dive_due
            && !sol.artificial
            && integral_partition(inst.n, master, &sol).is_none()
        {
            // A dive from this node (the root first, then every DIVE_EVERY nodes, the best
            // bound's), on a share of the time left; the node is then solved again under its
            // own decisions and branched on as usual.
            let share = if last_dive.is_none() {
                DIVE_SHARE
            } else {
                DIVE_LATER_SHARE
            };
            last_dive = Some(stats.nodes);
            let deadline = run
                .remaining()
                .map(|left| Instant::now() + Duration::from_secs_f64(left * share));
            let before = run.ub();
            let d = dive::dive(
                inst,
                opts,
                run,
                master,
                sol,
                &node.pairs,
                deadline,
                dive::DivePricing::Exact,
                None,
            );
            // A dive that found nothing waits twice as long for the next (a tree that is
            // mostly proof, Adult-200 personal: 24 dives cost 67% more time); one that
            // improved the incumbent brings the next one back to DIVE_EVERY nodes.
            dive_every = if run.ub() < before {
                DIVE_EVERY
            } else {
                dive_every.saturating_mul(2)
            };
            // The dive's LPs leave artificial columns in the basis; warm-started from it, the
            // node's LP keeps them basic at 0 with duals at their cost, and pricing at such a
            // dual explodes (a 200-record tree hung). The node is solved again from scratch.
            master.compact(|_| true);
            stats.dives += 1;
            stats.dive_steps += d.steps;
            if trace {
                eprintln!(
                    "dive from node {} depth {}: {} steps, integral {}, ub {} t {:.2}",
                    stats.nodes,
                    node.depth,
                    d.steps,
                    d.integral,
                    run.ub(),
                    run.start.elapsed().as_secs_f64()
                );
            }
            open.push(node);
            continue;
        }
        if !sol.artificial {
            if let Some(p) = integral_partition(inst.n, master, &sol) {
                stats.integral += 1;
                let cost = start::partition_cost(inst, opts.criterion, &p);
                run.offer(inst, p, cost, false);
                continue;
            }
            // A cheap primal step at every node: round this node's LP.
            round_lp(inst, opts, run, master, &sol, &[]);
            if ceil_bound(z) >= run.ub() {
                continue;
            }
        }
        let Some((a, b)) = branching_pair(master, &sol) else {
            // Integral pair values without an integral solution happen only with artificial
            // columns in the LP, whose cost exceeds every partition: nothing better here.
            continue;
        };
        for together in [true, false] {
            let mut pairs = node.pairs.clone();
            if together {
                pairs.together.push((a, b));
            } else {
                pairs.apart.push((a, b));
            }
            next_id += 1;
            open.push(Node {
                pairs,
                bound: z,
                depth: node.depth + 1,
                id: next_id,
            });
        }
    };
    if let TreeEnd::Proven = end {
        run.raise_lower(run.ub_or_cap() as f64);
    } else if let Some(top) = open.peek() {
        // Stopped: the smallest open bound (the heap's top) is the tree's bound.
        run.raise_lower(top.bound);
    }
    (end, stats)
}

/// When the tree hands its core to the companion ([`stalled`]), checked between nodes and,
/// with [`ColgenOptions::handover_in_nodes`], between a node's pricing rounds too: the tree's
/// first node may price and cut until the limit (Adult and Census, 1,000 records, k = 5, 60 s:
/// its rounds ran from about 35 s to the end and raised the bound by 0.1–0.3%), while the
/// companion on the other core still lowered the incumbent by percents.
pub(super) struct HandOver {
    /// [`ColgenOptions::handover_after`].
    share: Option<f64>,
    /// The seconds the tree had.
    budget: Option<f64>,
    started: Instant,
    lower_at_start: f64,
    in_nodes: bool,
    done: bool,
}

impl HandOver {
    pub(super) fn new(opts: &ColgenOptions, run: &Run) -> Self {
        HandOver {
            share: opts.handover_after,
            budget: run.remaining(),
            started: Instant::now(),
            lower_at_start: run.lower,
            in_nodes: opts.handover_in_nodes,
            done: false,
        }
    }

    /// Hands the run's core over (once per tree) when the tree has stalled: true when it did
    /// (the run then waited until the limit, a proof, or the companion's end). With hand-over
    /// dives ([`ColgenOptions::handover_dives_for`]) the core dives first, for that share of
    /// the time left (the master is restricted to the node's decisions `pairs` again
    /// afterwards), and then, below a share of 1, goes to the companion.
    fn check(
        &mut self,
        inst: &Instance,
        opts: &ColgenOptions,
        run: &mut Run,
        master: &mut Master,
        pairs: &Pairs,
    ) -> bool {
        let (Some(share), Some(budget)) = (self.share, self.budget) else {
            return false;
        };
        if self.done || run.companion.is_none() || ceil_bound(run.lower) >= run.ub_or_cap() {
            return false;
        }
        let gap = run.ub_or_cap() as f64 - run.lower;
        let gained = run.lower - self.lower_at_start;
        if !stalled(
            share,
            budget,
            self.started.elapsed().as_secs_f64(),
            gained,
            gap,
        ) {
            return false;
        }
        self.done = true;
        let Some(share) = opts.handover_dives_for(inst) else {
            return run.hand_over(inst);
        };
        let handed_over = run.start.elapsed().as_secs_f64();
        let until = run
            .remaining()
            .map(|left| Instant::now() + Duration::from_secs_f64(share * left));
        dive::dives_after_the_hand_over(inst, opts, run, master, until);
        master.restrict(|c| pairs.allows(&c.members));
        if share < 1.0 {
            run.hand_over(inst);
        }
        run.stats.handover_s = Some(handed_over);
        true
    }

    /// [`HandOver::check`] between a node's rounds, when that is on.
    fn check_in_node(
        &mut self,
        inst: &Instance,
        opts: &ColgenOptions,
        run: &mut Run,
        master: &mut Master,
        pairs: &Pairs,
    ) -> bool {
        self.in_nodes && self.check(inst, opts, run, master, pairs)
    }
}

/// Whether a tree that had `budget` seconds, has run `elapsed` of them (at least `share` of the
/// budget) and raised the bound by `gained` so far would, at that rate, leave a gap by the
/// limit: the bound still `gap` below the incumbent. Best-first bounds rise ever more slowly,
/// so the straight line is the tree's best case.
fn stalled(share: f64, budget: f64, elapsed: f64, gained: f64, gap: f64) -> bool {
    if elapsed < share * budget || gap <= 0.0 {
        return false;
    }
    let left = (budget - elapsed).max(0.0);
    gained.max(0.0) / elapsed.max(1e-9) * left < gap
}

/// Column generation at a node until its LP converges, or a complete pricing's Lagrangian
/// bound reaches the incumbent. `bound` is the least bound of the other open nodes and the
/// node's own: every Lagrangian bound of the node's rounds (valid for its subproblem, whatever
/// the duals and cuts) raises the node's, and the run's up to that floor, so a node stopped
/// by the time limit keeps what its rounds proved. Between rounds the run takes the
/// companion's incumbent, and ends the tree for the enumeration once that is within its reach
/// of the root LP (`enumerate_from`, as between nodes), or the core goes to the companion
/// (`hand_over`).
#[allow(clippy::too_many_arguments, reason = "a node's context")]
pub(super) fn node_lp(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &mut Master,
    pairs: &Pairs,
    max_classes: f64,
    bound: (f64, &mut f64),
    hand_over: &mut HandOver,
    enumerate_from: Option<f64>,
) -> Result<NodeLp, &'static str> {
    let (floor, node_best) = bound;
    let mut proved = |run: &mut Run, l: Option<f64>| {
        if let Some(l) = l.filter(|_| opts.node_bounds) {
            *node_best = node_best.max(l);
            run.raise_lower(node_best.min(floor));
        }
    };
    // The node LP's value when its last cut round was separated (`ColgenOptions::node_cut_tail`).
    let mut cut_from: Option<f64> = None;
    loop {
        if run.out_of_time() {
            return Err("time limit in branch-and-price");
        }
        if opts.node_sync {
            run.sync_companion(inst);
            if enumerate_from.is_some_and(|z| !opts.proof.tree(z, run.ub())) {
                return Ok(NodeLp::Enumerate);
            }
        }
        if hand_over.check_in_node(inst, opts, run, master, pairs) {
            continue;
        }
        let Some(sol) = master.solve(run.remaining()) else {
            if run.lp_timed_out() {
                return Err("time limit in a node LP");
            }
            // HiGHS failed twice with time left: the companion gets that time, as in the
            // root's rounds.
            run.stats.lp_failure = master.failure();
            run.hand_over(inst);
            return Err("node LP not solved");
        };
        run.stats.lp_time_s += sol.seconds;
        run.stats.pricing_rounds += 1;
        let t = Instant::now();
        let round = price_round(
            inst,
            opts,
            run,
            master,
            &sol,
            None,
            Some(pairs),
            max_classes,
        );
        run.stats.pricing_time_s += t.elapsed().as_secs_f64();
        let Round {
            added, lagrange, ..
        } = round.map_err(|stop| {
            proved(run, stop.lagrange);
            stop.why
        })?;
        proved(run, lagrange);
        if lagrange.is_some_and(|l| ceil_bound(l) >= run.ub()) {
            return Ok(NodeLp::Pruned);
        }
        if added > 0 {
            age_pool(master, &sol, inst.n);
            continue;
        }
        // Converged: odd-set cuts are valid for every partition, so a node may add the ones
        // its LP violates (branch-cut-and-price), up to a cap on the master's cut rows; not
        // when the run separates none (`opts.cuts` off).
        let cap = opts.cuts_per_record.1 * inst.n;
        if opts.cuts
            && master.cuts.len() < cap
            && ceil_bound(sol.objective) < run.ub()
            && !tailing_off(opts.node_cut_tail, cut_from, sol.objective, run.ub())
        {
            cut_from = Some(sol.objective);
            let existing: HashSet<OddSet> = master.cuts.iter().cloned().collect();
            let limit = (inst.n / 10).max(5).min(cap - master.cuts.len());
            let new = cuts::separate(
                &master.columns,
                &sol.x,
                &existing,
                0.05,
                limit,
                &cuts::Growth::after_triples(
                    opts.cut_set_max,
                    cuts::growth_budget(opts.time_limit),
                    run.deadline,
                ),
            );
            if !new.is_empty() {
                for (t, _) in new {
                    master.add_cut(t);
                }
                run.stats.cuts = master.cuts.len();
                run.stats.large_cuts = master.large_cuts();
                continue;
            }
        }
        return Ok(NodeLp::Converged(sol));
    }
}

/// Whether a node's cut rounds have tailed off: the last round, separated at LP value `from`,
/// raised the LP to `now` by less than the share `tail` of the gap left to the incumbent `ub`.
fn tailing_off(tail: Option<f64>, from: Option<f64>, now: f64, ub: i64) -> bool {
    match (tail, from) {
        (Some(tail), Some(from)) => now - from < tail * (ub as f64 - now),
        _ => false,
    }
}

/// Ryan–Foster: the pair of records whose together-value Σ_{C ∋ a, b} x_C is fractional and
/// closest to ½ (ties: the smaller pair), or `None` when every pair value is integral.
fn branching_pair(master: &Master, sol: &LpSolution) -> Option<(u32, u32)> {
    const EPS: f64 = 1e-6;
    let mut together: HashMap<(u32, u32), f64> = HashMap::new();
    for (col, &v) in master.columns.iter().zip(&sol.x) {
        if v <= EPS || v >= 1.0 - EPS {
            continue;
        }
        for (t, &a) in col.members.iter().enumerate() {
            for &b in &col.members[t + 1..] {
                *together.entry((a, b)).or_insert(0.0) += v;
            }
        }
    }
    together
        .into_iter()
        .filter(|&(_, w)| w > EPS && w < 1.0 - EPS)
        .min_by(|x, y| {
            (x.1 - 0.5)
                .abs()
                .total_cmp(&(y.1 - 0.5).abs())
                .then(x.0.cmp(&y.0))
        })
        .map(|(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::super::options::ColgenOptions;
    use super::super::run::{master_over_the_pairs, Run};
    use super::{node_lp, stalled, HandOver, Master, NodeLp, Pairs};
    use crate::Instance;

    /// [`node_lp`] at the root (no decisions, the run's bound 3.6, nothing else open).
    fn root_node_lp(
        inst: &Instance,
        opts: &ColgenOptions,
        run: &mut Run,
        master: &mut Master,
        enumerate_from: Option<f64>,
    ) -> Result<NodeLp, &'static str> {
        let mut node_best = 3.6;
        let mut hand_over = HandOver::new(opts, run);
        node_lp(
            inst,
            opts,
            run,
            master,
            &Pairs::default(),
            2.0,
            (f64::INFINITY, &mut node_best),
            &mut hand_over,
            enumerate_from,
        )
    }

    /// A stalled tree hands its core over between a node's rounds only with
    /// `handover_in_nodes`, never while its bound rises fast enough, and once: the run then
    /// takes the companion's partition (on every core) until it meets the bound.
    #[test]
    fn a_node_hands_over_between_its_rounds_once_when_stalled() {
        use super::super::run::with_a_companion_holding_the_pairs;
        use std::time::{Duration, Instant};
        // A tree that had 10 s and ran 5 of them, its bound raised by `gained`.
        let tree = |gained: f64, in_nodes: bool| HandOver {
            share: Some(0.25),
            budget: Some(10.0),
            started: Instant::now() - Duration::from_secs(5),
            lower_at_start: 3.6 - gained,
            in_nodes,
            done: false,
        };
        with_a_companion_holding_the_pairs(false, |inst, run| {
            let opts = ColgenOptions::default();
            let mut master = master_over_the_pairs(inst, crate::Criterion::Dbil, run);
            let pairs = Pairs::default();
            // Stalled (nothing gained against a gap of 36.4), but not checked in nodes.
            assert!(!tree(0.0, false).check_in_node(inst, &opts, run, &mut master, &pairs));
            // Checked in nodes, but 40 gained in 5 s projects 40 more: enough.
            assert!(!tree(40.0, true).check_in_node(inst, &opts, run, &mut master, &pairs));
            assert_eq!(run.ub(), 40);
            assert!(run.stats.handover_s.is_none());
            let mut stalled_tree = tree(0.0, true);
            let t = Instant::now();
            assert!(stalled_tree.check_in_node(inst, &opts, run, &mut master, &pairs));
            assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
            assert_eq!(run.ub(), 4);
            assert!(run.stats.handover_s.is_some());
            // Once per tree.
            stalled_tree.lower_at_start = 3.6;
            run.lower = 3.0;
            assert!(!stalled_tree.check_in_node(inst, &opts, run, &mut master, &pairs));
        });
    }

    /// With hand-over dives a stalled node keeps the core: it dives from the root LP (every
    /// column, whatever the node's decisions), finds the pairs (cost 4) that the companion
    /// publishes only on every core, and restricts the master to the node's decisions again.
    #[test]
    fn a_node_that_dives_at_the_hand_over_restricts_its_master_again() {
        use super::super::run::with_a_companion_holding_the_pairs;
        use std::time::{Duration, Instant};
        with_a_companion_holding_the_pairs(false, |inst, run| {
            let opts = ColgenOptions {
                handover_dives: Some(1.0),
                ..ColgenOptions::default()
            };
            let mut master = master_over_the_pairs(inst, crate::Criterion::Dbil, run);
            let pairs = Pairs {
                apart: vec![(0, 1)],
                ..Pairs::default()
            };
            master.restrict(|c| pairs.allows(&c.members));
            let mut stalled_tree = HandOver {
                share: Some(0.25),
                budget: Some(10.0),
                started: Instant::now() - Duration::from_secs(5),
                lower_at_start: 3.6,
                in_nodes: true,
                done: false,
            };
            assert!(stalled_tree.check_in_node(inst, &opts, run, &mut master, &pairs));
            assert!(run.stats.handover_dives > 0);
            assert!(run.stats.handover_s.is_some());
            assert_eq!(run.ub(), 4);
            for (c, column) in master.columns.iter().enumerate() {
                assert_eq!(master.is_disabled(c), !pairs.allows(&column.members), "{c}");
            }
        });
    }

    /// Between a node's rounds the run takes the companion's incumbent and, once that is within
    /// the enumeration's reach of the root LP, ends the node for the enumeration
    /// (`ColgenOptions::node_sync`); without it the node goes on to its LP.
    #[test]
    fn a_node_gives_way_to_the_enumeration_when_the_companion_closes_the_gap() {
        use super::super::run::with_a_companion_holding_the_pairs;
        use std::time::{Duration, Instant};
        for node_sync in [true, false] {
            with_a_companion_holding_the_pairs(true, |inst, run| {
                // The companion has published the pairs (cost 4; the run's incumbent is 40).
                let link = run.companion.clone().expect("linked");
                let t = Instant::now();
                while link.known() > 4 && t.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                assert_eq!(link.known(), 4);
                let opts = ColgenOptions {
                    node_sync,
                    handover_after: None,
                    ..ColgenOptions::default()
                };
                let mut master = master_over_the_pairs(inst, opts.criterion, run);
                // The root LP's 3.99 is within the enumeration's reach of 4, not of 40.
                let end =
                    root_node_lp(inst, &opts, run, &mut master, Some(3.99)).expect("not stopped");
                assert_eq!(matches!(end, NodeLp::Enumerate), node_sync);
                assert_eq!(run.ub(), if node_sync { 4 } else { 40 });
            });
        }
    }

    /// A node LP that HiGHS cannot solve (it failed twice, `Master::solve`) with time left
    /// hands the run's core to the companion, whose partition the run then takes, before the
    /// node stops.
    #[test]
    fn a_node_lp_that_cannot_be_solved_hands_the_core_over() {
        use super::super::run::with_a_companion_holding_the_pairs;
        with_a_companion_holding_the_pairs(false, |inst, run| {
            let opts = ColgenOptions {
                handover_after: None,
                ..ColgenOptions::default()
            };
            let mut master = master_over_the_pairs(inst, opts.criterion, run);
            master.failing_solves = usize::MAX;
            let end = root_node_lp(inst, &opts, run, &mut master, None);
            assert_eq!(end.err(), Some("node LP not solved"));
            assert_eq!(run.stats.lp_failure.as_deref(), Some("injected by a test"));
            // The companion published its pairs (cost 4) only on every core.
            assert_eq!(run.ub(), 4);
            assert!(run.stats.handover_s.is_some());
        });
    }

    /// A node's cut rounds tail off when the last one raised its LP by less than the share of
    /// the gap left (`ColgenOptions::node_cut_tail`); never before a first round, nor with the
    /// knob off.
    #[test]
    fn a_nodes_cut_rounds_tail_off_against_the_gap() {
        use super::tailing_off;
        // Raised 0.5 against a gap of 100: under 1% of it.
        assert!(tailing_off(Some(0.01), Some(99.5), 100.0, 200));
        // Raised 2 against a gap of 100: more.
        assert!(!tailing_off(Some(0.01), Some(98.0), 100.0, 200));
        // Exactly the share is not under it.
        assert!(!tailing_off(Some(0.01), Some(99.0), 100.0, 200));
        // No round yet, or the knob off.
        assert!(!tailing_off(Some(0.01), None, 100.0, 200));
        assert!(!tailing_off(None, Some(100.0), 100.0, 200));
    }

    #[test]
    fn a_tree_hands_over_only_after_its_share_and_when_its_rate_falls_short() {
        // Before a quarter of a 100 s budget: never.
        assert!(!stalled(0.25, 100.0, 24.0, 0.0, 50.0));
        // After it: 0.2 gained in 30 s projects 0.47 more in the 70 s left, short of 50.
        assert!(stalled(0.25, 100.0, 30.0, 0.2, 50.0));
        // 30 gained in 30 s projects 70 more: enough for a gap of 50.
        assert!(!stalled(0.25, 100.0, 30.0, 30.0, 50.0));
        // Exactly enough is enough.
        assert!(!stalled(0.25, 100.0, 50.0, 50.0, 50.0));
        // No gap left: nothing to hand over for.
        assert!(!stalled(0.25, 100.0, 90.0, 0.0, 0.0));
        // Share 0: at once, unless the bound already rises fast enough.
        assert!(stalled(0.0, 100.0, 0.0, 0.0, 1.0));
    }
}
