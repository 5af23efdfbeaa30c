//! Migration 0015 gives every deduction saved before it `purpose: null` and `vehicleId: null`
//! ("not said"): nothing is guessed from a label, versions stay, tombstones stay contentless,
//! and a newer app's edit then says what it is for.

use crate::common;

use common::Backend;
use serde_json::{Value, json};
use server::store::DynStore;
use uuid::Uuid;

const OWNER: &str = "0190a6e2-7c1d-7000-8000-00000000f001";
const VAN_HIRE: &str = "0190a6e2-7c1d-7000-8000-00000000d001";
const DELETED: &str = "0190a6e2-7c1d-7000-8000-00000000d002";

/// Rows as the schema before 0015 held them: the user's courier, a live deduction labelled
/// "Van hire" and a deleted one.
fn rows_before() -> String {
    let record = |kind: &str, id: &str, version: i64, content: Option<&str>| {
        let (deleted, content) = match content {
            Some(json) => ("FALSE", format!("'{json}'")),
            None => ("TRUE", "NULL".to_owned()),
        };
        format!(
            "INSERT INTO records (kind, id, user_id, version, deleted, content, created_at,
                                  updated_at)
             VALUES ('{kind}', '{id}', '{OWNER}', {version}, {deleted}, {content}, 86400000,
                     90000000);"
        )
    };
    [
        format!(
            "INSERT INTO users (id, email, password_hash, display_name, is_anonymous, created_at,
                                last_login, updated_at, change_seq, record_count)
             VALUES ('{OWNER}', 'old@example.com', 'hash', 'Sam', FALSE, 1000, 1000, 1000, 3, 3);"
        ),
        record(
            "courier",
            OWNER,
            1,
            Some(
                r##"{"name":"DPD","colour":"#dc0032","periodKind":"weekly","periodAnchor":"2000-01-02","arrearsWeeks":0}"##,
            ),
        ),
        record(
            "deduction",
            VAN_HIRE,
            2,
            Some(&format!(
                r#"{{"courierId":"{OWNER}","label":"Van hire","amount":19500,"repeat":"weekly","from":"2025-09-01","to":null}}"#
            )),
        ),
        record("deduction", DELETED, 3, None),
    ]
    .concat()
}

/// The user's deductions as pulled: (id, version, data without the timestamps).
async fn deductions(store: &DynStore) -> Vec<(String, i64, Value)> {
    let page = store
        .pull(Uuid::parse_str(OWNER).unwrap(), 0, 100)
        .await
        .unwrap();
    page.changes
        .into_iter()
        .filter(|c| c.kind == "deduction")
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
        .collect()
}

async fn earlier_deductions_say_nothing_until_the_driver_does(backend: Backend) {
    let Some(test) = common::migrations::store_before(backend, 15, &rows_before()).await else {
        return;
    };
    let store: DynStore = test.store.clone();
    assert_eq!(
        deductions(&store).await,
        [
            (
                VAN_HIRE.to_owned(),
                2,
                json!({"courierId": OWNER, "label": "Van hire", "amount": 19_500,
                       "repeat": "weekly", "from": "2025-09-01", "to": null,
                       "purpose": null, "vehicleId": null})
            ),
            (DELETED.to_owned(), 3, Value::Null),
        ]
    );
    // The stored content itself carries both fields now (SQLite's file is at hand to read).
    if matches!(backend, Backend::Sqlite) {
        let conn = rusqlite::Connection::open(test.dir.path().join("old.db")).unwrap();
        let content: String = conn
            .query_row(
                "SELECT content FROM records WHERE id = ?1",
                [VAN_HIRE],
                |row| row.get(0),
            )
            .unwrap();
        let content: Value = serde_json::from_str(&content).unwrap();
        assert_eq!(
            (
                content.get("purpose"),
                content.get("vehicleId"),
                &content["label"]
            ),
            (Some(&Value::Null), Some(&Value::Null), &json!("Van hire"))
        );
    }
    assert_eq!(
        store
            .change_cursor(Uuid::parse_str(OWNER).unwrap())
            .await
            .unwrap(),
        Some(3),
        "no version moved"
    );
}

on_both_backends!(earlier_deductions_say_nothing_until_the_driver_does);
