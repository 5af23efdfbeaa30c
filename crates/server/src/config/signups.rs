//! Who may create an account: SIGNUPS_OPEN closes sign-ups (e-mail, phone and OpenID alike;
//! existing accounts still sign in), GUESTS_ENABLED turns guest accounts off.

use clap::Args;

use super::ConfigError;

#[derive(Args, Clone, Debug)]
pub struct SignupConfig {
    /// New accounts by e-mail, phone or OpenID: `false` closes sign-ups (a private server);
    /// existing accounts still sign in.
    #[arg(long, env = "SIGNUPS_OPEN", default_value_t = true, action = clap::ArgAction::Set, global = true)]
    pub signups_open: bool,

    /// Guest accounts ("try it without an account"): `false` turns them off.
    #[arg(long, env = "GUESTS_ENABLED", default_value_t = true, action = clap::ArgAction::Set, global = true)]
    pub guests_enabled: bool,
}

impl Default for SignupConfig {
    fn default() -> Self {
        SignupConfig {
            signups_open: true,
            guests_enabled: true,
        }
    }
}

impl SignupConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        // A guest becomes an account by adding an e-mail, phone or OpenID sign-in: with guests
        // on, closed sign-ups would still let anyone in, so the pair is refused, not guessed.
        if !self.signups_open && self.guests_enabled {
            return Err(ConfigError(
                "SIGNUPS_OPEN=false needs GUESTS_ENABLED=false too: a guest can add a sign-in \
                 and become an account"
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
    fn open_by_default() {
        let config = SignupConfig::default();
        assert!(config.signups_open && config.guests_enabled);
        assert!(config.validate().is_ok());
    }

    #[test]
    fn closed_sign_ups_need_guests_off() {
        let closed = |guests_enabled| SignupConfig {
            signups_open: false,
            guests_enabled,
        };
        let why = closed(true).validate().expect_err("refused").0;
        assert!(
            why.contains("SIGNUPS_OPEN") && why.contains("GUESTS_ENABLED"),
            "{why}"
        );
        assert!(closed(false).validate().is_ok());
        // Guests off with sign-ups open is fine: accounts only.
        let accounts_only = SignupConfig {
            signups_open: true,
            guests_enabled: false,
        };
        assert!(accounts_only.validate().is_ok());
    }
}
