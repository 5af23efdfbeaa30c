//! PostgreSQL store, for running several server processes on one database.

mod accounts;
mod contact;
mod housekeeping;
mod identities;
mod invoices;
mod phone;
mod relay;
mod sync;

use anyhow::Context;
use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use domain::Role;

use crate::sync::poke::Notifier;
use tokio_postgres::{NoTls, Row, error::SqlState};
use uuid::Uuid;

use super::{
    ContactRecord, ExternalIdentity, NewUser, OidcRequest, PhotoSwap, PreparedMutation, PullPage,
    PushOutcome, SessionRecord, Store, StoreError, StoreResult, UserRecord, migrations::POSTGRES,
};

const POOL_SIZE: usize = 16;
/// Serialises migrations when several processes start at once.
const MIGRATION_LOCK_KEY: i64 = 0x6465_6c69_7665_7279; // "delivery"

pub struct PgStore {
    pool: Pool,
    /// For connections of its own (the signal relay's LISTEN).
    config: tokio_postgres::Config,
}

impl PgStore {
    pub async fn connect(url: &str) -> anyhow::Result<PgStore> {
        let config: tokio_postgres::Config = url
            .parse()
            .context("DATABASE_URL is not a valid PostgreSQL URL")?;
        Self::from_config(config).await
    }

    pub async fn from_config(config: tokio_postgres::Config) -> anyhow::Result<PgStore> {
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager).max_size(POOL_SIZE).build()?;
        let store = PgStore { pool, config };
        store
            .migrate()
            .await
            .context("migrating the PostgreSQL schema")?;
        Ok(store)
    }

    async fn migrate(&self) -> anyhow::Result<()> {
        let mut client = self.pool.get().await?;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK_KEY])
            .await?;
        let outcome = async {
            client
                .batch_execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (
                         version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
                )
                .await?;
            for migration in POSTGRES {
                let tx = client.transaction().await?;
                let applied = tx
                    .query_opt("SELECT 1 FROM schema_migrations WHERE version = $1", &[
                        &migration.version,
                    ])
                    .await?
                    .is_some();
                if !applied {
                    tx.batch_execute(migration.sql)
                        .await
                        .with_context(|| format!("applying migration {}", migration.name))?;
                    tx.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        &[&migration.version, &migration.name, &domain::time_fmt::now_ms()],
                    )
                    .await?;
                    tracing::info!(migration = migration.name, "applied PostgreSQL migration");
                }
                tx.commit().await?;
            }
            anyhow::Ok(())
        }
        .await;
        client
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK_KEY])
            .await?;
        outcome
    }

    async fn client(&self) -> StoreResult<deadpool_postgres::Object> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Backend(e.into()))
    }
}

pub(super) fn db_err(err: tokio_postgres::Error) -> StoreError {
    StoreError::Backend(err.into())
}

/// Tries at a push before a deadlock or serialisation failure is reported.
const PUSH_ATTEMPTS: u32 = 3;

/// A transaction PostgreSQL failed only because of what ran beside it: running it again works.
fn is_retryable(err: &anyhow::Error) -> bool {
    err.downcast_ref::<tokio_postgres::Error>()
        .and_then(tokio_postgres::Error::code)
        .is_some_and(|code| {
            *code == SqlState::T_R_DEADLOCK_DETECTED || *code == SqlState::T_R_SERIALIZATION_FAILURE
        })
}

fn unique_or(err: tokio_postgres::Error, what: &'static str) -> StoreError {
    if err.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(what)
    } else {
        db_err(err)
    }
}

const USER_COLUMNS: &str = "id, email, display_name, photo_url, bio, role, is_anonymous, \
                            created_at, last_login, updated_at";

pub(super) fn user_from_row(row: &Row) -> UserRecord {
    let role: String = row.get(5);
    UserRecord {
        id: row.get(0),
        email: row.get(1),
        display_name: row.get(2),
        photo_url: row.get(3),
        bio: row.get(4),
        role: Role::from_stored(&role),
        is_anonymous: row.get(6),
        created_at_ms: row.get(7),
        last_login_ms: row.get(8),
        updated_at_ms: row.get(9),
    }
}

fn session_from_row(row: &Row) -> SessionRecord {
    SessionRecord {
        token_hash: row.get(0),
        user_id: row.get(1),
        created_at_ms: row.get(2),
        last_seen_ms: row.get(3),
        user_agent: row.get(4),
    }
}

#[async_trait]
impl Store for PgStore {
    async fn create_user(&self, user: NewUser) -> StoreResult<UserRecord> {
        let client = self.client().await?;
        let row = client
            .query_one(
                &format!(
                    "INSERT INTO users (id, email, password_hash, display_name, is_anonymous,
                                        created_at, last_login, updated_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $6, $6)
                     RETURNING {USER_COLUMNS}"
                ),
                &[
                    &user.id,
                    &user.email,
                    &user.password_hash,
                    &user.display_name,
                    &user.is_anonymous,
                    &user.now_ms,
                ],
            )
            .await
            .map_err(|e| unique_or(e, "email"))?;
        Ok(user_from_row(&row))
    }

    async fn get_user(&self, id: Uuid) -> StoreResult<Option<UserRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"),
                &[&id],
            )
            .await
            .map_err(db_err)?;
        Ok(row.as_ref().map(user_from_row))
    }

    async fn find_password_login(&self, email: &str) -> StoreResult<Option<(UserRecord, String)>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &format!(
                    "SELECT {USER_COLUMNS}, password_hash FROM users
                     WHERE email = $1 AND password_hash IS NOT NULL"
                ),
                &[&email],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|row| (user_from_row(&row), row.get(10))))
    }

    async fn record_login(&self, id: Uuid, now_ms: i64) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE users SET last_login = $2 WHERE id = $1",
                &[&id, &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn list_users(&self) -> StoreResult<Vec<UserRecord>> {
        let client = self.client().await?;
        let rows = client
            .query(
                &format!("SELECT {USER_COLUMNS} FROM users ORDER BY created_at, id"),
                &[],
            )
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(user_from_row).collect())
    }

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

    async fn create_session(&self, session: SessionRecord) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO sessions (token_hash, user_id, created_at, last_seen, user_agent)
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &session.token_hash,
                    &session.user_id,
                    &session.created_at_ms,
                    &session.last_seen_ms,
                    &session.user_agent,
                ],
            )
            .await
            .map_err(|e| unique_or(e, "session"))?;
        Ok(())
    }

    async fn get_session(&self, token_hash: &str) -> StoreResult<Option<SessionRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT token_hash, user_id, created_at, last_seen, user_agent
                 FROM sessions WHERE token_hash = $1",
                &[&token_hash],
            )
            .await
            .map_err(db_err)?;
        Ok(row.as_ref().map(session_from_row))
    }

    async fn touch_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE sessions SET last_seen = $2 WHERE token_hash = $1",
                &[&token_hash, &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn delete_session(&self, token_hash: &str) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash])
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn delete_expired_sessions(
        &self,
        idle_before_ms: i64,
        created_before_ms: i64,
    ) -> StoreResult<u64> {
        let client = self.client().await?;
        client
            .execute(
                "DELETE FROM sessions WHERE last_seen < $1 OR created_at < $2",
                &[&idle_before_ms, &created_before_ms],
            )
            .await
            .map_err(db_err)
    }

    async fn push(
        &self,
        user_id: Uuid,
        mutations: Vec<PreparedMutation>,
        now_ms: i64,
        max_records: i64,
    ) -> StoreResult<PushOutcome> {
        let mut client = self.client().await?;
        let mut attempt = 1;
        loop {
            let tx = client.transaction().await.map_err(db_err)?;
            let outcome =
                match sync::push(&tx, user_id, mutations.clone(), now_ms, max_records).await {
                    Ok(outcome) => tx.commit().await.map(|()| outcome).map_err(db_err),
                    Err(err) => Err(err),
                };
            // Two accounts pushing the same new ids in opposite orders wait on each other's
            // uncommitted rows; PostgreSQL breaks the cycle by failing one transaction, which
            // is then simply run again (it now sees the other's rows: `not-owner`).
            match outcome {
                Err(StoreError::Backend(err)) if attempt < PUSH_ATTEMPTS && is_retryable(&err) => {
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }

    async fn pull(&self, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage> {
        let mut client = self.client().await?;
        sync::pull(&mut client, user_id, cursor, limit).await
    }

    async fn set_photo(
        &self,
        user_id: Uuid,
        photo_url: Option<String>,
        now_ms: i64,
    ) -> StoreResult<PhotoSwap> {
        let client = self.client().await?;
        // The row lock taken by FOR UPDATE makes read-old-then-write one step: a concurrent
        // swap waits and then sees this one's URL as the one it replaces.
        let row = client
            .query_one(
                "WITH old AS (SELECT photo_url FROM users WHERE id = $1 FOR UPDATE)
                 UPDATE users SET photo_url = $2, photo_updated_at = $3, updated_at = $3,
                                  change_seq = change_seq + 1, profile_version = change_seq + 1
                 FROM old WHERE users.id = $1 RETURNING users.change_seq, old.photo_url",
                &[&user_id, &photo_url, &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(PhotoSwap {
            cursor: row.get(0),
            replaced: row.get(1),
        })
    }

    async fn change_cursor(&self, user_id: Uuid) -> StoreResult<Option<i64>> {
        let client = self.client().await?;
        let row = client
            .query_opt("SELECT change_seq FROM users WHERE id = $1", &[&user_id])
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn list_sessions(&self, user_id: Uuid) -> StoreResult<Vec<SessionRecord>> {
        self.sessions_of(user_id).await
    }

    async fn delete_user_session(&self, user_id: Uuid, token_hash: &str) -> StoreResult<bool> {
        self.end_user_session(user_id, token_hash).await
    }

    async fn delete_other_sessions(&self, user_id: Uuid, keep: &str) -> StoreResult<Vec<String>> {
        self.end_other_sessions(user_id, keep).await
    }

    async fn password_hash(&self, user_id: Uuid) -> StoreResult<Option<String>> {
        self.password_hash_of(user_id).await
    }

    async fn set_password(
        &self,
        user_id: Uuid,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        self.replace_password(user_id, password_hash, now_ms).await
    }

    async fn link_password(
        &self,
        user_id: Uuid,
        email: &str,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<i64>> {
        self.add_password_to_guest(user_id, email, password_hash, now_ms)
            .await
    }

    fn start_signal_relay(&self, notifier: Notifier) -> Option<tokio::task::JoinHandle<()>> {
        Some(relay::start(self.config.clone(), notifier))
    }

    async fn create_contact_message(&self, message: ContactRecord) -> StoreResult<()> {
        self.insert_contact(message).await
    }

    async fn list_contact_messages(&self, limit: u32) -> StoreResult<Vec<ContactRecord>> {
        self.newest_contacts(limit).await
    }

    async fn claim_contact_emails(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<ContactRecord>> {
        self.claim_due_contacts(now_ms, lease_until_ms, limit).await
    }

    async fn record_contact_email(
        &self,
        id: Uuid,
        attempt: super::EmailAttempt,
    ) -> StoreResult<()> {
        self.record_contact_attempt(id, attempt).await
    }

    async fn next_contact_email_at(&self) -> StoreResult<Option<i64>> {
        self.next_contact_due().await
    }

    async fn find_identity_user(&self, identity: &ExternalIdentity) -> StoreResult<Option<Uuid>> {
        self.identity_user(identity).await
    }

    async fn create_user_with_identity(
        &self,
        user: NewUser,
        identity: ExternalIdentity,
    ) -> StoreResult<UserRecord> {
        self.insert_user_with_identity(user, identity).await
    }

    async fn link_identity(
        &self,
        user_id: Uuid,
        identity: ExternalIdentity,
        display_name: Option<String>,
        now_ms: i64,
    ) -> StoreResult<UserRecord> {
        self.attach_identity(user_id, identity, display_name, now_ms)
            .await
    }

    async fn put_oidc_request(&self, request: OidcRequest) -> StoreResult<()> {
        self.insert_oidc_request(request).await
    }

    async fn take_oidc_request(
        &self,
        state: &str,
        now_ms: i64,
    ) -> StoreResult<Option<OidcRequest>> {
        self.remove_oidc_request(state, now_ms).await
    }

    async fn delete_inactive_guests(
        &self,
        inactive_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<Uuid>> {
        let client = self.client().await?;
        housekeeping::delete_inactive_guests(&**client, inactive_before_ms, limit).await
    }

    async fn prune_applied_mutations(
        &self,
        applied_before_ms: i64,
        limit: u32,
    ) -> StoreResult<u64> {
        let client = self.client().await?;
        housekeeping::prune_applied_mutations(&**client, applied_before_ms, limit).await
    }

    async fn ping(&self) -> StoreResult<()> {
        let client = self.client().await?;
        client.execute("SELECT 1", &[]).await.map_err(db_err)?;
        Ok(())
    }
    async fn server_key(&self, name: &str, candidate: Vec<u8>) -> StoreResult<Vec<u8>> {
        self.phone_server_key(name, candidate).await
    }

    async fn use_captcha(
        &self,
        challenge: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> StoreResult<bool> {
        self.phone_use_captcha(challenge, expires_at_ms, now_ms)
            .await
    }

    async fn phone_send_volume(
        &self,
        ip: &str,
        now_ms: i64,
    ) -> StoreResult<super::phone::SendVolume> {
        self.phone_volume(ip, now_ms).await
    }

    async fn start_phone_code(
        &self,
        start: super::phone::PhoneCodeStart,
        limits: super::phone::Limits,
    ) -> StoreResult<super::phone::SendOutcome> {
        self.phone_start_code(start, limits).await
    }

    async fn spend_phone_code_attempt(
        &self,
        verification_id: Uuid,
        now_ms: i64,
    ) -> StoreResult<Option<super::phone::PhoneCodeCheck>> {
        self.phone_spend_attempt(verification_id, now_ms).await
    }

    async fn complete_phone_sign_in(
        &self,
        request: super::phone::PhoneSignInRequest,
    ) -> StoreResult<super::phone::PhoneSignIn> {
        self.phone_complete(request).await
    }
}
