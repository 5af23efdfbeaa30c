//! The Store is the only door to persistent data. Two implementations share one behaviour,
//! checked by one conformance suite (`tests/store_conformance.rs`): SQLite (embedded default)
//! and PostgreSQL (several server processes on one database).
//!
//! The store is split by area: each area is a trait in its own module here (`accounts.rs`:
//! `AccountStore`, …) and is implemented directly in the same-named file of each backend
//! (`sqlite/accounts.rs`, `postgres/accounts.rs`). [`Store`] is all of them together.

pub mod accounts;
pub mod contact;
pub mod identities;
mod migrations;
pub mod ops;
pub mod phone;
pub mod plans;
pub mod postgres;
pub mod sessions;
pub mod sqlite;

use std::sync::Arc;

use async_trait::async_trait;
use domain::{
    entry::Entry,
    invoice::Invoice,
    profile::{ProfileUpdate, Theme},
    sync::{Change, ChangeData, MutationResult, PaymentConfig, ProfileData, SettingsData},
    tiers::PayTiers,
    time_fmt::rfc3339_from_ms,
};
use uuid::Uuid;

pub use self::{
    accounts::{AccountStore, NewUser, PhotoSwap, UserRecord},
    contact::{ContactRecord, ContactStore, EmailAttempt, EmailDelivery, EmailStatus},
    identities::{ExternalIdentity, IdentityStore, OidcRequest},
    ops::OpsStore,
    phone::PhoneStore,
    plans::PlanStore,
    sessions::{SessionRecord, SessionStore},
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
    PutInvoice(Invoice),
    DeleteInvoice(Uuid),
    UpdateProfile(ProfileUpdate),
    PutSettings(Theme),
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

/// The profile and settings columns of a user, as both backends read them for pull.
#[derive(Debug, Clone)]
pub struct ProfileRow {
    pub user: UserRecord,
    pub payment_tiers: Option<String>,
    pub profile_version: i64,
    pub theme: String,
    pub settings_version: i64,
    pub settings_updated_at_ms: i64,
}

pub const PROFILE_COLUMNS: &str = "id, email, display_name, photo_url, bio, role, is_anonymous, \
    created_at, last_login, updated_at, payment_tiers, profile_version, theme, settings_version, \
    settings_updated_at";

impl ProfileRow {
    /// The profile and settings records changed after `cursor`.
    pub fn changes_after(&self, cursor: i64) -> Vec<Change> {
        let id = self.user.id.to_string();
        let mut changes = Vec::new();
        if self.profile_version > cursor {
            let tiers = self
                .payment_tiers
                .as_deref()
                .and_then(|json| serde_json::from_str::<PayTiers>(json).ok())
                .unwrap_or_default();
            changes.push(Change {
                kind: "profile".into(),
                id: id.clone(),
                version: self.profile_version,
                deleted: false,
                data: Some(ChangeData::Profile(ProfileData {
                    display_name: self
                        .user
                        .display_name
                        .clone()
                        .unwrap_or_else(|| domain::DisplayName::FALLBACK.to_owned()),
                    email: self.user.email.clone(),
                    bio: self.user.bio.clone(),
                    photo_url: self.user.photo_url.clone(),
                    role: self.user.role,
                    is_anonymous: self.user.is_anonymous,
                    payment_config: PaymentConfig {
                        tiers: tiers.tiers().to_vec(),
                    },
                    created_at: rfc3339_from_ms(self.user.created_at_ms),
                    updated_at: rfc3339_from_ms(self.user.updated_at_ms),
                })),
            });
        }
        if self.settings_version > cursor {
            changes.push(Change {
                kind: "settings".into(),
                id,
                version: self.settings_version,
                deleted: false,
                data: Some(ChangeData::Settings(SettingsData {
                    theme: Theme::from_stored(&self.theme),
                    updated_at: rfc3339_from_ms(self.settings_updated_at_ms),
                })),
            });
        }
        changes
    }
}

/// Records changed after the cursor (entries and invoices, at most `limit + 1` of each kind,
/// oldest first) merged with the profile and settings records into one page. Records of a kind
/// beyond those read all have higher versions, so the first `limit` of the merge are the first
/// `limit` overall.
pub fn merge_page(
    mut records: Vec<Change>,
    profile: Option<&ProfileRow>,
    cursor: i64,
    limit: u32,
) -> PullPage {
    if let Some(profile) = profile {
        records.extend(profile.changes_after(cursor));
    }
    records.sort_by_key(|change| change.version);
    let has_more = records.len() > limit as usize;
    records.truncate(limit as usize);
    PullPage {
        changes: records,
        has_more,
    }
}

/// The answer for a mutation that targets another user's record.
pub fn not_owner(mutation_id: &str) -> MutationResult {
    MutationResult::rejected(
        mutation_id,
        "not-owner",
        "This record belongs to another account",
    )
}

/// The error code of a mutation refused because its user holds the most records allowed.
pub const QUOTA_EXCEEDED: &str = "quota-exceeded";

/// The records quota during one push: the entry and invoice rows (tombstones included) the
/// user holds, and the most they may hold. Only a mutation that adds a row takes from it.
#[derive(Debug, Clone, Copy)]
pub struct RecordBudget {
    pub held: i64,
    pub max: i64,
}

impl RecordBudget {
    /// Counts one new row, or answers the mutation with `quota-exceeded` when none is left.
    pub fn take(&mut self, mutation_id: &str) -> Result<(), MutationResult> {
        if self.held >= self.max {
            return Err(MutationResult::rejected(
                mutation_id,
                QUOTA_EXCEEDED,
                format!(
                    "This account holds the most records allowed ({}). Nothing was saved.",
                    self.max
                ),
            ));
        }
        self.held += 1;
        Ok(())
    }

    /// Returns a row taken for an insert that did not happen.
    pub fn give_back(&mut self) {
        self.held -= 1;
    }
}

/// Whether a mutation's answer is worth keeping for replays. A quota refusal is not: it
/// changed nothing, and the same mutation sent again (the driver's Retry after making room or
/// after the operator raised the quota) must be looked at afresh.
pub fn is_recorded(result: &MutationResult) -> bool {
    result.code.as_deref() != Some(QUOTA_EXCEEDED)
}

/// The synced records: push and pull, and the change sequence that open event streams compare.
#[async_trait]
pub trait SyncStore: Send + Sync {
    /// Applies a push in order, in one transaction: each mutation id takes effect at most
    /// once, a replay returns the recorded result. Concurrent pushes by one user serialise.
    /// A mutation that would add a record beyond `max_records` (entry and invoice rows,
    /// tombstones included) is rejected with `quota-exceeded`, and that answer is not recorded.
    /// A new record id another account claimed first, even at the same moment, is rejected
    /// with `not-owner`; it never fails the push.
    async fn push(
        &self,
        user_id: Uuid,
        mutations: Vec<PreparedMutation>,
        now_ms: i64,
        max_records: i64,
    ) -> StoreResult<PushOutcome>;
    /// The user's records changed after `cursor`, oldest change first, at most `limit`.
    async fn pull(&self, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage>;
    /// The user's change sequence: it moves whenever any of their records changes, from any
    /// process (open event streams compare it to poke devices about admin changes).
    async fn change_cursor(&self, user_id: Uuid) -> StoreResult<Option<i64>>;
}

/// The whole store: every area, as the app holds it (`DynStore`). On a `DynStore` every area's
/// methods resolve without importing its trait; code holding a concrete backend imports the
/// area traits it uses (re-exported here).
pub trait Store:
    AccountStore
    + PlanStore
    + SessionStore
    + IdentityStore
    + ContactStore
    + PhoneStore
    + OpsStore
    + SyncStore
    + 'static
{
}

impl<T> Store for T where
    T: AccountStore
        + PlanStore
        + SessionStore
        + IdentityStore
        + ContactStore
        + PhoneStore
        + OpsStore
        + SyncStore
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
            let store = sqlite::SqliteStore::open(&path, synchronous).await?;
            Ok(Arc::new(store))
        }
        DatabaseTarget::Postgres(url) => {
            let store = postgres::PgStore::connect(&url).await?;
            Ok(Arc::new(store))
        }
    }
}
