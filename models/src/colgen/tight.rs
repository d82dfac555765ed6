//! The tight phase, a primal step for large k. There the optimum is usually tight: about
//! ⌊n / max k_i⌋ classes of max k_i records (Adult, k = 10: 50 records in 5 classes of 10;
//! k = 5: 100 records in 20 classes of 5). LP rounding, the MIPs and the large-neighbourhood
//! search settle on fewer, larger classes instead, which no neighbourhood short of the whole
//! table can split into one more class (Adult, 100 records, k = 10: 9 classes, 305.05, over an
//! LP of 293.6). A column-generation run of its own with no class above the tight size, on a
//! share of the time, finds a tight partition (there 300.01 in 10.7 s with the whole run). Its
//! partition is offered to the run as an incumbent; its bounds are bounds of the tight problem
//! only and are never used. The tight run has the run's companion search, under the tight size
//! (`ColgenOptions::tight_companion`; only once the run's own companion may have started).

use super::options::ColgenOptions;
use super::run::Run;
use super::start;
use crate::engine::{EngineError, EngineResult};
use crate::{ClassConstraints, Instance, Partition};
use std::time::Duration;

/// The tight class size of k-anonymity over the k_i `ks`: with m = ⌊n / max k_i⌋ classes of
/// max k_i records and the r records left spread over them, no class needs more than
/// max k_i + ⌈r / m⌉ records, and such a partition always exists. `None` when no class fits
/// (n < max k_i).
pub(super) fn tight_max_size(ks: &[u32]) -> Option<u32> {
    let kmax = *ks.iter().max()? as usize;
    let m = ks.len() / kmax.max(1);
    if m == 0 {
        return None;
    }
    let r = ks.len() - m * kmax;
    Some((kmax + r.div_ceil(m)) as u32)
}

/// The options of the tight run, on `share` of the time left, when the phase applies: a time
/// limit, under [`TIGHT_MAX_RECORDS`] records, a tight size below the run's own largest class
/// size (so a tight run never starts another), and an incumbent with a class above it. The
/// caller runs it (`colgen::solve`) and hands the result to [`offer`].
pub(super) fn tight_run(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
) -> Option<ColgenOptions> {
    let (share, left) = (opts.tight_phase?, run.remaining()?);
    let size = tight_max_size(&inst.k)?;
    let searched = run.companion.as_ref().and_then(|link| link.cap());
    if inst.n >= TIGHT_MAX_RECORDS
        || opts.constraints.max_size.is_some_and(|m| m <= size)
        || searched.is_some_and(|m| m <= size)
    {
        // Too large, or the run (or its companion, `tight_search`) is tight already.
        return None;
    }
    let tight_already = run
        .best
        .as_ref()
        .is_some_and(|(p, _)| p.largest_class() <= size as usize);
    if tight_already {
        return None;
    }
    run.stats.tight_phases += 1;
    let mut warm_start = opts.warm_start.clone();
    warm_start.extend(run.best.as_ref().map(|(p, _)| p.clone()));
    Some(ColgenOptions {
        criterion: opts.criterion,
        time_limit: Some(Duration::from_secs_f64(left * share)),
        warm_start,
        cuts: opts.cuts,
        companion: opts.companion.clone().filter(|_| opts.tight_companion),
        constraints: ClassConstraints {
            max_size: Some(size),
            ..opts.constraints.clone()
        },
        ..ColgenOptions::default()
    })
}

/// The tight size, start and start cost of a companion that searches the tight problem from
/// the run's start (`ColgenOptions::tight_search`): with a time limit, below
/// [`TIGHT_MAX_RECORDS`] records, no class constraint, and an incumbent or warm start with no
/// class above the tight size (the cheapest such one).
pub(super) fn tight_companion_start(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &Run,
) -> Option<(u32, Partition, i64)> {
    if !opts.tight_search
        || opts.time_limit.is_none()
        || inst.n >= TIGHT_MAX_RECORDS
        || !opts.constraints.is_empty()
    {
        return None;
    }
    let size = tight_max_size(&inst.k)?;
    let tight = |p: &&Partition| {
        p.len() == inst.n && p.violations(&inst.k).is_empty() && p.largest_class() <= size as usize
    };
    run.best
        .iter()
        .map(|(p, _)| p)
        .chain(&opts.warm_start)
        .filter(tight)
        .map(|p| (p.clone(), start::partition_cost(inst, opts.criterion, p)))
        .min_by_key(|(_, cost)| *cost)
        .map(|(p, cost)| (size, p, cost))
}

/// Offers the tight run's partition to the run (its cost computed here; its bounds, of the
/// tight problem only, are dropped).
pub(super) fn offer(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    result: Result<EngineResult, EngineError>,
) {
    let before = run.ub();
    let found = result.ok().and_then(|r| r.partition);
    if let Some(p) = found.filter(|p| p.len() == inst.n && p.violations(&inst.k).is_empty()) {
        let cost = start::partition_cost(inst, opts.criterion, &p);
        run.offer(inst, p, cost, false);
    }
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "tight phase: ub {before} -> {} t {:.2}",
            run.ub(),
            run.start.elapsed().as_secs_f64()
        );
    }
}

/// The tight phase runs below this many records, as the proof probe: at 1,000 records the
/// run's own root LP takes tens of seconds, and the large-neighbourhood search frees enough
/// records to form more classes by itself.
const TIGHT_MAX_RECORDS: usize = 500;

#[cfg(test)]
mod tests {
    use super::{tight_companion_start, tight_max_size};
    use crate::colgen::options::ColgenOptions;
    use crate::colgen::run::{run_with, two_pairs_far_apart, Run};
    use crate::Partition;
    use std::time::Duration;

    /// The tight search's companion starts from the cheapest partition with no class above the
    /// tight size among the incumbent and the warm starts, only when asked, with a limit.
    #[test]
    fn the_tight_search_starts_from_the_cheapest_tight_partition() {
        let inst = two_pairs_far_apart();
        let one = Partition::from_labels(&[0; 4]);
        let crossed = Partition::from_labels(&[0, 1, 0, 1]);
        let pairs = Partition::from_labels(&[0, 0, 1, 1]);
        let run = Run {
            best: Some((one.clone(), 40)),
            ..run_with(40, 3.6)
        };
        let opts = |tight_search, warm_start: Vec<Partition>| ColgenOptions {
            tight_search,
            time_limit: Some(Duration::from_secs(60)),
            warm_start,
            ..ColgenOptions::default()
        };
        let start = |o: &ColgenOptions| {
            tight_companion_start(&inst, o, &run)
                .map(|(size, p, cost)| (size, p.labels().to_vec(), cost))
        };
        let both = opts(true, vec![crossed.clone(), pairs.clone()]);
        assert_eq!(start(&both), Some((2, pairs.labels().to_vec(), 4)));
        assert_eq!(
            start(&opts(true, vec![crossed.clone()])),
            Some((2, crossed.labels().to_vec(), 40))
        );
        assert_eq!(
            start(&opts(true, vec![])),
            None,
            "the incumbent is one class of 4"
        );
        assert_eq!(start(&opts(false, vec![pairs.clone()])), None);
        let untimed = ColgenOptions {
            time_limit: None,
            ..both
        };
        assert_eq!(start(&untimed), None);
    }

    #[test]
    fn the_tight_size_spreads_the_records_left_over_the_classes() {
        // 100 records at k = 10: 10 classes of 10.
        assert_eq!(tight_max_size(&[10; 100]), Some(10));
        // 442 at k = 10: 44 classes, 2 records left: some class holds 11.
        assert_eq!(tight_max_size(&[10; 442]), Some(11));
        // 55 at k = 10: 5 classes, 5 left: one each.
        assert_eq!(tight_max_size(&[10; 55]), Some(11));
        // 19 at k = 10: one class of 19.
        assert_eq!(tight_max_size(&[10; 19]), Some(19));
        // Personal k_i: the largest decides (12 records, a 5 among 3s: 2 classes, 2 left).
        let mut ks = vec![3; 12];
        ks[4] = 5;
        assert_eq!(tight_max_size(&ks), Some(6));
        // Too few records, or none.
        assert_eq!(tight_max_size(&[10; 9]), None);
        assert_eq!(tight_max_size(&[]), None);
    }
}
