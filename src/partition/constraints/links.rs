//! The must-link / cannot-link file: CSV lines `kind,a,b` (an optional header
//! `kind,a,b`, `#` comments), kind `must` or `cannot`, a and b 1-based data-row numbers of the
//! input or, with a link key column, values of that column (read with the `csv` crate, so values
//! may be quoted). Every error names the file and line.

use crate::data::dataset::Dataset;
use crate::error::{in_file, Result};
use crate::settings::Setting;
use std::collections::HashMap;
use std::path::Path;

/// Record pairs read from a links file (record indices of the dataset).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Links {
    pub must: Vec<(u32, u32)>,
    pub cannot: Vec<(u32, u32)>,
}

/// Reads `path`, resolving a and b to records of `ds` by row number or by `key` column value.
pub(crate) fn read(path: &Path, ds: &Dataset, key: Option<&str>) -> Result<Links> {
    let text = std::fs::read_to_string(path).map_err(|e| in_file(path, e))?;
    let at = |line: usize, msg: String| in_file(path, format!("line {line}: {msg}"));
    // Record of each input data row (rows dropped for missing values map to None).
    let mut record_of_row: HashMap<usize, u32> = HashMap::new();
    for (i, &r) in ds.rows.iter().enumerate() {
        record_of_row.insert(r, i as u32);
    }
    let key_index: Option<HashMap<&str, Vec<usize>>> = match key {
        None => None,
        Some(col) => {
            let c = ds.table.column(col)?;
            let mut m: HashMap<&str, Vec<usize>> = HashMap::new();
            for (r, row) in ds.table.rows.iter().enumerate() {
                m.entry(row[c].trim()).or_default().push(r);
            }
            Some(m)
        }
    };
    let resolve = |line: usize, field: &str, v: &str| -> Result<u32> {
        let row = match &key_index {
            None => {
                let r: usize = v.parse().map_err(|_| {
                    at(
                        line,
                        format!(
                            "{field} = '{v}' is not a data-row number (give {} COL to use a column's values)",
                            Setting::LinkKey
                        ),
                    )
                })?;
                if r == 0 || r > ds.table.len() {
                    return Err(at(
                        line,
                        format!("{field} = {r} is outside data rows 1..={}", ds.table.len()),
                    ));
                }
                r - 1
            }
            Some(m) => match m.get(v).map(Vec::as_slice) {
                Some([r]) => *r,
                Some(rs) => {
                    return Err(at(
                        line,
                        format!(
                            "{field} = '{v}' matches {} rows of {} {}",
                            rs.len(),
                            Setting::LinkKey,
                            key.unwrap_or_default()
                        ),
                    ))
                }
                None => {
                    return Err(at(
                        line,
                        format!(
                            "{field} = '{v}' is no value of {} {}",
                            Setting::LinkKey,
                            key.unwrap_or_default()
                        ),
                    ))
                }
            },
        };
        record_of_row.get(&row).copied().ok_or_else(|| {
            at(
                line,
                format!("{field} = '{v}' names a row dropped for a missing quasi-identifier"),
            )
        })
    };
    let mut links = Links::default();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut first = true;
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            at(line, e.to_string())
        })?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let fields: Vec<&str> = record.iter().collect();
        if std::mem::take(&mut first)
            && fields
                .first()
                .is_some_and(|f| f.eq_ignore_ascii_case("kind"))
        {
            continue;
        }
        if fields.len() != 3 {
            return Err(at(
                line,
                format!("expected 3 fields kind,a,b, found {}", fields.len()),
            ));
        }
        let a = resolve(line, "a", fields[1])?;
        let b = resolve(line, "b", fields[2])?;
        if a == b {
            return Err(at(line, "a and b are the same record".to_string()));
        }
        match fields[0].to_ascii_lowercase().as_str() {
            "must" => links.must.push((a, b)),
            "cannot" => links.cannot.push((a, b)),
            other => {
                return Err(at(
                    line,
                    format!("kind '{other}' is neither 'must' nor 'cannot'"),
                ))
            }
        }
    }
    Ok(links)
}
