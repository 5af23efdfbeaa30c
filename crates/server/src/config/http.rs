//! How the server is reached: the listening address, the public origin, the session cookie's
//! security and whether a proxy in front may name the client.

use std::net::SocketAddr;

use clap::Args;

use super::ConfigError;

#[derive(Args, Clone, Debug)]
pub struct HttpConfig {
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

    /// Take the client IP from the last `X-Forwarded-For` entry (only behind a proxy you run).
    #[arg(long, env = "TRUST_PROXY", default_value_t = false, action = clap::ArgAction::Set, global = true)]
    pub trust_proxy: bool,
}

impl Default for HttpConfig {
    /// Tests and embedding: any free port on this machine.
    fn default() -> Self {
        HttpConfig {
            listen: "127.0.0.1:0".parse().expect("valid literal"),
            public_url: None,
            cookie_secure: true,
            trust_proxy: false,
        }
    }
}

impl HttpConfig {
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

    pub fn validate(&self) -> Result<(), ConfigError> {
        self.public_origin().map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_url_is_reduced_to_its_origin() {
        let config = HttpConfig {
            public_url: Some("https://dt.example.com/app/".into()),
            ..HttpConfig::default()
        };
        assert_eq!(
            config.public_origin().unwrap().as_deref(),
            Some("https://dt.example.com")
        );
        let bad = HttpConfig {
            public_url: Some("ftp://x".into()),
            ..HttpConfig::default()
        };
        assert!(bad.validate().is_err());
    }
}
