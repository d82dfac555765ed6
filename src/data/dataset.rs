//! A table made ready for anonymisation: roles resolved, rows with missing quasi-identifiers
//! handled, quasi-identifiers decoded and the k_i resolved.

use crate::data::distance::RecordDistance;
use crate::data::k_source::KSource;
use crate::data::qi::QiTable;
use crate::data::schema::{Role, Schema};
use crate::data::standardised::Standardised;
use crate::data::table::{is_missing, Table, TableSource};
use crate::error::{at_cell, Result};
use crate::settings::Setting;

/// Everything the partitioning and the release need from the input.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub(crate) table: Table,
    pub(crate) schema: Schema,
    /// Role of each table column (`None`: not released, e.g. the k column).
    pub(crate) roles: Vec<Option<Role>>,
    /// Table row of each record (rows dropped for missing values are absent).
    pub(crate) rows: Vec<usize>,
    /// Number of rows dropped for a missing quasi-identifier (`LoadOptions::drop_missing`).
    pub(crate) dropped: usize,
    pub(crate) qi: QiTable,
    /// k_i of each record.
    pub(crate) k: Vec<u32>,
    /// Where the k_i came from.
    pub(crate) k_source: KSource,
}

/// Options for loading.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    pub delimiter: Option<u8>,
    pub drop_missing: bool,
}

/// Which rows of a table become records (after rows with missing values are dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowSample {
    /// Every row.
    All,
    /// The first `n` rows, in file order.
    First(usize),
    /// `n` distinct rows drawn uniformly with a seeded generator (ChaCha8), kept in file order.
    Random { n: usize, seed: u64 },
}

impl RowSample {
    /// The sampled subset of `rows` (table rows, in file order).
    pub(crate) fn apply(self, rows: Vec<usize>) -> std::result::Result<Vec<usize>, String> {
        let want = match self {
            RowSample::All => return Ok(rows),
            RowSample::First(n) | RowSample::Random { n, .. } => n,
        };
        if want == 0 || want > rows.len() {
            return Err(format!(
                "a sample of {want} rows needs between 1 and {} rows",
                rows.len()
            ));
        }
        Ok(match self {
            RowSample::Random { seed, .. } => {
                use rand::SeedableRng;
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut picked = rand::seq::index::sample(&mut rng, rows.len(), want).into_vec();
                picked.sort_unstable();
                picked.into_iter().map(|i| rows[i]).collect()
            }
            _ => rows[..want].to_vec(),
        })
    }

    /// Short description for reports.
    pub fn describe(self) -> String {
        match self {
            RowSample::All => "all rows".to_string(),
            RowSample::First(n) => format!("first {n} rows"),
            RowSample::Random { n, seed } => format!("{n} rows drawn with seed {seed}"),
        }
    }
}

impl Dataset {
    /// Loads and validates a table against a schema and a k source.
    pub fn load(
        path: &std::path::Path,
        schema: Schema,
        ks: &KSource,
        opts: &LoadOptions,
    ) -> Result<Dataset> {
        Dataset::load_from(&path.into(), schema, ks, opts)
    }

    /// [`Dataset::load`] from a file or from CSV text in memory.
    pub fn load_from(
        source: &TableSource,
        schema: Schema,
        ks: &KSource,
        opts: &LoadOptions,
    ) -> Result<Dataset> {
        let table = source.read(opts.delimiter.or(schema.delimiter))?;
        Dataset::from_table(table, schema, ks, opts.drop_missing, RowSample::All)
    }

    /// Builds a dataset from a table already read, keeping the rows `sample` selects.
    pub(crate) fn from_table(
        table: Table,
        schema: Schema,
        ks: &KSource,
        drop_missing: bool,
        sample: RowSample,
    ) -> Result<Dataset> {
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
                Some(&c) if !drop_missing => {
                    return Err(at_cell(
                        &table.path,
                        table.lines[r],
                        &table.headers[c],
                        format!(
                            "missing value in a quasi-identifier (use {} to drop such rows)",
                            Setting::DropMissing
                        ),
                    ))
                }
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
        let rows = sample
            .apply(rows)
            .map_err(|e| crate::error::in_file(&table.path, e))?;
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
            k_source: ks.clone(),
        })
    }

    /// Number of records.
    pub fn n(&self) -> usize {
        self.rows.len()
    }

    /// k_i of each record.
    pub fn k(&self) -> &[u32] {
        &self.k
    }

    /// The 0-based data row of the table each record comes from, in table order (rows dropped
    /// for a missing quasi-identifier are absent).
    pub fn rows(&self) -> &[usize] {
        &self.rows
    }

    /// Rows dropped for a missing quasi-identifier.
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// The fast record distance over this dataset's quasi-identifiers.
    pub fn distance(&self) -> RecordDistance {
        RecordDistance::new(&self.qi)
    }

    /// The standardised records (numeric quasi-identifiers only), or why there are none.
    pub fn standardised(&self) -> std::result::Result<Standardised, String> {
        Standardised::new(&self.qi)
    }

    /// The exact engines' integer instance for `criterion` with this dataset's k_i: squared
    /// Euclidean distances of the standardised records for sse, the record distance `dist`
    /// otherwise (× `scale`, rounded).
    pub(crate) fn exact_instance(
        &self,
        dist: &RecordDistance,
        criterion: optik_models::Criterion,
        scale: f64,
    ) -> std::result::Result<optik_models::Instance, String> {
        if criterion == optik_models::Criterion::Sse {
            self.standardised()?.instance(self.k.clone(), scale)
        } else {
            dist.instance(self.k.clone(), scale)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RowSample;

    #[test]
    fn samples_are_deterministic_and_in_file_order() {
        let rows: Vec<usize> = (0..100).map(|r| r * 2).collect();
        assert_eq!(RowSample::All.apply(rows.clone()).unwrap(), rows);
        assert_eq!(RowSample::First(3).apply(rows.clone()).unwrap(), [0, 2, 4]);
        let a = RowSample::Random { n: 10, seed: 7 }
            .apply(rows.clone())
            .unwrap();
        assert_eq!(
            a,
            RowSample::Random { n: 10, seed: 7 }
                .apply(rows.clone())
                .unwrap()
        );
        assert_ne!(
            a,
            RowSample::Random { n: 10, seed: 8 }
                .apply(rows.clone())
                .unwrap()
        );
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a.iter().all(|r| rows.contains(r)));
        assert!(RowSample::First(101).apply(rows.clone()).is_err());
        assert!(RowSample::Random { n: 0, seed: 1 }.apply(rows).is_err());
    }
}
