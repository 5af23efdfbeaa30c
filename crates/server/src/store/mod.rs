//! The Store trait is the only door to persistent data. Two implementations share one
//! behaviour, checked by one conformance suite (`tests/store_conformance.rs`):
//! SQLite (embedded default) and PostgreSQL (several server processes on one database).

mod migrations;
pub mod postgres;
pub mod sqlite;

use std::sync::Arc;

use async_trait::async_trait;
use domain::{
    Role,
    entry::Entry,
    sync::{Change, MutationResult},
};
use uuid::Uuid;

use crate::config::{Config, ConfigError, DatabaseTarget};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A unique constraint said no; the string names what clashed (e.g. "email").
    #[error("{0} already exists")]
    Conflict(&'static str),
    #[error(transparent)]
    Backend(#[from] anyhow::Error),
}

pub type StoreResult<T> = Result<T, StoreError>;

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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    /// SHA-256 of the cookie token, hex; the token itself is never stored.
    pub token_hash: String,
    pub user_id: Uuid,
    pub created_at_ms: i64,
    pub last_seen_ms: i64,
    pub user_agent: Option<String>,
}

/// A pushed mutation after parsing and validation (which need no database).
#[derive(Debug, Clone)]
pub struct PreparedMutation {
    pub id: String,
    pub action: MutationAction,
}

#[derive(Debug, Clone)]
pub enum MutationAction {
    PutEntry(Entry),
    DeleteEntry(Uuid),
    /// Refused before reaching the data; recorded so a replay gets the same answer.
    Reject {
        code: &'static str,
        message: String,
    },
}

#[derive(Debug, Clone)]
pub struct PushOutcome {
    pub results: Vec<MutationResult>,
    /// The user's change sequence after the push.
    pub cursor: i64,
    /// Whether any record changed (other devices need a poke).
    pub changed: bool,
}

#[derive(Debug, Clone)]
pub struct PullPage {
    pub changes: Vec<Change>,
    pub has_more: bool,
}

/// The answer for a mutation that targets another user's record.
pub fn not_owner(mutation_id: &str) -> MutationResult {
    MutationResult::rejected(
        mutation_id,
        "not-owner",
        "This record belongs to another account",
    )
}

#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Fails with `Conflict("email")` when the e-mail is taken.
    async fn create_user(&self, user: NewUser) -> StoreResult<UserRecord>;
    async fn get_user(&self, id: Uuid) -> StoreResult<Option<UserRecord>>;
    /// The user and password hash for a normalised e-mail, if such an account exists.
    async fn find_password_login(&self, email: &str) -> StoreResult<Option<(UserRecord, String)>>;
    async fn record_login(&self, id: Uuid, now_ms: i64) -> StoreResult<()>;
    async fn list_users(&self) -> StoreResult<Vec<UserRecord>>;
    /// Returns false when no user has that e-mail.
    async fn set_role_by_email(&self, email: &str, role: Role, now_ms: i64) -> StoreResult<bool>;

    async fn create_session(&self, session: SessionRecord) -> StoreResult<()>;
    async fn get_session(&self, token_hash: &str) -> StoreResult<Option<SessionRecord>>;
    async fn touch_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<()>;
    async fn delete_session(&self, token_hash: &str) -> StoreResult<()>;
    /// Removes sessions idle since `idle_before_ms` or created before `created_before_ms`.
    async fn delete_expired_sessions(
        &self,
        idle_before_ms: i64,
        created_before_ms: i64,
    ) -> StoreResult<u64>;

    /// Applies a push in order, in one transaction: each mutation id takes effect at most
    /// once, a replay returns the recorded result. Concurrent pushes by one user serialise.
    async fn push(
        &self,
        user_id: Uuid,
        mutations: Vec<PreparedMutation>,
        now_ms: i64,
    ) -> StoreResult<PushOutcome>;
    /// The user's records changed after `cursor`, oldest change first, at most `limit`.
    async fn pull(&self, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage>;

    /// Cheap liveness probe for `/healthz`.
    async fn ping(&self) -> StoreResult<()>;
}

pub type DynStore = Arc<dyn Store>;

/// Opens the configured database and brings its schema up to date.
pub async fn open(config: &Config) -> anyhow::Result<DynStore> {
    match config.database_target()? {
        DatabaseTarget::Sqlite(path) => {
            let synchronous = sqlite::Synchronous::parse(&config.sqlite_synchronous)
                .ok_or_else(|| ConfigError("SQLITE_SYNCHRONOUS must be FULL or NORMAL".into()))?;
            let store = sqlite::SqliteStore::open(&path, synchronous).await?;
            Ok(Arc::new(store))
        }
        DatabaseTarget::Postgres(url) => {
            let store = postgres::PgStore::connect(&url).await?;
            Ok(Arc::new(store))
        }
    }
}
