//! optik's errors as Python exceptions: bad usage or input (the CLI's exit code 2) is a
//! `ValueError` carrying the same one-line message, an internal failure a `RuntimeError`.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;

/// The Python exception of an optik error.
pub(crate) fn to_py(e: optik::Error) -> PyErr {
    match e {
        optik::Error::Input(msg) => PyValueError::new_err(msg),
        optik::Error::Internal(msg) => PyRuntimeError::new_err(msg),
    }
}

/// A `ValueError` for a bad keyword argument.
pub(crate) fn bad(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}
