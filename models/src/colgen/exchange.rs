//! Dual inequalities for the root's first column-generation rounds, after the dual-optimal ones
//! of Ben Amor, Desrosiers & Valério de Carvalho (2006): π_i − π_j ≤ δ_ij for near records i
//! and j. At large k the set-partitioning master is massively degenerate and its duals jump
//! between vertices that price badly; the inequalities keep near records' duals near each other.
//!
//! In the master each inequality is an exchange column y_ij ≥ 0 of cost δ_ij, +1 in i's row and
//! −1 in j's: "a class holding j holds i instead". It is dual-optimal when δ_ij bounds what
//! that swap costs in any class: for a class C ∋ j, i ∉ C, of at most S records,
//! dbil: |C|·diam(C − j + i) ≤ |C|·(diam(C) + d(i, j)), so δ = S·d(i, j); wcsd: the pair sum
//! grows by Σ_{m ∈ C−j} (d(i, m) − d(j, m)) ≤ (S − 1)·d(i, j) (both by the triangle
//! inequality). The swapped class is valid when k_i ≤ k_j (same size, same other members).
//! Then a master solution that uses y converts into one without at no higher cost, so the
//! inequalities do not lower the LP's optimum.
//!
//! The default scales δ by 0.3 (`ColgenOptions::exchange_scale`): no longer dual-optimal in
//! general, the inequalities then hold near records' duals closer still, like a box around
//! them; the LP of the phase may end below the plain one, whose own rounds after the drop
//! close the difference. On Adult samples the root converged 1.5–2 times faster with 2
//! neighbours at 0.3 than without (docs/exact.md, "Exchange columns"), less so at 1.0.
//!
//! Correctness never rests on that argument: integer partitions keep y = 0, so the LP with
//! exchange columns is still a relaxation and its Lagrangian bounds are valid whatever δ is;
//! and the columns are dropped at the first convergence, so every later LP (the bound, the
//! cuts' separation, the rounding, the tree, the proof) is the plain master's.

use super::column::size_limit;
use crate::{ClassConstraints, Criterion, Instance};
use rayon::prelude::*;

/// One exchange column: record `into` takes the place of record `out` at `cost` (δ, in the
/// criterion's integer units, one unit above the bound on the swap's cost: with δ = 0 between
/// identical records a cycle of exchanges costs nothing, and HiGHS once declared such a master
/// "unbounded", which it cannot be, perhaps through the primal simplex's cost perturbation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exchange {
    pub into: u32,
    pub out: u32,
    pub cost: f64,
}

/// The exchange columns between every record and its `per_record` nearest records (ties by
/// index), in both directions where the k allow, their δ the bound above times `scale` (1:
/// dual-optimal; below 1 they may cut every optimal dual, see the module's note); none for sse
/// (squared distances break the triangle inequality) or under constraints beyond k_i and a
/// largest class size (a swap may break them). Sorted by (into, out), without repeats.
pub fn exchanges(
    inst: &Instance,
    criterion: Criterion,
    extra: &ClassConstraints,
    per_record: usize,
    scale: f64,
) -> Vec<Exchange> {
    let n = inst.n;
    let classic = matches!(criterion, Criterion::Dbil | Criterion::Wcsd);
    if !classic || n < 2 || per_record == 0 || !extra.size_cap_only() {
        return Vec::new();
    }
    let kmax = inst.largest_k();
    let size = size_limit(extra, kmax, n);
    // A swap moves one record of a class of `size`: dbil charges every member, wcsd the others.
    let members = if criterion == Criterion::Wcsd {
        size.saturating_sub(1)
    } else {
        size
    };
    let factor = members as f64 * scale;
    let m = per_record.min(n - 1);
    let mut pairs: Vec<(u32, u32)> = (0..n)
        .into_par_iter()
        .flat_map_iter(|i| {
            let mut others: Vec<(i64, usize)> = (0..n)
                .filter(|&j| j != i)
                .map(|j| (inst.d(i, j), j))
                .collect();
            others.select_nth_unstable(m - 1);
            others.truncate(m);
            others.into_iter().flat_map(move |(_, j)| {
                let forward = (inst.k[i] <= inst.k[j]).then_some((i as u32, j as u32));
                let back = (inst.k[j] <= inst.k[i]).then_some((j as u32, i as u32));
                forward.into_iter().chain(back)
            })
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
        .into_iter()
        .map(|(into, out)| Exchange {
            into,
            out,
            cost: factor * inst.d(into as usize, out as usize) as f64 + 1.0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points on a line with their k; distances |a − b|.
    fn line(xs: &[i64], k: Vec<u32>) -> Instance {
        let dist = xs
            .iter()
            .map(|a| xs.iter().map(|b| (a - b).abs()).collect())
            .collect();
        Instance::new(1.0, k, dist).unwrap()
    }

    #[test]
    fn pairs_go_both_ways_where_the_k_allow_and_cost_the_size_cap_times_the_distance() {
        let inst = line(&[0, 1, 5, 9, 20, 30], vec![2, 3, 2, 2, 2, 2]);
        let ex = exchanges(&inst, Criterion::Dbil, &ClassConstraints::default(), 1, 1.0);
        // Nearest: 0↔1, 2→1 (ties by index: d(2, 1) = 4 = d(2, 3)), 3→2, 4↔5. Record 1
        // (k = 3) never takes the place of a k = 2 record. S = 2·3 − 1 = 5.
        let got: Vec<(u32, u32, f64)> = ex.iter().map(|e| (e.into, e.out, e.cost)).collect();
        let want = [
            (0, 1, 6.0),
            (2, 1, 21.0),
            (2, 3, 21.0),
            (3, 2, 21.0),
            (4, 5, 51.0),
            (5, 4, 51.0),
        ];
        assert_eq!(got, want);
        assert!(exchanges(&inst, Criterion::Sse, &ClassConstraints::default(), 2, 1.0).is_empty());
        let wcsd = exchanges(&inst, Criterion::Wcsd, &ClassConstraints::default(), 1, 1.0);
        assert_eq!(wcsd[0].cost, 5.0, "(S − 1)·d + 1 with S = 5");
        let scaled = exchanges(&inst, Criterion::Dbil, &ClassConstraints::default(), 1, 0.3);
        assert_eq!(scaled[1].cost, 0.3 * 20.0 + 1.0);
    }
}
