//! The one partition type: a class id per record, shared by heuristics and exact engines.

use crate::invalid_input::InvalidInput;
use serde::{Deserialize, Serialize};

/// A partition of records `0..n` into equivalence classes, stored as a class id per record.
///
/// Class ids are canonical: classes are numbered `0, 1, ...` in the order of their first
/// record, so two equal partitions compare equal whatever ids produced them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Partition {
    class_of: Vec<usize>,
    num_classes: usize,
}

impl Partition {
    /// Builds a partition from any labelling (labels need not be contiguous).
    pub fn from_labels<L: Copy + Eq + std::hash::Hash>(labels: &[L]) -> Self {
        let mut map = std::collections::HashMap::new();
        let class_of: Vec<usize> = labels
            .iter()
            .map(|l| {
                let next = map.len();
                *map.entry(*l).or_insert(next)
            })
            .collect();
        Partition {
            num_classes: map.len(),
            class_of,
        }
    }

    /// Builds a partition from a list of classes; every record `0..n` must appear exactly once.
    pub fn from_classes(n: usize, classes: &[Vec<usize>]) -> Result<Self, InvalidInput> {
        let mut label = vec![usize::MAX; n];
        for (c, members) in classes.iter().enumerate() {
            for &i in members {
                if i >= n {
                    return Err(format!("record {i} out of range 0..{n}").into());
                }
                if label[i] != usize::MAX {
                    return Err(format!("record {i} is in two classes").into());
                }
                label[i] = c;
            }
        }
        if let Some(i) = label.iter().position(|&l| l == usize::MAX) {
            return Err(format!("record {i} is in no class").into());
        }
        Ok(Self::from_labels(&label))
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.class_of.len()
    }

    /// True when the partition covers no record.
    pub fn is_empty(&self) -> bool {
        self.class_of.is_empty()
    }

    /// Number of classes.
    pub fn num_classes(&self) -> usize {
        self.num_classes
    }

    /// Class id of record `i`.
    pub fn class_of(&self, i: usize) -> usize {
        self.class_of[i]
    }

    /// Class id per record.
    pub fn labels(&self) -> &[usize] {
        &self.class_of
    }

    /// Members of each class, in increasing record order.
    pub fn classes(&self) -> Vec<Vec<usize>> {
        let mut classes = vec![Vec::new(); self.num_classes];
        for (i, &c) in self.class_of.iter().enumerate() {
            classes[c].push(i);
        }
        classes
    }

    /// Size of each class.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes = vec![0; self.num_classes];
        for &c in &self.class_of {
            sizes[c] += 1;
        }
        sizes
    }

    /// Size of the largest class (0 for no records): a largest class size holds when this is
    /// at most it.
    pub fn largest_class(&self) -> usize {
        self.sizes().into_iter().max().unwrap_or(0)
    }

    /// Records whose class is smaller than their k_i (empty when k_i-anonymous).
    pub fn violations(&self, k: &[u32]) -> Vec<usize> {
        assert_eq!(k.len(), self.len(), "one k_i per record");
        let sizes = self.sizes();
        (0..self.len())
            .filter(|&i| sizes[self.class_of[i]] < k[i] as usize)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_canonical() {
        let a = Partition::from_labels(&[7, 7, 3, 9, 3]);
        let b = Partition::from_labels(&[0, 0, 1, 2, 1]);
        assert_eq!(a, b);
        assert_eq!(a.num_classes(), 3);
        assert_eq!(a.classes(), vec![vec![0, 1], vec![2, 4], vec![3]]);
        assert_eq!(a.sizes(), vec![2, 2, 1]);
    }

    #[test]
    fn from_classes_rejects_overlap_and_gaps() {
        assert!(Partition::from_classes(3, &[vec![0, 1], vec![1, 2]]).is_err());
        assert!(Partition::from_classes(3, &[vec![0, 1]]).is_err());
        assert!(Partition::from_classes(3, &[vec![0, 3], vec![1, 2]]).is_err());
        let p = Partition::from_classes(3, &[vec![2], vec![0, 1]]).unwrap();
        assert_eq!(p.labels(), &[0, 0, 1]);
    }

    #[test]
    fn violations_name_records_below_their_k() {
        let p = Partition::from_labels(&[0, 0, 1, 1, 1]);
        assert!(p.violations(&[2, 2, 3, 3, 3]).is_empty());
        assert_eq!(p.violations(&[3, 2, 3, 3, 4]), vec![0, 4]);
    }
}
