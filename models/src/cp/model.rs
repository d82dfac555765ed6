//! Building the pumpkin model of seed 001 §6.3.2 for one criterion.

use optik_propagators::dbil::DbilConstructor;
use optik_propagators::diameter::DiameterConstructor;
use optik_propagators::dual_bound::{DualBoundConstructor, SumCriterion};
use optik_propagators::l_diversity::LDiversityConstructor;
use optik_propagators::links::LinksConstructor;
use optik_propagators::membership::MembershipConstructor;
use optik_propagators::min_classes::MinClassesConstructor;
use optik_propagators::n_clusters::NClustersConstructor;
use optik_propagators::node_lp::NodeLpConstructor;
use optik_propagators::precede::PrecedeConstructor;
use optik_propagators::pumpkin_core::propagation::PropagatorConstructor;
use optik_propagators::pumpkin_core::variables::DomainId;
use optik_propagators::pumpkin_core::Solver;
use optik_propagators::size_cap::SizeCapConstructor;
use optik_propagators::split::SplitConstructor;
use optik_propagators::wcsd::WcsdConstructor;
use optik_propagators::{min_k_diameters, DistMatrix};

use super::node_lp::{max_fixed, min_fixed, time_share, NodeLpHook};
use crate::root_lp::{cut_rhs, RootLp};
use crate::{ClassConstraints, Criterion, Instance};

/// The variables of a built model.
pub(crate) struct Model {
    pub solver: Solver,
    pub g: Vec<DomainId>,
    pub objective: DomainId,
    pub cmax: i32,
    pub dist: DistMatrix,
}

/// Largest value the objective can take, in i64 (checked against pumpkin's i32 domains).
pub(crate) fn objective_upper_bound(inst: &Instance, criterion: Criterion) -> i64 {
    let n = inst.n as i64;
    let maxd = inst.dist.iter().flatten().copied().max().unwrap_or(0);
    match criterion {
        Criterion::Dbil => n.saturating_mul(maxd),
        Criterion::Diameter | Criterion::Split => maxd,
        Criterion::Wcsd | Criterion::Sse => (n * (n - 1) / 2).saturating_mul(maxd),
    }
}

/// How each propagator of the model is added to the solver: directly, or wrapped (e.g. by
/// `optik explain`'s tracer, which records what each propagator did).
pub(crate) trait Poster {
    /// Told the model's variables once they exist, before any propagator is posted.
    fn variables(&mut self, _g: &[DomainId], _objective: DomainId) {}

    /// Adds the propagator built by `constructor`; `name` is optik's name for it.
    fn post<C>(&mut self, solver: &mut Solver, name: &'static str, constructor: C)
    where
        C: PropagatorConstructor + Clone + 'static,
        C::PropagatorImpl: 'static;
}

/// Adds every propagator as it is.
pub(crate) struct Direct;

impl Poster for Direct {
    fn post<C>(&mut self, solver: &mut Solver, _name: &'static str, constructor: C)
    where
        C: PropagatorConstructor + Clone + 'static,
        C::PropagatorImpl: 'static,
    {
        let _ = solver.add_propagator(constructor);
    }
}

/// What to build: the criterion and the options of one model.
#[derive(Clone, Copy)]
pub(crate) struct ModelSpec<'a> {
    pub criterion: Criterion,
    /// Post the dominance cap `|C| ≤ 2·max k − 1` (not for split, not under non-hereditary
    /// constraints).
    pub size_cap: bool,
    /// Split only: post "at least that many classes".
    pub min_classes: Option<usize>,
    /// Upper bound of the objective variable's domain.
    pub obj_ub: i32,
    /// dbil, wcsd: post the LP dual bound with reduced-cost filtering.
    pub dual: Option<&'a RootLp>,
    /// dbil, wcsd: post the node-LP bound (with `dual`).
    pub node_lp: Option<&'a NodeLpHook>,
    /// The extra class constraints (l-diversity, links, maximum size).
    pub extra: &'a ClassConstraints,
}

/// Builds the model of `spec`.
pub(crate) fn build(inst: &Instance, spec: &ModelSpec) -> Model {
    build_with(inst, spec, &mut Direct)
}

/// [`build`], adding each propagator through `poster`.
pub(crate) fn build_with(inst: &Instance, spec: &ModelSpec, poster: &mut impl Poster) -> Model {
    let ModelSpec {
        criterion,
        size_cap,
        min_classes,
        obj_ub,
        dual,
        node_lp,
        extra,
    } = *spec;
    let n = inst.n;
    let cmax = inst.max_classes().max(1) as i32;
    let mut solver = Solver::default();
    let g: Vec<DomainId> = (0..n)
        .map(|i| {
            let ub = if i == 0 { 1 } else { cmax };
            solver.new_named_bounded_integer(1, ub, format!("G{i}"))
        })
        .collect();
    let objective = solver.new_named_bounded_integer(0, obj_ub, criterion.name().to_string());
    poster.variables(&g, objective);
    let dist = DistMatrix::new(&inst.dist);
    let k = inst.k.clone();

    let tag = solver.new_constraint_tag();
    poster.post(
        &mut solver,
        "Precede",
        PrecedeConstructor {
            vars: g.clone(),
            constraint_tag: tag,
        },
    );
    let tag = solver.new_constraint_tag();
    poster.post(
        &mut solver,
        "NClusters",
        NClustersConstructor {
            vars: g.clone(),
            k: k.clone(),
            cmax,
            constraint_tag: tag,
        },
    );
    let tag = solver.new_constraint_tag();
    poster.post(
        &mut solver,
        "Membership",
        MembershipConstructor {
            vars: g.clone(),
            k: k.clone(),
            cmax,
            constraint_tag: tag,
        },
    );
    // The dominance cap 2·max k − 1 is turned off under l-diversity and must-links, where it
    // does not hold (see `ClassConstraints::hereditary`); the maximum size is a hard cap.
    let dominance = size_cap && criterion != Criterion::Split && extra.hereditary();
    if dominance || extra.max_size.is_some() {
        let tag = solver.new_constraint_tag();
        poster.post(
            &mut solver,
            "SizeCap",
            SizeCapConstructor {
                vars: g.clone(),
                k: k.clone(),
                cmax,
                dominance,
                max_size: extra.max_size,
                constraint_tag: tag,
            },
        );
    }
    if let Some(d) = extra.diversity.as_ref().filter(|d| d.l > 1) {
        let tag = solver.new_constraint_tag();
        poster.post(
            &mut solver,
            "LDiversity",
            LDiversityConstructor {
                vars: g.clone(),
                values: d.values.clone(),
                l: d.l,
                cmax,
                constraint_tag: tag,
            },
        );
    }
    if !extra.must.is_empty() || !extra.cannot.is_empty() {
        let tag = solver.new_constraint_tag();
        poster.post(
            &mut solver,
            "Links",
            LinksConstructor {
                vars: g.clone(),
                must: extra.must.clone(),
                cannot: extra.cannot.clone(),
                cmax,
                constraint_tag: tag,
            },
        );
    }
    if let Some(c0) = min_classes {
        if c0 > 1 {
            let tag = solver.new_constraint_tag();
            poster.post(
                &mut solver,
                "MinClasses",
                MinClassesConstructor {
                    vars: g.clone(),
                    min_classes: c0.min(i32::MAX as usize) as i32,
                    constraint_tag: tag,
                },
            );
        }
    }
    let tag = solver.new_constraint_tag();
    match criterion {
        Criterion::Dbil => {
            let m = min_k_diameters(&dist, &k);
            poster.post(
                &mut solver,
                "Dbil",
                DbilConstructor {
                    vars: g.clone(),
                    objective,
                    dist: dist.clone(),
                    k,
                    m,
                    cmax,
                    constraint_tag: tag,
                },
            );
        }
        Criterion::Diameter => {
            let m = min_k_diameters(&dist, &k);
            poster.post(
                &mut solver,
                "Diameter",
                DiameterConstructor {
                    vars: g.clone(),
                    objective,
                    dist: dist.clone(),
                    m,
                    cmax,
                    constraint_tag: tag,
                },
            );
        }
        Criterion::Split => {
            poster.post(
                &mut solver,
                "Split",
                SplitConstructor {
                    vars: g.clone(),
                    objective,
                    dist: dist.clone(),
                    cmax,
                    constraint_tag: tag,
                },
            );
        }
        Criterion::Sse => unreachable!("solve_cp refuses sse (Engine::optimises)"),
        Criterion::Wcsd => {
            poster.post(
                &mut solver,
                "Wcsd",
                WcsdConstructor {
                    vars: g.clone(),
                    objective,
                    dist: dist.clone(),
                    k,
                    cmax,
                    constraint_tag: tag,
                },
            );
        }
    }
    if let Some(lp) = dual {
        let sum = match criterion {
            Criterion::Dbil => Some(SumCriterion::Dbil),
            Criterion::Wcsd => Some(SumCriterion::Wcsd),
            _ => None,
        };
        if let Some(sum) = sum {
            let tag = solver.new_constraint_tag();
            poster.post(
                &mut solver,
                "DualBound",
                DualBoundConstructor {
                    vars: g.clone(),
                    objective,
                    criterion: sum,
                    dist: dist.clone(),
                    k: inst.k.clone(),
                    pi: lp.duals.pi.clone(),
                    cuts: lp
                        .duals
                        .cuts
                        .iter()
                        .filter(|c| c.1 > 0.0)
                        .cloned()
                        .collect(),
                    z: lp.z,
                    tolerance: dual_tolerance(lp, n),
                    cmax,
                    constraint_tag: tag,
                },
            );
        }
    }
    if let Some(hook) = node_lp.filter(|_| dual.is_some()) {
        let tag = solver.new_constraint_tag();
        poster.post(
            &mut solver,
            "NodeLp",
            NodeLpConstructor {
                vars: g.clone(),
                objective,
                bound: hook.bound.clone(),
                verifier: hook.verifier(criterion),
                min_fixed: min_fixed(n),
                max_fixed: max_fixed(n),
                minimise: std::env::var("OPTIK_NODE_LP_MINIMISE").as_deref() != Ok("0"),
                share: time_share(),
                stats: hook.stats.clone(),
                paused: hook.paused.clone(),
                cmax,
                constraint_tag: tag,
            },
        );
    }
    Model {
        solver,
        g,
        objective,
        cmax,
        dist,
    }
}

/// Round-off allowance of the dual bound: LP accuracy on z, the pricing tolerance once per class
/// (a class split into unsplittable parts counts each part: at most n), negative cut penalties.
fn dual_tolerance(lp: &RootLp, n: usize) -> f64 {
    let negative_mu: f64 = lp
        .duals
        .cuts
        .iter()
        .map(|(s, mu)| cut_rhs(s) as f64 * (-mu).max(0.0))
        .sum();
    1e-6 * lp.z.abs().max(1.0) + n as f64 * ((-lp.min_rc).max(0.0) + 1e-6) + negative_mu
}
