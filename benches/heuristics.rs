//! Heuristic run times on the first 1,000, 5,000 and all 30,162 Adult records
//! (`../shared/data/adult`), k form (k = 3) and k_i form (k_i drawn 2 w.p. 0.8, 3 w.p. 0.2,
//! seed 1). Prints a Markdown table: method, form, n, seconds, DBIL, classes.
//!
//! Run with `cargo bench --bench heuristics` (release profile). Targets on all records: MDAV
//! ≤ 10 s, greedy k-member ≤ 60 s, Mondrian ≤ 1 s. `OPTIK_BENCH_SIZES=1000,5000` restricts the
//! sizes and `OPTIK_BENCH_METHODS=mdav,mondrian` the methods.

use indicatif::ProgressBar;
use optik::{
    run_heuristic, Dataset, Form, Heuristic, HeuristicOptions, KMemberCost, KSource, LoadOptions,
    Schema, SchemaSource,
};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

const CATEGORICAL: [&str; 7] = [
    "sex",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
];

fn adult_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/adult")
}

fn write_schema(dir: &Path, data: &Path) -> PathBuf {
    let mut s = String::from(
        "[columns.age]\nrole = \"quasi\"\nkind = \"numeric\"\n\n\
         [columns.salary-class]\nrole = \"sensitive\"\n",
    );
    for a in CATEGORICAL {
        s.push_str(&format!(
            "\n[columns.{a}]\nrole = \"quasi\"\nkind = \"categorical\"\nhierarchy = \"{}\"\n",
            data.join(format!("adult_hierarchy_{a}.csv")).display()
        ));
    }
    let p = dir.join("adult.toml");
    std::fs::write(&p, s).expect("write schema");
    p
}

fn write_sample(dir: &Path, text: &str, n: usize) -> PathBuf {
    let lines: Vec<&str> = text.lines().take(n + 1).collect();
    let p = dir.join(format!("adult_{n}.csv"));
    std::fs::write(&p, lines.join("\n") + "\n").expect("write sample");
    p
}

fn main() {
    let data = match adult_dir().canonicalize() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("Adult data not found under ../shared/data/adult ({e}); nothing to bench");
            return;
        }
    };
    let text = std::fs::read_to_string(data.join("adult.csv")).expect("adult.csv");
    let total = text.lines().count() - 1;
    let sizes: Vec<usize> = match std::env::var("OPTIK_BENCH_SIZES") {
        Ok(s) => s.split(',').filter_map(|x| x.trim().parse().ok()).collect(),
        Err(_) => vec![1000, 5000, total],
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let schema_path = write_schema(dir.path(), &data);
    let ks = KSource::Distribution {
        dist: vec![(2, 0.8), (3, 0.2)],
        seed: 1,
    };
    let mut runs: Vec<(Heuristic, Form, KMemberCost)> = vec![
        (Heuristic::Mdav, Form::K, KMemberCost::Personalised),
        (Heuristic::Mdav, Form::Ki, KMemberCost::Personalised),
        (Heuristic::KMember, Form::K, KMemberCost::Original),
    ];
    for cost in [
        KMemberCost::Original,
        KMemberCost::Corrected,
        KMemberCost::Personalised,
    ] {
        runs.push((Heuristic::KMember, Form::Ki, cost));
    }
    runs.push((Heuristic::Mondrian, Form::K, KMemberCost::Personalised));
    runs.push((Heuristic::Mondrian, Form::Ki, KMemberCost::Personalised));
    if let Ok(only) = std::env::var("OPTIK_BENCH_METHODS") {
        runs.retain(|r| only.split(',').any(|m| m.trim() == r.0.name()));
    }

    println!(
        "threads: {}; k form: k = 3; k_i form: k_i = 2 (80%) / 3 (20%), seed 1\n",
        rayon::current_num_threads()
    );
    println!("| method | form | cost | n | seconds | DBIL | classes |");
    println!("|---|---|---|---:|---:|---:|---:|");
    for &n in &sizes {
        let n = n.min(total);
        let csv = write_sample(dir.path(), &text, n);
        let schema = Schema::load(&SchemaSource::File(schema_path.to_path_buf())).expect("schema");
        let ds = Dataset::load(&csv, schema, &ks, &LoadOptions::default()).expect("load");
        let dist = ds.distance();
        for &(method, form, cost) in &runs {
            let opts = HeuristicOptions {
                method,
                form,
                cost,
                seed: 1,
            };
            let start = Instant::now();
            let p = run_heuristic(&ds, &dist, &opts, &ProgressBar::hidden());
            let secs = start.elapsed().as_secs_f64();
            assert!(
                p.violations(ds.k()).is_empty(),
                "{opts:?} is not k_i-anonymous"
            );
            let dbil: f64 = p
                .classes()
                .par_iter()
                .map(|c| c.len() as f64 * optik_models::criteria::diameter(c, |i, j| dist.d(i, j)))
                .sum();
            let cost_name = if method == Heuristic::KMember {
                cost.name()
            } else {
                "-"
            };
            println!(
                "| {} | {} | {} | {} | {:.3} | {:.1} | {} |",
                method.name(),
                form.name(),
                cost_name,
                ds.n(),
                secs,
                dbil,
                p.num_classes()
            );
        }
    }
}
