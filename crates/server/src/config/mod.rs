//! Runtime configuration: every setting is a flag or an environment variable with a safe
//! default, and anything ambiguous is refused at start-up rather than guessed.
//!
//! [`Config`] is composed of one flattened section per subject, each in its own file with its
//! own `validate()` and tests. A section that needs another's value (Stripe and OpenID need
//! PUBLIC_URL) takes that section as an argument.

mod backup;
mod billing;
mod connections;
mod database;
mod error;
mod http;
mod metrics;
mod oidc;
mod phone;
pub mod quotas;
mod rate_limits;
mod sessions;
mod signups;
mod smtp;
mod storage;
mod uploads;

use std::path::PathBuf;

use clap::Args;

pub use self::{
    backup::BackupConfig,
    billing::{BillingConfig, StripeConfig},
    connections::{ConnectionLimits, ConnectionsConfig},
    database::{DatabaseConfig, DatabaseTarget},
    error::ConfigError,
    http::HttpConfig,
    metrics::MetricsConfig,
    oidc::{OIDC_CALLBACK_PATH, OidcConfig, OidcSettings},
    phone::{PhoneConfig, SmsHttpConfig, SmsSenderKind, SmsSenderSetup},
    quotas::QuotaConfig,
    rate_limits::RateLimitConfig,
    sessions::SessionConfig,
    signups::SignupConfig,
    smtp::{ContactEmailConfig, SmtpConfig, SmtpSecurity},
    storage::{StorageConfig, StorageKind},
    uploads::{MAX_PICTURE_MEGAPIXELS, UploadsConfig},
};

#[derive(Args, Clone, Debug)]
pub struct Config {
    /// Directory holding the SQLite database and uploaded files.
    #[arg(long, env = "DATA_DIR", default_value = "./data", global = true)]
    pub data_dir: PathBuf,

    #[command(flatten)]
    pub database: DatabaseConfig,

    #[command(flatten)]
    pub http: HttpConfig,

    #[command(flatten)]
    pub sessions: SessionConfig,

    #[command(flatten)]
    pub rate_limits: RateLimitConfig,

    #[command(flatten)]
    pub smtp: SmtpConfig,

    #[command(flatten)]
    pub oidc: OidcConfig,

    #[command(flatten)]
    pub billing: BillingConfig,

    /// Log format: `text` or `json`.
    #[arg(long, env = "LOG_FORMAT", default_value = "text", global = true)]
    pub log_format: String,

    #[command(flatten)]
    pub storage: StorageConfig,

    #[command(flatten)]
    pub phone: PhoneConfig,

    #[command(flatten)]
    pub connections: ConnectionsConfig,

    #[command(flatten)]
    pub uploads: UploadsConfig,

    #[command(flatten)]
    pub quotas: QuotaConfig,

    #[command(flatten)]
    pub backup: BackupConfig,

    #[command(flatten)]
    pub signups: SignupConfig,

    #[command(flatten)]
    pub metrics: MetricsConfig,
}

impl Config {
    /// Defaults for tests and embedding: everything under `data_dir`, any free local port.
    pub fn for_data_dir(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            data_dir: data_dir.into(),
            database: Default::default(),
            http: Default::default(),
            sessions: Default::default(),
            rate_limits: Default::default(),
            smtp: Default::default(),
            oidc: Default::default(),
            billing: Default::default(),
            log_format: "text".into(),
            storage: Default::default(),
            phone: Default::default(),
            connections: Default::default(),
            uploads: Default::default(),
            quotas: Default::default(),
            backup: Default::default(),
            signups: Default::default(),
            metrics: Default::default(),
        }
    }

    /// Every setting from the environment (and `.env`) alone, as flags would be read with none
    /// given: for the operator commands, whose help shows only the few settings they take as
    /// flags.
    pub fn from_env() -> Result<Config, clap::Error> {
        #[derive(clap::Parser)]
        struct FromEnv {
            #[command(flatten)]
            config: Config,
        }
        <FromEnv as clap::Parser>::try_parse_from(["delivery-tracker"]).map(|parsed| parsed.config)
    }

    /// The directory of the local file store.
    pub fn files_dir(&self) -> PathBuf {
        self.data_dir.join("files")
    }

    /// Checks everything that can be checked before opening anything.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.database.validate(&self.data_dir)?;
        self.http.validate()?;
        self.sessions.validate()?;
        self.billing.validate(&self.http)?;
        self.smtp.validate()?;
        self.phone.validate()?;
        self.connections.validate()?;
        self.quotas.validate()?;
        self.oidc.validate(&self.http)?;
        self.rate_limits.validate()?;
        self.uploads.validate()?;
        self.backup.validate()?;
        self.backup.validate_location(&self.data_dir)?;
        self.signups.validate()?;
        self.metrics.validate()?;
        self.storage.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_prints_database_password() {
        let config = Config {
            database: DatabaseConfig {
                database_url: Some("postgres://u:hunter2@h/db".into()),
                ..DatabaseConfig::default()
            },
            ..Config::for_data_dir("/tmp/dt")
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
    }

    #[test]
    fn local_storage_by_default_under_the_data_dir() {
        let config = Config::for_data_dir("/srv/dt");
        assert_eq!(config.storage.storage, StorageKind::Local);
        assert_eq!(config.files_dir(), PathBuf::from("/srv/dt/files"));
        assert!(config.validate().is_ok());
    }

    #[test]
    fn every_section_is_validated() {
        // One refusal per section, each reached through `Config::validate`.
        type Tweak = fn(&mut Config);
        let refused = |tweak: Tweak| {
            let mut config = Config::for_data_dir("/tmp/dt");
            tweak(&mut config);
            config.validate().expect_err("refused").0
        };
        let cases: [(Tweak, &str); 15] = [
            (
                |c| c.database.sqlite_synchronous = "OFF".into(),
                "SQLITE_SYNCHRONOUS",
            ),
            (|c| c.http.public_url = Some("ftp://x".into()), "PUBLIC_URL"),
            (|c| c.sessions.session_idle_days = 0, "SESSION_IDLE_DAYS"),
            (
                |c| c.billing.stripe_secret_key = Some("sk".into()),
                "STRIPE_SECRET_KEY",
            ),
            (
                |c| c.smtp.smtp_url = Some("smtp://localhost".into()),
                "SMTP_URL",
            ),
            (|c| c.phone.phone_sends_per_minute = 0, "PHONE_SENDS_"),
            (
                |c| c.connections.request_timeout_secs = 0,
                "REQUEST_TIMEOUT_SECS",
            ),
            (
                |c| c.quotas.max_records_per_user = 0,
                "MAX_RECORDS_PER_USER",
            ),
            (
                |c| c.oidc.oidc_issuer = Some("https://a.example".into()),
                "OIDC_ISSUER",
            ),
            (
                |c| c.rate_limits.login_rate_limit_per_minute = 0,
                "rate limits",
            ),
            (|c| c.uploads.uploads_in_flight = 0, "UPLOADS_IN_FLIGHT"),
            (|c| c.backup.backup_keep = 0, "BACKUP_KEEP"),
            (|c| c.signups.signups_open = false, "SIGNUPS_OPEN"),
            (
                |c| c.metrics.metrics_token = Some("0123456789abcdef".into()),
                "METRICS_ENABLED",
            ),
            (
                |c| c.storage.s3_bucket = Some("pictures".into()),
                "S3_BUCKET",
            ),
        ];
        for (tweak, names) in cases {
            let why = refused(tweak);
            assert!(why.contains(names), "{names}: {why}");
        }
    }
}
