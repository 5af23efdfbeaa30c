//! `/metrics` over HTTP on SQLite: off by default, a bearer token or loopback peers only, the
//! Prometheus text format, and counters that move with a push.

use crate::common;

use common::{Backend, TestApp, read, spawn_app, spawn_app_with};
use reqwest::StatusCode;
use serde_json::json;
use uuid::Uuid;

const TOKEN: &str = "scrape-me-0123456789";

async fn scrape(app: &TestApp, headers: &[(&str, &str)]) -> common::Reply {
    let mut request = app.http.get(format!("{}/metrics", app.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    read(request).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn off_by_default_and_not_advertised() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let reply = scrape(&app, &[]).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text);
    assert_eq!(reply.error_code(), "not-found");
    let openapi = app.get("/api/openapi.json", None).await;
    assert!(!openapi.text.contains("/metrics"), "{}", openapi.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_mode_answers_only_the_bearer_and_counts_a_push() {
    let app = spawn_app_with(Backend::Sqlite, |c| {
        c.metrics.metrics_enabled = true;
        c.metrics.metrics_token = Some(TOKEN.into());
    })
    .await
    .unwrap();
    // Loopback peers too need the token once one is set.
    assert_eq!(scrape(&app, &[]).await.status, StatusCode::NOT_FOUND);
    let wrong = scrape(&app, &[("authorization", "Bearer scrape-me-0123456780")]).await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);

    let (cookie, _) = app.sign_up("metrics@example.com", "van-route-42").await;
    let entry = Uuid::now_v7().to_string();
    let pushed = app
        .push(
            &cookie,
            vec![
                json!({"id": Uuid::now_v7().to_string(), "name": "entry.put",
                "args": {"id": entry, "date": "2025-03-21", "stops": 100, "extra": 250,
                         "notes": "n", "total": 100 * 198 + 250}}),
            ],
        )
        .await;
    assert_eq!(pushed.status, StatusCode::OK, "{}", pushed.text);
    assert_eq!(
        pushed.body["results"][0]["status"], "applied",
        "{}",
        pushed.text
    );

    let bearer = format!("Bearer {TOKEN}");
    let reply = scrape(&app, &[("authorization", &bearer)]).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let content_type = reply.headers["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    let text = &reply.text;
    for line in [
        "sync_pushes_total 1\n",
        "sync_mutations_total{outcome=\"applied\"} 1\n",
        "sync_mutations_total{outcome=\"rejected\"} 0\n",
        "http_requests_total{route=\"/api/v1/sync/push\",status=\"2xx\"} 1\n",
        "event_streams_open 0\n",
        "mail_queue_pending 0\n",
    ] {
        assert!(text.contains(line), "{line} in:\n{text}");
    }
    let size: i64 = text
        .lines()
        .find_map(|l| l.strip_prefix("database_size_bytes "))
        .expect("database size")
        .parse()
        .unwrap();
    assert!(size > 0, "{text}");
    // The single writer's commits and the writes they carried: the sign-up and the push at
    // least, each commit carrying one or more.
    let counter = |name: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("{name} in:\n{text}"))
            .parse()
            .unwrap()
    };
    let (commits, jobs) = (
        counter("sqlite_write_commits_total"),
        counter("sqlite_write_jobs_total"),
    );
    assert!(commits >= 2 && jobs >= commits, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_only_loopback_peers_are_answered() {
    let app = spawn_app_with(Backend::Sqlite, |c| c.metrics.metrics_enabled = true)
        .await
        .unwrap();
    let reply = scrape(&app, &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert!(
        reply.text.contains("# TYPE sync_pulls_total counter"),
        "{}",
        reply.text
    );

    // Behind a proxy on the same host, the client is the forwarded address, not loopback.
    let proxied = spawn_app_with(Backend::Sqlite, |c| {
        c.metrics.metrics_enabled = true;
        c.http.trust_proxy = true;
    })
    .await
    .unwrap();
    let remote = scrape(&proxied, &[("x-forwarded-for", "203.0.113.7")]).await;
    assert_eq!(remote.status, StatusCode::NOT_FOUND, "{}", remote.text);
    let local = scrape(&proxied, &[("x-forwarded-for", "127.0.0.1")]).await;
    assert_eq!(local.status, StatusCode::OK, "{}", local.text);
}

/// The PostgreSQL store's gauges (skipped without TEST_DATABASE_URL).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_reports_its_database_size() {
    let Some(app) = spawn_app_with(Backend::Postgres, |c| c.metrics.metrics_enabled = true).await
    else {
        return;
    };
    let reply = scrape(&app, &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert!(
        reply.text.contains("mail_queue_pending 0\n"),
        "{}",
        reply.text
    );
    let size: i64 = reply
        .text
        .lines()
        .find_map(|l| l.strip_prefix("database_size_bytes "))
        .expect("database size")
        .parse()
        .unwrap();
    assert!(size > 0, "{}", reply.text);
    // Many connections write at once: there is no single writer to count.
    assert!(
        !reply.text.contains("sqlite_write_commits_total"),
        "{}",
        reply.text
    );
}
