//! Partitions read off a master LP solution: the LP's own partition when it is integral, and
//! its rounding ([`rounding::round`]), offered to the run. The root, the tree's nodes and the
//! dive use them.

use super::column::Column;
use super::master::{LpSolution, Master};
use super::options::ColgenOptions;
use super::run::{partition_of, Run};
use super::{rounding, start};
use crate::{Instance, Partition};

/// The partition of an integral LP solution without artificial columns.
pub(super) fn integral_partition(n: usize, master: &Master, sol: &LpSolution) -> Option<Partition> {
    const EPS: f64 = 1e-6;
    if sol.x.iter().any(|&v| v > EPS && v < 1.0 - EPS) {
        return None;
    }
    let chosen: Vec<&Column> = master
        .columns
        .iter()
        .zip(&sol.x)
        .filter(|(_, &v)| v > 0.5)
        .map(|(c, _)| c)
        .collect();
    let covered: usize = chosen.iter().map(|c| c.members.len()).sum();
    (covered == n).then(|| partition_of(n, &chosen))
}

/// LP rounding of `sol` (columns the master holds at 0 count as 0), offered to the run;
/// returns the rounded partition and its cost. The classes of `frozen` records (empty: none)
/// stay as the LP has them ([`rounding::round`]).
pub(super) fn round_lp(
    inst: &Instance,
    opts: &ColgenOptions,
    run: &mut Run,
    master: &Master,
    sol: &LpSolution,
    frozen: &[bool],
) -> Option<(Partition, i64)> {
    let x: Vec<f64> = sol
        .x
        .iter()
        .enumerate()
        .map(|(c, &v)| if master.is_disabled(c) { 0.0 } else { v })
        .collect();
    let p = rounding::round(
        inst,
        opts.criterion,
        &master.columns,
        &x,
        &opts.constraints,
        run.deadline,
        frozen,
        opts.rounding,
    )?;
    let cost = start::partition_cost(inst, opts.criterion, &p);
    run.offer(inst, p.clone(), cost, false);
    Some((p, cost))
}
