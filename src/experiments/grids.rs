//! The four experiments of seed 001 §5.5 as grids of heuristic runs: each grid point's DBIL
//! ratio averaged over the seeds, written as CSV, Markdown and heatmaps.

use super::options::{ExperimentOptions, File, SUMMARY};
use super::runs::{frequency_grid, mean, Levels, Sample, HIGH, LOW};
use crate::data::k_source::PRESETS;
use crate::error::{internal, Result};
use crate::partition::heuristics::Heuristic;
use crate::report::plot::{self, Heatmap};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;

const LEVELS: [(&str, Levels); 2] = [("low", LOW), ("high", HIGH)];

fn levels_name(l: Levels) -> String {
    format!("k_l={}, k_m={}, k_c={}", l[0], l[1], l[2])
}

/// Key of a uniform k-anonymity run: the seed only matters to greedy k-member (MDAV and
/// Mondrian are deterministic, so one run serves every seed).
fn uniform_key(m: Heuristic, k: u32, seed: u64) -> (Heuristic, u32, u64) {
    (m, k, if m == Heuristic::KMember { seed } else { 0 })
}

/// DBIL of uniform k-anonymity for every (heuristic, k, seed) asked, computed once each.
fn uniform_runs(
    s: &Sample,
    keys: &[(Heuristic, u32, u64)],
    bar: &ProgressBar,
) -> HashMap<(Heuristic, u32, u64), f64> {
    keys.par_iter()
        .map(|&(m, k, seed)| {
            let v = s.dbil(m, &vec![k; s.n()], seed);
            bar.inc(1);
            ((m, k, seed), v)
        })
        .collect()
}

/// Progress of an experiment's runs on stderr (drawn only on a terminal).
fn progress(runs: usize) -> ProgressBar {
    let bar = ProgressBar::new(runs as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "optik experiment [{elapsed_precise}] {bar:30} {pos}/{len} heuristic runs (eta {eta})",
        )
        .expect("valid template"),
    );
    bar
}

fn csv_bytes<T: serde::Serialize>(rows: &[T]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).map_err(|e| internal(format!("csv: {e}")))?;
    }
    w.into_inner().map_err(|e| internal(format!("csv: {e}")))
}

fn svg(name: String, svg: String) -> File {
    File {
        name,
        bytes: svg.into_bytes(),
    }
}

/// One k_i-anonymity run of a grid and its baselines.
#[derive(serde::Serialize)]
struct Run {
    heuristic: &'static str,
    k_l: u32,
    k_m: u32,
    k_c: u32,
    /// Distribution name or `f_l=..,f_c=..`.
    shares: String,
    f_l: f64,
    f_m: f64,
    f_c: f64,
    assign: &'static str,
    seed: u64,
    dbil_ki: f64,
    /// DBIL of the baseline this experiment compares with (see the summary).
    dbil_kc: Option<f64>,
    dbil_km: Option<f64>,
    /// Deletion experiment: DBIL of k_m-anonymity of the others plus the deleted records' cost.
    dbil_deletion: Option<f64>,
    deleted: Option<usize>,
    ratio_kc: Option<f64>,
    ratio_km: Option<f64>,
    ratio_deletion: Option<f64>,
}

/// The k_i runs of a grid: (heuristic, levels, shares, shares label, correlated) × seeds.
type Point = (Heuristic, Levels, [f64; 3], String, bool);

fn run_points(s: &Sample, points: &[Point], seeds: &[u64], deletion: bool) -> Result<Vec<Run>> {
    let jobs: Vec<(usize, u64)> = (0..points.len())
        .flat_map(|p| seeds.iter().map(move |&seed| (p, seed)))
        .collect();
    let mut keys: Vec<(Heuristic, u32, u64)> = jobs
        .iter()
        .flat_map(|&(p, seed)| {
            let (m, l, ..) = points[p];
            [uniform_key(m, l[1], seed), uniform_key(m, l[2], seed)]
        })
        .collect();
    keys.sort_by_key(|k| (k.0.name(), k.1, k.2));
    keys.dedup();
    let bar = progress(keys.len() + jobs.len() * if deletion { 2 } else { 1 });
    let base = uniform_runs(s, &keys, &bar);
    let runs = jobs
        .par_iter()
        .map(|&(p, seed)| {
            let (m, l, shares, label, correlated) = &points[p];
            let k = s.k(*l, *shares, *correlated, seed)?;
            let ki = s.dbil(*m, &k, seed);
            let (kc, km) = (
                base[&uniform_key(*m, l[2], seed)],
                base[&uniform_key(*m, l[1], seed)],
            );
            let del = if deletion {
                Some(s.dbil_after_deletion(*m, &k, l[1], seed)?)
            } else {
                None
            };
            bar.inc(if deletion { 2 } else { 1 });
            let ratio = |x: f64| if ki > 0.0 { x / ki } else { f64::NAN };
            Ok(Run {
                heuristic: m.name(),
                k_l: l[0],
                k_m: l[1],
                k_c: l[2],
                shares: label.clone(),
                f_l: shares[0],
                f_m: shares[1],
                f_c: shares[2],
                assign: if *correlated { "correlated" } else { "random" },
                seed,
                dbil_ki: ki,
                dbil_kc: (!deletion).then_some(kc),
                dbil_km: Some(km),
                dbil_deletion: del.map(|d| d.0),
                deleted: del.map(|d| d.1),
                ratio_kc: (!deletion).then(|| ratio(kc)),
                ratio_km: Some(ratio(km)),
                ratio_deletion: del.map(|d| ratio(d.0)),
            })
        })
        .collect();
    bar.finish_and_clear();
    runs
}

/// Mean of a ratio over the runs matching `keep`.
fn mean_of(
    runs: &[Run],
    keep: impl Fn(&Run) -> bool,
    value: impl Fn(&Run) -> Option<f64>,
) -> Option<f64> {
    let v: Vec<f64> = runs.iter().filter(|r| keep(r)).filter_map(value).collect();
    (!v.is_empty()).then(|| mean(&v))
}

fn cell(v: Option<f64>) -> String {
    v.map_or("–".into(), |x| format!("{x:.3}"))
}

/// Table 5.3.
pub(super) fn table53(s: &Sample, a: &ExperimentOptions) -> Result<Vec<File>> {
    let mut points: Vec<Point> = Vec::new();
    for &m in &a.heuristics {
        for (_, l) in LEVELS {
            for (name, shares) in PRESETS {
                for correlated in [false, true] {
                    points.push((m, l, shares, name.to_string(), correlated));
                }
            }
        }
    }
    let runs = run_points(s, &points, &a.seeds, false)?;
    let mut md = String::from("# Table 5.3: k-anonymity over k_i-anonymity (DBIL ratios)\n\n");
    md.push_str("Each cell: mean over the seeds of DBIL(k-anonymity) / DBIL(k_i-anonymity) with **random / correlated** k_i. Greedy k-member uses the personalised cost (eq. 5.5); k_i-anonymity runs the heuristics' k_i form, k-anonymity the same heuristic with one k for every record.\n");
    for (what, value) in [
        (
            "k = k_c (scenario 2, the seed's table 5.3)",
            (|r: &Run| r.ratio_kc) as fn(&Run) -> Option<f64>,
        ),
        ("k = k_m (scenario 1)", |r: &Run| r.ratio_km),
    ] {
        md.push_str(&format!("\n## {what}\n\n| heuristic | constraints | "));
        md.push_str(&PRESETS.iter().map(|p| p.0).collect::<Vec<_>>().join(" | "));
        md.push_str(" |\n|---|---|---:|---:|---:|---:|\n");
        for &m in &a.heuristics {
            for (lname, l) in LEVELS {
                md.push_str(&format!("| {} | {lname} ({}) |", m.name(), join3(l)));
                for (name, _) in PRESETS {
                    let get = |corr: &str| {
                        mean_of(
                            &runs,
                            |r| {
                                r.heuristic == m.name()
                                    && r.k_c == l[2]
                                    && r.shares == name
                                    && r.assign == corr
                            },
                            value,
                        )
                    };
                    md.push_str(&format!(
                        " {} / {} |",
                        cell(get("random")),
                        cell(get("correlated"))
                    ));
                }
                md.push('\n');
            }
        }
    }
    md.push_str("\nFiles: `table53.csv` (every run: DBIL of k_i-, k_c- and k_m-anonymity, and the ratios).\n");
    Ok(vec![
        File {
            name: SUMMARY.into(),
            bytes: md.into_bytes(),
        },
        File {
            name: "table53.csv".into(),
            bytes: csv_bytes(&runs)?,
        },
    ])
}

fn join3(l: Levels) -> String {
    format!("{}, {}, {}", l[0], l[1], l[2])
}

/// Heatmap over the (f_l, f_c) grid: rows f_c from 100 down to 0, columns f_l from 0 up.
fn frequency_heatmap(
    step: u32,
    title: String,
    value_label: &str,
    get: impl Fn(u32, u32) -> Option<f64>,
) -> Result<String> {
    let ticks: Vec<u32> = (0..=100).step_by(step as usize).collect();
    let values = ticks
        .iter()
        .rev()
        .map(|&fc| {
            ticks
                .iter()
                .map(|&fl| if fl + fc <= 100 { get(fl, fc) } else { None })
                .collect()
        })
        .collect();
    plot::heatmap(&Heatmap {
        title,
        x_label: "f_l: liberals (%)".into(),
        y_label: "f_c: conservatives (%)".into(),
        col_labels: ticks.iter().map(u32::to_string).collect(),
        row_labels: ticks.iter().rev().map(u32::to_string).collect(),
        values,
        value_label: value_label.into(),
    })
}

fn grid_points(heuristics: &[Heuristic], step: u32) -> Vec<Point> {
    let mut points = Vec::new();
    for &m in heuristics {
        for (_, l) in LEVELS {
            for (fl, fc) in frequency_grid(step) {
                let shares = [
                    fl as f64 / 100.0,
                    (100 - fl - fc) as f64 / 100.0,
                    fc as f64 / 100.0,
                ];
                points.push((m, l, shares, format!("f_l={fl},f_c={fc}"), false));
            }
        }
    }
    points
}

/// A Markdown table of the grid's ratio range per heatmap, and how many cells favour k_i.
fn grid_summary(md: &mut String, rows: &[(String, Vec<f64>)]) {
    md.push_str("| picture | cells | min | median | max | cells with ratio > 1 (k_i better) |\n|---|---:|---:|---:|---:|---:|\n");
    for (name, v) in rows {
        let mut v = v.clone();
        v.sort_by(f64::total_cmp);
        let better = v.iter().filter(|&&x| x > 1.0 + 1e-9).count();
        md.push_str(&format!(
            "| [`{name}`]({name}) | {} | {:.3} | {:.3} | {:.3} | {better} |\n",
            v.len(),
            v[0],
            v[v.len() / 2],
            v[v.len() - 1]
        ));
    }
}

/// Figures 5.5–5.8.
pub(super) fn frequency(s: &Sample, a: &ExperimentOptions) -> Result<Vec<File>> {
    let runs = run_points(s, &grid_points(&a.heuristics, a.step), &a.seeds, false)?;
    let mut files = Vec::new();
    let mut summary = Vec::new();
    for (baseline, fig_low, fig_high) in [("km", "5.5", "5.6"), ("kc", "5.7", "5.8")] {
        for (lname, l) in LEVELS {
            for &m in &a.heuristics {
                let get = |fl: u32, fc: u32| {
                    mean_of(
                        &runs,
                        |r| {
                            r.heuristic == m.name()
                                && r.k_c == l[2]
                                && r.shares == format!("f_l={fl},f_c={fc}")
                        },
                        |r| {
                            if baseline == "km" {
                                r.ratio_km
                            } else {
                                r.ratio_kc
                            }
                        },
                    )
                };
                let name = format!("frequency-{baseline}-{lname}-{}.svg", m.name());
                let fig = if lname == "low" { fig_low } else { fig_high };
                let title = format!(
                    "Fig. {fig}: {} DBIL({}-anonymity) / DBIL(k_i), {}",
                    m.name(),
                    if baseline == "km" { "k_m" } else { "k_c" },
                    levels_name(l)
                );
                files.push(svg(
                    name.clone(),
                    frequency_heatmap(a.step, title, "ratio", get)?,
                ));
                let values: Vec<f64> = frequency_grid(a.step)
                    .into_iter()
                    .filter_map(|(fl, fc)| get(fl, fc))
                    .collect();
                summary.push((name, values));
            }
        }
    }
    let mut md = String::from("# Figures 5.5–5.8: the (f_l, f_c) sweep\n\n");
    md.push_str(&format!("Each heatmap cell: mean over the seeds of DBIL(k-anonymity) / DBIL(k_i-anonymity), k = k_m (figures 5.5, 5.6: scenario 1) or k = k_c (figures 5.7, 5.8: scenario 2), k_i drawn at random with shares f_l, f_m = 100 − f_l − f_c, f_c (percent, step {}). Above 1: k_i-anonymity loses less.\n\n", a.step));
    grid_summary(&mut md, &summary);
    md.push_str("\nFiles: `frequency.csv` (every run).\n");
    files.push(File {
        name: SUMMARY.into(),
        bytes: md.into_bytes(),
    });
    files.push(File {
        name: "frequency.csv".into(),
        bytes: csv_bytes(&runs)?,
    });
    Ok(files)
}

/// Figure 5.10.
pub(super) fn deletion(s: &Sample, a: &ExperimentOptions) -> Result<Vec<File>> {
    let runs = run_points(s, &grid_points(&a.heuristics, a.step), &a.seeds, true)?;
    let mut files = Vec::new();
    let mut summary = Vec::new();
    for (lname, l) in LEVELS {
        for &m in &a.heuristics {
            let get = |fl: u32, fc: u32| {
                mean_of(
                    &runs,
                    |r| {
                        r.heuristic == m.name()
                            && r.k_c == l[2]
                            && r.shares == format!("f_l={fl},f_c={fc}")
                    },
                    |r| r.ratio_deletion,
                )
            };
            let name = format!("deletion-{lname}-{}.svg", m.name());
            let title = format!(
                "Fig. 5.10: {} DBIL(delete conservatives, k_m) / DBIL(k_i), {}",
                m.name(),
                levels_name(l)
            );
            files.push(svg(
                name.clone(),
                frequency_heatmap(a.step, title, "ratio", get)?,
            ));
            summary.push((
                name,
                frequency_grid(a.step)
                    .into_iter()
                    .filter_map(|(fl, fc)| get(fl, fc))
                    .collect(),
            ));
        }
    }
    let mut md = String::from("# Figure 5.10: deleting the conservatives (scenario 3)\n\n");
    md.push_str(&format!("Each cell: mean over the seeds of [DBIL of k_m-anonymity of the records with k_i ≤ k_m + {} per deleted conservative] / DBIL(k_i-anonymity of every record); a deleted record costs the largest record distance, one unit per attribute (the seed's 8 on Adult). Step {} %.\n\n", s.ds.qi.max_distance(), a.step));
    grid_summary(&mut md, &summary);
    md.push_str("\nFiles: `deletion.csv` (every run, with the number of deleted records).\n");
    files.push(File {
        name: SUMMARY.into(),
        bytes: md.into_bytes(),
    });
    files.push(File {
        name: "deletion.csv".into(),
        bytes: csv_bytes(&runs)?,
    });
    Ok(files)
}

/// Figure 5.9.
pub(super) fn scale(s: &Sample, a: &ExperimentOptions) -> Result<Vec<File>> {
    let personal = PRESETS
        .iter()
        .find(|p| p.0 == "personal")
        .map(|p| p.1)
        .unwrap_or_default();
    let kms: Vec<u32> = (3..=a.max_km).collect();
    let max_scale = a.max_km - 2;
    let mut points: Vec<Point> = Vec::new();
    for &m in &a.heuristics {
        for &km in &kms {
            for sc in 1..=km - 2 {
                points.push((
                    m,
                    [km - sc, km, km + sc],
                    personal,
                    format!("scale={sc}"),
                    false,
                ));
            }
        }
    }
    let runs = run_points(s, &points, &a.seeds, false)?;
    let mut files = Vec::new();
    let mut summary = Vec::new();
    for &m in &a.heuristics {
        let get = |km: u32, sc: u32| {
            mean_of(
                &runs,
                |r| r.heuristic == m.name() && r.k_m == km && r.shares == format!("scale={sc}"),
                |r| r.ratio_kc,
            )
        };
        let scales: Vec<u32> = (1..=max_scale).rev().collect();
        let values = scales
            .iter()
            .map(|&sc| {
                kms.iter()
                    .map(|&km| if sc + 2 <= km { get(km, sc) } else { None })
                    .collect()
            })
            .collect();
        let name = format!("scale-{}.svg", m.name());
        files.push(svg(
            name.clone(),
            plot::heatmap(&Heatmap {
                title: format!("Fig. 5.9: {} DBIL(k_c) / DBIL(k_i), personal profile; k_l = k_m − s, k_c = k_m + s", m.name()),
                x_label: "k_m".into(),
                y_label: "scale s".into(),
                col_labels: kms.iter().map(u32::to_string).collect(),
                row_labels: scales.iter().map(u32::to_string).collect(),
                values,
                value_label: "ratio".into(),
            })?,
        ));
        let v: Vec<f64> = kms
            .iter()
            .flat_map(|&km| (1..=km - 2).map(move |sc| (km, sc)))
            .filter_map(|(km, sc)| get(km, sc))
            .collect();
        summary.push((name, v));
    }
    let mut md = String::from("# Figure 5.9: the scale sweep\n\n");
    md.push_str(&format!("Each cell: mean over the seeds of DBIL(k_c-anonymity) / DBIL(k_i-anonymity), personal-profile shares (82.3 / 16.8 / 0.9 %) drawn at random, k_l = k_m − s ≥ 2, k_c = k_m + s, k_m = 3..{}.\n\n", a.max_km));
    grid_summary(&mut md, &summary);
    md.push_str("\nFiles: `scale.csv` (every run).\n");
    files.push(File {
        name: SUMMARY.into(),
        bytes: md.into_bytes(),
    });
    files.push(File {
        name: "scale.csv".into(),
        bytes: csv_bytes(&runs)?,
    });
    Ok(files)
}
