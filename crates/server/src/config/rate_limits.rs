//! Request limits on sign-in, password-reset e-mails and the contact form.

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

    /// Password-reset e-mails asked for one address per hour (whether or not it has an
    /// account, so the limit tells nothing).
    #[arg(
        long,
        env = "PASSWORD_RESET_PER_ADDRESS_PER_HOUR",
        default_value_t = 3,
        global = true
    )]
    pub password_reset_per_address_per_hour: u32,

    /// Password-reset e-mails asked for by one client IP per hour.
    #[arg(
        long,
        env = "PASSWORD_RESET_PER_CLIENT_PER_HOUR",
        default_value_t = 10,
        global = true
    )]
    pub password_reset_per_client_per_hour: u32,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        RateLimitConfig {
            auth_rate_limit_per_minute: 30,
            login_rate_limit_per_minute: 10,
            contact_rate_limit_per_minute: 5,
            password_reset_per_address_per_hour: 3,
            password_reset_per_client_per_hour: 10,
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
        if self.password_reset_per_address_per_hour == 0
            || self.password_reset_per_client_per_hour == 0
        {
            return Err(ConfigError(
                "PASSWORD_RESET_PER_ADDRESS_PER_HOUR and PASSWORD_RESET_PER_CLIENT_PER_HOUR must \
                 be at least 1"
                    .into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_must_allow_something() {
        assert!(RateLimitConfig::default().validate().is_ok());
        let none_per_address = RateLimitConfig {
            password_reset_per_address_per_hour: 0,
            ..RateLimitConfig::default()
        };
        let why = none_per_address.validate().expect_err("refused").0;
        assert!(why.contains("PASSWORD_RESET_PER_ADDRESS_PER_HOUR"), "{why}");
        let none_per_client = RateLimitConfig {
            password_reset_per_client_per_hour: 0,
            ..RateLimitConfig::default()
        };
        assert!(none_per_client.validate().is_err());
    }
}
