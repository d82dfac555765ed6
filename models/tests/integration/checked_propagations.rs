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

/// The node-LP propagator under pumpkin's checks: every bound it posts is re-verified by an
/// enumeration of the partitions of unsplittable classes with the premises' groups (n ≤ 10).
#[test]
fn node_lp_explanations_hold() {
    for seed in 0..12u64 {
        let n = 5 + (seed as usize % 6); // 5..=10
        let inst = if seed % 2 == 0 {
            random_instance(n, &[2, 3], seed)
        } else {
            random_matrix_instance(n, &[2, 2, 3], seed)
        };
        for c in [Criterion::Dbil, Criterion::Wcsd] {
            for s in Search::ALL {
                let res = solve_cp(
                    &inst,
                    CpOptions {
                        criterion: c,
                        search: s,
                        lp_primal: false,
                        node_lp: true,
                        ..CpOptions::default()
                    },
                )
                .unwrap();
                match brute_force(&inst, c, 1) {
                    Some((_, v)) => assert_eq!(res.objective, Some(v), "{c:?} {s:?} seed {seed}"),
                    None => assert_eq!(res.status, Status::Infeasible),
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

/// The class-pricing propagator under pumpkin's checks: CP pricing on random instances and
/// duals (with cuts), both branchings, finds the DFS pricing's least reduced cost.
#[test]
fn cp_pricing_explanations_hold() {
    use optik_models::colgen::cp_pricing::{price_with_cp, CpBranching};
    use optik_models::colgen::pricing::{search, Mode, SearchOptions};
    use optik_models::ClassConstraints;
    for seed in 0..10u64 {
        let n = 5 + (seed as usize % 8); // 5..=12
        let inst = random_instance(n, &[2], seed);
        let duals = crate::colgen::random_duals(&inst, seed, seed % 2 == 0);
        for c in [Criterion::Dbil, Criterion::Wcsd] {
            let dfs = search(
                &inst,
                &duals,
                &SearchOptions::new(
                    c,
                    Mode::Best {
                        k: 1,
                        threshold: -1e-3,
                    },
                ),
            );
            for branching in [CpBranching::Vsids, CpBranching::DualOrder] {
                let cp = price_with_cp(
                    &inst,
                    c,
                    &duals,
                    &ClassConstraints::default(),
                    branching,
                    None,
                )
                .unwrap();
                assert!(cp.proven, "{c:?} {branching:?} seed {seed}");
                let unit = 1.0 / cp.scale;
                match (dfs.columns.first(), &cp.best) {
                    (Some((want, _)), Some((got, _))) => {
                        assert!((want - got).abs() <= 2.0 * unit, "{want} vs {got}")
                    }
                    (None, None) => {}
                    (want, got) => assert!(
                        want.map_or(true, |w| w.0 > -2.0 * unit)
                            && got.as_ref().map_or(true, |g| g.0 > -2.0 * unit),
                        "{want:?} vs {got:?}"
                    ),
                }
            }
        }
    }
}
