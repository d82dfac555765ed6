//! Branching strategies of seed 001 §6.5: `create` (algorithm 9), `fill` (algorithm 10) and
//! `switching` (algorithm 11: fill when a class is below its largest k, else create), plus a
//! counting wrapper that reports nodes and conflicts for any brancher, and the macro that
//! writes such wrappers ([`forward_brancher!`](crate::forward_brancher)).

mod forward;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use pumpkin_core::branching::{Brancher, BrancherEvent, SelectionContext};
use pumpkin_core::predicates::Predicate;
use pumpkin_core::variables::DomainId;

use crate::common::{eq, DistMatrix};

/// Which of the seed's strategies to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchMode {
    /// Algorithm 9: smallest domain, then farthest record; open a new class if possible, else
    /// the nearest class (complete linkage).
    Create,
    /// Algorithm 10: complete a class below its largest k with its nearest candidate; falls back
    /// to create when no class needs filling (otherwise it could not branch at all).
    Fill,
    /// Algorithm 11: fill when possible, else create.
    Switching,
}

/// The seed's cluster branchers over the class variables.
#[derive(Clone, Debug)]
pub struct ClusterBrancher {
    vars: Vec<DomainId>,
    dist: DistMatrix,
    k: Vec<u32>,
    total: Vec<i64>,
    cmax: i32,
    mode: BranchMode,
    objective: Option<DomainId>,
}

impl ClusterBrancher {
    /// A brancher over `vars`; `objective`, if given, is fixed to its lower bound once every
    /// class variable is fixed (a safety net: the propagators already fix it).
    pub fn new(
        vars: Vec<DomainId>,
        dist: DistMatrix,
        k: Vec<u32>,
        cmax: i32,
        mode: BranchMode,
        objective: Option<DomainId>,
    ) -> Self {
        let n = vars.len();
        let total = (0..n).map(|i| dist.row(i).iter().sum()).collect();
        ClusterBrancher {
            vars,
            dist,
            k,
            total,
            cmax,
            mode,
            objective,
        }
    }

    fn members(&self, context: &SelectionContext) -> (Vec<Vec<usize>>, Vec<usize>) {
        let mut members = vec![Vec::new(); self.cmax as usize + 1];
        let mut unfixed = Vec::new();
        for (i, &x) in self.vars.iter().enumerate() {
            if context.is_integer_fixed(x) {
                let v = context.lower_bound(x);
                if (1..=self.cmax).contains(&v) {
                    members[v as usize].push(i);
                }
            } else {
                unfixed.push(i);
            }
        }
        (members, unfixed)
    }

    fn link(&self, r: usize, class: &[usize]) -> i64 {
        let row = self.dist.row(r);
        class.iter().map(|&l| row[l]).max().unwrap_or(0)
    }

    fn fill(
        &self,
        context: &SelectionContext,
        members: &[Vec<usize>],
        unfixed: &[usize],
    ) -> Option<Predicate> {
        // The most recently opened class that is below its largest k.
        for j in (1..members.len()).rev() {
            let a = &members[j];
            if a.is_empty() {
                continue;
            }
            let kmax = a.iter().map(|&l| self.k[l]).max().unwrap_or(1) as usize;
            if a.len() >= kmax {
                continue;
            }
            let best = unfixed
                .iter()
                .copied()
                .filter(|&r| context.contains(self.vars[r], j as i32))
                .min_by_key(|&r| (self.link(r, a), r));
            if let Some(r) = best {
                return Some(eq(self.vars[r], j as i32));
            }
        }
        None
    }

    fn create(
        &self,
        context: &SelectionContext,
        members: &[Vec<usize>],
        unfixed: &[usize],
    ) -> Option<Predicate> {
        let v = unfixed.iter().copied().min_by_key(|&i| {
            (
                context.get_size_of_domain(self.vars[i]),
                std::cmp::Reverse(self.total[i]),
                i,
            )
        })?;
        let x = self.vars[v];
        let lo = context.lower_bound(x);
        let hi = context.upper_bound(x);
        // A new (empty) class first, as in the seed; else the nearest class.
        let mut best: Option<(i64, i32)> = None;
        for j in lo..=hi {
            if !context.contains(x, j) {
                continue;
            }
            let a = &members[j as usize];
            if a.is_empty() {
                return Some(eq(x, j));
            }
            let d = self.link(v, a);
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, j));
            }
        }
        best.map(|(_, j)| eq(x, j))
    }
}

impl Brancher for ClusterBrancher {
    fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
        let (members, unfixed) = self.members(context);
        if unfixed.is_empty() {
            let obj = self.objective?;
            if context.is_integer_fixed(obj) {
                return None;
            }
            return Some(eq(obj, context.lower_bound(obj)));
        }
        match self.mode {
            BranchMode::Create => self.create(context, &members, &unfixed),
            BranchMode::Fill | BranchMode::Switching => self
                .fill(context, &members, &unfixed)
                .or_else(|| self.create(context, &members, &unfixed)),
        }
    }

    fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
        vec![]
    }
}

/// Shared counters of a [`Counting`] brancher.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// Decisions taken (search nodes).
    pub nodes: Arc<AtomicU64>,
    /// Conflicts met.
    pub conflicts: Arc<AtomicU64>,
}

impl Counters {
    /// (nodes, conflicts) so far.
    pub fn get(&self) -> (u64, u64) {
        (
            self.nodes.load(Ordering::Relaxed),
            self.conflicts.load(Ordering::Relaxed),
        )
    }
}

/// Wraps a brancher and counts its decisions and the conflicts met.
#[derive(Debug)]
pub struct Counting<B> {
    inner: B,
    counters: Counters,
}

impl<B> Counting<B> {
    /// Wraps `inner`, counting into `counters`.
    pub fn new(inner: B, counters: Counters) -> Self {
        Counting { inner, counters }
    }
}

crate::forward_brancher! {
    impl<B: Brancher> Brancher for Counting<B> {
        to inner;

        fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
            let d = self.inner.next_decision(context);
            if d.is_some() {
                self.counters.nodes.fetch_add(1, Ordering::Relaxed);
            }
            d
        }

        fn on_conflict(&mut self) {
            self.counters.conflicts.fetch_add(1, Ordering::Relaxed);
            self.inner.on_conflict()
        }

        fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
            let mut events = self.inner.subscribe_to_events();
            if !events.contains(&BrancherEvent::Conflict) {
                events.push(BrancherEvent::Conflict);
            }
            events
        }
    }
}
