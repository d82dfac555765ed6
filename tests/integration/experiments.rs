//! `optik experiment` (seed 001 §5.5): the grids run through the CLI, write their summary,
//! CSV and well-formed heatmaps, meet the invariants of the comparison (all-moderate and
//! all-conservative cells equal their baselines).

use crate::common::{adult_sample, adult_schema, optik, shared_data, Cmd};
use optik::{Dataset, KSource, LoadOptions, Schema, SchemaSource};
use std::path::Path;

/// `optik experiment ARGS` on Adult, to be run.
fn run(dir: &Path, args: &[&str]) -> Cmd {
    let schema = adult_schema(dir);
    optik("experiment")
        .args(args)
        .arg("--csv")
        .arg(shared_data().join("adult/adult.csv"))
        .arg("--schema")
        .arg(schema)
}

fn csv_rows(p: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(p).unwrap();
    let h: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|x| {
            h.iter()
                .cloned()
                .zip(x.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn frequency_grid_writes_heatmaps_and_meets_its_invariants() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("freq");
    run(
        dir.path(),
        &[
            "frequency",
            "--rows",
            "250",
            "--seeds",
            "1,2",
            "--step",
            "50",
            "--heuristics",
            "mdav,kmember",
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .ok();
    let md = std::fs::read_to_string(out.join("experiment.md")).unwrap();
    assert!(md.contains("250 records drawn at random"), "{md}");
    let svgs: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|f| f.ends_with(".svg"))
        .collect();
    // 2 baselines × 2 levels × 2 heuristics.
    assert_eq!(svgs.len(), 8, "{svgs:?}");
    for f in &svgs {
        assert!(md.contains(&format!("]({f})")), "{f}");
        let text = std::fs::read_to_string(out.join(f)).unwrap();
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    let rows = csv_rows(&out.join("frequency.csv"));
    // (f_l, f_c) ∈ {0, 50, 100}² with f_l + f_c ≤ 100: 6 cells × 2 levels × 2 heuristics × 2 seeds.
    assert_eq!(rows.len(), 48);
    for r in &rows {
        let ratio = |c: &str| r[c].parse::<f64>().unwrap();
        // Every record a moderate: k_i-anonymity is k_m-anonymity; every one a conservative: k_c.
        if r["shares"] == "f_l=0,f_c=0" {
            assert_eq!(ratio("ratio_km"), 1.0, "{r:?}");
        }
        if r["shares"] == "f_l=0,f_c=100" {
            assert_eq!(ratio("ratio_kc"), 1.0, "{r:?}");
        }
    }
}

#[test]
fn table53_has_every_cell() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t53");
    run(
        dir.path(),
        &[
            "table53",
            "--rows",
            "200",
            "--seeds",
            "3",
            "--heuristics",
            "mondrian",
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .ok();
    let md = std::fs::read_to_string(out.join("experiment.md")).unwrap();
    assert!(
        md.contains("| mondrian | low (3, 5, 7) |")
            && md.contains("| mondrian | high (5, 7, 10) |"),
        "{md}"
    );
    assert!(!md.contains('–'), "a cell is empty: {md}");
    // 2 levels × 4 distributions × 2 assignments × 1 seed.
    assert_eq!(csv_rows(&out.join("table53.csv")).len(), 16);
    // Bad grid parameters: one line, exit 2, nothing written.
    run(
        dir.path(),
        &[
            "frequency",
            "--step",
            "7",
            "--out",
            dir.path().join("x").to_str().unwrap(),
        ],
    )
    .fails(&["--step 7 must divide 100"]);
    assert!(!dir.path().join("x").exists());
}

/// `--rows all` runs on every complete record of the table (the seed's table 5.3 setting);
/// a row count that is not a positive number or `all` is refused with a one-line error.
#[test]
fn rows_all_takes_the_whole_table() {
    let dir = tempfile::tempdir().unwrap();
    let csv = adult_sample(dir.path(), 150);
    let schema = adult_schema(dir.path());
    let complete = Dataset::load(
        &csv,
        Schema::load(&SchemaSource::File(schema.clone())).unwrap(),
        &KSource::Uniform { k: 1 },
        &LoadOptions {
            delimiter: None,
            drop_missing: true,
        },
    )
    .unwrap()
    .n();
    assert!(complete > 100);
    let exp = |rows: &str, out: &Path| {
        optik("experiment")
            .args(["table53", "--rows", rows, "--seeds", "1"])
            .args(["--heuristics", "mondrian", "--csv"])
            .arg(&csv)
            .arg("--schema")
            .arg(&schema)
            .output("--out", out)
    };
    let out = dir.path().join("all");
    exp("all", &out).ok();
    let md = std::fs::read_to_string(out.join("experiment.md")).unwrap();
    assert!(md.contains(&format!("all {complete} records from")), "{md}");
    assert!(md.contains("--rows all"), "{md}");
    for bad in ["0", "some"] {
        let out = dir.path().join(format!("bad{bad}"));
        exp(bad, &out).fails(&["positive number of rows or `all`"]);
    }
}
