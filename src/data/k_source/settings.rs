//! The k_i source as a user writes it — uniform k, a k column, a `k:probability` list or a
//! preset, with the preset's levels, the seed and how drawn k_i are assigned — and the parsing
//! that turns it into a [`KSource`]. The command line's k flags and a bench spec's k keys both
//! come here, so they accept and refuse exactly the same things.

use super::correlated::{parse_axes, DEFAULT_AXES};
use super::source::{parse_k, KSource};
use crate::error::{input, Result};
use crate::settings::Setting;
use serde::Serialize;

/// Which k_i source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KChoice {
    /// Uniform k-anonymity.
    Uniform(u32),
    /// Per-record k_i read from this column (not released).
    Column(String),
    /// Each record draws k_i from this distribution, e.g. `3:0.823,5:0.168,7:0.009`.
    Distribution(String),
    /// An Acquisti & Grossklags preset (seed table 5.2): general, personal, professional,
    /// sexual-political, over the levels of [`KSettings::levels`].
    Preset(String),
}

/// A k_i source with the options that shape it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KSettings {
    pub choice: KChoice,
    /// k values of the liberal, moderate and conservative groups of a preset, `3,5,7`.
    pub levels: String,
    /// Seed of the draws of a distribution or a preset.
    pub seed: u64,
    /// How drawn k_i are given to the records.
    pub assign: KAssign,
    /// The plane of the correlated assignment: two columns, `a,b`.
    pub axes: String,
    /// Order of a non-numeric axis, from the origin outwards: `COLUMN=v1,v2,...`.
    pub axis_order: Vec<String>,
}

/// The preset's default levels.
pub(crate) const DEFAULT_LEVELS: &str = "3,5,7";

impl KSettings {
    /// A choice with the default levels, seed 0, random assignment and the default axes.
    pub fn new(choice: KChoice) -> KSettings {
        KSettings {
            choice,
            levels: DEFAULT_LEVELS.to_string(),
            seed: 0,
            assign: KAssign::Random,
            axes: DEFAULT_AXES.to_string(),
            axis_order: Vec::new(),
        }
    }

    /// The k source these settings describe.
    pub fn source(&self) -> Result<KSource> {
        let ks = match &self.choice {
            KChoice::Uniform(k) => KSource::Uniform { k: *k },
            KChoice::Column(c) => KSource::Column { name: c.clone() },
            KChoice::Distribution(d) => KSource::Distribution {
                dist: parse_distribution(d)?,
                seed: self.seed,
            },
            KChoice::Preset(p) => KSource::Distribution {
                dist: preset(p, parse_levels(&self.levels)?)?,
                seed: self.seed,
            },
        };
        apply(ks, self.assign, &self.axes, &self.axis_order)
    }
}

/// How drawn k_i (a distribution or a preset) are given to the records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KAssign {
    /// Independently at random, with the run's seed.
    #[default]
    Random,
    /// By distance to the origin in the plane of two axes (nearest: lowest k).
    Correlated,
}

impl KAssign {
    /// Every assignment.
    pub const ALL: [KAssign; 2] = [KAssign::Random, KAssign::Correlated];

    /// The name used in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            KAssign::Random => "random",
            KAssign::Correlated => "correlated",
        }
    }
}

/// Turns a drawn k source into a correlated one when `assign` says so; refuses the
/// correlated assignment of k sources that are not drawn, and axes without it.
fn apply(ks: KSource, assign: KAssign, axes: &str, orders: &[String]) -> Result<KSource> {
    match (assign, ks) {
        (KAssign::Random, ks) => {
            if !orders.is_empty() || axes != DEFAULT_AXES {
                return Err(input(format!(
                    "{} and {} apply to {} correlated only",
                    Setting::KAxes,
                    Setting::KAxisOrder,
                    Setting::KAssign
                )));
            }
            Ok(ks)
        }
        (KAssign::Correlated, KSource::Distribution { dist, .. }) => Ok(KSource::Correlated {
            dist,
            axes: parse_axes(axes, orders)?,
        }),
        (KAssign::Correlated, _) => Err(input(format!(
            "{} correlated needs {} or {} (the shares to assign)",
            Setting::KAssign,
            Setting::KDist,
            Setting::KPreset
        ))),
    }
}

/// The preset distributions: share of (liberal, moderate, conservative) respondents per
/// data category, from Acquisti & Grossklags (seed 001 table 5.2: low, medium, high concern).
pub(crate) const PRESETS: [(&str, [f64; 3]); 4] = [
    ("general", [0.107, 0.355, 0.537]),
    ("personal", [0.823, 0.168, 0.009]),
    ("professional", [0.373, 0.508, 0.119]),
    ("sexual-political", [0.621, 0.258, 0.121]),
];

/// Tolerance on the sum of a distribution's probabilities (they are then normalised).
const SUM_TOLERANCE: f64 = 0.002;

/// Parses `3:0.823,5:0.168,7:0.009`.
pub(crate) fn parse_distribution(s: &str) -> Result<Vec<(u32, f64)>> {
    let mut dist = Vec::new();
    for part in s.split(',') {
        let (k, p) = part.split_once(':').ok_or_else(|| {
            input(format!(
                "{} '{s}': '{part}' is not k:probability",
                Setting::KDist
            ))
        })?;
        let k = parse_k(k.trim()).map_err(|e| input(format!("{} '{s}': {e}", Setting::KDist)))?;
        let p: f64 = p
            .trim()
            .parse()
            .ok()
            .filter(|p: &f64| p.is_finite() && *p >= 0.0)
            .ok_or_else(|| {
                input(format!(
                    "{} '{s}': '{p}' is not a probability",
                    Setting::KDist
                ))
            })?;
        if dist.iter().any(|&(k2, _)| k2 == k) {
            return Err(input(format!(
                "{} '{s}': k = {k} is listed twice",
                Setting::KDist
            )));
        }
        dist.push((k, p));
    }
    normalise(dist, &format!("{} '{s}'", Setting::KDist))
}

fn normalise(dist: Vec<(u32, f64)>, what: &str) -> Result<Vec<(u32, f64)>> {
    let sum: f64 = dist.iter().map(|d| d.1).sum();
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        return Err(input(format!("{what}: probabilities sum to {sum}, not 1")));
    }
    Ok(dist.into_iter().map(|(k, p)| (k, p / sum)).collect())
}

/// A preset distribution over `levels` = (liberal, moderate, conservative) k values.
pub(crate) fn preset(name: &str, levels: [u32; 3]) -> Result<Vec<(u32, f64)>> {
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

/// Parses the preset's k levels, `3,5,7`.
pub(crate) fn parse_levels(s: &str) -> Result<[u32; 3]> {
    let v: Vec<u32> = s
        .split(',')
        .map(|x| parse_k(x.trim()).map_err(|e| input(format!("{} '{s}': {e}", Setting::KLevels))))
        .collect::<Result<_>>()?;
    <[u32; 3]>::try_from(v).map_err(|_| {
        input(format!(
            "{} '{s}': give three values (liberal, moderate, conservative)",
            Setting::KLevels
        ))
    })
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
}
