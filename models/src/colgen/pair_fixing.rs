//! Reduced-cost fixing of record pairs in branch-and-price. At a node whose LP has converged
//! (value z at duals π, every column's reduced cost ≥ −ε), a partition of the node's classes
//! costs at least z plus the reduced costs of its classes, so one that puts records a and b in
//! a class costs at least z + rc*(a, b), the least reduced cost of a class holding both. When
//! that exceeds the incumbent less one (costs are integers), no better partition of the node
//! puts them together: the pair is decided apart for the node's whole subtree, which takes
//! the LP's fractional classes that hold it out of every LP below (the node's LP rises) and
//! out of its pricing. The node's candidates are the pairs of the classes its LP uses.
//!
//! rc*(a, b) is asked of the pricing search, not computed: with a and b given duals above
//! every other record's (π_a + 2M, π_b + M, M above the sum of the positive duals and the
//! gap), a class holding both is the only kind that can reach the threshold gap − 3M, and
//! every other root task and branch of the search is pruned at once by its completion bound.

use super::master::{LpSolution, Master};
use super::options::ColgenOptions;
use super::pricing::{search, Mode, Pairs, SearchOptions};
use super::run::PRICE_EPS;
use crate::root_lp::Duals;
use crate::Instance;
use std::collections::HashSet;
use std::time::Instant;

/// What a fixing pass at one node did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Fixing {
    /// Pairs found apart in every better partition of the node (sorted, a < b).
    pub(super) apart: Vec<(u32, u32)>,
    /// Candidate pairs asked.
    pub(super) asked: usize,
    /// True when the deadline stopped the pass before every candidate was asked.
    pub(super) stopped: bool,
}

/// The candidate pairs of a node: every pair of records in a class of positive value in the
/// LP `sol`, not already decided by `pairs`, sorted.
pub(super) fn candidates(master: &Master, sol: &LpSolution, pairs: &Pairs) -> Vec<(u32, u32)> {
    let decided: HashSet<(u32, u32)> = pairs
        .together
        .iter()
        .chain(&pairs.apart)
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    let mut seen = HashSet::new();
    for (col, &v) in master.columns.iter().zip(&sol.x) {
        if v <= 1e-9 {
            continue;
        }
        for (t, &a) in col.members.iter().enumerate() {
            for &b in &col.members[t + 1..] {
                let p = (a.min(b), a.max(b));
                if !decided.contains(&p) {
                    seen.insert(p);
                }
            }
        }
    }
    if std::env::var("OPTIK_FIX_ALL").as_deref() == Ok("1") {
        let n = master
            .columns
            .iter()
            .flat_map(|c| c.members.iter())
            .max()
            .map_or(0, |&m| m + 1);
        for a in 0..n {
            for b in a + 1..n {
                if !decided.contains(&(a, b)) {
                    seen.insert((a, b));
                }
            }
        }
    }
    let mut out: Vec<(u32, u32)> = seen.into_iter().collect();
    out.sort_unstable();
    out
}

/// Whether some class allowed by `pairs` (and the run's class constraints) holds both `a` and
/// `b` with reduced cost at most `gap` at `duals`; `None` when the deadline stopped the search.
pub(super) fn pair_reaches(
    inst: &Instance,
    opts: &ColgenOptions,
    duals: &Duals,
    pairs: &Pairs,
    (a, b): (u32, u32),
    gap: f64,
    deadline: Option<Instant>,
) -> Option<bool> {
    let big = duals.pi.iter().map(|p| p.max(0.0)).sum::<f64>() + gap.abs() + 1.0;
    let mut lifted = duals.clone();
    lifted.pi[a as usize] += 2.0 * big;
    lifted.pi[b as usize] += big;
    let found = search(
        inst,
        &lifted,
        &SearchOptions {
            deadline,
            branching: Some(pairs),
            constraints: &opts.constraints,
            ..SearchOptions::new(
                opts.criterion,
                Mode::Best {
                    k: 1,
                    threshold: gap - 3.0 * big,
                },
            )
        },
    );
    if found.timed_out {
        return None;
    }
    Some(!found.columns.is_empty())
}

/// Reduced-cost fixing at a node whose LP `sol` has converged under `pairs` (no allowed class
/// of reduced cost below −[`PRICE_EPS`]), against the incumbent `ub`, asking at most until
/// `deadline`. A pair is fixed apart only when no allowed class holding it has a reduced cost
/// that a partition cheaper than `ub` could afford.
pub(super) fn fix_pairs(
    inst: &Instance,
    opts: &ColgenOptions,
    master: &Master,
    sol: &LpSolution,
    pairs: &Pairs,
    ub: i64,
    deadline: Option<Instant>,
) -> Fixing {
    let max_classes = inst.max_classes().max(1) as f64;
    let z = sol.duals.value();
    // A better partition costs at most ub − 1; its other classes may each sit PRICE_EPS
    // below 0, and z is HiGHS's to its tolerance: the gap errs on the large side (fewer pairs).
    let gap = (ub - 1) as f64 - z + max_classes * PRICE_EPS + 1e-6 * z.abs().max(1.0);
    let mut out = Fixing::default();
    if gap < 0.0 {
        return out;
    }
    for pair in candidates(master, sol, pairs) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            out.stopped = true;
            break;
        }
        out.asked += 1;
        match pair_reaches(inst, opts, &sol.duals, pairs, pair, gap, deadline) {
            Some(false) => out.apart.push(pair),
            Some(true) => {}
            None => {
                if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
                    eprintln!(
                        "fixing: the search timed out at pair {pair:?} (deadline {:?} from now)",
                        deadline.map(|d| d.saturating_duration_since(Instant::now()))
                    );
                }
                out.stopped = true;
                break;
            }
        }
    }
    out
}
