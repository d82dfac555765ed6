//! What the benchmarks share: the shared data folder, the Adult schema (age numeric, the
//! 7 hierarchy attributes, salary sensitive), the frontier benchmarks' tables (Adult, diabetes,
//! Census), seeded random samples and list-valued settings.
#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const CATEGORICAL: [&str; 7] = [
    "sex",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
];

/// `../shared/data`, resolved.
pub(crate) fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .canonicalize()
        .expect("../shared/data")
}

/// An environment setting, or its default.
pub(crate) fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// A comma-separated environment setting, or its default.
pub(crate) fn env_list(name: &str, default: &str) -> Vec<String> {
    env(name, default)
        .split(',')
        .map(|s| s.trim().to_string())
        .collect()
}

/// Writes the Adult schema into `dir`.
pub(crate) fn adult_schema(dir: &Path) -> PathBuf {
    let data = data_dir().join("adult");
    let mut s = String::from("[columns.age]\nrole = \"quasi\"\nkind = \"numeric\"\n[columns.salary-class]\nrole = \"sensitive\"\n");
    for a in CATEGORICAL {
        s += &format!(
            "[columns.{a}]\nrole = \"quasi\"\nkind = \"categorical\"\nhierarchy = \"{}\"\n",
            data.join(format!("adult_hierarchy_{a}.csv")).display()
        );
    }
    let p = dir.join("adult.toml");
    std::fs::write(&p, s).unwrap();
    p
}

/// A seeded random sample of n Adult rows, written into `dir`.
pub(crate) fn adult_sample(dir: &Path, n: usize, seed: u64) -> PathBuf {
    let text = std::fs::read_to_string(data_dir().join("adult/adult.csv")).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let mut rows: Vec<&str> = lines.collect();
    rows.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    let p = dir.join(format!("adult_{n}_{seed}.csv"));
    std::fs::write(&p, format!("{header}\n{}\n", rows[..n].join("\n"))).unwrap();
    p
}

/// A table of the frontier benchmarks: its rows (header first), its delimiter and its schema file.
pub(crate) struct Table {
    pub(crate) name: String,
    pub(crate) header: String,
    pub(crate) rows: Vec<String>,
    pub(crate) schema: PathBuf,
}

/// A numeric schema: `quasi` columns numeric quasi-identifiers, the rest insensitive.
pub(crate) fn numeric_schema(dir: &Path, name: &str, quasi: &[&str]) -> PathBuf {
    let mut s = String::from("default_role = \"insensitive\"\n");
    for q in quasi {
        let _ = writeln!(s, "[columns.{q}]\nrole = \"quasi\"\nkind = \"numeric\"");
    }
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, s).expect("schema written");
    p
}

pub(crate) fn load(dir: &Path, name: &str) -> Table {
    let data = data_dir();
    let (file, schema) = match name {
        "adult" => (data.join("adult/adult.csv"), adult_schema(dir)),
        "diabetes" => (
            data.join("sklearn_diabetes_raw.csv"),
            numeric_schema(
                dir,
                name,
                &["age", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"],
            ),
        ),
        "census" | "tarragona" => {
            let file = data.join(format!("sdcmicro/{name}.csv"));
            let text = std::fs::read_to_string(&file).expect("sdcMicro table");
            let header = text.lines().next().expect("a header").to_string();
            let cols: Vec<&str> = header.split(',').collect();
            (file, numeric_schema(dir, name, &cols))
        }
        other => panic!("unknown table {other}"),
    };
    let text = std::fs::read_to_string(&file).expect("table readable");
    let mut lines = text.lines();
    let header = lines.next().expect("a header").to_string();
    Table {
        name: name.to_string(),
        header,
        rows: lines.map(str::to_string).collect(),
        schema,
    }
}

/// A seeded random sample of `n` rows (the whole table when smaller), written into `dir`.
pub(crate) fn sample(dir: &Path, t: &Table, n: usize, seed: u64) -> (PathBuf, usize) {
    let mut rows: Vec<&String> = t.rows.iter().collect();
    rows.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    let n = n.min(rows.len());
    let p = dir.join(format!("{}_{n}_{seed}.csv", t.name));
    let body: Vec<&str> = rows[..n].iter().map(|s| s.as_str()).collect();
    std::fs::write(&p, format!("{}\n{}\n", t.header, body.join("\n"))).expect("sample written");
    (p, n)
}
