//! Reading an archive back into a new or empty data directory, all or nothing. The archive is
//! read twice: once to check every member against the manifest, writing nothing, and once to
//! write into a staging folder (staging.rs), checked again as it is written (the archive could
//! change between the passes). The database is then proven to be ours and its sessions signed
//! out (database.rs), and only then is anything moved into place. Every string from the archive
//! that an error shows is escaped for the terminal.

use std::{
    collections::BTreeMap,
    fs::File,
    io::{self, BufReader, Read},
    path::Path,
};

use anyhow::{Context, bail};
use flate2::read::GzDecoder;

use super::{
    RestoreSummary,
    database::check_and_sign_out,
    manifest::{self, DATABASE, FILES, MANIFEST, Manifest},
    staging::Staging,
};
use crate::{
    admin::terminal_safe,
    config::{Config, DatabaseTarget, StorageKind},
    store::migrations::newest,
    unix_users,
};

/// The most `manifest.json` may take: about 300,000 files' entries. It is parsed as it is
/// read, so a manifest padded with a gigabyte of spaces costs nothing but this bound.
const MAX_MANIFEST_BYTES: u64 = 64 << 20;

pub(super) fn restore_blocking(config: &Config, archive: &Path) -> anyhow::Result<RestoreSummary> {
    let target = config.database.target(&config.data_dir)?;
    let database = match &target {
        DatabaseTarget::Sqlite(path) => Some(path.as_path()),
        DatabaseTarget::Postgres(_) => None,
    };
    let staging = Staging::begin(&config.data_dir, database, archive)?;
    let outcome = verify(archive).and_then(|manifest| {
        check_fits(&manifest, &target)?;
        write(config, &target, archive, &manifest, &staging)
    });
    match outcome.and_then(|summary| staging.settle().map(|()| summary)) {
        Ok(summary) => {
            staging.place()?;
            Ok(summary)
        }
        Err(err) => {
            staging.discard();
            Err(err.context("nothing was restored"))
        }
    }
}

/// Refuses an archive this binary or this configuration cannot take, before writing.
fn check_fits(manifest: &Manifest, target: &DatabaseTarget) -> anyhow::Result<()> {
    if manifest.database == "sqlite" && matches!(target, DatabaseTarget::Postgres(_)) {
        bail!(
            "this archive holds a SQLite database but DATABASE_URL names PostgreSQL: unset \
             DATABASE_URL (or give a sqlite:// one) to restore it"
        );
    }
    if let Some(version) = manifest.schema_version
        && version > newest()
    {
        bail!(
            "the archive's database is at schema version {version} but this delivery-tracker \
             ({}) knows only up to {}: restore it with version {} or newer",
            env!("CARGO_PKG_VERSION"),
            newest(),
            terminal_safe(&manifest.app_version)
        );
    }
    Ok(())
}

fn open(archive: &Path) -> anyhow::Result<tar::Archive<GzDecoder<BufReader<File>>>> {
    let file = File::open(archive)
        .with_context(|| format!("opening the archive {}", archive.display()))?;
    Ok(tar::Archive::new(GzDecoder::new(BufReader::new(file))))
}

/// Reads the whole archive and checks it: a known format, only paths a backup writes, each
/// member once, no member inside another (a file and a folder of one name), and every member's
/// size and SHA-256 as the manifest says, with nothing unlisted. Writes nothing.
fn verify(archive: &Path) -> anyhow::Result<Manifest> {
    let mut seen = BTreeMap::new();
    let mut manifest = None;
    let mut tar = open(archive)?;
    for entry in tar.entries().context("reading the archive")? {
        let mut entry = entry.context("reading the archive")?;
        let path = member_path(&entry)?;
        if (manifest.is_some() && path == MANIFEST) || seen.contains_key(&path) {
            bail!("the archive holds {} twice", terminal_safe(&path));
        }
        if path == MANIFEST {
            manifest = Some(read_manifest(&mut entry)?);
        } else {
            let sum = manifest::checksum(&mut entry).context("reading the archive")?;
            seen.insert(path, sum);
        }
    }
    let manifest = manifest.context("the archive has no manifest.json: not a backup")?;
    if manifest.format != manifest::FORMAT {
        bail!(
            "archive format {} is not one this version reads ({})",
            manifest.format,
            manifest::FORMAT
        );
    }
    for path in seen.keys() {
        let mut ancestor = path.as_str();
        while let Some((parent, _)) = ancestor.rsplit_once('/') {
            if seen.contains_key(parent) {
                bail!(
                    "the archive holds {} both as a file and as a folder",
                    terminal_safe(parent)
                );
            }
            ancestor = parent;
        }
    }
    for member in &manifest.members {
        let Some((size, sha256)) = seen.remove(&member.path) else {
            bail!(
                "{} is listed in the manifest but missing",
                terminal_safe(&member.path)
            );
        };
        if size != member.size || *sha256 != member.sha256 {
            bail!(
                "{} is damaged: its checksum does not match the manifest",
                terminal_safe(&member.path)
            );
        }
    }
    if let Some(extra) = seen.keys().next() {
        bail!(
            "{} is in the archive but not in its manifest",
            terminal_safe(extra)
        );
    }
    Ok(manifest)
}

/// The manifest, parsed as it streams in, refused past [`MAX_MANIFEST_BYTES`] (by its size in
/// the archive before anything is read, and by what is read as a second line).
fn read_manifest(entry: &mut tar::Entry<'_, impl Read>) -> anyhow::Result<Manifest> {
    if entry.size() > MAX_MANIFEST_BYTES {
        bail!(
            "manifest.json is larger than {} MiB: not a backup",
            MAX_MANIFEST_BYTES >> 20
        );
    }
    let mut bounded = BufReader::new(entry.take(MAX_MANIFEST_BYTES + 1));
    let parsed = serde_json::from_reader::<_, Manifest>(&mut bounded);
    if bounded.into_inner().limit() == 0 {
        bail!(
            "manifest.json is larger than {} MiB: not a backup",
            MAX_MANIFEST_BYTES >> 20
        );
    }
    parsed.context("manifest.json is unreadable")
}

fn member_path(entry: &tar::Entry<'_, impl Read>) -> anyhow::Result<String> {
    if !entry.header().entry_type().is_file() {
        bail!("the archive holds something other than plain files");
    }
    let path = entry.path()?;
    let path = path.to_str().context("a member's name is not UTF-8")?;
    if !manifest::is_allowed_path(path) {
        bail!(
            "the archive holds an unexpected member {}",
            terminal_safe(path)
        );
    }
    Ok(path.to_owned())
}

/// The second pass: each member to its staged place, checked again as it is written; then the
/// database checked and its sessions signed out.
fn write(
    config: &Config,
    target: &DatabaseTarget,
    archive: &Path,
    manifest: &Manifest,
    staging: &Staging,
) -> anyhow::Result<RestoreSummary> {
    let expected: BTreeMap<&str, &str> = manifest
        .members
        .iter()
        .map(|m| (m.path.as_str(), m.sha256.as_str()))
        .collect();
    let mut summary = RestoreSummary::default();
    let mut tar = open(archive)?;
    for entry in tar.entries()? {
        let mut entry = entry?;
        let path = member_path(&entry)?;
        if path == MANIFEST {
            continue;
        }
        let place = if path == DATABASE {
            match target {
                DatabaseTarget::Sqlite(db) => db.clone(),
                DatabaseTarget::Postgres(_) => continue,
            }
        } else {
            config
                .files_dir()
                .join(path.strip_prefix(FILES).unwrap_or(&path))
        };
        let staged = staging.path_for(&place);
        let sum = write_member(&mut entry, staging, &staged)?;
        if expected.get(path.as_str()) != Some(&sum.as_str()) {
            bail!(
                "{} changed while it was restored: the archive is being modified",
                terminal_safe(&path)
            );
        }
        if path == DATABASE {
            summary.database = true;
            let signed_out = check_and_sign_out(&staged, manifest.schema_version)?;
            summary.notes.push(format!(
                "{} in the archive {} signed out: everyone signs in again",
                crate::words::counted(signed_out, "session", "sessions"),
                if signed_out == 1 { "was" } else { "were" }
            ));
        } else {
            summary.files += 1;
        }
    }
    let owner = staging.owner();
    if owner.uid != unix_users::current() {
        summary.notes.push(format!(
            "the restored files belong to {}, the owner of {}",
            unix_users::describe(owner.uid),
            config.data_dir.display()
        ));
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

/// Writes `reader` to the staged file `staged` (new, private), synced; returns its SHA-256.
fn write_member(
    reader: &mut impl Read,
    staging: &Staging,
    staged: &Path,
) -> anyhow::Result<String> {
    let mut file = staging.create_file(staged)?;
    let mut tee = Tee {
        reader,
        writer: &mut file,
    };
    let (_, sum) =
        manifest::checksum(&mut tee).with_context(|| format!("writing {}", staged.display()))?;
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
