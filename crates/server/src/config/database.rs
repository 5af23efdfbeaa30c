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

    /// SQLite page cache of the writing connection, in MB. Default: SQLite's own, 2 MB.
    #[arg(long, env = "SQLITE_CACHE_MB", global = true)]
    pub sqlite_cache_mb: Option<u32>,

    /// SQLite memory-mapped reads, in MB of the database file (0: off). Default: off, as in
    /// SQLite.
    #[arg(long, env = "SQLITE_MMAP_MB", global = true)]
    pub sqlite_mmap_mb: Option<u32>,
}

/// The largest SQLITE_CACHE_MB and SQLITE_MMAP_MB taken: 64 GB.
pub const MAX_SQLITE_MEMORY_MB: u32 = 65_536;

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            database_url: None,
            sqlite_synchronous: "FULL".into(),
            sqlite_cache_mb: None,
            sqlite_mmap_mb: None,
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
            .field("sqlite_cache_mb", &self.sqlite_cache_mb)
            .field("sqlite_mmap_mb", &self.sqlite_mmap_mb)
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
            let path = Path::new(path);
            if path.is_relative() {
                return Err(relative_sqlite_path(path, data_dir));
            }
            return Ok(DatabaseTarget::Sqlite(path.to_owned()));
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

    pub fn validate(&self, data_dir: &Path) -> Result<(), ConfigError> {
        self.target(data_dir)?;
        if !matches!(
            self.sqlite_synchronous.to_uppercase().as_str(),
            "FULL" | "NORMAL"
        ) {
            return Err(ConfigError(
                "SQLITE_SYNCHRONOUS must be FULL or NORMAL".into(),
            ));
        }
        if self.sqlite_cache_mb == Some(0) {
            return Err(ConfigError(
                "SQLITE_CACHE_MB must be at least 1 (SQLite's own default is 2)".into(),
            ));
        }
        for (name, value) in [
            ("SQLITE_CACHE_MB", self.sqlite_cache_mb),
            ("SQLITE_MMAP_MB", self.sqlite_mmap_mb),
        ] {
            if value.is_some_and(|mb| mb > MAX_SQLITE_MEMORY_MB) {
                return Err(ConfigError(format!(
                    "{name} must be at most {MAX_SQLITE_MEMORY_MB} (MB)"
                )));
            }
        }
        Ok(())
    }
}

/// A relative SQLite path would be read from the working directory, apart from DATA_DIR's
/// files: a backup, a restore or a start from another directory would then miss the database
/// or create an empty one. Which folder was meant is a guess, so both are named and neither
/// taken (resolving it against DATA_DIR now would hide an existing database behind a new one).
fn relative_sqlite_path(path: &Path, data_dir: &Path) -> ConfigError {
    let absolute = |base: &Path| {
        std::path::absolute(base.join(path)).map_or_else(
            |_| base.join(path).display().to_string(),
            |p| p.display().to_string(),
        )
    };
    ConfigError(format!(
        "DATABASE_URL sqlite://{} is a relative path, which would be read from the working \
         directory rather than DATA_DIR: write it in full, e.g. sqlite://{} (in DATA_DIR) or \
         sqlite://{} (here), or unset DATABASE_URL for DATA_DIR/delivery-tracker.db",
        path.display(),
        absolute(data_dir),
        absolute(Path::new(".")),
    ))
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

    #[test]
    fn an_absolute_sqlite_path_is_taken_and_a_relative_one_refused() {
        let data_dir = Path::new("/srv/dt");
        assert_eq!(
            with_url("sqlite:///var/db/dt.db").target(data_dir).unwrap(),
            DatabaseTarget::Sqlite("/var/db/dt.db".into())
        );
        for url in ["sqlite://relative.db", "sqlite://./data/dt.db"] {
            let err = with_url(url).target(data_dir).unwrap_err().0;
            assert!(
                err.contains("relative path") && err.contains("sqlite:///srv/dt/"),
                "{url}: {err}"
            );
            assert!(with_url(url).validate(data_dir).is_err(), "{url}");
        }
    }

    #[test]
    fn sqlite_memory_sizes_are_bounded() {
        let data_dir = Path::new("/srv/dt");
        let with = |cache: Option<u32>, mmap: Option<u32>| DatabaseConfig {
            sqlite_cache_mb: cache,
            sqlite_mmap_mb: mmap,
            ..DatabaseConfig::default()
        };
        assert!(with(None, None).validate(data_dir).is_ok());
        assert!(with(Some(1), Some(0)).validate(data_dir).is_ok());
        let refused = |config: DatabaseConfig| config.validate(data_dir).unwrap_err().0;
        assert!(refused(with(Some(0), None)).contains("SQLITE_CACHE_MB"));
        assert!(refused(with(Some(70_000), None)).contains("SQLITE_CACHE_MB"));
        assert!(refused(with(None, Some(70_000))).contains("SQLITE_MMAP_MB"));
    }
}
