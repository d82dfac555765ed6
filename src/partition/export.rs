//! The exact engines' instance of a dataset (integer distance matrix + k_i) as text for other
//! solvers: JSON, MiniZinc data for `models/minizinc/ki_anonymity.mzn`, or the compact MIP in
//! LP format. `optik export` writes it; library callers get the text.

use crate::data::dataset::Dataset;
use crate::error::{input, Result};
use crate::partition::exact::MAX_EXACT_RECORDS;
use crate::settings::Setting;
use crate::Criterion;

/// The formats of an exported instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// `{"n": .., "scale": .., "k": [..], "dist": [[..]]}`.
    Json,
    /// MiniZinc data for `models/minizinc/ki_anonymity.mzn`.
    Dzn,
    /// The compact assignment MIP of a criterion in CPLEX LP format.
    Lp,
}

impl ExportFormat {
    /// Every format.
    pub const ALL: [ExportFormat; 3] = [ExportFormat::Json, ExportFormat::Dzn, ExportFormat::Lp];

    /// Name as written in settings.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Dzn => "dzn",
            ExportFormat::Lp => "lp",
        }
    }
}

/// The instance of `ds` (distances × `scale`, rounded) in `format`; `criterion` selects the
/// LP's objective (dbil, diameter or wcsd).
pub fn export(
    ds: &Dataset,
    format: ExportFormat,
    criterion: Criterion,
    scale: f64,
) -> Result<String> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(input(format!(
            "{} must be positive, got {scale}",
            Setting::Scale
        )));
    }
    if ds.n() > MAX_EXACT_RECORDS {
        return Err(input(format!(
            "export writes an n × n matrix and accepts at most {} records; this table has {}",
            MAX_EXACT_RECORDS,
            ds.n()
        )));
    }
    let inst = ds
        .exact_instance(&ds.distance(), criterion, scale)
        .map_err(input)?;
    Ok(match format {
        ExportFormat::Json => optik_models::export::to_json(&inst),
        ExportFormat::Dzn => optik_models::export::to_dzn(&inst),
        ExportFormat::Lp => {
            if matches!(criterion, Criterion::Split | Criterion::Sse) {
                return Err(input(format!(
                    "{} lp: the compact MIP has no {} model (dbil, diameter or wcsd)",
                    Setting::Format,
                    criterion.name()
                )));
            }
            optik_models::mip_lp_text(&inst, criterion)
        }
    })
}
