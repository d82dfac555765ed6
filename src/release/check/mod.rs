//! The independent anonymity check: re-reads a released table and verifies that every record
//! shares its released quasi-identifier values with at least k_i − 1 other records.
//!
//! It deliberately shares no code with the partitioning, the generalisation or the metrics:
//! it only reads text cells and counts equal tuples, so a bug there cannot hide here.

pub(crate) mod constraints;

use crate::data::table::Table;
use crate::error::{in_file, Result};
use serde::Serialize;
use std::collections::HashMap;

/// Outcome of a check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckReport {
    /// True when every record's group has at least k_i rows.
    pub verified: bool,
    /// Rows checked.
    pub records: usize,
    /// Distinct released quasi-identifier tuples.
    pub groups: usize,
    /// Smallest group size.
    pub min_group: usize,
    /// Records whose group is smaller than their k_i.
    pub violations: usize,
    /// First violation: file line, its k_i and its group size.
    pub first_violation: Option<Violation>,
}

/// A record whose group is too small.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Violation {
    pub line: u64,
    pub k: u32,
    pub group_size: usize,
}

/// Checks an already read release.
pub(crate) fn check_table(table: &Table, quasi: &[String], k: &[u32]) -> Result<CheckReport> {
    if table.rows.len() != k.len() {
        return Err(in_file(
            &table.path,
            format!(
                "release has {} rows but {} k_i values were given",
                table.rows.len(),
                k.len()
            ),
        ));
    }
    let cols: Vec<usize> = quasi
        .iter()
        .map(|q| table.column(q))
        .collect::<Result<_>>()?;
    fn key<'a>(cols: &[usize], r: &'a [String]) -> Vec<&'a str> {
        cols.iter().map(|&c| r[c].as_str()).collect()
    }
    let mut count: HashMap<Vec<&str>, usize> = HashMap::new();
    for row in &table.rows {
        *count.entry(key(&cols, row)).or_default() += 1;
    }
    let mut violations = 0;
    let mut first_violation = None;
    for (r, row) in table.rows.iter().enumerate() {
        let size = count[&key(&cols, row)];
        if size < k[r] as usize {
            violations += 1;
            first_violation.get_or_insert(Violation {
                line: table.lines[r],
                k: k[r],
                group_size: size,
            });
        }
    }
    Ok(CheckReport {
        verified: violations == 0,
        records: table.rows.len(),
        groups: count.len(),
        min_group: count.values().copied().min().unwrap_or(0),
        violations,
        first_violation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &[&[&str]]) -> Table {
        Table {
            path: "mem.csv".into(),
            delimiter: b',',
            headers: vec!["a".into(), "b".into(), "s".into()],
            rows: rows
                .iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect(),
            lines: (2..2 + rows.len() as u64).collect(),
        }
    }

    #[test]
    fn groups_by_released_tuples() {
        let t = table(&[
            &["1", "x", "p"],
            &["1", "x", "q"],
            &["2", "x", "p"],
            &["2", "x", "q"],
            &["2", "x", "r"],
        ]);
        let q = vec!["a".to_string(), "b".to_string()];
        let ok = check_table(&t, &q, &[2, 2, 3, 3, 3]).unwrap();
        assert!(ok.verified);
        assert_eq!((ok.groups, ok.min_group), (2, 2));
        let bad = check_table(&t, &q, &[3, 2, 3, 3, 4]).unwrap();
        assert!(!bad.verified);
        assert_eq!(bad.violations, 2);
        assert_eq!(
            bad.first_violation,
            Some(Violation {
                line: 2,
                k: 3,
                group_size: 2
            })
        );
    }

    #[test]
    fn sensitive_columns_do_not_split_groups() {
        let t = table(&[&["1", "x", "p"], &["1", "x", "q"]]);
        assert!(
            check_table(&t, &["a".to_string()], &[2, 2])
                .unwrap()
                .verified
        );
        assert!(
            !check_table(&t, &["a".to_string(), "s".to_string()], &[2, 2])
                .unwrap()
                .verified
        );
    }

    #[test]
    fn row_count_mismatch_is_an_error() {
        let t = table(&[&["1", "x", "p"]]);
        assert!(check_table(&t, &["a".to_string()], &[1, 1]).is_err());
    }
}
