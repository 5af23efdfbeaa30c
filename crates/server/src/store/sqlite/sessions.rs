//! Sign-in sessions: each row is keyed by the hash of its cookie token.

use super::Cached as _;
use async_trait::async_trait;
use rusqlite::{OptionalExtension, Row, params};
use uuid::Uuid;

use super::{SqliteStore, accounts::select_user, conflict_as, db_err, json_keys};
use crate::store::{SessionRecord, SessionStore, StoreResult, UserRecord, sessions::READ_BATCH};

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
        temporary_password: row.get(5)?,
    })
}

fn select_session(
    conn: &rusqlite::Connection,
    token_hash: &str,
) -> StoreResult<Option<SessionRecord>> {
    conn.query_row_cached(
        "SELECT token_hash, user_id, created_at, last_seen, user_agent, temporary_password
         FROM sessions WHERE token_hash = ?1",
        [token_hash],
        session_from_row,
    )
    .optional()
    .map_err(db_err)
}

#[async_trait]
impl SessionStore for SqliteStore {
    async fn create_session(&self, session: SessionRecord) -> StoreResult<()> {
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "INSERT INTO sessions
                         (token_hash, user_id, created_at, last_seen, user_agent, temporary_password)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        session.token_hash,
                        session.user_id.to_string(),
                        session.created_at_ms,
                        session.last_seen_ms,
                        session.user_agent,
                        session.temporary_password
                    ],
                )
                .map_err(conflict_as("session"))?;
                Ok(())
            })
            .await
    }

    async fn get_session(&self, token_hash: &str) -> StoreResult<Option<SessionRecord>> {
        let token_hash = token_hash.to_owned();
        self.readers
            .read(move |conn| select_session(conn, &token_hash))
            .await
    }

    async fn get_sessions(&self, token_hashes: &[String]) -> StoreResult<Vec<SessionRecord>> {
        let chunks: Vec<String> = token_hashes.chunks(READ_BATCH).map(json_keys).collect();
        self.readers
            .read(move |conn| {
                // One statement for any number of keys (a JSON array), so it is prepared once.
                let mut select = conn
                    .prepare_cached(
                        "SELECT token_hash, user_id, created_at, last_seen, user_agent, temporary_password
                         FROM sessions
                         WHERE token_hash IN (SELECT value FROM json_each(?1))",
                    )
                    .map_err(db_err)?;
                let mut found = Vec::new();
                for chunk in chunks {
                    let rows = select
                        .query_map([chunk], session_from_row)
                        .map_err(db_err)?;
                    for row in rows {
                        found.push(row.map_err(db_err)?);
                    }
                }
                Ok(found)
            })
            .await
    }

    async fn get_session_user(
        &self,
        token_hash: &str,
    ) -> StoreResult<Option<(SessionRecord, Option<UserRecord>)>> {
        let token_hash = token_hash.to_owned();
        // Both reads in one trip to a reader thread, not two.
        self.readers
            .read(move |conn| {
                let Some(session) = select_session(conn, &token_hash)? else {
                    return Ok(None);
                };
                let user = select_user(conn, session.user_id)?;
                Ok(Some((session, user)))
            })
            .await
    }

    async fn touch_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<()> {
        let token_hash = token_hash.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute_cached(
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
                conn.execute_cached("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])
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
                    .execute_cached(
                        "DELETE FROM sessions WHERE last_seen < ?1 OR created_at < ?2",
                        params![idle_before_ms, created_before_ms],
                    )
                    .map_err(db_err)?;
                Ok(removed as u64)
            })
            .await
    }

    async fn list_sessions(&self, user_id: Uuid) -> StoreResult<Vec<SessionRecord>> {
        self.readers
            .read(move |conn| {
                let mut stmt = conn
                    .prepare_cached(
                        "SELECT token_hash, user_id, created_at, last_seen, user_agent, temporary_password
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

    async fn delete_user_session(&self, user_id: Uuid, token_hash: &str) -> StoreResult<bool> {
        let token_hash = token_hash.to_owned();
        self.writer
            .write(move |conn| {
                let ended = conn
                    .execute_cached(
                        "DELETE FROM sessions WHERE token_hash = ?1 AND user_id = ?2",
                        params![token_hash, user_id.to_string()],
                    )
                    .map_err(db_err)?;
                Ok(ended > 0)
            })
            .await
    }

    async fn delete_other_sessions(&self, user_id: Uuid, keep: &str) -> StoreResult<Vec<String>> {
        let keep = keep.to_owned();
        self.writer
            .write(move |conn| {
                let mut stmt = conn
                    .prepare_cached(
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
}
