//! Scheduled backups while serving: an archive in BACKUP_DIR every BACKUP_INTERVAL_HOURS,
//! keeping the newest BACKUP_KEEP. Off unless BACKUP_DIR is set.

use std::{
    path::{Component, Path, PathBuf},
    time::Duration,
};

use clap::Args;

use super::ConfigError;

#[derive(Args, Clone, Debug)]
pub struct BackupConfig {
    /// Directory for scheduled backups while serving (one at start, then every interval);
    /// unset: no scheduled backups.
    #[arg(long, env = "BACKUP_DIR", global = true)]
    pub backup_dir: Option<PathBuf>,

    /// How many scheduled backups to keep: older ones in BACKUP_DIR are deleted.
    #[arg(long, env = "BACKUP_KEEP", default_value_t = 7, global = true)]
    pub backup_keep: u32,

    /// Hours between scheduled backups.
    #[arg(
        long,
        env = "BACKUP_INTERVAL_HOURS",
        default_value_t = 24,
        global = true
    )]
    pub backup_interval_hours: u32,
}

impl Default for BackupConfig {
    fn default() -> Self {
        BackupConfig {
            backup_dir: None,
            backup_keep: 7,
            backup_interval_hours: 24,
        }
    }
}

/// A year: anything longer is a typo, not a schedule.
const MAX_INTERVAL_HOURS: u32 = 8_760;

impl BackupConfig {
    pub fn interval(&self) -> Duration {
        Duration::from_secs(u64::from(self.backup_interval_hours) * 3_600)
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self
            .backup_dir
            .as_ref()
            .is_some_and(|dir| dir.as_os_str().is_empty())
        {
            return Err(ConfigError(
                "BACKUP_DIR is empty: unset it, or name a directory".into(),
            ));
        }
        if self.backup_keep == 0 {
            return Err(ConfigError(
                "BACKUP_KEEP must be at least 1 (it is how many backups are kept)".into(),
            ));
        }
        if !(1..=MAX_INTERVAL_HOURS).contains(&self.backup_interval_hours) {
            return Err(ConfigError(format!(
                "BACKUP_INTERVAL_HOURS must be 1 to {MAX_INTERVAL_HOURS}"
            )));
        }
        Ok(())
    }

    /// Refuses a BACKUP_DIR inside DATA_DIR: each archive copies `DATA_DIR/files` (so archives
    /// kept there would hold the ones before them and double in size), and `restore` needs an
    /// empty data directory (the archives would be in its way, or lost with it).
    pub fn validate_location(&self, data_dir: &Path) -> Result<(), ConfigError> {
        let Some(dir) = &self.backup_dir else {
            return Ok(());
        };
        let (backups, data) = (resolved(dir), resolved(data_dir));
        if backups.starts_with(&data) {
            return Err(ConfigError(format!(
                "BACKUP_DIR {} is inside DATA_DIR {}: each backup would copy the ones before it, \
                 and a restore needs an empty DATA_DIR. Keep backups beside it instead (e.g. {})",
                dir.display(),
                data_dir.display(),
                data.with_file_name(format!(
                    "{}-backups",
                    data.file_name()
                        .map_or("delivery-tracker".into(), |n| n.to_string_lossy())
                ))
                .display()
            )));
        }
        Ok(())
    }
}

/// `path` made absolute with symbolic links followed as far as it exists, and `.`/`..` taken
/// out of the rest, so two spellings of one folder compare equal (before either is created).
fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let components: Vec<Component> = absolute.components().collect();
    for split in (1..=components.len()).rev() {
        let existing: PathBuf = components[..split].iter().collect();
        if let Ok(mut out) = existing.canonicalize() {
            for component in &components[split..] {
                match component {
                    Component::ParentDir => {
                        out.pop();
                    }
                    Component::Normal(name) => out.push(name),
                    _ => {}
                }
            }
            return out;
        }
    }
    absolute
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_by_default_and_valid() {
        let config = BackupConfig::default();
        assert!(config.backup_dir.is_none());
        assert!(config.validate().is_ok());
        assert_eq!(config.interval(), Duration::from_secs(86_400));
    }

    #[test]
    fn a_backup_dir_inside_the_data_dir_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("data");
        std::fs::create_dir(&data).unwrap();
        let with_dir = |dir: PathBuf| BackupConfig {
            backup_dir: Some(dir),
            ..BackupConfig::default()
        };
        for inside in [
            data.clone(),
            data.join("files"),
            data.join("files/backups"),
            data.join("not-yet/../backups"),
            root.path().join("data/./x"),
        ] {
            let why = with_dir(inside.clone())
                .validate_location(&data)
                .expect_err("refused")
                .0;
            assert!(
                why.contains("inside DATA_DIR") && why.contains("data-backups"),
                "{}: {why}",
                inside.display()
            );
        }
        // The same folder through a symbolic link is the same folder.
        let link = root.path().join("link");
        std::os::unix::fs::symlink(&data, &link).unwrap();
        assert!(with_dir(link.join("b")).validate_location(&data).is_err());
        for outside in [
            root.path().join("data-backups"),
            root.path().join("database"),
            data.join("../elsewhere"),
        ] {
            assert!(
                with_dir(outside.clone()).validate_location(&data).is_ok(),
                "{}",
                outside.display()
            );
        }
        assert!(BackupConfig::default().validate_location(&data).is_ok());
    }

    #[test]
    fn nonsense_is_refused_with_the_setting_named() {
        let cases: [(BackupConfig, &str); 4] = [
            (
                BackupConfig {
                    backup_dir: Some(PathBuf::new()),
                    ..BackupConfig::default()
                },
                "BACKUP_DIR",
            ),
            (
                BackupConfig {
                    backup_keep: 0,
                    ..BackupConfig::default()
                },
                "BACKUP_KEEP",
            ),
            (
                BackupConfig {
                    backup_interval_hours: 0,
                    ..BackupConfig::default()
                },
                "BACKUP_INTERVAL_HOURS",
            ),
            (
                BackupConfig {
                    backup_interval_hours: MAX_INTERVAL_HOURS + 1,
                    ..BackupConfig::default()
                },
                "BACKUP_INTERVAL_HOURS",
            ),
        ];
        for (config, name) in cases {
            let why = config.validate().expect_err("refused").0;
            assert!(why.contains(name), "{name}: {why}");
        }
    }
}
