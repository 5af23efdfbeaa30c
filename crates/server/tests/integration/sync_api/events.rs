//! The event stream: other devices are poked when the account's records change (here or in
//! another process), and a stream ends with its session.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::json;

use super::{
    S,
    common::{Backend, TestApp, spawn_app, spawn_app_with},
    new_id, pull_all, put,
};

/// Reads the event stream until an event of `name` arrives; None if the stream ends first.
async fn next_event(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    buffer: &mut String,
    name: &str,
) -> Option<String> {
    loop {
        if let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            if event.contains(&format!("event: {name}")) {
                return Some(event);
            }
            continue;
        }
        match tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("event within 10 s")
        {
            Some(chunk) => buffer.push_str(&String::from_utf8_lossy(&chunk.unwrap())),
            None => return None,
        }
    }
}

async fn other_devices_are_poked_and_streams_end_with_their_session(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (phone, _) = app.sign_up("poke@example.com", "van-route-42").await;
    let login = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "poke@example.com", "password": "van-route-42"}),
        )
        .await;
    let laptop = login.session_cookie().unwrap();
    let (stranger, _) = app.sign_up("stranger@example.com", "van-route-42").await;

    let open = |cookie: String| {
        let request = app
            .http
            .get(format!("{}/api/v1/sync/events", app.base))
            .header("cookie", cookie);
        async move {
            let response = request.send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            assert!(
                response.headers()["content-type"]
                    .to_str()
                    .unwrap()
                    .starts_with("text/event-stream")
            );
            response.bytes_stream()
        }
    };
    let mut laptop_events = open(laptop.clone()).await;
    let mut stranger_events = open(stranger.clone()).await;
    let (mut laptop_buf, mut stranger_buf) = (String::new(), String::new());
    // Each stream greets with a poke so a reconnecting device pulls at once.
    assert!(
        next_event(&mut laptop_events, &mut laptop_buf, "poke")
            .await
            .is_some()
    );
    assert!(
        next_event(&mut stranger_events, &mut stranger_buf, "poke")
            .await
            .is_some()
    );

    app.push(&phone, vec![put(&new_id(), &new_id(), "2025-03-21", 10)])
        .await;
    let poke = next_event(&mut laptop_events, &mut laptop_buf, "poke")
        .await
        .unwrap();
    let first_write = format!("\"cursor\":{}", S + 1);
    assert!(poke.contains(&first_write), "{poke}");

    // The stranger's stream got nothing for someone else's write: the next thing it sees is
    // its own poke.
    app.push(&stranger, vec![put(&new_id(), &new_id(), "2025-03-21", 10)])
        .await;
    let own = next_event(&mut stranger_events, &mut stranger_buf, "poke")
        .await
        .unwrap();
    assert!(own.contains(&first_write), "{own}");

    app.request(Method::POST, "/api/v1/auth/logout", None, Some(&laptop))
        .await;
    assert!(
        next_event(&mut laptop_events, &mut laptop_buf, "poke")
            .await
            .is_none(),
        "stream ended with its session"
    );
}

async fn admin_changes_reach_open_streams_and_pull(backend: Backend) {
    // The fallback check beyond the test's deadline: only the change's own trigger can pass it.
    let Some(app) = spawn_app_with(backend, |c| c.sessions.events_recheck_seconds = 600).await
    else {
        return;
    };
    let (cookie, _) = app.sign_up("upgrade@example.com", "van-route-42").await;
    let response = app
        .http
        .get(format!("{}/api/v1/sync/events", app.base))
        .header("cookie", cookie.clone())
        .send()
        .await
        .unwrap();
    let mut events = response.bytes_stream();
    let mut buffer = String::new();
    assert!(
        next_event(&mut events, &mut buffer, "poke").await.is_some(),
        "greeting poke"
    );

    // As the CLI does it: from another process, through the store, no in-process signal.
    server::admin::set_role(
        &app.outside_store(backend).await,
        "upgrade@example.com",
        domain::phone::PhoneRegion::GB,
        domain::Role::Pro,
    )
    .await
    .unwrap();
    let poke = next_event(&mut events, &mut buffer, "poke")
        .await
        .expect("poked about the plan change");
    assert!(poke.contains(&format!("\"cursor\":{}", S + 1)), "{poke}");
    let changes = pull_all(&app, &cookie).await;
    assert_eq!(changes.len(), 1);
    assert_eq!(
        (
            changes[0]["kind"].as_str(),
            changes[0]["data"]["role"].as_str()
        ),
        (Some("profile"), Some("pro"))
    );
}

/// Opens an event stream and reads its greeting, so it is registered.
async fn open_events(
    app: &TestApp,
    cookie: &str,
    buffer: &mut String,
) -> impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin + use<> {
    let response = app
        .http
        .get(format!("{}/api/v1/sync/events", app.base))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut events = response.bytes_stream();
    assert!(
        next_event(&mut events, buffer, "poke").await.is_some(),
        "greeting poke"
    );
    events
}

/// Another process commits a change for one user (a second connection to the SQLite file, as
/// the admin CLI is): the server notices the commit, checks its open streams in one batch, and
/// pokes only that user's. The fallback check is beyond the test's deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_another_process_commits_pokes_only_its_users_stream() {
    let app = spawn_app_with(Backend::Sqlite, |c| {
        c.sessions.events_recheck_seconds = 600;
    })
    .await
    .unwrap();
    let (sam, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let (kim, _) = app.sign_up("kim@example.com", "van-route-42").await;
    // Sam's cursor ahead of Kim's, so a poke says whose change it was.
    app.push(
        &sam,
        vec![
            put(&new_id(), &new_id(), "2025-03-21", 10),
            put(&new_id(), &new_id(), "2025-03-22", 10),
        ],
    )
    .await;
    let (mut sam_buf, mut kim_buf) = (String::new(), String::new());
    let mut sam_events = open_events(&app, &sam, &mut sam_buf).await;
    let mut kim_events = open_events(&app, &kim, &mut kim_buf).await;

    let outside = app.outside_store(Backend::Sqlite).await;
    server::admin::set_role(
        &outside,
        "sam@example.com",
        domain::phone::PhoneRegion::GB,
        domain::Role::Pro,
    )
    .await
    .unwrap();
    let poke = next_event(&mut sam_events, &mut sam_buf, "poke")
        .await
        .expect("Sam's stream poked about the outside change");
    assert!(poke.contains(&format!("\"cursor\":{}", S + 3)), "{poke}");

    // Kim's stream got nothing from it: the next thing it sees is Kim's own push.
    app.push(&kim, vec![put(&new_id(), &new_id(), "2025-03-21", 10)])
        .await;
    let own = next_event(&mut kim_events, &mut kim_buf, "poke")
        .await
        .unwrap();
    assert!(own.contains(&format!("\"cursor\":{}", S + 1)), "{own}");
}

/// The admin CLI ends every session of one account (a password reset): that account's open
/// stream closes, another's stays. The fallback check is beyond the test's deadline, so only
/// the change's own trigger can pass it: on SQLite the server noticing another connection's
/// commit, on PostgreSQL the CLI's announcement through the relay.
async fn an_admin_reset_closes_only_that_accounts_stream(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.sessions.events_recheck_seconds = 600).await
    else {
        return;
    };
    let (sam, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let (kim, _) = app.sign_up("kim@example.com", "van-route-42").await;
    let (mut sam_buf, mut kim_buf) = (String::new(), String::new());
    let mut sam_events = open_events(&app, &sam, &mut sam_buf).await;
    let mut kim_events = open_events(&app, &kim, &mut kim_buf).await;

    let (_, _, ended) = server::admin::reset_password(
        &app.outside_store(backend).await,
        "sam@example.com",
        domain::phone::PhoneRegion::GB,
    )
    .await
    .unwrap();
    assert_eq!(ended, 1);
    assert!(
        next_event(&mut sam_events, &mut sam_buf, "poke")
            .await
            .is_none(),
        "Sam's stream closed with the session"
    );
    app.push(&kim, vec![put(&new_id(), &new_id(), "2025-03-21", 10)])
        .await;
    let own = next_event(&mut kim_events, &mut kim_buf, "poke")
        .await
        .expect("Kim's stream is still open");
    assert!(own.contains(&format!("\"cursor\":{}", S + 1)), "{own}");
}

/// A session that expires by time while its stream is open (its last use pushed back here, as
/// if idle for years) is found by the timed check of all open streams, which closes it.
async fn an_expired_sessions_stream_is_closed_by_the_timed_check(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.sessions.events_recheck_seconds = 1).await else {
        return;
    };
    let (sam, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let mut buffer = String::new();
    let mut events = open_events(&app, &sam, &mut buffer).await;
    let token = sam.split_once('=').unwrap().1;
    app.store
        .touch_session(&server::auth::session::hash_token(token), 0)
        .await
        .unwrap();
    assert!(
        next_event(&mut events, &mut buffer, "poke").await.is_none(),
        "the expired session's stream closed"
    );
}

crate::on_both_backends!(
    other_devices_are_poked_and_streams_end_with_their_session,
    admin_changes_reach_open_streams_and_pull,
    an_admin_reset_closes_only_that_accounts_stream,
    an_expired_sessions_stream_is_closed_by_the_timed_check,
);
