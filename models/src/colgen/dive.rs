//! Price-and-dive: a primal heuristic at the root of branch-and-price. At large k the LP's
//! rounding and the restricted-master MIP leave the incumbent a few percent above the LP
//! (50 Adult records, k = 5: LP 131.0, rounding 144.9, MIP 137.5, optimum 131.8), and the
//! best-first tree finds integral solutions only deep and late. The dive fixes the classes the
//! LP has nearly chosen, re-solves the LP with pricing over the records left, and repeats until
//! the LP is integral: a few LP re-solves instead of a tree.
//!
//! A fixed class is final: the master holds every other column over its records at 0, and
//! pricing sees its records at a dual so low that no column takes them. (Fixing by Ryan–Foster
//! "together" decisions instead lets later classes grow around a fixed one, but pricing under
//! those must-links was 100 times slower: 1 s a round on 50 records.) The dive only offers
//! partitions to the run and never touches its bound; the tree that follows restricts the
//! master to its own node's columns again.

use super::column::Column;
use super::lp_primal::{integral_partition, round_lp};
use super::master::{LpSolution, Master};
use super::options::ColgenOptions;
use super::pricing::Pairs;
use super::round::{fast_round, price_round};
use super::run::{ceil_bound, Run};
use super::start;
use crate::Instance;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::time::Instant;

/// A column counts as chosen by the LP above this value.
const CHOSEN: f64 = 0.5;

/// A randomised dive fixes each column above ½ with this probability ([`fix`]).
const KEEP_ABOVE_HALF: f64 = 0.7;

/// A randomised dive draws the column to fix among this many largest when none reaches ½.
const DRAWN_AMONG: usize = 5;

/// The dual pricing sees for a record of a fixed class: every column holding it prices far
/// above zero, so the search prunes it at once.
const FIXED_DUAL: f64 = -1e12;

/// How a dive prices after each fixing step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DivePricing {
    /// The exact search with partial budgets (a converged LP's dive).
    Exact,
    /// The root's fast pricing only (sse's centroid descent, wcsd's grown classes): at the
    /// descent's stall at k = 10 an exact round takes
    /// minutes, and the dive needs a good LP, not a certified one.
    Descent,
}

/// What a dive did.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DiveStats {
    /// LP re-solves after a fixing step.
    pub(super) steps: u64,
    /// True when it ended at an integral LP (its partition was offered).
    pub(super) integral: bool,
}

/// Dives from the converged LP `sol` of a node with the branching decisions `pairs` (none at
/// the root) until the LP is integral, its value reaches the incumbent, the LP needs
/// artificial columns, or `deadline` passes. Leaves the master with the dive's columns and
/// restrictions: the caller restricts it again.
#[allow(clippy::too_many_arguments, reason = "a node's context")]
pub(super) fn dive(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &mut Master,
    sol: LpSolution,
    pairs: &Pairs,
    deadline: Option<Instant>,
    pricing: DivePricing,
    mut draw: Option<&mut ChaCha8Rng>,
) -> DiveStats {
    // Fixing classes can leave a record without an allowed column: artificial singletons
    // costing more than any partition keep every LP of the dive feasible (one that needs them
    // ends it). They stay in the master, where they change no LP optimum that a partition
    // reaches.
    master.add_artificials(run.cap as f64);
    let mut stats = DiveStats::default();
    let mut fixed_records = vec![false; inst.n];
    let mut fixed: HashSet<Vec<u32>> = HashSet::new();
    let mut sol = sol;
    let mut converged = true;
    // The dive's own deadline bounds its LP solves and pricing.
    let hard = run.deadline;
    run.deadline = match (hard, deadline) {
        (Some(h), Some(d)) => Some(h.min(d)),
        (h, d) => h.or(d),
    };
    loop {
        // Only a converged LP's value says the dive can no longer beat the incumbent.
        if sol.artificial || (converged && ceil_bound(sol.objective) >= run.ub()) {
            break;
        }
        if let Some(p) = integral_partition(inst.n, master, &sol) {
            let cost = start::partition_cost(inst, opts.criterion, &p);
            run.offer(inst, p, cost, false);
            stats.integral = true;
            break;
        }
        let rounded = round_lp(inst, opts, run, master, &sol, &fixed_records);
        if run.out_of_time() {
            break;
        }
        // The rounding's classes: the fixed classes are taken among them, and the others go
        // into the master, so the LP after fixing has a solution without artificial columns.
        // In a fixed order: the master's column order decides which of several optimal
        // bases HiGHS returns, so a hash set's order made proofs release different tied
        // partitions from run to run.
        let mut classes: Vec<Vec<u32>> = rounded
            .iter()
            .flat_map(|(p, _)| p.classes())
            .map(|class| class.iter().map(|&i| i as u32).collect())
            .collect();
        classes.sort_unstable();
        classes.dedup();
        let rounded: HashSet<Vec<u32>> = classes.iter().cloned().collect();
        if !fix(
            master,
            &sol,
            &rounded,
            &mut fixed,
            &mut fixed_records,
            draw.as_deref_mut(),
        ) {
            break;
        }
        for members in classes {
            if !fixed.contains(&members) && members.iter().all(|&m| !fixed_records[m as usize]) {
                master.add_column(Column::new(inst, opts.criterion, members));
            }
        }
        master.restrict(|c| {
            pairs.allows(&c.members)
                && (fixed.contains(&c.members)
                    || c.members.iter().all(|&m| !fixed_records[m as usize]))
        });
        stats.steps += 1;
        if std::env::var_os("OPTIK_DIVE_TRACE").is_some() {
            eprintln!(
                "dive step {}: lp {:.1}, {} classes fixed ({} records), ub {} t {:.2}",
                stats.steps,
                sol.objective,
                fixed.len(),
                fixed_records.iter().filter(|f| **f).count(),
                run.ub(),
                run.start.elapsed().as_secs_f64()
            );
        }
        match dive_lp(inst, opts, run, master, pairs, &fixed_records, pricing) {
            Ok((s, c)) => (sol, converged) = (s, c),
            Err(_) => break,
        }
    }
    run.deadline = hard;
    stats
}

/// Dives again and again from the root LP (the master with every column, its cuts) with
/// random fixing ([`fix`]) until `until` (or the run's deadline), a proof (the bound meets the
/// incumbent), or the companion's end; each better partition is the run's incumbent, and the
/// companion restarts from it. The tree's hand-over ([`super::branch`]) runs this on the
/// run's core instead of giving the core to the companion (or before giving it) when
/// [`ColgenOptions::handover_dives_for`] says so: the run's LP-based steps (rounding, dives)
/// made the incumbent's large steps in a traced k = 10 run. Measured, it lowered the gaps at
/// k = 5 on 442–1,000 records (the default there) and not at k = 10 on 500 (docs/exact.md).
/// Leaves the master with every column allowed.
pub(super) fn dives_after_the_hand_over(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &mut Master,
    until: Option<Instant>,
) {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(HANDOVER_DIVE_SEED);
    let mut dives = 0;
    while !run.out_of_time()
        && !crate::stop::past(until)
        && ceil_bound(run.lower) < run.ub()
        && run.companion.as_ref().is_none_or(|link| !link.is_done())
    {
        run.sync_companion(inst);
        master.restrict(|_| true);
        let Some(sol) = master.solve(run.remaining()) else {
            break;
        };
        run.stats.lp_time_s += sol.seconds;
        let ub = run.ub();
        let d = dive(
            inst,
            opts,
            run,
            master,
            sol,
            &Pairs::default(),
            until,
            DivePricing::Exact,
            Some(&mut rng),
        );
        dives += 1;
        run.stats.dives += 1;
        run.stats.handover_dives += 1;
        run.stats.dive_steps += d.steps;
        trace(&format!("hand-over dive {dives}"), d, ub, run);
        restore(master);
    }
    run.sync_companion(inst);
}

/// Gives the master every column back without the dive's basis: artificial columns basic at
/// 0 give duals at which pricing explodes (see `branch`).
pub(super) fn restore(master: &mut Master) {
    master.restrict(|_| true);
    master.compact(|_| true);
}

/// Traces a dive's end (`OPTIK_COLGEN_TRACE`): `what`, its steps, and the incumbent it left
/// against the one it started from.
pub(super) fn trace(what: &str, d: DiveStats, from: i64, run: &Run) {
    if std::env::var_os("OPTIK_COLGEN_TRACE").is_some() {
        eprintln!(
            "{what}: {} steps, integral {}, ub {} (from {from}) t {:.2}",
            d.steps,
            d.integral,
            run.ub(),
            run.start.elapsed().as_secs_f64()
        );
    }
}

/// The seed of the hand-over dives' draws (a run repeats itself given the same timing).
const HANDOVER_DIVE_SEED: u64 = 0x0d1e;

/// Pricing rounds after each fixing step: the dive needs a good LP, not a converged one (at
/// k = 5 on 1,000 records, re-converging after the first step took longer than 7 s).
const ROUNDS_PER_STEP: usize = 3;

/// Column generation over the records outside fixed classes until the LP converges, or
/// [`ROUNDS_PER_STEP`] pricing rounds have added columns and the LP no longer needs artificial
/// columns (records whose every column met a fixed class), or four times as many rounds
/// passed. Returns the last LP and whether it converged.
fn dive_lp(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &mut Master,
    pairs: &Pairs,
    fixed_records: &[bool],
    pricing: DivePricing,
) -> Result<(LpSolution, bool), &'static str> {
    let branching = (pairs != &Pairs::default()).then_some(pairs);
    let max_classes = inst.max_classes().max(1) as f64;
    for round in 0.. {
        if run.out_of_time() {
            return Err("time limit in the dive");
        }
        let Some(sol) = master.solve(run.remaining()) else {
            return Err("time limit in a dive LP");
        };
        run.stats.lp_time_s += sol.seconds;
        run.stats.pricing_rounds += 1;
        if (round >= ROUNDS_PER_STEP && !sol.artificial) || round == 4 * ROUNDS_PER_STEP {
            return Ok((sol, false));
        }
        let mut priced = sol.clone();
        for (pi, _) in priced
            .duals
            .pi
            .iter_mut()
            .zip(fixed_records)
            .filter(|f| *f.1)
        {
            *pi = FIXED_DUAL;
        }
        let t = Instant::now();
        let added = match pricing {
            DivePricing::Exact => {
                let priced_round = price_round(
                    inst,
                    opts,
                    run,
                    master,
                    &priced,
                    None,
                    branching,
                    max_classes,
                );
                priced_round.map_err(|stop| stop.why)?.added
            }
            DivePricing::Descent => fast_round(inst, opts, run, master, &priced),
        };
        run.stats.pricing_time_s += t.elapsed().as_secs_f64();
        if std::env::var_os("OPTIK_DIVE_TRACE").is_some() {
            eprintln!(
                "dive round {round}: lp {:.1} in {:.3} s, pricing {:.3} s, {added} added",
                sol.objective,
                sol.seconds,
                t.elapsed().as_secs_f64()
            );
        }
        if added == 0 {
            return Ok((sol, true));
        }
        // No pool ageing here: it would keep the dive's support and could drop the columns
        // the node dived from needs, whose LP would then need artificial columns (at their
        // duals pricing explodes: a 200-record tree hung after a dive). The node's own
        // column generation ages the pool when it resumes.
    }
    unreachable!("the rounds are unbounded")
}

/// Fixes the classes of value above ½ in `sol`, or the one of largest value when none reaches
/// it, among the columns not fixed yet; columns that are classes of `rounded` (the LP's
/// rounding) come first, so that its other classes complete the fixed ones. With `draw`, the
/// choice is random: each column above ½ is fixed with probability [`KEEP_ABOVE_HALF`] (one
/// drawn when none is), or, when none reaches ½, one of the [`DRAWN_AMONG`] largest with
/// probability proportional to its value; repeated dives from one LP then end at different
/// partitions. False when there is no column to fix.
fn fix(
    master: &Master,
    sol: &LpSolution,
    rounded: &HashSet<Vec<u32>>,
    fixed: &mut HashSet<Vec<u32>>,
    fixed_records: &mut [bool],
    draw: Option<&mut ChaCha8Rng>,
) -> bool {
    let candidates = |in_rounding: bool| -> Vec<(f64, usize)> {
        sol.x
            .iter()
            .enumerate()
            .filter(|&(c, &v)| {
                let members = &master.columns[c].members;
                v > 1e-6
                    && !master.is_disabled(c)
                    && !fixed.contains(members)
                    && (!in_rounding || rounded.contains(members))
            })
            .map(|(c, &v)| (v, c))
            .collect()
    };
    let mut open = candidates(true);
    if open.is_empty() {
        open = candidates(false);
    }
    open.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let Some(&(_, first)) = open.first() else {
        return false;
    };
    // Columns above ½ are disjoint (each covers its records more than half); the allowed
    // columns outside fixed classes hold no fixed record.
    let mut chosen: Vec<usize> = open
        .iter()
        .take_while(|(v, _)| *v > CHOSEN)
        .map(|&(_, c)| c)
        .collect();
    if let Some(rng) = draw {
        if chosen.is_empty() {
            let top = &open[..open.len().min(DRAWN_AMONG)];
            let total: f64 = top.iter().map(|t| t.0).sum();
            let mut at = rng.gen::<f64>() * total;
            let drawn = top.iter().find(|t| {
                at -= t.0;
                at <= 0.0
            });
            chosen.push(drawn.unwrap_or(&top[top.len() - 1]).1);
        } else {
            let all = std::mem::take(&mut chosen);
            chosen = all
                .iter()
                .copied()
                .filter(|_| rng.gen_bool(KEEP_ABOVE_HALF))
                .collect();
            if chosen.is_empty() {
                chosen.push(all[rng.gen_range(0..all.len())]);
            }
        }
    }
    if chosen.is_empty() {
        chosen.push(first);
    }
    for c in chosen {
        let members = &master.columns[c].members;
        for &m in members {
            fixed_records[m as usize] = true;
        }
        fixed.insert(members.clone());
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Criterion;
    use rand::SeedableRng;

    /// A master over `classes` of the records `0..n` (every pair 10 apart), with artificial
    /// columns, and its LP solution.
    fn master_over(n: usize, classes: &[&[u32]]) -> (Master, LpSolution) {
        let dist = (0..n)
            .map(|i| (0..n).map(|j| if i == j { 0 } else { 10 }).collect())
            .collect();
        let inst = Instance::new(1.0, vec![2; n], dist).expect("valid");
        let mut master = Master::new(n);
        for members in classes {
            master.add_column(Column::new(&inst, Criterion::Dbil, members.to_vec()));
        }
        master.add_artificials(1e6);
        let sol = master.solve(None).expect("solved");
        (master, sol)
    }

    /// The columns `fix` fixes in `sol` (by index), with the draw of `seed` or none.
    fn fixed_by(master: &Master, sol: &LpSolution, seed: Option<u64>) -> Vec<usize> {
        let mut fixed = HashSet::new();
        let n = master
            .columns
            .iter()
            .flat_map(|c| &c.members)
            .max()
            .map_or(0, |&m| m as usize + 1);
        let mut fixed_records = vec![false; n];
        let mut rng = seed.map(ChaCha8Rng::seed_from_u64);
        assert!(fix(
            master,
            sol,
            &HashSet::new(),
            &mut fixed,
            &mut fixed_records,
            rng.as_mut(),
        ));
        let mut chosen: Vec<usize> = (0..master.columns.len())
            .filter(|&c| fixed.contains(&master.columns[c].members))
            .collect();
        chosen.sort_unstable();
        // Fixed classes are disjoint, and their records are the fixed ones.
        let records: usize = chosen
            .iter()
            .map(|&c| master.columns[c].members.len())
            .sum();
        assert_eq!(records, fixed_records.iter().filter(|f| **f).count());
        chosen
    }

    /// Without a draw the dive fixes every column above ½; with one, each of them with
    /// probability 0.7, never none, and never a column at 0.
    #[test]
    fn a_drawn_fix_keeps_some_of_the_columns_above_a_half() {
        let (master, sol) = master_over(4, &[&[0, 1], &[2, 3], &[0, 1, 2, 3]]);
        assert_eq!(fixed_by(&master, &sol, None), vec![0, 1]);
        let mut sizes = [0; 3];
        for seed in 0..40 {
            let chosen = fixed_by(&master, &sol, Some(seed));
            assert!(chosen.iter().all(|&c| c < 2), "seed {seed}: {chosen:?}");
            sizes[chosen.len()] += 1;
        }
        assert_eq!(sizes[0], 0);
        assert!(sizes[1] > 0 && sizes[2] > 0, "{sizes:?}");
    }

    /// When no column reaches ½ (three records covered by their three pairs at ½ each), a
    /// drawn fix takes one of them, and different draws take different ones; without a draw,
    /// always the same.
    #[test]
    fn a_drawn_fix_varies_among_the_largest_columns() {
        let (master, sol) = master_over(3, &[&[0, 1], &[1, 2], &[0, 2]]);
        assert!(sol.x.iter().all(|&v| (v - 0.5).abs() < 1e-9), "{:?}", sol.x);
        let first = fixed_by(&master, &sol, None);
        assert_eq!(first.len(), 1);
        assert_eq!(fixed_by(&master, &sol, None), first);
        let mut drawn = HashSet::new();
        for seed in 0..40 {
            let chosen = fixed_by(&master, &sol, Some(seed));
            assert_eq!(chosen.len(), 1, "seed {seed}");
            drawn.insert(chosen[0]);
        }
        assert_eq!(drawn.len(), 3, "{drawn:?}");
    }
}
