//! Equivalence classes: records whose quasi-identifier texts are all equal (the release's
//! text, whatever tool wrote it), the k achieved, and the records below their k_i.

use super::column::{combine, Column};
use serde::Serialize;
use std::collections::BTreeMap;

/// The partition of the records by their quasi-identifier tuple.
#[derive(Clone, Debug)]
pub(crate) struct Classes {
    /// Class of each record (dense, first-seen order).
    pub of: Vec<u32>,
    /// Size of each class.
    pub sizes: Vec<usize>,
}

impl Classes {
    /// Groups the records by the tuple of `qi` texts.
    pub(crate) fn of(qi: &[&Column], n: usize) -> Classes {
        let parts: Vec<&[u32]> = qi.iter().map(|c| c.codes.as_slice()).collect();
        let (of, distinct) = combine(&parts, n);
        let mut sizes = vec![0; distinct];
        for &c in &of {
            sizes[c as usize] += 1;
        }
        Classes { of, sizes }
    }

    /// Size of the class of record `r`.
    pub(crate) fn size_of(&self, r: usize) -> usize {
        self.sizes[self.of[r] as usize]
    }

    /// Records of each class.
    pub(crate) fn members(&self) -> Vec<Vec<usize>> {
        let mut m = vec![Vec::new(); self.sizes.len()];
        for (r, &c) in self.of.iter().enumerate() {
            m[c as usize].push(r);
        }
        m
    }
}

/// The `classes` section of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ClassReport {
    pub records: usize,
    pub classes: usize,
    /// Smallest class size: the k the table achieves.
    pub k_achieved: usize,
    pub largest: usize,
    /// class size → number of classes.
    pub size_histogram: BTreeMap<usize, usize>,
    /// With a k source: records whose class is smaller than their k_i.
    pub k_violations: Option<usize>,
    /// With a k source: true when no record is below its k_i.
    pub k_satisfied: Option<bool>,
    /// With a k source: file line of the first record below its k_i.
    pub first_violation_line: Option<u64>,
}

/// Summarises the classes; `k` (one k_i per record) adds the violation count.
pub(crate) fn report(c: &Classes, k: Option<&[u32]>, lines: &[u64]) -> ClassReport {
    let mut size_histogram = BTreeMap::new();
    for &s in &c.sizes {
        *size_histogram.entry(s).or_default() += 1;
    }
    let violating: Option<Vec<usize>> = k.map(|k| {
        (0..c.of.len())
            .filter(|&r| c.size_of(r) < k[r] as usize)
            .collect()
    });
    ClassReport {
        records: c.of.len(),
        classes: c.sizes.len(),
        k_achieved: c.sizes.iter().copied().min().unwrap_or(0),
        largest: c.sizes.iter().copied().max().unwrap_or(0),
        size_histogram,
        k_violations: violating.as_ref().map(Vec::len),
        k_satisfied: violating.as_ref().map(Vec::is_empty),
        first_violation_line: violating
            .as_ref()
            .and_then(|v| v.first().map(|&r| lines[r])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_k_and_violations() {
        let a = Column::encode("a", ["x", "x", "y", "y", "y", "z"]);
        let b = Column::encode("b", ["1", "1", "1", "1", "1", "1"]);
        let c = Classes::of(&[&a, &b], 6);
        assert_eq!(c.sizes, vec![2, 3, 1]);
        let r = report(&c, Some(&[2, 2, 3, 4, 3, 1]), &[2, 3, 4, 5, 6, 7]);
        assert_eq!((r.classes, r.k_achieved, r.largest), (3, 1, 3));
        assert_eq!(r.k_violations, Some(1));
        assert_eq!(r.first_violation_line, Some(5));
        assert_eq!(r.k_satisfied, Some(false));
        assert_eq!(r.size_histogram, BTreeMap::from([(1, 1), (2, 1), (3, 1)]));
        let r = report(&c, None, &[2, 3, 4, 5, 6, 7]);
        assert_eq!((r.k_violations, r.k_satisfied), (None, None));
    }
}
