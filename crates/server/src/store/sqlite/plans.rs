//! Plans (roles) and payment-provider customer ids. A plan change is a profile change: it
//! moves the user's change sequence so every device pulls it.

use super::Cached as _;
use async_trait::async_trait;
use domain::Role;
use rusqlite::{OptionalExtension, params};
use uuid::Uuid;

use super::{SqliteStore, conflict_as, db_err};
use crate::store::{PlanStore, StoreResult};

#[async_trait]
impl PlanStore for SqliteStore {
    async fn set_role_by_email(&self, email: &str, role: Role, now_ms: i64) -> StoreResult<bool> {
        let email = email.to_owned();
        self.writer
            .write(move |conn| {
                // A plan change is a profile change: it syncs to every device.
                let changed = conn
                    .execute_cached(
                        "UPDATE users SET role = ?2, updated_at = ?3, change_seq = change_seq + 1,
                                          profile_version = change_seq + 1
                         WHERE email = ?1",
                        params![email, role.as_str(), now_ms],
                    )
                    .map_err(db_err)?;
                Ok(changed > 0)
            })
            .await
    }

    async fn set_role(&self, user_id: Uuid, role: Role, now_ms: i64) -> StoreResult<Option<i64>> {
        self.writer
            .write(move |conn| {
                conn.query_row_cached(
                    "UPDATE users SET role = ?2, updated_at = ?3, change_seq = change_seq + 1,
                                      profile_version = change_seq + 1
                     WHERE id = ?1 RETURNING change_seq",
                    params![user_id.to_string(), role.as_str(), now_ms],
                    |r| r.get(0),
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn set_billing_customer(&self, user_id: Uuid, customer_id: &str) -> StoreResult<()> {
        let customer_id = customer_id.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "UPDATE users SET billing_customer_id = ?2 WHERE id = ?1",
                    params![user_id.to_string(), customer_id],
                )
                .map_err(conflict_as("billing customer"))?;
                Ok(())
            })
            .await
    }

    async fn find_user_by_billing_customer(&self, customer_id: &str) -> StoreResult<Option<Uuid>> {
        let customer_id = customer_id.to_owned();
        self.readers
            .read(move |conn| {
                let id: Option<String> = conn
                    .query_row_cached(
                        "SELECT id FROM users WHERE billing_customer_id = ?1",
                        [customer_id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(db_err)?;
                Ok(id.and_then(|id| Uuid::parse_str(&id).ok()))
            })
            .await
    }
}
