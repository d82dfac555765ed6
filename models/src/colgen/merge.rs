//! Solution merging: the set-partitioning MIP over the classes of the best partitions the
//! run's own LP steps offered (the LP's roundings, the dives' integral ends), started from the
//! incumbent. Randomised dives end in partitions a few tenths of a percent apart that differ
//! class by class; one of them is best here, another there, and the MIP over their union
//! takes the best of each (every class is one of theirs, so the MIP is small and quick).
//! Used between the hand-over dives ([`super::dive::dives_after_the_hand_over`]) when
//! [`super::options::ColgenOptions::merge_elite`] is set.

use super::column::Column;
use super::proof::MipLimits;
use super::run::Run;
use super::solve::mip_round;
use crate::{Instance, Partition};
use std::collections::HashSet;
use std::time::Instant;

/// The best few distinct partitions offered to the run while it keeps one
/// ([`Run::elite`]), by cost.
#[derive(Debug)]
pub(super) struct Elite {
    /// How many partitions it keeps.
    size: usize,
    /// The kept partitions' costs and classes (members ascending, classes sorted), cheapest
    /// first.
    kept: Vec<(i64, Vec<Vec<u32>>)>,
    /// A partition joined since the last [`Elite::take_fresh`].
    fresh: bool,
}

impl Elite {
    /// An empty elite of `size` partitions (at least one).
    pub(super) fn new(size: usize) -> Self {
        Elite {
            size: size.max(1),
            kept: Vec::new(),
            fresh: false,
        }
    }

    /// Keeps `p` (of cost `cost`) when it is not kept already and is among the best
    /// [`Elite::size`] so far.
    pub(super) fn offer(&mut self, p: &Partition, cost: i64) {
        if self.kept.len() == self.size && self.kept.last().is_some_and(|w| w.0 <= cost) {
            return;
        }
        let mut classes: Vec<Vec<u32>> = p
            .classes()
            .into_iter()
            .map(|c| c.into_iter().map(|i| i as u32).collect())
            .collect();
        classes.sort_unstable();
        if self.kept.iter().any(|(_, k)| *k == classes) {
            return;
        }
        let at = self.kept.partition_point(|k| k.0 <= cost);
        self.kept.insert(at, (cost, classes));
        self.kept.truncate(self.size);
        self.fresh = true;
    }

    /// The distinct classes of the kept partitions, when one joined since the last call.
    pub(super) fn take_fresh(&mut self) -> Option<Vec<Vec<u32>>> {
        if !std::mem::take(&mut self.fresh) {
            return None;
        }
        let mut seen = HashSet::new();
        let classes = self
            .kept
            .iter()
            .flat_map(|(_, k)| k.iter())
            .filter(|c| seen.insert(c.as_slice()))
            .cloned()
            .collect();
        Some(classes)
    }

    /// How many partitions it keeps now.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.kept.len()
    }
}

/// A merge MIP's share of the time left, at most [`MERGE_MAX_S`] seconds.
const MERGE_SHARE: f64 = 0.1;

/// The most seconds a merge MIP gets.
const MERGE_MAX_S: f64 = 5.0;

/// When the run's elite gained a partition since the last merge, solves the set-partitioning
/// MIP over its partitions' classes and the incumbent's (its start), for [`MERGE_SHARE`] of
/// the time left before `until` or the run's deadline (at most [`MERGE_MAX_S`] seconds),
/// offering a better partition to the run. True when it solved one.
pub(super) fn merge(inst: &Instance, run: &mut Run, until: Option<Instant>) -> bool {
    let Some(classes) = run.elite.as_mut().and_then(Elite::take_fresh) else {
        return false;
    };
    let criterion = run.criterion;
    let columns: Vec<Column> = classes
        .into_iter()
        .map(|members| Column::new(inst, criterion, members))
        .collect();
    let left = match (run.remaining(), crate::stop::left(until)) {
        (Some(r), Some(u)) => Some(r.min(u.as_secs_f64())),
        (r, u) => r.or(u.map(|u| u.as_secs_f64())),
    };
    let seconds = left
        .map_or(MERGE_MAX_S, |left| left * MERGE_SHARE)
        .min(MERGE_MAX_S);
    let limits = MipLimits {
        seconds: Some(seconds),
        ..MipLimits::default()
    };
    let before = run.ub();
    mip_round(inst, criterion, run, columns, &[], limits);
    // The merge's own partition joined the elite: nothing new to merge with it yet.
    if let Some(elite) = run.elite.as_mut() {
        elite.fresh = false;
    }
    run.stats.merges += 1;
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "merge {}: ub {} (from {before}) t {:.2}",
            run.stats.merges,
            run.ub(),
            run.start.elapsed().as_secs_f64()
        );
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{merge, Elite};
    use crate::colgen::run::{run_with, Run};
    use crate::colgen::start::partition_cost;
    use crate::{Criterion, Instance, Partition};

    fn p(labels: &[u32]) -> Partition {
        Partition::from_labels(labels)
    }

    /// The elite keeps the cheapest distinct partitions, and hands their classes out once per
    /// change.
    #[test]
    fn the_elite_keeps_the_best_distinct_partitions() {
        let mut e = Elite::new(2);
        assert_eq!(e.take_fresh(), None);
        e.offer(&p(&[0, 0, 1, 1]), 10);
        e.offer(&p(&[5, 5, 7, 7]), 10); // the same partition
        assert_eq!(e.len(), 1);
        assert_eq!(e.take_fresh(), Some(vec![vec![0, 1], vec![2, 3]]));
        assert_eq!(e.take_fresh(), None);
        e.offer(&p(&[0, 1, 0, 1]), 12);
        e.offer(&p(&[0, 1, 1, 0]), 13); // worse than both kept
        assert_eq!(e.len(), 2);
        let classes = e.take_fresh().unwrap();
        assert_eq!(
            classes,
            vec![vec![0, 1], vec![2, 3], vec![0, 2], vec![1, 3]]
        );
        e.offer(&p(&[0, 1, 1, 0]), 9); // the best: the 12 leaves
        assert_eq!(
            e.take_fresh().unwrap(),
            vec![vec![0, 3], vec![1, 2], vec![0, 1], vec![2, 3]]
        );
    }

    /// Four pairs of records on a line (0, 1; 10, 11; 20, 21; 30, 31) at k = 2, and two
    /// partitions each right in one half and crossed in the other: the merge takes the right
    /// half of each, the four pairs, below both; with nothing new it solves nothing.
    #[test]
    fn a_merge_takes_the_best_classes_of_each_partition() {
        let xs = [0i64, 1, 10, 11, 20, 21, 30, 31];
        let dist = xs
            .iter()
            .map(|a| xs.iter().map(|b| (a - b).abs()).collect())
            .collect();
        let inst = Instance::new(1.0, vec![2; 8], dist).expect("valid");
        let left = Partition::from_labels(&[0, 0, 1, 1, 2, 3, 2, 3]);
        let right = Partition::from_labels(&[0, 1, 0, 1, 2, 2, 3, 3]);
        let pairs = Partition::from_labels(&[0, 0, 1, 1, 2, 2, 3, 3]);
        let cost = |p: &Partition| partition_cost(&inst, Criterion::Dbil, p);
        let (l, r, best) = (cost(&left), cost(&right), cost(&pairs));
        assert!(best < l.min(r));
        let mut run = Run {
            elite: Some(Elite::new(4)),
            ..run_with(i64::MAX, 0.0)
        };
        run.best = None;
        run.offer(&inst, left, l, false);
        run.offer(&inst, right, r, false);
        assert_eq!(run.ub(), l.min(r));
        assert!(merge(&inst, &mut run, None));
        assert_eq!(run.stats.merges, 1);
        let (p, c) = run.best.clone().expect("an incumbent");
        assert_eq!((p, c), (pairs, best));
        assert!(!merge(&inst, &mut run, None), "nothing new to merge");
        assert_eq!(run.stats.merges, 1);
    }
}
