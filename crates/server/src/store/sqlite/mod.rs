//! SQLite store: WAL, one group-committing writer thread, a few readers.

mod accounts;
mod contact;
mod housekeeping;
mod identities;
mod invoices;
mod phone;
mod readers;
mod sync;
mod writer;

use std::path::Path;

use anyhow::Context;
use async_trait::async_trait;
use domain::Role;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, Row, params};
use uuid::Uuid;

use self::{readers::Readers, writer::Writer};
use super::{
    ContactRecord, ExternalIdentity, NewUser, OidcRequest, PhotoSwap, PreparedMutation, PullPage,
    PushOutcome, SessionRecord, Store, StoreError, StoreResult, UserRecord, migrations::SQLITE,
};

const READER_CONNECTIONS: usize = 4;
const BUSY_TIMEOUT_MS: u32 = 5_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Synchronous {
    /// Every commit is on disk before it is acknowledged (default).
    Full,
    /// Faster; the last commits may be lost on power failure, never corrupted.
    Normal,
}

impl Synchronous {
    pub fn parse(value: &str) -> Option<Synchronous> {
        match value.to_uppercase().as_str() {
            "FULL" => Some(Synchronous::Full),
            "NORMAL" => Some(Synchronous::Normal),
            _ => None,
        }
    }
}

pub struct SqliteStore {
    writer: Writer,
    readers: Readers,
}

impl SqliteStore {
    pub async fn open(path: &Path, synchronous: Synchronous) -> anyhow::Result<SqliteStore> {
        let path = path.to_owned();
        tokio::task::spawn_blocking(move || Self::open_blocking(&path, synchronous)).await?
    }

    fn open_blocking(path: &Path, synchronous: Synchronous) -> anyhow::Result<SqliteStore> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating database directory {}", dir.display()))?;
        }
        let mut write_conn = Connection::open(path)
            .with_context(|| format!("opening SQLite database {}", path.display()))?;
        let sync = match synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        write_conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = {sync};
             PRAGMA foreign_keys = ON;
             PRAGMA busy_timeout = {BUSY_TIMEOUT_MS};"
        ))?;
        migrate(&mut write_conn)?;

        let readers = (0..READER_CONNECTIONS)
            .map(|_| {
                let conn = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                conn.execute_batch(&format!(
                    "PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}; PRAGMA query_only = ON;"
                ))?;
                Ok(conn)
            })
            .collect::<rusqlite::Result<Vec<_>>>()?;

        Ok(SqliteStore {
            writer: Writer::start(write_conn)?,
            readers: Readers::new(readers),
        })
    }
}

fn migrate(conn: &mut Connection) -> anyhow::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    )?;
    for migration in SQLITE {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let applied: bool = tx.query_row(
            "SELECT EXISTS(SELECT 1 FROM schema_migrations WHERE version = ?1)",
            [migration.version],
            |row| row.get(0),
        )?;
        if !applied {
            tx.execute_batch(migration.sql)
                .with_context(|| format!("applying migration {}", migration.name))?;
            tx.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
                params![
                    migration.version,
                    migration.name,
                    domain::time_fmt::now_ms()
                ],
            )?;
            tracing::info!(migration = migration.name, "applied SQLite migration");
        }
        tx.commit()?;
    }
    Ok(())
}

pub(super) fn db_err(err: rusqlite::Error) -> StoreError {
    StoreError::Backend(err.into())
}

fn is_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(err, rusqlite::Error::SqliteFailure(e, _)
        if e.code == ErrorCode::ConstraintViolation
            && matches!(e.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY))
}

const USER_COLUMNS: &str = "id, email, display_name, photo_url, bio, role, is_anonymous, \
                            created_at, last_login, updated_at";

pub(super) fn user_from_row(row: &Row<'_>) -> rusqlite::Result<UserRecord> {
    let id: String = row.get(0)?;
    let role: String = row.get(5)?;
    Ok(UserRecord {
        id: Uuid::parse_str(&id).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, e.into())
        })?,
        email: row.get(1)?,
        display_name: row.get(2)?,
        photo_url: row.get(3)?,
        bio: row.get(4)?,
        role: Role::from_stored(&role),
        is_anonymous: row.get(6)?,
        created_at_ms: row.get(7)?,
        last_login_ms: row.get(8)?,
        updated_at_ms: row.get(9)?,
    })
}

fn session_from_row(row: &Row<'_>) -> rusqlite::Result<SessionRecord> {
    let user_id: String = row.get(1)?;
    Ok(SessionRecord {
        token_hash: row.get(0)?,
        user_id: Uuid::parse_str(&user_id).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Text, e.into())
        })?,
        created_at_ms: row.get(2)?,
        last_seen_ms: row.get(3)?,
        user_agent: row.get(4)?,
    })
}

fn select_user(conn: &Connection, id: Uuid) -> StoreResult<Option<UserRecord>> {
    conn.query_row(
        &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1"),
        [id.to_string()],
        user_from_row,
    )
    .optional()
    .map_err(db_err)
}

#[async_trait]
impl Store for SqliteStore {
    async fn create_user(&self, user: NewUser) -> StoreResult<UserRecord> {
        self.writer
            .write(move |conn| {
                conn.execute(
                    "INSERT INTO users (id, email, password_hash, display_name, is_anonymous,
                                        created_at, last_login, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?6)",
                    params![
                        user.id.to_string(),
                        user.email,
                        user.password_hash,
                        user.display_name,
                        user.is_anonymous,
                        user.now_ms
                    ],
                )
                .map_err(|err| {
                    if is_unique_violation(&err) {
                        StoreError::Conflict("email")
                    } else {
                        db_err(err)
                    }
                })?;
                select_user(conn, user.id)?
                    .ok_or_else(|| StoreError::Backend(anyhow::anyhow!("inserted user vanished")))
            })
            .await
    }

    async fn get_user(&self, id: Uuid) -> StoreResult<Option<UserRecord>> {
        self.readers.read(move |conn| select_user(conn, id)).await
    }

    async fn find_password_login(&self, email: &str) -> StoreResult<Option<(UserRecord, String)>> {
        let email = email.to_owned();
        self.readers
            .read(move |conn| {
                conn.query_row(
                    &format!(
                        "SELECT {USER_COLUMNS}, password_hash FROM users
                         WHERE email = ?1 AND password_hash IS NOT NULL"
                    ),
                    [email],
                    |row| Ok((user_from_row(row)?, row.get::<_, String>(10)?)),
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn record_login(&self, id: Uuid, now_ms: i64) -> StoreResult<()> {
        self.writer
            .write(move |conn| {
                conn.execute(
                    "UPDATE users SET last_login = ?2 WHERE id = ?1",
                    params![id.to_string(), now_ms],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn list_users(&self) -> StoreResult<Vec<UserRecord>> {
        self.readers
            .read(|conn| {
                let mut stmt = conn
                    .prepare(&format!(
                        "SELECT {USER_COLUMNS} FROM users ORDER BY created_at, id"
                    ))
                    .map_err(db_err)?;
                let users = stmt
                    .query_map([], user_from_row)
                    .map_err(db_err)?
                    .collect::<rusqlite::Result<Vec<_>>>()
                    .map_err(db_err)?;
                Ok(users)
            })
            .await
    }

    async fn set_role_by_email(&self, email: &str, role: Role, now_ms: i64) -> StoreResult<bool> {
        let email = email.to_owned();
        self.writer
            .write(move |conn| {
                // A plan change is a profile change: it syncs to every device.
                let changed = conn
                    .execute(
                        "UPDATE users SET role = ?2, updated_at = ?3, change_seq = change_seq + 1,
                                          profile_version = change_seq + 1
                         WHERE email = ?1",
                        params![email, role.as_str(), now_ms],
                    )
                    .map_err(db_err)?;
                Ok(changed > 0)
            })
            .await
    }

    async fn set_role(&self, user_id: Uuid, role: Role, now_ms: i64) -> StoreResult<Option<i64>> {
        self.writer
            .write(move |conn| {
                conn.query_row(
                    "UPDATE users SET role = ?2, updated_at = ?3, change_seq = change_seq + 1,
                                      profile_version = change_seq + 1
                     WHERE id = ?1 RETURNING change_seq",
                    params![user_id.to_string(), role.as_str(), now_ms],
                    |r| r.get(0),
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn set_billing_customer(&self, user_id: Uuid, customer_id: &str) -> StoreResult<()> {
        let customer_id = customer_id.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute(
                    "UPDATE users SET billing_customer_id = ?2 WHERE id = ?1",
                    params![user_id.to_string(), customer_id],
                )
                .map_err(|err| {
                    if is_unique_violation(&err) {
                        StoreError::Conflict("billing customer")
                    } else {
                        db_err(err)
                    }
                })?;
                Ok(())
            })
            .await
    }

    async fn find_user_by_billing_customer(&self, customer_id: &str) -> StoreResult<Option<Uuid>> {
        let customer_id = customer_id.to_owned();
        self.readers
            .read(move |conn| {
                let id: Option<String> = conn
                    .query_row(
                        "SELECT id FROM users WHERE billing_customer_id = ?1",
                        [customer_id],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(db_err)?;
                Ok(id.and_then(|id| Uuid::parse_str(&id).ok()))
            })
            .await
    }

    async fn create_session(&self, session: SessionRecord) -> StoreResult<()> {
        self.writer
            .write(move |conn| {
                conn.execute(
                    "INSERT INTO sessions (token_hash, user_id, created_at, last_seen, user_agent)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![
                        session.token_hash,
                        session.user_id.to_string(),
                        session.created_at_ms,
                        session.last_seen_ms,
                        session.user_agent
                    ],
                )
                .map_err(|err| {
                    if is_unique_violation(&err) {
                        StoreError::Conflict("session")
                    } else {
                        db_err(err)
                    }
                })?;
                Ok(())
            })
            .await
    }

    async fn get_session(&self, token_hash: &str) -> StoreResult<Option<SessionRecord>> {
        let token_hash = token_hash.to_owned();
        self.readers
            .read(move |conn| {
                conn.query_row(
                    "SELECT token_hash, user_id, created_at, last_seen, user_agent
                     FROM sessions WHERE token_hash = ?1",
                    [token_hash],
                    session_from_row,
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn touch_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<()> {
        let token_hash = token_hash.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute(
                    "UPDATE sessions SET last_seen = ?2 WHERE token_hash = ?1",
                    params![token_hash, now_ms],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn delete_session(&self, token_hash: &str) -> StoreResult<()> {
        let token_hash = token_hash.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])
                    .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn delete_expired_sessions(
        &self,
        idle_before_ms: i64,
        created_before_ms: i64,
    ) -> StoreResult<u64> {
        self.writer
            .write(move |conn| {
                let removed = conn
                    .execute(
                        "DELETE FROM sessions WHERE last_seen < ?1 OR created_at < ?2",
                        params![idle_before_ms, created_before_ms],
                    )
                    .map_err(db_err)?;
                Ok(removed as u64)
            })
            .await
    }

    async fn push(
        &self,
        user_id: Uuid,
        mutations: Vec<PreparedMutation>,
        now_ms: i64,
        max_records: i64,
    ) -> StoreResult<PushOutcome> {
        self.writer
            .write(move |conn| sync::push(conn, user_id, mutations, now_ms, max_records))
            .await
    }

    async fn pull(&self, user_id: Uuid, cursor: i64, limit: u32) -> StoreResult<PullPage> {
        self.readers
            .read(move |conn| sync::pull(conn, user_id, cursor, limit))
            .await
    }

    async fn set_photo(
        &self,
        user_id: Uuid,
        photo_url: Option<String>,
        now_ms: i64,
    ) -> StoreResult<PhotoSwap> {
        // One writer: the read and the update below run with no other write between them.
        self.writer
            .write(move |conn| {
                let replaced: Option<String> = conn
                    .query_row(
                        "SELECT photo_url FROM users WHERE id = ?1",
                        [user_id.to_string()],
                        |r| r.get(0),
                    )
                    .map_err(db_err)?;
                let cursor = conn
                    .query_row(
                        "UPDATE users SET photo_url = ?2, photo_updated_at = ?3, updated_at = ?3,
                                          change_seq = change_seq + 1, profile_version = change_seq + 1
                         WHERE id = ?1 RETURNING change_seq",
                        params![user_id.to_string(), photo_url, now_ms],
                        |r| r.get(0),
                    )
                    .map_err(db_err)?;
                Ok(PhotoSwap { cursor, replaced })
            })
            .await
    }

    async fn change_cursor(&self, user_id: Uuid) -> StoreResult<Option<i64>> {
        self.readers
            .read(move |conn| {
                conn.query_row(
                    "SELECT change_seq FROM users WHERE id = ?1",
                    [user_id.to_string()],
                    |r| r.get(0),
                )
                .optional()
                .map_err(db_err)
            })
            .await
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
        self.writer
            .write(move |conn| {
                housekeeping::delete_inactive_guests(conn, inactive_before_ms, limit)
            })
            .await
    }

    async fn prune_applied_mutations(
        &self,
        applied_before_ms: i64,
        limit: u32,
    ) -> StoreResult<u64> {
        self.writer
            .write(move |conn| {
                housekeeping::prune_applied_mutations(conn, applied_before_ms, limit)
            })
            .await
    }

    async fn ping(&self) -> StoreResult<()> {
        self.readers
            .read(|conn| conn.query_row("SELECT 1", [], |_| Ok(())).map_err(db_err))
            .await
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
