//! The built web app, embedded in the binary so the binary alone is the deployable.
//! Client-side routes get `index.html`; unknown `/api/*` paths get a JSON 404.

use axum::{
    http::{HeaderValue, Method, StatusCode, Uri, header},
    response::{Html, IntoResponse, Response},
};
use rust_embed::RustEmbed;

use crate::error::AppError;

#[derive(RustEmbed)]
#[folder = "$WEB_DIST"]
#[allow_missing = true]
struct WebApp;

pub async fn serve_web_app(method: Method, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path == "api" || path.starts_with("api/") {
        return AppError::not_found().into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return AppError::client(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            "Method not allowed",
        )
        .into_response();
    }
    if let Some(response) = asset(path) {
        return response;
    }
    asset("index.html").unwrap_or_else(not_built)
}

fn asset(path: &str) -> Option<Response> {
    if path.is_empty() {
        return None;
    }
    let file = WebApp::get(path)?;
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    // Vite fingerprints everything under assets/; the rest must be revalidated so a new
    // release (and its service worker) is picked up.
    let cache = if path.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = file.data.into_owned().into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(mime.as_ref())
            .unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Some(response)
}

fn not_built() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Html(
            "<!doctype html><title>Delivery Tracker</title><p>The web app was not built into \
              this binary. Build it with <code>make run</code>.</p>",
        ),
    )
        .into_response()
}
