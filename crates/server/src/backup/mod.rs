//! `delivery-tracker backup` and `restore`: one archive (tar + gzip) holding a consistent copy
//! of the SQLite database, the local file store and a manifest of checksums. On PostgreSQL or
//! S3 the archive holds what this process can copy consistently (the files, or only the
//! manifest) and says what it left to `pg_dump` and bucket versioning (docs/operating.md,
//! "Backups").

mod create;
mod manifest;
mod restore;
pub mod schedule;

use std::path::{Path, PathBuf};

pub use self::manifest::{Manifest, Member};
use crate::config::Config;

/// What a backup put in its archive.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BackupSummary {
    /// Whether the database is in the archive (SQLite only).
    pub database: bool,
    pub files: u64,
    /// The files' bytes.
    pub bytes: u64,
    /// What the archive does not cover, for the operator.
    pub notes: Vec<String>,
}

/// What a restore wrote.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RestoreSummary {
    pub database: bool,
    pub files: u64,
    pub notes: Vec<String>,
}

/// Writes an archive of the data `config` names to `out`, while a server may be serving it.
/// The archive appears at `out` only once complete.
pub async fn create(config: &Config, out: &Path) -> anyhow::Result<BackupSummary> {
    let (config, out) = (config.clone(), out.to_owned());
    tokio::task::spawn_blocking(move || create::create_blocking(&config, &out)).await?
}

/// Restores `archive` into the data directory (and SQLite database) `config` names, which must
/// be new or empty. Every checksum is verified before anything is written.
pub async fn restore(config: &Config, archive: &Path) -> anyhow::Result<RestoreSummary> {
    let (config, archive): (Config, PathBuf) = (config.clone(), archive.to_owned());
    tokio::task::spawn_blocking(move || restore::restore_blocking(&config, &archive)).await?
}
