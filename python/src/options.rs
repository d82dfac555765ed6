//! The keyword arguments the functions share — the table, its schema, the k_i source, how to
//! read the table, a time limit — turned into the library's values, refused with the messages
//! the command line gives (settings named as the keyword arguments are).

use crate::errors::{bad, to_py};
use crate::names;
use optik::{KChoice, KSettings, KSource, LoadOptions, Schema, SchemaSource, TableSource};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use std::time::Duration;

/// A table: CSV text (`bytes`, named `name` in messages) or the path of a file.
pub(crate) fn table(data: &Bound<'_, PyAny>, name: &str) -> PyResult<TableSource> {
    if let Ok(b) = data.downcast::<PyBytes>() {
        return Ok(TableSource::Text {
            name: name.to_string(),
            csv: b.as_bytes().to_vec(),
        });
    }
    let path: PathBuf = data.extract().map_err(|_| {
        bad(format!(
            "{name}: expected a pandas DataFrame, CSV text or a file path, got {}",
            data.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    Ok(TableSource::File(path))
}

/// The schema: a TOML file, or a quasi-identifier list (exactly one).
pub(crate) fn schema(schema: Option<PathBuf>, qi: Option<String>) -> PyResult<Schema> {
    let source = match (schema, qi) {
        (Some(s), None) => SchemaSource::File(s),
        (None, Some(q)) => SchemaSource::QiList(q),
        (Some(_), Some(_)) => return Err(bad("give either schema or qi, not both")),
        (None, None) => return Err(bad("give either schema or qi")),
    };
    Schema::load(&source).map_err(to_py)
}

/// The k_i source as the keyword arguments give it (at most one of `k`, `k_column`,
/// `k_dist`, `k_preset`).
#[derive(Debug, Default)]
pub(crate) struct KArgs {
    pub k: Option<i64>,
    pub k_column: Option<String>,
    pub k_dist: Option<String>,
    pub k_preset: Option<String>,
    pub k_levels: Option<String>,
    pub seed: u64,
    pub k_assign: Option<String>,
    pub k_axes: Option<String>,
    pub k_axis_order: Vec<String>,
}

impl KArgs {
    /// The k source, or `None` when no k is given.
    pub(crate) fn source_if_given(&self) -> PyResult<Option<KSource>> {
        let given = [
            self.k.is_some(),
            self.k_column.is_some(),
            self.k_dist.is_some(),
            self.k_preset.is_some(),
        ];
        let choice = match given.iter().filter(|&&g| g).count() {
            0 => return Ok(None),
            1 => {
                if let Some(k) = self.k {
                    if !(1..=u32::MAX as i64).contains(&k) {
                        return Err(bad(format!("k must be at least 1, got {k}")));
                    }
                    KChoice::Uniform(k as u32)
                } else if let Some(c) = &self.k_column {
                    KChoice::Column(c.clone())
                } else if let Some(d) = &self.k_dist {
                    KChoice::Distribution(d.clone())
                } else {
                    KChoice::Preset(self.k_preset.clone().expect("one k source given"))
                }
            }
            _ => return Err(bad("give only one of k, k_column, k_dist, k_preset")),
        };
        let mut settings = KSettings::new(choice);
        settings.seed = self.seed;
        if let Some(levels) = &self.k_levels {
            settings.levels = levels.clone();
        }
        if let Some(assign) = &self.k_assign {
            settings.assign = names::k_assign(assign)?;
        }
        if let Some(axes) = &self.k_axes {
            settings.axes = axes.clone();
        }
        settings.axis_order = self.k_axis_order.clone();
        settings.source().map(Some).map_err(to_py)
    }

    /// The k source (one is required).
    pub(crate) fn source(&self) -> PyResult<KSource> {
        self.source_if_given()?
            .ok_or_else(|| bad("give one of k, k_column, k_dist, k_preset"))
    }
}

/// How to read the table.
pub(crate) fn load(delimiter: Option<&str>, drop_missing: bool) -> PyResult<LoadOptions> {
    Ok(LoadOptions {
        delimiter: delimiter
            .map(optik::parse_delimiter)
            .transpose()
            .map_err(bad)?,
        drop_missing,
    })
}

/// A time limit: seconds as a number, or a duration text (`60s`, `2m`, `500ms`).
pub(crate) fn time_limit(t: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    let Some(t) = t else { return Ok(None) };
    if let Ok(s) = t.extract::<String>() {
        return optik::parse_duration(&s)
            .map(Some)
            .map_err(|e| bad(format!("time_limit: {e}")));
    }
    let secs: f64 = t
        .extract()
        .map_err(|_| bad("time_limit: expected seconds or a duration such as '60s'"))?;
    if secs.is_finite() && secs > 0.0 {
        Ok(Some(Duration::from_secs_f64(secs)))
    } else {
        Err(bad(format!(
            "time_limit: '{secs}' is not a positive duration (e.g. 60s, 2m, 500ms)"
        )))
    }
}
