//! Measures the large-neighbourhood search on an instance JSON (`optik export --format json`)
//! from the best of some start partitions (releases written with `--class-column c`, in the
//! instance's record order; the greedy cover when none is given): the objective reached at each
//! checkpoint, and every improvement with `--verbose`. Not a timed test.
//!
//! With `--synthetic N` instead of files: N clustered points whose distances are computed on
//! demand (no matrix), from a poor valid start, to see how the search scales with n.
//!
//! Usage: `lns_bench INSTANCE.json [START.csv ...] [--synthetic N] [--time S] [--checkpoints S,S,..] [--size M]
//! [--min-size M] [--max-size M] [--first-limit S] [--limit S] [--rule medoid|closest|growth|related]
//! [--bias uniform|cost] [--fixed M] [--no-cuts] [--no-follow] [--threads T] [--seed S] [--wcsd] [--verbose]`

use optik_models::colgen::start::{greedy_cover, partition_cost};
use optik_models::export::from_json;
use optik_models::lns::{LnsEvent, NeighbourhoodRule, SeedBias};
use optik_models::DistanceOracle;
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

/// Clustered integer points in 8 dimensions with Manhattan distances computed on demand (no
/// matrix), k_i drawn 3 / 5 / 7 with shares 0.823 / 0.168 / 0.009: a stand-in for a table too
/// large for a matrix.
struct Synthetic {
    pts: Vec<[i32; 8]>,
    k: Vec<u32>,
}

impl Synthetic {
    fn new(n: usize, seed: u64) -> Self {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move || {
            // xorshift64*
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11
        };
        let centres: Vec<[i32; 8]> = (0..n / 50 + 1)
            .map(|_| std::array::from_fn(|_| (next() % 100) as i32))
            .collect();
        let pts = (0..n)
            .map(|_| {
                let c = centres[(next() % centres.len() as u64) as usize];
                std::array::from_fn(|d| c[d] + (next() % 7) as i32 - 3)
            })
            .collect();
        let k = (0..n)
            .map(|_| match next() % 1000 {
                0..=822 => 3,
                823..=990 => 5,
                _ => 7,
            })
            .collect();
        Synthetic { pts, k }
    }

    /// Consecutive records in lexicographic point order, cut when a chunk reaches its largest
    /// k (the remainder joins the last chunk): a valid, poor start.
    fn chunks(&self) -> Partition {
        let n = self.pts.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (self.pts[i], i));
        let mut label = vec![0usize; n];
        let (mut class, mut size, mut kmax) = (0, 0, 0);
        for (t, &i) in order.iter().enumerate() {
            label[i] = class;
            size += 1;
            kmax = kmax.max(self.k[i] as usize);
            let rest = n - t - 1;
            if size >= kmax && rest >= 7 {
                (class, size, kmax) = (class + 1, 0, 0);
            }
        }
        Partition::from_labels(&label)
    }
}

impl DistanceOracle for Synthetic {
    fn n(&self) -> usize {
        self.pts.len()
    }
    fn k(&self, i: usize) -> u32 {
        self.k[i]
    }
    fn d(&self, i: usize, j: usize) -> i64 {
        let (a, b) = (&self.pts[i], &self.pts[j]);
        (0..8).map(|t| (a[t] - b[t]).unsigned_abs() as i64).sum()
    }
    fn scale(&self) -> f64 {
        1.0
    }
}

/// Peak resident memory of this process (Linux), in MB.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let mut opts = LnsOptions::default();
    let mut time = 60.0;
    let mut checkpoints = vec![30.0, 60.0];
    let mut verbose = false;
    let mut synthetic: Option<usize> = None;
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
            "--first-limit" => {
                opts.first_limit = Duration::from_secs_f64(value().parse().expect("seconds"))
            }
            "--limit" => {
                opts.neighbourhood_limit =
                    Duration::from_secs_f64(value().parse().expect("seconds"))
            }
            "--rule" => {
                let r = value();
                opts.rule =
                    NeighbourhoodRule::from_name(&r).unwrap_or_else(|| panic!("unknown rule {r}"));
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
            "--no-follow" => opts.follow_improvements = false,
            "--fixed" => {
                let m: usize = value().parse().expect("records");
                (opts.size, opts.min_size, opts.max_size) = (m, m, m);
            }
            "--wcsd" => opts.criterion = Criterion::Wcsd,
            "--verbose" => verbose = true,
            "--synthetic" => synthetic = Some(value().parse().expect("records")),
            _ => files.push(a),
        }
    }
    if let Some(n) = synthetic {
        let oracle = Synthetic::new(n, opts.seed);
        let start = oracle.chunks();
        opts.deadline = Some(Instant::now() + Duration::from_secs_f64(time));
        let r = solve_lns(&oracle, &start, opts).expect("a valid start");
        assert!(r.partition.violations(&oracle.k).is_empty());
        println!(
            "synthetic n = {n}: start {} -> {} ({:.2}% below) in {:.2} s ({:?}); peak RSS {:.0} MB; {:?}",
            r.stats.start_objective,
            r.objective,
            100.0 * (r.stats.start_objective - r.objective) as f64 / r.stats.start_objective as f64,
            r.elapsed_s,
            r.stop,
            peak_rss_mb().unwrap_or(f64::NAN),
            r.stats
        );
        return;
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
        "  end {:.2} s ({:?}): {} ; peak RSS {:.0} MB; {:?}",
        r.elapsed_s,
        r.stop,
        r.objective,
        peak_rss_mb().unwrap_or(f64::NAN),
        r.stats
    );
}
