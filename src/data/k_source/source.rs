//! Where the k_i come from, resolved into the k_i of every record: uniform, read from a column,
//! drawn from a distribution, or the distribution's shares correlated with the data.

use super::correlated::{self, Axis};
use crate::data::table::Table;
use crate::error::{at_cell, input, Result};
use crate::settings::Setting;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Where the k_i come from.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "source")]
pub enum KSource {
    /// Every record has the same k (plain k-anonymity).
    Uniform { k: u32 },
    /// Per-record value in a column of the table (the column is not released).
    Column { name: String },
    /// Each record draws its k from `(k, probability)` pairs with a seeded generator.
    Distribution { dist: Vec<(u32, f64)>, seed: u64 },
    /// The distribution's shares given by distance to the origin of a plane of two columns
    /// (seed 001 §5.5.5; see [`correlated`]).
    Correlated {
        dist: Vec<(u32, f64)>,
        axes: Vec<Axis>,
    },
}

/// Parses one k: a positive integer.
pub(crate) fn parse_k(s: &str) -> std::result::Result<u32, String> {
    match s.parse::<i64>() {
        Ok(k) if k >= 1 && k <= u32::MAX as i64 => Ok(k as u32),
        Ok(k) => Err(format!("k must be at least 1, got {k}")),
        Err(_) => Err(format!("'{s}' is not a whole number")),
    }
}

impl KSource {
    /// The k_i of the records at table rows `rows`; checks 1 ≤ k_i ≤ n.
    pub fn resolve(&self, table: &Table, rows: &[usize]) -> Result<Vec<u32>> {
        let n = rows.len();
        let k: Vec<u32> = match self {
            KSource::Uniform { k } => {
                if *k == 0 {
                    return Err(input(format!("{} must be at least 1", Setting::K)));
                }
                vec![*k; n]
            }
            KSource::Column { name } => {
                let c = table.column(name)?;
                rows.iter()
                    .map(|&r| {
                        parse_k(&table.rows[r][c])
                            .map_err(|e| at_cell(&table.path, table.lines[r], name, e))
                    })
                    .collect::<Result<_>>()?
            }
            KSource::Distribution { dist, seed } => draw(dist, *seed, n),
            KSource::Correlated { dist, axes } => correlated::assign(dist, axes, table, rows)?,
        };
        if let Some(i) = (0..n).find(|&i| k[i] as usize > n) {
            let whence = match self {
                KSource::Column { name } => format!(
                    "{}: line {}, column '{name}': ",
                    table.path.display(),
                    table.lines[rows[i]]
                ),
                _ => String::new(),
            };
            return Err(input(format!(
                "{whence}k = {} is larger than the number of records ({n}): no release can satisfy it",
                k[i]
            )));
        }
        Ok(k)
    }

    /// Short description for reports.
    pub fn describe(&self) -> String {
        match self {
            KSource::Uniform { k } => format!("k = {k}"),
            KSource::Column { name } => format!("k_i from column '{name}'"),
            KSource::Distribution { dist, seed } => {
                let parts: Vec<String> = dist.iter().map(|(k, p)| format!("{k}:{p:.3}")).collect();
                format!("k_i drawn from {} (seed {seed})", parts.join(","))
            }
            KSource::Correlated { dist, axes } => {
                let parts: Vec<String> = dist.iter().map(|(k, p)| format!("{k}:{p:.3}")).collect();
                let names: Vec<&str> = axes.iter().map(|a| a.column.as_str()).collect();
                format!(
                    "k_i {} by distance to the origin of {} (nearest: lowest k)",
                    parts.join(","),
                    names.join(" × ")
                )
            }
        }
    }

    /// The column holding k_i, if any (it is not released).
    pub fn column(&self) -> Option<&str> {
        match self {
            KSource::Column { name } => Some(name),
            _ => None,
        }
    }
}

/// Draws n values from a distribution, reproducibly for a seed (ChaCha8, stable across
/// platforms and releases).
pub(crate) fn draw(dist: &[(u32, f64)], seed: u64, n: usize) -> Vec<u32> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let u: f64 = rng.gen();
            let mut acc = 0.0;
            for &(k, p) in dist {
                acc += p;
                if u < acc {
                    return k;
                }
            }
            dist.last().map_or(1, |d| d.0)
        })
        .collect()
}

/// Summary of the k_i for reports: count of records per k value.
pub(crate) fn histogram(k: &[u32]) -> std::collections::BTreeMap<u32, usize> {
    let mut h = std::collections::BTreeMap::new();
    for &x in k {
        *h.entry(x).or_default() += 1;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_parsing() {
        assert_eq!(parse_k("3"), Ok(3));
        assert!(parse_k("0").is_err());
        assert!(parse_k("-2").is_err());
        assert!(parse_k("2.5").is_err());
    }

    #[test]
    fn draws_are_reproducible_and_follow_the_distribution() {
        let d = [(2, 0.8), (3, 0.2)];
        let a = draw(&d, 7, 10_000);
        assert_eq!(a, draw(&d, 7, 10_000));
        assert_ne!(a, draw(&d, 8, 10_000));
        let twos = a.iter().filter(|&&k| k == 2).count() as f64 / 10_000.0;
        assert!((twos - 0.8).abs() < 0.02, "{twos}");
    }
}
