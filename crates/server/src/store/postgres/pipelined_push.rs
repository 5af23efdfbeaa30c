//! A push of record puts and deletes in two round trips, whatever its size (issue 30): each
//! statement waiting for the one before cost a round trip, about 9 for one mutation and 50 for
//! ten, and on a busy machine each is two context switches on both sides.
//!
//! 1. BEGIN, the user's row locked, the batch's replay records and the state of every record it
//!    names (targets, references, agreements), pipelined: sent together, answered in order.
//! 2. [`sync::push`] runs its plan on what was read, here in memory (the lock keeps this
//!    user's rows as they were read), and its writes are kept in order; then the writes, the
//!    counters and COMMIT are pipelined.
//!
//! A statement that fails aborts the transaction, so the COMMIT after it rolls back: nothing is
//! half written. Inserts here have no ON CONFLICT: a record id another account claimed since
//! the read (it cannot be this user's: the lock) fails the push with a unique violation, and the
//! push is run again the step-by-step way (`sync.rs`), which answers `not-owner`. Profile and
//! settings mutations also go that way (their writes read what they change).

use std::collections::HashMap;

use anyhow::anyhow;
use deadpool_postgres::Object;
use futures_util::future::try_join_all;
use tokio_postgres::{Statement, types::ToSql};
use uuid::Uuid;

use super::{
    db_err,
    sync::{RECORD_ANSWER, SAVE_COUNTERS, UPDATE_RECORD, USER_COUNTERS_FOR_UPDATE},
};
use crate::store::{
    PreparedMutation, PushOutcome, PushQuota, StoreError, StoreResult,
    sync::{self, MutationAction, RecordWrite, SyncSql, UserCounters},
};

/// Whether a push can be pipelined: only record puts and deletes, and refusals.
pub(super) fn applies_to(mutations: &[PreparedMutation]) -> bool {
    mutations.iter().all(|m| {
        matches!(
            m.action,
            MutationAction::Put { .. }
                | MutationAction::Delete { .. }
                | MutationAction::Reject { .. }
        )
    })
}

/// A pooled connection that may be inside a transaction begun by hand (BEGIN is pipelined, so
/// it cannot be tokio-postgres's `Transaction`, which rolls back when dropped). If the push is
/// dropped mid-transaction (the request was cancelled), the connection leaves the pool and
/// closes, and PostgreSQL rolls the transaction back: it is never handed to another request
/// with this one's transaction open.
pub(super) struct Connection {
    object: Option<Object>,
    in_transaction: bool,
}

impl Connection {
    pub(super) fn new(object: Object) -> Connection {
        Connection {
            object: Some(object),
            in_transaction: false,
        }
    }

    pub(super) fn client(&mut self) -> &mut Object {
        self.object.as_mut().expect("present until dropped")
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        if self.in_transaction
            && let Some(object) = self.object.take()
        {
            drop(Object::take(object));
        }
    }
}

/// Any record a pipelined push's own statements could not answer (it is always one it named).
const NOT_READ: &str = "a pipelined push asked about a record it did not read first";

const BEGIN: &str = "BEGIN";
const COMMIT: &str = "COMMIT";
const RECORDED_ANSWER: &str =
    "SELECT result FROM applied_mutations WHERE user_id = $1 AND mutation_id = $2";
/// A named record's owner and whether it is deleted, and its content when it is the user's
/// live record (`SyncSql::record_content`).
const RECORD_STATE: &str = "SELECT user_id = $3, deleted,
            CASE WHEN user_id = $3 AND NOT deleted THEN content END
     FROM records WHERE kind = $1 AND id = $2";
/// No ON CONFLICT: see the module's comment.
const INSERT_RECORD: &str = "INSERT INTO records (kind, id, user_id, version, deleted, content,
                              created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::text IS NULL, $5, $6, $6)";

struct Statements {
    begin: Statement,
    counters: Statement,
    recorded: Statement,
    state: Statement,
    insert: Statement,
    update: Statement,
    answer: Statement,
    save_counters: Statement,
    commit: Statement,
}

impl Statements {
    /// From the connection's statement cache (prepared once per connection).
    async fn of(client: &Object) -> Result<Statements, tokio_postgres::Error> {
        Ok(Statements {
            begin: client.prepare_cached(BEGIN).await?,
            counters: client.prepare_cached(USER_COUNTERS_FOR_UPDATE).await?,
            recorded: client.prepare_cached(RECORDED_ANSWER).await?,
            state: client.prepare_cached(RECORD_STATE).await?,
            insert: client.prepare_cached(INSERT_RECORD).await?,
            update: client.prepare_cached(UPDATE_RECORD).await?,
            answer: client.prepare_cached(RECORD_ANSWER).await?,
            save_counters: client.prepare_cached(SAVE_COUNTERS).await?,
            commit: client.prepare_cached(COMMIT).await?,
        })
    }
}

/// Runs `mutations` (all [`applies_to`] them) as one transaction on `conn`; on an error the
/// transaction is rolled back and the connection is clean again (or leaves the pool).
pub(super) async fn push(
    conn: &mut Connection,
    user_id: Uuid,
    mutations: &[PreparedMutation],
    now_ms: i64,
    quota: PushQuota,
) -> StoreResult<PushOutcome> {
    let statements = Statements::of(conn.client()).await.map_err(db_err)?;
    conn.in_transaction = true;
    let outcome = run(
        conn.client(),
        &statements,
        user_id,
        mutations,
        now_ms,
        quota,
    )
    .await;
    if outcome.is_err() {
        // After a COMMIT that was sent (and rolled back) this only warns: there is no
        // transaction left.
        conn.client()
            .batch_execute("ROLLBACK")
            .await
            .map_err(db_err)?;
    }
    conn.in_transaction = false;
    outcome
}

async fn run(
    client: &Object,
    s: &Statements,
    user_id: Uuid,
    mutations: &[PreparedMutation],
    now_ms: i64,
    quota: PushQuota,
) -> StoreResult<PushOutcome> {
    let named = named_records(mutations);
    // Polled together, so sent together; PostgreSQL runs them in this order, the reads after
    // the lock (each sees what the push before it committed). One point read per mutation and
    // per named record: whatever plan a connection keeps for them is the key's index. A read
    // of the whole batch by sets (`= ANY`) kept the plan it was first given while a new
    // server's tables were small, a scan of the table: the first pushes of a new server ran at
    // 0.67x the step-by-step rate (sync-bench's fresh PostgreSQL figures), and planning the sets
    // afresh each time cost 1.6x the database's CPU a mutation at batch 1 on a grown one.
    let by_user: [&(dyn ToSql + Sync); 1] = [&user_id];
    let answer_params: Vec<[&(dyn ToSql + Sync); 2]> = mutations
        .iter()
        .map(|m| [&user_id as _, &m.id as _])
        .collect();
    let state_params: Vec<[&(dyn ToSql + Sync); 3]> = named
        .iter()
        .map(|(kind, id)| [kind as _, id as _, &user_id as _])
        .collect();
    let answer_reads = answer_params
        .iter()
        .map(|params| client.query_opt(&s.recorded, params));
    let state_reads = state_params
        .iter()
        .map(|params| client.query_opt(&s.state, params));
    let (_, counters, answers, states) = futures_util::try_join!(
        client.execute(&s.begin, &[]),
        client.query_opt(&s.counters, &by_user),
        try_join_all(answer_reads),
        try_join_all(state_reads),
    )
    .map_err(db_err)?;
    let records: HashMap<(String, Uuid), Option<Known>> = named
        .iter()
        .zip(&states)
        .map(|(&(kind, id), row)| {
            let known = row.as_ref().map(|row| Known {
                mine: row.get(0),
                deleted: row.get(1),
                content: row.get(2),
            });
            ((kind.to_owned(), id), known)
        })
        .collect();
    let mut db = InMemory {
        counters: counters.map(|r| UserCounters {
            seq: r.get(0),
            records: r.get(1),
            replays: r.get(2),
        }),
        answers: mutations
            .iter()
            .zip(&answers)
            .filter_map(|(m, row)| row.as_ref().map(|row| (m.id.clone(), row.get(0))))
            .collect(),
        records,
        writes: Vec::new(),
    };
    let outcome = sync::push(&mut db, user_id, mutations, now_ms, quota).await?;
    let writes: Vec<(&Statement, Vec<&(dyn ToSql + Sync)>)> = db
        .writes
        .iter()
        .map(|write| write.statement(s, &user_id))
        .chain(std::iter::once((&s.commit, Vec::new())))
        .collect();
    try_join_all(
        writes
            .iter()
            .map(|(statement, params)| client.execute(*statement, params)),
    )
    .await
    .map_err(db_err)?;
    Ok(outcome)
}

/// Every record the push's plan may ask about: each mutation's target, and a put's references
/// and agreements.
fn named_records(mutations: &[PreparedMutation]) -> Vec<(&'static str, Uuid)> {
    let mut named = Vec::new();
    for mutation in mutations {
        match &mutation.action {
            MutationAction::Put { kind, record } => {
                named.push((*kind, record.id));
                named.extend(record.references.iter().copied());
                named.extend(record.agreements.iter().map(|a| (a.kind, a.id)));
            }
            MutationAction::Delete { kind, id, .. } => named.push((*kind, *id)),
            _ => {}
        }
    }
    named
}

/// A record as read, then as this push's own writes left it.
struct Known {
    mine: bool,
    deleted: bool,
    /// Only for the user's live record.
    content: Option<String>,
}

/// The push's reads answered from what was read in the first round trip, and its writes kept
/// for the second.
struct InMemory {
    counters: Option<UserCounters>,
    answers: HashMap<String, String>,
    /// `None`: no such record.
    records: HashMap<(String, Uuid), Option<Known>>,
    writes: Vec<Write>,
}

enum Write {
    Insert(OwnedWrite),
    Update(OwnedWrite),
    Answer {
        mutation_id: String,
        answer: String,
        now_ms: i64,
    },
    Counters(UserCounters),
}

struct OwnedWrite {
    kind: String,
    id: Uuid,
    content: Option<String>,
    version: i64,
    now_ms: i64,
}

impl Write {
    fn statement<'a>(
        &'a self,
        s: &'a Statements,
        user_id: &'a Uuid,
    ) -> (&'a Statement, Vec<&'a (dyn ToSql + Sync)>) {
        match self {
            Write::Insert(w) => (
                &s.insert,
                vec![&w.kind, &w.id, user_id, &w.version, &w.content, &w.now_ms],
            ),
            Write::Update(w) => (
                &s.update,
                vec![&w.kind, &w.id, &w.content, &w.version, &w.now_ms],
            ),
            Write::Answer {
                mutation_id,
                answer,
                now_ms,
            } => (&s.answer, vec![user_id, mutation_id, answer, now_ms]),
            Write::Counters(c) => (
                &s.save_counters,
                vec![user_id, &c.seq, &c.records, &c.replays],
            ),
        }
    }
}

impl InMemory {
    fn known(&mut self, kind: &str, id: Uuid) -> StoreResult<&mut Option<Known>> {
        self.records
            .get_mut(&(kind.to_owned(), id))
            .ok_or_else(|| StoreError::Backend(anyhow!(NOT_READ)))
    }

    /// The user's record as `record` writes it.
    fn written(record: &RecordWrite<'_>) -> (OwnedWrite, Known) {
        let content = record.content.map(str::to_owned);
        (
            OwnedWrite {
                kind: record.kind.to_owned(),
                id: record.id,
                content: content.clone(),
                version: record.version,
                now_ms: record.now_ms,
            },
            Known {
                mine: true,
                deleted: content.is_none(),
                content,
            },
        )
    }
}

fn not_pipelined(what: &str) -> StoreError {
    StoreError::Backend(anyhow!("{what} is not pipelined (applies_to)"))
}

impl SyncSql for InMemory {
    async fn counters(&mut self) -> StoreResult<Option<UserCounters>> {
        Ok(self.counters)
    }

    async fn recorded_answer(&mut self, mutation_id: &str) -> StoreResult<Option<String>> {
        Ok(self.answers.get(mutation_id).cloned())
    }

    async fn record_state(&mut self, kind: &str, id: Uuid) -> StoreResult<Option<(bool, bool)>> {
        Ok(self
            .known(kind, id)?
            .as_ref()
            .map(|known| (known.mine, known.deleted)))
    }

    async fn record_content(&mut self, kind: &str, id: Uuid) -> StoreResult<Option<String>> {
        Ok(self
            .known(kind, id)?
            .as_ref()
            .filter(|known| known.mine && !known.deleted)
            .and_then(|known| known.content.clone()))
    }

    async fn replace_first_card_tiers(
        &mut self,
        _tiers: &str,
        _version: i64,
        _now_ms: i64,
    ) -> StoreResult<()> {
        Err(not_pipelined("a profile update"))
    }

    async fn insert_record(&mut self, record: RecordWrite<'_>) -> StoreResult<bool> {
        let (write, known) = InMemory::written(&record);
        *self.known(record.kind, record.id)? = Some(known);
        self.writes.push(Write::Insert(write));
        Ok(true)
    }

    async fn update_record(&mut self, record: RecordWrite<'_>) -> StoreResult<()> {
        let (write, known) = InMemory::written(&record);
        *self.known(record.kind, record.id)? = Some(known);
        self.writes.push(Write::Update(write));
        Ok(())
    }

    async fn record_answer(
        &mut self,
        mutation_id: &str,
        answer: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.answers
            .insert(mutation_id.to_owned(), answer.to_owned());
        self.writes.push(Write::Answer {
            mutation_id: mutation_id.to_owned(),
            answer: answer.to_owned(),
            now_ms,
        });
        Ok(())
    }

    async fn save_counters(&mut self, counters: UserCounters) -> StoreResult<()> {
        self.writes.push(Write::Counters(counters));
        Ok(())
    }

    async fn update_profile(
        &mut self,
        _update: &domain::profile::ProfileUpdate,
        _payment_tiers: Option<&str>,
        _version: i64,
        _now_ms: i64,
    ) -> StoreResult<()> {
        Err(not_pipelined("a profile update"))
    }

    async fn put_settings(
        &mut self,
        _update: domain::profile::SettingsUpdate,
        _version: i64,
        _now_ms: i64,
    ) -> StoreResult<()> {
        Err(not_pipelined("a settings update"))
    }
}
