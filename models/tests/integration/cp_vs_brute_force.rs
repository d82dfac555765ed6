//! The CP optimum equals the brute-force optimum on tiny instances, for every criterion,
//! uniform and mixed k_i, every search strategy; CP results are k_i-anonymous.

use crate::common::{random_instance, random_matrix_instance};
use optik_models::brute_force::brute_force;
use optik_models::objective_of;
use optik_models::{solve_cp, CpOptions, Criterion, Instance, Search, Status};

fn check(
    inst: &Instance,
    criterion: Criterion,
    search: Search,
    size_cap: bool,
    min_classes: usize,
) {
    let expected = brute_force(inst, criterion, min_classes);
    let res = solve_cp(
        inst,
        CpOptions {
            criterion,
            search,
            size_cap,
            split_min_classes: (criterion == Criterion::Split).then_some(min_classes),
            ..CpOptions::default()
        },
    )
    .unwrap();
    match expected {
        None => assert_eq!(res.status, Status::Infeasible, "{criterion:?} {inst:?}"),
        Some((_, v)) => {
            assert_eq!(
                res.status,
                Status::Optimal,
                "{criterion:?} {search:?} {inst:?}"
            );
            assert_eq!(
                res.objective,
                Some(v),
                "{criterion:?} {search:?} cap={size_cap} {inst:?}"
            );
            let p = res.partition.unwrap();
            assert!(p.violations(&inst.k).is_empty());
            assert_eq!(objective_of(inst, &p, criterion), v);
            if criterion == Criterion::Split {
                assert!(p.num_classes() >= min_classes);
            }
        }
    }
}

#[test]
fn uniform_k_all_criteria() {
    for seed in 0..6 {
        for &k in &[2u32, 3] {
            let n = 5 + (seed as usize % 4);
            let inst = random_instance(n, &[k], seed);
            for c in Criterion::CLUSTERING {
                check(
                    &inst,
                    c,
                    Search::Switching,
                    true,
                    if c == Criterion::Split { 2 } else { 1 },
                );
            }
        }
    }
}

#[test]
fn mixed_k_all_criteria_all_searches() {
    for seed in 0..6 {
        let n = 6 + (seed as usize % 4);
        let inst = random_matrix_instance(n, &[2, 2, 3, 4], 100 + seed);
        for c in Criterion::CLUSTERING {
            for s in Search::ALL {
                let mc = if c == Criterion::Split {
                    1 + seed as usize % 3
                } else {
                    1
                };
                check(&inst, c, s, seed % 2 == 0, mc);
            }
        }
    }
}
