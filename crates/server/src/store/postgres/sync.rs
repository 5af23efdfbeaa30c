//! The sync area on PostgreSQL. A push locks its user's row first, so concurrent pushes by
//! one user (from several server processes too) apply one after the other, and the second
//! sees the first's recorded mutation ids.

use async_trait::async_trait;
use deadpool_postgres::Transaction;
use domain::profile::{MtdQuarters, ProfileUpdate, SettingsUpdate, TaxRegion, Theme};
use tokio_postgres::{GenericClient, IsolationLevel, Statement, error::SqlState};
use uuid::Uuid;

use super::{PgStore, db_err, pipelined_push};
use crate::{
    rate_cards::RateCards,
    records::RecordKind,
    store::{
        PreparedMutation, PullPage, PushOutcome, PushQuota, StoreError, StoreResult, SyncStore,
        sessions::READ_BATCH,
        sync::{
            self, PROFILE_COLUMNS, ProfileRow, RECORD_COLUMNS, RecordRow, RecordWrite, SyncSql,
            UserCounters,
        },
    },
};

/// Tries at a push before a deadlock or serialisation failure is reported.
const PUSH_ATTEMPTS: u32 = 3;

#[async_trait]
impl SyncStore for PgStore {
    async fn push(
        &self,
        user_id: Uuid,
        mutations: Vec<PreparedMutation>,
        now_ms: i64,
        quota: PushQuota,
    ) -> StoreResult<PushOutcome> {
        let mut conn = pipelined_push::Connection::new(self.client().await?);
        let mut pipelined = pipelined_push::applies_to(&mutations);
        let mut attempt = 1;
        loop {
            let outcome = if pipelined {
                pipelined_push::push(&mut conn, user_id, &mutations, now_ms, quota).await
            } else {
                let tx = conn.client().transaction().await.map_err(db_err)?;
                let mut db = Push { tx: &tx, user_id };
                match sync::push(&mut db, user_id, &mutations, now_ms, quota).await {
                    Ok(outcome) => tx.commit().await.map(|()| outcome).map_err(db_err),
                    Err(err) => Err(err),
                }
            };
            match outcome {
                // A record id another account claimed after the pipelined read: the
                // step-by-step push answers it `not-owner` (pipelined_push.rs).
                Err(StoreError::Backend(err)) if pipelined && is_unique_violation(&err) => {
                    pipelined = false;
                }
                // Two accounts pushing the same new ids in opposite orders wait on each
                // other's uncommitted rows; PostgreSQL breaks the cycle by failing one
                // transaction, which is then simply run again (it now sees the other's rows:
                // `not-owner`).
                Err(StoreError::Backend(err)) if attempt < PUSH_ATTEMPTS && is_retryable(&err) => {
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }

    async fn pull(&self, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage> {
        let mut object = self.client().await?;
        let client: &mut tokio_postgres::Client = &mut object;
        // Records and the profile are separate reads: one snapshot for both, or a push
        // committing between them could show a later version from one without an earlier one
        // from the other, and the cursor would then skip it for good.
        let snapshot = client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await
            .map_err(db_err)?;
        let rows = records_after(&snapshot, user_id, cursor, limit).await?;
        let profile = profile_row(&snapshot, user_id).await?;
        snapshot.commit().await.map_err(db_err)?;
        sync::page(rows, profile.as_ref(), cursor, limit)
    }

    async fn change_cursor(&self, user_id: Uuid) -> StoreResult<Option<i64>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &client
                    .prepare_cached("SELECT change_seq FROM users WHERE id = $1")
                    .await
                    .map_err(db_err)?,
                &[&user_id],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn change_cursors(&self, user_ids: &[Uuid]) -> StoreResult<Vec<(Uuid, i64)>> {
        let client = self.client().await?;
        let select = client
            .prepare_cached("SELECT id, change_seq FROM users WHERE id = ANY($1)")
            .await
            .map_err(db_err)?;
        let mut found = Vec::new();
        for chunk in user_ids.chunks(READ_BATCH) {
            let rows = client.query(&select, &[&chunk]).await.map_err(db_err)?;
            found.extend(rows.iter().map(|r| (r.get(0), r.get(1))));
        }
        Ok(found)
    }
}

/// A transaction PostgreSQL failed only because of what ran beside it: running it again works.
fn is_retryable(err: &anyhow::Error) -> bool {
    sql_state(err).is_some_and(|code| {
        *code == SqlState::T_R_DEADLOCK_DETECTED || *code == SqlState::T_R_SERIALIZATION_FAILURE
    })
}

fn is_unique_violation(err: &anyhow::Error) -> bool {
    sql_state(err) == Some(&SqlState::UNIQUE_VIOLATION)
}

fn sql_state(err: &anyhow::Error) -> Option<&SqlState> {
    err.downcast_ref::<tokio_postgres::Error>()
        .and_then(tokio_postgres::Error::code)
}

/// The statements both ways of pushing run (pipelined_push.rs runs the others its own way).
pub(super) const USER_COUNTERS_FOR_UPDATE: &str =
    "SELECT change_seq, record_count, replay_count FROM users WHERE id = $1 FOR UPDATE";
pub(super) const UPDATE_RECORD: &str =
    "UPDATE records SET content = $3, deleted = $3::text IS NULL, version = $4, updated_at = $5
     WHERE kind = $1 AND id = $2";
pub(super) const RECORD_ANSWER: &str =
    "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
     VALUES ($1, $2, $3, $4)";
pub(super) const SAVE_COUNTERS: &str =
    "UPDATE users SET change_seq = $2, record_count = $3, replay_count = $4 WHERE id = $1";

/// Writes the records every account starts with for the user just inserted in `tx`
/// (`sync::insert_starter_records`).
pub(super) async fn insert_starter_records(
    tx: &Transaction<'_>,
    user_id: Uuid,
    now_ms: i64,
) -> StoreResult<()> {
    sync::insert_starter_records(&mut Push { tx, user_id }, user_id, now_ms).await
}

struct Push<'t, 'c> {
    tx: &'t Transaction<'c>,
    user_id: Uuid,
}

impl Push<'_, '_> {
    /// From the connection's statement cache: a statement sent as text is prepared again
    /// each time, one more round trip per statement.
    async fn stmt(&self, sql: &str) -> StoreResult<Statement> {
        self.tx.prepare_cached(sql).await.map_err(db_err)
    }
}

impl SyncSql for Push<'_, '_> {
    async fn counters(&mut self) -> StoreResult<Option<UserCounters>> {
        let row = self
            .tx
            .query_opt(
                &self.stmt(USER_COUNTERS_FOR_UPDATE).await?,
                &[&self.user_id],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| UserCounters {
            seq: r.get(0),
            records: r.get(1),
            replays: r.get(2),
        }))
    }

    async fn recorded_answer(&mut self, mutation_id: &str) -> StoreResult<Option<String>> {
        let row = self
            .tx
            .query_opt(
                &self.stmt("SELECT result FROM applied_mutations WHERE user_id = $1 AND mutation_id = $2").await?,
                &[&self.user_id, &mutation_id],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn record_state(&mut self, kind: &str, id: Uuid) -> StoreResult<Option<(bool, bool)>> {
        let row = self
            .tx
            .query_opt(
                &self
                    .stmt("SELECT user_id = $3, deleted FROM records WHERE kind = $1 AND id = $2")
                    .await?,
                &[&kind, &id, &self.user_id],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    async fn record_content(&mut self, kind: &str, id: Uuid) -> StoreResult<Option<String>> {
        let row = self
            .tx
            .query_opt(
                &self
                    .stmt(
                        "SELECT content FROM records
                 WHERE kind = $1 AND id = $2 AND user_id = $3 AND NOT deleted",
                    )
                    .await?,
                &[&kind, &id, &self.user_id],
            )
            .await
            .map_err(db_err)?;
        Ok(row.and_then(|r| r.get(0)))
    }

    async fn replace_first_card_tiers(
        &mut self,
        tiers: &str,
        version: i64,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.tx
            .execute(
                &self
                    .stmt(
                        "UPDATE records
                 SET content = jsonb_set(content::jsonb, '{perStop}', $3::text::jsonb)::text,
                     version = $4, updated_at = $5
                 WHERE kind = $1 AND id = $2 AND user_id = $2 AND NOT deleted",
                    )
                    .await?,
                &[&RateCards::NAME, &self.user_id, &tiers, &version, &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn insert_record(&mut self, record: RecordWrite<'_>) -> StoreResult<bool> {
        // Another account may be inserting this id right now (it looked absent to both): its
        // row wins, and the driver answers this mutation like any other account's id.
        let inserted = self
            .tx
            .execute(
                &self
                    .stmt(
                        "INSERT INTO records (kind, id, user_id, version, deleted, content,
                                      created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5::text IS NULL, $5, $6, $6)
                 ON CONFLICT (kind, id) DO NOTHING",
                    )
                    .await?,
                &[
                    &record.kind,
                    &record.id,
                    &self.user_id,
                    &record.version,
                    &record.content,
                    &record.now_ms,
                ],
            )
            .await
            .map_err(db_err)?;
        Ok(inserted == 1)
    }

    async fn update_record(&mut self, record: RecordWrite<'_>) -> StoreResult<()> {
        self.tx
            .execute(
                &self.stmt(UPDATE_RECORD).await?,
                &[
                    &record.kind,
                    &record.id,
                    &record.content,
                    &record.version,
                    &record.now_ms,
                ],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn record_answer(
        &mut self,
        mutation_id: &str,
        answer: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.tx
            .execute(
                &self.stmt(RECORD_ANSWER).await?,
                &[&self.user_id, &mutation_id, &answer, &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn save_counters(&mut self, counters: UserCounters) -> StoreResult<()> {
        self.tx
            .execute(
                &self.stmt(SAVE_COUNTERS).await?,
                &[
                    &self.user_id,
                    &counters.seq,
                    &counters.records,
                    &counters.replays,
                ],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn update_profile(
        &mut self,
        update: &ProfileUpdate,
        payment_tiers: Option<&str>,
        version: i64,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.tx
            .execute(
                &self
                    .stmt(
                        "UPDATE users SET display_name = COALESCE($2, display_name),
                                  bio = COALESCE($3, bio),
                                  payment_tiers = COALESCE($4, payment_tiers),
                                  profile_version = $5, updated_at = $6
                 WHERE id = $1",
                    )
                    .await?,
                &[
                    &self.user_id,
                    &update.display_name,
                    &update.bio,
                    &payment_tiers,
                    &version,
                    &now_ms,
                ],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn put_settings(
        &mut self,
        update: SettingsUpdate,
        version: i64,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.tx
            .execute(
                &self.stmt("UPDATE users SET theme = COALESCE($2, theme), tax_region = COALESCE($3, tax_region),
                                  mtd_quarters = COALESCE($6, mtd_quarters),
                                  query_reminder_days = COALESCE($7, query_reminder_days),
                                  settings_version = $4, settings_updated_at = $5
                 WHERE id = $1").await?,
                &[
                    &self.user_id,
                    &update.theme.map(Theme::as_str),
                    &update.tax_region.map(TaxRegion::as_str),
                    &version,
                    &now_ms,
                    &update.quarters.map(MtdQuarters::as_str),
                    &update.query_reminder_days.map(i32::from),
                ],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }
}

async fn records_after(
    client: &impl GenericClient,
    user_id: Uuid,
    cursor: i64,
    limit: u32,
) -> StoreResult<Vec<RecordRow>> {
    let rows = client
        .query(
            &format!(
                "SELECT {RECORD_COLUMNS} FROM records
                 WHERE user_id = $1 AND version > $2 ORDER BY version LIMIT $3"
            ),
            &[&user_id, &cursor, &(i64::from(limit) + 1)],
        )
        .await
        .map_err(db_err)?;
    Ok(rows
        .iter()
        .map(|r| RecordRow {
            kind: r.get(0),
            id: r.get::<_, Uuid>(1).to_string(),
            version: r.get(2),
            deleted: r.get(3),
            content: r.get(4),
            created_at_ms: r.get(5),
            updated_at_ms: r.get(6),
        })
        .collect())
}

async fn profile_row(
    client: &impl GenericClient,
    user_id: Uuid,
) -> StoreResult<Option<ProfileRow>> {
    let row = client
        .query_opt(
            &format!("SELECT {PROFILE_COLUMNS} FROM users WHERE id = $1"),
            &[&user_id],
        )
        .await
        .map_err(db_err)?;
    Ok(row.map(|r| ProfileRow {
        user: super::user_from_row(&r),
        payment_tiers: r.get(11),
        profile_version: r.get(12),
        theme: r.get(13),
        settings_version: r.get(14),
        settings_updated_at_ms: r.get(15),
        tax_region: r.get(16),
        mtd_quarters: r.get(17),
        query_reminder_days: i64::from(r.get::<_, i32>(18)),
    }))
}
