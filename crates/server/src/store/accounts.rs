//! User accounts: the user record, password sign-in and the profile picture.

use async_trait::async_trait;
use domain::Role;
use uuid::Uuid;

use super::StoreResult;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRecord {
    pub id: Uuid,
    pub email: Option<String>,
    pub display_name: Option<String>,
    pub photo_url: Option<String>,
    pub bio: String,
    pub role: Role,
    pub is_anonymous: bool,
    pub created_at_ms: i64,
    pub last_login_ms: i64,
    pub updated_at_ms: i64,
    /// Set by `users reset-password` (a temporary password): until the user chooses a new
    /// password, writes other than that are refused with 403 `password-change-required`.
    pub must_change_password: bool,
}

/// A user to create. `password_hash` is set for e-mail accounts, `None` for guests.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub id: Uuid,
    pub email: Option<String>,
    pub display_name: Option<String>,
    pub password_hash: Option<String>,
    pub is_anonymous: bool,
    pub now_ms: i64,
}

/// What [`AccountStore::set_photo`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhotoSwap {
    /// The user's new change sequence.
    pub cursor: i64,
    /// The photo URL the swap replaced.
    pub replaced: Option<String>,
}

/// A user account: creating and reading it, password sign-in, and the profile fields that are
/// not synced records (the picture).
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Fails with `Conflict("email")` when the e-mail is taken.
    async fn create_user(&self, user: NewUser) -> StoreResult<UserRecord>;
    async fn get_user(&self, id: Uuid) -> StoreResult<Option<UserRecord>>;
    /// The user and password hash for a normalised e-mail, if such an account exists.
    async fn find_password_login(&self, email: &str) -> StoreResult<Option<(UserRecord, String)>>;
    async fn record_login(&self, id: Uuid, now_ms: i64) -> StoreResult<()>;
    async fn list_users(&self) -> StoreResult<Vec<UserRecord>>;
    /// How many users there are, guests included (without reading them all).
    async fn count_users(&self) -> StoreResult<u64>;
    /// The user with this normalised e-mail, whatever way they sign in.
    async fn find_user_by_email(&self, email: &str) -> StoreResult<Option<UserRecord>>;
    /// Deletes the user and, by the same cascade the guest sweep relies on, everything of
    /// theirs in the database: records, replay records, receipts rows, sessions, identities,
    /// phone identity, pending sign-ins. False when there was no such user. Their files are
    /// the caller's to remove (`FileStore::delete_user_files`).
    async fn delete_user(&self, id: Uuid) -> StoreResult<bool>;
    async fn password_hash(&self, user_id: Uuid) -> StoreResult<Option<String>>;
    /// Replaces the password; `must_change` marks it temporary (an operator's reset), false
    /// clears the mark (the user chose it).
    async fn set_password(
        &self,
        user_id: Uuid,
        password_hash: &str,
        must_change: bool,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// Gives a guest an e-mail and password in place (same user, same data). None when the
    /// user is not a guest; `Conflict("email")` when the e-mail belongs to another account.
    /// Returns the user's new change sequence.
    async fn link_password(
        &self,
        user_id: Uuid,
        email: &str,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<i64>>;
    /// Sets (or clears) the profile picture in one atomic swap; returns the user's new change
    /// sequence and the URL it replaced, so the caller deletes exactly that picture (concurrent
    /// uploads each replace a different one and none is left behind).
    async fn set_photo(
        &self,
        user_id: Uuid,
        photo_url: Option<String>,
        now_ms: i64,
    ) -> StoreResult<PhotoSwap>;
}
