//! The operator's switches: SIGNUPS_OPEN=false refuses every new account (e-mail, phone,
//! OpenID) with `signups-closed` while existing accounts still sign in; GUESTS_ENABLED=false
//! refuses guests with `guests-disabled`. `/providers` tells the web app both.

mod common;

use common::{
    Backend,
    oidc::{sign_in, spawn_oidc_app_with},
    phone::{phone_account, spawn_phone_app},
    spawn_app_with,
};
use reqwest::StatusCode;
use serde_json::json;
use server::{
    auth::password::PasswordHasher,
    config::Config,
    store::{ExternalIdentity, NewUser},
};
use uuid::Uuid;

const PASSWORD: &str = "van-route-42";

fn closed(config: &mut Config) {
    config.signups.signups_open = false;
    config.signups.guests_enabled = false;
}

fn new_user(email: Option<&str>, password_hash: Option<String>) -> NewUser {
    NewUser {
        id: Uuid::now_v7(),
        email: email.map(str::to_owned),
        display_name: None,
        password_hash,
        is_anonymous: false,
        now_ms: domain::time_fmt::now_ms(),
    }
}

async fn closed_sign_ups_refuse_new_accounts_and_let_old_ones_in(backend: Backend) {
    let Some(app) = spawn_app_with(backend, closed).await else {
        return;
    };
    let providers = app.get("/api/v1/auth/providers", None).await;
    assert_eq!(providers.body["signups"], false, "{}", providers.text);
    assert_eq!(providers.body["guests"], false, "{}", providers.text);

    let signup = app
        .post(
            "/api/v1/auth/signup",
            json!({"email": "new@example.com", "password": PASSWORD}),
        )
        .await;
    assert_eq!(signup.status, StatusCode::FORBIDDEN, "{}", signup.text);
    assert_eq!(signup.error_code(), "signups-closed");
    assert!(
        app.store
            .find_user_by_email("new@example.com")
            .await
            .unwrap()
            .is_none()
    );
    let guest = app.post("/api/v1/auth/guest", json!({})).await;
    assert_eq!(guest.status, StatusCode::FORBIDDEN, "{}", guest.text);
    assert_eq!(guest.error_code(), "guests-disabled");

    // An account made before (here by the operator's store) still signs in.
    let hash = PasswordHasher::new().unwrap().hash(PASSWORD).await.unwrap();
    app.store
        .create_user(new_user(Some("old@example.com"), Some(hash)))
        .await
        .unwrap();
    let login = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "old@example.com", "password": PASSWORD}),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
}

async fn guests_off_alone_still_takes_accounts(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.signups.guests_enabled = false).await else {
        return;
    };
    let providers = app.get("/api/v1/auth/providers", None).await;
    assert_eq!(providers.body["signups"], true);
    assert_eq!(providers.body["guests"], false);
    let guest = app.post("/api/v1/auth/guest", json!({})).await;
    assert_eq!(guest.status, StatusCode::FORBIDDEN);
    assert_eq!(guest.error_code(), "guests-disabled");
    app.sign_up("driver@example.com", PASSWORD).await;
}

async fn closed_sign_ups_refuse_a_new_phone_number_only(backend: Backend) {
    let Some(phone_app) = spawn_phone_app(backend, closed).await else {
        return;
    };
    let app = &phone_app.app;
    let refused = app.phone_sign_in("+447700900111", None).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    assert_eq!(refused.error_code(), "signups-closed");
    assert!(
        app.store
            .find_user_by_phone("+447700900111")
            .await
            .unwrap()
            .is_none()
    );
    // A number that already has an account signs in.
    let known = phone_account(&app.store, "+447700900222").await;
    // The helper's send is stamped with the wall clock; move the server's past it.
    phone_app.time.advance_ms(120_000);
    let signed_in = app.phone_sign_in("+447700900222", None).await;
    assert_eq!(signed_in.status, StatusCode::OK, "{}", signed_in.text);
    assert_eq!(signed_in.body["user"]["id"], known.to_string());
}

async fn closed_sign_ups_refuse_a_new_openid_identity_only(backend: Backend) {
    let Some((app, provider)) = spawn_oidc_app_with(backend, closed).await else {
        return;
    };
    let refused = sign_in(&app, "stranger", None, false).await;
    assert_eq!(refused.result["ok"], false, "{}", refused.html);
    assert_eq!(refused.result["error"], "signups-closed");
    assert!(refused.session_cookie.is_none());

    app.store
        .create_user_with_identity(
            new_user(None, None),
            ExternalIdentity {
                issuer: provider.issuer.clone(),
                subject: "known".into(),
            },
        )
        .await
        .unwrap();
    let known = sign_in(&app, "known", None, false).await;
    assert_eq!(known.result["ok"], true, "{}", known.html);
    assert!(known.session_cookie.is_some());
}

on_both_backends!(
    closed_sign_ups_refuse_new_accounts_and_let_old_ones_in,
    guests_off_alone_still_takes_accounts,
    closed_sign_ups_refuse_a_new_phone_number_only,
    closed_sign_ups_refuse_a_new_openid_identity_only,
);
