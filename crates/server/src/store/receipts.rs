//! Receipt photos' ledger: which user holds which receipt id and how many bytes, for the
//! ownership check, the per-user byte quota and the orphan sweep. The photos themselves are
//! objects in the file store (`files::ReceiptKey`).

use async_trait::async_trait;
use uuid::Uuid;

use super::StoreResult;

/// A stored receipt photo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptRecord {
    pub id: Uuid,
    /// The stored (re-encoded) photo's size.
    pub bytes: i64,
    pub created_at_ms: i64,
    /// Which upload's object holds the photo (`files::ReceiptKey`); `None` for photos stored
    /// before uploads had their own keys.
    pub version: Option<String>,
}

/// Who holds a receipt id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceiptHolder {
    /// This user.
    Me(ReceiptRecord),
    /// Another account: to this user the id does not exist.
    Other,
    Nobody,
}

/// What [`ReceiptStore::insert_receipt`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceiptInsert {
    Stored(ReceiptRecord),
    /// The user already had it (a resend, or a concurrent upload of the same id won): nothing
    /// was written.
    Existing(ReceiptRecord),
    /// Another account holds the id: nothing was written.
    OtherHolder,
    /// It would take the user's receipts past the quota: nothing was written.
    OverQuota,
}

#[async_trait]
pub trait ReceiptStore: Send + Sync {
    async fn find_receipt(&self, user_id: Uuid, id: Uuid) -> StoreResult<ReceiptHolder>;
    /// The bytes of every receipt the user holds.
    async fn receipt_bytes(&self, user_id: Uuid) -> StoreResult<i64>;
    /// Records the user's receipt `id` of `bytes`, stored by the upload `version`, unless they
    /// already hold it, another account does, or their receipts would then pass `max_bytes`.
    /// The quota check and the insert are one step: of two concurrent uploads that each fit
    /// alone but not together, one is refused.
    async fn insert_receipt(
        &self,
        user_id: Uuid,
        id: Uuid,
        bytes: i64,
        version: &str,
        now_ms: i64,
        max_bytes: i64,
    ) -> StoreResult<ReceiptInsert>;
    /// Removes the user's receipt `id` and returns what it was (None when they held none).
    async fn delete_receipt(&self, user_id: Uuid, id: Uuid) -> StoreResult<Option<ReceiptRecord>>;
    /// Removes up to `limit` receipts created before `created_before_ms` that no live expense or
    /// evidence item of their user names; returns them with their user's id, so their objects
    /// can go too.
    async fn delete_orphan_receipts(
        &self,
        created_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<(Uuid, ReceiptRecord)>>;
}
