//! `optik export`: the exact engines' instance of a table (integer distance matrix + k_i) as
//! JSON, MiniZinc data or the compact MIP in LP format (the library's `export`), written to a
//! file.

use super::args::{InputArgs, Privacy};
use crate::data::dataset::Dataset;
use crate::error::{input, Result};
use crate::partition::export::{self, ExportFormat};
use crate::release::output::{check_destinations, Staged};
use crate::Criterion;
use clap::Args;
use std::path::PathBuf;

/// `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExportFormatArg {
    /// `{"n": .., "scale": .., "k": [..], "dist": [[..]]}`.
    Json,
    /// MiniZinc data for `models/minizinc/ki_anonymity.mzn`.
    Dzn,
    /// The compact assignment MIP of `--criterion` in CPLEX LP format.
    Lp,
}

impl From<ExportFormatArg> for ExportFormat {
    fn from(f: ExportFormatArg) -> ExportFormat {
        match f {
            ExportFormatArg::Json => ExportFormat::Json,
            ExportFormatArg::Dzn => ExportFormat::Dzn,
            ExportFormatArg::Lp => ExportFormat::Lp,
        }
    }
}

#[derive(Args, Debug)]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: ExportFormatArg,
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
    let text = export::export(&ds, e.format.into(), e.criterion, e.scale)?;
    Staged::write(&e.out, text.as_bytes())?.commit()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn format_names_are_the_library_names() {
        let cli: Vec<String> = ExportFormatArg::value_variants()
            .iter()
            .map(|v| v.to_possible_value().unwrap().get_name().to_string())
            .collect();
        let lib: Vec<&str> = ExportFormat::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(cli, lib);
    }
}
