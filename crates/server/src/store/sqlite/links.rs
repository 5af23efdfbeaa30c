//! Reset and invitation links.

use super::Cached as _;
use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, Row, params};
use uuid::Uuid;

use super::{SqliteStore, accounts::insert_user, accounts::select_user, db_err};
use crate::store::{
    NewUser, StoreError, StoreResult,
    links::{EmailLink, InviteUse, LinkPurpose, LinkStore, NewEmailLink, PasswordReset},
};

fn link_from_row(row: &Row<'_>) -> rusqlite::Result<EmailLink> {
    let purpose: String = row.get(0)?;
    let user_id: Option<String> = row.get(2)?;
    let bad = |index, err: Box<dyn std::error::Error + Send + Sync>| {
        rusqlite::Error::FromSqlConversionFailure(index, rusqlite::types::Type::Text, err)
    };
    Ok(EmailLink {
        purpose: LinkPurpose::from_stored(&purpose)
            .ok_or_else(|| bad(0, format!("unknown link purpose {purpose}").into()))?,
        email: row.get(1)?,
        user_id: user_id
            .map(|id| Uuid::parse_str(&id))
            .transpose()
            .map_err(|e| bad(2, e.into()))?,
        created_at_ms: row.get(3)?,
        expires_at_ms: row.get(4)?,
    })
}

fn live_link(conn: &Connection, token_hash: &str, now_ms: i64) -> StoreResult<Option<EmailLink>> {
    conn.query_row_cached(
        "SELECT purpose, email, user_id, created_at, expires_at FROM email_links
         WHERE token_hash = ?1 AND expires_at > ?2",
        params![token_hash, now_ms],
        link_from_row,
    )
    .optional()
    .map_err(db_err)
}

#[async_trait]
impl LinkStore for SqliteStore {
    async fn create_email_link(&self, link: NewEmailLink) -> StoreResult<()> {
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "DELETE FROM email_links WHERE expires_at <= ?1",
                    [link.now_ms],
                )
                .map_err(db_err)?;
                if link.purpose == LinkPurpose::Invite {
                    conn.execute_cached(
                        "DELETE FROM email_links WHERE purpose = 'invite' AND email = ?1",
                        [&link.email],
                    )
                    .map_err(db_err)?;
                }
                conn.execute_cached(
                    "INSERT INTO email_links (token_hash, purpose, email, user_id, created_at,
                                              expires_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        link.token_hash,
                        link.purpose.as_str(),
                        link.email,
                        link.user_id.map(|id| id.to_string()),
                        link.now_ms,
                        link.expires_at_ms
                    ],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn find_email_link(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<EmailLink>> {
        let token_hash = token_hash.to_owned();
        self.readers
            .read(move |conn| live_link(conn, &token_hash, now_ms))
            .await
    }

    async fn reset_password_with_link(
        &self,
        token_hash: &str,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<PasswordReset>> {
        let (token_hash, password_hash) = (token_hash.to_owned(), password_hash.to_owned());
        self.writer
            .write(move |conn| {
                let user_id: Option<String> = conn
                    .query_row_cached(
                        "DELETE FROM email_links
                         WHERE token_hash = ?1 AND purpose = 'password-reset' AND expires_at > ?2
                         RETURNING user_id",
                        params![token_hash, now_ms],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(db_err)?;
                let Some(user_id) = user_id else {
                    return Ok(None);
                };
                conn.execute_cached(
                    "DELETE FROM email_links WHERE user_id = ?1 AND purpose = 'password-reset'",
                    [&user_id],
                )
                .map_err(db_err)?;
                conn.execute_cached(
                    "UPDATE users SET password_hash = ?2, must_change_password = 0, updated_at = ?3
                     WHERE id = ?1",
                    params![user_id, password_hash, now_ms],
                )
                .map_err(db_err)?;
                let mut ended = conn
                    .prepare_cached("DELETE FROM sessions WHERE user_id = ?1 RETURNING token_hash")
                    .map_err(db_err)?;
                let ended_sessions = ended
                    .query_map([&user_id], |r| r.get(0))
                    .map_err(db_err)?
                    .collect::<rusqlite::Result<Vec<String>>>()
                    .map_err(db_err)?;
                let id = Uuid::parse_str(&user_id).map_err(|e| StoreError::Backend(e.into()))?;
                let user = select_user(conn, id)?.ok_or_else(|| {
                    StoreError::Backend(anyhow::anyhow!("user {id} of a reset link vanished"))
                })?;
                Ok(Some(PasswordReset {
                    user,
                    ended_sessions,
                }))
            })
            .await
    }

    async fn sign_up_with_invite(&self, token_hash: &str, user: NewUser) -> StoreResult<InviteUse> {
        let token_hash = token_hash.to_owned();
        self.writer
            .write(move |conn| {
                let Some(link) = live_link(conn, &token_hash, user.now_ms)?
                    .filter(|link| link.purpose == LinkPurpose::Invite)
                else {
                    return Ok(InviteUse::Gone);
                };
                // The account first: if the address was taken meanwhile, nothing is written and
                // the invitation stands.
                let user = NewUser {
                    email: Some(link.email),
                    ..user
                };
                let created = match insert_user(conn, &user) {
                    Ok(created) => created,
                    Err(StoreError::Conflict(_)) => return Ok(InviteUse::EmailTaken),
                    Err(err) => return Err(err),
                };
                conn.execute_cached(
                    "DELETE FROM email_links WHERE token_hash = ?1",
                    [&token_hash],
                )
                .map_err(db_err)?;
                Ok(InviteUse::Created(created))
            })
            .await
    }
}
