//! Runs the solver with pumpkin's `check-propagations` (every inference is re-verified by its
//! checker from its premises) and `debug-checks` (every propagation is re-derived from its
//! explanation) on random instances with n ≤ 12, for every criterion and search.
//! Compiled with the `check` feature only: run with
//! `cargo test -p optik-models --features check --test integration checked_propagations`.

use crate::common::{random_instance, random_matrix_instance};
use optik_models::brute_force::brute_force;
use optik_models::{solve_cp, CpOptions, Criterion, Search, Status};

#[test]
fn explanations_hold_on_random_instances() {
    for seed in 0..10u64 {
        let n = 5 + (seed as usize % 8); // 5..=12
        let inst = if seed % 2 == 0 {
            random_instance(n, &[2, 3], seed)
        } else {
            random_matrix_instance(n, &[2, 2, 3, 4], seed)
        };
        for c in Criterion::CLUSTERING {
            // dbil and wcsd: with the LP dual bound (no LP start, so the search runs and the
            // dual-bound propagator's inferences are checked) and with the per-record bound.
            let sum = matches!(c, Criterion::Dbil | Criterion::Wcsd);
            let bounds: &[bool] = if sum { &[true, false] } else { &[false] };
            for (s, &lp_bound) in Search::ALL
                .into_iter()
                .flat_map(|s| bounds.iter().map(move |b| (s, b)))
            {
                let res = solve_cp(
                    &inst,
                    CpOptions {
                        criterion: c,
                        search: s,
                        size_cap: seed % 3 != 0,
                        split_min_classes: Some(2),
                        lp_bound,
                        lp_primal: false,
                        ..CpOptions::default()
                    },
                )
                .unwrap();
                if n <= 10 {
                    match brute_force(&inst, c, if c == Criterion::Split { 2 } else { 1 }) {
                        Some((_, v)) => {
                            assert_eq!(res.objective, Some(v), "{c:?} {s:?} seed {seed}")
                        }
                        None => assert_eq!(res.status, Status::Infeasible),
                    }
                }
            }
        }
    }
}

/// The l-diversity, links and size-cap (maximum size) propagators under pumpkin's checks, on
/// random constrained instances, every search, against the constrained brute force.
#[test]
fn constraint_explanations_hold() {
    use crate::common::{random_constraints, Kind};
    use optik_models::brute_force::brute_force_with;
    for seed in 0..12u64 {
        let n = 5 + (seed as usize % 6); // 5..=10
        let inst = if seed % 2 == 0 {
            random_instance(n, &[1, 2, 3], seed)
        } else {
            random_matrix_instance(n, &[2, 2, 3], seed)
        };
        let kind = [Kind::Diversity, Kind::Links, Kind::MaxSize, Kind::All][seed as usize % 4];
        let extra = random_constraints(&inst, kind, seed);
        for c in Criterion::CLUSTERING {
            for s in Search::ALL {
                let min_classes = if c == Criterion::Split { 2 } else { 1 };
                let res = solve_cp(
                    &inst,
                    CpOptions {
                        criterion: c,
                        search: s,
                        split_min_classes: Some(min_classes),
                        lp_primal: false,
                        constraints: extra.clone(),
                        ..CpOptions::default()
                    },
                )
                .unwrap();
                match brute_force_with(&inst, c, min_classes, &extra) {
                    Some((_, v)) => {
                        assert_eq!(res.objective, Some(v), "{c:?} {s:?} seed {seed}")
                    }
                    None => assert_eq!(res.status, Status::Infeasible),
                }
            }
        }
    }
}
