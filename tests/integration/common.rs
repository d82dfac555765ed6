//! What the integration tests share: the bundled instances and the Adult sample from
//! `../shared/data`, reading reports, and [`Cmd`], a builder that runs the `optik` binary and
//! checks the exit contract — success, or a one-line `error: ...` with exit code 2 and no output
//! left behind (ripgrep's `tests/util.rs` is the model).

use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// Reads a JSON report.
pub(crate) fn report(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// `optik SUBCOMMAND`, to be given arguments and run.
pub(crate) fn optik(subcommand: &str) -> Cmd {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_optik"));
    cmd.arg(subcommand);
    Cmd {
        cmd,
        shown: vec![subcommand.to_string()],
        outputs: Vec::new(),
    }
}

/// One run of the `optik` binary being set up.
pub(crate) struct Cmd {
    cmd: Command,
    /// The arguments, for failure messages.
    shown: Vec<String>,
    /// Files the run must not leave behind when it fails.
    outputs: Vec<PathBuf>,
}

/// What a finished run printed.
pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Cmd {
    /// Adds an argument.
    pub(crate) fn arg(mut self, a: impl AsRef<OsStr>) -> Cmd {
        self.shown.push(a.as_ref().to_string_lossy().to_string());
        self.cmd.arg(a);
        self
    }

    /// Adds arguments.
    pub(crate) fn args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Cmd {
        for a in args {
            self = self.arg(a);
        }
        self
    }

    /// Adds `flag path` for an output file, which a failed run must not leave behind.
    pub(crate) fn output(mut self, flag: &str, path: impl AsRef<Path>) -> Cmd {
        self.outputs.push(path.as_ref().to_path_buf());
        self.arg(flag).arg(path.as_ref())
    }

    /// Runs in `dir` (relative paths name its files).
    pub(crate) fn current_dir(mut self, dir: impl AsRef<Path>) -> Cmd {
        self.cmd.current_dir(dir);
        self
    }

    /// `TABLE --schema SCHEMA` as the input.
    pub(crate) fn input(self, table: impl AsRef<Path>, schema: impl AsRef<Path>) -> Cmd {
        self.arg(table.as_ref())
            .arg("--schema")
            .arg(schema.as_ref())
    }

    /// The bundled clinical trial with its schema and its k column as the input.
    pub(crate) fn clinical_trial(self) -> Cmd {
        self.arg(instance("clinical_trial.csv"))
            .arg("--schema")
            .arg(instance("clinical_trial.toml"))
            .args(["--k-column", "k"])
    }

    /// Runs, whatever the outcome.
    pub(crate) fn run(mut self) -> Run {
        let o = self.cmd.output().expect("the optik binary runs");
        Run {
            code: o.status.code(),
            stdout: String::from_utf8_lossy(&o.stdout).to_string(),
            stderr: String::from_utf8_lossy(&o.stderr).to_string(),
        }
    }

    /// Runs and asserts success.
    pub(crate) fn ok(self) -> Run {
        let shown = self.shown.join(" ");
        let r = self.run();
        assert_eq!(r.code, Some(0), "optik {shown}: {}", r.stderr);
        r
    }

    /// Runs and asserts the exit code.
    pub(crate) fn code(self, expected: i32) -> Run {
        let shown = self.shown.join(" ");
        let r = self.run();
        assert_eq!(r.code, Some(expected), "optik {shown}: {}", r.stderr);
        r
    }

    /// Runs and asserts optik's failure contract: exit code 2, one `error: ` line on stderr
    /// holding every `expect`ed piece, and none of the outputs written. Returns stderr.
    pub(crate) fn fails(self, expect: &[&str]) -> String {
        let shown = self.shown.join(" ");
        let outputs = self.outputs.clone();
        let r = self.run();
        let e = r.stderr;
        assert_eq!(r.code, Some(2), "exit code of optik {shown}: {e}");
        assert_eq!(
            e.trim_end().lines().count(),
            1,
            "one-line error for optik {shown}: {e}"
        );
        assert!(e.starts_with("error: "), "{e}");
        for x in expect {
            assert!(e.contains(x), "'{x}' missing from: {e}");
        }
        for o in outputs {
            assert!(
                !o.exists(),
                "optik {shown} failed but wrote {}",
                o.display()
            );
        }
        e
    }
}

impl Cmd {
    /// Runs an `optik anonymise` with `--out DIR/TAG.csv --report DIR/TAG.json --quiet`,
    /// asserts success, and returns the report.
    pub(crate) fn anonymised(self, dir: &Path, tag: &str) -> Value {
        let out = dir.join(format!("{tag}.csv"));
        let rep = dir.join(format!("{tag}.json"));
        self.output("--out", &out)
            .output("--report", &rep)
            .arg("--quiet")
            .ok();
        assert!(out.exists());
        report(&rep)
    }
}

/// Runs `optik anonymise ARGS --out DIR/TAG.csv --report DIR/TAG.json --quiet`, asserts
/// success, and returns the report.
pub(crate) fn anonymise(dir: &Path, args: &[&str], tag: &str) -> Value {
    optik("anonymise").args(args).anonymised(dir, tag)
}
