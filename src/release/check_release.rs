//! `check_release`: the independent k_i check of a released table as `optik check` and library
//! callers run it, with the k_i read from the release or, for a k column that was not
//! released, from the original table's rows kept the way the release kept them.

use crate::data::dataset::LoadOptions;
use crate::data::k_source::KSource;
use crate::data::schema::Schema;
use crate::data::table::{is_missing, Table, TableSource};
use crate::error::{in_file, input, Result};
use crate::release::check::{check_table, CheckReport};
use crate::settings::Setting;

/// Checks that every row of `release` shares its quasi-identifier text (the quasi-identifiers
/// of `schema`) with at least k_i − 1 other rows; the k_i from `ks`, read from `original` (rows
/// in release order, those with a missing quasi-identifier skipped under
/// `load.drop_missing`) when `ks` names a column the release does not have.
pub fn check_release(
    release: &TableSource,
    schema: &Schema,
    ks: &KSource,
    original: Option<&TableSource>,
    load: &LoadOptions,
) -> Result<CheckReport> {
    let delimiter = load.delimiter.or(schema.delimiter);
    let table = release.read(delimiter)?;
    let quasi: Vec<String> = schema.quasi().map(|q| q.name.clone()).collect();
    let k = k_of_release(&table, &quasi, ks, original, load, delimiter)?;
    check_table(&table, &quasi, &k)
}

/// The k_i of the released rows.
fn k_of_release(
    release: &Table,
    quasi: &[String],
    ks: &KSource,
    original: Option<&TableSource>,
    load: &LoadOptions,
    delimiter: Option<u8>,
) -> Result<Vec<u32>> {
    let rows: Vec<usize> = (0..release.len()).collect();
    match (ks, original) {
        (KSource::Column { name }, _) if release.headers.contains(name) => {
            ks.resolve(release, &rows)
        }
        (KSource::Column { name }, Some(orig)) => {
            let original = orig.read(delimiter)?;
            let qcols: Vec<usize> = quasi
                .iter()
                .map(|q| original.column(q))
                .collect::<Result<_>>()?;
            let kept: Vec<usize> = (0..original.len())
                .filter(|&r| {
                    !load.drop_missing || !qcols.iter().any(|&q| is_missing(&original.rows[r][q]))
                })
                .collect();
            if kept.len() != release.len() {
                return Err(in_file(
                    &original.path,
                    format!(
                        "has {} rows{} but the release has {}",
                        kept.len(),
                        if load.drop_missing {
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
            "the release has no column '{name}': give the original table with {}",
            Setting::Original
        ))),
        _ => ks.resolve(release, &rows),
    }
}
