//! The sync API over HTTP, on SQLite and PostgreSQL: exactly-once push, paged pull with
//! tombstones, ownership, limits and poke events.

mod common;

use std::time::Duration;

use common::{Backend, TestApp, spawn_app};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

const PUSH: &str = "/api/v1/sync/push";

fn put(mutation_id: &str, entry_id: &str, date: &str, stops: i64) -> Value {
    json!({"id": mutation_id, "name": "entry.put",
           "args": {"id": entry_id, "date": date, "stops": stops, "extra": 250, "notes": "n", "total": stops * 198 + 250}})
}

fn delete(mutation_id: &str, entry_id: &str) -> Value {
    json!({"id": mutation_id, "name": "entry.delete", "args": {"id": entry_id}})
}

fn new_id() -> String {
    Uuid::now_v7().to_string()
}

async fn push(app: &TestApp, cookie: &str, mutations: Vec<Value>) -> common::Reply {
    app.request(
        Method::POST,
        PUSH,
        Some(json!({"clientId": "device-1", "mutations": mutations})),
        Some(cookie),
    )
    .await
}

async fn pull(app: &TestApp, cookie: &str, cursor: i64, limit: u32) -> Value {
    let reply = app
        .get(
            &format!("/api/v1/sync/pull?cursor={cursor}&limit={limit}"),
            Some(cookie),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

/// Every change the user can see, following pages to the end.
async fn pull_all(app: &TestApp, cookie: &str) -> Vec<Value> {
    let (mut cursor, mut all) = (0, Vec::new());
    loop {
        let page = pull(app, cookie, cursor, 1000).await;
        all.extend(page["changes"].as_array().unwrap().iter().cloned());
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            return all;
        }
    }
}

async fn replayed_pushes_change_nothing_and_answer_the_same(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("replay@example.com", "van-route-42").await;
    let entry = new_id();
    let batch = vec![
        put(&new_id(), &entry, "2025-03-21", 120),
        put(&new_id(), &entry, "2025-03-21", 121),
        put(&new_id(), &new_id(), "2025-03-22", 90),
        json!({"id": new_id(), "name": "entry.put", "args": {"id": "nope"}}),
    ];
    let first = push(&app, &cookie, batch.clone()).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let state = pull_all(&app, &cookie).await;
    for replay in 1..=5 {
        let again = push(&app, &cookie, batch.clone()).await;
        assert_eq!(again.body, first.body, "replay {replay} answers the same");
        assert_eq!(
            pull_all(&app, &cookie).await,
            state,
            "replay {replay} changes nothing"
        );
    }
    let statuses: Vec<&str> = first.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["applied", "applied", "applied", "rejected"]);
    assert_eq!(first.body["results"][3]["code"], "validation");
    // In order: the second put of the same entry won.
    let latest = state.iter().find(|c| c["id"] == entry.as_str()).unwrap();
    assert_eq!(latest["data"]["stops"], 121);
    assert_eq!(state.len(), 2);
}

async fn concurrent_identical_pushes_apply_once(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("race@example.com", "van-route-42").await;
    let batch = vec![
        put(&new_id(), &new_id(), "2025-03-21", 100),
        put(&new_id(), &new_id(), "2025-03-22", 101),
    ];
    let app = std::sync::Arc::new(app);
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (app, cookie, batch) = (app.clone(), cookie.clone(), batch.clone());
        tasks.push(tokio::spawn(
            async move { push(&app, &cookie, batch).await },
        ));
    }
    let mut bodies = Vec::new();
    for task in tasks {
        let reply = task.await.unwrap();
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        bodies.push(reply.body);
    }
    assert!(
        bodies.windows(2).all(|w| w[0] == w[1]),
        "every push got the same answer"
    );
    let changes = pull_all(&app, &cookie).await;
    let versions: Vec<i64> = changes
        .iter()
        .map(|c| c["version"].as_i64().unwrap())
        .collect();
    assert_eq!(versions, [1, 2], "two entries, each written exactly once");
}

async fn other_users_records_are_untouchable_and_invisible(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (alice, _) = app.sign_up("alice@example.com", "van-route-42").await;
    let (mallory, _) = app.sign_up("mallory@example.com", "van-route-42").await;
    let entry = new_id();
    push(
        &app,
        &alice,
        vec![put(&new_id(), &entry, "2025-03-21", 120)],
    )
    .await;
    let before = pull_all(&app, &alice).await;

    let attack = push(
        &app,
        &mallory,
        vec![
            put(&new_id(), &entry, "2025-03-21", 1),
            delete(&new_id(), &entry),
        ],
    )
    .await;
    assert_eq!(attack.status, StatusCode::OK);
    for result in attack.body["results"].as_array().unwrap() {
        assert_eq!(result["status"], "rejected");
        assert_eq!(result["code"], "not-owner");
    }
    assert_eq!(
        pull_all(&app, &alice).await,
        before,
        "alice's entry is untouched"
    );
    assert!(
        pull_all(&app, &mallory).await.is_empty(),
        "mallory never sees it"
    );
    // A mutation id used by another user is a different key: no cross-user replay answers.
    let alice_mutation = new_id();
    push(
        &app,
        &alice,
        vec![put(&alice_mutation, &new_id(), "2025-03-23", 5)],
    )
    .await;
    let reuse = push(
        &app,
        &mallory,
        vec![put(&alice_mutation, &new_id(), "2025-03-23", 6)],
    )
    .await;
    assert_eq!(reuse.body["results"][0]["status"], "applied");
    assert_eq!(pull_all(&app, &mallory).await.len(), 1);
}

async fn pull_pages_and_returns_tombstones(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("pager@example.com", "van-route-42").await;
    let ids: Vec<String> = (0..25).map(|_| new_id()).collect();
    let puts = ids
        .iter()
        .enumerate()
        .map(|(i, id)| put(&new_id(), id, &format!("2025-01-{:02}", i + 1), i as i64))
        .collect();
    push(&app, &cookie, puts).await;

    let (mut cursor, mut seen, mut pages) = (0, Vec::new(), 0);
    loop {
        let page = pull(&app, &cookie, cursor, 10).await;
        pages += 1;
        let changes = page["changes"].as_array().unwrap();
        seen.extend(changes.iter().map(|c| c["id"].as_str().unwrap().to_owned()));
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            break;
        }
        assert_eq!(changes.len(), 10);
    }
    assert_eq!(
        (pages, seen.clone()),
        (3, ids.clone()),
        "all 25, in write order, in 3 pages"
    );
    assert_eq!(cursor, 25);

    let empty = pull(&app, &cookie, cursor, 10).await;
    assert_eq!(empty["changes"], json!([]));
    assert_eq!(empty["cursor"], 25, "cursor stays put when nothing changed");

    push(&app, &cookie, vec![delete(&new_id(), &ids[3])]).await;
    let after = pull(&app, &cookie, cursor, 10).await;
    let tombstone = &after["changes"][0];
    assert_eq!(
        (tombstone["id"].as_str(), tombstone["deleted"].as_bool()),
        (Some(ids[3].as_str()), Some(true))
    );
    assert!(
        tombstone.get("data").is_none(),
        "tombstones carry no content"
    );
    assert_eq!(after["cursor"], 26);
}

async fn a_delete_wins_over_a_later_edit(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("deleter@example.com", "van-route-42").await;
    let entry = new_id();
    let never_seen = new_id();
    let reply = push(
        &app,
        &cookie,
        vec![
            put(&new_id(), &entry, "2025-03-21", 10),
            delete(&new_id(), &entry),
            put(&new_id(), &entry, "2025-03-21", 99), // an offline edit arriving late
            delete(&new_id(), &never_seen), // deleted on one device before another synced it
            put(&new_id(), &never_seen, "2025-03-22", 5),
        ],
    )
    .await;
    assert!(
        reply.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["status"] == "applied")
    );
    let changes = pull_all(&app, &cookie).await;
    assert_eq!(changes.len(), 2);
    assert!(changes.iter().all(|c| c["deleted"] == true), "{changes:?}");
}

async fn malformed_sync_requests_get_clear_4xx(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("fuzzy@example.com", "van-route-42").await;
    let too_many: Vec<Value> = (0..501)
        .map(|_| put(&new_id(), &new_id(), "2025-01-01", 1))
        .collect();
    let cases = [
        (json!({"mutations": []}), 422, "validation"),
        (json!({"clientId": "d", "mutations": {}}), 422, "validation"),
        (json!({"clientId": "", "mutations": []}), 422, "validation"),
        (
            json!({"clientId": "d", "mutations": [{"id": "has space", "name": "entry.put", "args": {}}]}),
            422,
            "validation",
        ),
        (
            json!({"clientId": "d", "mutations": [{"id": "x".repeat(65), "name": "entry.put", "args": {}}]}),
            422,
            "validation",
        ),
        (
            json!({"clientId": "d", "mutations": [{"name": "entry.put", "args": {}}]}),
            422,
            "validation",
        ),
        (
            json!({"clientId": "d", "mutations": too_many}),
            422,
            "too-many-mutations",
        ),
        (json!([1, 2, 3]), 422, "validation"),
    ];
    for (body, status, code) in cases {
        let reply = app
            .request(Method::POST, PUSH, Some(body.clone()), Some(&cookie))
            .await;
        assert_eq!(
            (reply.status.as_u16(), reply.error_code()),
            (status, code),
            "{}",
            reply.text
        );
    }
    let huge = json!({"clientId": "d", "mutations": [{"id": "a", "name": "entry.put", "args": {"notes": "x".repeat(1_100_000)}}]});
    let reply = app
        .request(Method::POST, PUSH, Some(huge), Some(&cookie))
        .await;
    assert_eq!(
        (reply.status, reply.error_code()),
        (StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large")
    );

    for query in [
        "cursor=-1",
        "limit=0",
        "limit=1001",
        "limit=abc",
        "cursor=1e99",
    ] {
        let reply = app
            .get(&format!("/api/v1/sync/pull?{query}"), Some(&cookie))
            .await;
        assert_eq!(
            (reply.status, reply.error_code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "validation"),
            "{query}"
        );
    }
    let anonymous = app
        .request(
            Method::POST,
            PUSH,
            Some(json!({"clientId": "d", "mutations": []})),
            None,
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.get("/api/v1/sync/pull", None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get("/api/v1/sync/events", None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert!(
        pull_all(&app, &cookie).await.is_empty(),
        "nothing was half-written"
    );
}

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

    push(
        &app,
        &phone,
        vec![put(&new_id(), &new_id(), "2025-03-21", 10)],
    )
    .await;
    let poke = next_event(&mut laptop_events, &mut laptop_buf, "poke")
        .await
        .unwrap();
    assert!(poke.contains("\"cursor\":1"), "{poke}");

    // The stranger's stream got nothing for someone else's write: the next thing it sees is
    // its own poke.
    push(
        &app,
        &stranger,
        vec![put(&new_id(), &new_id(), "2025-03-21", 10)],
    )
    .await;
    let own = next_event(&mut stranger_events, &mut stranger_buf, "poke")
        .await
        .unwrap();
    assert!(own.contains("\"cursor\":1"), "{own}");

    app.request(Method::POST, "/api/v1/auth/logout", None, Some(&laptop))
        .await;
    assert!(
        next_event(&mut laptop_events, &mut laptop_buf, "poke")
            .await
            .is_none(),
        "stream ended with its session"
    );
}

async fn profile_and_settings_sync_and_server_fields_are_ignored(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app.sign_up("profile@example.com", "van-route-42").await;
    let (mallory, _) = app.sign_up("mallory2@example.com", "van-route-42").await;
    let tiers =
        json!([{"stopCount": 100, "rate": 200}, {"stopCount": 120, "rate": 175}, {"rate": 150}]);
    let reply = push(
        &app,
        &cookie,
        vec![
            json!({"id": new_id(), "name": "profile.update", "args": {
            "displayName": "Sam Driver", "bio": "Van 2", "paymentConfig": {"tiers": tiers},
            "email": "evil@example.com", "role": "pro", "createdAt": "2000-01-01T00:00:00Z"}}),
            json!({"id": new_id(), "name": "settings.put", "args": {"theme": "light"}}),
            json!({"id": new_id(), "name": "profile.update", "args": {"displayName": "   "}}),
        ],
    )
    .await;
    let statuses: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["applied", "applied", "rejected"]);
    assert_eq!(
        reply.body["results"][2]["message"],
        "Display name is required"
    );

    let changes = pull_all(&app, &cookie).await;
    let profile = changes
        .iter()
        .find(|c| c["kind"] == "profile")
        .expect("profile change");
    assert_eq!(profile["id"], user["id"]);
    assert_eq!(profile["data"]["displayName"], "Sam Driver");
    assert_eq!(profile["data"]["bio"], "Van 2");
    assert_eq!(
        profile["data"]["email"], "profile@example.com",
        "e-mail is server-owned"
    );
    assert_eq!(profile["data"]["role"], "free", "role is server-owned");
    assert_eq!(profile["data"]["createdAt"], user["createdAt"]);
    assert_eq!(profile["data"]["paymentConfig"]["tiers"], tiers);
    let settings = changes
        .iter()
        .find(|c| c["kind"] == "settings")
        .expect("settings change");
    assert_eq!(settings["data"]["theme"], "light");
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["displayName"], "Sam Driver");

    // Another user's push only ever touches their own profile.
    push(&app, &mallory, vec![json!({"id": new_id(), "name": "profile.update", "args": {"displayName": "Hacked", "id": user["id"]}})]).await;
    let again = pull_all(&app, &cookie).await;
    assert_eq!(again, changes, "the first user's records did not move");
    let theirs = pull_all(&app, &mallory).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["data"]["displayName"], "Hacked");
    assert_ne!(theirs[0]["id"], user["id"]);
}

async fn admin_changes_reach_open_streams_and_pull(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
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

    // As the CLI does it: straight through the store, no in-process signal.
    server::admin::set_role(&app.store, "upgrade@example.com", domain::Role::Pro)
        .await
        .unwrap();
    let poke = next_event(&mut events, &mut buffer, "poke")
        .await
        .expect("poked about the plan change");
    assert!(poke.contains("\"cursor\":1"), "{poke}");
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

on_both_backends!(
    profile_and_settings_sync_and_server_fields_are_ignored,
    admin_changes_reach_open_streams_and_pull,
    replayed_pushes_change_nothing_and_answer_the_same,
    concurrent_identical_pushes_apply_once,
    other_users_records_are_untouchable_and_invisible,
    pull_pages_and_returns_tombstones,
    a_delete_wins_over_a_later_edit,
    malformed_sync_requests_get_clear_4xx,
    other_devices_are_poked_and_streams_end_with_their_session,
);
