//! The solver-facing instance: n records, their k_i, and an integer distance matrix.

use crate::invalid_input::InvalidInput;
use serde::{Deserialize, Serialize};

/// What every exact engine solves: an integer distance matrix (distance units × `scale`,
/// rounded) and the k_i of each record. Knows nothing of tables or attributes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    /// Number of records.
    pub n: usize,
    /// Integer units per distance unit: `dist[i][j] = round(d(i, j) · scale)`.
    pub scale: f64,
    /// Privacy constraint k_i of each record.
    pub k: Vec<u32>,
    /// Symmetric matrix with a zero diagonal.
    pub dist: Vec<Vec<i64>>,
}

impl Instance {
    /// Builds and validates an instance.
    pub fn new(scale: f64, k: Vec<u32>, dist: Vec<Vec<i64>>) -> Result<Self, InvalidInput> {
        let inst = Instance {
            n: k.len(),
            scale,
            k,
            dist,
        };
        inst.validate()?;
        Ok(inst)
    }

    /// Builds the integer instance from a real-valued distance by rounding `d · scale`.
    #[allow(clippy::needless_range_loop, reason = "fills a symmetric matrix")]
    pub fn from_distance(
        scale: f64,
        k: Vec<u32>,
        d: impl Fn(usize, usize) -> f64,
    ) -> Result<Self, InvalidInput> {
        let n = k.len();
        let mut dist = vec![vec![0i64; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                let v = (d(i, j) * scale).round() as i64;
                dist[i][j] = v;
                dist[j][i] = v;
            }
        }
        Self::new(scale, k, dist)
    }

    /// Checks shape, symmetry, the diagonal, non-negativity and feasibility (k_i ≤ n, k_i ≥ 1).
    pub fn validate(&self) -> Result<(), InvalidInput> {
        if self.n != self.k.len() || self.n != self.dist.len() {
            return Err(format!(
                "instance has n = {}, {} k values and {} matrix rows",
                self.n,
                self.k.len(),
                self.dist.len()
            )
            .into());
        }
        if self.scale.is_nan() || self.scale <= 0.0 {
            return Err(format!("scale must be positive, got {}", self.scale).into());
        }
        for (i, row) in self.dist.iter().enumerate() {
            if row.len() != self.n {
                return Err(format!(
                    "matrix row {i} has {} entries, expected {}",
                    row.len(),
                    self.n
                )
                .into());
            }
            if row[i] != 0 {
                return Err(format!("dist[{i}][{i}] = {} is not zero", row[i]).into());
            }
            for (j, &v) in row.iter().enumerate() {
                if v < 0 {
                    return Err(format!("dist[{i}][{j}] = {v} is negative").into());
                }
                if v != self.dist[j][i] {
                    return Err(format!("dist[{i}][{j}] != dist[{j}][{i}]").into());
                }
            }
        }
        for (i, &k) in self.k.iter().enumerate() {
            if k == 0 || k as usize > self.n {
                return Err(format!("k[{i}] = {k} is outside 1..={}", self.n).into());
            }
        }
        Ok(())
    }

    /// Integer distance between records `i` and `j`.
    #[inline]
    pub fn d(&self, i: usize, j: usize) -> i64 {
        self.dist[i][j]
    }

    /// Upper bound on the number of classes of any k_i-anonymous partition:
    /// ⌊Σ 1/k_i⌋ (seed 001 theorem 10), computed exactly with a common denominator.
    pub fn max_classes(&self) -> usize {
        max_classes(&self.k)
    }

    /// The smallest k_i (1 for an empty instance): the companion's rule and the root's cut
    /// tail depend on it.
    pub fn least_k(&self) -> u32 {
        self.k.iter().copied().min().unwrap_or(1)
    }

    /// The largest k_i (1 for an empty instance): class sizes, pricing limits and the
    /// hand-over dives' rule depend on it.
    pub fn largest_k(&self) -> u32 {
        self.k.iter().copied().max().unwrap_or(1)
    }

    /// Converts an integer objective back to distance units.
    pub fn to_units(&self, v: i64) -> f64 {
        v as f64 / self.scale
    }
}

/// ⌊Σ 1/k_i⌋ (seed 001 theorem 10), exactly, with rationals: the most classes any
/// k_i-anonymous partition of records with these k_i can have.
pub fn max_classes(k: &[u32]) -> usize {
    let mut counts = std::collections::BTreeMap::<u64, u64>::new();
    for &k in k {
        *counts.entry(k as u64).or_default() += 1;
    }
    let mut num: u128 = 0;
    let mut den: u128 = 1;
    for (&k, &c) in &counts {
        // num/den + c/k
        num = num * k as u128 + c as u128 * den;
        den *= k as u128;
        let g = gcd(num, den);
        num /= g;
        den /= g;
    }
    (num / den) as usize
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_classes_is_floor_of_inverse_sum() {
        let inst = Instance::from_distance(1.0, vec![2, 2, 3, 3, 3, 6], |_, _| 1.0).unwrap();
        // 1/2+1/2+1/3+1/3+1/3+1/6 = 2.1666
        assert_eq!(inst.max_classes(), 2);
        let inst = Instance::from_distance(1.0, vec![3; 9], |_, _| 1.0).unwrap();
        assert_eq!(inst.max_classes(), 3);
    }

    #[test]
    fn validate_rejects_bad_matrices() {
        assert!(Instance::new(1.0, vec![1, 1], vec![vec![0, 1], vec![2, 0]]).is_err());
        assert!(Instance::new(1.0, vec![1, 1], vec![vec![1, 1], vec![1, 0]]).is_err());
        assert!(Instance::new(1.0, vec![3, 1], vec![vec![0, 1], vec![1, 0]]).is_err());
        assert!(Instance::new(1.0, vec![1, 1], vec![vec![0, 1], vec![1, 0]]).is_ok());
    }

    #[test]
    fn rounding_scale() {
        let inst = Instance::from_distance(1000.0, vec![1, 1], |_, _| 0.33333).unwrap();
        assert_eq!(inst.d(0, 1), 333);
        assert!((inst.to_units(333) - 0.333).abs() < 1e-12);
    }
}
