//! The operator's switches: SIGNUPS_OPEN=false refuses every new account (e-mail, phone,
//! OpenID) with `signups-closed` while existing accounts still sign in, and texts no code to a
//! number without an account; GUESTS_ENABLED=false refuses guests with `guests-disabled`,
//! new ones and those made before (so no guest can add a sign-in and become an account).
//! `/providers` tells the web app both.

use crate::common;

use common::{
    Backend,
    oidc::{sign_in, spawn_oidc_app_with},
    phone::{phone_account, spawn_phone_app},
    spawn_app_with,
};
use reqwest::StatusCode;
use serde_json::json;
use server::{
    auth::{password::PasswordHasher, session::hash_token},
    config::Config,
    store::{DynStore, ExternalIdentity, NewUser, SessionRecord},
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
    // No code is texted to a number without an account (the answer is the usual one), so
    // there is none to verify.
    let sent = app.sent_code("+447700900111").await;
    assert!(app.outbox().is_empty(), "{:?}", app.outbox());
    let guessed = app.verify_code(&sent, "123456", None).await;
    assert_eq!(guessed.status, StatusCode::BAD_REQUEST, "{}", guessed.text);
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

/// A guest made before the server closed, with a live session: its cookie as a header.
async fn guest_from_before(store: &DynStore) -> (Uuid, String) {
    let now = domain::time_fmt::now_ms();
    let guest = store
        .create_user(NewUser {
            is_anonymous: true,
            ..new_user(None, None)
        })
        .await
        .unwrap();
    let token = format!("guest-from-before-{}", Uuid::new_v4().simple());
    store
        .create_session(SessionRecord {
            token_hash: hash_token(&token),
            user_id: guest.id,
            created_at_ms: now,
            last_seen_ms: now,
            user_agent: None,
            temporary_password: false,
        })
        .await
        .unwrap();
    (guest.id, format!("__Host-session={token}"))
}

async fn accounts(store: &DynStore) -> usize {
    store.list_users().await.unwrap().len()
}

/// Issue 31: guests made before sign-ups closed kept working, and each one could add an e-mail
/// and password, a phone or an OpenID identity: 2 accounts became 5.
async fn guests_from_before_are_signed_out_and_cannot_become_accounts(backend: Backend) {
    let Some((app, _provider)) = spawn_oidc_app_with(backend, closed).await else {
        return;
    };
    let (_, guest) = guest_from_before(&app.store).await;
    let (_, other) = guest_from_before(&app.store).await;
    assert_eq!(accounts(&app.store).await, 2);

    app.get("/api/v1/auth/session", Some(&guest))
        .await
        .assert_signed_out("a guest's session while guests are off");
    let pull = app.get("/api/v1/sync/pull", Some(&guest)).await;
    assert_eq!(pull.status, StatusCode::UNAUTHORIZED, "{}", pull.text);
    assert_eq!(pull.error_code(), "guests-disabled");
    let push = app
        .push(
            &guest,
            vec![json!({"id": "m1", "name": "settings.put", "args": {"theme": "light"}})],
        )
        .await;
    assert_eq!(push.status, StatusCode::UNAUTHORIZED, "{}", push.text);

    let link = app
        .request(
            reqwest::Method::POST,
            "/api/v1/auth/link/password",
            Some(json!({"email": "was-a-guest@example.com", "password": PASSWORD})),
            Some(&guest),
        )
        .await;
    assert_eq!(link.status, StatusCode::UNAUTHORIZED, "{}", link.text);
    let start = app
        .get("/api/v1/auth/oidc/start?link=1", Some(&other))
        .await;
    assert_eq!(
        start.status,
        StatusCode::OK,
        "a result page, not the provider"
    );
    assert!(start.text.contains("link-not-allowed"), "{}", start.text);
    assert!(
        app.store
            .find_user_by_email("was-a-guest@example.com")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(accounts(&app.store).await, 2, "no guest became an account");
}

/// A guest's phone link, and a new number on its own: nothing is texted, nobody is made.
async fn closed_sign_ups_text_no_code_to_a_number_without_an_account(backend: Backend) {
    let Some(phone_app) = spawn_phone_app(backend, closed).await else {
        return;
    };
    let app = &phone_app.app;
    let (_, guest) = guest_from_before(&app.store).await;
    let reply = app.send_code("+447700900333").await;
    assert_eq!(
        reply.status,
        StatusCode::ACCEPTED,
        "the usual answer: {}",
        reply.text
    );
    let as_guest = app
        .request(
            reqwest::Method::POST,
            common::phone::SEND,
            Some(json!({"phone": "+447700900444", "captcha": app.solved_captcha().await})),
            Some(&guest),
        )
        .await;
    assert_eq!(as_guest.status, StatusCode::ACCEPTED, "{}", as_guest.text);
    assert!(
        app.outbox().is_empty(),
        "nothing texted: {:?}",
        app.outbox()
    );

    // A number with an account is texted; so is the number an account is adding.
    let known = phone_account(&app.store, "+447700900222").await;
    phone_app.time.advance_ms(120_000);
    app.sent_code("+447700900222").await;
    assert_eq!(app.last_code("+447700900222").len(), 6);
    let hash = PasswordHasher::new().unwrap().hash(PASSWORD).await.unwrap();
    app.store
        .create_user(new_user(Some("adds-a-phone@example.com"), Some(hash)))
        .await
        .unwrap();
    let login = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "adds-a-phone@example.com", "password": PASSWORD}),
        )
        .await;
    let account = login.session_cookie().unwrap();
    let adding = app
        .request(
            reqwest::Method::POST,
            common::phone::SEND,
            Some(json!({"phone": "+447700900555", "captcha": app.solved_captcha().await})),
            Some(&account),
        )
        .await;
    assert_eq!(adding.status, StatusCode::ACCEPTED, "{}", adding.text);
    let code = app.last_code("+447700900555");
    let verification = adding.body["verificationId"].as_str().unwrap();
    let linked = app.verify_code(verification, &code, Some(&account)).await;
    assert_eq!(linked.status, StatusCode::OK, "{}", linked.text);
    assert_ne!(linked.body["user"]["id"], known.to_string());
    assert_eq!(accounts(&app.store).await, 3, "the guest, and two accounts");
}

on_both_backends!(
    guests_from_before_are_signed_out_and_cannot_become_accounts,
    closed_sign_ups_text_no_code_to_a_number_without_an_account,
    closed_sign_ups_refuse_new_accounts_and_let_old_ones_in,
    guests_off_alone_still_takes_accounts,
    closed_sign_ups_refuse_a_new_phone_number_only,
    closed_sign_ups_refuse_a_new_openid_identity_only,
);
