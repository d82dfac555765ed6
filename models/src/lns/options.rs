//! The search's vocabulary: its options, the improvement events it reports, and the limits a
//! driven search runs under. Every file of the search reads these; this file reads none of them.

use super::neighbourhood::{NeighbourhoodRule, SeedBias};
use crate::{ClassConstraints, Criterion};
use std::time::{Duration, Instant};

/// One improvement: a neighbourhood whose re-optimised classes cost less.
#[derive(Clone, Debug, PartialEq)]
pub struct LnsEvent {
    /// Seconds since the search started.
    pub elapsed_s: f64,
    /// Objective of the whole partition after the move (integer units).
    pub objective: i64,
    /// Records in the neighbourhood.
    pub records: usize,
    /// Classes freed.
    pub classes_before: usize,
    /// Classes the neighbourhood was re-partitioned into.
    pub classes_after: usize,
    /// Cost of the freed classes before and after (integer units).
    pub cost_before: i64,
    /// See `cost_before`.
    pub cost_after: i64,
    /// True when the neighbourhood's new classes are proven optimal for its records.
    pub proven: bool,
    /// Classes of the whole partition after the move.
    pub num_classes: usize,
    /// DBIL of the whole partition after the move (integer units), whatever the criterion.
    pub dbil: i64,
}

impl std::fmt::Display for LnsEvent {
    /// `neighbourhood of 212 records / 40 classes: 1234 → 1201` (integer units).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "neighbourhood of {} records / {} classes: {} → {}",
            self.records, self.classes_before, self.cost_before, self.cost_after
        )
    }
}

/// Receives every improvement, on the thread that called [`super::solve_lns`].
pub type ImprovementCallback = Box<dyn FnMut(&LnsEvent)>;

/// Receives the whole partition after every improvement, with the improvement, on the thread
/// that called [`super::solve_lns`].
pub type PartitionCallback = Box<dyn FnMut(&crate::Partition, &LnsEvent)>;

/// Options of [`super::solve_lns`].
pub struct LnsOptions {
    /// dbil or wcsd.
    pub criterion: Criterion,
    /// The search returns by then (within column generation's overrun, well under a second).
    pub deadline: Option<Instant>,
    /// Time limit of a neighbourhood's first attempt: most neighbourhoods are proven in a
    /// fraction of a second, a few take far longer; one that times out is tried again with
    /// twice the time when the seeds come back to it, up to `neighbourhood_limit`.
    pub first_limit: Duration,
    /// Longest time limit of one neighbourhood's column generation.
    pub neighbourhood_limit: Duration,
    /// Initial neighbourhood size m (records).
    pub size: usize,
    /// Smallest m the adaptation shrinks to.
    pub min_size: usize,
    /// Largest m the adaptation grows to (capped by n).
    pub max_size: usize,
    /// Class constraints (l-diversity, links, a largest class size: `--max-class-size`, or
    /// column generation's tight phase): the start must meet them, and every neighbourhood is
    /// re-optimised under them (restricted to its records).
    pub constraints: ClassConstraints,
    /// How neighbouring classes are found.
    pub rule: NeighbourhoodRule,
    /// How seeds favour expensive classes.
    pub seed_bias: SeedBias,
    /// Seed the classes an improvement creates next (before the rest of the pass).
    pub follow_improvements: bool,
    /// Seed of the seed order.
    pub seed: u64,
    /// Worker threads; 0 = rayon's thread count.
    pub threads: usize,
    /// Stop after this many neighbourhoods (tests; `None`: until the deadline or exhausted).
    pub max_neighbourhoods: Option<usize>,
    /// Column budget of one neighbourhood's proof (bounds its memory).
    pub column_budget: usize,
    /// Subset-row cuts in the neighbourhoods' column generation.
    pub cuts: bool,
    /// Called on every improvement.
    pub on_improvement: Option<ImprovementCallback>,
    /// Called with the partition after every improvement (column generation's companion
    /// search hands its incumbents over this way).
    pub on_partition: Option<PartitionCallback>,
    /// The per-record bounds when the caller has them: [`cost::record_bounds`] of the oracle
    /// and criterion, or any m_i with Σ_{i∈C} m_i ≤ cost(C) for every class C the search may
    /// form (column generation's companion: the root LP's duals, up to 10⁻⁶ per class). They
    /// order the seeds, skip neighbourhoods without room, and give the result's lower bound.
    pub record_bounds: Option<Vec<f64>>,
    /// Run the workers at the lowest CPU priority, so that they only take the time other
    /// threads of the process leave (column generation's companion search).
    pub background: bool,
}

impl Default for LnsOptions {
    fn default() -> Self {
        LnsOptions {
            criterion: Criterion::Dbil,
            deadline: None,
            first_limit: Duration::from_millis(250),
            neighbourhood_limit: Duration::from_secs(10),
            size: 100,
            min_size: 20,
            max_size: 1000,
            constraints: ClassConstraints::default(),
            rule: default_rule(),
            seed_bias: SeedBias::CostOverBound,
            follow_improvements: true,
            seed: 0,
            threads: 0,
            max_neighbourhoods: None,
            column_budget: 1_000_000,
            cuts: true,
            on_improvement: None,
            on_partition: None,
            record_bounds: None,
            background: false,
        }
    }
}

/// The neighbourhood rule `OPTIK_LNS_RULE` names (`medoid`, `closest`, `growth` or `related`;
/// an ablation knob for the search alone and column generation's companion), if any.
pub fn rule_from_env() -> Option<NeighbourhoodRule> {
    NeighbourhoodRule::from_name(&std::env::var("OPTIK_LNS_RULE").ok()?)
}

/// The knob's rule, else the randomised related rule (measured against medoid to seed:
/// docs/large.md, "Randomised neighbourhoods").
fn default_rule() -> NeighbourhoodRule {
    rule_from_env().unwrap_or(NeighbourhoodRule::Related)
}

impl std::fmt::Debug for LnsOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LnsOptions")
            .field("criterion", &self.criterion)
            .field("deadline", &self.deadline)
            .field("first_limit", &self.first_limit)
            .field("neighbourhood_limit", &self.neighbourhood_limit)
            .field("size", &self.size)
            .field("min_size", &self.min_size)
            .field("max_size", &self.max_size)
            .field("constraints", &self.constraints)
            .field("rule", &self.rule)
            .field("seed_bias", &self.seed_bias)
            .field("follow_improvements", &self.follow_improvements)
            .field("seed", &self.seed)
            .field("threads", &self.threads)
            .field("max_neighbourhoods", &self.max_neighbourhoods)
            .field("column_budget", &self.column_budget)
            .field("cuts", &self.cuts)
            .field("background", &self.background)
            .finish_non_exhaustive()
    }
}

/// Limits of a driven search.
#[derive(Debug)]
pub struct Drive {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Nothing runs past it (up to column generation's own overrun).
    pub deadline: Option<Instant>,
    /// Stop after this many neighbourhoods.
    pub max_neighbourhoods: Option<usize>,
    /// Column budget of one neighbourhood's proof.
    pub column_budget: usize,
    /// Subset-row cuts in the neighbourhoods' column generation.
    pub cuts: bool,
    /// Class constraints ([`LnsOptions::constraints`]).
    pub constraints: ClassConstraints,
    /// Workers at the lowest CPU priority ([`LnsOptions::background`]).
    pub background: bool,
}
