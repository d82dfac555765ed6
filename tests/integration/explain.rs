//! `optik explain`: the trace shows decisions, propagations by optik's propagators with
//! explanations, conflicts and learned nogoods, and ends with the brute-force optimum; the tree
//! SVG has one node element per decision; n > 12 is refused; outputs are atomic and never over
//! the input.

use crate::common::{instance, optik};
use optik::Criterion;
use optik::{Dataset, KSource, LoadOptions, Schema, SchemaSource};
use optik_models::brute_force::brute_force;
use optik_models::cp::explain::{explain, Event, ExplainOptions, Lit, Op, Trace, Var};
use optik_models::cp::Search;
use optik_models::Instance;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};

const PROPAGATORS: [&str; 9] = [
    "Precede",
    "Membership",
    "NClusters",
    "SizeCap",
    "Dbil",
    "DualBound",
    "Diameter",
    "Split",
    "Wcsd",
];

/// The exact instance of a table, as `optik explain` builds it.
fn load(csv: &Path, schema: Schema) -> Instance {
    let ds = Dataset::load(
        csv,
        schema,
        &KSource::Column { name: "k".into() },
        &LoadOptions::default(),
    )
    .unwrap();
    ds.distance().instance(ds.k().to_vec(), 1000.0).unwrap()
}

/// Runs `optik explain` writing trace and tree into `dir`; returns (trace, svg).
fn run(dir: &Path, csv: &Path, input: &[&str], extra: &[&str]) -> (String, String) {
    let (out, tree) = (dir.join("trace.txt"), dir.join("tree.svg"));
    optik("explain")
        .arg(csv)
        .args(input)
        .args(["--k-column", "k", "--force"])
        .output("--out", &out)
        .output("--tree", &tree)
        .args(extra)
        .ok();
    (
        std::fs::read_to_string(out).unwrap(),
        std::fs::read_to_string(tree).unwrap(),
    )
}

/// The objective on the trace's result line, in solver units.
fn result_objective(trace: &str) -> i64 {
    let line = trace
        .lines()
        .find(|l| l.starts_with("Result: optimal"))
        .unwrap_or_else(|| panic!("no optimal result in\n{trace}"));
    let inside = line.split('(').nth(1).unwrap();
    inside.split(' ').next().unwrap().parse().unwrap()
}

fn decisions(trace: &str) -> usize {
    trace.lines().filter(|l| l.contains(" decide ")).count()
}

fn node_elements(svg: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("the tree is well-formed XML");
    doc.descendants()
        .filter(|n| {
            n.is_element() && n.tag_name().name() == "g" && n.attribute("class") == Some("node")
        })
        .count()
}

fn propagation_lines(trace: &str) -> Vec<&str> {
    trace
        .lines()
        .map(str::trim_start)
        .filter(|l| PROPAGATORS.iter().any(|p| l.starts_with(&format!("{p}: "))))
        .collect()
}

fn seed_example(dir: &Path, extra: &[&str]) -> (String, String, Instance) {
    let csv = instance("seed001_table3_2.csv");
    let schema = instance("seed001_table3_2.toml");
    let (trace, svg) = run(dir, &csv, &["--schema", schema.to_str().unwrap()], extra);
    (
        trace,
        svg,
        load(
            &csv,
            Schema::load(&SchemaSource::File(schema.clone())).unwrap(),
        ),
    )
}

#[test]
fn seed_example_trace_reaches_the_brute_force_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let (trace, svg, inst) = seed_example(dir.path(), &[]);
    let (_, optimum) = brute_force(&inst, Criterion::Dbil, 1).unwrap();
    assert_eq!(result_objective(&trace), optimum, "{trace}");
    assert!(decisions(&trace) >= 1, "{trace}");
    assert!(!propagation_lines(&trace).is_empty(), "{trace}");
    assert!(trace.contains("★ solution 1:"));
    assert!(
        trace.contains("r3 (row 4, line 5)  k = 3"),
        "records named by row"
    );
    // No raw values at default verbosity: no ZIP code, age or sex of the table.
    for raw in ["14025", "14110", "Cancer", "Age=", "ZIP="] {
        assert!(!trace.contains(raw), "raw value {raw} in the trace");
    }
    assert_eq!(node_elements(&svg), decisions(&trace));
    let summary = trace.lines().find(|l| l.starts_with("Summary: ")).unwrap();
    assert!(summary.starts_with(&format!("Summary: {} decisions", decisions(&trace))));
}

#[test]
fn conflicts_show_explanations_and_learned_nogoods() {
    let dir = tempfile::tempdir().unwrap();
    let (trace, svg, inst) = seed_example(
        dir.path(),
        &["--no-lp-bound", "--search", "switching", "--show-values"],
    );
    let (_, optimum) = brute_force(&inst, Criterion::Dbil, 1).unwrap();
    assert_eq!(result_objective(&trace), optimum);
    assert!(
        trace.contains("✗ pruned (cannot beat the incumbent)"),
        "{trace}"
    );
    assert!(trace.contains("these cannot all hold: "));
    assert!(trace.contains("⇒ learned nogood 1: not ("));
    // Propagations carry the explanation pumpkin stored: "because" + premises, by record id.
    let explained = trace
        .lines()
        .filter(|l| {
            l.trim_start().starts_with("because r") || l.trim_start().starts_with("because {r")
        })
        .count();
    assert!(explained >= 5, "{trace}");
    // Every propagation is explained: by pumpkin's conflict analysis, or recomputed (root facts,
    // the branch that ended in a solution).
    assert!(!trace.contains("(no explanation"), "{trace}");
    let recomputed = trace
        .lines()
        .filter(|l| l.ends_with("(recomputed)"))
        .count();
    let given = trace
        .lines()
        .filter(|l| l.contains("because") && !l.ends_with("(recomputed)"))
        .count();
    assert!(recomputed >= 1 && given >= 1, "{trace}");
    // --show-values lists the QI values in the legend (the user owns the data).
    assert!(trace.contains("ZIP=14025"));
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let kinds: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("node"))
        .map(|n| n.attribute("data-kind").unwrap())
        .collect();
    assert!(
        kinds.contains(&"pruned") && kinds.contains(&"solution"),
        "{kinds:?}"
    );
    assert_eq!(kinds.len(), decisions(&trace));
}

/// A random table of `n` records: numeric age, categorical sex, k ∈ {2, 3}.
fn random_table(dir: &Path, n: usize, seed: u64) -> PathBuf {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut s = String::from("age,sex,k\n");
    for _ in 0..n {
        let age: u32 = rng.gen_range(18..80);
        let sex = if rng.gen_bool(0.5) { "F" } else { "M" };
        let k = if rng.gen_bool(0.7) { 2 } else { 3 };
        s.push_str(&format!("{age},{sex},{k}\n"));
    }
    let p = dir.join(format!("random{seed}.csv"));
    std::fs::write(&p, s).unwrap();
    p
}

#[test]
fn random_eight_record_table_every_criterion() {
    let dir = tempfile::tempdir().unwrap();
    let csv = random_table(dir.path(), 8, 8);
    let inst = load(
        &csv,
        Schema::load(&SchemaSource::QiList("age,sex".into())).unwrap(),
    );
    for (criterion, search) in [
        ("dbil", "autonomous"),
        ("wcsd", "switching"),
        ("diameter", "fill"),
        ("dbil", "create"),
    ] {
        let (trace, svg) = run(
            dir.path(),
            &csv,
            &["--qi", "age,sex"],
            &["--criterion", criterion, "--search", search],
        );
        let c: Criterion = criterion.parse().unwrap();
        let (_, optimum) = brute_force(&inst, c, 1).unwrap();
        assert_eq!(
            result_objective(&trace),
            optimum,
            "{criterion} {search}\n{trace}"
        );
        assert!(decisions(&trace) >= 1, "{criterion} {search}\n{trace}");
        assert!(!propagation_lines(&trace).is_empty());
        assert_eq!(node_elements(&svg), decisions(&trace));
    }
}

/// The recorded search is the real one: on random instances it proves the brute-force optimum
/// for every strategy, and its counts agree with its events.
#[test]
fn engine_matches_brute_force_on_random_instances() {
    random_traces(5, 12, 3, |what, inst, criterion, t| {
        let want = brute_force(inst, criterion, 1).map(|(_, v)| v);
        assert_eq!(t.best.as_ref().map(|b| b.1), want, "{what}");
        assert_eq!(t.status.name(), "optimal");
        let decided = t
            .events
            .iter()
            .filter(|e| matches!(e, Event::Decision { .. }))
            .count();
        assert_eq!(decided, t.decisions);
        assert_eq!(t.nodes.len(), t.decisions);
        let learned = t
            .events
            .iter()
            .filter(|e| matches!(e, Event::Learned { .. }))
            .count();
        assert_eq!(learned, t.conflicts);
        // Every node's parent is an earlier node one level up the tree.
        for (i, nd) in t.nodes.iter().enumerate() {
            if let Some(p) = nd.parent {
                assert!(p < i && t.nodes[p].level < nd.level && t.nodes[p].search == nd.search);
            }
        }
    });
}

/// Traces of `cases` random instances (`min_n..=8` points in a 20 × 20 grid, Manhattan
/// distances, k_i in 1..=3), each under dbil, wcsd and diameter, cycling through the search
/// strategies, with and without the LP bound; `check` gets a label for messages.
fn random_traces(
    seed: u64,
    cases: usize,
    min_n: usize,
    mut check: impl FnMut(&str, &Instance, Criterion, &Trace),
) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for case in 0..cases {
        let n = rng.gen_range(min_n..=8);
        let pts: Vec<(i64, i64)> = (0..n)
            .map(|_| (rng.gen_range(0..20), rng.gen_range(0..20)))
            .collect();
        let k: Vec<u32> = (0..n).map(|_| rng.gen_range(1..=3)).collect();
        let inst = Instance::from_distance(1.0, k, |i, j| {
            ((pts[i].0 - pts[j].0).abs() + (pts[i].1 - pts[j].1).abs()) as f64
        })
        .unwrap();
        for criterion in [Criterion::Dbil, Criterion::Wcsd, Criterion::Diameter] {
            let search = Search::ALL[case % 4];
            let lp_bound = case % 2 == 0;
            let t = explain(
                &inst,
                &ExplainOptions {
                    criterion,
                    search,
                    lp_bound,
                    ..ExplainOptions::default()
                },
            )
            .unwrap();
            let what = format!("case {case} {criterion:?} {search:?} lp_bound {lp_bound}");
            check(&what, &inst, criterion, &t);
        }
    }
}

#[test]
fn more_than_twelve_records_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("trace.txt");
    optik("explain")
        .clinical_trial()
        .output("--out", &out)
        .fails(&["at most 12 records", "60"]);
}

#[test]
fn outputs_are_atomic_and_never_over_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let csv = random_table(dir.path(), 6, 1);
    let before = std::fs::read(&csv).unwrap();
    let explain = || {
        optik("explain")
            .arg(&csv)
            .args(["--qi", "age,sex", "--k-column", "k"])
    };
    explain()
        .args(["--force".as_ref(), "--out".as_ref(), csv.as_os_str()])
        .fails(&["never overwrites its input"]);
    assert_eq!(std::fs::read(&csv).unwrap(), before);
    // An existing output is kept without --force.
    let out = dir.path().join("trace.txt");
    std::fs::write(&out, "keep").unwrap();
    explain().arg("--out").arg(&out).fails(&["--force"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep");
    // A successful run leaves only its outputs (no temporary files) in the folder.
    explain()
        .arg("--force")
        .output("--out", &out)
        .output("--tree", dir.path().join("tree.svg"))
        .ok();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(names, ["random1.csv", "trace.txt", "tree.svg"]);
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("Result: optimal"));
}

/// The model's solutions on a tiny instance, by enumeration: every labelling numbered by first
/// record (what Precede keeps) whose classes hold each member's k_i and at most
/// `2·max k − 1` records (the dominance cap, when posted), with the objective variable at its
/// criterion value.
fn model_solutions(inst: &Instance, criterion: Criterion, cap: bool) -> Vec<(Vec<i32>, i64)> {
    fn grow(labels: &mut Vec<i32>, n: usize, out: &mut Vec<Vec<i32>>) {
        if labels.len() == n {
            out.push(labels.clone());
            return;
        }
        let top = labels.iter().copied().max().unwrap_or(0);
        for c in 1..=top + 1 {
            labels.push(c);
            grow(labels, n, out);
            labels.pop();
        }
    }
    let mut all = Vec::new();
    grow(&mut Vec::new(), inst.n, &mut all);
    all.into_iter()
        .filter(|labels| {
            let top = *labels.iter().max().unwrap();
            (1..=top).all(|c| {
                let members: Vec<usize> = (0..inst.n).filter(|&i| labels[i] == c).collect();
                let kmax = members.iter().map(|&i| inst.k[i]).max().unwrap() as usize;
                members.len() >= kmax && (!cap || members.len() < 2 * kmax)
            })
        })
        .map(|labels| {
            let p = optik_models::Partition::from_labels(&labels);
            let v = optik_models::objective_of(inst, &p, criterion);
            (labels, v)
        })
        .collect()
}

fn holds(l: &Lit, s: &(Vec<i32>, i64)) -> bool {
    let v = match l.var {
        Var::Record(i) => s.0[i] as i64,
        Var::Objective => s.1,
    };
    let w = l.value as i64;
    match l.op {
        Op::Eq => v == w,
        Op::Ne => v != w,
        Op::Le => v <= w,
        Op::Ge => v >= w,
    }
}

/// Every explanation in a trace — those pumpkin's conflict analysis asked for and those
/// recomputed by replaying the propagator — is implied by the model: no model solution makes
/// its premises true and its conclusion false. Conflicts and learned nogoods hold no model
/// solution either. And replay leaves no propagation unexplained.
#[test]
fn every_explanation_is_implied_by_the_model() {
    let (mut given, mut recomputed) = (0, 0);
    random_traces(11, 40, 4, |what, inst, criterion, t| {
        let sols = model_solutions(inst, criterion, true);
        let ctx = |msg: String| format!("{what}: {msg}");
        let none_holds = |conj: &[Lit], kind: &str| {
            for s in &sols {
                assert!(
                    !conj.iter().all(|p| holds(p, s)),
                    "{}",
                    ctx(format!("{kind} {conj:?} holds on {s:?}"))
                );
            }
        };
        for e in &t.events {
            match e {
                Event::Propagation { changes, .. } => {
                    for c in changes {
                        let b = c.because.as_ref().unwrap_or_else(|| {
                            panic!("{}", ctx(format!("{:?} unexplained", c.lit)))
                        });
                        if b.recomputed {
                            recomputed += 1;
                        } else {
                            given += 1;
                        }
                        for s in &sols {
                            assert!(
                                !b.premises.iter().all(|p| holds(p, s)) || holds(&c.lit, s),
                                "{}",
                                ctx(format!("{:?} because {b:?} fails on {s:?}", c.lit))
                            );
                        }
                    }
                }
                Event::Conflict { explanation, .. } => none_holds(explanation, "conflict"),
                Event::Learned { nogood, .. } => none_holds(nogood, "nogood"),
                _ => {}
            }
        }
    });
    // Both kinds occurred, so both were checked.
    assert!(
        given > 0 && recomputed > 0,
        "given {given}, recomputed {recomputed}"
    );
    eprintln!("explanations checked: {given} from conflict analysis, {recomputed} recomputed");
}
