//! Sign-in with an OpenID provider, against a real one (the npm oidc-provider, see
//! common/oidc.rs): users keyed by (issuer, subject), state single use and bound to the
//! browser, the code exchanged with the stored PKCE verifier, every ID token check, guest link
//! in place, and nothing signed in whenever something is wrong. On both backends.

use crate::common;

use common::{
    Backend, TestApp,
    oidc::{authorize, land, query_param, sign_in, spawn_oidc_app},
    spawn_app,
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::store::{ExternalIdentity, OidcRequest};
use uuid::Uuid;

async fn session_user(app: &TestApp, cookie: &str) -> Value {
    let reply = app.get("/api/v1/auth/session", Some(cookie)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["user"].clone()
}

async fn identity_owner(app: &TestApp, issuer: &str, subject: &str) -> Option<Uuid> {
    app.store
        .find_identity_user(&ExternalIdentity {
            issuer: issuer.into(),
            subject: subject.into(),
        })
        .await
        .unwrap()
}

async fn first_sign_in_creates_a_user_and_the_next_finds_it(backend: Backend) {
    let Some((app, provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let first = sign_in(&app, "alice", None, false).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.result["type"], "oidc-result");
    assert_eq!(first.result["ok"], true, "{}", first.html);
    assert_eq!(first.result["isNewUser"], true);
    let cookie = first.session_cookie.clone().expect("signed in");
    let user = session_user(&app, &cookie).await;
    assert_eq!(user["displayName"], "Test alice");
    assert_eq!(
        user["email"],
        Value::Null,
        "an e-mail here means a password sign-in"
    );
    assert_eq!(user["isAnonymous"], false);
    let id: Uuid = user["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        identity_owner(&app, &provider.issuer, "alice").await,
        Some(id)
    );

    let second = sign_in(&app, "alice", None, false).await;
    assert_eq!(second.result["ok"], true);
    assert_eq!(second.result["isNewUser"], false);
    let second_cookie = second.session_cookie.expect("signed in again");
    assert_ne!(
        second_cookie, cookie,
        "a new session token at every sign-in"
    );
    assert_eq!(session_user(&app, &second_cookie).await["id"], user["id"]);

    // Another person is another account.
    let bob = sign_in(&app, "bob", None, false).await;
    let bob_user = session_user(&app, &bob.session_cookie.unwrap()).await;
    assert_ne!(bob_user["id"], user["id"]);
}

async fn the_authorization_request_uses_code_pkce_state_and_nonce(backend: Backend) {
    let Some((app, provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let authorized = authorize(&app, "carol", None, false).await;
    let url = &authorized.authorization_url;
    assert!(url.starts_with(&format!("{}/auth?", provider.issuer)));
    let param = |name| query_param(url, name).unwrap_or_default();
    assert_eq!(param("response_type"), "code");
    assert_eq!(param("client_id"), common::oidc::CLIENT_ID);
    assert_eq!(
        param("redirect_uri"),
        format!("{}/api/v1/auth/oidc/callback", app.base)
    );
    let scopes: Vec<String> = param("scope").split(' ').map(str::to_owned).collect();
    for scope in ["openid", "email", "profile"] {
        assert!(scopes.iter().any(|s| s == scope), "{scopes:?}");
    }
    assert_eq!(param("code_challenge_method"), "S256");
    assert_eq!(param("code_challenge").len(), 43);
    assert!(param("state").len() >= 43 && param("nonce").len() >= 43);
    assert_ne!(param("state"), param("nonce"));
    assert_eq!(authorized.param("state"), param("state"));
}

async fn state_is_single_use_and_bound_to_the_browser(backend: Backend) {
    let Some((app, _provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let authorized = authorize(&app, "dave", None, false).await;
    let state = authorized.param("state");

    // Another browser (no binding cookie, or another sign-in's) cannot complete it.
    let stranger = land(&authorized.callback_url, &[]).await;
    assert_eq!(stranger.error(), "invalid-state");
    assert!(stranger.session_cookie.is_none());
    let other = authorize(&app, "dave", None, false).await;
    let crossed = land(&authorized.callback_url, &[&other.binding_cookie]).await;
    assert_eq!(crossed.error(), "invalid-state");
    assert!(crossed.session_cookie.is_none());

    // A state we never issued, even with a matching cookie.
    let forged_state = "x".repeat(43);
    let forged_url = authorized.callback_url.replace(&state, &forged_state);
    let forged = land(&forged_url, &[&format!("__Host-oidc={forged_state}")]).await;
    assert_eq!(forged.error(), "invalid-state");
    assert!(forged.session_cookie.is_none());

    let good = land(&authorized.callback_url, &[&authorized.binding_cookie]).await;
    assert_eq!(good.result["ok"], true, "{}", good.html);
    assert!(good.session_cookie.is_some());

    // Replaying the same callback (same code and state) finds nothing left.
    let replay = land(&authorized.callback_url, &[&authorized.binding_cookie]).await;
    assert_eq!(replay.error(), "invalid-state");
    assert_eq!(replay.result["ok"], false);
    assert!(replay.session_cookie.is_none());
}

async fn a_replayed_code_is_refused(backend: Backend) {
    let Some((app, _provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let first = authorize(&app, "erin", None, false).await;
    let landed = land(&first.callback_url, &[&first.binding_cookie]).await;
    assert_eq!(landed.result["ok"], true);

    // The used code with a fresh, valid state: the provider refuses it (used, and the
    // PKCE verifier stored for this state does not match it).
    let second = authorize(&app, "erin", None, false).await;
    let replay_url = second
        .callback_url
        .replace(&second.param("code"), &first.param("code"));
    let replay = land(&replay_url, &[&second.binding_cookie]).await;
    assert_eq!(replay.error(), "token-exchange-failed", "{}", replay.html);
    assert!(replay.session_cookie.is_none());
}

async fn a_missing_or_expired_pre_auth_record_is_refused(backend: Backend) {
    let Some((app, _provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let authorized = authorize(&app, "frank", None, false).await;
    let state = authorized.param("state");
    // Gone (e.g. swept): no verifier or nonce to finish with.
    let taken = app
        .store
        .take_oidc_request(&state, domain::time_fmt::now_ms())
        .await
        .unwrap();
    assert!(taken.is_some());
    let landed = land(&authorized.callback_url, &[&authorized.binding_cookie]).await;
    assert_eq!(landed.error(), "invalid-state");
    assert!(landed.session_cookie.is_none());
    assert_eq!(identity_owner(&app, &_provider.issuer, "frank").await, None);

    // Expired records are never handed out.
    let now = domain::time_fmt::now_ms();
    let expired = OidcRequest {
        state: "expired-state".into(),
        nonce: "n".into(),
        pkce_verifier: "v".into(),
        link_user_id: None,
        created_at_ms: now - 700_000,
        expires_at_ms: now - 100_000,
    };
    app.store.put_oidc_request(expired).await.unwrap();
    assert!(
        app.store
            .take_oidc_request("expired-state", now)
            .await
            .unwrap()
            .is_none()
    );
}

async fn tampered_id_tokens_are_refused(backend: Backend) {
    let Some((app, provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    // Each mode makes the provider's token endpoint return a bad ID token (see the fixture).
    for mode in ["aud", "nonce", "expired", "iss", "kid", "none", "sig"] {
        let account = format!("mallory~{mode}");
        let landed = sign_in(&app, &account, None, false).await;
        assert_eq!(landed.error(), "invalid-token", "{mode}: {}", landed.html);
        assert_eq!(landed.result["message"], "Failed to login with Google");
        assert!(landed.session_cookie.is_none(), "{mode}");
        assert_eq!(identity_owner(&app, &provider.issuer, &account).await, None);
    }
    // The same account untampered is fine: the refusals were the tokens' fault.
    assert_eq!(
        sign_in(&app, "mallory", None, false).await.result["ok"],
        true
    );
}

async fn a_provider_error_is_reported_and_consumes_the_state(backend: Backend) {
    let Some((app, _provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let authorized = authorize(&app, "gina", None, false).await;
    let state = authorized.param("state");
    let denied_url = format!(
        "{}/api/v1/auth/oidc/callback?error=access_denied&state={state}",
        app.base
    );
    let denied = land(&denied_url, &[&authorized.binding_cookie]).await;
    assert_eq!(denied.error(), "provider-error");
    assert!(denied.session_cookie.is_none());
    let late = land(&authorized.callback_url, &[&authorized.binding_cookie]).await;
    assert_eq!(late.error(), "invalid-state");
}

async fn guest_links_in_place_keeping_id_and_entries(backend: Backend) {
    let Some((app, provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let guest = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    let guest_cookie = guest.session_cookie().unwrap();
    let guest_id = guest.body["user"]["id"].as_str().unwrap().to_owned();
    let entry_id = Uuid::now_v7().to_string();
    let pushed = app
        .request(
            Method::POST,
            "/api/v1/sync/push",
            Some(json!({"clientId": "device-1", "mutations": [{
                "id": "m1", "name": "entry.put",
                "args": {"id": entry_id, "date": "2026-11-20", "stops": 10, "extra": 250,
                         "notes": "before linking", "total": 2230}}]})),
            Some(&guest_cookie),
        )
        .await;
    assert_eq!(pushed.status, StatusCode::OK, "{}", pushed.text);
    assert_eq!(
        pushed.body["results"][0]["status"], "applied",
        "{}",
        pushed.text
    );

    let linked = sign_in(&app, "henry", Some(&guest_cookie), true).await;
    assert_eq!(linked.result["ok"], true, "{}", linked.html);
    let new_cookie = linked.session_cookie.expect("session rotated");
    assert_ne!(new_cookie, guest_cookie);
    let old = app.get("/api/v1/auth/session", Some(&guest_cookie)).await;
    old.assert_signed_out("old session ended");
    let user = session_user(&app, &new_cookie).await;
    assert_eq!(user["id"], guest_id.as_str());
    assert_eq!(user["isAnonymous"], false);
    assert_eq!(user["displayName"], "Test henry");
    assert_eq!(
        identity_owner(&app, &provider.issuer, "henry")
            .await
            .map(|id| id.to_string()),
        Some(guest_id.clone())
    );
    let pulled = app
        .get("/api/v1/sync/pull?cursor=0&limit=100", Some(&new_cookie))
        .await;
    let changes = pulled.body["changes"].as_array().unwrap();
    assert!(
        changes
            .iter()
            .any(|c| c["kind"] == "entry" && c["id"] == entry_id.as_str()),
        "{}",
        pulled.text
    );
    assert!(
        changes
            .iter()
            .any(|c| c["kind"] == "profile" && c["data"]["isAnonymous"] == false),
        "the profile change reaches other devices: {}",
        pulled.text
    );

    // Signing in with that identity later (another device) reaches the same account.
    let later = sign_in(&app, "henry", None, false).await;
    assert_eq!(later.result["isNewUser"], false);
    assert_eq!(
        session_user(&app, &later.session_cookie.unwrap()).await["id"],
        guest_id.as_str()
    );
}

async fn linking_an_identity_owned_by_another_account_is_refused(backend: Backend) {
    let Some((app, provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let owner = sign_in(&app, "ivy", None, false).await;
    let owner_id = session_user(&app, &owner.session_cookie.unwrap()).await["id"].clone();

    let guest = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    let guest_cookie = guest.session_cookie().unwrap();
    let refused = sign_in(&app, "ivy", Some(&guest_cookie), true).await;
    assert_eq!(refused.error(), "identity-in-use");
    assert_eq!(
        refused.result["message"],
        "This Google account is already linked to another account"
    );
    assert!(refused.session_cookie.is_none());
    let still_guest = session_user(&app, &guest_cookie).await;
    assert_eq!(still_guest["isAnonymous"], true);
    assert_eq!(
        identity_owner(&app, &provider.issuer, "ivy")
            .await
            .map(|id| Value::String(id.to_string())),
        Some(owner_id)
    );
}

async fn linking_needs_a_signed_in_guest(backend: Backend) {
    let Some((app, _provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let anonymous = land(&format!("{}/api/v1/auth/oidc/start?link=1", app.base), &[]).await;
    assert_eq!(anonymous.status, StatusCode::OK);
    assert_eq!(anonymous.error(), "link-not-allowed");
    let (account_cookie, _) = app.sign_up("jo@example.com", "a-long-password").await;
    let account = land(
        &format!("{}/api/v1/auth/oidc/start?link=1", app.base),
        &[&account_cookie],
    )
    .await;
    assert_eq!(account.error(), "link-not-allowed");

    // The guest signs out in the opener while the popup is at the provider: no link.
    let guest = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    let guest_cookie = guest.session_cookie().unwrap();
    let authorized = authorize(&app, "kim", Some(&guest_cookie), true).await;
    app.request(
        Method::POST,
        "/api/v1/auth/logout",
        None,
        Some(&guest_cookie),
    )
    .await;
    let landed = land(&authorized.callback_url, &[&authorized.binding_cookie]).await;
    assert_eq!(landed.error(), "link-not-allowed");
    assert!(landed.session_cookie.is_none());
}

async fn pages_in_the_popup_keep_the_opener_and_allow_only_their_own_script(backend: Backend) {
    let Some((app, _provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let landed = sign_in(&app, "lee", None, false).await;
    let csp = landed.headers["content-security-policy"].to_str().unwrap();
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    let nonce = csp
        .split("'nonce-")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap();
    assert!(landed.html.contains(&format!("<script nonce=\"{nonce}\">")));
    assert_eq!(
        landed.headers["cross-origin-opener-policy"], "unsafe-none",
        "a stricter policy would cut window.opener after the provider's pages"
    );
    assert!(
        landed
            .html
            .contains(&format!("postMessage(result, \"{}\")", app.base)),
        "posts to its own origin only: {}",
        landed.html
    );
    assert_eq!(landed.headers["cache-control"], "no-store");
}

async fn providers_and_disabled_routes(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let providers = app.get("/api/v1/auth/providers", None).await;
    assert_eq!(
        providers.body,
        json!({"phone": false, "oidc": null, "signups": true, "guests": true, "phoneRegion": "GB", "passwordReset": false})
    );
    for path in [
        "/api/v1/auth/oidc/start",
        "/api/v1/auth/oidc/callback?code=a&state=b",
    ] {
        let reply = app.get(path, None).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(reply.error_code(), "oidc-disabled");
    }
    let Some((app, _provider)) = spawn_oidc_app(backend).await else {
        return;
    };
    let providers = app.get("/api/v1/auth/providers", None).await;
    assert_eq!(providers.body["oidc"], json!({"label": "Google"}));
}

on_both_backends!(
    first_sign_in_creates_a_user_and_the_next_finds_it,
    the_authorization_request_uses_code_pkce_state_and_nonce,
    state_is_single_use_and_bound_to_the_browser,
    a_replayed_code_is_refused,
    a_missing_or_expired_pre_auth_record_is_refused,
    tampered_id_tokens_are_refused,
    a_provider_error_is_reported_and_consumes_the_state,
    guest_links_in_place_keeping_id_and_entries,
    linking_an_identity_owned_by_another_account_is_refused,
    linking_needs_a_signed_in_guest,
    pages_in_the_popup_keep_the_opener_and_allow_only_their_own_script,
    providers_and_disabled_routes,
);
