//! What selects one heuristic run: the heuristic, its form (k or k_i) and greedy k-member's
//! cost, and the constraints a form enforces.

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
    /// MDAV as microaggregation runs it (sdcMicro): fixed-size classes on the standardised
    /// records with the squared Euclidean distance (numeric quasi-identifiers only).
    #[serde(rename = "mdav-sse")]
    MdavSse,
}

impl Heuristic {
    /// Every heuristic.
    pub const ALL: [Heuristic; 4] = [
        Heuristic::Mdav,
        Heuristic::KMember,
        Heuristic::Mondrian,
        Heuristic::MdavSse,
    ];

    /// The name used in settings and reports.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Mdav => "mdav",
            Heuristic::KMember => "kmember",
            Heuristic::Mondrian => "mondrian",
            Heuristic::MdavSse => "mdav-sse",
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
}
