//! Where uploaded pictures are kept: the local disk under DATA_DIR, or an S3-compatible bucket.

use std::fmt;

use clap::{Args, ValueEnum};

use super::ConfigError;

#[derive(Args, Clone)]
pub struct StorageConfig {
    /// Where uploaded pictures are kept: `local` (DATA_DIR/files) or `s3` (S3-compatible).
    #[arg(
        long,
        env = "STORAGE",
        value_enum,
        default_value_t = StorageKind::Local,
        global = true
    )]
    pub storage: StorageKind,

    /// Bucket for STORAGE=s3 (it must exist).
    #[arg(long, env = "S3_BUCKET", global = true)]
    pub s3_bucket: Option<String>,

    /// Endpoint of an S3-compatible service (MinIO, Garage, …); unset means AWS S3.
    #[arg(long, env = "S3_ENDPOINT", global = true)]
    pub s3_endpoint: Option<String>,

    /// Region of the bucket (S3-compatible services usually accept the default).
    #[arg(long, env = "S3_REGION", default_value = "us-east-1", global = true)]
    pub s3_region: String,

    /// Access key; with S3_SECRET_ACCESS_KEY. Both unset: the instance's own credentials.
    #[arg(long, env = "S3_ACCESS_KEY_ID", global = true)]
    pub s3_access_key_id: Option<String>,

    /// Secret key for S3_ACCESS_KEY_ID (never logged).
    #[arg(
        long,
        env = "S3_SECRET_ACCESS_KEY",
        global = true,
        hide_env_values = true
    )]
    pub s3_secret_access_key: Option<String>,

    /// Allow a plain-http S3_ENDPOINT (a service on this machine or a private network).
    #[arg(long, env = "S3_ALLOW_HTTP", default_value_t = false, action = clap::ArgAction::Set, global = true)]
    pub s3_allow_http: bool,
}

/// Where uploaded files are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StorageKind {
    Local,
    S3,
}

impl Default for StorageConfig {
    fn default() -> Self {
        StorageConfig {
            storage: StorageKind::Local,
            s3_bucket: None,
            s3_endpoint: None,
            s3_region: "us-east-1".into(),
            s3_access_key_id: None,
            s3_secret_access_key: None,
            s3_allow_http: false,
        }
    }
}

impl fmt::Debug for StorageConfig {
    // The secret key never reaches a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StorageConfig")
            .field("storage", &self.storage)
            .field("s3_bucket", &self.s3_bucket)
            .field("s3_endpoint", &self.s3_endpoint)
            .field("s3_region", &self.s3_region)
            .field("s3_access_key_id", &self.s3_access_key_id)
            .field(
                "s3_secret_access_key",
                &self.s3_secret_access_key.as_ref().map(|_| "<redacted>"),
            )
            .field("s3_allow_http", &self.s3_allow_http)
            .finish()
    }
}

impl StorageConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        let set = |value: &Option<String>| value.as_deref().is_some_and(|v| !v.trim().is_empty());
        match self.storage {
            StorageKind::Local => {
                if set(&self.s3_bucket) {
                    return Err(ConfigError(
                        "S3_BUCKET is set but STORAGE is local: set STORAGE=s3 to keep files in \
                         the bucket, or unset S3_BUCKET to keep them in DATA_DIR/files"
                            .into(),
                    ));
                }
                Ok(())
            }
            StorageKind::S3 => {
                if !set(&self.s3_bucket) {
                    return Err(ConfigError("STORAGE=s3 needs S3_BUCKET".into()));
                }
                if set(&self.s3_access_key_id) != set(&self.s3_secret_access_key) {
                    return Err(ConfigError(
                        "set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither \
                         (then the instance's own credentials are used)"
                            .into(),
                    ));
                }
                if self.s3_region.trim().is_empty() {
                    return Err(ConfigError("S3_REGION must not be empty".into()));
                }
                if let Some(endpoint) = self.s3_endpoint.as_deref().filter(|e| !e.is_empty()) {
                    if endpoint.starts_with("http://") {
                        if !self.s3_allow_http {
                            return Err(ConfigError(
                                "S3_ENDPOINT is plain http: set S3_ALLOW_HTTP=true if that is \
                                 intended (a service on this machine or a private network)"
                                    .into(),
                            ));
                        }
                    } else if !endpoint.starts_with("https://") {
                        return Err(ConfigError(
                            "S3_ENDPOINT must look like https://host[:port]".into(),
                        ));
                    }
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s3() -> StorageConfig {
        StorageConfig {
            storage: StorageKind::S3,
            s3_bucket: Some("pictures".into()),
            ..StorageConfig::default()
        }
    }

    fn refusal(config: StorageConfig) -> String {
        config.validate().expect_err("refused").0
    }

    #[test]
    fn local_storage_by_default() {
        let config = StorageConfig::default();
        assert_eq!(config.storage, StorageKind::Local);
        assert!(config.validate().is_ok());
        assert!(s3().validate().is_ok());
    }

    #[test]
    fn ambiguous_storage_settings_are_refused() {
        let no_bucket = StorageConfig {
            s3_bucket: None,
            ..s3()
        };
        assert!(refusal(no_bucket).contains("S3_BUCKET"));

        let bucket_but_local = StorageConfig {
            storage: StorageKind::Local,
            ..s3()
        };
        assert!(refusal(bucket_but_local).contains("STORAGE=s3"));

        let half_credentials = StorageConfig {
            s3_access_key_id: Some("AKIA".into()),
            ..s3()
        };
        assert!(refusal(half_credentials).contains("S3_SECRET_ACCESS_KEY"));

        let plain_http = StorageConfig {
            s3_endpoint: Some("http://127.0.0.1:9000".into()),
            ..s3()
        };
        assert!(refusal(plain_http).contains("S3_ALLOW_HTTP"));
        let allowed = StorageConfig {
            s3_endpoint: Some("http://127.0.0.1:9000".into()),
            s3_allow_http: true,
            ..s3()
        };
        assert!(allowed.validate().is_ok());

        let no_scheme = StorageConfig {
            s3_endpoint: Some("minio:9000".into()),
            ..s3()
        };
        assert!(refusal(no_scheme).contains("S3_ENDPOINT"));
    }

    #[test]
    fn debug_never_prints_the_s3_secret() {
        let config = StorageConfig {
            s3_access_key_id: Some("AKIAEXAMPLE".into()),
            s3_secret_access_key: Some("wJalrXUtnFEMI".into()),
            ..s3()
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("wJalrXUtnFEMI"), "{printed}");
        assert!(printed.contains("<redacted>"), "{printed}");
    }
}
