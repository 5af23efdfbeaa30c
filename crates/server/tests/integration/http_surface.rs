//! What every response carries: security headers, CSRF refusal, health, OpenAPI, the SPA.

use crate::common;

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
        ("/api/v1/receipts/{id}", "put"),
        ("/api/v1/receipts/{id}", "get"),
        ("/api/v1/receipts/{id}", "delete"),
    ] {
        assert!(
            paths.get(path).and_then(|p| p.get(method)).is_some(),
            "{method} {path} missing"
        );
    }
    assert!(reply.body["components"]["schemas"]["ErrorBody"].is_object());
    assert!(reply.body["components"]["schemas"]["UserView"].is_object());
    for schema in [
        "StatementCheckData",
        "ExpenseData",
        "VehicleData",
        "MileageData",
        "SettingsData",
        "ReceiptView",
    ] {
        assert!(
            reply.body["components"]["schemas"][schema].is_object(),
            "{schema} missing"
        );
    }
}

#[tokio::test]
async fn client_routes_fall_back_to_the_web_app() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    // Not `/` or `/login`: once the web app is built, those two come prerendered.
    let shallow = app.get("/app/dashboard", None).await;
    let deep = app.get("/app/profile/anything/deeper", None).await;
    assert_eq!(shallow.status, deep.status);
    assert_eq!(
        shallow.text, deep.text,
        "client routes serve the same index document"
    );
    assert!(
        shallow.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
}

/// Every route that reads a JSON body documents, and gives, the answers its extractor makes
/// before the handler runs: 400 bad-json, 413 too large and 415 not JSON.
#[tokio::test]
async fn json_routes_document_and_give_their_rejections() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let spec = app.get("/api/openapi.json", None).await.body;
    let json_routes = [
        "/api/v1/auth/signup",
        "/api/v1/auth/login",
        "/api/v1/auth/password",
        "/api/v1/auth/link/password",
        "/api/v1/auth/phone/send",
        "/api/v1/auth/phone/verify",
        "/api/v1/contact",
        "/api/v1/sync/push",
    ];
    for path in json_routes {
        let responses = &spec["paths"][path]["post"]["responses"];
        for status in ["400", "413", "415"] {
            assert_eq!(
                responses[status]["content"]["application/json"]["schema"]["$ref"],
                "#/components/schemas/ErrorBody",
                "{path} does not document {status}"
            );
        }
    }

    let (cookie, _) = app.sign_up("driver@example.com", "van-route-42").await;
    // Phone sign-in is off here (no SMS sender), so its routes are checked in the document only.
    for path in json_routes.iter().filter(|p| !p.contains("/phone/")) {
        let send = |content_type: &'static str, body: String| {
            common::read(
                app.http
                    .post(format!("{}{path}", app.base))
                    .header("cookie", &cookie)
                    .header("content-type", content_type)
                    .body(body),
            )
        };
        let bad = send("application/json", "{\"email\": ".into()).await;
        assert_eq!(
            (bad.status, bad.error_code()),
            (StatusCode::BAD_REQUEST, "bad-json"),
            "{path}"
        );
        let not_json = send("text/plain", "{}".into()).await;
        assert_eq!(
            (not_json.status, not_json.error_code()),
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type"),
            "{path}"
        );
    }
}

/// Answers carrying a signed-in user's data are never kept by a browser or proxy cache.
#[tokio::test]
async fn signed_in_answers_are_not_cached() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let (cookie, _) = app.sign_up("driver@example.com", "van-route-42").await;
    for path in [
        "/api/v1/auth/session",
        "/api/v1/sync/pull?cursor=0",
        "/api/v1/auth/sessions",
    ] {
        let reply = app.get(path, Some(&cookie)).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.text);
        assert_eq!(reply.headers["cache-control"], "no-store", "{path}");
    }
}

/// A browser asks for gzip on every request. A large answer comes back compressed; a small one,
/// such as a signed-in session or a push's answer, comes back as it is, since gzip would cost
/// more CPU than the few bytes it saves.
#[tokio::test]
async fn only_answers_worth_compressing_are_gzipped() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let (cookie, _) = app
        .sign_up("gzip@example.com", "correct horse battery")
        .await;
    let encoding = |path: &'static str| {
        let (http, base, cookie) = (app.http.clone(), app.base.clone(), cookie.clone());
        async move {
            let reply = http
                .get(format!("{base}{path}"))
                .header("accept-encoding", "gzip")
                .header("cookie", cookie)
                .send()
                .await
                .unwrap();
            assert_eq!(reply.status(), StatusCode::OK, "{path}");
            let encoding = reply
                .headers()
                .get("content-encoding")
                .map(|v| v.to_str().unwrap().to_owned());
            (encoding, reply.bytes().await.unwrap().len())
        }
    };
    let (small, small_len) = encoding("/api/v1/auth/session").await;
    assert_eq!(small, None, "a {small_len}-byte answer");
    // Big enough that gzip's default floor (32 bytes) would have compressed it.
    assert!(
        (200..1024).contains(&small_len),
        "the signed-in session is {small_len} bytes"
    );
    let (large, large_len) = encoding("/api/openapi.json").await;
    assert_eq!(large.as_deref(), Some("gzip"));
    assert!(large_len > 1024, "gzipped, still {large_len} bytes");
}
