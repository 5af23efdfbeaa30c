//! The push and pull requests themselves: malformed ones get a clear 4xx and write nothing.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::{
    PUSH,
    common::{Backend, spawn_app},
    new_id, pull_all, put,
};

async fn malformed_sync_requests_get_clear_4xx(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (cookie, _) = app.sign_up("fuzzy@example.com", "van-route-42").await;
    let too_many: Vec<Value> = (0..501)
        .map(|_| put(&new_id(), &new_id(), "2025-01-01", 1))
        .collect();
    let cases = [
        (json!({"mutations": []}), 422, "validation"),
        (json!({"clientId": "d", "mutations": {}}), 422, "validation"),
        (json!({"clientId": "", "mutations": []}), 422, "validation"),
        (
            json!({"clientId": "d", "mutations": [{"id": "has space", "name": "entry.put", "args": {}}]}),
            422,
            "validation",
        ),
        (
            json!({"clientId": "d", "mutations": [{"id": "x".repeat(65), "name": "entry.put", "args": {}}]}),
            422,
            "validation",
        ),
        (
            json!({"clientId": "d", "mutations": [{"name": "entry.put", "args": {}}]}),
            422,
            "validation",
        ),
        (
            json!({"clientId": "d", "mutations": too_many}),
            422,
            "too-many-mutations",
        ),
        (json!([1, 2, 3]), 422, "validation"),
    ];
    for (body, status, code) in cases {
        let reply = app
            .request(Method::POST, PUSH, Some(body.clone()), Some(&cookie))
            .await;
        assert_eq!(
            (reply.status.as_u16(), reply.error_code()),
            (status, code),
            "{}",
            reply.text
        );
    }
    let huge = json!({"clientId": "d", "mutations": [{"id": "a", "name": "entry.put", "args": {"notes": "x".repeat(1_100_000)}}]});
    let reply = app
        .request(Method::POST, PUSH, Some(huge), Some(&cookie))
        .await;
    assert_eq!(
        (reply.status, reply.error_code()),
        (StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large")
    );

    for query in [
        "cursor=-1",
        "limit=0",
        "limit=1001",
        "limit=abc",
        "cursor=1e99",
    ] {
        let reply = app
            .get(&format!("/api/v1/sync/pull?{query}"), Some(&cookie))
            .await;
        assert_eq!(
            (reply.status, reply.error_code()),
            (StatusCode::UNPROCESSABLE_ENTITY, "validation"),
            "{query}"
        );
    }
    let anonymous = app
        .request(
            Method::POST,
            PUSH,
            Some(json!({"clientId": "d", "mutations": []})),
            None,
        )
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.get("/api/v1/sync/pull", None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get("/api/v1/sync/events", None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert!(
        pull_all(&app, &cookie).await.is_empty(),
        "nothing was half-written"
    );
}

crate::on_both_backends!(malformed_sync_requests_get_clear_4xx,);
