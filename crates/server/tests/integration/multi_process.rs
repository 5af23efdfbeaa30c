//! Several server processes on one PostgreSQL database (DESIGN.md §7): a change or a sign-out
//! handled by one process reaches event streams held by another at once, through the
//! LISTEN/NOTIFY relay. The fallback check of open streams (EVENTS_RECHECK_SECONDS) is set far
//! beyond the test's deadline, so only the relay can make these pass.

use crate::common;

use std::time::Duration;

use common::{TestApp, fresh_postgres_schema, postgres_store_on, spawn_app_on};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::json;
use uuid::Uuid;

/// Two servers sharing one schema, neither checking its streams by timer within the test's time.
async fn two_servers() -> Option<(TestApp, TestApp)> {
    let config = fresh_postgres_schema().await?;
    // Sessions cached for the longest allowed time too: only the relay can drop them in time.
    let slow_recheck = |c: &mut server::config::Config| {
        c.sessions.events_recheck_seconds = 600;
        c.sessions.session_cache_seconds = 30;
    };
    let first = spawn_app_on(postgres_store_on(config.clone()).await, slow_recheck).await;
    let second = spawn_app_on(postgres_store_on(config).await, slow_recheck).await;
    // Each relay LISTENs as it starts; give them a moment to be listening.
    for app in [&first, &second] {
        assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    Some((first, second))
}

async fn open_events(
    app: &TestApp,
    cookie: &str,
) -> impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin {
    let response = app
        .http
        .get(format!("{}/api/v1/sync/events", app.base))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.bytes_stream()
}

/// Reads until a `poke` carrying `cursor` arrives, within 10 s.
async fn poke_with_cursor(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    cursor: i64,
) -> bool {
    let wanted = format!("\"cursor\":{cursor}");
    let mut seen = String::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(chunk) = stream.next().await {
            seen.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            if seen.contains(&wanted) {
                return true;
            }
        }
        false
    })
    .await
    .unwrap_or(false)
}

#[tokio::test]
async fn a_push_to_one_process_pokes_streams_on_another() {
    let Some((first, second)) = two_servers().await else {
        return;
    };
    let (phone, _) = first.sign_up("sam@example.com", "van-route-42").await;
    let laptop = second
        .post(
            "/api/v1/auth/login",
            json!({"email": "sam@example.com", "password": "van-route-42"}),
        )
        .await
        .session_cookie()
        .unwrap();
    let mut laptop_events = open_events(&second, &laptop).await;
    let entry = Uuid::now_v7().to_string();
    let pushed = first
        .request(
            Method::POST,
            "/api/v1/sync/push",
            Some(json!({"clientId": "phone", "mutations": [{"id": Uuid::now_v7().to_string(), "name": "entry.put",
                "args": {"id": entry, "date": "2025-03-21", "stops": 10, "extra": 0, "notes": "", "total": 1980}}]})),
            Some(&phone),
        )
        .await;
    assert_eq!(
        pushed.body["results"][0]["status"], "applied",
        "{}",
        pushed.text
    );
    assert!(
        // The first change after the account's starter records.
        poke_with_cursor(&mut laptop_events, domain::defaults::STARTER_RECORDS + 1).await,
        "the laptop's stream on the other process was poked"
    );
}

#[tokio::test]
async fn a_sign_out_on_one_process_closes_the_stream_on_another() {
    let Some((first, second)) = two_servers().await else {
        return;
    };
    let (phone, _) = first.sign_up("sam@example.com", "van-route-42").await;
    let mut events = open_events(&second, &phone).await;
    assert!(events.next().await.is_some(), "greeting poke");
    let out = first
        .request(Method::POST, "/api/v1/auth/logout", None, Some(&phone))
        .await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(chunk) = events.next().await {
            if chunk.is_err() {
                break;
            }
        }
    })
    .await;
    assert!(
        closed.is_ok(),
        "the stream on the other process closed at once"
    );
}

#[tokio::test]
async fn a_sign_out_on_one_process_is_refused_on_another_that_cached_the_session() {
    let Some((first, second)) = two_servers().await else {
        return;
    };
    let (phone, _) = first.sign_up("sam@example.com", "van-route-42").await;
    let session = "/api/v1/auth/session";
    assert!(
        !second.get(session, Some(&phone)).await.body["user"].is_null(),
        "the other process knows the session"
    );
    let out = first
        .request(Method::POST, "/api/v1/auth/logout", None, Some(&phone))
        .await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    // The signal travels through PostgreSQL, so allow it a moment; the cache alone would keep
    // serving the session for 30 s.
    let refused = tokio::time::timeout(Duration::from_secs(10), async {
        // Signed out reads 200 with no user (the session check never answers 401).
        while !second.get(session, Some(&phone)).await.body["user"].is_null() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(
        refused.is_ok(),
        "the other process refused the ended session"
    );
}

/// Signals sent while a process's relay was not listening are gone, so a process that
/// reconnects checks its open streams against the database. Here a session ends with no signal
/// at all (as if its signal was lost), then the relay's connection is cut: once the relay is
/// back, that session's stream closes and another user's stays open.
#[tokio::test]
async fn a_relay_reconnect_checks_open_streams() {
    let Some(mut config) = fresh_postgres_schema().await else {
        return;
    };
    let name = format!("relay-test-{}", Uuid::new_v4().simple());
    config.application_name(&name);
    let app = spawn_app_on(postgres_store_on(config.clone()).await, |c| {
        c.sessions.events_recheck_seconds = 600;
    })
    .await;
    let (sam, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let (kim, _) = app.sign_up("kim@example.com", "van-route-42").await;
    let mut sam_events = open_events(&app, &sam).await;
    let mut kim_events = open_events(&app, &kim).await;
    for events in [&mut sam_events, &mut kim_events] {
        assert!(events.next().await.is_some(), "greeting poke");
    }
    let (admin, connection) = config.connect(tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    // The relay's connection: it has run LISTEN, then only pg_notify; the pool's never do.
    let relay_backend = || async {
        admin
            .query_opt(
                "SELECT pid FROM pg_stat_activity WHERE application_name = $1
                   AND (query LIKE 'LISTEN%' OR query LIKE 'SELECT pg_notify%')",
                &[&name],
            )
            .await
            .unwrap()
            .map(|row| row.get::<_, i32>(0))
    };
    let listening = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(pid) = relay_backend().await {
                return pid;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the relay is listening");

    let token = sam.split_once('=').unwrap().1;
    app.store
        .delete_session(&server::auth::session::hash_token(token))
        .await
        .unwrap();
    admin
        .execute("SELECT pg_terminate_backend($1)", &[&listening])
        .await
        .unwrap();
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(Ok(_)) = sam_events.next().await {}
    })
    .await;
    assert!(
        closed.is_ok(),
        "the stream of the session that ended closed"
    );
    let pushed = app
        .request(
            Method::POST,
            "/api/v1/sync/push",
            Some(json!({"clientId": "kim", "mutations": [{"id": Uuid::now_v7().to_string(), "name": "entry.put",
                "args": {"id": Uuid::now_v7().to_string(), "date": "2025-03-21", "stops": 10, "extra": 0, "notes": "", "total": 1980}}]})),
            Some(&kim),
        )
        .await;
    assert_eq!(pushed.status, StatusCode::OK, "{}", pushed.text);
    assert!(
        poke_with_cursor(&mut kim_events, domain::defaults::STARTER_RECORDS + 1).await,
        "the other user's stream is still open"
    );
}
