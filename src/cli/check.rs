//! `optik check`: the independent k_i-anonymity check of a released table, with the k_i read
//! from the release or, for a k column that was not released, from the original table.

use super::args::{InputArgs, Privacy};
use crate::data::k_source::KSource;
use crate::data::table::{is_missing, Table};
use crate::error::{in_file, input, Result};
use crate::release::check::{self, CheckReport};
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
    let release = Table::read(&c.input.input, c.input.delimiter.or(schema.delimiter))?;
    let quasi: Vec<String> = schema.quasi().map(|q| q.name.clone()).collect();
    let k = k_of_release(c, &ks, &release, &quasi, schema.delimiter)?;
    let report: CheckReport = check::check_table(&release, &quasi, &k)?;
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

/// The k_i of the released rows: from the release, or from the rows of `--original` kept the
/// way the release kept them.
fn k_of_release(
    c: &CheckArgs,
    ks: &KSource,
    release: &Table,
    quasi: &[String],
    schema_delimiter: Option<u8>,
) -> Result<Vec<u32>> {
    let rows: Vec<usize> = (0..release.len()).collect();
    match (ks, &c.original) {
        (KSource::Column { name }, _) if release.headers.contains(name) => {
            ks.resolve(release, &rows)
        }
        (KSource::Column { name }, Some(orig)) => {
            let original = Table::read(orig, c.input.delimiter.or(schema_delimiter))?;
            let qcols: Vec<usize> = quasi
                .iter()
                .map(|q| original.column(q))
                .collect::<Result<_>>()?;
            let kept: Vec<usize> = (0..original.len())
                .filter(|&r| {
                    !c.input.drop_missing
                        || !qcols.iter().any(|&q| is_missing(&original.rows[r][q]))
                })
                .collect();
            if kept.len() != release.len() {
                return Err(in_file(
                    orig,
                    format!(
                        "has {} rows{} but the release has {}",
                        kept.len(),
                        if c.input.drop_missing {
                            " after dropping missing values"
                        } else {
                            ""
                        },
                        release.len()
                    ),
                ));
            }
            KSource::Column { name: name.clone() }.resolve(&original, &kept)
        }
        (KSource::Column { name }, None) => Err(input(format!(
            "the release has no column '{name}': give the original table with --original"
        ))),
        _ => ks.resolve(release, &rows),
    }
}
