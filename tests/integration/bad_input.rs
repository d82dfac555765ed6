//! Every kind of bad input gets a one-line error naming file, line and column where they
//! apply, exit code 2, and no output file.

use crate::common::optik;
use std::path::Path;

const GOOD: &str = "id,age,city,score\n1,30,Paris,5\n2,31,Paris,6\n3,45,Lyon,7\n4,47,Lyon,8\n";

/// Runs `optik anonymise` with `args` in `dir` and checks the failure contract (no temporary
/// file left either); returns stderr.
fn fails(dir: &Path, args: &[&str], expect: &[&str]) -> String {
    let stderr = optik("anonymise")
        .current_dir(dir)
        .args(args)
        .output("--out", dir.join("out.csv"))
        .output("--report", dir.join("report.json"))
        .fails(expect);
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind");
    stderr
}

fn setup(csv: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.csv"), csv).unwrap();
    dir
}

const BASE: [&str; 5] = ["in.csv", "--qi", "age,city", "--method", "mdav"];

#[test]
fn missing_file() {
    let dir = setup(GOOD);
    fails(
        dir.path(),
        &["nope.csv", "--qi", "age", "--k", "2", "--method", "mdav"],
        &["nope.csv", "cannot read"],
    );
}

#[test]
fn empty_file() {
    let dir = setup("");
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "2"]].concat(),
        &["in.csv", "empty"],
    );
}

#[test]
fn header_only() {
    let dir = setup("id,age,city\n");
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "2"]].concat(),
        &["in.csv", "no data rows"],
    );
}

#[test]
fn ragged_row() {
    let dir = setup("id,age,city\n1,30,Paris\n2,31\n");
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "2"]].concat(),
        &["in.csv", "line 3", "2 fields"],
    );
}

#[test]
fn crlf_files_name_the_right_line() {
    // Windows line ends (Adult's own): the csv crate starts each record at the previous line's
    // '\n'; errors must still name the line as an editor shows it.
    let dir = setup("id,age,city\r\n1,30,Paris\r\n2,31,Lyon\r\n3,32\r\n");
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "2"]].concat(),
        &["in.csv", "line 4", "2 fields"],
    );
    let dir = setup("id,age,city\r\n1,30,Paris\r\n2,NA,Lyon\r\n3,32,Paris\r\n");
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "2"]].concat(),
        &["in.csv", "line 3", "column 'age'"],
    );
}

#[test]
fn unknown_column_in_qi() {
    let dir = setup(GOOD);
    fails(
        dir.path(),
        &["in.csv", "--qi", "age,town", "--k", "2", "--method", "mdav"],
        &["in.csv", "unknown column 'town'"],
    );
}

#[test]
fn unknown_column_in_schema() {
    let dir = setup(GOOD);
    std::fs::write(
        dir.path().join("s.toml"),
        "default_role = \"insensitive\"\n[columns.town]\nrole = \"quasi\"\nkind = \"categorical\"\n",
    )
    .unwrap();
    fails(
        dir.path(),
        &[
            "in.csv", "--schema", "s.toml", "--k", "2", "--method", "mdav",
        ],
        &["unknown column 'town'", "s.toml"],
    );
}

#[test]
fn column_without_role() {
    let dir = setup(GOOD);
    std::fs::write(
        dir.path().join("s.toml"),
        "[columns.age]\nrole = \"quasi\"\nkind = \"numeric\"\n",
    )
    .unwrap();
    fails(
        dir.path(),
        &[
            "in.csv", "--schema", "s.toml", "--k", "2", "--method", "mdav",
        ],
        &["column 'id'", "no role"],
    );
}

#[test]
fn malformed_schema() {
    let dir = setup(GOOD);
    std::fs::write(
        dir.path().join("s.toml"),
        "[columns.age]\nrole = \"quasi\"\nkind = \"numerik\"\n",
    )
    .unwrap();
    fails(
        dir.path(),
        &[
            "in.csv", "--schema", "s.toml", "--k", "2", "--method", "mdav",
        ],
        &["s.toml", "numerik"],
    );
    std::fs::write(
        dir.path().join("s.toml"),
        "[columns.age]\nrole = \"quasy\"\n",
    )
    .unwrap();
    fails(
        dir.path(),
        &[
            "in.csv", "--schema", "s.toml", "--k", "2", "--method", "mdav",
        ],
        &["s.toml", "line 2"],
    );
}

#[test]
fn duplicate_column_name() {
    let dir = setup("id,age,age\n1,30,31\n2,31,32\n");
    fails(
        dir.path(),
        &["in.csv", "--qi", "age", "--k", "2", "--method", "mdav"],
        &["in.csv", "line 1", "duplicate column name"],
    );
}

#[test]
fn non_numeric_value_in_numeric_column() {
    let dir = setup(GOOD);
    std::fs::write(
        dir.path().join("s.toml"),
        "default_role = \"insensitive\"\n[columns.city]\nrole = \"quasi\"\nkind = \"numeric\"\n",
    )
    .unwrap();
    fails(
        dir.path(),
        &[
            "in.csv", "--schema", "s.toml", "--k", "2", "--method", "mdav",
        ],
        &["in.csv", "line 2", "column 'city'", "not a number"],
    );
}

#[test]
fn missing_quasi_identifier_value() {
    let dir = setup("id,age,city\n1,30,Paris\n2,NA,Paris\n3,40,Lyon\n");
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "2"]].concat(),
        &["in.csv", "line 3", "column 'age'", "--drop-missing"],
    );
}

#[test]
fn value_missing_from_hierarchy() {
    let dir = setup(GOOD);
    std::fs::write(dir.path().join("h.csv"), "Paris;France;*\nLille;France;*\n").unwrap();
    std::fs::write(
        dir.path().join("s.toml"),
        "default_role = \"insensitive\"\n[columns.city]\nrole = \"quasi\"\nkind = \"categorical\"\nhierarchy = \"h.csv\"\n",
    )
    .unwrap();
    fails(
        dir.path(),
        &[
            "in.csv", "--schema", "s.toml", "--k", "2", "--method", "mdav",
        ],
        &["in.csv", "line 4", "column 'city'", "'Lyon'", "h.csv"],
    );
}

#[test]
fn hierarchy_with_rows_of_different_depth() {
    let dir = setup(GOOD);
    std::fs::write(dir.path().join("h.csv"), "Paris;France;*\nLyon;*\n").unwrap();
    std::fs::write(
        dir.path().join("s.toml"),
        "default_role = \"insensitive\"\n[columns.city]\nrole = \"quasi\"\nkind = \"categorical\"\nhierarchy = \"h.csv\"\n",
    )
    .unwrap();
    fails(
        dir.path(),
        &[
            "in.csv", "--schema", "s.toml", "--k", "2", "--method", "mdav",
        ],
        &["h.csv", "line 2", "levels"],
    );
}

#[test]
fn k_not_positive() {
    let dir = setup(GOOD);
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "0"]].concat(),
        &["--k", "at least 1"],
    );
    fails(
        dir.path(),
        &[&BASE[..], &["--k=-3"]].concat(),
        &["--k", "at least 1"],
    );
    let dir = setup("id,age,city,k\n1,30,Paris,2\n2,31,Paris,0\n3,45,Lyon,2\n");
    fails(
        dir.path(),
        &[&BASE[..], &["--k-column", "k"]].concat(),
        &["in.csv", "line 3", "column 'k'", "at least 1"],
    );
}

#[test]
fn k_larger_than_the_table() {
    let dir = setup(GOOD);
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "5"]].concat(),
        &["k = 5", "larger than the number of records (4)"],
    );
    let dir = setup("id,age,city,k\n1,30,Paris,2\n2,31,Paris,9\n3,45,Lyon,2\n");
    fails(
        dir.path(),
        &[&BASE[..], &["--k-column", "k"]].concat(),
        &["in.csv", "line 3", "column 'k'", "larger than"],
    );
}

#[test]
fn k_dist_not_summing_to_one() {
    let dir = setup(GOOD);
    fails(
        dir.path(),
        &[&BASE[..], &["--k-dist", "2:0.5,3:0.3"]].concat(),
        &["--k-dist", "sum to 0.8"],
    );
}

#[test]
fn output_path_equal_to_input() {
    let dir = setup(GOOD);
    optik("anonymise")
        .current_dir(dir.path())
        .args(BASE)
        .args(["--k", "2", "--out", "./in.csv", "--force"])
        .fails(&["never overwrites its input"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("in.csv")).unwrap(),
        GOOD,
        "input untouched"
    );
}

#[test]
fn existing_output_needs_force() {
    let dir = setup(GOOD);
    std::fs::write(dir.path().join("out.csv"), "keep").unwrap();
    let run = || {
        optik("anonymise")
            .current_dir(dir.path())
            .args(BASE)
            .args(["--k", "2", "--out", "out.csv", "--quiet"])
    };
    run().fails(&["--force"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.csv")).unwrap(),
        "keep"
    );
    run().arg("--force").ok();
    assert_ne!(
        std::fs::read_to_string(dir.path().join("out.csv")).unwrap(),
        "keep"
    );
}

#[test]
fn usage_errors_exit_2_on_one_line() {
    let dir = setup(GOOD);
    // no k source at all, and two k sources at once
    fails(dir.path(), &BASE, &["--k"]);
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "2", "--k-column", "score"]].concat(),
        &["--k"],
    );
    fails(
        dir.path(),
        &["in.csv", "--k", "2", "--method", "mdav"],
        &["--schema"],
    );
}

#[test]
fn not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.csv"), b"id,age,city\n1,30,Par\xffis\n").unwrap();
    fails(
        dir.path(),
        &[&BASE[..], &["--k", "1"]].concat(),
        &["in.csv", "line 2", "UTF-8"],
    );
}

#[test]
fn unknown_k_column() {
    let dir = setup(GOOD);
    fails(
        dir.path(),
        &[&BASE[..], &["--k-column", "kk"]].concat(),
        &["in.csv", "unknown column 'kk'"],
    );
}
