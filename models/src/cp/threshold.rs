//! Maximum diameter, bound first: the optimum is one of the distinct pairwise distances, at
//! least `LB = max_i m_i`. For a threshold `D`, "is there a k_i-anonymous partition whose classes
//! all have diameter ≤ D" is a clique-partitioning problem on the threshold graph `G_D` (an edge
//! when `d(a, b) ≤ D`); it decomposes over the connected components of `G_D`. The thresholds are
//! tried in increasing order from `LB`: each component is first given to a greedy heuristic and,
//! when it fails, to a CP satisfaction call (the same model, objective `≤ D`) that either finds a
//! partition or refutes `D`. The first feasible threshold after refuting all smaller candidates
//! is the optimum.

/// Compatibility of records at one threshold: a dense boolean matrix over local indices.
pub(crate) struct Graph {
    pub n: usize,
    adj: Vec<bool>,
}

impl Graph {
    /// The threshold graph on `recs` (local index = position in `recs`).
    pub(super) fn new(dist: &[Vec<i64>], recs: &[usize], d_max: i64) -> Self {
        let n = recs.len();
        let mut adj = vec![false; n * n];
        for (a, &ra) in recs.iter().enumerate() {
            let row = &dist[ra];
            for (b, &rb) in recs.iter().enumerate() {
                adj[a * n + b] = a != b && row[rb] <= d_max;
            }
        }
        Graph { n, adj }
    }

    #[inline]
    pub(super) fn ok(&self, a: usize, b: usize) -> bool {
        self.adj[a * self.n + b]
    }

    /// Connected components (local indices), smallest first.
    pub(super) fn components(&self) -> Vec<Vec<usize>> {
        let n = self.n;
        let mut comp = vec![usize::MAX; n];
        let mut out: Vec<Vec<usize>> = Vec::new();
        for s in 0..n {
            if comp[s] != usize::MAX {
                continue;
            }
            let id = out.len();
            comp[s] = id;
            let mut stack = vec![s];
            let mut members = vec![s];
            while let Some(a) = stack.pop() {
                for (b, c) in comp.iter_mut().enumerate() {
                    if *c == usize::MAX && self.adj[a * n + b] {
                        *c = id;
                        stack.push(b);
                        members.push(b);
                    }
                }
            }
            members.sort_unstable();
            out.push(members);
        }
        out.sort_by_key(|c| c.len());
        out
    }
}

/// Small deterministic generator for tie-breaking in restarts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Greedy clique partition of the records `sub` (local indices of `g`) into classes of size at
/// least their largest k, every pair within the threshold: hardest record first (fewest
/// compatible unassigned records), completed with the hardest compatible candidates; records
/// that cannot open a class join an existing class compatible with all its members.
/// `attempt > 0` randomises the tie-breaking.
pub(crate) fn greedy(
    g: &Graph,
    sub: &[usize],
    k: &[u32],
    dist: &dyn Fn(usize, usize) -> i64,
    attempt: u64,
    boost: &[u32],
) -> GreedyResult {
    let n = g.n;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ attempt.wrapping_mul(0x1234_5678_9ABC_DEF1));
    let noise: Vec<u64> = (0..n)
        .map(|_| if attempt == 0 { 0 } else { rng.next() % 4 })
        .collect();
    let mut free = vec![false; n];
    for &a in sub {
        free[a] = true;
    }
    let mut deg = vec![0usize; n];
    for &a in sub {
        deg[a] = sub.iter().filter(|&&b| g.ok(a, b)).count();
    }
    let mut classes: Vec<Vec<usize>> = Vec::new();
    let mut stuck: Vec<usize> = Vec::new();
    let mut open: Vec<usize> = sub.to_vec();
    loop {
        open.retain(|&a| free[a]);
        let Some(&r) = open.iter().min_by_key(|&&a| {
            (
                std::cmp::Reverse(boost[a]),
                deg[a] as u64 * 4 + noise[a],
                std::cmp::Reverse(k[a]),
                a,
            )
        }) else {
            break;
        };
        let mut class = vec![r];
        let mut need = k[r] as usize;
        let mut cand: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&b| b != r && g.ok(r, b))
            .collect();
        let mut ok = true;
        while class.len() < need {
            let best = cand.iter().copied().min_by_key(|&b| {
                let link = class.iter().map(|&c| dist(b, c)).max().unwrap_or(0);
                (
                    std::cmp::Reverse(boost[b]),
                    deg[b] as u64 * 4 + noise[b],
                    link,
                    b,
                )
            });
            let Some(b) = best else {
                ok = false;
                break;
            };
            class.push(b);
            need = need.max(k[b] as usize);
            cand.retain(|&c| c != b && g.ok(b, c));
        }
        if !ok {
            free[r] = false;
            stuck.push(r);
            for &b in &open {
                if g.ok(r, b) {
                    deg[b] -= 1;
                }
            }
            continue;
        }
        for &c in &class {
            free[c] = false;
        }
        for &b in &open {
            if free[b] {
                deg[b] -= class.iter().filter(|&&c| g.ok(b, c)).count();
            }
        }
        classes.push(class);
    }
    // Stuck records join a class compatible with all its members (the smallest such class).
    let mut failed = Vec::new();
    for r in stuck {
        let target = classes
            .iter()
            .enumerate()
            .filter(|(_, c)| c.len() + 1 >= k[r] as usize && c.iter().all(|&m| g.ok(r, m)))
            .min_by_key(|(_, c)| c.len())
            .map(|(i, _)| i);
        match target {
            Some(t) => classes[t].push(r),
            None => failed.push(r),
        }
    }
    if failed.is_empty() {
        Ok(classes)
    } else {
        Err((classes, failed))
    }
}

/// Outcome of one feasibility question.
pub(crate) enum Feasibility {
    /// Classes (global record ids) of a partition within the threshold.
    Feasible(Vec<Vec<usize>>),
    /// Proven: no partition within the threshold.
    Infeasible,
    /// Time limit.
    Unknown,
}

/// A CP satisfaction call: records (global ids), threshold, optional time budget.
pub(crate) type CpCall<'a> =
    dyn FnMut(&[usize], i64, Option<std::time::Duration>) -> Feasibility + 'a;

/// Classes of a greedy run, or its valid classes and unplaced records.
pub(crate) type GreedyResult = Result<Vec<Vec<usize>>, (Vec<Vec<usize>>, Vec<usize>)>;

/// Everything the bound-first search needs from the caller.
pub(crate) struct Driver<'a> {
    pub inst: &'a crate::Instance,
    /// Exact (or lower-bound) m_i.
    pub m: &'a [i64],
    /// CP satisfaction on a set of records (global ids) at a threshold.
    /// CP satisfaction on a set of records (global ids) at a threshold, optionally with a
    /// shorter time budget than the remaining time.
    pub cp: &'a mut CpCall<'a>,
    /// Called with each improving partition (classes in global ids); returns its objective.
    pub improve: &'a mut dyn FnMut(Vec<Vec<usize>>) -> i64,
    /// Objective of the incumbent, if any.
    pub incumbent: Option<i64>,
    /// True once the time is up.
    pub out_of_time: &'a dyn Fn() -> bool,
}

/// Greedy attempts per component before calling CP.
const GREEDY_ATTEMPTS: u64 = 16;

/// Largest record set the greedy repair hands to CP.
const REPAIR_MAX: usize = 400;

/// Time budget of one repair CP call.
const REPAIR_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);

/// Result of [`Driver::run`].
pub(crate) enum Proof {
    /// The incumbent is optimal (or, without incumbent, the instance is infeasible).
    Optimal,
    /// Stopped; every threshold below this bound was refuted.
    Bound(i64),
}

impl Driver<'_> {
    fn greedy_all(&self, d: i64, recs: &[usize], attempts: u64) -> Option<Vec<Vec<usize>>> {
        self.greedy_partial(d, recs, attempts).ok()
    }

    /// The greedy with retries; on failure, the valid classes and the unplaced records of the
    /// attempt with the fewest unplaced records (global ids).
    fn greedy_partial(&self, d: i64, recs: &[usize], attempts: u64) -> GreedyResult {
        let dist = &self.inst.dist;
        let g = Graph::new(dist, recs, d);
        let k: Vec<u32> = recs.iter().map(|&r| self.inst.k[r]).collect();
        let dl = |a: usize, b: usize| dist[recs[a]][recs[b]];
        let local: Vec<usize> = (0..recs.len()).collect();
        // Squeaky wheel: records that could not be placed go first in the next attempt.
        let mut boost = vec![0u32; recs.len()];
        let map = |cs: Vec<Vec<usize>>| -> Vec<Vec<usize>> {
            cs.into_iter()
                .map(|c| c.into_iter().map(|a| recs[a]).collect())
                .collect()
        };
        let mut best: Option<(Vec<Vec<usize>>, Vec<usize>)> = None;
        for t in 0..attempts {
            match greedy(&g, &local, &k, &dl, t, &boost) {
                Ok(cs) => return Ok(map(cs)),
                Err((cs, failed)) => {
                    for &a in &failed {
                        boost[a] += 1;
                    }
                    if best.as_ref().is_none_or(|b| failed.len() < b.1.len()) {
                        best = Some((cs, failed));
                    }
                }
            }
        }
        let (cs, failed) = best.unwrap_or_default();
        Err((map(cs), failed.into_iter().map(|a| recs[a]).collect()))
    }

    /// Feasibility of threshold `d` over all records: component by component, greedy first.
    fn decide(&mut self, d: i64) -> Feasibility {
        let all: Vec<usize> = (0..self.inst.n).collect();
        let g = Graph::new(&self.inst.dist, &all, d);
        let mut comps = g.components();
        // Components whose greedy fails, smallest first, go to CP.
        let mut classes = Vec::new();
        let mut hard = Vec::new();
        for c in comps.drain(..) {
            if c.iter().any(|&a| self.m[a] > d) {
                return Feasibility::Infeasible;
            }
            match self.greedy_partial(d, &c, GREEDY_ATTEMPTS) {
                Ok(cs) => classes.extend(cs),
                Err((partial, failed)) => {
                    // Repair: re-solve by CP the unplaced records with every greedy class
                    // within one or two steps of them, keeping the other classes.
                    if let Some(cs) = self.repair(d, partial, &failed) {
                        classes.extend(cs);
                    } else {
                        hard.push(c)
                    }
                }
            }
        }
        if std::env::var_os("OPTIK_CP_DEBUG").is_some() {
            eprintln!(
                "threshold {d}: hard components {:?}",
                hard.iter().map(Vec::len).collect::<Vec<_>>()
            );
        }
        for c in hard {
            if (self.out_of_time)() {
                return Feasibility::Unknown;
            }
            match (self.cp)(&c, d, None) {
                Feasibility::Feasible(cs) => classes.extend(cs),
                other => return other,
            }
        }
        Feasibility::Feasible(classes)
    }

    /// Frees the greedy classes near the unplaced records and completes them by CP (at most
    /// [`REPAIR_MAX`] records); `None` when that fails (which proves nothing).
    fn repair(
        &mut self,
        d: i64,
        partial: Vec<Vec<usize>>,
        failed: &[usize],
    ) -> Option<Vec<Vec<usize>>> {
        let dist = &self.inst.dist;
        let mut freed: Vec<usize> = failed.to_vec();
        let mut keep: Vec<Vec<usize>> = partial;
        // Classes by their distance to the unplaced records; released nearest first, in
        // growing neighbourhoods.
        let gap = |c: &Vec<usize>| {
            c.iter()
                .flat_map(|&a| failed.iter().map(move |&f| dist[a][f]))
                .min()
                .unwrap_or(i64::MAX)
        };
        keep.sort_by_cached_key(|c| std::cmp::Reverse(gap(c)));
        for target in [8usize, 25, 50, 100, 200, REPAIR_MAX] {
            let before = freed.len();
            while freed.len() < target {
                // The nearest class (to the unplaced records) adjacent to the freed set.
                let pos = keep
                    .iter()
                    .rposition(|c| c.iter().any(|&a| freed.iter().any(|&f| dist[a][f] <= d)));
                match pos {
                    Some(p) => {
                        let c = keep.remove(p);
                        freed.extend(c);
                    }
                    None => break,
                }
            }
            if (self.out_of_time)() {
                return None;
            }
            let res = (self.cp)(&freed, d, Some(REPAIR_BUDGET));
            if std::env::var_os("OPTIK_CP_DEBUG").is_some() {
                eprintln!(
                    "repair {d}: {} unplaced, {} freed: {}",
                    failed.len(),
                    freed.len(),
                    match res {
                        Feasibility::Feasible(_) => "feasible",
                        Feasibility::Infeasible => "infeasible",
                        Feasibility::Unknown => "unknown",
                    }
                );
            }
            if let Feasibility::Feasible(cs) = res {
                keep.extend(cs);
                return Some(keep);
            }
            if freed.len() == before {
                return None;
            }
        }
        None
    }

    /// Bound-first search over the candidate thresholds.
    pub(super) fn run(&mut self) -> Proof {
        let n = self.inst.n;
        let lb0 = self.m.iter().copied().max().unwrap_or(0);
        let mut cands: Vec<i64> = vec![lb0];
        for i in 0..n {
            for j in i + 1..n {
                let v = self.inst.dist[i][j];
                if v > lb0 {
                    cands.push(v);
                }
            }
        }
        cands.sort_unstable();
        cands.dedup();
        let all: Vec<usize> = (0..n).collect();
        // Incumbent first: the smallest threshold at which the greedy succeeds (binary search).
        let below = |inc: Option<i64>| cands.partition_point(|&v| inc.is_none_or(|u| v < u));
        let (mut lo, mut hi) = (0usize, below(self.incumbent));
        while lo < hi && !(self.out_of_time)() {
            let mid = if lo == 0 { 0 } else { (lo + hi) / 2 };
            match self.greedy_all(cands[mid], &all, 8) {
                Some(cs) => {
                    let v = (self.improve)(cs);
                    self.incumbent = Some(self.incumbent.map_or(v, |u| u.min(v)));
                    hi = mid.min(below(self.incumbent));
                }
                None => lo = mid + 1,
            }
        }
        // Then every candidate below the incumbent, in increasing order.
        let mut idx = 0;
        loop {
            if idx >= below(self.incumbent) {
                return Proof::Optimal;
            }
            if (self.out_of_time)() {
                return Proof::Bound(cands[idx]);
            }
            let d = cands[idx];
            match self.decide(d) {
                Feasibility::Feasible(cs) => {
                    let v = (self.improve)(cs);
                    debug_assert_eq!(v, d, "every smaller threshold was refuted");
                    self.incumbent = Some(v);
                    return Proof::Optimal;
                }
                Feasibility::Infeasible => idx += 1,
                Feasibility::Unknown => return Proof::Bound(d),
            }
        }
    }
}
