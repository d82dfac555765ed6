//! `check`, `assess` and `export`: the library's independent k_i check of a release, its
//! assessment of any table and the exact instance's export, with the keyword arguments of
//! `optik check`, `optik assess` and `optik export`. Each returns JSON or text; the Python
//! package parses it.

use crate::errors::{bad, to_py};
use crate::options::{self, KArgs};
use crate::{interrupt, names};
use optik::{AssessOptions, Dataset, TableSource};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// JSON text of a serialisable report.
fn json<T: serde::Serialize>(value: &T) -> optik::Result<String> {
    serde_json::to_string_pretty(value).map_err(|e| optik::Error::Internal(format!("report: {e}")))
}

/// An optional original table: CSV text or a path.
fn original(original: Option<&Bound<'_, PyAny>>) -> PyResult<Option<TableSource>> {
    original.map(|o| options::table(o, "original")).transpose()
}

/// Checks a release; returns the check report as JSON. See `optik.check`.
#[pyfunction]
#[pyo3(signature = (
    data, name, *, qi=None, schema=None, k=None, k_column=None, k_dist=None, k_preset=None,
    k_levels=None, seed=0, k_assign=None, k_axes=None, k_axis_order=Vec::new(),
    original=None, delimiter=None, drop_missing=false
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn check(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    name: &str,
    qi: Option<String>,
    schema: Option<PathBuf>,
    k: Option<i64>,
    k_column: Option<String>,
    k_dist: Option<String>,
    k_preset: Option<String>,
    k_levels: Option<String>,
    seed: u64,
    k_assign: Option<String>,
    k_axes: Option<String>,
    k_axis_order: Vec<String>,
    original: Option<&Bound<'_, PyAny>>,
    delimiter: Option<&str>,
    drop_missing: bool,
) -> PyResult<String> {
    let release = options::table(data, name)?;
    let schema = options::schema(schema, qi)?;
    let ks = KArgs {
        k,
        k_column,
        k_dist,
        k_preset,
        k_levels,
        seed,
        k_assign,
        k_axes,
        k_axis_order,
    }
    .source()?;
    let original = self::original(original)?;
    let load = options::load(delimiter, drop_missing)?;
    interrupt::run(py, move || {
        let report = optik::check_release(&release, &schema, &ks, original.as_ref(), &load)?;
        json(&report)
    })?
    .map_err(to_py)
}

/// Assesses a table; returns the assessment report as JSON. See `optik.assess`.
#[pyfunction]
#[pyo3(signature = (
    data, name, *, qi=None, schema=None, k=None, k_column=None, k_dist=None, k_preset=None,
    k_levels=None, seed=0, k_assign=None, k_axes=None, k_axis_order=Vec::new(),
    sensitive=None, original=None, risk_threshold=0.2, max_subset=3, c=3.0, semantic=None,
    sensitive_hierarchy=Vec::new(), sensitive_levels=Vec::new(), delimiter=None,
    drop_missing=false
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn assess(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    name: &str,
    qi: Option<String>,
    schema: Option<PathBuf>,
    k: Option<i64>,
    k_column: Option<String>,
    k_dist: Option<String>,
    k_preset: Option<String>,
    k_levels: Option<String>,
    seed: u64,
    k_assign: Option<String>,
    k_axes: Option<String>,
    k_axis_order: Vec<String>,
    sensitive: Option<String>,
    original: Option<&Bound<'_, PyAny>>,
    risk_threshold: f64,
    max_subset: usize,
    c: f64,
    semantic: Option<PathBuf>,
    sensitive_hierarchy: Vec<String>,
    sensitive_levels: Vec<String>,
    delimiter: Option<&str>,
    drop_missing: bool,
) -> PyResult<String> {
    let started = Instant::now();
    let table = options::table(data, name)?;
    let schema = options::schema(schema, qi)?;
    let ks = KArgs {
        k,
        k_column,
        k_dist,
        k_preset,
        k_levels,
        seed,
        k_assign,
        k_axes,
        k_axis_order,
    }
    .source_if_given()?;
    let opts = AssessOptions {
        load: options::load(delimiter, drop_missing)?,
        sensitive,
        original: self::original(original)?,
        risk_threshold,
        max_subset,
        c,
        semantic,
        sensitive_hierarchy,
        sensitive_levels,
    };
    opts.validate().map_err(to_py)?;
    interrupt::run(py, move || {
        let report = optik::assess(&table, schema, ks, &opts, started)?;
        json(&report)
    })?
    .map_err(to_py)
}

/// The exact instance of a table as text. See `optik.export`.
#[pyfunction]
#[pyo3(signature = (
    data, name, *, qi=None, schema=None, k=None, k_column=None, k_dist=None, k_preset=None,
    k_levels=None, seed=0, k_assign=None, k_axes=None, k_axis_order=Vec::new(),
    format="json", criterion="dbil", scale=optik::DEFAULT_SCALE, delimiter=None,
    drop_missing=false
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn export(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    name: &str,
    qi: Option<String>,
    schema: Option<PathBuf>,
    k: Option<i64>,
    k_column: Option<String>,
    k_dist: Option<String>,
    k_preset: Option<String>,
    k_levels: Option<String>,
    seed: u64,
    k_assign: Option<String>,
    k_axes: Option<String>,
    k_axis_order: Vec<String>,
    format: &str,
    criterion: &str,
    scale: f64,
    delimiter: Option<&str>,
    drop_missing: bool,
) -> PyResult<String> {
    let source = options::table(data, name)?;
    let schema = options::schema(schema, qi)?;
    let ks = KArgs {
        k,
        k_column,
        k_dist,
        k_preset,
        k_levels,
        seed,
        k_assign,
        k_axes,
        k_axis_order,
    }
    .source()?;
    let format = names::export_format(format)?;
    let criterion = names::criterion(criterion)?;
    if !(scale.is_finite() && scale > 0.0) {
        return Err(bad(format!("scale must be positive, got {scale}")));
    }
    let load = options::load(delimiter, drop_missing)?;
    interrupt::run(py, move || {
        let ds = Dataset::load_from(&source, schema, &ks, &load)?;
        optik::export(&ds, format, criterion, scale)
    })?
    .map_err(to_py)
}
