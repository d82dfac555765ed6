//! Property tests: on random instances (n ≤ 12) the CP optimum equals the brute-force optimum,
//! every CP partition is k_i-anonymous, and the CP optimum is never worse than a feasible
//! partition given as warm start (which it must also accept as an incumbent).

use crate::common::random_instance;
use optik_models::brute_force::brute_force;
use optik_models::objective_of;
use optik_models::{solve_cp, CpOptions, Criterion, Partition, Search, Status};
use proptest::prelude::*;

fn criterion() -> impl Strategy<Value = Criterion> {
    prop::sample::select(Criterion::CLUSTERING.to_vec())
}

/// A feasible partition: consecutive records in blocks of max k (the last block absorbs the rest).
fn blocks(k: &[u32]) -> Partition {
    let n = k.len();
    let kmax = *k.iter().max().unwrap() as usize;
    let labels: Vec<usize> = (0..n).map(|i| (i / kmax).min(n / kmax - 1)).collect();
    Partition::from_labels(&labels)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn cp_matches_brute_force(n in 4usize..=12, seed in 0u64..1_000_000, c in criterion(), mixed in any::<bool>()) {
        // Split has no cost-based pruning in the brute force: keep it to n <= 10.
        let n = if c == Criterion::Split { n.min(10) } else { n };
        let ks: &[u32] = if mixed { &[2, 2, 3] } else { &[2] };
        let inst = random_instance(n, ks, seed);
        let min_classes = if c == Criterion::Split { 2 } else { 1 };
        let expected = brute_force(&inst, c, min_classes);
        let res = solve_cp(&inst, CpOptions {
            criterion: c,
            split_min_classes: Some(min_classes),
            ..CpOptions::default()
        }).unwrap();
        match expected {
            None => prop_assert_eq!(res.status, Status::Infeasible),
            Some((_, v)) => {
                prop_assert_eq!(res.status, Status::Optimal);
                prop_assert_eq!(res.objective, Some(v));
                let p = res.partition.unwrap();
                prop_assert!(p.violations(&inst.k).is_empty());
                prop_assert_eq!(objective_of(&inst, &p, c), v);
            }
        }
    }

    #[test]
    fn both_cp_bounds_match_brute_force(n in 4usize..=12, seed in 0u64..1_000_000, wcsd in any::<bool>(), mixed in any::<bool>()) {
        // dbil and wcsd with the LP dual bound (the default) and with the per-record bound only.
        let c = if wcsd { Criterion::Wcsd } else { Criterion::Dbil };
        let ks: &[u32] = if mixed { &[2, 2, 3] } else { &[2] };
        let inst = random_instance(n, ks, seed);
        let Some((_, v)) = brute_force(&inst, c, 1) else {
            return Err(TestCaseError::reject("infeasible"));
        };
        for (lp_bound, lp_primal) in [(true, true), (true, false), (false, false)] {
            let res = solve_cp(&inst, CpOptions { criterion: c, lp_bound, lp_primal, ..CpOptions::default() }).unwrap();
            prop_assert_eq!(res.status, Status::Optimal);
            prop_assert_eq!(res.objective, Some(v));
            if lp_bound {
                // The root LP is a relaxation: never above the optimum.
                let z = res.stats.lp_bound_cuts.expect("the root LP converges on tiny instances");
                prop_assert!(z <= v as f64 + 1e-6, "LP bound {} above optimum {}", z, v);
            } else {
                prop_assert!(res.stats.lp_bound_cuts.is_none());
            }
        }
    }

    #[test]
    fn cp_with_node_lps_matches_brute_force(n in 4usize..=12, seed in 0u64..1_000_000, wcsd in any::<bool>(), ks in 0usize..3, micros in prop::option::of(200u64..50_000)) {
        // The LP re-solved at the search's nodes (no LP start, so the search runs): the same
        // optimum as the brute force, and, stopped anywhere, a bound no higher than it.
        let c = if wcsd { Criterion::Wcsd } else { Criterion::Dbil };
        let ks: &[u32] = [&[2u32][..], &[2, 2, 3], &[2, 3, 4]][ks];
        let inst = random_instance(n, ks, seed);
        let Some((_, v)) = brute_force(&inst, c, 1) else {
            return Err(TestCaseError::reject("infeasible"));
        };
        let res = solve_cp(&inst, CpOptions {
            criterion: c,
            lp_primal: false,
            node_lp: true,
            time_limit: micros.map(std::time::Duration::from_micros),
            ..CpOptions::default()
        }).unwrap();
        if let Some(lb) = res.lower_bound {
            prop_assert!(lb <= v, "bound {} above the optimum {}", lb, v);
        }
        if micros.is_none() || res.status == Status::Optimal {
            prop_assert_eq!(res.status, Status::Optimal);
            prop_assert_eq!(res.objective, Some(v));
            let p = res.partition.unwrap();
            prop_assert!(p.violations(&inst.k).is_empty());
            prop_assert_eq!(objective_of(&inst, &p, c), v);
        }
    }

    #[test]
    fn never_worse_than_warm_start(n in 4usize..=12, seed in 0u64..1_000_000, c in criterion(), search in prop::sample::select(Search::ALL.to_vec())) {
        let inst = random_instance(n, &[2, 3], seed);
        let warm = blocks(&inst.k);
        prop_assume!(warm.violations(&inst.k).is_empty());
        let warm_value = objective_of(&inst, &warm, c);
        let res = solve_cp(&inst, CpOptions {
            criterion: c,
            search,
            warm_start: Some(warm.clone()),
            ..CpOptions::default()
        }).unwrap();
        prop_assert_eq!(res.status, Status::Optimal);
        let v = res.objective.unwrap();
        if c.maximise() { prop_assert!(v >= warm_value) } else { prop_assert!(v <= warm_value) }
        let p = res.partition.unwrap();
        prop_assert!(p.violations(&inst.k).is_empty());
        prop_assert_eq!(objective_of(&inst, &p, c), v);
        // The timeline starts with the warm start and improves strictly.
        prop_assert!(res.timeline[0].warm_start);
        for w in res.timeline.windows(2) {
            if c.maximise() { prop_assert!(w[1].objective > w[0].objective) } else { prop_assert!(w[1].objective < w[0].objective) }
        }
        if c == Criterion::Split {
            prop_assert!(p.num_classes() >= warm.num_classes());
        } else {
            // Without the split's class floor the optimum is the brute-force one.
            let (_, best) = brute_force(&inst, c, 1).unwrap();
            prop_assert_eq!(v, best);
        }
    }
}

/// The node LPs do run: on a 12-record instance whose search needs nodes, some of them are
/// solved, and the optimum is the brute force's.
#[test]
fn node_lps_are_solved_on_a_search_that_needs_nodes() {
    let mut solved = 0;
    for seed in 0..20u64 {
        let inst = random_instance(12, &[2, 3], seed);
        let (_, v) = brute_force(&inst, Criterion::Dbil, 1).expect("feasible");
        let res = solve_cp(
            &inst,
            CpOptions {
                lp_primal: false,
                node_lp: true,
                ..CpOptions::default()
            },
        )
        .unwrap();
        assert_eq!(res.objective, Some(v), "seed {seed}");
        solved += res.stats.node_lps;
    }
    assert!(solved > 0, "no node LP was solved in 20 searches");
}
