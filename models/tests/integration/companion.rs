//! Column generation's companion search (a search on its own thread beside the run): what it
//! finds reaches the result only when it is k_i-anonymous and meets the class constraints, at
//! the cost the run computes itself; it stops when the run ends; and the optima and bounds of
//! runs with it agree with runs without it.

use crate::common::{random_instance, triangles};
use optik_models::colgen::start::greedy_cover;
use optik_models::colgen::{Companion, Cores, Publish, RecordBounds};
use optik_models::lns::{constrained_start, SumCriterion};
use optik_models::{
    objective_of, solve, solve_colgen, ClassConstraints, ColgenOptions, Criterion, Diversity,
    Engine, Instance, Partition, SolveOptions, Status,
};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A companion that hands `p` over once, claiming cost 1, and returns.
fn publishes(p: Partition) -> Companion {
    Arc::new(
        move |_: &Instance, _, _: &RecordBounds, _: &Partition, _, _, publish: Publish| {
            publish(&p, 1)
        },
    )
}

/// Records in index order, in classes of `size` (the last one takes the rest).
fn chunks(n: usize, size: usize) -> Partition {
    let labels: Vec<usize> = (0..n).map(|i| (i / size).min(n / size - 1)).collect();
    Partition::from_labels(&labels)
}

/// A run that stops at once (limit 0): its incumbent is its start (the greedy cover), plus
/// whatever the companion hands over.
fn stopped_at_once(inst: &Instance, companion: Option<Companion>) -> optik_models::EngineResult {
    solve_colgen(
        inst,
        ColgenOptions {
            criterion: Criterion::Dbil,
            time_limit: Some(Duration::ZERO),
            companion,
            ..ColgenOptions::default()
        },
    )
    .unwrap()
}

#[test]
fn the_companions_partition_reaches_the_result_at_its_true_cost() {
    let inst = random_instance(500, &[3], 7);
    let alone = stopped_at_once(&inst, None)
        .objective
        .expect("the greedy cover");
    // A better partition for the companion to hand over: column generation's, given time.
    let good = solve_colgen(
        &inst,
        ColgenOptions {
            time_limit: Some(Duration::from_secs(30)),
            ..ColgenOptions::default()
        },
    )
    .unwrap();
    let p = good.partition.expect("a partition");
    let cost = objective_of(&inst, &p, Criterion::Dbil);
    assert!(
        cost < alone,
        "the test needs a better partition than the start"
    );
    let r = stopped_at_once(&inst, Some(publishes(p.clone())));
    assert_eq!(
        r.objective,
        Some(cost),
        "the run's own cost, not the claimed 1"
    );
    assert_eq!(r.partition.as_ref().map(|q| q.labels()), Some(p.labels()));
    assert!(r.lower_bound.is_some_and(|lb| lb <= cost));
}

#[test]
fn a_partition_breaking_a_k_is_refused() {
    let inst = random_instance(500, &[3], 8);
    let alone = stopped_at_once(&inst, None).objective;
    // Classes of two records: every one breaks k = 3 (and costs less than any valid one).
    let r = stopped_at_once(&inst, Some(publishes(chunks(inst.n, 2))));
    assert_eq!(r.objective, alone, "the start stays");
    assert!(r
        .partition
        .expect("a partition")
        .violations(&inst.k)
        .is_empty());
}

/// Tight, well separated clusters of five records (i / 5) at k = 5: distance 1 inside a
/// cluster, 1000 across.
fn clusters_of_five(n: usize) -> Instance {
    let dist: Vec<Vec<i64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match (i == j, i / 5 == j / 5) {
                    (true, _) => 0,
                    (false, true) => 1,
                    (false, false) => 1000,
                })
                .collect()
        })
        .collect();
    Instance::new(1.0, vec![5; n], dist).unwrap()
}

/// A run under a largest class size (`--max-class-size`, the tight phase) has a companion too:
/// what it hands over reaches the result only when no class is above the cap.
#[test]
fn a_capped_runs_companion_must_keep_the_cap() {
    // 500 records: a smaller run starts its companion late, after its limit of zero.
    let inst = random_instance(500, &[3], 9);
    let opt = solve_colgen(&inst, ColgenOptions::default()).unwrap();
    assert_eq!(opt.status, Status::Optimal);
    let p = opt.partition.expect("a partition");
    let cap = p.largest_class() as u32;
    // The optimum with two of its classes merged: one class above the cap, still better than
    // the greedy cover the run starts from.
    let merged: Vec<usize> = p
        .labels()
        .iter()
        .map(|&c| if c == 1 { 0 } else { c })
        .collect();
    let merged = Partition::from_labels(&merged);
    let big = merged.largest_class() as u32;
    assert!(big > cap);
    // The start: 166 classes dealt round-robin, of 3 or 4 records (500 is no multiple of 3,
    // so the optimum has a class of 4 or more too).
    let dealt = Partition::from_labels(&(0..inst.n).map(|i| i % 166).collect::<Vec<_>>());
    let run = |cap: u32, companion: Option<Companion>| {
        solve_colgen(
            &inst,
            ColgenOptions {
                criterion: Criterion::Dbil,
                time_limit: Some(Duration::ZERO),
                warm_start: vec![dealt.clone()],
                companion,
                constraints: ClassConstraints {
                    max_size: Some(cap),
                    ..ClassConstraints::default()
                },
                ..ColgenOptions::default()
            },
        )
        .unwrap()
        .objective
    };
    let cost = objective_of(&inst, &merged, Criterion::Dbil);
    let alone = run(cap, None).expect("the start meets the cap");
    assert!(
        cost < alone,
        "the test needs a better partition than the start"
    );
    assert_eq!(run(cap, Some(publishes(merged.clone()))), Some(alone));
    assert_eq!(run(big, Some(publishes(merged))), Some(cost));
    assert_eq!(run(cap, Some(publishes(p))), opt.objective);
}

/// A run under l-diversity has a companion too: what it hands over reaches the result only
/// when every class holds l distinct values.
#[test]
fn a_diverse_runs_companion_must_keep_l_diversity() {
    let inst = random_instance(500, &[3], 10);
    // Values alternate every three records: classes of six consecutive records hold both,
    // classes of three one.
    let values: Vec<u32> = (0..inst.n).map(|i| ((i / 3) % 2) as u32).collect();
    let (sixes, threes) = (chunks(inst.n, 6), chunks(inst.n, 3));
    let constraints = ClassConstraints {
        diversity: Some(Diversity { values, l: 2 }),
        ..ClassConstraints::default()
    };
    let run = |companion: Option<Companion>| {
        solve_colgen(
            &inst,
            ColgenOptions {
                criterion: Criterion::Dbil,
                time_limit: Some(Duration::ZERO),
                warm_start: vec![sixes.clone()],
                companion,
                constraints: constraints.clone(),
                ..ColgenOptions::default()
            },
        )
        .unwrap()
        .objective
    };
    let alone = run(None).expect("the start is diverse");
    let cost = objective_of(&inst, &threes, Criterion::Dbil);
    assert!(
        cost < alone,
        "the test needs a cheaper partition than the start"
    );
    assert_eq!(run(Some(publishes(threes))), Some(alone));
    // A diverse partition cheaper than the start (the greedy cover, repaired) is taken.
    let repaired = constrained_start(
        &inst,
        &greedy_cover(&inst),
        &constraints,
        SumCriterion::Dbil,
    )
    .expect("a repaired cover");
    assert!(constraints.partition_ok(repaired.labels()));
    let better = objective_of(&inst, &repaired, Criterion::Dbil);
    assert!(
        better < alone,
        "the repaired cover beats classes of consecutive records"
    );
    assert_eq!(run(Some(publishes(repaired))), Some(better));
}

/// With `companion_duals` the run hands its companion the root LP's duals once, at the LP's
/// first convergence: they add up to that LP's value; without it the companion keeps the
/// combinatorial bounds it started with. The optimum is the same either way.
#[test]
fn the_companion_gets_the_root_lps_duals_when_asked() {
    let n = 500;
    let inst = clusters_of_five(n);
    for duals in [false, true] {
        let starts: Arc<Mutex<Vec<RecordBounds>>> = Arc::default();
        let seen = Arc::clone(&starts);
        let records: Companion = Arc::new(
            move |_: &Instance, _, b: &RecordBounds, _: &Partition, _, _, _: Publish| {
                seen.lock().unwrap().push(b.clone());
                while !optik_models::stop::requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
            },
        );
        let r = solve_colgen(
            &inst,
            ColgenOptions {
                criterion: Criterion::Dbil,
                warm_start: vec![Partition::from_labels(&vec![0; n])],
                companion: Some(records),
                companion_duals: duals,
                ..ColgenOptions::default()
            },
        )
        .unwrap();
        assert_eq!(r.status, Status::Optimal);
        assert_eq!(r.objective, Some(5 * (n as i64 / 5)));
        assert_eq!(r.stats.companion_duals, duals as u64);
        let starts = starts.lock().unwrap();
        assert!(starts.iter().all(|b| b.values.len() == n));
        let lp = r.stats.lp_bound.expect("the root LP converged");
        for b in starts.iter().filter(|b| b.duals) {
            assert!(duals, "duals only when asked");
            let sum: f64 = b.values.iter().sum();
            assert!(
                (sum - lp).abs() <= 1e-6 * lp.abs().max(1.0),
                "{sum} against {lp}"
            );
        }
    }
}

#[test]
fn the_companion_stops_when_the_run_ends() {
    // Tight, well separated clusters of five at k = 5: proven at the root in well under a
    // second; a companion that ignored the stop would hold the run for 60 s.
    let n = 500;
    let inst = clusters_of_five(n);
    let waits: Companion = Arc::new(
        |_: &Instance, _, _: &RecordBounds, _: &Partition, _, _, _: Publish| {
            let t = Instant::now();
            while !optik_models::stop::requested() && t.elapsed() < Duration::from_secs(60) {
                std::thread::sleep(Duration::from_millis(1));
            }
        },
    );
    let t = Instant::now();
    let r = solve_colgen(
        &inst,
        ColgenOptions {
            criterion: Criterion::Dbil,
            warm_start: vec![Partition::from_labels(&vec![0; n])],
            companion: Some(waits),
            ..ColgenOptions::default()
        },
    )
    .unwrap();
    assert_eq!(r.status, Status::Optimal);
    // n / 5 groups of five at diameter 1: each costs 5 · 1
    assert_eq!(r.objective, Some(5 * (n as i64 / 5)));
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
}

/// Engine against engine: column generation with its companion search (`models::solve`, the
/// default) proves the same optimum as without one, and both bounds lie below it.
#[test]
fn runs_with_and_without_the_companion_prove_the_same_optimum() {
    for (seed, ks) in [(11, &[2, 3][..]), (12, &[2][..])] {
        let inst = random_instance(500, ks, seed);
        let with = solve(
            &inst,
            Engine::Colgen,
            SolveOptions {
                criterion: Criterion::Dbil,
                time_limit: Some(Duration::from_secs(120)),
                ..SolveOptions::default()
            },
        )
        .unwrap()
        .result;
        let without = solve_colgen(
            &inst,
            ColgenOptions {
                criterion: Criterion::Dbil,
                time_limit: Some(Duration::from_secs(120)),
                ..ColgenOptions::default()
            },
        )
        .unwrap();
        assert_eq!(with.status, Status::Optimal, "{:?}", with.note);
        assert_eq!(without.status, Status::Optimal, "{:?}", without.note);
        assert_eq!(with.objective, without.objective, "seed {seed}");
        let p = with.partition.expect("a partition");
        assert!(p.violations(&inst.k).is_empty());
        assert_eq!(
            Some(objective_of(&inst, &p, Criterion::Dbil)),
            with.objective
        );
    }
}

/// A companion that notes the cores of every (re)start in `calls` and waits for its stop; on
/// every core it first hands over `on_all`, when given.
fn waiting_companion(calls: Arc<Mutex<Vec<Cores>>>, on_all: Option<Partition>) -> Companion {
    Arc::new(
        move |_: &Instance,
              _,
              _: &RecordBounds,
              _: &Partition,
              _,
              cores: Cores,
              publish: Publish| {
            calls.lock().unwrap().push(cores);
            if let (Cores::All, Some(p)) = (cores, &on_all) {
                publish(p, 0);
            }
            let t = Instant::now();
            while !optik_models::stop::requested() && t.elapsed() < Duration::from_secs(60) {
                std::thread::sleep(Duration::from_millis(1));
            }
        },
    )
}

/// A tree that cannot close its gap before the limit hands its core to the companion after
/// a quarter of its time: the companion restarts once on every core, its partitions still
/// reach the result, the limit holds, and the bound stays the tree's: at least the LP's, at
/// most the optimum.
#[test]
fn a_stalled_tree_hands_its_core_to_the_companion() {
    let count = 168; // even: the LP's 1.5 classes a triangle stay within n / 2 classes
    let (inst, best) = triangles(count);
    let optimum = 57 * count as i64;
    let calls: Arc<Mutex<Vec<Cores>>> = Arc::default();
    let companion = waiting_companion(Arc::clone(&calls), Some(best));
    let limit = Duration::from_secs(8);
    let t = Instant::now();
    let r = solve_colgen(
        &inst,
        ColgenOptions {
            time_limit: Some(limit),
            cuts: false,
            handover_after: Some(0.25),
            companion: Some(companion),
            ..ColgenOptions::default()
        },
    )
    .unwrap();
    let took = t.elapsed();
    let handed = r.stats.handover_s.expect("handed over");
    assert!(handed < limit.as_secs_f64(), "{handed}");
    let calls = calls.lock().unwrap().clone();
    assert_eq!(calls.last(), Some(&Cores::All), "{calls:?}");
    assert_eq!(calls.iter().filter(|&&c| c == Cores::All).count(), 1);
    assert_eq!(r.status, Status::Feasible, "{:?}", r.note);
    assert_eq!(r.objective, Some(optimum));
    let lb = r.lower_bound.expect("a bound");
    assert!((39 * count as i64..optimum).contains(&lb), "{lb}");
    assert!(took <= limit + Duration::from_secs(2), "{took:?}");
}

/// With hand-over dives, a stalled tree keeps its core and dives from the root LP with random
/// fixing for their share of the time left: until the limit with a share of 1 (the companion
/// is never restarted on every core), for half of it with 0.5 (then the companion restarts on
/// every core, once). The dives are counted, the partition is k_i-anonymous, the limit holds,
/// and the bound stays the tree's (the dives never touch it), stopped at either of two moments.
#[test]
fn a_stalled_tree_with_hand_over_dives_keeps_its_core_for_their_share() {
    let count = 168;
    let (inst, _) = triangles(count);
    let optimum = 57 * count as i64;
    let runs = [(2, 1.0), (5, 1.0), (2, 0.5), (5, 0.5)];
    for (limit, share) in runs.map(|(s, share)| (Duration::from_secs(s), share)) {
        let calls: Arc<Mutex<Vec<Cores>>> = Arc::default();
        let companion = waiting_companion(Arc::clone(&calls), None);
        let t = Instant::now();
        let r = solve_colgen(
            &inst,
            ColgenOptions {
                time_limit: Some(limit),
                cuts: false,
                handover_after: Some(0.25),
                handover_dives: Some(share),
                companion: Some(companion),
                ..ColgenOptions::default()
            },
        )
        .unwrap();
        let took = t.elapsed();
        assert!(r.stats.handover_s.is_some(), "{limit:?}: no hand-over");
        assert!(r.stats.handover_dives > 0, "{limit:?}: no dive");
        assert!(r.stats.dives >= r.stats.handover_dives);
        let calls = calls.lock().unwrap().clone();
        let on_every_core = calls.iter().filter(|&&c| c == Cores::All).count();
        let expected = usize::from(share < 1.0);
        assert_eq!(on_every_core, expected, "{limit:?} {share}: {calls:?}");
        assert_eq!(r.status, Status::Feasible, "{:?}", r.note);
        let p = r.partition.as_ref().expect("a partition");
        assert!(p.violations(&inst.k).is_empty());
        let objective = r.objective.expect("an objective");
        assert!(objective >= optimum, "{objective}");
        let lb = r.lower_bound.expect("a bound");
        assert!(
            (39 * count as i64..optimum).contains(&lb),
            "{limit:?}: {lb}"
        );
        assert!(
            took <= limit + Duration::from_secs(2),
            "{limit:?}: {took:?}"
        );
    }
}

/// A proof MIP stopped by its limit ends a margin before the run's deadline (HiGHS overruns
/// its own limit; here its limit is 10 ms): the run hands the time left to the companion, which
/// restarts on every core, the result keeps the run's optimum, and the limit holds. The MIP
/// (10,080 columns) starts at about 0.2 s and ends 0.05-0.07 s later in most runs, but in about
/// one in fifteen, alone on the machine or in CI, HiGHS's root separation re-solved its LP for
/// seconds without looking at its limit (gdb: `HighsSeparation::separationRound` →
/// `HighsLpRelaxation::resolveLp`; 6.3 s once) and the run left it half a second past its
/// deadline (`detached::PAST_DEADLINE`), with no time left to hand over: such a run is held to
/// the rest (the note, the optimum, the limit), and every other run to the hand-over too.
#[test]
fn a_proof_mip_stopped_by_the_clock_hands_the_rest_to_the_companion() {
    let count = 168;
    let (inst, _) = triangles(count);
    let optimum = 57 * count as i64;
    let calls: Arc<Mutex<Vec<Cores>>> = Arc::default();
    let companion = waiting_companion(Arc::clone(&calls), None);
    let limit = Duration::from_secs(3);
    let t = Instant::now();
    let r = solve_colgen(
        &inst,
        ColgenOptions {
            time_limit: Some(limit),
            cuts: false,
            proof: optik_models::colgen::Proof::Enumeration,
            proof_mip_seconds: Some(0.01),
            companion: Some(companion),
            ..ColgenOptions::default()
        },
    )
    .unwrap();
    let took = t.elapsed();
    assert_eq!(r.note.as_deref(), Some("time limit in the proof MIP"));
    let handed = r.stats.handover_s.expect("handed over");
    if handed < limit.as_secs_f64() {
        let calls = calls.lock().unwrap().clone();
        assert_eq!(calls.last(), Some(&Cores::All), "{calls:?}");
    } else {
        // HiGHS's root stalled past the deadline (above).
        assert!(r.stats.mip_time_s >= 2.0, "{handed} {}", r.stats.mip_time_s);
    }
    assert_eq!(r.objective, Some(optimum));
    assert!(took <= limit + Duration::from_secs(2), "{took:?}");
}

/// Below 500 records the companion starts only after a tenth of the time limit (runs that
/// prove by then stay reproducible, and take nothing from it), from the run's incumbent; its
/// partitions still reach the result. Without a limit it never starts.
#[test]
fn a_small_instance_starts_its_companion_late() {
    let count = 100; // 300 records
    let (inst, best) = triangles(count);
    let started: Arc<Mutex<Vec<Duration>>> = Arc::default();
    let t0 = Instant::now();
    let companion = |started: Arc<Mutex<Vec<Duration>>>, best: Partition| -> Companion {
        Arc::new(
            move |_: &Instance, _, _: &RecordBounds, _: &Partition, _, _, publish: Publish| {
                started.lock().unwrap().push(t0.elapsed());
                publish(&best, 0);
                while !optik_models::stop::requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
            },
        )
    };
    let limit = Duration::from_secs(4);
    let r = solve_colgen(
        &inst,
        ColgenOptions {
            time_limit: Some(limit),
            cuts: false,
            handover_after: None,
            // The proof probe proves this instance at the root in 0.03 s, before the
            // companion's start.
            proof_probe: None,
            companion: Some(companion(Arc::clone(&started), best.clone())),
            ..ColgenOptions::default()
        },
    )
    .unwrap();
    let first = *started
        .lock()
        .unwrap()
        .first()
        .expect("the companion started");
    assert!(first >= limit.mul_f64(0.1), "{first:?}");
    assert_eq!(r.objective, Some(57 * count as i64));
    assert!(t0.elapsed() <= limit + Duration::from_secs(2));
    // No limit (cuts on: the LP is the optimum, proven at the root): no companion.
    let none: Arc<Mutex<Vec<Duration>>> = Arc::default();
    let r = solve_colgen(
        &inst,
        ColgenOptions {
            companion: Some(companion(Arc::clone(&none), best)),
            ..ColgenOptions::default()
        },
    )
    .unwrap();
    assert_eq!(r.status, Status::Optimal, "{:?}", r.note);
    assert_eq!(r.objective, Some(57 * count as i64));
    assert!(none.lock().unwrap().is_empty());
}
