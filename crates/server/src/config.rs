//! Runtime configuration: every setting is a flag or an environment variable with a safe
//! default, and anything ambiguous is refused at start-up rather than guessed.

use std::{fmt, net::SocketAddr, path::PathBuf, time::Duration};

use clap::Args;

#[derive(Args, Clone)]
pub struct Config {
    /// Directory holding the SQLite database and uploaded files.
    #[arg(long, env = "DATA_DIR", default_value = "./data", global = true)]
    pub data_dir: PathBuf,

    /// `sqlite://PATH` (default: DATA_DIR/delivery-tracker.db) or `postgres://…`.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,

    /// Address to listen on.
    #[arg(long, env = "LISTEN", default_value = "127.0.0.1:8080", global = true)]
    pub listen: SocketAddr,

    /// The public origin users reach the app at, e.g. `https://tracker.example.com`.
    /// Used for the CSRF origin check and to turn on HSTS when it is https.
    #[arg(long, env = "PUBLIC_URL", global = true)]
    pub public_url: Option<String>,

    /// Secure `__Host-session` cookie. Set to false only when serving plain http on a name
    /// other than localhost (the cookie is then called `session` and is not Secure).
    #[arg(long, env = "COOKIE_SECURE", default_value_t = true, action = clap::ArgAction::Set, global = true)]
    pub cookie_secure: bool,

    /// A session unused for this many days expires (sliding).
    #[arg(long, env = "SESSION_IDLE_DAYS", default_value_t = 30, global = true)]
    pub session_idle_days: u32,

    /// A session expires this many days after sign-in, however active.
    #[arg(long, env = "SESSION_MAX_DAYS", default_value_t = 365, global = true)]
    pub session_max_days: u32,

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

    /// Take the client IP from the last `X-Forwarded-For` entry (only behind a proxy you run).
    #[arg(long, env = "TRUST_PROXY", default_value_t = false, action = clap::ArgAction::Set, global = true)]
    pub trust_proxy: bool,

    /// SQLite `synchronous` mode: FULL (default, survives power loss) or NORMAL (faster,
    /// may lose the last commits on power loss but never corrupts).
    #[arg(
        long,
        env = "SQLITE_SYNCHRONOUS",
        default_value = "FULL",
        global = true
    )]
    pub sqlite_synchronous: String,

    /// Log format: `text` or `json`.
    #[arg(long, env = "LOG_FORMAT", default_value = "text", global = true)]
    pub log_format: String,
}

/// Which database the configuration selects.
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseTarget {
    Sqlite(PathBuf),
    Postgres(String),
}

impl fmt::Debug for DatabaseTarget {
    // Postgres URLs may carry a password: never print them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseTarget::Sqlite(path) => write!(f, "Sqlite({})", path.display()),
            DatabaseTarget::Postgres(_) => f.write_str("Postgres(<redacted>)"),
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("data_dir", &self.data_dir)
            .field("database", &self.database_target().ok())
            .field("listen", &self.listen)
            .field("public_url", &self.public_url)
            .field("cookie_secure", &self.cookie_secure)
            .field("session_idle_days", &self.session_idle_days)
            .field("session_max_days", &self.session_max_days)
            .field(
                "auth_rate_limit_per_minute",
                &self.auth_rate_limit_per_minute,
            )
            .field(
                "login_rate_limit_per_minute",
                &self.login_rate_limit_per_minute,
            )
            .field("trust_proxy", &self.trust_proxy)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// Defaults for tests and embedding: everything under `data_dir`.
    pub fn for_data_dir(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            data_dir: data_dir.into(),
            database_url: None,
            listen: "127.0.0.1:0".parse().expect("valid literal"),
            public_url: None,
            cookie_secure: true,
            session_idle_days: 30,
            session_max_days: 365,
            auth_rate_limit_per_minute: 30,
            login_rate_limit_per_minute: 10,
            trust_proxy: false,
            sqlite_synchronous: "FULL".into(),
            log_format: "text".into(),
        }
    }

    pub fn database_target(&self) -> Result<DatabaseTarget, ConfigError> {
        let Some(url) = self
            .database_url
            .as_deref()
            .filter(|u| !u.trim().is_empty())
        else {
            return Ok(DatabaseTarget::Sqlite(
                self.data_dir.join("delivery-tracker.db"),
            ));
        };
        if let Some(path) = url.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err(ConfigError(
                    "DATABASE_URL sqlite:// needs a file path".into(),
                ));
            }
            return Ok(DatabaseTarget::Sqlite(PathBuf::from(path)));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(DatabaseTarget::Postgres(url.to_owned()));
        }
        Err(ConfigError(
            "DATABASE_URL must start with sqlite:// or postgres:// (postgresql://); \
             other databases are not supported"
                .into(),
        ))
    }

    /// The origin (`scheme://host[:port]`) of PUBLIC_URL, validated.
    pub fn public_origin(&self) -> Result<Option<String>, ConfigError> {
        let Some(url) = self.public_url.as_deref().filter(|u| !u.trim().is_empty()) else {
            return Ok(None);
        };
        let url = url.trim().trim_end_matches('/');
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| ConfigError("PUBLIC_URL must look like https://host[:port]".into()))?;
        if scheme != "http" && scheme != "https" {
            return Err(ConfigError("PUBLIC_URL must use http or https".into()));
        }
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() {
            return Err(ConfigError("PUBLIC_URL has no host".into()));
        }
        Ok(Some(format!("{scheme}://{host}")))
    }

    pub fn session_idle(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_idle_days) * 86_400)
    }

    pub fn session_max(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_max_days) * 86_400)
    }

    /// Checks everything that can be checked before opening anything.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.database_target()?;
        self.public_origin()?;
        if !matches!(
            self.sqlite_synchronous.to_uppercase().as_str(),
            "FULL" | "NORMAL"
        ) {
            return Err(ConfigError(
                "SQLITE_SYNCHRONOUS must be FULL or NORMAL".into(),
            ));
        }
        if self.session_idle_days == 0 || self.session_max_days < self.session_idle_days {
            return Err(ConfigError(
                "SESSION_IDLE_DAYS must be at least 1 and not above SESSION_MAX_DAYS".into(),
            ));
        }
        if self.auth_rate_limit_per_minute == 0 || self.login_rate_limit_per_minute == 0 {
            return Err(ConfigError(
                "rate limits must be at least 1 per minute".into(),
            ));
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
#[error("configuration error: {0}")]
pub struct ConfigError(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    fn with_url(url: &str) -> Config {
        Config {
            database_url: Some(url.into()),
            ..Config::for_data_dir("/tmp/dt")
        }
    }

    #[test]
    fn sqlite_in_data_dir_by_default() {
        let target = Config::for_data_dir("/srv/dt").database_target().unwrap();
        assert_eq!(
            target,
            DatabaseTarget::Sqlite("/srv/dt/delivery-tracker.db".into())
        );
    }

    #[test]
    fn recognises_postgres_and_refuses_unknown_schemes() {
        assert!(matches!(
            with_url("postgres://u:p@h/db").database_target(),
            Ok(DatabaseTarget::Postgres(_))
        ));
        assert!(matches!(
            with_url("postgresql:///db?host=/run/postgresql").database_target(),
            Ok(DatabaseTarget::Postgres(_))
        ));
        let err = with_url("mysql://h/db").database_target().unwrap_err();
        assert!(err.0.contains("sqlite://"), "{err}");
    }

    #[test]
    fn debug_never_prints_database_password() {
        let printed = format!("{:?}", with_url("postgres://u:hunter2@h/db"));
        assert!(!printed.contains("hunter2"), "{printed}");
    }

    #[test]
    fn public_url_is_reduced_to_its_origin() {
        let config = Config {
            public_url: Some("https://dt.example.com/app/".into()),
            ..Config::for_data_dir("/tmp")
        };
        assert_eq!(
            config.public_origin().unwrap().as_deref(),
            Some("https://dt.example.com")
        );
        let bad = Config {
            public_url: Some("ftp://x".into()),
            ..Config::for_data_dir("/tmp")
        };
        assert!(bad.validate().is_err());
    }
}
