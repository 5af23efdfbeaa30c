//! Account security: a user's sessions (list, end) and passwords (change, add to a guest).

use uuid::Uuid;

use super::{PgStore, db_err, session_from_row, unique_or};
use crate::store::{SessionRecord, StoreResult};

impl PgStore {
    pub(super) async fn sessions_of(&self, user_id: Uuid) -> StoreResult<Vec<SessionRecord>> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT token_hash, user_id, created_at, last_seen, user_agent
                 FROM sessions WHERE user_id = $1 ORDER BY last_seen DESC",
                &[&user_id],
            )
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(session_from_row).collect())
    }

    pub(super) async fn end_user_session(
        &self,
        user_id: Uuid,
        token_hash: &str,
    ) -> StoreResult<bool> {
        let client = self.client().await?;
        let ended = client
            .execute(
                "DELETE FROM sessions WHERE token_hash = $1 AND user_id = $2",
                &[&token_hash, &user_id],
            )
            .await
            .map_err(db_err)?;
        Ok(ended > 0)
    }

    pub(super) async fn end_other_sessions(
        &self,
        user_id: Uuid,
        keep: &str,
    ) -> StoreResult<Vec<String>> {
        let client = self.client().await?;
        let rows = client
            .query(
                "DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash",
                &[&user_id, &keep],
            )
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub(super) async fn password_hash_of(&self, user_id: Uuid) -> StoreResult<Option<String>> {
        let client = self.client().await?;
        let row = client
            .query_opt("SELECT password_hash FROM users WHERE id = $1", &[&user_id])
            .await
            .map_err(db_err)?;
        Ok(row.and_then(|r| r.get::<_, Option<String>>(0)))
    }

    pub(super) async fn replace_password(
        &self,
        user_id: Uuid,
        hash: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1",
                &[&user_id, &hash, &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    pub(super) async fn add_password_to_guest(
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
}
