//! `anonymise`: one anonymisation through the library's pipeline (load, partition, release,
//! independent check, report — nothing written), off the GIL and interruptible, and `Run`, its
//! result: the release as CSV text, the report as the JSON `optik anonymise` writes, each
//! record's table row and class, and the pictures on request.

use crate::errors::{bad, to_py};
use crate::options::{self, KArgs};
use crate::{interrupt, names};
use optik::{
    AnonymiseOptions, Anonymised, ClassConstraintOptions, Dataset, ExactOptions, HeuristicOptions,
    OutputSummary, ProgressBar, Solver,
};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use std::time::Instant;

/// What the release is called in messages and in the report's `outputs` (nothing is written).
const RELEASE_NAME: &str = "release";

/// A verified anonymisation and the dataset it was made of.
#[pyclass(module = "optik._optik", frozen)]
#[derive(Debug)]
pub(crate) struct Run {
    dataset: Dataset,
    done: Anonymised,
}

#[pymethods]
impl Run {
    /// The release as CSV text (UTF-8), exactly as the independent check read it.
    #[getter]
    fn release_csv<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.done.release_csv)
    }

    /// The report, as the JSON `optik anonymise --report` writes.
    #[getter]
    fn report_json(&self) -> PyResult<String> {
        let bytes = self.done.report.to_json().map_err(to_py)?;
        String::from_utf8(bytes).map_err(|e| bad(e.to_string()))
    }

    /// The 0-based data row of the input each released row comes from.
    #[getter]
    fn rows(&self) -> Vec<usize> {
        self.dataset.rows().to_vec()
    }

    /// Each released row's class id (0-based, as `class_column` writes it).
    #[getter]
    fn classes(&self) -> Vec<usize> {
        self.done.partition.labels().to_vec()
    }

    /// The partition picture as SVG (`plot_axes`: two quasi-identifiers `a,b`; default MDS).
    #[pyo3(signature = (plot_axes=None))]
    fn svg(&self, plot_axes: Option<&str>) -> PyResult<String> {
        optik::pictures(&self.dataset, &self.done, plot_axes, false)
            .map(|(svg, _)| svg)
            .map_err(to_py)
    }

    /// The self-contained HTML report page.
    #[pyo3(signature = (plot_axes=None))]
    fn html(&self, plot_axes: Option<&str>) -> PyResult<String> {
        optik::pictures(&self.dataset, &self.done, plot_axes, true)
            .map(|(_, html)| html.unwrap_or_default())
            .map_err(to_py)
    }
}

/// Anonymises a table; see `optik.anonymise` (python/optik/__init__.py) for the arguments.
#[pyfunction]
#[pyo3(signature = (
    data, name, *, qi=None, schema=None, k=None, k_column=None, k_dist=None, k_preset=None,
    k_levels=None, seed=0, k_assign=None, k_axes=None, k_axis_order=Vec::new(),
    method="optimal", criterion="dbil", engine="auto", time_limit=None, search="autonomous",
    no_size_cap=false, no_lp_bound=false, no_lp_primal=false, node_lp=false, scale=optik::DEFAULT_SCALE,
    form="ki", cost="personalised", l_diversity=None, sensitive=None, links=None,
    link_key=None, max_class_size=None, class_column=None, compare=false, release="generalised",
    delimiter=None,
    drop_missing=false, quiet=true
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn anonymise(
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
    method: &str,
    criterion: &str,
    engine: &str,
    time_limit: Option<&Bound<'_, PyAny>>,
    search: &str,
    no_size_cap: bool,
    no_lp_bound: bool,
    no_lp_primal: bool,
    node_lp: bool,
    scale: f64,
    form: &str,
    cost: &str,
    l_diversity: Option<u32>,
    sensitive: Option<String>,
    links: Option<PathBuf>,
    link_key: Option<String>,
    max_class_size: Option<u32>,
    class_column: Option<String>,
    compare: bool,
    release: &str,
    delimiter: Option<&str>,
    drop_missing: bool,
    quiet: bool,
) -> PyResult<Run> {
    let started = Instant::now();
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
    let load = options::load(delimiter, drop_missing)?;
    let criterion = names::criterion(criterion)?;
    let solver = match names::method(method)?.heuristic() {
        Some(heuristic) => Solver::Heuristic(HeuristicOptions {
            method: heuristic,
            form: names::form(form)?,
            cost: names::cost(cost)?,
            seed,
        }),
        None => Solver::Exact(ExactOptions {
            engine: names::engine(engine)?,
            criterion,
            time_limit: options::time_limit(time_limit)?,
            size_cap: !no_size_cap,
            lp_bound: !no_lp_bound,
            lp_primal: !no_lp_primal,
            node_lp,
            search: names::search(search)?,
            scale,
            seed,
            quiet,
        }),
    };
    let opts = AnonymiseOptions {
        solver,
        criterion,
        seed,
        constraints: ClassConstraintOptions {
            l_diversity,
            sensitive,
            links,
            link_key,
            max_class_size,
        },
        class_column,
        compare,
        release: names::release(release)?,
        outputs: OutputSummary {
            release: RELEASE_NAME.to_string(),
            report: None,
            plot: None,
            html: None,
        },
        started,
    };
    opts.validate().map_err(to_py)?;
    interrupt::run(py, move || {
        let dataset = Dataset::load_from(&source, schema, &ks, &load)?;
        let done = optik::anonymise(&dataset, &opts, &ProgressBar::hidden())?;
        Ok(Run { dataset, done })
    })?
    .map_err(to_py)
}
