//! Users: creating and reading them, password sign-in, and the profile picture.

use super::Cached as _;
use async_trait::async_trait;
use domain::Role;
use rusqlite::{Connection, OptionalExtension, Row, params};
use uuid::Uuid;

use super::{SqliteStore, conflict_as, db_err};
use crate::store::{AccountStore, NewUser, PhotoSwap, StoreError, StoreResult, UserRecord};

pub(super) const USER_COLUMNS: &str = "id, email, display_name, photo_url, bio, role, is_anonymous, \
                            created_at, last_login, updated_at, must_change_password";

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
        must_change_password: row.get(10)?,
    })
}

pub(super) fn select_user(conn: &Connection, id: Uuid) -> StoreResult<Option<UserRecord>> {
    conn.query_row_cached(
        &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1"),
        [id.to_string()],
        user_from_row,
    )
    .optional()
    .map_err(db_err)
}

/// Creates `user` with the records every account starts with; `Conflict("email")` when the
/// e-mail is taken.
pub(super) fn insert_user(conn: &Connection, user: &NewUser) -> StoreResult<UserRecord> {
    conn.execute_cached(
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
    .map_err(conflict_as("email"))?;
    super::sync::insert_starter_records(conn, user.id, user.now_ms)?;
    select_user(conn, user.id)?
        .ok_or_else(|| StoreError::Backend(anyhow::anyhow!("inserted user vanished")))
}

#[async_trait]
impl AccountStore for SqliteStore {
    async fn create_user(&self, user: NewUser) -> StoreResult<UserRecord> {
        self.writer
            .write(move |conn| insert_user(conn, &user))
            .await
    }

    async fn get_user(&self, id: Uuid) -> StoreResult<Option<UserRecord>> {
        self.readers.read(move |conn| select_user(conn, id)).await
    }

    async fn find_password_login(&self, email: &str) -> StoreResult<Option<(UserRecord, String)>> {
        let email = email.to_owned();
        self.readers
            .read(move |conn| {
                conn.query_row_cached(
                    &format!(
                        "SELECT {USER_COLUMNS}, password_hash FROM users
                         WHERE email = ?1 AND password_hash IS NOT NULL"
                    ),
                    [email],
                    |row| Ok((user_from_row(row)?, row.get::<_, String>(11)?)),
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn record_login(&self, id: Uuid, now_ms: i64) -> StoreResult<()> {
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "UPDATE users SET last_login = ?2 WHERE id = ?1",
                    params![id.to_string(), now_ms],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn find_user_by_email(&self, email: &str) -> StoreResult<Option<UserRecord>> {
        let email = email.to_owned();
        self.readers
            .read(move |conn| {
                conn.query_row_cached(
                    &format!("SELECT {USER_COLUMNS} FROM users WHERE email = ?1"),
                    [email],
                    user_from_row,
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn delete_user(&self, id: Uuid) -> StoreResult<bool> {
        self.writer
            .write(move |conn| {
                let deleted = conn
                    .execute_cached("DELETE FROM users WHERE id = ?1", [id.to_string()])
                    .map_err(db_err)?;
                Ok(deleted > 0)
            })
            .await
    }

    async fn list_users(&self) -> StoreResult<Vec<UserRecord>> {
        self.readers
            .read(|conn| {
                let mut stmt = conn
                    .prepare_cached(&format!(
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

    async fn count_users(&self) -> StoreResult<u64> {
        self.readers
            .read(|conn| {
                conn.query_row_cached("SELECT COUNT(*) FROM users", [], |r| r.get::<_, u64>(0))
                    .map_err(db_err)
            })
            .await
    }

    async fn password_hash(&self, user_id: Uuid) -> StoreResult<Option<String>> {
        self.readers
            .read(move |conn| {
                conn.query_row_cached(
                    "SELECT password_hash FROM users WHERE id = ?1",
                    [user_id.to_string()],
                    |r| r.get::<_, Option<String>>(0),
                )
                .optional()
                .map(Option::flatten)
                .map_err(db_err)
            })
            .await
    }

    async fn set_password(
        &self,
        user_id: Uuid,
        hash: &str,
        must_change: bool,
        now_ms: i64,
    ) -> StoreResult<()> {
        let hash = hash.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "UPDATE users SET password_hash = ?2, must_change_password = ?3, updated_at = ?4
                     WHERE id = ?1",
                    params![user_id.to_string(), hash, must_change, now_ms],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn link_password(
        &self,
        user_id: Uuid,
        email: &str,
        hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<i64>> {
        let (email, hash) = (email.to_owned(), hash.to_owned());
        self.writer
            .write(move |conn| {
                // The profile changes (e-mail, no longer a guest): bump the change sequence so
                // every device pulls it.
                conn.query_row_cached(
                    "UPDATE users SET email = ?2, password_hash = ?3, is_anonymous = 0,
                                      updated_at = ?4, change_seq = change_seq + 1,
                                      profile_version = change_seq + 1
                     WHERE id = ?1 AND is_anonymous = 1 RETURNING change_seq",
                    params![user_id.to_string(), email, hash, now_ms],
                    |r| r.get(0),
                )
                .optional()
                .map_err(conflict_as("email"))
            })
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
                    .query_row_cached(
                        "SELECT photo_url FROM users WHERE id = ?1",
                        [user_id.to_string()],
                        |r| r.get(0),
                    )
                    .map_err(db_err)?;
                let cursor = conn
                    .query_row_cached(
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
}
