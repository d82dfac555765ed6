//! `optik bench`: the smoke spec runs through the CLI and writes the three files with one
//! checked row per grid point; heuristics never beat a proven optimum; bad specs fail cleanly.

use crate::common::{optik, Cmd};
use std::path::{Path, PathBuf};

fn spec_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches")
        .join(name)
}

const COLUMNS: [&str; 21] = [
    "instance",
    "n",
    "method",
    "engine",
    "form",
    "cost",
    "criterion",
    "seed",
    "status",
    "objective",
    "lower_bound",
    "gap",
    "time_s",
    "nodes",
    "columns",
    "dbil",
    "ratio",
    "ratio_to",
    "check",
    "classes",
    "note",
];

/// Number of grid points of a spec, counted from its TOML (defaults: forms ["ki"], one
/// criterion, one seed; a method's own `forms` and `instances` narrow the grid).
fn grid_size(spec: &Path) -> usize {
    let v: toml::Value = toml::from_str(&std::fs::read_to_string(spec).unwrap()).unwrap();
    let len = |v: &toml::Value, key: &str| v.get(key).and_then(|x| x.as_array()).map(Vec::len);
    let instances = v["instances"].as_array().unwrap();
    let mut points = 0;
    for m in v["methods"].as_array().unwrap() {
        let forms = len(m, "forms").or(len(&v, "forms")).unwrap_or(1);
        let on = len(m, "instances").unwrap_or(instances.len());
        points += on * forms;
    }
    points * len(&v, "criteria").unwrap_or(1) * len(&v, "seeds").unwrap_or(1)
}

/// `optik bench SPEC --out OUT EXTRA...`, to be run.
fn bench(spec: &Path, out: &Path, extra: &[&str]) -> Cmd {
    optik("bench").arg(spec).output("--out", out).args(extra)
}

#[test]
fn smoke_spec_runs_and_every_row_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("smoke");
    let spec = spec_path("smoke.toml");
    bench(&spec, &out, &["--quiet"]).ok();
    assert_eq!(
        std::fs::read(out.join("spec.toml")).unwrap(),
        std::fs::read(&spec).unwrap()
    );
    let md = std::fs::read_to_string(out.join("results.md")).unwrap();
    assert!(md.contains("ran sequentially, one at a time"), "{md}");
    assert!(md.contains("cores") && md.contains("(UTC)"), "{md}");

    let mut r = csv::Reader::from_path(out.join("results.csv")).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(headers, COLUMNS.to_vec());
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), grid_size(&spec));
    let mut compared = 0;
    let mut proven = 0;
    for row in &rows {
        assert_eq!(&row[col("check")], "ok", "{row:?}");
        assert_ne!(&row[col("status")], "error", "{row:?}");
        let objective: f64 = row[col("objective")].parse().unwrap();
        assert!(objective.is_finite() && objective >= 0.0);
        if &row[col("method")] == "optimal" {
            assert!(["colgen", "cp"].contains(&&row[col("engine")]), "{row:?}");
            proven += usize::from(&row[col("status")] == "optimal");
        } else {
            assert_eq!(&row[col("status")], "heuristic");
            if &row[col("ratio_to")] == "optimum" {
                let ratio: f64 = row[col("ratio")].parse().unwrap();
                assert!(ratio >= 1.0 - 1e-9, "heuristic beats the optimum: {row:?}");
                compared += 1;
            }
        }
    }
    let heuristic_rows = rows
        .iter()
        .filter(|r| &r[col("method")] != "optimal")
        .count();
    assert_eq!(
        compared, heuristic_rows,
        "every heuristic row has a proven optimum"
    );
    assert!(proven > 0);
    // Both exact engines agree on the optimum of each instance and seed (form ki).
    for row in rows
        .iter()
        .filter(|r| &r[col("method")] == "optimal" && &r[col("form")] == "ki")
    {
        let ratio: f64 = row[col("ratio")].parse().unwrap();
        assert!((ratio - 1.0).abs() < 1e-9, "{row:?}");
    }

    // The pictures: ratios.svg and one time line per exact run with improving solutions,
    // each listed in results.md and each a well-formed SVG document.
    let svgs: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|f| f.ends_with(".svg"))
        .collect();
    assert!(svgs.contains(&"ratios.svg".to_string()), "{svgs:?}");
    let timelines = svgs.iter().filter(|f| f.starts_with("timeline-")).count();
    let exact_rows = rows
        .iter()
        .filter(|r| &r[col("method")] == "optimal")
        .count();
    assert!(timelines > 0 && timelines <= exact_rows, "{svgs:?}");
    assert!(svgs
        .iter()
        .any(|f| f.starts_with("timeline-seed001-table3.2-cp-ki-dbil-seed")));
    for f in &svgs {
        assert!(
            md.contains(&format!("]({f})")),
            "{f} is not listed in results.md"
        );
        let text = std::fs::read_to_string(out.join(f)).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg", "{f}");
    }
    let ratios = std::fs::read_to_string(out.join("ratios.svg")).unwrap();
    assert!(ratios.contains("mdav ki") && ratios.contains("optimal (colgen) ki"));

    // The folder exists: refused without --force (exit 2), replaced with it.
    let again = bench(&spec, &out, &["--quiet"]).code(2);
    assert!(again.stderr.contains("--force"));
    std::fs::write(out.join("results.md"), "stale").unwrap();
    bench(&spec, &out, &["--force", "--quiet"]).ok();
    assert!(std::fs::read_to_string(out.join("results.md"))
        .unwrap()
        .starts_with("# optik bench results"));
    let siblings = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(siblings, 1, "no temporary folder is left beside the output");
}

/// Writes a spec into `dir` and runs it; asserts exit 2, a one-line error containing every
/// `expect`, and no output folder (nor a temporary sibling).
fn bad_spec(text: &str, expect: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.toml");
    std::fs::write(&spec, text).unwrap();
    std::fs::write(
        dir.path().join("t.csv"),
        "age,city\n30,Paris\n31,Paris\n45,Lyon\n47,Lyon\n",
    )
    .unwrap();
    bench(&spec, &dir.path().join("out"), &[]).fails(&[&["bad.toml"], expect].concat());
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(
        left.len(),
        2,
        "only the spec and the table remain: {left:?}"
    );
}

const GOOD: &str = "seeds = [1]\n\n[[instances]]\nname = \"t\"\ncsv = \"t.csv\"\nqi = \"age,city\"\nk = 2\n\n[[methods]]\nmethod = \"mdav\"\n";

#[test]
fn the_good_spec_of_the_bad_spec_tests_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("good.toml"), GOOD).unwrap();
    std::fs::write(
        dir.path().join("t.csv"),
        "age,city\n30,Paris\n31,Paris\n45,Lyon\n47,Lyon\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let stderr = bench(&dir.path().join("good.toml"), &out, &[]).ok().stderr;
    assert!(stderr.contains("exact runs one at a time"), "{stderr}");
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 2, "{csv}");
}

#[test]
fn unknown_key_is_named() {
    bad_spec(
        &GOOD.replace("k = 2", "k = 2\nrowz = 3"),
        &["rowz", "line 8"],
    );
    bad_spec(&format!("colour = 1\n{GOOD}"), &["colour"]);
}

#[test]
fn missing_file_is_named() {
    bad_spec(
        &GOOD.replace("t.csv", "nope.csv"),
        &["instances[0]", "csv", "nope.csv"],
    );
    bad_spec(
        &GOOD.replace("qi = \"age,city\"", "schema = \"nope.toml\""),
        &["schema", "nope.toml"],
    );
}

#[test]
fn unknown_method_is_named() {
    bad_spec(
        &GOOD.replace("\"mdav\"", "\"simulated-annealing\""),
        &[
            "unknown method 'simulated-annealing'",
            "mdav, kmember",
            "line 10",
        ],
    );
}

#[test]
fn other_bad_specs() {
    let top = |extra: &str| format!("{extra}\n{GOOD}");
    let edit = |from: &str, to: &str| GOOD.replace(from, to);
    let cases: Vec<(String, &[&str])> = vec![
        (edit("\"mdav\"", "\"optimal\""), &["time_limit"]),
        (
            edit("method = \"mdav\"", "method = \"mdav\"\nengine = \"cp\""),
            &["methods[0].engine"],
        ),
        (
            edit(
                "method = \"mdav\"",
                "method = \"mdav\"\ninstances = [\"u\"]",
            ),
            &["methods[0].instances", "'u'"],
        ),
        (
            edit("k = 2", "k = 2\nk_column = \"k\""),
            &["exactly one of k"],
        ),
        (edit("k = 2", "k_dist = \"2:0.5\""), &["k_dist"]),
        (edit("age,city", "age,town"), &["town"]),
        (edit("k = 2", "k = 2\nrows = 10"), &["sample of 10 rows"]),
        (
            edit("k = 2", "k = 9"),
            &["larger than the number of records"],
        ),
        (
            top("criteria = [\"dbil\", \"size\"]"),
            &["unknown criterion 'size'"],
        ),
        (
            top("criteria = [\"diameter\"]\ntime_limit = \"1s\"")
                .replace("\"mdav\"", "\"optimal\"\nengine = \"colgen\""),
            &["colgen cannot optimise diameter"],
        ),
    ];
    for (spec, expect) in cases {
        bad_spec(&spec, expect);
    }
}
