//! The library's value names (`method="optimal"`, `engine="colgen"`, …) back to its enums,
//! with a `ValueError` listing the names on a typo. The names are the library's own (each
//! enum's `name`), which the command line uses too.

use crate::errors::bad;
use optik::{
    Criterion, Engine, ExportFormat, Form, KAssign, KMemberCost, Method, ReleaseStyle, Search,
};
use pyo3::PyResult;

/// The value of `setting` named `name` among `all`.
fn pick<T: Copy>(
    setting: &str,
    name: &str,
    all: &[T],
    name_of: fn(T) -> &'static str,
) -> PyResult<T> {
    all.iter()
        .copied()
        .find(|&v| name_of(v) == name)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&v| name_of(v)).collect();
            bad(format!(
                "unknown {setting} '{name}' (expected {})",
                names.join(", ")
            ))
        })
}

pub(crate) fn method(name: &str) -> PyResult<Method> {
    pick("method", name, &Method::ALL, Method::name)
}

pub(crate) fn criterion(name: &str) -> PyResult<Criterion> {
    pick("criterion", name, &Criterion::ALL, Criterion::name)
}

pub(crate) fn engine(name: &str) -> PyResult<Engine> {
    pick(
        "engine",
        name,
        &[
            Engine::Auto,
            Engine::Cp,
            Engine::Colgen,
            Engine::Mip,
            Engine::Lns,
        ],
        Engine::name,
    )
}

pub(crate) fn release(name: &str) -> PyResult<ReleaseStyle> {
    pick("release", name, &ReleaseStyle::ALL, ReleaseStyle::name)
}

pub(crate) fn search(name: &str) -> PyResult<Search> {
    pick("search", name, &Search::ALL, Search::name)
}

pub(crate) fn form(name: &str) -> PyResult<Form> {
    pick("form", name, &Form::ALL, Form::name)
}

pub(crate) fn cost(name: &str) -> PyResult<KMemberCost> {
    pick("cost", name, &KMemberCost::ALL, KMemberCost::name)
}

pub(crate) fn k_assign(name: &str) -> PyResult<KAssign> {
    pick("k_assign", name, &KAssign::ALL, KAssign::name)
}

pub(crate) fn export_format(name: &str) -> PyResult<ExportFormat> {
    pick("format", name, &ExportFormat::ALL, ExportFormat::name)
}
