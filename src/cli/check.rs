//! `optik check`: the independent k_i-anonymity check of a released table (the library's
//! `check_release`), its JSON report and a one-line verdict.

use super::args::{InputArgs, Privacy};
use crate::data::table::TableSource;
use crate::error::Result;
use crate::release;
use crate::release::output::{check_destinations, Staged};
use crate::report;
use clap::Args;
use std::path::PathBuf;

/// Exit code of `optik check` when the release is not k_i-anonymous.
pub(super) const EXIT_NOT_ANONYMOUS: i32 = 3;

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub k: Privacy,
    /// Original table holding the --k-column (when the release does not), rows in release order.
    #[arg(long)]
    pub original: Option<PathBuf>,
    /// Write the check result as JSON.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Replace an existing report.
    #[arg(long)]
    pub force: bool,
}

/// Runs `optik check`; returns the exit code (0 verified, 3 not k_i-anonymous).
pub(super) fn run(c: &CheckArgs) -> Result<i32> {
    let schema = c.input.schema()?;
    let ks = c.k.source()?;
    if let Some(r) = &c.report {
        check_destinations(&[r], &[&c.input.input], c.force)?;
    }
    let original = c.original.clone().map(TableSource::File);
    let report = release::check_release(
        &TableSource::File(c.input.input.clone()),
        &schema,
        &ks,
        original.as_ref(),
        &c.input.load_options(),
    )?;
    if let Some(path) = &c.report {
        Staged::write(path, &report::to_json(&report)?)?.commit()?;
    }
    if report.verified {
        eprintln!(
            "verified: {} records in {} groups, smallest group {}, every record's group has at least k_i rows",
            report.records, report.groups, report.min_group
        );
        Ok(0)
    } else {
        let v = report.first_violation.as_ref().expect("a violation exists");
        eprintln!(
            "NOT k_i-anonymous: {} records are in groups smaller than their k_i (first: {} line {}, k_i = {}, group of {})",
            report.violations,
            c.input.input.display(),
            v.line,
            v.k,
            v.group_size
        );
        Ok(EXIT_NOT_ANONYMOUS)
    }
}
