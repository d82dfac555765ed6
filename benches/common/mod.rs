//! What the Adult benchmarks share: the shared data folder, the Adult schema (age numeric, the
//! 7 hierarchy attributes, salary sensitive), seeded random samples and list-valued settings.
#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::SeedableRng;
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
