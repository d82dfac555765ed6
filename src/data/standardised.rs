//! The records as microaggregation measures them: every quasi-identifier numeric, z-scored with
//! the sample standard deviation over the loaded records, so the SSE criterion, its metrics
//! (`sse`, `sse_il`) and the microaggregation heuristics all see the same points.

use crate::data::qi::{QiTable, Values};
use crate::Partition;
use optik_models::Instance;

/// The standardised records: z_ij = w_j·(x_ij − mean_j)/sd_j with the sample sd (n − 1), w_j the
/// quasi-identifier's weight (1 by default, the literature's setting); a constant attribute
/// is all zeros.
#[derive(Clone, Debug)]
pub struct Standardised {
    n: usize,
    dims: usize,
    /// Row-major n × dims.
    z: Vec<f64>,
}

impl Standardised {
    /// Standardises the quasi-identifiers, or says which one is not numeric (microaggregation's
    /// SSE is defined on numbers only; ordinal and categorical quasi-identifiers are refused,
    /// not encoded).
    pub(crate) fn new(qi: &QiTable) -> Result<Standardised, String> {
        let n = qi.n;
        let mut cols: Vec<Vec<f64>> = Vec::with_capacity(qi.attributes.len());
        for a in &qi.attributes {
            let Values::Numeric { values, .. } = &a.values else {
                return Err(format!(
                    "the sse criterion and centroid releases need numeric quasi-identifiers; '{}' is {}",
                    a.name,
                    a.kind_name()
                ));
            };
            let mean = values.iter().sum::<f64>() / n.max(1) as f64;
            let var = if n > 1 {
                values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64
            } else {
                0.0
            };
            let sd = var.sqrt();
            cols.push(
                values
                    .iter()
                    .map(|v| {
                        if sd > 0.0 {
                            a.weight * (v - mean) / sd
                        } else {
                            0.0
                        }
                    })
                    .collect(),
            );
        }
        let dims = cols.len();
        let mut z = Vec::with_capacity(n * dims);
        for i in 0..n {
            z.extend(cols.iter().map(|c| c[i]));
        }
        Ok(Standardised { n, dims, z })
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True without records.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Number of attributes.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The standardised record `i`.
    #[inline]
    pub fn point(&self, i: usize) -> &[f64] {
        &self.z[i * self.dims..][..self.dims]
    }

    /// Squared Euclidean distance between records `i` and `j`.
    #[inline]
    pub fn sq(&self, i: usize, j: usize) -> f64 {
        sq_to(self.point(i), self.point(j))
    }

    /// Mean of the records `members` (the class centroid).
    pub fn centroid(&self, members: &[usize]) -> Vec<f64> {
        let mut c = vec![0.0; self.dims];
        for &i in members {
            for (s, v) in c.iter_mut().zip(self.point(i)) {
                *s += v;
            }
        }
        let m = members.len().max(1) as f64;
        c.iter_mut().for_each(|s| *s /= m);
        c
    }

    /// Σ_{i ∈ members} ‖z_i − centroid‖².
    pub fn class_sse(&self, members: &[usize]) -> f64 {
        let c = self.centroid(members);
        members.iter().map(|&i| sq_to(self.point(i), &c)).sum()
    }

    /// SSE of a partition: Σ_C Σ_{i∈C} ‖z_i − z̄_C‖².
    pub fn sse(&self, p: &Partition) -> f64 {
        p.classes().iter().map(|c| self.class_sse(c)).sum()
    }

    /// SST = Σ_i ‖z_i − z̄‖² (= (n − 1)·dims with unit weights and no constant attribute).
    pub fn sst(&self) -> f64 {
        let all: Vec<usize> = (0..self.n).collect();
        self.class_sse(&all)
    }

    /// The exact engines' SSE instance: squared distances × `scale`, rounded.
    pub fn instance(&self, k: Vec<u32>, scale: f64) -> Result<Instance, String> {
        Instance::from_distance(scale, k, |i, j| self.sq(i, j)).map_err(|e| e.to_string())
    }
}

/// Squared Euclidean distance of two points.
#[inline]
pub(crate) fn sq_to(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::fixtures::{qi, quasi, table};
    use crate::data::schema::Kind;

    #[test]
    fn hand_computed_sse_and_sst() {
        // x = 0, 2, 4, 10 (mean 4, sample sd = sqrt((16+4+0+36)/3) = sqrt(56/3)),
        // y = 1, 1, 1, 1 (constant: all zeros).
        let t = table(&[
            &["x", "y"],
            &["0", "1"],
            &["2", "1"],
            &["4", "1"],
            &["10", "1"],
        ]);
        let q = qi(
            &t,
            &[
                quasi("x", Kind::Numeric, 1.0),
                quasi("y", Kind::Numeric, 1.0),
            ],
        );
        let s = Standardised::new(&q).unwrap();
        let var: f64 = 56.0 / 3.0;
        assert!((s.point(0)[0] + 4.0 / var.sqrt()).abs() < 1e-12);
        assert_eq!(s.point(3)[1], 0.0);
        // SST = (n − 1) for one non-constant attribute.
        assert!((s.sst() - 3.0).abs() < 1e-12);
        // {0, 2, 4} | {10}: raw SSE 4 + 0 + 4 = 8, standardised 8/var.
        let p = Partition::from_labels(&[0, 0, 0, 1]);
        assert!((s.sse(&p) - 8.0 / var).abs() < 1e-12);
        // The pairwise form agrees: (4 + 16 + 4)/3 = 8.
        let pairs = (s.sq(0, 1) + s.sq(0, 2) + s.sq(1, 2)) / 3.0;
        assert!((pairs - 8.0 / var).abs() < 1e-12);
    }

    #[test]
    fn non_numeric_quasi_identifiers_are_refused_by_name() {
        let t = table(&[&["x", "c"], &["0", "a"], &["1", "b"]]);
        let q = qi(
            &t,
            &[
                quasi("x", Kind::Numeric, 1.0),
                quasi("c", Kind::Categorical { hierarchy: None }, 1.0),
            ],
        );
        let e = Standardised::new(&q).unwrap_err();
        assert!(e.contains("'c' is categorical"), "{e}");
    }
}
