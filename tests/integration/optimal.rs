//! `optik anonymise --method optimal`: proven optima on small tables, never worse than any
//! heuristic, verified releases, and honest statuses under a time limit.

use crate::common::*;
use std::path::Path;

#[test]
fn optimal_is_proven_and_beats_every_heuristic_on_adult_samples() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    for (criterion, n) in [("dbil", 20), ("diameter", 20), ("wcsd", 12)] {
        let input = adult_sample(dir.path(), n);
        let base = [
            input.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
            "--k-dist",
            "2:0.8,3:0.2",
            "--seed",
            "5",
        ];
        let opt = anonymise(
            dir.path(),
            &[
                &base[..],
                &[
                    "--method",
                    "optimal",
                    "--criterion",
                    criterion,
                    "--time-limit",
                    "60s",
                ],
            ]
            .concat(),
            &format!("opt_{criterion}"),
        );
        assert_eq!(opt["status"], "optimal", "{criterion}");
        assert_eq!(opt["verified"], true);
        let best = opt["objective"].as_f64().unwrap();
        assert_eq!(
            opt["lower_bound"].as_f64().unwrap(),
            best,
            "{criterion}: proven bound equals the optimum"
        );
        assert!(!opt["timeline"].as_array().unwrap().is_empty());
        for m in ["mdav", "kmember", "mondrian"] {
            let h = anonymise(
                dir.path(),
                &[&base[..], &["--method", m, "--criterion", criterion]].concat(),
                &format!("{m}_{criterion}"),
            );
            // the heuristic's objective uses exact distances; the optimum is on distances
            // rounded to 1/1000: allow the rounding of every pair the criterion sums.
            let slack = (n * n) as f64 * 0.0005;
            assert!(
                best <= h["objective"].as_f64().unwrap() + slack,
                "{criterion}: optimal {best} vs {m} {}",
                h["objective"]
            );
        }
    }
}

#[test]
fn split_is_maximised_on_the_seed_table() {
    let dir = tempfile::tempdir().unwrap();
    let input = instance("seed001_table3_2.csv");
    let schema = instance("seed001_table3_2.toml");
    let r = optik("anonymise")
        .input(&input, &schema)
        .args([
            "--k-column",
            "k",
            "--method",
            "optimal",
            "--criterion",
            "split",
        ])
        .anonymised(dir.path(), "split");
    assert_eq!(r["status"], "optimal");
    assert_eq!(r["verified"], true);
    assert!(r["objective"].as_f64().unwrap() > 0.0);
}

#[test]
fn time_limit_gives_an_honest_status() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), 300);
    let r = optik("anonymise")
        .input(&input, &schema)
        .args(["--k", "3", "--method", "optimal", "--time-limit", "2s"])
        .anonymised(dir.path(), "tl");
    let status = r["status"].as_str().unwrap();
    assert!(status == "optimal" || status == "feasible", "{status}");
    assert_eq!(r["verified"], true);
    if status == "feasible" {
        let lb = r["lower_bound"].as_f64().unwrap_or(0.0);
        assert!(lb <= r["objective"].as_f64().unwrap());
    }
}

#[test]
fn export_json_and_dzn() {
    let dir = tempfile::tempdir().unwrap();
    let input = instance("seed001_table3_2.csv");
    let schema = instance("seed001_table3_2.toml");
    for format in ["json", "dzn"] {
        let out = dir.path().join(format!("inst.{format}"));
        optik("export")
            .arg(&input)
            .arg("--schema")
            .arg(&schema)
            .args(["--k-column", "k", "--format", format])
            .output("--out", &out)
            .ok();
        let text = std::fs::read_to_string(&out).unwrap();
        if format == "json" {
            let inst = optik_models::export::from_json(&text).unwrap();
            assert_eq!(inst.n, 9);
            assert_eq!(inst.scale, 1000.0);
            assert_eq!(inst.k, vec![2, 2, 2, 3, 3, 2, 3, 2, 2]);
            // A (14025, 25, F) – B (14025, 32, M): age 7/45 + sex 1 → 1156 (rounded)
            assert_eq!(
                inst.d(0, 1),
                (1000.0_f64 * (7.0 / 45.0 + 1.0)).round() as i64
            );
        } else {
            assert!(text.contains("n = 9;") && text.contains("dist = [|"));
        }
    }
}

#[test]
fn minizinc_solves_an_export_to_optiks_optimum() {
    let available = std::process::Command::new("minizinc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        println!("minizinc not found on PATH: skipping the export cross-check");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = instance("seed001_table3_2.csv");
    let schema = instance("seed001_table3_2.toml");
    let dzn = dir.path().join("inst.dzn");
    optik("export")
        .arg(&input)
        .arg("--schema")
        .arg(&schema)
        .args(["--k-column", "k", "--format", "dzn"])
        .output("--out", &dzn)
        .ok();
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/minizinc/ki_anonymity.mzn");
    for criterion in ["dbil", "diameter", "wcsd"] {
        let r = optik("anonymise")
            .input(&input, &schema)
            .args([
                "--k-column",
                "k",
                "--method",
                "optimal",
                "--criterion",
                criterion,
            ])
            .anonymised(dir.path(), &format!("mzn_{criterion}"));
        assert_eq!(r["status"], "optimal");
        let ours = (r["objective"].as_f64().unwrap() * 1000.0).round() as i64;
        let out = std::process::Command::new("minizinc")
            .args(["--solver", "gecode"])
            .arg(&model)
            .arg(&dzn)
            .arg("-D")
            .arg(format!("criterion={criterion}; min_classes=1;"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("=========="),
            "minizinc did not prove optimality: {text}"
        );
        let theirs: i64 = text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("objective = "))
            .unwrap()
            .trim_end_matches(';')
            .parse()
            .unwrap();
        assert_eq!(ours, theirs, "{criterion}");
    }
}

#[test]
fn engines_agree_on_small_adult_samples() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), 12);
    let base = [
        input.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--k-dist",
        "2:0.7,3:0.3",
        "--seed",
        "11",
        "--method",
        "optimal",
    ];
    for (criterion, engines) in [
        ("dbil", &["cp", "colgen", "mip", "auto"][..]),
        ("wcsd", &["cp", "colgen", "mip"][..]),
        ("diameter", &["cp", "mip"][..]),
    ] {
        let mut values = Vec::new();
        for engine in engines {
            let r = anonymise(
                dir.path(),
                &[&base[..], &["--criterion", criterion, "--engine", engine]].concat(),
                &format!("{criterion}_{engine}"),
            );
            assert_eq!(r["status"], "optimal", "{criterion} {engine}");
            assert_eq!(r["verified"], true);
            values.push(r["objective"].as_f64().unwrap());
        }
        if criterion != "diameter" {
            // The CP engine with the LP re-solved at its nodes (`--node-lp`), without the LP
            // start so that its search runs.
            let r = anonymise(
                dir.path(),
                &[
                    &base[..],
                    &[
                        "--criterion",
                        criterion,
                        "--engine",
                        "cp",
                        "--node-lp",
                        "--no-lp-primal",
                    ],
                ]
                .concat(),
                &format!("{criterion}_cp_nodes"),
            );
            assert_eq!(r["status"], "optimal", "{criterion} cp --node-lp");
            assert_eq!(r["verified"], true);
            assert_eq!(r["parameters"]["node_lp"], true);
            values.push(r["objective"].as_f64().unwrap());
        }
        assert!(
            values.windows(2).all(|w| (w[0] - w[1]).abs() < 1e-9),
            "{criterion}: {values:?}"
        );
    }
}

#[test]
fn colgen_proves_dbil_beyond_the_cp_reach() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), 100);
    let r = optik("anonymise")
        .input(&input, &schema)
        .args([
            "--k-dist",
            "2:0.8,3:0.2",
            "--seed",
            "2",
            "--method",
            "optimal",
            "--time-limit",
            "300s",
        ])
        .anonymised(dir.path(), "cg100");
    assert_eq!(r["status"], "optimal");
    assert_eq!(r["exact"]["engine"], "colgen");
    assert_eq!(r["verified"], true);
    assert_eq!(r["lower_bound"], r["objective"]);
    assert!(
        r["exact"]["warm_start_objective"].as_f64().unwrap() >= r["objective"].as_f64().unwrap()
    );
}

#[test]
fn export_lp() {
    let dir = tempfile::tempdir().unwrap();
    let input = instance("seed001_table3_2.csv");
    let schema = instance("seed001_table3_2.toml");
    let out = dir.path().join("m.lp");
    optik("export")
        .arg(&input)
        .arg("--schema")
        .arg(&schema)
        .args(["--k", "3", "--format", "lp"])
        .output("--out", &out)
        .ok();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("Minimize") || text.contains("minimize"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("End"));
}

#[test]
fn timeline_records_the_dbil_of_every_solution() {
    // The seed's figures 6.2–6.5 plot each improving solution's criterion and its DBIL.
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let n = 40;
    let input = adult_sample(dir.path(), n);
    let r = optik("anonymise")
        .input(&input, &schema)
        .args([
            "--k-dist",
            "2:0.8,3:0.2",
            "--seed",
            "3",
            "--method",
            "optimal",
            "--criterion",
            "diameter",
            "--time-limit",
            "60s",
        ])
        .anonymised(dir.path(), "timeline_diameter");
    let timeline = r["timeline"].as_array().unwrap();
    assert!(timeline[0]["warm_start"].as_bool().unwrap());
    for e in timeline {
        assert!(e["dbil"].as_f64().unwrap() > 0.0, "{e}");
        assert!(e["dbil"].as_f64().unwrap() >= e["objective"].as_f64().unwrap());
    }
    // The last solution is the released one: its DBIL (on distances rounded to 1/1000) is the
    // report's DBIL metric (exact distances) up to that rounding.
    let last = timeline.last().unwrap()["dbil"].as_f64().unwrap();
    let metric = r["metrics"]["dbil"].as_f64().unwrap();
    assert!(
        (last - metric).abs() <= n as f64 * 0.0005 + 1e-9,
        "timeline {last} vs metric {metric}"
    );
}

/// The progress lines show the incumbent, the bound and the gap while the engine works.
#[test]
fn progress_lines_show_incumbent_bound_and_gap() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), 120);
    let out = dir.path().join("r.csv");
    let err = optik("anonymise")
        .input(&input, &schema)
        .args(["--k", "5", "--method", "optimal", "--time-limit", "5s"])
        .output("--out", &out)
        .ok()
        .stderr;
    assert!(err.contains("warm start dbil ="), "{err}");
    let bound_line = err
        .lines()
        .find(|l| l.contains("bound dbil ≥"))
        .unwrap_or_else(|| panic!("no bound line:\n{err}"));
    assert!(
        bound_line.contains("incumbent") && bound_line.contains("gap"),
        "{bound_line}"
    );
}

/// Under wcsd the warm starts pass the local search first: the report names the start
/// `<method>+ls`, it costs less than every heuristic as users run them, and the release is
/// still checked k_i-anonymous.
#[test]
fn wcsd_warm_starts_pass_the_local_search() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), 150);
    let r = optik("anonymise")
        .input(&input, &schema)
        .args([
            "--k-dist",
            "3:0.823,5:0.168,7:0.009",
            "--seed",
            "1",
            "--method",
            "optimal",
            "--engine",
            "colgen",
            "--criterion",
            "wcsd",
            "--time-limit",
            "5s",
        ])
        .anonymised(dir.path(), "wcsd_ls");
    assert_eq!(r["verified"], true);
    let start = r["exact"]["warm_start"].as_str().unwrap();
    assert!(start.ends_with("+ls"), "warm start {start}");
    let start_cost = r["exact"]["warm_start_objective"].as_f64().unwrap();
    let heuristics = r["heuristics"].as_array().unwrap();
    assert_eq!(heuristics.len(), 3);
    for h in heuristics {
        assert!(start_cost < h["objective"].as_f64().unwrap(), "{h}");
    }
    assert!(start_cost >= r["objective"].as_f64().unwrap());
}
