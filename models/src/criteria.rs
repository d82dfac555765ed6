//! Clustering criteria (seed 001 §3.4): DBIL, maximum diameter, split and WCSD, evaluated on
//! any distance, so the float metrics of a release and the integer objectives of the exact
//! engines are computed by the same code.

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
}

impl Criterion {
    /// Name as used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Dbil => "dbil",
            Criterion::Diameter => "diameter",
            Criterion::Split => "split",
            Criterion::Wcsd => "wcsd",
        }
    }

    /// True for criteria that are maximised.
    pub fn maximise(self) -> bool {
        matches!(self, Criterion::Split)
    }

    /// All criteria.
    pub const ALL: [Criterion; 4] = [
        Criterion::Dbil,
        Criterion::Diameter,
        Criterion::Split,
        Criterion::Wcsd,
    ];
}

impl std::str::FromStr for Criterion {
    type Err = InvalidInput;
    fn from_str(s: &str) -> Result<Self, InvalidInput> {
        Criterion::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                InvalidInput(format!(
                    "unknown criterion '{s}' (expected dbil, diameter, split or wcsd)"
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
}

impl Distance for f64 {
    fn count(n: usize) -> Self {
        n as f64
    }
}

impl Distance for i64 {
    fn count(n: usize) -> Self {
        n as i64
    }
}

/// Values of all four criteria for one partition. `split` is `None` when there is one class.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CriteriaValues<T> {
    pub dbil: T,
    pub max_diameter: T,
    pub split: Option<T>,
    pub wcsd: T,
}

impl<T: Distance> CriteriaValues<T> {
    /// Value of one criterion (`split` of a single class counts as the default, 0).
    pub fn get(&self, c: Criterion) -> T {
        match c {
            Criterion::Dbil => self.dbil,
            Criterion::Diameter => self.max_diameter,
            Criterion::Split => self.split.unwrap_or_default(),
            Criterion::Wcsd => self.wcsd,
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

/// DBIL, maximum diameter and WCSD (the per-class criteria; `split` left `None`).
pub fn class_criteria<T: Distance>(
    p: &Partition,
    d: impl Fn(usize, usize) -> T,
) -> CriteriaValues<T> {
    let mut dbil = T::default();
    let mut max_diameter = T::default();
    let mut wcsd = T::default();
    for members in p.classes() {
        let diam = diameter(&members, &d);
        dbil = dbil + T::count(members.len()) * diam;
        max_diameter = max(max_diameter, diam);
        wcsd = wcsd + pair_sum(&members, &d);
    }
    CriteriaValues {
        dbil,
        max_diameter,
        split: None,
        wcsd,
    }
}

/// All four criteria of a partition.
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
