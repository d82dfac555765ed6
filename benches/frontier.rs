//! The exact frontier (issue 12), side by side in one run: every configuration of the exact
//! engine runs on exactly the same instances, one run at a time, through the `optik` binary (so
//! each run's peak memory is its own process's), with the same time limit. A configuration is a
//! set of environment knobs of column generation, so "today's engine" (no dual smoothing, proof
//! by enumeration) and the new one, and every ablation between them, are measured together.
//!
//! Not a test: `cargo bench --bench frontier`. Environment (defaults in brackets):
//! - `OPTIK_BENCH_TABLES` [adult,diabetes,census]: Adult (age + 7 hierarchy attributes),
//!   diabetes (age, bmi, bp and the six serum measures, numeric), sdcMicro's Census (13 numeric)
//! - `OPTIK_BENCH_N` [100,200,500,1000,2000]: sample sizes (a table smaller than n is used whole)
//! - `OPTIK_BENCH_K` [80/20:2:0.8,3:0.2;personal:3:0.823,5:0.168,7:0.009;k5:5:1;k10:10:1]
//! - `OPTIK_BENCH_CONFIGS` [today:OPTIK_COLGEN_ALPHA=0,OPTIK_COLGEN_PROOF=enum;new:]
//!   (`;`-separated `name:KEY=VALUE,KEY=VALUE`)
//! - `OPTIK_BENCH_TIME` [60] seconds per run, `OPTIK_BENCH_SEEDS` [1], `OPTIK_BENCH_CRITERION`
//!   [dbil], `OPTIK_BENCH_OUT` [target/frontier.csv]
//! - `OPTIK_BENCH_KEEP` [unset]: a directory that keeps the samples, schemas, releases, reports
//!   and each run's stderr (`TAG.err`), to re-run or trace one cell by hand; by default they go
//!   to a temporary directory removed at the end
//!
//! Every run is `--engine colgen`: above 5,000 records `auto` would run the large-neighbourhood
//! search instead, and from 1,001 it would set a 300 s limit when none is given (docs/large.md).
//!
//! Peak memory is read with `/usr/bin/time -f %M` when it exists. The bench first prints the
//! binary's `optik --version` line, and stops unless the binary and the bench were built from
//! this tree at its HEAD commit ([`check_build`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

mod common;
use common::{env, load, sample};

/// `name:KEY=V,KEY=V` entries.
fn parse_configs(s: &str) -> Vec<(String, Vec<(String, String)>)> {
    s.split(';')
        .filter(|x| !x.trim().is_empty())
        .map(|spec| {
            let (name, vars) = spec.split_once(':').unwrap_or((spec, ""));
            let vars = vars
                .split(',')
                .filter(|v| !v.trim().is_empty())
                .map(|v| {
                    let (k, val) = v.split_once('=').expect("KEY=VALUE");
                    (k.trim().to_string(), val.trim().to_string())
                })
                .collect();
            (name.trim().to_string(), vars)
        })
        .collect()
}

/// One run's outcome, read from its report and from `/usr/bin/time`.
#[derive(Default)]
struct Outcome {
    status: String,
    objective: f64,
    bound: Option<f64>,
    wall_s: f64,
    peak_mb: Option<f64>,
    rounds: u64,
    tree_nodes: u64,
    /// Seconds to the root LP's first convergence (before cuts).
    root_s: Option<f64>,
    note: String,
}

#[allow(clippy::too_many_arguments, reason = "one run's settings")]
fn run(
    dir: &Path,
    csv: &Path,
    schema: &Path,
    k: &str,
    criterion: &str,
    limit: f64,
    vars: &[(String, String)],
    tag: &str,
) -> Outcome {
    let bin = env!("CARGO_BIN_EXE_optik");
    let out = dir.join(format!("{tag}.csv"));
    let report = dir.join(format!("{tag}.json"));
    let timed = Path::new("/usr/bin/time").exists();
    let mut cmd = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-f", "peak_kb %M"]).arg(bin);
        c
    } else {
        Command::new(bin)
    };
    cmd.arg("anonymise")
        .arg(csv)
        .arg("--schema")
        .arg(schema)
        .args(["--k-dist", k, "--seed", "1", "--method", "optimal"])
        // column generation at every size (`auto` runs the LNS above 5,000 records)
        .args(["--engine", "colgen"])
        .args(["--criterion", criterion])
        .arg("--time-limit")
        .arg(format!("{limit}s"))
        .arg("--out")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .args(["--quiet", "--force"]);
    for (key, value) in vars {
        cmd.env(key, value);
    }
    let t = Instant::now();
    let o = cmd.output().expect("optik runs");
    let wall_s = t.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&o.stderr);
    let _ = std::fs::write(dir.join(format!("{tag}.err")), stderr.as_bytes());
    let peak_mb = stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak_kb "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|kb| kb / 1024.0);
    if !o.status.success() {
        return Outcome {
            status: "error".into(),
            wall_s,
            peak_mb,
            note: stderr.lines().last().unwrap_or("").to_string(),
            ..Outcome::default()
        };
    }
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("json");
    let stats = &r["exact"]["stats"];
    Outcome {
        status: r["status"].as_str().unwrap_or("?").to_string(),
        objective: r["objective"].as_f64().unwrap_or(f64::NAN),
        bound: r["lower_bound"].as_f64(),
        wall_s,
        peak_mb,
        rounds: stats["pricing_rounds"].as_u64().unwrap_or(0),
        tree_nodes: stats["tree_nodes"].as_u64().unwrap_or(0),
        root_s: stats["lp_converged_s"].as_f64(),
        note: r["exact"]["note"].as_str().unwrap_or("").to_string(),
    }
}

/// Stops the benchmark unless it and the `optik` binary `bin` were built from this tree at its
/// HEAD commit (`build.rs`), and returns the binary's `--version`. Cargo judges freshness by
/// file times, so a build of another checkout sharing the target directory (an old commit
/// measured side by side) can pass for this tree's: in session 50 a "new" run measured the
/// old commit's binary (docs/exact.md, corrected in session 51).
fn check_build(bin: &str) -> String {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fix =
        "`cargo clean --release -p optik -p optik-models -p optik-propagators` and bench again";
    let cwd = std::env::current_dir().expect("a working directory");
    assert!(
        here.canonicalize().ok() == cwd.canonicalize().ok(),
        "this benchmark was built in {}, not in {}: {fix}",
        here.display(),
        cwd.display()
    );
    let out = Command::new(bin)
        .arg("--version")
        .output()
        .expect("optik --version");
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(here)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if let Some(head) = head {
        assert!(
            version.contains(&format!("(commit {head})")),
            "{bin} is `{version}`, this tree is at {head}: {fix}"
        );
    }
    version
}

fn main() {
    let version = check_build(env!("CARGO_BIN_EXE_optik"));
    println!("binary: {version}");
    let tables: Vec<String> = common::env_list("OPTIK_BENCH_TABLES", "adult,diabetes,census");
    let sizes: Vec<usize> = common::env_list("OPTIK_BENCH_N", "100,200,500,1000,2000")
        .iter()
        .map(|s| s.parse().expect("a size"))
        .collect();
    let dists: Vec<(String, String)> = env(
        "OPTIK_BENCH_K",
        "80/20:2:0.8,3:0.2;personal:3:0.823,5:0.168,7:0.009;k5:5:1;k10:10:1",
    )
    .split(';')
    .filter(|x| !x.trim().is_empty())
    .map(|spec| {
        let (name, dist) = spec.split_once(':').expect("name:k:p,...");
        (name.trim().to_string(), dist.trim().to_string())
    })
    .collect();
    let configs = parse_configs(&env(
        "OPTIK_BENCH_CONFIGS",
        "today:OPTIK_COLGEN_ALPHA=0,OPTIK_COLGEN_PROOF=enum;new:",
    ));
    let limit: f64 = env("OPTIK_BENCH_TIME", "60").parse().expect("seconds");
    let seeds: Vec<u64> = common::env_list("OPTIK_BENCH_SEEDS", "1")
        .iter()
        .map(|s| s.parse().expect("a seed"))
        .collect();
    let criterion = env("OPTIK_BENCH_CRITERION", "dbil");
    let out_csv = PathBuf::from(env("OPTIK_BENCH_OUT", "target/frontier.csv"));
    let temp = tempfile::tempdir().expect("temp dir");
    let keep = std::env::var_os("OPTIK_BENCH_KEEP").map(PathBuf::from);
    if let Some(k) = &keep {
        std::fs::create_dir_all(k).expect("OPTIK_BENCH_KEEP directory created");
    }
    let dir = keep.as_deref().unwrap_or(temp.path());
    let mut csv = String::from(
        "table,n,k,seed,config,status,wall_s,objective,lower_bound,gap_pct,rounds,root_lp_s,tree_nodes,peak_mb,note\n",
    );
    println!("| table | n | k | config | status | wall (s) | objective | bound | gap % | rounds | root LP (s) | tree nodes | peak MB |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for name in &tables {
        let table = load(dir, name);
        for &n in &sizes {
            for &seed in &seeds {
                let (csv_path, n) = sample(dir, &table, n, seed);
                for (kname, dist) in &dists {
                    for (cname, vars) in &configs {
                        let tag = format!("{name}_{n}_{seed}_{}_{cname}", kname.replace('/', "-"));
                        let o = run(
                            dir,
                            &csv_path,
                            &table.schema,
                            dist,
                            &criterion,
                            limit,
                            vars,
                            &tag,
                        );
                        let gap = o
                            .bound
                            .filter(|_| o.objective.abs() > 0.0)
                            .map(|b| 100.0 * (o.objective - b) / o.objective.abs());
                        let fmt = |v: Option<f64>, d: usize| {
                            v.map_or("-".to_string(), |x| format!("{x:.d$}"))
                        };
                        println!(
                            "| {name} | {n} | {kname} | {cname} | {} | {:.2} | {:.3} | {} | {} | {} | {} | {} | {} |",
                            o.status,
                            o.wall_s,
                            o.objective,
                            fmt(o.bound, 3),
                            fmt(gap, 2),
                            o.rounds,
                            fmt(o.root_s, 2),
                            o.tree_nodes,
                            fmt(o.peak_mb, 0),
                        );
                        let _ = writeln!(
                            csv,
                            "{name},{n},{kname},{seed},{cname},{},{:.3},{},{},{},{},{},{},{},\"{}\"",
                            o.status,
                            o.wall_s,
                            o.objective,
                            fmt(o.bound, 6),
                            fmt(gap, 4),
                            o.rounds,
                            fmt(o.root_s, 3),
                            o.tree_nodes,
                            fmt(o.peak_mb, 1),
                            o.note.replace('"', "'")
                        );
                    }
                }
            }
        }
    }
    if let Some(parent) = out_csv.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    std::fs::write(&out_csv, csv).expect("results written");
    eprintln!("results: {}", out_csv.display());
}
