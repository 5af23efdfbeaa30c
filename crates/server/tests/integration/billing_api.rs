//! Plans: checkout against a local stand-in for the provider's API, and signed webhooks.

use crate::common;

use std::sync::{Arc, Mutex};

use axum::{Form, Json, Router, http::HeaderMap, routing::post};
use common::{Backend, TestApp, spawn_app, spawn_app_with};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use server::billing::signature;

const SECRET: &str = "whsec_test_secret";

/// One checkout request as the provider saw it: the Authorization header and the form.
type Recorded = (Option<String>, Vec<(String, String)>);

#[derive(Default, Clone)]
struct Provider {
    requests: Arc<Mutex<Vec<Recorded>>>,
}

/// Answers `POST /v1/checkout/sessions` as the provider does, recording what it was sent.
async fn start_provider(fail: bool) -> (String, Provider) {
    let provider = Provider::default();
    let recorded = provider.clone();
    let app = Router::new().route(
        "/v1/checkout/sessions",
        post(move |headers: HeaderMap, Form(form): Form<Vec<(String, String)>>| {
            let recorded = recorded.clone();
            async move {
                let auth = headers.get("authorization").and_then(|v| v.to_str().ok()).map(str::to_owned);
                recorded.requests.lock().unwrap().push((auth, form));
                if fail {
                    return (axum::http::StatusCode::INTERNAL_SERVER_ERROR, Json(json!({"error": {}})));
                }
                (axum::http::StatusCode::OK, Json(json!({"id": "cs_test_1", "url": "https://checkout.example/pay/cs_test_1"})))
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, provider)
}

async fn billing_app(backend: Backend, provider_base: &str) -> Option<TestApp> {
    let base = provider_base.to_owned();
    spawn_app_with(backend, move |c| {
        c.http.public_url = Some("https://tracker.example.com".into());
        c.billing.stripe_secret_key = Some("sk_test_123".into());
        c.billing.stripe_price_id = Some("price_pro".into());
        c.billing.stripe_webhook_secret = Some(SECRET.into());
        c.billing.stripe_api_base = base;
    })
    .await
}

async fn send_event(
    app: &TestApp,
    event: &Value,
    signature_header: Option<String>,
) -> common::Reply {
    let body = serde_json::to_vec(event).unwrap();
    let mut request = app
        .http
        .post(format!("{}/api/v1/billing/webhook", app.base))
        .header("content-type", "application/json")
        .body(body.clone());
    if let Some(header) = signature_header {
        request = request.header("stripe-signature", header);
    }
    common::read(request).await
}

fn signed(event: &Value, at: i64) -> Option<String> {
    Some(signature::sign(
        &serde_json::to_vec(event).unwrap(),
        SECRET,
        at,
    ))
}

fn now_secs() -> i64 {
    domain::time_fmt::now_ms() / 1000
}

async fn role_of(app: &TestApp, cookie: &str) -> String {
    app.get("/api/v1/auth/session", Some(cookie)).await.body["user"]["role"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn without_a_provider_plans_are_the_operators(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("free@example.com", "van-route-42").await;
    assert_eq!(
        app.get("/api/v1/billing", None).await.body,
        json!({"checkoutAvailable": false})
    );
    let reply = app
        .request(
            Method::POST,
            "/api/v1/billing/checkout",
            None,
            Some(&cookie),
        )
        .await;
    assert_eq!(
        (reply.status, reply.error_code()),
        (StatusCode::NOT_FOUND, "billing-disabled")
    );
    let event = json!({"type": "checkout.session.completed", "data": {"object": {}}});
    assert_eq!(
        send_event(&app, &event, signed(&event, now_secs()))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

async fn checkout_then_signed_webhook_makes_the_user_pro(backend: Backend) {
    let (provider_base, provider) = start_provider(false).await;
    let Some(app) = billing_app(backend, &provider_base).await else {
        return;
    };
    let (cookie, user) = app.sign_up("buyer@example.com", "van-route-42").await;
    assert_eq!(
        app.get("/api/v1/billing", None).await.body,
        json!({"checkoutAvailable": true})
    );

    let reply = app
        .request(
            Method::POST,
            "/api/v1/billing/checkout",
            None,
            Some(&cookie),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["url"], "https://checkout.example/pay/cs_test_1");
    let requests = provider.requests.lock().unwrap().clone();
    let (auth, form) = &requests[0];
    assert_eq!(auth.as_deref(), Some("Bearer sk_test_123"));
    let field = |name: &str| {
        form.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(field("mode"), Some("subscription"));
    assert_eq!(field("line_items[0][price]"), Some("price_pro"));
    assert_eq!(field("client_reference_id"), user["id"].as_str());
    assert_eq!(field("customer_email"), Some("buyer@example.com"));
    assert_eq!(
        field("success_url"),
        Some("https://tracker.example.com/app/upgrade?checkout=success")
    );

    let completed = json!({"type": "checkout.session.completed",
        "data": {"object": {"client_reference_id": user["id"], "customer": "cus_123"}}});
    // Forged, stale and unsigned events change nothing.
    for header in [
        None,
        Some("t=1,v1=00".to_owned()),
        signed(&completed, now_secs() - 3_600),
    ] {
        let refused = send_event(&app, &completed, header).await;
        assert_eq!(
            (refused.status, refused.error_code()),
            (StatusCode::BAD_REQUEST, "invalid-signature")
        );
    }
    let mut tampered = completed.clone();
    tampered["data"]["object"]["client_reference_id"] =
        json!("00000000-0000-7000-8000-000000000000");
    let refused = send_event(&app, &tampered, signed(&completed, now_secs())).await;
    assert_eq!(
        refused.status,
        StatusCode::BAD_REQUEST,
        "signature over another body"
    );
    assert_eq!(role_of(&app, &cookie).await, "free");

    let accepted = send_event(&app, &completed, signed(&completed, now_secs())).await;
    assert_eq!(
        (accepted.status, accepted.body.clone()),
        (StatusCode::OK, json!({"received": true}))
    );
    assert_eq!(role_of(&app, &cookie).await, "pro");
    // After the account's starter courier and card.
    let pulled = app
        .get(
            &format!(
                "/api/v1/sync/pull?cursor={}",
                domain::defaults::STARTER_RECORDS
            ),
            Some(&cookie),
        )
        .await;
    assert_eq!(
        pulled.body["changes"][0]["data"]["role"], "pro",
        "the plan syncs to every device"
    );
    let again = app
        .request(
            Method::POST,
            "/api/v1/billing/checkout",
            None,
            Some(&cookie),
        )
        .await;
    assert_eq!(
        (again.status, again.error_code()),
        (StatusCode::CONFLICT, "already-pro")
    );

    // Unrelated events are acknowledged and ignored; a cancelled subscription ends Pro.
    let other = json!({"type": "invoice.paid", "data": {"object": {"customer": "cus_123"}}});
    assert_eq!(
        send_event(&app, &other, signed(&other, now_secs()))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(role_of(&app, &cookie).await, "pro");
    let cancelled = json!({"type": "customer.subscription.deleted", "data": {"object": {"customer": "cus_123"}}});
    assert_eq!(
        send_event(&app, &cancelled, signed(&cancelled, now_secs()))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(role_of(&app, &cookie).await, "free");
}

async fn provider_trouble_is_a_clear_error(backend: Backend) {
    let (provider_base, _) = start_provider(true).await;
    let Some(app) = billing_app(backend, &provider_base).await else {
        return;
    };
    let (cookie, _) = app.sign_up("unlucky@example.com", "van-route-42").await;
    let reply = app
        .request(
            Method::POST,
            "/api/v1/billing/checkout",
            None,
            Some(&cookie),
        )
        .await;
    assert_eq!(
        (reply.status, reply.error_code()),
        (StatusCode::BAD_GATEWAY, "provider-unavailable")
    );
    let anonymous = app
        .request(Method::POST, "/api/v1/billing/checkout", None, None)
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

/// PLANS_ENABLED=false: the app is told with the signed-in user (and keeps it offline), so it
/// shows no banner, upgrade page or plan label; checkout has nothing to sell. The stored plan is
/// kept, for a server that turns plans back on.
async fn plans_off_is_told_with_the_user(backend: Backend) {
    let (Some(on), Some(off)) = (
        spawn_app(backend).await,
        spawn_app_with(backend, |config| config.billing.plans_enabled = false).await,
    ) else {
        return;
    };
    let (cookie, user) = on.sign_up("on@example.com", "van-route-42").await;
    assert_eq!(user["plansEnabled"], true);
    let session = on.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["plansEnabled"], true);

    let (cookie, user) = off.sign_up("off@example.com", "van-route-42").await;
    assert_eq!(user["plansEnabled"], false, "{user}");
    let session = off.get("/api/v1/auth/session", Some(&cookie)).await;
    assert_eq!(session.body["user"]["plansEnabled"], false);
    assert_eq!(
        session.body["user"]["role"], "free",
        "the stored plan is kept"
    );
    let checkout = off
        .request(
            Method::POST,
            "/api/v1/billing/checkout",
            None,
            Some(&cookie),
        )
        .await;
    assert_eq!(
        checkout.error_code(),
        "billing-disabled",
        "{}",
        checkout.text
    );
}

on_both_backends!(
    plans_off_is_told_with_the_user,
    without_a_provider_plans_are_the_operators,
    checkout_then_signed_webhook_makes_the_user_pro,
    provider_trouble_is_a_clear_error,
);
