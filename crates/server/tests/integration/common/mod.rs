//! Test harness: a real server on a loopback port over SQLite (always) or PostgreSQL (when
//! TEST_DATABASE_URL is set; each test gets its own schema).
#![allow(dead_code)]

pub mod binary;
pub mod migrations;
pub mod oidc;
pub mod phone;
pub mod pictures;
pub mod smtp;

use std::{net::SocketAddr, sync::Arc};

use reqwest::{Method, StatusCode, header::HeaderMap};
use serde_json::{Value, json};
use server::{
    AppState, Services,
    auth::clock::{Clock, ManualTime},
    config::Config,
    store::{
        DynStore,
        postgres::PgStore,
        sqlite::{SqliteStore, Synchronous},
    },
};
use tempfile::TempDir;
use tokio::{net::TcpListener, sync::oneshot};

#[derive(Debug, Clone, Copy)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestStore {
    pub store: DynStore,
    pub dir: TempDir,
}

pub async fn sqlite_store() -> TestStore {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("test.db"), Synchronous::Normal)
        .await
        .unwrap();
    TestStore {
        store: Arc::new(store),
        dir,
    }
}

/// A store in a fresh schema, or None when no PostgreSQL is configured (CI always sets it:
/// there a missing URL is an error, so the PostgreSQL half can never silently vanish).
pub async fn postgres_store() -> Option<TestStore> {
    let config = fresh_postgres_schema().await?;
    Some(postgres_store_on(config).await)
}

/// The connection settings of a fresh, empty schema, or None when no PostgreSQL is configured.
pub async fn fresh_postgres_schema() -> Option<tokio_postgres::Config> {
    let Ok(url) = std::env::var("TEST_DATABASE_URL") else {
        assert!(
            std::env::var("CI").is_err(),
            "CI must set TEST_DATABASE_URL so the PostgreSQL store is tested"
        );
        eprintln!("skipping PostgreSQL case: TEST_DATABASE_URL is not set");
        return None;
    };
    let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
    let mut config: tokio_postgres::Config = url.parse().expect("TEST_DATABASE_URL");
    let (client, connection) = config
        .connect(tokio_postgres::NoTls)
        .await
        .expect("connect to PostgreSQL");
    tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE SCHEMA {schema}"))
        .await
        .unwrap();
    config.options(format!("-c search_path={schema}"));
    Some(config)
}

/// A store on an existing schema: two of these on one schema are two server processes
/// sharing one database.
pub async fn postgres_store_on(config: tokio_postgres::Config) -> TestStore {
    let store = PgStore::from_config(config)
        .await
        .expect("PostgreSQL store");
    TestStore {
        store: Arc::new(store),
        dir: tempfile::tempdir().unwrap(),
    }
}

pub async fn store_for(backend: Backend) -> Option<TestStore> {
    match backend {
        Backend::Sqlite => Some(sqlite_store().await),
        Backend::Postgres => postgres_store().await,
    }
}

pub struct TestApp {
    pub base: String,
    pub addr: SocketAddr,
    pub store: DynStore,
    pub http: reqwest::Client,
    _dir: TempDir,
    _stop: oneshot::Sender<()>,
}

pub async fn spawn_app(backend: Backend) -> Option<TestApp> {
    spawn_app_with(backend, |_| {}).await
}

pub async fn spawn_app_with(backend: Backend, tweak: impl FnOnce(&mut Config)) -> Option<TestApp> {
    Some(spawn_app_on(store_for(backend).await?, tweak).await)
}

/// A server on an existing store (e.g. a second one after the first stopped: a restart).
pub async fn spawn_app_on(test_store: TestStore, tweak: impl FnOnce(&mut Config)) -> TestApp {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    spawn_app_on_listener(test_store, listener, tweak).await
}

/// A server on a listener bound beforehand: for settings that name the server's own address
/// (PUBLIC_URL, an OpenID redirect URI registered at a provider before the server starts).
pub async fn spawn_app_on_listener(
    test_store: TestStore,
    listener: TcpListener,
    tweak: impl FnOnce(&mut Config),
) -> TestApp {
    serve_test_app(test_store, listener, tweak, |_| {}).await
}

/// A server whose e-mailed links (reset, invitation) read a hand-moved clock, and its handle.
pub async fn spawn_app_with_link_clock(
    backend: Backend,
    tweak: impl FnOnce(&mut Config),
) -> Option<(TestApp, ManualTime)> {
    let test_store = store_for(backend).await?;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (clock, time) = Clock::manual();
    let app = serve_test_app(test_store, listener, tweak, |services| {
        services.email_links.clock = clock;
    })
    .await;
    Some((app, time))
}

async fn serve_test_app(
    test_store: TestStore,
    listener: TcpListener,
    tweak: impl FnOnce(&mut Config),
    services: impl FnOnce(&mut Services),
) -> TestApp {
    let TestStore { store, dir } = test_store;
    let mut config = Config::for_data_dir(dir.path());
    // Generous defaults so only the rate-limit tests ever trip a limit.
    config.rate_limits.auth_rate_limit_per_minute = 10_000;
    config.rate_limits.login_rate_limit_per_minute = 10_000;
    config.rate_limits.contact_rate_limit_per_minute = 10_000;
    config.rate_limits.password_reset_per_address_per_hour = 10_000;
    config.rate_limits.password_reset_per_client_per_hour = 10_000;
    config.uploads.uploads_per_user_per_minute = 10_000;
    tweak(&mut config);
    let mut state = AppState::new(config, store.clone()).unwrap();
    services(state.services_mut().expect("not shared yet"));
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server::serve(listener, state, async {
        let _ = stopped.await;
    }));
    TestApp {
        base: format!("http://{addr}"),
        addr,
        store,
        http: reqwest::Client::new(),
        _dir: dir,
        _stop: stop,
    }
}

/// A response, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    pub text: String,
}

impl Reply {
    /// The `name=value` part of the session cookie this response set.
    pub fn session_cookie(&self) -> Option<String> {
        self.headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with("__Host-session=") || c.starts_with("session="))
            .map(|c| c.split(';').next().unwrap().to_owned())
    }

    /// `GET /auth/session` said nobody is signed in: 200 `{"user": null}` (not an error, so a
    /// browser logs nothing for a signed-out visit).
    #[track_caller]
    pub fn assert_signed_out(&self, context: &str) {
        assert_eq!(self.status, StatusCode::OK, "{context}: {}", self.text);
        assert_eq!(
            self.body,
            serde_json::json!({ "user": null }),
            "{context}: {}",
            self.text
        );
    }

    pub fn error_code(&self) -> &str {
        self.body["error"]["code"]
            .as_str()
            .unwrap_or("<no error code>")
    }
}

impl TestApp {
    /// The server's DATA_DIR (a temporary directory).
    pub fn data_dir(&self) -> &std::path::Path {
        self._dir.path()
    }

    /// The database as another process (the admin CLI) sees it. On SQLite a second connection to
    /// the same file: its commits reach the server only through the server's watch of the file.
    /// On PostgreSQL the same store: its `announce` goes through NOTIFY, as the CLI's does.
    pub async fn outside_store(&self, backend: Backend) -> DynStore {
        match backend {
            Backend::Sqlite => Arc::new(
                SqliteStore::open(&self.data_dir().join("test.db"), Synchronous::Normal)
                    .await
                    .unwrap(),
            ),
            Backend::Postgres => self.store.clone(),
        }
    }

    pub async fn request(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        cookie: Option<&str>,
    ) -> Reply {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        read(request).await
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.request(Method::POST, path, Some(body), None).await
    }

    pub async fn get(&self, path: &str, cookie: Option<&str>) -> Reply {
        self.request(Method::GET, path, None, cookie).await
    }

    /// Pushes `mutations` as device-1.
    pub async fn push(&self, cookie: &str, mutations: Vec<Value>) -> Reply {
        self.request(
            Method::POST,
            "/api/v1/sync/push",
            Some(json!({"clientId": "device-1", "mutations": mutations})),
            Some(cookie),
        )
        .await
    }

    /// Signs up a fresh account and returns (cookie, user JSON).
    pub async fn sign_up(&self, email: &str, password: &str) -> (String, Value) {
        let reply = self
            .post(
                "/api/v1/auth/signup",
                json!({"email": email, "password": password}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        (
            reply.session_cookie().expect("session cookie"),
            reply.body["user"].clone(),
        )
    }
}

pub async fn read(request: reqwest::RequestBuilder) -> Reply {
    let response = request.send().await.expect("request sent");
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
        text,
    }
}

/// A push quota of `max_records` records and room for every replay record a test makes.
pub fn quota(max_records: i64) -> server::store::PushQuota {
    server::store::PushQuota {
        max_records,
        max_replays: 1_000_000,
    }
}

/// A guest account (no email, name or password) with a new time-ordered id, made at 1,000 ms.
pub fn guest_user() -> server::store::NewUser {
    server::store::NewUser {
        id: uuid::Uuid::now_v7(),
        email: None,
        display_name: None,
        password_hash: None,
        is_anonymous: true,
        now_ms: 1_000,
    }
}

/// Runs each listed async test fn once per backend: `mod sqlite` and `mod postgres`.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name($crate::common::Backend::Sqlite).await; })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name($crate::common::Backend::Postgres).await; })*
        }
    };
}
