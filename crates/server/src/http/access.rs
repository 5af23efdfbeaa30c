//! One span per request, carrying the method, the matched route and (once the session extractor
//! has resolved it) the user id, so every log line a handler writes says whose request it was;
//! and one access line per request when the answer's head is ready, counted in `/metrics`.
//!
//! Only the route template is logged (`/api/v1/sync/push`, never the raw path or its query
//! string, which can carry ids or OAuth codes), and no headers, cookies or bodies.

use std::{sync::Arc, time::Instant};

use axum::{
    extract::{MatchedPath, Request, State},
    middleware::Next,
    response::Response,
};
use tracing::{Instrument, Span, field};

use crate::metrics::Metrics;

/// The route of requests no route matched: the fallback answers them with the web app's files,
/// its `index.html` for client-side routes, or the API's JSON 404.
const FALLBACK: &str = "fallback";

/// Wraps the request in its span and writes the access line: INFO, or DEBUG for the health
/// check (probed every few seconds by load balancers) and the fallback (mostly the web app's
/// files: dozens per page load, fingerprinted, not an operator's concern) unless those fail
/// with a 5xx.
pub async fn access_log(
    State(metrics): State<Arc<Metrics>>,
    request: Request,
    next: Next,
) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(FALLBACK, |path| path.as_str())
        .to_owned();
    let quiet = route == "/healthz" || route == FALLBACK;
    let span = tracing::info_span!(
        "request",
        method = %request.method(),
        route = %route,
        user_id = field::Empty,
    );
    let started = Instant::now();
    let response = next.run(request).instrument(span.clone()).await;
    let status = response.status().as_u16();
    let latency_ms = started.elapsed().as_millis();
    metrics.request(&route, status);
    let _in_request = span.enter();
    if quiet && status < 500 {
        tracing::debug!(status, latency_ms, "answered");
    } else {
        tracing::info!(status, latency_ms, "answered");
    }
    response
}

/// Records the signed-in user on the current request's span (called by the session extractor).
pub fn record_user(user_id: uuid::Uuid) {
    Span::current().record("user_id", field::display(user_id));
}
