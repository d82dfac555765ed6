//! The settings of optik's library API as its messages name them.
//!
//! An error or a note that points the user at a setting ("use drop_missing to drop such rows")
//! writes the [`Setting`] itself, never a command-line flag: the library knows nothing of the
//! command line. How a setting is spelled is the front end's choice, made once per process with
//! [`spell_with`]: by default the library's own names (`drop_missing`, the fields of its option
//! structs and the keys of a bench spec); the `optik` binary spells them as its flags, so its
//! messages read exactly as the flags the user typed.

use std::fmt;
use std::sync::OnceLock;

/// A setting a message can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// Whether existing outputs are replaced.
    Force,
    /// Whether rows with a missing quasi-identifier are dropped.
    DropMissing,
    /// The quasi-identifier list that stands for a schema.
    Qi,
    /// Uniform k.
    K,
    /// The k_i distribution (`k:probability` list).
    KDist,
    /// The preset k_i distribution.
    KPreset,
    /// The k values of the preset's groups.
    KLevels,
    /// How drawn k_i are given to the records.
    KAssign,
    /// The plane of the correlated k_i assignment.
    KAxes,
    /// The order of a non-numeric axis of that plane.
    KAxisOrder,
    /// l-diversity of every class.
    LDiversity,
    /// Sensitive column(s).
    Sensitive,
    /// Largest class.
    MaxClassSize,
    /// The must-link / cannot-link file.
    Links,
    /// The column whose values name the records of the links file.
    LinkKey,
    /// The two quasi-identifiers of the partition picture.
    PlotAxes,
    /// The added column holding each record's class.
    ClassColumn,
    /// A sensitive attribute's hierarchy.
    SensitiveHierarchy,
    /// A sensitive attribute's ordered levels.
    SensitiveLevels,
    /// The original table of a release.
    Original,
    /// Integer units per distance unit of the exact engines.
    Scale,
    /// The partitioning method.
    Method,
    /// The exact engine.
    Engine,
    /// The exact engine's time limit.
    TimeLimit,
    /// The prosecutor risk above which a record is at risk.
    RiskThreshold,
    /// The c of recursive (c, l)-diversity.
    C,
    /// The largest quasi-identifier subset searched.
    MaxSubset,
    /// The decision budget of a traced search.
    MaxDecisions,
    /// The seeds an experiment averages over.
    Seeds,
    /// The heuristics an experiment runs.
    Heuristics,
    /// The grid step of an experiment, in percent.
    Step,
    /// The largest k_m of the scale experiment.
    MaxKm,
    /// The format of an exported instance.
    Format,
}

impl Setting {
    /// Every setting.
    pub const ALL: [Setting; 33] = [
        Setting::Force,
        Setting::DropMissing,
        Setting::Qi,
        Setting::K,
        Setting::KDist,
        Setting::KPreset,
        Setting::KLevels,
        Setting::KAssign,
        Setting::KAxes,
        Setting::KAxisOrder,
        Setting::LDiversity,
        Setting::Sensitive,
        Setting::MaxClassSize,
        Setting::Links,
        Setting::LinkKey,
        Setting::PlotAxes,
        Setting::ClassColumn,
        Setting::SensitiveHierarchy,
        Setting::SensitiveLevels,
        Setting::Original,
        Setting::Scale,
        Setting::Method,
        Setting::Engine,
        Setting::TimeLimit,
        Setting::RiskThreshold,
        Setting::C,
        Setting::MaxSubset,
        Setting::MaxDecisions,
        Setting::Seeds,
        Setting::Heuristics,
        Setting::Step,
        Setting::MaxKm,
        Setting::Format,
    ];

    /// The library's name of the setting.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Force => "force",
            Setting::DropMissing => "drop_missing",
            Setting::Qi => "qi",
            Setting::K => "k",
            Setting::KDist => "k_dist",
            Setting::KPreset => "k_preset",
            Setting::KLevels => "k_levels",
            Setting::KAssign => "k_assign",
            Setting::KAxes => "k_axes",
            Setting::KAxisOrder => "k_axis_order",
            Setting::LDiversity => "l_diversity",
            Setting::Sensitive => "sensitive",
            Setting::MaxClassSize => "max_class_size",
            Setting::Links => "links",
            Setting::LinkKey => "link_key",
            Setting::PlotAxes => "plot_axes",
            Setting::ClassColumn => "class_column",
            Setting::SensitiveHierarchy => "sensitive_hierarchy",
            Setting::SensitiveLevels => "sensitive_levels",
            Setting::Original => "original",
            Setting::Scale => "scale",
            Setting::Method => "method",
            Setting::Engine => "engine",
            Setting::TimeLimit => "time_limit",
            Setting::RiskThreshold => "risk_threshold",
            Setting::C => "c",
            Setting::MaxSubset => "max_subset",
            Setting::MaxDecisions => "max_decisions",
            Setting::Seeds => "seeds",
            Setting::Heuristics => "heuristics",
            Setting::Step => "step",
            Setting::MaxKm => "max_km",
            Setting::Format => "format",
        }
    }
}

/// How messages spell settings, when a front end has chosen.
static SPELLING: OnceLock<fn(Setting) -> &'static str> = OnceLock::new();

/// Makes every later message spell settings with `spelling` instead of their library names.
/// The first call wins: a process has one front end.
pub(crate) fn spell_with(spelling: fn(Setting) -> &'static str) {
    let _ = SPELLING.set(spelling);
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(SPELLING.get().map_or(self.name(), |spell| spell(*self)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_snake_case_and_all_listed() {
        let mut seen = std::collections::HashSet::new();
        for s in Setting::ALL {
            assert!(seen.insert(s.name()), "{s:?} named twice");
            assert!(
                s.name().chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{s:?}"
            );
        }
        assert_eq!(seen.len(), Setting::ALL.len());
    }
}
