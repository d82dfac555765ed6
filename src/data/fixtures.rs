//! Small in-memory tables and the Adult sample, for unit tests.
#![cfg(test)]

use crate::data::qi::QiTable;
use crate::data::schema::{ColumnSpec, Kind, Role};
use crate::data::table::Table;

/// A table from literal rows (first row = header).
pub(crate) fn table(rows: &[&[&str]]) -> Table {
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
pub(crate) fn quasi(name: &str, kind: Kind, weight: f64) -> ColumnSpec {
    ColumnSpec {
        name: name.into(),
        role: Role::Quasi,
        kind: Some(kind),
        weight,
    }
}

/// Decodes every row of `t` with `specs`.
pub(crate) fn qi(t: &Table, specs: &[ColumnSpec]) -> QiTable {
    let refs: Vec<&ColumnSpec> = specs.iter().collect();
    QiTable::decode(t, &refs, &(0..t.rows.len()).collect::<Vec<_>>()).unwrap()
}

/// The Adult quasi-identifiers with ARX hierarchies (age is numeric).
pub(crate) const ADULT_CATEGORICAL: [&str; 7] = [
    "sex",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
];

/// `../shared/data/adult`, resolved.
pub(crate) fn adult_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/adult")
        .canonicalize()
        .expect("../shared/data/adult exists")
}

/// Writes the Adult schema into `dir` (age numeric, 7 hierarchy attributes, salary sensitive).
pub(crate) fn adult_schema(dir: &std::path::Path) -> std::path::PathBuf {
    let data = adult_dir();
    let mut s = String::from("[columns.age]\nrole = \"quasi\"\nkind = \"numeric\"\n\n[columns.salary-class]\nrole = \"sensitive\"\n");
    for a in ADULT_CATEGORICAL {
        s.push_str(&format!(
            "\n[columns.{a}]\nrole = \"quasi\"\nkind = \"categorical\"\nhierarchy = \"{}\"\n",
            data.join(format!("adult_hierarchy_{a}.csv")).display()
        ));
    }
    let p = dir.join("adult.toml");
    std::fs::write(&p, s).unwrap();
    p
}

/// The first `n` records of Adult, written into `dir`.
pub(crate) fn adult_sample(dir: &std::path::Path, n: usize) -> std::path::PathBuf {
    let text = std::fs::read_to_string(adult_dir().join("adult.csv")).expect("adult.csv");
    let sample: Vec<&str> = text.lines().take(n + 1).collect();
    let p = dir.join(format!("adult_{n}.csv"));
    std::fs::write(&p, sample.join("\n") + "\n").unwrap();
    p
}
