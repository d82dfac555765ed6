//! Columns of the set-partitioning master: candidate classes, their integer cost, and the rule
//! that keeps only classes an optimal solution may need (valid and not splittable).

use crate::{ClassConstraints, Criterion, Instance};

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

/// Cost of one class: |C|·diam(C) for dbil, Σ pairwise distances for wcsd, that sum over |C|
/// (rounded) for sse (the criteria that are sums over classes, which is what a
/// set-partitioning master needs).
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
        Criterion::Sse => crate::criteria::sse_term(sum, members.len()),
        _ => members.len() as i64 * diam,
    }
}

/// True when the class is k_i-anonymous (|C| ≥ max k) and cannot be split into two
/// k_i-anonymous classes. A split never raises a dbil or wcsd cost, nor (up to the rounding of
/// each class's term to an integer) an sse cost (docs/microaggregation.md), so an optimal
/// partition made
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

/// Largest class the master needs under the extra constraints: with hereditary constraints (no
/// l-diversity, no must-link) the dominance cap 2·kmax − 1 still holds (a larger class splits
/// into two valid classes, and parts keep every cannot-link and the maximum size), capped by the
/// maximum size. Under l-diversity or must-links the cap does not hold (a part may not be
/// l-diverse or may separate a must-link pair): it is turned off, only the maximum size (or n)
/// bounds a class.
pub fn size_limit(extra: &ClassConstraints, kmax: u32, n: usize) -> usize {
    let hard = extra.max_size.map_or(n, |m| (m as usize).min(n));
    if extra.hereditary() {
        max_size(kmax).min(hard)
    } else {
        hard
    }
}

/// Largest class the exact splittability test of [`valid_unsplittable_with`] enumerates; larger
/// classes are kept (keeping a dominated column costs time, never correctness).
const SPLIT_TEST_MAX: usize = 14;

/// [`valid_unsplittable`] under extra constraints: the class (members sorted, `ks` their k in
/// the same order) meets its k_i and the constraints, and cannot be split into two parts that
/// both do. With hereditary constraints this is the k-only test; otherwise the k-only test is a
/// quick necessary condition for a split, and the bipartitions are enumerated (up to
/// `SPLIT_TEST_MAX` members).
pub fn valid_unsplittable_with(members: &[u32], ks: &[u32], extra: &ClassConstraints) -> bool {
    let size = members.len();
    let kmax = ks.iter().copied().max().unwrap_or(0) as usize;
    if size < kmax || size == 0 || !extra.class_ok(members) {
        return false;
    }
    let k_unsplittable = valid_unsplittable(&mut ks.to_vec());
    if k_unsplittable || extra.hereditary() {
        return k_unsplittable;
    }
    if size > SPLIT_TEST_MAX {
        return true;
    }
    // Parts A ∋ members[0] and B = rest, both non-empty, both valid.
    let parts = Parts::new(members, ks, extra);
    let full = (1u32 << size) - 1;
    !(0..1u32 << (size - 1))
        .map(|m| (m << 1) | 1)
        .filter(|&m| m != full)
        .any(|m| parts.valid(m) && parts.valid(full ^ m))
}

/// The members of a class that meets its constraints, as bit masks, so that a part (a subset
/// mask) is tested without allocating: its k_i, the cap, its distinct values and the
/// must-links inside the class. (No cannot-link pair lies inside the class, so none inside a
/// part; a must-link pair lies wholly inside or outside it.) The split test runs up to 2^13
/// of them per priced class under l-diversity; building each part as a vector took most of
/// the pricing's time (Adult, 400 records, k = 5, l = 2).
struct Parts<'a> {
    ks: &'a [u32],
    cap: Option<u32>,
    l: u32,
    /// Per distinct value, the members holding it.
    value_masks: Vec<u32>,
    /// Per must-link pair inside the class, its two members.
    pair_masks: Vec<u32>,
}

impl<'a> Parts<'a> {
    fn new(members: &[u32], ks: &'a [u32], extra: &ClassConstraints) -> Self {
        let mut value_masks: Vec<(u32, u32)> = Vec::new();
        if let Some(d) = &extra.diversity {
            for (t, &i) in members.iter().enumerate() {
                let v = d.values[i as usize];
                match value_masks.iter_mut().find(|(u, _)| *u == v) {
                    Some((_, m)) => *m |= 1 << t,
                    None => value_masks.push((v, 1 << t)),
                }
            }
        }
        let local = |r: u32| members.binary_search(&r).ok();
        let pair_masks = extra
            .must
            .iter()
            .filter_map(|&(a, b)| Some((1u32 << local(a)?) | (1u32 << local(b)?)))
            .collect();
        Parts {
            ks,
            cap: extra.max_size,
            l: extra.l(),
            value_masks: value_masks.into_iter().map(|(_, m)| m).collect(),
            pair_masks,
        }
    }

    /// Whether the members in `part` form a valid class on their own.
    fn valid(&self, part: u32) -> bool {
        let size = part.count_ones();
        let mut bits = part;
        let mut kmax = 0;
        while bits != 0 {
            kmax = kmax.max(self.ks[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        let values = self.value_masks.iter().filter(|&&m| m & part != 0).count() as u32;
        size >= kmax
            && self.cap.is_none_or(|c| size <= c)
            && (self.value_masks.is_empty() || values >= self.l)
            && self
                .pair_masks
                .iter()
                .all(|&p| part & p == 0 || part & p == p)
    }
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

    proptest::proptest! {
        /// A part's bit-mask test agrees with building the part and asking the constraints.
        #[test]
        fn parts_agree_with_the_constraints(
            size in 1usize..10,
            ks in proptest::collection::vec(1u32..4, 10),
            vals in proptest::collection::vec(0u32..4, 10),
            l in 1u32..4,
            must in proptest::collection::vec((0u32..12, 0u32..12), 0..3),
            cap in proptest::option::of(2u32..9),
        ) {
            // Members 0, 2, 4, …: links may name records outside the class.
            let members: Vec<u32> = (0..size as u32).map(|t| 2 * t).collect();
            let mut values = vec![0u32; 2 * size];
            for (t, &m) in members.iter().enumerate() {
                values[m as usize] = vals[t];
            }
            let extra = ClassConstraints {
                diversity: Some(crate::Diversity { values, l }),
                must: must.into_iter().filter(|&(a, b)| a != b).collect(),
                max_size: cap,
                ..ClassConstraints::default()
            };
            let parts = Parts::new(&members, &ks[..size], &extra);
            for part in 1u32..(1 << size) {
                let chosen: Vec<u32> = (0..size).filter(|&t| part >> t & 1 == 1).map(|t| members[t]).collect();
                let kmax = (0..size).filter(|&t| part >> t & 1 == 1).map(|t| ks[t]).max().unwrap();
                // A must-link pair with one record outside the class is the class's concern
                // (class_ok rejects the class), not the part's: keep pairs inside the class.
                let inside = ClassConstraints {
                    must: extra.must.iter().copied()
                        .filter(|&(a, b)| members.contains(&a) && members.contains(&b))
                        .collect(),
                    ..extra.clone()
                };
                let want = chosen.len() as u32 >= kmax && inside.class_ok(&chosen);
                proptest::prop_assert_eq!(parts.valid(part), want, "part {:b}", part);
            }
        }
    }

    #[test]
    fn splittable_under_constraints() {
        use crate::Diversity;
        // Four k = 2 records, values a a b b: {0,2},{1,3} are 2-diverse, so the class splits.
        let extra = ClassConstraints {
            diversity: Some(Diversity {
                values: vec![0, 0, 1, 1],
                l: 2,
            }),
            ..ClassConstraints::default()
        };
        assert!(!valid_unsplittable_with(&[0, 1, 2, 3], &[2; 4], &extra));
        // Values a a a b: no split keeps both parts 2-diverse; the cap 2k − 1 = 3 is exceeded.
        let extra = ClassConstraints {
            diversity: Some(Diversity {
                values: vec![0, 0, 0, 1],
                l: 2,
            }),
            ..ClassConstraints::default()
        };
        assert!(valid_unsplittable_with(&[0, 1, 2, 3], &[2; 4], &extra));
        assert_eq!(size_limit(&extra, 2, 10), 10);
        // Must-links 0-1 and 2-3 ... and 1-2: nothing splits.
        let extra = ClassConstraints {
            must: vec![(0, 1), (1, 2), (2, 3)],
            ..ClassConstraints::default()
        };
        assert!(valid_unsplittable_with(&[0, 1, 2, 3], &[2; 4], &extra));
        assert!(!valid_unsplittable_with(&[0, 1, 2], &[2; 3], &extra));
        // Hereditary constraints keep the cap, bounded by the maximum size.
        let extra = ClassConstraints {
            max_size: Some(2),
            cannot: vec![(0, 1)],
            ..ClassConstraints::default()
        };
        assert_eq!(size_limit(&extra, 3, 10), 2);
        assert!(!valid_unsplittable_with(&[0, 1], &[2, 2], &extra));
        assert!(valid_unsplittable_with(&[0, 2], &[2, 2], &extra));
    }
}
