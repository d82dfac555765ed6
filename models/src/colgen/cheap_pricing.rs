//! The frame both cheap pricings share (sse's centroid descent, wcsd's grown classes): one
//! class from every record, in parallel, kept when its reduced cost is negative.

use super::column::Column;
use super::run::PRICE_EPS;
use crate::root_lp::Duals;
use crate::{Criterion, Instance};
use rayon::prelude::*;

/// The frame of the cheap pricings (sse's centroid descent, wcsd's grown classes): the class
/// `start` finds from each record (in parallel), kept when its reduced cost at `duals` is
/// negative; at most `limit`, sorted by (reduced cost, members), distinct. Deterministic when
/// `deadline` does not pass; past it, no further start runs.
pub(super) fn from_every_record(
    inst: &Instance,
    criterion: Criterion,
    duals: &Duals,
    limit: usize,
    deadline: Option<std::time::Instant>,
    start: impl Fn(usize) -> Option<Vec<u32>> + Sync,
) -> Vec<(f64, Column)> {
    let mut found: Vec<(f64, Column)> = (0..inst.n)
        .into_par_iter()
        .filter_map(|r| {
            if crate::stop::past(deadline) {
                return None;
            }
            let col = Column::new(inst, criterion, start(r)?);
            let rc = duals.reduced_cost(&col.members, col.cost);
            (rc < -PRICE_EPS).then_some((rc, col))
        })
        .collect();
    found.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then_with(|| a.1.members.cmp(&b.1.members))
    });
    found.dedup_by(|a, b| a.1.members == b.1.members);
    found.truncate(limit);
    found
}
