//! End-to-end runs of the `optik` binary: the bundled example, Adult samples and the diabetes
//! table, every heuristic in both forms; each release re-checked by `optik check`.

use crate::common::*;
use std::path::Path;

const METHODS: [&str; 3] = ["mdav", "kmember", "mondrian"];
const FORMS: [&str; 2] = ["ki", "k"];

fn check(release: &Path, args: &[&str]) -> i32 {
    optik("check")
        .arg(release)
        .args(args)
        .run()
        .code
        .expect("an exit code")
}

#[test]
fn bundled_example_every_method_and_form() {
    let dir = tempfile::tempdir().unwrap();
    let input = instance("clinical_trial.csv");
    let schema = instance("clinical_trial.toml");
    for m in METHODS {
        for f in FORMS {
            let tag = format!("ct_{m}_{f}");
            let r = optik("anonymise")
                .input(&input, &schema)
                .args(["--k-column", "k", "--method", m, "--form", f])
                .anonymised(dir.path(), &tag);
            for key in [
                "method",
                "n",
                "classes",
                "status",
                "objective",
                "lower_bound",
                "metrics",
                "verified",
                "time_s",
            ] {
                assert!(r.get(key).is_some(), "report key {key}");
            }
            for key in [
                "dbil",
                "sbil",
                "dm",
                "cavg",
                "max_diameter",
                "split",
                "wcsd",
            ] {
                assert!(r["metrics"].get(key).is_some(), "metric {key}");
            }
            assert_eq!(r["method"], m);
            assert_eq!(r["n"], 60);
            assert_eq!(r["status"], "heuristic");
            assert_eq!(r["verified"], true);
            assert!(r["lower_bound"].is_null());
            assert_eq!(r["objective"], r["metrics"]["dbil"]);
            let release = dir.path().join(format!("{tag}.csv"));
            let text = std::fs::read_to_string(&release).unwrap();
            let header = text.lines().next().unwrap();
            assert_eq!(
                header, "age,sex,site,bmi,smoking,arm,adverse_event",
                "identifiers and k dropped"
            );
            assert_eq!(text.lines().count(), 61);
            let code = check(
                &release,
                &[
                    "--schema",
                    schema.to_str().unwrap(),
                    "--k-column",
                    "k",
                    "--original",
                    input.to_str().unwrap(),
                ],
            );
            assert_eq!(code, 0, "{tag} passes the independent check");
        }
    }
}

#[test]
fn check_rejects_a_table_that_is_not_anonymous() {
    let input = instance("seed001_table3_2.csv");
    assert_eq!(check(&input, &["--qi", "ZIP,Age", "--k", "2"]), 3);
    assert_eq!(check(&input, &["--qi", "Sex", "--k", "2"]), 0);
    assert_eq!(check(&input, &["--qi", "Sex", "--k-column", "k"]), 0);
    assert_eq!(check(&input, &["--qi", "Sex", "--k", "4"]), 0);
    assert_eq!(check(&input, &["--qi", "Sex", "--k", "5"]), 3);
}

#[test]
fn seed_table_generalises_along_the_hierarchy() {
    let dir = tempfile::tempdir().unwrap();
    let input = instance("seed001_table3_2.csv");
    let schema = instance("seed001_table3_2.toml");
    let r = optik("anonymise")
        .input(&input, &schema)
        .args(["--k", "3", "--method", "mdav", "--class-column", "class"])
        .anonymised(dir.path(), "t");
    assert_eq!(r["classes"], 3);
    let text = std::fs::read_to_string(dir.path().join("t.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), "ZIP,Age,Sex,Condition,k,class");
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        assert!(
            ["1402*", "140**", "141**", "14***", "*", "14025", "14020", "14110", "14100"]
                .contains(&cells[0]),
            "{line}"
        );
        assert!(
            cells[1].starts_with('[') || cells[1].parse::<u32>().is_ok(),
            "{line}"
        );
        assert!(["F", "M", "*"].contains(&cells[2]), "{line}");
    }
}

#[test]
fn adult_samples_every_method_and_form() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), 1000);
    for m in METHODS {
        for f in FORMS {
            let tag = format!("adult_{m}_{f}");
            let r = optik("anonymise")
                .input(&input, &schema)
                .args([
                    "--k-dist",
                    "2:0.8,3:0.2",
                    "--seed",
                    "7",
                    "--method",
                    m,
                    "--form",
                    f,
                ])
                .anonymised(dir.path(), &tag);
            assert_eq!(r["verified"], true, "{tag}");
            assert_eq!(r["n"], 1000);
            let code = check(
                &dir.path().join(format!("{tag}.csv")),
                &[
                    "--schema",
                    schema.to_str().unwrap(),
                    "--k-dist",
                    "2:0.8,3:0.2",
                    "--seed",
                    "7",
                ],
            );
            assert_eq!(code, 0, "{tag}");
        }
    }
}

#[test]
fn personalised_form_loses_no_more_than_k_max_form_on_adult() {
    // By design (seed 001 §5.5.1) the k_i adaptations use the k_i, the k form uses max k_i:
    // on a typical sample the personalised MDAV must not be worse.
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), 600);
    let base = [
        input.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--k-preset",
        "personal",
        "--seed",
        "3",
        "--method",
        "mdav",
    ];
    let ki = anonymise(dir.path(), &[&base[..], &["--form", "ki"]].concat(), "ki");
    let k = anonymise(dir.path(), &[&base[..], &["--form", "k"]].concat(), "k");
    assert!(ki["metrics"]["dbil"].as_f64().unwrap() <= k["metrics"]["dbil"].as_f64().unwrap());
}

#[test]
fn full_adult_table_with_mondrian() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = shared_data().join("adult/adult.csv");
    let r = optik("anonymise")
        .input(&input, &schema)
        .args(["--k", "5", "--method", "mondrian"])
        .anonymised(dir.path(), "full");
    assert_eq!(r["n"], 30162);
    assert_eq!(r["verified"], true);
}

#[test]
fn diabetes_every_method_and_form() {
    let dir = tempfile::tempdir().unwrap();
    let input = shared_data().join("sklearn_diabetes_raw.csv");
    for m in METHODS {
        for f in FORMS {
            let tag = format!("diabetes_{m}_{f}");
            let r = anonymise(
                dir.path(),
                &[
                    input.to_str().unwrap(),
                    "--qi",
                    "age,sex,bmi,bp",
                    "--k-preset",
                    "general",
                    "--seed",
                    "1",
                    "--method",
                    m,
                    "--form",
                    f,
                ],
                &tag,
            );
            assert_eq!(r["n"], 442);
            assert_eq!(r["verified"], true);
            let code = check(
                &dir.path().join(format!("{tag}.csv")),
                &[
                    "--qi",
                    "age,sex,bmi,bp",
                    "--k-preset",
                    "general",
                    "--seed",
                    "1",
                ],
            );
            assert_eq!(code, 0, "{tag}");
        }
    }
}

#[test]
fn drop_missing_drops_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    std::fs::write(
        &input,
        "age;city;x\n30;Paris;a\nNA;Paris;b\n31;Paris;c\n?;Lyon;d\n40;;e\n41;Lyon;f\n",
    )
    .unwrap();
    let r = anonymise(
        dir.path(),
        &[
            input.to_str().unwrap(),
            "--qi",
            "age,city",
            "--k",
            "2",
            "--method",
            "kmember",
            "--drop-missing",
        ],
        "dm",
    );
    assert_eq!(r["n"], 3);
    assert_eq!(r["input"]["dropped_missing"], 3);
    let text = std::fs::read_to_string(dir.path().join("dm.csv")).unwrap();
    assert_eq!(text.lines().next().unwrap(), "age;city;x", "delimiter kept");
    let kept: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.rsplit(';').next().unwrap())
        .collect();
    assert_eq!(kept, vec!["a", "c", "f"], "row order kept");
}

#[test]
fn help_on_every_subcommand() {
    for sub in ["anonymise", "check"] {
        let o = optik(sub).arg("--help").ok();
        assert!(o.stdout.contains("--k-column"));
    }
}

/// `optik --version` names the package version and the git commit the binary was built at
/// (`build.rs`; `unknown` outside a git checkout), which the frontier bench compares with the
/// tree's HEAD.
#[test]
fn version_names_the_build_commit() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_optik"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let prefix = format!("optik {} (commit ", env!("CARGO_PKG_VERSION"));
    let commit = text
        .trim()
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("unexpected version line: {text}"));
    let hex = commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit());
    assert!(hex || commit == "unknown", "not a commit: {commit}");
}
