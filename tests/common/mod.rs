//! Shared helpers for the integration tests: temp folders, the Adult and diabetes tables from
//! `../shared/data`, and running the `optik` binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared data folder (`../shared/data` from the repository root).
pub(crate) fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

/// Path to a bundled instance file.
pub(crate) fn instance(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("instances")
        .join(name)
}

/// The Adult quasi-identifiers with ARX hierarchies (age numeric).
pub(crate) const ADULT_CATEGORICAL: [&str; 7] = [
    "sex",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
];

/// Writes the Adult schema (age numeric, 7 hierarchy attributes, salary sensitive).
pub(crate) fn adult_schema(dir: &Path) -> PathBuf {
    let data = shared_data()
        .join("adult")
        .canonicalize()
        .expect("../shared/data/adult exists");
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

/// The first `n` records of Adult, written to `dir`.
pub(crate) fn adult_sample(dir: &Path, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(shared_data().join("adult/adult.csv")).expect("adult.csv");
    let sample: Vec<&str> = text.lines().take(n + 1).collect();
    let p = dir.join(format!("adult_{n}.csv"));
    std::fs::write(&p, sample.join("\n") + "\n").unwrap();
    p
}

/// The `optik` binary as a command.
pub(crate) fn optik() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("optik").unwrap()
}

/// Reads a JSON report.
pub(crate) fn report(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Runs `optik anonymise ARGS --out DIR/TAG.csv --report DIR/TAG.json --quiet`, asserts
/// success, and returns the report.
pub(crate) fn anonymise(dir: &Path, args: &[&str], tag: &str) -> serde_json::Value {
    let out = dir.join(format!("{tag}.csv"));
    let rep = dir.join(format!("{tag}.json"));
    let o = optik()
        .arg("anonymise")
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--report")
        .arg(&rep)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{tag}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.exists());
    report(&rep)
}
