//! `optik._optik`: the Python extension module of optik, a thin layer over the library's public
//! API (`optik::anonymise`, `check_release`, `assess`, `export`). The Python package `optik`
//! (python/optik/) wraps it: it turns data frames into CSV text and back, and gives the
//! keyword arguments their defaults. Here: keyword arguments → the library's option structs,
//! the library's errors → `ValueError` (bad input, the one-line message) or `RuntimeError`
//! (internal failure), and every call run off the GIL, interruptible by Ctrl-C.

mod errors;
mod interrupt;
mod names;
mod options;
mod run;
mod tools;

use pyo3::prelude::*;

#[pymodule]
fn _optik(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run::anonymise, m)?)?;
    m.add_function(wrap_pyfunction!(tools::check, m)?)?;
    m.add_function(wrap_pyfunction!(tools::assess, m)?)?;
    m.add_function(wrap_pyfunction!(tools::export, m)?)?;
    m.add_class::<run::Run>()?;
    Ok(())
}
