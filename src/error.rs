//! Errors with the exit codes the CLI promises: 2 for bad usage or input, 1 for internal failures.

use std::path::Path;

/// optik's error: a one-line message and whether the user or optik is at fault.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad usage or bad input (exit code 2).
    #[error("{0}")]
    Input(String),
    /// A failure inside optik or the system (exit code 1).
    #[error("{0}")]
    Internal(String),
}

/// Result alias used throughout optik.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Internal(_) => 1,
        }
    }
}

/// Bad input with a free-form message.
pub(crate) fn input(msg: impl Into<String>) -> Error {
    Error::Input(msg.into())
}

/// Bad input located in a file: `FILE: msg`.
pub(crate) fn in_file(path: &Path, msg: impl std::fmt::Display) -> Error {
    Error::Input(format!("{}: {msg}", path.display()))
}

/// Bad input located at a line and column of a file: `FILE: line L, column 'C': msg`.
pub(crate) fn at_cell(path: &Path, line: u64, column: &str, msg: impl std::fmt::Display) -> Error {
    Error::Input(format!(
        "{}: line {line}, column '{column}': {msg}",
        path.display()
    ))
}

/// A TOML parse error in `path` (whose text is `text`) as one line: `FILE: line L: msg`.
pub(crate) fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> Error {
    let msg = e.message().trim().replace('\n', " ");
    match e.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            in_file(path, format!("line {line}: {msg}"))
        }
        None => in_file(path, msg),
    }
}

/// Internal failure.
pub(crate) fn internal(msg: impl Into<String>) -> Error {
    Error::Internal(msg.into())
}
