//! The time limit is a promise: every engine and every phase of column generation (root
//! column generation, cuts, LP rounding, enumeration proof, branch-and-price, the proof MIP)
//! returns within the limit plus max(2 s, 5%), with a bound no greater than its objective.

use crate::common::{random_instance, random_matrix_instance, triangles};
use optik_models::colgen::Proof;
use optik_models::{
    solve, solve_colgen, ColgenOptions, Criterion, Engine, EngineResult, Instance, SolveOptions,
};
use std::time::{Duration, Instant};

/// Allowed overrun of a limit (the promise).
fn slack(limit: Duration) -> Duration {
    Duration::from_secs(2).max(limit.mul_f64(0.05))
}

/// Instances that no engine finishes in the limits below, from the random-matrix (fractional
/// LPs: branch-and-price and enumeration proofs) and the grid (degenerate LPs) families.
fn hard_instances() -> Vec<(&'static str, Instance)> {
    vec![
        ("matrix n=150 k=5", random_matrix_instance(150, &[5], 1)),
        (
            "matrix n=60 k=2..4",
            random_matrix_instance(60, &[2, 3, 4], 2),
        ),
        ("grid n=200 k=3,5,7", random_instance(200, &[3, 5, 7], 3)),
    ]
}

fn check(what: &str, limit: Duration, took: Duration, r: &EngineResult) {
    assert!(
        took <= limit + slack(limit),
        "{what}: {:.2} s for a {:.2} s limit ({:?})",
        took.as_secs_f64(),
        limit.as_secs_f64(),
        r.note
    );
    if let (Some(lb), Some(ub)) = (r.lower_bound, r.objective) {
        assert!(lb <= ub, "{what}: bound {lb} above objective {ub}");
    }
}

#[test]
fn column_generation_holds_the_limit_in_every_phase() {
    for (name, inst) in hard_instances() {
        for criterion in [Criterion::Dbil, Criterion::Wcsd] {
            for proof in [Proof::Enumeration, Proof::Tree] {
                for smoothing in [0.0, 0.8] {
                    for limit_ms in [300, 1500] {
                        let limit = Duration::from_millis(limit_ms);
                        let t = Instant::now();
                        let r = solve_colgen(
                            &inst,
                            ColgenOptions {
                                criterion,
                                time_limit: Some(limit),
                                proof,
                                smoothing,
                                ..ColgenOptions::default()
                            },
                        )
                        .unwrap();
                        let what = format!("{name} {criterion:?} {proof:?} α={smoothing}");
                        check(&what, limit, t.elapsed(), &r);
                    }
                }
            }
        }
    }
}

#[test]
fn every_engine_holds_the_limit() {
    let limit = Duration::from_millis(1500);
    for (name, inst) in hard_instances() {
        for engine in [Engine::Auto, Engine::Cp, Engine::Colgen, Engine::Mip] {
            for criterion in [Criterion::Dbil, Criterion::Wcsd, Criterion::Diameter] {
                if !engine.optimises(criterion) {
                    continue;
                }
                let t = Instant::now();
                let out = solve(
                    &inst,
                    engine,
                    SolveOptions {
                        criterion,
                        time_limit: Some(limit),
                        ..SolveOptions::default()
                    },
                )
                .unwrap();
                let what = format!("{name} {engine:?} {criterion:?}");
                check(&what, limit, t.elapsed(), &out.result);
            }
        }
    }
}

/// The CP engine with node LPs: each node LP ends by the search's deadline.
#[test]
fn cp_with_node_lps_holds_the_limit() {
    let limit = Duration::from_millis(1500);
    for (name, inst) in hard_instances() {
        for criterion in [Criterion::Dbil, Criterion::Wcsd] {
            let t = Instant::now();
            let r = optik_models::solve_cp(
                &inst,
                optik_models::CpOptions {
                    criterion,
                    time_limit: Some(limit),
                    node_lp: true,
                    ..optik_models::CpOptions::default()
                },
            )
            .unwrap();
            check(
                &format!("{name} CP node LPs {criterion:?}"),
                limit,
                t.elapsed(),
                &r,
            );
        }
    }
}

/// From 500 records column generation also runs the large-neighbourhood search, on its own
/// thread for the whole run (the companion; it stops when the run ends). Every stop still
/// lands within the limit.
#[test]
fn column_generation_with_the_improver_holds_the_limit() {
    let inst = random_instance(600, &[5], 4);
    for limit_ms in [1000, 4000] {
        let limit = Duration::from_millis(limit_ms);
        let t = Instant::now();
        let out = solve(
            &inst,
            Engine::Colgen,
            SolveOptions {
                criterion: Criterion::Dbil,
                time_limit: Some(limit),
                ..SolveOptions::default()
            },
        )
        .unwrap();
        check(
            "grid n=600 k=5 with the improver",
            limit,
            t.elapsed(),
            &out.result,
        );
    }
}

/// HiGHS overruns its own limit in its MIP's root loop on the triangles (504 records, 10,080
/// columns: 12.2 s for a 6.7 s limit; waited for, the 8 s run took 12.3 to 16.2 s): the run
/// leaves that MIP half a second past its deadline, with a bound still at least the LP's.
#[test]
fn a_proof_mip_past_its_limit_is_left_after_the_deadline() {
    let count = 168;
    let (inst, _) = triangles(count);
    let limit = Duration::from_secs(8);
    let t = Instant::now();
    let r = solve_colgen(
        &inst,
        ColgenOptions {
            time_limit: Some(limit),
            cuts: false,
            proof: Proof::Enumeration,
            ..ColgenOptions::default()
        },
    )
    .unwrap();
    check("triangles, enumeration proof", limit, t.elapsed(), &r);
    let lb = r.lower_bound.expect("a bound");
    assert!(lb >= 39 * count as i64, "{lb}: below the LP");
}
