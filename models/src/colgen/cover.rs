//! The enumeration proof's stages without a MIP: a depth-first search for the cheapest exact
//! cover by the enumerated columns. Every partition P costs at least z + Σ_{C∈P} rc_C at the
//! root LP's duals (z their value; the odd-set cuts' duals only add), so a partition better
//! than the incumbent uses columns whose reduced costs add up to at most the gap. Branching on
//! the uncovered record with the fewest columns within the gap left, over its columns in order
//! of reduced cost, and cutting a branch once its reduced costs pass the gap, a record has no
//! column left that fits, or the records' floors (each one's least reduced cost per member of a
//! column that fits) add up to more than the gap left, the search sees every such partition
//! among the columns. At large k and on small tables it settles stages where HiGHS's MIP spends
//! its whole time at the root node (Adult, 50 records, k = 10: 12,111 columns, 51 s, no node;
//! see docs/exact.md, "The frontier at a glance"); it has a time limit and otherwise leaves the
//! stage to the MIP.

use super::column::Column;
use std::time::Instant;

/// The most classes a partition may have (`Instance::max_classes`) for the search to run: its
/// depth. Measured in session 42 (docs/exact.md, "A cover search before each proof MIP").
pub(super) const MAX_CLASSES: usize = 10;

/// The longest a search may take (also without a time limit).
pub(super) const MAX_SECONDS: f64 = 30.0;

/// How far the records' floors may pass the allowance before a branch is cut (they add up
/// the same reduced costs in another order).
const FLOOR_TOLERANCE: f64 = 1e-9;

/// How many calls of the search between two looks at the clock and the stop request.
const CLOCK_EVERY: u64 = 1 << 8;

/// What a search found.
#[derive(Debug)]
pub(super) struct Cover {
    /// The search saw every partition within the budget (else its time ran out or a stop was
    /// requested).
    pub complete: bool,
    /// The cheapest partition it found below `ub`: the indices of its columns and its cost.
    pub best: Option<(Vec<usize>, i64)>,
    /// Nodes searched (calls of the search, those cut at once included).
    pub nodes: u64,
}

/// The cheapest partition of `n` records by `columns` (reduced cost, column) that costs at most
/// `ub` − 1 and whose reduced costs add up to at most `min(reach, cost bound − 1 − z + slack)`,
/// where the cost bound is `ub` or the cheapest partition found so far; searched until
/// `deadline` or a stop request ([`crate::stop::requested`]).
pub(super) fn cheapest_cover(
    n: usize,
    columns: &[(f64, Column)],
    reach: f64,
    z: f64,
    slack: f64,
    ub: i64,
    deadline: Option<Instant>,
) -> Cover {
    let mut by_record: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut order: Vec<usize> = (0..columns.len()).collect();
    order.sort_by(|&a, &b| columns[a].0.total_cmp(&columns[b].0));
    for &c in &order {
        for &m in &columns[c].1.members {
            by_record[m as usize].push(c as u32);
        }
    }
    // Ties go to the record with the fewest columns overall.
    let mut records: Vec<usize> = (0..n).collect();
    records.sort_by_key(|&i| by_record[i].len());
    let share = |c: u32| columns[c as usize].0 / columns[c as usize].1.members.len() as f64;
    let by_share: Vec<Vec<u32>> = by_record
        .iter()
        .map(|list| {
            let mut list = list.clone();
            list.sort_by(|&a, &b| share(a).total_cmp(&share(b)));
            list
        })
        .collect();
    let mut search = Search {
        columns,
        records,
        by_record,
        by_share,
        floors: Vec::new(),
        covered: vec![false; n],
        chosen: Vec::new(),
        best: None,
        ub,
        reach,
        z,
        slack,
        deadline,
        nodes: 0,
        stopped: false,
    };
    search.dfs(0.0, 0);
    Cover {
        complete: !search.stopped,
        best: search.best,
        nodes: search.nodes,
    }
}

struct Search<'a> {
    columns: &'a [(f64, Column)],
    /// The records, fewest columns first: the order ties are broken in.
    records: Vec<usize>,
    /// The columns of every record, by reduced cost.
    by_record: Vec<Vec<u32>>,
    /// The columns of every record, by reduced cost per member.
    by_share: Vec<Vec<u32>>,
    /// At every depth, each uncovered record's floor: the least reduced cost per member of a
    /// column that fits and is within the allowance.
    floors: Vec<Vec<f64>>,
    covered: Vec<bool>,
    chosen: Vec<usize>,
    best: Option<(Vec<usize>, i64)>,
    /// The cost to beat.
    ub: i64,
    reach: f64,
    z: f64,
    slack: f64,
    deadline: Option<Instant>,
    nodes: u64,
    stopped: bool,
}

impl Search<'_> {
    /// Whether `column` misses every covered record.
    fn fits(&self, column: &Column) -> bool {
        column.members.iter().all(|&m| !self.covered[m as usize])
    }

    /// Branches on the uncovered record with the fewest columns within the allowance (the first
    /// in `records` on a tie), over those that fit; cut where an uncovered record has no fitting
    /// column within it, or where the records' floors add up to more than the allowance: a
    /// partition's reduced costs are the sum over its records of their columns' reduced cost
    /// per member, at least each record's floor.
    fn dfs(&mut self, spent: f64, cost: i64) {
        // Every call looks at every uncovered record: the clock and the stop request are read
        // every few calls.
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 1 && crate::stop::past(self.deadline) {
            self.stopped = true;
        }
        if self.stopped {
            return;
        }
        // Every depth keeps its records' floors for its branches.
        let depth = self.chosen.len();
        if self.floors.len() <= depth {
            self.floors.push(vec![0.0; self.covered.len()]);
        }
        let mut floors = std::mem::take(&mut self.floors[depth]);
        self.branch(spent, cost, &mut floors);
        self.floors[depth] = floors;
    }

    /// The search's node below `dfs`'s checks, with `floors` to fill for its uncovered records.
    fn branch(&mut self, spent: f64, cost: i64, floors: &mut [f64]) {
        let allowance = self.allowance(spent);
        let mut floor_sum = 0.0;
        let mut pick: Option<(usize, usize)> = None;
        for &j in &self.records {
            if self.covered[j] {
                continue;
            }
            let Some(floor) = self.floor(j, allowance) else {
                return;
            };
            floors[j] = floor;
            floor_sum += floor;
            let list = &self.by_record[j];
            let within = list.partition_point(|&c| self.columns[c as usize].0 <= allowance);
            if pick.is_none_or(|(n, _)| within < n) {
                pick = Some((within, j));
            }
        }
        let Some((_, i)) = pick else {
            if cost < self.ub {
                self.ub = cost;
                self.best = Some((self.chosen.clone(), cost));
            }
            return;
        };
        if floor_sum > allowance + FLOOR_TOLERANCE {
            return;
        }
        for k in 0..self.by_record[i].len() {
            let c = self.by_record[i][k] as usize;
            let (rc, column) = &self.columns[c];
            let allowance = self.allowance(spent);
            if *rc > allowance {
                break;
            }
            // The records the column leaves still need their floors at least.
            let freed: f64 = column.members.iter().map(|&m| floors[m as usize]).sum();
            if rc + floor_sum - freed > allowance + FLOOR_TOLERANCE || !self.fits(column) {
                continue;
            }
            for &m in &column.members {
                self.covered[m as usize] = true;
            }
            self.chosen.push(c);
            self.dfs(spent + rc, cost + column.cost);
            self.chosen.pop();
            for &m in &column.members {
                self.covered[m as usize] = false;
            }
            if self.stopped {
                return;
            }
        }
    }

    /// The least reduced cost per member of a column of record `j` that fits and whose
    /// reduced cost is within `allowance`; `None` if it has none.
    fn floor(&self, j: usize, allowance: f64) -> Option<f64> {
        self.by_share[j].iter().find_map(|&c| {
            let (rc, column) = &self.columns[c as usize];
            (*rc <= allowance && self.fits(column)).then(|| rc / column.members.len() as f64)
        })
    }

    /// The reduced costs a partition may still add after `spent`.
    fn allowance(&self, spent: f64) -> f64 {
        self.reach.min(self.ub as f64 - 1.0 - self.z + self.slack) - spent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column of 2 to 4 of `n` records (two in three of them) with a pseudo-random cost,
    /// and duals with every reduced cost ≥ 0 as at a converged LP (no cuts, so a partition
    /// costs z + Σ rc).
    fn instance(n: usize, seed: u64) -> (Vec<(f64, Column)>, f64) {
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = move |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let mut columns: Vec<Column> = Vec::new();
        for mask in 1u32..(1 << n) {
            let size = mask.count_ones();
            if !(2..=4).contains(&size) || next(3) == 0 {
                continue;
            }
            let members: Vec<u32> = (0..n as u32).filter(|&i| mask >> i & 1 == 1).collect();
            let cost = (size as i64) * (5 + next(20) as i64);
            columns.push(Column { members, cost });
        }
        let mut duals = vec![f64::INFINITY; n];
        for c in &columns {
            for &m in &c.members {
                let share = c.cost as f64 / c.members.len() as f64;
                duals[m as usize] = duals[m as usize].min(share);
            }
        }
        for d in &mut duals {
            *d = if d.is_finite() {
                *d - next(8) as f64 / 4.0
            } else {
                0.0
            };
        }
        let z: f64 = duals.iter().sum();
        let priced = columns
            .into_iter()
            .map(|c| {
                let rc = c.cost as f64 - c.members.iter().map(|&i| duals[i as usize]).sum::<f64>();
                (rc, c)
            })
            .collect();
        (priced, z)
    }

    /// The cheapest exact cover by brute force over the uncovered records' bitmasks.
    fn brute(n: usize, columns: &[(f64, Column)]) -> Option<i64> {
        let full = (1usize << n) - 1;
        let mut best = vec![None::<i64>; 1 << n];
        best[full] = Some(0);
        for covered in (0..full).rev() {
            let i = (0..n).find(|&i| covered >> i & 1 == 0).unwrap();
            best[covered] = columns
                .iter()
                .filter_map(|(_, c)| {
                    let mask: usize = c.members.iter().map(|&m| 1usize << m).sum();
                    let fits = mask >> i & 1 == 1 && mask & covered == 0;
                    fits.then(|| best[covered | mask].map(|b| b + c.cost))
                        .flatten()
                })
                .min();
        }
        best[0]
    }

    #[test]
    fn it_finds_the_cheapest_partition_that_brute_force_finds() {
        for seed in 0..40 {
            let n = 6 + (seed as usize % 5);
            let (columns, z) = instance(n, seed);
            let cover = cheapest_cover(n, &columns, f64::INFINITY, z, 1e-6, i64::MAX / 4, None);
            assert!(cover.complete);
            assert_eq!(
                cover.best.as_ref().map(|b| b.1),
                brute(n, &columns),
                "seed {seed}"
            );
            if let Some((sel, cost)) = &cover.best {
                let mut seen = vec![false; n];
                for &c in sel {
                    for &m in &columns[c].1.members {
                        assert!(
                            !std::mem::replace(&mut seen[m as usize], true),
                            "covered twice"
                        );
                    }
                }
                assert!(seen.iter().all(|&s| s), "a record left out");
                assert_eq!(*cost, sel.iter().map(|&c| columns[c].1.cost).sum::<i64>());
            }
        }
    }

    #[test]
    fn it_finds_nothing_at_or_above_the_incumbent_and_nothing_beyond_its_reach() {
        for seed in 0..20 {
            let n = 8;
            let (columns, z) = instance(n, seed);
            let Some(optimum) = brute(n, &columns) else {
                continue;
            };
            // The optimum as the incumbent: nothing better exists.
            let cover = cheapest_cover(n, &columns, f64::INFINITY, z, 1e-6, optimum, None);
            assert!(cover.complete && cover.best.is_none(), "seed {seed}");
            // One unit above it: the optimum itself.
            let cover = cheapest_cover(n, &columns, f64::INFINITY, z, 1e-6, optimum + 1, None);
            assert_eq!(cover.best.map(|b| b.1), Some(optimum), "seed {seed}");
            // A reach below the optimum's reduced costs (optimum − z): not found.
            let reach = optimum as f64 - z - 0.5;
            let cover = cheapest_cover(n, &columns, reach, z, 1e-6, i64::MAX / 4, None);
            assert!(cover.best.is_none(), "seed {seed}");
        }
    }

    #[test]
    fn the_floors_cut_where_the_reduced_costs_alone_do_not() {
        // Every record has a column within the reach 1.5, but covering all four costs at least
        // 4 × 0.5 (the pairs' reduced cost per member): the root is cut. Without the floors the
        // search would try the pair {0, 1} before finding {2, 3} out of reach.
        let column = |members: Vec<u32>, rc: f64| (rc, Column { members, cost: 10 });
        let columns = vec![
            column(vec![0, 1], 1.0),
            column(vec![2, 3], 1.0),
            column(vec![0, 1, 2, 3], 3.0),
        ];
        let cover = cheapest_cover(4, &columns, 1.5, 0.0, 0.0, i64::MAX / 4, None);
        assert!(cover.complete && cover.best.is_none());
        assert_eq!(cover.nodes, 1);
        // Within a reach of 2 the pairs are the cheapest partition.
        let cover = cheapest_cover(4, &columns, 2.0, 0.0, 0.0, i64::MAX / 4, None);
        assert_eq!(cover.best.map(|b| b.1), Some(20));
    }

    #[test]
    fn a_search_asked_to_stop_is_not_complete() {
        let (columns, z) = instance(10, 3);
        let token = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let cover = crate::stop::with_token(Some(token), || {
            cheapest_cover(10, &columns, f64::INFINITY, z, 1e-6, i64::MAX / 4, None)
        });
        assert!(!cover.complete);
        let cover = cheapest_cover(10, &columns, f64::INFINITY, z, 1e-6, i64::MAX / 4, None);
        assert!(cover.complete, "without the request");
    }

    #[test]
    fn a_search_past_its_deadline_is_not_complete() {
        let (columns, z) = instance(10, 3);
        let past = Instant::now() - std::time::Duration::from_millis(1);
        let cover = cheapest_cover(
            10,
            &columns,
            f64::INFINITY,
            z,
            1e-6,
            i64::MAX / 4,
            Some(past),
        );
        assert!(!cover.complete);
    }
}
