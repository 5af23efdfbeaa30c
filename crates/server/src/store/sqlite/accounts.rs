//! Account security: a user's sessions (list, end) and passwords (change, add to a guest).

use rusqlite::{OptionalExtension, params};
use uuid::Uuid;

use super::{SqliteStore, db_err, is_unique_violation, session_from_row};
use crate::store::{SessionRecord, StoreError, StoreResult};

impl SqliteStore {
    pub(super) async fn sessions_of(&self, user_id: Uuid) -> StoreResult<Vec<SessionRecord>> {
        self.readers
            .read(move |conn| {
                let mut stmt = conn
                    .prepare(
                        "SELECT token_hash, user_id, created_at, last_seen, user_agent
                         FROM sessions WHERE user_id = ?1 ORDER BY last_seen DESC",
                    )
                    .map_err(db_err)?;
                let rows = stmt
                    .query_map([user_id.to_string()], session_from_row)
                    .map_err(db_err)?;
                rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
            })
            .await
    }

    pub(super) async fn end_user_session(
        &self,
        user_id: Uuid,
        token_hash: &str,
    ) -> StoreResult<bool> {
        let token_hash = token_hash.to_owned();
        self.writer
            .write(move |conn| {
                let ended = conn
                    .execute(
                        "DELETE FROM sessions WHERE token_hash = ?1 AND user_id = ?2",
                        params![token_hash, user_id.to_string()],
                    )
                    .map_err(db_err)?;
                Ok(ended > 0)
            })
            .await
    }

    pub(super) async fn end_other_sessions(
        &self,
        user_id: Uuid,
        keep: &str,
    ) -> StoreResult<Vec<String>> {
        let keep = keep.to_owned();
        self.writer
            .write(move |conn| {
                let mut stmt = conn
                    .prepare(
                        "DELETE FROM sessions WHERE user_id = ?1 AND token_hash <> ?2
                         RETURNING token_hash",
                    )
                    .map_err(db_err)?;
                let ended = stmt
                    .query_map(params![user_id.to_string(), keep], |r| r.get(0))
                    .map_err(db_err)?;
                ended.collect::<Result<Vec<String>, _>>().map_err(db_err)
            })
            .await
    }

    pub(super) async fn password_hash_of(&self, user_id: Uuid) -> StoreResult<Option<String>> {
        self.readers
            .read(move |conn| {
                conn.query_row(
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

    pub(super) async fn replace_password(
        &self,
        user_id: Uuid,
        hash: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        let hash = hash.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute(
                    "UPDATE users SET password_hash = ?2, updated_at = ?3 WHERE id = ?1",
                    params![user_id.to_string(), hash, now_ms],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    pub(super) async fn add_password_to_guest(
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
                conn.query_row(
                    "UPDATE users SET email = ?2, password_hash = ?3, is_anonymous = 0,
                                      updated_at = ?4, change_seq = change_seq + 1,
                                      profile_version = change_seq + 1
                     WHERE id = ?1 AND is_anonymous = 1 RETURNING change_seq",
                    params![user_id.to_string(), email, hash, now_ms],
                    |r| r.get(0),
                )
                .optional()
                .map_err(|err| {
                    if is_unique_violation(&err) {
                        StoreError::Conflict("email")
                    } else {
                        db_err(err)
                    }
                })
            })
            .await
    }
}
