//! `/metrics` for Prometheus: off unless METRICS_ENABLED; METRICS_TOKEN then asks scrapers for
//! a bearer token, and without one only loopback peers are answered.

use std::fmt;

use clap::Args;

use super::ConfigError;

/// A token shorter than this is guessable over the network.
const MIN_TOKEN_CHARS: usize = 16;

#[derive(Args, Clone, Default)]
pub struct MetricsConfig {
    /// Serve `/metrics` (Prometheus text format): to loopback peers only, or to anyone with
    /// METRICS_TOKEN.
    #[arg(long, env = "METRICS_ENABLED", default_value_t = false, action = clap::ArgAction::Set, global = true)]
    pub metrics_enabled: bool,

    /// Bearer token `/metrics` asks for (at least 16 characters); needs METRICS_ENABLED=true.
    #[arg(long, env = "METRICS_TOKEN", global = true)]
    pub metrics_token: Option<String>,
}

impl fmt::Debug for MetricsConfig {
    // The token is a secret: only say whether it is set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MetricsConfig")
            .field("metrics_enabled", &self.metrics_enabled)
            .field(
                "metrics_token",
                &self.metrics_token.as_ref().map(|_| "<set>"),
            )
            .finish()
    }
}

impl MetricsConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        let Some(token) = &self.metrics_token else {
            return Ok(());
        };
        // A token with metrics off is refused rather than guessed to mean "on".
        if !self.metrics_enabled {
            return Err(ConfigError(
                "METRICS_TOKEN is set but METRICS_ENABLED is not true".into(),
            ));
        }
        if token.chars().count() < MIN_TOKEN_CHARS {
            return Err(ConfigError(format!(
                "METRICS_TOKEN must be at least {MIN_TOKEN_CHARS} characters"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(enabled: bool, token: Option<&str>) -> MetricsConfig {
        MetricsConfig {
            metrics_enabled: enabled,
            metrics_token: token.map(str::to_owned),
        }
    }

    #[test]
    fn off_by_default_and_token_needs_enabled_and_length() {
        assert!(!MetricsConfig::default().metrics_enabled);
        assert!(config(false, None).validate().is_ok());
        assert!(config(true, None).validate().is_ok());
        assert!(config(true, Some("0123456789abcdef")).validate().is_ok());
        let why = config(false, Some("0123456789abcdef"))
            .validate()
            .expect_err("refused")
            .0;
        assert!(why.contains("METRICS_ENABLED"), "{why}");
        let why = config(true, Some("short"))
            .validate()
            .expect_err("refused")
            .0;
        assert!(why.contains("METRICS_TOKEN"), "{why}");
    }

    #[test]
    fn debug_never_prints_the_token() {
        let printed = format!("{:?}", config(true, Some("hunter2hunter2hunter2")));
        assert!(!printed.contains("hunter2"), "{printed}");
    }
}
