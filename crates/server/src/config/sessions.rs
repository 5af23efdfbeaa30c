//! How long a sign-in lasts, and how often open event streams are checked against it.

use std::time::Duration;

use clap::Args;

use super::ConfigError;

#[derive(Args, Clone, Debug)]
pub struct SessionConfig {
    /// A session unused for this many days expires (sliding).
    #[arg(long, env = "SESSION_IDLE_DAYS", default_value_t = 30, global = true)]
    pub session_idle_days: u32,

    /// A session expires this many days after sign-in, however active.
    #[arg(long, env = "SESSION_MAX_DAYS", default_value_t = 365, global = true)]
    pub session_max_days: u32,

    /// How often every open event stream is checked, in one batch, for a session that ended
    /// or expired and a change sequence that moved with no signal. The fallback only: the
    /// admin CLI's commits, a relay reconnect and dropped signals start a check at once.
    #[arg(
        long,
        env = "EVENTS_RECHECK_SECONDS",
        default_value_t = 60,
        global = true
    )]
    pub events_recheck_seconds: u32,

    /// How long a resolved session may be served from memory (0 to 30). Signals drop entries at
    /// once; this bounds how late a change made without one (the admin CLI on SQLite) shows.
    #[arg(
        long,
        env = "SESSION_CACHE_SECONDS",
        default_value_t = 10,
        global = true
    )]
    pub session_cache_seconds: u32,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            session_idle_days: 30,
            session_max_days: 365,
            events_recheck_seconds: 60,
            session_cache_seconds: 10,
        }
    }
}

impl SessionConfig {
    pub fn session_idle(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_idle_days) * 86_400)
    }

    pub fn session_max(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_max_days) * 86_400)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.session_idle_days == 0 || self.session_max_days < self.session_idle_days {
            return Err(ConfigError(
                "SESSION_IDLE_DAYS must be at least 1 and not above SESSION_MAX_DAYS".into(),
            ));
        }
        if self.session_cache_seconds > 30 {
            return Err(ConfigError("SESSION_CACHE_SECONDS must be 0 to 30".into()));
        }
        Ok(())
    }

    pub fn session_cache_ttl(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_cache_seconds))
    }
}
