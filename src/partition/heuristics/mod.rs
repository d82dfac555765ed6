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
mod mondrian;
mod repair;

pub(crate) use kmember::kmember;
pub(crate) use mdav::mdav;
pub(crate) use mondrian::mondrian;
pub(crate) use repair::repair;

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::data::qi::QiTable;
use crate::Partition;
use indicatif::ProgressBar;
use serde::Serialize;

/// Which heuristic to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Heuristic {
    /// Maximum distance to average vector (Domingo-Ferrer & Torra).
    Mdav,
    /// Greedy k-member clustering (Byun et al.).
    KMember,
    /// Median partitioning (LeFevre et al.).
    Mondrian,
}

impl Heuristic {
    /// Every heuristic.
    pub const ALL: [Heuristic; 3] = [Heuristic::Mdav, Heuristic::KMember, Heuristic::Mondrian];

    /// The name used in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Mdav => "mdav",
            Heuristic::KMember => "kmember",
            Heuristic::Mondrian => "mondrian",
        }
    }
}

/// The information-loss increase greedy k-member minimises when it grows a class `e` with a
/// record `r` (seed 001 §5.4.3). `diam` is the class diameter, `k_e` the largest k_i in `e`.
///
/// Note: while a class grows (`|e| < k_e`), [`Original`](KMemberCost::Original) and
/// [`Corrected`](KMemberCost::Corrected) differ by terms that do not depend on `r` (a positive
/// factor and a constant), so both pick the same record (up to floating-point rounding, which
/// can order two diameters that are equal in exact arithmetic differently); when a leftover is
/// placed into a valid class (`|e| ≥ k_e`) the two formulas are identical. Otherwise they only
/// choose differently next to a class left below its k_e by a leftover that fitted nowhere
/// (k_i form). In the k form eq. 5.5 is eq. 5.4 exactly.
/// [`Personalised`](KMemberCost::Personalised) depends on `k_r` and really chooses differently
/// in the k_i form: it charges a record for the class growth its own k_r would force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KMemberCost {
    /// Eq. 5.3: `(|e|+1)·diam(e∪r) − |e|·diam(e)`.
    Original,
    /// Eq. 5.4: `max(|e|+1, k_e)·diam(e∪r) − max(|e|, k_e)·diam(e)`.
    Corrected,
    /// Eq. 5.5: `max(|e|+1, k_e, k_r)·diam(e∪r) − max(|e|, k_e)·diam(e)` (the k_i "upgrade").
    Personalised,
}

impl KMemberCost {
    /// Every cost.
    pub const ALL: [KMemberCost; 3] = [
        KMemberCost::Original,
        KMemberCost::Corrected,
        KMemberCost::Personalised,
    ];

    /// The name used in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            KMemberCost::Original => "original",
            KMemberCost::Corrected => "corrected",
            KMemberCost::Personalised => "personalised",
        }
    }

    /// Cost of adding a record with constraint `k_r` to a class of `size` records, largest
    /// constraint `k_e` and diameter `diam`, when the class's diameter becomes `diam_new`.
    #[inline]
    pub fn increase(self, size: usize, k_e: u32, diam: f64, k_r: u32, diam_new: f64) -> f64 {
        let (s, ke, kr) = (size as f64, k_e as f64, k_r as f64);
        match self {
            KMemberCost::Original => (s + 1.0) * diam_new - s * diam,
            KMemberCost::Corrected => (s + 1.0).max(ke) * diam_new - s.max(ke) * diam,
            KMemberCost::Personalised => (s + 1.0).max(ke).max(kr) * diam_new - s.max(ke) * diam,
        }
    }
}

/// Which privacy model the heuristic enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// Personalised: every record's own k_i.
    Ki,
    /// The original k-anonymity heuristic with `k = max_i k_i`.
    K,
}

impl Form {
    /// Every form.
    pub const ALL: [Form; 2] = [Form::Ki, Form::K];

    /// The name used in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            Form::Ki => "ki",
            Form::K => "k",
        }
    }
}

/// Everything that selects one heuristic run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HeuristicOptions {
    pub method: Heuristic,
    pub form: Form,
    /// Only used by [`Heuristic::KMember`].
    pub cost: KMemberCost,
    /// Only used by [`Heuristic::KMember`] (its first record).
    pub seed: u64,
}

/// The constraints a form enforces: `k` itself for [`Form::Ki`], `max_i k_i` everywhere for
/// [`Form::K`].
pub(crate) fn effective_k(form: Form, k: &[u32]) -> Vec<u32> {
    match form {
        Form::Ki => k.to_vec(),
        Form::K => {
            let max = k.iter().copied().max().unwrap_or(1);
            vec![max; k.len()]
        }
    }
}

/// Runs the selected heuristic. `progress` is advanced by one per record as records are
/// assigned to classes (the caller sets its length, `qi.n`).
///
/// The result is k_i-anonymous for `k` in both forms (the k form enforces `max k_i ≥ k_i`).
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

/// Largest constraint among the records still unassigned, maintained under removals in
/// amortised O(1) (a count per k value).
#[derive(Clone, Debug)]
struct MaxK {
    counts: Vec<usize>,
    max: usize,
    len: usize,
}

impl MaxK {
    fn new(k: &[u32]) -> Self {
        let max = k.iter().copied().max().unwrap_or(0) as usize;
        let mut counts = vec![0; max + 1];
        for &x in k {
            counts[x as usize] += 1;
        }
        MaxK {
            counts,
            max,
            len: k.len(),
        }
    }

    fn remove(&mut self, k: u32) {
        self.counts[k as usize] -= 1;
        self.len -= 1;
        while self.max > 0 && self.counts[self.max] == 0 {
            self.max -= 1;
        }
    }

    /// 0 when every record has been removed.
    fn max(&self) -> usize {
        self.max
    }

    /// Whether some subset of the remaining records is a valid class (`|T| ≥ max_{i∈T} k_i`):
    /// true iff, for some m, at least m remaining records have k_i ≤ m.
    fn feasible(&self) -> bool {
        if self.len == 0 {
            return false;
        }
        if self.len >= self.max {
            return true;
        }
        let mut at_most = 0;
        for m in 1..=self.len {
            at_most += self.counts[m];
            if at_most >= m {
                return true;
            }
        }
        false
    }
}

/// `(value, record)` ordering used by every parallel scan: by value, then by record index.
#[inline]
fn smaller(a: (f64, usize), b: (f64, usize)) -> (f64, usize) {
    if b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).is_lt() {
        b
    } else {
        a
    }
}

/// Larger value wins; equal values go to the smaller record index.
#[inline]
fn further(a: (f64, usize), b: (f64, usize)) -> (f64, usize) {
    match b.0.total_cmp(&a.0) {
        std::cmp::Ordering::Greater => b,
        std::cmp::Ordering::Less => a,
        std::cmp::Ordering::Equal => {
            if b.1 < a.1 {
                b
            } else {
                a
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Hand-made tables for the unit tests.
    use crate::data::distance::RecordDistance;
    use crate::data::hierarchy::Hierarchy;
    use crate::data::qi::{QiAttribute, QiTable, Values};
    use std::sync::Arc;

    /// One numeric attribute: record i sits at `x[i]` (distance `|x_i − x_j| / range`).
    pub(crate) fn line(x: &[f64]) -> (QiTable, RecordDistance) {
        let min = x.iter().copied().fold(f64::INFINITY, f64::min);
        let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let qi = QiTable {
            n: x.len(),
            attributes: vec![QiAttribute {
                name: "x".into(),
                weight: 1.0,
                column: 0,
                raw: x.iter().map(|v| v.to_string()).collect(),
                values: Values::Numeric {
                    values: x.to_vec(),
                    min,
                    max,
                },
            }],
        };
        let d = RecordDistance::new(&qi);
        (qi, d)
    }

    /// One categorical attribute with the hierarchy given as ARX rows (`leaf;l1;...;*`);
    /// record i has leaf `values[i]`.
    pub(crate) fn categorical(rows: &[&str], values: &[&str]) -> (QiTable, RecordDistance) {
        let rows: Vec<(u64, Vec<String>)> = rows
            .iter()
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, l.split(';').map(String::from).collect()))
            .collect();
        let h = Hierarchy::from_rows(&rows).unwrap();
        let leaves = values.iter().map(|v| h.leaf(v).unwrap()).collect();
        let qi = QiTable {
            n: values.len(),
            attributes: vec![QiAttribute {
                name: "c".into(),
                weight: 1.0,
                column: 0,
                raw: values.iter().map(|v| v.to_string()).collect(),
                values: Values::Categorical {
                    leaves,
                    hierarchy: Arc::new(h),
                    has_file: true,
                },
            }],
        };
        let d = RecordDistance::new(&qi);
        (qi, d)
    }

    /// Classes as sorted member lists, sorted, for comparisons.
    pub(crate) fn sorted_classes(p: &crate::Partition) -> Vec<Vec<usize>> {
        let mut c = p.classes();
        c.sort();
        c
    }
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_names_are_the_serialised_names() {
        for m in Heuristic::ALL {
            assert_eq!(
                serde_json::to_string(&m).unwrap(),
                format!("\"{}\"", m.name())
            );
        }
        for c in KMemberCost::ALL {
            assert_eq!(
                serde_json::to_string(&c).unwrap(),
                format!("\"{}\"", c.name())
            );
        }
        for f in Form::ALL {
            assert_eq!(
                serde_json::to_string(&f).unwrap(),
                format!("\"{}\"", f.name())
            );
        }
    }

    #[test]
    fn cost_equations_on_hand_values() {
        // |e| = 1, k_e = 2, diam 0; candidate with k_r = 4 makes diam 1.
        let (s, ke, d0, kr, d1) = (1, 2, 0.0, 4, 1.0);
        assert_eq!(KMemberCost::Original.increase(s, ke, d0, kr, d1), 2.0);
        assert_eq!(KMemberCost::Corrected.increase(s, ke, d0, kr, d1), 2.0);
        assert_eq!(KMemberCost::Personalised.increase(s, ke, d0, kr, d1), 4.0);
        // |e| = 3, k_e = 5, diam 2 → 3: original 4·3 − 3·2 = 6; corrected 5·3 − 5·2 = 5.
        assert_eq!(KMemberCost::Original.increase(3, 5, 2.0, 1, 3.0), 6.0);
        assert_eq!(KMemberCost::Corrected.increase(3, 5, 2.0, 1, 3.0), 5.0);
        assert_eq!(
            KMemberCost::Personalised.increase(3, 5, 2.0, 7, 3.0),
            7.0 * 3.0 - 10.0
        );
    }

    #[test]
    fn k_form_uses_the_largest_k() {
        assert_eq!(effective_k(Form::K, &[2, 3, 2]), vec![3, 3, 3]);
        assert_eq!(effective_k(Form::Ki, &[2, 3, 2]), vec![2, 3, 2]);
    }

    #[test]
    fn max_k_tracks_removals() {
        let mut m = MaxK::new(&[2, 5, 3, 5]);
        assert_eq!(m.max(), 5);
        m.remove(5);
        assert_eq!(m.max(), 5);
        m.remove(5);
        assert_eq!(m.max(), 3);
        m.remove(2);
        m.remove(3);
        assert_eq!(m.max(), 0);
        assert!(!m.feasible());
        // k 4, 2, 2 left: the two records asking for 2 form a valid class.
        let mut m = MaxK::new(&[4, 2, 2, 1]);
        m.remove(1);
        assert!(m.feasible());
        // k 4, 2 left: no subset is valid.
        m.remove(2);
        assert!(!m.feasible());
    }

    #[test]
    fn scan_orders_break_ties_by_index() {
        assert_eq!(smaller((1.0, 4), (1.0, 2)), (1.0, 2));
        assert_eq!(smaller((0.5, 4), (1.0, 2)), (0.5, 4));
        assert_eq!(further((1.0, 4), (1.0, 2)), (1.0, 2));
        assert_eq!(further((2.0, 4), (1.0, 2)), (2.0, 4));
    }

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
