//! Sign-in sessions, kept by the hash of their cookie token.

use async_trait::async_trait;
use uuid::Uuid;

use super::{StoreResult, UserRecord};

/// The most keys one batched read sends in one statement: well under SQLite's bound parameter
/// and JSON limits, and short enough that a reader connection is not held for long.
pub const READ_BATCH: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    /// SHA-256 of the cookie token, hex; the token itself is never stored.
    pub token_hash: String,
    pub user_id: Uuid,
    pub created_at_ms: i64,
    pub last_seen_ms: i64,
    pub user_agent: Option<String>,
    /// Signed in with a temporary password (an operator's reset): this session may choose the
    /// new password without typing the temporary one again.
    pub temporary_password: bool,
}

/// Sign-in sessions: created at sign-in, touched while used, ended by sign-out, by the user or
/// by expiry.
#[async_trait]
pub trait SessionStore: Send + Sync {
    async fn create_session(&self, session: SessionRecord) -> StoreResult<()>;
    async fn get_session(&self, token_hash: &str) -> StoreResult<Option<SessionRecord>>;
    /// The sessions among `token_hashes` that exist, in no set order (an unknown hash is just
    /// absent): one read for every open event stream's session, in chunks of [`READ_BATCH`].
    async fn get_sessions(&self, token_hashes: &[String]) -> StoreResult<Vec<SessionRecord>>;
    /// A session and its user, read together (every signed-in request asks for both): `None`
    /// when there is no such session, the user `None` when it is gone.
    async fn get_session_user(
        &self,
        token_hash: &str,
    ) -> StoreResult<Option<(SessionRecord, Option<UserRecord>)>>;
    async fn touch_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<()>;
    async fn delete_session(&self, token_hash: &str) -> StoreResult<()>;
    /// Removes sessions idle since `idle_before_ms` or created before `created_before_ms`.
    async fn delete_expired_sessions(
        &self,
        idle_before_ms: i64,
        created_before_ms: i64,
    ) -> StoreResult<u64>;
    /// The user's sessions, most recently used first.
    async fn list_sessions(&self, user_id: Uuid) -> StoreResult<Vec<SessionRecord>>;
    /// Ends one of `user_id`'s sessions; false when there is no such session of theirs.
    async fn delete_user_session(&self, user_id: Uuid, token_hash: &str) -> StoreResult<bool>;
    /// Ends every session of `user_id` except `keep`; returns the token hashes that ended.
    async fn delete_other_sessions(&self, user_id: Uuid, keep: &str) -> StoreResult<Vec<String>>;
}
