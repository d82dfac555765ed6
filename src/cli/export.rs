//! `optik export`: the exact engines' instance of a table (integer distance matrix + k_i) as
//! JSON, MiniZinc data or the compact MIP in LP format, for other solvers.

use super::args::{InputArgs, Privacy};
use crate::data::dataset::Dataset;
use crate::error::{input, Result};
use crate::partition::exact::MAX_EXACT_RECORDS;
use crate::release::output::{check_destinations, Staged};
use crate::Criterion;
use clap::Args;
use std::path::PathBuf;

/// `optik export` formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExportFormat {
    /// `{"n": .., "scale": .., "k": [..], "dist": [[..]]}`.
    Json,
    /// MiniZinc data for `models/minizinc/ki_anonymity.mzn`.
    Dzn,
    /// The compact assignment MIP of `--criterion` in CPLEX LP format.
    Lp,
}

#[derive(Args, Debug)]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: ExportFormat,
    /// Criterion of the LP export (dbil, diameter, wcsd).
    #[arg(long, default_value = "dbil")]
    pub criterion: Criterion,
    /// Integer units per distance unit.
    #[arg(long, default_value_t = crate::data::distance::DEFAULT_SCALE)]
    pub scale: f64,
    /// File to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Replace an existing output.
    #[arg(long)]
    pub force: bool,
}

/// Runs `optik export`: writes the instance of a table.
pub(super) fn run(e: &ExportArgs) -> Result<()> {
    let schema = e.input.schema()?;
    let ks = e.k.source()?;
    check_destinations(&[&e.out], &e.input.inputs(), e.force)?;
    if !(e.scale.is_finite() && e.scale > 0.0) {
        return Err(input(format!("--scale must be positive, got {}", e.scale)));
    }
    let ds = Dataset::load(&e.input.input, schema, &ks, &e.input.load_options())?;
    if ds.n() > MAX_EXACT_RECORDS {
        return Err(input(format!(
            "export writes an n × n matrix and accepts at most {} records; this table has {}",
            MAX_EXACT_RECORDS,
            ds.n()
        )));
    }
    let inst = ds
        .exact_instance(&ds.distance(), e.criterion, e.scale)
        .map_err(input)?;
    let text = match e.format {
        ExportFormat::Json => optik_models::export::to_json(&inst),
        ExportFormat::Dzn => optik_models::export::to_dzn(&inst),
        ExportFormat::Lp => {
            if matches!(e.criterion, Criterion::Split | Criterion::Sse) {
                return Err(input(format!(
                    "--format lp: the compact MIP has no {} model (dbil, diameter or wcsd)",
                    e.criterion.name()
                )));
            }
            optik_models::mip_lp_text(&inst, e.criterion)
        }
    };
    Staged::write(&e.out, text.as_bytes())?.commit()
}
