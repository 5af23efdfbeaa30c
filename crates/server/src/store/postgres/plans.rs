//! Plans (roles) and payment-provider customer ids. A plan change is a profile change: it
//! moves the user's change sequence so every device pulls it.

use async_trait::async_trait;
use domain::Role;
use uuid::Uuid;

use super::{PgStore, db_err, unique_or};
use crate::store::{PlanStore, StoreResult};

#[async_trait]
impl PlanStore for PgStore {
    async fn set_role_by_email(&self, email: &str, role: Role, now_ms: i64) -> StoreResult<bool> {
        let client = self.client().await?;
        let changed = client
            // A plan change is a profile change: it syncs to every device.
            .execute(
                "UPDATE users SET role = $2, updated_at = $3, change_seq = change_seq + 1,
                                  profile_version = change_seq + 1
                 WHERE email = $1",
                &[&email, &role.as_str(), &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(changed > 0)
    }

    async fn set_role(&self, user_id: Uuid, role: Role, now_ms: i64) -> StoreResult<Option<i64>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "UPDATE users SET role = $2, updated_at = $3, change_seq = change_seq + 1,
                                  profile_version = change_seq + 1
                 WHERE id = $1 RETURNING change_seq",
                &[&user_id, &role.as_str(), &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn set_billing_customer(&self, user_id: Uuid, customer_id: &str) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE users SET billing_customer_id = $2 WHERE id = $1",
                &[&user_id, &customer_id],
            )
            .await
            .map_err(|e| unique_or(e, "billing customer"))?;
        Ok(())
    }

    async fn find_user_by_billing_customer(&self, customer_id: &str) -> StoreResult<Option<Uuid>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT id FROM users WHERE billing_customer_id = $1",
                &[&customer_id],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }
}
