//! The contact endpoint on SQLite and PostgreSQL: validation order, bounds, rate limit, storage.

mod common;

use common::{Backend, spawn_app, spawn_app_with};
use reqwest::{Method, StatusCode};
use serde_json::json;

const CONTACT: &str = "/api/v1/contact";

async fn messages_are_checked_in_the_spec_order(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let cases = [
        (json!({}), "name", "Name is required"),
        (
            json!({"name": "  ", "email": "bad", "message": ""}),
            "name",
            "Name is required",
        ),
        (json!({"name": "Sam"}), "email", "Email is required"),
        (
            json!({"name": "Sam", "email": "sam@example"}),
            "email",
            "Please enter a valid email address",
        ),
        (
            json!({"name": "Sam", "email": "sam @example.com", "message": "Hi"}),
            "email",
            "Please enter a valid email address",
        ),
        (
            json!({"name": "Sam", "email": "sam@example.com"}),
            "message",
            "Message is required",
        ),
        (
            json!({"name": "Sam", "email": "sam@example.com", "message": "x".repeat(5_001)}),
            "message",
            "Please keep this under 5000 characters",
        ),
        (
            json!({"name": "n".repeat(101), "email": "sam@example.com", "message": "Hi"}),
            "name",
            "Please keep this under 100 characters",
        ),
        (
            json!({"name": "Sam", "email": "sam@example.com", "subject": "s".repeat(201), "message": "Hi"}),
            "subject",
            "Please keep this under 200 characters",
        ),
    ];
    for (body, field, message) in cases {
        let reply = app.post(CONTACT, body.clone()).await;
        assert_eq!(
            (reply.status, reply.error_code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "validation"),
            "{body}"
        );
        assert_eq!(reply.body["error"]["fields"][field][0], message, "{body}");
    }
    let wrong_type = app.post(CONTACT, json!({"name": 5})).await;
    assert_eq!(wrong_type.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        app.store
            .list_contact_messages(10)
            .await
            .unwrap()
            .is_empty(),
        "nothing stored"
    );
}

async fn messages_are_stored_signed_in_or_out_and_listed(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let anonymous = app.post(CONTACT, json!({"name": " Visitor ", "email": "v@example.com", "message": "Do you support Evri?"})).await;
    assert_eq!(
        (anonymous.status, anonymous.body.clone()),
        (StatusCode::CREATED, json!({"received": true}))
    );
    let (cookie, user) = app.sign_up("driver@example.com", "van-route-42").await;
    let signed_in = app
        .request(Method::POST, CONTACT, Some(json!({"name": "Sam", "email": "sam@example.com", "subject": "Tiers", "message": "Can I add a fourth tier?"})), Some(&cookie))
        .await;
    assert_eq!(signed_in.status, StatusCode::CREATED);

    let stored = app.store.list_contact_messages(10).await.unwrap();
    assert_eq!(stored.len(), 2);
    assert_eq!(
        (
            stored[0].subject.as_str(),
            stored[0].user_id.map(|u| u.to_string())
        ),
        ("Tiers", user["id"].as_str().map(str::to_owned))
    );
    assert_eq!(
        (stored[1].name.as_str(), stored[1].user_id),
        ("Visitor", None)
    );

    let mut out = Vec::new();
    server::admin::list_messages(&app.store, 10, &mut out)
        .await
        .unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("Subject: Tiers")
            && out.contains("Do you support Evri?")
            && out.ends_with("2 message(s)\n"),
        "{out}"
    );
    assert!(
        out.find("Tiers").unwrap() < out.find("Evri").unwrap(),
        "newest first"
    );
}

async fn contact_is_rate_limited_per_ip(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.contact_rate_limit_per_minute = 2).await else {
        return;
    };
    let body = json!({"name": "Sam", "email": "sam@example.com", "message": "Hello"});
    for _ in 0..2 {
        assert_eq!(
            app.post(CONTACT, body.clone()).await.status,
            StatusCode::CREATED
        );
    }
    let limited = app.post(CONTACT, body).await;
    assert_eq!(
        (limited.status, limited.error_code()),
        (StatusCode::TOO_MANY_REQUESTS, "rate-limited")
    );
    assert!(limited.headers.contains_key("retry-after"));
    assert_eq!(app.store.list_contact_messages(10).await.unwrap().len(), 2);
}

on_both_backends!(
    messages_are_checked_in_the_spec_order,
    messages_are_stored_signed_in_or_out_and_listed,
    contact_is_rate_limited_per_ip,
);
