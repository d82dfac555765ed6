//! Measures the large-neighbourhood search on an instance JSON (`optik export --format json`)
//! from the best of some start partitions (releases written with `--class-column c`, in the
//! instance's record order; the greedy cover when none is given): the objective reached at each
//! checkpoint, and every improvement with `--verbose`. Not a timed test.
//!
//! Usage: `lns_bench INSTANCE.json [START.csv ...] [--time S] [--checkpoints S,S,..] [--size M]
//! [--min-size M] [--max-size M] [--limit S] [--rule medoid|closest|growth]
//! [--bias uniform|cost] [--fixed M] [--no-cuts] [--threads T] [--seed S] [--wcsd] [--verbose]`

use optik_models::colgen::start::{greedy_cover, partition_cost};
use optik_models::export::from_json;
use optik_models::lns::{LnsEvent, NeighbourhoodRule, SeedBias};
use optik_models::{solve_lns, Criterion, LnsOptions, Partition};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The class column `c` of a release, as a partition (`;`, `,` or tab separated).
fn read_classes(path: &str) -> Partition {
    let text = std::fs::read_to_string(path).expect("readable release");
    let mut lines = text.lines();
    let header = lines.next().expect("a header row");
    let sep = [';', '\t', ',']
        .into_iter()
        .find(|&c| header.contains(c))
        .expect("a delimiter");
    let col = header
        .split(sep)
        .position(|h| h.trim() == "c")
        .expect("a class column c");
    let labels: Vec<u64> = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v = l.split(sep).nth(col).expect("a class value");
            v.trim().parse().expect("integer class ids")
        })
        .collect();
    Partition::from_labels(&labels)
}

fn main() {
    let mut opts = LnsOptions::default();
    let mut time = 60.0;
    let mut checkpoints = vec![30.0, 60.0];
    let mut verbose = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} takes a value"));
        match a.as_str() {
            "--time" => time = value().parse().expect("seconds"),
            "--checkpoints" => {
                checkpoints = value()
                    .split(',')
                    .map(|s| s.parse().expect("seconds"))
                    .collect()
            }
            "--size" => opts.size = value().parse().expect("records"),
            "--min-size" => opts.min_size = value().parse().expect("records"),
            "--max-size" => opts.max_size = value().parse().expect("records"),
            "--limit" => {
                opts.neighbourhood_limit =
                    Duration::from_secs_f64(value().parse().expect("seconds"))
            }
            "--rule" => {
                opts.rule = match value().as_str() {
                    "medoid" => NeighbourhoodRule::MedoidToSeed,
                    "closest" => NeighbourhoodRule::ClosestRecords,
                    "growth" => NeighbourhoodRule::MedoidGrowth,
                    r => panic!("unknown rule {r}"),
                }
            }
            "--bias" => {
                opts.seed_bias = match value().as_str() {
                    "uniform" => SeedBias::Uniform,
                    "cost" => SeedBias::CostOverBound,
                    b => panic!("unknown bias {b}"),
                }
            }
            "--threads" => opts.threads = value().parse().expect("threads"),
            "--seed" => opts.seed = value().parse().expect("seed"),
            "--no-cuts" => opts.cuts = false,
            "--fixed" => {
                let m: usize = value().parse().expect("records");
                (opts.size, opts.min_size, opts.max_size) = (m, m, m);
            }
            "--wcsd" => opts.criterion = Criterion::Wcsd,
            "--verbose" => verbose = true,
            _ => files.push(a),
        }
    }
    let (inst_path, starts) = files.split_first().expect("an instance file");
    let inst = from_json(&std::fs::read_to_string(inst_path).expect("readable instance"))
        .expect("valid instance");
    let criterion = opts.criterion;
    let mut candidates: Vec<(String, Partition)> = starts
        .iter()
        .map(|f| (f.clone(), read_classes(f)))
        .collect();
    if candidates.is_empty() {
        candidates.push(("greedy cover".into(), greedy_cover(&inst)));
    }
    let (start_name, start) = candidates
        .into_iter()
        .min_by_key(|(_, p)| partition_cost(&inst, criterion, p))
        .expect("a start");
    let start_cost = partition_cost(&inst, criterion, &start);
    println!(
        "{inst_path}: n = {}, start {start_name} = {start_cost} ({} classes); {opts:?}",
        inst.n,
        start.num_classes()
    );
    let events: Arc<Mutex<Vec<LnsEvent>>> = Arc::default();
    let sink = events.clone();
    opts.deadline = Some(Instant::now() + Duration::from_secs_f64(time));
    opts.on_improvement = Some(Box::new(move |ev: &LnsEvent| {
        if verbose {
            println!(
                "  {:7.2} s  {:>10}  {ev}{}",
                ev.elapsed_s,
                ev.objective,
                if ev.proven { "" } else { " (not proven)" }
            );
        }
        sink.lock().unwrap().push(ev.clone());
    }));
    let r = solve_lns(&inst, &start, opts).expect("a valid start");
    assert!(r.partition.violations(&inst.k).is_empty());
    assert_eq!(partition_cost(&inst, criterion, &r.partition), r.objective);
    let events = events.lock().unwrap();
    for &t in &checkpoints {
        let at = events
            .iter()
            .take_while(|e| e.elapsed_s <= t)
            .last()
            .map_or(start_cost, |e| e.objective);
        println!(
            "  at {t:5.0} s: {at} ({:.2}% below the start)",
            100.0 * (start_cost - at) as f64 / start_cost as f64
        );
    }
    println!(
        "  end {:.2} s ({:?}): {} ; {:?}",
        r.elapsed_s, r.stop, r.objective, r.stats
    );
}
