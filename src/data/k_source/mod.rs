//! Privacy constraints: the k_i of every record, uniform, read from a column, or drawn from a
//! distribution (the Acquisti & Grossklags groups of seed 001 table 5.2).

pub mod correlated;

use crate::data::table::Table;
use crate::error::{at_cell, input, Result};
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
    /// (seed 001 §5.5.5; see [`crate::data::k_source::correlated`]).
    Correlated {
        dist: Vec<(u32, f64)>,
        axes: Vec<crate::data::k_source::correlated::Axis>,
    },
}

/// The preset distributions: share of (liberal, moderate, conservative) respondents per
/// data category, from Acquisti & Grossklags (seed 001 table 5.2: low, medium, high concern).
pub const PRESETS: [(&str, [f64; 3]); 4] = [
    ("general", [0.107, 0.355, 0.537]),
    ("personal", [0.823, 0.168, 0.009]),
    ("professional", [0.373, 0.508, 0.119]),
    ("sexual-political", [0.621, 0.258, 0.121]),
];

/// Tolerance on the sum of `--k-dist` probabilities (they are then normalised).
const SUM_TOLERANCE: f64 = 0.002;

/// Parses `3:0.823,5:0.168,7:0.009`.
pub fn parse_distribution(s: &str) -> Result<Vec<(u32, f64)>> {
    let mut dist = Vec::new();
    for part in s.split(',') {
        let (k, p) = part
            .split_once(':')
            .ok_or_else(|| input(format!("--k-dist '{s}': '{part}' is not k:probability")))?;
        let k = parse_k(k.trim()).map_err(|e| input(format!("--k-dist '{s}': {e}")))?;
        let p: f64 = p
            .trim()
            .parse()
            .ok()
            .filter(|p: &f64| p.is_finite() && *p >= 0.0)
            .ok_or_else(|| input(format!("--k-dist '{s}': '{p}' is not a probability")))?;
        if dist.iter().any(|&(k2, _)| k2 == k) {
            return Err(input(format!("--k-dist '{s}': k = {k} is listed twice")));
        }
        dist.push((k, p));
    }
    normalise(dist, &format!("--k-dist '{s}'"))
}

fn normalise(dist: Vec<(u32, f64)>, what: &str) -> Result<Vec<(u32, f64)>> {
    let sum: f64 = dist.iter().map(|d| d.1).sum();
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        return Err(input(format!("{what}: probabilities sum to {sum}, not 1")));
    }
    Ok(dist.into_iter().map(|(k, p)| (k, p / sum)).collect())
}

/// A preset distribution over `levels` = (liberal, moderate, conservative) k values.
pub fn preset(name: &str, levels: [u32; 3]) -> Result<Vec<(u32, f64)>> {
    let (_, shares) = PRESETS.iter().find(|(n, _)| *n == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.0).collect();
        input(format!(
            "unknown k preset '{name}' (one of {})",
            names.join(", ")
        ))
    })?;
    let mut dist: Vec<(u32, f64)> = Vec::new();
    for (k, p) in levels.iter().zip(shares) {
        match dist.iter_mut().find(|d| d.0 == *k) {
            Some(d) => d.1 += p,
            None => dist.push((*k, *p)),
        }
    }
    let sum: f64 = dist.iter().map(|d| d.1).sum();
    Ok(dist.into_iter().map(|(k, p)| (k, p / sum)).collect())
}

/// Parses `--k-levels 3,5,7`.
pub fn parse_levels(s: &str) -> Result<[u32; 3]> {
    let v: Vec<u32> = s
        .split(',')
        .map(|x| parse_k(x.trim()).map_err(|e| input(format!("--k-levels '{s}': {e}"))))
        .collect::<Result<_>>()?;
    <[u32; 3]>::try_from(v).map_err(|_| {
        input(format!(
            "--k-levels '{s}': give three values (liberal, moderate, conservative)"
        ))
    })
}

/// Parses one k: a positive integer.
pub fn parse_k(s: &str) -> std::result::Result<u32, String> {
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
                    return Err(input("--k must be at least 1"));
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
            KSource::Correlated { dist, axes } => {
                crate::data::k_source::correlated::assign(dist, axes, table, rows)?
            }
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
pub fn draw(dist: &[(u32, f64)], seed: u64, n: usize) -> Vec<u32> {
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
pub fn histogram(k: &[u32]) -> std::collections::BTreeMap<u32, usize> {
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
    fn distribution_parsing() {
        let d = parse_distribution("3:0.823,5:0.168,7:0.009").unwrap();
        assert_eq!(d.len(), 3);
        assert!(parse_distribution("3:0.5,5:0.3").is_err());
        assert!(parse_distribution("3:0.5;5:0.5").is_err());
        assert!(parse_distribution("0:1").is_err());
        assert!(parse_distribution("3:x").is_err());
        assert!(parse_distribution("3:0.5,3:0.5").is_err());
    }

    #[test]
    fn draws_are_reproducible_and_follow_the_distribution() {
        let d = parse_distribution("2:0.8,3:0.2").unwrap();
        let a = draw(&d, 7, 10_000);
        assert_eq!(a, draw(&d, 7, 10_000));
        assert_ne!(a, draw(&d, 8, 10_000));
        let twos = a.iter().filter(|&&k| k == 2).count() as f64 / 10_000.0;
        assert!((twos - 0.8).abs() < 0.02, "{twos}");
    }

    #[test]
    fn presets_map_groups_to_levels() {
        let d = preset("personal", [3, 5, 7]).unwrap();
        assert_eq!(d.iter().map(|x| x.0).collect::<Vec<_>>(), vec![3, 5, 7]);
        assert!((d[0].1 - 0.823).abs() < 1e-9);
        let g = preset("general", [3, 5, 7]).unwrap();
        assert!((g.iter().map(|x| x.1).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(preset("nope", [3, 5, 7]).is_err());
        assert_eq!(parse_levels("5,7,10").unwrap(), [5, 7, 10]);
        assert!(parse_levels("5,7").is_err());
    }

    #[test]
    fn k_parsing() {
        assert_eq!(parse_k("3"), Ok(3));
        assert!(parse_k("0").is_err());
        assert!(parse_k("-2").is_err());
        assert!(parse_k("2.5").is_err());
    }
}
