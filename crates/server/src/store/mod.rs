//! The Store trait is the only door to persistent data. Two implementations share one
//! behaviour, checked by one conformance suite (`tests/store_conformance.rs`):
//! SQLite (embedded default) and PostgreSQL (several server processes on one database).

mod identity;
mod migrations;
pub mod phone;
pub mod postgres;
pub mod sqlite;

use std::sync::Arc;

use async_trait::async_trait;
use domain::{
    Role,
    entry::Entry,
    invoice::Invoice,
    profile::{ProfileUpdate, Theme},
    sync::{Change, ChangeData, MutationResult, PaymentConfig, ProfileData, SettingsData},
    tiers::PayTiers,
    time_fmt::rfc3339_from_ms,
};
use uuid::Uuid;

pub use self::identity::{ExternalIdentity, OidcRequest};
use crate::{
    config::{Config, ConfigError, DatabaseTarget},
    sync::poke::Notifier,
};

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

/// A stored contact-form message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactRecord {
    pub id: Uuid,
    pub user_id: Option<Uuid>,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub created_at_ms: i64,
    /// Whether the operator's e-mail copy went out.
    pub delivery: EmailDelivery,
}

/// Where the e-mail copy of a contact message stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailStatus {
    /// Stored while SMTP was not configured: never e-mailed.
    NotConfigured,
    /// Waiting for its next try.
    Pending,
    Sent,
    /// Gave up after the last allowed try.
    Failed,
}

impl EmailStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            EmailStatus::NotConfigured => "not-configured",
            EmailStatus::Pending => "pending",
            EmailStatus::Sent => "sent",
            EmailStatus::Failed => "failed",
        }
    }

    pub fn from_stored(value: &str) -> EmailStatus {
        match value {
            "pending" => EmailStatus::Pending,
            "sent" => EmailStatus::Sent,
            "failed" => EmailStatus::Failed,
            _ => EmailStatus::NotConfigured,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailDelivery {
    pub status: EmailStatus,
    pub attempts: u32,
    pub last_error: Option<String>,
    pub next_attempt_at_ms: Option<i64>,
    pub emailed_at_ms: Option<i64>,
}

impl EmailDelivery {
    pub fn not_configured() -> EmailDelivery {
        EmailDelivery {
            status: EmailStatus::NotConfigured,
            attempts: 0,
            last_error: None,
            next_attempt_at_ms: None,
            emailed_at_ms: None,
        }
    }

    /// Due at once.
    pub fn pending(now_ms: i64) -> EmailDelivery {
        EmailDelivery {
            status: EmailStatus::Pending,
            next_attempt_at_ms: Some(now_ms),
            ..EmailDelivery::not_configured()
        }
    }
}

/// The outcome of one try at e-mailing a claimed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmailAttempt {
    Sent {
        at_ms: i64,
    },
    Retry {
        error: String,
        next_attempt_at_ms: i64,
    },
    GaveUp {
        error: String,
    },
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

/// What [`Store::set_photo`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhotoSwap {
    /// The user's new change sequence.
    pub cursor: i64,
    /// The photo URL the swap replaced.
    pub replaced: Option<String>,
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
    /// Sets a user's plan (billing webhook); returns the new change sequence, None if no user.
    async fn set_role(&self, user_id: Uuid, role: Role, now_ms: i64) -> StoreResult<Option<i64>>;
    /// Remembers the payment provider's customer id for a user.
    async fn set_billing_customer(&self, user_id: Uuid, customer_id: &str) -> StoreResult<()>;
    async fn find_user_by_billing_customer(&self, customer_id: &str) -> StoreResult<Option<Uuid>>;

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

    /// Carries `notifier`'s signals to and from other server processes sharing this store,
    /// when the backend can (PostgreSQL LISTEN/NOTIFY). A single-process backend has nothing
    /// to relay.
    fn start_signal_relay(&self, _notifier: Notifier) -> Option<tokio::task::JoinHandle<()>> {
        None
    }

    /// The user's sessions, most recently used first.
    async fn list_sessions(&self, user_id: Uuid) -> StoreResult<Vec<SessionRecord>>;
    /// Ends one of `user_id`'s sessions; false when there is no such session of theirs.
    async fn delete_user_session(&self, user_id: Uuid, token_hash: &str) -> StoreResult<bool>;
    /// Ends every session of `user_id` except `keep`; returns the token hashes that ended.
    async fn delete_other_sessions(&self, user_id: Uuid, keep: &str) -> StoreResult<Vec<String>>;
    async fn password_hash(&self, user_id: Uuid) -> StoreResult<Option<String>>;
    async fn set_password(
        &self,
        user_id: Uuid,
        password_hash: &str,
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

    /// Sets (or clears) the profile picture in one atomic swap; returns the user's new change
    /// sequence and the URL it replaced, so the caller deletes exactly that picture (concurrent
    /// uploads each replace a different one and none is left behind).
    async fn set_photo(
        &self,
        user_id: Uuid,
        photo_url: Option<String>,
        now_ms: i64,
    ) -> StoreResult<PhotoSwap>;
    /// The user's change sequence: it moves whenever any of their records changes, from any
    /// process (open event streams compare it to poke devices about admin changes).
    async fn change_cursor(&self, user_id: Uuid) -> StoreResult<Option<i64>>;

    async fn create_contact_message(&self, message: ContactRecord) -> StoreResult<()>;
    /// The newest `limit` messages, newest first.
    async fn list_contact_messages(&self, limit: u32) -> StoreResult<Vec<ContactRecord>>;
    /// Up to `limit` pending messages due by `now_ms`, oldest first, each leased until
    /// `lease_until_ms` so no other worker (process) takes it meanwhile.
    async fn claim_contact_emails(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<ContactRecord>>;
    /// Records one try at a pending message (counting it); ignored if it is no longer pending.
    async fn record_contact_email(&self, id: Uuid, attempt: EmailAttempt) -> StoreResult<()>;
    /// When the earliest pending message is due (or its lease ends), if any is pending.
    async fn next_contact_email_at(&self) -> StoreResult<Option<i64>>;

    /// The user an OpenID identity belongs to, if any.
    async fn find_identity_user(&self, identity: &ExternalIdentity) -> StoreResult<Option<Uuid>>;
    /// Creates a user owning `identity`, atomically. `Conflict("identity")` when another
    /// sign-in claimed it first, `Conflict("email")` when the e-mail is taken.
    async fn create_user_with_identity(
        &self,
        user: NewUser,
        identity: ExternalIdentity,
    ) -> StoreResult<UserRecord>;
    /// Attaches `identity` to an existing (guest) user in place: same id and data, no longer
    /// anonymous. `Conflict("identity")` when the identity already belongs to any account.
    async fn link_identity(
        &self,
        user_id: Uuid,
        identity: ExternalIdentity,
        display_name: Option<String>,
        now_ms: i64,
    ) -> StoreResult<UserRecord>;
    /// Stores a pending sign-in and drops the expired ones.
    async fn put_oidc_request(&self, request: OidcRequest) -> StoreResult<()>;
    /// Removes and returns the pending sign-in for `state` (single use); None when unknown,
    /// already used or expired at `now_ms`.
    async fn take_oidc_request(&self, state: &str, now_ms: i64)
    -> StoreResult<Option<OidcRequest>>;

    /// Deletes up to `limit` guests (no e-mail, password, phone or OpenID identity) with no
    /// activity since `inactive_before_ms`: created, signed in, changed and every session last
    /// used before it. Their records, replay records and sessions go with them. Returns their
    /// ids, so their files can be removed too.
    async fn delete_inactive_guests(
        &self,
        inactive_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<Uuid>>;
    /// Deletes up to `limit` replay records (`applied_mutations`) applied before
    /// `applied_before_ms`; returns how many went.
    async fn prune_applied_mutations(&self, applied_before_ms: i64, limit: u32)
    -> StoreResult<u64>;

    /// Cheap liveness probe for `/healthz`.
    async fn ping(&self) -> StoreResult<()>;

    // Phone sign-in (store/{sqlite,postgres}/phone.rs).
    /// The key stored under `name`, or `candidate` after storing it if there was none.
    async fn server_key(&self, name: &str, candidate: Vec<u8>) -> StoreResult<Vec<u8>>;
    /// Records a captcha solution; false if it was already used (a replay).
    async fn use_captcha(
        &self,
        challenge: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// Sends accepted in the last minute, overall and from `ip` (a rate-limit key), which
    /// price the next captcha.
    async fn phone_send_volume(&self, ip: &str, now_ms: i64) -> StoreResult<phone::SendVolume>;
    /// Checks the send limits and, if they allow it, records the send and stores the code
    /// (replacing the number's previous one), atomically across processes.
    async fn start_phone_code(
        &self,
        start: phone::PhoneCodeStart,
        limits: phone::Limits,
    ) -> StoreResult<phone::SendOutcome>;
    /// Spends one attempt of a live (unexpired, not exhausted) code and returns it to check.
    async fn spend_phone_code_attempt(
        &self,
        verification_id: Uuid,
        now_ms: i64,
    ) -> StoreResult<Option<phone::PhoneCodeCheck>>;
    /// Uses up a checked code and signs its number in, signs it up, or links it.
    async fn complete_phone_sign_in(
        &self,
        request: phone::PhoneSignInRequest,
    ) -> StoreResult<phone::PhoneSignIn>;
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
