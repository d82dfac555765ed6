//! Shared generators for the CP tests.
#![allow(dead_code, reason = "each test target uses a subset")]

use optik_models::Instance;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random points in a small grid (Manhattan distance) with k_i drawn from `ks`.
pub fn random_instance(n: usize, ks: &[u32], seed: u64) -> Instance {
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
pub fn random_matrix_instance(n: usize, ks: &[u32], seed: u64) -> Instance {
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
