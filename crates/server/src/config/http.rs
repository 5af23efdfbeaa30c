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

    /// The warning for the trap of a server reached over plain http on the network: browsers
    /// keep a Secure cookie only over https or on localhost, so a phone that opens
    /// `http://192.168.1.20:8080` signs up (201) and is signed out again at once. None when
    /// browsers can keep the cookie: only loopback listens, PUBLIC_URL is https (a proxy in
    /// front), or COOKIE_SECURE is off.
    pub fn plain_http_warning(&self) -> Option<String> {
        if !self.cookie_secure {
            return None;
        }
        let origin = self.public_origin().ok().flatten();
        let reached_at = match origin.as_deref() {
            Some(origin) if origin.starts_with("https://") => return None,
            Some(origin) if is_localhost_origin(origin) => return None,
            Some(origin) => format!("PUBLIC_URL is {origin}"),
            None if self.listen.ip().is_loopback() => return None,
            None => format!(
                "LISTEN {} is reachable from other devices over plain http",
                self.listen
            ),
        };
        Some(format!(
            "{reached_at}, but the sign-in cookie is Secure (COOKIE_SECURE=true), which browsers \
             keep only over https or on localhost: a phone opening this server by its address \
             signs up and stays signed out. Fix: put an https proxy in front and set \
             PUBLIC_URL=https://your.domain (docs/installing.md), or, on a network you trust, \
             set COOKIE_SECURE=false"
        ))
    }
}

/// `http://localhost`, `http://127.x.x.x` and `http://[::1]`: origins browsers treat as
/// secure, where a Secure cookie is kept without https.
fn is_localhost_origin(origin: &str) -> bool {
    let host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.split_once(']'))
        .map_or_else(|| host.split(':').next().unwrap_or(host), |(h, _)| h);
    host == "localhost"
        || host.ends_with(".localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
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

    #[test]
    fn plain_http_on_the_network_with_a_secure_cookie_is_warned_about() {
        let config = |listen: &str, public_url: Option<&str>, cookie_secure: bool| HttpConfig {
            listen: listen.parse().unwrap(),
            public_url: public_url.map(Into::into),
            cookie_secure,
            trust_proxy: false,
        };
        for (listen, public_url) in [
            ("0.0.0.0:8080", None),
            ("192.168.1.20:8080", None),
            ("[::]:8080", None),
            ("0.0.0.0:8080", Some("http://192.168.1.20:8080")),
            ("127.0.0.1:8080", Some("http://tracker.lan")),
        ] {
            let warning = config(listen, public_url, true)
                .plain_http_warning()
                .unwrap_or_else(|| panic!("{listen} {public_url:?}: no warning"));
            assert!(
                warning.contains("COOKIE_SECURE=false") && warning.contains("PUBLIC_URL=https://"),
                "{warning}"
            );
        }
        for (listen, public_url, secure) in [
            ("127.0.0.1:8080", None, true),
            ("[::1]:8080", None, true),
            ("0.0.0.0:8080", Some("https://tracker.example.com"), true),
            ("0.0.0.0:8080", Some("http://localhost:8080"), true),
            ("0.0.0.0:8080", Some("http://127.0.0.1:8080"), true),
            ("0.0.0.0:8080", Some("http://[::1]:8080"), true),
            ("0.0.0.0:8080", None, false),
        ] {
            assert_eq!(
                config(listen, public_url, secure).plain_http_warning(),
                None,
                "{listen} {public_url:?} {secure}"
            );
        }
    }
}
