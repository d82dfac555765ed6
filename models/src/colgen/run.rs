//! The state a column-generation run carries through its stages: incumbent, bound, deadline,
//! counters and timeline, and how it ends.

use super::column::Column;
use super::companion::Link;
use super::start;
use crate::engine::{
    BoundCallback, BoundEvent, EngineResult, EngineStats, SolutionCallback, SolutionEvent, Status,
};
use crate::{Criterion, Instance, Partition};
use std::sync::Arc;
use std::time::Instant;

/// Pricing nodes per round, shared out over the root tasks: a task that found improving columns
/// stops after its share (partial pricing; the rounds that certify the LP find none and always
/// run to completion). Per task, so the columns found do not depend on thread timing.
pub(super) const PARTIAL_PRICING_NODES: u64 = 1_000_000;

/// How often a run that handed its core to the companion takes the companion's partitions.
const HANDOVER_POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// Reduced costs above this are not negative enough to enter the master.
pub(super) const PRICE_EPS: f64 = 1e-6;

/// Integer lower bound from a float bound computed from LP duals (tolerance for LP round-off).
pub(super) fn ceil_bound(lb: f64) -> i64 {
    (lb - 1e-6 * lb.abs().max(1.0)).ceil() as i64
}

/// The run's mutable state: incumbent, bound, counters, timeline.
pub(super) struct Run {
    pub(super) start: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) best: Option<(Partition, i64)>,
    pub(super) lower: f64,
    pub(super) stats: EngineStats,
    pub(super) timeline: Vec<SolutionEvent>,
    pub(super) on_solution: Option<SolutionCallback>,
    /// Told of every rise of the integer bound (`reported`: the last one told).
    pub(super) on_bound: Option<BoundCallback>,
    pub(super) reported: i64,
    /// More than any partition can cost: the cost of an artificial column, and the upper bound
    /// the proof works against while no partition is known.
    pub(super) cap: i64,
    /// The companion search running beside the run, if any ([`super::companion`]).
    pub(super) companion: Option<Arc<Link>>,
    /// The criterion the run optimises (its partitions' costs are checked in it).
    pub(super) criterion: Criterion,
    /// Per-record lower bounds m_i ([`start::record_bounds`]), computed once at the start: the
    /// first bound, the least-slack seeding, the smoothing centre and the companion's bound.
    pub(super) record_bounds: Vec<f64>,
}

impl Run {
    pub(super) fn remaining(&self) -> Option<f64> {
        crate::stop::left(self.deadline).map(|d| d.as_secs_f64())
    }

    pub(super) fn out_of_time(&self) -> bool {
        crate::stop::past(self.deadline)
    }

    /// Whether a master LP solve that returned nothing ([`super::master::Master::solve`]) was
    /// stopped by the run's time limit: HiGHS stops at its limit a moment before the run's
    /// deadline. Otherwise HiGHS failed twice with time left.
    pub(super) fn lp_timed_out(&self) -> bool {
        self.remaining().is_some_and(|left| left < 1.0)
    }

    /// Raises the lower bound to `l` (never lowers it; capped at the incumbent) and tells
    /// `on_bound` when its integer value rose.
    pub(super) fn raise_lower(&mut self, l: f64) {
        self.lower = self.lower.max(l.min(self.ub_or_cap() as f64));
        let bound = ceil_bound(self.lower).min(self.ub_or_cap());
        if bound > self.reported {
            self.reported = bound;
            let elapsed_s = self.start.elapsed().as_secs_f64();
            if let Some(cb) = self.on_bound.as_mut() {
                cb(&BoundEvent { elapsed_s, bound });
            }
        }
    }

    pub(super) fn offer(&mut self, inst: &Instance, p: Partition, cost: i64, warm: bool) {
        if self.best.as_ref().is_some_and(|(_, b)| *b <= cost) {
            return;
        }
        let dbil = start::partition_cost(inst, Criterion::Dbil, &p);
        self.record(p, cost, dbil, warm);
    }

    /// Takes the companion's best partition when it beats the incumbent (and returns it, so
    /// column generation can add its classes), and restarts the companion from the incumbent
    /// when the run found a better one itself.
    pub(super) fn sync_companion(&mut self, inst: &Instance) -> Option<Partition> {
        let link = self.companion.clone()?;
        let taken = self.absorb(inst, &link);
        if let Some((p, cost)) = &self.best {
            if link.post(p, *cost) && std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                eprintln!(
                    "companion: restarted from {cost} t {:.2}",
                    self.start.elapsed().as_secs_f64()
                );
            }
        }
        taken
    }

    /// Hands the run's core to the companion: it restarts on every core from the best
    /// partition known, and the run takes its partitions until the deadline, until one of them
    /// meets the bound (the caller's proof is then complete), or until the companion's thread
    /// returns. False (at once) when there is no companion or no incumbent, or its thread has
    /// returned.
    pub(super) fn hand_over(&mut self, inst: &Instance) -> bool {
        let Some(link) = self.companion.clone() else {
            return false;
        };
        self.absorb(inst, &link);
        let Some((p, cost)) = self.best.clone() else {
            return false;
        };
        if !link.hand_over(&p, cost) {
            return false;
        }
        self.stats.handover_s = Some(self.start.elapsed().as_secs_f64());
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            eprintln!(
                "companion: the run's core handed over at {cost} t {:.2}",
                self.start.elapsed().as_secs_f64()
            );
        }
        while !self.out_of_time() && !link.is_done() && ceil_bound(self.lower) < self.ub() {
            std::thread::sleep(HANDOVER_POLL);
            self.absorb(inst, &link);
        }
        self.absorb(inst, &link);
        true
    }

    /// Makes the companion's latest partition the incumbent (and returns it) when it is
    /// k_i-anonymous, meets the run's class constraints and is better at the cost computed
    /// here: the run trusts no cost it did not compute.
    fn absorb(&mut self, inst: &Instance, link: &Link) -> Option<Partition> {
        let (p, _) = link.take()?;
        if p.len() != inst.n || !p.violations(&inst.k).is_empty() || !link.admits(&p) {
            return None;
        }
        let cost = start::partition_cost(inst, self.criterion, &p);
        if cost >= self.ub() {
            return None;
        }
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            let t = self.start.elapsed().as_secs_f64();
            eprintln!("companion: {} -> {cost} t {t:.2}", self.ub());
        }
        let dbil = start::partition_cost(inst, Criterion::Dbil, &p);
        self.record(p.clone(), cost, dbil, false);
        Some(p)
    }

    /// Makes `p` (cost `cost`, dbil `dbil`, better than the incumbent) the incumbent.
    fn record(&mut self, p: Partition, cost: i64, dbil: i64, warm: bool) {
        let ev = SolutionEvent {
            elapsed_s: self.start.elapsed().as_secs_f64(),
            objective: cost,
            num_classes: p.num_classes(),
            dbil,
            warm_start: warm,
            neighbourhood: None,
        };
        if let Some(cb) = self.on_solution.as_mut() {
            cb(&ev);
        }
        self.timeline.push(ev);
        self.best = Some((p, cost));
    }

    pub(super) fn ub(&self) -> i64 {
        self.best.as_ref().map_or(i64::MAX, |b| b.1)
    }

    /// The incumbent's cost, or `cap` when there is none: every partition costs less.
    pub(super) fn ub_or_cap(&self) -> i64 {
        self.ub().min(self.cap)
    }

    pub(super) fn finish(
        mut self,
        inst: &Instance,
        mut status: Status,
        mut note: Option<String>,
    ) -> EngineResult {
        if let Some(link) = self.companion.take() {
            link.stop();
            self.absorb(inst, &link);
        }
        if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
            eprintln!(
                "finish: {status:?} {note:?} lower {} ub {}",
                self.lower,
                self.ub()
            );
        }
        // A bound that met the incumbent is a proof, whichever stage raised it; the note of the
        // stage that stopped (a time limit) no longer applies.
        if status == Status::Feasible && self.best.is_some() && ceil_bound(self.lower) >= self.ub()
        {
            status = Status::Optimal;
            note = None;
        }
        // Proven with nothing found: no partition meets the constraints. Stopped early with
        // nothing found: unknown.
        let status = match (status, self.best.is_some()) {
            (Status::Optimal, false) => Status::Infeasible,
            (Status::Feasible, false) => Status::Unknown,
            (s, _) => s,
        };
        if status == Status::Infeasible {
            return EngineResult {
                status,
                partition: None,
                objective: None,
                lower_bound: None,
                stats: self.stats,
                timeline: self.timeline,
                elapsed_s: self.start.elapsed().as_secs_f64(),
                min_classes: None,
                note: note.or(Some(
                    "no partition meets the k_i and the class constraints".into(),
                )),
            };
        }
        let ub = self.ub();
        let lb = if status == Status::Optimal {
            ub
        } else {
            ceil_bound(self.lower).min(ub)
        };
        EngineResult {
            status,
            objective: self.best.as_ref().map(|b| b.1),
            partition: self.best.map(|b| b.0),
            lower_bound: Some(lb),
            stats: self.stats,
            timeline: self.timeline,
            elapsed_s: self.start.elapsed().as_secs_f64(),
            min_classes: None,
            note,
        }
    }
}

/// One more than the largest cost any partition can have (dbil ≤ n·max d, wcsd and sse ≤
/// n(n−1)/2·max d).
pub(super) fn cost_cap(inst: &Instance, criterion: Criterion) -> i64 {
    let n = inst.n as i64;
    let maxd = inst.dist.iter().flatten().copied().max().unwrap_or(0);
    let pairs = match criterion {
        Criterion::Wcsd | Criterion::Sse => n * (n - 1) / 2,
        _ => n,
    };
    pairs.saturating_mul(maxd).saturating_add(1)
}

/// Partition made of the given columns (which must cover every record once).
pub(super) fn partition_of(n: usize, columns: &[&Column]) -> Partition {
    let classes: Vec<Vec<usize>> = columns
        .iter()
        .map(|c| c.members.iter().map(|&i| i as usize).collect())
        .collect();
    Partition::from_classes(n, &classes).expect("a set-partitioning solution covers once")
}

/// A run with incumbent cost `best` (a pair, for tests) and bound `lower`, without deadline or
/// companion.
#[cfg(test)]
pub(super) fn run_with(best: i64, lower: f64) -> Run {
    Run {
        start: Instant::now(),
        deadline: None,
        best: Some((Partition::from_labels(&[1, 1]), best)),
        lower,
        stats: EngineStats::default(),
        timeline: Vec::new(),
        on_solution: None,
        on_bound: None,
        reported: i64::MIN,
        cap: 1_000,
        companion: None,
        criterion: Criterion::Dbil,
        record_bounds: Vec::new(),
    }
}

/// Runs `body` on two pairs far apart and a run whose incumbent is one class (4 · 10) and
/// whose bound 3.6 proves 4, the pairs' cost; the run is linked to a companion on its own
/// thread that hands the pairs over (once on every core, or `at_once`) and then waits for its
/// stop.
#[cfg(test)]
pub(super) fn with_a_companion_holding_the_pairs(
    at_once: bool,
    body: impl FnOnce(&Instance, &mut Run),
) {
    with_a_capped_companion_holding_the_pairs(at_once, None, body);
}

/// A master over the two pairs of [`two_pairs_far_apart`] and the one class of all four
/// records, with artificial columns at the run's cap.
#[cfg(test)]
pub(super) fn master_over_the_pairs(
    inst: &Instance,
    criterion: Criterion,
    run: &Run,
) -> super::master::Master {
    use super::column::Column;
    let mut master = super::master::Master::new(inst.n);
    for members in [vec![0, 1], vec![2, 3], vec![0, 1, 2, 3]] {
        master.add_column(Column::new(inst, criterion, members));
    }
    master.add_artificials(run.cap as f64);
    master
}

/// Four records at k = 2, in two pairs at distance 1 whose members lie 10 apart across.
#[cfg(test)]
pub(super) fn two_pairs_far_apart() -> Instance {
    let dist = vec![
        vec![0, 1, 10, 10],
        vec![1, 0, 10, 10],
        vec![10, 10, 0, 1],
        vec![10, 10, 1, 0],
    ];
    Instance::new(1.0, vec![2; 4], dist).expect("valid")
}

/// [`with_a_companion_holding_the_pairs`] with the run's largest class size `cap`.
#[cfg(test)]
pub(super) fn with_a_capped_companion_holding_the_pairs(
    at_once: bool,
    cap: Option<u32>,
    body: impl FnOnce(&Instance, &mut Run),
) {
    use super::companion::{Companion, Cores, Publish, RecordBounds};
    use crate::ClassConstraints;
    use std::time::Duration;
    let inst = two_pairs_far_apart();
    let pairs = Partition::from_labels(&[0, 0, 1, 1]);
    let one = Partition::from_labels(&[0; 4]);
    let mut run = Run {
        best: Some((one.clone(), 40)),
        deadline: Some(Instant::now() + Duration::from_secs(60)),
        ..run_with(40, 3.6)
    };
    let companion: Companion = Arc::new(
        move |_: &Instance,
              _,
              _: &RecordBounds,
              _: &Partition,
              _,
              cores: Cores,
              publish: Publish| {
            if at_once || cores == Cores::All {
                publish(&pairs, 4);
            }
            while !crate::stop::requested() {
                std::thread::sleep(Duration::from_millis(1));
            }
        },
    );
    let constraints = ClassConstraints {
        max_size: cap,
        ..ClassConstraints::default()
    };
    let link = Link::new(40, constraints);
    run.companion = Some(Arc::clone(&link));
    let deadline = run.deadline;
    /// Stops the companion if an assertion fails first (else the scope would wait for it).
    struct Abandon(Arc<Link>);
    impl Drop for Abandon {
        fn drop(&mut self) {
            self.0.abandon();
        }
    }
    std::thread::scope(|scope| {
        let _abandon = Abandon(Arc::clone(&link));
        let (inst, companion) = (&inst, &companion);
        scope.spawn(move || {
            link.drive(
                inst,
                RecordBounds::default(),
                companion,
                deadline,
                None,
                one,
            )
        });
        body(inst, &mut run);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Instance {
        Instance::new(1000.0, vec![2, 2], vec![vec![0, 1], vec![1, 0]]).expect("valid")
    }

    /// The hand-over's wait ends as soon as a partition of the companion meets the bound (the
    /// caller's proof is then complete), not at the deadline a minute away; the companion ran
    /// on every core after the hand-over, and it stops with the run.
    #[test]
    fn the_hand_over_ends_when_a_partition_meets_the_bound() {
        with_a_companion_holding_the_pairs(false, |inst, run| {
            let t = Instant::now();
            assert!(run.hand_over(inst));
            assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
            assert_eq!(run.ub(), 4);
            assert!(run.stats.handover_s.is_some());
            let r = std::mem::replace(run, run_with(0, 0.0)).finish(inst, Status::Feasible, None);
            assert_eq!(r.status, Status::Optimal);
            assert_eq!(r.objective, Some(4));
        });
    }

    /// The run takes no partition of its companion with a class above the run's largest class
    /// size (a capped run's companion searches under the cap, and the run trusts no partition
    /// it did not check).
    #[test]
    fn the_run_takes_no_companion_partition_above_its_cap() {
        use std::time::Duration;
        for (cap, taken) in [(Some(1), false), (Some(2), true), (None, true)] {
            with_a_capped_companion_holding_the_pairs(true, cap, |inst, run| {
                let link = run.companion.clone().expect("linked");
                let t = Instant::now();
                while link.known() > 4 && t.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                assert_eq!(link.known(), 4);
                assert_eq!(run.sync_companion(inst).is_some(), taken, "cap {cap:?}");
                assert_eq!(run.ub(), if taken { 4 } else { 40 }, "cap {cap:?}");
            });
        }
    }

    /// A stage stopped by a time limit, with a bound that already meets the incumbent (costs
    /// are integers: 636.2 proves 637), ends optimal and without the time-limit note; a bound
    /// below it stays feasible with the note.
    #[test]
    fn a_bound_meeting_the_incumbent_is_a_proof() {
        let note = Some("time limit in the proof MIP".to_string());
        let r = run_with(637, 636.2).finish(&two(), Status::Feasible, note.clone());
        assert_eq!(r.status, Status::Optimal);
        assert_eq!(r.lower_bound, Some(637));
        assert_eq!(r.note, None);
        let r = run_with(637, 635.5).finish(&two(), Status::Feasible, note.clone());
        assert_eq!(r.status, Status::Feasible);
        assert_eq!(r.lower_bound, Some(636));
        assert_eq!(r.note, note);
    }
}
