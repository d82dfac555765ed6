//! Side-by-side benchmark of the exact engines and the heuristics (issue 4): on Adult samples
//! (age + the 7 hierarchy attributes, seeded random rows) and the diabetes table, for several
//! k distributions, every engine asked for (column generation, CP with the LP dual bound,
//! compact MIP) runs on exactly the same instance, one at a time, with the same time limit;
//! the table gives status, time, objective, lower bound, gap, the engine's counters and the
//! MDAV / greedy k-member (eq. 5.5) / Mondrian ratios to the best proven optimum.
//! Not a test: `cargo bench --bench exact`. Environment (defaults in brackets):
//! - `OPTIK_BENCH_DATA` [adult,diabetes]
//! - `OPTIK_BENCH_N` [50,100,200,500,1000,1500,2000] (Adult sample sizes; diabetes has 442 rows)
//! - `OPTIK_BENCH_K` [80/20:2:0.8,3:0.2;personal:3:0.823,5:0.168,7:0.009;k3:3:1;k5:5:1]
//!   (`;`-separated `name:k:p,k:p`)
//! - `OPTIK_BENCH_ENGINES` [colgen,cp,mip]; `OPTIK_BENCH_SMALL` [60]: cp and mip only up to
//!   that n (they do not scale; column generation runs everywhere)
//! - `OPTIK_BENCH_TIME` [60] seconds per run, `OPTIK_BENCH_SEEDS` [1], `OPTIK_BENCH_CRITERION` [dbil]

use optik::{
    run_heuristic, solve_exact as solve, Dataset, Engine, ExactOptions, Form, Heuristic,
    HeuristicOptions, KChoice, KMemberCost, KSettings, KSource, LoadOptions, Schema, SchemaSource,
};
use optik_models::cp::Search;
use optik_models::objective_of;
use optik_models::Criterion;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::{adult_sample, adult_schema, data_dir, env};

/// Diabetes: age, bmi and blood pressure (numeric) and sex as quasi-identifiers, the serum
/// measures and the outcome not released as quasi-identifiers.
fn diabetes_schema(dir: &Path) -> PathBuf {
    let mut s =
        String::from("default_role = \"insensitive\"\n[columns.target]\nrole = \"sensitive\"\n");
    for a in ["age", "bmi", "bp"] {
        s += &format!("[columns.{a}]\nrole = \"quasi\"\nkind = \"numeric\"\n");
    }
    s += "[columns.sex]\nrole = \"quasi\"\nkind = \"categorical\"\n";
    let p = dir.join("diabetes.toml");
    std::fs::write(&p, s).unwrap();
    p
}

fn parse_dists(s: &str) -> Vec<(String, Vec<(u32, f64)>)> {
    s.split(';')
        .filter(|x| !x.trim().is_empty())
        .map(|spec| {
            let (name, dist) = spec.split_once(':').expect("name:k:p,...");
            let dist = match KSettings::new(KChoice::Distribution(dist.to_string())).source() {
                Ok(KSource::Distribution { dist, .. }) => dist,
                other => panic!("{dist}: not a k:p list ({other:?})"),
            };
            (name.trim().to_string(), dist)
        })
        .collect()
}

fn main() {
    let datasets = env("OPTIK_BENCH_DATA", "adult,diabetes");
    let sizes: Vec<usize> = env("OPTIK_BENCH_N", "50,100,200,500,1000,1500,2000")
        .split(',')
        .map(|s| s.trim().parse().unwrap())
        .collect();
    let dists = parse_dists(&env(
        "OPTIK_BENCH_K",
        "80/20:2:0.8,3:0.2;personal:3:0.823,5:0.168,7:0.009;k3:3:1;k5:5:1",
    ));
    let engines: Vec<Engine> = env("OPTIK_BENCH_ENGINES", "colgen,cp,mip")
        .split(',')
        .map(|e| match e.trim() {
            "colgen" => Engine::Colgen,
            "cp" => Engine::Cp,
            "mip" => Engine::Mip,
            other => panic!("unknown engine {other}"),
        })
        .collect();
    let small: usize = env("OPTIK_BENCH_SMALL", "60").parse().unwrap();
    let limit: f64 = env("OPTIK_BENCH_TIME", "60").parse().unwrap();
    let seeds: Vec<u64> = env("OPTIK_BENCH_SEEDS", "1")
        .split(',')
        .map(|s| s.trim().parse().unwrap())
        .collect();
    let criterion: Criterion = env("OPTIK_BENCH_CRITERION", "dbil").parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut instances: Vec<(String, PathBuf, PathBuf, u64)> = Vec::new();
    for d in datasets.split(',') {
        match d.trim() {
            "adult" => {
                let schema = adult_schema(dir.path());
                for &n in &sizes {
                    for &seed in &seeds {
                        let p = adult_sample(dir.path(), n, seed);
                        instances.push((format!("adult-{n}"), p, schema.clone(), seed));
                    }
                }
            }
            "diabetes" => {
                let schema = diabetes_schema(dir.path());
                for &seed in &seeds {
                    let p = data_dir().join("sklearn_diabetes_raw.csv");
                    instances.push(("diabetes".into(), p, schema.clone(), seed));
                }
            }
            other => panic!("unknown dataset {other}"),
        }
    }
    println!(
        "# Exact engines side by side ({}, time limit {limit} s, runs one at a time, {} cores)\n",
        criterion.name(),
        std::thread::available_parallelism().map_or(1, |c| c.get())
    );
    println!("| instance | n | k | seed | engine | status | time (s) | objective | lower bound | gap % | root LP | columns | cuts | rounds | nodes | MDAV/opt | k-member/opt | Mondrian/opt |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (name, path, schema, seed) in &instances {
        for (kname, dist) in &dists {
            let ks = KSource::Distribution {
                dist: dist.clone(),
                seed: *seed,
            };
            let ds = Dataset::load(
                path,
                Schema::load(&SchemaSource::File(schema.to_path_buf())).unwrap(),
                &ks,
                &LoadOptions::default(),
            )
            .unwrap();
            let n = ds.n();
            let dist_fn = ds.distance();
            let scale = optik::DEFAULT_SCALE;
            let inst = dist_fn.instance(ds.k().to_vec(), scale).unwrap();
            let hidden = indicatif::ProgressBar::hidden();
            let heur: Vec<i64> = [Heuristic::Mdav, Heuristic::KMember, Heuristic::Mondrian]
                .into_iter()
                .map(|method| {
                    let p = run_heuristic(
                        &ds,
                        &dist_fn,
                        &HeuristicOptions {
                            method,
                            form: Form::Ki,
                            cost: KMemberCost::Personalised,
                            seed: *seed,
                        },
                        &hidden,
                    );
                    objective_of(&inst, &p, criterion)
                })
                .collect();
            let mut rows = Vec::new();
            let mut best_proven: Option<f64> = None;
            for &engine in &engines {
                if engine != Engine::Colgen && n > small {
                    continue;
                }
                let start = Instant::now();
                let out = solve(
                    &ds,
                    &dist_fn,
                    &ExactOptions {
                        engine,
                        criterion,
                        time_limit: Some(Duration::from_secs_f64(limit)),
                        size_cap: true,
                        lp_bound: true,
                        lp_primal: true,
                        node_lp: false,
                        search: Search::DEFAULT,
                        scale,
                        seed: *seed,
                        quiet: true,
                    },
                )
                .unwrap();
                let t = start.elapsed().as_secs_f64();
                if out.status == "optimal" {
                    best_proven = Some(out.objective);
                }
                rows.push((engine, out, t));
            }
            for (engine, out, t) in rows {
                let ratio = |h: i64| match best_proven {
                    Some(opt) if opt > 0.0 => format!("{:.3}", h as f64 / scale / opt),
                    _ => "-".into(),
                };
                let s = &out.stats;
                println!(
                    "| {name} | {n} | {kname} | {seed} | {} | {} | {t:.2} | {:.3} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    engine.name(),
                    out.status,
                    out.objective,
                    out.lower_bound.map_or("-".into(), |b| format!("{b:.3}")),
                    out.gap.map_or("-".into(), |g| format!("{:.2}", 100.0 * g)),
                    s.lp_bound_cuts.map_or("-".into(), |b| format!("{:.3}", b / scale)),
                    s.columns,
                    s.cuts,
                    s.pricing_rounds,
                    s.nodes,
                    ratio(heur[0]),
                    ratio(heur[1]),
                    ratio(heur[2]),
                );
            }
        }
    }
}
