//! `--k-assign correlated` (seed 001 §5.5.5): the shares of a preset or distribution are given
//! by distance to the origin of the age × education plane, through `optik anonymise` and a bench
//! spec; misuse is a one-line error with exit 2.

use crate::common::{adult_sample, adult_schema, anonymise, optik};

#[test]
fn correlated_presets_give_exact_shares_and_say_how() {
    let dir = tempfile::tempdir().unwrap();
    let csv = adult_sample(dir.path(), 300);
    let schema = adult_schema(dir.path());
    let (csv, schema) = (csv.to_str().unwrap(), schema.to_str().unwrap());
    let base = [
        csv,
        "--schema",
        schema,
        "--method",
        "mdav",
        "--k-preset",
        "professional",
    ];
    let correlated = anonymise(
        dir.path(),
        &[
            &base[..],
            &[
                "--k-assign",
                "correlated",
                "--k-axis-order",
                "education=adult",
            ],
        ]
        .concat(),
        "corr",
    );
    let c = &correlated["constraints"];
    // professional: 37.3 / 50.8 / 11.9 % of 300 = 111.9, 152.4, 35.7 → 112, 152, 36.
    assert_eq!(c["k_histogram"]["3"], 112, "{c}");
    assert_eq!(c["k_histogram"]["5"], 152, "{c}");
    assert_eq!(c["k_histogram"]["7"], 36, "{c}");
    let d = c["description"].as_str().unwrap();
    assert!(
        d.contains("distance to the origin of age × education"),
        "{d}"
    );
    assert!(correlated["verified"].as_bool().unwrap());
    // The seed does not matter for a correlated assignment, it does for a random one.
    let again = anonymise(
        dir.path(),
        &[
            &base[..],
            &[
                "--k-assign",
                "correlated",
                "--k-axis-order",
                "education=adult",
                "--seed",
                "9",
            ],
        ]
        .concat(),
        "corr9",
    );
    assert_eq!(again["constraints"], correlated["constraints"]);
    let random = anonymise(dir.path(), &base, "random");
    assert_ne!(random["constraints"]["k_histogram"], c["k_histogram"]);
}

#[test]
fn correlated_misuse_is_one_line_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let csv = adult_sample(dir.path(), 50);
    let schema = adult_schema(dir.path());
    let (csv, schema) = (csv.to_str().unwrap(), schema.to_str().unwrap());
    let out = dir.path().join("r.csv");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--k-preset", "personal", "--k-assign", "correlated"],
            "--k-axis-order education=",
        ),
        (
            &["--k", "3", "--k-assign", "correlated"],
            "needs --k-dist or --k-preset",
        ),
        (
            &["--k-preset", "personal", "--k-axes", "age,sex"],
            "apply to --k-assign correlated only",
        ),
        (
            &[
                "--k-preset",
                "personal",
                "--k-assign",
                "correlated",
                "--k-axes",
                "age",
            ],
            "give two different columns",
        ),
    ];
    for (args, expect) in cases {
        optik("anonymise")
            .args([csv, "--schema", schema, "--method", "mdav"])
            .output("--out", &out)
            .args(args)
            .fails(&[expect]);
    }
}

#[test]
fn bench_specs_take_the_correlated_assignment() {
    let dir = tempfile::tempdir().unwrap();
    adult_sample(dir.path(), 120);
    adult_schema(dir.path());
    let spec = dir.path().join("s.toml");
    let instance = "[[instances]]\nname = \"a\"\ncsv = \"adult_120.csv\"\nschema = \"adult.toml\"\nk_preset = \"personal\"\nk_levels = [5, 7, 10]\n";
    let good = format!(
        "seeds = [1, 2]\n{instance}k_assign = \"correlated\"\nk_axes = [\"age\", \"education\"]\nk_axis_order = [\"education=adult\"]\n\n[[methods]]\nmethod = \"mondrian\"\n"
    );
    std::fs::write(&spec, &good).unwrap();
    let out = dir.path().join("out");
    optik("bench")
        .arg(&spec)
        .output("--out", &out)
        .arg("--quiet")
        .ok();
    let md = std::fs::read_to_string(out.join("results.md")).unwrap();
    assert!(
        md.contains("k_i 5:0.823,7:0.168,10:0.009 by distance to the origin of age × education"),
        "{md}"
    );
    // Both seeds give the same k_i, hence the same (deterministic) Mondrian DBIL.
    let mut r = csv::Reader::from_path(out.join("results.csv")).unwrap();
    let dbil: Vec<String> = r.records().map(|x| x.unwrap()[15].to_string()).collect();
    assert_eq!(dbil.len(), 2);
    assert_eq!(dbil[0], dbil[1]);
    // A bad assignment is named by its key.
    let bad = good.replace("\"correlated\"", "\"nearest\"");
    std::fs::write(&spec, bad).unwrap();
    let bench = || {
        optik("bench")
            .arg(&spec)
            .args(["--out".as_ref(), out.as_os_str(), "--force".as_ref()])
    };
    bench().fails(&["unknown k_assign 'nearest'"]);
    let bad = good.replace("k_axis_order = [\"education=adult\"]\n", "");
    std::fs::write(&spec, bad).unwrap();
    bench().fails(&["instances[0] 'a'", "--k-axis-order"]);
}
