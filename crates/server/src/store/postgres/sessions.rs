//! Sign-in sessions: each row is keyed by the hash of its cookie token.

use async_trait::async_trait;
use tokio_postgres::Row;
use uuid::Uuid;

use super::{
    PgStore,
    accounts::{USER_COLUMNS, user_from_row},
    db_err, unique_or,
};
use crate::store::{SessionRecord, SessionStore, StoreResult, UserRecord, sessions::READ_BATCH};

fn session_from_row(row: &Row) -> SessionRecord {
    SessionRecord {
        token_hash: row.get(0),
        user_id: row.get(1),
        created_at_ms: row.get(2),
        last_seen_ms: row.get(3),
        user_agent: row.get(4),
        temporary_password: row.get(5),
    }
}

#[async_trait]
impl SessionStore for PgStore {
    async fn create_session(&self, session: SessionRecord) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO sessions
                     (token_hash, user_id, created_at, last_seen, user_agent, temporary_password)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &session.token_hash,
                    &session.user_id,
                    &session.created_at_ms,
                    &session.last_seen_ms,
                    &session.user_agent,
                    &session.temporary_password,
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
                &client
                    .prepare_cached(
                        "SELECT token_hash, user_id, created_at, last_seen, user_agent, temporary_password
                 FROM sessions WHERE token_hash = $1",
                    )
                    .await
                    .map_err(db_err)?,
                &[&token_hash],
            )
            .await
            .map_err(db_err)?;
        Ok(row.as_ref().map(session_from_row))
    }

    async fn get_sessions(&self, token_hashes: &[String]) -> StoreResult<Vec<SessionRecord>> {
        let client = self.client().await?;
        let select = client
            .prepare_cached(
                "SELECT token_hash, user_id, created_at, last_seen, user_agent, temporary_password
                 FROM sessions WHERE token_hash = ANY($1)",
            )
            .await
            .map_err(db_err)?;
        let mut found = Vec::new();
        for chunk in token_hashes.chunks(READ_BATCH) {
            let rows = client.query(&select, &[&chunk]).await.map_err(db_err)?;
            found.extend(rows.iter().map(session_from_row));
        }
        Ok(found)
    }

    async fn get_session_user(
        &self,
        token_hash: &str,
    ) -> StoreResult<Option<(SessionRecord, Option<UserRecord>)>> {
        // One connection and cached statements: two round trips where there were four.
        let client = self.client().await?;
        let session = client
            .prepare_cached(
                "SELECT token_hash, user_id, created_at, last_seen, user_agent, temporary_password
                 FROM sessions WHERE token_hash = $1",
            )
            .await
            .map_err(db_err)?;
        let Some(row) = client
            .query_opt(&session, &[&token_hash])
            .await
            .map_err(db_err)?
        else {
            return Ok(None);
        };
        let session = session_from_row(&row);
        let user = client
            .prepare_cached(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
            .await
            .map_err(db_err)?;
        let user = client
            .query_opt(&user, &[&session.user_id])
            .await
            .map_err(db_err)?;
        Ok(Some((session, user.as_ref().map(user_from_row))))
    }

    async fn touch_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                &client
                    .prepare_cached("UPDATE sessions SET last_seen = $2 WHERE token_hash = $1")
                    .await
                    .map_err(db_err)?,
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

    async fn list_sessions(&self, user_id: Uuid) -> StoreResult<Vec<SessionRecord>> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT token_hash, user_id, created_at, last_seen, user_agent, temporary_password
                 FROM sessions WHERE user_id = $1 ORDER BY last_seen DESC",
                &[&user_id],
            )
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(session_from_row).collect())
    }

    async fn delete_user_session(&self, user_id: Uuid, token_hash: &str) -> StoreResult<bool> {
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

    async fn delete_other_sessions(&self, user_id: Uuid, keep: &str) -> StoreResult<Vec<String>> {
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
}
