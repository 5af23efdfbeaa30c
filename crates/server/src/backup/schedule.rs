//! Scheduled backups while serving (BACKUP_DIR): one at start, then every
//! BACKUP_INTERVAL_HOURS, keeping the newest BACKUP_KEEP archives.

use std::{
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
    sync::Arc,
};

use anyhow::Context;

use crate::config::{Config, ConfigError};

const PREFIX: &str = "delivery-tracker-";
const SUFFIX: &str = ".tar.gz";

/// Starts the schedule when BACKUP_DIR is set. A failed backup is logged and tried again at
/// the next interval: serving goes on.
pub fn start(config: Arc<Config>) -> Option<tokio::task::JoinHandle<()>> {
    let dir = config.backup.backup_dir.clone()?;
    // A backup cut short when the server last stopped left its work files.
    match remove_leftovers(&dir) {
        Ok(removed) if !removed.is_empty() => {
            tracing::info!(
                files = removed.len(),
                "removed an interrupted backup's files"
            );
        }
        Ok(_) => {}
        Err(err) => {
            tracing::warn!(error = %err, "could not look for an interrupted backup's files");
        }
    }
    Some(tokio::spawn(async move {
        let mut tick = tokio::time::interval(config.backup.interval());
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match run_once(&config, &dir).await {
                Ok(path) => tracing::info!(archive = %path.display(), "scheduled backup written"),
                Err(err) => {
                    tracing::error!(error = format!("{err:#}"), "scheduled backup failed");
                }
            }
        }
    }))
}

/// Creates BACKUP_DIR if it is missing and writes (then removes) a file in it, so a folder the
/// server cannot write stops the start with the reason, as other bad settings do, instead of
/// the server running without backups and logging an error once per interval.
pub fn check_writable(dir: &Path) -> Result<(), ConfigError> {
    let probe = dir.join(format!(".write-test-{}", std::process::id()));
    let written = fs::create_dir_all(dir).and_then(|()| {
        let mut file = fs::File::create_new(&probe)?;
        file.write_all(b"delivery-tracker")?;
        file.sync_all()
    });
    let _ = fs::remove_file(&probe);
    written.map_err(|err| {
        let hint = match err.kind() {
            io::ErrorKind::ReadOnlyFilesystem => {
                " (under the packaged systemd service only /var/lib/delivery-tracker and \
                 /var/lib/delivery-tracker-backups can be written: use the second, or allow the \
                 folder with ReadWritePaths= in `systemctl edit delivery-tracker`)"
                    .to_owned()
            }
            io::ErrorKind::PermissionDenied => format!(
                " (the server runs as uid {}: give that user the folder, e.g. chown)",
                rustix::process::getuid().as_raw()
            ),
            _ => String::new(),
        };
        ConfigError(format!(
            "BACKUP_DIR {} cannot be written: {err}{hint}",
            dir.display()
        ))
    })
}

/// Writes one archive into `dir`, then deletes all but the newest BACKUP_KEEP of ours.
pub async fn run_once(config: &Config, dir: &Path) -> anyhow::Result<PathBuf> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // UTC, fixed width: names sort in time order.
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    let path = dir.join(format!("{PREFIX}{stamp}{SUFFIX}"));
    super::create(config, &path).await?;
    prune(dir, config.backup.backup_keep)?;
    Ok(path)
}

/// Deletes the work files of scheduled backups that never finished (a snapshot of the
/// database, a partial archive) from `dir`; returns them.
pub fn remove_leftovers(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(err),
    };
    let mut removed = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let work = [".partial", ".db-snapshot", ".db-snapshot-journal"]
            .iter()
            .any(|end| name.ends_with(&format!("{SUFFIX}{end}")));
        if name.starts_with(PREFIX) && work {
            fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
    }
    Ok(removed)
}

/// Deletes all but the newest `keep` scheduled archives in `dir` (other files are left alone);
/// returns what it deleted.
pub fn prune(dir: &Path, keep: u32) -> io::Result<Vec<PathBuf>> {
    let mut ours: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with(PREFIX) && name.ends_with(SUFFIX)
        })
        .map(|entry| entry.path())
        .collect();
    ours.sort();
    let excess = ours
        .len()
        .saturating_sub(usize::try_from(keep).unwrap_or(usize::MAX));
    let old: Vec<PathBuf> = ours.into_iter().take(excess).collect();
    for path in &old {
        fs::remove_file(path)?;
    }
    Ok(old)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writable_backup_dir_is_made_and_left_clean() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("backups/nightly");
        check_writable(&dir).unwrap();
        assert!(dir.is_dir());
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            0,
            "the probe is removed"
        );
    }

    #[test]
    fn an_unwritable_backup_dir_is_refused_with_its_path() {
        let root = tempfile::tempdir().unwrap();
        // A file where the folder should be: refused whoever runs the test (root included).
        let blocked = root.path().join("not-a-folder");
        fs::write(&blocked, b"x").unwrap();
        let why = check_writable(&blocked.join("backups")).unwrap_err().0;
        assert!(
            why.contains("BACKUP_DIR") && why.contains("not-a-folder/backups"),
            "{why}"
        );
    }

    #[test]
    fn prune_keeps_the_newest_and_leaves_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "delivery-tracker-20260101T000000.000Z.tar.gz",
            "delivery-tracker-20260102T000000.000Z.tar.gz",
            "delivery-tracker-20260103T000000.000Z.tar.gz",
            "notes.txt",
            "delivery-tracker-20260104T000000.000Z.tar.gz.partial",
        ];
        for name in names {
            fs::write(dir.path().join(name), b"x").unwrap();
        }
        let removed = prune(dir.path(), 2).unwrap();
        assert_eq!(removed, vec![dir.path().join(names[0])]);
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [names[1], names[2], names[4], names[3]]);
    }

    #[test]
    fn an_interrupted_backups_work_files_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "delivery-tracker-20260101T000000.000Z.tar.gz",
            "delivery-tracker-20260102T000000.000Z.tar.gz.partial",
            "delivery-tracker-20260102T000000.000Z.tar.gz.db-snapshot",
            "mine.tar.gz.partial",
            "delivery-tracker-20260102T000000.000Z.tar.gz.db-snapshot-journal",
        ];
        for name in names {
            fs::write(dir.path().join(name), b"x").unwrap();
        }
        let mut removed = remove_leftovers(dir.path()).unwrap();
        removed.sort();
        assert_eq!(
            removed,
            [
                dir.path().join(names[2]),
                dir.path().join(names[4]),
                dir.path().join(names[1])
            ]
        );
        assert!(dir.path().join(names[0]).exists() && dir.path().join(names[3]).exists());
        assert!(
            remove_leftovers(&dir.path().join("missing"))
                .unwrap()
                .is_empty()
        );
    }
}
