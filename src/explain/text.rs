//! The text of `optik explain`: records named `r3` (with their input row in the legend),
//! classes `C1..`, the objective in distance units; premises grouped so that a Membership
//! explanation over eight records reads as one clause.

use crate::data::dataset::Dataset;
use optik_models::cp::explain::{Because, Event, Leaf, Lit, Op, Trace, Var};
use std::fmt::Write;

/// How records are named.
pub(crate) struct Names {
    /// Legend line of each record (without k_i).
    pub legend: Vec<String>,
}

impl Names {
    /// `r{i} (row R)`, R the 1-based data row (file line R + 1); with `values`, the record's
    /// quasi-identifier values too.
    pub(crate) fn new(ds: &Dataset, values: bool) -> Names {
        let cols: Vec<(String, Option<usize>)> = ds
            .qi
            .attributes
            .iter()
            .map(|a| {
                (
                    a.name.clone(),
                    ds.table.headers.iter().position(|h| *h == a.name),
                )
            })
            .collect();
        let legend = ds
            .rows
            .iter()
            .enumerate()
            .map(|(i, &row)| {
                let mut s = format!("r{i} (row {}, line {})", row + 1, row + 2);
                if values {
                    let v: Vec<String> = cols
                        .iter()
                        .filter_map(|(name, c)| {
                            c.map(|c| format!("{name}={}", ds.table.rows[row][c]))
                        })
                        .collect();
                    let _ = write!(s, ": {}", v.join(", "));
                }
                s
            })
            .collect();
        Names { legend }
    }
}

/// Facts about the run that the trace does not hold.
pub(crate) struct Header {
    pub input: String,
    pub k_source: String,
    pub search: &'static str,
}

/// A value of the objective in distance units.
pub(crate) fn units(t: &Trace, v: i64) -> String {
    let digits = t.scale.log10().ceil().clamp(0.0, 9.0) as usize;
    format!("{:.*}", digits, v as f64 / t.scale)
}

/// One atomic constraint, e.g. `r4 ∈ C2`, `class(r4) ≤ C2`, `dbil ≥ 1.250`.
pub(crate) fn lit(t: &Trace, l: &Lit) -> String {
    match l.var {
        Var::Record(i) => match l.op {
            Op::Eq => format!("r{i} ∈ C{}", l.value),
            Op::Ne => format!("r{i} ∉ C{}", l.value),
            Op::Le => format!("class(r{i}) ≤ C{}", l.value),
            Op::Ge => format!("class(r{i}) ≥ C{}", l.value),
        },
        Var::Objective => {
            let op = match l.op {
                Op::Eq => "=",
                Op::Ne => "≠",
                Op::Le => "≤",
                Op::Ge => "≥",
            };
            format!("{} {op} {}", t.criterion.name(), units(t, l.value as i64))
        }
    }
}

/// A conjunction with the records of equal relations grouped: `{r1, r2} ∉ C2 ∧ dbil ≤ 3.000`.
pub(crate) fn conjunction(t: &Trace, lits: &[Lit]) -> String {
    let mut groups: Vec<((Op, i32), Vec<usize>)> = Vec::new();
    let mut other = Vec::new();
    for l in lits {
        match l.var {
            Var::Record(i) => match groups.iter_mut().find(|(key, _)| *key == (l.op, l.value)) {
                Some((_, recs)) => recs.push(i),
                None => groups.push(((l.op, l.value), vec![i])),
            },
            Var::Objective => other.push(lit(t, l)),
        }
    }
    let mut parts: Vec<String> = groups
        .into_iter()
        .map(|((op, value), mut recs)| {
            recs.sort_unstable();
            recs.dedup();
            let first = lit(
                t,
                &Lit {
                    var: Var::Record(recs[0]),
                    op,
                    value,
                },
            );
            if recs.len() == 1 {
                first
            } else {
                let names: Vec<String> = recs.iter().map(|r| format!("r{r}")).collect();
                first.replacen(
                    &format!("r{}", recs[0]),
                    &format!("{{{}}}", names.join(", ")),
                    1,
                )
            }
        })
        .collect();
    parts.extend(other);
    if parts.is_empty() {
        "true (the k_i and distances alone)".to_string()
    } else {
        parts.join(" ∧ ")
    }
}

fn because(t: &Trace, b: &Because, propagator: &str) -> String {
    let by = if b.by == propagator {
        String::new()
    } else {
        format!(" [{}]", b.by)
    };
    let recomputed = if b.recomputed { " (recomputed)" } else { "" };
    format!("because {}{by}{recomputed}", conjunction(t, &b.premises))
}

/// The classes of a labelling: `C1 {r0, r1} C2 {r2, r3}`.
pub(crate) fn classes(labels: &[i32]) -> String {
    let mut ids: Vec<i32> = labels.to_vec();
    ids.sort_unstable();
    ids.dedup();
    ids.iter()
        .map(|&c| {
            let members: Vec<String> = labels
                .iter()
                .enumerate()
                .filter(|(_, &l)| l == c)
                .map(|(i, _)| format!("r{i}"))
                .collect();
            format!("C{c} {{{}}}", members.join(", "))
        })
        .collect::<Vec<_>>()
        .join("  ")
}

/// Said of a propagation that carries no explanation: pumpkin never asked for one and the
/// propagator run alone on the domains it saw does not derive it.
fn unexplained() -> &'static str {
    "(no explanation: pumpkin never asked for one and the propagator alone does not re-derive it)"
}

fn indent(level: usize) -> String {
    "  ".repeat(1 + level.min(20))
}

/// The whole trace as text.
pub(crate) fn render(t: &Trace, names: &Names, h: &Header) -> String {
    let mut s = String::new();
    let obj = t.criterion.name();
    let _ = writeln!(
        s,
        "optik explain: {}, {} records, {}, criterion {obj}, search {}",
        h.input, t.n, h.k_source, h.search
    );
    let _ = writeln!(
        s,
        "\nRecords (row = data row of the input, line = file line):"
    );
    for (i, l) in names.legend.iter().enumerate() {
        let _ = writeln!(s, "  {l}  k = {}", t.k[i]);
    }
    let _ = writeln!(
        s,
        "\nModel: class(r) ∈ C1..C{} for each record r (r0 is in C1, classes numbered by first record); \
         {obj} in distance units (integers of 1/{} inside the solver).",
        t.cmax, t.scale
    );
    let _ = writeln!(s, "Propagators: {}.", t.propagators.join(", "));
    if let Some(z) = t.lp_bound {
        let _ = writeln!(
            s,
            "DualBound: the set-partitioning LP solved before the search gives {obj} ≥ {}.",
            units(t, z.ceil() as i64)
        );
    }
    if let Some(c) = t.min_classes {
        let _ = writeln!(
            s,
            "Split: at least {c} classes (the class count of a first, unrecorded solution)."
        );
    }
    let _ = writeln!(
        s,
        "Explanations are the conjunctions each propagator posts with its propagation. pumpkin \
         asks for them only in conflict analysis; those it never asked for (root facts, branches \
         that end in a solution) are marked (recomputed): the propagator was run again, alone, on \
         the domains it saw, and gave this reason."
    );
    let _ = writeln!(s, "\nAt the root, before any decision:");
    let mut solutions = 0;
    let mut learned = 0;
    let mut step = 0;
    let mut conflict_in_search = false;
    for e in &t.events {
        match e {
            Event::Search { index, bound } => {
                conflict_in_search = false;
                let what = match bound {
                    None => "find any k_i-anonymous partition".to_string(),
                    Some(b) => format!("find a better partition, assuming {}", lit(t, b)),
                };
                let _ = writeln!(s, "\nSearch {index}: {what}");
            }
            Event::Decision { node } => {
                step += 1;
                let nd = &t.nodes[*node];
                let _ = writeln!(
                    s,
                    "{}#{step} decide {}   (level {})",
                    indent(nd.level.saturating_sub(1)),
                    lit(t, &nd.decision),
                    nd.level
                );
            }
            Event::Restart => {
                let _ = writeln!(s, "  restart: back to the root (learned nogoods are kept)");
            }
            Event::Propagation {
                level,
                propagator,
                changes,
            } => {
                let pad = indent(*level);
                let what: Vec<Lit> = changes.iter().map(|c| c.lit).collect();
                let mut fixed: Vec<Lit> = changes.iter().filter_map(|c| c.fixes).collect();
                fixed.dedup();
                let fixing = if fixed.is_empty() {
                    String::new()
                } else {
                    format!(", which fixes {}", conjunction(t, &fixed))
                };
                let _ = writeln!(s, "{pad}{propagator}: {}{fixing}", conjunction(t, &what));
                let first = &changes[0].because;
                if changes.iter().all(|c| c.because == *first) {
                    match first {
                        Some(b) => {
                            let _ = writeln!(s, "{pad}    {}", because(t, b, propagator));
                        }
                        None => {
                            let _ = writeln!(s, "{pad}    {}", unexplained());
                        }
                    }
                } else {
                    for c in changes {
                        let why = match &c.because {
                            Some(b) => because(t, b, propagator),
                            None => unexplained().to_string(),
                        };
                        let _ = writeln!(s, "{pad}    {}: {why}", lit(t, &c.lit));
                    }
                }
            }
            Event::Conflict {
                level,
                propagator,
                trigger,
                explanation,
                pruned,
            } => {
                conflict_in_search = true;
                let pad = indent(*level);
                let who = propagator.unwrap_or("a learned nogood");
                let kind = if *pruned {
                    "pruned (cannot beat the incumbent)"
                } else {
                    "conflict"
                };
                let trig = match trigger {
                    Some(l) => format!(", posting {} empties a domain", lit(t, l)),
                    None => String::new(),
                };
                let _ = writeln!(s, "{pad}✗ {kind} at level {level}: {who}{trig}");
                let _ = writeln!(
                    s,
                    "{pad}    these cannot all hold: {}",
                    conjunction(t, explanation)
                );
            }
            Event::Learned {
                nogood,
                backjump,
                asserted,
            } => {
                learned += 1;
                let pad = indent(*backjump);
                let _ = writeln!(
                    s,
                    "{pad}⇒ learned nogood {learned}: not ({})",
                    conjunction(t, nogood)
                );
                let forced = match asserted {
                    Some(a) => format!(", where it forces {}", lit(t, a)),
                    None => String::new(),
                };
                let _ = writeln!(s, "{pad}    back to level {backjump}{forced}");
            }
            Event::Solution { objective, labels } => {
                solutions += 1;
                let n_classes = {
                    let mut l = labels.clone();
                    l.sort_unstable();
                    l.dedup();
                    l.len()
                };
                let _ = writeln!(
                    s,
                    "  ★ solution {solutions}: {obj} = {} ({n_classes} classes): {}",
                    units(t, *objective),
                    classes(labels)
                );
            }
            Event::Exhausted { search } => {
                if !conflict_in_search {
                    let _ = writeln!(
                        s,
                        "  the assumption contradicts what is known at the root (no search needed)"
                    );
                }
                let _ = writeln!(
                    s,
                    "  search {search} exhausted: {}",
                    if t.best.is_some() {
                        "no better partition exists"
                    } else {
                        "no k_i-anonymous partition exists"
                    }
                );
            }
            Event::Stopped => {
                let _ = writeln!(
                    s,
                    "  stopped: decision or time limit reached (the result is not proven optimal)"
                );
            }
        }
    }
    let _ = writeln!(s);
    match &t.best {
        Some((p, v)) => {
            let labels: Vec<i32> = p.labels().iter().map(|&c| c as i32 + 1).collect();
            let _ = writeln!(
                s,
                "Result: {}, {obj} = {} ({} in solver units), {} classes: {}",
                t.status.name(),
                units(t, *v),
                v,
                p.num_classes(),
                classes(&labels)
            );
        }
        None => {
            let _ = writeln!(s, "Result: {}", t.status.name());
        }
    }
    let leaves = |f: fn(&Leaf) -> bool| {
        t.nodes
            .iter()
            .filter(|n| n.leaf.as_ref().is_some_and(f))
            .count()
    };
    let _ = writeln!(
        s,
        "Summary: {} decisions, {} conflicts ({} pruned by the bound), {} learned nogoods, {} restarts, {} solutions, {:.3} s",
        t.decisions,
        t.conflicts,
        leaves(|l| matches!(l, Leaf::Pruned)),
        learned,
        t.restarts,
        solutions,
        t.elapsed_s
    );
    s
}
