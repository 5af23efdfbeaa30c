//! Security headers on every response and the CSRF check on state-changing requests.

use axum::{
    extract::{Request, State},
    http::{HeaderName, HeaderValue, Method, StatusCode, header},
    middleware::Next,
    response::Response,
};

use crate::{AppState, error::error_response};

/// `style-src 'unsafe-inline'` covers style attributes set by React; scripts stay strict.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                   img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; \
                   worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; \
                   form-action 'self'; frame-ancestors 'none'";

/// The security headers every answer carries unless it set its own, added in one pass
/// (`finish_response`): a layer per header (eight, nine with HSTS) and a middleware for the
/// 408/413 bodies were as many nested futures and boxed services on every request.
const HEADERS: [(HeaderName, HeaderValue); 8] = [
    (
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    ),
    (
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    ),
    (
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    ),
    (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
    (
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin-allow-popups"),
    ),
    (
        HeaderName::from_static("cross-origin-resource-policy"),
        HeaderValue::from_static("same-origin"),
    ),
    (
        HeaderName::from_static("permissions-policy"),
        HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=()"),
    ),
    // Answers carry a user's data unless they say otherwise (the web app's assets and
    // pictures set their own): no browser or proxy cache may keep them.
    (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
];

/// Finishes every answer on its way out: the JSON body for a bare 408 or 413
/// (`error::json_error_statuses`), then the security headers (HSTS too when served over
/// https), each unless the answer set its own.
pub fn finish_response(hsts: bool) -> impl Fn(Response) -> Response + Clone + Send + Sync {
    move |response| {
        let mut response = crate::error::json_error_statuses(response);
        let headers = response.headers_mut();
        for (name, value) in &HEADERS {
            if !headers.contains_key(name) {
                headers.insert(name.clone(), value.clone());
            }
        }
        if hsts && !headers.contains_key(header::STRICT_TRANSPORT_SECURITY) {
            headers.insert(
                header::STRICT_TRANSPORT_SECURITY,
                HeaderValue::from_static("max-age=31536000; includeSubDomains"),
            );
        }
        response
    }
}

/// Refuses cross-site state-changing requests (Fetch Metadata first, then Origin).
/// Requests with neither header come from non-browser clients, which carry no ambient
/// cookies to abuse, and are let through.
pub async fn csrf_guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if is_safe_method(request.method()) || is_same_origin(&state, &request) {
        return next.run(request).await;
    }
    tracing::warn!(method = %request.method(), path = request.uri().path(), "cross-site request refused");
    error_response(
        StatusCode::FORBIDDEN,
        "csrf",
        "Cross-site request refused",
        None,
    )
}

fn is_safe_method(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

fn is_same_origin(state: &AppState, request: &Request) -> bool {
    let headers = request.headers();
    if let Some(site) = headers.get("sec-fetch-site") {
        return matches!(site.as_bytes(), b"same-origin" | b"none");
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    if let Some(public) = state.public_origin.as_deref() {
        return origin.eq_ignore_ascii_case(public);
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    ["http://", "https://"].iter().any(|scheme| {
        origin.len() == scheme.len() + host.len()
            && origin[..scheme.len()].eq_ignore_ascii_case(scheme)
            && origin[scheme.len()..].eq_ignore_ascii_case(host)
    })
}
