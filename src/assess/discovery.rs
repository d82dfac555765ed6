//! Quasi-identifier discovery (seed 004, as in ARX): for every subset of the quasi-identifiers
//! up to `max_subset` attributes,
//!
//! - **distinction** = #distinct tuples / n (an α-distinct subset becomes a key after removing
//!   a 1 − α share of the records);
//! - **separation** = share of the n(n−1)/2 record pairs that differ on at least one attribute
//!   of the subset = 1 − Σ_classes C(f, 2) / C(n, 2) (1 when n = 1: no pair is joined).
//!
//! Sorted by separation, then distinction, both descending (ties by subset order). Each subset
//! costs one pass over the records, so the search is bounded by the number of subsets.

use super::column::{combine, subsets, Column};
use serde::Serialize;

/// One subset's ratios.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Candidate {
    pub attributes: Vec<String>,
    pub distinction: f64,
    pub separation: f64,
}

/// Ratios of a set of columns.
pub(crate) fn ratios(cols: &[&Column], n: usize) -> (f64, f64) {
    let parts: Vec<&[u32]> = cols.iter().map(|c| c.codes.as_slice()).collect();
    let (codes, distinct) = combine(&parts, n);
    let mut sizes = vec![0u64; distinct];
    for c in codes {
        sizes[c as usize] += 1;
    }
    let pairs = n as f64 * (n as f64 - 1.0) / 2.0;
    let joined: f64 = sizes
        .iter()
        .map(|&f| (f * f.saturating_sub(1)) as f64 / 2.0)
        .sum();
    let separation = if pairs > 0.0 {
        1.0 - joined / pairs
    } else {
        1.0
    };
    (distinct as f64 / n as f64, separation)
}

/// Every subset up to `max` attributes, sorted.
pub(crate) fn search(qi: &[&Column], n: usize, max: usize) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = subsets(qi.len(), max)
        .into_iter()
        .map(|s| {
            let cols: Vec<&Column> = s.iter().map(|&i| qi[i]).collect();
            let (distinction, separation) = ratios(&cols, n);
            Candidate {
                attributes: cols.iter().map(|c| c.name.clone()).collect(),
                distinction,
                separation,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.separation
            .total_cmp(&a.separation)
            .then(b.distinction.total_cmp(&a.distinction))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_004_distinction_and_separation() {
        let age = Column::encode("age", ["20", "30", "40", "20", "40"]);
        let sex = Column::encode("sex", ["Female", "Female", "Female", "Male", "Male"]);
        let state = Column::encode("state", ["CA", "CA", "TX", "NY", "CA"]);
        // Age: 0.6-distinct, 0.8-separation.
        assert_eq!(ratios(&[&age], 5), (0.6, 0.8));
        // (Sex, State): 0.8-distinct, 0.9-separation.
        let (d, s) = ratios(&[&sex, &state], 5);
        assert_eq!(d, 0.8);
        assert!((s - 0.9).abs() < 1e-12);
        let all = search(&[&age, &sex, &state], 5, 2);
        assert_eq!(all.len(), 6);
        assert!(all.windows(2).all(|w| w[0].separation >= w[1].separation));
        assert_eq!(all[0].separation, 1.0);
        assert_eq!(ratios(&[&Column::encode("x", ["a"])], 1), (1.0, 1.0));
    }
}
