//! Partitioning the records into k_i-anonymous classes: the heuristics, the exact engines'
//! glue, the extra class constraints, the metrics of a partition, one verified run, and the
//! comparison of a run with the heuristics.

pub(crate) mod compare;
pub(crate) mod constraints;
pub(crate) mod exact;
pub(crate) mod export;
pub(crate) mod heuristics;
pub(crate) mod large;
pub(crate) mod metrics;
pub(crate) mod run;

use heuristics::Heuristic;

/// How the records are partitioned: one of the heuristics, or the exact engines (`optimal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    Mdav,
    KMember,
    Mondrian,
    MdavSse,
    Optimal,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 5] = [
        Method::Mdav,
        Method::KMember,
        Method::Mondrian,
        Method::MdavSse,
        Method::Optimal,
    ];

    /// The heuristic, if this is one.
    pub fn heuristic(self) -> Option<Heuristic> {
        match self {
            Method::Mdav => Some(Heuristic::Mdav),
            Method::KMember => Some(Heuristic::KMember),
            Method::Mondrian => Some(Heuristic::Mondrian),
            Method::MdavSse => Some(Heuristic::MdavSse),
            Method::Optimal => None,
        }
    }

    /// Name as written in settings and reports.
    pub fn name(self) -> &'static str {
        match self.heuristic() {
            Some(h) => h.name(),
            None => "optimal",
        }
    }
}
