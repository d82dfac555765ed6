//! What a search returns: the best partition, why it stopped, its moves and counters.

use super::options::LnsEvent;
use crate::Partition;

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LnsStop {
    /// The deadline came.
    Deadline,
    /// `max_neighbourhoods` neighbourhoods were solved.
    Budget,
    /// Every neighbourhood of the largest size was solved with its current classes: proven
    /// optimal for its records (a local optimum of this neighbourhood structure), or stopped
    /// by its time limit without improvement.
    Exhausted,
    /// A neighbourhood holding every class was proven optimal: the partition is optimal.
    Optimal,
}

/// Counters of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LnsStats {
    /// Objective of the start partition.
    pub start_objective: i64,
    /// Neighbourhoods solved.
    pub neighbourhoods: usize,
    /// ... that improved the incumbent.
    pub improving: usize,
    /// ... proven optimal within their time limit.
    pub proven: usize,
    /// ... stopped by their time limit (or their column budget) before a proof.
    pub timed_out: usize,
    /// Worker seconds spent on neighbourhoods that were proven, and that timed out.
    pub proven_s: f64,
    /// See `proven_s`.
    pub timed_out_s: f64,
    /// ... that timed out but still improved.
    pub timed_out_improving: usize,
    /// Neighbourhoods passed over because they were already proven optimal, or timed out
    /// without improvement, with the same classes.
    pub skipped: usize,
    /// Neighbourhoods proven without a solve: their classes cost less than one unit above the
    /// Σ of their records' bounds.
    pub no_room: usize,
    /// Times m grew and shrank.
    pub grown: usize,
    /// See `grown`.
    pub shrunk: usize,
    /// Results rejected as invalid (always 0 unless column generation has a bug).
    pub rejected: usize,
    /// Largest overrun of a neighbourhood's time limit (seconds; ≤ 0 when none).
    pub overrun_s: f64,
    /// Neighbourhood size m at the end.
    pub final_size: usize,
    /// Seconds before the first neighbourhood: per-record bounds and the incumbent's classes.
    pub setup_s: f64,
}

/// Outcome of [`super::solve_lns`].
#[derive(Clone, Debug, PartialEq)]
pub struct LnsResult {
    /// The best partition (the start when nothing improved); k_i-anonymous.
    pub partition: Partition,
    /// Its objective in integer units.
    pub objective: i64,
    /// A lower bound on every k_i-anonymous partition of the records: ⌈Σ_i bound_i⌉ of the
    /// per-record bounds ([`SumCriterion::record_bound`]).
    pub lower_bound: i64,
    /// Why the search stopped.
    pub stop: LnsStop,
    /// Every improvement in order.
    pub timeline: Vec<LnsEvent>,
    /// Counters.
    pub stats: LnsStats,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
}
