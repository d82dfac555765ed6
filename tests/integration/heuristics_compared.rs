//! Every report compares: the `heuristics` key of the JSON report (MDAV, k-member, Mondrian,
//! each with its objective in the run's criterion and its ratio to the release), the HTML
//! table, and the summary line — always for `--method optimal`, with `--compare` for a
//! heuristic run.

use crate::common::*;
use serde_json::Value;

/// The report's `heuristics`, checked: the three heuristics in order, and every ratio times the
/// released objective giving the heuristic's objective.
fn compared(report: &Value) -> Vec<(String, f64, f64)> {
    let released = report["objective"].as_f64().unwrap();
    let entries = report["heuristics"].as_array().expect("a heuristics array");
    let names: Vec<&str> = entries
        .iter()
        .map(|e| e["method"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["mdav", "kmember", "mondrian"]);
    entries
        .iter()
        .map(|e| {
            let objective = e["objective"].as_f64().unwrap();
            let ratio = e["ratio"]
                .as_f64()
                .expect("a ratio (released objective > 0)");
            assert!(
                (ratio * released - objective).abs() <= 1e-9 * objective.abs().max(1.0),
                "ratio {ratio} × released {released} ≠ {objective}"
            );
            assert!(e["classes"].as_u64().unwrap() >= 1);
            (e["method"].as_str().unwrap().to_string(), objective, ratio)
        })
        .collect()
}

#[test]
fn optimal_report_compares_with_every_heuristic() {
    let dir = tempfile::tempdir().unwrap();
    let report = optik("anonymise")
        .clinical_trial()
        .args(["--method", "optimal"])
        .anonymised(dir.path(), "optimal");
    let optimum = report["objective"].as_f64().unwrap();
    for (method, objective, ratio) in compared(&report) {
        assert!(ratio >= 1.0, "{method} below the optimum: {objective}");
        // the heuristic's own run, in exact distances, agrees with its value on the instance
        // (distances rounded to 1/1000) up to that rounding
        let alone = optik("anonymise")
            .clinical_trial()
            .args(["--method", &method])
            .anonymised(dir.path(), &method);
        let exact = alone["objective"].as_f64().unwrap();
        assert!(
            (exact - objective).abs() <= 60.0 * 60.0 * 0.0005,
            "{method}: {exact} alone, {objective} in the comparison"
        );
    }
    assert_eq!(report["status"], "optimal");
    assert!(optimum > 0.0);
}

#[test]
fn heuristic_run_compares_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let plain = optik("anonymise")
        .clinical_trial()
        .args(["--method", "kmember"])
        .anonymised(dir.path(), "plain");
    assert_eq!(plain["heuristics"], serde_json::json!([]));
    let report = optik("anonymise")
        .clinical_trial()
        .args(["--method", "kmember", "--compare", "--criterion", "wcsd"])
        .anonymised(dir.path(), "compared");
    let entries = compared(&report);
    assert_eq!(entries[1].2, 1.0, "the released heuristic against itself");
    let mdav = optik("anonymise")
        .clinical_trial()
        .args(["--method", "mdav", "--criterion", "wcsd"])
        .anonymised(dir.path(), "mdav");
    assert_eq!(entries[0].1, mdav["objective"].as_f64().unwrap());
}

#[test]
fn summary_line_and_html_show_the_comparison() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let run = optik("anonymise")
        .clinical_trial()
        .args(["--method", "optimal"])
        .output("--out", dir.path().join("release.csv"))
        .output("--html", &html)
        .ok();
    let summary = run
        .stderr
        .lines()
        .find(|l| l.starts_with("optimal (optimal)"))
        .unwrap_or_else(|| panic!("no summary line in: {}", run.stderr));
    // the best heuristic on the clinical trial is MDAV (68.333 against the optimum 52.969)
    assert!(
        summary.contains("dbil = 52.9690, 1.29× less loss than MDAV"),
        "{summary}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h3 id=\"heuristics\">Compared with the heuristics</h3>"));
    for name in ["MDAV", "k-member", "Mondrian"] {
        assert!(page.contains(&format!("<tr><td>{name}</td>")), "{name} row");
    }
    assert!(
        page.contains("<td class=\"num\">1.290</td>"),
        "MDAV's ratio"
    );
}

#[test]
fn constrained_run_says_which_heuristics_meet_the_constraints() {
    let dir = tempfile::tempdir().unwrap();
    let report = optik("anonymise")
        .clinical_trial()
        .args(["--method", "optimal", "--max-class-size", "8"])
        .anonymised(dir.path(), "capped");
    compared(&report);
    for e in report["heuristics"].as_array().unwrap() {
        assert!(e["meets_constraints"].is_boolean(), "{e}");
        assert!(e["repaired"].is_boolean(), "{e}");
    }
}
