//! Per-minute request limits on sign-in and the contact form.

use clap::Args;

use super::ConfigError;

#[derive(Args, Clone, Debug)]
pub struct RateLimitConfig {
    /// Sign-in, sign-up and guest requests allowed per client IP per minute.
    #[arg(
        long,
        env = "AUTH_RATE_LIMIT_PER_MINUTE",
        default_value_t = 30,
        global = true
    )]
    pub auth_rate_limit_per_minute: u32,

    /// Login attempts allowed per e-mail address per minute.
    #[arg(
        long,
        env = "LOGIN_RATE_LIMIT_PER_MINUTE",
        default_value_t = 10,
        global = true
    )]
    pub login_rate_limit_per_minute: u32,

    /// Contact-form messages allowed per client IP per minute.
    #[arg(
        long,
        env = "CONTACT_RATE_LIMIT_PER_MINUTE",
        default_value_t = 5,
        global = true
    )]
    pub contact_rate_limit_per_minute: u32,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        RateLimitConfig {
            auth_rate_limit_per_minute: 30,
            login_rate_limit_per_minute: 10,
            contact_rate_limit_per_minute: 5,
        }
    }
}

impl RateLimitConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.auth_rate_limit_per_minute == 0
            || self.login_rate_limit_per_minute == 0
            || self.contact_rate_limit_per_minute == 0
        {
            return Err(ConfigError(
                "rate limits must be at least 1 per minute".into(),
            ));
        }
        Ok(())
    }
}
