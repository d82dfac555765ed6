//! The benchmark's results: one row per grid point, each compared with the best proven
//! optimum (or, when none is proven, the best bound) of its instance, seed and criterion, and
//! written as `results.csv` and a Markdown table.

use crate::error::{internal, Result};
use serde::Serialize;

/// One run of the grid, as written to `results.csv`.
#[derive(Clone, Debug, Default, Serialize)]
pub(super) struct Row {
    pub instance: String,
    pub n: usize,
    pub method: String,
    /// Exact engine that ran (empty for heuristics).
    pub engine: String,
    pub form: String,
    /// Greedy k-member cost (empty for other methods).
    pub cost: String,
    pub criterion: String,
    pub seed: u64,
    /// `heuristic`, `optimal`, `feasible`, or `error` (see `note`).
    pub status: String,
    /// Criterion value of the partition (see [`objective_note`]).
    pub objective: Option<f64>,
    /// Proven bound of an exact run.
    pub lower_bound: Option<f64>,
    /// Relative gap of an exact run.
    pub gap: Option<f64>,
    pub time_s: f64,
    /// Search nodes (CP) or branch-and-bound nodes (MIP, column generation).
    pub nodes: Option<u64>,
    /// Columns generated (column generation) or variables (MIP).
    pub columns: Option<usize>,
    /// DBIL of the partition (float metric, distance units).
    pub dbil: Option<f64>,
    /// objective / reference (reference / objective for split): 1 is the optimum.
    pub ratio: Option<f64>,
    /// `optimum`, `lower_bound` (no proven optimum), or empty (no exact run to compare with).
    pub ratio_to: String,
    /// Result of the independent k_i check of the released table: `ok` or `FAILED (...)`.
    pub check: String,
    pub classes: Option<usize>,
    /// Error message of a failed run, or the engine's note.
    pub note: String,
    /// Whether this row's partition solves the instance's own k_i (form ki); only those rows
    /// are references for the ratios.
    #[serde(skip)]
    pub own_k: bool,
    #[serde(skip)]
    pub maximise: bool,
    /// Improving solutions of an exact run (criterion value and DBIL of each), for its picture.
    #[serde(skip)]
    pub timeline: Vec<crate::partition::exact::TimelineEntry>,
}

/// What the `objective` column holds.
pub(super) fn objective_note(scale: f64) -> String {
    format!(
        "objective: the criterion on the integer instance the exact engines solve (distances × {scale}, rounded), \
         for every method, so ratios compare like with like (the float metric above {} records, where no exact run is possible)",
        crate::partition::exact::MAX_EXACT_RECORDS
    )
}

/// Fills `ratio` and `ratio_to`: each row against the best proven optimum of its instance,
/// seed and criterion among the exact runs of form ki, or the best bound when none is proven.
pub(super) fn fill_ratios(rows: &mut [Row]) {
    let key = |r: &Row| (r.instance.clone(), r.seed, r.criterion.clone());
    let refs: Vec<(usize, Option<f64>, Option<f64>)> = (0..rows.len())
        .map(|i| {
            let r = &rows[i];
            let better = |a: f64, b: f64| if r.maximise { a.max(b) } else { a.min(b) };
            // The best bound is the tightest: the largest lower bound when minimising.
            let tighter = |a: f64, b: f64| if r.maximise { a.min(b) } else { a.max(b) };
            let peers = rows
                .iter()
                .filter(|p| p.own_k && p.method == "optimal" && key(p) == key(r));
            let mut optimum: Option<f64> = None;
            let mut bound: Option<f64> = None;
            for p in peers {
                if let (true, Some(v)) = (p.status == "optimal", p.objective) {
                    optimum = Some(optimum.map_or(v, |o| better(o, v)));
                }
                if let Some(b) = p.lower_bound {
                    bound = Some(bound.map_or(b, |o| tighter(o, b)));
                }
            }
            (i, optimum, bound)
        })
        .collect();
    for (i, optimum, bound) in refs {
        let r = &mut rows[i];
        let (reference, to) = match (optimum, bound) {
            (Some(o), _) => (o, "optimum"),
            (None, Some(b)) => (b, "lower_bound"),
            (None, None) => continue,
        };
        if let Some(v) = r.objective {
            let (num, den) = if r.maximise {
                (reference, v)
            } else {
                (v, reference)
            };
            r.ratio = Some(if num == den {
                1.0
            } else if den == 0.0 {
                f64::INFINITY
            } else {
                num / den
            });
            r.ratio_to = to.to_string();
        }
    }
}

/// `results.csv`.
pub(super) fn to_csv(rows: &[Row]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)
            .map_err(|e| internal(format!("results.csv: {e}")))?;
    }
    w.into_inner()
        .map_err(|e| internal(format!("results.csv: {e}")))
}

/// What the Markdown header says about the machine and the way the runs were made.
pub(super) struct Header<'a> {
    pub spec: &'a str,
    pub description: Option<&'a str>,
    pub date: String,
    pub cores: usize,
    pub heuristic_threads: usize,
    pub wall_s: f64,
    pub instances: Vec<String>,
    pub scale: f64,
}

fn num(v: Option<f64>, digits: usize) -> String {
    match v {
        Some(x) if x.is_infinite() => "∞".to_string(),
        Some(x) => format!("{x:.digits$}"),
        None => String::new(),
    }
}

/// `results.md`: the header, a summary of ratios per method, and the full table.
pub(super) fn to_markdown(h: &Header, rows: &[Row]) -> String {
    let mut s = String::from("# optik bench results\n\n");
    if let Some(d) = h.description {
        s.push_str(&format!("{}\n\n", d.trim()));
    }
    s.push_str(&format!(
        "- spec: `{}` (copied to `spec.toml`)\n- date: {} (UTC)\n- machine: {} cores; optik {}\n- wall time: {:.1} s\n",
        h.spec,
        h.date,
        h.cores,
        env!("CARGO_PKG_VERSION"),
        h.wall_s
    ));
    s.push_str(&format!(
        "- timed runs (exact engines) ran sequentially, one at a time, with nothing else running; {}\n",
        if h.heuristic_threads > 1 {
            format!(
                "heuristic runs ran in parallel on {} rayon threads before them (their times are indicative only)",
                h.heuristic_threads
            )
        } else {
            "heuristic runs also ran one at a time".to_string()
        }
    ));
    s.push_str(&format!("- {}\n", objective_note(h.scale)));
    s.push_str("- ratio: objective / reference (reference / objective for split), the reference being the best proven optimum of the same instance, seed and criterion among the exact runs of form ki (`ratio_to = optimum`), else their best bound (`ratio_to = lower_bound`)\n");
    s.push_str("- check: the independent k_i check of every released table (`ok` or `FAILED`)\n");
    s.push_str("- instances:\n");
    for i in &h.instances {
        s.push_str(&format!("  - {i}\n"));
    }
    s.push_str("\n## Ratio to the reference\n\n");
    s.push_str("| method | form | criterion | runs | mean | max | ratio_to |\n|---|---|---|---:|---:|---:|---|\n");
    let mut groups: Vec<(String, String, String, String)> = Vec::new();
    for r in rows.iter().filter(|r| r.ratio.is_some()) {
        let g = (
            method_label(r),
            r.form.clone(),
            r.criterion.clone(),
            r.ratio_to.clone(),
        );
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    for g in &groups {
        let ratios: Vec<f64> = rows
            .iter()
            .filter(|r| {
                (
                    method_label(r),
                    r.form.clone(),
                    r.criterion.clone(),
                    r.ratio_to.clone(),
                ) == *g
            })
            .filter_map(|r| r.ratio)
            .collect();
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        let max = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            g.0,
            g.1,
            g.2,
            ratios.len(),
            num(Some(mean), 4),
            num(Some(max), 4),
            g.3
        ));
    }
    if groups.is_empty() {
        s.push_str("| (no exact run to compare with) | | | | | | |\n");
    }
    s.push_str("\n## Runs\n\n");
    s.push_str("| instance | n | method | engine | form | cost | criterion | seed | status | objective | lower bound | gap | time (s) | nodes | columns | dbil | ratio | ratio_to | check |\n");
    s.push_str(
        "|---|---:|---|---|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n",
    );
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {} | {} | {} | {} | {} | {} |\n",
            r.instance,
            r.n,
            r.method,
            r.engine,
            r.form,
            r.cost,
            r.criterion,
            r.seed,
            r.status,
            num(r.objective, 4),
            num(r.lower_bound, 4),
            num(r.gap, 4),
            r.time_s,
            r.nodes.map_or(String::new(), |v| v.to_string()),
            r.columns.map_or(String::new(), |v| v.to_string()),
            num(r.dbil, 4),
            num(r.ratio, 4),
            r.ratio_to,
            r.check
        ));
    }
    let errors: Vec<&Row> = rows.iter().filter(|r| !r.note.is_empty()).collect();
    if !errors.is_empty() {
        s.push_str("\n## Notes\n\n");
        for r in errors {
            s.push_str(&format!(
                "- {} / {} / seed {}: {}\n",
                r.instance,
                method_label(r),
                r.seed,
                r.note
            ));
        }
    }
    s
}

/// `mdav`, `kmember (personalised)`, `optimal (colgen)`.
fn method_label(r: &Row) -> String {
    match (r.cost.is_empty(), r.engine.is_empty()) {
        (false, _) => format!("{} ({})", r.method, r.cost),
        (_, false) => format!("{} ({})", r.method, r.engine),
        _ => r.method.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(method: &str, status: &str, objective: f64, lb: Option<f64>, own_k: bool) -> Row {
        Row {
            instance: "a".into(),
            n: 10,
            method: method.into(),
            form: "ki".into(),
            criterion: "dbil".into(),
            seed: 1,
            status: status.into(),
            objective: Some(objective),
            lower_bound: lb,
            check: "ok".into(),
            own_k,
            ..Row::default()
        }
    }

    #[test]
    fn ratios_use_the_best_proven_optimum_else_the_best_bound() {
        let mut rows = vec![
            row("mdav", "heuristic", 12.0, None, true),
            row("optimal", "optimal", 10.0, Some(10.0), true),
            row("optimal", "feasible", 11.0, Some(9.0), false),
        ];
        fill_ratios(&mut rows);
        assert_eq!(rows[0].ratio, Some(1.2));
        assert_eq!(rows[0].ratio_to, "optimum");
        assert_eq!(rows[1].ratio, Some(1.0));
        assert_eq!(rows[2].ratio, Some(1.1));
        // No proven optimum: the largest lower bound of the form-ki exact runs.
        let mut rows = vec![
            row("kmember", "heuristic", 12.0, None, true),
            row("optimal", "feasible", 11.0, Some(8.0), true),
            row("optimal", "feasible", 11.5, Some(6.0), true),
        ];
        fill_ratios(&mut rows);
        assert_eq!(rows[0].ratio, Some(1.5));
        assert_eq!(rows[0].ratio_to, "lower_bound");
        // Nothing exact: no ratio.
        let mut rows = vec![row("mdav", "heuristic", 12.0, None, true)];
        fill_ratios(&mut rows);
        assert_eq!((rows[0].ratio, rows[0].ratio_to.as_str()), (None, ""));
    }

    #[test]
    fn split_ratios_are_inverted() {
        let mut rows = vec![
            row("mdav", "heuristic", 2.0, None, true),
            row("optimal", "optimal", 4.0, Some(4.0), true),
        ];
        for r in &mut rows {
            r.maximise = true;
            r.criterion = "split".into();
        }
        fill_ratios(&mut rows);
        assert_eq!(rows[0].ratio, Some(2.0));
    }
}
