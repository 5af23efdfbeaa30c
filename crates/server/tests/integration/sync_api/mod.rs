//! The sync API over HTTP, on SQLite and PostgreSQL: exactly-once push, paged pull with
//! tombstones, ownership, limits and poke events.
//!
//! What every record kind shares (put, edit, delete, replay, ownership, references, bad input,
//! paging) is one set of scenarios (`scenarios`) run over one table of the registered kinds
//! (`kinds`): a new kind is one row, and a test fails while a registered kind has none. What
//! only one kind or the account does is its own small test beside them.

use crate::common;

mod account;
mod events;
mod kinds;
mod old_apps;
mod own_rules;
mod protocol;
mod scenarios;
mod statement_queries;

use common::{Reply, TestApp};
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

const PUSH: &str = "/api/v1/sync/push";
/// Every account starts with its default courier and first card, at versions 1 and 2
/// (`starter_records_come_first_in_every_new_account` checks them).
const S: i64 = domain::defaults::STARTER_RECORDS;

fn new_id() -> String {
    Uuid::now_v7().to_string()
}

/// A mutation with a fresh id.
fn mutation(name: &str, args: Value) -> Value {
    json!({"id": new_id(), "name": name, "args": args})
}

/// An old app's day (no courier, no card: the default ones).
fn put(mutation_id: &str, entry_id: &str, date: &str, stops: i64) -> Value {
    json!({"id": mutation_id, "name": "entry.put",
           "args": {"id": entry_id, "date": date, "stops": stops, "extra": 250, "notes": "n", "total": stops * 198 + 250}})
}

fn statement_check_args(invoice_id: &str, start: &str, end: &str, paid: i64) -> Value {
    json!({"id": invoice_id, "periodStart": start, "periodEnd": end, "paid": paid,
           "stops": 640, "reference": "INV-1"})
}

fn put_statement_check(mutation_id: &str, args: Value) -> Value {
    json!({"id": mutation_id, "name": "invoice.put", "args": args})
}

async fn pull(app: &TestApp, cookie: &str, cursor: i64, limit: u32) -> Value {
    let reply = app
        .get(
            &format!("/api/v1/sync/pull?cursor={cursor}&limit={limit}"),
            Some(cookie),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

/// Every change after `cursor`, following pages to the end.
async fn pull_since(app: &TestApp, cookie: &str, cursor: i64) -> Vec<Value> {
    let (mut cursor, mut all) = (cursor, Vec::new());
    loop {
        let page = pull(app, cookie, cursor, 1000).await;
        all.extend(page["changes"].as_array().unwrap().iter().cloned());
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            return all;
        }
    }
}

/// Every change the user made after the starter records, following pages to the end.
async fn pull_all(app: &TestApp, cookie: &str) -> Vec<Value> {
    pull_since(app, cookie, S).await
}

/// The user's change cursor now: the version of their latest write.
async fn cursor_now(app: &TestApp, cookie: &str) -> i64 {
    let mut cursor = 0;
    loop {
        let page = pull(app, cookie, cursor, 1000).await;
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            return cursor;
        }
    }
}

/// Each result's status.
fn statuses(reply: &Reply) -> Vec<String> {
    reply.body["results"]
        .as_array()
        .unwrap_or_else(|| panic!("no results: {}", reply.text))
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_owned())
        .collect()
}

/// Each result's refusal code, or `applied`.
fn codes(reply: &Reply) -> Vec<String> {
    reply.body["results"]
        .as_array()
        .unwrap_or_else(|| panic!("no results: {}", reply.text))
        .iter()
        .map(|r| r["code"].as_str().unwrap_or("applied").to_owned())
        .collect()
}

async fn user_id(app: &TestApp, cookie: &str) -> String {
    app.get("/api/v1/auth/session", Some(cookie)).await.body["user"]["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The pulled `data` without its timestamps (which it must have).
fn content(change: &Value) -> Value {
    let mut data = change["data"].clone();
    let object = data.as_object_mut().unwrap();
    assert!(object.remove("createdAt").is_some() && object.remove("updatedAt").is_some());
    data
}

/// What a pull returned, as (kind, id, version, deleted), and which `data` variant it parsed as.
fn summarise(changes: &[Value]) -> Vec<(String, String, i64, bool)> {
    changes
        .iter()
        .map(|c| {
            let typed: domain::sync::Change = serde_json::from_value(c.clone()).unwrap();
            // Each kind reads back as its own variant (Change.kind is the tag): the variant's
            // wire name is the change's kind, for every kind with no list to keep here.
            let variant_matches = match &typed.data {
                None => typed.deleted,
                Some(data) => data.kind() == typed.kind,
            };
            assert!(variant_matches, "{c}");
            (typed.kind, typed.id, typed.version, typed.deleted)
        })
        .collect()
}
