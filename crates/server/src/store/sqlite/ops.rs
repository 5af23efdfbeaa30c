//! The store as a running service on SQLite: the liveness probe and the housekeeping sweeps
//! (abandoned guests and old replay records), in bounded batches so the writer thread is
//! never held for long. One server process; the admin CLI's commits are noticed (no relay).

use super::Cached as _;
use async_trait::async_trait;
use rusqlite::params;
use uuid::Uuid;

use super::{SqliteStore, db_err};
use crate::{
    notify::Notifier,
    store::{OpsStore, StoreError, StoreGauges, StoreResult},
};

/// How often a server looks for commits other processes made (the admin CLI): a changed
/// role, a deleted user or ended sessions take effect within this, despite the session cache.
const OUTSIDE_COMMITS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

#[async_trait]
impl OpsStore for SqliteStore {
    /// No other server shares this database, but the admin CLI does, with no way to send a
    /// signal. The writer's `PRAGMA data_version` moves only when another connection commits,
    /// and this process writes through that one connection: so a move is another process's
    /// commit, and what this process cached about sessions and users is dropped.
    fn start_signal_relay(&self, notifier: Notifier) -> Option<tokio::task::JoinHandle<()>> {
        let writer = self.writer.clone();
        Some(tokio::spawn(async move {
            let mut seen = None;
            let mut every = tokio::time::interval(OUTSIDE_COMMITS_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                let version = writer
                    .write(|conn| {
                        conn.query_row_cached("PRAGMA data_version", [], |r| r.get::<_, i64>(0))
                            .map_err(db_err)
                    })
                    .await;
                let Ok(version) = version else { continue };
                if seen.is_some_and(|seen| seen != version) {
                    notifier.outside_change();
                }
                seen = Some(version);
            }
        }))
    }

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
        let write_commits = Some(self.writer.commits());
        self.readers
            .read(move |conn| {
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
                            write_commits,
                        })
                    },
                )
                .map_err(db_err)
            })
            .await
    }

    /// Guests with no identity and no activity since the cutoff. Their entries, statement checks,
    /// sessions and pending sign-ins go with them (ON DELETE CASCADE), and so do their refused
    /// replay answers (a trigger, migration 0024); plain ones go with the pruning sweep.
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
                // Each user's replay count goes down by what went, in the same job (one
                // transaction on the writer).
                let mut gone = conn
                    .prepare_cached(
                        "DELETE FROM applied_mutations WHERE (mutation_id, user_id) IN (
                             SELECT mutation_id, user_id FROM applied_mutations
                             WHERE applied_at < ?1 LIMIT ?2)
                         RETURNING user_id",
                    )
                    .map_err(db_err)?;
                let mut per_user: std::collections::HashMap<String, i64> =
                    std::collections::HashMap::new();
                let users = gone
                    .query_map(params![applied_before_ms, limit], |r| r.get::<_, String>(0))
                    .map_err(db_err)?;
                for user in users {
                    *per_user.entry(user.map_err(db_err)?).or_default() += 1;
                }
                drop(gone);
                let mut lower = conn
                    .prepare_cached(
                        "UPDATE users SET replay_count = MAX(replay_count - ?2, 0) WHERE id = ?1",
                    )
                    .map_err(db_err)?;
                for (user, count) in &per_user {
                    lower.execute(params![user, count]).map_err(db_err)?;
                }
                Ok(per_user.values().sum::<i64>().unsigned_abs())
            })
            .await
    }
}
