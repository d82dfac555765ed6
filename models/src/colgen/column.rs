//! Columns of the set-partitioning master: candidate classes, their integer cost, and the rule
//! that keeps only classes an optimal solution may need (valid and not splittable).

use crate::{Criterion, Instance};

/// A candidate class: members in increasing record order and its integer cost.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column {
    /// Members, sorted increasingly.
    pub members: Vec<u32>,
    /// Cost of the class under the criterion (integer distance units).
    pub cost: i64,
}

impl Column {
    /// Builds a column from any member order, computing its cost.
    pub fn new(inst: &Instance, criterion: Criterion, mut members: Vec<u32>) -> Self {
        members.sort_unstable();
        let cost = class_cost(inst, criterion, &members);
        Column { members, cost }
    }
}

/// Cost of one class: |C|·diam(C) for dbil, Σ pairwise distances for wcsd (the two criteria that
/// are sums over classes, which is what a set-partitioning master needs).
pub fn class_cost(inst: &Instance, criterion: Criterion, members: &[u32]) -> i64 {
    let mut diam = 0i64;
    let mut sum = 0i64;
    for (a, &i) in members.iter().enumerate() {
        for &j in &members[a + 1..] {
            let d = inst.d(i as usize, j as usize);
            diam = diam.max(d);
            sum += d;
        }
    }
    match criterion {
        Criterion::Wcsd => sum,
        _ => members.len() as i64 * diam,
    }
}

/// True when the class is k_i-anonymous (|C| ≥ max k) and cannot be split into two
/// k_i-anonymous classes. A split never raises a dbil or wcsd cost, so an optimal partition made
/// only of such classes always exists.
///
/// `ks` are the members' k values in any order. With K = max k, a split exists iff some part A
/// without a record of k = K has |A| ≥ max_{A} k and |C| − |A| ≥ K; the best A of size a takes
/// the a smallest k values, so the test is: ∃ a ∈ 1..=|C|−K with (a-th smallest k) ≤ a.
pub fn valid_unsplittable(ks: &mut [u32]) -> bool {
    let size = ks.len();
    let kmax = ks.iter().copied().max().unwrap_or(0) as usize;
    if size < kmax || size == 0 {
        return false;
    }
    ks.sort_unstable();
    !(1..=size - kmax).any(|a| ks[a - 1] as usize <= a)
}

/// Largest size a valid unsplittable class whose largest k is `kmax` can have (2·kmax − 1).
pub fn max_size(kmax: u32) -> usize {
    (2 * kmax as usize).saturating_sub(1).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splittable_examples() {
        assert!(valid_unsplittable(&mut [2, 2]));
        assert!(valid_unsplittable(&mut [2, 2, 2]));
        assert!(!valid_unsplittable(&mut [2, 2, 2, 2]));
        assert!(valid_unsplittable(&mut [3, 2, 2, 2]));
        // five records with two k = 2 members split into {2,2} and {3,3,3}
        assert!(!valid_unsplittable(&mut [3, 3, 3, 2, 2]));
        assert!(valid_unsplittable(&mut [3, 3, 3, 3, 2]));
        assert!(!valid_unsplittable(&mut [3, 3]));
        assert!(valid_unsplittable(&mut [1]));
        assert!(!valid_unsplittable(&mut [1, 1]));
    }
}
