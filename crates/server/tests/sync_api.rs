//! The sync API over HTTP, on SQLite and PostgreSQL: exactly-once push, paged pull with
//! tombstones, ownership, limits and poke events.

mod common;

use std::time::Duration;

use common::{Backend, TestApp, spawn_app, spawn_app_with};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

const PUSH: &str = "/api/v1/sync/push";
/// Every account starts with its default courier and first card, at versions 1 and 2
/// (`starter_records_come_first_in_every_new_account` checks them).
const S: i64 = domain::defaults::STARTER_RECORDS;

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

/// Every change the user made after the starter records, following pages to the end.
async fn pull_all(app: &TestApp, cookie: &str) -> Vec<Value> {
    let (mut cursor, mut all) = (S, Vec::new());
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
    let first = app.push(&cookie, batch.clone()).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let state = pull_all(&app, &cookie).await;
    for replay in 1..=5 {
        let again = app.push(&cookie, batch.clone()).await;
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
        tasks.push(tokio::spawn(async move { app.push(&cookie, batch).await }));
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
    assert_eq!(
        versions,
        [S + 1, S + 2],
        "two entries, each written exactly once"
    );
}

async fn other_users_records_are_untouchable_and_invisible(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (alice, _) = app.sign_up("alice@example.com", "van-route-42").await;
    let (mallory, _) = app.sign_up("mallory@example.com", "van-route-42").await;
    let entry = new_id();
    app.push(&alice, vec![put(&new_id(), &entry, "2025-03-21", 120)])
        .await;
    let before = pull_all(&app, &alice).await;

    let attack = app
        .push(
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
    app.push(
        &alice,
        vec![put(&alice_mutation, &new_id(), "2025-03-23", 5)],
    )
    .await;
    let reuse = app
        .push(
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
        .map(|(i, id)| {
            put(
                &new_id(),
                id,
                &format!("2025-01-{:02}", i + 1),
                i64::try_from(i).unwrap(),
            )
        })
        .collect();
    app.push(&cookie, puts).await;

    let (mut cursor, mut seen, mut pages) = (S, Vec::new(), 0);
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
    assert_eq!(cursor, S + 25);

    let empty = pull(&app, &cookie, cursor, 10).await;
    assert_eq!(empty["changes"], json!([]));
    assert_eq!(
        empty["cursor"],
        S + 25,
        "cursor stays put when nothing changed"
    );

    app.push(&cookie, vec![delete(&new_id(), &ids[3])]).await;
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
    assert_eq!(after["cursor"], S + 26);
}

async fn a_delete_wins_over_a_later_edit(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("deleter@example.com", "van-route-42").await;
    let entry = new_id();
    let never_seen = new_id();
    let reply = app
        .push(
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

async fn profile_and_settings_sync_and_server_fields_are_ignored(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, user) = app.sign_up("profile@example.com", "van-route-42").await;
    let (mallory, _) = app.sign_up("mallory2@example.com", "van-route-42").await;
    let tiers =
        json!([{"stopCount": 100, "rate": 200}, {"stopCount": 120, "rate": 175}, {"rate": 150}]);
    let reply = app
        .push(
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
    app.push(&mallory, vec![json!({"id": new_id(), "name": "profile.update", "args": {"displayName": "Hacked", "id": user["id"]}})]).await;
    let again = pull_all(&app, &cookie).await;
    assert_eq!(again, changes, "the first user's records did not move");
    let theirs = pull_all(&app, &mallory).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["data"]["displayName"], "Hacked");
    assert_ne!(theirs[0]["id"], user["id"]);
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

fn statement_check_args(invoice_id: &str, start: &str, end: &str, paid: i64) -> Value {
    json!({"id": invoice_id, "periodStart": start, "periodEnd": end, "paid": paid,
           "stops": 640, "reference": "INV-1"})
}

fn put_statement_check(mutation_id: &str, args: Value) -> Value {
    json!({"id": mutation_id, "name": "invoice.put", "args": args})
}

fn delete_statement_check(mutation_id: &str, invoice_id: &str) -> Value {
    json!({"id": mutation_id, "name": "invoice.delete", "args": {"id": invoice_id}})
}

fn statuses(reply: &common::Reply) -> Vec<String> {
    reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_owned())
        .collect()
}

async fn statement_checks_put_edit_delete_and_pull_with_versions(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("invoices@example.com", "van-route-42").await;
    let invoice = new_id();
    let reply = app
        .push(
            &cookie,
            vec![put_statement_check(
                &new_id(),
                json!({"id": invoice, "periodStart": "2025-03-17", "periodEnd": "2025-03-23",
                   "paid": 123_456, "stops": 640, "reference": "  INV-2025-12  "}),
            )],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let first = pull(&app, &cookie, S, 10).await;
    assert_eq!(first["cursor"], S + 1);
    let change = &first["changes"][0];
    assert_eq!(
        (change["kind"].as_str(), change["id"].as_str()),
        (Some("invoice"), Some(invoice.as_str()))
    );
    assert_eq!(
        (change["version"].as_i64(), change["deleted"].as_bool()),
        (Some(S + 1), Some(false))
    );
    let data = &change["data"];
    assert_eq!(data["periodStart"], "2025-03-17");
    assert_eq!(data["periodEnd"], "2025-03-23");
    assert_eq!(data["paid"], 123_456);
    assert_eq!(data["stops"], 640);
    assert_eq!(data["reference"], "INV-2025-12", "stored trimmed");
    assert!(data["createdAt"].as_str().unwrap().ends_with('Z'));
    // The seven of before plus the statement check's six (issue 12).
    assert_eq!(
        data.as_object().unwrap().len(),
        13,
        "exactly the documented fields: {data}"
    );

    // An edit without the optional fields clears them and moves the version.
    app.push(&cookie,
        vec![put_statement_check(
            &new_id(),
            json!({"id": invoice, "periodStart": "2025-03-17", "periodEnd": "2025-03-30", "paid": 200_000}),
        )],
    )
    .await;
    let edited = pull(&app, &cookie, S + 1, 10).await;
    let change = &edited["changes"][0];
    assert_eq!(
        (change["id"].as_str(), change["version"].as_i64()),
        (Some(invoice.as_str()), Some(S + 2))
    );
    assert_eq!(change["data"]["periodEnd"], "2025-03-30");
    assert_eq!(change["data"]["paid"], 200_000);
    assert_eq!(change["data"]["stops"], Value::Null);
    assert_eq!(change["data"]["reference"], "");
    assert_eq!(
        change["data"]["createdAt"],
        first["changes"][0]["data"]["createdAt"]
    );
    assert_eq!(edited["changes"].as_array().unwrap().len(), 1);

    // Delete leaves a contentless tombstone, and a late edit does not bring it back.
    let never_synced = new_id();
    let reply = app
        .push(
            &cookie,
            vec![
                delete_statement_check(&new_id(), &invoice),
                put_statement_check(
                    &new_id(),
                    statement_check_args(&invoice, "2025-03-17", "2025-03-23", 1),
                ),
                delete_statement_check(&new_id(), &never_synced),
                put_statement_check(
                    &new_id(),
                    statement_check_args(&never_synced, "2025-03-17", "2025-03-23", 1),
                ),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 4]);
    let after = pull(&app, &cookie, S + 2, 10).await;
    let changes = after["changes"].as_array().unwrap();
    let seen: Vec<(&str, i64, bool)> = changes
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap(),
                c["version"].as_i64().unwrap(),
                c["deleted"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (invoice.as_str(), S + 3, true),
            (never_synced.as_str(), S + 4, true)
        ]
    );
    assert!(
        changes
            .iter()
            .all(|c| c.get("data").is_none() && c["kind"] == "invoice")
    );
    assert_eq!(after["cursor"], S + 4);
}

async fn replayed_statement_check_mutations_answer_the_same_and_write_once(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app
        .sign_up("invoice-replay@example.com", "van-route-42")
        .await;
    let (kept, deleted) = (new_id(), new_id());
    let batch = vec![
        put_statement_check(
            &new_id(),
            statement_check_args(&kept, "2025-03-01", "2025-03-31", 100),
        ),
        put_statement_check(
            &new_id(),
            statement_check_args(&kept, "2025-03-01", "2025-03-31", 101),
        ),
        put_statement_check(
            &new_id(),
            statement_check_args(&deleted, "2025-04-01", "2025-04-30", 5),
        ),
        delete_statement_check(&new_id(), &deleted),
        put_statement_check(
            &new_id(),
            statement_check_args(&new_id(), "2025-04-30", "2025-04-01", 5),
        ),
    ];
    let first = app.push(&cookie, batch.clone()).await;
    assert_eq!(
        statuses(&first),
        ["applied", "applied", "applied", "applied", "rejected"]
    );
    let state = pull_all(&app, &cookie).await;
    for replay in 1..=3 {
        let again = app.push(&cookie, batch.clone()).await;
        assert_eq!(again.body, first.body, "replay {replay} answers the same");
        assert_eq!(
            pull_all(&app, &cookie).await,
            state,
            "replay {replay} changes nothing"
        );
    }
    let versions: Vec<(&str, i64)> = state
        .iter()
        .map(|c| (c["id"].as_str().unwrap(), c["version"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        versions,
        [(kept.as_str(), S + 2), (deleted.as_str(), S + 4)]
    );
    assert_eq!(
        state[0]["data"]["paid"], 101,
        "in order: the second put won"
    );
    let beyond = app
        .get(
            &format!("/api/v1/sync/pull?cursor={}", S + 4),
            Some(&cookie),
        )
        .await;
    assert_eq!(beyond.body["changes"], json!([]), "four writes, no more");
}

async fn statement_check_validation_rejects_each_rule(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app
        .sign_up("invoice-rules@example.com", "van-route-42")
        .await;
    let id = new_id();
    let args = |patch: Value| {
        let mut args = statement_check_args(&id, "2025-03-01", "2025-03-31", 100);
        for (key, value) in patch.as_object().unwrap() {
            args[key] = value.clone();
        }
        args
    };
    let without = |field: &str| {
        let mut args = statement_check_args(&id, "2025-03-01", "2025-03-31", 100);
        args.as_object_mut().unwrap().remove(field);
        args
    };
    // (args, a phrase the driver sees)
    let refused = [
        (
            args(json!({"id": "INV-1"})),
            "Statement check id must be a UUID",
        ),
        (
            args(json!({"periodStart": "2025-02-29"})),
            "Period start must be a real day",
        ),
        (
            args(json!({"periodEnd": "31/03/2025"})),
            "Period end must be a real day",
        ),
        (
            args(json!({"periodStart": "2025-04-01"})),
            "on or after the period start",
        ),
        (
            args(json!({"periodStart": "2024-01-01", "periodEnd": "2025-01-01"})),
            "at most 366 days",
        ),
        (args(json!({"paid": -1})), "Paid must be between"),
        (args(json!({"paid": 10_000_001})), "Paid must be between"),
        (args(json!({"stops": -1})), "Stops must be a whole number"),
        (
            args(json!({"stops": 100_001})),
            "Stops must be a whole number",
        ),
        (
            args(json!({"reference": "r".repeat(101)})),
            "at most 100 characters",
        ),
        (
            args(json!({"reference": "INV\u{0}1"})),
            "control characters",
        ),
        (args(json!({"paid": 1.5})), "Invalid invoice"),
        (args(json!({"userId": "someone-else"})), "unknown field"),
        (without("paid"), "missing field `paid`"),
        (without("periodEnd"), "missing field `periodEnd`"),
    ];
    let mutations: Vec<Value> = refused
        .iter()
        .map(|(args, _)| put_statement_check(&new_id(), args.clone()))
        .chain([
            json!({"id": new_id(), "name": "invoice.delete", "args": {"id": "INV-1"}}),
            json!({"id": new_id(), "name": "invoice.delete", "args": {}}),
        ])
        .collect();
    let reply = app.push(&cookie, mutations).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let results = reply.body["results"].as_array().unwrap();
    assert_eq!(results.len(), refused.len() + 2);
    for (result, (args, phrase)) in results.iter().zip(&refused) {
        assert_eq!(
            (result["status"].as_str(), result["code"].as_str()),
            (Some("rejected"), Some("validation")),
            "{args}"
        );
        let message = result["message"].as_str().unwrap();
        assert!(message.contains(phrase), "{args}: {message}");
    }
    for result in &results[refused.len()..] {
        assert_eq!(result["code"], "validation");
        assert!(
            result["message"]
                .as_str()
                .unwrap()
                .contains("invoice.delete needs")
        );
    }
    assert!(
        pull_all(&app, &cookie).await.is_empty(),
        "nothing refused was written"
    );

    // Every bound itself is accepted.
    let boundaries = [
        args(json!({"periodStart": "2024-01-01", "periodEnd": "2024-12-31"})),
        args(json!({"periodStart": "2025-03-01", "periodEnd": "2025-03-01"})),
        args(json!({"paid": 10_000_000, "stops": 100_000})),
        args(json!({"paid": 0, "stops": 0})),
        args(json!({"stops": null, "reference": "é".repeat(100)})),
    ];
    let reply = app
        .push(
            &cookie,
            boundaries
                .iter()
                .map(|a| put_statement_check(&new_id(), a.clone()))
                .collect(),
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 5], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    assert_eq!(stored.len(), 1, "five edits of one invoice");
    assert_eq!(stored[0]["version"], S + 5);
    assert_eq!(stored[0]["data"]["reference"], "é".repeat(100));
    assert_eq!(stored[0]["data"]["stops"], Value::Null);
}

async fn other_users_statement_checks_are_untouchable_and_invisible(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (alice, _) = app.sign_up("alice-inv@example.com", "van-route-42").await;
    let (mallory, _) = app.sign_up("mallory-inv@example.com", "van-route-42").await;
    let (live, gone) = (new_id(), new_id());
    app.push(
        &alice,
        vec![
            put_statement_check(
                &new_id(),
                statement_check_args(&live, "2025-03-01", "2025-03-31", 100),
            ),
            put_statement_check(
                &new_id(),
                statement_check_args(&gone, "2025-04-01", "2025-04-30", 100),
            ),
            delete_statement_check(&new_id(), &gone),
        ],
    )
    .await;
    let before = pull_all(&app, &alice).await;
    assert_eq!(before.len(), 2);

    // Guessed (or leaked) ids: a live invoice and a tombstone are both alice's for good.
    let attack = app
        .push(
            &mallory,
            vec![
                put_statement_check(
                    &new_id(),
                    statement_check_args(&live, "2025-03-01", "2025-03-31", 1),
                ),
                delete_statement_check(&new_id(), &live),
                put_statement_check(
                    &new_id(),
                    statement_check_args(&gone, "2025-04-01", "2025-04-30", 1),
                ),
                delete_statement_check(&new_id(), &gone),
            ],
        )
        .await;
    assert_eq!(attack.status, StatusCode::OK);
    for result in attack.body["results"].as_array().unwrap() {
        assert_eq!(
            (result["status"].as_str(), result["code"].as_str()),
            (Some("rejected"), Some("not-owner"))
        );
    }
    assert_eq!(
        pull_all(&app, &alice).await,
        before,
        "alice's invoices are untouched"
    );
    assert!(
        pull_all(&app, &mallory).await.is_empty(),
        "mallory never sees them"
    );

    // Ownership goes both ways: an id mallory deleted first is hers, alice cannot claim it.
    let claimed = new_id();
    app.push(&mallory, vec![delete_statement_check(&new_id(), &claimed)])
        .await;
    let reply = app
        .push(
            &alice,
            vec![put_statement_check(
                &new_id(),
                statement_check_args(&claimed, "2025-05-01", "2025-05-31", 9),
            )],
        )
        .await;
    assert_eq!(reply.body["results"][0]["code"], "not-owner");
    assert_eq!(pull_all(&app, &alice).await, before);
}

/// What a pull returned, as (kind, id, version, deleted), and which `data` variant it parsed as.
fn summarise(changes: &[Value]) -> Vec<(String, String, i64, bool)> {
    changes
        .iter()
        .map(|c| {
            let typed: domain::sync::Change = serde_json::from_value(c.clone()).unwrap();
            // Each kind reads back as its own variant (Change.kind is the tag).
            let variant_matches = match (&typed.data, typed.kind.as_str()) {
                (None, _) => typed.deleted,
                (Some(domain::sync::ChangeData::Entry(_)), "entry") => true,
                (Some(domain::sync::ChangeData::StatementCheck(_)), "invoice") => true,
                (Some(domain::sync::ChangeData::Profile(_)), "profile") => true,
                (Some(domain::sync::ChangeData::Settings(_)), "settings") => true,
                (Some(domain::sync::ChangeData::Courier(_)), "courier") => true,
                (Some(domain::sync::ChangeData::RateCard(_)), "rateCard") => true,
                (Some(domain::sync::ChangeData::Deduction(_)), "deduction") => true,
                (Some(domain::sync::ChangeData::Expense(_)), "expense") => true,
                (Some(domain::sync::ChangeData::Vehicle(_)), "vehicle") => true,
                (Some(domain::sync::ChangeData::Mileage(_)), "mileage") => true,
                (Some(domain::sync::ChangeData::StatementLine(_)), "statementLine") => true,
                (Some(domain::sync::ChangeData::StatementFormat(_)), "statementFormat") => true,
                _ => false,
            };
            assert!(variant_matches, "{c}");
            (typed.kind, typed.id, typed.version, typed.deleted)
        })
        .collect()
}

async fn entries_and_statement_checks_interleave_in_one_pull_with_paging(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("interleave@example.com", "van-route-42").await;
    let user_id = app.get("/api/v1/auth/session", Some(&cookie)).await.body["user"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let entries: Vec<String> = (0..8).map(|_| new_id()).collect();
    let invoices: Vec<String> = (0..8).map(|_| new_id()).collect();
    // The starter records first, then runs longer than a page of one kind, then strict
    // alternation, a settings write and deletes of both kinds: every way the per-kind reads
    // can meet at a page boundary.
    let mut mutations = Vec::new();
    let mut expected = vec![
        ("courier".to_owned(), user_id.clone(), 1, false),
        ("rateCard".to_owned(), user_id.clone(), 2, false),
    ];
    let mut add = |mutation: Value, kind: &str, id: &str, deleted: bool| {
        mutations.push(mutation);
        expected.push((
            kind.to_owned(),
            id.to_owned(),
            i64::try_from(expected.len()).unwrap() + 1,
            deleted,
        ));
    };
    for (i, id) in invoices[..5].iter().enumerate() {
        add(
            put_statement_check(
                &new_id(),
                statement_check_args(id, "2025-01-01", "2025-01-31", i64::try_from(i).unwrap()),
            ),
            "invoice",
            id,
            false,
        );
    }
    for (i, id) in entries[..5].iter().enumerate() {
        add(
            put(&new_id(), id, &format!("2025-01-{:02}", i + 1), 10),
            "entry",
            id,
            false,
        );
    }
    for i in 5..8 {
        add(
            put(&new_id(), &entries[i], &format!("2025-02-{:02}", i), 10),
            "entry",
            &entries[i],
            false,
        );
        add(
            put_statement_check(
                &new_id(),
                statement_check_args(&invoices[i], "2025-02-01", "2025-02-28", 1),
            ),
            "invoice",
            &invoices[i],
            false,
        );
    }
    add(
        json!({"id": new_id(), "name": "settings.put", "args": {"theme": "light"}}),
        "settings",
        "",
        false,
    );
    add(
        delete_statement_check(&new_id(), &invoices[0]),
        "invoice",
        &invoices[0],
        true,
    );
    add(delete(&new_id(), &entries[0]), "entry", &entries[0], true);
    add(
        put_statement_check(
            &new_id(),
            statement_check_args(&invoices[1], "2025-01-01", "2025-01-31", 77),
        ),
        "invoice",
        &invoices[1],
        false,
    );
    let total = i64::try_from(expected.len()).unwrap();
    let reply = app.push(&cookie, mutations).await;
    assert!(
        statuses(&reply).iter().all(|s| s == "applied"),
        "{}",
        reply.text
    );

    // Later writes replace earlier ones: the pull shows each record once, at its last version.
    let latest = |kind: &str, id: &str| {
        expected
            .iter()
            .rev()
            .find(|(k, i, _, _)| k == kind && (i == id || k == "settings"))
            .unwrap()
            .2
    };
    let mut want: Vec<(String, String, i64, bool)> = expected
        .iter()
        .filter(|(kind, id, version, _)| latest(kind, id) == *version)
        .cloned()
        .collect();
    for change in &mut want {
        if change.0 == "settings" {
            change.1 = user_id.clone();
        }
    }

    for limit in [1, 3, 4, 5, 1000] {
        let (mut cursor, mut seen, mut pages) = (0, Vec::new(), 0);
        loop {
            let page = pull(&app, &cookie, cursor, limit).await;
            let changes = summarise(page["changes"].as_array().unwrap());
            pages += 1;
            let more = page["hasMore"].as_bool().unwrap();
            if more {
                assert_eq!(changes.len(), limit as usize, "only the last page is short");
            }
            let next = page["cursor"].as_i64().unwrap();
            assert_eq!(next, changes.last().map_or(cursor, |c| c.2));
            seen.extend(changes);
            cursor = next;
            if !more {
                break;
            }
        }
        assert_eq!(
            seen, want,
            "limit {limit}: every latest change once, in version order"
        );
        assert_eq!(
            pages,
            want.len().div_ceil(limit as usize).max(1),
            "limit {limit}"
        );
        assert_eq!(cursor, total);
    }
    // A cursor in the middle returns only what came after it, of both kinds.
    let tail = pull(&app, &cookie, 12, 1000).await;
    let tail = summarise(tail["changes"].as_array().unwrap());
    assert_eq!(
        tail,
        want.iter()
            .filter(|c| c.2 > 12)
            .cloned()
            .collect::<Vec<_>>()
    );
}

fn courier_args(id: &str, name: &str) -> Value {
    json!({"id": id, "name": name, "colour": "#DC0032", "periodKind": "fourFourFive",
           "periodAnchor": "2025-01-05", "arrearsWeeks": 2})
}

fn card_args(id: &str, courier: &str) -> Value {
    json!({"id": id, "courierId": courier, "validFrom": "2025-09-01", "label": " Autumn ",
           "perStop": [{"stopCount": 100, "rate": 133}, {"rate": 83}], "perParcel": 40,
           "parcelCapPerStop": 3, "perFailed": 0,
           "peaks": [{"from": "2025-12-01", "to": "2025-12-24", "extraPerStop": 20}]})
}

fn deduction_args(id: &str, courier: &str) -> Value {
    json!({"id": id, "courierId": courier, "label": "Van hire", "amount": 19_500,
           "repeat": "weekly", "from": "2025-09-01", "to": null})
}

/// A day of the new app's: its courier and card, and every new field.
fn day_args(id: &str, courier: &str, card: Option<&str>) -> Value {
    json!({"id": id, "date": "2025-09-02", "stops": 10, "extra": 0, "notes": "", "total": 1_330,
           "courierId": courier, "rateCardId": card, "parcels": 14, "collections": 1,
           "failed": 0, "startTime": "08:00", "finishTime": "13:30"})
}

fn mutation(name: &str, args: Value) -> Value {
    json!({"id": new_id(), "name": name, "args": args})
}

async fn user_id(app: &TestApp, cookie: &str) -> String {
    app.get("/api/v1/auth/session", Some(cookie)).await.body["user"]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Every way an account is made over HTTP here (password, guest) starts with the default
/// courier and its first card holding the spec's tiers (OpenID and phone accounts: the store
/// conformance suite).
async fn starter_records_come_first_in_every_new_account(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (password, _) = app.sign_up("starter@example.com", "van-route-42").await;
    let guest = common::binary::guest_cookie(&app.http, &app.base).await;
    for cookie in [password, guest] {
        let me = user_id(&app, &cookie).await;
        let first = pull(&app, &cookie, 0, 10).await;
        let records: Vec<&Value> = first["changes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["kind"] != "profile" && c["kind"] != "settings")
            .collect();
        assert_eq!(records.len(), 2, "{first}");
        let (courier, card) = (records[0], records[1]);
        assert_eq!(
            (&courier["kind"], &courier["id"], &courier["version"]),
            (&json!("courier"), &json!(me), &json!(1))
        );
        assert_eq!(
            (&card["kind"], &card["id"], &card["version"]),
            (&json!("rateCard"), &json!(me), &json!(2))
        );
        let data = |change: &Value| {
            let mut data = change["data"].clone();
            let object = data.as_object_mut().unwrap();
            assert!(object.remove("createdAt").is_some() && object.remove("updatedAt").is_some());
            data
        };
        assert_eq!(
            data(courier),
            json!({"name": "My courier", "colour": "#2f6fde", "periodKind": "weekly",
                   "periodAnchor": "2000-01-02", "arrearsWeeks": 0})
        );
        assert_eq!(
            data(card),
            json!({"courierId": me, "validFrom": "2000-01-01", "label": "",
                   "perStop": [{"stopCount": 110, "rate": 198}, {"rate": 148}],
                   "perParcel": null, "parcelCapPerStop": null, "perCollection": null,
                   "perFailed": null, "dayRate": null, "hourly": null, "peaks": []})
        );
    }
}

/// Couriers, rate cards and deductions: put, edit, delete, each pulled with its version.
async fn couriers_cards_and_deductions_put_edit_delete(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("kinds@example.com", "van-route-42").await;
    let (courier, card, deduction) = (new_id(), new_id(), new_id());
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("courier.put", courier_args(&courier, " Evri ")),
                mutation("rateCard.put", card_args(&card, &courier)),
                mutation("deduction.put", deduction_args(&deduction, &courier)),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    let versions: Vec<(&str, i64)> = stored
        .iter()
        .map(|c| (c["kind"].as_str().unwrap(), c["version"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        versions,
        [
            ("courier", S + 1),
            ("rateCard", S + 2),
            ("deduction", S + 3)
        ]
    );
    summarise(&stored);
    assert_eq!(
        (&stored[0]["data"]["name"], &stored[0]["data"]["colour"]),
        (&json!("Evri"), &json!("#dc0032"))
    );
    assert_eq!(stored[1]["data"]["label"], "Autumn");
    assert_eq!(
        stored[1]["data"]["peaks"][0],
        json!({"from": "2025-12-01", "to": "2025-12-24", "extraPerStop": 20, "multiplierPercent": null})
    );
    assert_eq!(
        (
            &stored[1]["data"]["dayRate"],
            &stored[1]["data"]["perParcel"]
        ),
        (&Value::Null, &json!(40))
    );
    assert_eq!(
        (&stored[2]["data"]["amount"], &stored[2]["data"]["to"]),
        (&json!(19_500), &Value::Null)
    );

    let mut edited_card = card_args(&card, &courier);
    edited_card["perStop"] = Value::Null;
    edited_card["dayRate"] = json!(12_000);
    let mut edited_deduction = deduction_args(&deduction, &courier);
    edited_deduction["to"] = json!("2025-12-31");
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("courier.put", courier_args(&courier, "Evri Sunday")),
                mutation("rateCard.put", edited_card),
                mutation("deduction.put", edited_deduction),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let edited = pull(&app, &cookie, S + 3, 10).await;
    let edited = edited["changes"].as_array().unwrap();
    assert_eq!(edited.len(), 3);
    assert_eq!(
        (&edited[0]["data"]["name"], &edited[0]["version"]),
        (&json!("Evri Sunday"), &json!(S + 4))
    );
    assert_eq!(
        (&edited[1]["data"]["perStop"], &edited[1]["data"]["dayRate"]),
        (&Value::Null, &json!(12_000))
    );
    assert_eq!(edited[2]["data"]["to"], "2025-12-31");

    let reply = app
        .push(
            &cookie,
            ["deduction", "rateCard", "courier"]
                .iter()
                .zip([&deduction, &card, &courier])
                .map(|(kind, id)| mutation(&format!("{kind}.delete"), json!({"id": id})))
                .collect(),
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let gone = pull(&app, &cookie, S + 6, 10).await;
    let gone: Vec<(&str, bool, bool)> = gone["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap(),
                c["deleted"].as_bool().unwrap(),
                c.get("data").is_none(),
            )
        })
        .collect();
    assert_eq!(
        gone,
        [
            ("deduction", true, true),
            ("rateCard", true, true),
            ("courier", true, true)
        ]
    );
}

/// A deduction says what it is for and which vehicle: the vehicle must be the user's and must
/// exist, as an expense's; an app from before the fields edits a deduction without undoing them;
/// a newer app changes them, "No vehicle" (null) included.
async fn a_deduction_says_what_it_is_for_and_which_vehicle(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("van-hire@example.com", "van-route-42").await;
    let (mallory, _) = app
        .sign_up("mallory-van-hire@example.com", "van-route-42")
        .await;
    let (courier, van, hire) = (new_id(), new_id(), new_id());
    let mallory_van = new_id();
    let reply = app
        .push(
            &mallory,
            vec![mutation("vehicle.put", vehicle_args(&mallory_van, "Hers"))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let with = |id: &str, purpose: Value, vehicle: Value| {
        let mut args = deduction_args(id, &courier);
        args["purpose"] = purpose;
        args["vehicleId"] = vehicle;
        args
    };
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("courier.put", courier_args(&courier, "DPD")),
                mutation("vehicle.put", vehicle_args(&van, "Hired van")),
                mutation(
                    "deduction.put",
                    with(&hire, json!("vehicleHire"), json!(van)),
                ),
                // Another account's vehicle, and one that does not exist.
                mutation(
                    "deduction.put",
                    with(&new_id(), json!("vehicleHire"), json!(mallory_van)),
                ),
                mutation(
                    "deduction.put",
                    with(&new_id(), json!("vehicleHire"), json!(new_id())),
                ),
                // Not a purpose from the list; a vehicle with no purpose.
                mutation(
                    "deduction.put",
                    with(&new_id(), json!("vanHire"), Value::Null),
                ),
                mutation("deduction.put", with(&new_id(), Value::Null, json!(van))),
            ],
        )
        .await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(
        codes,
        [
            "applied",
            "applied",
            "applied",
            "not-owner",
            "missing-reference",
            "validation",
            "validation"
        ],
        "{}",
        reply.text
    );
    let deduction = |changes: &[Value]| {
        changes
            .iter()
            .rev()
            .find(|c| c["kind"] == "deduction" && c["id"] == json!(hire))
            .map(|c| c["data"].clone())
            .unwrap()
    };
    let stored = deduction(&pull_all(&app, &cookie).await);
    assert_eq!(
        (&stored["purpose"], &stored["vehicleId"]),
        (&json!("vehicleHire"), &json!(van))
    );

    // An old cached app renames it: it sends neither field, and both are kept.
    let mut old = deduction_args(&hire, &courier);
    old["label"] = json!("Van hire (DPD)");
    let reply = app
        .push(&cookie, vec![mutation("deduction.put", old)])
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let kept = deduction(&pull_all(&app, &cookie).await);
    assert_eq!(
        (&kept["label"], &kept["purpose"], &kept["vehicleId"]),
        (&json!("Van hire (DPD)"), &json!("vehicleHire"), &json!(van))
    );
    // An old app's new deduction says nothing: both null.
    let fee = new_id();
    let reply = app
        .push(
            &cookie,
            vec![mutation("deduction.put", deduction_args(&fee, &courier))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let changes = pull_all(&app, &cookie).await;
    let fee = changes.iter().find(|c| c["id"] == json!(fee)).unwrap();
    assert_eq!(
        (&fee["data"]["purpose"], &fee["data"]["vehicleId"]),
        (&Value::Null, &Value::Null)
    );

    // A newer app says it is no vehicle's after all.
    let reply = app
        .push(
            &cookie,
            vec![mutation(
                "deduction.put",
                with(&hire, json!("vehicleHire"), Value::Null),
            )],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let unlinked = deduction(&pull_all(&app, &cookie).await);
    assert_eq!(
        (&unlinked["purpose"], &unlinked["vehicleId"]),
        (&json!("vehicleHire"), &Value::Null)
    );
}

/// Bad input of each new kind is refused as `validation` naming every problem at once, and
/// nothing is written.
async fn new_kinds_refuse_bad_input_naming_every_problem(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("bad-kinds@example.com", "van-route-42").await;
    let courier = new_id();
    let cases = [
        (
            "courier.put",
            json!({"id": "x", "name": " ", "colour": "red", "periodKind": "daily", "periodAnchor": "2025-02-30", "arrearsWeeks": 13}),
            6,
        ),
        (
            "rateCard.put",
            json!({"id": new_id(), "courierId": courier, "validFrom": "soon", "label": "a\u{7}",
                   "perStop": [{"rate": 150}], "parcelCapPerStop": 3, "hourly": -1,
                   "peaks": [{"from": "2025-12-24", "to": "2025-12-01"}]}),
            7, // the peak has two faults
        ),
        (
            "rateCard.put",
            json!({"id": new_id(), "courierId": courier, "validFrom": "2025-01-01", "perFailed": 0}),
            1,
        ),
        (
            "deduction.put",
            json!({"id": new_id(), "courierId": "c", "label": "", "amount": 0, "repeat": "once", "from": "2025-03-03", "to": "2025-03-04"}),
            4,
        ),
        (
            "entry.put",
            json!({"id": new_id(), "date": "2025-03-03", "stops": 1, "total": 198, "courierId": "c", "parcels": -1, "startTime": "7am"}),
            3,
        ),
        (
            "invoice.put",
            json!({"id": new_id(), "periodStart": "2025-03-01", "periodEnd": "2025-03-31", "paid": 1, "status": "paid", "deductions": -1, "note": "n".repeat(1_001)}),
            3,
        ),
    ];
    for (name, args, problems) in cases {
        let pushed = mutation(name, args);
        let reply = app.push(&cookie, vec![pushed.clone()]).await;
        let result = &reply.body["results"][0];
        assert_eq!(
            (&result["status"], &result["code"]),
            (&json!("rejected"), &json!("validation")),
            "{name}: {}",
            reply.text
        );
        let message = result["message"].as_str().unwrap();
        assert_eq!(message.split("; ").count(), problems, "{name}: {message}");
        assert_names_every_problem(&reply, name, problems);
        let replay = app.push(&cookie, vec![pushed]).await;
        assert_eq!(replay.body, reply.body, "{name}: a replay keeps the fields");
    }
    let reply = app
        .push(
            &cookie,
            vec![mutation(
                "entry.put",
                json!({"id": new_id(), "date": "2025-03-03", "stops": 1, "total": 198, "parcels": -1, "startTime": "7am"}),
            )],
        )
        .await;
    assert_eq!(
        reply.body["results"][0]["fields"],
        json!({"parcels": ["Parcels must be a whole number from 0 to 2000, or left empty"],
               "startTime": ["Start time must be a time written HH:MM"]}),
        "{}",
        reply.text
    );
    for unknown in [
        mutation(
            "courier.put",
            json!({"id": new_id(), "name": "A", "colour": "#000000", "periodKind": "weekly", "periodAnchor": "2025-01-05", "arrearsWeeks": 0, "userId": "x"}),
        ),
        mutation(
            "deduction.put",
            json!({"id": new_id(), "courierId": courier, "label": "A", "amount": 1, "repeat": "once", "from": "2025-01-05", "vat": 1}),
        ),
    ] {
        let reply = app.push(&cookie, vec![unknown]).await;
        assert_eq!(
            reply.body["results"][0]["code"], "validation",
            "{}",
            reply.text
        );
    }
    assert!(
        pull_all(&app, &cookie).await.is_empty(),
        "nothing refused was written"
    );
}

/// A refused put names each problem under its field, as a REST answer does, and the same
/// problems as its message.
#[track_caller]
fn assert_names_every_problem(reply: &common::Reply, name: &str, problems: usize) {
    let result = &reply.body["results"][0];
    let message = result["message"].as_str().unwrap();
    let by_field: Vec<&str> = result["fields"]
        .as_object()
        .unwrap_or_else(|| panic!("{name} names its fields: {}", reply.text))
        .values()
        .flat_map(|messages| messages.as_array().unwrap().iter())
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(by_field.len(), problems, "{name}: {}", reply.text);
    assert!(
        by_field.iter().all(|m| message.contains(m)),
        "{name}: {}",
        reply.text
    );
}

/// Another account's courier, card or deduction id is `not-owner`; so is pointing at
/// another account's courier or card.
async fn other_accounts_couriers_and_cards_are_not_owned(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (alice, _) = app
        .sign_up("alice-couriers@example.com", "van-route-42")
        .await;
    let (mallory, _) = app
        .sign_up("mallory-couriers@example.com", "van-route-42")
        .await;
    let alice_id = user_id(&app, &alice).await;
    let mallory_id = user_id(&app, &mallory).await;
    let (courier, card, deduction) = (new_id(), new_id(), new_id());
    app.push(
        &alice,
        vec![
            mutation("courier.put", courier_args(&courier, "DPD")),
            mutation("rateCard.put", card_args(&card, &courier)),
            mutation("deduction.put", deduction_args(&deduction, &courier)),
        ],
    )
    .await;
    let before = pull_all(&app, &alice).await;
    let attempts = vec![
        mutation("courier.put", courier_args(&courier, "Mine now")),
        mutation("rateCard.put", card_args(&card, &mallory_id)),
        mutation("deduction.put", deduction_args(&deduction, &mallory_id)),
        mutation("courier.delete", json!({"id": alice_id})),
        // Her own ids, pointing at alice's records.
        mutation("rateCard.put", card_args(&new_id(), &courier)),
        mutation("deduction.put", deduction_args(&new_id(), &alice_id)),
        mutation("entry.put", day_args(&new_id(), &courier, None)),
        mutation("entry.put", day_args(&new_id(), &mallory_id, Some(&card))),
        mutation(
            "entry.put",
            day_args(&new_id(), &mallory_id, Some(&alice_id)),
        ),
        mutation(
            "invoice.put",
            json!({"id": new_id(), "periodStart": "2025-03-01", "periodEnd": "2025-03-31", "paid": 1, "courierId": alice_id}),
        ),
    ];
    let count = attempts.len();
    let reply = app.push(&mallory, attempts.clone()).await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(codes, vec!["not-owner"; count], "{}", reply.text);
    // Recorded: the same mutations again get the same answers.
    let again = app.push(&mallory, attempts).await;
    assert_eq!(again.body, reply.body);
    assert_eq!(
        pull_all(&app, &alice).await,
        before,
        "alice's records did not move"
    );
    assert!(pull_all(&app, &mallory).await.is_empty());
}

/// What a record points at is checked on every put, in push order: a missing courier is
/// `missing-reference` and not recorded (the same mutation applies once the courier
/// arrives), the user's own deleted courier is fine, and a courier put earlier in the same
/// push counts.
async fn references_are_checked_in_push_order(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("references@example.com", "van-route-42").await;
    let (courier, card) = (new_id(), new_id());
    let early_day = mutation("entry.put", day_args(&new_id(), &courier, Some(&card)));
    let early_deduction = mutation("deduction.put", deduction_args(&new_id(), &courier));
    let reply = app
        .push(&cookie, vec![early_day.clone(), early_deduction.clone()])
        .await;
    let results = reply.body["results"].as_array().unwrap();
    for result in results {
        assert_eq!(
            (&result["status"], &result["code"]),
            (&json!("rejected"), &json!("missing-reference")),
            "{}",
            reply.text
        );
    }
    assert!(results[0]["message"].as_str().unwrap().contains("courier"));
    assert!(pull_all(&app, &cookie).await.is_empty());

    // The courier and card arrive (one push, the card after its courier): the very same
    // mutations are looked at afresh and applied.
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("courier.put", courier_args(&courier, "Yodel")),
                mutation("rateCard.put", card_args(&card, &courier)),
                early_day.clone(),
                early_deduction,
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 4], "{}", reply.text);
    let replay = app.push(&cookie, vec![early_day]).await;
    assert_eq!(statuses(&replay), ["applied"]);
    assert!(
        pull_all(&app, &cookie).await.len() == 4,
        "the replay wrote nothing more"
    );

    // Deleted on another device: a day logged offline for it is still kept.
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("rateCard.delete", json!({"id": card})),
                mutation("courier.delete", json!({"id": courier})),
                mutation("entry.put", day_args(&new_id(), &courier, Some(&card))),
                mutation("invoice.put", json!({"id": new_id(), "periodStart": "2025-03-01", "periodEnd": "2025-03-31", "paid": 1, "courierId": courier})),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 4], "{}", reply.text);

    // A missing card alone is enough to refuse a day, and a refusal is not recorded.
    let orphan = mutation("entry.put", day_args(&new_id(), &courier, Some(&new_id())));
    for _ in 0..2 {
        let reply = app.push(&cookie, vec![orphan.clone()]).await;
        assert_eq!(reply.body["results"][0]["code"], "missing-reference");
        assert!(
            reply.body["results"][0]["message"]
                .as_str()
                .unwrap()
                .contains("rateCard")
        );
    }
}

/// Issue 31: a day could name one courier with another courier's rate card. The card must be
/// a card of the day's courier (`mismatched-reference`, not recorded: the same day applies
/// once it is corrected); a day of the default courier from an app before couriers, and a day
/// priced with no card, are fine.
async fn a_days_rate_card_must_be_its_couriers(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app
        .sign_up("card-courier@example.com", "van-route-42")
        .await;
    let me = user_id(&app, &cookie).await;
    let (evri, dpd, evri_card, dpd_card) = (new_id(), new_id(), new_id(), new_id());
    let setup = app
        .push(
            &cookie,
            vec![
                mutation("courier.put", courier_args(&evri, "Evri")),
                mutation("courier.put", courier_args(&dpd, "DPD")),
                mutation("rateCard.put", card_args(&evri_card, &evri)),
                mutation("rateCard.put", card_args(&dpd_card, &dpd)),
            ],
        )
        .await;
    assert_eq!(statuses(&setup), ["applied"; 4], "{}", setup.text);

    let crossed = mutation("entry.put", day_args(&new_id(), &evri, Some(&dpd_card)));
    for _ in 0..2 {
        let reply = app.push(&cookie, vec![crossed.clone()]).await;
        let result = &reply.body["results"][0];
        assert_eq!(result["code"], "mismatched-reference", "{}", reply.text);
        assert_eq!(
            result["message"],
            "This day's rate card is another courier's. Nothing was saved."
        );
    }
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("entry.put", day_args(&new_id(), &evri, Some(&evri_card))),
                mutation("entry.put", day_args(&new_id(), &dpd, None)),
                mutation("entry.put", day_args(&new_id(), &me, Some(&me))),
                mutation(
                    "entry.put",
                    json!({"id": new_id(), "date": "2025-09-03", "stops": 3, "total": 594}),
                ),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 4], "{}", reply.text);
    // An edit that moves a day to another courier must move its card too.
    let day = new_id();
    app.push(
        &cookie,
        vec![mutation(
            "entry.put",
            day_args(&day, &evri, Some(&evri_card)),
        )],
    )
    .await;
    let moved = app
        .push(
            &cookie,
            vec![mutation(
                "entry.put",
                day_args(&day, &dpd, Some(&evri_card)),
            )],
        )
        .await;
    assert_eq!(moved.body["results"][0]["code"], "mismatched-reference");
}

/// Issue 31: the nil and max UUIDs were taken as record ids, and `+2025-01-01` as a date.
async fn nil_and_max_ids_and_signed_dates_are_refused(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("odd-ids@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (nil, max) = (
        "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
    );
    let mut signed = day_args(&new_id(), &me, Some(&me));
    signed["date"] = json!("+2025-01-01");
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("entry.put", day_args(nil, &me, Some(&me))),
                mutation("courier.put", courier_args(max, "Max")),
                mutation("entry.delete", json!({"id": nil})),
                mutation("rateCard.delete", json!({"id": max})),
                mutation("entry.put", day_args(&new_id(), nil, None)),
                mutation("entry.put", signed),
            ],
        )
        .await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(codes, ["validation"; 6], "{}", reply.text);
    assert!(
        reply.body["results"][5]["message"]
            .as_str()
            .unwrap()
            .contains("YYYY-MM-DD")
    );
}

/// Issue 31: `entry.notes` took NUL, ESC, DEL and C1 controls, and names and labels took
/// bidi overrides. Every free-text field refuses them now; notes keep line breaks and tabs.
async fn free_text_refuses_control_characters_and_direction_marks(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("free-text@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let notes = |text: &str| {
        let mut args = day_args(&new_id(), &me, Some(&me));
        args["notes"] = json!(text);
        mutation("entry.put", args)
    };
    let refused = [
        notes("nul\u{0}"),
        notes("esc\u{1b}[2J"),
        notes("del\u{7f}"),
        notes("c1\u{9b}31m"),
        notes("gnp.\u{202e}exe"),
        mutation("courier.put", courier_args(&new_id(), "Evri\u{202e}")),
        mutation("profile.update", json!({"displayName": "Sam\u{2066}"})),
        mutation("profile.update", json!({"bio": "bell\u{7}"})),
    ];
    let reply = app.push(&cookie, refused.to_vec()).await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(codes, ["validation"; 8], "{}", reply.text);
    let fine = app
        .push(
            &cookie,
            vec![
                notes("first line\nsecond\ttabbed"),
                mutation("profile.update", json!({"bio": "two\nlines"})),
            ],
        )
        .await;
    assert_eq!(statuses(&fine), ["applied"; 2], "{}", fine.text);
}

fn vehicle_args(id: &str, name: &str) -> Value {
    json!({"id": id, "name": name, "type": "carVan", "method": "flatRate"})
}

fn expense_args(id: &str, courier: Option<&str>, vehicle: Option<&str>) -> Value {
    json!({"id": id, "date": "2025-04-06", "amount": 4_599, "category": "fuel",
           "note": " Shell ", "courierId": courier, "vehicleId": vehicle, "repeat": "once",
           "repeatUntil": null, "receipts": ["0190a6e2-7c1d-7000-8000-0000000000a1"]})
}

fn mileage_args(id: &str, vehicle: &str, courier: Option<&str>) -> Value {
    json!({"id": id, "date": "2026-04-05", "vehicleId": vehicle, "courierId": courier,
           "odometerStart": 42_000, "odometerEnd": 42_130, "businessMiles": 112,
           "commuteMiles": 12, "note": ""})
}

/// The pulled `data` without its timestamps.
fn content(change: &Value) -> Value {
    let mut data = change["data"].clone();
    let object = data.as_object_mut().unwrap();
    assert!(object.remove("createdAt").is_some() && object.remove("updatedAt").is_some());
    data
}

/// Vehicles, expenses and mileage (issue 13): put, edit, delete, each pulled with its version
/// and exactly the content the contract names.
async fn vehicles_expenses_and_mileage_put_edit_delete(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("spending@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (van, fuel, day) = (new_id(), new_id(), new_id());
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("vehicle.put", vehicle_args(&van, " Transit ")),
                mutation("expense.put", expense_args(&fuel, Some(&me), Some(&van))),
                mutation("mileage.put", mileage_args(&day, &van, Some(&me))),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    assert_eq!(
        summarise(&stored),
        [
            ("vehicle".to_owned(), van.clone(), S + 1, false),
            ("expense".to_owned(), fuel.clone(), S + 2, false),
            ("mileage".to_owned(), day.clone(), S + 3, false)
        ]
    );
    assert_eq!(
        content(&stored[0]),
        json!({"name": "Transit", "type": "carVan", "method": "flatRate", "commuteMiles": 0})
    );
    assert_eq!(
        content(&stored[1]),
        json!({"date": "2025-04-06", "amount": 4_599, "category": "fuel", "note": "Shell",
               "courierId": me, "vehicleId": van, "repeat": "once", "repeatUntil": null,
               "receipts": ["0190a6e2-7c1d-7000-8000-0000000000a1"]})
    );
    assert_eq!(
        content(&stored[2]),
        json!({"date": "2026-04-05", "vehicleId": van, "courierId": me,
               "odometerStart": 42_000, "odometerEnd": 42_130, "businessMiles": 112,
               "commuteMiles": 12, "note": ""})
    );

    let mut monthly = expense_args(&fuel, None, None);
    monthly["category"] = json!("phone");
    monthly["repeat"] = json!("monthly");
    monthly["repeatUntil"] = json!("2026-04-05");
    monthly["receipts"] = json!([]);
    let mut typed = mileage_args(&day, &van, None);
    typed["odometerStart"] = Value::Null;
    typed["odometerEnd"] = Value::Null;
    typed["commuteMiles"] = json!(0);
    let mut bicycle = vehicle_args(&van, "Bike");
    bicycle["type"] = json!("bicycle");
    bicycle["method"] = json!("actualCosts");
    let reply = app
        .push(
            &cookie,
            vec![
                mutation("vehicle.put", bicycle),
                mutation("expense.put", monthly),
                mutation("mileage.put", typed),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let edited = pull(&app, &cookie, S + 3, 10).await;
    let edited = edited["changes"].as_array().unwrap();
    assert_eq!(
        summarise(edited),
        [
            ("vehicle".to_owned(), van.clone(), S + 4, false),
            ("expense".to_owned(), fuel.clone(), S + 5, false),
            ("mileage".to_owned(), day.clone(), S + 6, false)
        ]
    );
    assert_eq!(
        (&edited[0]["data"]["type"], &edited[0]["data"]["method"]),
        (&json!("bicycle"), &json!("actualCosts"))
    );
    assert_eq!(
        (
            &edited[1]["data"]["repeatUntil"],
            &edited[1]["data"]["courierId"],
            &edited[1]["data"]["receipts"]
        ),
        (&json!("2026-04-05"), &Value::Null, &json!([]))
    );
    assert_eq!(
        (
            &edited[2]["data"]["odometerStart"],
            &edited[2]["data"]["businessMiles"]
        ),
        (&Value::Null, &json!(112))
    );

    let reply = app
        .push(
            &cookie,
            ["mileage", "expense", "vehicle"]
                .iter()
                .zip([&day, &fuel, &van])
                .map(|(kind, id)| mutation(&format!("{kind}.delete"), json!({"id": id})))
                .collect(),
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let gone = pull(&app, &cookie, S + 6, 10).await;
    assert_eq!(
        summarise(gone["changes"].as_array().unwrap()),
        [
            ("mileage".to_owned(), day, S + 7, true),
            ("expense".to_owned(), fuel, S + 8, true),
            ("vehicle".to_owned(), van, S + 9, true)
        ]
    );
}

/// Bad expenses, vehicles and mileage are refused as `validation` naming every problem at
/// once; a put leaving out a field (every field is required) or adding one is refused too,
/// and nothing is written.
async fn spending_kinds_refuse_bad_input_naming_every_problem(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app
        .sign_up("bad-spending@example.com", "van-route-42")
        .await;
    let cases = [
        (
            "expense.put",
            json!({"id": "x", "date": "2025-02-29", "amount": 0, "category": "lunch",
                   "note": "a\u{7}", "courierId": "c", "vehicleId": "v", "repeat": "daily",
                   "repeatUntil": "soon", "receipts": ["A"]}),
            10,
        ),
        (
            "expense.put",
            json!({"id": new_id(), "date": "2025-04-06", "amount": 10_000_001,
                   "category": "fuel", "note": "", "courierId": null, "vehicleId": null,
                   "repeat": "once", "repeatUntil": "2025-04-07",
                   "receipts": ["0190a6e2-7c1d-7000-8000-0000000000a1", "0190a6e2-7c1d-7000-8000-0000000000a1"]}),
            3,
        ),
        (
            "vehicle.put",
            json!({"id": new_id(), "name": " ", "type": "bicycle", "method": "flatRate"}),
            2,
        ),
        (
            "vehicle.put",
            json!({"id": "v", "name": "Van", "type": "lorry", "method": "guess"}),
            3,
        ),
        (
            "mileage.put",
            json!({"id": new_id(), "date": "2026-04-05", "vehicleId": new_id(),
                   "courierId": null, "odometerStart": 42_000, "odometerEnd": 41_000,
                   "businessMiles": 2_001, "commuteMiles": -1, "note": "n".repeat(201)}),
            4,
        ),
        (
            "mileage.put",
            json!({"id": new_id(), "date": "2026-04-05", "vehicleId": new_id(),
                   "courierId": null, "odometerStart": null, "odometerEnd": null,
                   "businessMiles": 0, "commuteMiles": 0, "note": ""}),
            1,
        ),
        (
            "mileage.put",
            json!({"id": new_id(), "date": "2026-04-05", "vehicleId": new_id(),
                   "courierId": null, "odometerStart": 100, "odometerEnd": 150,
                   "businessMiles": 40, "commuteMiles": 11, "note": ""}),
            1,
        ),
    ];
    for (name, args, problems) in cases {
        let pushed = mutation(name, args);
        let reply = app.push(&cookie, vec![pushed.clone()]).await;
        let result = &reply.body["results"][0];
        assert_eq!(
            (&result["status"], &result["code"]),
            (&json!("rejected"), &json!("validation")),
            "{name}: {}",
            reply.text
        );
        let message = result["message"].as_str().unwrap();
        assert_eq!(message.split("; ").count(), problems, "{name}: {message}");
        assert_names_every_problem(&reply, name, problems);
        let replay = app.push(&cookie, vec![pushed]).await;
        assert_eq!(replay.body, reply.body, "{name}: a replay keeps the fields");
    }
    let bicycle = app
        .push(
            &cookie,
            vec![mutation(
                "vehicle.put",
                json!({"id": new_id(), "name": "Bike", "type": "bicycle", "method": "flatRate"}),
            )],
        )
        .await;
    assert_eq!(
        bicycle.body["results"][0]["message"],
        "A bicycle's costs are claimed as actual costs"
    );
    let mut incomplete = Vec::new();
    for (name, full) in [
        ("expense.put", expense_args(&new_id(), None, None)),
        ("vehicle.put", vehicle_args(&new_id(), "Van")),
        ("mileage.put", mileage_args(&new_id(), &new_id(), None)),
    ] {
        for field in full.as_object().unwrap().keys() {
            let mut missing = full.clone();
            missing.as_object_mut().unwrap().remove(field);
            incomplete.push(mutation(name, missing));
        }
        let mut extra = full.clone();
        extra["userId"] = json!(new_id());
        incomplete.push(mutation(name, extra));
    }
    let count = incomplete.len();
    let reply = app.push(&cookie, incomplete).await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(codes, vec!["validation"; count], "{}", reply.text);
    assert!(
        pull_all(&app, &cookie).await.is_empty(),
        "nothing refused was written"
    );
}

/// Another account's vehicle, expense or mileage id is `not-owner`, and so is an expense or a
/// mileage record pointing at another account's vehicle or courier.
async fn other_accounts_vehicles_and_spending_are_not_owned(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (alice, _) = app
        .sign_up("alice-spending@example.com", "van-route-42")
        .await;
    let (mallory, _) = app
        .sign_up("mallory-spending@example.com", "van-route-42")
        .await;
    let alice_id = user_id(&app, &alice).await;
    let mallory_id = user_id(&app, &mallory).await;
    let (van, fuel, day) = (new_id(), new_id(), new_id());
    let reply = app
        .push(
            &alice,
            vec![
                mutation("vehicle.put", vehicle_args(&van, "Transit")),
                mutation(
                    "expense.put",
                    expense_args(&fuel, Some(&alice_id), Some(&van)),
                ),
                mutation("mileage.put", mileage_args(&day, &van, None)),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let before = pull_all(&app, &alice).await;
    let mallory_van = new_id();
    app.push(
        &mallory,
        vec![mutation("vehicle.put", vehicle_args(&mallory_van, "Mine"))],
    )
    .await;
    let attempts = vec![
        mutation("vehicle.put", vehicle_args(&van, "Mine now")),
        mutation("expense.put", expense_args(&fuel, None, None)),
        mutation("mileage.put", mileage_args(&day, &mallory_van, None)),
        mutation("vehicle.delete", json!({"id": van})),
        mutation("expense.delete", json!({"id": fuel})),
        mutation("mileage.delete", json!({"id": day})),
        // Her own ids, pointing at alice's records.
        mutation("expense.put", expense_args(&new_id(), None, Some(&van))),
        mutation(
            "expense.put",
            expense_args(&new_id(), Some(&alice_id), None),
        ),
        mutation(
            "expense.put",
            expense_args(&new_id(), Some(&mallory_id), Some(&van)),
        ),
        mutation("mileage.put", mileage_args(&new_id(), &van, None)),
        mutation(
            "mileage.put",
            mileage_args(&new_id(), &mallory_van, Some(&alice_id)),
        ),
    ];
    let count = attempts.len();
    let reply = app.push(&mallory, attempts).await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(codes, vec!["not-owner"; count], "{}", reply.text);
    assert_eq!(
        pull_all(&app, &alice).await,
        before,
        "alice's records did not move"
    );
    assert_eq!(pull_all(&app, &mallory).await.len(), 1, "only her own van");
}

/// An expense or a mileage record naming a vehicle or courier that does not exist is
/// `missing-reference` (not recorded: it applies once the vehicle arrives, even later in the
/// same push); an expense with neither needs nothing.
async fn spending_needs_the_vehicle_and_courier_it_names(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app
        .sign_up("spending-refs@example.com", "van-route-42")
        .await;
    let me = user_id(&app, &cookie).await;
    let (van, nobody) = (new_id(), new_id());
    let early = vec![
        mutation("expense.put", expense_args(&new_id(), None, Some(&van))),
        mutation("expense.put", expense_args(&new_id(), Some(&nobody), None)),
        mutation("mileage.put", mileage_args(&new_id(), &van, None)),
        mutation("mileage.put", mileage_args(&new_id(), &van, Some(&nobody))),
    ];
    let reply = app.push(&cookie, early.clone()).await;
    let results = reply.body["results"].as_array().unwrap();
    let codes: Vec<&str> = results
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(codes, ["missing-reference"; 4], "{}", reply.text);
    assert!(results[0]["message"].as_str().unwrap().contains("vehicle"));
    assert!(results[1]["message"].as_str().unwrap().contains("courier"));
    assert!(pull_all(&app, &cookie).await.is_empty());

    // The vehicle arrives first in the same push: the very same mutations now apply, except
    // the two naming a courier that still does not exist.
    let mut with_van = vec![mutation("vehicle.put", vehicle_args(&van, "Transit"))];
    with_van.extend(early);
    with_van.push(mutation("expense.put", expense_args(&new_id(), None, None)));
    with_van.push(mutation(
        "mileage.put",
        mileage_args(&new_id(), &van, Some(&me)),
    ));
    let reply = app.push(&cookie, with_van).await;
    let codes: Vec<&str> = reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied"))
        .collect();
    assert_eq!(
        codes,
        [
            "applied",
            "applied",
            "missing-reference",
            "applied",
            "missing-reference",
            "applied",
            "applied"
        ],
        "{}",
        reply.text
    );
    assert_eq!(pull_all(&app, &cookie).await.len(), 5);
}

/// The settings' tax region syncs to every device; an app from before it (a put with only
/// `theme`) keeps the region a newer app chose.
async fn the_tax_region_syncs_and_an_old_apps_theme_keeps_it(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("region@example.com", "van-route-42").await;
    let settings = |args: Value| json!({"id": new_id(), "name": "settings.put", "args": args});
    let latest = async || {
        let changes = pull_all(&app, &cookie).await;
        let found = changes.iter().rev().find(|c| c["kind"] == "settings");
        let data = found.expect("settings change")["data"].clone();
        (data["theme"].clone(), data["taxRegion"].clone())
    };
    let reply = app
        .push(&cookie, vec![settings(json!({"theme": "light"}))])
        .await;
    assert_eq!(statuses(&reply), ["applied"]);
    assert_eq!(latest().await, (json!("light"), json!("uk")), "the default");
    let reply = app
        .push(
            &cookie,
            vec![settings(json!({"theme": "dark", "taxRegion": "scotland"}))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"]);
    assert_eq!(latest().await, (json!("dark"), json!("scotland")));
    let reply = app
        .push(&cookie, vec![settings(json!({"theme": "light"}))])
        .await;
    assert_eq!(statuses(&reply), ["applied"]);
    assert_eq!(
        latest().await,
        (json!("light"), json!("scotland")),
        "an old app's put keeps the region"
    );
    let reply = app
        .push(
            &cookie,
            vec![
                settings(json!({"taxRegion": "wales"})),
                settings(json!({})),
                settings(json!({"taxRegion": "uk"})),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["rejected", "rejected", "applied"]);
    assert_eq!(reply.body["results"][1]["code"], "validation");
    assert_eq!(latest().await, (json!("light"), json!("uk")));

    // The MTD quarters election (issue 29): standard until chosen, kept by puts that leave it
    // out, and only the two HMRC elections are taken.
    let quarters = async || {
        let changes = pull_all(&app, &cookie).await;
        let found = changes.iter().rev().find(|c| c["kind"] == "settings");
        found.expect("settings change")["data"]["quarters"].clone()
    };
    assert_eq!(quarters().await, json!("standard"), "the default");
    let reply = app
        .push(
            &cookie,
            vec![
                settings(json!({"quarters": "monthly"})),
                settings(json!({"quarters": "calendar"})),
                settings(json!({"theme": "dark"})),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["rejected", "applied", "applied"]);
    assert_eq!(quarters().await, json!("calendar"), "a theme put keeps it");
    assert_eq!(latest().await, (json!("dark"), json!("uk")));
}

/// An app from before couriers keeps working: its days and checks belong to the default
/// courier (and days to its first card), and its pay tiers go into that card.
/// A day and a statement check recorded by a newer app (a second courier, parcels, times, a
/// status and a note), then edited by an old cached app that pulled them without those fields:
/// the edit changes what the old app knows about and keeps the rest as stored.
async fn an_old_apps_edit_keeps_what_a_newer_app_recorded(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("old-edit@example.com", "van-route-42").await;
    let (evri, card, day, check) = (new_id(), new_id(), new_id(), new_id());
    let newer = vec![
        json!({"id": new_id(), "name": "courier.put", "args": {"id": evri, "name": "Evri",
               "colour": "#16a34a", "periodKind": "weekly", "periodAnchor": "2025-01-05", "arrearsWeeks": 1}}),
        json!({"id": new_id(), "name": "rateCard.put", "args": {"id": card, "courierId": evri,
               "validFrom": "2000-01-01", "label": "", "perStop": null, "perParcel": 45,
               "parcelCapPerStop": null, "perCollection": null, "perFailed": null, "dayRate": null,
               "hourly": null, "peaks": []}}),
        json!({"id": new_id(), "name": "entry.put", "args": {"id": day, "date": "2025-03-21",
               "stops": 30, "extra": 0, "notes": "Evri round", "total": 4_500, "courierId": evri,
               "rateCardId": card, "parcels": 100, "collections": 4, "failed": 1,
               "startTime": "08:00", "finishTime": "13:30", "separateShift": true}}),
        put_statement_check(
            &new_id(),
            json!({"id": check, "periodStart": "2025-03-16", "periodEnd": "2025-03-22",
               "paid": 4_000, "stops": 30, "reference": "E-1", "courierId": evri, "parcels": 90,
               "collections": 4, "deductions": 500, "status": "disputed", "note": "10 parcels short"}),
        ),
    ];
    let reply = app.push(&cookie, newer).await;
    assert_eq!(statuses(&reply), ["applied"; 4], "{}", reply.text);

    // The old app: only the fields it knows, with the notes and the reference edited.
    let old = vec![
        json!({"id": new_id(), "name": "entry.put", "args": {"id": day, "date": "2025-03-21",
               "stops": 30, "extra": 0, "notes": "Evri round, rain", "total": 4_500}}),
        put_statement_check(
            &new_id(),
            json!({"id": check, "periodStart": "2025-03-16", "periodEnd": "2025-03-22",
               "paid": 4_000, "stops": 30, "reference": "E-1 (emailed)"}),
        ),
    ];
    let reply = app.push(&cookie, old).await;
    assert_eq!(statuses(&reply), ["applied"; 2], "{}", reply.text);

    let changes = pull_all(&app, &cookie).await;
    let data = |kind: &str| {
        changes
            .iter()
            .find(|c| c["kind"] == kind)
            .map(|c| c["data"].clone())
            .unwrap()
    };
    let entry = data("entry");
    assert_eq!(entry["notes"], "Evri round, rain");
    assert_eq!(
        [
            &entry["courierId"],
            &entry["rateCardId"],
            &entry["parcels"],
            &entry["collections"],
            &entry["failed"],
            &entry["startTime"],
            &entry["finishTime"],
            &entry["total"],
            &entry["separateShift"]
        ],
        [
            &json!(evri),
            &json!(card),
            &json!(100),
            &json!(4),
            &json!(1),
            &json!("08:00"),
            &json!("13:30"),
            &json!(4_500),
            &json!(true)
        ]
    );
    let invoice = data("invoice");
    assert_eq!(invoice["reference"], "E-1 (emailed)");
    assert_eq!(
        [
            &invoice["courierId"],
            &invoice["parcels"],
            &invoice["collections"],
            &invoice["deductions"],
            &invoice["status"],
            &invoice["note"]
        ],
        [
            &json!(evri),
            &json!(90),
            &json!(4),
            &json!(500),
            &json!("disputed"),
            &json!("10 parcels short")
        ]
    );
}

/// A day kept as a separate shift (issue 25) stays one through an edit by an app from before
/// shifts (it knows couriers but sends no separateShift); a new day from such an app is not
/// one; and a newer app can still turn it off.
async fn a_separate_shift_survives_an_edit_from_an_app_before_shifts(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("shifts@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (first, second) = (new_id(), new_id());
    let day = |id: &str, notes: &str, shift: Option<bool>| {
        let mut args = json!({"id": id, "date": "2025-11-27", "stops": 60, "extra": 0,
            "notes": notes, "total": 11_880, "courierId": me, "rateCardId": me, "parcels": null,
            "collections": null, "failed": null, "startTime": null, "finishTime": null});
        if let Some(shift) = shift {
            args["separateShift"] = json!(shift);
        }
        json!({"id": new_id(), "name": "entry.put", "args": args})
    };
    let shift_of = |changes: &[Value], id: &str| {
        changes
            .iter()
            .find(|c| c["id"] == id)
            .map(|c| c["data"]["separateShift"].clone())
            .unwrap()
    };
    let reply = app
        .push(
            &cookie,
            vec![
                day(&first, "Morning", None),
                day(&second, "Evening", Some(true)),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 2], "{}", reply.text);
    let changes = pull_all(&app, &cookie).await;
    assert_eq!(
        (shift_of(&changes, &first), shift_of(&changes, &second)),
        (json!(false), json!(true))
    );

    let reply = app
        .push(&cookie, vec![day(&second, "Evening, late finish", None)])
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let changes = pull_all(&app, &cookie).await;
    assert_eq!(
        shift_of(&changes, &second),
        json!(true),
        "kept through the old app's edit"
    );
    let edited = changes.iter().find(|c| c["id"] == second.as_str()).unwrap();
    assert_eq!(edited["data"]["notes"], "Evening, late finish");

    let reply = app
        .push(&cookie, vec![day(&second, "Evening", Some(false))])
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    assert_eq!(
        shift_of(&pull_all(&app, &cookie).await, &second),
        json!(false)
    );

    let bad = json!({"id": new_id(), "name": "entry.put", "args": {"id": new_id(),
        "date": "2025-11-27", "stops": 1, "total": 198, "separateShift": "yes"}});
    let reply = app.push(&cookie, vec![bad]).await;
    assert_eq!(
        reply.body["results"][0]["code"], "validation",
        "{}",
        reply.text
    );
}

async fn an_old_apps_pushes_keep_their_meaning(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("old-app@example.com", "van-route-42").await;
    let me = user_id(&app, &cookie).await;
    let (day, check) = (new_id(), new_id());
    let tiers =
        json!([{"stopCount": 100, "rate": 180}, {"stopCount": 140, "rate": 160}, {"rate": 150}]);
    let reply = app
        .push(
            &cookie,
            vec![
                put(&new_id(), &day, "2025-03-21", 120),
                put_statement_check(&new_id(), statement_check_args(&check, "2025-03-17", "2025-03-23", 123_456)),
                json!({"id": new_id(), "name": "profile.update", "args": {"paymentConfig": {"tiers": tiers}}}),
            ],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
    let changes = pull_all(&app, &cookie).await;
    summarise(&changes);
    let kinds: Vec<(&str, i64)> = changes
        .iter()
        .map(|c| (c["kind"].as_str().unwrap(), c["version"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("entry", S + 1),
            ("invoice", S + 2),
            ("profile", S + 3),
            ("rateCard", S + 4)
        ]
    );
    let entry = &changes[0]["data"];
    assert_eq!(
        (&entry["courierId"], &entry["rateCardId"], &entry["total"]),
        (&json!(me), &json!(me), &json!(120 * 198 + 250))
    );
    for field in [
        "parcels",
        "collections",
        "failed",
        "startTime",
        "finishTime",
    ] {
        assert_eq!(entry[field], Value::Null, "{field}");
    }
    let invoice = &changes[1]["data"];
    assert_eq!(
        (
            &invoice["courierId"],
            &invoice["status"],
            &invoice["note"],
            &invoice["deductions"],
            &invoice["parcels"]
        ),
        (
            &json!(me),
            &json!("unchecked"),
            &json!(""),
            &Value::Null,
            &Value::Null
        )
    );
    assert_eq!(
        changes[2]["data"]["paymentConfig"]["tiers"], tiers,
        "the old app reads its tiers back"
    );
    assert_eq!(
        (&changes[3]["id"], &changes[3]["data"]["perStop"]),
        (&json!(me), &tiers)
    );
    assert_eq!(changes[3]["data"]["validFrom"], "2000-01-01");
}

/// A pull must never hand out a cursor past a change it did not return, even while a push of
/// several kinds commits between its reads.
async fn pulls_racing_pushes_never_skip_a_change(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("racing-pull@example.com", "van-route-42").await;
    let app = std::sync::Arc::new(app);
    let writer = {
        let (app, cookie) = (app.clone(), cookie.clone());
        tokio::spawn(async move {
            let mut written = std::collections::BTreeSet::new();
            for round in 0..60 {
                let (entry, invoice) = (new_id(), new_id());
                let reply = app.push(&cookie,
                    vec![
                        put(&new_id(), &entry, "2025-03-21", round),
                        put_statement_check(&new_id(), statement_check_args(&invoice, "2025-03-01", "2025-03-31", round)),
                        json!({"id": new_id(), "name": "settings.put", "args": {"theme": if round % 2 == 0 { "light" } else { "dark" }}}),
                    ],
                )
                .await;
                assert_eq!(reply.status, StatusCode::OK);
                written.extend([entry, invoice]);
            }
            written
        })
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut cursor = 0;
    while !writer.is_finished() {
        let page = pull(&app, &cookie, cursor, 1000).await;
        for change in page["changes"].as_array().unwrap() {
            seen.insert(change["id"].as_str().unwrap().to_owned());
        }
        cursor = page["cursor"].as_i64().unwrap();
    }
    let written = writer.await.unwrap();
    loop {
        let page = pull(&app, &cookie, cursor, 1000).await;
        for change in page["changes"].as_array().unwrap() {
            seen.insert(change["id"].as_str().unwrap().to_owned());
        }
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    let missed: Vec<_> = written.difference(&seen).collect();
    assert!(
        missed.is_empty(),
        "records skipped by an incremental pull: {missed:?}"
    );
    assert_eq!(cursor, S + 180);
}

/// A vehicle's commute, home to depot one way (issue 26): pulled as put, bounded 0–500 miles
/// (each bad value refused as `validation` on `commuteMiles`, nothing written), and an app from
/// before it, which sends no `commuteMiles`, keeps the stored one when it edits the vehicle.
async fn a_vehicles_commute_is_bounded_and_an_old_apps_edit_keeps_it(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("commute@example.com", "van-route-42").await;
    let van = new_id();
    let with_commute = |miles: Value| {
        let mut args = vehicle_args(&van, "Transit");
        args["commuteMiles"] = miles;
        args
    };
    let reply = app
        .push(
            &cookie,
            vec![mutation("vehicle.put", with_commute(json!(6)))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);

    let bad = [json!(-1), json!(501), json!(2.5), json!("6")];
    let reply = app
        .push(
            &cookie,
            bad.iter()
                .map(|miles| mutation("vehicle.put", with_commute(miles.clone())))
                .collect(),
        )
        .await;
    assert_eq!(statuses(&reply), ["rejected"; 4], "{}", reply.text);
    for result in reply.body["results"].as_array().unwrap() {
        assert_eq!(result["code"], "validation", "{result}");
    }
    // The out-of-range ones say the bounds; the malformed ones fail parsing.
    for result in &reply.body["results"].as_array().unwrap()[..2] {
        assert_eq!(
            result["message"],
            "Commute must be a whole number of miles from 0 to 500"
        );
    }

    // The old app renames the van: the commute stays 6.
    let reply = app
        .push(
            &cookie,
            vec![mutation(
                "vehicle.put",
                vehicle_args(&van, "Transit (white)"),
            )],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    let vans: Vec<&Value> = stored.iter().filter(|c| c["kind"] == "vehicle").collect();
    assert_eq!(vans.len(), 1);
    assert_eq!(
        content(vans[0]),
        json!({"name": "Transit (white)", "type": "carVan", "method": "flatRate", "commuteMiles": 6})
    );

    // A newer app's edit sets it, 0 included.
    let reply = app
        .push(
            &cookie,
            vec![mutation("vehicle.put", with_commute(json!(0)))],
        )
        .await;
    assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
    let stored = pull_all(&app, &cookie).await;
    let van_now = stored.iter().find(|c| c["kind"] == "vehicle").unwrap();
    assert_eq!(van_now["data"]["commuteMiles"], 0);
}

/// A sent quarterly update (issue 29) is kept as sent: stored once, its SHA-256 checked against
/// its file, never edited or deleted (`immutable`, recorded so a replay answers the same), and
/// superseded only by a new record naming it. Another account's sent update is not theirs.
async fn a_sent_update_is_immutable_and_only_superseded(backend: Backend) {
    use sha2::{Digest, Sha256};
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("sent@example.com", "van-route-42").await;
    let file = "{\"periodDates\":{\"periodStartDate\":\"2026-04-06\",\"periodEndDate\":\"2026-07-05\"},\"periodIncome\":{\"turnover\":300}}\n";
    let sha = hex::encode(Sha256::digest(file.as_bytes()));
    let sent = |id: &str, reference: &str, supersedes: Option<&str>, sha: &str| {
        json!({"id": new_id(), "name": "sentUpdate.put", "args": {"id": id, "taxYear": "2026-27",
            "quarter": 1, "quarters": "standard", "periodStart": "2026-04-06", "periodEnd": "2026-07-05",
            "shape": "itemised", "file": file, "sha256": sha, "sentOn": "2026-08-01",
            "product": "Bridger", "reference": reference, "supersedes": supersedes}})
    };
    let (first, second) = (new_id(), new_id());
    let edit = sent(&first, "CHANGED", None, &sha);
    let reply = app
        .push(
            &cookie,
            vec![
                sent(&first, "REF-1", None, &sha),
                edit.clone(),
                json!({"id": new_id(), "name": "sentUpdate.delete", "args": {"id": first}}),
                sent(&new_id(), "REF-X", None, &"0".repeat(64)),
                sent(&second, "REF-2", Some(&first), &sha),
                sent(&new_id(), "REF-3", Some(&new_id()), &sha),
            ],
        )
        .await;
    assert_eq!(
        statuses(&reply),
        [
            "applied", "rejected", "rejected", "rejected", "applied", "rejected"
        ],
        "{}",
        reply.text
    );
    let codes: Vec<_> = (1..=3)
        .map(|i| reply.body["results"][i]["code"].clone())
        .collect();
    assert_eq!(
        codes,
        [json!("immutable"), json!("immutable"), json!("validation")]
    );
    assert_eq!(reply.body["results"][5]["code"], "missing-reference");
    // A replay of the refused edit answers the same, and still changes nothing.
    let again = app.push(&cookie, vec![edit]).await;
    assert_eq!(again.body["results"][0]["code"], "immutable");
    let changes = pull_all(&app, &cookie).await;
    let sent_updates: Vec<_> = changes
        .iter()
        .filter(|c| c["kind"] == "sentUpdate")
        .collect();
    assert_eq!(sent_updates.len(), 2);
    assert_eq!(sent_updates[0]["data"]["reference"], "REF-1");
    assert_eq!(sent_updates[0]["data"]["file"], file);
    assert_eq!(sent_updates[0]["data"]["sha256"], sha.as_str());
    assert_eq!(sent_updates[1]["data"]["supersedes"], first.as_str());

    let (other, _) = app.sign_up("sent-other@example.com", "van-route-42").await;
    let reply = app
        .push(&other, vec![sent(&first, "MINE", None, &sha)])
        .await;
    assert_eq!(reply.body["results"][0]["code"], "not-owner");
}

on_both_backends!(
    a_sent_update_is_immutable_and_only_superseded,
    a_days_rate_card_must_be_its_couriers,
    free_text_refuses_control_characters_and_direction_marks,
    nil_and_max_ids_and_signed_dates_are_refused,
    starter_records_come_first_in_every_new_account,
    vehicles_expenses_and_mileage_put_edit_delete,
    a_vehicles_commute_is_bounded_and_an_old_apps_edit_keeps_it,
    spending_kinds_refuse_bad_input_naming_every_problem,
    other_accounts_vehicles_and_spending_are_not_owned,
    spending_needs_the_vehicle_and_courier_it_names,
    the_tax_region_syncs_and_an_old_apps_theme_keeps_it,
    couriers_cards_and_deductions_put_edit_delete,
    a_deduction_says_what_it_is_for_and_which_vehicle,
    new_kinds_refuse_bad_input_naming_every_problem,
    other_accounts_couriers_and_cards_are_not_owned,
    references_are_checked_in_push_order,
    an_old_apps_pushes_keep_their_meaning,
    an_old_apps_edit_keeps_what_a_newer_app_recorded,
    a_separate_shift_survives_an_edit_from_an_app_before_shifts,
    statement_checks_put_edit_delete_and_pull_with_versions,
    replayed_statement_check_mutations_answer_the_same_and_write_once,
    statement_check_validation_rejects_each_rule,
    other_users_statement_checks_are_untouchable_and_invisible,
    entries_and_statement_checks_interleave_in_one_pull_with_paging,
    pulls_racing_pushes_never_skip_a_change,
    profile_and_settings_sync_and_server_fields_are_ignored,
    admin_changes_reach_open_streams_and_pull,
    an_admin_reset_closes_only_that_accounts_stream,
    an_expired_sessions_stream_is_closed_by_the_timed_check,
    replayed_pushes_change_nothing_and_answer_the_same,
    concurrent_identical_pushes_apply_once,
    other_users_records_are_untouchable_and_invisible,
    pull_pages_and_returns_tombstones,
    a_delete_wins_over_a_later_edit,
    malformed_sync_requests_get_clear_4xx,
    other_devices_are_poked_and_streams_end_with_their_session,
);

/// Statement queries (issue 28) and the setting their reminder reads, in their own block: the
/// kind's put, tracking edit, delete, every problem at once, the hash chain, the frozen items
/// and ownership.
mod statement_queries {
    use super::common::{self, Backend, TestApp, spawn_app};
    use crate::on_both_backends;
    use serde_json::{Value, json};
    use sha2::{Digest, Sha256};
    use uuid::Uuid;

    fn id() -> String {
        Uuid::now_v7().to_string()
    }

    fn mutation(name: &str, args: Value) -> Value {
        json!({"id": id(), "name": name, "args": args})
    }

    fn statuses(reply: &common::Reply) -> Vec<String> {
        reply.body["results"]
            .as_array()
            .unwrap_or_else(|| panic!("{}", reply.text))
            .iter()
            .map(|r| r["status"].as_str().unwrap().to_owned())
            .collect()
    }

    fn codes(reply: &common::Reply) -> Vec<Value> {
        reply.body["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["code"].clone())
            .collect()
    }

    async fn pulled(app: &TestApp, cookie: &str, kind: &str) -> Vec<Value> {
        let reply = app
            .get("/api/v1/sync/pull?cursor=0&limit=1000", Some(cookie))
            .await;
        reply.body["changes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["kind"] == kind)
            .cloned()
            .collect()
    }

    /// Items with their chain: each hash is SHA-256 of the previous (64 zeros first) and the
    /// item's canonical JSON, as the device makes it.
    fn chained(items: &[(Option<&str>, &str, i64)]) -> Vec<Value> {
        let mut previous = "0".repeat(64);
        items
            .iter()
            .map(|(date, words, amount)| {
                let canonical = format!(
                    r#"{{"date":{},"kind":"fewerStops","words":"{words}","logged":"121 stops","paid":"118 stops","cardRate":150,"amount":{amount}}}"#,
                    date.map_or("null".to_owned(), |d| format!("\"{d}\""))
                );
                let hash = hex::encode(Sha256::digest(format!("{previous}{canonical}")));
                previous.clone_from(&hash);
                json!({"date": date, "kind": "fewerStops", "words": words, "logged": "121 stops",
                       "paid": "118 stops", "cardRate": 150, "amount": amount, "hash": hash})
            })
            .collect()
    }

    fn check(check_id: &str, start: &str) -> Value {
        mutation(
            "invoice.put",
            json!({"id": check_id, "periodStart": start, "periodEnd": start, "paid": 10_000,
                   "stops": 60, "reference": "S-1"}),
        )
    }

    fn query(query_id: &str, check_id: &str, items: Vec<Value>, total: i64) -> Value {
        json!({"id": query_id, "statementCheckId": check_id, "madeOn": "2026-03-20",
               "itemsVersion": 1, "items": items, "total": total, "sentOn": null,
               "answeredOn": null, "paidBackAmount": null, "paidBackOn": null,
               "paidBackCheckId": null, "closedOn": null, "note": ""})
    }

    async fn a_query_is_made_tracked_and_deleted_with_its_items_frozen(backend: Backend) {
        let Some(app) = spawn_app(backend).await else {
            return;
        };
        let (cookie, _) = app.sign_up("query@example.com", "van-route-42").await;
        let (queried, later, query_id) = (id(), id(), id());
        let items = chained(&[
            (Some("2026-03-02"), "3 stops logged but not paid", 450),
            (None, "Lines against the total", -100),
        ]);
        let made = query(&query_id, &queried, items.clone(), 350);
        let reply = app
            .push(
                &cookie,
                vec![
                    check(&queried, "2026-03-02"),
                    check(&later, "2026-03-09"),
                    mutation("statementQuery.put", made.clone()),
                ],
            )
            .await;
        assert_eq!(statuses(&reply), ["applied"; 3], "{}", reply.text);
        let stored = pulled(&app, &cookie, "statementQuery").await;
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0]["data"]["items"], json!(items));
        assert_eq!(stored[0]["data"]["total"], 350);

        // Tracking: sent, answered, paid back on the later statement, closed. The put also
        // carries other items (a valid chain of their own): the stored ones stay.
        let mut tracked = made.clone();
        tracked["sentOn"] = json!("2026-03-21");
        tracked["answeredOn"] = json!("2026-03-30");
        tracked["paidBackAmount"] = json!(350);
        tracked["paidBackOn"] = json!("2026-04-10");
        tracked["paidBackCheckId"] = json!(later);
        tracked["closedOn"] = json!("2026-04-11");
        tracked["note"] = json!("Agreed.\nPaid on the next statement.");
        tracked["items"] = json!(chained(&[(Some("2026-03-02"), "rewritten", 1)]));
        tracked["total"] = json!(1);
        let reply = app
            .push(&cookie, vec![mutation("statementQuery.put", tracked)])
            .await;
        assert_eq!(statuses(&reply), ["applied"], "{}", reply.text);
        let data = pulled(&app, &cookie, "statementQuery").await[0]["data"].clone();
        assert_eq!(
            (
                &data["sentOn"],
                &data["paidBackAmount"],
                &data["paidBackCheckId"],
                &data["closedOn"]
            ),
            (
                &json!("2026-03-21"),
                &json!(350),
                &json!(later),
                &json!("2026-04-11")
            )
        );
        assert_eq!(data["note"], "Agreed.\nPaid on the next statement.");
        assert_eq!(
            data["items"],
            json!(items),
            "the items are as first recorded"
        );
        assert_eq!(
            (&data["total"], &data["madeOn"]),
            (&json!(350), &json!("2026-03-20"))
        );

        let reply = app
            .push(
                &cookie,
                vec![mutation("statementQuery.delete", json!({"id": query_id}))],
            )
            .await;
        assert_eq!(statuses(&reply), ["applied"]);
        let tombstone = pulled(&app, &cookie, "statementQuery").await;
        assert_eq!(
            (tombstone.len(), &tombstone[0]["deleted"]),
            (1, &json!(true))
        );
    }

    async fn a_bad_query_names_every_problem_and_a_changed_item_breaks_the_chain(backend: Backend) {
        let Some(app) = spawn_app(backend).await else {
            return;
        };
        let (cookie, _) = app.sign_up("query-bad@example.com", "van-route-42").await;
        let queried = id();
        let reply = app.push(&cookie, vec![check(&queried, "2026-03-02")]).await;
        assert_eq!(statuses(&reply), ["applied"]);
        let mut items = chained(&[
            (Some("2026-03-02"), "3 stops", 450),
            (Some("2026-03-03"), "2 stops", 300),
        ]);
        let mut bad = query(&id(), &queried, items.clone(), 1);
        bad["madeOn"] = json!("2026-02-30");
        bad["itemsVersion"] = json!(9);
        bad["sentOn"] = json!("2026-03-19");
        bad["paidBackAmount"] = json!(0);
        bad["closedOn"] = json!("21/03/2026");
        bad["note"] = json!("bell\u{7}");
        items[1]["amount"] = json!(301);
        let changed = query(&id(), &queried, items, 751);
        let mut too_many = query(&id(), &queried, chained(&[(None, "x", 1)]), 201);
        too_many["items"] = json!(vec![too_many["items"][0].clone(); 201]);
        let reply = app
            .push(
                &cookie,
                vec![
                    mutation("statementQuery.put", bad),
                    mutation("statementQuery.put", changed),
                    mutation("statementQuery.put", too_many),
                    mutation(
                        "statementQuery.put",
                        json!({"id": id(), "statementCheckId": queried}),
                    ),
                ],
            )
            .await;
        assert_eq!(statuses(&reply), ["rejected"; 4], "{}", reply.text);
        assert_eq!(codes(&reply), vec![json!("validation"); 4]);
        let fields = reply.body["results"][0]["fields"].as_object().unwrap();
        let mut named: Vec<&str> = fields.keys().map(String::as_str).collect();
        named.sort_unstable();
        assert_eq!(
            named,
            [
                "closedOn",
                "itemsVersion",
                "madeOn",
                "note",
                "paidBackAmount",
                "paidBackOn",
                "total"
            ],
            "{}",
            reply.text
        );
        assert_eq!(
            reply.body["results"][1]["fields"]["items"][0],
            "Item 2: its hash is not the chain's: the item changed after it was hashed"
        );
        assert!(
            reply.body["results"][2]["message"]
                .as_str()
                .unwrap()
                .contains("1 to 200")
        );
        assert!(pulled(&app, &cookie, "statementQuery").await.is_empty());
    }

    async fn another_accounts_queries_and_checks_are_not_theirs(backend: Backend) {
        let Some(app) = spawn_app(backend).await else {
            return;
        };
        let (owner, _) = app.sign_up("query-owner@example.com", "van-route-42").await;
        let (other, _) = app.sign_up("query-other@example.com", "van-route-42").await;
        let (owners_check, others_check, query_id) = (id(), id(), id());
        let items = chained(&[(Some("2026-03-02"), "3 stops", 450)]);
        let reply = app
            .push(
                &owner,
                vec![
                    check(&owners_check, "2026-03-02"),
                    mutation(
                        "statementQuery.put",
                        query(&query_id, &owners_check, items.clone(), 450),
                    ),
                ],
            )
            .await;
        assert_eq!(statuses(&reply), ["applied"; 2]);
        let mut paid_back_elsewhere = query(&id(), &others_check, items.clone(), 450);
        paid_back_elsewhere["paidBackAmount"] = json!(450);
        paid_back_elsewhere["paidBackOn"] = json!("2026-04-01");
        paid_back_elsewhere["paidBackCheckId"] = json!(owners_check);
        let reply = app
            .push(
                &other,
                vec![
                    check(&others_check, "2026-03-02"),
                    mutation(
                        "statementQuery.put",
                        query(&query_id, &others_check, items.clone(), 450),
                    ),
                    mutation(
                        "statementQuery.put",
                        query(&id(), &owners_check, items.clone(), 450),
                    ),
                    mutation("statementQuery.put", paid_back_elsewhere),
                    mutation("statementQuery.delete", json!({"id": query_id})),
                ],
            )
            .await;
        assert_eq!(
            codes(&reply),
            [
                Value::Null,
                json!("not-owner"),
                json!("not-owner"),
                json!("not-owner"),
                json!("not-owner")
            ],
            "{}",
            reply.text
        );
        assert!(pulled(&app, &other, "statementQuery").await.is_empty());
        assert_eq!(pulled(&app, &owner, "statementQuery").await.len(), 1);
    }

    async fn the_query_reminder_setting_is_14_until_set_and_bounded(backend: Backend) {
        let Some(app) = spawn_app(backend).await else {
            return;
        };
        let (cookie, _) = app.sign_up("query-days@example.com", "van-route-42").await;
        let days = async || {
            let settings = pulled(&app, &cookie, "settings").await;
            settings.last().expect("settings")["data"]["queryReminderDays"].clone()
        };
        let reply = app
            .push(
                &cookie,
                vec![mutation("settings.put", json!({"theme": "light"}))],
            )
            .await;
        assert_eq!(statuses(&reply), ["applied"]);
        assert_eq!(days().await, json!(14), "the default");
        let reply = app
            .push(
                &cookie,
                vec![
                    mutation("settings.put", json!({"queryReminderDays": 0})),
                    mutation("settings.put", json!({"queryReminderDays": 91})),
                    mutation("settings.put", json!({"queryReminderDays": 30})),
                    mutation("settings.put", json!({"theme": "dark"})),
                ],
            )
            .await;
        assert_eq!(
            statuses(&reply),
            ["rejected", "rejected", "applied", "applied"]
        );
        assert_eq!(codes(&reply)[0], "validation");
        assert_eq!(days().await, json!(30), "a theme put keeps it");
    }

    on_both_backends!(
        a_query_is_made_tracked_and_deleted_with_its_items_frozen,
        a_bad_query_names_every_problem_and_a_changed_item_breaks_the_chain,
        another_accounts_queries_and_checks_are_not_theirs,
        the_query_reminder_setting_is_14_until_set_and_bounded,
    );
}
