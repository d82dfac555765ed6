//! The search policy: which neighbourhood to free next, what to do with its re-optimised
//! classes, and how the neighbourhood size m adapts (larger when neighbourhoods are proven
//! optimal and stop improving, smaller when they time out). The threads that solve the
//! neighbourhoods are [`super::parallel`]'s.

use super::cost::SumCriterion;
use super::incumbent::Incumbent;
use super::neighbourhood::{neighbourhood, NeighbourhoodRule, SeedOrder};
use super::oracle::{sub_instance, DistanceOracle};
use super::parallel::Drive;
use super::{ImprovementCallback, LnsEvent, LnsOptions, LnsStats};
use crate::engine::{EngineError, EngineResult, Status};
use crate::{solve_colgen, ColgenOptions, Partition};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// Neighbourhoods in a row stopped by their time limit before m shrinks: one is chance (a
/// neighbourhood with many ties), several say m is too large for the time limit.
const LATE_BEFORE_SHRINK: usize = 3;

/// A neighbourhood to re-optimise: the classes it frees, their records and the incumbent
/// restricted to them (the warm start, so the result is never worse).
pub struct Job {
    /// Ids of the freed classes, seed first.
    pub classes: Vec<usize>,
    /// Their records, increasing; local record t of the sub-instance is `records[t]`.
    pub records: Vec<usize>,
    /// The incumbent's classes in local indices.
    pub warm: Partition,
    /// Σ cost of the freed classes.
    pub cost: i64,
    /// Time limit of this neighbourhood's column generation.
    pub time_limit: Duration,
}

/// A neighbourhood after column generation.
pub struct Solved {
    /// The neighbourhood.
    pub job: Job,
    /// Column generation's outcome on its sub-instance.
    pub result: Result<EngineResult, EngineError>,
    /// Wall-clock seconds of the job, sub-instance included.
    pub seconds: f64,
}

/// Re-optimises one neighbourhood: its dense sub-instance, column generation warm-started with
/// the incumbent's classes and limited to the job's time.
pub fn solve_job<O: DistanceOracle + ?Sized>(
    oracle: &O,
    criterion: SumCriterion,
    limits: &Drive,
    job: Job,
) -> Solved {
    let t = Instant::now();
    let inst = sub_instance(oracle, &job.records);
    let result = solve_colgen(
        &inst,
        ColgenOptions {
            criterion: criterion.criterion(),
            time_limit: Some(job.time_limit),
            warm_start: vec![job.warm.clone()],
            column_budget: limits.column_budget,
            cuts: limits.cuts,
            ..ColgenOptions::default()
        },
    );
    Solved {
        job,
        result,
        seconds: t.elapsed().as_secs_f64(),
    }
}

/// What the search offers a free worker.
pub enum Next {
    /// A neighbourhood to solve.
    Job(Job),
    /// Every seed's neighbourhood touches a class a running job holds: wait for a result.
    Wait,
    /// Every neighbourhood at the largest size is proven optimal: nothing is left to try.
    Exhausted,
}

/// The state of a search: incumbent, seeds, size, the neighbourhoods already proven optimal.
pub struct Search<'o, O: DistanceOracle + ?Sized> {
    oracle: &'o O,
    criterion: SumCriterion,
    rule: NeighbourhoodRule,
    inc: Incumbent,
    bounds: Vec<f64>,
    seeds: SeedOrder,
    size: usize,
    min_size: usize,
    max_size: usize,
    /// Classes held by running jobs.
    locked: HashSet<usize>,
    /// Hashes of class-id sets whose records are optimally partitioned by those classes.
    proven: HashSet<u64>,
    /// Neighbourhoods proven optimal without improvement since the last improvement or growth.
    stale: usize,
    /// Neighbourhoods in a row stopped by their time limit.
    late: usize,
    whole_proven: bool,
    start: Instant,
    on_improvement: Option<ImprovementCallback>,
    /// Counters.
    pub stats: LnsStats,
    /// Every improvement, in order.
    pub timeline: Vec<LnsEvent>,
}

fn key(classes: &[usize]) -> u64 {
    let mut sorted = classes.to_vec();
    sorted.sort_unstable();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    sorted.hash(&mut h);
    h.finish()
}

impl<'o, O: DistanceOracle + ?Sized> Search<'o, O> {
    /// A search from `start` (valid, checked by the caller); `opts.on_improvement` moves in.
    pub fn new(
        oracle: &'o O,
        criterion: SumCriterion,
        start: &Partition,
        opts: &mut LnsOptions,
        bounds: Vec<f64>,
    ) -> Self {
        let n = oracle.n();
        let max_size = opts.max_size.clamp(1, n.max(1));
        let min_size = opts.min_size.clamp(1, max_size);
        let inc = Incumbent::new(oracle, criterion, start, &bounds);
        Search {
            oracle,
            criterion,
            rule: opts.rule,
            stats: LnsStats {
                start_objective: inc.objective(),
                ..LnsStats::default()
            },
            inc,
            bounds,
            seeds: SeedOrder::new(ChaCha8Rng::seed_from_u64(opts.seed), opts.seed_bias),
            size: opts.size.clamp(min_size, max_size),
            min_size,
            max_size,
            locked: HashSet::new(),
            proven: HashSet::new(),
            stale: 0,
            late: 0,
            whole_proven: false,
            start: Instant::now(),
            on_improvement: opts.on_improvement.take(),
            timeline: Vec::new(),
        }
    }

    /// The incumbent.
    pub fn incumbent(&self) -> &Incumbent {
        &self.inc
    }

    /// True when a neighbourhood holding every class was proven optimal: the incumbent is.
    pub fn whole_proven(&self) -> bool {
        self.whole_proven
    }

    /// The current neighbourhood size m (records).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Seconds since the search started.
    pub fn elapsed_s(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Neighbourhoods proven without improvement before m grows: about one cover of the table.
    fn patience(&self) -> usize {
        (self.inc.n() / self.size.max(1)).max(4)
    }

    fn grow(&mut self) {
        self.size = (self.size * 5 / 4).max(self.size + 1).min(self.max_size);
        self.stale = 0;
        self.stats.grown += 1;
    }

    fn shrink(&mut self) {
        self.size = (self.size * 4 / 5).max(self.min_size);
        self.stale = 0;
        self.late = 0;
        self.stats.shrunk += 1;
    }

    /// The next neighbourhood for a free worker, limited to `time_limit`.
    pub fn next_job(&mut self, time_limit: Duration) -> Next {
        let mut tried = HashSet::new();
        let mut blocked = false;
        loop {
            if self.whole_proven {
                return Next::Exhausted;
            }
            if tried.len() >= self.inc.num_classes() {
                // Every seed tried: each was locked or its neighbourhood already proven.
                if blocked {
                    return Next::Wait;
                }
                if self.size >= self.max_size {
                    return Next::Exhausted;
                }
                self.grow();
                tried.clear();
            }
            let Some(seed) = self.seeds.next(&self.inc) else {
                return Next::Exhausted;
            };
            tried.insert(seed);
            if self.locked.contains(&seed) {
                blocked = true;
                continue;
            }
            let locked = &self.locked;
            let classes = neighbourhood(self.oracle, &self.inc, seed, self.size, self.rule, |c| {
                locked.contains(&c)
            });
            if self.proven.contains(&key(&classes)) {
                self.stats.skipped += 1;
                continue;
            }
            return Next::Job(self.job(classes, time_limit));
        }
    }

    fn job(&mut self, classes: Vec<usize>, time_limit: Duration) -> Job {
        let mut records = Vec::new();
        let mut cost = 0;
        for &c in &classes {
            let class = self.inc.class(c).expect("a neighbourhood's classes exist");
            records.extend_from_slice(&class.members);
            cost += class.cost;
            self.locked.insert(c);
        }
        records.sort_unstable();
        let labels: Vec<usize> = records.iter().map(|&i| self.inc.class_of(i)).collect();
        Job {
            warm: Partition::from_labels(&labels),
            classes,
            records,
            cost,
            time_limit,
        }
    }

    /// Takes a solved neighbourhood: keeps an improvement, records a proof, adapts m.
    pub fn apply(&mut self, solved: Solved) -> Result<(), EngineError> {
        let Solved {
            job,
            result,
            seconds,
        } = solved;
        for c in &job.classes {
            self.locked.remove(c);
        }
        let r = result?;
        self.stats.neighbourhoods += 1;
        self.stats.overrun_s = self
            .stats
            .overrun_s
            .max(seconds - job.time_limit.as_secs_f64());
        let proven = r.status == Status::Optimal;
        if proven {
            self.stats.proven += 1;
        } else {
            self.stats.timed_out += 1;
        }
        let improved = match (&r.partition, r.objective) {
            (Some(p), Some(obj)) if obj < job.cost => self.improve(&job, p, obj, proven),
            _ => false,
        };
        if proven && !improved {
            self.proven.insert(key(&job.classes));
            if job.classes.len() == self.inc.num_classes() {
                self.whole_proven = true;
            }
            self.stale += 1;
            if self.stale >= self.patience() && self.size < self.max_size {
                self.grow();
            }
        }
        if proven {
            self.late = 0;
        } else {
            self.late += 1;
            if self.late >= LATE_BEFORE_SHRINK && self.size > self.min_size {
                self.shrink();
            }
        }
        Ok(())
    }

    /// Replaces the job's classes by the classes of `p` (local indices) costing `obj`.
    fn improve(&mut self, job: &Job, p: &Partition, obj: i64, proven: bool) -> bool {
        let new: Vec<Vec<usize>> = p
            .classes()
            .into_iter()
            .map(|c| c.into_iter().map(|t| job.records[t]).collect())
            .collect();
        let valid = new.iter().all(|c| {
            c.iter()
                .map(|&i| self.oracle.k(i) as usize)
                .max()
                .unwrap_or(0)
                <= c.len()
        });
        let cost: i64 = new
            .iter()
            .map(|c| self.criterion.class_cost(self.oracle, c))
            .sum();
        if !valid || cost != obj || p.len() != job.records.len() {
            // Never keep a partition the engine mis-reported; a bug, not a move.
            debug_assert!(false, "column generation returned an invalid neighbourhood");
            self.stats.rejected += 1;
            return false;
        }
        let classes_after = new.len();
        let ids = self
            .inc
            .replace(self.oracle, self.criterion, &job.classes, new, &self.bounds);
        if proven {
            self.proven.insert(key(&ids));
            if ids.len() == self.inc.num_classes() {
                self.whole_proven = true;
            }
        }
        self.stale = 0;
        self.stats.improving += 1;
        let ev = LnsEvent {
            elapsed_s: self.elapsed_s(),
            objective: self.inc.objective(),
            records: job.records.len(),
            classes_before: job.classes.len(),
            classes_after,
            cost_before: job.cost,
            cost_after: obj,
            proven,
        };
        if let Some(cb) = self.on_improvement.as_mut() {
            cb(&ev);
        }
        self.timeline.push(ev);
        true
    }
}
