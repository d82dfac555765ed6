//! Clustering criteria (seed 001 §3.4): DBIL, maximum diameter, split and WCSD, and the
//! microaggregation SSE (Domingo-Ferrer & Mateo-Sanz 2002), evaluated on any distance, so the
//! float metrics of a release and the integer objectives of the exact engines are computed by
//! the same code.

use crate::invalid_input::InvalidInput;
use crate::{Instance, Partition};
use serde::{Deserialize, Serialize};

/// The criterion an exact engine optimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Criterion {
    /// Σ_C |C|·diam(C) (seed 001 eq. 3.12), minimised.
    Dbil,
    /// max_C diam(C), minimised.
    Diameter,
    /// Smallest distance between records of different classes, maximised.
    Split,
    /// Σ_C Σ_{x<y ∈ C} d(x, y) (seed 001 eq. 3.8), minimised.
    Wcsd,
    /// Within-class sum of squared errors Σ_C Σ_{i∈C} ‖x_i − x̄_C‖² = Σ_C (1/|C|) Σ_{i<j∈C}
    /// ‖x_i − x_j‖², minimised. Evaluated on a distance that is the *squared* Euclidean distance
    /// of the standardised records (an instance built for it); on integers each class's term is
    /// rounded to the nearest unit.
    Sse,
}

impl Criterion {
    /// Name as used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Dbil => "dbil",
            Criterion::Diameter => "diameter",
            Criterion::Split => "split",
            Criterion::Wcsd => "wcsd",
            Criterion::Sse => "sse",
        }
    }

    /// True for criteria that are maximised.
    pub fn maximise(self) -> bool {
        matches!(self, Criterion::Split)
    }

    /// All criteria.
    pub const ALL: [Criterion; 5] = [
        Criterion::Dbil,
        Criterion::Diameter,
        Criterion::Split,
        Criterion::Wcsd,
        Criterion::Sse,
    ];

    /// The four clustering criteria of seed 001 §3.4, which the CP model (and MiniZinc model)
    /// optimise; sse is microaggregation's and only column generation optimises it.
    pub const CLUSTERING: [Criterion; 4] = [
        Criterion::Dbil,
        Criterion::Diameter,
        Criterion::Split,
        Criterion::Wcsd,
    ];

    /// True for the criteria that are a sum of per-class costs (what a set-partitioning master
    /// prices): dbil, wcsd and sse.
    pub fn is_sum(self) -> bool {
        matches!(self, Criterion::Dbil | Criterion::Wcsd | Criterion::Sse)
    }
}

impl std::str::FromStr for Criterion {
    type Err = InvalidInput;
    fn from_str(s: &str) -> Result<Self, InvalidInput> {
        Criterion::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                InvalidInput(format!(
                    "unknown criterion '{s}' (expected dbil, diameter, split, wcsd or sse)"
                ))
            })
    }
}

/// Objective of a partition of an instance in integer units (split of one class = 0): what
/// every exact engine optimises and reports.
pub fn objective_of(inst: &Instance, p: &Partition, criterion: Criterion) -> i64 {
    evaluate(p, |a, b| inst.d(a, b)).get(criterion)
}

/// Numbers a criterion can be computed in (f64 for metrics, i64 for exact engines).
pub trait Distance:
    Copy
    + PartialOrd
    + Default
    + std::ops::Add<Output = Self>
    + std::ops::Mul<Output = Self>
    + Send
    + Sync
{
    /// The count `n` as a distance-typed factor.
    fn count(n: usize) -> Self;
    /// `sum / n` for a class of `n ≥ 1` records: exact for floats, rounded to the nearest
    /// integer (halves up) for integers, so a class's SSE term is one integer.
    fn per_member(sum: Self, n: usize) -> Self;
}

impl Distance for f64 {
    fn count(n: usize) -> Self {
        n as f64
    }
    fn per_member(sum: Self, n: usize) -> Self {
        sum / n as f64
    }
}

impl Distance for i64 {
    fn count(n: usize) -> Self {
        n as i64
    }
    fn per_member(sum: Self, n: usize) -> Self {
        sse_term(sum, n)
    }
}

/// A class's integer SSE term: its pairwise sum of squared distances over its size, rounded to
/// the nearest integer (halves up). Non-decreasing in `sum`, which the pricing bounds use.
#[inline]
pub fn sse_term(pair_sum: i64, size: usize) -> i64 {
    let s = size.max(1) as i64;
    (2 * pair_sum + s).div_euclid(2 * s)
}

/// Values of all five criteria for one partition. `split` is `None` when there is one class.
/// `sse` is Σ_C pair_sum(C)/|C|: the SSE when the distance is the squared Euclidean one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CriteriaValues<T> {
    pub dbil: T,
    pub max_diameter: T,
    pub split: Option<T>,
    pub wcsd: T,
    pub sse: T,
}

impl<T: Distance> CriteriaValues<T> {
    /// Value of one criterion (`split` of a single class counts as the default, 0).
    pub fn get(&self, c: Criterion) -> T {
        match c {
            Criterion::Dbil => self.dbil,
            Criterion::Diameter => self.max_diameter,
            Criterion::Split => self.split.unwrap_or_default(),
            Criterion::Wcsd => self.wcsd,
            Criterion::Sse => self.sse,
        }
    }
}

fn max<T: PartialOrd>(a: T, b: T) -> T {
    if b > a {
        b
    } else {
        a
    }
}

/// Diameter of one class: the largest distance between two of its members.
pub fn diameter<T: Distance>(members: &[usize], d: impl Fn(usize, usize) -> T) -> T {
    let mut best = T::default();
    for (a, &i) in members.iter().enumerate() {
        for &j in &members[a + 1..] {
            best = max(best, d(i, j));
        }
    }
    best
}

/// Sum of pairwise distances inside one class.
pub fn pair_sum<T: Distance>(members: &[usize], d: impl Fn(usize, usize) -> T) -> T {
    let mut sum = T::default();
    for (a, &i) in members.iter().enumerate() {
        for &j in &members[a + 1..] {
            sum = sum + d(i, j);
        }
    }
    sum
}

/// Smallest distance between two records of different classes (`None` for one class).
pub fn split<T: Distance>(p: &Partition, d: impl Fn(usize, usize) -> T + Sync) -> Option<T> {
    split_by_rows(p, |i| {
        let d = &d;
        move |j| d(i, j)
    })
}

/// [`split`] with distances given row by row: `row(i)` returns the distances from record `i`,
/// which lets a caller resolve record i's side once per row. Quadratic in n and parallel over
/// rows, so it stays usable on the 30k-row Adult table.
pub fn split_by_rows<T: Distance, R: Fn(usize) -> T>(
    p: &Partition,
    row: impl Fn(usize) -> R + Sync,
) -> Option<T> {
    use rayon::prelude::*;
    let n = p.len();
    (0..n)
        .into_par_iter()
        .with_min_len(64)
        .filter_map(|i| {
            let d = row(i);
            let ci = p.class_of(i);
            let mut best: Option<T> = None;
            for j in i + 1..n {
                if p.class_of(j) != ci {
                    let v = d(j);
                    if best.is_none_or(|b| v < b) {
                        best = Some(v);
                    }
                }
            }
            best
        })
        .reduce_with(|a, b| if b < a { b } else { a })
}

/// DBIL, maximum diameter, WCSD and SSE (the per-class criteria; `split` left `None`).
pub fn class_criteria<T: Distance>(
    p: &Partition,
    d: impl Fn(usize, usize) -> T,
) -> CriteriaValues<T> {
    let mut dbil = T::default();
    let mut max_diameter = T::default();
    let mut wcsd = T::default();
    let mut sse = T::default();
    for members in p.classes() {
        let diam = diameter(&members, &d);
        dbil = dbil + T::count(members.len()) * diam;
        max_diameter = max(max_diameter, diam);
        let sum = pair_sum(&members, &d);
        wcsd = wcsd + sum;
        sse = sse + T::per_member(sum, members.len());
    }
    CriteriaValues {
        dbil,
        max_diameter,
        split: None,
        wcsd,
        sse,
    }
}

/// All five criteria of a partition.
pub fn evaluate<T: Distance>(
    p: &Partition,
    d: impl Fn(usize, usize) -> T + Sync,
) -> CriteriaValues<T> {
    CriteriaValues {
        split: split(p, &d),
        ..class_criteria(p, &d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(points: &[i64]) -> impl Fn(usize, usize) -> i64 + Sync + '_ {
        move |i, j| (points[i] - points[j]).abs()
    }

    #[test]
    fn hand_computed_line() {
        // points 0,1,3 | 10,14 : diameters 3 and 4
        let pts = [0, 1, 3, 10, 14];
        let p = Partition::from_labels(&[0, 0, 0, 1, 1]);
        let v = evaluate(&p, line(&pts));
        assert_eq!(v.dbil, 3 * 3 + 2 * 4);
        assert_eq!(v.max_diameter, 4);
        assert_eq!(v.split, Some(7));
        assert_eq!(v.wcsd, (1 + 3 + 2) + 4);
        assert_eq!(v.get(Criterion::Split), 7);
        // sse on this distance: (1+3+2)/3 + 4/2 = 4
        assert_eq!(v.sse, 4);
    }

    #[test]
    fn integer_sse_terms_round_half_up() {
        assert_eq!(sse_term(7, 3), 2); // 2.33
        assert_eq!(sse_term(8, 3), 3); // 2.67
        assert_eq!(sse_term(3, 2), 2); // 1.5
        assert_eq!(sse_term(0, 4), 0);
        // squared distances of 0, 1, 3 on a line: 1 + 9 + 4 = 14, SSE = 14/3 (mean 4/3:
        // (16 + 1 + 25)/9 = 42/9 = 14/3)
        let sq = |i: usize, j: usize| {
            let x = [0.0f64, 1.0, 3.0];
            (x[i] - x[j]).powi(2)
        };
        let p = Partition::from_labels(&[0, 0, 0]);
        assert!((class_criteria(&p, sq).sse - 14.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn one_class_has_no_split() {
        let pts = [0, 5];
        let p = Partition::from_labels(&[0, 0]);
        assert_eq!(evaluate(&p, line(&pts)).split, None);
    }

    #[test]
    fn criterion_names_round_trip() {
        for c in Criterion::ALL {
            assert_eq!(c.name().parse::<Criterion>().unwrap(), c);
        }
        assert!("foo".parse::<Criterion>().is_err());
    }
}
