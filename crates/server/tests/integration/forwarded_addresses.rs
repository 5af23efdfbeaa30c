//! TRUST_PROXY with a last `X-Forwarded-For` hop that is not a plain address: the client is
//! unknown, never the socket peer (which behind a local proxy is loopback). So `/metrics`
//! wants its token, and the client counts in a bucket of its own rather than the proxy's.
//! A port after the address is dropped: the client is that address.

use crate::common;

use common::{Backend, TestApp, read, spawn_app_with};
use reqwest::StatusCode;
use serde_json::json;

const ODD_HOPS: &[&str] = &[
    "unknown",
    "",
    "0177.0.0.1",
    "_obfuscated",
    "[::1",
    "127.0.0.1:x",
];

async fn get_with(app: &TestApp, path: &str, forwarded: Option<&str>) -> common::Reply {
    let mut request = app.http.get(format!("{}{path}", app.base));
    if let Some(hop) = forwarded {
        request = request.header("x-forwarded-for", format!("198.51.100.1, {hop}"));
    }
    read(request).await
}

async fn login_from(app: &TestApp, forwarded: Option<&str>) -> StatusCode {
    let mut request = app
        .http
        .post(format!("{}/api/v1/auth/login", app.base))
        .json(&json!({"email": "nobody@example.com", "password": "not-the-password"}));
    if let Some(hop) = forwarded {
        request = request.header("x-forwarded-for", hop);
    }
    read(request).await.status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreadable_last_hop_is_not_loopback_for_metrics() {
    let app = spawn_app_with(Backend::Sqlite, |c| {
        c.metrics.metrics_enabled = true;
        c.http.trust_proxy = true;
    })
    .await
    .unwrap();
    for hop in ODD_HOPS {
        let reply = get_with(&app, "/metrics", Some(hop)).await;
        assert_eq!(
            reply.status,
            StatusCode::NOT_FOUND,
            "hop {hop:?}: {}",
            reply.text
        );
    }
    // A loopback client named with a port is still loopback; no header at all is the peer.
    for hop in ["127.0.0.1:51234", "[::1]:443", "[::1]"] {
        let reply = get_with(&app, "/metrics", Some(hop)).await;
        assert_eq!(reply.status, StatusCode::OK, "hop {hop:?}: {}", reply.text);
    }
    assert_eq!(
        get_with(&app, "/metrics", None).await.status,
        StatusCode::OK
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_clients_get_their_own_bucket_not_the_proxys() {
    let app = spawn_app_with(Backend::Sqlite, |c| {
        c.http.trust_proxy = true;
        c.rate_limits.auth_rate_limit_per_minute = 3;
    })
    .await
    .unwrap();
    for hop in ["unknown", "", "0177.0.0.1"] {
        assert_eq!(
            login_from(&app, Some(hop)).await,
            StatusCode::UNAUTHORIZED,
            "{hop:?}"
        );
    }
    assert_eq!(
        login_from(&app, Some("unknown")).await,
        StatusCode::TOO_MANY_REQUESTS,
        "unknown clients share one bucket"
    );
    // The proxy's own requests (the socket peer) and a named client are untouched.
    assert_eq!(login_from(&app, None).await, StatusCode::UNAUTHORIZED);
    for _ in 0..3 {
        assert_eq!(
            login_from(&app, Some("203.0.113.7:4711")).await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        login_from(&app, Some("203.0.113.7")).await,
        StatusCode::TOO_MANY_REQUESTS,
        "the port is dropped: one client, one bucket"
    );
}
