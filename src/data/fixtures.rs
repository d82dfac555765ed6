//! Small in-memory tables for unit tests.
#![cfg(test)]

use crate::data::qi::QiTable;
use crate::data::schema::{ColumnSpec, Kind, Role};
use crate::data::table::Table;

/// A table from literal rows (first row = header).
pub fn table(rows: &[&[&str]]) -> Table {
    Table {
        path: "fixture.csv".into(),
        delimiter: b',',
        headers: rows[0].iter().map(|s| s.to_string()).collect(),
        rows: rows[1..]
            .iter()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .collect(),
        lines: (2..rows.len() as u64 + 1).collect(),
    }
}

/// A quasi-identifier spec.
pub fn quasi(name: &str, kind: Kind, weight: f64) -> ColumnSpec {
    ColumnSpec {
        name: name.into(),
        role: Role::Quasi,
        kind: Some(kind),
        weight,
    }
}

/// Decodes every row of `t` with `specs`.
pub fn qi(t: &Table, specs: &[ColumnSpec]) -> QiTable {
    let refs: Vec<&ColumnSpec> = specs.iter().collect();
    QiTable::decode(t, &refs, &(0..t.rows.len()).collect::<Vec<_>>()).unwrap()
}
