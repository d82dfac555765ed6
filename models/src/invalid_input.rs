//! Why an input handed to `optik-models` is malformed (an instance, a partition, class
//! constraints or a name). A leaf module, so the data types can report it without depending on
//! the engines; [`crate::engine::EngineError`] wraps it.

/// A malformed input, with a one-line message saying what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidInput(pub String);

impl From<String> for InvalidInput {
    fn from(message: String) -> Self {
        InvalidInput(message)
    }
}

impl From<&str> for InvalidInput {
    fn from(message: &str) -> Self {
        InvalidInput(message.to_string())
    }
}
