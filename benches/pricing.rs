//! Pricing one class with CP against the depth-first pricing (issue 12: "pricing one class at a
//! time with the pumpkin model and optik's own propagators ... measure it against the DFS"), on
//! the same duals, one pricing at a time, each on one thread.
//!
//! Per instance: the root LP of column generation without cuts (converged: its duals price no
//! class below 0), then both pricings at those duals times `1 + shift` for every shift (0: the
//! last round of a converged LP, a proof that no class prices out; a positive shift: a round far
//! from convergence, where many classes have negative reduced cost and the best is wanted).
//! Both look for the class of least reduced cost below −10⁻³ (the CP objective's resolution):
//! the DFS is `colgen::pricing::search` in `Best { k: 1 }` mode, the CP search
//! `colgen::cp_pricing::price_with_cp`.
//!
//! Not a test: `cargo bench --bench pricing`. Environment (defaults in brackets):
//! `OPTIK_BENCH_TABLES` [diabetes] (adult, diabetes, census; as in the frontier bench),
//! `OPTIK_BENCH_N` [100,200], `OPTIK_BENCH_K` [5,10] (uniform k), `OPTIK_BENCH_SHIFT` [0,0.02],
//! `OPTIK_BENCH_SEEDS` [1], `OPTIK_BENCH_TIME` [60] seconds per pricing, `OPTIK_BENCH_BRANCH`
//! [dual] (the CP search's branching: `dual`, the records by decreasing dual, in the class
//! first; `vsids`, pumpkin's default), `OPTIK_BENCH_OUT` [target/pricing.csv].

use optik::{Dataset, KSource, LoadOptions, Schema, SchemaSource, DEFAULT_SCALE};
use optik_models::colgen::cp_pricing::{price_with_cp, CpBranching};
use optik_models::colgen::pricing::{search, Mode, SearchOptions};
use optik_models::colgen::root_lp;
use optik_models::root_lp::Duals;
use optik_models::{ClassConstraints, ColgenOptions, Criterion};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

mod common;
use common::{env, env_list, load, sample};

/// Both pricings look below this reduced cost (the CP objective's resolution at scale 1,000).
const THRESHOLD: f64 = -1e-3;

fn main() {
    let list = |name: &str, default: &str| -> Vec<String> { env_list(name, default) };
    let tables = list("OPTIK_BENCH_TABLES", "diabetes");
    let sizes: Vec<usize> = list("OPTIK_BENCH_N", "100,200")
        .iter()
        .map(|s| s.parse().expect("a size"))
        .collect();
    let ks: Vec<u32> = list("OPTIK_BENCH_K", "5,10")
        .iter()
        .map(|s| s.parse().expect("a k"))
        .collect();
    let shifts: Vec<f64> = list("OPTIK_BENCH_SHIFT", "0,0.02")
        .iter()
        .map(|s| s.parse().expect("a shift"))
        .collect();
    let seeds: Vec<u64> = list("OPTIK_BENCH_SEEDS", "1")
        .iter()
        .map(|s| s.parse().expect("a seed"))
        .collect();
    let limit = Duration::from_secs_f64(env("OPTIK_BENCH_TIME", "60").parse().expect("seconds"));
    let out = env("OPTIK_BENCH_OUT", "target/pricing.csv");
    let branching = match env("OPTIK_BENCH_BRANCH", "dual").as_str() {
        "vsids" => CpBranching::Vsids,
        "dual" => CpBranching::DualOrder,
        other => panic!("OPTIK_BENCH_BRANCH is vsids or dual, not {other}"),
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut csv = String::from(
        "table,n,k,seed,shift,lp_s,dfs_s,dfs_rc,dfs_complete,dfs_nodes,cp_s,cp_rc,cp_proven,cp_solutions\n",
    );
    println!("| table | n | k | seed | shift | DFS ms | DFS rc | complete | CP ms | CP rc | proven | CP classes |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for name in &tables {
        let table = load(dir.path(), name);
        for &n in &sizes {
            for &seed in &seeds {
                let (path, n) = sample(dir.path(), &table, n, seed);
                for &k in &ks {
                    let ds = Dataset::load(
                        &path,
                        Schema::load(&SchemaSource::File(table.schema.clone())).expect("schema"),
                        &KSource::Uniform { k },
                        &LoadOptions::default(),
                    )
                    .expect("the sample loads");
                    let inst = ds
                        .distance()
                        .instance(ds.k().to_vec(), DEFAULT_SCALE)
                        .expect("an instance");
                    let t = Instant::now();
                    let Some(lp) = root_lp(
                        &inst,
                        ColgenOptions {
                            criterion: Criterion::Dbil,
                            cuts: false,
                            time_limit: Some(Duration::from_secs(300)),
                            ..ColgenOptions::default()
                        },
                    ) else {
                        println!("| {name} | {n} | {k} | {seed} | — | the root LP did not converge in 300 s |");
                        continue;
                    };
                    let lp_s = t.elapsed().as_secs_f64();
                    for &shift in &shifts {
                        let duals = Duals {
                            pi: lp.duals.pi.iter().map(|p| p * (1.0 + shift)).collect(),
                            cuts: Vec::new(),
                        };
                        let t = Instant::now();
                        let dfs = one.install(|| {
                            search(
                                &inst,
                                &duals,
                                &SearchOptions {
                                    deadline: Some(Instant::now() + limit),
                                    ..SearchOptions::new(
                                        Criterion::Dbil,
                                        Mode::Best {
                                            k: 1,
                                            threshold: THRESHOLD,
                                        },
                                    )
                                },
                            )
                        });
                        let dfs_s = t.elapsed().as_secs_f64();
                        let dfs_rc = dfs.columns.first().map(|c| c.0);
                        let complete = !dfs.timed_out && !dfs.partial;
                        let cp = price_with_cp(
                            &inst,
                            Criterion::Dbil,
                            &duals,
                            &ClassConstraints::default(),
                            branching,
                            Some(Instant::now() + limit),
                        )
                        .expect("dbil without constraints or cuts");
                        let cp_rc = cp.best.as_ref().map(|b| b.0);
                        let show =
                            |v: Option<f64>| v.map_or("none".to_string(), |v| format!("{v:.3}"));
                        println!(
                            "| {name} | {n} | {k} | {seed} | {shift} | {:.1} | {} | {complete} | {:.1} | {} | {} | {} |",
                            dfs_s * 1e3,
                            show(dfs_rc),
                            cp.seconds * 1e3,
                            show(cp_rc),
                            cp.proven,
                            cp.solutions
                        );
                        let _ = writeln!(
                            csv,
                            "{name},{n},{k},{seed},{shift},{lp_s:.3},{dfs_s:.4},{},{complete},{},{:.4},{},{},{}",
                            show(dfs_rc),
                            dfs.nodes,
                            cp.seconds,
                            show(cp_rc),
                            cp.proven,
                            cp.solutions
                        );
                    }
                }
            }
        }
    }
    std::fs::write(&out, csv).expect("the CSV is written");
    println!("\nCSV: {out}");
}
