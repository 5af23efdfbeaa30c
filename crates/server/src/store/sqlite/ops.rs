//! The store as a running service on SQLite: the liveness probe and the housekeeping sweeps
//! (abandoned guests and old replay records), in bounded batches so the writer thread is
//! never held for long. One process only: there is no signal relay.

use super::Cached as _;
use async_trait::async_trait;
use rusqlite::params;
use uuid::Uuid;

use super::{SqliteStore, db_err};
use crate::store::{OpsStore, StoreError, StoreGauges, StoreResult};

#[async_trait]
impl OpsStore for SqliteStore {
    async fn ping(&self) -> StoreResult<()> {
        self.readers
            .read(|conn| {
                conn.query_row_cached("SELECT 1", [], |_| Ok(()))
                    .map_err(db_err)
            })
            .await
    }

    /// The main database file's pages (the WAL is folded in at checkpoints).
    async fn gauges(&self) -> StoreResult<StoreGauges> {
        self.readers
            .read(|conn| {
                conn.query_row_cached(
                    "SELECT (SELECT page_count FROM pragma_page_count())
                              * (SELECT page_size FROM pragma_page_size()),
                            (SELECT COUNT(*) FROM contact_messages
                             WHERE email_status = 'pending')",
                    [],
                    |r| {
                        Ok(StoreGauges {
                            database_size_bytes: r.get(0)?,
                            mail_queue_pending: r.get(1)?,
                        })
                    },
                )
                .map_err(db_err)
            })
            .await
    }

    /// Guests with no identity and no activity since the cutoff. Their entries, invoices,
    /// replay records, sessions and pending sign-ins go with them (ON DELETE CASCADE).
    async fn delete_inactive_guests(
        &self,
        inactive_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<Uuid>> {
        self.writer
            .write(move |conn| {
                let mut stmt = conn
                    .prepare_cached(
                        "DELETE FROM users WHERE id IN (
                             SELECT u.id FROM users u
                             WHERE u.is_anonymous = 1 AND u.email IS NULL
                               AND u.password_hash IS NULL
                               AND u.created_at < ?1 AND u.last_login < ?1
                               AND u.updated_at < ?1
                               AND NOT EXISTS (SELECT 1 FROM sessions s
                                               WHERE s.user_id = u.id AND s.last_seen >= ?1)
                               AND NOT EXISTS (SELECT 1 FROM user_identities i
                                               WHERE i.user_id = u.id)
                               AND NOT EXISTS (SELECT 1 FROM phone_identities p
                                               WHERE p.user_id = u.id)
                             LIMIT ?2)
                         RETURNING id",
                    )
                    .map_err(db_err)?;
                let ids = stmt
                    .query_map(params![inactive_before_ms, limit], |r| {
                        r.get::<_, String>(0)
                    })
                    .map_err(db_err)?
                    .collect::<rusqlite::Result<Vec<_>>>()
                    .map_err(db_err)?;
                ids.iter()
                    .map(|id| Uuid::parse_str(id).map_err(|e| StoreError::Backend(e.into())))
                    .collect()
            })
            .await
    }

    async fn prune_applied_mutations(
        &self,
        applied_before_ms: i64,
        limit: u32,
    ) -> StoreResult<u64> {
        self.writer
            .write(move |conn| {
                let removed = conn
                    .execute_cached(
                        "DELETE FROM applied_mutations WHERE (user_id, mutation_id) IN (
                             SELECT user_id, mutation_id FROM applied_mutations
                             WHERE applied_at < ?1 LIMIT ?2)",
                        params![applied_before_ms, limit],
                    )
                    .map_err(db_err)?;
                Ok(removed as u64)
            })
            .await
    }
}
