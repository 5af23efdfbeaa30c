//! `delivery-tracker backup` and `restore`: one archive (tar + gzip) holding a consistent copy
//! of the SQLite database, the local file store and a manifest of checksums. On PostgreSQL or
//! S3 the archive holds what this process can copy consistently (the files, or only the
//! manifest) and says what it left to `pg_dump` and bucket versioning (docs/operating.md,
//! "Backups").

mod create;
mod database;
mod manifest;
mod restore;
pub mod schedule;
mod staging;

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
/// The archive appears at `out` only once complete; on any failure its work files (the
/// database snapshot, the partial archive) are removed.
pub async fn create(config: &Config, out: &Path) -> anyhow::Result<BackupSummary> {
    let (config, out) = (config.clone(), out.to_owned());
    tokio::task::spawn_blocking(move || create::create_blocking(&config, &out)).await?
}

/// [`create`] for the `backup` command: stopped by Ctrl-C, SIGTERM or SIGHUP, it removes its
/// work files before it returns. They are left only by a kill that runs no code, and the next
/// backup to `out` removes them. (The server's scheduled backups do not take over its
/// signals; the schedule clears its own leftovers when it starts.)
pub async fn create_unless_interrupted(
    config: &Config,
    out: &Path,
) -> anyhow::Result<BackupSummary> {
    tokio::select! {
        done = create(config, out) => done,
        signal = interrupted() => {
            for file in create::work_files(out) {
                let _ = std::fs::remove_file(file);
            }
            anyhow::bail!("backup stopped by {signal}: its unfinished files were removed")
        }
    }
}

/// Resolves when the process is asked to stop, naming the signal.
async fn interrupted() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let wait = |kind: SignalKind, name: &'static str| async move {
        match signal(kind) {
            Ok(mut stream) => {
                stream.recv().await;
                name
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        name = wait(SignalKind::interrupt(), "SIGINT") => name,
        name = wait(SignalKind::terminate(), "SIGTERM") => name,
        name = wait(SignalKind::hangup(), "SIGHUP") => name,
    }
}

/// Restores `archive` into the data directory (and SQLite database) `config` names, which must
/// be new or empty, all or nothing: every checksum is verified before anything is written,
/// everything is written aside and checked, then moved into place.
pub async fn restore(config: &Config, archive: &Path) -> anyhow::Result<RestoreSummary> {
    let (config, archive): (Config, PathBuf) = (config.clone(), archive.to_owned());
    tokio::task::spawn_blocking(move || restore::restore_blocking(&config, &archive)).await?
}
