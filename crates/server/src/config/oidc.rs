//! OpenID Connect settings: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, all or none.

use std::fmt;

use clap::Args;

use super::{ConfigError, HttpConfig};

#[derive(Args, Clone)]
pub struct OidcConfig {
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
}

impl Default for OidcConfig {
    fn default() -> Self {
        OidcConfig {
            oidc_issuer: None,
            oidc_client_id: None,
            oidc_client_secret: None,
            oidc_label: "Google".into(),
        }
    }
}

impl fmt::Debug for OidcConfig {
    // The client secret never reaches a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OidcConfig")
            .field("oidc_issuer", &self.oidc_issuer)
            .field("oidc_client_id", &self.oidc_client_id)
            .field(
                "oidc_client_secret",
                &self.oidc_client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("oidc_label", &self.oidc_label)
            .finish()
    }
}

/// Where the provider sends the browser back, under PUBLIC_URL.
pub const OIDC_CALLBACK_PATH: &str = "/api/v1/auth/oidc/callback";

#[derive(Clone)]
pub struct OidcSettings {
    /// Exactly as configured (minus a trailing slash): ID tokens' `iss` must equal it.
    pub issuer: String,
    pub client_id: String,
    pub client_secret: String,
    pub label: String,
    pub redirect_uri: String,
    /// The app's own origin: the only target the result page posts to.
    pub public_origin: String,
}

impl fmt::Debug for OidcSettings {
    // The client secret never reaches a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OidcSettings")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field("client_secret", &"<redacted>")
            .field("label", &self.label)
            .field("redirect_uri", &self.redirect_uri)
            .finish()
    }
}

impl OidcConfig {
    pub fn validate(&self, http: &HttpConfig) -> Result<(), ConfigError> {
        self.settings(http).map(drop)
    }

    /// The OpenID provider when fully configured; None when not at all; half is refused.
    /// Its redirect URI is under `http`'s PUBLIC_URL.
    pub fn settings(&self, http: &HttpConfig) -> Result<Option<OidcSettings>, ConfigError> {
        let set = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let (issuer, client_id, client_secret) = match (
            set(&self.oidc_issuer),
            set(&self.oidc_client_id),
            set(&self.oidc_client_secret),
        ) {
            (None, None, None) => return Ok(None),
            (Some(issuer), Some(id), Some(secret)) => (issuer, id, secret),
            _ => {
                return Err(ConfigError(
                    "set all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none".into(),
                ));
            }
        };
        let issuer = issuer.trim_end_matches('/').to_owned();
        check_issuer(&issuer)?;
        let public_origin = http.public_origin()?.ok_or_else(|| {
            ConfigError("OpenID sign-in needs PUBLIC_URL to build its redirect URI".into())
        })?;
        let label = self.oidc_label.trim();
        if label.is_empty() || label.chars().count() > 40 {
            return Err(ConfigError("OIDC_LABEL must be 1 to 40 characters".into()));
        }
        Ok(Some(OidcSettings {
            issuer,
            client_id,
            client_secret,
            label: label.to_owned(),
            redirect_uri: format!("{public_origin}{OIDC_CALLBACK_PATH}"),
            public_origin,
        }))
    }
}

/// https, or plain http only to this machine (a provider under test or on the same host).
fn check_issuer(issuer: &str) -> Result<(), ConfigError> {
    let refuse = |why: &str| Err(ConfigError(format!("OIDC_ISSUER {why}")));
    let Ok(url) = url::Url::parse(issuer) else {
        return refuse("must be a URL such as https://accounts.google.com");
    };
    let loopback = match url.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => return refuse("has no host"),
    };
    match url.scheme() {
        "https" => {}
        "http" if loopback => {}
        _ => return refuse("must use https (plain http only to localhost)"),
    }
    if url.query().is_some() || url.fragment().is_some() {
        return refuse("must not have a query or fragment");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(issuer: Option<&str>, id: Option<&str>, secret: Option<&str>) -> OidcConfig {
        OidcConfig {
            oidc_issuer: issuer.map(Into::into),
            oidc_client_id: id.map(Into::into),
            oidc_client_secret: secret.map(Into::into),
            ..OidcConfig::default()
        }
    }

    fn http() -> HttpConfig {
        HttpConfig {
            public_url: Some("https://dt.example.com".into()),
            ..HttpConfig::default()
        }
    }

    #[test]
    fn all_or_none() {
        assert!(
            config(None, None, None)
                .settings(&http())
                .unwrap()
                .is_none()
        );
        for half in [
            config(Some("https://accounts.google.com"), None, None),
            config(None, Some("id"), Some("secret")),
            config(Some("https://accounts.google.com"), Some("id"), None),
        ] {
            assert!(
                half.settings(&http())
                    .unwrap_err()
                    .0
                    .contains("OIDC_ISSUER")
            );
            assert!(half.validate(&http()).is_err());
        }
        let full = config(
            Some("https://accounts.google.com/"),
            Some("id"),
            Some("s3cret"),
        )
        .settings(&http())
        .unwrap()
        .unwrap();
        assert_eq!(full.issuer, "https://accounts.google.com");
        assert_eq!(
            full.redirect_uri,
            "https://dt.example.com/api/v1/auth/oidc/callback"
        );
        assert_eq!(full.label, "Google");
    }

    #[test]
    fn needs_public_url_and_https_issuer() {
        let no_public = config(Some("https://a.example"), Some("id"), Some("s"));
        assert!(
            no_public
                .settings(&HttpConfig::default())
                .unwrap_err()
                .0
                .contains("PUBLIC_URL")
        );
        assert!(
            config(Some("http://idp.example"), Some("i"), Some("s"))
                .settings(&http())
                .is_err()
        );
        assert!(
            config(Some("http://127.0.0.1:9000"), Some("i"), Some("s"))
                .settings(&http())
                .is_ok()
        );
        assert!(
            config(Some("ftp://idp.example"), Some("i"), Some("s"))
                .settings(&http())
                .is_err()
        );
    }

    #[test]
    fn secret_is_redacted() {
        let config = config(Some("https://a.example"), Some("id"), Some("s3cret-value"));
        let settings = config.settings(&http()).unwrap().unwrap();
        assert!(!format!("{settings:?}").contains("s3cret-value"));
        assert!(!format!("{config:?}").contains("s3cret-value"));
    }
}
