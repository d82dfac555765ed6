//! Exhaustive optimum over all set partitions (restricted-growth strings) for tiny instances,
//! honouring every k_i and optionally the extra class constraints; the reference the CP and
//! column-generation engines are tested against.

use crate::constraints::ClassConstraints;
use crate::criteria::{evaluate, Criterion};
use crate::{Instance, Partition};

/// Largest n accepted (Bell(12) ≈ 4.2 million partitions before pruning).
pub const MAX_N: usize = 12;

/// Optimal k_i-anonymous partition for `criterion` (minimised, or maximised for split), with at
/// least `min_classes` classes. Returns the partition and its objective (integer distance units),
/// or `None` when no k_i-anonymous partition exists. Ties are broken by enumeration order.
///
/// # Panics
/// When `inst.n > MAX_N`.
pub fn brute_force(
    inst: &Instance,
    criterion: Criterion,
    min_classes: usize,
) -> Option<(Partition, i64)> {
    brute_force_with(inst, criterion, min_classes, &ClassConstraints::default())
}

/// [`brute_force`] keeping only partitions whose every class also satisfies `constraints`
/// (checked on complete partitions with [`ClassConstraints::partition_ok`]).
///
/// # Panics
/// When `inst.n > MAX_N`.
pub fn brute_force_with(
    inst: &Instance,
    criterion: Criterion,
    min_classes: usize,
    constraints: &ClassConstraints,
) -> Option<(Partition, i64)> {
    let n = inst.n;
    assert!(n <= MAX_N, "brute force is limited to n <= {MAX_N}");
    if n == 0 {
        return None;
    }
    let mut state = Search {
        inst,
        criterion,
        min_classes,
        constraints,
        labels: vec![0; n],
        sizes: Vec::new(),
        kmax: Vec::new(),
        best: None,
    };
    state.labels[0] = 0;
    state.sizes.push(1);
    state.kmax.push(inst.k[0]);
    state.rec(1);
    state
        .best
        .map(|(labels, v)| (Partition::from_labels(&labels), v))
}

struct Search<'a> {
    inst: &'a Instance,
    criterion: Criterion,
    min_classes: usize,
    constraints: &'a ClassConstraints,
    labels: Vec<usize>,
    sizes: Vec<usize>,
    kmax: Vec<u32>,
    best: Option<(Vec<usize>, i64)>,
}

impl Search<'_> {
    /// Cost of the prefix `0..len` for monotone (minimised) criteria.
    fn partial_cost(&self, len: usize) -> i64 {
        let p = Partition::from_labels(&self.labels[..len]);
        evaluate(&p, |a, b| self.inst.d(a, b)).get(self.criterion)
    }

    fn rec(&mut self, i: usize) {
        let n = self.inst.n;
        // Deficits must be fillable by the remaining records.
        let deficit: usize = self
            .sizes
            .iter()
            .zip(&self.kmax)
            .map(|(&s, &k)| (k as usize).saturating_sub(s))
            .sum();
        if deficit > n - i {
            return;
        }
        if !self.criterion.maximise() {
            if let Some((_, b)) = &self.best {
                if self.partial_cost(i) >= *b {
                    return;
                }
            }
        }
        if i == n {
            if self.sizes.len() < self.min_classes {
                return;
            }
            let p = Partition::from_labels(&self.labels);
            if !p.violations(&self.inst.k).is_empty()
                || !self.constraints.partition_ok(&self.labels)
            {
                return;
            }
            let v = evaluate(&p, |a, b| self.inst.d(a, b)).get(self.criterion);
            let better = match &self.best {
                None => true,
                Some((_, b)) => {
                    if self.criterion.maximise() {
                        v > *b
                    } else {
                        v < *b
                    }
                }
            };
            if better {
                self.best = Some((self.labels.clone(), v));
            }
            return;
        }
        let classes = self.sizes.len();
        for c in 0..=classes {
            self.labels[i] = c;
            if c == classes {
                self.sizes.push(1);
                self.kmax.push(self.inst.k[i]);
            } else {
                self.sizes[c] += 1;
            }
            let old = self.kmax[c];
            self.kmax[c] = old.max(self.inst.k[i]);
            self.rec(i + 1);
            self.kmax[c] = old;
            if c == classes {
                self.sizes.pop();
                self.kmax.pop();
            } else {
                self.sizes[c] -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(points: &[i64], k: Vec<u32>) -> Instance {
        let rows = points
            .iter()
            .map(|a| points.iter().map(|b| (a - b).abs()).collect())
            .collect();
        Instance::new(1.0, k, rows).unwrap()
    }

    #[test]
    fn two_obvious_clusters() {
        let inst = line(&[0, 1, 2, 10, 11, 12], vec![3; 6]);
        let (p, v) = brute_force(&inst, Criterion::Dbil, 1).unwrap();
        assert_eq!(p.labels(), &[0, 0, 0, 1, 1, 1]);
        assert_eq!(v, 3 * 2 + 3 * 2);
        let (_, v) = brute_force(&inst, Criterion::Diameter, 1).unwrap();
        assert_eq!(v, 2);
        let (_, v) = brute_force(&inst, Criterion::Split, 1).unwrap();
        assert_eq!(v, 8);
        let (_, v) = brute_force(&inst, Criterion::Wcsd, 1).unwrap();
        assert_eq!(v, 8);
    }

    #[test]
    fn constraints_filter_partitions() {
        use crate::constraints::Diversity;
        let inst = line(&[0, 1, 2, 10, 11, 12], vec![2; 6]);
        let (p, _) = brute_force(&inst, Criterion::Dbil, 1).unwrap();
        assert_eq!(p.num_classes(), 2);
        // Values 0,0,0,1,1,1 along the line: 2-diversity forces classes across the gap.
        let c = ClassConstraints {
            diversity: Some(Diversity {
                values: vec![0, 0, 0, 1, 1, 1],
                l: 2,
            }),
            ..ClassConstraints::default()
        };
        let (p, _) = brute_force_with(&inst, Criterion::Dbil, 1, &c).unwrap();
        assert!(c.partition_ok(p.labels()));
        let c = ClassConstraints {
            cannot: vec![(0, 1), (0, 2), (1, 2)],
            max_size: Some(1),
            ..ClassConstraints::default()
        };
        assert!(brute_force_with(&inst, Criterion::Dbil, 1, &c).is_none());
    }

    #[test]
    fn infeasible_min_classes() {
        let inst = line(&[0, 1, 2], vec![2; 3]);
        assert!(brute_force(&inst, Criterion::Split, 2).is_none());
        assert_eq!(brute_force(&inst, Criterion::Split, 1).unwrap().1, 0);
    }
}
