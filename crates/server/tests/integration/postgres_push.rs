//! PostgreSQL's pipelined push (store/postgres/pipelined_push.rs) begins its transaction by
//! hand, with BEGIN sent beside its first reads. A push dropped part way (a cancelled request)
//! must not hand its connection back to the pool inside that transaction, holding the user's
//! lock, to serve the next request.

use crate::common;

use common::{fresh_postgres_schema, postgres_store_on, quota};
use futures_util::FutureExt;
use server::{
    entries::Entries,
    store::{MutationAction, PreparedMutation},
};
use uuid::Uuid;

fn tombstone(mutation_id: &str, id: Uuid) -> Vec<PreparedMutation> {
    vec![PreparedMutation {
        id: mutation_id.into(),
        action: MutationAction::delete::<Entries>(id),
    }]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_dropped_mid_transaction_leaves_no_transaction_behind() {
    let Some(mut config) = fresh_postgres_schema().await else {
        return;
    };
    // The store's connections, told apart from every other test's.
    let name = format!("push_drop_{}", Uuid::new_v4().simple());
    config.application_name(&name);
    let test = postgres_store_on(config.clone()).await;
    let store = test.store.clone();
    let user = store.create_user(common::guest_user()).await.unwrap();
    let (warm, dropped, next) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    // The pool's one connection with its statements prepared: the next push sends its first
    // round trip (BEGIN, the lock, the reads) at its first poll, and then waits.
    store
        .push(user.id, tombstone("warm", warm), 2_000, quota(100))
        .await
        .unwrap();
    let pending = store
        .push(user.id, tombstone("dropped", dropped), 3_000, quota(100))
        .now_or_never();
    assert!(pending.is_none(), "the push waits on PostgreSQL's answer");
    // The connection left the pool and closed (PostgreSQL rolls its transaction back); in the
    // pool it would stay connected for good.
    let (watcher, connection) = config
        .application_name("watcher")
        .connect(tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut polls = 0;
    loop {
        let open: i64 = watcher
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
                &[&name],
            )
            .await
            .unwrap()
            .get(0);
        if open == 0 {
            break;
        }
        polls += 1;
        // A bound on waiting for a closed connection to end, not a timing: it is reached only
        // when the connection stays.
        assert!(polls < 3_000, "the dropped push's connection is still open");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // The user is not locked, and nothing of the dropped push was written.
    let answer = store
        .push(user.id, tombstone("next", next), 4_000, quota(100))
        .await
        .unwrap();
    assert_eq!(answer.results[0].code, None);
    let page = store
        .pull(user.id, domain::defaults::STARTER_RECORDS, 100)
        .await
        .unwrap();
    let ids: Vec<&str> = page.changes.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, [warm.to_string(), next.to_string()]);
}
