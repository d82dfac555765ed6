//! Benchmark of the exact CP engine (issue 3): Adult samples (age + the 7 hierarchy
//! attributes, k_i drawn 80% 2 / 20% 3, seeded), every criterion, time to proven optimum,
//! nodes, conflicts and the best-heuristic / optimal ratio. Not a test: run with
//! `cargo bench --bench cp` (env: OPTIK_BENCH_N="20,30,40,60,100", OPTIK_BENCH_TIME=60,
//! OPTIK_BENCH_CRITERIA="dbil,diameter,split,wcsd", OPTIK_BENCH_SEEDS="1",
//! OPTIK_BENCH_BOUNDS="local,lp,lp+primal": for dbil and wcsd, the CP model with the seed's
//! per-record bound only, with the set-partitioning LP's dual bound (heuristic warm start), and
//! with that bound and the LP-rounded partition as the start, side by side; `lp+nodes` adds
//! the LP re-solved at the search's nodes, `--node-lp`; OPTIK_BENCH_KDIST="2:0.8,3:0.2": the
//! k_i distribution).
//! Runs one at a time: timings are wall-clock on the whole machine.

use optik::{
    solve_exact as solve, Dataset, ExactOptions, KSource, LoadOptions, Schema, SchemaSource,
};
use optik_models::cp::Search;
use optik_models::Criterion;
use std::time::{Duration, Instant};

mod common;
use common::{adult_sample as sample, adult_schema as schema, env_list};

fn main() {
    let sizes: Vec<usize> = env_list("OPTIK_BENCH_N", "20,30,40,60,100")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let limit: f64 = std::env::var("OPTIK_BENCH_TIME")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    let criteria: Vec<Criterion> = env_list("OPTIK_BENCH_CRITERIA", "dbil,diameter,split,wcsd")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let seeds: Vec<u64> = env_list("OPTIK_BENCH_SEEDS", "1")
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let bounds: Vec<(bool, bool, bool)> = env_list("OPTIK_BENCH_BOUNDS", "local,lp,lp+primal")
        .iter()
        .map(|s| match s.as_str() {
            "local" => (false, false, false),
            "lp" => (true, false, false),
            "lp+primal" => (true, true, false),
            "lp+nodes" => (true, true, true),
            other => panic!("unknown bound {other} (local, lp, lp+primal, lp+nodes)"),
        })
        .collect();
    let kdist: Vec<(u32, f64)> = env_list("OPTIK_BENCH_KDIST", "2:0.8,3:0.2")
        .iter()
        .map(|s| {
            let (k, p) = s.split_once(':').expect("k:share");
            (k.parse().unwrap(), p.parse().unwrap())
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let schema_path = schema(dir.path());
    println!(
        "CP engine on Adult samples, k_i {kdist:?}, time limit {limit} s, runs one at a time\n"
    );
    println!("| n | seed | criterion | CP bound | status | time (s) | objective | lower bound | nodes | conflicts | node LPs (s) | best heuristic | heuristic/optimal |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &n in &sizes {
        for &seed in &seeds {
            let path = sample(dir.path(), n, seed);
            let ks = KSource::Distribution {
                dist: kdist.clone(),
                seed,
            };
            let ds = Dataset::load(
                &path,
                Schema::load(&SchemaSource::File(schema_path.to_path_buf())).unwrap(),
                &ks,
                &LoadOptions::default(),
            )
            .unwrap();
            let dist = ds.distance();
            for &criterion in &criteria {
                let sum = matches!(criterion, Criterion::Dbil | Criterion::Wcsd);
                for &(lp_bound, lp_primal, node_lp) in if sum {
                    &bounds[..]
                } else {
                    &[(false, false, false)][..]
                } {
                    let start = Instant::now();
                    let out = solve(
                        &ds,
                        &dist,
                        &ExactOptions {
                            engine: optik::Engine::Cp,
                            criterion,
                            time_limit: Some(Duration::from_secs_f64(limit)),
                            size_cap: true,
                            lp_bound,
                            lp_primal,
                            node_lp,
                            search: Search::DEFAULT,
                            scale: optik::DEFAULT_SCALE,
                            seed,
                            quiet: true,
                        },
                    )
                    .unwrap();
                    let t = start.elapsed().as_secs_f64();
                    let ratio = if out.objective > 0.0 {
                        out.warm_start_objective / out.objective
                    } else {
                        1.0
                    };
                    println!(
                    "| {n} | {seed} | {} | {} | {} | {t:.2} | {:.3} | {} | {} | {} | {} ({:.1}) | {} {:.3} | {ratio:.3} |",
                    criterion.name(),
                    match (sum, lp_bound, lp_primal, node_lp) {
                        (false, ..) => "-",
                        (_, false, ..) => "per-record",
                        (_, true, false, _) => "lp dual",
                        (_, true, true, false) => "lp dual + lp start",
                        (_, true, true, true) => "lp dual + lp start + node LPs",
                    },
                    out.status,
                    out.objective,
                    out.lower_bound.map_or("-".into(), |b| format!("{b:.3}")),
                    out.nodes,
                    out.conflicts,
                    out.stats.node_lps,
                    out.stats.node_lp_s.unwrap_or(0.0),
                    out.warm_start,
                    out.warm_start_objective,
                );
                }
            }
        }
    }
}
