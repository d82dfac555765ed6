//! Semantic partitions (seed 000 §5.4.2, §6.5.1): groups of an attribute's values that an
//! attacker or a data user does not tell apart, read from a TOML file:
//!
//! ```toml
//! [Disease]                       # a column of the table
//! cancer = ["colon cancer", "lung cancer", "stomach cancer"]
//! other = ["diabetes", "flu", "aids"]
//!
//! [Age]
//! "<35" = [22, 32]                # integers are read as their decimal text
//! ">=35" = ["35", "40", "45", "63"]
//! ```
//!
//! Each table is one column; each key names a semantic domain and lists its values. Values of
//! the column not listed stay their own (singleton) domain, so the result is always a partition.
//! Errors: a column unknown to the table, a value listed twice (in one or two domains), a
//! value that occurs in neither the assessed table nor the original, an empty domain, a domain
//! name equal to an unlisted value of the column (it would merge two domains silently).

use super::column::Column;
use crate::error::{in_file, Result};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The partitions of a semantic file, per column: value → domain name.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Semantic {
    pub path: PathBuf,
    pub columns: BTreeMap<String, HashMap<String, String>>,
}

impl Semantic {
    /// Reads and validates a semantic file against the columns' known values (`known(column)`
    /// is `None` for a column the tables do not have).
    pub(crate) fn read(
        path: &Path,
        known: &dyn Fn(&str) -> Option<HashSet<String>>,
    ) -> Result<Semantic> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| in_file(path, format!("cannot read semantic partitions: {e}")))?;
        let value: toml::Table = toml::from_str(&text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start].matches('\n').count() + 1)
                .unwrap_or(1);
            in_file(path, format!("line {line}: {}", e.message()))
        })?;
        let mut columns = BTreeMap::new();
        for (column, domains) in value {
            let bad = |msg: String| in_file(path, format!("[{column}]: {msg}"));
            let Some(values) = known(&column) else {
                return Err(bad("no such column in the assessed table".into()));
            };
            let toml::Value::Table(domains) = domains else {
                return Err(bad("expected a table of `domain = [values]` entries".into()));
            };
            let mut map: HashMap<String, String> = HashMap::new();
            for (domain, list) in domains {
                let toml::Value::Array(list) = list else {
                    return Err(bad(format!("domain '{domain}': expected a list of values")));
                };
                if list.is_empty() {
                    return Err(bad(format!("domain '{domain}' is empty")));
                }
                for v in list {
                    let v = match v {
                        toml::Value::String(s) => s,
                        toml::Value::Integer(i) => i.to_string(),
                        other => {
                            return Err(bad(format!(
                                "domain '{domain}': {other} is neither a string nor an integer"
                            )))
                        }
                    };
                    if !values.contains(&v) {
                        return Err(bad(format!(
                            "domain '{domain}' names the value '{v}', which the column does not hold"
                        )));
                    }
                    if let Some(first) = map.insert(v.clone(), domain.clone()) {
                        return Err(bad(format!(
                            "value '{v}' is listed twice (domains '{first}' and '{domain}')"
                        )));
                    }
                }
            }
            let names: HashSet<&String> = map.values().collect();
            if let Some(clash) = values
                .iter()
                .find(|v| !map.contains_key(*v) && names.contains(v))
            {
                return Err(bad(format!(
                    "domain name '{clash}' is also an unlisted value of the column"
                )));
            }
            columns.insert(column, map);
        }
        Ok(Semantic {
            path: path.to_path_buf(),
            columns,
        })
    }

    /// True when the file partitions this column.
    pub(crate) fn has(&self, column: &str) -> bool {
        self.columns.contains_key(column)
    }

    /// `f_SP`: the column with each value replaced by its semantic domain (unchanged when the
    /// file does not partition the column).
    pub(crate) fn apply(&self, c: &Column) -> Column {
        match self.columns.get(&c.name) {
            None => c.clone(),
            Some(map) => c.mapped(&c.name, |v| {
                map.get(v).cloned().unwrap_or_else(|| v.to_string())
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(c: &str) -> Option<HashSet<String>> {
        (c == "d").then(|| {
            ["a", "b", "c", "22"]
                .iter()
                .map(|s| s.to_string())
                .collect()
        })
    }

    fn read(text: &str) -> Result<Semantic> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.toml");
        std::fs::write(&p, text).unwrap();
        Semantic::read(&p, &known)
    }

    #[test]
    fn maps_listed_values_and_keeps_the_rest() {
        let s = read("[d]\nx = [\"a\", 22]\n").unwrap();
        let c = Column::encode("d", ["a", "b", "22", "c"]);
        let m = s.apply(&c);
        assert_eq!(m.values, vec!["x", "b", "c"]);
        assert_eq!(m.codes, vec![0, 1, 0, 2]);
    }

    #[test]
    fn rejects_bad_partitions() {
        let e = read("[d]\nx = [\"a\", \"zz\"]\n").unwrap_err().to_string();
        assert!(e.contains("'zz'") && e.contains("does not hold"), "{e}");
        let e = read("[q]\nx = [\"a\"]\n").unwrap_err().to_string();
        assert!(e.contains("[q]") && e.contains("no such column"), "{e}");
        let e = read("[d]\nx = [\"a\"]\ny = [\"a\"]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice"), "{e}");
        let e = read("[d]\nx = []\n").unwrap_err().to_string();
        assert!(e.contains("empty"), "{e}");
        let e = read("[d]\nb = [\"a\"]\n").unwrap_err().to_string();
        assert!(e.contains("unlisted value"), "{e}");
        let e = read("[d\n").unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
    }
}
