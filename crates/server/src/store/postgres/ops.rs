//! The store as a running service on PostgreSQL: the liveness probe, the signal relay between
//! server processes (relay.rs), and the housekeeping sweeps in bounded batches. Several
//! processes may sweep at once: a row is deleted once, whoever gets it.

use async_trait::async_trait;
use uuid::Uuid;

use super::{PgStore, db_err, relay};
use crate::{
    notify::{Notifier, Signal},
    store::{OpsStore, StoreGauges, StoreResult},
};

#[async_trait]
impl OpsStore for PgStore {
    async fn ping(&self) -> StoreResult<()> {
        let client = self.client().await?;
        client.execute("SELECT 1", &[]).await.map_err(db_err)?;
        Ok(())
    }

    async fn gauges(&self) -> StoreResult<StoreGauges> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "SELECT pg_database_size(current_database()),
                        (SELECT COUNT(*) FROM contact_messages WHERE email_status = 'pending')",
                &[],
            )
            .await
            .map_err(db_err)?;
        Ok(StoreGauges {
            database_size_bytes: row.get(0),
            mail_queue_pending: row.get(1),
            write_commits: None,
        })
    }

    fn start_signal_relay(&self, notifier: Notifier) -> Option<tokio::task::JoinHandle<()>> {
        Some(relay::start(self.config.clone(), notifier))
    }

    async fn announce(&self, signal: Signal) -> StoreResult<()> {
        let client = self.client().await?;
        relay::announce(&client, &signal).await.map_err(db_err)
    }

    /// Guests with no identity and no activity since the cutoff. Their entries, statement checks,
    /// replay records, sessions and pending sign-ins go with them (ON DELETE CASCADE).
    async fn delete_inactive_guests(
        &self,
        inactive_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<Uuid>> {
        let client = self.client().await?;
        let rows = client
            .query(
                "DELETE FROM users WHERE id IN (
                     SELECT u.id FROM users u
                     WHERE u.is_anonymous AND u.email IS NULL AND u.password_hash IS NULL
                       AND u.created_at < $1 AND u.last_login < $1 AND u.updated_at < $1
                       AND NOT EXISTS (SELECT 1 FROM sessions s
                                       WHERE s.user_id = u.id AND s.last_seen >= $1)
                       AND NOT EXISTS (SELECT 1 FROM user_identities i WHERE i.user_id = u.id)
                       AND NOT EXISTS (SELECT 1 FROM phone_identities p WHERE p.user_id = u.id)
                     LIMIT $2
                     FOR UPDATE SKIP LOCKED)
                 RETURNING id",
                &[&inactive_before_ms, &i64::from(limit)],
            )
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn prune_applied_mutations(
        &self,
        applied_before_ms: i64,
        limit: u32,
    ) -> StoreResult<u64> {
        let client = self.client().await?;
        // Each user's replay count goes down by what went, in the same statement.
        let row = client
            .query_one(
                "WITH gone AS (
                     DELETE FROM applied_mutations WHERE (user_id, mutation_id) IN (
                         SELECT user_id, mutation_id FROM applied_mutations
                         WHERE applied_at < $1 LIMIT $2
                         FOR UPDATE SKIP LOCKED)
                     RETURNING user_id),
                 per_user AS (SELECT user_id, COUNT(*) AS n FROM gone GROUP BY user_id),
                 lowered AS (
                     UPDATE users SET replay_count = GREATEST(users.replay_count - per_user.n, 0)
                     FROM per_user WHERE users.id = per_user.user_id)
                 SELECT COALESCE(SUM(n), 0)::BIGINT FROM per_user",
                &[&applied_before_ms, &i64::from(limit)],
            )
            .await
            .map_err(db_err)?;
        Ok(row.get::<_, i64>(0).unsigned_abs())
    }
}
