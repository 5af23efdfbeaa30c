//! A user's own account security over HTTP, on SQLite and PostgreSQL: the sessions list,
//! ending one or all other sessions (that device is signed out and its event stream closes),
//! changing the password, and a guest adding an e-mail and password while keeping everything.

use crate::common;

use std::time::Duration;

use common::{Backend, Reply, TestApp, spawn_app};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

const SESSION: &str = "/api/v1/auth/session";
const SESSIONS: &str = "/api/v1/auth/sessions";
const LOGIN: &str = "/api/v1/auth/login";
const PASSWORD: &str = "/api/v1/auth/password";
const LINK_PASSWORD: &str = "/api/v1/auth/link/password";

const PHONE_UA: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const LAPTOP_UA: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// Logs in with a given User-Agent; returns the session cookie.
async fn log_in_as(app: &TestApp, email: &str, password: &str, user_agent: &str) -> String {
    let response = app
        .http
        .post(format!("{}{LOGIN}", app.base))
        .header("user-agent", user_agent)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("__Host-session="))
        .map(|c| c.split(';').next().unwrap().to_owned())
        .unwrap()
}

async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    body: Option<Value>,
    cookie: &str,
) -> Reply {
    app.request(method, path, body, Some(cookie)).await
}

async fn sessions(app: &TestApp, cookie: &str) -> Vec<Value> {
    let reply = app.get(SESSIONS, Some(cookie)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["sessions"].as_array().unwrap().clone()
}

async fn signed_in(app: &TestApp, cookie: &str) -> bool {
    let reply = app.get(SESSION, Some(cookie)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    !reply.body["user"].is_null()
}

async fn lists_sessions_and_ends_one_closing_its_stream(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    app.sign_up("sam@example.com", "van-route-42").await;
    let phone = log_in_as(&app, "sam@example.com", "van-route-42", PHONE_UA).await;
    let laptop = log_in_as(&app, "sam@example.com", "van-route-42", LAPTOP_UA).await;

    let listed = sessions(&app, &phone).await;
    assert_eq!(listed.len(), 3, "sign-up, phone and laptop");
    let devices: Vec<&str> = listed
        .iter()
        .map(|s| s["device"].as_str().unwrap())
        .collect();
    assert!(devices.contains(&"Chrome on Android"), "{devices:?}");
    assert!(devices.contains(&"Firefox on Linux"), "{devices:?}");
    let current: Vec<&Value> = listed.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["device"], "Chrome on Android");
    assert!(
        listed
            .iter()
            .all(|s| s["lastSeenAt"].as_str().unwrap().ends_with('Z'))
    );
    let laptop_id = listed
        .iter()
        .find(|s| s["device"] == "Firefox on Linux")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!laptop.contains(&laptop_id), "the id is not the token");

    // The laptop has an open event stream.
    let response = app
        .http
        .get(format!("{}/api/v1/sync/events", app.base))
        .header("cookie", &laptop)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = response.bytes_stream();
    assert!(stream.next().await.is_some(), "greeting poke");

    let ended = call(
        &app,
        Method::DELETE,
        &format!("{SESSIONS}/{laptop_id}"),
        None,
        &phone,
    )
    .await;
    assert_eq!(ended.status, StatusCode::NO_CONTENT, "{}", ended.text);
    assert!(!signed_in(&app, &laptop).await, "the laptop is signed out");
    assert!(signed_in(&app, &phone).await);
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(chunk) = stream.next().await {
            if chunk.is_err() {
                break;
            }
        }
    })
    .await;
    assert!(
        closed.is_ok(),
        "the laptop's event stream closed within seconds"
    );

    let again = call(
        &app,
        Method::DELETE,
        &format!("{SESSIONS}/{laptop_id}"),
        None,
        &phone,
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    assert_eq!(again.error_code(), "session-not-found");
    assert_eq!(sessions(&app, &phone).await.len(), 2);
}

async fn sessions_of_others_are_out_of_reach(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (sam, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let (eve, _) = app.sign_up("eve@example.com", "van-route-42").await;
    let sam_id = sessions(&app, &sam).await[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let listed = sessions(&app, &eve).await;
    assert_eq!(listed.len(), 1, "only her own");
    let refused = call(
        &app,
        Method::DELETE,
        &format!("{SESSIONS}/{sam_id}"),
        None,
        &eve,
    )
    .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    assert!(signed_in(&app, &sam).await);
    assert_eq!(
        app.get(SESSIONS, None).await.status,
        StatusCode::UNAUTHORIZED
    );
}

async fn ends_every_other_session(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (first, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let second = log_in_as(&app, "sam@example.com", "van-route-42", PHONE_UA).await;
    let third = log_in_as(&app, "sam@example.com", "van-route-42", LAPTOP_UA).await;
    let reply = call(
        &app,
        Method::POST,
        &format!("{SESSIONS}/end-others"),
        None,
        &second,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["ended"], 2);
    assert!(signed_in(&app, &second).await);
    assert!(!signed_in(&app, &first).await);
    assert!(!signed_in(&app, &third).await);
}

async fn password_change_needs_the_current_password(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let other = log_in_as(&app, "sam@example.com", "van-route-42", LAPTOP_UA).await;

    let wrong = call(
        &app,
        Method::POST,
        PASSWORD,
        Some(json!({"currentPassword": "nope-nope", "newPassword": "kestrel-route-7"})),
        &cookie,
    )
    .await;
    assert_eq!(wrong.status, StatusCode::FORBIDDEN);
    assert_eq!(wrong.error_code(), "wrong-password");
    let weak = call(
        &app,
        Method::POST,
        PASSWORD,
        Some(json!({"currentPassword": "van-route-42", "newPassword": "123"})),
        &cookie,
    )
    .await;
    assert_eq!(weak.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(weak.error_code(), "weak-password");
    let missing = call(
        &app,
        Method::POST,
        PASSWORD,
        Some(json!({"newPassword": "kestrel-route-7"})),
        &cookie,
    )
    .await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(signed_in(&app, &other).await, "nothing changed yet");

    let changed = call(
        &app,
        Method::POST,
        PASSWORD,
        Some(json!({"currentPassword": "van-route-42", "newPassword": "kestrel-route-7", "endOtherSessions": true})),
        &cookie,
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(changed.body["endedSessions"], 1);
    let rotated = changed.session_cookie().expect("a new session token");
    assert_ne!(rotated, cookie);
    assert!(signed_in(&app, &rotated).await);
    assert!(
        !signed_in(&app, &cookie).await,
        "the old token stopped working"
    );
    assert!(
        !signed_in(&app, &other).await,
        "other devices were signed out"
    );

    let old = app
        .post(
            LOGIN,
            json!({"email": "sam@example.com", "password": "van-route-42"}),
        )
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let new = app
        .post(
            LOGIN,
            json!({"email": "sam@example.com", "password": "kestrel-route-7"}),
        )
        .await;
    assert_eq!(new.status, StatusCode::OK);
}

async fn password_change_can_keep_other_sessions(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let other = log_in_as(&app, "sam@example.com", "van-route-42", LAPTOP_UA).await;
    let changed = call(
        &app,
        Method::POST,
        PASSWORD,
        Some(json!({"currentPassword": "van-route-42", "newPassword": "kestrel-route-7"})),
        &cookie,
    )
    .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(changed.body["endedSessions"], 0);
    assert!(signed_in(&app, &other).await);
}

fn entry_put(entry_id: &str) -> Value {
    json!({"id": Uuid::now_v7().to_string(), "name": "entry.put",
           "args": {"id": entry_id, "date": "2025-03-21", "stops": 120, "extra": 0, "notes": "guest day", "total": 23260}})
}

async fn entries_of(app: &TestApp, cookie: &str) -> Vec<Value> {
    let reply = app
        .get("/api/v1/sync/pull?cursor=0&limit=1000", Some(cookie))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "entry")
        .cloned()
        .collect()
}

async fn a_guest_adds_a_password_and_keeps_everything(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let guest = app.post("/api/v1/auth/guest", json!({})).await;
    let cookie = guest.session_cookie().unwrap();
    let guest_id = guest.body["user"]["id"].as_str().unwrap().to_owned();
    let entry_id = Uuid::now_v7().to_string();
    let pushed = call(
        &app,
        Method::POST,
        "/api/v1/sync/push",
        Some(json!({"clientId": "phone", "mutations": [entry_put(&entry_id)]})),
        &cookie,
    )
    .await;
    assert_eq!(
        pushed.body["results"][0]["status"], "applied",
        "{}",
        pushed.text
    );

    let linked = call(
        &app,
        Method::POST,
        LINK_PASSWORD,
        Some(json!({"email": "Sam@Example.com", "password": "van-route-42"})),
        &cookie,
    )
    .await;
    assert_eq!(linked.status, StatusCode::OK, "{}", linked.text);
    assert_eq!(linked.body["user"]["id"], guest_id, "the same account");
    assert_eq!(linked.body["user"]["isAnonymous"], false);
    assert_eq!(linked.body["user"]["email"], "sam@example.com");
    let rotated = linked.session_cookie().expect("session rotated");
    assert!(
        !signed_in(&app, &cookie).await,
        "the guest token stopped working"
    );
    assert!(signed_in(&app, &rotated).await);

    // Another device signs in with the new e-mail and password and sees the guest's day.
    let login = app
        .post(
            LOGIN,
            json!({"email": "sam@example.com", "password": "van-route-42"}),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK);
    assert_eq!(login.body["user"]["id"], guest_id);
    let entries = entries_of(&app, &login.session_cookie().unwrap()).await;
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["id"], entry_id);
    // The profile changed: it is in the pull with the e-mail and no longer a guest.
    let pull = app
        .get("/api/v1/sync/pull?cursor=0&limit=1000", Some(&rotated))
        .await;
    let profile = pull.body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "profile")
        .cloned()
        .unwrap();
    assert_eq!(profile["data"]["email"], "sam@example.com");
    assert_eq!(profile["data"]["isAnonymous"], false);

    let again = call(
        &app,
        Method::POST,
        LINK_PASSWORD,
        Some(json!({"email": "other@example.com", "password": "van-route-42"})),
        &rotated,
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(again.error_code(), "not-a-guest");
}

async fn a_guest_cannot_take_someone_elses_email(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (owner, owner_user) = app.sign_up("sam@example.com", "van-route-42").await;
    let guest = app.post("/api/v1/auth/guest", json!({})).await;
    let cookie = guest.session_cookie().unwrap();
    let refused = call(
        &app,
        Method::POST,
        LINK_PASSWORD,
        Some(json!({"email": "sam@example.com", "password": "kestrel-route-7"})),
        &cookie,
    )
    .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert_eq!(refused.error_code(), "email-already-in-use");
    let session = app.get(SESSION, Some(&cookie)).await;
    assert_eq!(
        session.body["user"]["isAnonymous"], true,
        "still a guest, nothing merged"
    );
    assert_ne!(session.body["user"]["id"], owner_user["id"]);
    assert!(signed_in(&app, &owner).await);
    let still = app
        .post(
            LOGIN,
            json!({"email": "sam@example.com", "password": "van-route-42"}),
        )
        .await;
    assert_eq!(
        still.status,
        StatusCode::OK,
        "the owner's password is untouched"
    );

    let bad = call(
        &app,
        Method::POST,
        LINK_PASSWORD,
        Some(json!({"email": "not-an-email", "password": "kestrel-route-7"})),
        &cookie,
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.error_code(), "invalid-email");
}

on_both_backends!(
    lists_sessions_and_ends_one_closing_its_stream,
    sessions_of_others_are_out_of_reach,
    ends_every_other_session,
    password_change_needs_the_current_password,
    password_change_can_keep_other_sessions,
    a_guest_adds_a_password_and_keeps_everything,
    a_guest_cannot_take_someone_elses_email,
);
