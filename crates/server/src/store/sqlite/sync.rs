//! The sync area on SQLite: the push primitives, run on the writer thread (so pushes never
//! interleave), and pull from one read snapshot.

use super::Cached as _;
use std::{
    future::Future,
    pin::pin,
    task::{Context, Poll, Waker},
};

use anyhow::anyhow;
use async_trait::async_trait;
use domain::profile::{MtdQuarters, ProfileUpdate, SettingsUpdate, TaxRegion, Theme};
use rusqlite::{Connection, OptionalExtension, params};
use uuid::Uuid;

use super::{SqliteStore, db_err, json_keys};
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

#[async_trait]
impl SyncStore for SqliteStore {
    async fn push(
        &self,
        user_id: Uuid,
        mutations: Vec<PreparedMutation>,
        now_ms: i64,
        quota: PushQuota,
    ) -> StoreResult<PushOutcome> {
        // A push reads and writes the database alone, so it may run again after a shared
        // commit was rolled back: commits of pushes only need no savepoints (writer.rs).
        self.writer
            .write_rerunnable(move |conn| {
                let mut db = Push {
                    conn,
                    user: user_id.to_string(),
                };
                ready(sync::push(&mut db, user_id, &mutations, now_ms, quota))
            })
            .await
    }

    async fn pull(&self, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage> {
        self.readers
            .read(move |conn| {
                // Records and the profile are separate reads: one read transaction (one WAL
                // snapshot) for both, or a push committing between them could show a later
                // version from one without an earlier one from the other, and the cursor
                // would then skip it for good.
                let snapshot = conn.unchecked_transaction().map_err(db_err)?;
                let rows = records_after(&snapshot, user_id, cursor, limit)?;
                let profile = profile_row(&snapshot, user_id)?;
                snapshot.commit().map_err(db_err)?;
                sync::page(rows, profile.as_ref(), cursor, limit)
            })
            .await
    }

    async fn change_cursor(&self, user_id: Uuid) -> StoreResult<Option<i64>> {
        self.readers
            .read(move |conn| {
                conn.query_row_cached(
                    "SELECT change_seq FROM users WHERE id = ?1",
                    [user_id.to_string()],
                    |r| r.get(0),
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn change_cursors(&self, user_ids: &[Uuid]) -> StoreResult<Vec<(Uuid, i64)>> {
        let chunks: Vec<String> = user_ids.chunks(READ_BATCH).map(json_keys).collect();
        self.readers
            .read(move |conn| {
                let mut select = conn
                    .prepare_cached(
                        "SELECT id, change_seq FROM users
                         WHERE id IN (SELECT value FROM json_each(?1))",
                    )
                    .map_err(db_err)?;
                let mut found = Vec::new();
                for chunk in chunks {
                    let rows = select
                        .query_map([chunk], |r| {
                            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
                        })
                        .map_err(db_err)?;
                    for row in rows {
                        let (id, cursor) = row.map_err(db_err)?;
                        let id = Uuid::parse_str(&id)
                            .map_err(|e| StoreError::Backend(anyhow!("user id {id:?}: {e}")))?;
                        found.push((id, cursor));
                    }
                }
                Ok(found)
            })
            .await
    }
}

/// The result of a future that never waits: every primitive below is synchronous SQL, so
/// the push driver completes in one poll on the writer thread.
fn ready<T>(future: impl Future<Output = StoreResult<T>>) -> StoreResult<T> {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(outcome) => outcome,
        Poll::Pending => Err(StoreError::Backend(anyhow!(
            "a SQLite push waited, which it never should"
        ))),
    }
}

/// Writes the records every account starts with for the user just inserted on `conn`, in
/// the same transaction (`sync::insert_starter_records`).
pub(super) fn insert_starter_records(
    conn: &Connection,
    user_id: Uuid,
    now_ms: i64,
) -> StoreResult<()> {
    let mut db = Push {
        conn,
        user: user_id.to_string(),
    };
    ready(sync::insert_starter_records(&mut db, user_id, now_ms))
}

struct Push<'c> {
    conn: &'c Connection,
    user: String,
}

impl SyncSql for Push<'_> {
    async fn counters(&mut self) -> StoreResult<Option<UserCounters>> {
        self.conn
            .prepare_cached(
                "SELECT change_seq, record_count, replay_count FROM users WHERE id = ?1",
            )
            .and_then(|mut stmt| {
                stmt.query_row([&self.user], |r| {
                    Ok(UserCounters {
                        seq: r.get(0)?,
                        records: r.get(1)?,
                        replays: r.get(2)?,
                    })
                })
                .optional()
            })
            .map_err(db_err)
    }

    async fn recorded_answer(&mut self, mutation_id: &str) -> StoreResult<Option<String>> {
        self.conn
            .prepare_cached(
                "SELECT result FROM applied_mutations WHERE user_id = ?1 AND mutation_id = ?2",
            )
            .and_then(|mut stmt| {
                stmt.query_row(params![self.user, mutation_id], |r| r.get(0))
                    .optional()
            })
            .map_err(db_err)
    }

    async fn record_state(&mut self, kind: &str, id: Uuid) -> StoreResult<Option<(bool, bool)>> {
        self.conn
            .prepare_cached("SELECT user_id = ?3, deleted FROM records WHERE kind = ?1 AND id = ?2")
            .and_then(|mut stmt| {
                stmt.query_row(params![kind, id.to_string(), self.user], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()
            })
            .map_err(db_err)
    }

    async fn record_content(&mut self, kind: &str, id: Uuid) -> StoreResult<Option<String>> {
        self.conn
            .prepare_cached(
                "SELECT content FROM records
                 WHERE kind = ?1 AND id = ?2 AND user_id = ?3 AND NOT deleted",
            )
            .and_then(|mut stmt| {
                stmt.query_row(params![kind, id.to_string(), self.user], |r| r.get(0))
                    .optional()
            })
            .map_err(db_err)
    }

    async fn replace_first_card_tiers(
        &mut self,
        tiers: &str,
        version: i64,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE records SET content = json_set(content, '$.perStop', json(?3)),
                                    version = ?4, updated_at = ?5
                 WHERE kind = ?1 AND id = ?2 AND user_id = ?2 AND NOT deleted",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![RateCards::NAME, self.user, tiers, version, now_ms])
            })
            .map_err(db_err)?;
        Ok(())
    }

    async fn insert_record(&mut self, record: RecordWrite<'_>) -> StoreResult<bool> {
        let inserted = self
            .conn
            .prepare_cached(
                "INSERT INTO records (kind, id, user_id, version, deleted, content,
                                      created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5 IS NULL, ?5, ?6, ?6)
                 ON CONFLICT (kind, id) DO NOTHING",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    record.kind,
                    record.id.to_string(),
                    self.user,
                    record.version,
                    record.content,
                    record.now_ms
                ])
            })
            .map_err(db_err)?;
        Ok(inserted == 1)
    }

    async fn update_record(&mut self, record: RecordWrite<'_>) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE records SET content = ?3, deleted = ?3 IS NULL, version = ?4,
                                    updated_at = ?5
                 WHERE kind = ?1 AND id = ?2",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    record.kind,
                    record.id.to_string(),
                    record.content,
                    record.version,
                    record.now_ms
                ])
            })
            .map_err(db_err)?;
        Ok(())
    }

    async fn record_answer(
        &mut self,
        mutation_id: &str,
        answer: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .and_then(|mut stmt| stmt.execute(params![self.user, mutation_id, answer, now_ms]))
            .map_err(db_err)?;
        Ok(())
    }

    async fn save_counters(&mut self, counters: UserCounters) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE users SET change_seq = ?2, record_count = ?3, replay_count = ?4
                 WHERE id = ?1",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    self.user,
                    counters.seq,
                    counters.records,
                    counters.replays
                ])
            })
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
        self.conn
            .execute_cached(
                "UPDATE users SET display_name = COALESCE(?2, display_name),
                                  bio = COALESCE(?3, bio),
                                  payment_tiers = COALESCE(?4, payment_tiers),
                                  profile_version = ?5, updated_at = ?6
                 WHERE id = ?1",
                params![
                    self.user,
                    update.display_name,
                    update.bio,
                    payment_tiers,
                    version,
                    now_ms
                ],
            )
            .map_err(db_err)?;
        Ok(())
    }

    async fn put_settings(
        &mut self,
        update: SettingsUpdate,
        version: i64,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.conn
            .execute_cached(
                "UPDATE users SET theme = COALESCE(?2, theme), tax_region = COALESCE(?3, tax_region),
                                  mtd_quarters = COALESCE(?6, mtd_quarters),
                                  query_reminder_days = COALESCE(?7, query_reminder_days),
                                  settings_version = ?4, settings_updated_at = ?5
                 WHERE id = ?1",
                params![
                    self.user,
                    update.theme.map(Theme::as_str),
                    update.tax_region.map(TaxRegion::as_str),
                    version,
                    now_ms,
                    update.quarters.map(MtdQuarters::as_str),
                    update.query_reminder_days
                ],
            )
            .map_err(db_err)?;
        Ok(())
    }
}

fn records_after(
    conn: &Connection,
    user_id: Uuid,
    cursor: i64,
    limit: u32,
) -> StoreResult<Vec<RecordRow>> {
    let mut stmt = conn
        .prepare_cached(&format!(
            "SELECT {RECORD_COLUMNS} FROM records
             WHERE user_id = ?1 AND version > ?2 ORDER BY version LIMIT ?3"
        ))
        .map_err(db_err)?;
    stmt.query_map(
        params![user_id.to_string(), cursor, i64::from(limit) + 1],
        |r| {
            Ok(RecordRow {
                kind: r.get(0)?,
                id: r.get(1)?,
                version: r.get(2)?,
                deleted: r.get(3)?,
                content: r.get(4)?,
                created_at_ms: r.get(5)?,
                updated_at_ms: r.get(6)?,
            })
        },
    )
    .map_err(db_err)?
    .collect::<rusqlite::Result<Vec<_>>>()
    .map_err(db_err)
}

fn profile_row(conn: &Connection, user_id: Uuid) -> StoreResult<Option<ProfileRow>> {
    conn.query_row_cached(
        &format!("SELECT {PROFILE_COLUMNS} FROM users WHERE id = ?1"),
        [user_id.to_string()],
        |r| {
            Ok(ProfileRow {
                user: super::user_from_row(r)?,
                payment_tiers: r.get(11)?,
                profile_version: r.get(12)?,
                theme: r.get(13)?,
                settings_version: r.get(14)?,
                settings_updated_at_ms: r.get(15)?,
                tax_region: r.get(16)?,
                mtd_quarters: r.get(17)?,
                query_reminder_days: r.get(18)?,
            })
        },
    )
    .optional()
    .map_err(db_err)
}
