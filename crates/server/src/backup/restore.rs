//! Reading an archive back into an empty data directory. The archive is read twice: once to
//! check every member against the manifest, writing nothing, and once to write.

use std::{
    collections::BTreeMap,
    fs::{self, File},
    io::{self, BufReader, Read},
    path::{Path, PathBuf},
};

use anyhow::{Context, bail};
use flate2::read::GzDecoder;

use super::{
    RestoreSummary,
    manifest::{self, DATABASE, FILES, MANIFEST, Manifest},
};
use crate::{
    config::{Config, DatabaseTarget, StorageKind},
    store::migrations::SQLITE,
};

pub(super) fn restore_blocking(config: &Config, archive: &Path) -> anyhow::Result<RestoreSummary> {
    let target = config.database.target(&config.data_dir)?;
    refuse_non_empty(&config.data_dir)?;
    if let DatabaseTarget::Sqlite(db) = &target
        && db.exists()
    {
        bail!(
            "{} already exists: restore only into a new database",
            db.display()
        );
    }
    let manifest = verify(archive)?;
    if manifest.database == "sqlite" && matches!(target, DatabaseTarget::Postgres(_)) {
        bail!(
            "this archive holds a SQLite database but DATABASE_URL names PostgreSQL: unset \
             DATABASE_URL (or give a sqlite:// one) to restore it"
        );
    }
    let newest = SQLITE.last().map_or(0, |m| m.version);
    if manifest.schema_version.is_some_and(|v| v > newest) {
        bail!(
            "the archive's database is at schema version {} but this delivery-tracker ({}) \
             knows only up to {newest}: restore it with version {} or newer",
            manifest.schema_version.unwrap_or_default(),
            env!("CARGO_PKG_VERSION"),
            manifest.app_version
        );
    }
    write(config, &target, archive, &manifest)
}

/// A data directory that exists and holds anything is refused: a restore never mixes with,
/// or overwrites, data that is there.
fn refuse_non_empty(data_dir: &Path) -> anyhow::Result<()> {
    match fs::read_dir(data_dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                bail!(
                    "{} is not empty: restore only into a new or empty data directory \
                     (nothing was written)",
                    data_dir.display()
                );
            }
            Ok(())
        }
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err).with_context(|| format!("reading {}", data_dir.display())),
    }
}

fn open(archive: &Path) -> anyhow::Result<tar::Archive<GzDecoder<BufReader<File>>>> {
    let file = File::open(archive)
        .with_context(|| format!("opening the archive {}", archive.display()))?;
    Ok(tar::Archive::new(GzDecoder::new(BufReader::new(file))))
}

/// Reads the whole archive and checks it: a known format, only paths a backup writes, each
/// member once, and every member's size and SHA-256 as the manifest says, with nothing
/// unlisted. Writes nothing.
fn verify(archive: &Path) -> anyhow::Result<Manifest> {
    let mut seen = BTreeMap::new();
    let mut manifest_json = None;
    let mut tar = open(archive)?;
    for entry in tar.entries().context("reading the archive")? {
        let mut entry = entry.context("reading the archive")?;
        let path = member_path(&entry)?;
        if (manifest_json.is_some() && path == MANIFEST) || seen.contains_key(&path) {
            bail!("the archive holds {path} twice");
        }
        if path == MANIFEST {
            let mut json = String::new();
            entry.read_to_string(&mut json)?;
            manifest_json = Some(json);
        } else {
            let sum = manifest::checksum(&mut entry).context("reading the archive")?;
            seen.insert(path, sum);
        }
    }
    let json = manifest_json.context("the archive has no manifest.json: not a backup")?;
    let manifest: Manifest = serde_json::from_str(&json).context("manifest.json is unreadable")?;
    if manifest.format != manifest::FORMAT {
        bail!(
            "archive format {} is not one this version reads ({})",
            manifest.format,
            manifest::FORMAT
        );
    }
    for member in &manifest.members {
        let Some((size, sha256)) = seen.remove(&member.path) else {
            bail!("{} is listed in the manifest but missing", member.path);
        };
        if size != member.size || *sha256 != member.sha256 {
            bail!(
                "{} is damaged: its checksum does not match the manifest (nothing was written)",
                member.path
            );
        }
    }
    if let Some(extra) = seen.keys().next() {
        bail!("{extra} is in the archive but not in its manifest");
    }
    Ok(manifest)
}

fn member_path(entry: &tar::Entry<'_, impl Read>) -> anyhow::Result<String> {
    if !entry.header().entry_type().is_file() {
        bail!("the archive holds something other than plain files");
    }
    let path = entry.path()?;
    let path = path.to_str().context("a member's name is not UTF-8")?;
    if !manifest::is_allowed_path(path) {
        bail!("the archive holds an unexpected member {path:?}");
    }
    Ok(path.to_owned())
}

/// The second pass: each member to its place, checked again as it is written (the archive
/// could change between the passes).
fn write(
    config: &Config,
    target: &DatabaseTarget,
    archive: &Path,
    manifest: &Manifest,
) -> anyhow::Result<RestoreSummary> {
    let expected: BTreeMap<&str, &str> = manifest
        .members
        .iter()
        .map(|m| (m.path.as_str(), m.sha256.as_str()))
        .collect();
    let mut summary = RestoreSummary::default();
    fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating {}", config.data_dir.display()))?;
    let mut tar = open(archive)?;
    for entry in tar.entries()? {
        let mut entry = entry?;
        let path = member_path(&entry)?;
        if path == MANIFEST {
            continue;
        }
        let destination = if path == DATABASE {
            match target {
                DatabaseTarget::Sqlite(db) => db.clone(),
                DatabaseTarget::Postgres(_) => continue,
            }
        } else {
            config
                .files_dir()
                .join(path.strip_prefix(FILES).unwrap_or(&path))
        };
        let sum = write_member(&mut entry, &destination)?;
        if expected.get(path.as_str()) != Some(&sum.as_str()) {
            bail!("{path} changed while it was restored: the archive is being modified");
        }
        if path == DATABASE {
            summary.database = true;
        } else {
            summary.files += 1;
        }
    }
    if summary.files > 0 && config.storage.storage == StorageKind::S3 {
        summary.notes.push(format!(
            "the files went to {} but STORAGE=s3 reads the bucket: copy them there (for example \
             `aws s3 sync {} s3://BUCKET/`)",
            config.files_dir().display(),
            config.files_dir().display()
        ));
    }
    if manifest.database == "postgres" {
        summary.notes.push(
            "this archive holds no database: restore the PostgreSQL database with pg_restore \
             (docs/operating.md, \"Backups\")"
                .into(),
        );
    }
    Ok(summary)
}

/// Writes `reader` to `destination` (a new file), synced; returns its SHA-256.
fn write_member(reader: &mut impl Read, destination: &PathBuf) -> anyhow::Result<String> {
    if let Some(parent) = destination.parent() {
        fs::create_dir_all(parent)?;
    }
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(destination)
        .with_context(|| format!("creating {}", destination.display()))?;
    let mut tee = Tee {
        reader,
        writer: &mut file,
    };
    let (_, sum) = manifest::checksum(&mut tee)?;
    file.sync_all()?;
    Ok(sum)
}

/// A reader that writes what it reads, so one pass both copies and checksums.
struct Tee<'a, R, W> {
    reader: &'a mut R,
    writer: &'a mut W,
}

impl<R: Read, W: io::Write> Read for Tee<'_, R, W> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.reader.read(buf)?;
        self.writer.write_all(&buf[..n])?;
        Ok(n)
    }
}
