//! A real OpenID provider for the tests: `web/e2e/oidc-provider.mjs` (the npm oidc-provider)
//! run with node, and a driver that walks a sign-in through it the way a browser would.
//! Without web/node_modules the OpenID tests are skipped, except under CI where they fail.

use std::{
    collections::BTreeMap,
    io::{BufRead, BufReader},
    path::PathBuf,
    process::{Child, ChildStdin, Command, Stdio},
    time::Duration,
};

use reqwest::{StatusCode, redirect::Policy};
use serde_json::Value;
use tokio::net::TcpListener;

use server::config::Config;

use super::{Backend, TestApp, spawn_app_on_listener, store_for};

pub const CLIENT_ID: &str = "delivery-tracker";
pub const CLIENT_SECRET: &str = "test-client-secret";

/// The provider process, stopped (by its PID) when dropped.
pub struct OidcProvider {
    child: Child,
    /// Held open: the fixture exits by itself when this pipe closes (e.g. the test crashed).
    _stdin: ChildStdin,
    pub issuer: String,
}

impl Drop for OidcProvider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn web_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn provider_missing(why: &str) -> Option<OidcProvider> {
    assert!(
        std::env::var("CI").is_err(),
        "CI must provide the OpenID provider (npm ci in web/) so OpenID sign-in is tested: {why}"
    );
    eprintln!("skipping OpenID case: {why} (run npm ci in web/)");
    None
}

/// Starts the provider with one client whose redirect URI is `redirect_uri`.
pub async fn start_provider(redirect_uri: &str) -> Option<OidcProvider> {
    let web = web_dir();
    if !web.join("node_modules/oidc-provider").is_dir() {
        return provider_missing("web/node_modules/oidc-provider is missing");
    }
    let spawned = Command::new("node")
        .current_dir(&web)
        .args(["e2e/oidc-provider.mjs", "--redirect-uri", redirect_uri])
        .args(["--client-id", CLIENT_ID, "--client-secret", CLIENT_SECRET])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(err) => return provider_missing(&format!("node could not start: {err}")),
    };
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let ready = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).map(|_| line)
    });
    let line = tokio::time::timeout(Duration::from_secs(60), ready).await;
    let mut provider = OidcProvider {
        child,
        _stdin: stdin,
        issuer: String::new(),
    };
    let line = match line {
        Ok(Ok(Ok(line))) if !line.trim().is_empty() => line,
        _ => panic!("the OpenID provider did not start (node e2e/oidc-provider.mjs in web/)"),
    };
    let ready: Value = serde_json::from_str(&line).expect("provider's ready line");
    provider.issuer = ready["issuer"].as_str().unwrap().to_owned();
    Some(provider)
}

/// A server configured for a freshly started provider (PUBLIC_URL = the server's address).
pub async fn spawn_oidc_app(backend: Backend) -> Option<(TestApp, OidcProvider)> {
    spawn_oidc_app_with(backend, |_| {}).await
}

/// As `spawn_oidc_app`, with `tweak` applied to the configuration last.
pub async fn spawn_oidc_app_with(
    backend: Backend,
    tweak: impl FnOnce(&mut Config),
) -> Option<(TestApp, OidcProvider)> {
    let store = store_for(backend).await?;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let provider = start_provider(&format!("{base}/api/v1/auth/oidc/callback")).await?;
    let issuer = provider.issuer.clone();
    let app = spawn_app_on_listener(store, listener, move |config| {
        config.http.public_url = Some(base);
        config.oidc.oidc_issuer = Some(issuer);
        config.oidc.oidc_client_id = Some(CLIENT_ID.into());
        config.oidc.oidc_client_secret = Some(CLIENT_SECRET.into());
        tweak(config);
    })
    .await;
    Some((app, provider))
}

/// A sign-in stopped just before the provider sends the browser back to us.
#[derive(Debug, Clone)]
pub struct Authorized {
    /// The provider's redirect to our callback (`code`, `state`, `iss`).
    pub callback_url: String,
    /// `name=value` of the cookie `/start` set to bind the sign-in to this browser.
    pub binding_cookie: String,
    /// Where `/start` sent the browser (the authorization request).
    pub authorization_url: String,
}

impl Authorized {
    pub fn param(&self, name: &str) -> String {
        query_param(&self.callback_url, name).unwrap_or_else(|| panic!("no {name} in callback"))
    }
}

pub fn query_param(url: &str, name: &str) -> Option<String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap()
}

/// `/start` (with the session cookie, for `link`), then the provider as `account` (its
/// `login_hint`), following redirects with a cookie jar until it points back at the app.
pub async fn authorize(
    app: &TestApp,
    account: &str,
    session: Option<&str>,
    link: bool,
) -> Authorized {
    let http = no_redirects();
    let path = if link {
        "/api/v1/auth/oidc/start?link=1"
    } else {
        "/api/v1/auth/oidc/start"
    };
    let mut start = http.get(format!("{}{path}", app.base));
    if let Some(cookie) = session {
        start = start.header("cookie", cookie);
    }
    let start = start.send().await.unwrap();
    assert_eq!(start.status(), StatusCode::SEE_OTHER, "start redirects");
    let binding_cookie = start
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("__Host-oidc=") || c.starts_with("oidc="))
        .map(|c| c.split(';').next().unwrap().to_owned())
        .expect("binding cookie");
    let authorization_url = start.headers()["location"].to_str().unwrap().to_owned();
    let mut url = url::Url::parse(&authorization_url).unwrap();
    url.query_pairs_mut().append_pair("login_hint", account);
    let mut jar = BTreeMap::<String, String>::new();
    for _ in 0..10 {
        let cookies = jar
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        let response = http
            .get(url.clone())
            .header("cookie", cookies)
            .send()
            .await
            .unwrap();
        for set in response.headers().get_all("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap();
            if let Some((name, value)) = pair.split_once('=') {
                jar.insert(name.to_owned(), value.to_owned());
            }
        }
        assert!(
            response.status().is_redirection(),
            "provider answered {} at {url}",
            response.status()
        );
        let location = response.headers()["location"].to_str().unwrap();
        let next = url.join(location).unwrap();
        if next.as_str().starts_with(&app.base) {
            return Authorized {
                callback_url: next.to_string(),
                binding_cookie,
                authorization_url,
            };
        }
        url = next;
    }
    panic!("the provider never redirected back");
}

/// What the popup's page reported, and whether it signed the browser in.
#[derive(Debug)]
pub struct Landing {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub html: String,
    /// The object posted to the opener.
    pub result: Value,
    pub session_cookie: Option<String>,
}

impl Landing {
    pub fn error(&self) -> &str {
        self.result["error"].as_str().unwrap_or("<none>")
    }
}

/// Loads a callback (or any popup page) URL with the given cookies.
pub async fn land(url: &str, cookies: &[&str]) -> Landing {
    let response = no_redirects()
        .get(url)
        .header("cookie", cookies.join("; "))
        .send()
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let html = response.text().await.unwrap();
    let session_cookie = headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| {
            (c.starts_with("__Host-session=") || c.starts_with("session="))
                && !c.contains("Max-Age=0")
        })
        .map(|c| c.split(';').next().unwrap().to_owned());
    let result = html
        .split("var result = ")
        .nth(1)
        .and_then(|rest| rest.split(";\n").next())
        .map_or(Value::Null, |json| {
            serde_json::from_str(json).expect("result JSON")
        });
    Landing {
        status,
        headers,
        html,
        result,
        session_cookie,
    }
}

/// The whole popup: authorize as `account`, then land on the callback with the binding cookie.
pub async fn sign_in(app: &TestApp, account: &str, session: Option<&str>, link: bool) -> Landing {
    let authorized = authorize(app, account, session, link).await;
    let mut cookies = vec![authorized.binding_cookie.as_str()];
    if let Some(session) = session {
        cookies.push(session);
    }
    land(&authorized.callback_url, &cookies).await
}
