//! The auth API over HTTP, on SQLite and PostgreSQL.

use crate::common;

use common::{Backend, spawn_app, spawn_app_with};
use reqwest::{Method, StatusCode};
use serde_json::json;
use server::{auth::session::hash_token, store::SessionRecord};

const SIGNUP: &str = "/api/v1/auth/signup";
const LOGIN: &str = "/api/v1/auth/login";
const SESSION: &str = "/api/v1/auth/session";

async fn sign_up_signs_in_with_a_secure_session_cookie(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let reply = app
        .post(SIGNUP, json!({"email": " Sam@Example.com ", "password": "van-route-42", "displayName": "Sam Driver"}))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    assert_eq!(reply.body["isNewUser"], true);
    let user = &reply.body["user"];
    assert_eq!(user["email"], "sam@example.com");
    assert_eq!(user["displayName"], "Sam Driver");
    assert_eq!(user["role"], "free");
    assert_eq!(user["isAnonymous"], false);
    assert_eq!(user["photoURL"], serde_json::Value::Null);
    assert_eq!(user["bio"], "");
    assert!(user["createdAt"].as_str().unwrap().ends_with('Z'));
    assert!(user["lastLogin"].is_string());

    let set_cookie = reply.headers.get("set-cookie").unwrap().to_str().unwrap();
    for attribute in [
        "__Host-session=",
        "HttpOnly",
        "Secure",
        "SameSite=Lax",
        "Path=/",
    ] {
        assert!(
            set_cookie.contains(attribute),
            "{attribute} missing from {set_cookie}"
        );
    }
    let cookie = reply.session_cookie().unwrap();
    let session = app.get(SESSION, Some(&cookie)).await;
    assert_eq!(session.status, StatusCode::OK);
    assert_eq!(session.body["user"], *user);
}

async fn display_name_falls_back_to_user(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (_, user) = app.sign_up("nameless@example.com", "van-route-42").await;
    assert_eq!(user["displayName"], "User");
}

async fn sign_up_rejects_taken_and_invalid_input(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    app.sign_up("taken@example.com", "van-route-42").await;

    let cases = [
        (
            json!({"email": "TAKEN@example.com", "password": "other-pass-1"}),
            409,
            "email-already-in-use",
            "This email is already registered",
        ),
        (
            json!({"email": "not-an-email", "password": "van-route-42"}),
            422,
            "invalid-email",
            "Invalid email address",
        ),
        (
            json!({"email": "a@b.co", "password": "12345"}),
            422,
            "weak-password",
            "Password should be at least 6 characters",
        ),
        (
            json!({"email": "a@b.co", "password": "password123"}),
            422,
            "weak-password",
            "This is one of the most common passwords, among the first anyone would try. Please choose a less predictable one",
        ),
        (
            json!({"password": "van-route-42"}),
            422,
            "validation",
            "Email is required",
        ),
        (
            json!({"email": "a@b.co"}),
            422,
            "validation",
            "Password is required",
        ),
        (
            json!({"email": "a@b.co", "password": "van-route-42", "displayName": "x".repeat(81)}),
            422,
            "validation",
            "Display name must be at most 80 characters",
        ),
        (
            json!({"email": 5, "password": "van-route-42"}),
            422,
            "validation",
            "",
        ),
    ];
    for (body, status, code, message) in cases {
        let reply = app.post(SIGNUP, body.clone()).await;
        assert_eq!(reply.status.as_u16(), status, "{body}: {}", reply.text);
        assert_eq!(reply.error_code(), code, "{body}");
        if !message.is_empty() {
            assert_eq!(reply.body["error"]["message"], message, "{body}");
        }
        assert!(reply.session_cookie().is_none(), "no session on failure");
    }
    let missing = app.post(SIGNUP, json!({"email": "a@b.co"})).await;
    assert_eq!(
        missing.body["error"]["fields"]["password"][0],
        "Password is required"
    );
    // Nothing half-written: exactly one account exists.
    assert_eq!(app.store.list_users().await.unwrap().len(), 1);
}

async fn malformed_requests_get_the_error_shape(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let url = format!("{}{SIGNUP}", app.base);
    let bad_json = common::read(
        app.http
            .post(&url)
            .header("content-type", "application/json")
            .body("{"),
    )
    .await;
    assert_eq!(bad_json.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad_json.error_code(), "bad-json");

    let wrong_type = common::read(app.http.post(&url).body("email=a")).await;
    assert_eq!(wrong_type.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(wrong_type.error_code(), "unsupported-media-type");

    let huge = format!(
        "{{\"email\":\"{}\"}}",
        "a".repeat(server::JSON_BODY_LIMIT + 10)
    );
    let too_large = common::read(
        app.http
            .post(&url)
            .header("content-type", "application/json")
            .body(huge),
    )
    .await;
    assert_eq!(too_large.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(too_large.error_code(), "payload-too-large");

    let wrong_method = app.get(SIGNUP, None).await;
    assert_eq!(wrong_method.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong_method.error_code(), "method-not-allowed");

    let unknown = app.get("/api/v1/nothing-here", None).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(unknown.error_code(), "not-found");
}

async fn login_updates_last_login_and_hides_which_part_was_wrong(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (_, created) = app.sign_up("driver@example.com", "van-route-42").await;
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;

    let ok = app
        .post(
            LOGIN,
            json!({"email": "Driver@example.com", "password": "van-route-42"}),
        )
        .await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.text);
    assert_eq!(ok.body["isNewUser"], false);
    assert_eq!(ok.body["user"]["id"], created["id"]);
    assert!(ok.body["user"]["lastLogin"].as_str() > created["lastLogin"].as_str());
    let cookie = ok.session_cookie().unwrap();
    let session = app.get(SESSION, Some(&cookie)).await;
    assert_eq!(
        session.body["user"]["lastLogin"],
        ok.body["user"]["lastLogin"]
    );

    let wrong_password = app
        .post(
            LOGIN,
            json!({"email": "driver@example.com", "password": "van-route-43"}),
        )
        .await;
    let unknown_email = app
        .post(
            LOGIN,
            json!({"email": "nobody@example.com", "password": "van-route-42"}),
        )
        .await;
    assert_eq!(wrong_password.status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong_password.error_code(), "invalid-credentials");
    assert_eq!(
        wrong_password.body["error"]["message"],
        "Invalid email or password"
    );
    assert_eq!(wrong_password.status, unknown_email.status);
    assert_eq!(wrong_password.body, unknown_email.body);
}

async fn guest_is_a_real_anonymous_account(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let reply = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    assert_eq!(reply.body["isNewUser"], true);
    assert_eq!(reply.body["user"]["isAnonymous"], true);
    assert_eq!(reply.body["user"]["email"], serde_json::Value::Null);
    assert_eq!(reply.body["user"]["displayName"], "User");
    let cookie = reply.session_cookie().unwrap();
    let session = app.get(SESSION, Some(&cookie)).await;
    assert_eq!(session.body["user"]["id"], reply.body["user"]["id"]);
    // Two guests are two accounts.
    let other = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    assert_ne!(other.body["user"]["id"], reply.body["user"]["id"]);
}

async fn logout_deletes_the_session_server_side(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("leaving@example.com", "van-route-42").await;
    let reply = app
        .request(Method::POST, "/api/v1/auth/logout", None, Some(&cookie))
        .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    let cleared = reply.headers.get("set-cookie").unwrap().to_str().unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    // Replaying the old cookie does not work: the session is gone, not just the cookie.
    let after = app.get(SESSION, Some(&cookie)).await;
    after.assert_signed_out("the old cookie after logout");
}

async fn expired_sessions_are_refused_and_removed(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (_, user) = app.sign_up("idle@example.com", "van-route-42").await;
    let user_id = user["id"].as_str().unwrap().parse().unwrap();
    let now = domain::time_fmt::now_ms();
    let day = 86_400_000;
    for (token, created, last_seen) in [
        ("idle-token", now - 40 * day, now - 31 * day),
        ("old-token", now - 366 * day, now),
    ] {
        app.store
            .create_session(SessionRecord {
                token_hash: hash_token(token),
                user_id,
                created_at_ms: created,
                last_seen_ms: last_seen,
                user_agent: None,
                temporary_password: false,
            })
            .await
            .unwrap();
        let reply = app
            .get(SESSION, Some(&format!("__Host-session={token}")))
            .await;
        reply.assert_signed_out(token);
        assert!(
            app.store
                .get_session(&hash_token(token))
                .await
                .unwrap()
                .is_none(),
            "{token} removed"
        );
    }
}

async fn session_requires_a_valid_cookie(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    for cookie in [None, Some("__Host-session=forged"), Some("session=forged")] {
        let reply = app.get(SESSION, cookie).await;
        reply.assert_signed_out(&format!("{cookie:?}"));
        // Who is signed in is an answer; what needs a session still refuses.
        let sessions = app.get("/api/v1/auth/sessions", cookie).await;
        assert_eq!(sessions.status, StatusCode::UNAUTHORIZED, "{cookie:?}");
        assert_eq!(sessions.error_code(), "unauthenticated");
    }
}

async fn auth_is_rate_limited_before_hashing(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.rate_limits.auth_rate_limit_per_minute = 3).await
    else {
        return;
    };
    for _ in 0..3 {
        let reply = app
            .post(
                LOGIN,
                json!({"email": "x@example.com", "password": "whatever-1"}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    let limited = app
        .post(
            LOGIN,
            json!({"email": "x@example.com", "password": "whatever-1"}),
        )
        .await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(limited.error_code(), "rate-limited");
    let retry_after: u64 = limited.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let guest = app
        .request(Method::POST, "/api/v1/auth/guest", None, None)
        .await;
    assert_eq!(
        guest.status,
        StatusCode::TOO_MANY_REQUESTS,
        "guests share the per-IP limit"
    );
}

async fn login_is_rate_limited_per_email(backend: Backend) {
    let Some(app) =
        spawn_app_with(backend, |c| c.rate_limits.login_rate_limit_per_minute = 2).await
    else {
        return;
    };
    for _ in 0..2 {
        app.post(
            LOGIN,
            json!({"email": "target@example.com", "password": "guess-123"}),
        )
        .await;
    }
    let limited = app
        .post(
            LOGIN,
            json!({"email": "TARGET@example.com", "password": "guess-123"}),
        )
        .await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    let other = app
        .post(
            LOGIN,
            json!({"email": "other@example.com", "password": "guess-123"}),
        )
        .await;
    assert_eq!(other.status, StatusCode::UNAUTHORIZED);
}

async fn admin_role_change_takes_effect_at_once(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("pro@example.com", "van-route-42").await;
    server::admin::set_role(
        &app.store,
        "PRO@example.com",
        domain::phone::PhoneRegion::GB,
        domain::Role::Pro,
    )
    .await
    .unwrap();
    let session = app.get(SESSION, Some(&cookie)).await;
    assert_eq!(session.body["user"]["role"], "pro");
    let err = server::admin::set_role(
        &app.store,
        "ghost@example.com",
        domain::phone::PhoneRegion::GB,
        domain::Role::Pro,
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("no user"), "{err}");

    let mut listing = Vec::new();
    server::admin::list_users(&app.store, &mut listing)
        .await
        .unwrap();
    let listing = String::from_utf8(listing).unwrap();
    assert!(
        listing.contains("pro@example.com") && listing.contains("\n1 user\n"),
        "{listing}"
    );
}

async fn cross_site_state_changes_are_refused(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let url = format!("{}/api/v1/auth/guest", app.base);
    let cross_site = common::read(app.http.post(&url).header("sec-fetch-site", "cross-site")).await;
    assert_eq!(cross_site.status, StatusCode::FORBIDDEN);
    assert_eq!(cross_site.error_code(), "csrf");
    let same_site = common::read(app.http.post(&url).header("sec-fetch-site", "same-site")).await;
    assert_eq!(
        same_site.status,
        StatusCode::FORBIDDEN,
        "a sibling subdomain is not us"
    );
    let foreign_origin =
        common::read(app.http.post(&url).header("origin", "http://evil.example")).await;
    assert_eq!(foreign_origin.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.store.list_users().await.unwrap().len(),
        0,
        "nothing was created"
    );

    let own_origin = common::read(app.http.post(&url).header("origin", app.base.clone())).await;
    assert_eq!(own_origin.status, StatusCode::CREATED);
    let same_origin =
        common::read(app.http.post(&url).header("sec-fetch-site", "same-origin")).await;
    assert_eq!(same_origin.status, StatusCode::CREATED);
    // Reads are never blocked: they change nothing.
    let read = common::read(
        app.http
            .get(format!("{}/healthz", app.base))
            .header("sec-fetch-site", "cross-site"),
    )
    .await;
    assert_eq!(read.status, StatusCode::OK);
}

/// A browser keeps one session cookie: signing in (or up) replaces it, so the session the old
/// cookie named — here a guest's — ends on the server too, instead of staying a live credential.
async fn signing_in_ends_the_session_the_browser_had(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    app.sign_up("driver@example.com", "van-route-42").await;
    for (path, body) in [
        (
            LOGIN,
            json!({"email": "driver@example.com", "password": "van-route-42"}),
        ),
        (
            SIGNUP,
            json!({"email": "second@example.com", "password": "van-route-42"}),
        ),
        ("/api/v1/auth/guest", json!({})),
    ] {
        let guest = app.post("/api/v1/auth/guest", json!({})).await;
        let guest_cookie = guest.session_cookie().unwrap();
        assert_eq!(
            app.get(SESSION, Some(&guest_cookie)).await.status,
            StatusCode::OK
        );

        let signed_in = app
            .request(Method::POST, path, Some(body), Some(&guest_cookie))
            .await;
        assert!(signed_in.status.is_success(), "{path}: {}", signed_in.text);
        let new_cookie = signed_in.session_cookie().unwrap();
        app.get(SESSION, Some(&guest_cookie))
            .await
            .assert_signed_out(&format!("{path} left the guest session working"));
        assert_eq!(
            app.get(SESSION, Some(&new_cookie)).await.status,
            StatusCode::OK
        );
    }
}

/// Sessions are served from memory after the first request (auth/session_cache.rs); what
/// signed-in requests carry must still follow sign-outs and user changes at once.
async fn cached_sessions_follow_sign_outs_and_user_changes(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (sam, _) = app.sign_up("sam@example.com", "van-route-42").await;
    let (kim, _) = app.sign_up("kim@example.com", "van-route-42").await;
    for _ in 0..2 {
        // Twice: the second answer comes from the cache, and each token keeps its own user.
        assert_eq!(
            app.get(SESSION, Some(&sam)).await.body["user"]["email"],
            "sam@example.com"
        );
        assert_eq!(
            app.get(SESSION, Some(&kim)).await.body["user"]["email"],
            "kim@example.com"
        );
    }

    let pushed = app
        .push(&kim, vec![json!({"id": "rename-1", "name": "profile.update", "args": {"displayName": "Kim Courier"}})])
        .await;
    assert_eq!(
        pushed.body["results"][0]["status"], "applied",
        "{}",
        pushed.text
    );
    assert_eq!(
        app.get(SESSION, Some(&kim)).await.body["user"]["displayName"],
        "Kim Courier",
        "a profile change shows on the next request"
    );

    let out = app
        .request(Method::POST, "/api/v1/auth/logout", None, Some(&sam))
        .await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    app.get(SESSION, Some(&sam))
        .await
        .assert_signed_out("a signed-out session is refused at once");
    assert_eq!(
        app.get(SESSION, Some(&kim)).await.body["user"]["displayName"],
        "Kim Courier",
        "the other user's session is untouched"
    );
}

on_both_backends!(
    cached_sessions_follow_sign_outs_and_user_changes,
    signing_in_ends_the_session_the_browser_had,
    cross_site_state_changes_are_refused,
    sign_up_signs_in_with_a_secure_session_cookie,
    display_name_falls_back_to_user,
    sign_up_rejects_taken_and_invalid_input,
    malformed_requests_get_the_error_shape,
    login_updates_last_login_and_hides_which_part_was_wrong,
    guest_is_a_real_anonymous_account,
    logout_deletes_the_session_server_side,
    expired_sessions_are_refused_and_removed,
    session_requires_a_valid_cookie,
    auth_is_rate_limited_before_hashing,
    login_is_rate_limited_per_email,
    admin_role_change_takes_effect_at_once,
);
