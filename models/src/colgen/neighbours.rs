//! Starting columns for sse: every record with its nearest records, for every class size
//! from its k_i up to the size cap. SSE's first masters are highly degenerate when they hold
//! only the warm starts' classes (the LP value stays at the incumbent for many pricing rounds);
//! these n · k compact classes give the LP alternatives at once.

use super::column::{max_size, Column};
use crate::{Criterion, Instance};
use rayon::prelude::*;

/// Record i plus its s − 1 nearest records (ties by index), for s from the smallest valid size
/// to 2·K − 1 (K the class's largest k), for every record i.
pub fn nearest_columns(inst: &Instance, criterion: Criterion) -> Vec<Column> {
    (0..inst.n)
        .into_par_iter()
        .flat_map_iter(|i| {
            let mut order: Vec<usize> = (0..inst.n).filter(|&j| j != i).collect();
            order.sort_by_key(|&j| (inst.d(i, j), j));
            let mut members = vec![i as u32];
            let mut kmax = inst.k[i];
            let mut out = Vec::new();
            for &j in &order {
                if members.len() >= kmax as usize {
                    out.push(Column::new(inst, criterion, members.clone()));
                }
                if members.len() >= max_size(kmax) {
                    break;
                }
                members.push(j as u32);
                kmax = kmax.max(inst.k[j]);
            }
            if members.len() >= kmax as usize && members.len() <= max_size(kmax) {
                out.push(Column::new(inst, criterion, members));
            }
            out
        })
        .collect()
}
