//! The schema: every column's role, and each quasi-identifier's kind and weight.

use crate::data::table::Table;
use crate::error::{in_file, input, Result};
use crate::settings::Setting;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a column is for in the release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Directly identifying: dropped from the release.
    Identifier,
    /// Quasi-identifier: generalised per equivalence class.
    Quasi,
    /// Sensitive attribute: released as is.
    Sensitive,
    /// Neither identifying nor sensitive: released as is.
    Insensitive,
}

/// How a quasi-identifier's values are compared and generalised.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Kind {
    /// Real numbers: distance |a-b|/range, generalised to `[min-max]`.
    Numeric,
    /// Ordered levels: distance |rank a - rank b|/(levels-1), generalised to `[low-high]`.
    Ordinal { levels: Vec<String> },
    /// Unordered values: distance LCA height / tree height, generalised to the LCA.
    Categorical { hierarchy: Option<PathBuf> },
    /// A quasi-identifier list's column: numeric if every value parses as a number, else
    /// categorical.
    Inferred,
}

/// One column's specification.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ColumnSpec {
    pub name: String,
    pub role: Role,
    /// Kind, for quasi-identifiers only.
    pub kind: Option<Kind>,
    /// Weight in the record distance (quasi-identifiers only), default 1.
    pub weight: f64,
}

/// Where a schema comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaSource {
    /// A TOML schema file.
    File(PathBuf),
    /// Comma-separated quasi-identifiers (kinds inferred); every other column is released as
    /// is.
    QiList(String),
}

/// A resolved schema, listing quasi-identifiers in the order given.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Schema {
    /// Where it came from: the file path, or the quasi-identifier list setting.
    pub source: String,
    pub columns: Vec<ColumnSpec>,
    /// Role of table columns the schema does not mention (`None`: such columns are an error).
    pub default_role: Option<Role>,
    /// Delimiter of the data file, if the schema fixes it.
    #[serde(skip)]
    pub delimiter: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SchemaFile {
    #[serde(default)]
    delimiter: Option<String>,
    #[serde(default)]
    default_role: Option<Role>,
    columns: BTreeMap<String, ColumnFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColumnFile {
    role: Role,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    levels: Option<Vec<String>>,
    #[serde(default)]
    hierarchy: Option<PathBuf>,
    #[serde(default)]
    weight: Option<f64>,
}

impl Schema {
    /// The schema `source` describes.
    pub fn load(source: &SchemaSource) -> Result<Schema> {
        match source {
            SchemaSource::File(path) => Schema::read(path),
            SchemaSource::QiList(list) => Schema::from_qi_list(list),
        }
    }

    /// Reads a TOML schema; hierarchy paths are relative to the schema's folder.
    pub fn read(path: &Path) -> Result<Schema> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| in_file(path, format!("cannot read schema: {e}")))?;
        let file: SchemaFile =
            toml::from_str(&text).map_err(|e| crate::error::toml_error(path, &text, &e))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut columns = Vec::new();
        for (name, c) in file.columns {
            let bad = |msg: String| in_file(path, format!("column '{name}': {msg}"));
            let weight = c.weight.unwrap_or(1.0);
            if !(weight.is_finite() && weight > 0.0) {
                return Err(bad(format!(
                    "weight must be a positive number, got {weight}"
                )));
            }
            let kind = if c.role == Role::Quasi {
                let kind = c.kind.as_deref().ok_or_else(|| {
                    bad("a quasi-identifier needs a kind (numeric, ordinal or categorical)".into())
                })?;
                Some(match kind {
                    "numeric" => {
                        if c.levels.is_some() || c.hierarchy.is_some() {
                            return Err(bad(
                                "a numeric column takes neither levels nor a hierarchy".into(),
                            ));
                        }
                        Kind::Numeric
                    }
                    "ordinal" => {
                        let levels = c.levels.ok_or_else(|| {
                            bad("an ordinal column needs `levels = [...]`".into())
                        })?;
                        if levels.len() < 2 {
                            return Err(bad("an ordinal column needs at least two levels".into()));
                        }
                        let mut seen = std::collections::HashSet::new();
                        if let Some(dup) = levels.iter().find(|l| !seen.insert(l.as_str())) {
                            return Err(bad(format!("level '{dup}' is listed twice")));
                        }
                        Kind::Ordinal { levels }
                    }
                    "categorical" => Kind::Categorical {
                        hierarchy: c
                            .hierarchy
                            .map(|h| if h.is_absolute() { h } else { base.join(h) }),
                    },
                    other => {
                        return Err(bad(format!(
                            "unknown kind '{other}' (numeric, ordinal or categorical)"
                        )))
                    }
                })
            } else {
                if c.kind.is_some() || c.levels.is_some() || c.hierarchy.is_some() {
                    return Err(bad(
                        "only quasi-identifiers take a kind, levels or a hierarchy".into(),
                    ));
                }
                None
            };
            columns.push(ColumnSpec {
                name,
                role: c.role,
                kind,
                weight,
            });
        }
        let delimiter = match file.delimiter {
            Some(d) => Some(crate::data::table::parse_delimiter(&d).map_err(|e| in_file(path, e))?),
            None => None,
        };
        let schema = Schema {
            source: path.display().to_string(),
            columns,
            default_role: file.default_role,
            delimiter,
        };
        if schema.quasi().next().is_none() {
            return Err(in_file(
                path,
                "the schema names no quasi-identifier (role = \"quasi\")",
            ));
        }
        Ok(schema)
    }

    /// The quasi-identifier list shortcut (`a,b,c`): listed columns are quasi-identifiers of inferred kind; every
    /// other column is released as is.
    pub fn from_qi_list(list: &str) -> Result<Schema> {
        let mut columns: Vec<ColumnSpec> = Vec::new();
        for name in list.split(',').map(str::trim) {
            if name.is_empty() {
                return Err(input(format!(
                    "{} '{list}': empty column name",
                    Setting::Qi
                )));
            }
            if columns.iter().any(|c| c.name == name) {
                return Err(input(format!(
                    "{} '{list}': column '{name}' is listed twice",
                    Setting::Qi
                )));
            }
            columns.push(ColumnSpec {
                name: name.to_string(),
                role: Role::Quasi,
                kind: Some(Kind::Inferred),
                weight: 1.0,
            });
        }
        Ok(Schema {
            source: Setting::Qi.to_string(),
            columns,
            default_role: Some(Role::Insensitive),
            delimiter: None,
        })
    }

    /// Quasi-identifier specifications, in schema order.
    pub fn quasi(&self) -> impl Iterator<Item = &ColumnSpec> {
        self.columns.iter().filter(|c| c.role == Role::Quasi)
    }

    /// Role of every table column; errors on schema columns missing from the table and on table
    /// columns the schema does not cover (unless a default role is set). `exempt` columns (the
    /// k column) are neither required nor released.
    pub fn roles_for(&self, table: &Table, exempt: &[&str]) -> Result<Vec<Option<Role>>> {
        for c in &self.columns {
            if !table.headers.contains(&c.name) {
                return Err(in_file(
                    &table.path,
                    format!(
                        "unknown column '{}' named by {} (columns: {})",
                        c.name,
                        self.source,
                        table.headers.join(", ")
                    ),
                ));
            }
        }
        table
            .headers
            .iter()
            .map(|h| {
                if exempt.contains(&h.as_str()) {
                    if let Some(c) = self.columns.iter().find(|c| &c.name == h) {
                        if c.role == Role::Quasi {
                            return Err(input(format!("column '{h}' cannot be both the k column and a quasi-identifier")));
                        }
                    }
                    return Ok(None);
                }
                match self.columns.iter().find(|c| &c.name == h) {
                    Some(c) => Ok(Some(c.role)),
                    None => self.default_role.map(Some).ok_or_else(|| {
                        input(format!(
                            "{}: column '{h}' of {} has no role (add it to the schema or set default_role)",
                            self.source,
                            table.path.display()
                        ))
                    }),
                }
            })
            .collect()
    }
}
