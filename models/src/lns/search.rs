//! The search policy: which neighbourhood to free next, what to do with its re-optimised
//! classes, and how the neighbourhood size m adapts (larger when neighbourhoods are proven
//! optimal and stop improving, smaller when they time out). The threads that solve the
//! neighbourhoods are [`super::parallel`]'s.

use super::cost::SumCriterion;
use super::incumbent::Incumbent;
use super::neighbourhood::{neighbourhood, NeighbourhoodRule, SeedOrder};
use super::options::{Drive, ImprovementCallback, LnsEvent, LnsOptions, PartitionCallback};
use super::oracle::{sub_instance, DistanceOracle};
use super::outcome::LnsStats;
use crate::engine::{EngineError, EngineResult, Status};
use crate::{solve_colgen, ClassConstraints, ColgenOptions, Partition};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// Neighbourhoods in a row stopped by their time limit before m shrinks: one is chance (a
/// neighbourhood with many ties), several say m is too large for the time limit.
const LATE_BEFORE_SHRINK: usize = 3;

/// A neighbourhood whose classes cost less than this (integer units) above the Σ of their
/// records' bounds cannot improve: any partition of its records costs at least that Σ, and an
/// improvement is at least one unit. Half a unit leaves room for bounds that hold only up to a
/// tolerance per class (column generation's LP duals: 10⁻⁶ per class).
const NO_ROOM_BELOW: f64 = 0.5;

/// A neighbourhood to re-optimise: the classes it frees, their records and the incumbent
/// restricted to them (the warm start, so the result is never worse).
#[derive(Debug)]
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
    /// True when `time_limit` is the longest a neighbourhood gets (no retry after a timeout).
    pub last_chance: bool,
}

/// A neighbourhood after column generation.
#[derive(Debug)]
pub struct Solved {
    /// The neighbourhood.
    pub job: Job,
    /// Column generation's outcome on its sub-instance.
    pub result: Result<EngineResult, EngineError>,
    /// Wall-clock seconds of the job, sub-instance included.
    pub seconds: f64,
}

/// Re-optimises one neighbourhood: its dense sub-instance, column generation warm-started with
/// the incumbent's classes, limited to the job's time and under the search's class-size cap.
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
            constraints: limits.constraints.restricted_to(&job.records),
            // A neighbourhood is re-optimised, not searched for a tight partition.
            tight_phase: None,
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
#[derive(Debug)]
pub enum Next {
    /// A neighbourhood to solve.
    Job(Job),
    /// Every seed's neighbourhood touches a class a running job holds: wait for a result.
    Wait,
    /// Every neighbourhood at the largest size was solved with its current classes (proven
    /// optimal, or timed out without improvement): nothing is left to try.
    Exhausted,
}

/// The state of a search: incumbent, seeds, size, the neighbourhoods already solved.
pub struct Search<'o, O: DistanceOracle + ?Sized> {
    oracle: &'o O,
    criterion: SumCriterion,
    rule: NeighbourhoodRule,
    inc: Incumbent,
    bounds: Vec<f64>,
    seeds: SeedOrder,
    /// Draws of the randomised neighbourhood rule.
    rng: ChaCha8Rng,
    size: usize,
    min_size: usize,
    max_size: usize,
    /// Class constraints ([`LnsOptions::constraints`]).
    constraints: ClassConstraints,
    /// Classes held by running jobs.
    locked: HashSet<usize>,
    /// Hashes of class-id sets not worth solving again: proven optimal, or timed out without
    /// improvement under the longest limit (ids change with any change, so a set stays true of
    /// its records).
    tried: HashSet<u64>,
    /// Timeouts so far of class-id sets that will be retried with a doubled limit.
    timeouts: HashMap<u64, u32>,
    /// Time limit of a neighbourhood's first attempt.
    first_limit: Duration,
    /// Longest time limit of a neighbourhood.
    last_limit: Duration,
    /// Seed the classes an improvement creates next.
    follow_improvements: bool,
    /// Neighbourhoods proven optimal without improvement since the last improvement or growth.
    stale: usize,
    /// Neighbourhoods in a row stopped by their time limit.
    late: usize,
    whole_proven: bool,
    /// DBIL of the incumbent (its objective under dbil; tracked beside it under wcsd).
    dbil: i64,
    start: Instant,
    on_improvement: Option<ImprovementCallback>,
    on_partition: Option<PartitionCallback>,
    /// Counters.
    pub stats: LnsStats,
    /// Every improvement, in order.
    pub timeline: Vec<LnsEvent>,
}

impl<O: DistanceOracle + ?Sized> std::fmt::Debug for Search<'_, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("classes", &self.inc.num_classes())
            .field("objective", &self.inc.objective())
            .field("size", &self.size)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

fn key(classes: &[usize]) -> u64 {
    let mut sorted = classes.to_vec();
    sorted.sort_unstable();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    sorted.hash(&mut h);
    h.finish()
}

impl<'o, O: DistanceOracle + ?Sized> Search<'o, O> {
    /// A search from `start` (valid, checked by the caller); `opts.on_improvement` and
    /// `opts.on_partition` move in.
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
        let dbil = match criterion {
            SumCriterion::Dbil => inc.objective(),
            SumCriterion::Wcsd | SumCriterion::Sse => start
                .classes()
                .iter()
                .map(|c| SumCriterion::Dbil.class_cost(oracle, c))
                .sum(),
        };
        Search {
            dbil,
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
            rng: ChaCha8Rng::seed_from_u64(opts.seed ^ 0x005e_ed0f_4e1a),
            size: opts.size.clamp(min_size, max_size),
            min_size,
            max_size,
            constraints: opts.constraints.clone(),
            locked: HashSet::new(),
            tried: HashSet::new(),
            timeouts: HashMap::new(),
            first_limit: opts.first_limit,
            last_limit: opts.neighbourhood_limit,
            follow_improvements: opts.follow_improvements,
            stale: 0,
            late: 0,
            whole_proven: false,
            start: Instant::now(),
            on_improvement: opts.on_improvement.take(),
            on_partition: opts.on_partition.take(),
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

    /// The next neighbourhood for a free worker, which has `available` time before the
    /// deadline.
    pub fn next_job(&mut self, available: Duration) -> Next {
        let mut seeds_tried = HashSet::new();
        let mut blocked = false;
        loop {
            if self.whole_proven {
                return Next::Exhausted;
            }
            if seeds_tried.len() >= self.inc.num_classes() {
                // Every seed tried: each was locked or its neighbourhood already solved.
                if blocked {
                    return Next::Wait;
                }
                if self.size >= self.max_size {
                    return Next::Exhausted;
                }
                self.grow();
                seeds_tried.clear();
            }
            let Some(seed) = self.seeds.next(&self.inc) else {
                return Next::Exhausted;
            };
            seeds_tried.insert(seed);
            if self.locked.contains(&seed) {
                blocked = true;
                continue;
            }
            let locked = &self.locked;
            let classes = neighbourhood(
                self.oracle,
                &self.inc,
                seed,
                self.size,
                self.rule,
                &mut self.rng,
                |c| locked.contains(&c),
            );
            let key = key(&classes);
            if self.tried.contains(&key) {
                self.stats.skipped += 1;
                continue;
            }
            if self.room(&classes) < NO_ROOM_BELOW {
                // Proven without a solve: no partition of its records costs less.
                if std::env::var_os("OPTIK_LNS_TRACE").is_some() {
                    eprintln!(
                        "lns: no room in {} classes (m {}, t {:.2})",
                        classes.len(),
                        self.size,
                        self.elapsed_s()
                    );
                }
                self.tried.insert(key);
                self.stats.no_room += 1;
                self.proven_unchanged(classes.len());
                continue;
            }
            // Luby-like escalation: short first, doubled after each timeout, up to the limit.
            let timeouts = self.timeouts.get(&key).copied().unwrap_or(0);
            let escalated = self.first_limit.saturating_mul(1 << timeouts.min(20));
            let last_chance = escalated >= self.last_limit;
            let limit = escalated.min(self.last_limit).min(available);
            return Next::Job(self.job(classes, limit, last_chance));
        }
    }

    /// How far the classes cost above the Σ of their records' bounds: the most a re-solve of
    /// them can gain.
    fn room(&self, classes: &[usize]) -> f64 {
        classes
            .iter()
            .map(|&c| {
                let class = self.inc.class(c).expect("a neighbourhood's classes exist");
                class.cost as f64 - class.bound
            })
            .sum()
    }

    /// A neighbourhood of `classes` classes was proven optimal as it is: a proof of the whole
    /// table ends the search; enough of them in a row grow m.
    fn proven_unchanged(&mut self, classes: usize) {
        if classes == self.inc.num_classes() {
            self.whole_proven = true;
        }
        self.stale += 1;
        if self.stale >= self.patience() && self.size < self.max_size {
            self.grow();
        }
    }

    fn job(&mut self, classes: Vec<usize>, time_limit: Duration, last_chance: bool) -> Job {
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
            last_chance,
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
            self.stats.proven_s += seconds;
        } else {
            self.stats.timed_out += 1;
            self.stats.timed_out_s += seconds;
        }
        let improved = match (&r.partition, r.objective) {
            (Some(p), Some(obj)) if obj < job.cost => self.improve(&job, p, obj, proven),
            _ => false,
        };
        // Per-neighbourhood trace for tuning (size, time, outcome).
        if std::env::var_os("OPTIK_LNS_TRACE").is_some() {
            eprintln!(
                "lns: {} records {} classes {:.3} s {} {} -> {:?} (m {}, cap {:?}, t {:.2})",
                job.records.len(),
                job.classes.len(),
                seconds,
                r.status.name(),
                job.cost,
                r.objective,
                self.size,
                self.constraints.max_size,
                self.elapsed_s()
            );
        }
        if improved && !proven {
            self.stats.timed_out_improving += 1;
        }
        if !improved {
            // The same classes again give the same answer, or time out again unless given
            // more time.
            let key = key(&job.classes);
            if proven || job.last_chance {
                self.timeouts.remove(&key);
                self.tried.insert(key);
            } else {
                *self.timeouts.entry(key).or_default() += 1;
            }
        }
        if proven && !improved {
            self.proven_unchanged(job.classes.len());
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
            let members: Vec<u32> = c.iter().map(|&i| i as u32).collect();
            self.constraints.class_ok(&members)
                && c.iter()
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
        if self.criterion != SumCriterion::Dbil {
            let dbil = |c: &[usize]| SumCriterion::Dbil.class_cost(self.oracle, c);
            let before: i64 = job
                .classes
                .iter()
                .filter_map(|&id| self.inc.class(id))
                .map(|c| dbil(&c.members))
                .sum();
            let after: i64 = new.iter().map(|c| dbil(c)).sum();
            self.dbil += after - before;
        }
        let ids = self
            .inc
            .replace(self.oracle, self.criterion, &job.classes, new, &self.bounds);
        if self.follow_improvements {
            self.seeds.seed_next(&ids);
        }
        if proven {
            self.tried.insert(key(&ids));
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
            num_classes: self.inc.num_classes(),
            dbil: match self.criterion {
                SumCriterion::Dbil => self.inc.objective(),
                SumCriterion::Wcsd | SumCriterion::Sse => self.dbil,
            },
        };
        if let Some(cb) = self.on_improvement.as_mut() {
            cb(&ev);
        }
        if let Some(cb) = self.on_partition.as_mut() {
            cb(&self.inc.partition(), &ev);
        }
        self.timeline.push(ev);
        true
    }
}
