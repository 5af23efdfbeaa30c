//! Migration 0024 keys SQLite's replay records by mutation id first, then user (so the pushes
//! of one commit share a page). What must not change: a resent mutation gets the answer it
//! got, per account, even where two accounts used the same mutation id; and a deleted
//! account's refused answers go with it. On SQLite, the lookups must stay index searches, or
//! a grown database would scan millions of rows for every push or deletion.

use crate::common;

use common::{Backend, quota};
use server::{
    entries::Entries,
    store::{DynStore, MutationAction, PreparedMutation},
};
use uuid::Uuid;

const LEAVING: &str = "0190a6e2-7c1d-7000-8000-00000000f401";
const STAYING: &str = "0190a6e2-7c1d-7000-8000-00000000f402";
/// Used by both accounts: the key must keep them apart.
const SHARED_ID: &str = "0190a6e2-7c1d-7000-8000-00000000a401";
const REFUSED: &str = "0190a6e2-7c1d-7000-8000-00000000a402";
const REFUSAL: &str = r#"{"id":"0190a6e2-7c1d-7000-8000-00000000a402","status":"rejected","code":"not-owner","message":"That entry belongs to another account"}"#;

/// Replay records as the schema before 0024 held them: the leaving account's plain answer and
/// refusal (applied at 5000), the staying account's plain answer under the same id (at 8000).
fn rows_before() -> String {
    let user = |id: &str, email: &str| {
        format!(
            "INSERT INTO users (id, email, password_hash, display_name, is_anonymous, created_at,
                                last_login, updated_at, change_seq, record_count, replay_count)
             VALUES ('{id}', '{email}', 'hash', 'Sam', FALSE, 1000, 1000, 1000, 7, 0, 2);"
        )
    };
    format!(
        "{}{}
         INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
         VALUES ('{LEAVING}', '{SHARED_ID}', '', 5000),
                ('{LEAVING}', '{REFUSED}', '{REFUSAL}', 5000),
                ('{STAYING}', '{SHARED_ID}', '', 8000);",
        user(LEAVING, "leaving@example.com"),
        user(STAYING, "staying@example.com"),
    )
}

/// A resend of mutation `id`: whatever its action, a recorded answer is the one given.
fn resend(id: &str) -> PreparedMutation {
    PreparedMutation {
        id: id.into(),
        action: MutationAction::delete::<Entries>(Uuid::now_v7()),
    }
}

async fn answers(store: &DynStore, user: &str, ids: &[&str]) -> Vec<String> {
    let outcome = store
        .push(
            Uuid::parse_str(user).unwrap(),
            ids.iter().map(|id| resend(id)).collect(),
            9_000,
            quota(1_000),
        )
        .await
        .unwrap();
    outcome
        .results
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect()
}

fn applied(id: &str) -> String {
    format!(r#"{{"id":"{id}","status":"applied"}}"#)
}

async fn replays_answer_per_account_after_the_new_key(backend: Backend) {
    let Some(test) = common::migrations::store_before(backend, 24, &rows_before()).await else {
        return;
    };
    let store: DynStore = test.store.clone();
    assert_eq!(
        answers(&store, LEAVING, &[SHARED_ID, REFUSED]).await,
        [applied(SHARED_ID), REFUSAL.to_owned()],
        "the leaving account's recorded answers"
    );
    assert_eq!(
        answers(&store, STAYING, &[SHARED_ID]).await,
        [applied(SHARED_ID)],
        "the staying account's own answer under the same id"
    );
    for user in [LEAVING, STAYING] {
        let cursor = store
            .change_cursor(Uuid::parse_str(user).unwrap())
            .await
            .unwrap();
        assert_eq!(cursor, Some(7), "a replay changes nothing");
    }
    // Another account's refused id is not this account's answer: the mutation is looked at
    // afresh.
    let fresh = answers(&store, STAYING, &[REFUSED]).await;
    assert_ne!(fresh, [REFUSAL.to_owned()]);

    assert!(
        store
            .delete_user(Uuid::parse_str(LEAVING).unwrap())
            .await
            .unwrap()
    );
    if matches!(backend, Backend::Sqlite) {
        let conn = rusqlite::Connection::open(test.dir.path().join("old.db")).unwrap();
        let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        assert_eq!(
            count(&format!(
                "SELECT COUNT(*) FROM applied_mutations
                 WHERE user_id = '{LEAVING}' AND result <> ''"
            )),
            0,
            "a deleted account's refused answers go with it"
        );
        assert_eq!(
            count(&format!(
                "SELECT COUNT(*) FROM applied_mutations WHERE user_id = '{STAYING}'"
            )),
            2,
            "the other account's records stay"
        );
        // Its plain answer (two ids and a time) goes with the pruning sweep, by age.
        store.prune_applied_mutations(6_000, 10).await.unwrap();
        assert_eq!(
            count(&format!(
                "SELECT COUNT(*) FROM applied_mutations WHERE user_id = '{LEAVING}'"
            )),
            0,
            "pruned by age"
        );
        assert_index_searches(&conn);
    }
}

on_both_backends!(replays_answer_per_account_after_the_new_key);

/// The statements that touch replay records search an index, never scan the table.
fn assert_index_searches(conn: &rusqlite::Connection) {
    let plan = |sql: &str| -> String {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let rows = stmt.query_map([], |r| r.get::<_, String>(3)).unwrap();
        rows.map(Result::unwrap).collect::<Vec<_>>().join("; ")
    };
    let lookup =
        plan("SELECT result FROM applied_mutations WHERE user_id = 'u' AND mutation_id = 'm'");
    assert!(
        lookup.contains("USING PRIMARY KEY (mutation_id=? AND user_id=?)"),
        "the replay lookup: {lookup}"
    );
    let refused = plan("DELETE FROM applied_mutations WHERE user_id = 'u' AND result <> ''");
    assert!(
        refused.contains("USING INDEX applied_mutations_refused_by_user"),
        "the deleted account's refusals: {refused}"
    );
    let trigger: String = conn
        .query_row(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'users'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        trigger.contains("WHERE user_id = OLD.id AND result <> ''"),
        "the trigger runs that statement: {trigger}"
    );
}
