//! Costs through the oracle: the sum criteria the search optimises (the same integer class costs
//! as column generation's columns), the objective of a partition, and the per-record lower
//! bounds that tell which classes are far above what their records must cost.

use super::oracle::DistanceOracle;
use crate::colgen::start::{record_bound, DiversityFloor};
use crate::engine::{Engine, EngineError};
use crate::{Criterion, Diversity};
use std::time::Instant;

/// A criterion that is a sum of class costs, so freeing some classes and re-solving them changes
/// the objective by the difference of their costs alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SumCriterion {
    /// |C|·diam(C).
    Dbil,
    /// Σ pairwise distances in C.
    Wcsd,
    /// Σ pairwise distances in C over |C|, rounded ([`crate::criteria::sse_term`]): the
    /// within-class sum of squares when distances are squared Euclidean ones.
    Sse,
}

impl SumCriterion {
    /// The engine criterion the neighbourhoods are re-optimised with.
    pub fn criterion(self) -> Criterion {
        match self {
            SumCriterion::Dbil => Criterion::Dbil,
            SumCriterion::Wcsd => Criterion::Wcsd,
            SumCriterion::Sse => Criterion::Sse,
        }
    }

    /// Integer cost of the class `members` (any order); equals
    /// [`crate::colgen::column::class_cost`] on a dense instance.
    pub fn class_cost<O: DistanceOracle + ?Sized>(self, oracle: &O, members: &[usize]) -> i64 {
        let mut diam = 0i64;
        let mut sum = 0i64;
        for (a, &i) in members.iter().enumerate() {
            for &j in &members[a + 1..] {
                let d = oracle.d(i, j);
                diam = diam.max(d);
                sum += d;
            }
        }
        match self {
            SumCriterion::Dbil => members.len() as i64 * diam,
            SumCriterion::Wcsd => sum,
            SumCriterion::Sse => crate::criteria::sse_term(sum, members.len()),
        }
    }

    /// Lower bound on what record `i` contributes to any k_i-anonymous class (l-diverse under
    /// `floor`), so that Σ_{i∈C} bound_i ≤ cost(C): [`crate::colgen::start::record_bound`]
    /// through the oracle. Linear in n.
    pub fn record_bound<O: DistanceOracle + ?Sized>(
        self,
        oracle: &O,
        i: usize,
        floor: Option<&DiversityFloor>,
    ) -> f64 {
        let d = |j: usize| oracle.d(i, j);
        record_bound(oracle.n(), i, oracle.k(i), &d, self.criterion(), floor)
    }
}

impl TryFrom<Criterion> for SumCriterion {
    type Error = EngineError;

    /// dbil, wcsd and sse; the other criteria are not sums over classes.
    fn try_from(c: Criterion) -> Result<Self, EngineError> {
        match c {
            Criterion::Dbil => Ok(SumCriterion::Dbil),
            Criterion::Wcsd => Ok(SumCriterion::Wcsd),
            Criterion::Sse => Ok(SumCriterion::Sse),
            criterion => Err(EngineError::UnsupportedCriterion {
                engine: Engine::Colgen,
                criterion,
            }),
        }
    }
}

/// Per-record bounds of every record (l-diverse classes under `diversity`), in parallel:
/// [`SumCriterion::record_bound`], and for dbil one refinement ([`refine_dbil`]; more passes
/// gained under 1% on Adult samples). Quadratic in n (two passes for dbil).
pub fn record_bounds<O: DistanceOracle + ?Sized>(
    oracle: &O,
    criterion: SumCriterion,
    diversity: Option<&Diversity>,
) -> Vec<f64> {
    record_bounds_until(oracle, criterion, diversity, None)
}

/// [`record_bounds`] computed until `until` at most: they are quadratic in n (about 27 s on
/// the 30,162 Adult records, two cores), so a search with a time limit gives them a share of
/// it. Records reached after `until` get the bound of a record with k_i = 1 (0, or −½ for sse),
/// which is at most their own, so the sum stays a valid bound; the dbil refinement runs only
/// when the first pass ended in time and a second as long still fits.
pub fn record_bounds_until<O: DistanceOracle + ?Sized>(
    oracle: &O,
    criterion: SumCriterion,
    diversity: Option<&Diversity>,
    until: Option<Instant>,
) -> Vec<f64> {
    use rayon::prelude::*;
    let values = DiversityFloor::new(diversity);
    let t = Instant::now();
    let floor = if criterion == SumCriterion::Sse {
        -0.5
    } else {
        0.0
    };
    let first: Vec<Option<f64>> = (0..oracle.n())
        .into_par_iter()
        .map(|i| {
            let late = until.is_some_and(|u| Instant::now() >= u);
            (!late).then(|| criterion.record_bound(oracle, i, values.as_ref()))
        })
        .collect();
    let complete = first.iter().all(Option::is_some);
    let first: Vec<f64> = first.into_iter().map(|b| b.unwrap_or(floor)).collect();
    let refine_fits = until.is_none_or(|u| Instant::now() + t.elapsed() <= u);
    match criterion {
        SumCriterion::Dbil if complete && refine_fits => refine_dbil(oracle, &first, diversity),
        _ => first,
    }
}

/// [`crate::colgen::start::refine_dbil`] through the oracle (one refinement of valid dbil
/// bounds `b`).
pub fn refine_dbil<O: DistanceOracle + ?Sized>(
    oracle: &O,
    b: &[f64],
    diversity: Option<&Diversity>,
) -> Vec<f64> {
    let (k, d) = (|i| oracle.k(i), |i, j| oracle.d(i, j));
    crate::colgen::start::refine_dbil(oracle.n(), &k, &d, b, diversity)
}

/// ⌈Σ bounds⌉: every partition's integer cost is at least the sum of its records' bounds
/// (each class's cost is at least its members' bounds), so at least its ceiling. The sum is
/// taken in a fixed order with a small tolerance against rounding up an exact integer.
pub fn bound_sum(bounds: &[f64]) -> i64 {
    let s: f64 = bounds.iter().sum();
    (s - 1e-6 * s.abs().max(1.0)).ceil() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colgen::column::class_cost;
    use crate::colgen::start;
    use crate::Instance;

    fn line() -> Instance {
        let pts: [f64; 6] = [0.0, 1.0, 3.0, 10.0, 14.0, 15.0];
        Instance::from_distance(1.0, vec![2, 2, 3, 2, 2, 3], |i, j| (pts[i] - pts[j]).abs())
            .unwrap()
    }

    #[test]
    fn class_costs_match_column_costs() {
        let inst = line();
        for c in [SumCriterion::Dbil, SumCriterion::Wcsd, SumCriterion::Sse] {
            for members in [vec![0usize, 1, 2], vec![5, 3], vec![4], vec![0, 5, 2, 3]] {
                let m32: Vec<u32> = members.iter().map(|&i| i as u32).collect();
                assert_eq!(
                    c.class_cost(&inst, &members),
                    class_cost(&inst, c.criterion(), &m32)
                );
            }
        }
        assert_eq!(SumCriterion::Dbil.class_cost(&inst, &[0, 1, 2]), 9);
        assert_eq!(SumCriterion::Wcsd.class_cost(&inst, &[0, 1, 2]), 6);
        // (1 + 3 + 2) / 3
        assert_eq!(SumCriterion::Sse.class_cost(&inst, &[0, 1, 2]), 2);
    }

    /// Bounds stopped at once are the k_i = 1 floor (still valid: each at most the record's own
    /// bound); with time to spare they are the full ones.
    #[test]
    fn record_bounds_stop_at_their_deadline_with_valid_floors() {
        let inst = line();
        let now = Some(Instant::now());
        let diverse = Diversity {
            values: vec![0, 1, 0, 1, 0, 1],
            l: 2,
        };
        for diversity in [None, Some(&diverse)] {
            for (c, floor) in [
                (SumCriterion::Dbil, 0.0),
                (SumCriterion::Wcsd, 0.0),
                (SumCriterion::Sse, -0.5),
            ] {
                let full = record_bounds(&inst, c, diversity);
                assert_eq!(
                    record_bounds_until(&inst, c, diversity, now),
                    vec![floor; inst.n]
                );
                assert!(full.iter().all(|&b| b >= floor));
                let later = Some(Instant::now() + std::time::Duration::from_secs(60));
                assert_eq!(record_bounds_until(&inst, c, diversity, later), full);
            }
        }
    }

    #[test]
    fn record_bounds_match_column_generation_and_refine_the_nearest_distance() {
        let inst = line();
        for (c, criterion) in [
            (SumCriterion::Wcsd, Criterion::Wcsd),
            (SumCriterion::Sse, Criterion::Sse),
            (SumCriterion::Dbil, Criterion::Dbil),
        ] {
            assert_eq!(
                record_bounds(&inst, c, None),
                start::record_bounds(&inst, criterion, None)
            );
        }
        let plain: Vec<f64> = (0..inst.n)
            .map(|i| SumCriterion::Dbil.record_bound(&inst, i, None))
            .collect();
        let refined = record_bounds(&inst, SumCriterion::Dbil, None);
        // Points 0, 1, 3, 10, 14, 15 with k 2, 2, 3, 2, 2, 3. Record 4's nearest (15, at 1)
        // needs a class of diameter ≥ 5 (k = 3), and its next (10, at 4) one of ≥ 4: so 4.
        // The partition {0, 1, 2} {3, 4, 5} costs 3·3 + 3·5 = 24.
        assert_eq!(plain, vec![1.0, 1.0, 3.0, 4.0, 1.0, 5.0]);
        assert_eq!(refined, vec![1.0, 1.0, 3.0, 4.0, 4.0, 5.0]);
        assert!(refined.iter().sum::<f64>() <= 24.0);
    }

    #[test]
    fn only_sum_criteria_convert() {
        assert_eq!(
            SumCriterion::try_from(Criterion::Wcsd).unwrap(),
            SumCriterion::Wcsd
        );
        assert_eq!(
            SumCriterion::try_from(Criterion::Sse).unwrap(),
            SumCriterion::Sse
        );
        assert!(SumCriterion::try_from(Criterion::Diameter).is_err());
        assert!(SumCriterion::try_from(Criterion::Split).is_err());
    }
}
