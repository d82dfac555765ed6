//! `optik anonymise --plot` and `--html`: the files are written for heuristic and exact runs,
//! hold what they promise (one outline per class, one point per record, the report's
//! sections), are written atomically, and follow the output rules (no overwrite without
//! `--force`, never over the input, bad `--plot-axes` is a one-line exit-2 error).

use crate::common::{adult_sample, adult_schema, instance, optik, report};
use std::path::{Path, PathBuf};

/// Runs anonymise on the bundled clinical trial with extra args; returns (exit code, stderr).
fn run(dir: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let r = optik("anonymise")
        .clinical_trial()
        .arg("--quiet")
        .output("--out", dir.join("release.csv"))
        .output("--report", dir.join("report.json"))
        .args(extra)
        .run();
    (r.code, r.stderr)
}

fn tags(svg: &str, tag: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    doc.descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == tag)
        .count()
}

fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    doc.descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == "text")
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

/// No temporary file is left next to the outputs.
fn no_temporaries(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().to_string();
        assert!(!name.ends_with(".tmp"), "temporary file left: {name}");
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn heuristic_run_writes_the_partition_picture_and_the_html_report() {
    let dir = tempfile::tempdir().unwrap();
    let (svg_path, html_path) = (dir.path().join("p.svg"), dir.path().join("r.html"));
    let (code, err) = run(
        dir.path(),
        &[
            "--method",
            "kmember",
            "--plot",
            s(&svg_path),
            "--html",
            s(&html_path),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let r = report(&dir.path().join("report.json"));
    // The report lists every file the run wrote.
    assert_eq!(r["outputs"]["plot"], s(&svg_path));
    assert_eq!(r["outputs"]["html"], s(&html_path));
    let (n, classes) = (r["n"].as_u64().unwrap(), r["classes"].as_u64().unwrap());
    let levels = r["constraints"]["k_histogram"].as_object().unwrap().len() as u64;
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    // One outline per class, one point per record (+ one legend marker per k level).
    assert_eq!(tags(&svg, "polygon") as u64, classes);
    assert_eq!(tags(&svg, "circle") as u64, n + levels);
    let t = texts(&svg);
    for k in r["constraints"]["k_histogram"].as_object().unwrap().keys() {
        assert!(t.contains(&format!("k_i = {k}")), "legend for k = {k}");
    }
    assert!(t.contains(&format!("{classes} classes")));
    assert!(t.iter().any(|x| x.contains("classical MDS")));

    let html = std::fs::read_to_string(&html_path).unwrap();
    for section in ["partition", "metrics", "timeline", "release"] {
        assert!(
            html.contains(&format!("<section id=\"{section}\">")),
            "section {section}"
        );
    }
    // The very picture written by --plot is inlined.
    assert!(html.contains(&svg));
    assert!(html.contains("no time line"));
    assert!(html.contains("not part of the release"));
    assert!(html.contains(&format!("The first 20 of {n} released rows")));
    let dbil = r["metrics"]["dbil"].as_f64().unwrap();
    assert!(html.contains(&format!("{:.4}", dbil).trim_end_matches('0').to_string()));
    // Self-contained: no scripts, no external resources.
    for bad in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(bad), "{bad} in the HTML report");
    }
    // The preview shows released rows, not raw ones: the first release row's cells appear.
    let release = std::fs::read_to_string(dir.path().join("release.csv")).unwrap();
    let first: Vec<&str> = release.lines().nth(1).unwrap().split(',').collect();
    let row = first
        .iter()
        .map(|c| format!("<td>{}</td>", c.trim_matches('"')))
        .collect::<String>();
    assert!(html.contains(&row), "first release row {row} missing");
    assert!(!html.contains("S001"), "identifiers are not released");
    no_temporaries(dir.path());
}

#[test]
fn exact_run_html_has_the_time_line_and_axes_place_records_by_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let (svg_path, html_path) = (dir.path().join("p.svg"), dir.path().join("r.html"));
    let (code, err) = run(
        dir.path(),
        &[
            "--method",
            "optimal",
            "--time-limit",
            "20s",
            "--plot",
            s(&svg_path),
            "--plot-axes",
            "age,smoking",
            "--html",
            s(&html_path),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let r = report(&dir.path().join("report.json"));
    assert!(!r["timeline"].as_array().unwrap().is_empty());
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert_eq!(tags(&svg, "polygon") as u64, r["classes"].as_u64().unwrap());
    let t = texts(&svg);
    for x in ["never", "former", "current", "age", "smoking (ordinal)"] {
        assert!(t.iter().any(|y| y == x), "axis text {x}");
    }
    let html = std::fs::read_to_string(&html_path).unwrap();
    let tl = &html[html.find("<section id=\"timeline\">").unwrap()..];
    let tl = &tl[..tl.find("</section>").unwrap()];
    let tl_svg = &tl[tl.find("<svg").unwrap()..tl.rfind("</svg>").unwrap() + 6];
    let tt = texts(tl_svg);
    assert!(tt.iter().any(|x| x == "warm start"), "{tt:?}");
    assert!(tt.iter().any(|x| x == "elapsed seconds"));
    no_temporaries(dir.path());
}

#[test]
fn picture_outputs_follow_the_output_rules() {
    let dir = tempfile::tempdir().unwrap();
    let svg_path = dir.path().join("p.svg");
    let release = dir.path().join("release.csv");
    std::fs::write(&svg_path, "old").unwrap();
    // An existing picture is not replaced without --force, and nothing else is written.
    let (code, err) = run(dir.path(), &["--method", "mdav", "--plot", s(&svg_path)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("p.svg") && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&svg_path).unwrap(), "old");
    assert!(!release.exists());
    // With --force it is.
    let (code, err) = run(
        dir.path(),
        &["--method", "mdav", "--plot", s(&svg_path), "--force"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(std::fs::read_to_string(&svg_path)
        .unwrap()
        .starts_with("<svg"));
    // The same run draws the same bytes.
    let again = dir.path().join("again.svg");
    let (code, err) = run(
        dir.path(),
        &["--method", "mdav", "--plot", s(&again), "--force"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read(&svg_path).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // Never over the input, never two outputs on one path.
    let input: PathBuf = instance("clinical_trial.csv");
    let (code, err) = run(
        dir.path(),
        &["--method", "mdav", "--html", s(&input), "--force"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("never overwrites its input"), "{err}");
    let (code, err) = run(
        dir.path(),
        &[
            "--method",
            "mdav",
            "--plot",
            s(&svg_path),
            "--html",
            s(&svg_path),
            "--force",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("same path"), "{err}");
    no_temporaries(dir.path());
}

#[test]
fn bad_plot_axes_are_one_line_errors_and_write_nothing() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--plot-axes", "age,weight"],
            "'weight' is not a quasi-identifier",
        ),
        (&["--plot-axes", "age"], "two quasi-identifiers"),
        (&["--plot-axes", "age,age"], "two different"),
        (
            &["--plot-axes", "arm,age"],
            "'arm' is not a quasi-identifier",
        ),
    ];
    for (extra, expect) in cases {
        let dir = tempfile::tempdir().unwrap();
        let svg_path = dir.path().join("p.svg");
        let mut args = vec!["--method", "mdav", "--plot", s(&svg_path)];
        args.extend_from_slice(extra);
        let (code, err) = run(dir.path(), &args);
        assert_eq!(code, Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(expect), "{err}");
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
    }
    // --plot-axes alone has nothing to draw.
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = run(dir.path(), &["--method", "mdav", "--plot-axes", "age,bmi"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("needs --plot or --html"), "{err}");
}

#[test]
fn large_tables_are_sampled_by_whole_classes_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), 2_000);
    let svg_path = dir.path().join("p.svg");
    optik("anonymise")
        .arg(&input)
        .arg("--schema")
        .arg(&schema)
        .args(["--k", "5", "--method", "mdav", "--quiet"])
        .output("--plot", &svg_path)
        .output("--out", dir.path().join("o.csv"))
        .ok();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let t = texts(&svg);
    let note = t
        .iter()
        .find(|x| x.starts_with("n = 2000 > 1500"))
        .expect("sampling note");
    // "... a fixed random sample of C whole classes of T (R records) is drawn"
    let nums: Vec<usize> = note
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let (chosen, drawn) = (nums[2], nums[4]);
    assert!(drawn <= 1_500 && drawn > 1_400, "{note}");
    assert_eq!(tags(&svg, "polygon"), chosen);
    assert_eq!(tags(&svg, "circle"), drawn + 1);
}
