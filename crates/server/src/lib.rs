//! Delivery Tracker server as a library: `app(state)` builds the router (for in-process
//! tests), `serve(listener, state, shutdown)` runs it on a real socket.

pub mod admin;
pub mod auth;
pub mod backup;
pub mod billing;
pub mod config;
pub mod contact;
pub mod couriers;
pub mod deductions;
pub mod entries;
pub mod error;
pub mod evidence;
pub mod evidence_bundle;
pub mod expenses;
pub mod files;
pub mod fuel_fills;
pub mod healthcheck;
pub mod housekeeping;
pub mod http;
pub mod mail;
pub mod metrics;
pub mod mileage;
pub mod notify;
pub mod quotas;
pub mod rate_cards;
pub mod records;
pub mod registry;
pub mod sent_updates;
pub mod startup;
pub mod statement_checks;
pub mod statement_formats;
pub mod statement_lines;
pub mod statement_queries;
pub mod store;
pub mod sync;
pub mod unix_users;
pub mod vehicles;
pub mod words;

use std::{future::Future, sync::Arc, time::Duration};

use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, State},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use serde::Serialize;
use tokio::net::TcpListener;
use tower::{ServiceBuilder, util::MapResponseLayer};
use tower_http::{
    catch_panic::CatchPanicLayer,
    compression::{
        CompressionLayer,
        predicate::{NotForContentType, Predicate as _, SizeAbove},
    },
    timeout::TimeoutLayer,
};
use utoipa::{OpenApi, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    auth::{password::PasswordHasher, rate_limit::AuthLimits, session::SessionManager},
    config::Config,
    error::{AppError, error_response},
    store::DynStore,
};

/// JSON bodies above this are refused with 413 before they are parsed.
pub const JSON_BODY_LIMIT: usize = 1024 * 1024;
/// On shutdown, an e-mail being sent gets this long to finish (it is retried later if not).
const MAILER_STOP_GRACE: Duration = Duration::from_secs(10);

/// What every handler shares. Axum clones the state for each extractor and middleware that
/// asks for it, several times per request: as one `Arc` that is one reference count, where
/// cloning the services one by one was 3 % of a push's CPU in profiles.
#[derive(Clone)]
pub struct AppState(Arc<Services>);

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

pub struct Services {
    pub config: Arc<Config>,
    pub public_origin: Option<Arc<str>>,
    pub store: DynStore,
    pub sessions: SessionManager,
    pub passwords: PasswordHasher,
    pub limits: AuthLimits,
    pub notifier: notify::Notifier,
    pub contact_limit: contact::ContactLimit,
    /// E-mails contact messages to the operator when SMTP is configured.
    pub contact_mailer: Option<contact::mailer::ContactMailer>,
    /// Uploaded pictures: the file store and the decode bound.
    pub files: files::Files,
    /// Checkout settings when a payment provider is configured.
    pub stripe: Option<Arc<config::StripeConfig>>,
    /// Outbound HTTP (the payment provider's API, the SMS provider's).
    pub http: reqwest::Client,
    /// Phone sign-in, when an SMS sender is configured.
    pub phone: Option<auth::phone::PhoneAuth>,
    /// The OpenID provider ("Sign in with Google") when configured.
    pub oidc: Option<Arc<auth::oidc::Provider>>,
    /// Push volume and guest creation limits, and the records quota.
    pub quotas: quotas::Quotas,
    /// Counters and gauges served at `/metrics`.
    pub metrics: Arc<metrics::Metrics>,
    /// The connection bounds in force (from the open-file limit at start).
    pub connection_limits: config::ConnectionLimits,
    /// The event streams' share of the connection slots.
    pub stream_slots: http::connections::StreamSlots,
    /// Password-reset and invitation links.
    pub email_links: auth::email_links::EmailLinks,
}

impl AppState {
    pub fn new(config: Config, store: DynStore) -> anyhow::Result<AppState> {
        config.validate()?;
        let public_origin = config.http.public_origin()?.map(Arc::from);
        let stripe = config.billing.stripe(&config.http)?.map(Arc::new);
        let oidc = config
            .oidc
            .settings(&config.http)?
            .map(auth::oidc::Provider::new)
            .transpose()?
            .map(Arc::new);
        let contact_mailer = config
            .smtp
            .contact_email()?
            .map(contact::mailer::ContactMailer::new)
            .transpose()?;
        let contact_limit = Arc::new(auth::rate_limit::Limiter::per_minute(
            config.rate_limits.contact_rate_limit_per_minute,
        ));
        let session_cache = auth::session_cache::SessionCache::new(
            config.sessions.session_cache_ttl(),
            auth::session_cache::CAPACITY,
        );
        let sessions = SessionManager::new(
            store.clone(),
            config.http.cookie_secure,
            config.sessions.session_idle(),
            config.sessions.session_max(),
            session_cache.clone(),
        );
        let limits = AuthLimits::new(
            config.rate_limits.auth_rate_limit_per_minute,
            config.rate_limits.login_rate_limit_per_minute,
        );
        let files = files::Files::from_config(&config)?;
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .build()?;
        let phone = auth::phone::PhoneAuth::from_config(&config, http.clone())?;
        let quota_limits = quotas::Quotas::new(&config.quotas);
        let connection_limits = config.connections.limits(
            http::connections::open_file_limit(),
            config.http.trust_proxy,
        );
        let stream_slots = http::connections::StreamSlots::new(&connection_limits);
        let email_links = auth::email_links::EmailLinks::from_config(&config)?;
        Ok(AppState(Arc::new(Services {
            config: Arc::new(config),
            public_origin,
            store,
            sessions,
            passwords: PasswordHasher::new()?,
            limits,
            notifier: notify::Notifier::new(session_cache),
            contact_limit,
            contact_mailer,
            files,
            stripe,
            http,
            phone,
            oidc,
            quotas: quota_limits,
            metrics: Arc::default(),
            connection_limits,
            stream_slots,
            email_links,
        })))
    }

    /// The services, to change before the state is shared (tests swap in a manual clock).
    pub fn services_mut(&mut self) -> Option<&mut Services> {
        Arc::get_mut(&mut self.0)
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Delivery Tracker API",
        description = "Self-hosted, offline-first delivery log."
    ),
    components(schemas(error::ErrorBody))
)]
struct ApiDoc;

#[derive(Serialize, ToSchema)]
struct Health {
    status: &'static str,
}

/// Liveness and database reachability.
#[utoipa::path(get, path = "/healthz", tag = "ops",
    responses((status = 200, body = Health), (status = 503, description = "database unreachable")))]
async fn healthz(State(state): State<AppState>) -> Response {
    match state.store.ping().await {
        Ok(()) => Json(Health { status: "ok" }).into_response(),
        Err(err) => {
            tracing::error!(error = %err, "health check failed");
            error_response(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "Database unreachable",
                None,
            )
        }
    }
}

/// The API's routes and their OpenAPI document (served at /api/openapi.json and written into
/// the web app's contract, `registry::contract`).
fn api_routes() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let (api, mut openapi) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(healthz))
        .nest("/api/v1/auth", auth::router())
        .nest("/api/v1/sync", sync::router())
        .merge(files::router())
        .merge(evidence_bundle::router())
        .nest("/api/v1/billing", billing::router())
        .nest("/api/v1/contact", contact::router())
        .split_for_parts();
    error::document_json_rejections(&mut openapi);
    (api, openapi)
}

/// The OpenAPI document the server serves.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api_routes().1
}

/// Answers smaller than this go out uncompressed. Every browser asks for gzip, and gzip's
/// set-up costs more than it saves on a small answer. Measured on a 309-byte session answer:
/// about 60 µs more server CPU (2-3× the whole request) to save 75 bytes. That includes every
/// push's answer. Pull pages and the web app's files are far larger and stay compressed.
const COMPRESS_ABOVE_BYTES: u16 = 1024;

/// The full router with every layer, as served.
pub fn app(state: AppState) -> Router {
    let (api, openapi) = api_routes();
    let openapi = Arc::new(openapi);

    let request_timeout = state.config.connections.request_timeout();
    let metrics = state.metrics.clone();
    let hsts = state
        .public_origin
        .as_deref()
        .is_some_and(|o| o.starts_with("https://"));
    let router = api
        .route(
            "/api/openapi.json",
            get(move || async move { Json(openapi.as_ref().clone()) }),
        )
        // Outside the OpenAPI document: an operator's endpoint, off by default.
        .route("/metrics", get(metrics::endpoint::scrape))
        .method_not_allowed_fallback(|| async {
            AppError::client(
                StatusCode::METHOD_NOT_ALLOWED,
                "method-not-allowed",
                "Method not allowed",
            )
        })
        .fallback(http::spa::serve_web_app)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::security::csrf_guard,
        ))
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT))
        .with_state(state);
    // Outermost first: the request span and access line, the finishing pass (JSON bodies for
    // bare 408/413, then the security headers), then the panic catcher, request timeout and
    // compression, so every answer (a timeout included) carries the headers and the error shape.
    let router = router.layer(
        ServiceBuilder::new()
            .layer(CatchPanicLayer::custom(|_panic| {
                error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "Something went wrong on the server. Please try again.",
                    None,
                )
            }))
            .layer(TimeoutLayer::with_status_code(
                StatusCode::REQUEST_TIMEOUT,
                request_timeout,
            ))
            .layer(
                CompressionLayer::new().compress_when(
                    SizeAbove::new(COMPRESS_ABOVE_BYTES)
                        .and(NotForContentType::GRPC)
                        .and(NotForContentType::IMAGES)
                        .and(NotForContentType::SSE),
                ),
            ),
    );
    let router = router.layer(MapResponseLayer::new(http::security::finish_response(hsts)));
    // A route layer, so the matched route is known when the span is made.
    router.layer(axum::middleware::from_fn_with_state(
        metrics,
        http::access::access_log,
    ))
}

/// Serves until `shutdown` resolves, then finishes in-flight requests.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_announced(listener, state, shutdown, || {}).await
}

/// As [`serve`], calling `ready` once everything is started and logged, just before the first
/// connection is accepted: the binary prints where to open the app there, as its last line.
pub async fn serve_announced(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
    ready: impl FnOnce(),
) -> std::io::Result<()> {
    let notifier = state.notifier.clone();
    let relay = state.store.start_signal_relay(state.notifier.clone());
    let stream_check = sync::stream_check::start(&state);
    let housekeeping = housekeeping::start(
        state.sessions.clone(),
        state.store.clone(),
        state.files.store.clone(),
        state.config.quotas.clone(),
    );
    let backups = backup::schedule::start(state.config.clone());
    let shutdown = async move {
        shutdown.await;
        notifier.close_all();
    };
    let (stop_mailer, mailer_stopped) = tokio::sync::watch::channel(false);
    let mailer = state
        .contact_mailer
        .clone()
        .map(|mailer| tokio::spawn(mailer.run(state.store.clone(), mailer_stopped)));
    let limits = state.connection_limits;
    tracing::info!(
        max_connections = limits.max_connections,
        max_per_ip = limits.max_per_ip,
        header_read_timeout_secs = limits.header_read_timeout.as_secs(),
        max_event_streams = limits.max_event_streams,
        event_streams_per_ip = limits.event_streams_per_ip,
        "connection limits"
    );
    ready();
    let outcome = http::connections::serve_bounded(listener, app(state), limits, shutdown).await;
    housekeeping.abort();
    stream_check.abort();
    if let Some(backups) = backups {
        backups.abort();
    }
    if let Some(relay) = relay {
        relay.abort();
    }
    let _ = stop_mailer.send(true);
    if let Some(mut mailer) = mailer
        && tokio::time::timeout(MAILER_STOP_GRACE, &mut mailer)
            .await
            .is_err()
    {
        mailer.abort();
    }
    outcome
}
