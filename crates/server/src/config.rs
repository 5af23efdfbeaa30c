//! Runtime configuration: every setting is a flag or an environment variable with a safe
//! default, and anything ambiguous is refused at start-up rather than guessed.

use std::{fmt, net::SocketAddr, path::PathBuf, time::Duration};

use clap::{Args, ValueEnum};

mod connections;
mod oidc;
pub mod quotas;
mod uploads;

pub use connections::{ConnectionLimits, ConnectionsConfig};
pub use oidc::{OIDC_CALLBACK_PATH, OidcSettings};
pub use uploads::UploadsConfig;

#[derive(Args, Clone)]
pub struct Config {
    /// Directory holding the SQLite database and uploaded files.
    #[arg(long, env = "DATA_DIR", default_value = "./data", global = true)]
    pub data_dir: PathBuf,

    /// `sqlite://PATH` (default: DATA_DIR/delivery-tracker.db) or `postgres://…`.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,

    /// Address to listen on.
    #[arg(long, env = "LISTEN", default_value = "127.0.0.1:8080", global = true)]
    pub listen: SocketAddr,

    /// The public origin users reach the app at, e.g. `https://tracker.example.com`.
    /// Used for the CSRF origin check and to turn on HSTS when it is https.
    #[arg(long, env = "PUBLIC_URL", global = true)]
    pub public_url: Option<String>,

    /// Secure `__Host-session` cookie. Set to false only when serving plain http on a name
    /// other than localhost (the cookie is then called `session` and is not Secure).
    #[arg(long, env = "COOKIE_SECURE", default_value_t = true, action = clap::ArgAction::Set, global = true)]
    pub cookie_secure: bool,

    /// A session unused for this many days expires (sliding).
    #[arg(long, env = "SESSION_IDLE_DAYS", default_value_t = 30, global = true)]
    pub session_idle_days: u32,

    /// A session expires this many days after sign-in, however active.
    #[arg(long, env = "SESSION_MAX_DAYS", default_value_t = 365, global = true)]
    pub session_max_days: u32,

    /// How often an open event stream re-checks its session and the user's change sequence
    /// (catches changes made where no signal reaches it, e.g. the admin CLI on SQLite).
    #[arg(
        long,
        env = "EVENTS_RECHECK_SECONDS",
        default_value_t = 5,
        global = true
    )]
    pub events_recheck_seconds: u32,

    /// Sign-in, sign-up and guest requests allowed per client IP per minute.
    #[arg(
        long,
        env = "AUTH_RATE_LIMIT_PER_MINUTE",
        default_value_t = 30,
        global = true
    )]
    pub auth_rate_limit_per_minute: u32,

    /// Login attempts allowed per e-mail address per minute.
    #[arg(
        long,
        env = "LOGIN_RATE_LIMIT_PER_MINUTE",
        default_value_t = 10,
        global = true
    )]
    pub login_rate_limit_per_minute: u32,

    /// Contact-form messages allowed per client IP per minute.
    #[arg(
        long,
        env = "CONTACT_RATE_LIMIT_PER_MINUTE",
        default_value_t = 5,
        global = true
    )]
    pub contact_rate_limit_per_minute: u32,

    /// SMTP server that contact messages are e-mailed through: `smtps://user:pass@host:465`
    /// (TLS), `smtp://user:pass@host:587` (STARTTLS required) or `smtp://localhost:25` (plain,
    /// only to this machine). With CONTACT_EMAIL_TO and CONTACT_EMAIL_FROM, or none of them.
    #[arg(long, env = "SMTP_URL", global = true, hide_env_values = true)]
    pub smtp_url: Option<String>,

    /// The operator's address that contact messages are e-mailed to.
    #[arg(long, env = "CONTACT_EMAIL_TO", global = true)]
    pub contact_email_to: Option<String>,

    /// The sender of those e-mails, e.g. `Delivery Tracker <noreply@example.com>`.
    #[arg(long, env = "CONTACT_EMAIL_FROM", global = true)]
    pub contact_email_from: Option<String>,

    /// Tries at e-mailing a message before it is marked failed (it stays stored).
    #[arg(
        long,
        env = "CONTACT_EMAIL_MAX_ATTEMPTS",
        default_value_t = 10,
        global = true
    )]
    pub contact_email_max_attempts: u32,

    /// Wait before the first retry of a failed e-mail, in milliseconds; it doubles with each
    /// try, up to 6 hours.
    #[arg(
        long,
        env = "CONTACT_EMAIL_FIRST_RETRY_MS",
        default_value_t = 60_000,
        global = true
    )]
    pub contact_email_first_retry_ms: u64,

    /// Take the client IP from the last `X-Forwarded-For` entry (only behind a proxy you run).
    #[arg(long, env = "TRUST_PROXY", default_value_t = false, action = clap::ArgAction::Set, global = true)]
    pub trust_proxy: bool,

    /// SQLite `synchronous` mode: FULL (default, survives power loss) or NORMAL (faster,
    /// may lose the last commits on power loss but never corrupts).
    #[arg(
        long,
        env = "SQLITE_SYNCHRONOUS",
        default_value = "FULL",
        global = true
    )]
    pub sqlite_synchronous: String,

    /// OpenID Connect issuer for "Sign in with Google" (or any provider), e.g.
    /// `https://accounts.google.com`; its `/.well-known/openid-configuration` is read.
    /// With OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (all or none); needs PUBLIC_URL.
    #[arg(long, env = "OIDC_ISSUER", global = true)]
    pub oidc_issuer: Option<String>,

    /// The client id registered at the OpenID provider.
    #[arg(long, env = "OIDC_CLIENT_ID", global = true)]
    pub oidc_client_id: Option<String>,

    /// The client secret registered at the OpenID provider.
    #[arg(
        long,
        env = "OIDC_CLIENT_SECRET",
        global = true,
        hide_env_values = true
    )]
    pub oidc_client_secret: Option<String>,

    /// The provider's name on the sign-in button ("Sign in with Google").
    #[arg(long, env = "OIDC_LABEL", default_value = "Google", global = true)]
    pub oidc_label: String,

    /// Stripe secret key; with STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET it turns on checkout.
    #[arg(long, env = "STRIPE_SECRET_KEY", global = true, hide_env_values = true)]
    pub stripe_secret_key: Option<String>,

    /// The Stripe price of the Pro plan (£4.99 per month), e.g. `price_123`.
    #[arg(long, env = "STRIPE_PRICE_ID", global = true)]
    pub stripe_price_id: Option<String>,

    /// Signing secret of the Stripe webhook endpoint (`whsec_…`).
    #[arg(
        long,
        env = "STRIPE_WEBHOOK_SECRET",
        global = true,
        hide_env_values = true
    )]
    pub stripe_webhook_secret: Option<String>,

    /// Stripe API base URL (tests point it at a local stand-in).
    #[arg(
        long,
        env = "STRIPE_API_BASE",
        default_value = "https://api.stripe.com",
        global = true
    )]
    pub stripe_api_base: String,

    /// Log format: `text` or `json`.
    #[arg(long, env = "LOG_FORMAT", default_value = "text", global = true)]
    pub log_format: String,

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

    #[command(flatten)]
    pub phone: crate::auth::phone::config::PhoneConfig,

    #[command(flatten)]
    pub connections: ConnectionsConfig,

    #[command(flatten)]
    pub uploads: UploadsConfig,

    #[command(flatten)]
    pub quotas: quotas::QuotaConfig,
}

/// Where uploaded files are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StorageKind {
    Local,
    S3,
}

/// Which database the configuration selects.
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseTarget {
    Sqlite(PathBuf),
    Postgres(String),
}

impl fmt::Debug for DatabaseTarget {
    // Postgres URLs may carry a password: never print them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseTarget::Sqlite(path) => write!(f, "Sqlite({})", path.display()),
            DatabaseTarget::Postgres(_) => f.write_str("Postgres(<redacted>)"),
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("data_dir", &self.data_dir)
            .field("database", &self.database_target().ok())
            .field("listen", &self.listen)
            .field("public_url", &self.public_url)
            .field("cookie_secure", &self.cookie_secure)
            .field("session_idle_days", &self.session_idle_days)
            .field("session_max_days", &self.session_max_days)
            .field("events_recheck_seconds", &self.events_recheck_seconds)
            .field(
                "auth_rate_limit_per_minute",
                &self.auth_rate_limit_per_minute,
            )
            .field(
                "login_rate_limit_per_minute",
                &self.login_rate_limit_per_minute,
            )
            .field("contact_email", &self.contact_email().ok().flatten())
            .field("oidc", &self.oidc().ok().flatten())
            .field("trust_proxy", &self.trust_proxy)
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
            .field("phone", &self.phone)
            .field("connections", &self.connections)
            .field("uploads", &self.uploads)
            .field("quotas", &self.quotas)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// Defaults for tests and embedding: everything under `data_dir`.
    pub fn for_data_dir(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            data_dir: data_dir.into(),
            database_url: None,
            listen: "127.0.0.1:0".parse().expect("valid literal"),
            public_url: None,
            cookie_secure: true,
            session_idle_days: 30,
            session_max_days: 365,
            events_recheck_seconds: 5,
            auth_rate_limit_per_minute: 30,
            login_rate_limit_per_minute: 10,
            contact_rate_limit_per_minute: 5,
            smtp_url: None,
            contact_email_to: None,
            contact_email_from: None,
            contact_email_max_attempts: 10,
            contact_email_first_retry_ms: 60_000,
            trust_proxy: false,
            sqlite_synchronous: "FULL".into(),
            log_format: "text".into(),
            oidc_issuer: None,
            oidc_client_id: None,
            oidc_client_secret: None,
            oidc_label: "Google".into(),
            stripe_secret_key: None,
            stripe_price_id: None,
            stripe_webhook_secret: None,
            stripe_api_base: "https://api.stripe.com".into(),
            storage: StorageKind::Local,
            s3_bucket: None,
            s3_endpoint: None,
            s3_region: "us-east-1".into(),
            s3_access_key_id: None,
            s3_secret_access_key: None,
            s3_allow_http: false,
            phone: Default::default(),
            connections: Default::default(),
            uploads: Default::default(),
            quotas: Default::default(),
        }
    }

    /// The directory of the local file store.
    pub fn files_dir(&self) -> PathBuf {
        self.data_dir.join("files")
    }

    pub fn database_target(&self) -> Result<DatabaseTarget, ConfigError> {
        let Some(url) = self
            .database_url
            .as_deref()
            .filter(|u| !u.trim().is_empty())
        else {
            return Ok(DatabaseTarget::Sqlite(
                self.data_dir.join("delivery-tracker.db"),
            ));
        };
        if let Some(path) = url.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err(ConfigError(
                    "DATABASE_URL sqlite:// needs a file path".into(),
                ));
            }
            return Ok(DatabaseTarget::Sqlite(PathBuf::from(path)));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(DatabaseTarget::Postgres(url.to_owned()));
        }
        Err(ConfigError(
            "DATABASE_URL must start with sqlite:// or postgres:// (postgresql://); \
             other databases are not supported"
                .into(),
        ))
    }

    /// The origin (`scheme://host[:port]`) of PUBLIC_URL, validated.
    pub fn public_origin(&self) -> Result<Option<String>, ConfigError> {
        let Some(url) = self.public_url.as_deref().filter(|u| !u.trim().is_empty()) else {
            return Ok(None);
        };
        let url = url.trim().trim_end_matches('/');
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| ConfigError("PUBLIC_URL must look like https://host[:port]".into()))?;
        if scheme != "http" && scheme != "https" {
            return Err(ConfigError("PUBLIC_URL must use http or https".into()));
        }
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() {
            return Err(ConfigError("PUBLIC_URL has no host".into()));
        }
        Ok(Some(format!("{scheme}://{host}")))
    }

    pub fn session_idle(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_idle_days) * 86_400)
    }

    pub fn session_max(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_max_days) * 86_400)
    }

    /// Checks everything that can be checked before opening anything.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.database_target()?;
        self.public_origin()?;
        if !matches!(
            self.sqlite_synchronous.to_uppercase().as_str(),
            "FULL" | "NORMAL"
        ) {
            return Err(ConfigError(
                "SQLITE_SYNCHRONOUS must be FULL or NORMAL".into(),
            ));
        }
        if self.session_idle_days == 0 || self.session_max_days < self.session_idle_days {
            return Err(ConfigError(
                "SESSION_IDLE_DAYS must be at least 1 and not above SESSION_MAX_DAYS".into(),
            ));
        }
        self.stripe()?;
        self.contact_email()?;
        self.phone.validate()?;
        self.connections.validate()?;
        self.quotas.validate()?;
        self.oidc()?;
        if self.auth_rate_limit_per_minute == 0
            || self.login_rate_limit_per_minute == 0
            || self.contact_rate_limit_per_minute == 0
        {
            return Err(ConfigError(
                "rate limits must be at least 1 per minute".into(),
            ));
        }
        self.uploads.validate()?;
        self.validate_storage()
    }

    fn validate_storage(&self) -> Result<(), ConfigError> {
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

/// Checkout settings, present only when billing is fully configured.
#[derive(Clone)]
pub struct StripeConfig {
    pub secret_key: String,
    pub price_id: String,
    pub webhook_secret: String,
    pub api_base: String,
    pub public_origin: String,
}

impl fmt::Debug for StripeConfig {
    // Keys are secrets: only say which price and where.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StripeConfig")
            .field("price_id", &self.price_id)
            .field("api_base", &self.api_base)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// All three Stripe settings or none: half a billing setup is refused at start-up.
    pub fn stripe(&self) -> Result<Option<StripeConfig>, ConfigError> {
        let set = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        match (
            set(&self.stripe_secret_key),
            set(&self.stripe_price_id),
            set(&self.stripe_webhook_secret),
        ) {
            (None, None, None) => Ok(None),
            (Some(secret_key), Some(price_id), Some(webhook_secret)) => {
                let public_origin = self.public_origin()?.ok_or_else(|| {
                    ConfigError(
                        "Stripe checkout needs PUBLIC_URL to send drivers back to the app".into(),
                    )
                })?;
                Ok(Some(StripeConfig {
                    secret_key,
                    price_id,
                    webhook_secret,
                    api_base: self.stripe_api_base.trim_end_matches('/').to_owned(),
                    public_origin,
                }))
            }
            _ => Err(ConfigError(
                "set all of STRIPE_SECRET_KEY, STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET, or none"
                    .into(),
            )),
        }
    }
}

/// How the SMTP connection is protected, from the scheme and host of SMTP_URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// `smtps://`: TLS from the first byte.
    ImplicitTls,
    /// `smtp://` to another machine: STARTTLS, and nothing is sent if the server lacks it.
    StartTls,
    /// `smtp://` to this machine (localhost, 127.0.0.0/8, ::1): the mail never leaves it.
    Plain,
}

/// E-mailing contact messages to the operator, present only when fully configured.
#[derive(Clone)]
pub struct ContactEmailConfig {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    /// User name and password from SMTP_URL, percent-decoded.
    pub credentials: Option<(String, String)>,
    pub to: lettre::message::Mailbox,
    pub from: lettre::message::Mailbox,
    pub retry: domain::contact::RetryPolicy,
}

impl fmt::Debug for ContactEmailConfig {
    // The SMTP password is a secret: only say where mail goes and how.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContactEmailConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("to", &self.to.to_string())
            .field("from", &self.from.to_string())
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// SMTP_URL, CONTACT_EMAIL_TO and CONTACT_EMAIL_FROM, all or none: half of it is refused
    /// at start-up rather than silently not e-mailing.
    pub fn contact_email(&self) -> Result<Option<ContactEmailConfig>, ConfigError> {
        let set = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let (url, to, from) = match (
            set(&self.smtp_url),
            set(&self.contact_email_to),
            set(&self.contact_email_from),
        ) {
            (None, None, None) => return Ok(None),
            (Some(url), Some(to), Some(from)) => (url, to, from),
            _ => {
                return Err(ConfigError(
                    "set all of SMTP_URL, CONTACT_EMAIL_TO and CONTACT_EMAIL_FROM to e-mail \
                     contact messages to the operator, or none (they are then only stored)"
                        .into(),
                ));
            }
        };
        let mailbox = |name: &str, value: &str| {
            value.parse::<lettre::message::Mailbox>().map_err(|_| {
                ConfigError(format!(
                    "{name} must be an e-mail address (optionally `Name <address>`)"
                ))
            })
        };
        let (to, from) = (
            mailbox("CONTACT_EMAIL_TO", &to)?,
            mailbox("CONTACT_EMAIL_FROM", &from)?,
        );
        if self.contact_email_max_attempts == 0 || self.contact_email_first_retry_ms == 0 {
            return Err(ConfigError(
                "CONTACT_EMAIL_MAX_ATTEMPTS and CONTACT_EMAIL_FIRST_RETRY_MS must be at least 1"
                    .into(),
            ));
        }
        let (host, port, security, credentials) = parse_smtp_url(&url)?;
        Ok(Some(ContactEmailConfig {
            host,
            port,
            security,
            credentials,
            to,
            from,
            retry: domain::contact::RetryPolicy {
                first_retry_ms: self.contact_email_first_retry_ms,
                max_attempts: self.contact_email_max_attempts,
            },
        }))
    }
}

type SmtpTarget = (String, u16, SmtpSecurity, Option<(String, String)>);

fn parse_smtp_url(raw: &str) -> Result<SmtpTarget, ConfigError> {
    let refuse = |why: &str| Err(ConfigError(format!("SMTP_URL {why}")));
    let Ok(url) = url::Url::parse(raw) else {
        return refuse("must look like smtps://user:password@host:465 or smtp://…:587");
    };
    if !matches!(url.scheme(), "smtp" | "smtps") {
        return refuse(
            "must start with smtps:// (TLS) or smtp:// (STARTTLS; plain only to localhost)",
        );
    }
    let host = url
        .host_str()
        .unwrap_or_default()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    if host.is_empty() {
        return refuse("has no host");
    }
    if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
        return refuse("takes no path or query: scheme, credentials, host and port only");
    }
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    let (security, default_port) = match url.scheme() {
        "smtps" => (SmtpSecurity::ImplicitTls, 465),
        "smtp" if loopback => (SmtpSecurity::Plain, 587),
        _ => (SmtpSecurity::StartTls, 587),
    };
    let decode = |part: &str| {
        percent_encoding::percent_decode_str(part)
            .decode_utf8()
            .map(|s| s.into_owned())
    };
    let credentials = match (url.username(), url.password()) {
        ("", None) => None,
        (user, Some(password)) if !user.is_empty() => match (decode(user), decode(password)) {
            (Ok(user), Ok(password)) => Some((user, password)),
            _ => return refuse("credentials are not valid UTF-8 once percent-decoded"),
        },
        _ => return refuse("needs both a user name and a password, or neither"),
    };
    Ok((
        host,
        url.port().unwrap_or(default_port),
        security,
        credentials,
    ))
}

#[derive(Debug, thiserror::Error)]
#[error("configuration error: {0}")]
pub struct ConfigError(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    fn with_url(url: &str) -> Config {
        Config {
            database_url: Some(url.into()),
            ..Config::for_data_dir("/tmp/dt")
        }
    }

    #[test]
    fn sqlite_in_data_dir_by_default() {
        let target = Config::for_data_dir("/srv/dt").database_target().unwrap();
        assert_eq!(
            target,
            DatabaseTarget::Sqlite("/srv/dt/delivery-tracker.db".into())
        );
    }

    #[test]
    fn recognises_postgres_and_refuses_unknown_schemes() {
        assert!(matches!(
            with_url("postgres://u:p@h/db").database_target(),
            Ok(DatabaseTarget::Postgres(_))
        ));
        assert!(matches!(
            with_url("postgresql:///db?host=/run/postgresql").database_target(),
            Ok(DatabaseTarget::Postgres(_))
        ));
        let err = with_url("mysql://h/db").database_target().unwrap_err();
        assert!(err.0.contains("sqlite://"), "{err}");
    }

    #[test]
    fn debug_never_prints_database_password() {
        let printed = format!("{:?}", with_url("postgres://u:hunter2@h/db"));
        assert!(!printed.contains("hunter2"), "{printed}");
    }

    #[test]
    fn stripe_is_all_or_nothing_and_needs_a_public_url() {
        let mut config = Config::for_data_dir("/tmp");
        assert!(config.stripe().unwrap().is_none());
        config.stripe_secret_key = Some("sk_test".into());
        assert!(config.validate().is_err(), "half a billing setup");
        config.stripe_price_id = Some("price_1".into());
        config.stripe_webhook_secret = Some("whsec_1".into());
        assert!(config.stripe().unwrap_err().0.contains("PUBLIC_URL"));
        config.public_url = Some("https://dt.example.com".into());
        assert_eq!(
            config.stripe().unwrap().unwrap().public_origin,
            "https://dt.example.com"
        );
        assert!(
            !format!("{config:?}").contains("sk_test"),
            "secrets never printed"
        );
    }

    #[test]
    fn public_url_is_reduced_to_its_origin() {
        let config = Config {
            public_url: Some("https://dt.example.com/app/".into()),
            ..Config::for_data_dir("/tmp")
        };
        assert_eq!(
            config.public_origin().unwrap().as_deref(),
            Some("https://dt.example.com")
        );
        let bad = Config {
            public_url: Some("ftp://x".into()),
            ..Config::for_data_dir("/tmp")
        };
        assert!(bad.validate().is_err());
    }

    fn s3() -> Config {
        Config {
            storage: StorageKind::S3,
            s3_bucket: Some("pictures".into()),
            ..Config::for_data_dir("/tmp")
        }
    }

    fn refusal(config: Config) -> String {
        config.validate().expect_err("refused").0
    }

    #[test]
    fn local_storage_by_default_under_the_data_dir() {
        let config = Config::for_data_dir("/srv/dt");
        assert_eq!(config.storage, StorageKind::Local);
        assert_eq!(config.files_dir(), PathBuf::from("/srv/dt/files"));
        assert!(config.validate().is_ok());
        assert!(s3().validate().is_ok());
    }

    #[test]
    fn ambiguous_storage_settings_are_refused() {
        let no_bucket = Config {
            s3_bucket: None,
            ..s3()
        };
        assert!(refusal(no_bucket).contains("S3_BUCKET"));

        let bucket_but_local = Config {
            storage: StorageKind::Local,
            ..s3()
        };
        assert!(refusal(bucket_but_local).contains("STORAGE=s3"));

        let half_credentials = Config {
            s3_access_key_id: Some("AKIA".into()),
            ..s3()
        };
        assert!(refusal(half_credentials).contains("S3_SECRET_ACCESS_KEY"));

        let plain_http = Config {
            s3_endpoint: Some("http://127.0.0.1:9000".into()),
            ..s3()
        };
        assert!(refusal(plain_http).contains("S3_ALLOW_HTTP"));
        let allowed = Config {
            s3_endpoint: Some("http://127.0.0.1:9000".into()),
            s3_allow_http: true,
            ..s3()
        };
        assert!(allowed.validate().is_ok());

        let no_scheme = Config {
            s3_endpoint: Some("minio:9000".into()),
            ..s3()
        };
        assert!(refusal(no_scheme).contains("S3_ENDPOINT"));
    }

    fn smtp(url: &str) -> Config {
        Config {
            smtp_url: Some(url.into()),
            contact_email_to: Some("Operator <ops@example.com>".into()),
            contact_email_from: Some("noreply@example.com".into()),
            ..Config::for_data_dir("/tmp")
        }
    }

    #[test]
    fn contact_email_is_all_or_nothing() {
        assert!(
            Config::for_data_dir("/tmp")
                .contact_email()
                .unwrap()
                .is_none()
        );
        let full = smtp("smtp://127.0.0.1:2525");
        assert!(full.validate().is_ok());
        let halves = [
            Config {
                smtp_url: None,
                ..full.clone()
            },
            Config {
                contact_email_to: None,
                ..full.clone()
            },
            Config {
                contact_email_from: Some("  ".into()),
                ..full.clone()
            },
            Config {
                contact_email_to: None,
                contact_email_from: None,
                ..full.clone()
            },
        ];
        for half in halves {
            let why = refusal(half);
            assert!(
                why.contains("SMTP_URL, CONTACT_EMAIL_TO and CONTACT_EMAIL_FROM"),
                "{why}"
            );
        }
        assert!(
            refusal(Config {
                contact_email_to: Some("not an address".into()),
                ..full.clone()
            })
            .contains("CONTACT_EMAIL_TO")
        );
        assert!(
            refusal(Config {
                contact_email_max_attempts: 0,
                ..full
            })
            .contains("CONTACT_EMAIL_MAX_ATTEMPTS")
        );
    }

    #[test]
    fn smtp_url_scheme_and_host_decide_the_protection() {
        let target = |url: &str| {
            let email = smtp(url).contact_email().unwrap().unwrap();
            (email.host, email.port, email.security, email.credentials)
        };
        assert_eq!(
            target("smtps://mailer%40example.com:p%40ss@mail.example.com"),
            (
                "mail.example.com".into(),
                465,
                SmtpSecurity::ImplicitTls,
                Some(("mailer@example.com".into(), "p@ss".into()))
            )
        );
        assert_eq!(
            target("smtp://u:p@mail.example.com"),
            (
                "mail.example.com".into(),
                587,
                SmtpSecurity::StartTls,
                Some(("u".into(), "p".into()))
            )
        );
        for local in [
            "smtp://localhost:25",
            "smtp://127.0.0.1:2525/",
            "smtp://[::1]:25",
        ] {
            assert_eq!(target(local).2, SmtpSecurity::Plain, "{local}");
        }
        assert_eq!(target("smtp://[::1]:25").0, "::1");
        assert_eq!(
            target("smtp://10.0.0.5:25").2,
            SmtpSecurity::StartTls,
            "plain only on this machine"
        );
        for (bad, why) in [
            ("http://mail.example.com", "smtps://"),
            ("mail.example.com:587", "smtps://"),
            ("smtp://mail.example.com/inbox", "no path or query"),
            ("smtp://mail.example.com?tls=none", "no path or query"),
            ("smtp://user@mail.example.com", "user name and a password"),
            ("smtp://", "no host"),
        ] {
            let refused = refusal(smtp(bad));
            assert!(refused.contains(why), "{bad}: {refused}");
        }
    }

    #[test]
    fn debug_never_prints_the_smtp_password() {
        let config = smtp("smtps://mailer:hunter2-smtp@mail.example.com");
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2-smtp"), "{printed}");
        assert!(printed.contains("mail.example.com"), "{printed}");
    }

    #[test]
    fn debug_never_prints_the_s3_secret() {
        let config = Config {
            s3_access_key_id: Some("AKIAEXAMPLE".into()),
            s3_secret_access_key: Some("wJalrXUtnFEMI".into()),
            ..s3()
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("wJalrXUtnFEMI"), "{printed}");
        assert!(printed.contains("<redacted>"), "{printed}");
    }
}
