//! The options of a column-generation run and the proof it ends with.

use crate::engine::{BoundCallback, SolutionCallback};
use crate::{ClassConstraints, Criterion, Instance, Partition};
use std::time::{Duration, Instant};

/// Improves a k_i-anonymous partition of the instance by the deadline (or returns `None`):
/// column generation calls it on its incumbent after the root LP, when the gap is large. The
/// large-neighbourhood search is one (`models::solve` supplies it: `colgen` does not depend on
/// `lns`, whose neighbourhoods are column-generation runs without one).
pub type Improver = Box<dyn Fn(&Instance, &Partition, Instant) -> Option<Partition>>;

/// Options of [`solve_colgen`].
pub struct ColgenOptions {
    /// dbil, wcsd or sse (other criteria are not sums over classes: an error result).
    pub criterion: Criterion,
    /// Wall-clock limit (`None` = until proven or over budget).
    pub time_limit: Option<Duration>,
    /// Heuristic partitions: their classes seed the master, the best is the first incumbent.
    pub warm_start: Vec<Partition>,
    /// Largest number of columns the proof may enumerate before reporting a gap.
    pub column_budget: usize,
    /// Separate odd-set cuts (subset-row cuts on triples and larger odd sets).
    pub cuts: bool,
    /// Largest odd set a cut may hold: 3 keeps the subset-row cuts on triples only. Default
    /// 15, or `OPTIK_CUT_SET_MAX` (an ablation knob: docs/microaggregation.md).
    pub cut_set_max: usize,
    /// The cut rounds' clock (they stop at 40% of the time limit) leaves out the seconds of
    /// the dives before them. Default true; `OPTIK_CUT_CLOCK=total` counts them (an ablation
    /// knob: at k = 5 on 1,000 records a root dive that ended past 40% of a 60 s limit left
    /// the root without a single cut).
    pub cut_clock_skips_dives: bool,
    /// A branch-and-price node's Lagrangian bounds raise the run's while its LP converges
    /// (up to the other open nodes' least bound). Default true; `OPTIK_NODE_BOUND=0` keeps
    /// only converged nodes' bounds (an ablation knob).
    pub node_bounds: bool,
    /// Share of the time left that the dive at the root LP's first convergence may take
    /// (with the companion: its partition restarts the search). Default 0.25;
    /// `OPTIK_ROOT_DIVE_SHARE` in (0, 1) sets it (an ablation knob).
    pub root_dive_share: f64,
    /// Called on every improving solution.
    pub on_solution: Option<SolutionCallback>,
    /// Called whenever the run's integer lower bound rises.
    pub on_bound: Option<BoundCallback>,
    /// Improves the incumbent before the proof when the root gap is large (see [`Improver`]).
    pub improve: Option<Improver>,
    /// The improver also runs while the root LP converges slowly and at its first convergence
    /// (from 500 records). Default true; `OPTIK_COLGEN_LNS=proof` keeps only the run before
    /// the proof (an ablation knob).
    pub improve_early: bool,
    /// A search on its own thread for the whole run (from 500 records, without class
    /// constraints; [`super::companion`]). When it runs, the blocking improver does not.
    pub companion: Option<super::companion::Companion>,
    /// Extra class constraints (l-diversity, links, maximum size): pricing emits only columns
    /// meeting them, warm starts breaking them are dropped.
    pub constraints: ClassConstraints,
    /// Weight α of the stability centre in dual price smoothing (0 turns smoothing off).
    /// Default 0.8, or `OPTIK_COLGEN_ALPHA` (an ablation knob).
    pub smoothing: f64,
    /// How optimality is proven after the root LP. Default [`Proof::Auto`], or
    /// `OPTIK_COLGEN_PROOF` = `auto` | `root` | `enum` | `tree` (an ablation knob).
    pub proof: Proof,
    /// Price-and-dive in branch-and-price ([`super::dive`]). Default true;
    /// `OPTIK_COLGEN_DIVE=0` turns every dive off (an ablation knob).
    pub dive: bool,
    /// With `dive`, also dive at a slow root LP's first convergence, with the companion.
    /// Default true; `OPTIK_COLGEN_DIVE=tree` keeps only the tree's dives (an ablation knob).
    pub root_dive: bool,
    /// With `dive`, also dive every 10 tree nodes or more (doubling after each dive that finds
    /// nothing). Default false: after such dives a 200-record tree without a time limit once
    /// stalled in pricing (see docs/exact.md); `OPTIK_COLGEN_DIVE=all` turns them on.
    pub node_dives: bool,
    /// With `dive` and a time limit, dive once more from the master's LP with the time left
    /// once at most this share of the limit is left and the bound ladder has no search left
    /// that would end in it (done, or its next rung predicted to take longer), while the
    /// incumbent is more than 1% above the LP: the run's last minute or two then goes to the
    /// incumbent rather than to a rung the deadline stops or to exact rounds that bound
    /// nothing (Census, k = 10: 65–97 s at the end of each run). Earlier in a run the time
    /// is the proof's (Census, k = 5: the ladder is done at 31 s of 600, the incumbent 1.7%
    /// above the LP, and the run goes on to converge and prove). Default `Some(0.25)`;
    /// `OPTIK_CLOSING_DIVE` sets the share (`0`: off; an ablation knob).
    pub closing_dive: Option<f64>,
    /// Below 500 records, with [`Proof::Auto`] and a time limit, when the gap after the root is
    /// too wide for the enumeration, the enumeration's first stage (the set-partitioning MIP
    /// over the 20n columns of least reduced cost at the root's duals, or over every column
    /// below the gap when there are at most 40n) runs first, its MIP given at most this share
    /// of the time left; branch-and-price follows only when the gap is still that wide. That
    /// MIP is a strong primal step where the restricted master lacks the columns: Adult, 100
    /// records, k = 5, it found the optimum 213.815 in 10 s, which the tree and the companion
    /// had not found in 300 s (docs/exact.md). Default `Some(0.25)`; `OPTIK_PROOF_PROBE` sets
    /// the share (`0`: off; an ablation knob). Not on the tables that `proof_probe_personal`
    /// covers ([`ColgenOptions::proof_probe_for`]).
    pub proof_probe: Option<f64>,
    /// The proof probe's share from 401 records (to its own limit of 500) when the k_i
    /// straddle 5, some below and some from it (personal k_i over {3, 5, 7};
    /// [`ColgenOptions::proof_probe_for`]). Default none: the probe's MIP over the 20n
    /// columns sat at HiGHS's root for its whole share there, and without it the tree ran
    /// instead (diabetes, 442 records, 60 s: gap means 0.57 → 0.49% over 16 pairs, lower in
    /// 12, the bound higher in 13; docs/exact.md, "The proof probe off at personal k_i").
    /// `OPTIK_PROOF_PROBE_PERSONAL` sets the share (an ablation knob).
    pub proof_probe_personal: Option<f64>,
    /// Where a partition has at most [`super::cover::MAX_CLASSES`] classes, each stage of the
    /// enumeration proof first searches its columns for the cheapest exact cover within the
    /// gap's reduced costs ([`super::cover`]) for at most this share of the time left (at most
    /// [`super::cover::MAX_SECONDS`]); a search that ends settles the stage without its MIP,
    /// and after one that does not, the later stages go to their MIPs. A probe's search gets
    /// the probe's share of it. Default `Some(0.9)` (at these sizes HiGHS's MIP mostly stays at
    /// its root: diabetes 100, k = 10, proven in 32.6 s with 0.9, not with 0.25;
    /// docs/exact.md); `OPTIK_PROOF_COVER` sets the share (`0`: off, every stage goes to the
    /// MIP; an ablation knob).
    pub proof_cover: Option<f64>,
    /// With a time limit, below 500 records, before branch-and-price (after the proof probe)
    /// while the incumbent has a class above the tight size ([`super::tight`]), a
    /// column-generation run with no class above it gets this share of the time left, for an
    /// incumbent. Default `Some(0.25)`; `OPTIK_TIGHT_PHASE` sets the share (`0`: off; an
    /// ablation knob).
    pub tight_phase: Option<f64>,
    /// The tight phase's run has a companion search of its own, under the tight size (the
    /// run's companion, when it has one). Default true; `OPTIK_TIGHT_COMPANION=0` runs it alone
    /// (an ablation knob).
    pub tight_companion: bool,
    /// The run's companion searches the tight problem (no class above the tight size) from the
    /// start, from the cheapest tight incumbent or warm start, and restarts only from tight
    /// incumbents (with a time limit, below 500 records, no class constraint). Default false;
    /// `OPTIK_TIGHT_SEARCH=1` on (an experiment knob).
    pub tight_search: bool,
    /// Partial pricing returns columns in which each record lies at most this many times
    /// ([`super::pricing::SearchOptions::cover`]). Default 10, or `OPTIK_PRICE_COVER` (0: no
    /// limit, the k best columns as before; an ablation knob).
    pub price_cover: Option<u32>,
    /// With a companion and a time limit, branch-and-price hands its core to the companion
    /// search once it has run this share of the time it had and its bound, rising at the rate
    /// so far, would not reach the incumbent by the limit ([`super::branch`]). Default 0.25, or
    /// `OPTIK_HANDOVER` (`0`: never; an ablation knob).
    pub handover_after: Option<f64>,
    /// A branch-and-price node takes the companion's incumbent between its pricing rounds, not
    /// only between nodes, and the tree gives way to the enumeration there as soon as that is
    /// within its reach (Adult, 50 records, k = 10: the companion found the optimum at 17 s,
    /// 0.1% above the bound, and the tree's first node cut until the limit without hearing of
    /// it). Default true; `OPTIK_NODE_SYNC=0` syncs between nodes only (an ablation knob).
    pub node_sync: bool,
    /// A node's cut rounds stop once a round raised its LP by less than this share of the gap
    /// left to the incumbent; the node then branches (and the root dives). Default
    /// `Some(0.01)` (Adult, 50 records, k = 10: the first node's rounds raised the bound by
    /// 0.17 in 55 s against a gap of 21); `OPTIK_NODE_CUT_TAIL` sets the share (`0`: cut up to
    /// the cap as before; an ablation knob).
    pub node_cut_tail: Option<f64>,
    /// Most odd-set cuts in the master per record: at the root's cut rounds (default 4,
    /// `OPTIK_CUT_FACTOR`) and during the tree (default 8, `OPTIK_NODE_CUT_FACTOR`); ablation
    /// knobs (16 and 32 proved two more of twelve k = 10 samples at 50–100 records but slowed
    /// four proofs by 1.6–8.8 times; docs/exact.md, technique row 67).
    pub cuts_per_record: (usize, usize),
    /// The root's cut rounds count as without gain (three such end them) when a round raised
    /// the LP by less than this share of the gap to the incumbent, beside the absolute test
    /// (2e-6 of the LP). Default `Some(0.005)` (diabetes, 100 records, k = 5: proven in 8.0 s
    /// against 12.5 s; bounds within 0.02% at 200–500 records); `OPTIK_ROOT_CUT_TAIL` sets the
    /// share (`0`: the absolute test alone, as before; an ablation knob). Not on the large
    /// tables at large k that `root_cut_tail_large` covers.
    pub root_cut_tail: Option<f64>,
    /// The root's cut tail from 401 to 1,000 records when every k_i is at least 5
    /// ([`ColgenOptions::root_cut_tail_for`]). Default `Some(0.05)`: there the minute's gap is
    /// mostly the incumbent's, and cuts that stop sooner bring the tree's dive and the
    /// companion's time forward (k = 10 at 442–500 records: gap means 4.04 → 3.60% over twelve
    /// pairs; k = 5 at 442–1,000: 1.72 → 1.51% over three; docs/exact.md, "A shorter root cut
    /// tail at large k"). `OPTIK_ROOT_CUT_TAIL_LARGE` sets the share (`0.005`: as on other
    /// tables, as before; an ablation knob).
    pub root_cut_tail_large: Option<f64>,
    /// The LP's rounding at each convergence of the root's cut rounds, offered as an incumbent
    /// (the companion restarts from it when it is better). The cuts move the LP for seconds at
    /// large k, and each LP rounds to another partition: on Adult 500, k = 10, the rounding
    /// after the last cut round was 1.4% below the companion's partition. Default on (gaps
    /// lower in 12 of 16 paired runs at k = 5 and 10, 500–1,000 records; at 50 records
    /// diabetes, k = 10, lost: 0.11% → 0.38%; docs/exact.md); `OPTIK_CUT_ROUNDING=0` off (an
    /// ablation knob).
    pub cut_rounding: bool,
    /// The LP rounding's steps ([`super::rounding::Moves`]; default: all, unless the knobs
    /// `OPTIK_ROUND_FORM` / `OPTIK_LOCAL_SWAPS` are `0`).
    pub rounding: super::rounding::Moves,
    /// The hand-over is also checked between a node's pricing rounds, not only between nodes.
    /// Default true; `OPTIK_HANDOVER_NODES=0` checks between nodes only (an ablation knob).
    pub handover_in_nodes: bool,
    /// When the tree hands over, the run's core dives from the root LP again and again with
    /// random fixing ([`super::dive::dives_after_the_hand_over`]) for this share of the time
    /// left, while the companion keeps its one core; then (below 1) the core goes to the
    /// companion as without it. Not on the tables that `handover_dives_k5` and
    /// `handover_dives_personal` cover ([`ColgenOptions::handover_dives_for`]). Default none
    /// (the core goes to the companion at once: at k = 10 on 442–500 records the dives were
    /// even with it over 24 pairs);
    /// `OPTIK_HANDOVER_DIVES=1` (or `exact`) dives until the limit, `=0.5` for half the time
    /// left (an experiment knob; docs/exact.md, "Randomised dives on the run's core after the
    /// hand-over").
    pub handover_dives: Option<f64>,
    /// The hand-over dives' share from 401 to 1,000 records when every k_i is from 5 to 9
    /// ([`ColgenOptions::handover_dives_for`]). Default `Some(1.0)`, dives until the limit:
    /// k = 5 at 442–1,000 records, gap means 1.37 → 1.21% over 24 pairs, lower in 16; at 500
    /// records 0.83 → 0.71% over twelve, lower in ten (docs/exact.md).
    /// `OPTIK_HANDOVER_DIVES_K5` sets the share (`0`: the core goes to the companion, as
    /// before; an ablation knob).
    pub handover_dives_k5: Option<f64>,
    /// The hand-over dives' share from 401 to 1,000 records when the k_i differ, some below 5
    /// and some from 5 (personal k_i over {3, 5, 7}; [`ColgenOptions::handover_dives_for`]).
    /// Default `Some(0.5)`, dives for half the time left, then the companion on every core:
    /// at 442–1,000 records, gap means 0.42 → 0.34% over 24 pairs, lower in 15, runs above
    /// 0.5% seven → three (docs/exact.md, "Randomised dives on the run's core after the
    /// hand-over", session 51).
    /// `OPTIK_HANDOVER_DIVES_PERSONAL` sets the share (`0`: the core goes to the companion at
    /// once, as before; an ablation knob).
    pub handover_dives_personal: Option<f64>,
    /// For sse, the root's pricing rounds first try the centroid descent
    /// ([`super::centroid_pricing`]) and run the exact search only when it finds nothing. Default
    /// true; `OPTIK_CENTROID_PRICING=0` turns it off (an ablation knob).
    pub centroid_pricing: bool,
    /// For wcsd, the root's pricing rounds first try growing a class from every record
    /// ([`super::pair_sum_pricing`]) and run the exact search only when it finds nothing.
    /// Default true; `OPTIK_WCSD_PRICING=0` turns it off (an ablation knob).
    pub wcsd_pricing: bool,
    /// With the root's fast pricing (sse's centroid descent, wcsd's grown classes), from its
    /// first stall, bounds at scaled duals replace the
    /// exact rounds while they raise the bound ([`super::ladder`]). Default true;
    /// `OPTIK_BOUND_LADDER=0` turns it off (an ablation knob).
    pub bound_ladder: bool,
    /// When the fast pricing first stalls after this share of the time limit (with no limit:
    /// when the share is 0) and the bound ladder starts there, the stall's dive waits until a
    /// rung has bounded the run, keeping its share of the time left at the stall (the ladder
    /// must end that long before the limit, and calibrates first: see `colgen::ladder`'s
    /// `CALIBRATION_RUNG`). A late stall's dive (40% of the time left when the gap is
    /// wide) left no time for the first rung: Census, k = 10, stall at 304 s of 600, dive
    /// 120 s, the rung unfinished at the limit and the bound the per-record one (gap 35.6%).
    /// An early stall dives first, as before (Tarragona, k = 10, and wcsd at 1,000 records in
    /// 60 s stall early). Default 0.5; `OPTIK_LADDER_FIRST=S` sets it, `off` dives first
    /// always (an ablation knob).
    pub ladder_first_after: Option<f64>,
    /// With the root's fast pricing (as `bound_ladder`), from `stall_step_min_records` records,
    /// the master is solved by the interior-point method until the fast pricing's tail (a
    /// round of under n/8 columns after one of n/2) or first stall
    /// ([`super::master::Master::set_interior`]), then at vertices again. Default true;
    /// `OPTIK_INTERIOR_DESCENT=0` solves at vertices throughout (an ablation knob).
    pub interior_descent: bool,
    /// The node budget per root task of a bound-ladder rung's first search, before its factor
    /// (default `None`: 1,000,000 / n, at least 10,000). Tests lower it, to reach the budget
    /// stops on small instances.
    pub ladder_node_budget: Option<u64>,
    /// The fast pricing's first stall gets a primal step (the LP's rounding, the
    /// restricted master's MIP, and a dive when the incumbent stays far above the LP) from
    /// this many records. Default 500: smaller instances (the large-neighbourhood search's
    /// sub-problems among them) reach the proof's primal steps fast. Tests lower it.
    pub stall_step_min_records: usize,
    /// A later stall's restricted master MIP waits until this many times the last stall
    /// MIP's seconds have passed since it ended (default 10: these MIPs take at most about a
    /// tenth of the run; tests on tiny instances set 0).
    pub restall_spacing: f64,
    /// HiGHS's node limit for the proof's MIPs (default none). Tests stop them early with it,
    /// to check the bound a stopped proof MIP leaves.
    pub proof_mip_nodes: Option<u64>,
    /// HiGHS's time limit for the proof's MIPs, in seconds, when it is below the time left
    /// (default none). Tests stop them by the clock with it, as a run's limit does.
    pub proof_mip_seconds: Option<f64>,
    /// A proof MIP stopped by its limit raises the run's bound by its dual bound (within the
    /// enumeration's reach). Default true; `OPTIK_MIP_BOUND=0` drops that bound (an ablation
    /// knob).
    pub proof_mip_bound: bool,
    /// Exchange columns between each record and this many nearest records in the root's
    /// rounds until the LP first converges ([`super::exchange`]); default 2, 0 off
    /// (`OPTIK_EXCHANGES=N`).
    pub exchanges: usize,
    /// Their δ as a share of the dual-optimal one (default 0.3; 1: dual-optimal;
    /// `OPTIK_EXCHANGE_SCALE`).
    pub exchange_scale: f64,
    /// The companion restarts with the root LP's duals as its per-record bounds when the LP
    /// first converges ([`super::companion::RecordBounds`]). Default false (in side-by-side
    /// runs it helped on Adult and hurt on Census: docs/exact.md, "The companion guided by the
    /// duals"); `OPTIK_COMPANION_DUALS=1` turns it on (an ablation knob).
    pub companion_duals: bool,
}

/// How column generation proves optimality once the root LP has converged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Enumeration when the gap after the root is small (≤ 0.5%), branch-and-price otherwise,
    /// until the incumbent comes within 0.5% of the root LP (then the enumeration).
    Auto,
    /// As `Auto`, but decided once at the root: the tree never gives way (an ablation knob).
    AutoAtRoot,
    /// Enumerate every column whose reduced cost leaves room for a better partition and solve
    /// the set-partitioning MIP over them.
    Enumeration,
    /// Branch-and-price with Ryan–Foster branching.
    Tree,
}

impl Proof {
    /// The method for the gap between the root LP value `z` and the incumbent `ub`.
    pub(super) fn tree(self, z: f64, ub: i64) -> bool {
        match self {
            Proof::Tree => true,
            Proof::Enumeration => false,
            Proof::Auto | Proof::AutoAtRoot => (ub as f64 - z) > 0.005 * z.abs().max(1.0),
        }
    }

    /// `OPTIK_COLGEN_PROOF`, else `Auto`.
    fn from_env() -> Self {
        match std::env::var("OPTIK_COLGEN_PROOF").as_deref() {
            Ok("tree") => Proof::Tree,
            Ok("enum") => Proof::Enumeration,
            Ok("root") => Proof::AutoAtRoot,
            _ => Proof::Auto,
        }
    }
}

/// The number in the environment variable `name` (`None`: unset or not a number). The
/// engines' ablation knobs read through it.
pub(crate) fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.parse().ok()
}

/// HiGHS's thread count for column generation's LPs and MIPs, the large-neighbourhood
/// search's among them (`OPTIK_HIGHS_THREADS`; unset: 1; 0: HiGHS's default, every core).
/// HiGHS makes a task scheduler per calling thread, at that thread's first solve, with worker
/// threads of its own: with every core, the run's thread and each search worker brought one
/// more thread to a two-core machine. Measured in docs/exact.md, "HiGHS on one thread".
pub(super) fn highs_threads() -> Option<i32> {
    threads_setting(std::env::var("OPTIK_HIGHS_THREADS").ok().as_deref())
}

/// [`highs_threads`] from the knob's text: one thread unless a count is given, HiGHS's
/// default (`None`) for 0 or less.
fn threads_setting(knob: Option<&str>) -> Option<i32> {
    match knob.and_then(|t| t.trim().parse::<i32>().ok()) {
        None => Some(1),
        Some(t) if t <= 0 => None,
        Some(t) => Some(t),
    }
}

/// A count knob where `0` turns the feature off (`None`); unset (or not a number): `default`.
pub(super) fn env_count_or_off<T: std::str::FromStr + Default + PartialEq>(
    name: &str,
    default: T,
) -> Option<T> {
    match env_number::<T>(name) {
        Some(v) if v == T::default() => None,
        Some(v) => Some(v),
        None => Some(default),
    }
}

/// `OPTIK_HANDOVER` (a share in (0, 1]; 0 = never), else 0.25 (measured on Adult samples of
/// 1,000–5,000 records: docs/exact.md's "Handing the core over").
fn handover_from_env() -> Option<f64> {
    match env_number::<f64>("OPTIK_HANDOVER") {
        Some(s) if s > 0.0 && s.is_finite() => Some(s),
        Some(_) => None,
        None => Some(0.25),
    }
}

/// `OPTIK_COLGEN_ALPHA`, else 0.8 (measured on Adult k = 5: docs/exact.md's ablation).
fn smoothing_from_env() -> f64 {
    env_number::<f64>("OPTIK_COLGEN_ALPHA")
        .filter(|a| a.is_finite())
        .unwrap_or(0.8)
}

/// A share of the time in the environment variable `name` (at most 1; `0` or less: `None`,
/// off), else `default`.
fn env_share(name: &str, default: f64) -> Option<f64> {
    match env_number::<f64>(name) {
        Some(share) if share <= 0.0 => None,
        Some(share) => Some(share.min(1.0)),
        None => Some(default),
    }
}

/// `OPTIK_PRICE_COVER` (0 = no limit), else 10 (measured on Adult at k = 5, 10 and {3, 5, 7}:
/// docs/exact.md's "Spread columns").
fn price_cover_from_env() -> Option<u32> {
    env_count_or_off("OPTIK_PRICE_COVER", 10u32)
}

impl Default for ColgenOptions {
    fn default() -> Self {
        ColgenOptions {
            criterion: Criterion::Dbil,
            time_limit: None,
            warm_start: Vec::new(),
            column_budget: 2_000_000,
            cuts: true,
            cut_set_max: env_number::<usize>("OPTIK_CUT_SET_MAX").map_or(15, |m| m.max(3)),
            cut_clock_skips_dives: std::env::var("OPTIK_CUT_CLOCK").as_deref() != Ok("total"),
            node_bounds: std::env::var("OPTIK_NODE_BOUND").as_deref() != Ok("0"),
            root_dive_share: env_number::<f64>("OPTIK_ROOT_DIVE_SHARE")
                .filter(|s| *s > 0.0 && *s < 1.0)
                .unwrap_or(0.25),
            on_solution: None,
            on_bound: None,
            improve: None,
            improve_early: std::env::var("OPTIK_COLGEN_LNS").map_or(true, |v| v != "proof"),
            companion: None,
            constraints: ClassConstraints::default(),
            smoothing: smoothing_from_env(),
            proof: Proof::from_env(),
            dive: std::env::var("OPTIK_COLGEN_DIVE").map_or(true, |v| v != "0"),
            root_dive: std::env::var("OPTIK_COLGEN_DIVE").map_or(true, |v| v != "0" && v != "tree"),
            node_dives: std::env::var("OPTIK_COLGEN_DIVE").is_ok_and(|v| v == "all"),
            closing_dive: env_share("OPTIK_CLOSING_DIVE", 0.25),
            proof_probe: env_share("OPTIK_PROOF_PROBE", 0.25),
            proof_probe_personal: env_number::<f64>("OPTIK_PROOF_PROBE_PERSONAL")
                .filter(|s| *s > 0.0)
                .map(|s| s.min(1.0)),
            proof_cover: env_share("OPTIK_PROOF_COVER", 0.9),
            tight_phase: env_share("OPTIK_TIGHT_PHASE", 0.25),
            tight_companion: std::env::var("OPTIK_TIGHT_COMPANION").as_deref() != Ok("0"),
            tight_search: std::env::var("OPTIK_TIGHT_SEARCH").as_deref() == Ok("1"),
            price_cover: price_cover_from_env(),
            handover_after: handover_from_env(),
            node_sync: std::env::var("OPTIK_NODE_SYNC").as_deref() != Ok("0"),
            node_cut_tail: env_share("OPTIK_NODE_CUT_TAIL", 0.01),
            cuts_per_record: (
                env_number("OPTIK_CUT_FACTOR").unwrap_or(4),
                env_number("OPTIK_NODE_CUT_FACTOR").unwrap_or(8),
            ),
            root_cut_tail: env_share("OPTIK_ROOT_CUT_TAIL", 0.005),
            root_cut_tail_large: env_share("OPTIK_ROOT_CUT_TAIL_LARGE", 0.05),
            cut_rounding: std::env::var("OPTIK_CUT_ROUNDING").as_deref() != Ok("0"),
            rounding: super::rounding::Moves::default(),
            handover_in_nodes: std::env::var("OPTIK_HANDOVER_NODES").as_deref() != Ok("0"),
            handover_dives: match std::env::var("OPTIK_HANDOVER_DIVES").as_deref() {
                Ok("exact") => Some(1.0),
                _ => env_share("OPTIK_HANDOVER_DIVES", 0.0).filter(|&s| s > 0.0),
            },
            handover_dives_k5: env_share("OPTIK_HANDOVER_DIVES_K5", 1.0),
            handover_dives_personal: env_share("OPTIK_HANDOVER_DIVES_PERSONAL", 0.5),
            centroid_pricing: env_number::<u32>("OPTIK_CENTROID_PRICING") != Some(0),
            wcsd_pricing: env_number::<u32>("OPTIK_WCSD_PRICING") != Some(0),
            bound_ladder: env_number::<u32>("OPTIK_BOUND_LADDER") != Some(0),
            ladder_first_after: match std::env::var("OPTIK_LADDER_FIRST").as_deref() {
                Ok("off") => None,
                _ => Some(env_number::<f64>("OPTIK_LADDER_FIRST").map_or(0.5, |s| s.max(0.0))),
            },
            interior_descent: env_number::<u32>("OPTIK_INTERIOR_DESCENT") != Some(0),
            ladder_node_budget: None,
            stall_step_min_records: 500,
            restall_spacing: 10.0,
            proof_mip_nodes: None,
            proof_mip_seconds: None,
            proof_mip_bound: env_number::<u32>("OPTIK_MIP_BOUND") != Some(0),
            exchanges: env_number::<usize>("OPTIK_EXCHANGES").unwrap_or(2),
            exchange_scale: env_number::<f64>("OPTIK_EXCHANGE_SCALE")
                .filter(|s| *s >= 0.0)
                .unwrap_or(0.3),
            companion_duals: env_number::<u32>("OPTIK_COMPANION_DUALS") == Some(1),
        }
    }
}

impl std::fmt::Debug for ColgenOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColgenOptions")
            .field("criterion", &self.criterion)
            .field("time_limit", &self.time_limit)
            .field("warm_start", &self.warm_start.len())
            .field("column_budget", &self.column_budget)
            .field("cuts", &self.cuts)
            .field("cut_set_max", &self.cut_set_max)
            .field("cut_clock_skips_dives", &self.cut_clock_skips_dives)
            .field("node_bounds", &self.node_bounds)
            .field("root_dive_share", &self.root_dive_share)
            .field("smoothing", &self.smoothing)
            .field("proof", &self.proof)
            .field("dive", &self.dive)
            .field("root_dive", &self.root_dive)
            .field("node_dives", &self.node_dives)
            .field("closing_dive", &self.closing_dive)
            .field("proof_probe", &self.proof_probe)
            .field("proof_probe_personal", &self.proof_probe_personal)
            .field("proof_cover", &self.proof_cover)
            .field("tight_phase", &self.tight_phase)
            .field("tight_companion", &self.tight_companion)
            .field("tight_search", &self.tight_search)
            .field("price_cover", &self.price_cover)
            .field("handover_after", &self.handover_after)
            .field("node_sync", &self.node_sync)
            .field("node_cut_tail", &self.node_cut_tail)
            .field("cuts_per_record", &self.cuts_per_record)
            .field("root_cut_tail", &self.root_cut_tail)
            .field("root_cut_tail_large", &self.root_cut_tail_large)
            .field("cut_rounding", &self.cut_rounding)
            .field("rounding", &self.rounding)
            .field("handover_in_nodes", &self.handover_in_nodes)
            .field("handover_dives", &self.handover_dives)
            .field("handover_dives_k5", &self.handover_dives_k5)
            .field("handover_dives_personal", &self.handover_dives_personal)
            .field("centroid_pricing", &self.centroid_pricing)
            .field("wcsd_pricing", &self.wcsd_pricing)
            .field("bound_ladder", &self.bound_ladder)
            .field("ladder_first_after", &self.ladder_first_after)
            .field("interior_descent", &self.interior_descent)
            .field("ladder_node_budget", &self.ladder_node_budget)
            .field("stall_step_min_records", &self.stall_step_min_records)
            .field("restall_spacing", &self.restall_spacing)
            .field("proof_mip_nodes", &self.proof_mip_nodes)
            .field("proof_mip_seconds", &self.proof_mip_seconds)
            .field("proof_mip_bound", &self.proof_mip_bound)
            .field("exchanges", &self.exchanges)
            .field("exchange_scale", &self.exchange_scale)
            .field("companion_duals", &self.companion_duals)
            .field("constraints", &!self.constraints.is_empty())
            .field("improve", &self.improve.is_some())
            .field("improve_early", &self.improve_early)
            .field("companion", &self.companion.is_some())
            .finish_non_exhaustive()
    }
}

/// Above this many records (and up to [`LARGE_TAIL_UP_TO`]), when every k_i is at least
/// [`LARGE_TAIL_FROM_K`], the root's cut rounds take [`ColgenOptions::root_cut_tail_large`]:
/// measured at 442–1,000 records; smaller tables are proven at k = 5 and 10 with the cuts'
/// help (diabetes, 100 records, k = 5).
const LARGE_TAIL_ABOVE: usize = 400;

/// See [`LARGE_TAIL_ABOVE`]: on Adult 2,000, k = 5 in 300 s the longer tail lost (1.40 →
/// 1.52%, one pair), so larger tables keep [`ColgenOptions::root_cut_tail`]; the hand-over
/// dives were even there over four pairs (1.37 → 1.39%, lower in three by 0.03–0.12 points,
/// higher in one by 0.34), so they stop at the same size.
const LARGE_TAIL_UP_TO: usize = 1000;

/// See [`LARGE_TAIL_ABOVE`].
const LARGE_TAIL_FROM_K: u32 = 5;

/// The k_i under which [`ColgenOptions::handover_dives_k5`] holds (on tables of
/// [`LARGE_TAIL_ABOVE`] + 1 to [`LARGE_TAIL_UP_TO`] records whose least k_i is at least
/// [`LARGE_TAIL_FROM_K`]): at k = 10 on 442–500 records the dives were even with the
/// companion on every core (gap means 3.49 → 3.55% over 24 pairs, lower in 13, higher in 10).
const HANDOVER_DIVES_BELOW_K: u32 = 10;

/// Whether `inst` has [`LARGE_TAIL_ABOVE`] + 1 to [`LARGE_TAIL_UP_TO`] records and every k_i
/// is at least [`LARGE_TAIL_FROM_K`]: the range where the root's longer cut tail was
/// measured to win (k = 5 and 10), and, below [`HANDOVER_DIVES_BELOW_K`], the hand-over dives.
fn large_at_k5(inst: &Instance) -> bool {
    sized_for_the_tail(inst) && inst.least_k() >= LARGE_TAIL_FROM_K
}

/// Whether `inst` has [`LARGE_TAIL_ABOVE`] + 1 to [`LARGE_TAIL_UP_TO`] records.
fn sized_for_the_tail(inst: &Instance) -> bool {
    inst.n > LARGE_TAIL_ABOVE && inst.n <= LARGE_TAIL_UP_TO
}

/// Whether `inst` has [`LARGE_TAIL_ABOVE`] + 1 to [`LARGE_TAIL_UP_TO`] records and its k_i
/// straddle [`LARGE_TAIL_FROM_K`] (some below, some from it): personal k_i such as
/// {3, 5, 7}, where the hand-over dives for half the time left and (below 500 records) no
/// proof probe were measured to win; k_i over {2, 3} were not measured and keep
/// [`ColgenOptions::handover_dives`] and [`ColgenOptions::proof_probe`].
fn personal_across_k5(inst: &Instance) -> bool {
    let straddles = inst.least_k() < LARGE_TAIL_FROM_K && inst.largest_k() >= LARGE_TAIL_FROM_K;
    sized_for_the_tail(inst) && straddles
}

impl ColgenOptions {
    /// The root's cut tail on `inst`: [`ColgenOptions::root_cut_tail_large`] from
    /// [`LARGE_TAIL_ABOVE`] + 1 to [`LARGE_TAIL_UP_TO`] records when every k_i is at least
    /// [`LARGE_TAIL_FROM_K`], [`ColgenOptions::root_cut_tail`] otherwise (personal k_i and k_i
    /// over {2, 3} included).
    pub fn root_cut_tail_for(&self, inst: &Instance) -> Option<f64> {
        if large_at_k5(inst) {
            self.root_cut_tail_large
        } else {
            self.root_cut_tail
        }
    }

    /// The proof probe's share on `inst`: [`ColgenOptions::proof_probe_personal`] from
    /// [`LARGE_TAIL_ABOVE`] + 1 records when its k_i straddle [`LARGE_TAIL_FROM_K`],
    /// [`ColgenOptions::proof_probe`] otherwise (the probe itself runs below 500 records).
    pub fn proof_probe_for(&self, inst: &Instance) -> Option<f64> {
        if personal_across_k5(inst) {
            self.proof_probe_personal
        } else {
            self.proof_probe
        }
    }

    /// The hand-over dives' share on `inst`: from [`LARGE_TAIL_ABOVE`] + 1 to
    /// [`LARGE_TAIL_UP_TO`] records, [`ColgenOptions::handover_dives_k5`] when every k_i is
    /// from [`LARGE_TAIL_FROM_K`] to [`HANDOVER_DIVES_BELOW_K`] − 1 and
    /// [`ColgenOptions::handover_dives_personal`] when some k_i are below
    /// [`LARGE_TAIL_FROM_K`] and some not; [`ColgenOptions::handover_dives`] otherwise (k = 10,
    /// k_i over {2, 3} and other sizes included).
    pub fn handover_dives_for(&self, inst: &Instance) -> Option<f64> {
        if large_at_k5(inst) && inst.largest_k() < HANDOVER_DIVES_BELOW_K {
            self.handover_dives_k5
        } else if personal_across_k5(inst) {
            self.handover_dives_personal
        } else {
            self.handover_dives
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{env_count_or_off, env_number, threads_setting};

    /// The knob readers: unset or not a number gives the default, `0` turns a count off.
    #[test]
    fn knobs_read_numbers_and_zero_means_off() {
        // A variable of this test's own: tests run in parallel in one process.
        let name = "OPTIK_TEST_KNOB_READERS";
        std::env::remove_var(name);
        assert_eq!(env_number::<f64>(name), None);
        assert_eq!(env_count_or_off(name, 10u32), Some(10));
        std::env::set_var(name, "x");
        assert_eq!(env_count_or_off(name, 10u32), Some(10));
        std::env::set_var(name, "0");
        assert_eq!(env_count_or_off(name, 10u32), None);
        std::env::set_var(name, "3");
        assert_eq!(env_count_or_off(name, 10u32), Some(3));
        std::env::set_var(name, "0.25");
        assert_eq!(env_number::<f64>(name), Some(0.25));
        std::env::remove_var(name);
    }

    /// `n` records on a line, record i with the k_i `k(i)`.
    fn inst(n: usize, k: &dyn Fn(usize) -> u32) -> crate::Instance {
        let ks = (0..n).map(k).collect();
        crate::Instance::from_distance(1.0, ks, |i, j| i.abs_diff(j) as f64).unwrap()
    }

    /// The longer root cut tail is for tables of 401 to 1,000 records whose every k_i is at
    /// least 5; other sizes and smaller k_i keep the other.
    #[test]
    fn the_large_cut_tail_is_for_large_tables_at_large_k() {
        use super::ColgenOptions;
        let opts = ColgenOptions {
            root_cut_tail: Some(0.005),
            root_cut_tail_large: Some(0.05),
            ..ColgenOptions::default()
        };
        assert_eq!(opts.root_cut_tail_for(&inst(401, &|_| 5)), Some(0.05));
        assert_eq!(opts.root_cut_tail_for(&inst(442, &|_| 10)), Some(0.05));
        assert_eq!(opts.root_cut_tail_for(&inst(1000, &|_| 5)), Some(0.05));
        assert_eq!(opts.root_cut_tail_for(&inst(400, &|_| 10)), Some(0.005));
        assert_eq!(opts.root_cut_tail_for(&inst(1001, &|_| 5)), Some(0.005));
        // Personal k_i with a 3 among them.
        let personal = |i: usize| if i % 10 == 0 { 3 } else { 5 };
        assert_eq!(opts.root_cut_tail_for(&inst(500, &personal)), Some(0.005));
        assert_eq!(opts.root_cut_tail_for(&inst(500, &|_| 2)), Some(0.005));
    }

    /// The hand-over dives' default shares are for tables of 401 to 1,000 records whose every
    /// k_i is from 5 to 9 (until the limit), or whose k_i straddle 5 (personal k_i: half the
    /// time left); k = 10, k_i below 5 and other sizes keep the knob's.
    #[test]
    fn the_hand_over_dives_are_for_large_tables_at_k_5() {
        use super::ColgenOptions;
        let opts = ColgenOptions {
            handover_dives: None,
            handover_dives_k5: Some(1.0),
            handover_dives_personal: Some(0.5),
            ..ColgenOptions::default()
        };
        assert_eq!(opts.handover_dives_for(&inst(401, &|_| 5)), Some(1.0));
        assert_eq!(opts.handover_dives_for(&inst(1000, &|_| 5)), Some(1.0));
        assert_eq!(
            opts.handover_dives_for(&inst(500, &|i| 5 + (i % 5) as u32)),
            Some(1.0)
        );
        assert_eq!(opts.handover_dives_for(&inst(500, &|_| 10)), None);
        assert_eq!(
            opts.handover_dives_for(&inst(500, &|i| if i == 0 { 10 } else { 5 })),
            None
        );
        assert_eq!(opts.handover_dives_for(&inst(400, &|_| 5)), None);
        assert_eq!(opts.handover_dives_for(&inst(1001, &|_| 5)), None);
        // Personal k_i across 5 take their own share, in the same size range only; k_i over
        // {2, 3} do not.
        let personal = |i: usize| [3, 5, 7][i % 3];
        assert_eq!(opts.handover_dives_for(&inst(500, &personal)), Some(0.5));
        assert_eq!(opts.handover_dives_for(&inst(401, &personal)), Some(0.5));
        assert_eq!(opts.handover_dives_for(&inst(1000, &personal)), Some(0.5));
        assert_eq!(opts.handover_dives_for(&inst(400, &personal)), None);
        assert_eq!(opts.handover_dives_for(&inst(1001, &personal)), None);
        let three_and_ten = |i: usize| if i == 0 { 10 } else { 3 };
        assert_eq!(
            opts.handover_dives_for(&inst(500, &three_and_ten)),
            Some(0.5)
        );
        assert_eq!(
            opts.handover_dives_for(&inst(500, &|i| 2 + (i % 2) as u32)),
            None
        );
        assert_eq!(opts.handover_dives_for(&inst(500, &|_| 3)), None);
        // The knob for the other tables, and the k = 5 and personal shares turned off.
        let other = ColgenOptions {
            handover_dives: Some(0.5),
            handover_dives_k5: None,
            handover_dives_personal: None,
            ..opts
        };
        assert_eq!(other.handover_dives_for(&inst(500, &|_| 10)), Some(0.5));
        assert_eq!(other.handover_dives_for(&inst(500, &|_| 5)), None);
        assert_eq!(other.handover_dives_for(&inst(500, &personal)), None);
        assert_eq!(other.handover_dives_for(&inst(500, &|_| 3)), Some(0.5));
    }

    /// The proof probe keeps its share except from 401 records when the k_i straddle 5
    /// (personal k_i), where it takes the personal share (none by default).
    #[test]
    fn the_proof_probe_is_not_for_personal_k_i_from_401_records() {
        use super::ColgenOptions;
        let opts = ColgenOptions {
            proof_probe: Some(0.25),
            proof_probe_personal: None,
            ..ColgenOptions::default()
        };
        let personal = |i: usize| [3, 5, 7][i % 3];
        assert_eq!(opts.proof_probe_for(&inst(401, &personal)), None);
        assert_eq!(opts.proof_probe_for(&inst(442, &personal)), None);
        assert_eq!(opts.proof_probe_for(&inst(400, &personal)), Some(0.25));
        assert_eq!(opts.proof_probe_for(&inst(100, &personal)), Some(0.25));
        assert_eq!(opts.proof_probe_for(&inst(442, &|_| 5)), Some(0.25));
        assert_eq!(opts.proof_probe_for(&inst(442, &|_| 10)), Some(0.25));
        assert_eq!(
            opts.proof_probe_for(&inst(442, &|i| 2 + (i % 2) as u32)),
            Some(0.25)
        );
        let knob = ColgenOptions {
            proof_probe_personal: Some(0.5),
            ..opts
        };
        assert_eq!(knob.proof_probe_for(&inst(442, &personal)), Some(0.5));
        assert_eq!(knob.proof_probe_for(&inst(442, &|_| 5)), Some(0.25));
    }

    /// HiGHS gets one thread unless the knob names a count; 0 (or less) is HiGHS's default.
    #[test]
    fn highs_gets_one_thread_unless_told() {
        assert_eq!(threads_setting(None), Some(1));
        assert_eq!(threads_setting(Some("x")), Some(1));
        assert_eq!(threads_setting(Some("2")), Some(2));
        assert_eq!(threads_setting(Some(" 4 ")), Some(4));
        assert_eq!(threads_setting(Some("0")), None);
        assert_eq!(threads_setting(Some("-1")), None);
    }
}
