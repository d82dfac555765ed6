//! What an assessment measures besides the table, and how: the original, the sensitive
//! attributes and their structure, the thresholds.

use crate::data::dataset::LoadOptions;
use crate::data::table::TableSource;
use crate::error::{input as bad, Result};
use crate::settings::Setting;
use std::path::PathBuf;

/// What to measure besides the table, and how.
#[derive(Clone, Debug)]
pub struct AssessOptions {
    /// How to read the table (and the original).
    pub load: LoadOptions,
    /// Comma-separated columns to treat as sensitive (in addition to the schema's).
    pub sensitive: Option<String>,
    /// The original table: population of the journalist risk; when it has the same rows in
    /// the same order, also DBIL, SBIL, non-uniform entropy, identity DRs and the k column.
    pub original: Option<TableSource>,
    /// Records whose prosecutor risk is strictly above this are "at risk".
    pub risk_threshold: f64,
    /// Largest quasi-identifier subset of the distinction/separation search and of the CDRs.
    pub max_subset: usize,
    /// The c of recursive (c, l)-diversity.
    pub c: f64,
    /// Semantic partitions (TOML: `[column]` then `domain = ["v1", "v2"]`), see docs/assess.md.
    pub semantic: Option<PathBuf>,
    /// Hierarchy of a sensitive attribute for the hierarchical EMD: `COLUMN=FILE` each.
    pub sensitive_hierarchy: Vec<String>,
    /// Ordered levels of a sensitive attribute for the ordered EMD: `COLUMN=a,b,c` each.
    pub sensitive_levels: Vec<String>,
}

impl AssessOptions {
    /// Refuses out-of-range thresholds (before anything is read).
    pub fn validate(&self) -> Result<()> {
        if !(self.risk_threshold.is_finite() && (0.0..=1.0).contains(&self.risk_threshold)) {
            return Err(bad(format!(
                "{} must be between 0 and 1, got {}",
                Setting::RiskThreshold,
                self.risk_threshold
            )));
        }
        if !(self.c.is_finite() && self.c > 0.0) {
            return Err(bad(format!(
                "{} must be positive, got {}",
                Setting::C,
                self.c
            )));
        }
        if self.max_subset == 0 {
            return Err(bad(format!("{} must be at least 1", Setting::MaxSubset)));
        }
        Ok(())
    }
}
