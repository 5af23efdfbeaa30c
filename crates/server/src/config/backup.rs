//! Scheduled backups while serving: an archive in BACKUP_DIR every BACKUP_INTERVAL_HOURS,
//! keeping the newest BACKUP_KEEP. Off unless BACKUP_DIR is set.

use std::{path::PathBuf, time::Duration};

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
