//! E-mailing contact messages to the operator through SMTP: SMTP_URL, CONTACT_EMAIL_TO and
//! CONTACT_EMAIL_FROM, all or none, and how failed e-mails are retried.

use std::fmt;

use clap::Args;

use super::ConfigError;

#[derive(Args, Clone)]
pub struct SmtpConfig {
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
}

impl Default for SmtpConfig {
    fn default() -> Self {
        SmtpConfig {
            smtp_url: None,
            contact_email_to: None,
            contact_email_from: None,
            contact_email_max_attempts: 10,
            contact_email_first_retry_ms: 60_000,
        }
    }
}

impl fmt::Debug for SmtpConfig {
    // SMTP_URL may carry the password: print what it resolves to (which never does).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("contact_email", &self.contact_email().ok().flatten())
            .finish_non_exhaustive()
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

impl SmtpConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.contact_email().map(drop)
    }

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
            .map(std::borrow::Cow::into_owned)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn smtp(url: &str) -> SmtpConfig {
        SmtpConfig {
            smtp_url: Some(url.into()),
            contact_email_to: Some("Operator <ops@example.com>".into()),
            contact_email_from: Some("noreply@example.com".into()),
            ..SmtpConfig::default()
        }
    }

    fn refusal(config: SmtpConfig) -> String {
        config.validate().expect_err("refused").0
    }

    #[test]
    fn contact_email_is_all_or_nothing() {
        assert!(SmtpConfig::default().contact_email().unwrap().is_none());
        let full = smtp("smtp://127.0.0.1:2525");
        assert!(full.validate().is_ok());
        let halves = [
            SmtpConfig {
                smtp_url: None,
                ..full.clone()
            },
            SmtpConfig {
                contact_email_to: None,
                ..full.clone()
            },
            SmtpConfig {
                contact_email_from: Some("  ".into()),
                ..full.clone()
            },
            SmtpConfig {
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
            refusal(SmtpConfig {
                contact_email_to: Some("not an address".into()),
                ..full.clone()
            })
            .contains("CONTACT_EMAIL_TO")
        );
        assert!(
            refusal(SmtpConfig {
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
}
