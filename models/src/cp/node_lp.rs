//! The CP engine's node bound from column generation (`CpOptions::node_lp`): the root LP's
//! master goes on answering the search's nodes ([`crate::colgen::NodeLps`]) through the
//! `node_lp` propagator, and its inferences are checked, on instances small enough, against an
//! enumeration of the partitions the bound speaks of.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use optik_propagators::node_lp::{GroupBound, NodeLpStats};

use crate::colgen::column::valid_unsplittable;
use crate::colgen::NodeLps;
use crate::criteria::objective_of;
use crate::{Criterion, Instance, Partition};

/// Largest instance whose node-LP inferences the checker verifies by enumeration (larger ones
/// are checked against the node LP itself).
pub(crate) const ENUMERATE_MAX: usize = 10;

/// Least share of the records fixed before a node's bound is asked (`OPTIK_NODE_LP_FIXED`).
const MIN_FIXED_SHARE: f64 = 0.1;

/// Largest share of the search's time the node LPs may take (`OPTIK_NODE_LP_SHARE`).
const TIME_SHARE: f64 = 0.9;

/// The fewest fixed records for which a node's bound is asked, of `n` (at least 2).
pub(crate) fn min_fixed(n: usize) -> usize {
    let share =
        crate::colgen::options::env_number("OPTIK_NODE_LP_FIXED").unwrap_or(MIN_FIXED_SHARE);
    ((n as f64 * share).ceil() as usize).max(2)
}

/// The most fixed records for which a node's bound is asked, of `n`
/// (`OPTIK_NODE_LP_MAX_FIXED`, a share; unset: every node).
pub(crate) fn max_fixed(n: usize) -> usize {
    match crate::colgen::options::env_number::<f64>("OPTIK_NODE_LP_MAX_FIXED") {
        Some(share) => (n as f64 * share).floor() as usize,
        None => usize::MAX,
    }
}

/// The node LPs' largest share of the search's time (no limit under pumpkin's checks, which
/// re-run the propagator at every fixed point and expect what it would post then).
pub(crate) fn time_share() -> f64 {
    if cfg!(feature = "check") {
        return f64::INFINITY;
    }
    crate::colgen::options::env_number("OPTIK_NODE_LP_SHARE").unwrap_or(TIME_SHARE)
}

/// What the model posts for the node bound.
#[derive(Clone)]
pub(crate) struct NodeLpHook {
    /// The node LPs.
    pub bound: Rc<ColgenGroups>,
    /// Their counters.
    pub stats: Arc<Mutex<NodeLpStats>>,
    /// Set while the search solves under a known solution's assignment.
    pub paused: Arc<AtomicBool>,
}

impl NodeLpHook {
    pub(crate) fn new(inst: &Instance, lps: NodeLps) -> Self {
        NodeLpHook {
            bound: Rc::new(ColgenGroups {
                inst: inst.clone(),
                lps: RefCell::new(lps),
            }),
            stats: Arc::default(),
            paused: Arc::default(),
        }
    }

    /// The checker's bound: an enumeration on small instances, else the node LP.
    pub(crate) fn verifier(&self, criterion: Criterion) -> Rc<dyn GroupBound> {
        if self.bound.inst.n <= ENUMERATE_MAX {
            Rc::new(Enumeration {
                inst: self.bound.inst.clone(),
                criterion,
            })
        } else {
            self.bound.clone()
        }
    }
}

/// [`NodeLps`] behind the propagator's interface.
pub(crate) struct ColgenGroups {
    inst: Instance,
    lps: RefCell<NodeLps>,
}

impl ColgenGroups {
    /// Tells the node LPs of the search's new incumbent.
    pub(crate) fn incumbent(&self, p: &Partition, cost: i64) {
        let mut lps = self.lps.borrow_mut();
        lps.incumbent(&self.inst, p.clone(), cost);
    }
}

impl GroupBound for ColgenGroups {
    fn bound(&self, groups: &[Vec<u32>], ub: i64) -> Option<i64> {
        let t = std::time::Instant::now();
        let b = self.lps.borrow_mut().bound(&self.inst, groups);
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            let fixed: usize = groups.iter().map(Vec::len).sum();
            eprintln!(
                "node LP: {fixed} records fixed in {} classes, bound {b:?}, ub {ub}, {:.3} s",
                groups.len(),
                t.elapsed().as_secs_f64()
            );
        }
        b
    }
}

/// The least cost of a partition into unsplittable k_i-anonymous classes with the groups: by
/// enumeration (restricted-growth strings), for the checker on tiny instances.
pub(crate) struct Enumeration {
    pub inst: Instance,
    pub criterion: Criterion,
}

impl GroupBound for Enumeration {
    fn bound(&self, groups: &[Vec<u32>], _ub: i64) -> Option<i64> {
        let n = self.inst.n;
        let mut group_of = vec![usize::MAX; n];
        for (g, members) in groups.iter().enumerate() {
            for &r in members {
                group_of[r as usize] = g;
            }
        }
        let mut labels = vec![0usize; n];
        let mut best = i64::MAX;
        self.rec(0, 0, &group_of, &mut labels, &mut best);
        Some(best)
    }
}

impl Enumeration {
    fn rec(&self, i: usize, used: usize, group_of: &[usize], labels: &mut [usize], best: &mut i64) {
        let n = self.inst.n;
        if i == n {
            let p = Partition::from_labels(&labels.iter().map(|&l| l as i32).collect::<Vec<_>>());
            let valid = p.classes().iter().all(|c| {
                let mut ks: Vec<u32> = c.iter().map(|&r| self.inst.k[r]).collect();
                valid_unsplittable(&mut ks)
            });
            if !valid {
                return;
            }
            // Groups: together within, apart between.
            for a in 0..n {
                for b in a + 1..n {
                    let (ga, gb) = (group_of[a], group_of[b]);
                    if ga != usize::MAX
                        && gb != usize::MAX
                        && (ga == gb) != (labels[a] == labels[b])
                    {
                        return;
                    }
                }
            }
            *best = (*best).min(objective_of(&self.inst, &p, self.criterion));
            return;
        }
        for l in 0..=used {
            labels[i] = l;
            self.rec(i + 1, used.max(l + 1), group_of, labels, best);
        }
    }
}
