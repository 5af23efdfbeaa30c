//! A temporary password from `users reset-password` must be changed: signing in with it works
//! and says so, every other write is refused with 403 `password-change-required` (sync push
//! included), and choosing a new password clears it.

mod common;

use common::{Backend, TestApp, spawn_app};
use domain::phone::PhoneRegion;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

const PASSWORD: &str = "van-route-42";
const NEW_PASSWORD: &str = "new-route-77";

fn entry() -> Value {
    json!({"id": Uuid::new_v4().to_string(), "name": "entry.put", "args": {
        "id": Uuid::now_v7().to_string(), "date": "2026-03-21", "stops": 100,
        "extra": 0, "notes": "", "total": 19_800}})
}

/// Signs up, has the operator reset the password, signs in with the temporary one.
async fn signed_in_with_a_temporary_password(app: &TestApp) -> (String, String) {
    let (_, user) = app.sign_up("forgot@example.com", PASSWORD).await;
    assert_eq!(user["mustChangePassword"], false);
    let (_, temporary, _) =
        server::admin::reset_password(&app.store, "forgot@example.com", PhoneRegion::GB)
            .await
            .unwrap();
    let login = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "forgot@example.com", "password": temporary}),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    assert_eq!(login.body["user"]["mustChangePassword"], true);
    (login.session_cookie().unwrap(), temporary)
}

async fn a_temporary_password_allows_reading_and_changing_it_only(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, temporary) = signed_in_with_a_temporary_password(&app).await;

    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.status, StatusCode::OK);
    assert_eq!(session.body["user"]["mustChangePassword"], true);
    // Reads work: the device can still pull what it has.
    let pulled = app
        .get("/api/v1/sync/pull?cursor=0&limit=1000", Some(&cookie))
        .await;
    assert_eq!(pulled.status, StatusCode::OK, "{}", pulled.text);

    // Writes do not, and say why: a push is refused whole, nothing applied.
    let pushed = app.push(&cookie, vec![entry()]).await;
    assert_eq!(pushed.status, StatusCode::FORBIDDEN, "{}", pushed.text);
    assert_eq!(pushed.error_code(), "password-change-required");
    let ended = app
        .request(
            Method::POST,
            "/api/v1/auth/sessions/end-others",
            None,
            Some(&cookie),
        )
        .await;
    assert_eq!(ended.status, StatusCode::FORBIDDEN, "{}", ended.text);
    assert_eq!(ended.error_code(), "password-change-required");

    // Choosing a new password is the way out, with the usual checks.
    let wrong = app
        .request(
            Method::POST,
            "/api/v1/auth/password",
            Some(json!({"currentPassword": "not-it-at-all", "newPassword": NEW_PASSWORD})),
            Some(&cookie),
        )
        .await;
    assert_eq!(wrong.error_code(), "wrong-password", "{}", wrong.text);
    let changed = app
        .request(
            Method::POST,
            "/api/v1/auth/password",
            Some(json!({"currentPassword": temporary, "newPassword": NEW_PASSWORD})),
            Some(&cookie),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let cookie = changed.session_cookie().unwrap();
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["mustChangePassword"], false);
    let pushed = app.push(&cookie, vec![entry()]).await;
    assert_eq!(pushed.status, StatusCode::OK, "{}", pushed.text);
    assert_eq!(pushed.body["results"][0]["status"], "applied");

    // The new password signs in without the mark.
    let login = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "forgot@example.com", "password": NEW_PASSWORD}),
        )
        .await;
    assert_eq!(
        login.body["user"]["mustChangePassword"], false,
        "{}",
        login.text
    );
}

on_both_backends!(a_temporary_password_allows_reading_and_changing_it_only);
