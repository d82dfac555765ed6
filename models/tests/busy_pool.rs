//! The large-neighbourhood search keeps its pace while rayon's global pool is busy: as column
//! generation's companion it runs beside the run's own pricing, which fills that pool for
//! seconds at a time. Its workers price on pools of their own, so a neighbourhood keeps to its
//! time limit. Its own test binary: it blocks the global pool, which would stall the tests
//! running beside it.

use optik_models::colgen::start::greedy_cover;
use optik_models::lns::cost::record_bounds;
use optik_models::lns::SumCriterion;
use optik_models::{solve_lns, Criterion, Instance, LnsOptions};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

/// `n` records on a line with a little noise, k = 3 each: neighbourhoods of 12 records.
fn line_instance(n: usize) -> Instance {
    let xs: Vec<f64> = (0..n)
        .map(|i| i as f64 + ((i * 7919) % 13) as f64 / 13.0)
        .collect();
    let dist = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| ((xs[i] - xs[j]).abs() * 100.0).round() as i64)
                .collect()
        })
        .collect();
    Instance::new(1.0, vec![3; n], dist).expect("a valid instance")
}

#[test]
fn neighbourhoods_keep_their_time_limit_while_the_global_pool_is_busy() {
    let inst = line_instance(60);
    let start = greedy_cover(&inst);
    // Computed on the global pool before it fills (column generation hands its companion
    // the bounds it computed).
    let bounds = record_bounds(
        &inst,
        SumCriterion::try_from(Criterion::Wcsd).unwrap(),
        None,
    );
    // Every thread of the global pool waits until the search has returned, or 15 s.
    let threads = rayon::current_num_threads();
    let release = Arc::new(AtomicBool::new(false));
    let busy = Arc::new(Barrier::new(threads + 1));
    let t0 = Instant::now();
    for _ in 0..threads {
        let (release, busy) = (release.clone(), busy.clone());
        rayon::spawn(move || {
            busy.wait();
            while !release.load(Ordering::SeqCst) && t0.elapsed() < Duration::from_secs(15) {
                std::thread::sleep(Duration::from_millis(1));
            }
        });
    }
    busy.wait();
    let r = solve_lns(
        &inst,
        &start,
        LnsOptions {
            criterion: Criterion::Wcsd,
            deadline: Some(t0 + Duration::from_secs(20)),
            size: 12,
            min_size: 12,
            max_size: 12,
            threads: 1,
            max_neighbourhoods: Some(6),
            record_bounds: Some(bounds),
            ..LnsOptions::default()
        },
    );
    release.store(true, Ordering::SeqCst);
    let r = r.expect("the search runs");
    // On the global pool the first neighbourhood's pricing would wait for the deadline.
    assert_eq!(r.stats.neighbourhoods, 6, "{:?}", r.stats);
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    assert!(r.stats.overrun_s < 1.0, "{:?}", r.stats);
}
