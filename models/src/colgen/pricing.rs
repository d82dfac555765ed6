//! Exact pricing and column enumeration: a depth-first search over member tuples, in decreasing
//! order of the record duals, pruned by a bound on the best reduced cost any completion of the
//! prefix can reach. The same search returns the best K columns (pricing) or every column below
//! a threshold (the enumeration behind the optimality proof).

use super::column::{size_limit, valid_unsplittable, valid_unsplittable_with, Column};
use crate::criteria::sse_term;
use crate::root_lp::Duals;
use crate::{ClassConstraints, Criterion, Instance};
use rayon::prelude::*;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Slack on float comparisons of reduced costs (costs are integers, duals come from an LP).
const TOL: f64 = 1e-7;

/// Classes above this size make the split test long enough to look at the clock after it.
const SPLIT_CLOCK_SIZE: usize = 8;

/// What the search collects.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    /// The `k` columns of least reduced cost among those with reduced cost ≤ `threshold`.
    Best { k: usize, threshold: f64 },
    /// Every column with reduced cost ≤ `threshold`, aborting beyond `budget` columns.
    All { threshold: f64, budget: usize },
}

/// Columns found, with their reduced costs, sorted by (reduced cost, members).
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// Columns and reduced costs.
    pub columns: Vec<(f64, Column)>,
    /// True when an `All` search exceeded its budget (the list is then incomplete).
    pub over_budget: bool,
    /// True when the deadline stopped the search (the list is then incomplete).
    pub timed_out: bool,
    /// True when the node budget stopped a task (incomplete): after finding columns, or
    /// after [`EMPTY_BUDGET_FACTOR`] budgets without one.
    pub partial: bool,
    /// Search nodes visited.
    pub nodes: u64,
    /// Search nodes of each root task, in the canonical order (decreasing dual): shows how
    /// the work splits over the tasks (the ladder's trace and probes).
    pub task_nodes: Vec<u64>,
    /// Whether the node budget stopped each root task (canonical order).
    pub task_stopped: Vec<bool>,
    /// Partial pricing not cut short by the deadline (or cut short with
    /// [`SearchOptions::bound_at_deadline`]): for every root task (the columns whose
    /// first member in the canonical order is one record), a lower bound on its columns'
    /// reduced costs, at most 0 (a task run to its end: its least; a task its node budget
    /// stopped: the least of that and its frontier's bound). Classes of a partition have
    /// distinct first members, so any partition's classes pay at least the sum of the most
    /// negative of these, one per class ([`Found::lagrangian_sum`]).
    pub root_minima: Option<Vec<f64>>,
    /// The search's reduced-cost threshold: a complete search lists every column below it (the
    /// best `k` of them in `Best` mode), so when it lists none the least reduced cost is at
    /// least this.
    pub threshold: f64,
}

impl Found {
    /// The Lagrangian bound at duals of value `value` (`value` + [`Found::lagrangian_sum`]),
    /// when the search knows enough for it: it ran to its end, or it knows every task's
    /// minimum (node-budget stops and, with [`SearchOptions::bound_at_deadline`], the
    /// deadline's). `None` for a search the deadline aborted.
    pub fn lagrangian_bound(&self, value: f64, max_classes: usize) -> Option<f64> {
        let complete = !self.partial && !self.timed_out;
        (complete || self.root_minima.is_some()).then(|| value + self.lagrangian_sum(max_classes))
    }

    /// A lower bound on the sum of the reduced costs of the classes of any partition with at
    /// most `max_classes` classes: the `max_classes` most negative root minima when the search
    /// knows them (not less than the next bound when it is complete), else `max_classes` times
    /// the most negative reduced cost found (a complete search only). Column generation adds
    /// it to the dual value for a Lagrangian bound.
    pub fn lagrangian_sum(&self, max_classes: usize) -> f64 {
        // Below a threshold under 0 the search did not look: without a column listed, the
        // least reduced cost is only known to be at least the threshold (as a task's minimum).
        let most_negative = self
            .columns
            .iter()
            .map(|c| c.0)
            .fold(self.threshold.min(0.0), f64::min);
        let uniform = max_classes as f64 * most_negative;
        match &self.root_minima {
            Some(minima) => {
                let mut m: Vec<f64> = minima.iter().map(|&v| v.min(0.0)).collect();
                let take = max_classes.min(m.len());
                if take < m.len() {
                    m.select_nth_unstable_by(take, f64::total_cmp);
                }
                let per_root: f64 = m[..take].iter().sum();
                // A stopped search's most negative column may be unfound: only its minima count.
                if self.partial {
                    per_root
                } else {
                    per_root.max(uniform)
                }
            }
            None => uniform,
        }
    }
}

/// A record still addable to the current prefix and its aggregate distance to the prefix
/// (maximum for dbil, sum for wcsd).
#[derive(Clone, Copy, Debug, Default)]
struct Cand {
    rec: u32,
    /// Its position in the canonical order: rows of [`Ctx::by_position`] are read in list
    /// order, so a child's candidates are read at increasing addresses.
    pos: u32,
    agg: i64,
    /// Its dual, copied from [`Ctx::pi`] so that the bounds read the list in order.
    pi: f64,
}

/// Shared, read-only data of one search.
struct Ctx<'a> {
    inst: &'a Instance,
    /// `by_position[p·n + q]`: the distance between the records at canonical positions p
    /// and q.
    by_position: Vec<i64>,
    /// The aggregate is a sum of distances (wcsd and sse) rather than a maximum (dbil).
    wcsd: bool,
    /// The cost is the sum over the size, rounded ([`crate::criteria::sse_term`]).
    sse: bool,
    pi: &'a [f64],
    mu: Vec<f64>,
    cuts_of: Vec<Vec<u32>>,
    mode: Mode,
    heap: Mutex<BinaryHeap<Entry>>,
    threshold: AtomicU64,
    count: AtomicUsize,
    abort: AtomicBool,
    deadline: Option<Instant>,
    /// The calling thread's stop token (the root tasks run on rayon's threads).
    token: Option<std::sync::Arc<AtomicBool>>,
    timed_out: AtomicBool,
    /// Partial pricing with [`SearchOptions::bound_at_deadline`]: the deadline has come, and
    /// every task stops at its next node (bounded by its frontier) instead of aborting.
    wind_down: Option<AtomicBool>,
    /// Partial pricing: each root task stops after this many nodes once it found a column.
    node_budget: Option<u64>,
    /// Partial pricing: a task that found nothing stops after this many nodes
    /// ([`EMPTY_BUDGET_FACTOR`] node budgets).
    empty_budget: Option<u64>,
    /// [`SearchOptions::minimise_tasks`].
    minimise_tasks: bool,
    /// Extra class constraints (empty: plain k_i-anonymity).
    extra: &'a ClassConstraints,
    /// Largest class size for each kmax (index = kmax).
    cap: Vec<usize>,
    /// Must-link partners of each record.
    must_of: Vec<Vec<u32>>,
    /// Cannot-link partners of each record.
    cannot_of: Vec<Vec<u32>>,
    /// Sensitive value id of each record (empty without l-diversity), their count, and l.
    values: &'a [u32],
    nvalues: usize,
    l: usize,
    /// Sum criteria: `near_half[j·n + p]` = half the sum of the j smallest distances from
    /// the record at canonical position p to other records (j < `near_width`, the largest
    /// class size); empty for dbil. By position and by j, so [`completion_bound`] reads it
    /// at increasing addresses.
    near_half: Vec<f64>,
    near_width: usize,
    /// The same table by position first: `near_by_pos[p·stride + j]` (stride
    /// [`near_by_pos_stride`], entries past the width repeating the last, which bounds them),
    /// so that [`all_sizes_prune`] reads a candidate's entries for several sizes at once.
    near_by_pos: Vec<f64>,
}

/// Heap entry ordered by (reduced cost, members): the heap top is the worst kept column.
struct Entry(f64, Column);

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0
            .total_cmp(&other.0)
            .then_with(|| self.1.members.cmp(&other.1.members))
    }
}

impl Ctx<'_> {
    /// Largest class size when the largest k is `kmax`.
    #[inline]
    fn max_size(&self, kmax: u32) -> usize {
        self.cap[(kmax as usize).min(self.cap.len() - 1)]
    }

    fn threshold(&self) -> f64 {
        f64::from_bits(self.threshold.load(Ordering::Relaxed))
    }

    /// The deadline (or a stop request) has come: the tasks wind down (see
    /// [`SearchOptions::bound_at_deadline`]) or the search aborts.
    fn deadline_passed(&self) {
        self.timed_out.store(true, Ordering::Relaxed);
        match &self.wind_down {
            Some(w) => w.store(true, Ordering::Relaxed),
            None => self.abort.store(true, Ordering::Relaxed),
        }
    }

    /// True once the tasks wind down at the deadline.
    #[inline]
    fn winding_down(&self) -> bool {
        self.wind_down
            .as_ref()
            .is_some_and(|w| w.load(Ordering::Relaxed))
    }

    /// Records a column; returns false when the search must stop (budget).
    fn emit(&self, rc: f64, col: Column, local: &mut Vec<(f64, Column)>) -> bool {
        match self.mode {
            Mode::Best { k, .. } => {
                let mut heap = self.heap.lock().expect("pricing heap poisoned");
                heap.push(Entry(rc, col));
                if heap.len() > k {
                    heap.pop();
                }
                if heap.len() == k {
                    let worst = heap.peek().map_or(f64::INFINITY, |e| e.0);
                    self.threshold.store(worst.to_bits(), Ordering::Relaxed);
                }
                true
            }
            Mode::All { budget, .. } => {
                local.push((rc, col));
                if self.count.fetch_add(1, Ordering::Relaxed) + 1 > budget {
                    self.abort.store(true, Ordering::Relaxed);
                    return false;
                }
                true
            }
        }
    }
}

/// A root task's own best columns (partial pricing: tasks do not share a threshold, so what
/// each finds before its node budget does not depend on thread timing).
struct LocalBest {
    k: usize,
    heap: BinaryHeap<Entry>,
    threshold: f64,
}

impl LocalBest {
    fn push(&mut self, rc: f64, col: Column) {
        self.heap.push(Entry(rc, col));
        if self.heap.len() > self.k {
            self.heap.pop();
        }
        if self.heap.len() == self.k {
            self.threshold = self.heap.peek().map_or(self.threshold, |e| e.0);
        }
    }
}

/// Per-task mutable state of the depth-first search.
struct Dfs {
    /// Partial pricing: this task's columns and threshold.
    local: Option<LocalBest>,
    task_nodes: u64,
    stopped: bool,
    /// Once stopped: a lower bound on the reduced cost of every column the task left
    /// unexplored (the least [`later_bound`] over the calls the stop cut short).
    frontier: f64,
    members: Vec<u32>,
    ks: Vec<u32>,
    cut_count: Vec<u8>,
    found: Vec<(f64, Column)>,
    nodes: u64,
    /// Records of the prefix (must-links), prefix count of each sensitive value (l-diversity)
    /// and the number of distinct values in the prefix.
    in_prefix: Vec<bool>,
    val_count: Vec<u32>,
    distinct: usize,
    /// Scratch marks for the candidate list of a child (stamped with `stamp`).
    mark: Vec<u64>,
    stamp: u64,
    /// [`completion_bound`]'s guess of the m-th smallest term, from its last call.
    lambda_hint: Option<f64>,
    /// Candidate lists and their [`ListInfo`] for the children being searched, reused from
    /// node to node (a stack: a node takes one and gives it back).
    pool: Vec<(Vec<Cand>, ListInfo)>,
}

/// Constraints of a search that has none (plain k_i-anonymity).
static NO_CONSTRAINTS: ClassConstraints = ClassConstraints {
    diversity: None,
    must: Vec::new(),
    cannot: Vec::new(),
    max_size: None,
};

/// What one search looks for, and its limits.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions<'a> {
    /// dbil or wcsd (the cost of a column).
    pub criterion: Criterion,
    /// The best columns or every column below a threshold.
    pub mode: Mode,
    /// Stop at this instant (`timed_out` is then set and the result is incomplete).
    pub deadline: Option<Instant>,
    /// Emit only columns that meet these class constraints and are not dominated under them
    /// (see [`valid_unsplittable_with`]); sizes are bounded by [`size_limit`].
    pub constraints: &'a ClassConstraints,
    /// Partial pricing (with [`Mode::Best`]): every root task (the columns whose first member,
    /// in the canonical order, is one record) keeps its own best `k` and stops after this many
    /// nodes once it has found a column, or after [`EMPTY_BUDGET_FACTOR`] times as many
    /// without one (`partial` is then set); the result is the `k` best over the tasks. Column
    /// generation only needs some improving columns while the duals are far from optimal, and
    /// the complete search (`None`) only in the rounds that certify the LP. Deterministic: no
    /// task depends on another's progress.
    pub node_budget: Option<u64>,
    /// Branch-and-price decisions: pairs that must share a column and pairs that must not.
    /// Unlike the class constraints they only filter columns: the size cap and the dominance
    /// rule stay those of `constraints` (the tree partitions the space of partitions made of
    /// such columns, which holds an optimal one).
    pub branching: Option<&'a Pairs>,
    /// Partial pricing: each record lies in at most this many of the columns returned (taken
    /// in order of reduced cost; the best column is always kept). At a degenerate master's
    /// duals the best columns all share the few records of highest dual (Adult, 500 records,
    /// k = 10: 500 columns over 40–80 records, every one holding the same record), and the LP
    /// stays at the warm start for dozens of rounds; spread columns move it (docs/exact.md).
    pub cover: Option<u32>,
    /// Partial pricing: root tasks already settled at these very duals and threshold, by
    /// canonical position (decreasing dual): `Some(m)` skips the task and takes `m` as its
    /// root minimum (it must come from a search whose task ran to its end; it found no column
    /// or its columns are already known). The bound ladder searches a rung again with a larger
    /// node budget this way, running only the tasks the budget stopped.
    pub settled: Option<&'a [Option<f64>]>,
    /// Partial pricing: when the deadline (or a stop request) comes, every root task stops as
    /// its node budget would stop it instead of aborting: a running task bounds what it left
    /// unexplored by its frontier, an unstarted one by the completion bound of its first record,
    /// so [`Found::root_minima`] still bounds (`timed_out` is set too). Costs one such bound
    /// per unstarted task after the deadline (Census, 1,080 records: well under a second). The
    /// bound ladder sets it: a rung the deadline stops still raises the run's bound.
    pub bound_at_deadline: bool,
    /// Partial pricing: each root task keeps only its best [`MINIMISED_TASK_COLUMNS`] (its
    /// threshold falls to the last of them) and one that has found a column runs on to the
    /// [`EMPTY_BUDGET_FACTOR`] budgets like one that has not, so its root minimum is its least
    /// reduced cost, not its frontier's bound after one budget. The bound ladder sets it: at
    /// an LP that is not converged a top rung finds a few columns (Census, k = 10: (0.975,
    /// 0.01) found 4 after 143–147 s), and its bound should lose only what they are below
    /// its threshold.
    pub minimise_tasks: bool,
}

/// Pairs of records decided together or apart in a branch-and-price node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Pairs in one class.
    pub together: Vec<(u32, u32)>,
    /// Pairs in different classes.
    pub apart: Vec<(u32, u32)>,
}

impl Pairs {
    /// True when a class with these (sorted) members respects every decision.
    pub fn allows(&self, members: &[u32]) -> bool {
        let has = |r: u32| members.binary_search(&r).is_ok();
        self.together.iter().all(|&(a, b)| has(a) == has(b))
            && self.apart.iter().all(|&(a, b)| !(has(a) && has(b)))
    }
}

impl SearchOptions<'static> {
    /// A complete search for `mode`, without deadline or class constraints.
    pub fn new(criterion: Criterion, mode: Mode) -> Self {
        SearchOptions {
            criterion,
            mode,
            deadline: None,
            constraints: &NO_CONSTRAINTS,
            node_budget: None,
            branching: None,
            cover: None,
            settled: None,
            bound_at_deadline: false,
            minimise_tasks: false,
        }
    }
}

/// Runs the search. `inst.n` records, duals for every record; deterministic whatever the thread
/// count (ties are broken by member lists).
pub fn search(inst: &Instance, duals: &Duals, opts: &SearchOptions) -> Found {
    let SearchOptions {
        criterion,
        mode,
        deadline,
        constraints: extra,
        node_budget,
        branching,
        cover,
        settled,
        bound_at_deadline,
        minimise_tasks,
    } = *opts;
    let n = inst.n;
    let kmax_all = inst.largest_k();
    let cap: Vec<usize> = (0..=kmax_all).map(|k| size_limit(extra, k, n)).collect();
    let mut must_of: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(a, b) in &extra.must {
        must_of[a as usize].push(b);
        must_of[b as usize].push(a);
    }
    let mut cannot_of: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(a, b) in &extra.cannot {
        cannot_of[a as usize].push(b);
        cannot_of[b as usize].push(a);
    }
    if let Some(pairs) = branching {
        for &(a, b) in &pairs.together {
            must_of[a as usize].push(b);
            must_of[b as usize].push(a);
        }
        for &(a, b) in &pairs.apart {
            cannot_of[a as usize].push(b);
            cannot_of[b as usize].push(a);
        }
    }
    let (values, l): (&[u32], usize) = match &extra.diversity {
        Some(d) if d.l > 1 => (&d.values, d.l as usize),
        _ => (&[], 1),
    };
    let nvalues = values.iter().map(|&v| v as usize + 1).max().unwrap_or(0);
    let mut cuts_of: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut mu = Vec::with_capacity(duals.cuts.len());
    for (idx, (t, m)) in duals.cuts.iter().enumerate() {
        mu.push(m.max(0.0));
        for &r in t {
            cuts_of[r as usize].push(idx as u32);
        }
    }
    let threshold = match mode {
        Mode::Best { threshold, .. } | Mode::All { threshold, .. } => threshold,
    };
    let sum_criterion = matches!(criterion, Criterion::Wcsd | Criterion::Sse);
    // `OPTIK_PRICE_NEAR=0` turns the nearest-distance term of the completion bound off (an
    // ablation knob: docs/microaggregation.md).
    let near_on = std::env::var("OPTIK_PRICE_NEAR").map_or(true, |v| v != "0");
    let near_width = if sum_criterion && near_on {
        cap.iter()
            .copied()
            .max()
            .unwrap_or(1)
            .min(n)
            .min(NEAR_WIDTH_MAX)
    } else {
        0
    };
    let near = nearest_sums(inst, near_width);
    // Canonical order: decreasing dual, so the best completions of a prefix are a prefix of the
    // remaining candidates and their dual sums are prefix sums.
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by(|&a, &b| {
        duals.pi[b as usize]
            .total_cmp(&duals.pi[a as usize])
            .then(a.cmp(&b))
    });
    // The distance matrix in canonical positions (row-major): a child list is read in
    // increasing position, at increasing addresses (Tarragona, k = 10: the reads by record
    // were a quarter of the ladder's time, waiting on memory).
    let mut by_position = vec![0i64; n * n];
    by_position
        .par_chunks_mut(n.max(1))
        .zip(order.par_iter())
        .for_each(|(row, &rec)| {
            let d = &inst.dist[rec as usize];
            for (slot, &o) in row.iter_mut().zip(&order) {
                *slot = d[o as usize];
            }
        });
    let mut near_half = vec![0.0f64; near_width * n];
    for (j, row) in near_half.chunks_mut(n.max(1)).enumerate() {
        for (slot, &rec) in row.iter_mut().zip(&order) {
            *slot = near[rec as usize * near_width + j] as f64 / 2.0;
        }
    }
    let near_stride = near_by_pos_stride(near_width);
    let mut near_by_pos = vec![0.0f64; near_stride * n];
    if near_width > 0 {
        for (pos, row) in near_by_pos.chunks_mut(near_stride).enumerate() {
            for (j, slot) in row.iter_mut().enumerate() {
                *slot = near_half[j.min(near_width - 1) * n + pos];
            }
        }
    }
    let partial_k = match (node_budget, mode) {
        (Some(_), Mode::Best { k, .. }) => Some(k),
        _ => None,
    };
    let ctx = Ctx {
        inst,
        by_position,
        wcsd: sum_criterion,
        sse: criterion == Criterion::Sse,
        pi: &duals.pi,
        mu,
        cuts_of,
        mode,
        heap: Mutex::new(BinaryHeap::new()),
        threshold: AtomicU64::new(threshold.to_bits()),
        count: AtomicUsize::new(0),
        abort: AtomicBool::new(false),
        deadline,
        token: crate::stop::token(),
        timed_out: AtomicBool::new(false),
        wind_down: (bound_at_deadline && partial_k.is_some()).then(|| AtomicBool::new(false)),
        node_budget,
        empty_budget: node_budget.and_then(|b| empty_budget_factor().map(|f| b.saturating_mul(f))),
        minimise_tasks,
        extra,
        cap,
        must_of,
        cannot_of,
        values,
        nvalues,
        l,
        near_half,
        near_width,
        near_by_pos,
    };
    let root: Vec<Cand> = order
        .iter()
        .enumerate()
        .map(|(pos, &rec)| Cand {
            rec,
            pos: pos as u32,
            agg: 0,
            pi: ctx.pi[rec as usize],
        })
        .collect();
    let mut root_info = ListInfo::default();
    root_info.fill(&ctx, &root);
    let ncuts = duals.cuts.len();
    let results: Vec<TaskResult> = (0..n)
        .into_par_iter()
        .with_max_len(1)
        .map_init(
            || Dfs {
                local: None,
                task_nodes: 0,
                stopped: false,
                frontier: f64::INFINITY,
                members: Vec::with_capacity(16),
                ks: Vec::with_capacity(16),
                cut_count: vec![0; ncuts],
                found: Vec::new(),
                nodes: 0,
                in_prefix: vec![false; n],
                val_count: vec![0; ctx.nvalues],
                distinct: 0,
                mark: vec![0; n],
                stamp: 0,
                lambda_hint: None,
                pool: Vec::new(),
            },
            |dfs, idx| {
                dfs.local = partial_k.map(|k| LocalBest {
                    k: if minimise_tasks {
                        MINIMISED_TASK_COLUMNS.min(k)
                    } else {
                        k
                    },
                    heap: BinaryHeap::new(),
                    threshold,
                });
                dfs.task_nodes = 0;
                dfs.stopped = false;
                dfs.frontier = f64::INFINITY;
                dfs.lambda_hint = None;
                if let Some(m) = settled.and_then(|s| s.get(idx).copied().flatten()) {
                    dfs.local = None;
                    return (Vec::new(), 0, false, Some(m));
                }
                if crate::stop::past_under(ctx.token.as_deref(), ctx.deadline) {
                    ctx.deadline_passed();
                }
                if !ctx.abort.load(Ordering::Relaxed) {
                    dfs.expand(&ctx, &root, &root_info, idx, Prefix::default());
                }
                let mut root_min = None;
                if let Some(local) = dfs.local.take() {
                    // The task's best column, or (none found) the threshold below which it
                    // looked: a lower bound on every column it explored; a stopped task's
                    // frontier bounds the rest.
                    let best = local.heap.iter().map(|e| e.0).fold(threshold, f64::min);
                    root_min = Some(if dfs.stopped {
                        best.min(dfs.frontier)
                    } else {
                        best
                    });
                    dfs.found.extend(local.heap.into_iter().map(|e| (e.0, e.1)));
                }
                (
                    std::mem::take(&mut dfs.found),
                    std::mem::take(&mut dfs.nodes),
                    dfs.stopped,
                    root_min,
                )
            },
        )
        .collect();
    let partial = results.iter().any(|r| r.2);
    let task_nodes: Vec<u64> = results.iter().map(|r| r.1).collect();
    let task_stopped: Vec<bool> = results.iter().map(|r| r.2).collect();
    let nodes = task_nodes.iter().sum();
    let aborted = ctx.abort.load(Ordering::Relaxed);
    let root_minima = (partial_k.is_some() && !aborted)
        .then(|| results.iter().map(|r| r.3))
        .and_then(|m| m.collect::<Option<Vec<f64>>>());
    let mut columns: Vec<(f64, Column)> = match mode {
        // Partial pricing: every task's own best; the k best of them.
        Mode::Best { .. } if partial_k.is_some() => results.into_iter().flat_map(|r| r.0).collect(),
        Mode::Best { .. } => ctx
            .heap
            .into_inner()
            .expect("pricing heap poisoned")
            .into_iter()
            .map(|e| (e.0, e.1))
            .collect(),
        Mode::All { .. } => results.into_iter().flat_map(|r| r.0).collect(),
    };
    columns.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then_with(|| a.1.members.cmp(&b.1.members))
    });
    if let Some(k) = partial_k {
        match cover {
            Some(cap) => columns = spread(columns, n, k, cap),
            None => columns.truncate(k),
        }
    }
    Found {
        columns,
        over_budget: ctx.abort.load(Ordering::Relaxed) && !ctx.timed_out.load(Ordering::Relaxed),
        timed_out: ctx.timed_out.load(Ordering::Relaxed),
        partial,
        nodes,
        task_nodes,
        task_stopped,
        root_minima,
        threshold,
    }
}

/// The first `k` of `columns` (sorted by reduced cost) in which no record appears more than
/// `cap` times: a column is skipped when one of its members is already in `cap` kept columns.
fn spread(columns: Vec<(f64, Column)>, n: usize, k: usize, cap: u32) -> Vec<(f64, Column)> {
    let mut cover = vec![0u32; n];
    let mut kept = Vec::with_capacity(k.min(columns.len()));
    for (rc, c) in columns {
        if kept.len() >= k {
            break;
        }
        if c.members.iter().all(|&r| cover[r as usize] < cap) {
            for &r in &c.members {
                cover[r as usize] += 1;
            }
            kept.push((rc, c));
        }
    }
    kept
}

/// The cost of a class of `s` records with aggregate `a` (maximum distance for dbil, pair sum
/// for wcsd and sse): a lower bound on the cost of any class that grows a prefix of
/// aggregate `a` to `s` records.
fn base_cost(ctx: &Ctx, s: usize, a: i64) -> f64 {
    if ctx.sse {
        sse_term(a, s) as f64
    } else if ctx.wcsd {
        a as f64
    } else {
        (s as i64 * a) as f64
    }
}

/// A lower bound on the reduced cost of every column that extends the prefix (`p` members)
/// by candidate `idx` of `list` or a later one: the prefix's aggregate (it only grows), no
/// new cut penalty (they only add), and the duals of candidate `idx` and of the best
/// candidates after it (later candidates have smaller π and a shorter remaining list, so the
/// bound holds for them too; exceeding the threshold ends the caller's loop).
fn later_bound(
    ctx: &Ctx,
    list: &[Cand],
    info: &ListInfo,
    idx: usize,
    prefix: &Prefix,
    p: usize,
) -> f64 {
    let p1 = p + 1;
    let smax_all = ctx
        .max_size(prefix.kmax.max(info.kmax_from[idx]))
        .min(p + list.len() - idx);
    let pj = ctx.pi[list[idx].rec as usize];
    let mut lb = f64::INFINITY;
    for s in p1.max(prefix.kmax as usize)..=smax_all {
        if let Some(t) = info.top(idx + 1, s - p1) {
            lb = lb.min(base_cost(ctx, s, prefix.agg) - prefix.psum - pj + prefix.cp - t);
        }
    }
    lb
}

/// A second lower bound on the same columns as [`later_bound`]: every such column adds to the
/// prefix (`p` members) some of the candidates `idx..` of `list`, whose aggregates are
/// relative to the prefix, so [`completion_bound`] over them bounds it, charging each added
/// record its distances to the prefix and to the other added records, which `later_bound`
/// ignores. A stopped task's frontier takes the larger of the two (Tarragona, k = 10: the
/// partial rounds' bounds are their frontiers').
fn later_completion(
    ctx: &Ctx,
    list: &[Cand],
    info: &ListInfo,
    idx: usize,
    prefix: &Prefix,
    p: usize,
) -> f64 {
    let rest = &list[idx..];
    let smax = ctx
        .max_size(prefix.kmax.max(info.kmax_from[idx]))
        .min(p + rest.len());
    if smax <= p {
        return f64::INFINITY;
    }
    completion_bound(
        ctx,
        rest,
        &Completion {
            p1: p,
            net: prefix.psum - prefix.cp,
            agg1: prefix.agg,
            need: (prefix.kmax as usize).saturating_sub(p).max(1),
            room: smax - p,
        },
        f64::NEG_INFINITY,
        &mut None,
    )
}

/// The class being built at a search node: the sum of its members' duals, the cut penalties it
/// pays, its aggregate distance (maximum for dbil, sum for wcsd) and its largest k.
#[derive(Clone, Copy, Debug, Default)]
struct Prefix {
    psum: f64,
    cp: f64,
    agg: i64,
    kmax: u32,
}

/// One root task's columns, nodes, whether its node budget stopped it, and (partial pricing,
/// not stopped) a lower bound on the reduced cost of every column it owns.
type TaskResult = (Vec<(f64, Column)>, u64, bool, Option<f64>);

/// Prefix sums of the candidates' duals and suffix maxima of their k, computed once per node.
#[derive(Debug, Default)]
struct ListInfo {
    /// `sums[t]` = Σ π of the first t candidates.
    sums: Vec<f64>,
    /// `kmax_from[t]` = max k of candidates t.. (0 past the end).
    kmax_from: Vec<u32>,
}

impl ListInfo {
    /// Computes it for `list`, reusing the vectors.
    fn fill(&mut self, ctx: &Ctx, list: &[Cand]) {
        self.sums.clear();
        self.sums.push(0.0);
        let mut acc = 0.0;
        for c in list {
            acc += c.pi;
            self.sums.push(acc);
        }
        self.kmax_from.clear();
        self.kmax_from.resize(list.len() + 1, 0);
        for t in (0..list.len()).rev() {
            self.kmax_from[t] = self.kmax_from[t + 1].max(ctx.inst.k[list[t].rec as usize]);
        }
    }

    /// Largest Σ π of `m` candidates taken from position `from` on (`None` if too few remain).
    #[inline]
    fn top(&self, from: usize, m: usize) -> Option<f64> {
        let end = from + m;
        (end < self.sums.len()).then(|| self.sums[end] - self.sums[from])
    }
}

impl Dfs {
    fn threshold(&self, ctx: &Ctx) -> f64 {
        self.local
            .as_ref()
            .map_or_else(|| ctx.threshold(), |l| l.threshold)
    }

    /// Adds candidate `idx` of `list` to the prefix, records the class if it qualifies and
    /// recurses. Returns false when no later candidate of `list` can lead anywhere (the caller
    /// may stop).
    fn expand(
        &mut self,
        ctx: &Ctx,
        list: &[Cand],
        info: &ListInfo,
        idx: usize,
        prefix: Prefix,
    ) -> bool {
        let Prefix {
            psum,
            cp,
            agg,
            kmax,
        } = prefix;
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096)
            && crate::stop::past_under(ctx.token.as_deref(), ctx.deadline)
        {
            ctx.deadline_passed();
        }
        if let (Some(budget), Some(local)) = (ctx.node_budget, &self.local) {
            let found_stops = !local.heap.is_empty() && !ctx.minimise_tasks;
            if self.task_nodes >= budget
                && (found_stops || ctx.empty_budget.is_some_and(|e| self.task_nodes >= e))
            {
                self.stopped = true;
            }
        }
        // Winding down at the deadline: a task stops at its second node, so even one that
        // starts now bounds its columns by the completion bound of its first record.
        if self.task_nodes > 0 && ctx.winding_down() {
            self.stopped = true;
        }
        self.task_nodes += 1;
        if self.stopped {
            // This call and its later siblings are left unexplored.
            let p = self.members.len();
            let lb = later_bound(ctx, list, info, idx, &prefix, p)
                .max(later_completion(ctx, list, info, idx, &prefix, p));
            self.frontier = self.frontier.min(lb);
            return false;
        }
        if ctx.abort.load(Ordering::Relaxed) {
            return false;
        }
        let inst = ctx.inst;
        let c = list[idx];
        let j = c.rec as usize;
        let p = self.members.len();
        let p1 = p + 1;
        let thr = self.threshold(ctx) + TOL;
        let base = |s: usize, a: i64| base_cost(ctx, s, a);
        let pj = ctx.pi[j];
        if later_bound(ctx, list, info, idx, &prefix, p) > thr {
            return false;
        }
        let kj = inst.k[j];
        let kmax1 = kmax.max(kj);
        let agg1 = if ctx.wcsd {
            agg + c.agg
        } else {
            agg.max(c.agg)
        };
        let mut dcp = 0.0;
        for &t in &ctx.cuts_of[j] {
            // the prefix holds an odd number of the cut's set: ⌊hits/2⌋ rises, the class
            // pays μ_S once more
            if self.cut_count[t as usize] % 2 == 1 {
                dcp += ctx.mu[t as usize];
            }
        }
        let cp1 = cp + dcp;
        let psum1 = psum + pj;
        let smin = p1.max(kmax1 as usize);
        let smax = ctx
            .max_size(kmax1.max(info.kmax_from[idx + 1]))
            .min(p + list.len() - idx);
        let mut lb = f64::INFINITY;
        for s in smin..=smax {
            if let Some(t) = info.top(idx + 1, s - p1) {
                lb = lb.min(base(s, agg1) - psum1 + cp1 - t);
            }
        }
        if lb > thr {
            return true;
        }
        self.members.push(c.rec);
        self.ks.push(kj);
        self.in_prefix[j] = true;
        if ctx.l > 1 {
            let v = ctx.values[j] as usize;
            self.distinct += (self.val_count[v] == 0) as usize;
            self.val_count[v] += 1;
        }
        for &t in &ctx.cuts_of[j] {
            self.cut_count[t as usize] += 1;
        }
        let mut go_on = true;
        if p1 >= kmax1 as usize && self.distinct.max(1) >= ctx.l {
            let cost = if ctx.sse {
                sse_term(agg1, p1)
            } else if ctx.wcsd {
                agg1
            } else {
                p1 as i64 * agg1
            };
            let rc = cost as f64 - psum1 + cp1;
            if rc <= thr {
                let ok = if ctx.extra.is_empty() {
                    valid_unsplittable(&mut self.ks.clone())
                } else {
                    let mut pairs: Vec<(u32, u32)> = self
                        .members
                        .iter()
                        .copied()
                        .zip(self.ks.iter().copied())
                        .collect();
                    pairs.sort_unstable();
                    let (m, k): (Vec<u32>, Vec<u32>) = pairs.into_iter().unzip();
                    let ok = valid_unsplittable_with(&m, &k, ctx.extra);
                    // The split test under l-diversity or must-links enumerates up to 2^13
                    // bipartitions, far more than a node: look at the clock after a long one
                    // (a neighbourhood of 116 Adult records at l = 2 priced 2.9 s for a
                    // 0.25 s limit between two looks every 4,096 nodes).
                    if m.len() > SPLIT_CLOCK_SIZE
                        && crate::stop::past_under(ctx.token.as_deref(), ctx.deadline)
                    {
                        ctx.deadline_passed();
                    }
                    ok
                };
                // Every must-link partner of a member is in the class (the search only
                // ensured they could still join).
                let ok = ok
                    && self.members.iter().all(|&m| {
                        ctx.must_of[m as usize]
                            .iter()
                            .all(|&q| self.in_prefix[q as usize])
                    });
                if ok {
                    let mut members = self.members.clone();
                    members.sort_unstable();
                    let col = Column { members, cost };
                    go_on = match &mut self.local {
                        Some(local) => {
                            local.push(rc, col);
                            true
                        }
                        None => ctx.emit(rc, col, &mut self.found),
                    };
                }
            }
        }
        if go_on && p1 < smax && idx + 1 < list.len() && !ctx.abort.load(Ordering::Relaxed) {
            // Radius: the largest aggregate a further candidate may have for some completion
            // size s to stay under the threshold.
            let thr = self.threshold(ctx) + TOL;
            let mut radius = f64::NEG_INFINITY;
            for s in (p1 + 1).max(kmax1 as usize)..=smax {
                if let Some(t) = info.top(idx + 1, s - p1) {
                    let room = psum1 - cp1 + t + thr;
                    // sse: the class of size s pays at least (agg1 + a)/s − ½ for a candidate
                    // with aggregate a (sum of its distances to the new prefix).
                    let r = if ctx.sse {
                        s as f64 * (room + 0.5) - agg1 as f64
                    } else if ctx.wcsd {
                        room - agg1 as f64
                    } else {
                        room / s as f64
                    };
                    radius = radius.max(r);
                }
            }
            let feasible = if ctx.wcsd {
                radius >= 0.0
            } else {
                agg1 as f64 <= radius
            };
            if feasible {
                let n = inst.n;
                let row = &ctx.by_position[c.pos as usize * n..][..n];
                let cannot = &ctx.cannot_of[j];
                // The child's list and its prefix sums reuse buffers (one per depth).
                let (mut buf, mut cinfo) = self.pool.pop().unwrap_or_default();
                let len = child_list(&mut buf, &list[idx + 1..], row, ctx.wcsd, radius, cannot);
                let child = &buf[..len];
                let need = (kmax1 as usize).saturating_sub(p1).max(1);
                let room = smax - p1;
                if !child.is_empty()
                    && self.completable(ctx, child)
                    && completion_bound(
                        ctx,
                        child,
                        &Completion {
                            p1,
                            net: psum1 - cp1,
                            agg1,
                            need,
                            room,
                        },
                        thr,
                        &mut self.lambda_hint,
                    ) <= thr
                {
                    cinfo.fill(ctx, child);
                    let next = Prefix {
                        psum: psum1,
                        cp: cp1,
                        agg: agg1,
                        kmax: kmax1,
                    };
                    for t in 0..child.len() {
                        if ctx.abort.load(Ordering::Relaxed)
                            || !self.expand(ctx, child, &cinfo, t, next)
                        {
                            break;
                        }
                    }
                }
                self.pool.push((buf, cinfo));
            }
        }
        for &t in &ctx.cuts_of[j] {
            self.cut_count[t as usize] -= 1;
        }
        self.members.pop();
        self.ks.pop();
        self.in_prefix[j] = false;
        if ctx.l > 1 {
            let v = ctx.values[j] as usize;
            self.val_count[v] -= 1;
            self.distinct -= (self.val_count[v] == 0) as usize;
        }
        true
    }

    /// Can the prefix, extended by candidates of `child`, still meet the must-links (every
    /// partner of a member is in the prefix or among the candidates) and l-diversity (enough
    /// new values among the candidates)?
    fn completable(&mut self, ctx: &Ctx, child: &[Cand]) -> bool {
        let need_must = self
            .members
            .iter()
            .any(|&m| !ctx.must_of[m as usize].is_empty());
        if !need_must && ctx.l <= 1 {
            return true;
        }
        self.stamp += 1;
        for c in child {
            self.mark[c.rec as usize] = self.stamp;
        }
        if need_must {
            for &m in &self.members {
                for &q in &ctx.must_of[m as usize] {
                    let q = q as usize;
                    if !self.in_prefix[q] && self.mark[q] != self.stamp {
                        return false;
                    }
                }
            }
        }
        if ctx.l > 1 && self.distinct < ctx.l {
            let mut seen: Vec<u32> = Vec::new();
            for c in child {
                let v = ctx.values[c.rec as usize];
                if self.val_count[v as usize] == 0 && !seen.contains(&v) {
                    seen.push(v);
                    if self.distinct + seen.len() >= ctx.l {
                        return true;
                    }
                }
            }
            return false;
        }
        true
    }
}

/// Writes into `buf` the candidates of `rest` that may still join a prefix extended by the
/// record whose distances are `row` (by position): their aggregates with it (sum for wcsd
/// and sse, maximum for dbil) at most `radius`, none in `cannot`. Returns how many; `buf`
/// keeps its length (at least `rest`'s), so the search's hottest loop neither allocates nor
/// branches on the test (a compaction: every candidate is written, the count moves only for
/// those that pass). Aggregates are integers: `a ≤ radius` is `a ≤ ⌊radius⌋`.
fn child_list(
    buf: &mut Vec<Cand>,
    rest: &[Cand],
    row: &[i64],
    wcsd: bool,
    radius: f64,
    cannot: &[u32],
) -> usize {
    if buf.len() < rest.len() {
        buf.resize(rest.len(), Cand::default());
    }
    let limit = radius.floor() as i64;
    let mut len = 0;
    for c2 in rest {
        let d = row[c2.pos as usize];
        let a = if wcsd { c2.agg + d } else { c2.agg.max(d) };
        // `len` never passes the candidate's own index: in bounds
        buf[len] = Cand { agg: a, ..*c2 };
        len += (a <= limit) as usize;
    }
    if !cannot.is_empty() {
        let mut kept = 0;
        for t in 0..len {
            if !cannot.contains(&buf[t].rec) {
                buf[kept] = buf[t];
                kept += 1;
            }
        }
        len = kept;
    }
    len
}

/// Partial pricing: a root task that has found no column stops after this many node budgets
/// (its frontier still bounds it). Without it, one task that finds nothing at large classes
/// holds the round for minutes (Tarragona, sse, k = 10: a second round did not end in 570 s).
/// The rounds that certify the LP are complete searches and never stop.
const EMPTY_BUDGET_FACTOR: u64 = 10;

/// `OPTIK_PRICE_EMPTY` (a factor; `0`: tasks without a column never stop, as before; an
/// ablation knob), else [`EMPTY_BUDGET_FACTOR`].
fn empty_budget_factor() -> Option<u64> {
    super::options::env_count_or_off("OPTIK_PRICE_EMPTY", EMPTY_BUDGET_FACTOR)
}

/// Widest table of [`nearest_sums`]: classes are at most 2·kmax − 1 records without class
/// constraints; under l-diversity or must-links any size is possible, and the table stays
/// n × 32.
const NEAR_WIDTH_MAX: usize = 32;

/// For each record r, the sums of its j smallest distances to other records, j = 0..width
/// (row-major, `width` per record): a lower bound on the distances from r to any j other
/// members of its class ([`completion_bound`]).
fn nearest_sums(inst: &Instance, width: usize) -> Vec<i64> {
    if width == 0 {
        return Vec::new();
    }
    let n = inst.n;
    let mut out = vec![0i64; n * width];
    out.par_chunks_mut(width).enumerate().for_each(|(r, row)| {
        let mut d: Vec<i64> = (0..n)
            .filter(|&o| o != r)
            .map(|o| inst.dist[r][o])
            .collect();
        let take = (width - 1).min(d.len());
        if take > 0 && take < d.len() {
            d.select_nth_unstable(take - 1);
        }
        d.truncate(take);
        d.sort_unstable();
        let mut acc = 0;
        for (j, slot) in row.iter_mut().enumerate().skip(1) {
            if let Some(&v) = d.get(j - 1) {
                acc += v;
            }
            *slot = acc;
        }
    });
    out
}

/// Σ_u min(0, num_u/div − π_u − λ) with num_u = agg_u + ½ near_u (`half`, by position),
/// summed as Σ_u min(0, num_u − div·(π_u + λ)) / div over four running sums (no division
/// or store per term; the sums pipeline).
fn sum_below(child: &[Cand], half: Option<&[f64]>, div: f64, lambda: f64) -> f64 {
    let mut acc = [0.0f64; 4];
    let term = |c: &Cand| {
        let near = half.map_or(0.0, |h| h[c.pos as usize]);
        (c.agg as f64 + near - div * (c.pi + lambda)).min(0.0)
    };
    let mut quads = child.chunks_exact(4);
    for quad in &mut quads {
        for (a, c) in acc.iter_mut().zip(quad) {
            *a += term(c);
        }
    }
    for c in quads.remainder() {
        acc[0] += term(c);
    }
    (acc[0] + acc[1] + acc[2] + acc[3]) / div
}

/// The most sizes [`all_sizes_prune`] tests at once.
const SIZES_AT_ONCE: usize = 32;

/// The row length of [`Ctx::near_by_pos`] for a table of `width` entries per record: room
/// for [`SIZES_AT_ONCE`] sizes from any entry up to the last.
fn near_by_pos_stride(width: usize) -> usize {
    if width == 0 {
        0
    } else {
        width + SIZES_AT_ONCE
    }
}

/// [`completion_bound`]'s one-pass test (sum criteria) at every size `sizes` with the same
/// λ, in a single pass over the candidates: `Ok(least bound)` when every size exceeds `stop`
/// (the caller prunes), else `Err((first size it leaves undecided, least bound of the sizes
/// before it))`. Reading each candidate once for all sizes rather than once per size (the
/// nearest-distance entries by position, [`Ctx::near_by_pos`]) took a Census, k = 10, rung
/// (0.95, 0.01) from 38.5 s to 32.6 s on 2 threads, the same nodes (more than
/// [`SIZES_AT_ONCE`] sizes: undecided from the first, tested one by one). Summing a few sizes
/// per pass in registers and stopping at the first undecided block was slower (39.8 s by
/// blocks of 4, 44.3 s by 8).
fn all_sizes_prune(
    ctx: &Ctx,
    child: &[Cand],
    completion: &Completion,
    sizes: std::ops::RangeInclusive<usize>,
    lambda: f64,
    stop: f64,
) -> Result<f64, (usize, f64)> {
    let (first, last) = (*sizes.start(), *sizes.end());
    let width = ctx.near_width;
    let count = (last + 1).saturating_sub(first);
    if count == 0 {
        return Ok(f64::INFINITY);
    }
    if count > SIZES_AT_ONCE {
        return Err((first, f64::INFINITY));
    }
    let Completion { p1, net, agg1, .. } = *completion;
    let mut div = [1.0f64; SIZES_AT_ONCE];
    let mut div_lambda = [0.0f64; SIZES_AT_ONCE];
    for (i, (d, dl)) in div.iter_mut().zip(&mut div_lambda).enumerate() {
        if ctx.sse {
            *d = (p1 + first + i) as f64;
        }
        *dl = *d * lambda;
    }
    let zeros = [0.0f64; SIZES_AT_ONCE];
    let stride = near_by_pos_stride(width);
    // near_u(m − 1) is entry min(m − 1, width − 1): from the first size on, the entries
    // are consecutive (past the width, copies of the last)
    let base = first.min(width).saturating_sub(1);
    let round = if ctx.sse { 0.5 } else { 0.0 };
    let (div, div_lambda) = (&div[..count], &div_lambda[..count]);
    let mut acc = [0.0f64; SIZES_AT_ONCE];
    let acc = &mut acc[..count];
    for c in child {
        let (a, p) = (c.agg as f64, c.pi);
        let near = if width > 0 {
            &ctx.near_by_pos[c.pos as usize * stride + base..][..count]
        } else {
            &zeros[..count]
        };
        for (((s, &h), &d), &dl) in acc.iter_mut().zip(near).zip(div).zip(div_lambda) {
            *s += (a + h - d * p - dl).min(0.0);
        }
    }
    let mut best = f64::INFINITY;
    for (i, (&sum, &d)) in acc.iter().zip(div).enumerate() {
        let m = first + i;
        let fixed = agg1 as f64 / d - round - net;
        let v = fixed + m as f64 * lambda + sum / d;
        if one_pass_prunes(v, stop, fixed, m, lambda) {
            best = best.min(v);
        } else {
            return Err((m, best));
        }
    }
    Ok(best)
}

/// Whether a one-pass value `v` = `fixed` + mλ + Σ min(0, term − λ) at size `m` exceeds
/// `stop` by more than its rounding (a relative margin of 1e-7 of its parts, far above it):
/// only then may the exact sum, which is at least `v`, be skipped.
fn one_pass_prunes(v: f64, stop: f64, fixed: f64, m: usize, lambda: f64) -> bool {
    let margin = 1e-7 * (1.0 + stop.abs() + fixed.abs() + m as f64 * lambda.abs());
    v > stop + margin
}

/// A prefix to complete in [`completion_bound`]: its size `p1`, dual sum minus cut penalties
/// `net` and aggregate `agg1`, and how many records it may still take (`need..=room`).
struct Completion {
    p1: usize,
    net: f64,
    agg1: i64,
    need: usize,
    room: usize,
}

/// Lower bound on the reduced cost of every column extending the prefix (size `p1`, dual sum
/// minus cut penalties `net`, aggregate `agg1`) by `need..=room` of the candidates `child` (in
/// decreasing dual order, aggregates already including the prefix), ignoring future cut
/// penalties (they only add). Unlike the bound inside [`Dfs::expand`], it charges each added
/// record its own distance to the prefix:
/// - dbil: the class diameter is at least `t = max(agg1, agg_u)` over the added records, so
///   `rc ≥ min_t p1·t − net + Σ_{chosen, agg_u ≤ t} (t − π_u)`, taking the `need` largest duals
///   eligible at `t` and every further one above `t`;
/// - wcsd and sse: with m records added, the pairs among them sum to at least
///   `½ Σ_{chosen} near_u(m − 1)`, where `near_u(j)` is the sum of u's j smallest distances to
///   any other record (each added u has m − 1 other added records), so the class's pair sum
///   is at least `agg1 + Σ_{chosen} (agg_u + ½ near_u(m − 1))`. wcsd:
///   `rc ≥ min_m (agg1 − net + Σ_{m chosen} (agg_u + ½ near_u(m − 1) − π_u))`; sse (size
///   s = p1 + m, the rounded cost at least the pair sum over s minus ½):
///   `rc ≥ min_m (agg1/s − ½ − net + Σ_{m chosen} ((agg_u + ½ near_u(m − 1))/s − π_u))`;
///   each taking the m smallest terms.
///
/// Stops as soon as a value ≤ `stop` is found (the caller only prunes above `stop`). `hint`
/// carries a guess of the m-th smallest term from call to call (sum criteria; any value
/// gives the same result, a good one gives it faster).
fn completion_bound(
    ctx: &Ctx,
    child: &[Cand],
    completion: &Completion,
    stop: f64,
    hint: &mut Option<f64>,
) -> f64 {
    let Completion {
        p1,
        net,
        agg1,
        need,
        room,
    } = *completion;
    if child.len() < need || room < need {
        return f64::INFINITY;
    }
    let pi = ctx.pi;
    if ctx.wcsd {
        let n = ctx.inst.n;
        let mut best = f64::INFINITY;
        // For each size the candidates' terms `num_u/s − π_u`, with pair-sum shares
        // `num_u = agg_u + ½ near_u(m − 1)`: filled only at the sizes the one-pass test below
        // leaves undecided (most calls prune without them), so they allocate only then.
        let mut terms: Vec<(f64, u32)> = Vec::new();
        // For any λ the m smallest terms sum to at least mλ + Σ_u min(0, term_u − λ), equal
        // when λ is the m-th smallest: one pass without selection. When that already exceeds
        // `stop` (with a margin for rounding) the exact sum would too, and the caller prunes
        // the same nodes faster (Tarragona, k = 10: the selections were 40% of the ladder's
        // time, and almost every call prunes). λ at the first size is the caller's `hint`
        // (the last call's); at the next, the term of the candidate that was (m+1)-th.
        let mut lambda = hint.filter(|_| stop.is_finite());
        let mut pivot: Option<usize> = None;
        let first = need.max(1);
        let last = room.min(child.len());
        // With the hint, every size's one-pass test in a single pass over the candidates;
        // the sizes go on one by one from the first it leaves undecided.
        let mut from = first;
        if let Some(l) = lambda {
            match all_sizes_prune(ctx, child, completion, first..=last, l, stop) {
                Ok(v) => return v,
                Err((m, v)) => {
                    best = v;
                    from = m;
                }
            }
        }
        for m in from..=last {
            let s = p1 + m;
            // sse divides the pair sum by the size and rounds (at least −½); wcsd does neither
            let (div, round) = if ctx.sse { (s as f64, 0.5) } else { (1.0, 0.0) };
            // near_u grows with j: past the table's width its last entry still bounds it
            let half = (ctx.near_width > 0).then(|| {
                let j = (m - 1).min(ctx.near_width - 1);
                &ctx.near_half[j * n..][..n]
            });
            let fixed = agg1 as f64 / div - round - net;
            if let Some(u) = pivot {
                let num_u = child[u].agg as f64 + half.map_or(0.0, |h| h[child[u].pos as usize]);
                lambda = Some(num_u / div - child[u].pi);
            }
            if let Some(l) = lambda.filter(|_| stop.is_finite()) {
                let v = fixed + m as f64 * l + sum_below(child, half, div, l);
                if one_pass_prunes(v, stop, fixed, m, l) {
                    best = best.min(v);
                    continue;
                }
            }
            terms.clear();
            terms.extend(child.iter().enumerate().map(|(i, c)| {
                let num = c.agg as f64 + half.map_or(0.0, |h| h[c.pos as usize]);
                (num / div - c.pi, i as u32)
            }));
            if m < terms.len() {
                terms.select_nth_unstable_by(m, |a, b| a.0.total_cmp(&b.0));
                pivot = Some(terms[m].1 as usize);
            }
            let smallest = &terms[..m];
            if m == first {
                *hint = smallest.iter().map(|e| e.0).reduce(f64::max);
            }
            let v = fixed + smallest.iter().map(|e| e.0).sum::<f64>();
            best = best.min(v);
            if best <= stop {
                break;
            }
        }
        return best;
    }
    let eval = |t: i64| -> Option<f64> {
        let tf = t as f64;
        let mut v = p1 as f64 * tf - net;
        let mut taken = 0;
        for c in child {
            if c.agg > t {
                continue;
            }
            let p = pi[c.rec as usize];
            if taken < room && (taken < need || p > tf) {
                v += tf - p;
                taken += 1;
            } else if taken >= need {
                break;
            }
        }
        (taken >= need).then_some(v)
    };
    let mut levels: Vec<i64> = child.iter().map(|c| c.agg.max(agg1)).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut best = f64::INFINITY;
    for t in levels {
        if let Some(v) = eval(t) {
            best = best.min(v);
            if best <= stop {
                break;
            }
        }
    }
    best
}

/// Columns a minimising task keeps ([`SearchOptions::minimise_tasks`]): its threshold falls
/// to the last of them once it has found this many. At 10 the early rungs still feed the
/// master (wcsd, diabetes, 442 records, personal k_i, 60 s: the first rung added 115 columns,
/// against 31 keeping one and 134 before the tasks minimised; gaps 0.11%, 0.36–0.53% and
/// 0.08–0.43%), and a top rung's tasks, which find one column or none, prune as before.
const MINIMISED_TASK_COLUMNS: usize = 10;
