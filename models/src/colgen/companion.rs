//! The companion search: an improvement search (the large-neighbourhood search) on its own
//! thread beside column generation, from the first incumbent to the end of the run.
//!
//! Column generation is mostly one thread (the master LP, the proof's MIPs, branch-and-price),
//! so on two cores the second one idled while the search took turns with it, blocking the LP
//! for a share of the limit. The companion takes that core instead: its workers run at the
//! lowest priority on rayon pools of their own (`lns::parallel`), so it gets what the run
//! leaves, the second core while the run's LP and MIPs run on one, little while the run's
//! pricing fills both. Its incumbents reach the run between rounds, stages and nodes
//! ([`super::run::Run::sync_companion`]; in column generation their classes also join the
//! master), and the run's own better incumbents (LP rounding, the MIPs) restart it from there.
//! It stops with the run: its thread's stop token is set and the run waits for it, so the
//! run's time limit holds.
//!
//! When branch-and-price cannot close the gap in the time left ([`super::branch`]), the run
//! hands its core over: the companion restarts on every core ([`Cores::All`]) and the run only
//! takes its partitions until the limit.

use crate::{ClassConstraints, Instance, Partition};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Hands an improved partition and its objective (integer units, as the companion computed
/// it; the run recomputes it) to the run, from the companion's thread.
pub type Publish = Arc<dyn Fn(&Partition, i64) + Send + Sync>;

/// The cores a companion may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cores {
    /// All but the one column generation works on (at least one).
    AllButOne,
    /// All of them: the run has handed its core over ([`Link::hand_over`]).
    All,
}

/// Improves the k_i-anonymous partition `start` of the instance, which meets the class
/// constraints given (l-diversity, links, a largest class size) and keeps meeting them, until
/// the deadline or until the calling thread's stop token is set ([`crate::stop::with_token`]),
/// on the cores given, handing every better partition to `publish`. Runs on a thread of its
/// own beside column generation, which hands it per-record lower bounds too. Shared, so that
/// the tight phase's run has one too.
pub type Companion = Arc<
    dyn Fn(&Instance, &ClassConstraints, &RecordBounds, &Partition, Option<Instant>, Cores, Publish)
        + Send
        + Sync,
>;

/// Per-record lower bounds m_i with Σ_{i∈C} m_i ≤ cost(C) for every class C the companion may
/// form: where its search looks first, and which neighbourhoods it need not solve (their
/// classes cost less than a unit above their records' bounds).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordBounds {
    /// m_i of every record (empty: none known).
    pub values: Vec<f64>,
    /// True for the root LP's duals at its first convergence, before any cut (a class's room
    /// above them is its reduced cost, and the rooms of a partition add up to its gap to the
    /// LP; valid up to the pricing's tolerance), false for [`super::start::record_bounds`].
    pub duals: bool,
}

/// How often a companion that starts late looks at the clock and the run.
const LATE_START_POLL: Duration = Duration::from_millis(5);

/// A partition the companion found and its objective (integer units).
pub(super) type Found = (Partition, i64);

/// What the run and its companion share.
pub(super) struct Link {
    /// The companion thread's stop token: set to end the run, or to restart it.
    token: Arc<AtomicBool>,
    /// The run has ended: the companion must not restart.
    finished: AtomicBool,
    /// The companion's thread has returned.
    done: AtomicBool,
    /// The companion's best partition not yet taken by the run.
    found: Mutex<Option<Found>>,
    /// A better incumbent of the run to restart from.
    restart: Mutex<Option<(Partition, i64)>>,
    /// The best cost known to both sides.
    known: AtomicI64,
    /// The run has handed its core over: restarts use [`Cores::All`].
    all_cores: AtomicBool,
    /// The run's class constraints, its largest class size replaced by the tight size when the
    /// companion searches under that: the companion searches under them, and the run takes no
    /// partition breaking them and restarts it from none.
    constraints: ClassConstraints,
    /// The companion's latest start or partition meeting them: a hand-over restarts it from
    /// there when the run's incumbent does not (it is above the tight size).
    within: Mutex<Option<Found>>,
    /// Bounds posted by the run since the companion started ([`Link::post_bounds`]): its
    /// next start takes them.
    bounds: Mutex<Option<RecordBounds>>,
}

impl Link {
    /// A link for a companion starting from a partition of cost `start_cost`, under the class
    /// constraints `constraints`.
    pub(super) fn new(start_cost: i64, constraints: ClassConstraints) -> Arc<Self> {
        Arc::new(Link {
            token: Arc::new(AtomicBool::new(false)),
            finished: AtomicBool::new(false),
            done: AtomicBool::new(false),
            found: Mutex::new(None),
            restart: Mutex::new(None),
            known: AtomicI64::new(start_cost),
            all_cores: AtomicBool::new(false),
            constraints,
            within: Mutex::new(None),
            bounds: Mutex::new(None),
        })
    }

    /// The companion thread's body: from `not_before` (or a hand-over, if sooner) runs
    /// `companion` from `start` or the run's latest incumbent, and again from each better
    /// incumbent the run posts, until the run ends, the deadline passes, or the companion
    /// returns with nothing posted.
    pub(super) fn drive(
        self: &Arc<Self>,
        inst: &Instance,
        mut bounds: RecordBounds,
        companion: &Companion,
        deadline: Option<Instant>,
        not_before: Option<Instant>,
        mut start: Partition,
    ) {
        /// Marks the thread returned however it returns (a panic included).
        struct Returned<'a>(&'a AtomicBool);
        impl Drop for Returned<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let _returned = Returned(&self.done);
        *self.within.lock().expect("no panic holding it") =
            Some((start.clone(), self.known.load(Ordering::SeqCst)));
        if let Some(at) = not_before {
            while Instant::now() < at
                && !self.finished.load(Ordering::SeqCst)
                && !self.all_cores.load(Ordering::SeqCst)
            {
                std::thread::sleep(LATE_START_POLL);
            }
            if self.finished.load(Ordering::SeqCst) || crate::stop::past(deadline) {
                return;
            }
            // The run's posts while waiting only set the token; the latest is the start.
            self.token.store(false, Ordering::SeqCst);
            if let Some((p, _)) = self.restart.lock().expect("no panic holding it").take() {
                start = p;
            }
        }
        loop {
            if let Some(b) = self.bounds.lock().expect("no panic holding it").take() {
                bounds = b;
            }
            let link = Arc::clone(self);
            let publish: Publish = Arc::new(move |p, objective| link.publish(p, objective));
            let cores = if self.all_cores.load(Ordering::SeqCst) {
                Cores::All
            } else {
                Cores::AllButOne
            };
            crate::stop::with_token(Some(Arc::clone(&self.token)), || {
                companion(
                    inst,
                    &self.constraints,
                    &bounds,
                    &start,
                    deadline,
                    cores,
                    publish,
                )
            });
            if self.finished.load(Ordering::SeqCst) || crate::stop::past(deadline) {
                break;
            }
            // Cleared before the restart is taken, so a later post interrupts the new search.
            self.token.store(false, Ordering::SeqCst);
            match self.restart.lock().expect("no panic holding it").take() {
                Some((p, _)) => start = p,
                None => break,
            }
        }
    }

    /// The largest class size the companion searches under, if any.
    pub(super) fn cap(&self) -> Option<u32> {
        self.constraints.max_size
    }

    /// True when `p` meets the constraints the companion searches under.
    pub(super) fn admits(&self, p: &Partition) -> bool {
        self.constraints
            .max_size
            .is_none_or(|m| p.largest_class() <= m as usize)
            && (self.constraints.size_cap_only() || self.constraints.partition_ok(p.labels()))
    }

    /// Keeps `p` when it claims to be better than anything known (the run checks it).
    fn publish(&self, p: &Partition, objective: i64) {
        if objective >= self.known.load(Ordering::SeqCst) {
            return;
        }
        *self.within.lock().expect("no panic holding it") = Some((p.clone(), objective));
        // Found before known: whoever sees the new cost known finds the partition too.
        *self.found.lock().expect("no panic holding it") = Some((p.clone(), objective));
        self.known.fetch_min(objective, Ordering::SeqCst);
    }

    /// The best cost known to both sides (tests wait for a companion's partition by it).
    #[cfg(test)]
    pub(super) fn known(&self) -> i64 {
        self.known.load(Ordering::SeqCst)
    }

    /// The companion's best partition since the last call, if any.
    pub(super) fn take(&self) -> Option<Found> {
        self.found.lock().expect("no panic holding it").take()
    }

    /// Restarts the companion from the run's incumbent `p` of cost `cost` when it is better
    /// than anything the companion knows and within the cap (true when it did).
    pub(super) fn post(&self, p: &Partition, cost: i64) -> bool {
        if cost >= self.known.load(Ordering::SeqCst)
            || self.done.load(Ordering::SeqCst)
            || !self.admits(p)
        {
            return false;
        }
        self.known.fetch_min(cost, Ordering::SeqCst);
        *self.restart.lock().expect("no panic holding it") = Some((p.clone(), cost));
        self.token.store(true, Ordering::SeqCst);
        true
    }

    /// Restarts the companion with the bounds `b`, from the restart already posted or its own
    /// latest partition; before its first start, it starts with them (false when its thread
    /// has already returned).
    pub(super) fn post_bounds(&self, b: RecordBounds) -> bool {
        if self.done.load(Ordering::SeqCst) {
            return false;
        }
        // Stored first: a thread that has not taken its start yet starts with them.
        *self.bounds.lock().expect("no panic holding it") = Some(b);
        let latest = match self.found.lock().expect("no panic holding it").clone() {
            Some(q) => Some(q),
            None => self.within.lock().expect("no panic holding it").clone(),
        };
        if let Some(q) = latest {
            self.restart
                .lock()
                .expect("no panic holding it")
                .get_or_insert(q);
            self.token.store(true, Ordering::SeqCst);
        }
        true
    }

    /// Restarts the companion on every core from the run's incumbent `p` of cost `cost`, or
    /// from its own better partition not yet taken (which stays for `take`), or, when `p` is
    /// above the cap, from its latest partition within it. False when its thread has already
    /// returned.
    pub(super) fn hand_over(&self, p: &Partition, cost: i64) -> bool {
        if self.done.load(Ordering::SeqCst) {
            return false;
        }
        let from = match &*self.found.lock().expect("no panic holding it") {
            Some((q, c)) if *c < cost => (q.clone(), *c),
            _ if self.admits(p) => (p.clone(), cost),
            _ => match self.within.lock().expect("no panic holding it").clone() {
                Some(q) => q,
                None => return false,
            },
        };
        self.all_cores.store(true, Ordering::SeqCst);
        self.known.fetch_min(from.1, Ordering::SeqCst);
        *self.restart.lock().expect("no panic holding it") = Some(from);
        self.token.store(true, Ordering::SeqCst);
        true
    }

    /// The companion's thread has returned (the deadline, the run's end, or nothing left to
    /// try).
    pub(super) fn is_done(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    /// Stops the companion and waits for its thread to return (a neighbourhood under way
    /// notices the token within one of its rounds).
    pub(super) fn stop(&self) {
        self.finished.store(true, Ordering::SeqCst);
        self.token.store(true, Ordering::SeqCst);
        while !self.done.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Tells the companion to stop without waiting (the run is unwinding).
    pub(super) fn abandon(&self) {
        self.finished.store(true, Ordering::SeqCst);
        self.token.store(true, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::{Companion, Link, RecordBounds};
    use crate::{ClassConstraints, Instance, Partition};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// Bounds the run posts restart the companion from its own latest partition, with them.
    #[test]
    fn posted_bounds_restart_the_companion_with_them() {
        let inst = Instance::new(1.0, vec![2; 2], vec![vec![0, 1], vec![1, 0]]).unwrap();
        let starts: Arc<Mutex<Vec<(bool, Vec<usize>)>>> = Arc::default();
        let seen = Arc::clone(&starts);
        let companion: Companion =
            Arc::new(move |_, _, b: &RecordBounds, p: &Partition, _, _, _| {
                seen.lock().unwrap().push((b.duals, p.labels().to_vec()));
                while !crate::stop::requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
        let link = Link::new(10, ClassConstraints::default());
        let pair = Partition::from_labels(&[0, 0]);
        let duals = RecordBounds {
            values: vec![0.5, 0.5],
            duals: true,
        };
        std::thread::scope(|scope| {
            let (inst, companion, start) = (&inst, &companion, pair.clone());
            let driver = Arc::clone(&link);
            scope.spawn(move || {
                driver.drive(inst, RecordBounds::default(), companion, None, None, start)
            });
            while starts.lock().unwrap().is_empty() {
                std::thread::sleep(Duration::from_millis(1));
            }
            assert!(link.post_bounds(duals.clone()));
            while starts.lock().unwrap().len() < 2 {
                std::thread::sleep(Duration::from_millis(1));
            }
            link.stop();
        });
        let starts = starts.lock().unwrap().clone();
        assert_eq!(starts, vec![(false, vec![0, 0]), (true, vec![0, 0])]);
        assert!(!link.post_bounds(duals), "the companion has returned");
    }

    /// Under a cap the run restarts its companion only from partitions within it; a hand-over
    /// from an incumbent above it restarts the companion from its own latest partition within
    /// the cap, and without one there is nothing to hand over.
    #[test]
    fn a_capped_link_restarts_only_within_its_cap() {
        let one = Partition::from_labels(&[0; 4]);
        let pairs = Partition::from_labels(&[0, 0, 1, 1]);
        let restart = |link: &Link| {
            link.restart
                .lock()
                .unwrap()
                .clone()
                .map(|(p, c)| (p.labels().to_vec(), c))
        };
        let link = Link::new(40, ClassConstraints::capped(2));
        assert!(!link.post(&one, 30));
        assert!(!link.hand_over(&one, 30), "nothing within the cap yet");
        assert!(link.post(&pairs, 30));
        assert_eq!(restart(&link), Some((pairs.labels().to_vec(), 30)));
        link.publish(&pairs, 20);
        assert!(link.hand_over(&one, 10));
        assert_eq!(restart(&link), Some((pairs.labels().to_vec(), 20)));
        // Without a cap the run's incumbent is the restart.
        let free = Link::new(40, ClassConstraints::default());
        assert!(free.post(&one, 30));
        assert!(free.hand_over(&one, 10));
        assert_eq!(restart(&free), Some((one.labels().to_vec(), 10)));
    }
}
