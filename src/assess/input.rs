//! Loading what an assessment measures: the table (any tool's release or a raw table), its
//! schema, the optional k source, the optional original, and the sensitive-attribute options.
//!
//! Cells are compared as text, so a missing marker (empty, `NA`, `?`) is an ordinary value
//! unless `drop_missing` drops the rows holding one in a quasi-identifier (from the original
//! too, as `optik check` does).

use super::column::Column;
use super::diversity::SensitiveKind;
use super::generalised::{parse_numeric, Cover, Domain, QiView};
use super::options::AssessOptions;
use crate::data::hierarchy::Hierarchy;
use crate::data::k_source::KSource;
use crate::data::qi::parse_number;
use crate::data::schema::{ColumnSpec, Kind, Role, Schema};
use crate::data::table::{is_missing, Table, TableSource};
use crate::error::{at_cell, in_file, input, Result};
use crate::settings::Setting;

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The original table, read with the same schema.
pub(crate) struct Original {
    pub path: PathBuf,
    pub table: Table,
    /// Kept rows (all, or those without a missing quasi-identifier).
    pub rows: Vec<usize>,
    /// Quasi-identifier columns, in the order of `Data::qi`.
    pub qi: Vec<Column>,
    /// Sensitive columns the original has, in the order of `Data::sensitive`.
    pub sensitive: Vec<Option<Column>>,
    /// Same number of kept rows as the table: rows are taken as the same records, in order.
    pub aligned: bool,
}

/// Everything loaded.
pub(crate) struct Data {
    pub path: PathBuf,
    pub schema: Schema,
    pub table: Table,
    /// Kept table rows.
    pub rows: Vec<usize>,
    pub dropped: usize,
    /// File line of each kept record.
    pub lines: Vec<u64>,
    /// Quasi-identifier specs in table order.
    pub qi_specs: Vec<ColumnSpec>,
    pub qi: Vec<QiView>,
    pub sensitive: Vec<Column>,
    pub sensitive_kinds: Vec<SensitiveKind>,
    pub k: Option<Vec<u32>>,
    pub k_description: Option<String>,
    pub original: Option<Original>,
}

impl Data {
    /// Number of records.
    pub(crate) fn n(&self) -> usize {
        self.rows.len()
    }
}

fn column_of(table: &Table, rows: &[usize], name: &str) -> Result<Column> {
    let c = table.column(name)?;
    Ok(Column::encode(
        name,
        rows.iter().map(|&r| table.rows[r][c].as_str()),
    ))
}

fn kept_rows(table: &Table, qi: &[String], drop_missing: bool) -> Result<Vec<usize>> {
    let cols: Vec<usize> = qi.iter().map(|q| table.column(q)).collect::<Result<_>>()?;
    let rows: Vec<usize> = (0..table.len())
        .filter(|&r| !drop_missing || !cols.iter().any(|&c| is_missing(&table.rows[r][c])))
        .collect();
    if rows.is_empty() {
        return Err(in_file(
            &table.path,
            "every row has a missing quasi-identifier",
        ));
    }
    Ok(rows)
}

/// Parses `NAME=VALUE` options.
fn pairs(setting: Setting, items: &[String]) -> Result<Vec<(String, String)>> {
    items
        .iter()
        .map(|s| {
            s.split_once('=')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                .ok_or_else(|| input(format!("{setting} '{s}': expected COLUMN=VALUE")))
        })
        .collect()
}

/// Loads and validates everything the assessment of the table at `path` needs.
pub(crate) fn load(
    source: &TableSource,
    mut schema: Schema,
    ks: Option<KSource>,
    a: &AssessOptions,
) -> Result<Data> {
    let delimiter = a.load.delimiter.or(schema.delimiter);
    let table = source.read(delimiter)?;
    // The sensitive option adds sensitive columns to the schema.
    if let Some(list) = &a.sensitive {
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            table.column(name)?;
            match schema.columns.iter_mut().find(|c| c.name == name) {
                Some(c) if c.role == Role::Quasi => {
                    return Err(input(format!(
                        "{}: column '{name}' is a quasi-identifier",
                        Setting::Sensitive
                    )))
                }
                Some(c) => c.role = Role::Sensitive,
                None => schema.columns.push(ColumnSpec {
                    name: name.to_string(),
                    role: Role::Sensitive,
                    kind: None,
                    weight: 1.0,
                }),
            }
        }
    }
    // Releases drop the identifiers (optik's and other tools'): a schema written for the
    // original table still applies to its release.
    schema
        .columns
        .retain(|c| c.role != Role::Identifier || table.headers.contains(&c.name));
    let exempt: Vec<&str> = ks.as_ref().and_then(|k| k.column()).into_iter().collect();
    let roles = schema.roles_for(&table, &exempt)?;
    let mut qi_specs: Vec<ColumnSpec> = schema.quasi().cloned().collect();
    qi_specs.sort_by_key(|s| table.headers.iter().position(|h| *h == s.name));
    let qi_names: Vec<String> = qi_specs.iter().map(|s| s.name.clone()).collect();
    let rows = kept_rows(&table, &qi_names, a.load.drop_missing)?;
    let lines: Vec<u64> = rows.iter().map(|&r| table.lines[r]).collect();
    let sensitive_names: Vec<String> = table
        .headers
        .iter()
        .zip(&roles)
        .filter(|(_, r)| **r == Some(Role::Sensitive))
        .map(|(h, _)| h.clone())
        .collect();
    let sensitive: Vec<Column> = sensitive_names
        .iter()
        .map(|s| column_of(&table, &rows, s))
        .collect::<Result<_>>()?;

    let original = match &a.original {
        None => None,
        Some(p) => {
            let t = p.read(delimiter)?;
            let orows = kept_rows(&t, &qi_names, a.load.drop_missing)?;
            let qi = qi_names
                .iter()
                .map(|q| column_of(&t, &orows, q))
                .collect::<Result<Vec<_>>>()?;
            let sens = sensitive_names
                .iter()
                .map(|s| {
                    t.headers
                        .contains(s)
                        .then(|| column_of(&t, &orows, s))
                        .transpose()
                })
                .collect::<Result<Vec<_>>>()?;
            Some(Original {
                path: t.path.clone(),
                aligned: orows.len() == rows.len(),
                table: t,
                rows: orows,
                qi,
                sensitive: sens,
            })
        }
    };

    let mut qi = Vec::new();
    for spec in &qi_specs {
        let col = column_of(&table, &rows, &spec.name)?;
        let orig_col = original.as_ref().map(|o| {
            &o.qi[qi_names
                .iter()
                .position(|q| *q == spec.name)
                .expect("listed")]
        });
        let domain = domain_for(spec, &col, orig_col, original.as_ref())?;
        qi.push(QiView::new(col, domain, &table.path, &lines)?);
    }

    // Sensitive options.
    let mut kinds: Vec<SensitiveKind> = vec![SensitiveKind::default(); sensitive.len()];
    let find = |setting: Setting, name: &str| -> Result<usize> {
        sensitive_names
            .iter()
            .position(|s| s == name)
            .ok_or_else(|| {
                input(format!(
                    "{setting} {name}: not a sensitive column (sensitive: {})",
                    if sensitive_names.is_empty() {
                        "none".to_string()
                    } else {
                        sensitive_names.join(", ")
                    }
                ))
            })
    };
    for (name, file) in pairs(Setting::SensitiveHierarchy, &a.sensitive_hierarchy)? {
        let i = find(Setting::SensitiveHierarchy, &name)?;
        kinds[i].hierarchy = Some(Arc::new(Hierarchy::read(Path::new(&file))?));
    }
    for (name, levels) in pairs(Setting::SensitiveLevels, &a.sensitive_levels)? {
        let i = find(Setting::SensitiveLevels, &name)?;
        kinds[i].levels = Some(levels.split(',').map(|l| l.trim().to_string()).collect());
    }

    let k = match &ks {
        None => None,
        Some(KSource::Column { name }) if table.headers.contains(name) => {
            Some(KSource::Column { name: name.clone() }.resolve(&table, &rows)?)
        }
        Some(KSource::Column { name }) => match &original {
            Some(o) if o.aligned => {
                Some(KSource::Column { name: name.clone() }.resolve(&o.table, &o.rows)?)
            }
            Some(o) => {
                return Err(in_file(
                    &o.path,
                    format!(
                        "has {} rows but the table has {}: the k column can only be read from an original of the same rows",
                        o.rows.len(),
                        rows.len()
                    ),
                ))
            }
            None => {
                return Err(input(format!(
                    "the table has no column '{name}': give the original table with {}",
                    Setting::Original
                )))
            }
        },
        Some(src) => Some(src.resolve(&table, &rows)?),
    };
    Ok(Data {
        path: table.path.clone(),
        schema,
        dropped: table.len() - rows.len(),
        table,
        rows,
        lines,
        qi_specs,
        qi,
        sensitive,
        sensitive_kinds: kinds,
        k_description: ks.as_ref().map(KSource::describe),
        k,
        original,
    })
}

/// How to read a quasi-identifier's cells, by its schema kind.
fn domain_for(
    spec: &ColumnSpec,
    col: &Column,
    orig: Option<&Column>,
    original: Option<&Original>,
) -> Result<Domain> {
    let kind = spec.kind.clone().expect("quasi-identifiers have a kind");
    let numeric_cells =
        || -> Option<Vec<Cover>> { col.values.iter().map(|v| parse_numeric(v)).collect() };
    let kind = match kind {
        Kind::Inferred => match numeric_cells() {
            Some(c)
                if c.iter()
                    .any(|c| matches!(c, Cover::Numeric { lo, .. } if lo.is_finite())) =>
            {
                Kind::Numeric
            }
            _ => Kind::Categorical { hierarchy: None },
        },
        k => k,
    };
    Ok(match kind {
        Kind::Numeric => {
            let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
            if let (Some(o), Some(orig_table)) = (orig, original) {
                for (code, v) in o.values.iter().enumerate() {
                    let x = parse_number(v).ok_or_else(|| {
                        let row = o
                            .codes
                            .iter()
                            .position(|&c| c as usize == code)
                            .expect("every value occurs");
                        at_cell(
                            &orig_table.path,
                            orig_table.table.lines[orig_table.rows[row]],
                            &spec.name,
                            format!("'{v}' is not a number"),
                        )
                    })?;
                    min = min.min(x);
                    max = max.max(x);
                }
            }
            // Released finite bounds widen the domain (a decade "1970-1979" over the years
            // 1979..1998 of the original spans 1970..1999).
            for c in numeric_cells().into_iter().flatten() {
                if let Cover::Numeric { lo, hi, .. } = c {
                    for x in [lo, hi].into_iter().filter(|x| x.is_finite()) {
                        min = min.min(x);
                        max = max.max(x);
                    }
                }
            }
            if !min.is_finite() {
                (min, max) = (0.0, 0.0);
            }
            Domain::Numeric { min, max }
        }
        Kind::Ordinal { levels } => Domain::Ordinal { levels },
        Kind::Categorical {
            hierarchy: Some(path),
        } => Domain::hierarchy(Arc::new(Hierarchy::read(&path)?)),
        Kind::Categorical { hierarchy: None } => {
            let mut values: Vec<String> = col
                .values
                .iter()
                .filter(|v| !v.contains('*'))
                .cloned()
                .collect();
            if let Some(o) = orig {
                values.extend(o.values.iter().cloned());
            }
            values.sort();
            values.dedup();
            Domain::Flat { values }
        }
        Kind::Inferred => unreachable!("resolved above"),
    })
}

/// Known values of a column in the table and the original (for the semantic partitions).
pub(crate) fn known_values(
    d: &Data,
) -> impl Fn(&str) -> Option<std::collections::HashSet<String>> + '_ {
    move |name: &str| {
        let c = d.table.headers.iter().position(|h| h == name)?;
        let mut set: std::collections::HashSet<String> =
            d.rows.iter().map(|&r| d.table.rows[r][c].clone()).collect();
        if let Some(o) = &d.original {
            if let Some(oc) = o.table.headers.iter().position(|h| h == name) {
                set.extend(o.rows.iter().map(|&r| o.table.rows[r][oc].clone()));
            }
        }
        Some(set)
    }
}
