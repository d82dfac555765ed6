//! The compact assignment MIP against brute force (dbil, wcsd, diameter) and its LP-file export.

use crate::common::{random_instance, stopped_after};
use optik_models::brute_force::brute_force;
use optik_models::criteria::evaluate;
use optik_models::{mip_lp_text, solve_mip, Criterion, Engine, EngineError, Status};
use proptest::prelude::*;

const KS: [&[u32]; 3] = [&[2], &[2, 3], &[1, 2, 3]];

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn mip_equals_brute_force(n in 2usize..=8, ks in 0usize..3, seed in any::<u64>(), c in 0usize..3) {
        let criterion = [Criterion::Dbil, Criterion::Wcsd, Criterion::Diameter][c];
        let inst = random_instance(n, KS[ks], seed);
        let (_, opt) = brute_force(&inst, criterion, 1).unwrap();
        let r = solve_mip(&inst, criterion, None).unwrap();
        prop_assert_eq!(r.status, Status::Optimal, "{:?}", r.note);
        prop_assert_eq!(r.objective, Some(opt));
        prop_assert_eq!(r.lower_bound, Some(opt));
        let p = r.partition.unwrap();
        prop_assert!(p.violations(&inst.k).is_empty());
        prop_assert_eq!(evaluate(&p, |a, b| inst.d(a, b)).get(criterion), opt);
    }
}

#[test]
fn mip_n10_dbil() {
    let inst = random_instance(10, &[2, 3], 3);
    let (_, opt) = brute_force(&inst, Criterion::Dbil, 1).unwrap();
    let r = solve_mip(&inst, Criterion::Dbil, None).unwrap();
    assert_eq!(r.objective, Some(opt));
}

#[test]
fn time_limited_mip_reports_a_valid_dual_bound() {
    // n = 30 is beyond what the compact DBIL MIP proves in 4 s: it stops with HiGHS's
    // dual bound, which must not exceed the optimum (proven by column generation).
    let inst = random_instance(30, &[2, 3], 11);
    let opt = optik_models::solve_colgen(&inst, optik_models::ColgenOptions::default()).unwrap();
    assert_eq!(opt.status, Status::Optimal);
    let opt = opt.objective.unwrap();
    let r = solve_mip(
        &inst,
        Criterion::Dbil,
        Some(std::time::Duration::from_secs(4)),
    )
    .unwrap();
    assert_ne!(r.status, Status::Infeasible, "{:?}", r.note);
    let lb = r
        .lower_bound
        .expect("a time-limited MIP reports its dual bound");
    assert!(lb <= opt, "MIP dual bound {lb} above the optimum {opt}");
    if let Some(v) = r.objective {
        assert!(lb <= v && v >= opt);
        assert!(r.partition.unwrap().violations(&inst.k).is_empty());
    }
}

/// A stop request leaves the compact MIP at once, HiGHS still solving on its own thread (it
/// would run to its 30 s limit), without a bound or a partition it did not report.
#[test]
fn a_stop_request_leaves_the_compact_mip() {
    let inst = random_instance(30, &[2, 3], 11);
    let t = std::time::Instant::now();
    let r = stopped_after(std::time::Duration::from_secs(1), || {
        solve_mip(
            &inst,
            Criterion::Dbil,
            Some(std::time::Duration::from_secs(30)),
        )
        .unwrap()
    });
    let took = t.elapsed();
    assert!(took < std::time::Duration::from_millis(1500), "{took:?}");
    assert_eq!(r.status, Status::Unknown, "{:?}", r.note);
    assert_eq!(r.note.as_deref(), Some("time limit in the compact MIP"));
    assert!(r.lower_bound.is_none() && r.partition.is_none());
}

#[test]
fn split_is_refused() {
    let inst = random_instance(5, &[2], 1);
    assert_eq!(
        solve_mip(&inst, Criterion::Split, None),
        Err(EngineError::UnsupportedCriterion {
            engine: Engine::Mip,
            criterion: Criterion::Split
        })
    );
    assert!(mip_lp_text(&inst, Criterion::Split).starts_with('\\'));
}

#[test]
fn lp_text_has_all_sections() {
    let inst = random_instance(5, &[2, 3], 2);
    for c in [Criterion::Dbil, Criterion::Wcsd, Criterion::Diameter] {
        let text = mip_lp_text(&inst, c);
        for section in ["Minimize", "Subject To", "Binaries", "End"] {
            assert!(text.contains(section), "{c:?} lacks {section}");
        }
        // every record has its assignment row and 15 x variables exist (n(n+1)/2)
        assert_eq!(text.matches(" assign_").count(), 5);
        assert!(text.contains(" x_4_0\n"));
    }
}
