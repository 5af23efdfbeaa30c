//! Phone sign-in over HTTP, on SQLite and PostgreSQL: captcha, send limits, the code's
//! lifecycle, sign-up/sign-in, linking a guest in place, and the SMS senders.

use crate::common;

use std::sync::{Arc, Mutex};

use axum::{Router, extract::State, http::HeaderMap, routing::post};
use common::{
    Backend,
    phone::{CHALLENGE, SEND, VERIFY, solve, spawn_phone_app},
    spawn_app,
};
use domain::phone::PhoneRegion;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::config::{PhoneConfig, SmsSenderKind};
use uuid::Uuid;

const SESSION: &str = "/api/v1/auth/session";
const PROVIDERS: &str = "/api/v1/auth/providers";
const NUMBER: &str = "+447700900123";
const MINUTE_MS: i64 = 60_000;

fn wrong(code: &str) -> String {
    let n: u32 = code.parse().unwrap();
    format!("{:06}", (n + 1) % 1_000_000)
}

fn retry_after(reply: &common::Reply) -> u64 {
    reply.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

async fn codes_expire_after_five_minutes(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let (early, late) = ("+447700900001", "+447700900002");
    let early_id = app.sent_code(early).await;
    let late_id = app.sent_code(late).await;
    app.time.advance_ms(5 * MINUTE_MS - 1);
    let reply = app
        .verify_code(&early_id, &app.last_code(early), None)
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    app.time.advance_ms(1);
    let reply = app.verify_code(&late_id, &app.last_code(late), None).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    assert_eq!(reply.error_code(), "code-expired");
    assert!(reply.session_cookie().is_none());
}

async fn five_wrong_attempts_kill_the_code(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let id = app.sent_code(NUMBER).await;
    let code = app.last_code(NUMBER);
    for attempt in 1..=5 {
        let reply = app.verify_code(&id, &wrong(&code), None).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "attempt {attempt}");
        assert_eq!(reply.error_code(), "invalid-verification-code");
        assert_eq!(
            reply.body["error"]["message"],
            "The verification code is incorrect"
        );
    }
    let reply = app.verify_code(&id, &code, None).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.error_code(),
        "code-expired",
        "the right code after 5 wrong ones"
    );
}

async fn four_wrong_attempts_leave_the_last_one(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let id = app.sent_code(NUMBER).await;
    let code = app.last_code(NUMBER);
    for _ in 1..=4 {
        let reply = app.verify_code(&id, &wrong(&code), None).await;
        assert_eq!(reply.error_code(), "invalid-verification-code");
    }
    let reply = app.verify_code(&id, &code, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

async fn a_used_code_fails(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let id = app.sent_code(NUMBER).await;
    let code = app.last_code(NUMBER);
    assert_eq!(
        app.verify_code(&id, &code, None).await.status,
        StatusCode::OK
    );
    let again = app.verify_code(&id, &code, None).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    assert_eq!(again.error_code(), "code-expired");
}

async fn a_resend_replaces_the_previous_code(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let first_id = app.sent_code(NUMBER).await;
    let first_code = app.last_code(NUMBER);
    let second_id = app.sent_code(NUMBER).await;
    let second_code = app.last_code(NUMBER);
    assert_ne!(first_id, second_id);
    assert_eq!(app.outbox().len(), 2);

    let old = app.verify_code(&first_id, &first_code, None).await;
    assert_eq!(old.status, StatusCode::BAD_REQUEST);
    assert_eq!(old.error_code(), "code-expired");
    if first_code != second_code {
        let crossed = app.verify_code(&second_id, &first_code, None).await;
        assert_eq!(crossed.error_code(), "invalid-verification-code");
    }
    let new = app.verify_code(&second_id, &second_code, None).await;
    assert_eq!(new.status, StatusCode::OK, "{}", new.text);
}

async fn per_number_limits_trip_at_sixty_seconds_and_five_an_hour(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |config| {
        config.phone.phone_send_interval_secs = 60;
        config.phone.phone_sends_per_number_per_hour = 5;
    })
    .await
    else {
        return;
    };
    assert_eq!(app.send_code(NUMBER).await.status, StatusCode::ACCEPTED);
    let too_soon = app.send_code(NUMBER).await;
    assert_eq!(
        too_soon.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        too_soon.text
    );
    assert_eq!(too_soon.error_code(), "rate-limited");
    assert_eq!(retry_after(&too_soon), 60);
    // A wait, worded as one, with the unit's right number.
    assert_eq!(
        too_soon.body["error"]["message"],
        "Please wait 60 seconds before asking for another code."
    );
    app.time.advance_ms(MINUTE_MS - 1);
    let still = app.send_code(NUMBER).await;
    assert_eq!(still.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&still), 1);
    assert_eq!(
        still.body["error"]["message"],
        "Please wait 1 second before asking for another code."
    );
    // Another number is not held back by this one.
    assert_eq!(
        app.send_code("+447700900999").await.status,
        StatusCode::ACCEPTED
    );
    app.time.advance_ms(1);
    assert_eq!(
        app.send_code(NUMBER).await.status,
        StatusCode::ACCEPTED,
        "exactly 60 s later"
    );

    for _ in 3..=5 {
        app.time.advance_ms(MINUTE_MS);
        assert_eq!(app.send_code(NUMBER).await.status, StatusCode::ACCEPTED);
    }
    // Five sent at t0, t0+60 s, +120 s, +180 s, +240 s; now t0+300 s.
    app.time.advance_ms(MINUTE_MS);
    let sixth = app.send_code(NUMBER).await;
    assert_eq!(
        sixth.status,
        StatusCode::TOO_MANY_REQUESTS,
        "a sixth within the hour"
    );
    assert_eq!(retry_after(&sixth), 3_600 - 300);
    app.time.advance_ms(3_600_000 - 300_000 - 1);
    assert_eq!(
        app.send_code(NUMBER).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    app.time.advance_ms(1);
    assert_eq!(
        app.send_code(NUMBER).await.status,
        StatusCode::ACCEPTED,
        "the first left the hour"
    );
    let texted = app.outbox().iter().filter(|m| m["to"] == NUMBER).count();
    assert_eq!(texted, 6, "refused sends text nothing");
}

async fn per_ip_limit_trips_at_its_count(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |config| {
        config.http.trust_proxy = true;
        config.phone.phone_sends_per_ip_per_minute = 3;
    })
    .await
    else {
        return;
    };
    for i in 0..3 {
        let reply = app
            .send_code_from(&format!("+4477009001{i:02}"), Some("10.0.0.1"))
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    }
    let fourth = app.send_code_from("+447700900199", Some("10.0.0.1")).await;
    assert_eq!(fourth.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&fourth), 60);
    let other_ip = app.send_code_from("+447700900199", Some("10.0.0.2")).await;
    assert_eq!(other_ip.status, StatusCode::ACCEPTED);
    app.time.advance_ms(MINUTE_MS);
    let later = app.send_code_from("+447700900198", Some("10.0.0.1")).await;
    assert_eq!(later.status, StatusCode::ACCEPTED, "a minute later");
    assert_eq!(app.outbox().len(), 5);
}

async fn global_limit_trips_at_its_count(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |config| {
        config.http.trust_proxy = true;
        config.phone.phone_sends_per_minute = 4;
        config.phone.phone_sends_per_ip_per_minute = 1;
    })
    .await
    else {
        return;
    };
    for i in 0..4 {
        let reply = app
            .send_code_from(&format!("+4477009002{i:02}"), Some(&format!("10.0.1.{i}")))
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    }
    let fifth = app.send_code_from("+447700900299", Some("10.0.1.99")).await;
    assert_eq!(fifth.status, StatusCode::TOO_MANY_REQUESTS);
    app.time.advance_ms(MINUTE_MS - 1);
    assert_eq!(
        app.send_code_from("+447700900299", Some("10.0.1.99"))
            .await
            .status,
        StatusCode::TOO_MANY_REQUESTS
    );
    app.time.advance_ms(1);
    assert_eq!(
        app.send_code_from("+447700900299", Some("10.0.1.99"))
            .await
            .status,
        StatusCode::ACCEPTED
    );
    assert_eq!(app.outbox().len(), 5);
}

async fn no_sms_without_a_valid_captcha(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let good = app.solved_captcha().await;
    let mut wrong_number = good.clone();
    wrong_number["number"] = json!(good["number"].as_u64().unwrap() + 1);
    let mut forged = good.clone();
    forged["signature"] = json!("00".repeat(32));
    let mut other_salt = good.clone();
    other_salt["salt"] = json!("abc?expires=99999999999&");
    let refused = [
        json!({"phone": NUMBER}),
        json!({"phone": NUMBER, "captcha": null}),
        json!({"phone": NUMBER, "captcha": "bm90IGpzb24="}),
        json!({"phone": NUMBER, "captcha": {"algorithm": "SHA-256"}}),
        json!({"phone": NUMBER, "captcha": wrong_number}),
        json!({"phone": NUMBER, "captcha": forged}),
        json!({"phone": NUMBER, "captcha": other_salt}),
    ];
    for body in refused {
        let reply = app.post(SEND, body.clone()).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{body}: {}",
            reply.text
        );
        assert_eq!(reply.error_code(), "captcha-failed", "{body}");
    }
    // A solved challenge is good for ten minutes, not longer.
    let stale = app.solved_captcha().await;
    app.time.advance_ms(10 * MINUTE_MS + 1_000);
    let reply = app
        .post(SEND, json!({"phone": NUMBER, "captcha": stale}))
        .await;
    assert_eq!(reply.error_code(), "captcha-failed", "expired challenge");
    assert!(
        app.outbox().is_empty(),
        "no SMS was sent: {:?}",
        app.outbox()
    );

    // The widget's base64 form works too.
    use base64::Engine;
    let encoded =
        base64::engine::general_purpose::STANDARD.encode(app.solved_captcha().await.to_string());
    let reply = app
        .post(SEND, json!({"phone": NUMBER, "captcha": encoded}))
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    assert_eq!(app.outbox().len(), 1);
}

async fn a_captcha_solution_is_accepted_once(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let captcha = app.solved_captcha().await;
    let first = app
        .post(SEND, json!({"phone": NUMBER, "captcha": captcha}))
        .await;
    assert_eq!(first.status, StatusCode::ACCEPTED, "{}", first.text);
    let replay = app
        .post(SEND, json!({"phone": "+447700900555", "captcha": captcha}))
        .await;
    assert_eq!(replay.status, StatusCode::BAD_REQUEST);
    assert_eq!(replay.error_code(), "captcha-failed");
    assert_eq!(app.outbox().len(), 1);
}

async fn numbers_that_cannot_be_real_are_refused(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let captcha = app.solved_captcha().await;
    for phone in [
        json!("07700 9001"),
        json!("07700 900123 45"),
        json!("+44 7700"),
        json!("+44 7700 900123 ext 5"),
        json!("+44abc"),
        json!(""),
        json!(null),
        json!(447700900123u64),
    ] {
        let reply = app
            .post(SEND, json!({"phone": phone, "captcha": captcha}))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{phone}: {}",
            reply.text
        );
        assert_eq!(reply.error_code(), "validation");
        assert_eq!(
            reply.body["error"]["fields"]["phone"][0],
            "The phone number is entered in international format with a country code"
        );
    }
    assert!(app.outbox().is_empty());
    // The captcha was not spent on a mistyped number; spaces are fine.
    let reply = app
        .post(
            SEND,
            json!({"phone": "+44 7700 900123", "captcha": captcha}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    assert_eq!(app.outbox()[0]["to"], NUMBER);
}

/// What UK drivers type: national, or international with the trunk 0 in brackets. Both
/// text the one E.164 number (the hand parser made `+4407700900123` of the second).
async fn typed_numbers_are_texted_in_e164(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    for typed in ["07700 900123", "+44 (0)7700 900123"] {
        let captcha = app.solved_captcha().await;
        let reply = app
            .post(SEND, json!({"phone": typed, "captcha": captcha}))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::ACCEPTED,
            "{typed}: {}",
            reply.text
        );
    }
    let to: Vec<Value> = app.outbox().iter().map(|m| m["to"].clone()).collect();
    assert_eq!(to, [json!(NUMBER), json!(NUMBER)]);
}

/// PHONE_DEFAULT_REGION decides how a national number reads, and the web app is told it.
async fn the_default_region_is_configurable(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |config| {
        config.phone.phone_default_region = PhoneRegion::parse("US").unwrap();
    })
    .await
    else {
        return;
    };
    let providers = app.get(PROVIDERS, None).await;
    assert_eq!(providers.body["phoneRegion"], "US");
    for typed in ["(415) 555-2671", "+1 415 555 2671", "+44 7700 900123"] {
        let captcha = app.solved_captcha().await;
        let reply = app
            .post(SEND, json!({"phone": typed, "captcha": captcha}))
            .await;
        assert_eq!(
            reply.status,
            StatusCode::ACCEPTED,
            "{typed}: {}",
            reply.text
        );
    }
    let to: Vec<Value> = app.outbox().iter().map(|m| m["to"].clone()).collect();
    assert_eq!(
        to,
        [json!("+14155552671"), json!("+14155552671"), json!(NUMBER)]
    );
}

async fn send_answers_the_same_whether_or_not_the_number_has_an_account(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let known = "+447700900111";
    assert_eq!(app.phone_sign_in(known, None).await.status, StatusCode::OK);
    let for_known = app.send_code(known).await;
    let for_unknown = app.send_code("+447700900222").await;
    assert_eq!(for_known.status, for_unknown.status);
    assert_eq!(for_known.status, StatusCode::ACCEPTED);
    let keys = |reply: &common::Reply| {
        reply
            .body
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(&for_known), vec!["verificationId".to_owned()]);
    assert_eq!(keys(&for_known), keys(&for_unknown));
    for reply in [&for_known, &for_unknown] {
        assert!(Uuid::parse_str(reply.body["verificationId"].as_str().unwrap()).is_ok());
        assert!(reply.session_cookie().is_none());
    }
}

async fn first_verify_creates_the_account_later_ones_sign_in(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let first = app.phone_sign_in(NUMBER, None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.body["isNewUser"], true);
    assert_eq!(first.body["user"]["isAnonymous"], false);
    assert_eq!(first.body["user"]["email"], Value::Null);
    let cookie = first.session_cookie().expect("session cookie");
    let session = app.get(SESSION, Some(&cookie)).await;
    assert_eq!(session.body["user"]["id"], first.body["user"]["id"]);

    let again = app.phone_sign_in(NUMBER, None).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.body["isNewUser"], false);
    assert_eq!(again.body["user"]["id"], first.body["user"]["id"]);
    assert_ne!(
        again.session_cookie().unwrap(),
        cookie,
        "a new token every sign-in"
    );
    // The code itself is never stored in the clear.
    assert!(!app.outbox().is_empty());
}

async fn a_guest_links_the_number_in_place(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let guest = app.post("/api/v1/auth/guest", json!({})).await;
    assert_eq!(guest.status, StatusCode::CREATED);
    let guest_cookie = guest.session_cookie().unwrap();
    let guest_id = guest.body["user"]["id"].clone();
    let entry_id = Uuid::now_v7().to_string();
    let push = app
        .request(
            Method::POST,
            "/api/v1/sync/push",
            Some(json!({"clientId": "phone-1", "mutations": [{"id": "m1", "name": "entry.put",
                "args": {"id": entry_id, "date": "2026-11-20", "stops": 120, "extra": 0, "notes": "guest day", "total": 23760}}]})),
            Some(&guest_cookie),
        )
        .await;
    assert_eq!(push.status, StatusCode::OK, "{}", push.text);

    let linked = app.phone_sign_in(NUMBER, Some(&guest_cookie)).await;
    assert_eq!(linked.status, StatusCode::OK, "{}", linked.text);
    assert_eq!(linked.body["user"]["id"], guest_id, "same user id");
    assert_eq!(linked.body["user"]["isAnonymous"], false);
    assert_eq!(linked.body["isNewUser"], false);
    let new_cookie = linked.session_cookie().unwrap();
    assert_ne!(new_cookie, guest_cookie, "session rotated");
    app.get(SESSION, Some(&guest_cookie))
        .await
        .assert_signed_out("the guest session ended");

    let has_entry = |page: &Value| {
        page["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == entry_id.as_str() && c["data"]["notes"] == "guest day")
    };
    let pull = app
        .get("/api/v1/sync/pull?cursor=0&limit=100", Some(&new_cookie))
        .await;
    assert!(has_entry(&pull.body), "{}", pull.text);
    let profile = pull.body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "profile")
        .cloned();
    assert_eq!(
        profile.unwrap()["data"]["isAnonymous"],
        false,
        "the profile syncs the change"
    );

    // Later, on another device: phone sign-in reaches the same account and its entries.
    let elsewhere = app.phone_sign_in(NUMBER, None).await;
    assert_eq!(elsewhere.body["user"]["id"], guest_id);
    assert_eq!(elsewhere.body["isNewUser"], false);
    let pull = app
        .get(
            "/api/v1/sync/pull?cursor=0&limit=100",
            Some(&elsewhere.session_cookie().unwrap()),
        )
        .await;
    assert!(has_entry(&pull.body));
}

async fn a_number_of_another_account_is_never_linked(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let owner = app.phone_sign_in(NUMBER, None).await;
    let owner_id = owner.body["user"]["id"].clone();
    let guest = app.post("/api/v1/auth/guest", json!({})).await;
    let guest_cookie = guest.session_cookie().unwrap();

    let refused = app.phone_sign_in(NUMBER, Some(&guest_cookie)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert_eq!(refused.error_code(), "identity-in-use");
    assert_eq!(
        refused.body["error"]["message"],
        "This phone number is already linked to another account"
    );
    assert!(refused.session_cookie().is_none());
    let still_guest = app.get(SESSION, Some(&guest_cookie)).await;
    assert_eq!(still_guest.status, StatusCode::OK);
    assert_eq!(still_guest.body["user"]["isAnonymous"], true);
    assert_eq!(still_guest.body["user"]["id"], guest.body["user"]["id"]);
    // The number still signs in to its owner.
    assert_eq!(
        app.phone_sign_in(NUMBER, None).await.body["user"]["id"],
        owner_id
    );

    // An account with a number cannot take a second one.
    let second = app
        .phone_sign_in("+447700900777", Some(&owner.session_cookie().unwrap()))
        .await;
    assert_eq!(second.status, StatusCode::CONFLICT, "{}", second.text);
    assert_eq!(second.error_code(), "phone-already-linked");
}

async fn verify_needs_a_code(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    let id = app.sent_code(NUMBER).await;
    let reply = app.post(VERIFY, json!({"verificationId": id})).await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        reply.body["error"]["fields"]["code"][0],
        "The verification code is required"
    );
    let unknown = app
        .verify_code(&Uuid::new_v4().to_string(), "123456", None)
        .await;
    assert_eq!(unknown.error_code(), "code-expired");
    let garbage = app.verify_code("not-an-id", "123456", None).await;
    assert_eq!(garbage.error_code(), "code-expired");
    // Malformed codes are refused without spending one of the five attempts.
    for _ in 0..6 {
        assert_eq!(
            app.verify_code(&id, "12ab", None).await.error_code(),
            "invalid-verification-code"
        );
    }
    let code = app.last_code(NUMBER);
    assert_eq!(
        app.verify_code(&id, &code, None).await.status,
        StatusCode::OK
    );
}

async fn off_without_a_sender(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let providers = app.get(PROVIDERS, None).await;
    assert_eq!(providers.status, StatusCode::OK);
    assert_eq!(
        providers.body,
        json!({"phone": false, "oidc": null, "signups": true, "guests": true, "phoneRegion": "GB", "passwordReset": false})
    );
    for reply in [
        app.get(CHALLENGE, None).await,
        app.post(SEND, json!({"phone": NUMBER, "captcha": {}}))
            .await,
        app.post(
            VERIFY,
            json!({"verificationId": Uuid::new_v4().to_string(), "code": "123456"}),
        )
        .await,
    ] {
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text);
        assert_eq!(reply.error_code(), "phone-disabled");
    }
    let Some(on) = spawn_phone_app(backend, |_| {}).await else {
        return;
    };
    assert_eq!(
        on.get(PROVIDERS, None).await.body,
        json!({"phone": true, "oidc": null, "signups": true, "guests": true, "phoneRegion": "GB", "passwordReset": false})
    );
    let challenge = on.get(CHALLENGE, None).await;
    assert_eq!(challenge.headers["cache-control"], "no-store");
    assert_eq!(challenge.body["algorithm"], "SHA-256");
    assert_eq!(challenge.body["maxnumber"], 1_000);
    assert!(
        challenge.body["salt"]
            .as_str()
            .unwrap()
            .contains("expires=")
    );
    solve(&challenge.body);
}

/// The attack of issue 10: scripts on three IPv4 addresses solve captchas as fast as they
/// can. With the default limits they must not use up the overall budget: a real user on
/// another address still gets a code.
async fn an_attacker_on_three_addresses_leaves_room_for_a_real_user(backend: Backend) {
    let defaults = PhoneConfig::default();
    let Some(app) = spawn_phone_app(backend, |config| {
        config.http.trust_proxy = true;
        config.phone.phone_sends_per_ip_per_minute = defaults.phone_sends_per_ip_per_minute;
        config.phone.phone_sends_per_minute = defaults.phone_sends_per_minute;
    })
    .await
    else {
        return;
    };
    let mut attacker_got = 0;
    for round in 0..15 {
        for (k, ip) in ["198.51.100.1", "198.51.100.2", "198.51.100.3"]
            .iter()
            .enumerate()
        {
            let number = format!("+44770091{:04}", round * 3 + k);
            let reply = app.send_code_from(&number, Some(ip)).await;
            match reply.status {
                StatusCode::ACCEPTED => attacker_got += 1,
                StatusCode::TOO_MANY_REQUESTS | StatusCode::BAD_REQUEST => {}
                other => panic!("{other}: {}", reply.text),
            }
        }
    }
    assert!(
        attacker_got < defaults.phone_sends_per_minute,
        "the attacker got {attacker_got} codes"
    );
    let user = app.send_code_from(NUMBER, Some("203.0.113.50")).await;
    assert_eq!(user.status, StatusCode::ACCEPTED, "{}", user.text);
    assert!(app.outbox().iter().any(|m| m["to"] == NUMBER));
}

/// An IPv6 client picks the low 64 bits of its address freely: one /64 is one bucket.
async fn ipv6_addresses_in_one_slash_64_share_one_bucket(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |config| {
        config.http.trust_proxy = true;
        config.phone.phone_sends_per_ip_per_minute = 3;
    })
    .await
    else {
        return;
    };
    for host in 1..=3 {
        let reply = app
            .send_code_from(
                &format!("+4477009003{host:02}"),
                Some(&format!("2001:db8:1:2::{host}")),
            )
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    }
    let same_64 = app
        .send_code_from("+447700900399", Some("2001:db8:1:2:ffff:1:2:3"))
        .await;
    assert_eq!(
        same_64.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        same_64.text
    );
    let next_64 = app
        .send_code_from("+447700900399", Some("2001:db8:1:3::1"))
        .await;
    assert_eq!(next_64.status, StatusCode::ACCEPTED, "{}", next_64.text);
}

/// The challenge's maxnumber doubles per send from the client's prefix and per eighth of
/// the overall budget sent in the last minute; a challenge from quieter times stops working
/// once the difficulty has more than quadrupled.
async fn captcha_difficulty_rises_with_recent_sends(backend: Backend) {
    let Some(app) = spawn_phone_app(backend, |config| {
        config.http.trust_proxy = true;
        config.phone.phone_captcha_max_number = 1_000;
        config.phone.phone_captcha_max_number_ceiling = 64_000;
        config.phone.phone_sends_per_minute = 8;
        config.phone.phone_sends_per_ip_per_minute = 2;
    })
    .await
    else {
        return;
    };
    let max_for = |ip: &'static str| {
        let app = &app;
        async move {
            app.challenge_from(Some(ip)).await["maxnumber"]
                .as_u64()
                .unwrap()
        }
    };
    assert_eq!(max_for("10.0.0.1").await, 1_000);
    let stockpiled = solve(&app.challenge_from(Some("10.0.0.9")).await);

    let first = app.send_code_from("+447700900401", Some("10.0.0.1")).await;
    assert_eq!(first.status, StatusCode::ACCEPTED, "{}", first.text);
    // One send overall (an eighth of 8) and one from 10.0.0.1.
    assert_eq!(max_for("10.0.0.1").await, 4_000);
    assert_eq!(max_for("10.0.0.2").await, 2_000);
    for (i, ip) in ["10.0.0.2", "10.0.0.3"].into_iter().enumerate() {
        let reply = app
            .send_code_from(&format!("+44770090041{i}"), Some(ip))
            .await;
        assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text);
    }
    assert_eq!(max_for("10.0.0.9").await, 8_000);
    assert_eq!(max_for("10.0.0.1").await, 16_000);

    // Issued at 1,000, now 8,000 is due: more than four times harder, so refused.
    let stale = app
        .send_solved_from("+447700900499", &stockpiled, Some("10.0.0.9"))
        .await;
    assert_eq!(stale.status, StatusCode::BAD_REQUEST, "{}", stale.text);
    assert_eq!(stale.error_code(), "captcha-failed");
    let fresh = app.send_code_from("+447700900499", Some("10.0.0.9")).await;
    assert_eq!(fresh.status, StatusCode::ACCEPTED, "{}", fresh.text);

    app.time.advance_ms(MINUTE_MS);
    assert_eq!(max_for("10.0.0.1").await, 1_000, "a quiet minute later");
}

on_both_backends!(
    codes_expire_after_five_minutes,
    five_wrong_attempts_kill_the_code,
    four_wrong_attempts_leave_the_last_one,
    a_used_code_fails,
    a_resend_replaces_the_previous_code,
    per_number_limits_trip_at_sixty_seconds_and_five_an_hour,
    per_ip_limit_trips_at_its_count,
    global_limit_trips_at_its_count,
    no_sms_without_a_valid_captcha,
    a_captcha_solution_is_accepted_once,
    numbers_that_cannot_be_real_are_refused,
    typed_numbers_are_texted_in_e164,
    the_default_region_is_configurable,
    send_answers_the_same_whether_or_not_the_number_has_an_account,
    first_verify_creates_the_account_later_ones_sign_in,
    a_guest_links_the_number_in_place,
    a_number_of_another_account_is_never_linked,
    verify_needs_a_code,
    off_without_a_sender,
    an_attacker_on_three_addresses_leaves_room_for_a_real_user,
    ipv6_addresses_in_one_slash_64_share_one_bucket,
    captcha_difficulty_rises_with_recent_sends,
);

/// What the stand-in SMS provider received.
#[derive(Default)]
struct Received {
    requests: Vec<(Option<String>, String)>,
}

async fn fake_provider(status: u16) -> (String, Arc<Mutex<Received>>) {
    let received = Arc::new(Mutex::new(Received::default()));
    let router = Router::new()
        .route(
            "/2010-04-01/Accounts/AC123/Messages.json",
            post(
                |State((seen, status)): State<(Arc<Mutex<Received>>, u16)>,
                 headers: HeaderMap,
                 body: String| async move {
                    let auth = headers
                        .get("authorization")
                        .map(|v| v.to_str().unwrap().to_owned());
                    seen.lock().unwrap().requests.push((auth, body));
                    axum::http::StatusCode::from_u16(status).unwrap()
                },
            ),
        )
        .with_state((received.clone(), status));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "http://{}/2010-04-01/Accounts/AC123/Messages.json",
        listener.local_addr().unwrap()
    );
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, received)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_sender_posts_twilio_style() {
    let (url, received) = fake_provider(201).await;
    let app = spawn_phone_app(Backend::Sqlite, |config| {
        config.phone.sms_sender = Some(SmsSenderKind::Http);
        config.phone.sms_http_url = Some(url);
        config.phone.sms_http_account_sid = Some("AC123".into());
        config.phone.sms_http_auth_token = Some("secret-token".into());
        config.phone.sms_from = Some("+15005550006".into());
    })
    .await
    .unwrap();
    let id = app.sent_code(NUMBER).await;
    assert!(app.outbox().is_empty(), "the http sender writes no outbox");
    let (auth, body) = received.lock().unwrap().requests.pop().expect("one POST");
    use base64::Engine;
    let expected = base64::engine::general_purpose::STANDARD.encode("AC123:secret-token");
    assert_eq!(auth.as_deref(), Some(format!("Basic {expected}").as_str()));
    let form: Vec<(String, String)> = url::form_urlencoded::parse(body.as_bytes())
        .into_owned()
        .collect();
    let field = |name: &str| {
        form.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    assert_eq!(field("To"), NUMBER);
    assert_eq!(field("From"), "+15005550006");
    let text = field("Body");
    let code: String = text.chars().filter(char::is_ascii_digit).take(6).collect();
    assert!(text.contains("expires in 5 minutes"), "{text}");
    let reply = app.verify_code(&id, &code, None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_failure_is_a_clear_503() {
    let (url, _) = fake_provider(400).await;
    let app = spawn_phone_app(Backend::Sqlite, |config| {
        config.phone.sms_sender = Some(SmsSenderKind::Http);
        config.phone.sms_http_url = Some(url);
        config.phone.sms_http_account_sid = Some("AC123".into());
        config.phone.sms_http_auth_token = Some("secret-token".into());
        config.phone.sms_from = Some("+15005550006".into());
    })
    .await
    .unwrap();
    let reply = app.send_code(NUMBER).await;
    assert_eq!(
        reply.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        reply.text
    );
    assert_eq!(reply.error_code(), "sms-failed");
}

#[tokio::test]
async fn the_phone_routes_are_in_the_openapi_document() {
    let app = spawn_app(Backend::Sqlite).await.unwrap();
    let doc = app.get("/api/openapi.json", None).await;
    for path in [PROVIDERS, CHALLENGE, SEND, VERIFY] {
        assert!(doc.body["paths"].get(path).is_some(), "{path} missing");
    }
}
