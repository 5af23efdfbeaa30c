//! Migration 0023 shortens a replay record's plain "applied" answer to an empty string (the
//! form push now stores): a device resending a mutation applied before the upgrade gets the
//! same answer as before, whether its answer was shortened or kept as JSON, and nothing moves.

use crate::common;

use common::{Backend, quota};
use server::{
    entries::Entries,
    store::{DynStore, MutationAction, PreparedMutation},
};
use uuid::Uuid;

const OWNER: &str = "0190a6e2-7c1d-7000-8000-00000000f301";
const APPLIED: &str = "0190a6e2-7c1d-7000-8000-00000000a301";
const REFUSED: &str = "0190a6e2-7c1d-7000-8000-00000000a302";
const REFUSAL: &str = r#"{"id":"0190a6e2-7c1d-7000-8000-00000000a302","status":"rejected","code":"not-owner","message":"That entry belongs to another account"}"#;

/// Two replay records as the schema before 0023 held them: a plain "applied" answer and a
/// refusal, both whole JSON.
fn rows_before() -> String {
    format!(
        "INSERT INTO users (id, email, password_hash, display_name, is_anonymous, created_at,
                            last_login, updated_at, change_seq, record_count, replay_count)
         VALUES ('{OWNER}', 'replay@example.com', 'hash', 'Sam', FALSE, 1000, 1000, 1000, 7, 0, 2);
         INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
         VALUES ('{OWNER}', '{APPLIED}', '{{\"id\":\"{APPLIED}\",\"status\":\"applied\"}}', 5000),
                ('{OWNER}', '{REFUSED}', '{REFUSAL}', 5000);"
    )
}

async fn replays_from_before_the_upgrade_answer_the_same(backend: Backend) {
    let Some(test) = common::migrations::store_before(backend, 23, &rows_before()).await else {
        return;
    };
    if matches!(backend, Backend::Sqlite) {
        let conn = rusqlite::Connection::open(test.dir.path().join("old.db")).unwrap();
        let stored = |id: &str| -> String {
            conn.query_row(
                "SELECT result FROM applied_mutations WHERE mutation_id = ?1",
                [id],
                |row| row.get(0),
            )
            .unwrap()
        };
        assert_eq!(stored(APPLIED), "", "the plain answer is shortened");
        assert_eq!(stored(REFUSED), REFUSAL, "a refusal keeps its JSON");
    }
    let store: DynStore = test.store.clone();
    let owner = Uuid::parse_str(OWNER).unwrap();
    // Resent: whatever the action, the recorded answer is the one given.
    let resend = |id: &str| PreparedMutation {
        id: id.into(),
        action: MutationAction::delete::<Entries>(Uuid::now_v7()),
    };
    let outcome = store
        .push(
            owner,
            vec![resend(APPLIED), resend(REFUSED)],
            9_000,
            quota(1_000),
        )
        .await
        .unwrap();
    let answers: Vec<String> = outcome
        .results
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    assert_eq!(
        answers,
        [
            format!(r#"{{"id":"{APPLIED}","status":"applied"}}"#),
            REFUSAL.to_owned()
        ]
    );
    assert!(!outcome.changed, "a replay changes nothing");
    assert_eq!(store.change_cursor(owner).await.unwrap(), Some(7));
}

on_both_backends!(replays_from_before_the_upgrade_answer_the_same);
