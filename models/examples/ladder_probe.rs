//! Probes one rung of the bound ladder offline, from a point the ladder dumped
//! (`OPTIK_LADDER_DUMP=PATH` on a column-generation run writes `PATH-n<records>-<step>.json`): runs the
//! same search the ladder runs at that point and prints its bound, nodes, time and how the
//! nodes split over the root tasks. For tuning the ladder without re-running the minutes of
//! column generation before it. Not a timed test.
//!
//! Usage: `ladder_probe DUMP THETA T FACTOR [SECONDS]`: THETA is the share of the master's
//! value at the rung's point (`ladder::rung_point`); RAYON_NUM_THREADS sets the threads;
//! SECONDS stops the search at that deadline, its tasks wound down to their frontiers as the
//! ladder's are. `OPTIK_LADDER_MINIMISE=0` runs the tasks as before session 26 (a task that
//! finds a column stops after one node budget), as it does in the ladder.

use optik_models::colgen::ladder::{rung_point, rung_search};
use optik_models::colgen::pricing::{Mode, SearchOptions};
use optik_models::colgen::start::record_bounds;
use optik_models::root_lp::Duals;
use optik_models::{Criterion, Instance};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, theta, t, factor, seconds) = match &args[..] {
        [p, th, t, f] => (p, th, t, f, None),
        [p, th, t, f, s] => (p, th, t, f, Some(s)),
        _ => {
            eprintln!("usage: ladder_probe DUMP THETA T FACTOR [SECONDS]");
            std::process::exit(2);
        }
    };
    let num = |s: &str| -> f64 { s.parse().expect("a number") };
    let text = std::fs::read_to_string(path).expect("a readable dump");
    let v: serde_json::Value = serde_json::from_str(&text).expect("a JSON dump");
    let inst: Instance = serde_json::from_value(v["instance"].clone()).expect("an instance");
    let duals = Duals {
        pi: serde_json::from_value(v["pi"].clone()).expect("pi"),
        cuts: serde_json::from_value(v["cuts"].clone()).expect("cuts"),
    };
    let max_classes = v["max_classes"].as_f64().expect("max_classes");
    let cover = v["cover"].as_u64().map(|c| c as u32);
    let value = duals.value();
    let started = Instant::now();
    let deadline = seconds.map(|s| started + std::time::Duration::from_secs_f64(num(s)));
    let base = SearchOptions {
        cover,
        deadline,
        bound_at_deadline: true,
        ..SearchOptions::new(
            Criterion::Sse,
            Mode::Best {
                k: 0,
                threshold: 0.0,
            },
        )
    };
    let theta = num(theta);
    // The ladder's point: between the duals π and the per-record bounds m (its anchor). With
    // OPTIK_PROBE_ANCHOR=w the anchor is w·m instead (w = 0: the duals scaled toward 0, as
    // `OPTIK_LADDER_ANCHOR=0` makes the ladder do).
    let w = std::env::var("OPTIK_PROBE_ANCHOR").map_or(1.0, |w| num(&w));
    let m = record_bounds(&inst, Criterion::Sse, None);
    println!("per-record bound {:.0}", m.iter().sum::<f64>());
    let anchor: Vec<f64> = m.iter().map(|x| w * x).collect();
    let point = rung_point(&duals, theta, &anchor);
    let found = rung_search(
        &inst,
        &point,
        num(t),
        factor.parse().expect("a factor"),
        max_classes,
        base,
    );
    let secs = started.elapsed().as_secs_f64();
    let bound = found.lagrangian_bound(point.value(), max_classes as usize);
    let mut tasks = found.task_nodes.clone();
    tasks.sort_unstable_by(|a, b| b.cmp(a));
    let top: u64 = tasks.iter().take(10).sum();
    let negative = found
        .root_minima
        .as_ref()
        .map_or(0, |m| m.iter().filter(|&&x| x < found.threshold).count());
    println!(
        "value {value:.0} bound {} ({:.4} of value) nodes {} partial {} timed out {} columns {} secs {secs:.2}",
        bound.map_or("-".into(), |b| format!("{b:.0}")),
        bound.map_or(f64::NAN, |b| b / value),
        found.nodes,
        found.partial,
        found.timed_out,
        found.columns.len(),
    );
    println!(
        "point value {:.0} ({:.4} of value)",
        point.value(),
        point.value() / value
    );
    println!(
        "tasks {} largest {:?} top-10 share {:.3} tasks below threshold {negative}",
        tasks.len(),
        &tasks[..tasks.len().min(10)],
        top as f64 / found.nodes.max(1) as f64
    );
}
