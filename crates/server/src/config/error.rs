//! The one error of configuration: a setting refused at start-up, with what to change. A leaf:
//! every section and whatever reads the configuration depends on it, it depends on nothing.

#[derive(Debug, thiserror::Error)]
#[error("configuration error: {0}")]
pub struct ConfigError(pub String);
