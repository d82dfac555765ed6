//! The benchmark's pictures: box plots of every method's ratio to the reference (seed 001
//! figure 6.6) and one time line per exact run (figures 6.2–6.5: each improving solution's
//! criterion value and DBIL), written next to `results.csv` and listed in `results.md`.

use super::results::Row;
use crate::error::Result;
use crate::report::plot::{self, BoxGroup, BoxPlot, Timeline, TimelinePoint};

/// Name of the box plot of ratios.
pub(super) const RATIOS_SVG: &str = "ratios.svg";

/// One picture of the output folder.
pub(super) struct Picture {
    /// File name inside the output folder.
    pub file: String,
    /// What it shows, for `results.md`.
    pub caption: String,
    pub svg: String,
}

/// Keeps letters, digits, `.`, `-` and `_` of a name; the rest become `_`.
fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Group label of a row in the box plot: method (engine or cost), form, and the criterion
/// when the grid has several.
fn group_label(r: &Row, criteria: usize) -> String {
    let mut s = r.method.clone();
    if !r.engine.is_empty() {
        s = format!("{s} ({})", r.engine);
    } else if !r.cost.is_empty() {
        s = format!("{s} ({})", r.cost);
    }
    s = format!("{s} {}", r.form);
    if criteria > 1 {
        s = format!("{s} {}", r.criterion);
    }
    s
}

/// The time line file of an exact run.
pub(super) fn timeline_file(r: &Row) -> String {
    file_safe(&format!(
        "timeline-{}-{}-{}-{}-seed{}.svg",
        r.instance, r.engine, r.form, r.criterion, r.seed
    ))
}

/// Every picture of a finished grid: `ratios.svg` when some row has a finite ratio, and a time
/// line for every exact run that recorded improving solutions.
pub(super) fn pictures(rows: &[Row]) -> Result<Vec<Picture>> {
    let mut out = Vec::new();
    let mut criteria: Vec<&str> = rows.iter().map(|r| r.criterion.as_str()).collect();
    criteria.sort_unstable();
    criteria.dedup();
    let mut groups: Vec<BoxGroup> = Vec::new();
    let mut to_bound = false;
    for r in rows {
        let Some(v) = r.ratio.filter(|v| v.is_finite()) else {
            continue;
        };
        to_bound |= r.ratio_to == "lower_bound";
        let name = group_label(r, criteria.len());
        match groups.iter_mut().find(|g| g.name == name) {
            Some(g) => g.values.push(v),
            None => groups.push(BoxGroup {
                name,
                values: vec![v],
            }),
        }
    }
    if !groups.is_empty() {
        let reference = if to_bound {
            "the best proven optimum, else the best bound"
        } else {
            "the proven optimum"
        };
        let caption = format!(
            "ratio of each run's objective to {reference} of its instance, seed and criterion, per method ({} runs)",
            groups.iter().map(|g| g.values.len()).sum::<usize>()
        );
        let svg = plot::boxplot(&BoxPlot {
            title: "Objective over the reference (1 = optimal)".into(),
            y_label: "ratio to the reference".into(),
            groups,
            reference: Some(1.0),
        })?;
        out.push(Picture {
            file: RATIOS_SVG.into(),
            caption,
            svg,
        });
    }
    for r in rows.iter().filter(|r| !r.timeline.is_empty()) {
        let t = Timeline {
            title: format!(
                "{} seed {}: {} ({}, form {}), {}",
                r.instance, r.seed, r.criterion, r.engine, r.form, r.status
            ),
            x_label: "elapsed seconds".into(),
            y_label: r.criterion.clone(),
            points: r
                .timeline
                .iter()
                .map(|e| TimelinePoint {
                    elapsed_s: e.elapsed_s,
                    value: e.objective,
                    secondary: (r.criterion != "dbil").then_some(e.dbil),
                    warm_start: e.warm_start,
                })
                .collect(),
            secondary_label: (r.criterion != "dbil").then(|| "dbil".to_string()),
            bound: r.lower_bound,
        };
        out.push(Picture {
            file: timeline_file(r),
            caption: format!(
                "time line of {} seed {} ({}, {}, form {}): {} improving solution{}{}",
                r.instance,
                r.seed,
                r.engine,
                r.criterion,
                r.form,
                r.timeline.len(),
                if r.timeline.len() == 1 { "" } else { "s" },
                if r.criterion != "dbil" {
                    ", each with its DBIL on the right-hand axis"
                } else {
                    ""
                }
            ),
            svg: plot::timeline(&t)?,
        });
    }
    Ok(out)
}

/// The `## Pictures` section of `results.md`.
pub(super) fn markdown(pictures: &[Picture]) -> String {
    let mut s = String::from("\n## Pictures\n\n");
    if pictures.is_empty() {
        s.push_str("(none: no ratio to a reference and no exact run with a time line)\n");
    }
    for p in pictures {
        s.push_str(&format!("- [`{}`]({}): {}\n", p.file, p.file, p.caption));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::exact::TimelineEntry;

    #[test]
    fn ratios_and_timelines_become_pictures() {
        let entry = |t: f64, v: f64| TimelineEntry {
            elapsed_s: t,
            objective: v,
            classes: 2,
            dbil: v * 2.0,
            warm_start: t == 0.0,
            neighbourhood: None,
        };
        let rows = vec![
            Row {
                instance: "a b".into(),
                method: "mdav".into(),
                form: "ki".into(),
                criterion: "diameter".into(),
                ratio: Some(1.2),
                ratio_to: "optimum".into(),
                ..Row::default()
            },
            Row {
                instance: "a b".into(),
                method: "optimal".into(),
                engine: "cp".into(),
                form: "ki".into(),
                criterion: "diameter".into(),
                seed: 3,
                status: "optimal".into(),
                ratio: Some(1.0),
                ratio_to: "optimum".into(),
                lower_bound: Some(1.0),
                timeline: vec![entry(0.0, 2.0), entry(0.5, 1.0)],
                ..Row::default()
            },
        ];
        let p = pictures(&rows).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].file, RATIOS_SVG);
        assert!(p[0].svg.contains("mdav ki") && p[0].svg.contains("optimal (cp) ki"));
        assert_eq!(p[1].file, "timeline-a_b-cp-ki-diameter-seed3.svg");
        assert!(p[1].svg.contains("dbil"));
        let md = markdown(&p);
        assert!(md.contains("(ratios.svg)") && md.contains("2 improving solutions"));
        // Without ratios or time lines: no picture, and the section says so.
        let none = pictures(&[Row::default()]).unwrap();
        assert!(none.is_empty());
        assert!(markdown(&none).contains("(none"));
    }
}
