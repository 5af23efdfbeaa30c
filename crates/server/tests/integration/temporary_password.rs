//! A temporary password from `users reset-password` must be changed: signing in with it works
//! and says so, every other write is refused with 403 `password-change-required` (sync push
//! included), and choosing a new password clears it. The session that signed in with it need
//! not type it again to choose the new one; any other session must.

use crate::common;

use common::{Backend, TestApp, spawn_app};
use domain::phone::PhoneRegion;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::{auth::session::hash_token, store::SessionRecord};
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
    assert_eq!(login.body["user"]["signedInWithTemporaryPassword"], true);
    (login.session_cookie().unwrap(), temporary)
}

fn change(current: Option<&str>) -> Value {
    match current {
        Some(current) => json!({"currentPassword": current, "newPassword": NEW_PASSWORD}),
        None => json!({"newPassword": NEW_PASSWORD}),
    }
}

/// A session of the account's that did not sign in with the temporary password (as a phone or
/// OpenID sign-in after the reset would be), as a cookie.
async fn another_session(app: &TestApp) -> String {
    let user = app
        .store
        .find_password_login("forgot@example.com")
        .await
        .unwrap()
        .unwrap()
        .0;
    let token = format!("other-{}", Uuid::new_v4());
    let now = domain::time_fmt::now_ms();
    app.store
        .create_session(SessionRecord {
            token_hash: hash_token(&token),
            user_id: user.id,
            created_at_ms: now,
            last_seen_ms: now,
            user_agent: None,
            temporary_password: false,
        })
        .await
        .unwrap();
    format!("__Host-session={token}")
}

async fn a_temporary_password_allows_reading_and_changing_it_only(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = signed_in_with_a_temporary_password(&app).await;

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

    // Choosing a new password is the way out. A session that did not sign in with the
    // temporary password must give it, with the usual checks.
    let other = another_session(&app).await;
    let session = app.get("/api/v1/auth/session", Some(&other)).await;
    assert_eq!(session.body["user"]["mustChangePassword"], true);
    assert_eq!(session.body["user"]["signedInWithTemporaryPassword"], false);
    let password = |body: Value, cookie: String| {
        let app = &app;
        async move {
            app.request(
                Method::POST,
                "/api/v1/auth/password",
                Some(body),
                Some(&cookie),
            )
            .await
        }
    };
    let missing = password(change(None), other.clone()).await;
    assert_eq!(
        missing.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        missing.text
    );
    let wrong = password(change(Some("not-it-at-all")), other.clone()).await;
    assert_eq!(wrong.error_code(), "wrong-password", "{}", wrong.text);

    // The session that signed in with it has just proved it: no current password asked.
    let changed = password(change(None), cookie.clone()).await;
    let cookie = changed.session_cookie().unwrap();
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["mustChangePassword"], false);
    assert_eq!(session.body["user"]["signedInWithTemporaryPassword"], false);
    // From now on the current password is asked again, on every session.
    for asking in [cookie.clone(), other] {
        let missing = password(change(None), asking).await;
        assert_eq!(
            missing.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            missing.text
        );
    }
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

/// A session signed in with the temporary password loses its pass once the password is no
/// longer temporary (changed from another session): it must give the current password again.
async fn the_pass_ends_when_the_password_is_no_longer_temporary(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (temporary_session, temporary) = signed_in_with_a_temporary_password(&app).await;
    let other = another_session(&app).await;
    let changed = app
        .request(
            Method::POST,
            "/api/v1/auth/password",
            Some(change(Some(&temporary))),
            Some(&other),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let session = app
        .get("/api/v1/auth/session", Some(&temporary_session))
        .await;
    assert_eq!(session.body["user"]["mustChangePassword"], false);
    assert_eq!(session.body["user"]["signedInWithTemporaryPassword"], false);
    let again = app
        .request(
            Method::POST,
            "/api/v1/auth/password",
            Some(json!({"newPassword": "third-route-5"})),
            Some(&temporary_session),
        )
        .await;
    assert_eq!(
        again.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        again.text
    );
}

on_both_backends!(
    a_temporary_password_allows_reading_and_changing_it_only,
    the_pass_ends_when_the_password_is_no_longer_temporary
);
