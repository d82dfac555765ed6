//! The three heuristics of seed 001 §5.4, each in a k form and a personalised k_i form:
//! [MDAV](mdav()) (Domingo-Ferrer & Torra), [greedy k-member clustering](kmember()) (Byun et
//! al.) with the cost of eq. 5.3, 5.4 or 5.5, and [Mondrian](mondrian()) (LeFevre et al.).
//!
//! Every heuristic returns a [`Partition`] covering each record exactly once whose classes hold
//! at least the largest k_i of their members, and is deterministic: the same input (and, for
//! k-member, the same seed) gives the same partition whatever the number of threads. Parallel
//! scans (rayon) reduce with a total order on `(value, record index)`, so ties always go to the
//! smallest record index.
//!
//! The **k form** ([`Form::K`]) runs the original k-anonymity heuristic with
//! `k = max_i k_i` for every record, as the seed does for its comparisons; the **k_i form**
//! ([`Form::Ki`]) uses each record's own k_i.

mod kmember;
mod mdav;
mod mdav_sse;
mod mondrian;
mod options;
mod repair;
mod scan;
pub(crate) mod sse_local;
#[cfg(test)]
mod testutil;
pub(crate) mod wcsd_local;

use kmember::kmember;
use mdav::mdav;
use mdav_sse::mdav_sse;
use mondrian::mondrian;
pub(crate) use options::effective_k;
pub use options::{Form, Heuristic, HeuristicOptions, KMemberCost};

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::data::qi::QiTable;
use crate::data::standardised::Standardised;
use crate::Partition;
use indicatif::ProgressBar;

/// Runs the selected heuristic. `progress` is advanced by one per record as records are
/// assigned to classes (the caller sets its length, `qi.n`).
///
/// The result is k_i-anonymous for `k` in both forms (the k form enforces `max k_i ≥ k_i`).
/// `mdav-sse` needs numeric quasi-identifiers (callers check with
/// [`crate::data::standardised::Standardised::new`]; [`crate::partition::run`] does).
pub(crate) fn run(
    opts: &HeuristicOptions,
    qi: &QiTable,
    dist: &RecordDistance,
    k: &[u32],
    progress: &ProgressBar,
) -> Partition {
    assert_eq!(k.len(), qi.n, "one k_i per record");
    assert_eq!(dist.len(), qi.n, "distance over the same records");
    let ks = effective_k(opts.form, k);
    let p = match opts.method {
        Heuristic::Mdav => mdav(dist, &ks, progress),
        Heuristic::KMember => kmember(dist, &ks, opts.cost, opts.seed, progress),
        Heuristic::Mondrian => mondrian(qi, &ks, progress),
        Heuristic::MdavSse => {
            let z = Standardised::new(qi).expect("mdav-sse runs on numeric quasi-identifiers");
            mdav_sse(&z, &ks, progress)
        }
    };
    debug_assert!(
        p.violations(k).is_empty(),
        "heuristic output is k_i-anonymous"
    );
    p
}

/// Runs the selected heuristic on the records of `ds` (progress as in [`run`]).
pub fn run_on(
    ds: &Dataset,
    dist: &RecordDistance,
    opts: &HeuristicOptions,
    progress: &ProgressBar,
) -> Partition {
    run(opts, &ds.qi, dist, &ds.k, progress)
}

/// Largest k_i among `members` without record `skip` and with record `add`: what a class must
/// still hold after a local search moves `skip` out and `add` in (0 when nothing is left).
pub(crate) fn largest_k_after(
    members: &[usize],
    k: &[u32],
    skip: usize,
    add: Option<usize>,
) -> usize {
    members
        .iter()
        .filter(|&&i| i != skip)
        .chain(add.iter())
        .map(|&i| k[i] as usize)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_dispatches_every_method_and_form() {
        let (qi, d) = testutil::line(&[0.0, 1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 13.0]);
        let k = [2, 1, 3, 1, 2, 2, 1, 1];
        for method in Heuristic::ALL {
            for form in Form::ALL {
                for cost in KMemberCost::ALL {
                    let opts = HeuristicOptions {
                        method,
                        form,
                        cost,
                        seed: 7,
                    };
                    let bar = ProgressBar::hidden();
                    let p = run(&opts, &qi, &d, &k, &bar);
                    assert_eq!(p.len(), 8);
                    assert!(p.violations(&k).is_empty(), "{opts:?}");
                    if form == Form::K {
                        assert!(p.violations(&[3; 8]).is_empty(), "{opts:?}");
                    }
                    assert_eq!(bar.position(), 8, "{opts:?}: progress counts every record");
                }
            }
        }
    }
}
