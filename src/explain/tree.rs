//! The search tree of `optik explain` as SVG, written directly (rectangles, lines, text): one
//! `<g class="node">` per decision, under one `<g class="search">` root per solver call, edges
//! labelled with the decision, leaves coloured by outcome. Top-down tidy layout: leaves take
//! successive columns in depth-first order, a parent sits over the middle of its children.

use super::text::{lit, units, Names};
use optik_models::cp::explain::{Event, Leaf, Trace};
use std::fmt::Write;

const DX: f64 = 92.0;
const DY: f64 = 70.0;
const MARGIN: f64 = 40.0;
const TOP: f64 = 90.0;

/// Escapes text for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Tree positions: `x` column and depth of every item (search roots first, then nodes).
struct Layout {
    x: Vec<f64>,
    depth: Vec<usize>,
    columns: usize,
    max_depth: usize,
}

fn layout(children: &[Vec<usize>], roots: &[usize], total: usize) -> Layout {
    let mut l = Layout {
        x: vec![0.0; total],
        depth: vec![0; total],
        columns: 0,
        max_depth: 0,
    };
    // Iterative post-order walk (deep trees must not overflow the stack).
    for &r in roots {
        let mut stack: Vec<(usize, usize, bool)> = vec![(r, 0, false)];
        while let Some((v, d, done)) = stack.pop() {
            if done {
                let c = &children[v];
                l.x[v] = if c.is_empty() {
                    l.columns += 1;
                    (l.columns - 1) as f64
                } else {
                    (l.x[c[0]] + l.x[c[c.len() - 1]]) / 2.0
                };
                continue;
            }
            l.depth[v] = d;
            l.max_depth = l.max_depth.max(d);
            stack.push((v, d, true));
            for &c in children[v].iter().rev() {
                stack.push((c, d + 1, false));
            }
        }
    }
    l
}

/// The SVG document.
pub(crate) fn svg(t: &Trace, _names: &Names) -> String {
    let searches = t
        .events
        .iter()
        .filter(|e| matches!(e, Event::Search { .. }))
        .count()
        .max(1);
    // Items 0..searches are the search roots, searches + i is node i.
    let total = searches + t.nodes.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); total];
    for (i, nd) in t.nodes.iter().enumerate() {
        let parent = match nd.parent {
            Some(p) => searches + p,
            None => nd.search.clamp(1, searches) - 1,
        };
        children[parent].push(searches + i);
    }
    let roots: Vec<usize> = (0..searches).collect();
    let l = layout(&children, &roots, total);
    let px = |i: usize| MARGIN + l.x[i] * DX + DX / 2.0;
    let py = |i: usize| TOP + l.depth[i] as f64 * DY;
    let width = MARGIN * 2.0 + l.columns.max(1) as f64 * DX;
    let height = TOP + (l.max_depth + 1) as f64 * DY + MARGIN;
    let obj = t.criterion.name();

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let result = match &t.best {
        Some((_, v)) => format!("{}: {obj} = {}", t.status.name(), units(t, *v)),
        None => t.status.name().to_string(),
    };
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="22" font-size="14" font-weight="bold">optik explain: search tree ({} records, {obj}; {} decisions, {} conflicts; {})</text>"#,
        t.n,
        t.decisions,
        t.conflicts,
        esc(&result)
    );
    let legend = [
        ("#2e7d32", "solution (objective)"),
        ("#c62828", "conflict"),
        ("#ef6c00", "pruned by the bound"),
        ("#9e9e9e", "left by a restart / limit"),
        ("#1565c0", "inner decision"),
    ];
    for (i, (colour, text)) in legend.iter().enumerate() {
        let x = MARGIN + i as f64 * 170.0;
        let _ = writeln!(
            s,
            r#"<circle cx="{:.1}" cy="44" r="6" fill="{colour}"/><text x="{:.1}" y="48">{text}</text>"#,
            x + 6.0,
            x + 16.0
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{MARGIN}" y="66" fill="#555">Each search box is one solver call (later calls assume an objective better than the incumbent); edges carry the decision.</text>"##
    );
    // Edges first, so nodes are drawn over them.
    let _ = writeln!(s, r##"<g class="edges" stroke="#777" stroke-width="1">"##);
    for (p, cs) in children.iter().enumerate() {
        for &c in cs {
            let _ = writeln!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
                px(p),
                py(p) + 9.0,
                px(c),
                py(c) - 9.0
            );
        }
    }
    let _ = writeln!(s, "</g>");
    let mut bounds = t.events.iter().filter_map(|e| match e {
        Event::Search { bound, .. } => Some(*bound),
        _ => None,
    });
    for r in 0..searches {
        let what = match bounds.next().flatten() {
            Some(b) => esc(&lit(t, &b)),
            None => "any solution".to_string(),
        };
        let (x, y) = (px(r), py(r));
        let _ = writeln!(
            s,
            r##"<g class="search"><rect x="{:.1}" y="{:.1}" width="80" height="18" rx="3" fill="#eceff1" stroke="#455a64"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">search {}</text><text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#455a64" font-size="9">{what}</text></g>"##,
            x - 40.0,
            y - 9.0,
            y + 4.0,
            r + 1,
            y - 13.0
        );
    }
    for (i, nd) in t.nodes.iter().enumerate() {
        let item = searches + i;
        let (x, y) = (px(item), py(item));
        let (colour, kind, note) = match nd.leaf {
            Some(Leaf::Solution(v)) => ("#2e7d32", "solution", units(t, v)),
            Some(Leaf::Conflict) => ("#c62828", "conflict", "✗".to_string()),
            Some(Leaf::Pruned) => ("#ef6c00", "pruned", "bound".to_string()),
            None if children[item].is_empty() => ("#9e9e9e", "open", String::new()),
            None => ("#1565c0", "inner", String::new()),
        };
        let decision = esc(&lit(t, &nd.decision));
        let _ = writeln!(
            s,
            r##"<g class="node" data-kind="{kind}" data-level="{}"><title>decision {}: {decision} (level {})</title><text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#333" font-size="10">{decision}</text><circle cx="{x:.1}" cy="{y:.1}" r="9" fill="{colour}"/><text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="10" fill="{colour}">{}</text></g>"##,
            nd.level,
            i + 1,
            nd.level,
            y - 13.0,
            y + 22.0,
            esc(&note)
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}
