//! Distances on demand: the large-neighbourhood search reads distances through this trait, so a
//! table too large for an n × n matrix (issue 14: 30,162 records) can compute them from its
//! attributes instead. Neighbourhoods of a few hundred records become small dense [`Instance`]s.

use crate::Instance;

/// The records, their k_i and their integer distances (the units of [`Instance`]: distance ×
/// scale, rounded). Shared by the worker threads, hence `Sync`.
pub trait DistanceOracle: Sync {
    /// Number of records.
    fn n(&self) -> usize;
    /// Privacy constraint k_i of record `i`.
    fn k(&self, i: usize) -> u32;
    /// Integer distance between records `i` and `j` (symmetric, zero on the diagonal).
    fn d(&self, i: usize, j: usize) -> i64;
    /// Integer units per distance unit, carried into the sub-instances.
    fn scale(&self) -> f64;
}

impl DistanceOracle for Instance {
    fn n(&self) -> usize {
        self.n
    }

    fn k(&self, i: usize) -> u32 {
        self.k[i]
    }

    fn d(&self, i: usize, j: usize) -> i64 {
        self.dist[i][j]
    }

    fn scale(&self) -> f64 {
        self.scale
    }
}

/// The dense instance over `records` (local index t is record `records[t]`), with the oracle's
/// distances and k_i. Every k_i must be at most `records.len()`, which holds when `records` is a
/// union of k_i-anonymous classes.
///
/// # Panics
/// When some k_i exceeds `records.len()`.
pub fn sub_instance<O: DistanceOracle + ?Sized>(oracle: &O, records: &[usize]) -> Instance {
    let m = records.len();
    let mut dist = vec![vec![0i64; m]; m];
    for a in 0..m {
        for b in a + 1..m {
            let v = oracle.d(records[a], records[b]);
            dist[a][b] = v;
            dist[b][a] = v;
        }
    }
    let k = records.iter().map(|&i| oracle.k(i)).collect();
    Instance::new(oracle.scale(), k, dist)
        .expect("a union of k_i-anonymous classes with the oracle's distances is an instance")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_instance_keeps_distances_and_k() {
        let inst = Instance::from_distance(10.0, vec![1, 2, 2, 3], |i, j| (i + j) as f64).unwrap();
        let sub = sub_instance(&inst, &[3, 1, 0]);
        assert_eq!(sub.n, 3);
        assert_eq!(sub.k, vec![3, 2, 1]);
        assert_eq!(sub.d(0, 1), inst.d(3, 1));
        assert_eq!(sub.d(2, 0), inst.d(0, 3));
        assert_eq!(sub.scale, 10.0);
        assert_eq!(DistanceOracle::n(&inst), 4);
        assert_eq!(DistanceOracle::k(&inst, 2), 2);
    }
}
