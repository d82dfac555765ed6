//! Shared instance generators of the engine tests.

use optik_models::{Instance, Partition};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random points in a small grid (Manhattan distance) with k_i drawn from `ks`.
pub(crate) fn random_instance(n: usize, ks: &[u32], seed: u64) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dims = rng.gen_range(1..=3);
    let pts: Vec<Vec<i64>> = (0..n)
        .map(|_| (0..dims).map(|_| rng.gen_range(0..20)).collect())
        .collect();
    let k: Vec<u32> = (0..n)
        .map(|_| ks[rng.gen_range(0..ks.len())].min(n as u32))
        .collect();
    let dist = pts
        .iter()
        .map(|a| {
            pts.iter()
                .map(|b| a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum())
                .collect()
        })
        .collect();
    Instance::new(1.0, k, dist).unwrap()
}

/// Random symmetric matrix (not necessarily metric).
#[allow(clippy::needless_range_loop, reason = "fills a symmetric matrix")]
pub(crate) fn random_matrix_instance(n: usize, ks: &[u32], seed: u64) -> Instance {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dist = vec![vec![0i64; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let v = rng.gen_range(1..50);
            dist[i][j] = v;
            dist[j][i] = v;
        }
    }
    let k: Vec<u32> = (0..n)
        .map(|_| ks[rng.gen_range(0..ks.len())].min(n as u32))
        .collect();
    Instance::new(1.0, k, dist).unwrap()
}

/// Which extra constraint a random instance gets.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Diversity,
    Links,
    MaxSize,
    All,
}

/// Random class constraints of one kind for `inst`: sensitive values in 0..3 with l ∈ {2, 3},
/// up to three must-links and three cannot-links, a maximum size between max k and max k + 2.
pub(crate) fn random_constraints(
    inst: &Instance,
    kind: Kind,
    seed: u64,
) -> optik_models::ClassConstraints {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let n = inst.n;
    let mut c = optik_models::ClassConstraints::default();
    let pair = |rng: &mut ChaCha8Rng| loop {
        let a = rng.gen_range(0..n as u32);
        let b = rng.gen_range(0..n as u32);
        if a != b {
            break (a, b);
        }
    };
    if matches!(kind, Kind::Diversity | Kind::All) {
        c.diversity = Some(optik_models::Diversity {
            values: (0..n).map(|_| rng.gen_range(0..3)).collect(),
            l: rng.gen_range(2..=3),
        });
    }
    if matches!(kind, Kind::Links | Kind::All) && n >= 2 {
        for _ in 0..rng.gen_range(0..=3) {
            c.must.push(pair(&mut rng));
        }
        for _ in 0..rng.gen_range(0..=3) {
            c.cannot.push(pair(&mut rng));
        }
    }
    if matches!(kind, Kind::MaxSize | Kind::All) {
        let kmax = *inst.k.iter().max().unwrap();
        c.max_size = Some(kmax + rng.gen_range(0..=2));
    }
    c
}

/// Random points in a small grid with the *squared* Euclidean distance times 2520 = lcm(1..=10),
/// k_i drawn from `ks`: an SSE instance (n ≤ 10) on which every class's pair sum over its size
/// is an integer, so the per-class rounding of the integer SSE never acts and splitting a class
/// never raises its cost (Domingo-Ferrer & Mateo-Sanz), exactly as on real data.
pub(crate) fn random_sse_instance(n: usize, ks: &[u32], seed: u64) -> Instance {
    assert!(n <= 10, "2520 is divisible by every class size up to 10");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dims = rng.gen_range(1..=3);
    let pts: Vec<Vec<i64>> = (0..n)
        .map(|_| (0..dims).map(|_| rng.gen_range(0..20)).collect())
        .collect();
    let k: Vec<u32> = (0..n)
        .map(|_| ks[rng.gen_range(0..ks.len())].min(n as u32))
        .collect();
    let dist = pts
        .iter()
        .map(|a| {
            pts.iter()
                .map(|b| 2520 * a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<i64>())
                .collect()
        })
        .collect();
    Instance::new(2520.0, k, dist).unwrap()
}

/// Triangles with sides 10, 10 and 19, 1,000 apart, at k = 2: each must be one class
/// (3 · 19 = 57; a pair leaves its third record to a class across 1,000), but the LP without
/// subset-row cuts takes the three pairs at ½ (39). The optimum, the triangles, costs 57 per
/// triangle; the tree would branch on every triangle to close the gap.
pub(crate) fn triangles(count: usize) -> (Instance, Partition) {
    let n = 3 * count;
    let side = |a: usize, b: usize| match (a % 3, b % 3) {
        (x, y) if x == y => 0,
        (0, 2) | (2, 0) => 19,
        _ => 10,
    };
    let dist: Vec<Vec<i64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i / 3 == j / 3 { side(i, j) } else { 1000 })
                .collect()
        })
        .collect();
    let labels: Vec<usize> = (0..n).map(|i| i / 3).collect();
    (
        Instance::new(1.0, vec![2; n], dist).unwrap(),
        Partition::from_labels(&labels),
    )
}

/// `solve` run on this thread with a stop token that a timer sets after `at` (as the
/// companion is stopped): a run stopped at a chosen moment.
pub(crate) fn stopped_after<R>(at: std::time::Duration, solve: impl FnOnce() -> R) -> R {
    let token = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopper = std::sync::Arc::clone(&token);
    let timer = std::thread::spawn(move || {
        std::thread::sleep(at);
        stopper.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let r = optik_models::stop::with_token(Some(token), solve);
    timer.join().unwrap();
    r
}
