//! Quasi-identifier columns decoded into typed values, one record per kept table row.

use crate::data::hierarchy::Hierarchy;
use crate::data::schema::{ColumnSpec, Kind};
use crate::data::table::Table;
use crate::error::{at_cell, in_file, Result};
use std::sync::Arc;

/// Typed values of one quasi-identifier.
#[derive(Clone, Debug)]
pub(crate) enum Values {
    /// Numbers, with the range over the released records.
    Numeric {
        values: Vec<f64>,
        min: f64,
        max: f64,
    },
    /// Rank of each record's level in `levels`.
    Ordinal {
        ranks: Vec<u32>,
        levels: Vec<String>,
    },
    /// Leaf index of each record's value in the hierarchy (a flat one when none was given).
    Categorical {
        leaves: Vec<u32>,
        hierarchy: Arc<Hierarchy>,
        has_file: bool,
    },
}

/// One decoded quasi-identifier.
#[derive(Clone, Debug)]
pub(crate) struct QiAttribute {
    pub name: String,
    pub weight: f64,
    /// Index of the column in the table.
    pub column: usize,
    /// The original cell text of each record (used to print `[min-max]` as written).
    pub raw: Vec<String>,
    pub values: Values,
}

impl QiAttribute {
    /// Kind name for reports.
    pub(crate) fn kind_name(&self) -> &'static str {
        match self.values {
            Values::Numeric { .. } => "numeric",
            Values::Ordinal { .. } => "ordinal",
            Values::Categorical { .. } => "categorical",
        }
    }

    /// Unweighted distance on this attribute, in [0, 1] (seed 001 §5.3.2).
    #[cfg(test)]
    pub(crate) fn distance(&self, i: usize, j: usize) -> f64 {
        match &self.values {
            Values::Numeric { values, min, max } => {
                if max > min {
                    (values[i] - values[j]).abs() / (max - min)
                } else {
                    0.0
                }
            }
            Values::Ordinal { ranks, levels } => {
                (ranks[i] as f64 - ranks[j] as f64).abs() / (levels.len() - 1) as f64
            }
            Values::Categorical {
                leaves, hierarchy, ..
            } => hierarchy.lca_level(leaves[i], leaves[j]) as f64 / hierarchy.height() as f64,
        }
    }

    /// Largest unweighted distance on this attribute among `members` (for SBIL).
    pub(crate) fn spread(&self, members: &[usize]) -> f64 {
        match &self.values {
            Values::Numeric { values, min, max } => {
                if max <= min || members.is_empty() {
                    return 0.0;
                }
                let (lo, hi) = members
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &i| {
                        (lo.min(values[i]), hi.max(values[i]))
                    });
                (hi - lo) / (max - min)
            }
            Values::Ordinal { ranks, levels } => {
                let lo = members.iter().map(|&i| ranks[i]).min().unwrap_or(0);
                let hi = members.iter().map(|&i| ranks[i]).max().unwrap_or(0);
                (hi - lo) as f64 / (levels.len() - 1) as f64
            }
            Values::Categorical {
                leaves, hierarchy, ..
            } => {
                hierarchy.lca_level_of(members.iter().map(|&i| leaves[i])) as f64
                    / hierarchy.height() as f64
            }
        }
    }
}

/// All quasi-identifiers of the released records.
#[derive(Clone, Debug)]
pub(crate) struct QiTable {
    pub n: usize,
    pub attributes: Vec<QiAttribute>,
}

impl QiTable {
    /// Decodes the quasi-identifier columns of the table rows `rows` (which contain no missing
    /// quasi-identifier value). Errors name the file, line and column.
    pub(crate) fn decode(table: &Table, specs: &[&ColumnSpec], rows: &[usize]) -> Result<QiTable> {
        let mut attributes = Vec::new();
        for spec in specs {
            let column = table.column(&spec.name)?;
            let raw: Vec<String> = rows
                .iter()
                .map(|&r| table.rows[r][column].clone())
                .collect();
            let cell_err =
                |k: usize, msg: String| at_cell(&table.path, table.lines[rows[k]], &spec.name, msg);
            let kind = spec.kind.clone().expect("quasi-identifiers have a kind");
            let kind = match kind {
                Kind::Inferred => {
                    if raw.iter().all(|v| parse_number(v).is_some()) {
                        Kind::Numeric
                    } else {
                        Kind::Categorical { hierarchy: None }
                    }
                }
                k => k,
            };
            let values = match kind {
                Kind::Numeric => {
                    let mut values = Vec::with_capacity(raw.len());
                    for (k, v) in raw.iter().enumerate() {
                        values.push(
                            parse_number(v)
                                .ok_or_else(|| cell_err(k, format!("'{v}' is not a number")))?,
                        );
                    }
                    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
                    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    Values::Numeric { values, min, max }
                }
                Kind::Ordinal { levels } => {
                    let mut ranks = Vec::with_capacity(raw.len());
                    for (k, v) in raw.iter().enumerate() {
                        let r = levels.iter().position(|l| l == v).ok_or_else(|| {
                            cell_err(
                                k,
                                format!(
                                    "'{v}' is not one of the ordinal levels ({})",
                                    levels.join(", ")
                                ),
                            )
                        })?;
                        ranks.push(r as u32);
                    }
                    Values::Ordinal { ranks, levels }
                }
                Kind::Categorical {
                    hierarchy: Some(path),
                } => {
                    let h = Hierarchy::read(&path)?;
                    let mut leaves = Vec::with_capacity(raw.len());
                    for (k, v) in raw.iter().enumerate() {
                        leaves.push(h.leaf(v).ok_or_else(|| {
                            cell_err(
                                k,
                                format!(
                                    "value '{v}' is missing from the hierarchy {}",
                                    path.display()
                                ),
                            )
                        })?);
                    }
                    Values::Categorical {
                        leaves,
                        hierarchy: Arc::new(h),
                        has_file: true,
                    }
                }
                Kind::Categorical { hierarchy: None } => {
                    let mut distinct: Vec<String> = raw.clone();
                    distinct.sort();
                    distinct.dedup();
                    let h = Hierarchy::flat(&distinct);
                    let leaves = raw
                        .iter()
                        .map(|v| h.leaf(v).expect("flat hierarchy holds every value"))
                        .collect();
                    Values::Categorical {
                        leaves,
                        hierarchy: Arc::new(h),
                        has_file: false,
                    }
                }
                Kind::Inferred => unreachable!("inferred kinds are resolved above"),
            };
            if spec.weight <= 0.0 || !spec.weight.is_finite() {
                return Err(in_file(
                    &table.path,
                    format!("column '{}': weight must be positive", spec.name),
                ));
            }
            attributes.push(QiAttribute {
                name: spec.name.clone(),
                weight: spec.weight,
                column,
                raw,
                values,
            });
        }
        Ok(QiTable {
            n: rows.len(),
            attributes,
        })
    }

    /// Weighted record distance computed attribute by attribute: the reference the fast
    /// `distance::RecordDistance` is tested against.
    #[cfg(test)]
    pub(crate) fn distance(&self, i: usize, j: usize) -> f64 {
        self.attributes
            .iter()
            .map(|a| a.weight * a.distance(i, j))
            .sum()
    }

    /// Largest possible distance (the sum of the weights).
    pub(crate) fn max_distance(&self) -> f64 {
        self.attributes.iter().map(|a| a.weight).sum()
    }
}

/// Parses a number as written in a table cell.
pub(crate) fn parse_number(v: &str) -> Option<f64> {
    v.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}
