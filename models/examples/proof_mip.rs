//! Solves a proof MIP that a column-generation run wrote with `OPTIK_MIP_DUMP=PATH`, to measure
//! HiGHS settings offline: `proof_mip PATH [SECONDS]`; `NO_CUTS=1` leaves the cut rows out,
//! `OPTIK_MIP_PRESOLVE=on|off` forces one solve with that presolve (docs/microaggregation.md,
//! "Odd-set cuts").
use optik_models::colgen::column::Column;
use optik_models::colgen::proof::{solve_set_partitioning, MipLimits};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let tl: f64 = std::env::args()
        .nth(2)
        .map_or(600.0, |s| s.parse().unwrap());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let n = v["n"].as_u64().unwrap() as usize;
    let columns: Vec<Column> = v["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Column {
            members: c[0]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect(),
            cost: c[1].as_i64().unwrap(),
        })
        .collect();
    let cuts: Vec<Vec<u32>> = v["cuts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect()
        })
        .collect();
    let start: Option<Vec<usize>> = v["start"]
        .as_array()
        .map(|a| a.iter().map(|x| x.as_u64().unwrap() as usize).collect());
    let no_cuts = std::env::var_os("NO_CUTS").is_some();
    let cuts = if no_cuts { vec![] } else { cuts };
    let limits = MipLimits {
        seconds: Some(tl),
        ..MipLimits::default()
    };
    let out = solve_set_partitioning(n, &columns, &cuts, start.as_deref(), limits);
    println!(
        "columns {} cuts {} proven {} best {:?} bound {:.1} {:.2} s nodes {}",
        columns.len(),
        cuts.len(),
        out.proven,
        out.best.map(|b| b.1),
        out.bound,
        out.seconds,
        out.nodes
    );
}
