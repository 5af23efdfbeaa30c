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
    // The landing and login pages come prerendered (web/scripts/prerender.ts): their own
    // markup is the first paint, before any JS. Every other route gets the neutral shell.
    if let Some(response) = prerendered_page(path).and_then(|page| asset(&page)) {
        return response;
    }
    asset("index.html").unwrap_or_else(not_built)
}

/// Where the build puts a one-segment route's prerendered page: `pages/<route>.html`, and
/// `pages/index.html` for `/`. Anything else (more segments, dots, odd bytes) has none.
fn prerendered_page(path: &str) -> Option<String> {
    let route = if path.is_empty() { "index" } else { path };
    route
        .bytes()
        .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-')
        .then(|| format!("pages/{route}.html"))
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

#[cfg(test)]
mod tests {
    use super::prerendered_page;

    #[test]
    fn a_one_segment_route_maps_to_its_prerendered_page() {
        assert_eq!(prerendered_page("").as_deref(), Some("pages/index.html"));
        assert_eq!(
            prerendered_page("login").as_deref(),
            Some("pages/login.html")
        );
        assert_eq!(
            prerendered_page("tax-year2").as_deref(),
            Some("pages/tax-year2.html")
        );
    }

    #[test]
    fn other_paths_have_no_prerendered_page() {
        for path in [
            "app/dashboard",
            "../index",
            "login.html",
            "Login",
            "login/",
            "%2e%2e",
            "a b",
        ] {
            assert_eq!(prerendered_page(path), None, "{path}");
        }
    }
}
