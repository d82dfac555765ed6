//! The self-contained HTML report of a run: the partition picture,
//! the metrics, the solver time line and a preview of the release, with inline SVG and CSS so
//! the file opens anywhere, offline, without scripts.

use crate::release::Release;
use crate::report::Report;
use std::fmt::Write;

/// Rows of the release shown in the preview.
pub(crate) const PREVIEW_ROWS: usize = 20;

/// HTML-escapes text for element content and attribute values.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const CSS: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}\
h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}\
th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}\
.figure svg{max-width:100%;height:auto;border:1px solid #eee}.note{color:#555;font-size:.92em}\
.ok{color:#1a7f37;font-weight:bold}.bad{color:#b42318;font-weight:bold}\
.preview{overflow-x:auto}";

fn num(x: f64) -> String {
    if x == 0.0 || (x.abs() >= 1e-3 && x.abs() < 1e7) {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{x:.4e}")
    }
}

fn row(out: &mut String, name: &str, value: &str, note: &str) {
    let _ = writeln!(
        out,
        "<tr><th>{}</th><td class=\"num\">{}</td><td class=\"note\">{}</td></tr>",
        escape(name),
        escape(value),
        escape(note)
    );
}

/// The heuristics beside the release: each one's objective and ratio (nothing when the run
/// compared none).
fn heuristics_table(h: &mut String, report: &Report) {
    if report.heuristics.is_empty() {
        return;
    }
    let constrained = report
        .heuristics
        .iter()
        .any(|c| c.meets_constraints.is_some());
    let _ = writeln!(
        h,
        "<h3 id=\"heuristics\">Compared with the heuristics</h3>\n<p class=\"note\">Each heuristic's {} and its ratio to this release's {} ({}).</p>\n<table>\n<tr><th>heuristic</th><th>{}</th><th>ratio</th><th>classes</th>{}</tr>",
        report.criterion.name(),
        num(report.objective),
        if report.criterion.maximise() {
            "below 1: the heuristic separates the classes less"
        } else {
            "above 1: the heuristic loses more"
        },
        report.criterion.name(),
        if constrained { "<th>meets the class constraints</th>" } else { "" }
    );
    for c in &report.heuristics {
        let meets = match (c.meets_constraints, c.repaired) {
            (Some(true), Some(true)) => "<td>yes, after a repair</td>",
            (Some(true), _) => "<td>yes</td>",
            (Some(false), _) => "<td>no</td>",
            (None, _) => "",
        };
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>{meets}</tr>",
            escape(crate::partition::compare::display_name(&c.method)),
            num(c.objective),
            c.ratio.map_or("–".to_string(), |r| format!("{r:.3}")),
            c.classes
        );
    }
    h.push_str("</table>\n");
}

/// The whole document. `partition_svg` and `timeline_svg` are SVG documents (from
/// [`crate::report::plot`]); the time line section says so when the run has none.
pub(crate) fn render(
    report: &Report,
    partition_svg: &str,
    timeline_svg: Option<&str>,
    release: &Release,
) -> String {
    let mut h = String::new();
    let title = format!(
        "optik: {} release of {}",
        report.method,
        std::path::Path::new(&report.input.path)
            .file_name()
            .map(|f| f.to_string_lossy().to_string())
            .unwrap_or_else(|| report.input.path.clone())
    );
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let verdict = if report.verified {
        "<span class=\"ok\">verified k_i-anonymous</span> (the release was re-read and checked independently)"
    } else {
        "<span class=\"bad\">NOT verified</span>"
    };
    let _ = writeln!(
        h,
        "<p id=\"summary\">{} records in {} classes; status <b>{}</b>; {}.</p>",
        report.n,
        report.classes,
        escape(&report.status),
        verdict
    );

    h.push_str("<section id=\"partition\">\n<h2>Partition</h2>\n");
    h.push_str(
        "<p class=\"note\">The picture places records by their original (not generalised) values: \
         it shows the data before anonymisation and is not part of the release.</p>\n",
    );
    h.push_str("<div class=\"figure\">\n");
    h.push_str(partition_svg);
    h.push_str("\n</div>\n</section>\n");

    h.push_str("<section id=\"metrics\">\n<h2>Metrics</h2>\n<table>\n");
    h.push_str("<tr><th>quantity</th><th>value</th><th>meaning</th></tr>\n");
    let m = &report.metrics;
    row(&mut h, "method", &report.method, "");
    row(
        &mut h,
        "status",
        &report.status,
        "heuristic, or what the exact engine proved",
    );
    row(
        &mut h,
        &format!("objective ({})", report.criterion.name()),
        &num(report.objective),
        "the optimised criterion, distance units",
    );
    if let Some(lb) = report.lower_bound {
        row(
            &mut h,
            "lower bound",
            &num(lb),
            "proven by the exact engine",
        );
    }
    row(&mut h, "DBIL", &num(m.dbil), "Σ |e|·diameter(e)");
    row(
        &mut h,
        "SBIL",
        &num(m.sbil),
        "Σ |e|·Σ_A spread_A(e)/spread_A(D)",
    );
    row(&mut h, "DM", &num(m.dm), "discernibility");
    row(
        &mut h,
        "C_AVG",
        &num(m.cavg),
        "normalised average class size (1 is best)",
    );
    row(
        &mut h,
        "max diameter",
        &num(m.max_diameter),
        "largest class diameter",
    );
    row(
        &mut h,
        "split",
        &m.split.map_or("–".to_string(), num),
        "smallest distance between classes",
    );
    row(
        &mut h,
        "WCSD",
        &num(m.wcsd),
        "within-class sum of distances",
    );
    row(&mut h, "time (s)", &num(report.time_s), "whole run");
    h.push_str("</table>\n");
    heuristics_table(&mut h, report);
    h.push_str("<h3>Constraints</h3>\n<p>");
    h.push_str(&escape(&report.constraints.description));
    h.push_str("</p>\n<table>\n<tr><th>k</th><th>records</th></tr>\n");
    for (k, c) in &report.constraints.k_histogram {
        let _ = writeln!(
            h,
            "<tr><td class=\"num\">{k}</td><td class=\"num\">{c}</td></tr>"
        );
    }
    h.push_str("</table>\n<h3>Class sizes</h3>\n<table>\n<tr><th>size</th><th>classes</th></tr>\n");
    for (s, c) in &report.class_sizes {
        let _ = writeln!(
            h,
            "<tr><td class=\"num\">{s}</td><td class=\"num\">{c}</td></tr>"
        );
    }
    h.push_str("</table>\n</section>\n");

    h.push_str("<section id=\"timeline\">\n<h2>Time line</h2>\n");
    match timeline_svg {
        Some(svg) => {
            h.push_str("<div class=\"figure\">\n");
            h.push_str(svg);
            h.push_str("\n</div>\n");
        }
        None => h.push_str(
            "<p class=\"note\">This run has no time line: heuristics produce a single solution.</p>\n",
        ),
    }
    h.push_str("</section>\n");

    let shown = release.rows.len().min(PREVIEW_ROWS);
    let _ = writeln!(
        h,
        "<section id=\"release\">\n<h2>Release preview</h2>\n<p class=\"note\">The first {shown} of {} released rows ({}).</p>\n<div class=\"preview\"><table>",
        release.rows.len(),
        escape(&report.outputs.release)
    );
    h.push_str("<tr>");
    for c in &release.headers {
        let _ = write!(h, "<th>{}</th>", escape(c));
    }
    h.push_str("</tr>\n");
    for r in release.rows.iter().take(PREVIEW_ROWS) {
        h.push_str("<tr>");
        for v in r {
            let _ = write!(h, "<td>{}</td>", escape(v));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table></div>\n</section>\n");
    let _ = writeln!(
        h,
        "<footer class=\"note\"><p>optik {}; seed {}.</p></footer>\n</body>\n</html>",
        report.optik_version, report.seed
    );
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("<a & 'b'>\""), "&lt;a &amp; &#39;b&#39;&gt;&quot;");
    }
}
