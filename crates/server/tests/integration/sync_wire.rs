//! The golden wire test: an app cached before issue 32 keeps working. Every kind's pushes
//! (puts, edits, deletes, each kind of refusal, replays) as that app sends them are in
//! `golden/sync-wire/pushes.json`; the server's answers and pulls are compared byte for byte
//! with what the server answered when the file was made (`push-answers.jsonl`,
//! `pull-all.json`, `pull-pages.jsonl`), on SQLite and PostgreSQL. The only difference
//! allowed are additions an old app ignores (its schemas drop members they do not name): a
//! refused push names its fields (`fields`, after `message`; issue 32), and a vehicle's
//! `commuteMiles` (issue 26, written into the answer files when it was added: the only change
//! to them since they were captured), and batches added after the capture for kinds that app
//! never knew (`pushes.json`'s `about` names them: statement lines and a format, fuel fills, evidence items…),
//! each the last batch when it was added, with its answers and its records at the end of the
//! pulls written then. Timestamps and the two accounts' ids differ per run, so they are
//! replaced by `TIME`, `USER` and `OTHER` before comparing.
//!
//! `GOLDEN_SYNC_WIRE=write` rewrites the answer files (only when the wire is meant to change,
//! which for existing kinds it is not).

use crate::common;

use std::path::PathBuf;

use common::{Backend, TestApp, spawn_app};
use reqwest::StatusCode;
use serde_json::Value;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sync-wire")
}

/// The mutations of `batch` with the placeholders replaced by the accounts' ids.
fn with_ids(batch: &Value, user: &str, other: &str) -> Vec<Value> {
    let text = serde_json::to_string(batch)
        .unwrap()
        .replace("\"USER\"", &format!("\"{user}\""))
        .replace("\"OTHER\"", &format!("\"{other}\""));
    serde_json::from_str(&text).unwrap()
}

/// `text` with what differs per run replaced: the accounts' ids and every timestamp.
fn normalised(text: &str, user: &str, other: &str) -> String {
    let mut text = text.replace(user, "USER").replace(other, "OTHER");
    for key in ["\"createdAt\":\"", "\"updatedAt\":\""] {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find(key) {
            let value_start = at + key.len();
            let value_end = value_start + rest[value_start..].find('"').unwrap();
            out.push_str(&rest[..value_start]);
            out.push_str("TIME");
            rest = &rest[value_end..];
        }
        out.push_str(rest);
        text = out;
    }
    text
}

/// `text` without any `,"<key>":{…}` member: the additions the wire may gain. Reads JSON
/// strings properly, so a brace inside a message does not end the object early.
fn without_member(text: &str, key: &str) -> String {
    let needle = format!(",\"{key}\":{{");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        out.push_str(&rest[..at]);
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        let body = &rest[at + needle.len() - 1..];
        let mut end = body.len();
        for (index, c) in body.char_indices() {
            match (in_string, escaped, c) {
                (true, true, _) => escaped = false,
                (true, false, '\\') => escaped = true,
                (true, false, '"') => in_string = false,
                (true, false, _) => {}
                (false, _, '"') => in_string = true,
                (false, _, '{') => depth += 1,
                (false, _, '}') => {
                    depth -= 1;
                    if depth == 0 {
                        end = index + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &body[end..];
    }
    out.push_str(rest);
    out
}

async fn user_id(app: &TestApp, cookie: &str) -> String {
    let reply = app.get("/api/v1/auth/session", Some(cookie)).await;
    reply.body["user"]["id"].as_str().unwrap().to_owned()
}

/// Compares `got` with the golden file `name`, or writes it when asked.
fn check(name: &str, got: &str) {
    let path = golden_dir().join(name);
    if std::env::var("GOLDEN_SYNC_WIRE").as_deref() == Ok("write") {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap();
    for (line, (got, want)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(got, want, "{name} line {} differs", line + 1);
    }
    assert_eq!(got, want, "{name}");
}

async fn an_old_apps_pushes_and_pulls_are_answered_byte_for_byte(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let pushes: Value =
        serde_json::from_str(&std::fs::read_to_string(golden_dir().join("pushes.json")).unwrap())
            .unwrap();
    let (cookie, _) = app.sign_up("golden@example.com", "van-route-42").await;
    let (other_cookie, _) = app.sign_up("other@example.com", "van-route-42").await;
    let (user, other) = (
        user_id(&app, &cookie).await,
        user_id(&app, &other_cookie).await,
    );
    let reply = app
        .push(&other_cookie, with_ids(&pushes["other"], &user, &other))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);

    let mut answers = String::new();
    for batch in pushes["batches"].as_array().unwrap() {
        let reply = app.push(&cookie, with_ids(batch, &user, &other)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        answers.push_str(&without_member(
            &normalised(&reply.text, &user, &other),
            "fields",
        ));
        answers.push('\n');
    }
    check("push-answers.jsonl", &answers);

    let all = app
        .get("/api/v1/sync/pull?cursor=0&limit=1000", Some(&cookie))
        .await;
    assert_eq!(all.status, StatusCode::OK, "{}", all.text);
    check(
        "pull-all.json",
        &format!("{}\n", normalised(&all.text, &user, &other)),
    );

    let (mut pages, mut cursor) = (String::new(), 0);
    loop {
        let page = app
            .get(
                &format!("/api/v1/sync/pull?cursor={cursor}&limit=7"),
                Some(&cookie),
            )
            .await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        pages.push_str(&normalised(&page.text, &user, &other));
        pages.push('\n');
        cursor = page.body["cursor"].as_i64().unwrap();
        if !page.body["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    check("pull-pages.jsonl", &pages);
}

#[test]
fn an_added_member_is_removed_whole_and_nothing_else() {
    let text = r#"{"results":[{"id":"a","status":"rejected","code":"validation","message":"x","fields":{"note":["has a } and \" in it"],"id":["bad"]}},{"id":"b","status":"applied"}]}"#;
    assert_eq!(
        without_member(text, "fields"),
        r#"{"results":[{"id":"a","status":"rejected","code":"validation","message":"x"},{"id":"b","status":"applied"}]}"#
    );
    assert_eq!(without_member("{\"a\":1}", "fields"), "{\"a\":1}");
}

#[test]
fn timestamps_and_account_ids_are_replaced() {
    assert_eq!(
        normalised(
            r#"{"id":"u1","createdAt":"2025-01-01T00:00:00Z","x":"o2","updatedAt":"2025-01-02T00:00:00.5Z"}"#,
            "u1",
            "o2"
        ),
        r#"{"id":"USER","createdAt":"TIME","x":"OTHER","updatedAt":"TIME"}"#
    );
}

on_both_backends!(an_old_apps_pushes_and_pulls_are_answered_byte_for_byte);
