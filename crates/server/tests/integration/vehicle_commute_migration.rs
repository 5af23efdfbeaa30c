//! Migration 0020 gives every vehicle saved before it `commuteMiles: 0` (nothing taken off a
//! day's odometer miles until the driver says): versions stay and tombstones stay contentless.

use crate::common;

use common::Backend;
use serde_json::{Value, json};
use server::store::DynStore;
use uuid::Uuid;

const OWNER: &str = "0190a6e2-7c1d-7000-8000-00000000f001";
const VAN: &str = "0190a6e2-7c1d-7000-8000-00000000e001";
const DELETED: &str = "0190a6e2-7c1d-7000-8000-00000000e002";

/// Rows as the schema before 0020 held them: a live van and a deleted vehicle.
fn rows_before() -> String {
    let record = |id: &str, version: i64, content: Option<&str>| {
        let (deleted, content) = match content {
            Some(json) => ("FALSE", format!("'{json}'")),
            None => ("TRUE", "NULL".to_owned()),
        };
        format!(
            "INSERT INTO records (kind, id, user_id, version, deleted, content, created_at,
                                  updated_at)
             VALUES ('vehicle', '{id}', '{OWNER}', {version}, {deleted}, {content}, 86400000,
                     90000000);"
        )
    };
    [
        format!(
            "INSERT INTO users (id, email, password_hash, display_name, is_anonymous, created_at,
                                last_login, updated_at, change_seq, record_count)
             VALUES ('{OWNER}', 'old@example.com', 'hash', 'Sam', FALSE, 1000, 1000, 1000, 2, 2);"
        ),
        record(
            VAN,
            1,
            Some(r#"{"name":"Transit","type":"carVan","method":"flatRate"}"#),
        ),
        record(DELETED, 2, None),
    ]
    .concat()
}

async fn earlier_vehicles_get_no_commute(backend: Backend) {
    let Some(test) = common::migrations::store_before(backend, 20, &rows_before()).await else {
        return;
    };
    let store: DynStore = test.store.clone();
    let owner = Uuid::parse_str(OWNER).unwrap();
    let page = store.pull(owner, 0, 100).await.unwrap();
    let vehicles: Vec<(String, i64, Value)> = page
        .changes
        .into_iter()
        .map(|c| {
            let mut json = c
                .data
                .map_or(Value::Null, |d| serde_json::to_value(d).unwrap());
            if let Some(object) = json.as_object_mut() {
                object.remove("createdAt");
                object.remove("updatedAt");
            }
            (c.id, c.version, json)
        })
        .collect();
    assert_eq!(
        vehicles,
        [
            (
                VAN.to_owned(),
                1,
                json!({"name": "Transit", "type": "carVan", "method": "flatRate", "commuteMiles": 0})
            ),
            (DELETED.to_owned(), 2, Value::Null),
        ]
    );
    // The stored content itself carries the field (SQLite's file is at hand to read).
    if matches!(backend, Backend::Sqlite) {
        let conn = rusqlite::Connection::open(test.dir.path().join("old.db")).unwrap();
        let (live, deleted): (String, Option<String>) = (
            conn.query_row("SELECT content FROM records WHERE id = ?1", [VAN], |row| {
                row.get(0)
            })
            .unwrap(),
            conn.query_row(
                "SELECT content FROM records WHERE id = ?1",
                [DELETED],
                |row| row.get(0),
            )
            .unwrap(),
        );
        let live: Value = serde_json::from_str(&live).unwrap();
        assert_eq!(live.get("commuteMiles"), Some(&json!(0)));
        assert_eq!(deleted, None, "a tombstone stays contentless");
    }
    assert_eq!(
        store.change_cursor(owner).await.unwrap(),
        Some(2),
        "no version moved"
    );
}

on_both_backends!(earlier_vehicles_get_no_commute);
