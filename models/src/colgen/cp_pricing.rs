//! Pricing one class with pumpkin and optik's own propagator: the least reduced cost of a single
//! class under a master LP's duals, found by a CP search over one in/out variable per record
//! under [`optik_propagators::pricing`] (the dual-bound relaxation as the objective's bound and
//! reduced-cost filtering of candidates). Issue 12 asks to measure this against the
//! depth-first pricing ([`super::pricing::search`]) at large k; `cargo bench --bench pricing`
//! does, on the same duals. Not used by the engine.

use std::sync::Arc;
use std::time::{Duration, Instant};

use optik_propagators::dual_bound::{DualData, SumCriterion};
use optik_propagators::pricing::{ClassPricingConstructor, PricingData, IN};
use optik_propagators::pumpkin_core::branching::branchers::independent_variable_value_brancher::IndependentVariableValueBrancher;
use optik_propagators::pumpkin_core::branching::value_selection::InDomainMin;
use optik_propagators::pumpkin_core::branching::variable_selection::InputOrder;
use optik_propagators::pumpkin_core::branching::Brancher;
use optik_propagators::pumpkin_core::predicates::PredicateConstructor;
use optik_propagators::pumpkin_core::results::{
    ProblemSolution, SatisfactionResultUnderAssumptions,
};
use optik_propagators::pumpkin_core::termination::TimeBudget;
use optik_propagators::pumpkin_core::variables::DomainId;
use optik_propagators::pumpkin_core::Solver;
use optik_propagators::DistMatrix;

use super::column::{class_cost, size_limit};
use crate::root_lp::Duals;
use crate::{ClassConstraints, Criterion, Instance};

/// Objective units per cost unit, at most: a class found has a reduced cost within `1/s` of the
/// least (the objective is an `i32`, so large tables get a smaller scale).
const SCALE: f64 = 1000.0;

/// What the CP pricing found.
#[derive(Clone, Debug, Default)]
pub struct CpPriced {
    /// The class of least reduced cost found (sorted members) and its reduced cost, if any
    /// has a reduced cost below `−1/scale`.
    pub best: Option<(f64, Vec<u32>)>,
    /// True when the search proved that no class has a reduced cost more than `1/scale`
    /// below `best`'s (below `−1/scale` when there is none).
    pub proven: bool,
    /// Improving classes the search went through.
    pub solutions: usize,
    /// The objective's scale (units per cost unit).
    pub scale: f64,
    /// Seconds spent.
    pub seconds: f64,
}

/// How the CP pricing branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpBranching {
    /// pumpkin's default: VSIDS with restarts.
    Vsids,
    /// The records in decreasing order of their duals, each tried in the class first (the
    /// depth-first pricing's order).
    DualOrder,
}

/// Prices one class under `duals` (cover duals, and cut penalties that must all be ≥ 0) for
/// dbil or wcsd, with the size caps of `constraints` (which must hold only a largest class
/// size), until proven or `deadline`. `Err` names what it cannot price.
pub fn price_with_cp(
    inst: &Instance,
    criterion: Criterion,
    duals: &Duals,
    constraints: &ClassConstraints,
    branching: CpBranching,
    deadline: Option<Instant>,
) -> Result<CpPriced, String> {
    let start = Instant::now();
    let sum = match criterion {
        Criterion::Dbil => SumCriterion::Dbil,
        Criterion::Wcsd => SumCriterion::Wcsd,
        other => {
            return Err(format!(
                "CP pricing prices dbil and wcsd, not {}",
                other.name()
            ))
        }
    };
    if !constraints.size_cap_only() {
        return Err("CP pricing takes a largest class size only".into());
    }
    if duals.cuts.iter().any(|c| c.1 < 0.0) {
        return Err("CP pricing needs cut penalties ≥ 0".into());
    }
    let n = inst.n;
    let positive: f64 = duals.pi.iter().map(|p| p.max(0.0)).sum();
    let scale = SCALE.min(1e9 / (positive + 1.0));
    let cap: Vec<usize> = (0..=inst.largest_k())
        .map(|k| size_limit(constraints, k, n))
        .collect();
    let data = PricingData {
        duals: DualData {
            criterion: sum,
            dist: DistMatrix::new(&inst.dist),
            k: Arc::from(inst.k.clone()),
            pi: Arc::from(duals.pi.clone()),
            cuts: Arc::from(duals.cuts.clone()),
            z: 0.0,
            tolerance: 0.0,
            cmax: 2,
        },
        scale,
        cap: Arc::from(cap),
    };
    let mut solver = Solver::default();
    let x: Vec<_> = (0..n).map(|_| solver.new_bounded_integer(IN, 2)).collect();
    // Every class costs at least −Σ π⁺ (costs and penalties are ≥ 0).
    let floor = data.objective_of(-positive, 0.0) - 1;
    let objective = solver.new_bounded_integer(floor.max(i32::MIN as i64 + 1) as i32, 0);
    let constraint_tag = solver.new_constraint_tag();
    let _ = solver.add_propagator(ClassPricingConstructor {
        vars: x.clone(),
        objective,
        data,
        constraint_tag,
    });
    let mut out = CpPriced {
        scale,
        ..CpPriced::default()
    };
    let search = Search {
        inst,
        criterion,
        duals,
        x: &x,
        objective,
        deadline,
    };
    if branching == CpBranching::DualOrder {
        // Records by decreasing dual, each tried in the class first (the DFS's order).
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| duals.pi[b].total_cmp(&duals.pi[a]).then(a.cmp(&b)));
        let vars: Vec<DomainId> = order.iter().map(|&i| x[i]).collect();
        let mut brancher =
            IndependentVariableValueBrancher::new(InputOrder::new(&vars), InDomainMin);
        search.run(&mut solver, &mut brancher, &mut out);
    } else {
        let mut brancher = solver.default_brancher();
        search.run(&mut solver, &mut brancher, &mut out);
    }
    out.seconds = start.elapsed().as_secs_f64();
    Ok(out)
}

/// One pricing's search: the model's variables and what a class found is checked against.
struct Search<'a> {
    inst: &'a Instance,
    criterion: Criterion,
    duals: &'a Duals,
    x: &'a [DomainId],
    objective: DomainId,
    deadline: Option<Instant>,
}

impl Search<'_> {
    /// Finds better and better classes (objective ≤ the last one's − 1) until none is left
    /// (proven) or the deadline.
    fn run<B: Brancher>(&self, solver: &mut Solver, brancher: &mut B, out: &mut CpPriced) {
        let n = self.x.len();
        let mut resolver = crate::cp::resolver();
        let mut ub = -1i32;
        loop {
            let left = match self.deadline {
                Some(d) => match d.checked_duration_since(Instant::now()) {
                    Some(t) => t,
                    None => return,
                },
                None => Duration::from_secs(u64::MAX / 4),
            };
            let mut term = crate::stop::Budget(TimeBudget::starting_now(left));
            let assumption = [self.objective.upper_bound_predicate(ub)];
            match solver.satisfy_under_assumptions(brancher, &mut term, &mut resolver, &assumption)
            {
                SatisfactionResultUnderAssumptions::Satisfiable(s) => {
                    let members: Vec<u32> = (0..n)
                        .filter(|&i| s.solution().get_integer_value(self.x[i]) == IN)
                        .map(|i| i as u32)
                        .collect();
                    let value = s.solution().get_integer_value(self.objective);
                    let cost = class_cost(self.inst, self.criterion, &members);
                    out.best = Some((self.duals.reduced_cost(&members, cost), members));
                    out.solutions += 1;
                    if value <= i32::MIN + 1 {
                        out.proven = true;
                        return;
                    }
                    ub = value - 1;
                }
                SatisfactionResultUnderAssumptions::UnsatisfiableUnderAssumptions(_)
                | SatisfactionResultUnderAssumptions::Unsatisfiable(_) => {
                    out.proven = true;
                    return;
                }
                SatisfactionResultUnderAssumptions::Unknown(_) => return,
            }
        }
    }
}
