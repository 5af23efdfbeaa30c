//! Which database: SQLite under DATA_DIR by default, or a `sqlite://` or `postgres://` URL.

use std::{
    fmt,
    path::{Path, PathBuf},
};

use clap::Args;

use super::ConfigError;

#[derive(Args, Clone)]
pub struct DatabaseConfig {
    /// `sqlite://PATH` (default: DATA_DIR/delivery-tracker.db) or `postgres://…`.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,

    /// SQLite `synchronous` mode: FULL (default, survives power loss) or NORMAL (faster,
    /// may lose the last commits on power loss but never corrupts).
    #[arg(
        long,
        env = "SQLITE_SYNCHRONOUS",
        default_value = "FULL",
        global = true
    )]
    pub sqlite_synchronous: String,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            database_url: None,
            sqlite_synchronous: "FULL".into(),
        }
    }
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

impl fmt::Debug for DatabaseConfig {
    // The URL may carry a password: only SQLite paths are printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let url = self.database_url.as_deref().map(|url| {
            if url.starts_with("sqlite://") {
                url
            } else {
                "<redacted>"
            }
        });
        f.debug_struct("DatabaseConfig")
            .field("database_url", &url)
            .field("sqlite_synchronous", &self.sqlite_synchronous)
            .finish()
    }
}

impl DatabaseConfig {
    /// The database selected, with SQLite in `data_dir` when no URL is set.
    pub fn target(&self, data_dir: &Path) -> Result<DatabaseTarget, ConfigError> {
        let Some(url) = self
            .database_url
            .as_deref()
            .filter(|u| !u.trim().is_empty())
        else {
            return Ok(DatabaseTarget::Sqlite(data_dir.join("delivery-tracker.db")));
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

    pub fn validate(&self) -> Result<(), ConfigError> {
        // The data directory only changes where a default SQLite file goes, never validity.
        self.target(Path::new("."))?;
        if !matches!(
            self.sqlite_synchronous.to_uppercase().as_str(),
            "FULL" | "NORMAL"
        ) {
            return Err(ConfigError(
                "SQLITE_SYNCHRONOUS must be FULL or NORMAL".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_url(url: &str) -> DatabaseConfig {
        DatabaseConfig {
            database_url: Some(url.into()),
            ..DatabaseConfig::default()
        }
    }

    #[test]
    fn sqlite_in_data_dir_by_default() {
        let target = DatabaseConfig::default()
            .target(Path::new("/srv/dt"))
            .unwrap();
        assert_eq!(
            target,
            DatabaseTarget::Sqlite("/srv/dt/delivery-tracker.db".into())
        );
    }

    #[test]
    fn recognises_postgres_and_refuses_unknown_schemes() {
        let target = |config: DatabaseConfig| config.target(Path::new("/tmp/dt"));
        assert!(matches!(
            target(with_url("postgres://u:p@h/db")),
            Ok(DatabaseTarget::Postgres(_))
        ));
        assert!(matches!(
            target(with_url("postgresql:///db?host=/run/postgresql")),
            Ok(DatabaseTarget::Postgres(_))
        ));
        let err = target(with_url("mysql://h/db")).unwrap_err();
        assert!(err.0.contains("sqlite://"), "{err}");
    }
}
