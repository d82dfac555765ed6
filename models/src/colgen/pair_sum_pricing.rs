//! Heuristic pricing for wcsd: columns found by growing a class from every record and improving
//! it by single-record moves. wcsd's exact pricing search grows with the class size and the
//! number of records (Adult, 1,000 records, k = 5: 1–3 s a round, each adding 5–400 columns,
//! and the master LP was still 25 rounds from converging at 60 s); this search prices every
//! record's neighbourhood in a fraction of that, and the exact search then only has to certify
//! (and bound) what is left, as with sse's centroid descent.
//!
//! The reduced cost of a class S is P(S) − Σ_{i∈S} π_i with P the pair sum. With
//! t_j = Σ_{i∈S} d(i, j) kept for every record, adding j changes it by t_j − π_j, dropping
//! m ∈ S by −(t_m − π_m), and swapping m for j by t_j − d(m, j) − π_j − (t_m − π_m): each move
//! is priced in O(1), a pass over all of them in O(|S|·n).

use super::column::{valid_unsplittable, Column};
use crate::root_lp::Duals;
use crate::{Criterion, Instance};

/// Improvement passes per start (the search usually settles in a few).
const MAX_PASSES: usize = 16;

/// Columns of negative reduced cost at `duals` found from every record, at most `limit`,
/// sorted by (reduced cost, members), distinct. Classes hold `kmin..=max_size` records and
/// are valid and unsplittable; cut penalties are counted in the reduced cost, not in the
/// search. Deterministic when `deadline` does not pass; past it, no further start is grown.
pub(super) fn columns(
    inst: &Instance,
    duals: &Duals,
    max_size: usize,
    limit: usize,
    deadline: Option<std::time::Instant>,
) -> Vec<(f64, Column)> {
    let max_size = max_size.min(inst.n);
    super::cheap_pricing::from_every_record(inst, Criterion::Wcsd, duals, limit, deadline, |r| {
        grow(inst, &duals.pi, r, max_size)
    })
}

/// A class holding `r`, grown from it among its nearest records: records added greedily
/// (least t_j − π_j) up to `max_size`, the valid prefix of least reduced cost kept and improved
/// by the best valid add, drop or swap (never of `r`) until none gains. Keeping `r` and its
/// neighbourhood makes every start price a different part of the table: free starts all ran
/// to the few records of the largest duals (Adult, 1,000 records, k = 5: one or two new
/// columns a round). `None` when no prefix is valid.
fn grow(inst: &Instance, pi: &[f64], r: usize, max_size: usize) -> Option<Vec<u32>> {
    let near = nearest(
        inst,
        r,
        (NEIGHBOURS_PER_SLOT * max_size).max(MIN_NEIGHBOURS),
    );
    // Candidates: r first, then its neighbours; t over them only.
    let cand: Vec<usize> = std::iter::once(r).chain(near).collect();
    let mut t: Vec<i64> = cand.iter().map(|&j| inst.d(r, j)).collect();
    let mut member = vec![false; cand.len()];
    member[0] = true;
    let mut set = vec![0usize];
    let mut value = -pi[r];
    let ids = |set: &[usize]| -> Vec<u32> { set.iter().map(|&c| cand[c] as u32).collect() };
    let mut best: Option<(f64, usize)> = valid(inst, &ids(&set)).then_some((value, 1));
    while set.len() < max_size {
        let Some(c) = (0..cand.len())
            .filter(|&c| !member[c])
            .min_by(|&a, &b| gain(&t, pi, &cand, a).total_cmp(&gain(&t, pi, &cand, b)))
        else {
            break;
        };
        value += gain(&t, pi, &cand, c);
        member[c] = true;
        set.push(c);
        add_row(inst, &cand, &mut t, cand[c], 1);
        if valid(inst, &ids(&set)) && best.is_none_or(|(v, _)| value < v - 1e-9) {
            best = Some((value, set.len()));
        }
    }
    let (_, len) = best?;
    // Back to the best prefix.
    for &c in &set[len..] {
        member[c] = false;
        add_row(inst, &cand, &mut t, cand[c], -1);
    }
    set.truncate(len);
    for _ in 0..MAX_PASSES {
        if !improve(inst, pi, &cand, &mut set, &mut member, &mut t, max_size) {
            break;
        }
    }
    let mut out = ids(&set);
    out.sort_unstable();
    Some(out)
}

/// Candidates per class slot: a start looks at this many times `max_size` nearest records.
const NEIGHBOURS_PER_SLOT: usize = 4;

/// A start looks at no fewer nearest records than this.
const MIN_NEIGHBOURS: usize = 24;

/// The `count` records nearest to `r` (ties by index), `r` excluded.
fn nearest(inst: &Instance, r: usize, count: usize) -> Vec<usize> {
    let mut others: Vec<usize> = (0..inst.n).filter(|&j| j != r).collect();
    let by = |a: &usize, b: &usize| inst.d(r, *a).cmp(&inst.d(r, *b)).then(a.cmp(b));
    if count < others.len() {
        others.select_nth_unstable_by(count, by);
        others.truncate(count);
    }
    others
}

/// t_c − π of candidate `c`: what adding it to the class changes.
fn gain(t: &[i64], pi: &[f64], cand: &[usize], c: usize) -> f64 {
    t[c] as f64 - pi[cand[c]]
}

/// Applies the valid move of least negative change (a swap, add or drop; candidate 0, the
/// start, stays), if any; true when one was applied.
fn improve(
    inst: &Instance,
    pi: &[f64],
    cand: &[usize],
    set: &mut Vec<usize>,
    member: &mut [bool],
    t: &mut [i64],
    max_size: usize,
) -> bool {
    let free = || (0..cand.len()).filter(|&c| !member[c]);
    // Candidate moves as (change, out position, in candidate).
    let mut moves: Vec<(f64, Option<usize>, Option<usize>)> = Vec::new();
    for (pos, &m) in set.iter().enumerate().filter(|&(_, &m)| m != 0) {
        let out = gain(t, pi, cand, m);
        let best_in = free()
            .map(|c| (gain(t, pi, cand, c) - inst.d(cand[m], cand[c]) as f64, c))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((g, c)) = best_in {
            if g - out < -1e-9 {
                moves.push((g - out, Some(pos), Some(c)));
            }
        }
        if -out < -1e-9 {
            moves.push((-out, Some(pos), None));
        }
    }
    if set.len() < max_size {
        if let Some((g, c)) = free()
            .map(|c| (gain(t, pi, cand, c), c))
            .min_by(|a, b| a.0.total_cmp(&b.0))
        {
            if g < -1e-9 {
                moves.push((g, None, Some(c)));
            }
        }
    }
    moves.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, out, inn) in moves {
        let mut next = set.clone();
        if let Some(pos) = out {
            next.swap_remove(pos);
        }
        if let Some(c) = inn {
            next.push(c);
        }
        let ids: Vec<u32> = next.iter().map(|&c| cand[c] as u32).collect();
        if !valid(inst, &ids) {
            continue;
        }
        if let Some(pos) = out {
            let m = set[pos];
            member[m] = false;
            add_row(inst, cand, t, cand[m], -1);
        }
        if let Some(c) = inn {
            member[c] = true;
            add_row(inst, cand, t, cand[c], 1);
        }
        *set = next;
        return true;
    }
    false
}

/// t_c += sign · d(j, cand_c) over the candidates.
fn add_row(inst: &Instance, cand: &[usize], t: &mut [i64], j: usize, sign: i64) {
    for (ti, &c) in t.iter_mut().zip(cand) {
        *ti += sign * inst.d(j, c);
    }
}

/// The members form a valid class that cannot be split into two.
fn valid(inst: &Instance, set: &[u32]) -> bool {
    let mut ks: Vec<u32> = set.iter().map(|&i| inst.k[i as usize]).collect();
    valid_unsplittable(&mut ks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records on a line at the given positions; distances |a − b|.
    fn line(xs: &[i64], k: u32) -> Instance {
        let dist = xs
            .iter()
            .map(|a| xs.iter().map(|b| (a - b).abs()).collect())
            .collect();
        Instance::new(1.0, vec![k; xs.len()], dist).unwrap()
    }

    #[test]
    fn finds_the_cheap_tight_classes_the_duals_pay_for() {
        // Two tight groups of three and one far record; duals pay 10 per record.
        let inst = line(&[0, 1, 2, 100, 101, 102, 500], 3);
        let duals = Duals {
            pi: vec![10.0; 7],
            cuts: Vec::new(),
        };
        let cols = columns(&inst, &duals, 5, 10, None);
        let sets: Vec<&[u32]> = cols.iter().map(|c| c.1.members.as_slice()).collect();
        assert!(sets.contains(&[0u32, 1, 2].as_slice()), "{sets:?}");
        assert!(sets.contains(&[3u32, 4, 5].as_slice()), "{sets:?}");
        for (rc, c) in &cols {
            assert!(*rc < 0.0);
            assert_eq!(*rc, duals.reduced_cost(&c.members, c.cost));
            assert!((3..=5).contains(&c.members.len()));
        }
    }

    #[test]
    fn returns_nothing_when_no_class_has_negative_reduced_cost() {
        // {0,1,2}: pair sum 1 + 2 + 1 = 4 against duals of 3 in all.
        let inst = line(&[0, 1, 2, 100, 101, 102], 3);
        let duals = Duals {
            pi: vec![1.0; 6],
            cuts: Vec::new(),
        };
        assert!(columns(&inst, &duals, 5, 10, None).is_empty());
    }

    /// On random small instances (personal k over {2, 3}, random duals) every column is valid
    /// with its reduced cost right, and the search reaches the exhaustive optimum nearly always.
    #[test]
    fn nearly_always_finds_the_exhaustive_optimum() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        let (mut hits, mut negative) = (0, 0);
        for _ in 0..40 {
            let xs: Vec<i64> = (0..9).map(|_| next(60) as i64).collect();
            let mut inst = line(&xs, 2);
            for k in inst.k.iter_mut() {
                *k = 2 + next(2) as u32;
            }
            let duals = Duals {
                pi: (0..9).map(|_| next(40) as f64).collect(),
                cuts: Vec::new(),
            };
            let best = exhaustive_best(&inst, &duals, 5);
            let cols = columns(&inst, &duals, 5, 100, None);
            for (rc, c) in &cols {
                assert!(valid(&inst, &c.members), "{:?}", c.members);
                assert_eq!(*rc, duals.reduced_cost(&c.members, c.cost));
                assert!(*rc >= best - 1e-9);
            }
            if best < -1e-6 {
                negative += 1;
                hits += cols.first().is_some_and(|c| (c.0 - best).abs() < 1e-9) as usize;
            }
        }
        assert!(negative >= 20, "{negative}");
        assert!(hits * 10 >= negative * 9, "{hits} of {negative}");
    }

    /// Personal k: every column is valid and unsplittable, and matches an exhaustive search
    /// for its reduced cost.
    #[test]
    fn respects_personal_k() {
        let mut inst = line(&[0, 1, 2, 3, 50, 51, 52], 2);
        inst.k[0] = 4;
        let duals = Duals {
            pi: vec![40.0; 7],
            cuts: Vec::new(),
        };
        for (rc, c) in columns(&inst, &duals, 7, 20, None) {
            assert!(valid(&inst, &c.members), "{:?}", c.members);
            assert_eq!(rc, duals.reduced_cost(&c.members, c.cost));
        }
    }

    fn exhaustive_best(inst: &Instance, duals: &Duals, max_size: usize) -> f64 {
        let n = inst.n;
        let mut best = f64::INFINITY;
        for mask in 1u32..(1 << n) {
            let set: Vec<u32> = (0..n as u32).filter(|&i| mask >> i & 1 == 1).collect();
            if set.len() > max_size || !valid(inst, &set) {
                continue;
            }
            let col = Column::new(inst, Criterion::Wcsd, set);
            best = best.min(duals.reduced_cost(&col.members, col.cost));
        }
        best
    }
}
