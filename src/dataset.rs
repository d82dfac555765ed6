//! A table made ready for anonymisation: roles resolved, rows with missing quasi-identifiers
//! handled, quasi-identifiers decoded and the k_i resolved.

use crate::distance::RecordDistance;
use crate::error::{at_cell, Result};
use crate::privacy::KSource;
use crate::qi::QiTable;
use crate::schema::{Role, Schema};
use crate::table::{is_missing, Table};

/// Everything the partitioning and the release need from the input.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub table: Table,
    pub schema: Schema,
    /// Role of each table column (`None`: not released, e.g. the k column).
    pub roles: Vec<Option<Role>>,
    /// Table row of each record (rows dropped for missing values are absent).
    pub rows: Vec<usize>,
    /// Number of rows dropped for a missing quasi-identifier (`--drop-missing`).
    pub dropped: usize,
    pub qi: QiTable,
    /// k_i of each record.
    pub k: Vec<u32>,
}

/// Options for loading.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    pub delimiter: Option<u8>,
    pub drop_missing: bool,
}

impl Dataset {
    /// Loads and validates a table against a schema and a k source.
    pub fn load(
        path: &std::path::Path,
        schema: Schema,
        ks: &KSource,
        opts: &LoadOptions,
    ) -> Result<Dataset> {
        let table = Table::read(path, opts.delimiter.or(schema.delimiter))?;
        let exempt: Vec<&str> = ks.column().into_iter().collect();
        let roles = schema.roles_for(&table, &exempt)?;
        // Quasi-identifiers in table order, whatever order the schema lists them in.
        let mut qi_specs: Vec<_> = schema.quasi().collect();
        qi_specs.sort_by_key(|s| table.headers.iter().position(|h| *h == s.name));
        let qi_cols: Vec<usize> = qi_specs
            .iter()
            .map(|s| table.column(&s.name))
            .collect::<Result<_>>()?;
        let mut rows = Vec::with_capacity(table.len());
        for r in 0..table.len() {
            match qi_cols.iter().find(|&&c| is_missing(&table.rows[r][c])) {
                None => rows.push(r),
                Some(&c) if !opts.drop_missing => return Err(at_cell(
                    &table.path,
                    table.lines[r],
                    &table.headers[c],
                    "missing value in a quasi-identifier (use --drop-missing to drop such rows)",
                )),
                Some(_) => {}
            }
        }
        let dropped = table.len() - rows.len();
        if rows.is_empty() {
            return Err(crate::error::in_file(
                &table.path,
                "every row has a missing quasi-identifier",
            ));
        }
        let qi = QiTable::decode(&table, &qi_specs, &rows)?;
        let k = ks.resolve(&table, &rows)?;
        Ok(Dataset {
            table,
            schema,
            roles,
            rows,
            dropped,
            qi,
            k,
        })
    }

    /// Number of records.
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// The fast record distance over this dataset's quasi-identifiers.
    pub fn distance(&self) -> RecordDistance {
        RecordDistance::new(&self.qi)
    }
}
