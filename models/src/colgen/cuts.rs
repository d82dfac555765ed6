//! Separation of odd-set cuts ([`crate::root_lp::OddSet`]): in an integer partition the classes
//! holding two or more records of an odd set S hold disjoint parts of it, so
//! Σ_C ⌊|C∩S|/2⌋ x_C ≤ (|S| − 1)/2. Fractional master solutions often violate it. Triples (the
//! subset-row cuts) are separated exactly; larger sets are grown greedily from the triples, two
//! records at a time. On Tarragona, k = 3, the triples take the root LP from 1,500.6 to 1,565.7
//! SSE and then find nothing, while 125 larger sets (5 to 17 records) are still violated by up
//! to ½ (docs/microaggregation.md, "Odd-set cuts").

use super::column::Column;
use crate::root_lp::{cut_rhs, OddSet};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};

/// How a separation grows larger odd sets from the triples.
#[derive(Clone, Copy, Debug)]
pub struct Growth {
    /// Largest set (3 = triples only).
    pub max_set: usize,
    /// Pair evaluations the growth may make ([`growth_budget`]).
    pub budget: u64,
    /// When the growth stops (the run's deadline).
    pub deadline: Option<Instant>,
    /// Grow only when no triple is violated (else grow beside the violated triples).
    pub after_triples: bool,
}

impl Growth {
    /// Larger sets only when no triple is violated.
    pub fn after_triples(max_set: usize, budget: u64, deadline: Option<Instant>) -> Self {
        Growth {
            max_set,
            budget,
            deadline,
            after_triples: true,
        }
    }
}

/// Violated odd sets in the LP solution `x` over `columns`, most violated first (ties by set),
/// at most `limit`, excluding the sets in `existing`: the violated triples and, per `growth`,
/// the larger sets grown from them. Only fractional columns count: a record in a column at 1
/// lies in no other.
pub fn separate(
    columns: &[Column],
    x: &[f64],
    existing: &HashSet<OddSet>,
    min_violation: f64,
    limit: usize,
    growth: &Growth,
) -> Vec<(OddSet, f64)> {
    let support = Support::new(columns, x);
    let mut seeds: Vec<(f64, OddSet)> = support
        .triples()
        .into_iter()
        .map(|t| (support.violation(&t), t))
        .collect();
    // The most violated triples first: they are the cuts, and the growth's budget goes to
    // the most promising seeds.
    seeds.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut found: HashMap<OddSet, f64> = seeds
        .iter()
        .filter(|(v, t)| *v > min_violation && !existing.contains(t))
        .map(|(v, t)| (t.clone(), *v))
        .collect();
    // Larger sets once no triple is violated (`after_triples`): their growth costs seconds a
    // round and their rows are denser, and while triples still cut, the larger sets bought
    // nothing at k = 5 in 60-second runs on 1,000 records (dbil gap 1.65% → 3.07% on Census
    // with them grown every round; docs/exact.md, "Odd-set cuts at k = 5"). On Tarragona,
    // k = 3, the triples run dry at 1,565.7 SSE and the larger sets take over.
    if (found.is_empty() || !growth.after_triples) && growth.max_set > 3 {
        let mut budget = growth.budget;
        for (_, t) in &seeds {
            if budget == 0 || growth.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            if let Some((s, v)) = support.grow(t, growth.max_set, &mut budget) {
                if v > min_violation && !existing.contains(&s) {
                    found.insert(s, v);
                }
            }
        }
    }
    let mut out: Vec<(OddSet, f64)> = found.into_iter().collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out.truncate(limit);
    out
}

/// Pairs of records one separation's growth may evaluate under a time limit: about 1% of the
/// limit at the growth's pace (`GROWTH_PAIRS_PER_SECOND`), at most [`GROWTH_BUDGET`]. On the
/// 442 diabetes records at k = 5 (dbil, 60 s) a growth of the whole budget took 2.4 s and
/// raised the LP by 0.04%, while the gap there is the incumbent's (docs/exact.md, "Odd-set cuts
/// at k = 5"). A count, not a clock, so that runs stay deterministic.
pub fn growth_budget(time_limit: Option<Duration>) -> u64 {
    time_limit.map_or(GROWTH_BUDGET, |l| {
        ((GROWTH_PAIRS_PER_SECOND * 0.01 * l.as_secs_f64()) as u64).min(GROWTH_BUDGET)
    })
}

/// Pair evaluations per second of the growth, measured on the diabetes table above.
const GROWTH_PAIRS_PER_SECOND: f64 = 2e6;

/// Pairs of records the growth may evaluate in one separation: bounds its time where classes
/// are large (k = 10: a hundred candidate records around a set); on Tarragona, k = 3, every
/// seed grows within a tenth of it.
const GROWTH_BUDGET: u64 = 5_000_000;

/// The fractional columns of an LP solution, by record.
struct Support<'a> {
    columns: &'a [Column],
    /// (column index, value) of every column strictly between 0 and 1.
    frac: Vec<(usize, f64)>,
    /// Indices into `frac` of the columns holding each record.
    by_record: HashMap<u32, Vec<usize>>,
}

impl<'a> Support<'a> {
    fn new(columns: &'a [Column], x: &[f64]) -> Self {
        const EPS: f64 = 1e-6;
        let frac: Vec<(usize, f64)> = x
            .iter()
            .enumerate()
            .filter(|(_, &v)| v > EPS && v < 1.0 - EPS)
            .map(|(c, &v)| (c, v))
            .collect();
        let mut by_record: HashMap<u32, Vec<usize>> = HashMap::new();
        for (f, &(c, _)) in frac.iter().enumerate() {
            for &r in &columns[c].members {
                by_record.entry(r).or_default().push(f);
            }
        }
        Support {
            columns,
            frac,
            by_record,
        }
    }

    /// Every triple {a, b, c} with b and c in two different fractional columns holding a: the
    /// only triples a subset-row cut can be violated on (its left-hand side needs two columns
    /// holding two of its records each, and they share one). Sorted, each sorted.
    fn triples(&self) -> Vec<OddSet> {
        let mut out: BTreeSet<[u32; 3]> = BTreeSet::new();
        for (&a, cols) in &self.by_record {
            for (p, &f1) in cols.iter().enumerate() {
                for &f2 in &cols[p + 1..] {
                    for &b in &self.columns[self.frac[f1].0].members {
                        if b == a {
                            continue;
                        }
                        for &c in &self.columns[self.frac[f2].0].members {
                            if c != a && c != b {
                                let mut t = [a, b, c];
                                t.sort_unstable();
                                out.insert(t);
                            }
                        }
                    }
                }
            }
        }
        out.into_iter().map(|t| t.to_vec()).collect()
    }

    /// Σ_C ⌊|C∩S|/2⌋ x_C − (|S| − 1)/2 over the fractional columns.
    fn violation(&self, set: &[u32]) -> f64 {
        let mut touched: Vec<usize> = set
            .iter()
            .filter_map(|r| self.by_record.get(r))
            .flatten()
            .copied()
            .collect();
        touched.sort_unstable();
        let mut lhs = 0.0;
        for run in touched.chunk_by(|a, b| a == b) {
            lhs += (run.len() / 2) as f64 * self.frac[run[0]].1;
        }
        lhs - cut_rhs(set) as f64
    }

    /// Grows the odd set `seed` two records at a time (the pair, among the records of the
    /// fractional columns it touches, that leaves the set most violated), up to `max_set`
    /// records or until the violation falls ½ below the best seen, each pair evaluated
    /// counting against `budget`; returns the most violated set of more than three records
    /// met, sorted, with its violation.
    fn grow(&self, seed: &[u32], max_set: usize, budget: &mut u64) -> Option<(OddSet, f64)> {
        let mut set = seed.to_vec();
        // |C ∩ set| of every fractional column C touching the set.
        let mut hits: HashMap<usize, usize> = HashMap::new();
        for r in &set {
            for &f in self.of(*r) {
                *hits.entry(f).or_default() += 1;
            }
        }
        let mut v = self.violation(&set);
        let mut best: Option<(OddSet, f64)> = None;
        let mut best_v = v;
        while set.len() + 2 <= max_set && *budget > 0 {
            let mut touched: Vec<usize> = hits.keys().copied().collect();
            touched.sort_unstable();
            let mut cand: Vec<u32> = touched
                .iter()
                .flat_map(|&f| self.columns[self.frac[f].0].members.iter().copied())
                .filter(|r| !set.contains(r))
                .collect();
            cand.sort_unstable();
            cand.dedup();
            let mut pick: Option<(f64, u32, u32)> = None;
            for (i, &u) in cand.iter().enumerate() {
                for &w in &cand[i + 1..] {
                    // lhs gain: Σ x_C (⌊(h_C + new members of C)/2⌋ − ⌊h_C/2⌋)
                    let mut gain = 0.0;
                    for &f in self.of(u) {
                        let h = hits.get(&f).copied().unwrap_or(0);
                        let add = 1 + self.of(w).contains(&f) as usize;
                        gain += ((h + add) / 2 - h / 2) as f64 * self.frac[f].1;
                    }
                    for &f in self.of(w) {
                        if !self.of(u).contains(&f) {
                            let h = hits.get(&f).copied().unwrap_or(0);
                            gain += (h % 2) as f64 * self.frac[f].1;
                        }
                    }
                    if pick.is_none_or(|p| gain > p.0 + 1e-12) {
                        pick = Some((gain, u, w));
                    }
                }
            }
            *budget = budget.saturating_sub((cand.len() * cand.len() / 2) as u64);
            let Some((gain, u, w)) = pick else { break };
            set.extend([u, w]);
            for r in [u, w] {
                for &f in self.of(r) {
                    *hits.entry(f).or_default() += 1;
                }
            }
            v += gain - 1.0;
            if v > best_v + 1e-9 {
                best_v = v;
                let mut s = set.clone();
                s.sort_unstable();
                best = Some((s, v));
            } else if v < best_v - 0.5 {
                break;
            }
        }
        best
    }

    /// Indices into `frac` of the fractional columns holding `r`.
    fn of(&self, r: u32) -> &[usize] {
        self.by_record.get(&r).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(members: &[u32]) -> Column {
        let mut members = members.to_vec();
        members.sort_unstable();
        Column { members, cost: 1 }
    }

    /// `separate` with every column at ½, violations above 0.01, at most 10 sets, the full
    /// growth budget, larger sets after the triples.
    fn at_half(
        columns: &[Column],
        existing: &HashSet<OddSet>,
        max_set: usize,
    ) -> Vec<(OddSet, f64)> {
        let x = vec![0.5; columns.len()];
        let growth = Growth::after_triples(max_set, GROWTH_BUDGET, None);
        separate(columns, &x, existing, 0.01, 10, &growth)
    }

    /// The pairs of consecutive records of `ring`, closing it.
    fn cycle(ring: &[u32]) -> Vec<Column> {
        (0..ring.len())
            .map(|i| col(&[ring[i], ring[(i + 1) % ring.len()]]))
            .collect()
    }

    /// Three pairs of a triangle at ½: the subset-row cut on the triple is violated by ½.
    #[test]
    fn finds_the_violated_triple_of_a_half_triangle() {
        let columns = [col(&[0, 1]), col(&[1, 2]), col(&[0, 2])];
        let out = at_half(&columns, &HashSet::new(), 3);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, vec![0, 1, 2]);
        assert!((out[0].1 - 0.5).abs() < 1e-9);
        // Already in the master: nothing new.
        let existing: HashSet<OddSet> = [vec![0, 1, 2]].into_iter().collect();
        assert!(at_half(&columns, &existing, 3).is_empty());
    }

    /// A five-cycle of pairs at ½ violates no triple (two of its pairs at most hold two
    /// records of a triple: 1 unit), but its five records carry 2½ units of pairs against a
    /// bound of 2: the growth finds the five-set, and only when sets of five are allowed.
    #[test]
    fn grows_a_violated_five_set_that_no_triple_shows() {
        let columns = cycle(&[0, 1, 2, 3, 4]);
        assert!(at_half(&columns, &HashSet::new(), 3).is_empty());
        let out = at_half(&columns, &HashSet::new(), 5);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, vec![0, 1, 2, 3, 4]);
        assert!((out[0].1 - 0.5).abs() < 1e-9);
    }

    /// The growth's budget follows the time limit (1% of it at the growth's pace), up to the
    /// fixed budget; without budget only triples come back.
    #[test]
    fn the_growth_budget_follows_the_time_limit() {
        use std::time::Duration;
        assert_eq!(growth_budget(None), GROWTH_BUDGET);
        assert_eq!(growth_budget(Some(Duration::from_secs(600))), GROWTH_BUDGET);
        assert_eq!(growth_budget(Some(Duration::from_secs(60))), 1_200_000);
        let columns = cycle(&[0, 1, 2, 3, 4]);
        let x = [0.5; 5];
        let none = HashSet::new();
        assert!(separate(
            &columns,
            &x,
            &none,
            0.01,
            10,
            &Growth::after_triples(5, 0, None)
        )
        .is_empty());
        assert_eq!(
            separate(
                &columns,
                &x,
                &none,
                0.01,
                10,
                &Growth::after_triples(5, 1_000, None)
            )
            .len(),
            1
        );
    }

    /// While a triple is violated, no larger set is grown: the five-cycle beside a violated
    /// triangle shows only once the triangle is cut, or when the growth runs beside triples.
    #[test]
    fn grows_larger_sets_only_once_no_triple_is_violated() {
        let columns = [cycle(&[0, 1, 2]), cycle(&[3, 4, 5, 6, 7])].concat();
        let x = [0.5; 8];
        let out = at_half(&columns, &HashSet::new(), 5);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, vec![0, 1, 2]);
        let existing: HashSet<OddSet> = [vec![0, 1, 2]].into_iter().collect();
        let out = at_half(&columns, &existing, 5);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, vec![3, 4, 5, 6, 7]);
        let beside = Growth {
            after_triples: false,
            ..Growth::after_triples(5, GROWTH_BUDGET, None)
        };
        let out = separate(&columns, &x, &HashSet::new(), 0.01, 10, &beside);
        let sets: Vec<&OddSet> = out.iter().map(|(s, _)| s).collect();
        assert_eq!(sets, [&vec![0, 1, 2], &vec![3, 4, 5, 6, 7]]);
    }

    /// Every set returned is odd, within the size limit, and violated by the amount reported,
    /// recomputed here over all the columns (integral ones included).
    #[test]
    fn reported_violations_hold_over_every_column() {
        let columns = [
            col(&[0, 1, 2]),
            col(&[2, 3, 4]),
            col(&[4, 5, 0]),
            col(&[1, 3, 5]),
            col(&[0, 3, 6]),
            col(&[6, 7, 8]),
            col(&[1, 4, 7]),
            col(&[9, 10, 11]),
        ];
        let x = [0.5, 0.5, 0.5, 0.5, 0.25, 0.5, 0.25, 1.0];
        for max_set in [3, 5, 7, 9] {
            for (s, v) in separate(
                &columns,
                &x,
                &HashSet::new(),
                1e-6,
                100,
                &Growth::after_triples(max_set, GROWTH_BUDGET, None),
            ) {
                assert!(s.len() % 2 == 1 && s.len() <= max_set, "{s:?}");
                assert!(s.windows(2).all(|w| w[0] < w[1]));
                let lhs: f64 = columns
                    .iter()
                    .zip(&x)
                    .map(|(c, &xv)| crate::root_lp::cut_coefficient(&s, &c.members) as f64 * xv)
                    .sum();
                assert!((lhs - cut_rhs(&s) as f64 - v).abs() < 1e-9, "{s:?}");
                assert!(v > 0.0);
            }
        }
    }
}
