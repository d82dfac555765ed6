//! `optik anonymise --method optimal` under extra class constraints, end to end: the CP and
//! column-generation releases equal the constrained brute-force optimum on an Adult sample, the
//! report's `constraints` key says what was asked and that it holds (re-checked here on the
//! release), and bad or impossible requests are one-line errors (exit 2) that write nothing.

use crate::common::*;
use optik_models::brute_force::brute_force_with;
use optik_models::{ClassConstraints, Criterion, Diversity, Instance};
use std::collections::{HashMap, HashSet};
use std::path::Path;

const N: usize = 10;

/// Distinct salary values and sizes of the released groups (by quasi-identifier text).
fn groups(release: &Path) -> Vec<(usize, usize)> {
    let text = std::fs::read_to_string(release).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(';').collect();
    let sal = header.iter().position(|h| *h == "salary-class").unwrap();
    let mut g: HashMap<Vec<String>, (HashSet<String>, usize)> = HashMap::new();
    for l in lines {
        let cells: Vec<&str> = l.split(';').collect();
        let key = cells
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != sal)
            .map(|(_, c)| c.to_string())
            .collect();
        let e = g.entry(key).or_default();
        e.0.insert(cells[sal].to_string());
        e.1 += 1;
    }
    g.into_values().map(|(v, s)| (v.len(), s)).collect()
}

#[test]
fn engines_reach_the_constrained_brute_force_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let schema = adult_schema(dir.path());
    let input = adult_sample(dir.path(), N);
    // Rows 1 and 8 together, rows 2 and 3 apart.
    let links = dir.path().join("links.csv");
    std::fs::write(&links, "kind,a,b\nmust,1,8\ncannot,2,3\n").unwrap();
    let base = [
        input.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--k",
        "2",
        "--method",
        "optimal",
        "--l-diversity",
        "2",
        "--sensitive",
        "salary-class",
        "--links",
        links.to_str().unwrap(),
        "--max-class-size",
        "4",
    ];
    // The constrained optimum by brute force on the exported instance.
    let json = dir.path().join("inst.json");
    optik("export")
        .arg(&input)
        .arg("--schema")
        .arg(&schema)
        .args(["--k", "2", "--format", "json"])
        .output("--out", &json)
        .ok();
    let inst: Instance = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let text = std::fs::read_to_string(&input).unwrap();
    let values: Vec<u32> = text
        .lines()
        .skip(1)
        .map(|l| l.ends_with(">50K") as u32)
        .collect();
    let extra = ClassConstraints {
        diversity: Some(Diversity { values, l: 2 }),
        must: vec![(0, 7)],
        cannot: vec![(1, 2)],
        max_size: Some(4),
    };
    let (_, best) = brute_force_with(&inst, Criterion::Dbil, 1, &extra).unwrap();
    let (_, plain) =
        brute_force_with(&inst, Criterion::Dbil, 1, &ClassConstraints::default()).unwrap();
    assert!(best > plain, "the constraints bind on this sample");
    for engine in ["cp", "colgen", "auto"] {
        let tag = format!("r_{engine}");
        let r = anonymise(
            dir.path(),
            &[&base[..], &["--engine", engine]].concat(),
            &tag,
        );
        assert_eq!(r["status"], "optimal", "{engine}");
        let v = (r["objective"].as_f64().unwrap() * inst.scale).round() as i64;
        assert_eq!(v, best, "{engine}");
        let c = &r["constraints"];
        assert_eq!(c["l_diversity"]["l"], 2);
        assert_eq!(c["l_diversity"]["sensitive"], "salary-class");
        assert_eq!(c["l_diversity"]["holds"], true);
        assert_eq!(c["links"]["must"], 1);
        assert_eq!(c["links"]["cannot"], 1);
        assert_eq!(c["links"]["holds"], true);
        assert_eq!(c["max_class_size"]["max"], 4);
        assert_eq!(c["max_class_size"]["holds"], true);
        assert_eq!(c["extra_hold"], true);
        // Our own count on the release.
        let release = dir.path().join(format!("{tag}.csv"));
        for (distinct, size) in groups(&release) {
            assert!(distinct >= 2 && (2..=4).contains(&size), "{engine}");
        }
    }
    // Without constraints the key holds no constraint entries.
    let r = anonymise(
        dir.path(),
        &[&base[..7], &["--engine", "cp"]].concat(),
        "plain",
    );
    assert!(r["constraints"].get("l_diversity").is_none());
    assert!(r["constraints"].get("extra_hold").is_none());
}

/// Runs a failing `optik anonymise` and checks the one-line error contract (exit 2, nothing
/// written); returns stderr.
fn fails(dir: &Path, args: &[&str], expect: &[&str]) -> String {
    optik("anonymise")
        .current_dir(dir)
        .args(args)
        .output("--out", dir.join("out.csv"))
        .output("--report", dir.join("report.json"))
        .fails(expect)
}

#[test]
fn bad_requests_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("in.csv"),
        "id,age,city,disease\na,30,Paris,flu\nb,31,Paris,cold\nc,45,Lyon,flu\nd,47,Lyon,cold\n",
    )
    .unwrap();
    let base = ["in.csv", "--qi", "age,city", "--k", "2"];
    let opt = [&base[..], &["--method", "optimal"]].concat();
    // Heuristics refuse the flags.
    fails(
        d,
        &[&base[..], &["--method", "mdav", "--max-class-size", "3"]].concat(),
        &["--method optimal", "mdav"],
    );
    // Links file errors name the file and the line.
    let cases: [(&str, &[&str], &[&str]); 5] = [
        (
            "kind,a,b\nmust,1,2\nmaybe,1,3\n",
            &[],
            &["bad.csv", "line 3", "maybe"],
        ),
        (
            "must,1,9\n",
            &[],
            &["bad.csv", "line 1", "outside data rows 1..=4"],
        ),
        ("must,1\n", &[], &["bad.csv", "line 1", "3 fields"]),
        (
            "cannot,a,z\n",
            &["--link-key", "id"],
            &["bad.csv", "line 1", "'z'"],
        ),
        (
            "must,x,2\n",
            &[],
            &["bad.csv", "line 1", "not a data-row number"],
        ),
    ];
    for (text, extra, expect) in cases {
        std::fs::write(d.join("bad.csv"), text).unwrap();
        fails(
            d,
            &[&opt[..], &["--links", "bad.csv"], extra].concat(),
            expect,
        );
    }
    // Infeasible combinations.
    fails(
        d,
        &[&opt[..], &["--l-diversity", "3", "--sensitive", "disease"]].concat(),
        &["infeasible", "the table has 2"],
    );
    fails(
        d,
        &[&opt[..], &["--max-class-size", "1"]].concat(),
        &["infeasible", "above the maximum class size 1"],
    );
    std::fs::write(d.join("links.csv"), "must,1,2\nmust,2,3\ncannot,1,3\n").unwrap();
    fails(
        d,
        &[&opt[..], &["--links", "links.csv"]].concat(),
        &["infeasible", "cannot-linked"],
    );
    // Found only by search: 2-diversity pairs flu with cold, the cannot-links forbid both pairs.
    std::fs::write(d.join("links.csv"), "cannot,1,2\ncannot,1,4\n").unwrap();
    for engine in ["cp", "colgen"] {
        fails(
            d,
            &[
                &opt[..],
                &[
                    "--engine",
                    engine,
                    "--links",
                    "links.csv",
                    "--l-diversity",
                    "2",
                    "--sensitive",
                    "disease",
                    "--max-class-size",
                    "2",
                ],
            ]
            .concat(),
            &["infeasible"],
        );
    }
    // --l-diversity needs --sensitive (clap, one line).
    fails(
        d,
        &[&opt[..], &["--l-diversity", "2"]].concat(),
        &["--sensitive"],
    );
    // Links by identifier: a with c (far apart in age and city), b apart from c.
    std::fs::write(d.join("ids.csv"), "kind,a,b\nmust,a,c\ncannot,\"b\",c\n").unwrap();
    let (input, ids) = (d.join("in.csv"), d.join("ids.csv"));
    let r = anonymise(
        d,
        &[
            input.to_str().unwrap(),
            "--qi",
            "age,city",
            "--k",
            "2",
            "--method",
            "optimal",
            "--links",
            ids.to_str().unwrap(),
            "--link-key",
            "id",
        ],
        "by_id",
    );
    assert_eq!(r["status"], "optimal");
    assert_eq!(r["constraints"]["links"]["must"], 1);
    assert_eq!(r["constraints"]["links"]["cannot"], 1);
    assert_eq!(r["constraints"]["links"]["holds"], true);
    // Our own look at the release (rows a, b, c, d in order; id, age, city, disease).
    let release = std::fs::read_to_string(d.join("by_id.csv")).unwrap();
    let qi: Vec<String> = release
        .lines()
        .skip(1)
        .map(|l| l.split(',').skip(1).take(2).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(qi[0], qi[2], "{release}");
    assert_ne!(qi[1], qi[2], "{release}");
    // The compact MIP has no constraint model; the sensitive column must be released.
    fails(
        d,
        &[&opt[..], &["--engine", "mip", "--max-class-size", "3"]].concat(),
        &["--engine mip"],
    );
    fails(
        d,
        &[&opt[..], &["--l-diversity", "2", "--sensitive", "age"]].concat(),
        &["quasi-identifier"],
    );
}

/// Six identical records under a maximum class size of 3: every class is within the cap, but
/// the classes holding them generalise alike and are one released group of six, so nothing is
/// written and the error says why (a limit of the data, exit 2), for every engine.
#[test]
fn identical_records_beyond_the_cap_are_one_released_group() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let rows: String = std::iter::repeat_n("30,Paris\n", 6).collect();
    std::fs::write(d.join("in.csv"), format!("age,city\n{rows}")).unwrap();
    let base = [
        "in.csv", "--qi", "age,city", "--k", "2", "--method", "optimal", "--quiet",
    ];
    for engine in ["colgen", "cp", "lns"] {
        let capped = [
            "--engine",
            engine,
            "--max-class-size",
            "3",
            "--time-limit",
            "5s",
        ];
        fails(
            d,
            &[&base[..], &capped[..]].concat(),
            &["released as one group of 6", "drop duplicate records"],
        );
    }
}
