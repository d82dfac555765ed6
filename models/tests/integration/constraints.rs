//! Optimal under extra class constraints: on random instances (n ≤ 10) with l-diversity,
//! must/cannot links or a maximum class size, the brute-force optimum (filtered by the
//! constraints) equals the CP optimum for every criterion and the column-generation optimum for
//! dbil and wcsd; infeasible combinations are reported as infeasible by both engines.

use crate::common::{random_constraints, random_instance, random_matrix_instance, Kind};
use optik_models::brute_force::brute_force_with;
use optik_models::objective_of;
use optik_models::{
    solve_colgen, solve_cp, ClassConstraints, ColgenOptions, CpOptions, Criterion, Diversity,
    Instance, Search, Status,
};
use proptest::prelude::*;

fn kind() -> impl Strategy<Value = Kind> {
    prop::sample::select(vec![Kind::Diversity, Kind::Links, Kind::MaxSize, Kind::All])
}

/// Brute force = CP (and = colgen for the sum criteria); the partitions meet everything.
fn agree(inst: &Instance, extra: &ClassConstraints, c: Criterion, search: Search) {
    let min_classes = if c == Criterion::Split { 2 } else { 1 };
    let expected = brute_force_with(inst, c, min_classes, extra);
    let cp = solve_cp(
        inst,
        CpOptions {
            criterion: c,
            search,
            split_min_classes: Some(min_classes),
            constraints: extra.clone(),
            ..CpOptions::default()
        },
    )
    .unwrap();
    let mut results = vec![("cp", cp.status, cp.objective, cp.partition)];
    if matches!(c, Criterion::Dbil | Criterion::Wcsd) {
        let cg = solve_colgen(
            inst,
            ColgenOptions {
                criterion: c,
                constraints: extra.clone(),
                ..ColgenOptions::default()
            },
        )
        .unwrap();
        results.push(("colgen", cg.status, cg.objective, cg.partition));
    }
    for (engine, status, objective, partition) in results {
        match &expected {
            None => assert_eq!(
                status,
                Status::Infeasible,
                "{engine} {c:?} {extra:?} {inst:?}"
            ),
            Some((_, v)) => {
                assert_eq!(status, Status::Optimal, "{engine} {c:?} {extra:?}");
                assert_eq!(objective, Some(*v), "{engine} {c:?} {extra:?} {inst:?}");
                let p = partition.expect("a partition");
                assert!(p.violations(&inst.k).is_empty());
                assert!(extra.partition_ok(p.labels()), "{engine} {c:?} {extra:?}");
                assert_eq!(objective_of(inst, &p, c), *v);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn engines_equal_brute_force(n in 3usize..=10, seed in any::<u64>(), kind in kind(),
                                 c in prop::sample::select(Criterion::CLUSTERING.to_vec()),
                                 mixed in any::<bool>(), matrix in any::<bool>()) {
        let ks: &[u32] = if mixed { &[1, 2, 3] } else { &[2] };
        let n = if c == Criterion::Split { n.min(9) } else { n };
        let inst = if matrix {
            random_matrix_instance(n, ks, seed)
        } else {
            random_instance(n, ks, seed)
        };
        let extra = random_constraints(&inst, kind, seed);
        agree(&inst, &extra, c, Search::DEFAULT);
    }
}

#[test]
fn every_search_under_all_constraints() {
    for seed in 0..6u64 {
        let inst = random_instance(8, &[2, 3], seed);
        let extra = random_constraints(&inst, Kind::All, seed);
        for s in Search::ALL {
            agree(&inst, &extra, Criterion::Dbil, s);
        }
    }
}

/// Values a a a b b b on a line with two obvious clusters {0,1,2}, {3,4,5}: 2-diversity forces
/// classes across the gap; l = 3 is impossible (two values).
fn two_clusters() -> Instance {
    let pts = [0i64, 1, 2, 10, 11, 12];
    let dist = pts
        .iter()
        .map(|a| pts.iter().map(|b| (a - b).abs()).collect())
        .collect();
    Instance::new(1.0, vec![2; 6], dist).unwrap()
}

#[test]
fn diversity_changes_the_optimum() {
    let inst = two_clusters();
    let plain = brute_force_with(&inst, Criterion::Dbil, 1, &ClassConstraints::default()).unwrap();
    assert_eq!(plain.1, 12);
    let extra = ClassConstraints {
        diversity: Some(Diversity {
            values: vec![0, 0, 0, 1, 1, 1],
            l: 2,
        }),
        ..ClassConstraints::default()
    };
    let (_, v) = brute_force_with(&inst, Criterion::Dbil, 1, &extra).unwrap();
    assert!(v > 12);
    agree(&inst, &extra, Criterion::Dbil, Search::DEFAULT);
    agree(&inst, &extra, Criterion::Wcsd, Search::DEFAULT);
}

#[test]
fn infeasible_combinations() {
    let inst = two_clusters();
    let cases = [
        // l above the number of values: caught before search.
        ClassConstraints {
            diversity: Some(Diversity {
                values: vec![0, 0, 0, 1, 1, 1],
                l: 3,
            }),
            ..ClassConstraints::default()
        },
        // k = 2 and a maximum size of 2 ask for a perfect matching; every pair inside
        // {0,1,2,3} is cannot-linked, so four records need partners among two — found by search.
        ClassConstraints {
            cannot: vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)],
            max_size: Some(2),
            ..ClassConstraints::default()
        },
        // A cannot-link inside a must-link chain.
        ClassConstraints {
            must: vec![(0, 1), (1, 4)],
            cannot: vec![(0, 4)],
            ..ClassConstraints::default()
        },
        // A must-link group larger than the maximum size.
        ClassConstraints {
            must: vec![(0, 1), (1, 2)],
            max_size: Some(2),
            ..ClassConstraints::default()
        },
        // 2-diversity with a single b: at most one class, which the maximum size 4 forbids.
        ClassConstraints {
            diversity: Some(Diversity {
                values: vec![0, 0, 0, 0, 0, 1],
                l: 2,
            }),
            max_size: Some(4),
            ..ClassConstraints::default()
        },
    ];
    for extra in &cases {
        assert!(
            brute_force_with(&inst, Criterion::Dbil, 1, extra).is_none(),
            "{extra:?}"
        );
        for c in Criterion::CLUSTERING {
            agree(&inst, extra, c, Search::DEFAULT);
        }
    }
}
