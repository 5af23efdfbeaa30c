//! Plans (roles) and the payment provider's customer ids.

use async_trait::async_trait;
use domain::Role;
use uuid::Uuid;

use super::StoreResult;

/// A user's plan (role), set by the operator or the billing webhook, and their payment-provider
/// customer id.
#[async_trait]
pub trait PlanStore: Send + Sync {
    /// Returns false when no user has that e-mail.
    async fn set_role_by_email(&self, email: &str, role: Role, now_ms: i64) -> StoreResult<bool>;
    /// Sets a user's plan (billing webhook); returns the new change sequence, None if no user.
    async fn set_role(&self, user_id: Uuid, role: Role, now_ms: i64) -> StoreResult<Option<i64>>;
    /// Remembers the payment provider's customer id for a user.
    async fn set_billing_customer(&self, user_id: Uuid, customer_id: &str) -> StoreResult<()>;
    async fn find_user_by_billing_customer(&self, customer_id: &str) -> StoreResult<Option<Uuid>>;
}
