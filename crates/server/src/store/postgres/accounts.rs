//! Users: creating and reading them, password sign-in, and the profile picture.

use async_trait::async_trait;
use deadpool_postgres::Transaction;
use domain::Role;
use tokio_postgres::Row;
use uuid::Uuid;

use super::{PgStore, db_err, unique_or};
use crate::store::{AccountStore, NewUser, PhotoSwap, StoreResult, UserRecord};

pub(super) const USER_COLUMNS: &str = "id, email, display_name, photo_url, bio, role, is_anonymous, \
                            created_at, last_login, updated_at, must_change_password";

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
        must_change_password: row.get(10),
    }
}

/// Creates `user` with the records every account starts with, inside `tx`; `Conflict("email")`
/// when the e-mail is taken (the transaction is then failed: roll it back).
pub(super) async fn insert_user(tx: &Transaction<'_>, user: &NewUser) -> StoreResult<UserRecord> {
    let row = tx
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
    super::sync::insert_starter_records(tx, user.id, user.now_ms).await?;
    Ok(user_from_row(&row))
}

#[async_trait]
impl AccountStore for PgStore {
    async fn create_user(&self, user: NewUser) -> StoreResult<UserRecord> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        let created = insert_user(&tx, &user).await?;
        tx.commit().await.map_err(db_err)?;
        Ok(created)
    }

    async fn get_user(&self, id: Uuid) -> StoreResult<Option<UserRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &client
                    .prepare_cached(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
                    .await
                    .map_err(db_err)?,
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
        Ok(row.map(|row| (user_from_row(&row), row.get(11))))
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

    async fn find_user_by_email(&self, email: &str) -> StoreResult<Option<UserRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &format!("SELECT {USER_COLUMNS} FROM users WHERE email = $1"),
                &[&email],
            )
            .await
            .map_err(db_err)?;
        Ok(row.as_ref().map(user_from_row))
    }

    async fn delete_user(&self, id: Uuid) -> StoreResult<bool> {
        let client = self.client().await?;
        let deleted = client
            .execute("DELETE FROM users WHERE id = $1", &[&id])
            .await
            .map_err(db_err)?;
        Ok(deleted > 0)
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

    async fn count_users(&self) -> StoreResult<u64> {
        let client = self.client().await?;
        let row = client
            .query_one("SELECT COUNT(*) FROM users", &[])
            .await
            .map_err(db_err)?;
        Ok(u64::try_from(row.get::<_, i64>(0)).unwrap_or(0))
    }

    async fn password_hash(&self, user_id: Uuid) -> StoreResult<Option<String>> {
        let client = self.client().await?;
        let row = client
            .query_opt("SELECT password_hash FROM users WHERE id = $1", &[&user_id])
            .await
            .map_err(db_err)?;
        Ok(row.and_then(|r| r.get::<_, Option<String>>(0)))
    }

    async fn set_password(
        &self,
        user_id: Uuid,
        hash: &str,
        must_change: bool,
        now_ms: i64,
    ) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE users SET password_hash = $2, must_change_password = $3, updated_at = $4
                 WHERE id = $1",
                &[&user_id, &hash, &must_change, &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn link_password(
        &self,
        user_id: Uuid,
        email: &str,
        hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<i64>> {
        let client = self.client().await?;
        // The profile changes (e-mail, no longer a guest): bump the change sequence so every
        // device pulls it.
        let row = client
            .query_opt(
                "UPDATE users SET email = $2, password_hash = $3, is_anonymous = FALSE,
                                  updated_at = $4, change_seq = change_seq + 1,
                                  profile_version = change_seq + 1
                 WHERE id = $1 AND is_anonymous RETURNING change_seq",
                &[&user_id, &email, &hash, &now_ms],
            )
            .await
            .map_err(|e| unique_or(e, "email"))?;
        Ok(row.map(|r| r.get(0)))
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
}
