//! Writing an archive from a live data directory, while the server keeps serving.

use std::{
    fs::{self, File},
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
};

use anyhow::Context;
use domain::time_fmt::{now_ms, rfc3339_from_ms};
use flate2::{Compression, write::GzEncoder};
use rusqlite::{Connection, OpenFlags};

use super::{
    BackupSummary,
    manifest::{self, DATABASE, FILES, MANIFEST, Manifest, Member},
};
use crate::config::{Config, DatabaseTarget, StorageKind};

/// How long the snapshot waits for the server's writer (it needs no write lock under WAL, but
/// the first read of a database can).
const BUSY_TIMEOUT_MS: u32 = 30_000;

/// The files a backup writes beside its archive until it is whole, ours by name: the partial
/// archive, the database snapshot, and the journal SQLite keeps beside the snapshot while it
/// fills it.
pub(super) fn work_files(out: &Path) -> [PathBuf; 3] {
    [
        sibling(out, "partial"),
        sibling(out, "db-snapshot"),
        sibling(out, "db-snapshot-journal"),
    ]
}

pub(super) fn create_blocking(config: &Config, out: &Path) -> anyhow::Result<BackupSummary> {
    let [partial, snapshot, journal] = work_files(out);
    // Leftovers of an interrupted run are ours by name.
    for file in [&partial, &snapshot, &journal] {
        remove_if_present(file)?;
    }
    let result = write_archive(config, &partial, &snapshot);
    let _ = fs::remove_file(&snapshot);
    let _ = fs::remove_file(&journal);
    match result {
        Ok(summary) => {
            // Renamed into place only when complete: an archive at `out` is always whole.
            fs::rename(&partial, out)
                .with_context(|| format!("moving the archive to {}", out.display()))?;
            Ok(summary)
        }
        Err(err) => {
            let _ = fs::remove_file(&partial);
            Err(err)
        }
    }
}

fn write_archive(
    config: &Config,
    partial: &Path,
    snapshot: &Path,
) -> anyhow::Result<BackupSummary> {
    let mut summary = BackupSummary::default();
    let mut members = Vec::new();
    let file = create_private(partial)
        .with_context(|| format!("creating the archive {}", partial.display()))?;
    let mut tar = tar::Builder::new(GzEncoder::new(BufWriter::new(file), Compression::default()));

    let (database, schema_version) = match config.database.target(&config.data_dir)? {
        DatabaseTarget::Sqlite(path) => {
            let schema_version = snapshot_sqlite(&path, snapshot)?;
            let (size, sha256) = manifest::checksum(&mut File::open(snapshot)?)?;
            tar.append_data(&mut header(size), DATABASE, File::open(snapshot)?)?;
            members.push(Member {
                path: DATABASE.into(),
                size,
                sha256,
            });
            summary.database = true;
            ("sqlite", Some(schema_version))
        }
        DatabaseTarget::Postgres(_) => {
            summary.notes.push(
                "the PostgreSQL database is not in this archive: back it up with pg_dump \
                 (docs/operating.md, \"Backups\")"
                    .into(),
            );
            ("postgres", None)
        }
    };

    if config.storage.storage == StorageKind::Local {
        let root = config.files_dir();
        for path in files_under(&root)? {
            // Read whole (pictures and receipts are at most a few MiB) so the checksum and the
            // archived bytes are the same bytes. A file removed since the listing (a replaced
            // picture) is skipped: the snapshot taken before no longer needs it, or never did.
            let bytes = match fs::read(&path) {
                Ok(bytes) => bytes,
                Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
                Err(err) => {
                    return Err(err).with_context(|| format!("reading {}", path.display()));
                }
            };
            let key = relative_key(&root, &path)?;
            let name = format!("{FILES}{key}");
            let (size, sha256) = manifest::checksum(&mut bytes.as_slice())?;
            tar.append_data(&mut header(size), &name, bytes.as_slice())?;
            members.push(Member {
                path: name,
                size,
                sha256,
            });
            summary.files += 1;
            summary.bytes += size;
        }
    } else {
        summary.notes.push(
            "stored files are in S3 and not in this archive: keep bucket versioning on \
             (docs/operating.md, \"Backups\")"
                .into(),
        );
    }

    let manifest = Manifest {
        format: manifest::FORMAT,
        app_version: env!("CARGO_PKG_VERSION").into(),
        database: database.into(),
        schema_version,
        created_at: rfc3339_from_ms(now_ms()),
        members,
    };
    let json = serde_json::to_vec_pretty(&manifest)?;
    let len = u64::try_from(json.len())?;
    tar.append_data(&mut header(len), MANIFEST, json.as_slice())?;
    let mut writer = tar.into_inner()?.finish()?;
    writer.flush()?;
    let file = writer
        .into_inner()
        .map_err(io::IntoInnerError::into_error)?;
    file.sync_all()?;
    Ok(summary)
}

/// Copies the database at `path` into `snapshot` with `VACUUM INTO` on a connection of our own:
/// one read transaction, so the copy is the database as of one instant, while the server's
/// writer goes on (WAL readers never block it). Returns the copy's schema version. The copy
/// holds password and session hashes: its file is made empty and private first, and SQLite
/// fills that file (VACUUM INTO takes an empty one) rather than making its own.
fn snapshot_sqlite(path: &Path, snapshot: &Path) -> anyhow::Result<i64> {
    drop(create_private(snapshot).with_context(|| format!("creating {}", snapshot.display()))?);
    // No CREATE flag: a wrong DATA_DIR must not back up a new, empty database.
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| {
        format!(
            "no database at {} (is DATA_DIR or DATABASE_URL right?)",
            path.display()
        )
    })?;
    conn.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS.into()))?;
    let target = snapshot
        .to_str()
        .context("the archive path must be valid UTF-8")?;
    conn.execute("VACUUM INTO ?1", [target])
        .context("copying the database")?;
    drop(conn);
    let copy = Connection::open_with_flags(snapshot, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let version: Option<i64> = copy
        .query_row("SELECT MAX(version) FROM schema_migrations", [], |row| {
            row.get(0)
        })
        .context("the database has no migrations table: is it a Delivery Tracker database?")?;
    version.context("the database has no migrations applied")
}

/// Every regular file under `root`, sorted, skipping `object_store`'s in-flight uploads
/// (`name#n`, renamed into place when complete). A missing root has no files.
fn files_under(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_owned()];
    while let Some(dir) = pending.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
            Err(err) => return Err(err).with_context(|| format!("listing {}", dir.display())),
        };
        for entry in entries {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() && !entry.file_name().to_string_lossy().contains('#') {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

fn relative_key(root: &Path, path: &Path) -> anyhow::Result<String> {
    let relative = path.strip_prefix(root)?;
    let parts = relative
        .components()
        .map(|c| c.as_os_str().to_str().map(str::to_owned))
        .collect::<Option<Vec<_>>>()
        .with_context(|| format!("{} is not a UTF-8 name", path.display()))?;
    Ok(parts.join("/"))
}

/// A new file only its owner can read: the archive holds password and session hashes.
fn create_private(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

fn header(size: u64) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    header.set_size(size);
    header.set_mode(0o600);
    header.set_mtime(u64::try_from(now_ms() / 1000).unwrap_or(0));
    header
}

/// `out` with `.suffix` added, in the same directory (so the final rename stays on one disk).
fn sibling(out: &Path, suffix: &str) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(format!(".{suffix}"));
    PathBuf::from(name)
}

fn remove_if_present(path: &Path) -> anyhow::Result<()> {
    match fs::remove_file(path) {
        Err(err) if err.kind() != io::ErrorKind::NotFound => {
            Err(err).with_context(|| format!("removing {}", path.display()))
        }
        _ => Ok(()),
    }
}
