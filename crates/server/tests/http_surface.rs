//! What every response carries: security headers, CSRF refusal, health, OpenAPI, the SPA.

mod common;

use common::{Backend, spawn_app};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn security_headers_on_api_and_pages() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    for path in ["/healthz", "/", "/app/dashboard", "/api/v1/auth/session"] {
        let reply = app.get(path, None).await;
        let h = &reply.headers;
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(
            h["cross-origin-opener-policy"], "same-origin-allow-popups",
            "{path}"
        );
        assert_eq!(h["cross-origin-resource-policy"], "same-origin", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert!(
            h["referrer-policy"].to_str().unwrap().contains("origin"),
            "{path}"
        );
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("script-src 'self' 'unsafe-inline'"),
            "{csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(
            h.get("strict-transport-security").is_none(),
            "no HSTS on plain http"
        );
    }
}

#[tokio::test]
async fn health_reports_ok() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let reply = app.get("/healthz", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body, json!({"status": "ok"}));
}

#[tokio::test]
async fn openapi_describes_every_route() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let reply = app.get("/api/openapi.json", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    let paths = reply.body["paths"].as_object().unwrap();
    for (path, method) in [
        ("/healthz", "get"),
        ("/api/v1/auth/signup", "post"),
        ("/api/v1/auth/login", "post"),
        ("/api/v1/auth/guest", "post"),
        ("/api/v1/auth/logout", "post"),
        ("/api/v1/auth/session", "get"),
        ("/api/v1/sync/push", "post"),
        ("/api/v1/sync/pull", "get"),
        ("/api/v1/sync/events", "get"),
        ("/api/v1/contact", "post"),
        ("/api/v1/billing/checkout", "post"),
        ("/api/v1/billing/webhook", "post"),
        ("/api/v1/profile/photo", "post"),
        ("/api/v1/files/users/{uid}/{name}", "get"),
    ] {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} missing"
        );
    }
    assert!(reply.body["components"]["schemas"]["ErrorBody"].is_object());
    assert!(reply.body["components"]["schemas"]["UserView"].is_object());
    assert!(reply.body["components"]["schemas"]["InvoiceData"].is_object());
}

#[tokio::test]
async fn client_routes_fall_back_to_the_web_app() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let root = app.get("/", None).await;
    let deep = app.get("/app/profile", None).await;
    assert_eq!(root.status, deep.status);
    assert_eq!(
        root.text, deep.text,
        "client routes serve the same index document"
    );
    assert!(
        root.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
}
