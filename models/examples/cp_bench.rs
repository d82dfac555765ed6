//! CP benchmark: loads instance JSON files (`{"n","scale","k","dist"}`) and reports, per
//! criterion, the status, objective, bound, time, nodes and conflicts of `solve_cp`.
//!
//! ```text
//! cargo run --release -p optik-models --example cp_bench -- \
//!     [--criteria dbil,diameter,split,wcsd] [--time-limit 60] [--search autonomous] \
//!     [--no-size-cap] FILE.json...
//! ```
//! One tab-separated line per (file, criterion); the first line is a header.

use std::time::Duration;

use optik_models::export::from_json;
use optik_models::{solve_cp, CpOptions, Criterion, Search};

fn main() {
    let mut criteria = Criterion::CLUSTERING.to_vec();
    let mut time_limit = Some(Duration::from_secs(60));
    let mut search = Search::DEFAULT;
    let mut size_cap = true;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--criteria" => {
                criteria = args
                    .next()
                    .expect("--criteria needs a value")
                    .split(',')
                    .map(|c| c.parse().unwrap_or_else(|e| panic!("{e}")))
                    .collect()
            }
            "--time-limit" => {
                let t: f64 = args
                    .next()
                    .expect("--time-limit needs seconds")
                    .parse()
                    .expect("seconds");
                time_limit = (t > 0.0).then(|| Duration::from_secs_f64(t));
            }
            "--search" => {
                search = args
                    .next()
                    .expect("--search needs a value")
                    .parse()
                    .unwrap_or_else(|e| panic!("{e}"))
            }
            "--no-size-cap" => size_cap = false,
            _ => files.push(a),
        }
    }
    println!("file\tn\tcriterion\tsearch\tstatus\tobjective\tbound\tseconds\tnodes\tconflicts\tsolutions");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        let inst = from_json(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
        for &c in &criteria {
            let res = solve_cp(
                &inst,
                CpOptions {
                    criterion: c,
                    time_limit,
                    size_cap,
                    search,
                    ..CpOptions::default()
                },
            )
            .unwrap_or_else(|e| panic!("{f}: {e}"));
            let opt = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
            println!(
                "{f}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.2}\t{}\t{}\t{}",
                inst.n,
                c.name(),
                search.name(),
                res.status.name(),
                opt(res.objective),
                opt(res.lower_bound),
                res.elapsed_s,
                res.stats.nodes,
                res.stats.conflicts,
                res.timeline.len()
            );
        }
    }
}
