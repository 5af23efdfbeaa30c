//! The housekeeping sweeps on PostgreSQL: abandoned guests and old replay records, in bounded
//! batches. Several processes may sweep at once: a row is deleted once, whoever gets it.

use tokio_postgres::GenericClient;
use uuid::Uuid;

use super::db_err;
use crate::store::StoreResult;

/// Guests with no identity and no activity since the cutoff. Their entries, invoices, replay
/// records, sessions and pending sign-ins go with them (ON DELETE CASCADE).
pub async fn delete_inactive_guests(
    client: &impl GenericClient,
    inactive_before_ms: i64,
    limit: u32,
) -> StoreResult<Vec<Uuid>> {
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

pub async fn prune_applied_mutations(
    client: &impl GenericClient,
    applied_before_ms: i64,
    limit: u32,
) -> StoreResult<u64> {
    client
        .execute(
            "DELETE FROM applied_mutations WHERE (user_id, mutation_id) IN (
                 SELECT user_id, mutation_id FROM applied_mutations
                 WHERE applied_at < $1 LIMIT $2
                 FOR UPDATE SKIP LOCKED)",
            &[&applied_before_ms, &i64::from(limit)],
        )
        .await
        .map_err(db_err)
}
