//! Compact assignment MIP (x_ij = 1 when record i is in the class whose smallest member is j),
//! the baseline and cross-check engine for small instances. One model description feeds both
//! HiGHS (through good_lp) and the LP-file export, so the file is exactly what is solved.

use crate::criteria::objective_of;
use crate::engine::{Engine, EngineError, EngineResult, EngineStats, SolutionEvent, Status};
use crate::{Criterion, Instance, Partition};
use good_lp::{variable, Expression, ProblemVariables, SolverModel, Variable};
use highs::{HighsModelStatus, HighsSolutionStatus};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// What HiGHS left of the compact MIP, read on the solve's own thread.
struct Solved {
    status: HighsModelStatus,
    nodes: u64,
    dual_bound: Option<f64>,
    /// Every column's value, when HiGHS has a feasible solution.
    values: Option<Vec<f64>>,
}

/// Kind of a model variable.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Binary,
    /// Continuous, bounded below by 0.
    NonNegative,
}

/// Sense of a linear constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Sense {
    Le,
    Ge,
    Eq,
}

/// A solver-independent linear model: named variables, a minimised objective and rows.
#[derive(Clone, Debug, Default)]
struct LinearModel {
    vars: Vec<(String, Kind)>,
    objective: Vec<(usize, f64)>,
    rows: Vec<RowDef>,
}

/// A named row: Σ coefficient·variable (sense) right-hand side.
type RowDef = (String, Vec<(usize, f64)>, Sense, f64);

impl LinearModel {
    fn var(&mut self, name: String, kind: Kind) -> usize {
        self.vars.push((name, kind));
        self.vars.len() - 1
    }

    fn row(&mut self, name: String, terms: Vec<(usize, f64)>, sense: Sense, rhs: f64) {
        self.rows.push((name, terms, sense, rhs));
    }
}

/// The assignment model of `inst` for `criterion`, with the x_ij variable of every (i, j ≤ i).
struct AssignmentModel {
    model: LinearModel,
    /// `x[i][j]` for j ≤ i.
    x: Vec<Vec<usize>>,
}

/// Builds the model; split is not offered (its max–min objective needs a different model):
/// callers check [`Engine::optimises`] first.
#[allow(
    clippy::needless_range_loop,
    reason = "indices j ≤ a < b are the model's subscripts"
)]
fn build(
    inst: &Instance,
    criterion: Criterion,
    deadline: Option<Instant>,
) -> Option<AssignmentModel> {
    let n = inst.n;
    let late = || crate::stop::past(deadline);
    let mut m = LinearModel::default();
    let x: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (0..=i)
                .map(|j| m.var(format!("x_{i}_{j}"), Kind::Binary))
                .collect()
        })
        .collect();
    for (i, xi) in x.iter().enumerate() {
        m.row(
            format!("assign_{i}"),
            xi.iter().map(|&v| (v, 1.0)).collect(),
            Sense::Eq,
            1.0,
        );
        // i may only join an open class: x_ij ≤ x_jj
        for (j, &v) in xi.iter().enumerate().take(i) {
            m.row(
                format!("open_{i}_{j}"),
                vec![(v, 1.0), (x[j][j], -1.0)],
                Sense::Le,
                0.0,
            );
        }
    }
    // Size: if i is in class j, the class has at least k_i members.
    for j in 0..n {
        if late() {
            return None;
        }
        for i in j..n {
            let mut terms: Vec<(usize, f64)> = (j..n).map(|l| (x[l][j], 1.0)).collect();
            terms.push((x[i][j], -(inst.k[i] as f64)));
            m.row(format!("size_{i}_{j}"), terms, Sense::Ge, 0.0);
        }
    }
    match criterion {
        Criterion::Dbil => {
            // diam_j ≥ d(a,b)·(x_aj + x_bj − 1); w_i ≥ diam_j − D_j·(1 − x_ij); minimise Σ w_i
            for j in 0..n {
                if late() {
                    return None;
                }
                let dj = m.var(format!("diam_{j}"), Kind::NonNegative);
                let big = (j..n)
                    .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                    .map(|(a, b)| inst.d(a, b))
                    .max()
                    .unwrap_or(0) as f64;
                for a in j..n {
                    for b in a + 1..n {
                        let d = inst.d(a, b) as f64;
                        if d > 0.0 {
                            m.row(
                                format!("diam_{j}_{a}_{b}"),
                                vec![(dj, 1.0), (x[a][j], -d), (x[b][j], -d)],
                                Sense::Ge,
                                -d,
                            );
                        }
                    }
                }
                for (i, xi) in x.iter().enumerate().skip(j) {
                    let w = m.var(format!("w_{i}_{j}"), Kind::NonNegative);
                    m.objective.push((w, 1.0));
                    m.row(
                        format!("share_{i}_{j}"),
                        vec![(w, 1.0), (dj, -1.0), (xi[j], -big)],
                        Sense::Ge,
                        -big,
                    );
                }
            }
        }
        Criterion::Diameter => {
            let z = m.var("maxdiam".into(), Kind::NonNegative);
            m.objective.push((z, 1.0));
            for j in 0..n {
                if late() {
                    return None;
                }
                for a in j..n {
                    for b in a + 1..n {
                        let d = inst.d(a, b) as f64;
                        if d > 0.0 {
                            m.row(
                                format!("maxdiam_{j}_{a}_{b}"),
                                vec![(z, 1.0), (x[a][j], -d), (x[b][j], -d)],
                                Sense::Ge,
                                -d,
                            );
                        }
                    }
                }
            }
        }
        Criterion::Wcsd => {
            // p_abj ≥ x_aj + x_bj − 1; minimise Σ d(a,b)·p_abj
            for j in 0..n {
                if late() {
                    return None;
                }
                for a in j..n {
                    for b in a + 1..n {
                        let d = inst.d(a, b) as f64;
                        if d > 0.0 {
                            let p = m.var(format!("p_{a}_{b}_{j}"), Kind::NonNegative);
                            m.objective.push((p, d));
                            m.row(
                                format!("pair_{a}_{b}_{j}"),
                                vec![(p, 1.0), (x[a][j], -1.0), (x[b][j], -1.0)],
                                Sense::Ge,
                                -1.0,
                            );
                        }
                    }
                }
            }
        }
        Criterion::Split | Criterion::Sse => unreachable!("callers reject split and sse"),
    }
    Some(AssignmentModel { model: m, x })
}

/// Writes `terms` as LP-file text (`+ 3 x - 2 y`), wrapping long rows.
fn write_terms(out: &mut String, model: &LinearModel, terms: &[(usize, f64)]) {
    if terms.is_empty() {
        out.push_str(" 0 x_0_0");
    }
    for (t, &(v, c)) in terms.iter().enumerate() {
        if t > 0 && t % 8 == 0 {
            out.push_str("\n   ");
        }
        let sign = if c < 0.0 { '-' } else { '+' };
        let _ = write!(out, " {sign} {} {}", c.abs(), model.vars[v].0);
    }
}

/// The compact MIP as an LP file (CPLEX LP format), for `optik export --format lp`.
/// Split has no compact model: the text is then a comment saying so.
pub fn mip_lp_text(inst: &Instance, criterion: Criterion) -> String {
    if !Engine::Mip.optimises(criterion) {
        return format!("\\ the compact MIP does not model {}\n", criterion.name());
    }
    let am = build(inst, criterion, None).expect("no deadline");
    let m = &am.model;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\\ optik compact assignment MIP, criterion {}, n = {}, scale = {}",
        criterion.name(),
        inst.n,
        inst.scale
    );
    out.push_str("Minimize\n obj:");
    write_terms(&mut out, m, &m.objective);
    out.push_str("\nSubject To\n");
    for (name, terms, sense, rhs) in &m.rows {
        let _ = write!(out, " {name}:");
        write_terms(&mut out, m, terms);
        let s = match sense {
            Sense::Le => "<=",
            Sense::Ge => ">=",
            Sense::Eq => "=",
        };
        let _ = writeln!(out, " {s} {rhs}");
    }
    out.push_str("Binaries\n");
    for (name, kind) in &m.vars {
        if *kind == Kind::Binary {
            let _ = writeln!(out, " {name}");
        }
    }
    out.push_str("End\n");
    out
}

/// HiGHS' uninterruptible start-up per row of the compact model (a generous estimate).
const SECONDS_PER_ROW: f64 = 2e-5;

/// Solves the compact MIP with HiGHS (relative gap 0, absolute gap 0.5: costs are integers).
/// Split is an error; a HiGHS failure ends the run without a partition, saying why in `note`.
pub fn solve_mip(
    inst: &Instance,
    criterion: Criterion,
    time_limit: Option<Duration>,
) -> Result<EngineResult, EngineError> {
    if !Engine::Mip.optimises(criterion) {
        return Err(EngineError::UnsupportedCriterion {
            engine: Engine::Mip,
            criterion,
        });
    }
    let start = Instant::now();
    let deadline = time_limit.map(|t| start + t);
    let remaining = || crate::stop::left(deadline).map(|d| d.as_secs_f64());
    let mut result = EngineResult {
        stats: EngineStats {
            columns: 0,
            ..EngineStats::default()
        },
        ..EngineResult::empty()
    };
    // The model has O(n³) rows: building it can take longer than the limit.
    let Some(am) = build(inst, criterion, deadline) else {
        result.note = Some("time limit while building the compact MIP".into());
        result.elapsed_s = start.elapsed().as_secs_f64();
        return Ok(result);
    };
    let m = &am.model;
    // Loading the rows into HiGHS and its first LP cost more than building them and HiGHS does
    // not check its limit meanwhile (measured: 4.6M rows, 60 s for an 8 s limit; 585k rows, 9 s
    // for 3 s): when the limit leaves too little room, the run ends here.
    let built = start.elapsed().as_secs_f64();
    let load = (2.0 * built).max(m.rows.len() as f64 * SECONDS_PER_ROW);
    if remaining().is_some_and(|left| left < load) {
        result.note = Some("time limit: no time left to load the compact MIP into HiGHS".into());
        result.elapsed_s = start.elapsed().as_secs_f64();
        return Ok(result);
    }
    let mut pv = ProblemVariables::new();
    let vars: Vec<Variable> = m
        .vars
        .iter()
        .map(|(_, kind)| match kind {
            Kind::Binary => pv.add(variable().binary()),
            Kind::NonNegative => pv.add(variable().min(0.0)),
        })
        .collect();
    let expr = |terms: &[(usize, f64)]| -> Expression {
        terms.iter().map(|&(v, c)| c * vars[v]).sum::<Expression>()
    };
    let mut problem = pv.minimise(expr(&m.objective)).using(good_lp::highs);
    for (_, terms, sense, rhs) in &m.rows {
        let e = expr(terms);
        let c = match sense {
            Sense::Le => e.leq(*rhs),
            Sense::Ge => e.geq(*rhs),
            Sense::Eq => e.eq(*rhs),
        };
        problem.add_constraint(c);
    }
    result.stats.columns = m.vars.len();
    let time_limit = remaining();
    if time_limit.is_some_and(|left| left < 0.05) {
        result.note = Some("time limit while building the compact MIP".into());
        result.elapsed_s = start.elapsed().as_secs_f64();
        return Ok(result);
    }
    let presolve = std::env::var("OPTIK_MIP_PRESOLVE").ok();
    // Loaded, solved and read on a thread of its own, which the run leaves half a second past
    // its deadline (HiGHS checks its limit only at certain points). Solved on the HiGHS model
    // itself (good_lp's solve drops the MIP dual bound).
    let solve = move || -> Result<Solved, String> {
        let mut model = problem
            .try_into_inner()
            .map_err(|e| format!("HiGHS: {e}"))?;
        model.make_quiet();
        // Exact: relative gap 0, absolute gap below one integer cost unit.
        model.set_option("mip_rel_gap", 0.0);
        model.set_option("mip_abs_gap", 0.5);
        if let Some(v) = &presolve {
            model.set_option("presolve", v.as_str());
        }
        if let Some(left) = time_limit {
            model.set_option("time_limit", left);
        }
        let solved = model.try_solve().map_err(|e| format!("HiGHS: {e:?}"))?;
        let feasible = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
        Ok(Solved {
            status: solved.status(),
            nodes: crate::highs_ffi::mip_node_count(&solved),
            dual_bound: solved.double_info_value(c"mip_dual_bound").ok(),
            values: feasible.then(|| solved.get_solution().columns().to_vec()),
        })
    };
    let t = Instant::now();
    let solved = crate::detached::run_detached(crate::detached::abandon_time(deadline), solve);
    result.stats.mip_time_s = t.elapsed().as_secs_f64();
    if std::env::var_os("OPTIK_MIP_TRACE").is_some() {
        eprintln!(
            "mip: {} vars, {} rows, built in {:.2} s, solved in {:.2} s{}",
            m.vars.len(),
            m.rows.len(),
            t.duration_since(start).as_secs_f64(),
            result.stats.mip_time_s,
            if solved.is_none() {
                " (left past the deadline)"
            } else {
                ""
            }
        );
    }
    let solved = match solved {
        Some(Ok(solved)) => solved,
        None => {
            result.note = Some("time limit in the compact MIP".into());
            result.elapsed_s = start.elapsed().as_secs_f64();
            return Ok(result);
        }
        Some(Err(e)) => {
            result.note = Some(e);
            result.elapsed_s = start.elapsed().as_secs_f64();
            return Ok(result);
        }
    };
    result.stats.nodes = solved.nodes;
    let proven = match solved.status {
        HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible => {
            result.status = Status::Infeasible;
            result.elapsed_s = start.elapsed().as_secs_f64();
            return Ok(result);
        }
        HighsModelStatus::Optimal => true,
        HighsModelStatus::ReachedTimeLimit
        | HighsModelStatus::ReachedInterrupt
        | HighsModelStatus::ReachedIterationLimit
        | HighsModelStatus::ReachedSolutionLimit
        | HighsModelStatus::ReachedMemoryLimit
        | HighsModelStatus::ObjectiveBound
        | HighsModelStatus::ObjectiveTarget => false,
        other => {
            result.note = Some(format!("HiGHS: {other:?}"));
            result.elapsed_s = start.elapsed().as_secs_f64();
            return Ok(result);
        }
    };
    // The dual bound of the branch and bound: integer costs, so round up (after round-off).
    let dual = solved.dual_bound.filter(|b| b.is_finite());
    if let Some(b) = dual {
        result.lower_bound = Some((b - 1e-6 * b.abs().max(1.0)).ceil().max(0.0) as i64);
    }
    if let Some(values) = &solved.values {
        // good_lp numbers HiGHS columns in creation order: model variable i is column i.
        let value = |i: usize| values[i];
        let labels: Vec<usize> =
            am.x.iter()
                .map(|xi| {
                    (0..xi.len())
                        .max_by(|&a, &b| value(xi[a]).total_cmp(&value(xi[b])))
                        .expect("every record has x_ii")
                })
                .collect();
        let p = Partition::from_labels(&labels);
        let obj = objective_of(inst, &p, criterion);
        result.status = if proven {
            Status::Optimal
        } else {
            Status::Feasible
        };
        if proven {
            result.lower_bound = Some(obj);
        } else if let Some(lb) = result.lower_bound {
            result.lower_bound = Some(lb.min(obj));
        }
        result.timeline.push(SolutionEvent {
            elapsed_s: start.elapsed().as_secs_f64(),
            objective: obj,
            num_classes: p.num_classes(),
            dbil: objective_of(inst, &p, Criterion::Dbil),
            warm_start: false,
            neighbourhood: None,
        });
        result.objective = Some(obj);
        result.partition = Some(p);
    }
    result.elapsed_s = start.elapsed().as_secs_f64();
    Ok(result)
}
