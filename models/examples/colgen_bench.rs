//! Benchmark of the column-generation engine on instance JSON files (`optik export --format
//! json`): time to proof, LP bounds, cuts, columns and status. Not a timed test.
//!
//! Usage: `colgen_bench [--wcsd] [--no-cuts] [--time SECONDS] FILE...`

use optik_models::colgen::start::{greedy_cover, partition_cost};
use optik_models::export::from_json;
use optik_models::{solve_colgen, ColgenOptions, Criterion};
use std::time::Duration;

fn main() {
    let mut criterion = Criterion::Dbil;
    let mut cuts = true;
    let mut time = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--wcsd" => criterion = Criterion::Wcsd,
            "--no-cuts" => cuts = false,
            "--time" => {
                let s: f64 = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--time takes seconds");
                time = Some(Duration::from_secs_f64(s));
            }
            _ => files.push(a),
        }
    }
    println!(
        "{:<28} {:>5} {:>9} {:>12} {:>12} {:>8} {:>12} {:>12} {:>6} {:>8} {:>9} {:>6} {:>7} {:>7} {:>7} {:>9}",
        "instance", "n", "status", "objective", "lower", "gap%", "lp", "lp+cuts", "cuts", "columns",
        "enum", "rounds", "lp_s", "price_s", "mip_s", "total_s"
    );
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable instance file");
        let inst = from_json(&text).expect("valid instance");
        // A plain nearest-neighbour cover as the heuristic warm start.
        let greedy = greedy_cover(&inst);
        let greedy_cost = partition_cost(&inst, criterion, &greedy);
        let r = solve_colgen(
            &inst,
            ColgenOptions {
                criterion,
                time_limit: time,
                warm_start: vec![greedy],
                cuts,
                ..ColgenOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("{f}: {e}"));
        let name = std::path::Path::new(&f)
            .file_name()
            .map_or(f.clone(), |s| s.to_string_lossy().into_owned());
        let s = &r.stats;
        println!(
            "{:<28} {:>5} {:>9} {:>12} {:>12} {:>8.3} {:>12.1} {:>12.1} {:>6} {:>8} {:>9} {:>6} {:>7.2} {:>7.2} {:>7.2} {:>9.2}",
            name,
            inst.n,
            r.status.name(),
            r.objective.map_or("-".into(), |v| v.to_string()),
            r.lower_bound.map_or("-".into(), |v| v.to_string()),
            100.0 * r.gap().unwrap_or(f64::NAN),
            s.lp_bound.unwrap_or(f64::NAN),
            s.lp_bound_cuts.unwrap_or(f64::NAN),
            s.cuts,
            s.columns,
            s.enumerated_columns,
            s.pricing_rounds,
            s.lp_time_s,
            s.pricing_time_s,
            s.mip_time_s,
            r.elapsed_s
        );
        if let Some(note) = &r.note {
            println!("    note: {note}");
        }
        println!(
            "    greedy cover {greedy_cost} = {:.3} x optimum",
            greedy_cost as f64 / r.objective.unwrap_or(1).max(1) as f64
        );
    }
}
