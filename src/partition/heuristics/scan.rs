//! What the heuristics' scans share: the largest k_i among the records left, and the total
//! orders on `(value, record)` that make parallel scans deterministic.

/// Largest constraint among the records still unassigned, maintained under removals in
/// amortised O(1) (a count per k value).
#[derive(Clone, Debug)]
pub(super) struct MaxK {
    counts: Vec<usize>,
    max: usize,
    len: usize,
}

impl MaxK {
    pub(super) fn new(k: &[u32]) -> Self {
        let max = k.iter().copied().max().unwrap_or(0) as usize;
        let mut counts = vec![0; max + 1];
        for &x in k {
            counts[x as usize] += 1;
        }
        MaxK {
            counts,
            max,
            len: k.len(),
        }
    }

    pub(super) fn remove(&mut self, k: u32) {
        self.counts[k as usize] -= 1;
        self.len -= 1;
        while self.max > 0 && self.counts[self.max] == 0 {
            self.max -= 1;
        }
    }

    /// 0 when every record has been removed.
    pub(super) fn max(&self) -> usize {
        self.max
    }

    /// Whether some subset of the remaining records is a valid class (`|T| ≥ max_{i∈T} k_i`):
    /// true iff, for some m, at least m remaining records have k_i ≤ m.
    pub(super) fn feasible(&self) -> bool {
        if self.len == 0 {
            return false;
        }
        if self.len >= self.max {
            return true;
        }
        let mut at_most = 0;
        for m in 1..=self.len {
            at_most += self.counts[m];
            if at_most >= m {
                return true;
            }
        }
        false
    }
}

/// `(value, record)` ordering used by every parallel scan: by value, then by record index.
#[inline]
pub(super) fn smaller(a: (f64, usize), b: (f64, usize)) -> (f64, usize) {
    if b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).is_lt() {
        b
    } else {
        a
    }
}

/// Larger value wins; equal values go to the smaller record index.
#[inline]
pub(super) fn further(a: (f64, usize), b: (f64, usize)) -> (f64, usize) {
    match b.0.total_cmp(&a.0) {
        std::cmp::Ordering::Greater => b,
        std::cmp::Ordering::Less => a,
        std::cmp::Ordering::Equal => {
            if b.1 < a.1 {
                b
            } else {
                a
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_k_tracks_removals() {
        let mut m = MaxK::new(&[2, 5, 3, 5]);
        assert_eq!(m.max(), 5);
        m.remove(5);
        assert_eq!(m.max(), 5);
        m.remove(5);
        assert_eq!(m.max(), 3);
        m.remove(2);
        m.remove(3);
        assert_eq!(m.max(), 0);
        assert!(!m.feasible());
        // k 4, 2, 2 left: the two records asking for 2 form a valid class.
        let mut m = MaxK::new(&[4, 2, 2, 1]);
        m.remove(1);
        assert!(m.feasible());
        // k 4, 2 left: no subset is valid.
        m.remove(2);
        assert!(!m.feasible());
    }

    #[test]
    fn scan_orders_break_ties_by_index() {
        assert_eq!(smaller((1.0, 4), (1.0, 2)), (1.0, 2));
        assert_eq!(smaller((0.5, 4), (1.0, 2)), (0.5, 4));
        assert_eq!(further((1.0, 4), (1.0, 2)), (1.0, 2));
        assert_eq!(further((2.0, 4), (1.0, 2)), (2.0, 4));
    }
}
