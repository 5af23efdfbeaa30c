//! The Store is the only door to persistent data. Two implementations share one behaviour,
//! checked by one conformance suite (`tests/integration/store_conformance.rs`): SQLite (embedded default)
//! and PostgreSQL (several server processes on one database).
//!
//! The store is split by area: each area is a trait in its own module here (`accounts.rs`:
//! `AccountStore`, …) and is implemented directly in the same-named file of each backend
//! (`sqlite/accounts.rs`, `postgres/accounts.rs`). [`Store`] is all of them together.

pub mod accounts;
pub mod contact;
pub mod identities;
pub mod links;
pub(crate) mod migrations;
pub mod ops;
pub mod phone;
pub mod plans;
pub mod postgres;
pub mod receipts;
pub mod sessions;
pub mod sqlite;
pub mod sync;

use std::sync::Arc;

pub use self::{
    accounts::{AccountStore, NewUser, PhotoSwap, UserRecord},
    contact::{ContactRecord, ContactStore, EmailAttempt, EmailDelivery, EmailStatus},
    identities::{ExternalIdentity, IdentityStore, OidcRequest},
    links::{EmailLink, InviteUse, LinkPurpose, LinkStore, NewEmailLink, PasswordReset},
    ops::{OpsStore, StoreGauges, WriteCommits},
    phone::PhoneStore,
    plans::PlanStore,
    receipts::{ReceiptHolder, ReceiptInsert, ReceiptRecord, ReceiptStore},
    sessions::{SessionRecord, SessionStore},
    sync::{MutationAction, PreparedMutation, PullPage, PushOutcome, PushQuota, SyncStore},
};
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

/// The whole store: every area, as the app holds it (`DynStore`). On a `DynStore` every area's
/// methods resolve without importing its trait; code holding a concrete backend imports the
/// area traits it uses (re-exported here).
pub trait Store:
    AccountStore
    + PlanStore
    + SessionStore
    + IdentityStore
    + LinkStore
    + ContactStore
    + PhoneStore
    + OpsStore
    + SyncStore
    + ReceiptStore
    + 'static
{
}

impl<T> Store for T where
    T: AccountStore
        + PlanStore
        + SessionStore
        + IdentityStore
        + LinkStore
        + ContactStore
        + PhoneStore
        + OpsStore
        + SyncStore
        + ReceiptStore
        + 'static
{
}

pub type DynStore = Arc<dyn Store>;

/// Opens the configured database and brings its schema up to date.
pub async fn open(config: &Config) -> anyhow::Result<DynStore> {
    match config.database.target(&config.data_dir)? {
        DatabaseTarget::Sqlite(path) => {
            let synchronous = sqlite::Synchronous::parse(&config.database.sqlite_synchronous)
                .ok_or_else(|| ConfigError("SQLITE_SYNCHRONOUS must be FULL or NORMAL".into()))?;
            let memory = sqlite::Memory::sized(
                config.database.sqlite_cache_mb,
                config.database.sqlite_mmap_mb,
            );
            let store = sqlite::SqliteStore::open_with(&path, synchronous, memory).await?;
            Ok(Arc::new(store))
        }
        DatabaseTarget::Postgres(url) => {
            let store = postgres::PgStore::connect(&url).await?;
            Ok(Arc::new(store))
        }
    }
}
