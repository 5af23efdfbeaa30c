//! "Forgot password?" over a real SMTP server on a loopback port, on SQLite and PostgreSQL: the
//! same answer for an address with or without an account, a link that works once, within the
//! hour (a hand-moved clock crosses it), that sets a new password held to the same rules and
//! ends every other session; the limits per address and per client; and the operator's answer
//! where the server cannot e-mail links. Also the password rules at sign-up and change.

use crate::common;

use std::time::Duration;

use common::{
    Backend, TestApp,
    smtp::{ReceivedMail, SmtpSink},
    spawn_app, spawn_app_with, spawn_app_with_link_clock,
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::config::Config;

const FORGOT: &str = "/api/v1/auth/password/forgot";
const CHECK: &str = "/api/v1/auth/links/check";
const RESET: &str = "/api/v1/auth/password/reset";
const PUBLIC_URL: &str = "https://tracker.example.test";
const PASSWORD: &str = "van-route-42";
const NEW_PASSWORD: &str = "ringroad-dawn-7";
const HOUR_MS: i64 = 60 * 60 * 1000;
const MAIL_WAIT: Duration = Duration::from_secs(20);

fn mail_settings(sink: &SmtpSink) -> impl FnOnce(&mut Config) {
    let url = sink.url(None);
    move |config| {
        config.smtp.smtp_url = Some(url);
        config.smtp.contact_email_to = Some("ops@example.test".into());
        config.smtp.contact_email_from = Some("Delivery Tracker <noreply@example.test>".into());
        config.http.public_url = Some(PUBLIC_URL.into());
    }
}

/// The token of the reset link in `mail`, checking the link names PUBLIC_URL's reset page.
fn token_in(mail: &ReceivedMail) -> String {
    let body = mail.body();
    let prefix = format!("{PUBLIC_URL}/reset-password#");
    let start = body
        .find(&prefix)
        .unwrap_or_else(|| panic!("no link in {body}"))
        + prefix.len();
    body[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

async fn reset(app: &TestApp, token: &str, password: &str) -> common::Reply {
    app.post(RESET, json!({"token": token, "password": password}))
        .await
}

async fn a_reset_link_is_e_mailed_only_to_an_account_and_works_once(backend: Backend) {
    let sink = SmtpSink::start().await;
    let Some((app, _time)) = spawn_app_with_link_clock(backend, mail_settings(&sink)).await else {
        return;
    };
    let providers = app.get("/api/v1/auth/providers", None).await;
    assert_eq!(providers.body["passwordReset"], true, "{}", providers.text);
    let (phone_cookie, _) = app.sign_up("sam@example.com", PASSWORD).await;
    let laptop = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "sam@example.com", "password": PASSWORD}),
        )
        .await
        .session_cookie()
        .unwrap();

    // An address with no account gets the very same answer, and no e-mail: it is asked for
    // first, and the queue handles requests in order, so once the second one's e-mail is in,
    // the first was handled.
    let unknown = app
        .post(FORGOT, json!({"email": "nobody@example.com"}))
        .await;
    let known = app
        .post(FORGOT, json!({"email": " Sam@Example.com "}))
        .await;
    assert_eq!(unknown.status, StatusCode::ACCEPTED, "{}", unknown.text);
    assert_eq!((known.status, &known.body), (unknown.status, &unknown.body));
    assert_eq!(unknown.body, json!({"accepted": true}));
    let mails = sink.wait_for(1, MAIL_WAIT).await;
    assert_eq!(mails.len(), 1, "only the account's address gets a link");
    let mail = &mails[0];
    assert_eq!(mail.rcpt_to, ["sam@example.com"]);
    assert_eq!(mail.mail_from, "noreply@example.test");
    assert_eq!(
        mail.header("Subject").as_deref(),
        Some("Reset your Delivery Tracker password")
    );
    let token = token_in(mail);
    assert_eq!(token.len(), 43, "256 random bits, URL-safe base64");
    // Only the token's hash is stored.
    let stored = app.store.find_email_link(&token, 0).await.unwrap();
    assert!(stored.is_none(), "the raw token is not a stored key");

    let check = app.post(CHECK, json!({"token": token})).await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.text);
    assert_eq!(check.body["kind"], "password-reset");
    assert_eq!(check.body["email"], "sam@example.com");

    // The new password meets the same rules, shown on its field; the link survives a refusal.
    for (weak, why) in [
        ("van123", "made from the app's name"),
        ("Sam-2024", "made from your email address"),
        ("password1", "one of the most common passwords"),
        ("abc", "at least 6 characters"),
    ] {
        let refused = reset(&app, &token, weak).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{weak}");
        assert_eq!(refused.error_code(), "weak-password", "{weak}");
        let field = refused.body["error"]["fields"]["password"][0]
            .as_str()
            .unwrap();
        assert!(field.contains(why), "{weak}: {field}");
    }

    let done = reset(&app, &token, NEW_PASSWORD).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(done.body["user"]["email"], "sam@example.com");
    assert_eq!(done.body["user"]["mustChangePassword"], false);
    let cookie = done.session_cookie().expect("signed in");
    let session = app.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["email"], "sam@example.com");
    // Every other session ended.
    for old in [&phone_cookie, &laptop] {
        app.get("/api/v1/auth/session", Some(old))
            .await
            .assert_signed_out("a session from before the reset");
    }
    // The new password signs in, the old one no longer does.
    let login = |password: &str| {
        app.post(
            "/api/v1/auth/login",
            json!({"email": "sam@example.com", "password": password}),
        )
    };
    assert_eq!(login(NEW_PASSWORD).await.status, StatusCode::OK);
    assert_eq!(login(PASSWORD).await.status, StatusCode::UNAUTHORIZED);

    // Once only.
    let again = reset(&app, &token, "another-good-one-9").await;
    assert_eq!(again.status, StatusCode::GONE, "{}", again.text);
    assert_eq!(again.error_code(), "link-expired");
    assert_eq!(
        app.post(CHECK, json!({"token": token})).await.status,
        StatusCode::GONE
    );
    assert_eq!(
        reset(&app, "not-a-token-at-all", NEW_PASSWORD).await.status,
        StatusCode::GONE
    );
}

async fn a_reset_link_expires_after_the_hour(backend: Backend) {
    let sink = SmtpSink::start().await;
    let Some((app, time)) = spawn_app_with_link_clock(backend, mail_settings(&sink)).await else {
        return;
    };
    app.sign_up("pat@example.com", PASSWORD).await;
    let asked = app.post(FORGOT, json!({"email": "pat@example.com"})).await;
    assert_eq!(asked.status, StatusCode::ACCEPTED);
    let token = token_in(&sink.wait_for(1, MAIL_WAIT).await[0]);

    time.advance_ms(HOUR_MS - 1);
    let check = app.post(CHECK, json!({"token": token})).await;
    assert_eq!(
        check.status,
        StatusCode::OK,
        "live until the hour: {}",
        check.text
    );
    time.advance_ms(1);
    let check = app.post(CHECK, json!({"token": token})).await;
    assert_eq!(check.status, StatusCode::GONE, "{}", check.text);
    let late = reset(&app, &token, NEW_PASSWORD).await;
    assert_eq!(late.status, StatusCode::GONE, "{}", late.text);
    assert_eq!(late.error_code(), "link-expired");
    let login = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "pat@example.com", "password": PASSWORD}),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK, "the password did not change");
}

async fn reset_e_mails_are_limited_per_address_and_per_client(backend: Backend) {
    let sink = SmtpSink::start().await;
    let settings = mail_settings(&sink);
    let Some(app) = spawn_app_with(backend, |config| {
        settings(config);
        config.rate_limits.password_reset_per_address_per_hour = 2;
        config.rate_limits.password_reset_per_client_per_hour = 5;
    })
    .await
    else {
        return;
    };
    app.sign_up("kim@example.com", PASSWORD).await;
    // Per address: the same for an address with an account and one without, so the limit
    // tells nothing about which is which.
    for address in ["kim@example.com", "ghost@example.com"] {
        for _ in 0..2 {
            let ok = app.post(FORGOT, json!({"email": address})).await;
            assert_eq!(ok.status, StatusCode::ACCEPTED, "{address}: {}", ok.text);
        }
        let limited = app.post(FORGOT, json!({"email": address})).await;
        assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS, "{address}");
        assert_eq!(limited.error_code(), "rate-limited");
        assert!(limited.headers.contains_key("retry-after"));
    }
    // Per client: five requests an hour from this address, whatever the e-mail addresses.
    let fifth = app.post(FORGOT, json!({"email": "a@example.com"})).await;
    assert_eq!(fifth.status, StatusCode::ACCEPTED);
    let sixth = app.post(FORGOT, json!({"email": "b@example.com"})).await;
    assert_eq!(
        sixth.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        sixth.text
    );
    assert_eq!(sink.wait_for(2, MAIL_WAIT).await.len(), 2);
}

async fn without_smtp_or_public_url_the_operator_resets_passwords(backend: Backend) {
    let sink = SmtpSink::start().await;
    let settings = mail_settings(&sink);
    let no_public_url = |config: &mut Config| {
        settings(config);
        config.http.public_url = None;
    };
    let (Some(plain), Some(no_origin)) = (
        spawn_app(backend).await,
        spawn_app_with(backend, no_public_url).await,
    ) else {
        return;
    };
    for app in [&plain, &no_origin] {
        let providers = app.get("/api/v1/auth/providers", None).await;
        assert_eq!(providers.body["passwordReset"], false, "{}", providers.text);
        let refused = app.post(FORGOT, json!({"email": "sam@example.com"})).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
        assert_eq!(refused.error_code(), "password-reset-off");
    }
    assert_eq!(sink.data_commands(), 0);
}

/// Sign-up, a guest adding a password and a password change refuse the same passwords, with the
/// reason on the password field.
async fn new_passwords_meet_the_rules_everywhere(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let field = |reply: &common::Reply, name: &str| -> String {
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{}",
            reply.text
        );
        assert_eq!(reply.error_code(), "weak-password", "{}", reply.text);
        reply.body["error"]["fields"][name][0]
            .as_str()
            .unwrap_or_else(|| panic!("no {name} field error: {}", reply.text))
            .to_owned()
    };
    let sign_up = |email: &str, password: &str| {
        app.post(
            "/api/v1/auth/signup",
            json!({"email": email, "password": password}),
        )
    };
    // The issue's own example, and the spec's minimum with its words.
    assert!(field(&sign_up("new@example.com", "van123").await, "password").contains("\"van\""));
    assert_eq!(
        field(&sign_up("new@example.com", "abc12").await, "password"),
        "Password should be at least 6 characters"
    );
    assert!(field(&sign_up("new@example.com", "iloveyou").await, "password").contains("common"));
    assert!(
        field(
            &sign_up("jo.bloggs@example.com", "JoBloggs!").await,
            "password"
        )
        .contains("email address")
    );

    let guest = app.post("/api/v1/auth/guest", json!({})).await;
    let guest = guest.session_cookie().unwrap();
    let linked = app
        .request(
            Method::POST,
            "/api/v1/auth/link/password",
            Some(json!({"email": "guest@example.com", "password": "qwertyuiop"})),
            Some(&guest),
        )
        .await;
    assert!(field(&linked, "password").contains("common"));

    let (cookie, _) = app.sign_up("sam@example.com", PASSWORD).await;
    let change = |new: &str| -> Value { json!({"currentPassword": PASSWORD, "newPassword": new}) };
    let changed = app
        .request(
            Method::POST,
            "/api/v1/auth/password",
            Some(change("parcel-99")),
            Some(&cookie),
        )
        .await;
    assert!(field(&changed, "newPassword").contains("app's name"));
    let changed = app
        .request(
            Method::POST,
            "/api/v1/auth/password",
            Some(change(NEW_PASSWORD)),
            Some(&cookie),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
}

on_both_backends!(
    a_reset_link_is_e_mailed_only_to_an_account_and_works_once,
    a_reset_link_expires_after_the_hour,
    reset_e_mails_are_limited_per_address_and_per_client,
    without_smtp_or_public_url_the_operator_resets_passwords,
    new_passwords_meet_the_rules_everywhere,
);
