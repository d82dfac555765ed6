//! The comparison every report carries: each heuristic's value of the run's criterion and its
//! ratio to the released partition's, so a reader sees what the optimum gains over MDAV,
//! k-member and Mondrian. Exact runs reuse the heuristics they ran as warm starts (values on
//! the integer instance, like the reported objective); heuristic runs compute the others on
//! request (float metrics, like theirs).

use crate::data::dataset::Dataset;
use crate::data::distance::RecordDistance;
use crate::partition::exact::HeuristicRun;
use crate::partition::heuristics::{self, Heuristic, HeuristicOptions};
use crate::partition::metrics;
use crate::partition::run::Outcome;
use crate::Criterion;
use serde::Serialize;

/// One heuristic beside the released partition.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeuristicComparison {
    /// `mdav`, `kmember` or `mondrian`.
    pub method: String,
    /// Its value of the run's criterion, in the units of the report's `objective`.
    pub objective: f64,
    /// `objective` / the released partition's objective: above 1 the heuristic loses more
    /// (below 1 for split, which is maximised); 1 when both are 0, null when only the
    /// released one is.
    pub ratio: Option<f64>,
    pub classes: usize,
    /// Exact runs under class constraints: whether the heuristic's partition meets them, after
    /// a repair (`repaired`) where one was found; absent without constraints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meets_constraints: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repaired: Option<bool>,
}

/// `heuristic` / `released`, guarded against a zero denominator.
pub(crate) fn ratio(heuristic: f64, released: f64) -> Option<f64> {
    if released != 0.0 {
        Some(heuristic / released)
    } else if heuristic == 0.0 {
        Some(1.0)
    } else {
        None
    }
}

/// The comparison of an exact run, from its warm-start heuristics.
pub(crate) fn of_exact(
    runs: &[HeuristicRun],
    released: f64,
    constrained: bool,
) -> Vec<HeuristicComparison> {
    runs.iter()
        .map(|r| HeuristicComparison {
            method: r.method.name().to_string(),
            objective: r.objective,
            ratio: ratio(r.objective, released),
            classes: r.classes,
            meets_constraints: constrained.then_some(r.meets_constraints),
            repaired: constrained.then_some(r.repaired),
        })
        .collect()
}

/// The comparison of a heuristic run: every heuristic with the run's form, cost and seed, the
/// run's own from its outcome.
pub(crate) fn of_heuristic(
    ds: &Dataset,
    dist: &RecordDistance,
    run: &HeuristicOptions,
    outcome: &Outcome,
    criterion: Criterion,
) -> Vec<HeuristicComparison> {
    let hidden = indicatif::ProgressBar::hidden();
    [Heuristic::Mdav, Heuristic::KMember, Heuristic::Mondrian]
        .into_iter()
        .map(|method| {
            let (objective, classes) = if method == run.method {
                (outcome.objective, outcome.partition.num_classes())
            } else {
                let opts = HeuristicOptions { method, ..*run };
                let p = heuristics::run(&opts, &ds.qi, dist, &ds.k, &hidden);
                let value = metrics::compute(&ds.qi, dist, &ds.k, &p).value(criterion);
                (value, p.num_classes())
            };
            HeuristicComparison {
                method: method.name().to_string(),
                objective,
                ratio: ratio(objective, outcome.objective),
                classes,
                meets_constraints: None,
                repaired: None,
            }
        })
        .collect()
}

/// The comparison in a few words for the summary line: the best other heuristic against the
/// release, e.g. "1.29× less loss than MDAV" ("1.06× more loss than MDAV" when a heuristic run
/// loses more than another; for split, "1.10× the separation of MDAV"); `None` without a
/// comparison or when the ratio is undefined.
pub(crate) fn phrase(
    comparison: &[HeuristicComparison],
    criterion: Criterion,
    released_method: &str,
) -> Option<String> {
    let others = comparison
        .iter()
        .filter(|c| c.method != released_method && c.meets_constraints != Some(false));
    let best = if criterion.maximise() {
        others.max_by(|a, b| a.objective.total_cmp(&b.objective))
    } else {
        others.min_by(|a, b| a.objective.total_cmp(&b.objective))
    }?;
    let r = best.ratio?;
    let name = display_name(&best.method);
    Some(if criterion.maximise() {
        if r > 0.0 {
            format!("{:.2}× the separation of {name}", 1.0 / r)
        } else {
            format!("{name} separates nothing")
        }
    } else if r >= 1.0 {
        format!("{r:.2}× less loss than {name}")
    } else if r > 0.0 {
        format!("{:.2}× more loss than {name}", 1.0 / r)
    } else {
        format!("{name} loses nothing")
    })
}

/// A heuristic's name as prose writes it (`MDAV`, `k-member`, `Mondrian`).
pub(crate) fn display_name(method: &str) -> &str {
    match method {
        "mdav" => "MDAV",
        "kmember" => "k-member",
        "mondrian" => "Mondrian",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_guards_zero() {
        assert_eq!(ratio(3.0, 2.0), Some(1.5));
        assert_eq!(ratio(0.0, 0.0), Some(1.0));
        assert_eq!(ratio(1.0, 0.0), None);
    }

    fn entry(method: &str, objective: f64, released: f64) -> HeuristicComparison {
        HeuristicComparison {
            method: method.to_string(),
            objective,
            ratio: ratio(objective, released),
            classes: 1,
            meets_constraints: None,
            repaired: None,
        }
    }

    #[test]
    fn phrase_names_the_best_other_heuristic() {
        let c = [
            entry("mdav", 3.0, 2.0),
            entry("kmember", 2.5, 2.0),
            entry("mondrian", 4.0, 2.0),
        ];
        assert_eq!(
            phrase(&c, Criterion::Dbil, "optimal").as_deref(),
            Some("1.25× less loss than k-member")
        );
        assert_eq!(
            phrase(&c, Criterion::Dbil, "kmember").as_deref(),
            Some("1.50× less loss than MDAV")
        );
        assert_eq!(
            phrase(&c, Criterion::Split, "optimal").as_deref(),
            Some("0.50× the separation of Mondrian")
        );
        let mondrian_released = [
            entry("mdav", 3.0, 4.0),
            entry("kmember", 2.5, 4.0),
            entry("mondrian", 4.0, 4.0),
        ];
        assert_eq!(
            phrase(&mondrian_released, Criterion::Dbil, "mondrian").as_deref(),
            Some("1.60× more loss than k-member")
        );
        assert_eq!(phrase(&[], Criterion::Dbil, "optimal"), None);
    }
}
